"""Shared helpers for the San Da Yi tests: the rulebook and whole deals built around given cards."""

from __future__ import annotations

import random

import pytest

from referee.cards import Cards, Decks
from referee.rulebooks import load
from referee.sandayi.game import Game
from referee.sandayi.seats import SEATS


@pytest.fixture(scope="session")
def rules():
    return load("usst-2016")


def full_deal(rules, kitty: str = "", **given: str) -> tuple[dict[str, Cards], Cards]:
    """A real deal (25 cards each, 8 in the kitty) holding the given cards where named; the rest
    of the two decks is shuffled with a fixed seed and fills the hands and the kitty."""
    wanted = {s: Cards.parse(given.get(s, "")) for s in SEATS}
    wanted_kitty = Cards.parse(kitty)
    rest = list(Decks(2).full() - Cards.join([*wanted.values(), wanted_kitty]))
    random.Random(2016).shuffle(rest)
    size, ksize = rules.deal.hand_size, rules.deal.kitty
    hands = {}
    for s in SEATS:
        need = size - len(wanted[s])
        assert need >= 0, f"{s} is given more than {size} cards"
        hands[s] = wanted[s] + Cards(rest[:need])
        rest = rest[need:]
    assert len(rest) == ksize - len(wanted_kitty)
    return hands, wanted_kitty + Cards(rest)


@pytest.fixture
def deal(rules):
    return lambda kitty="", **given: full_deal(rules, kitty, **given)


@pytest.fixture
def new_game(rules):
    """``new_game(first, bids, kitty=..., S=..., ...)``: a game dealt around the given cards, with
    the bids made in turn from ``first`` and the kitty taken when the bidding ends."""

    def make(first="S", bids=(), kitty="", take=True, **given):
        g = Game.start(rules, *full_deal(rules, kitty, **given), first_bidder=first)
        for value in bids:
            g = g.bid(g.turn, value)
        if take and g.phase == "kitty":
            g = g.take_kitty(g.dealer)
        return g

    return make

