"""The service's time: the wall clock when it starts, then counted on the monotonic clock, so that a step of the
computer's clock (an NTP step after boot, someone setting the date, a machine resumed) is not time passing at the
table: stepped forward it forfeited a late side's round at once, stepped back it stood every clock of the table
still for as long, and the table looked healthy either way. The step is said in the service's log instead
(:meth:`SteadyClock.moved`).

>>> wall, mono = [1000.0], [5.0]
>>> clock = SteadyClock(lambda: wall[0], lambda: mono[0])
>>> mono[0] += 2.0; wall[0] += 2.0 + 1500.0  # two seconds pass, and the computer's clock is set 25 minutes on
>>> clock(), clock.moved()
(1002.0, 1500.0)
>>> clock.not_before(1100.0), clock(), clock.moved()  # the log's last entry is later than the service's time
(98.0, 1100.0, 1500.0)
"""

from __future__ import annotations

import time
from collections.abc import Callable

STEP_S = 5.0  # the wall clock this far from the service's time: said in its health (NTP slews far less)


class SteadyClock:
    """Seconds since the epoch as the service counts them (call it), from the wall clock at its start."""

    def __init__(self, wall: Callable[[], float] = time.time, mono: Callable[[], float] = time.monotonic):
        self._wall, self._mono = wall, mono
        self._base = wall() - mono()
        self._start = 0.0  # how far the service's time began ahead of the wall clock (by :meth:`not_before`): not a step

    def __repr__(self) -> str:
        return f"SteadyClock(moved={self.moved():+.1f} s)"

    def __call__(self) -> float:
        return self._base + self._mono()

    def not_before(self, at: float) -> float:
        """Count on from ``at`` if it is later than now (the log's latest entry, made before a step back); the
        seconds it moved on (0 when ``at`` is not later)."""
        ahead = max(0.0, at - self())
        self._base += ahead
        self._start += ahead
        return ahead

    def moved(self) -> float:
        """How far the wall clock has stepped since the service's time began (seconds, + ahead): 0 until it steps,
        whatever :meth:`not_before` took."""
        return self._wall() - self() + self._start


__all__ = ["STEP_S", "SteadyClock"]
