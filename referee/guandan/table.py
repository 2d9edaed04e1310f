"""Seats and teams (from :mod:`referee.seats`) and rulings shared by the Guandan modules.

Play goes counter-clockwise S -> E -> N -> W (``shared/conformance/README.md``): a seat's
下家 is the next seat, its 上家 the one before, its partner (对家, 对门) sits opposite.

>>> next_seat("W"), prev_seat("S"), partner("E"), team_of("N")
('S', 'W', 'W', 'SN')
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.seats import SEATS, TEAMS, next_seat, partner, prev_seat, team_of


@dataclass(frozen=True)
class Ruling:
    """A violation for the referee: its kind, the seat, what happened, and the plays that prove it
    (``evidence``: (turn number, cards) seen later)."""

    kind: str
    seat: str
    detail: Reason  # why, for a person (``referee.reasons``)
    evidence: tuple[tuple[int, str], ...] = ()


__all__ = ["SEATS", "TEAMS", "Ruling", "next_seat", "partner", "prev_seat", "team_of"]
