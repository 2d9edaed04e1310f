"""A Guandan ruling: a violation the engine finds, with the plays that prove it.

>>> from referee.reasons import Reason
>>> Ruling("tribute_not_largest", "E", Reason("guandan.tribute_proven", seat="E", card="S5", receiver="N", held_cards=["S9"]), ((7, "S9"),))
Ruling(kind='tribute_not_largest', seat='E', detail=Reason('guandan.tribute_proven', card='S5', held_cards=['S9'], receiver='N', seat='E'), evidence=((7, 'S9'),))
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.reasons import Reason


@dataclass(frozen=True)
class Ruling:
    """A violation for the referee: its kind, the seat, why (a :class:`~referee.reasons.Reason`), and the plays
    that prove it (``evidence``: (turn number, cards) seen later)."""

    kind: str
    seat: str
    detail: Reason  # why, for a person (``referee.reasons``)
    evidence: tuple[tuple[int, str], ...] = ()


__all__ = ["Ruling"]
