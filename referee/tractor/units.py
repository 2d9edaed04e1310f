"""Combinations: units (single, pair, triple, bomb, tractors) and how cards split into them.

A *unit* is ``length`` adjacent positions of one suit class, each holding ``width``
identical cards: a pair is 2x1, a two-pair tractor 2x2, a bomb 4x1, a 地雷 4x2.
A lead that is not one unit is a throw; its *readings* are the ways it splits into
units that no two of which could merge into one (seed 001 十五: 44433 reads as a
triple and a pair, or as a tractor and a single: a captive).

>>> t = Trumps.of("zhongkai-2010", "7", "H")
>>> unit_of(t, Cards.parse("S6 S6 S8 S8"))
Unit('S8 S8 S6 S6')
>>> [sorted(map(str, r)) for r in readings(t, Cards.parse("S4 S4 S4 S3 S3"))]
[['S3 S3', 'S4 S4 S4'], ['S4', 'S4 S4 S3 S3']]
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Iterator

from referee.cards import Card, Cards
from referee.tractor.trumps import Trumps

Shape = tuple[int, ...]  # widths of consecutive positions, low to high
Placement = tuple[tuple[Card, int], ...]  # (card, width) per position, low to high


@dataclass(frozen=True)
class Unit:
    """One combination: ``width`` copies at each of ``length`` adjacent positions."""

    cards: Cards
    width: int
    length: int
    suit: str
    top: int  # position of the highest rank

    @property
    def kind(self) -> tuple[int, int]:
        return (self.width, self.length)

    @property
    def bottom(self) -> int:
        return self.top - self.length + 1

    def __len__(self) -> int:
        return self.width * self.length

    def __str__(self) -> str:
        return str(self.cards)

    def __repr__(self) -> str:
        return f"Unit({str(self.cards)!r})"


def kind_name(width: int, length: int) -> str:
    """English name of a unit kind, as the glossary spells it.

    >>> kind_name(2, 3), kind_name(4, 1), kind_name(4, 2)
    ('pair tractor of 3', 'bomb', 'bomb tractor of 2')
    """
    base = {1: "single", 2: "pair", 3: "triple", 4: "bomb"}[width]
    return base if length == 1 else f"{base} tractor of {length}"


class Holding:
    """Cards of one suit class laid out by position, with counts that searches change and restore."""

    def __init__(self, trumps: Trumps, cards: Cards):
        self.trumps = trumps
        self.counts: dict[Card, int] = cards.counts()
        slots: dict[int, list[Card]] = {}
        lows: set[int] = set()
        for card in self.counts:
            slots.setdefault(trumps.position(card), []).append(card)
            low = trumps.low_position(card)
            if low is not None:
                slots.setdefault(low, []).append(card)
                lows.add(low)
        self.slots = slots
        self.positions = sorted(slots)
        self.joins = trumps.joins
        # A rank's low place (the ace below the 2, seed 003 3(2): 3344>AA22) exists only inside a
        # tractor: a unit or a block of one rank never stands there (003 3(1): A above K).
        self.lows = lows

    def total(self) -> int:
        return sum(self.counts.values())

    def key(self) -> tuple[int, ...]:
        return tuple(self.counts[c] for c in sorted(self.counts, key=lambda c: c.code))

    def take(self, placement: Placement, sign: int = -1) -> None:
        for card, width in placement:
            self.counts[card] += sign * width

    def put_back(self, placement: Placement) -> None:
        self.take(placement, +1)

    def _next(self, pos: int, acc: Placement) -> list[Card]:
        """The cards at ``pos`` that may extend ``acc`` (they join its last card: ``Trumps.joins``)."""
        cards = self.slots.get(pos, ())
        return [c for c in cards if self.joins(acc[-1][0], c)] if acc else list(cards)

    def uniform(self, width: int, length: int) -> Iterator[tuple[int, Placement]]:
        """Every way to place ``length`` adjacent ranks of ``width`` identical cards: (top, placement)."""
        counts = self.counts

        def extend(pos: int, left: int, acc: Placement) -> Iterator[tuple[int, Placement]]:
            if left == 0:
                yield pos - 1, acc
                return
            for card in self._next(pos, acc):
                used = sum(w for c, w in acc if c is card)
                if counts[card] - used >= width:
                    yield from extend(pos + 1, left - 1, acc + ((card, width),))

        for start in self.positions:
            if length > 1 or start not in self.lows:
                yield from extend(start, length, ())

    def runs(self, widths: tuple[int, ...]) -> Iterator[Placement]:
        """Connected blocks whose widths, rank by rank, are an ordering of ``widths``."""
        counts = self.counts

        def extend(pos: int, left: tuple[int, ...], acc: Placement) -> Iterator[Placement]:
            if not left:
                yield acc
                return
            for card in self._next(pos, acc):
                for width in sorted(set(left)):
                    if counts[card] >= width:
                        i = left.index(width)
                        yield from extend(pos + 1, left[:i] + left[i + 1 :], acc + ((card, width),))

        for start in self.positions:
            if len(widths) > 1 or start not in self.lows:
                yield from extend(start, tuple(widths), ())

    def blocks(self, cap: int) -> Iterator[Placement]:
        """Connected blocks of at most ``cap`` cards: adjacent ranks of two or more identical cards each."""
        counts = self.counts

        def extend(pos: int, room: int, acc: Placement) -> Iterator[Placement]:
            if len(acc) > 1 or acc and pos - 1 not in self.lows:
                yield acc
            for card in self._next(pos, acc):
                have = counts[card] - sum(w for c, w in acc if c is card)
                for width in range(2, min(have, room) + 1):
                    yield from extend(pos + 1, room - width, acc + ((card, width),))

        for start in self.positions:
            yield from extend(start, cap, ())


def place(holding: Holding, blocks: tuple[tuple[int, ...], ...], rng: random.Random | None = None) -> list[Placement] | None:
    """Disjoint connected blocks of these widths (each in any order along its ranks), or None.

    >>> h = Holding(Trumps.of("shaoguan-2023", "5", "H"), Cards.parse("SQ SQ SJ SJ SJ SJ S9 S9 S8 S8"))
    >>> [[f"{c}x{w}" for c, w in p] for p in place(h, ((4,), (2, 2)))]
    [['SJx4'], ['S8x2', 'S9x2']]
    >>> place(h, ((4,), (4,))) is None
    True
    """
    if not blocks:
        return []
    options = list(holding.runs(blocks[0]))
    if rng is not None:
        rng.shuffle(options)
    for placement in options:
        holding.take(placement)
        rest = place(holding, blocks[1:], rng)
        holding.put_back(placement)
        if rest is not None:
            return [placement, *rest]
    return None


def unit_of(trumps: Trumps, cards: Cards) -> Unit | None:
    """The one unit these cards form, or None."""
    suits = trumps.suits_in(cards)
    if len(suits) != 1 or not cards:
        return None
    distinct = cards.distinct()
    width = cards.count(distinct[0])
    if any(cards.count(c) != width for c in distinct):
        return None
    if len(distinct) > 1 and width not in trumps.rules.combos.widths:
        return None
    if width > 1 and width not in trumps.rules.combos.widths:
        return None
    holding = Holding(trumps, cards)
    for top, placement in holding.uniform(width, len(distinct)):
        if len(placement) == len(distinct):
            return Unit(cards, width, len(distinct), suits.pop(), top)
    return None


def _unit_from(trumps: Trumps, top: int, placement: Placement) -> Unit:
    cards = Cards(c for c, w in placement for _ in range(w))
    return Unit(cards, placement[0][1], len(placement), trumps.suit_of(placement[0][0]), top)


def _merges_with(trumps: Trumps, unit: Unit, others: tuple[Unit, ...]) -> bool:
    """Could ``unit`` and some of ``others`` be played together as one unit (99TT + 9 + T = 999TTT)?"""
    for size in range(1, len(others) + 1):
        for group in combinations(others, size):
            cards = Cards.join([unit.cards, *(u.cards for u in group)])
            if len(set(cards.counts().values())) == 1 and unit_of(trumps, cards) is not None:
                return True
    return False


@lru_cache(maxsize=4096)
def readings(trumps: Trumps, cards: Cards) -> tuple[tuple[Unit, ...], ...]:
    """Every way the cards (one suit class) split into units no group of which could merge.

    Sorted: the weakest structure first (see :func:`structure_key`).
    """
    if len(trumps.suits_in(cards)) != 1:
        return []
    widths = (1,) + tuple(trumps.rules.combos.widths)
    holding = Holding(trumps, cards)
    found: dict[tuple, tuple[Unit, ...]] = {}

    def lowest() -> Card | None:
        left = [c for c, n in holding.counts.items() if n > 0]
        return min(left, key=trumps.position) if left else None

    def split(acc: tuple[Unit, ...]) -> None:
        card = lowest()
        if card is None:
            found[tuple(sorted((u.top, u.kind, str(u)) for u in acc))] = acc
            return
        pos = trumps.position(card)
        for width in widths:
            if width > holding.counts[card]:
                break
            for length in range(1, len(holding.positions) + 1):
                if width == 1 and length > 1:
                    break
                for top, placement in list(holding.uniform(width, length)):
                    if card not in [c for c, _ in placement] or top - length + 1 not in (pos, -1):
                        continue
                    unit = _unit_from(trumps, top, placement)
                    if _merges_with(trumps, unit, acc):
                        continue  # a group of units that could be one: not a reading
                    holding.take(placement)
                    split(acc + (unit,))
                    holding.put_back(placement)

    split(())
    return tuple(sorted(found.values(), key=lambda r: structure_key(trumps, r)))


def unit_key(trumps: Trumps, width: int, length: int) -> tuple:
    """How a rulebook ranks a unit kind when matching structures (its follow order)."""
    return component_key(trumps, (width,) * length, width)


def component_key(trumps: Trumps, shape: Shape, lead_width: int) -> tuple:
    """The rank of a component in the rulebook's follow order (data: ``[follow] order``)."""
    measures = {
        "tractor": len(shape) >= 2,
        "width": max(shape),
        "length": len(shape),
        "size": sum(shape),
        "fit": sum(min(w, lead_width) for w in shape),
        "compact": -len(shape),
        "pairs": sum(w // 2 for w in shape) if lead_width == 2 else 0,
    }
    return tuple(measures[name] for name in trumps.rules.follow.order)


def structure_key(trumps: Trumps, units: tuple[Unit, ...]) -> tuple:
    """Units sorted strongest first, for comparing readings (lowest reading = smallest key)."""
    return tuple(sorted((unit_key(trumps, *u.kind) for u in units), reverse=True))
