"""The hall's reaper: however the supervisor ends (SIGKILL, a crash, its terminal closed), what it started ends too.

``cardtable hall`` starts it first, in a session of its own, its standard input a pipe whose writing end only the
supervisor holds: the end of that input is the supervisor's end, whatever ended it. The reaper then ends every
process still marked with the hall's run directory (``hall_processes``): SIGTERM (the broker saves its persistence,
a service closes its log), SIGKILL to what is left after ``GRACE_S``. The supervisor's own children are told by the
kernel at once (``hall.procs``: PR_SET_PDEATHSIG); the reaper reaches the rest: the broker (``bus.broker`` starts
it), whatever a child started in turn, a child caught starting as the supervisor died. After a stop the supervisor
closes the pipe itself and the reaper, finding nothing left, ends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from hall.procs import hall_processes

GRACE_S = 3.0  # SIGTERM, then this long before SIGKILL
GIVE_UP_S = 30.0  # a process that outlives SIGKILL this long (stuck in the kernel) is left


class Reaper:
    """The reaper of the hall in ``hall_dir``, as the supervisor holds it: :meth:`close` after a stop."""

    def __init__(self, hall_dir: Path):
        read, self._end = os.pipe()  # not inherited: no other child holds the writing end
        try:
            (hall_dir / "logs").mkdir(parents=True, exist_ok=True)
            with open(hall_dir / "logs" / "reaper.log", "ab") as out:
                self.proc = subprocess.Popen([sys.executable, "-m", "hall.reaper", str(hall_dir)], stdin=read,
                                             stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        except BaseException:
            os.close(self._end)
            raise
        finally:
            os.close(read)

    def close(self) -> None:
        os.close(self._end)
        self.proc.wait()


def end(hall_dir: Path, grace: float = GRACE_S) -> None:
    """SIGTERM to every process of the hall, once each, as it is found; SIGKILL to what is left after ``grace``."""
    termed: set[int] = set()
    started = time.monotonic()
    while (left := hall_processes(hall_dir)) and time.monotonic() - started < grace + GIVE_UP_S:
        late = time.monotonic() - started >= grace
        for pid in left:
            if late or pid not in termed:
                try:
                    os.kill(pid, signal.SIGKILL if late else signal.SIGTERM)
                except ProcessLookupError:
                    pass
                termed.add(pid)
        time.sleep(0.1)


def main(hall_dir: Path) -> int:
    while sys.stdin.buffer.read(4096):  # nothing is written: only the end counts
        pass
    end(hall_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
