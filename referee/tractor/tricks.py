"""Who wins a trick.

A follower can win only with the lead's format, all in the led suit or all in
trumps, and must beat the play winning so far; equal plays: the earlier wins.
Where the rulebook lets a format outrank another of the same size (seed 003:
bomb > two-pair tractor, 推土机 > three-pair tractor, 地雷 > four-pair tractor), the
outranking format beats it whatever its grade, and a trump ruff must match the
highest format played so far. Throws ruffed by several players: the highest
unit of the lead's strongest kind decides (seed 000 第十二条 1).

>>> t = Trumps.of("zhongkai-2010", "7", "H")
>>> trick_winner(t, [Cards.parse(p) for p in ("S3", "D7", "C7", "S4")])
1
"""

from __future__ import annotations

from referee.cards import Cards
from referee.tractor.follow import ceiling, lead_structure, requirement
from referee.tractor.leads import strongest_unit
from referee.tractor.trumps import TRUMP, Trumps
from referee.tractor.units import Holding, Unit, unit_of


def play_value(trumps: Trumps, play: Cards, structure: tuple[Unit, ...]) -> tuple | None:
    """(format rank, is trump, grade) of a play against the lead's structure; None if it cannot win."""
    suits = trumps.suits_in(play)
    lead_suit = structure[0].suit
    if len(suits) != 1 or suits.pop() not in (lead_suit, TRUMP):
        return None
    trump = trumps.is_trump(next(iter(play)))
    if len(structure) == 1:
        unit = unit_of(trumps, play)
        if unit is None:
            return None
        if unit.kind == structure[0].kind:
            return (0, trump, unit.top)
        if (unit.kind, structure[0].kind) in trumps.rules.combos.outranks:
            return (1, trump, unit.top)
        return None
    if requirement(trumps, play, structure) != ceiling(trumps, structure):
        return None
    strongest = strongest_unit(trumps, structure)
    holding = Holding(trumps, play)
    top = max(t for t, _ in holding.uniform(strongest.width, strongest.length))
    return (0, trump, top)


def trick_winner(
    trumps: Trumps,
    plays: list[Cards],
    structure: tuple[Unit, ...] | None = None,
    cannot_win: frozenset[int] = frozenset(),
) -> int:
    """Index of the winning play (the lead is 0). ``cannot_win``: plays ruled out (revokes)."""
    structure = structure or lead_structure(trumps, plays[0])
    strongest = strongest_unit(trumps, structure)
    best, value = 0, (0, strongest.suit == TRUMP, strongest.top)
    for i, play in enumerate(plays[1:], 1):
        if i in cannot_win:
            continue
        v = play_value(trumps, play, structure)
        if v is not None and v > value:
            best, value = i, v
    return best
