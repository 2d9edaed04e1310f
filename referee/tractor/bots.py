"""Random players: legal leads and follows, and a declaration in the draw (``bid``), for the demo, the table's
simulator, property tests and benchmarks.

Plays are *built* from the rules (a unit found in the hand; a follow built from the
hand's requirement), never picked by trying the checker, so the checker can be
tested against them.

>>> import random
>>> t = Trumps.of("classic-3deck", "7", "H")
>>> lead = random_lead(t, Cards.parse("S5 S5 S6 S6 D3"), random.Random(1))
>>> unit_of(t, lead) is not None
True
"""

from __future__ import annotations

import random
from collections import Counter

from referee.cards import Cards, Decks
from referee.tractor.follow import legal_follow
from referee.tractor.game import DeclareError, Declaring
from referee.tractor.leads import beatable, failing_units, judge_lead
from referee.tractor.trumps import Trumps
from referee.tractor.units import Holding, Unit, unit_of

__all__ = ["bid", "deal", "random_lead", "random_throw", "legal_follow"]


def deal(decks: int, kitty: int, rng: random.Random, seats: str = "SENW") -> tuple[dict[str, Cards], Cards]:
    """Shuffle ``decks`` decks and deal them out evenly, keeping ``kitty`` cards aside."""
    cards = list(Decks(decks).full())
    rng.shuffle(cards)
    per = (len(cards) - kitty) // len(seats)
    hands = {s: Cards(cards[i * per : (i + 1) * per]) for i, s in enumerate(seats)}
    return hands, Cards(cards[per * len(seats) :])


def units_in(trumps: Trumps, cards: Cards) -> list[Unit]:
    """Every unit that can be taken out of these cards (one suit class)."""
    holding = Holding(trumps, cards)
    found = [unit_of(trumps, Cards([c])) for c in cards.distinct()]
    for width in trumps.rules.combos.widths:
        for length in range(1, len(holding.positions) + 1):
            placed = list(holding.uniform(width, length))
            if not placed:
                break
            for _, placement in placed:
                found.append(unit_of(trumps, Cards(c for c, w in placement for _ in range(w))))
    return [u for u in found if u is not None]


def random_lead(trumps: Trumps, hand: Cards, rng: random.Random) -> Cards:
    """One random unit of the hand, larger units more often."""
    suit = rng.choice(sorted(trumps.suits_in(hand)))
    units = units_in(trumps, trumps.of_suit(hand, suit))
    weights = [len(u) ** 2 for u in units]
    return rng.choices(units, weights)[0].cards


def random_throw(trumps: Trumps, hand: Cards, others: dict[str, Cards], rng: random.Random) -> Cards | None:
    """A throw that stands against the other hands (a player who counted the cards), or None."""
    if not trumps.rules.combos.throws:
        return None
    suit = rng.choice(sorted(trumps.suits_in(hand)))
    held = trumps.of_suit(hand, suit)
    top = [u for u in units_in(trumps, held) if not beatable(trumps, u, others)]
    rng.shuffle(top)
    chosen = Cards()
    for unit in top:
        if held.contains(chosen + unit.cards) and len(chosen) + len(unit) <= 12:
            chosen = chosen + unit.cards
    ruling = judge_lead(trumps, chosen) if chosen else None
    if ruling is None or not ruling.legal or len(ruling.structure) < 2:
        return None
    if failing_units(trumps, ruling.structure, others):
        return None
    return chosen


def bid(declaring: Declaring, seat: str, hand: Cards, at: float) -> tuple[Declaring | None, Cards]:
    """What ``seat`` shows in the draw, holding ``hand``: a declaration, an overturn with the fewest level cards
    that make one, or (its own suit, where the book allows it) the copies drawn since it declared, added to its
    declaration (加固); (the declaring after it, the cards shown), else (None, no cards).

    The cards of a seat's standing declaration went back to its hand and still count: the table takes cards shown
    to reinforce as added to them, so shown again they would be counted twice (more copies than the decks hold).

    >>> from referee.rulebooks import load
    >>> d = Declaring(load("zhongkai-2010"), "9", first_hand=False).declare("S", Cards.parse("H9 H9"), at=1.0)
    >>> [str(bid(d, "S", Cards.parse(hand), at=2.0)[1]) for hand in ("H9 H9 H9 C4", "H9 H9 C4")]
    ['H9', '']
    """
    standing = declaring.standing
    held = Counter(c for c in hand if c.rank == declaring.level)
    for card, count in sorted(held.items(), key=lambda kv: (-kv[1], kv[0].code)):
        own = standing is not None and (standing.seat, standing.suit) == (seat, card.suit)
        n = count - standing.count if own else standing.count + 1 if standing else declaring.rules.declare.first
        if 0 < n <= count:
            try:
                return declaring.declare(seat, Cards([card] * n), at), Cards([card] * n)
            except DeclareError:
                continue
    return None, Cards()
