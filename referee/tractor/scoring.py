"""Points, kitty capture (抠底) and the level tables.

>>> outcome(load("zhongkai-2010"), 115)
Outcome(side='dealer', levels=1)
>>> outcome(load("classic-3deck"), 120)
Outcome(side='defenders', levels=0)
>>> outcome(load("shaoguan-2023"), 140)
Outcome(side='dealer', levels=2)
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import Cards
from referee.rulebooks import TractorRulebook, load  # noqa: F401 (load: doctests)
from referee.tractor.trumps import Trumps
from referee.tractor.units import Unit, unit_key


@dataclass(frozen=True)
class Outcome:
    """Which side goes up after a hand, and by how many levels (0: the defenders only take over)."""

    side: str  # "dealer" | "defenders"
    levels: int


def outcome(rules: TractorRulebook, defender_points: int) -> Outcome:
    """The level table: bands of defender points, then one more level each ``step`` beyond the last band."""
    table = rules.levels
    p = defender_points
    if p >= table.take_over:
        lower, levels = next((b for b in reversed(table.defenders) if b[0] <= p))
        if (lower, levels) == table.defenders[-1]:
            levels += (p - lower) // table.defenders_step
        return Outcome("defenders", levels)
    for lower, levels in table.dealer:
        if p >= lower:
            return Outcome("dealer", levels)
    lower, levels = table.dealer[-1]
    return Outcome("dealer", levels + -(-(lower - p) // table.dealer_step))


def points_bound(rules: TractorRulebook) -> int:
    """The most defender points (or, negative, the fewest) a hand of this book can give: every point
    card of the decks, the kitty's most points (tens and kings) at the largest capture multiplier a
    hand's cards can make, and the book's largest penalty on every card. Points beyond are no hand's.

    >>> points_bound(load("zhongkai-2010")), points_bound(load("shaoguan-2023"))
    (8520, 39120)
    """
    deal, k = rules.deal, rules.kitty_capture
    card_points = 100 * deal.decks
    if k.multiplier == "cards":
        most = deal.hand_size
    else:
        rows = (k.single, k.pair, k.triple, k.pair_tractor[0] + k.pair_tractor[1] * (deal.hand_size // 2 - 2),
                k.triple_tractor[0] + k.triple_tractor[1] * (deal.hand_size // 3 - 2))
        most = 2 * max(rows)  # a throw: its two highest units
    captured = (10 * deal.kitty if k.source == "kitty" else card_points) * most
    penalty = max((p.points for p in rules.penalties.values()), default=0)
    return card_points + captured + penalty * 54 * deal.decks


def unit_multiplier(rules: TractorRulebook, unit: Unit) -> int:
    k = rules.kitty_capture
    width, length = unit.kind
    if length == 1:
        return {1: k.single, 2: k.pair, 3: k.triple}.get(width, k.triple)
    base, extra = k.pair_tractor if width == 2 else k.triple_tractor
    return base + extra * (length - 2)


def capture_multiplier(trumps: Trumps, winning: Cards, structure: tuple[Unit, ...]) -> int:
    """How many times the kitty counts when the defenders win the last trick with ``winning``."""
    rules = trumps.rules
    k = rules.kitty_capture
    if k.trumps_only and not all(trumps.is_trump(c) for c in winning):
        return 0
    if k.multiplier == "cards":
        return len(winning)
    if len(structure) == 1:
        return unit_multiplier(rules, structure[0])
    ranked = sorted(structure, key=lambda u: (unit_key(trumps, *u.kind), u.top), reverse=True)
    return sum(unit_multiplier(rules, u) for u in ranked[:2])


def kitty_points(trumps: Trumps, kitty_value: int, winning: Cards, structure: tuple[Unit, ...], winner_is_defender: bool) -> int:
    """Points the defenders add from the kitty (or, without a kitty, from the last trick)."""
    if not winner_is_defender:
        return 0
    return kitty_value * capture_multiplier(trumps, winning, structure)


def points(cards: Cards) -> int:
    return cards.points
