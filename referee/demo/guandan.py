"""``cardtable demo --game guandan``: four bots play one Guandan hand (掼蛋) through the referee.

The first hand of a game (stage one, at its start level): the decks are dealt, the seat that
drew the turned card leads (七), and every play and pass goes through :class:`Hand`, which
records the reading of each play. Printed as they happen: each turn with its reading in words,
接风 (the partner of a player who went out takes the lead), the ten-card count (报数) when the
table shows it, each seat's finish; then the finish order, the levels the first's team goes up
(by where the partner finished) and who pays tribute next hand. Deterministic for a seed.
"""

from __future__ import annotations

import random

from referee.cards import Cards
from referee.demo import labels
from referee.demo.climbing import seat_list, show, turn_line
from referee.guandan.bots import bot_turn, deal
from referee.guandan.hand import Hand
from referee.guandan.levels import Game, levels_won
from referee.guandan.tribute import payers, wildcard
from referee.rulebooks import ClimbingRulebook, load
from referee.seats import SEATS, partner, team_of

STAGE = "one"  # the demo plays the first hand of a stage-one game



def main(rulebook: str = "sanjiang-2012", seed: int = 2026, lang: str = "zh") -> int:
    rules, say = load(rulebook), labels(lang, "guandan")
    game = Game.start(rules, STAGE)
    level = game.hand_level()
    rng = random.Random(seed)
    print(say["header"].format(title=rules.titled(lang), id=rules.id, seed=seed, level=level))
    hands = deal_hands(rules, level, rng, say)
    hand = play(rules, level, hands, rng, say)
    print_finish(hand, say)
    settle(game, hand, say)
    return 0


# -- the deal ---------------------------------------------------------------------
def deal_hands(rules: ClimbingRulebook, level: str, rng: random.Random, say: dict) -> dict[str, Cards]:
    """Deal every seat its hand and show the four hands (and the wildcard, where there is one)."""
    wild = wildcard(rules, level)
    if wild is not None:
        print(say["wild"].format(card=wild.code))
    hands = deal(rules, rng)
    for seat in SEATS:
        print(say["hand"].format(seat=say["seats"][seat], cards=show(rules, level, hands[seat])))
    return hands


# -- the play ---------------------------------------------------------------------
def play(rules: ClimbingRulebook, level: str, hands: dict[str, Cards], rng: random.Random, say: dict) -> Hand:
    """Turn after turn through :class:`Hand` until it is over; each turn is one second."""
    leader = rng.choice(SEATS)
    print(say["leader"].format(seat=say["seats"][leader]))
    hand = Hand.start(rules, level, leader)
    while not hand.over:
        after = bot_turn(rules, level, hand, hands, rng)
        print_turn(hand, after, say)
        hand = after
    return hand


def print_turn(before: Hand, after: Hand, say: dict) -> None:
    """The turn ``after`` added to ``before``, then what it changed: the count shown, seats out, 接风, rulings."""
    seats, t = say["seats"], after.turns[-1]
    print(turn_line(after.rules, after.level, t.number, t.seat, t.cards, t.reading, t.lead, say))
    for a in after.announced[len(before.announced) :]:
        print(say["count"].format(seat=seats[a.seat], n=a.cards))
    for place, seat in enumerate(after.finish[len(before.finish) :], len(before.finish)):
        left = after.count(seat)
        key = "last" if left else "out"
        print(say[key].format(seat=seats[seat], place=say["places"][place], n=left))
    last = before.table.seat if before.table else None
    if t.cards is None and after.table is None and after.turn is not None and after.turn != last:
        print(say["jiefeng"].format(seat=seats[last], taker=seats[after.turn]))
    for r in after.rulings[len(before.rulings) :]:
        print(say["ruling"].format(kind=r.kind, seat=seats[r.seat], detail=say["reason"](r.detail)))


# -- the end of the hand ----------------------------------------------------------
def print_finish(hand: Hand, say: dict) -> None:
    """Every seat's place; at an early end, the two still holding cards."""
    seats = say["seats"]
    if len(hand.finish) < 4:
        print(say["early"])
    places = [say["place_of"].format(seat=seats[s], place=say["places"][i]) for i, s in enumerate(hand.finish)]
    places += [say["not_out"].format(seat=seats[s], n=hand.count(s)) for s in SEATS if s not in hand.finish]
    print(say["finish"].format(places=say["sep"].join(places)))


def settle(game: Game, hand: Hand, say: dict) -> None:
    """The levels the first's team goes up, the game after the hand, and who pays tribute next."""
    rules, seats, teams = hand.rules, say["seats"], say["teams"]
    result = hand.result()
    n = levels_won(rules, result.partner_place)
    mate = partner(result.first)
    print(say["result"].format(
        team=teams[team_of(result.first)], n=n, first=seats[result.first],
        partner=seats[mate], place=say["places"][result.partner_place - 1],
    ))  # fmt: skip
    after = game.after(result)
    if after.winner:
        print(say["won"].format(team=teams[after.winner], level=after.stage.passes))
    levels = say["sep"].join(say["level_of"].format(team=teams[t], level=lv) for t, lv in after.levels)
    print(say["next"].format(level=after.hand_level(), levels=levels))
    print(say["tribute"].format(seats=seat_list(payers(rules, hand.finish), say)))
