"""Combinations of the climbing games (Guandan 掼蛋, San Da Yi 三打一): every reading of a play.

A *reading* is what a play counts as: its type, its rank within the type and its size.
Natural cards read one way per type (five of one suit in sequence are a straight flush, never
a plain straight; an ace that could end a run either way sits high). With the heart level card
as a wildcard cards can read several ways (``x4567`` is 34567 or 45678, a straight or, the
others of one suit, a straight flush), and every reading counts.
Which types exist, their sizes and the rank order are the rulebook's ``[ranks]`` and
``[combos]``.

Ranks of sets (singles, pairs, triples, full houses, bombs) follow the rulebook's rank
order, with the level rank above A where it says so and the jokers on top. Sequences
are ranked by their top card at its natural place (A2345 has top 5, 10JQKA top 14).

>>> gd = load("sanjiang-2012")
>>> readings(gd, Cards.parse("H9 S4 S5 S6 S7"), level="9")
(Reading('straight', 7, 5), Reading('straight', 8, 5), Reading('straight_flush', 7, 5), Reading('straight_flush', 8, 5))
>>> types(load("usst-2016"), Cards.parse("LJ LJ BJ"))
[]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from referee.cards import RANKS, Card, Cards
from referee.rulebooks import ClimbingRulebook, load

TYPES = (
    "single", "pair", "triple", "full_house", "straight", "pair_straight",
    "triple_straight", "airplane", "bomb", "straight_flush", "joker_bomb",
)  # fmt: skip
BOMBS = ("bomb", "straight_flush", "joker_bomb")
VALUE = {r: i + 2 for i, r in enumerate(RANKS)}  # natural place: 2..14, A = 14 (1 when low)
RANK_OF_VALUE = {v: r for r, v in VALUE.items()} | {1: "A"}


class ClimbError(ValueError):
    """A play that cannot be read as claimed (a wildcard for a joker, a reading the cards do not make)."""


@dataclass(frozen=True, slots=True)
class Reading:
    """What a play counts as: ``type`` (one of :data:`TYPES`), ``rank`` within the type, ``size`` in cards."""

    type: str
    rank: int
    size: int

    @property
    def is_bomb(self) -> bool:
        return self.type in BOMBS

    def __repr__(self) -> str:
        return f"Reading({self.type!r}, {self.rank}, {self.size})"


@dataclass(frozen=True)
class _Ranking:
    power: dict[str, int]  # rank letter (and "LJ", "BJ") -> power for sets
    wild: Card | None


@lru_cache(maxsize=64)
def _ranking(rules: ClimbingRulebook, level: str | None) -> _Ranking:
    order = rules.ranks.order
    power = {r: i for i, r in enumerate(order)}
    if level is not None and rules.ranks.level_above_ace:
        if level not in power:
            raise ClimbError(f"unknown level rank {level!r}")
        power[level] = len(order)
    power["LJ"], power["BJ"] = len(order) + 1, len(order) + 2
    wild = None
    if rules.ranks.wildcard == "heart_level":
        if level is None:
            raise ClimbError(f"{rules.id} needs the level rank")
        wild = Card.parse("H" + level)
    return _Ranking(power, wild)


def power_of(rules: ClimbingRulebook, card: Card, level: str | None = None) -> int:
    """The card's place in the rank order of singles (jokers highest)."""
    return _ranking(rules, level).power[card.code if card.is_joker else card.rank]


def readings(rules: ClimbingRulebook, cards: Cards, level: str | None = None) -> tuple[Reading, ...]:
    """Every reading of the cards, lowest first (see :func:`strength`); () when they form no play."""
    rk = _ranking(rules, level)
    combos = rules.combos
    n = len(cards)
    if n == 0:
        return ()
    nat = [0] * 15
    wild = lj = bj = 0
    suits = set()
    for card, k in cards.counts().items():
        if card.is_joker:
            if card.code == "LJ":
                lj = k
            else:
                bj = k
        elif card is rk.wild:
            wild += k
        else:
            nat[VALUE[card.rank]] += k
            suits.add(card.suit)
    jokers = lj + bj
    present = [v for v in range(2, 15) if nat[v]]
    out: list[Reading] = []
    power = rk.power
    if jokers == 0 and len(present) <= 1:  # one rank, wildcards joining it
        p = power[RANK_OF_VALUE[present[0]]] if present else power[rk.wild.rank]
        kind = {1: "single", 2: "pair", 3: "triple"}.get(n)
        if kind:
            out.append(Reading(kind, p, n))
        elif combos.bomb and combos.bomb[0] <= n <= combos.bomb[1]:
            out.append(Reading("bomb", p, n))
    elif jokers == n:  # jokers alone
        if n == 1:
            out.append(Reading("single", power["LJ" if lj else "BJ"], 1))
        elif n == 2 and rules.ranks.joker_pairs and (lj == 2 or bj == 2):
            out.append(Reading("pair", power["LJ" if lj else "BJ"], 2))
        elif n == 4 and lj == 2 and bj == 2 and combos.joker_bomb:
            out.append(Reading("joker_bomb", power["BJ"], 4))
    if n == 5:
        out += _full_houses(rules, rk, nat, present, wild, lj, bj)
    if jokers == 0 and n >= 5:
        out += _sequences(rules, nat, present, n, suits, wild)
    return tuple(sorted(set(out), key=lambda r: strength(rules, r)))


def full_house_scale(rules: ClimbingRulebook) -> int:
    """A full house's power is its triple's times this, plus its pair's where the pair counts (a power is below
    ``len(order) + 3``: the ranks, the level above them, the two jokers).

    >>> full_house_scale(load("sanjiang-2012")), full_house_scale(load("usst-2016"))
    (1, 16)
    """
    return 1 if rules.combos.full_house_triple_only else len(rules.ranks.order) + 3


def full_house_power(rules: ClimbingRulebook, triple: int, pair: int) -> int:
    """A full house's power from its triple's and its pair's (the pair's counts only where the book says so).

    >>> full_house_power(load("sanjiang-2012"), 5, 9), full_house_power(load("usst-2016"), 5, 9)
    (5, 89)
    """
    scale = full_house_scale(rules)
    return triple * scale + (0 if scale == 1 else pair)


def _full_houses(rules, rk, nat, present, wild, lj, bj) -> list[Reading]:
    """A triple and a pair of another rank (the pair may be two identical jokers). Ranked by the
    triple, or by the triple then the pair where ``full_house_triple_only`` is false."""
    power = rk.power

    def reading(triple: str, pair: str) -> Reading:
        return Reading("full_house", full_house_power(rules, power[triple], power[pair]), 5)

    if lj or bj:
        if rules.combos.full_house_joker_pair and (lj, bj) in ((2, 0), (0, 2)) and len(present) == 1:
            return [reading(RANK_OF_VALUE[present[0]], "LJ" if lj else "BJ")]
        return []
    found = []
    for t in present:
        others = [v for v in present if v != t]
        if nat[t] > 3 or len(others) > 1:
            continue
        if others and nat[others[0]] <= 2:
            found.append(reading(RANK_OF_VALUE[t], RANK_OF_VALUE[others[0]]))
        elif not others and wild >= 2:
            found.append(reading(RANK_OF_VALUE[t], rk.wild.rank))
    return found


def _fits(nat: list[int], present: list[int], width: int, lo: int, hi: int) -> bool:
    """Do the natural cards all fit the window lo..hi, at most ``width`` per place?"""
    for v in present:
        if v == 14:
            room = width * ((lo == 1) + (hi == 14))
        elif lo <= v <= hi:
            room = width
        else:
            return False
        if nat[v] > room:
            return False
    return True


def _sequences(rules: ClimbingRulebook, nat, present, n, suits, wild) -> list[Reading]:
    """Sequences of natural cards read one way each: a straight of one suit is only a straight flush
    (002 五: 如果花色相同称为同花顺), and an ace that could sit at either end sits high (a 13-rank run
    A..K is read to A: two runs of the same ranks are equal). Wildcards may stand either way (every
    reading counts, x4567 is 34567 or 45678)."""
    combos = rules.combos
    first = 1 if rules.ranks.ace_low else 2
    found = []
    for kind, width in (("straight", 1), ("pair_straight", 2), ("triple_straight", 3)):
        span = getattr(combos, kind)
        if not span or n % width or not span[0] <= n // width <= span[1]:
            continue
        k = n // width
        tops = [lo + k - 1 for lo in range(first, 16 - k) if _fits(nat, present, width, lo, lo + k - 1)]
        flush = kind == "straight" and combos.straight_flush and len(suits) <= 1
        for hi in tops if wild else tops[-1:]:
            if wild or not flush:
                found.append(Reading(kind, hi, n))
            if flush:
                found.append(Reading("straight_flush", hi, n))
    span = combos.airplane
    if span and n % 5 == 0 and span[0] <= n // 5 <= span[1]:
        k = n // 5
        for lo in range(first, 16 - k):
            triples = range(lo, lo + k)
            outside = [v for v in present if v not in triples and not (v == 14 and lo == 1)]
            if any(nat[v] > 2 for v in outside):
                continue
            ranks_t = {14 if v == 1 else v for v in triples}
            for plo in range(first, 16 - k):
                pairs = range(plo, plo + k)
                if ranks_t & {14 if v == 1 else v for v in pairs}:
                    continue
                if all(v in pairs or (v == 14 and plo == 1) for v in outside) and _fits_airplane(nat, present, triples, pairs):
                    found.append(Reading("airplane", lo + k - 1, n))
    return found


def _fits_airplane(nat, present, triples: set[int], pairs: set[int]) -> bool:
    for v in present:
        places = (1, 14) if v == 14 else (v,)
        room = sum(3 if p in triples else 2 if p in pairs else 0 for p in places)
        if nat[v] > room:
            return False
    return True


def strength(rules: ClimbingRulebook, r: Reading) -> tuple:
    """Orders readings from lowest to highest: plain plays below bombs, bombs by :func:`beats`."""
    if r.is_bomb:
        return (1, *_bomb_key(rules, r))
    return (0, TYPES.index(r.type), r.size, r.rank)


def beats(rules: ClimbingRulebook, play: Reading, prev: Reading) -> bool:
    """Does ``play`` beat ``prev``? Bombs beat plain plays, bigger bombs beat smaller ones (a
    straight flush sits between the bombs it beats and those that beat it), the joker bomb beats
    everything; plain plays beat only the same type and size, by rank.

    >>> gd = load("sanjiang-2012")
    >>> beats(gd, Reading("straight_flush", 7, 5), Reading("bomb", 12, 5))
    True
    >>> beats(gd, Reading("bomb", 12, 5), Reading("straight_flush", 7, 5))
    False
    >>> beats(gd, Reading("bomb", 0, 6), Reading("straight_flush", 14, 5))
    True
    """
    if prev.type == "joker_bomb":
        return False
    if play.type == "joker_bomb":
        return True
    if play.is_bomb or prev.is_bomb:
        if not play.is_bomb:
            return False
        if not prev.is_bomb:
            return True
        return _bomb_key(rules, play) > _bomb_key(rules, prev)
    return play.type == prev.type and play.size == prev.size and play.rank > prev.rank


def _bomb_key(rules: ClimbingRulebook, r: Reading) -> tuple[float, int]:
    if r.type == "joker_bomb":
        return (float("inf"), r.rank)
    if r.type == "straight_flush":
        return (rules.combos.straight_flush_beats_bombs_up_to + 0.5, r.rank)
    return (r.size, r.rank)


def types(rules: ClimbingRulebook, cards: Cards, level: str | None = None) -> list[str]:
    """Every type the cards can be read as, in the order of :data:`TYPES`."""
    found = {r.type for r in readings(rules, cards, level)}
    return [t for t in TYPES if t in found]


def lowest_beating(rules: ClimbingRulebook, cards: Cards, prev: Reading, level: str | None = None) -> Reading | None:
    """The lowest reading of ``cards`` that beats ``prev`` (what a follower's play is recorded as)."""
    for r in readings(rules, cards, level):
        if beats(rules, r, prev):
            return r
    return None


__all__ = ["Reading", "ClimbError", "TYPES", "BOMBS", "readings", "types", "beats", "lowest_beating", "power_of", "full_house_power", "full_house_scale", "load"]
