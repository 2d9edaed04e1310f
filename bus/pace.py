"""A sender's pace: a token bucket, so that one flooding sender costs only its own messages.

The table service keeps one per input topic (``referee.table.guard``) and the board bridge one for its
presses (``bridge.run``): a message over the pace is dropped and counted, never queued.

>>> b = Bucket(rate=2.0, burst=3)
>>> [b.take(now=0.0) for _ in range(4)], b.take(now=0.5), b.take(now=0.6)
([True, True, True, False], True, False)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` kept; ``take`` spends one."""

    rate: float
    burst: float
    tokens: float = -1.0
    last: float = 0.0

    def take(self, now: float) -> bool:
        if self.tokens < 0:  # the first take: a full bucket
            self.tokens, self.last = self.burst, now
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


__all__ = ["Bucket"]
