"""Random Guandan players, for property tests and the demo.

Plays are *built* from the hand (sets of one rank, full houses, sequences, bombs; the heart
level card filling a gap), never found by trying random subsets against the checker, so the
checker can be tested against them. ``readings`` only names what a built play reads as.

>>> import random
>>> gd = load("sanjiang-2012")
>>> hand = Cards.parse("S3 D3 S4 H4 C5 S6 H7 BJ")
>>> cards, reading = random_play(gd, "7", hand, Reading("pair", 0, 2), random.Random(3))
>>> reading.type, hand.contains(cards)
('pair', True)
>>> h = play_hand(gd, "7", random.Random(5))
>>> h.over, len(h.finish) in (2, 4), sum(h.counts) == sum(h.count(s) for s in SEATS)
(True, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from referee.cards import Card, Cards, Decks
from referee.climbing.combos import (
    BOMBS,
    RANK_OF_VALUE,
    Reading,
    lowest_beating,
    readings,
)
from referee.guandan.hand import Hand
from referee.guandan.tribute import (
    Exchange,
    TributePhase,
    is_legal_return,
    legal_tributes,
    wildcard,
)
from referee.rulebooks import GuandanRulebook, load  # noqa: F401 (load: doctests)
from referee.seats import SEATS

PASS_CHANCE = 0.2  # how often a player that could beat the table passes anyway
BOMB_WEIGHT = 0.2  # how much less often a bomb is chosen than a plain play


def deal(rules: GuandanRulebook, rng: random.Random) -> dict[str, Cards]:
    """Shuffle the decks and deal every seat its hand (一: 每人27张牌)."""
    cards = list(Decks(rules.deal.decks).full())
    rng.shuffle(cards)
    size = rules.deal.hand_size
    return {s: Cards(cards[i * size : (i + 1) * size]) for i, s in enumerate(SEATS)}


class _Stock:
    """The hand as natural cards by rank, jokers and wildcards, to build plays from."""

    def __init__(self, rules: GuandanRulebook, level: str, hand: Cards, rng: random.Random):
        self.rules, self.rng = rules, rng
        self.wild = wildcard(rules, level)
        self.level = level
        self.wilds = hand.count(self.wild) if self.wild else 0
        self.by_rank: dict[str, list[Card]] = {}
        self.jokers = {"LJ": [], "BJ": []}
        for card in hand:
            if card.is_joker:
                self.jokers[card.code].append(card)
            elif card != self.wild:
                self.by_rank.setdefault(card.rank, []).append(card)

    def take(self, rank: str, k: int, wilds: int, suit: str | None = None, gap: bool = False) -> tuple[list[Card], int] | None:
        """``k`` cards of ``rank`` (of ``suit``), wildcards filling in up to ``wilds``: (cards, wildcards used).
        Wildcards alone stand for the level rank, or fill a ``gap`` in a sequence."""
        pool = [c for c in self.by_rank.get(rank, []) if suit is None or c.suit == suit]
        n = min(k, len(pool))
        if k - n > wilds or (n == 0 and rank != self.level and not gap):
            return None
        return self.rng.sample(pool, n) + [self.wild] * (k - n), k - n

    def sets(self, k: int, wilds: int | None = None) -> Iterator[tuple[str, list[Card], int]]:
        """Every rank's set of ``k`` cards (one choice of suits each): (rank, cards, wildcards used)."""
        wilds = self.wilds if wilds is None else wilds
        for rank in self.rules.ranks.order:
            got = self.take(rank, k, wilds)
            if got:
                yield rank, *got

    def sequences(self, width: int, length: int, flush: bool = False) -> Iterator[list[Card]]:
        """Every window of ``length`` adjacent ranks, ``width`` cards each (of one suit: ``flush``)."""
        first = 1 if self.rules.ranks.ace_low else 2
        for lo in range(first, 16 - length):
            for suit in ("SHDC" if flush else (None,)):
                out, left = [], self.wilds
                for v in range(lo, lo + length):
                    got = self.take(RANK_OF_VALUE[v], width, left, suit, gap=True)
                    if got is None:
                        break
                    out += got[0]
                    left -= got[1]
                else:
                    yield out if flush or width > 1 else self.mixed(out)

    def mixed(self, cards: list[Card]) -> list[Card]:
        """A straight whose natural cards all came out of one suit, with one of them swapped for a card of its rank in
        another suit where the hand holds one: a plain straight, not only the straight flush that the same ranks make
        (built apart, ``flush``)."""
        if len({c.suit for c in cards if c != self.wild}) != 1:
            return cards
        for i, card in enumerate(cards):
            if card == self.wild:
                continue
            other = next((o for o in self.by_rank.get(card.rank, []) if o.suit != card.suit), None)
            if other is not None:
                return cards[:i] + [other] + cards[i + 1:]
        return cards


def candidates(rules: GuandanRulebook, level: str, hand: Cards, rng: random.Random, kinds: set[str] | None = None) -> list[Cards]:
    """Plays built from the hand, of the ``kinds`` asked for (None: every kind)."""
    stock, combos = _Stock(rules, level, hand, rng), rules.combos
    want = (lambda k: True) if kinds is None else kinds.__contains__
    found: list[list[Card]] = []
    for kind, k in (("single", 1), ("pair", 2), ("triple", 3)):
        if want(kind):
            found += [cards for _, cards, _ in stock.sets(k)]
            for j in ("LJ", "BJ"):
                if len(stock.jokers[j]) >= k and (k == 1 or rules.ranks.joker_pairs and k == 2):
                    found.append(stock.jokers[j][:k])
    if want("bomb") and combos.bomb:
        for k in range(combos.bomb[0], combos.bomb[1] + 1):
            found += [cards for _, cards, _ in stock.sets(k)]
    if want("full_house"):
        for t, triple, used in stock.sets(3):
            for p, pair, _ in stock.sets(2, stock.wilds - used):
                if p != t:
                    found.append(triple + pair)
            for j in ("LJ", "BJ"):
                if combos.full_house_joker_pair and len(stock.jokers[j]) == 2:
                    found.append(triple + stock.jokers[j])
    for kind, width in (("straight", 1), ("pair_straight", 2), ("triple_straight", 3)):
        span = getattr(combos, kind)
        if span and want(kind):
            for length in range(span[0], span[1] + 1):
                found += stock.sequences(width, length)
    if combos.straight_flush and combos.straight and want("straight_flush"):
        for length in range(combos.straight[0], combos.straight[1] + 1):
            found += stock.sequences(1, length, flush=True)
    if combos.joker_bomb and want("joker_bomb") and len(stock.jokers["LJ"]) == len(stock.jokers["BJ"]) == 2:
        found.append(stock.jokers["LJ"] + stock.jokers["BJ"])
    return [Cards(c) for c in found]


def random_play(
    rules: GuandanRulebook, level: str, hand: Cards, prev_reading: Reading | None, rng: random.Random
) -> tuple[Cards, Reading] | None:
    """A random legal play from ``hand`` with the reading it is played as: any play when leading
    (``prev_reading`` None; a random one of its readings, to declare), else one that beats
    ``prev_reading`` (its lowest beating reading), or None to pass."""
    if prev_reading is None:
        plays = [(c, rng.choice(rs)) for c in candidates(rules, level, hand, rng) if (rs := readings(rules, c, level))]
        weights = [len(c) ** 2 * (BOMB_WEIGHT if r.is_bomb else 1) for c, r in plays]
        return rng.choices(plays, weights)[0]
    kinds = set(BOMBS) | ({prev_reading.type} if not prev_reading.is_bomb else set())
    plays = []
    for cards in candidates(rules, level, hand, rng, kinds):
        r = lowest_beating(rules, cards, prev_reading, level)
        if r is not None:
            plays.append((cards, r))
    if not plays or rng.random() < PASS_CHANCE:
        return None
    weights = [BOMB_WEIGHT if r.is_bomb else 1 for _, r in plays]
    return rng.choices(plays, weights)[0]


def pay_tribute(
    rules: GuandanRulebook, level: str, finish: tuple[str, ...], hands: dict[str, Cards], rng: random.Random
) -> tuple[TributePhase, dict[str, Cards]]:
    """The tribute after a hand that finished in ``finish``, played by the bots: payers with the big
    jokers refuse, others pay a largest card, receivers return a random card below 10. Returns the
    finished phase and the hands after it."""
    phase = TributePhase.start(rules, level, finish)
    hands = dict(hands)
    refuse = rules.tribute.refuse_with
    shown = {s: Cards([refuse] * hands[s].count(refuse)) for s in phase.payers}
    if sum(len(c) for c in shown.values()) >= rules.tribute.refuse_count:
        for seat, cards in shown.items():
            if len(cards):
                phase = phase.refuse(seat, cards)
        return phase, hands
    for seat in phase.payers:
        phase = phase.pay(seat, rng.choice(legal_tributes(rules, level, hands[seat])), hands[seat])
    for x in phase.exchanges:
        hands[x.giver] -= Cards([x.tribute])
        hands[x.receiver] += Cards([x.tribute])
    for x in phase.exchanges:
        legal = [c for c in hands[x.receiver].distinct() if is_legal_return(rules, level, c)]
        if not legal:
            raise ValueError(f"{x.receiver} holds no card below 10 to return: {hands[x.receiver]}")
        card = rng.choice(legal)
        phase = phase.return_(x.receiver, card)
        hands[x.receiver] -= Cards([card])
        hands[x.giver] += Cards([card])
    return phase, hands


def play_hand(
    rules: GuandanRulebook, level: str, rng: random.Random, leader: str | None = None,
    after: tuple[str, ...] | None = None, hands: dict[str, Cards] | None = None,
    exchanges: tuple[Exchange, ...] = (),
) -> Hand:  # fmt: skip
    """Deal (or take ``hands``) and play one whole hand through :class:`Hand`, the bots choosing;
    ``after`` (the previous hand's finish order) plays the tribute first (else ``exchanges`` made
    already are the hand's tribute). Each turn is one second (``at`` = turn number). Returns the
    finished hand."""
    hands = dict(hands) if hands is not None else deal(rules, rng)
    if after is not None:
        phase, hands = pay_tribute(rules, level, after, hands, rng)
        leader, exchanges = phase.leader, phase.exchanges
    hand = Hand.start(rules, level, leader or rng.choice(SEATS), exchanges)
    while not hand.over:
        hand = bot_turn(rules, level, hand, hands, rng)
    return hand


def bot_turn(rules: GuandanRulebook, level: str, hand: Hand, hands: dict[str, Cards], rng: random.Random) -> Hand:
    """The seat on turn plays or passes as a bot (a lead declares its reading); the played cards
    leave ``hands``."""
    seat = hand.turn
    prev = hand.table.reading if hand.table else None
    chosen = random_play(rules, level, hands[seat], prev, rng)
    at = float(len(hand.turns) + 1)
    if chosen is None:
        return hand.pass_(seat, at=at)
    cards, reading = chosen
    after = hand.play(seat, cards, declared=reading if prev is None else None, at=at)
    hands[seat] -= cards
    return after


__all__ = ["bot_turn", "candidates", "deal", "pay_tribute", "play_hand", "random_play"]
