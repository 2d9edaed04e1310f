"""A service that stops working must not look online: the board bridge's ``board/status`` and the camera's
``camera/status``, whose last will is ``offline``.

A service's main loop can block for ever (a write to a log nobody reads: the journal stuck, a terminal paused with
Ctrl-S; a wedged device; a library call stuck; a deadlock) while paho's network thread keeps its broker connection
alive with pings: the broker sends the last will only when the connection dies, so the presence said ``online``
while nothing went through. :class:`Watchdog`, a thread of its own, ends the process when the loop has not turned for
its ``hung_s``: it says so in words (for at most ``SAY_S``: the log may be what hangs) and exits with ``FAILED``
without a goodbye, so the broker publishes the will and the machine's unit starts the service again. A process
stopped whole (SIGSTOP, a frozen machine) stops its watchdog too, and paho's pings: the broker drops it, and
publishes its will, once it has heard nothing for 1.5 times the connection's keepalive, ``KEEPALIVE_S`` (9 to 12 s
measured with mosquitto 2.0.11; 47 s with paho's 30 s); let go on, it reconnects, and its watchdog does not take the
stop for its loop's hang.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

from cardtable.lang import FAILED

KEEPALIVE_S = 5  # the broker connection's keepalive of a service with a presence (table service, camera, bridge)
SAY_S = 1.0  # how long the words may take before the process ends anyway


class Watchdog:
    """``with Watchdog(hung_s, hung) as dog:`` around the loop (or ``dog.start()`` and ``dog.stop()``), ``dog.turn()``
    on every turn; ``hung(seconds)`` says, in words, that the loop has not turned for ``seconds``, just before the
    process ends."""

    def __init__(self, hung_s: float, hung: Callable[[float], None], name: str = "watchdog"):
        self.hung_s, self.hung, self.name = hung_s, hung, name
        self.turned = time.monotonic()
        self._done = threading.Event()

    def turn(self) -> None:
        self.turned = time.monotonic()

    def start(self) -> Watchdog:
        self.turn()
        threading.Thread(target=self._watch, name=self.name, daemon=True).start()
        return self

    def stop(self) -> None:
        self._done.set()

    def __enter__(self) -> Watchdog:
        return self.start()

    def __exit__(self, *_) -> None:
        self.stop()

    def _watch(self) -> None:
        """Counts the time the loop stood still while this thread ran: a gap longer than two of its waits is this
        thread stopped too (SIGSTOP, a suspended machine), the whole process and not its loop, counted as two."""
        every = self.hung_s / 10
        seen, stood, checked = self.turned, 0.0, time.monotonic()
        while not self._done.wait(every):
            now = time.monotonic()
            stood = 0.0 if self.turned != seen else stood + min(now - checked, 2 * every)
            seen, checked = self.turned, now
            if stood >= self.hung_s:
                saying = threading.Thread(target=self.hung, args=(stood,), daemon=True)
                saying.start()
                saying.join(SAY_S)
                os._exit(FAILED)
