"""Seats and turn order at a San Da Yi table.

Seats are ``S E N W`` and play goes counter-clockwise S→E→N→W (conformance README).
附件一 一 4: 按照黑红梅方逆时针依次落座 — the rulebook's ``[round] seat_of_suit`` says where
the players who drew 黑 (S), 红 (H), 梅 (C) and 方 (D) sit; 一 5: 每局比赛均按照黑红梅方的顺序
依次作为首先叫牌者 — the first bidder goes round those suits, one game each.

>>> rules = load("usst-2016")
>>> next_seat("S"), next_seat("W")
('E', 'S')
>>> [first_bidder(rules, game) for game in range(1, 9)]
['S', 'E', 'N', 'W', 'S', 'E', 'N', 'W']
>>> first_bidder(rules, 0)
Traceback (most recent call last):
...
ValueError: games are numbered from 1 to 8, not 0
"""

from __future__ import annotations

from referee.rulebooks import SandayiRulebook, load  # noqa: F401 (load: doctests)
from referee.seats import SEATS, check_seat, next_seat, seats_from

def seat_of_suit(rules: SandayiRulebook, suit: str) -> str:
    """Where the player who drew ``suit`` (S 黑, H 红, C 梅, D 方) sits."""
    table = rules.round.seat_of_suit
    if suit not in table:
        raise ValueError(f"unknown suit {suit!r}; the seats are drawn as S H C D (黑红梅方)")
    return table[suit]


def first_bidder(rules: SandayiRulebook, game: int) -> str:
    """The seat that bids first (and shuffles and deals) in game ``game`` of a round, from 1."""
    games = rules.round.games
    if isinstance(game, bool) or not isinstance(game, int) or not 1 <= game <= games:
        raise ValueError(f"games are numbered from 1 to {games}, not {game!r}")
    order = rules.round.first_bidder_suits
    return seat_of_suit(rules, order[(game - 1) % len(order)])


__all__ = ["SEATS", "check_seat", "first_bidder", "next_seat", "seat_of_suit", "seats_from"]
