"""A service's output as systemd's journal takes it, a pipe, for the tests of a hung service (the bridge's, the
camera's): read as the journal reads it until :meth:`Journal.stuck` (the journal stuck, a terminal paused with
Ctrl-S), then filled and read no more, so that the service's next line blocks its writer."""

from __future__ import annotations

import fcntl
import os
import select
import threading

F_SETPIPE_SZ = 1031  # fcntl: a pipe's buffer, here its least (a page)


class Journal:
    """``stdout=journal.write_end, stderr=journal.write_end`` of the service; ``text`` what was read of it."""

    def __init__(self) -> None:
        self.read_end, self.write_end = os.pipe()
        fcntl.fcntl(self.write_end, F_SETPIPE_SZ, 4096)
        self.text, self._stop = b"", threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            if select.select([self.read_end], [], [], 0.05)[0]:
                self.text += os.read(self.read_end, 65536)

    def stuck(self) -> None:
        self._stop.set()
        self._reader.join()
        filler = os.open(f"/proc/self/fd/{self.write_end}", os.O_WRONLY | os.O_NONBLOCK)  # its own non-blocking file
        try:
            while True:
                os.write(filler, b"-" * 256)
        except BlockingIOError:
            pass
        finally:
            os.close(filler)

    def close(self) -> None:
        self._stop.set()
        self._reader.join()
        os.close(self.read_end)
        os.close(self.write_end)
