"""What the table service believes of an input before it logs it: when it happened, and whether
its sender floods the table. Pure values, no networking; the service holds one :class:`Guard`.

**Time.** The referee trusts its own clock. An input's ``at`` is its sender's clock (the camera's,
the board bridge's); it is believed up to ``AHEAD_S`` past the moment the input reached the service,
as far as two clocks on one network may disagree. An ``at`` further ahead cannot be true (nothing
arrives before it happened): the input is stamped with its arrival instead, and counted. A clock
behind does no harm to a ruling (a table's time never runs back: each input is judged at the later
of the table's time and its ``at``), so an earlier ``at`` is kept as sent: an input that waited in
the broker while the service was away keeps the moment it happened. A clock behind does harm to the
shot clock though: a Tractor play dated before its turn began is judged in time however late it came.
So per input topic the guard keeps the latest senders' offsets (``at`` minus arrival) of the inputs
that came live (not the ones that waited in the broker while the service could not hear: they are
behind by the wait), and their median beyond ``AHEAD_S`` ahead or ``BEHIND_S`` behind shows the
table's clock as off (``Guard.clocks_off``), on the console, for a person to set it right.

**Pace.** Each input topic has its own sender (its own broker user) and its own token bucket:
``LIMITS`` per second, with a burst. An input over its topic's limit is dropped (acknowledged, not
logged) and counted, so a flooding board costs the table nothing but its own presses. The console's
``commands`` are never limited.

>>> g = Guard(ahead_s=2.0)
>>> g.time("board/in", at=1000.5, arrived=1000.0), g.time("board/in", at=8200.0, arrived=1001.0)
(1000.5, 1001.0)
>>> g.clamped, g.time("observed", at=990.0, arrived=1002.0)
({'board/in': 1}, 990.0)
>>> g.time("observed", at=400.0, arrived=1003.0, live=False), g.clocks_off()  # it may have waited: not counted
(400.0, {'board/in': 3599.75, 'observed': -12.0})
"""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import dataclass, field

from bus.pace import Bucket

AHEAD_S = 2.0  # how far a sender's clock may run ahead of the service's (one network, NTP or not)
BEHIND_S = 3.0  # a sender's clock further behind than this shows as off (a camera's own delay, its settle time, is ~1 s)
OFFSETS_KEPT = 15  # per topic, the latest offsets whose median judges its senders' clock
# Inputs per second and burst, per topic: far above what people at a table make (a few presses,
# a play or two a second), far below a flood; ``commands`` have none.
LIMITS = {"observed": (100.0, 200), "removed": (100.0, 200), "board/in": (50.0, 100),
          "camera/status": (10.0, 20), "board/status": (10.0, 20)}  # a device says its presence when it changes


@dataclass
class Guard:
    """The service's checks on its inputs (see the module's docstring). ``ahead_s`` None believes
    every ``at`` and ``limits`` None limits nobody: a simulation on virtual time, whose senders run
    ahead of any clock and faster than a hall."""

    ahead_s: float | None = AHEAD_S
    limits: dict[str, tuple[float, float]] | None = field(default_factory=lambda: dict(LIMITS))
    clamped: dict[str, int] = field(default_factory=dict)  # inputs stamped with their arrival, per topic
    dropped: dict[str, int] = field(default_factory=dict)  # inputs over the limit, per topic
    _offsets: dict[str, deque] = field(default_factory=dict)
    _buckets: dict[str, Bucket] = field(default_factory=dict)

    def admit(self, name: str, now: float, count: bool = True) -> bool:
        """May one more input of topic ``name`` in (``now``: a monotonic clock)? Counts a refusal (``count``: else
        the caller counts what it drops, :meth:`drop`)."""
        limit = self.limits.get(name) if self.limits is not None else None
        if limit is None:
            return True
        bucket = self._buckets.get(name)
        if bucket is None:
            bucket = self._buckets[name] = Bucket(*limit)
        if bucket.take(now):
            return True
        if count:
            self.drop(name)
        return False

    def drop(self, name: str) -> None:
        """Count an input of topic ``name`` dropped."""
        self.dropped[name] = self.dropped.get(name, 0) + 1

    def time(self, name: str, at: float, arrived: float, live: bool = True) -> float:
        """The time the referee takes for an input of topic ``name`` sent ``at`` and ``arrived``;
        ``live`` False: it may have waited in the broker while the service could not hear (its
        offset says nothing of its sender's clock)."""
        if self.ahead_s is None:
            return at
        if live or at > arrived:
            self._offsets.setdefault(name, deque(maxlen=OFFSETS_KEPT)).append((arrived, at - arrived))
        if at - arrived <= self.ahead_s:
            return at
        self.clamped[name] = self.clamped.get(name, 0) + 1
        return arrived

    def forget(self, names: tuple[str, ...], since: float) -> None:
        """Drop the offsets of topics ``names`` whose inputs arrived at ``since`` or later: their device has said
        it is back, and what it kept while away may have come before its word (another session of the service).

        >>> g = Guard()
        >>> for i in range(3): _ = g.time("board/in", at=100.0 + i - 300, arrived=100.0 + i)
        >>> g.forget(("board/in",), since=101.0); g.clocks_off()
        {'board/in': -300.0}
        >>> g.forget(("board/in",), since=0.0); g.clocks_off()
        {}
        """
        for name in names:
            offsets = self._offsets.get(name)
            if offsets:
                self._offsets[name] = deque(((a, o) for a, o in offsets if a < since), maxlen=OFFSETS_KEPT)

    def clocks_off(self) -> dict[str, float]:
        """Topic -> its senders' typical offset in seconds (ahead positive), where it is off.

        >>> g = Guard()
        >>> for i in range(5): _ = g.time("board/in", at=100.0 + 7200 + i, arrived=100.0 + i)
        >>> g.clocks_off()
        {'board/in': 7200.0}
        """
        if self.ahead_s is None:
            return {}
        off = {}
        for name, offsets in self._offsets.items():
            if not offsets:
                continue
            typical = statistics.median(o for _, o in offsets)
            if typical > self.ahead_s or typical < -BEHIND_S:
                off[name] = round(typical, 3)
        return off


__all__ = ["AHEAD_S", "BEHIND_S", "LIMITS", "Guard"]
