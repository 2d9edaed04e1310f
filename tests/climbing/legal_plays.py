"""Random legal plays of the climbing games (Guandan, San Da Yi), built constructively.

Shared by ``test_properties.py`` and ``bench/bench_climbing.py``. A play is built from
a pool of cards (the 108 cards of a random deal, or what is left of them): a rank and
that many copies for sets, a window of consecutive places for sequences, a suit for a
straight flush. The builder knows the reading it meant (:class:`Built`), so a test can
ask whether the classifier finds it. It follows the rulebook's settings only where they
say which combinations exist and how long they may be; the rank and sequence rules it
uses are the seeds' (002 二, 五, 六; 004 牌型说明, 牌型大小), written out here again.

``wilds`` (Guandan only) is how many heart level cards (逢人配) the play holds: they
replace natural cards of the play (or join a bomb, which makes it longer), never a joker.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from referee.cards import RANKS, SUITS, Card, Cards, Decks
from referee.climbing.combos import Reading, full_house_power, power_of
from referee.rulebooks import ClimbingRulebook

VALUE = {r: i + 2 for i, r in enumerate(RANKS)}  # natural place in sequences, A = 14 (1 when low)
RANK_AT = {v: r for r, v in VALUE.items()} | {1: "A"}
LJ, BJ = Card.parse("LJ"), Card.parse("BJ")
SETS = ("single", "pair", "triple", "full_house", "bomb")
SEQUENCES = {"straight": 1, "pair_straight": 2, "triple_straight": 3}


@dataclass(frozen=True)
class Built:
    """A built play and the reading it was built as (``rank`` None: any rank of that type)."""

    cards: Cards
    type: str
    rank: int | None
    size: int

    def found_in(self, found: tuple[Reading, ...]) -> bool:
        return any(
            r.type == self.type and r.size == self.size and (self.rank is None or r.rank == self.rank) for r in found
        )


def kinds(rules: ClimbingRulebook) -> list[str]:
    """The play types the rulebook has, in the canonical order."""
    c = rules.combos
    out = ["single", "pair", "triple", "full_house"]
    out += [k for k in ("straight", "pair_straight", "triple_straight", "airplane") if getattr(c, k)]
    out += ["bomb"] if c.bomb else []
    out += ["straight_flush"] if c.straight_flush else []
    out += ["joker_bomb"] if c.joker_bomb else []
    return out


def wildcard(rules: ClimbingRulebook, level: str | None) -> Card | None:
    return Card.parse("H" + level) if rules.ranks.wildcard == "heart_level" else None


def sizes(rules: ClimbingRulebook, kind: str, cap: int = 14) -> list[int]:
    """The lengths a ``kind`` may have: places for sequences and airplanes, cards for bombs."""
    span = getattr(rules.combos, kind, None)
    top = 14 if rules.ranks.ace_low else 13
    if kind in SEQUENCES or kind == "airplane":
        most = min(span[1], top, cap)
        if kind == "airplane":
            most = min(most, top // 2)
        return list(range(span[0], most + 1))
    if kind == "bomb":
        return list(range(span[0], span[1] + 1))
    return [5] if kind == "straight_flush" else [1]


class Builder:
    """Builds plays from a pool of cards, taking the cards it uses out of the pool."""

    def __init__(self, rules: ClimbingRulebook, level: str | None, rng: random.Random, pool: Cards | None = None):
        self.rules, self.level, self.rng = rules, level, rng
        self.wild = wildcard(rules, level)
        self.pool: Counter[Card] = Counter((pool if pool is not None else Decks(rules.deal.decks).full()).counts())

    # -- cards out of the pool -------------------------------------------------------------
    def _copies(self, rank: str) -> list[Card]:
        """The natural cards of a rank left in the pool, one entry per physical card."""
        return [c for s in SUITS for c in (Card.parse(s + rank),) if c is not self.wild for _ in range(self.pool[c])]

    def _take(self, cards: list[Card]) -> list[Card]:
        for c in cards:
            self.pool[c] -= 1
        return cards

    def _rank_cards(self, rank: str, m: int) -> list[Card] | None:
        copies = self._copies(rank)
        return self._take(self.rng.sample(copies, m)) if len(copies) >= m else None

    def _jokers(self, joker: Card, m: int) -> list[Card] | None:
        return self._take([joker] * m) if self.pool[joker] >= m else None

    def power(self, rank_or_joker: str) -> int:
        card = Card.parse(rank_or_joker if rank_or_joker in ("LJ", "BJ") else "S" + rank_or_joker)
        return power_of(self.rules, card, self.level)

    def _joker_pair_ok(self) -> bool:
        return self.rules.ranks.joker_pairs

    # -- plays ------------------------------------------------------------------------------
    def build(self, kind: str, wilds: int = 0, k: int | None = None) -> Built | None:
        """A play of ``kind`` with ``wilds`` wildcards and length ``k`` (see :func:`sizes`), or
        None where the pool cannot make one this time (the pool is left as it was)."""
        if wilds and self.wild is None:
            return None
        saved = Counter(self.pool)
        try:
            built = getattr(self, "_" + kind)(wilds, k)
        except _NoCards:
            built = None
        if built is None:
            self.pool = saved
        return built

    def _with_wilds(self, cards: list[Card], wilds: int, kind: str, rank: int | None) -> Built:
        """Put ``wilds`` wildcards in place of natural cards of the play."""
        if wilds:
            if self.pool[self.wild] < wilds:
                raise _NoCards
            spots = [i for i, c in enumerate(cards) if not c.is_joker]
            if len(spots) < wilds:
                raise _NoCards
            for i in self.rng.sample(spots, wilds):
                self.pool[cards[i]] += 1
                cards[i] = self.wild
            self.pool[self.wild] -= wilds
        return Built(Cards(cards), kind, rank, len(cards))

    def _need(self, cards: list[Card] | None) -> list[Card]:
        if cards is None:
            raise _NoCards
        return cards

    def _rank(self) -> str:
        return self.rng.choice(RANKS)

    def _single(self, wilds, k):
        if wilds > 1:
            return None
        if wilds == 0 and self.rng.random() < 0.1:
            joker = self.rng.choice((LJ, BJ))
            return Built(Cards(self._need(self._jokers(joker, 1))), "single", self.power(joker.code), 1)
        r = self._rank()
        rank = self.power(self.level if wilds else r)  # a wildcard alone is the level card itself
        return self._with_wilds(self._need(self._rank_cards(r, 1)), wilds, "single", rank)

    def _pair(self, wilds, k):
        if wilds == 0 and self._joker_pair_ok() and self.rng.random() < 0.1:
            joker = self.rng.choice((LJ, BJ))
            return Built(Cards(self._need(self._jokers(joker, 2))), "pair", self.power(joker.code), 2)
        r = self._rank()
        rank = self.power(self.level if wilds == 2 else r)
        return self._with_wilds(self._need(self._rank_cards(r, 2)), wilds, "pair", rank)

    def _triple(self, wilds, k):
        r = self._rank()
        return self._with_wilds(self._need(self._rank_cards(r, 3)), wilds, "triple", self.power(r))

    def _full_house(self, wilds, k):
        t = self._rank()
        triple = self._need(self._rank_cards(t, 3))
        if self.rules.combos.full_house_joker_pair and self._joker_pair_ok() and self.rng.random() < 0.15:
            p = self.rng.choice(("LJ", "BJ"))
            pair = self._need(self._jokers(LJ if p == "LJ" else BJ, 2))
        else:
            p = self.rng.choice([r for r in RANKS if r != t])
            pair = self._need(self._rank_cards(p, 2))
        return self._with_wilds(triple + pair, wilds, "full_house", full_house_power(self.rules, self.power(t), self.power(p)))

    def _window(self, k: int) -> list[int]:
        first = 1 if self.rules.ranks.ace_low else 2
        lo = self.rng.randrange(first, 16 - k)
        return list(range(lo, lo + k))

    def _sequence(self, kind, wilds, k):
        width = SEQUENCES[kind]
        k = k or self.rng.choice(sizes(self.rules, kind))
        places = self._window(k)
        cards = []
        for v in places:
            cards += self._need(self._rank_cards(RANK_AT[v], width))
        if not wilds and k == 13:  # A..K is 2..A: the ace sits high (004: 由顺子中最大的牌点数大小决定)
            places = list(range(2, 15))
        if not wilds and kind == "straight" and self.rules.combos.straight_flush and len({c.suit for c in cards}) == 1:
            kind = "straight_flush"  # 002 五: 如果花色相同称为同花顺
        return self._with_wilds(cards, wilds, kind, places[-1])

    def _straight(self, wilds, k):
        return self._sequence("straight", wilds, k)

    def _pair_straight(self, wilds, k):
        return self._sequence("pair_straight", wilds, k)

    def _triple_straight(self, wilds, k):
        return self._sequence("triple_straight", wilds, k)

    def _airplane(self, wilds, k):
        k = k or self.rng.choice(sizes(self.rules, "airplane"))
        triples = self._window(k)
        ranks = {RANK_AT[v] for v in triples}
        first = 1 if self.rules.ranks.ace_low else 2
        windows = [
            list(range(lo, lo + k))
            for lo in range(first, 16 - k)
            if not ranks & {RANK_AT[v] for v in range(lo, lo + k)}
        ]
        if not windows:
            return None
        pairs = self.rng.choice(windows)
        cards = []
        for v in triples:
            cards += self._need(self._rank_cards(RANK_AT[v], 3))
        for v in pairs:
            cards += self._need(self._rank_cards(RANK_AT[v], 2))
        return self._with_wilds(cards, wilds, "airplane", triples[-1])

    def _bomb(self, wilds, k):
        least, most = self.rules.combos.bomb
        r = self._rank()
        naturals = len(self._copies(r))
        choices = [m for m in range(least, most + 1) if 1 <= m - wilds <= naturals]
        if k is not None:
            choices = [m for m in choices if m == k]
        if not choices or (wilds and self.pool[self.wild] < wilds):
            return None
        m = self.rng.choice(choices)
        cards = self._need(self._rank_cards(r, m - wilds))
        if wilds:
            cards += self._take([self.wild] * wilds)
        return Built(Cards(cards), "bomb", self.power(r), m)

    def _straight_flush(self, wilds, k):
        places = self._window(5)
        suits = [
            s
            for s in SUITS
            if all(
                Card.parse(s + RANK_AT[v]) is not self.wild and self.pool[Card.parse(s + RANK_AT[v])] for v in places
            )
        ]
        if not suits:
            return None
        s = self.rng.choice(suits)
        cards = self._take([Card.parse(s + RANK_AT[v]) for v in places])
        return self._with_wilds(cards, wilds, "straight_flush", places[-1])

    def _joker_bomb(self, wilds, k):
        if wilds:
            return None
        cards = self._need(self._jokers(LJ, 2)) + self._need(self._jokers(BJ, 2))
        return Built(Cards(cards), "joker_bomb", None, 4)


class _NoCards(Exception):
    """The pool lacks the cards for this play."""


def random_plays(
    rules: ClimbingRulebook,
    level: str | None,
    rng: random.Random,
    n: int,
    wilds: int = 0,
    kinds_: list[str] | None = None,
) -> list[Built]:
    """``n`` legal plays of every kind in turn (each from a fresh two-deck pool), with ``wilds`` wildcards
    where the kind can hold them."""
    out: list[Built] = []
    kinds_ = kinds_ or kinds(rules)
    i = 0
    while len(out) < n:
        kind = kinds_[i % len(kinds_)]
        i += 1
        built = Builder(rules, level, rng).build(kind, wilds)
        if built is not None:
            out.append(built)
        elif i > 50 * n:
            break
    return out


def deal(rules: ClimbingRulebook, rng: random.Random) -> tuple[list[Cards], Cards]:
    """Shuffle the rulebook's decks and deal four hands and the kitty (empty in Guandan)."""
    cards = list(Decks(rules.deal.decks).full())
    rng.shuffle(cards)
    size = rules.deal.hand_size
    hands = [Cards(cards[i * size : (i + 1) * size]) for i in range(4)]
    return hands, Cards(cards[4 * size :])
