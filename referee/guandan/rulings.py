"""A Guandan ruling: a violation the engine finds, with the plays that prove it.

>>> Ruling("revoke", "E", "held S5 when it passed", ((7, "S5"),))
Ruling(kind='revoke', seat='E', detail='held S5 when it passed', evidence=((7, 'S5'),))
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ruling:
    """A violation for the referee: its kind, the seat, what happened, and the plays that prove it
    (``evidence``: (turn number, cards) seen later)."""

    kind: str
    seat: str
    detail: str
    evidence: tuple[tuple[int, str], ...] = ()


__all__ = ["Ruling"]
