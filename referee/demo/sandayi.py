"""``cardtable demo --game sandayi``: four bots play one San Da Yi game (三打一) through the referee.

The first game of a round: the first bidder deals, everyone bids once (叫分), the dealer (庄家)
takes the kitty and may report (报到) or, after 头撂, open the hand (摊打); then every play and
pass goes through :class:`Game`, each bomb counted against its player's limit (炸弹限制), and a
player down to ten cards reports the count (报牌) as the rules require. The game ends when a
player runs out: the winning side and each seat's score (小分). Deterministic for a seed.
"""

from __future__ import annotations

import random

from referee.demo import labels
from referee.demo.climbing import seat_list, show, turn_line
from referee.rulebooks import ClimbingRulebook, load
from referee.sandayi.bombs import bomb_limit, counts_as_bomb
from referee.sandayi.bots import deal, random_bid, random_play
from referee.sandayi.game import Game
from referee.sandayi.scoring import base, dealer_amount
from referee.sandayi.seats import SEATS, first_bidder

GAME = 1  # the demo plays the first game of a round



def main(rulebook: str = "usst-2016", seed: int = 2026, lang: str = "zh") -> int:
    rules, say = load(rulebook), labels(lang, "sandayi")
    rng = random.Random(seed)
    print(say["header"].format(title=rules.titled(lang), id=rules.id, seed=seed, game=GAME))
    game = deal_game(rules, first_bidder(rules, GAME), rng, say)
    game = bidding(game, rng, say)
    if not game.over:
        game = take_kitty(game, rng, say)
    if not game.over:
        game = play(game, rng, say)
    settle(game, say)
    return 0


# -- the deal and the bidding -----------------------------------------------------
def deal_game(rules: ClimbingRulebook, first: str, rng: random.Random, say: dict) -> Game:
    """Deal from the first bidder and show the four hands."""
    print(say["first"].format(seat=say["seats"][first], size=rules.deal.hand_size, kitty=rules.deal.kitty))
    game = Game.start(rules, *deal(rules, rng, first), first)
    for seat in SEATS:
        print(say["hand"].format(seat=say["seats"][seat], cards=show(rules, None, game.hand(seat))))
    return game


def bidding(game: Game, rng: random.Random, say: dict) -> Game:
    """Each player bids once (or passes) until the bidding is over; the dealer and the base score."""
    seats = say["seats"]
    while game.phase == "bidding":
        seat, value = game.turn, random_bid(game, rng)
        game = game.bid(seat, value)
        key = "no_bid" if value == "pass" else "bid"
        print(say[key].format(seat=seats[seat], bid=value))
    if game.first_bid_three:
        print(say["first_three"].format(seat=seats[game.dealer]))
    print(say["dealer"].format(seat=seats[game.dealer], bid=game.bid_value, base=base(game.rules, game.bid_value)))
    return game


def take_kitty(game: Game, rng: random.Random, say: dict) -> Game:
    """The dealer takes the kitty, then may report (报到) and, after 头撂, open the hand (摊打)."""
    rules, seats, dealer = game.rules, say["seats"], game.dealer
    print(say["kitty"].format(cards=show(rules, None, game.kitty)))
    game = game.take_kitty(dealer)
    hand = game.hand(dealer)
    print(say["take"].format(seat=seats[dealer], n=len(hand), cards=show(rules, None, hand)))
    if game.can_report:
        game = game.report(dealer, play=rng.random() < 0.7)
        print(say["report" if game.reported == "play" else "report_no"].format(seat=seats[dealer]))
    if not game.over and game.first_bid_three and rng.random() < 0.3:
        game = game.open_hand(dealer)
        print(say["open"].format(seat=seats[dealer]))
    return game


# -- the play ---------------------------------------------------------------------
def limit_words(game: Game, seat: str, say: dict) -> str:
    limit = bomb_limit(game.rules, game.bidding.bomb_category(seat))
    return say["unlimited"] if limit is None else say["times"].format(n=limit)


def play(game: Game, rng: random.Random, say: dict) -> Game:
    """Turn after turn through :class:`Game` until a player runs out; bombs are counted, counts reported."""
    rules, seats = game.rules, say["seats"]
    limits = [say["limit_of"].format(seat=seats[s], limit=limit_words(game, s, say)) for s in SEATS]
    print(say["limits"].format(limits=say["sep"].join(limits)))
    report_at = rules.deal.told_at
    while not game.over:
        seat, lead, n = game.turn, game.last is None, len(game.history) + 1
        prev = game.last.reading if game.last else None
        cards = random_play(rules, game.hand(seat), prev, rng, bombs=game.bomb_allowed(seat))
        if cards is None:
            game = game.pass_(seat)
            print(turn_line(rules, None, n, seat, None, None, False, say))
            continue
        game = game.play(seat, cards)
        done = game.history[-1][1]
        extra = []
        if counts_as_bomb(rules, done.reading):
            limit = bomb_limit(rules, game.bidding.bomb_category(seat))
            key = "bomb_free" if limit is None else "bomb_count"
            extra.append(say[key].format(n=game.bombs_played(seat), limit=limit))
        print(turn_line(rules, None, n, seat, done.cards, done.reading, lead, say, *extra))
        left = len(game.hand(seat))
        if game.over:
            print(say["out"].format(seat=seats[seat]))
        elif left <= report_at and seat not in game.announced:
            game = game.announce_count(seat)  # 报牌: once, on reaching ten cards or fewer
            print(say["count"].format(seat=seats[seat], n=left))
    return game


# -- the end of the game ----------------------------------------------------------
def settle(game: Game, say: dict) -> None:
    """The winning side, what the dealer wins or loses, and each seat's score."""
    rules, seats, dealer = game.rules, say["seats"], game.dealer
    if game.ended_by == "report":
        print(say["report_win"].format(seat=seats[dealer]))
    else:
        if game.ended_by == "fouls":
            print(say["fouls_win"].format(seat=seats[game.offender]))
        if game.winner == "dealer":
            print(say["dealer_wins"].format(seat=seats[dealer]))
        else:
            print(say["allies_win"].format(seats=seat_list([s for s in SEATS if s != dealer], say)))
    amount = dealer_amount(rules, game.result)
    key = "amount_zero" if amount == 0 else ("amount_win" if amount > 0 else "amount_loss")
    print(say[key].format(n=abs(amount)))
    scores = [say["score_of"].format(seat=seats[s], n=n) for s, n in game.scores.items()]
    print(say["scores"].format(scores=say["sep"].join(scores)))
