"""``cardtable demo --game tractor``: four bots play one Tractor hand through the referee.

The deal is drawn one card at a time, with declarations (揭牌), overturns (反揭) and, where the
book allows them, reinforcements (加固) fed to :class:`Declaring`; the dealer buries the kitty;
every play goes through :class:`HandJudge`, whose rulings are printed as they appear; the hand is
settled with the rulebook's level table. Deterministic for a given seed.
"""

from __future__ import annotations

import random
from collections import Counter

from referee.cards import SUITS, Cards, Decks
from referee.demo import labels
from referee.rulebooks import TractorRulebook, load
from referee.tractor.bots import bid, legal_follow, random_lead, random_throw
from referee.tractor.game import Declaring, Game, penalties_of, settle
from referee.tractor.hand import SEATS, HandJudge, Trick, next_seat
from referee.tractor.scoring import Outcome
from referee.tractor.trumps import Trumps

SECONDS_PER_CARD = 0.5  # simulated time one drawn card takes
THROW_CHANCE = 0.2  # how often a leader tries a throw



def main(rulebook: str = "classic-3deck", seed: int = 2026, lang: str = "zh") -> int:
    rules, say = load(rulebook), labels(lang, "tractor")
    level = Game.start(rules).hand_level()
    rng = random.Random(seed)
    print(say["header"].format(title=rules.titled(lang), id=rules.id, seed=seed, level=level))
    hands, kitty, dealer, suit = draw(rules, level, rng, say)
    trumps = Trumps.of(rules, level, suit)
    buried = take_kitty(trumps, hands, dealer, kitty, say)
    judge = play(trumps, dealer, hands, rng, say)
    settle_hand(judge, buried, say)
    return 0


# -- the deal ---------------------------------------------------------------------
def draw(rules: TractorRulebook, level: str, rng: random.Random, say: dict) -> tuple[dict[str, Cards], Cards, str, str]:
    """Shuffle, draw one card at a time with the bots declaring; return hands, kitty, dealer, trump suit."""
    cards = list(Decks(rules.deal.decks).full())
    rng.shuffle(cards)
    first = rng.choice(SEATS)
    print(say["first"].format(seat=say["seats"][first], kitty=rules.deal.kitty))
    drawn = {s: [] for s in SEATS}
    declaring, seat = Declaring(rules, level), first
    for n, card in enumerate(cards[: len(cards) - rules.deal.kitty], 1):
        drawn[seat].append(card)
        if card.rank == level:
            declaring = declare_round(declaring, drawn, seat, n, say)
        seat = next_seat(seat)
    done = n * SECONDS_PER_CARD
    declaring, warning = declaring.draw_done(done, first).kitty_taken(done + rules.declare.window_s + 1)
    if warning:
        print(warning)
    hands = {s: Cards(c) for s, c in drawn.items()}
    dealer, suit = declaring.result(None, first)
    if suit is None:
        suit = most_held_suit(hands[dealer], level)
        print(say["no_declare"].format(seat=say["seats"][dealer], suit=say["suits"][suit]))
    return hands, Cards(cards[len(cards) - rules.deal.kitty :]), dealer, suit


def declare_round(declaring: Declaring, drawn: dict[str, list], drawer: str, n: int, say: dict) -> Declaring:
    """The drawer may declare, overturn or reinforce; a seat that was overturned may answer, until no one can."""
    order = [SEATS[(SEATS.index(drawer) + i) % 4] for i in range(4)]
    changed = True
    while changed:
        changed = False
        for seat in order:
            after, shown = bid(declaring, seat, Cards(drawn[seat]), n * SECONDS_PER_CARD)
            if after is not None:
                was = declaring.standing
                key = "declare" if was is None else "reinforce" if was.seat == seat and was.suit == after.standing.suit else "overturn"
                print(say[key].format(n=n, seat=say["seats"][seat], cards=shown, suit=say["suits"][after.standing.suit]))
                declaring, changed = after, True
    return declaring


def most_held_suit(hand: Cards, level: str) -> str:
    counts = Counter(c.suit for c in hand if not c.is_joker and c.rank != level)
    return max(SUITS, key=lambda s: (counts[s], -SUITS.index(s)))


def take_kitty(trumps: Trumps, hands: dict[str, Cards], dealer: str, kitty: Cards, say: dict) -> Cards:
    """The dealer takes the kitty and buries its lowest side-suit cards, point cards last."""
    seats, team = say["seats"], Game.team(dealer)
    print(say["dealer"].format(seat=seats[dealer], team=say["teams"][team], suit=say["suits"][trumps.suit], level=trumps.level))
    full = hands[dealer] + kitty
    order = sorted(full, key=lambda c: (trumps.is_trump(c), c.points > 0, trumps.position(c)))
    buried = Cards(order[: len(kitty)])
    hands[dealer] = full - buried
    if buried:
        print(say["bury"].format(seat=seats[dealer], n=len(buried)))
    for seat in SEATS:
        print(say["hand"].format(seat=seats[seat], cards=" ".join(c.code for c in in_hand_order(trumps, hands[seat]))))
    return buried


def in_hand_order(trumps: Trumps, hand: Cards) -> list:
    """Trumps first, high to low, then the side suits in S H D C order."""
    def key(c):
        side = not trumps.is_trump(c)
        return (side, SUITS.index(c.suit) if side else 0, -trumps.position(c))

    return sorted(hand, key=key)


# -- the play ---------------------------------------------------------------------
def play(trumps: Trumps, dealer: str, hands: dict[str, Cards], rng: random.Random, say: dict) -> HandJudge:
    """Trick after trick through the judge; the dealer leads first, then each trick's winner."""
    judge, leader, running = HandJudge.start(trumps, dealer), dealer, 0
    while hands[leader]:
        seen = len(judge.rulings)
        lead = bot_lead(trumps, hands, leader, rng)
        judge = judge.play(leader, lead)
        hands[leader] = hands[leader] - lead
        seat, before = next_seat(leader), []
        for _ in range(3):
            cards = legal_follow(trumps, hands[seat], lead, rng, before)
            judge = judge.play(seat, cards)
            hands[seat] = hands[seat] - cards
            before.append(cards)
            seat = next_seat(seat)
        trick = judge.tricks[-1]
        if trick.winner in judge.defenders():
            running += trick.points
        print(trick_line(trick, running, say))
        print_rulings(judge, seen, say)
        leader = trick.winner
    return judge


def bot_lead(trumps: Trumps, hands: dict[str, Cards], leader: str, rng: random.Random) -> Cards:
    others = {s: h for s, h in hands.items() if s != leader}
    throw = random_throw(trumps, hands[leader], others, rng) if rng.random() < THROW_CHANCE else None
    return throw or random_lead(trumps, hands[leader], rng)


def trick_line(trick: Trick, running: int, say: dict) -> str:
    seats = say["seats"]
    fields = [say["trick"].format(n=trick.number)]
    fields += [f"{seats[seat]} {cards}" for seat, cards in trick.plays]
    fields += [
        say["winner"].format(seat=seats[trick.winner]),
        say["points"].format(n=trick.points),
        say["running"].format(n=running),
    ]
    return " | ".join(fields)


def print_rulings(judge: HandJudge, seen: int, say: dict) -> None:
    """The rulings the judge added since it held ``seen`` of them."""
    for r in judge.rulings[seen:]:
        kind = say["kinds"].get(r.kind, r.kind)
        print(say["ruling"].format(kind=kind, seat=say["seats"][r.seat], trick=r.trick, detail=say["reason"](r.detail)))


# -- the end of the hand ----------------------------------------------------------
def settle_hand(judge: HandJudge, buried: Cards, say: dict) -> None:
    """Show the kitty, finish the hand, count the kitty capture, settle and name the next dealer."""
    rules, seats, dealer = judge.trumps.rules, say["seats"], judge.dealer
    seen = len(judge.rulings)
    judge = judge.show_kitty(buried).finish()
    print_rulings(judge, seen, say)
    if buried:
        print(say["kitty"].format(cards=buried, n=buried.points))
    last = judge.complete()[-1]
    total = judge.defender_points()
    captured = judge.capture()
    if captured is not None:
        base, times = captured
        key = "capture_last" if rules.kitty_capture.source != "kitty" else "capture" if times else "side_win"
        print(say[key].format(seat=seats[last.winner], kitty=base, times=times, n=base * times))
    else:
        print(say["no_capture"].format(seat=seats[last.winner]))
    print(say["total"].format(n=total))
    penalties = penalties_of(rules, list(judge.rulings))
    settlement = settle(rules, dealer, total, penalties)
    for note in settlement.notes:
        print(say["note"].format(note=say["reason"](note)))
    if settlement.defender_points != total:
        print(say["settled"].format(n=settlement.defender_points))
    print_outcome(rules, dealer, settlement.outcome, say)


def print_outcome(rules: TractorRulebook, dealer: str, outcome: Outcome | None, say: dict) -> None:
    if outcome is None:
        print(say["replay"])
        return
    side = dealer if outcome.side == "dealer" else next_seat(dealer)
    team = say["teams"][Game.team(side)]
    key = "dealer_up" if outcome.side == "dealer" else ("take_over_up" if outcome.levels else "take_over")
    print(say[key].format(team=team, n=outcome.levels))
    game = Game.start(rules).after(dealer, outcome)
    levels = say["sep"].join(say["level_of"].format(team=say["teams"][t], level=game.level_of(t)) for t, _ in game.levels)
    print(say["next"].format(seat=say["seats"][game.dealer], levels=levels))
