"""Following: what a follower must play, judged against the whole hand.

One algorithm serves every rulebook. The lead's structure can be met, more or
less closely, by *components* carved out of the follower's cards of the led suit:
the rulebook's ``[follow]`` settings say which components exist and how they rank.
A hand's *requirement* is the best sequence of components (strongest first,
compared lexicographically) that it can place at once; a play is legal when it
meets the same requirement as the hand: "the requirement a hand can meet that
ranks first must be met by the play".

- ``components = "units"`` (seeds 000, 001): uniform units carved out of the lead's
  units, ranked triple tractors > pair tractors > triples > pairs (longer first).
  Pairs and triples are broken out of larger units to meet a requirement. A pair
  tractor carved out of a triple tractor spans at most its ranks (001 十一: 444333 is
  met by 8877 and two singles), or with ``carve = "cards"`` as many ranks as its
  cards hold, and the cards left take further units (000 第十一条 2(1) 最大可能相同,
  2(2) 多对拖 first: 999TTT is met by 334455, else by 3344 and a pair).
- ``components = "connected"`` (seed 003 §6): connected blocks of adjacent ranks of
  two or more identical cards (66 7777 is one block of six), at most as many cards as
  the lead, ranked by size, then by how well their widths fit the lead's, then by
  fewer ranks (003 6(3) A, B: 223344 before 223333 before 22333+散牌 before 223355), then, against a
  lead of pairs, by the pairs they hold (之后跟…对子、散牌: after AAKKQQ, 333344 before 333444).
  Once a play in the trick has a format that outranks the lead's (a bomb on a
  two-pair tractor), that format ranks equal to the lead's own.
- ``[follow.listed]``: a lead format whose follows the seed lists in order (003 6(3) C,
  after a 地雷: 11223344 先于 “1112222+散牌” … 先于 QQQQ9999 先于 QQQQ 8899 …): the
  lead's own format, then the listed shapes line by line; a hand placing none of them is
  held to the general order.

>>> t = Trumps.of("zhongkai-2010", "7", "H")
>>> follow_ruling(t, Cards.parse("S5 S5 S5 SK D3"), Cards.parse("S9 S9"), Cards.parse("S5 SK"))
Reason('tractor.follow_shape', shapes=[Reason('tractor.shape', cards=['S5', 'S5'], shape='pair')], suit='S')
"""

from __future__ import annotations

import random
from functools import lru_cache

from referee.cards import Cards
from referee.reasons import Reason
from referee.rulebooks.shapes import Shape
from referee.tractor.trumps import TRUMP, Trumps
from referee.tractor.units import Holding, Placement, Unit, component_key, place, readings, unit_of

Budget = tuple  # units: sorted ((width, ranks), ...) left in the lead, with carve = "cards" (width, cards); connected: (cards left,)


class _Search:
    """Best requirement of a holding against a lead, by depth-first search over the top keys only."""

    def __init__(self, trumps: Trumps, holding: Holding, lead_width: int, equal_formats: dict):
        self.t = trumps
        self.h = holding
        self.lead_width = lead_width
        self.equal = equal_formats  # shape -> shape whose key it takes
        self.connected = trumps.rules.follow.components == "connected"
        self.cards = trumps.rules.follow.carve == "cards"  # budget units count cards, not ranks
        self.memo: dict = {}

    def key(self, shape: tuple[int, ...]) -> tuple:
        return component_key(self.t, self.equal.get(shape, shape), self.lead_width)

    def longest(self, W: int, N: int, w: int) -> int:
        """The most ranks a unit of width ``w`` carved out of a budget unit ``(W, N)`` may span: its ``N``
        ranks, or with ``carve = "cards"`` (where ``N`` counts the unit's cards) as many as its cards hold."""
        return N // w if self.cards else N

    def rest(self, W: int, N: int, w: int, n: int) -> list[Budget]:
        """What a budget unit ``(W, N)`` leaves for further components once ``w`` x ``n`` is carved out of it:
        ``ranks``, the ranks it did not span and the narrower unit left beside the carved one (444333 less 4433:
        two singles); ``cards``, its cards left, of width up to ``W`` (999TTT less 3344: two cards, a pair)."""
        if self.cards:
            return [(W, N - w * n)] if N - w * n >= 2 else []
        return ([(W, N - n)] if N > n else []) + ([(W - w, n)] if W - w >= 2 else [])

    def candidates(self, budget: Budget) -> list[tuple[tuple, Placement, Budget]]:
        """Placeable components of the highest key, each with the budget left after it."""
        if self.connected:
            (left,) = budget
            best: list = []
            top = None
            for placement in self.h.blocks(left):
                shape = tuple(w for _, w in placement)
                k = self.key(shape)
                if top is None or k > top:
                    top, best = k, []
                if k == top:
                    best.append((k, placement, (left - sum(shape),)))
            return best
        kinds = sorted(
            {
                (w, n)
                for W, N in budget
                for w in self.t.rules.combos.widths
                if w <= W
                for n in range(1, self.longest(W, N, w) + 1)
            },
            key=lambda wn: self.key((wn[0],) * wn[1]),
            reverse=True,
        )
        for w, n in kinds:
            found = []
            for _, placement in self.h.uniform(w, n):
                for i, (W, N) in enumerate(budget):
                    if W >= w and self.longest(W, N, w) >= n:
                        rest = list(budget[:i] + budget[i + 1 :]) + self.rest(W, N, w, n)
                        found.append((self.key((w,) * n), placement, tuple(sorted(rest))))
            if found:
                return found
        return []

    def best(self, budget: Budget) -> tuple:
        memo_key = (self.h.key(), budget)
        if memo_key in self.memo:
            return self.memo[memo_key]
        result: tuple = ()
        for k, placement, rest in self.candidates(budget):
            self.h.take(placement)
            seq = (k,) + self.best(rest)
            self.h.put_back(placement)
            result = max(result, seq)
        self.memo[memo_key] = result
        return result

    def witness(self, budget: Budget, rng: random.Random | None = None) -> list[Placement]:
        """Placements that achieve :meth:`best` (used to explain and to generate plays)."""
        target = self.best(budget)
        out: list[Placement] = []
        while target:
            options = self.candidates(budget)
            if rng is not None:
                rng.shuffle(options)
            for k, placement, rest in options:
                self.h.take(placement)
                if (k,) + self.best(rest) == target:
                    out.append(placement)
                    budget, target = rest, target[1:]
                    break
                self.h.put_back(placement)
            else:  # pragma: no cover - best() and candidates() always agree
                raise AssertionError("no placement reaches the best requirement")
        for placement in out:
            self.h.put_back(placement)
        return out


class _Listed:
    """A lead whose follows the rulebook lists in the seed's order (``[follow] listed``, seed 003 6(3) C):
    the lead's own format first, then the listed shapes tier by tier (a tier's shapes are equal
    choices); a hand that places none of them is held to the general order (:class:`_Search`)."""

    def __init__(self, general: _Search, lead: Unit):
        self.general = general
        own = Shape(((lead.width,) * lead.length,), 0, "the lead's own format")
        self.tiers = ((own,), *general.t.rules.follow.listed[lead.kind])
        self.memo: dict = {}

    def tier(self) -> int | None:
        """The first tier one of whose shapes the holding places, or None."""
        key = self.general.h.key()
        if key not in self.memo:
            found = (i for i, tier in enumerate(self.tiers) if any(place(self.general.h, s.blocks) is not None for s in tier))
            self.memo[key] = next(found, None)
        return self.memo[key]

    def best(self, budget: Budget) -> tuple:
        i = self.tier()
        return ("general", *self.general.best(budget)) if i is None else ("listed", i)

    def witness(self, budget: Budget, rng: random.Random | None = None) -> list[Placement]:
        i = self.tier()
        if i is None:
            return self.general.witness(budget, rng)
        options = [p for s in self.tiers[i] if (p := place(self.general.h, s.blocks, rng)) is not None]
        return rng.choice(options) if rng is not None else options[0]

    def named(self) -> tuple[str, ...]:
        """The seed's patterns of the shape the holding must meet (one of them), for a ruling; () for none."""
        i = self.tier()
        return () if i is None else tuple(s.text for s in self.tiers[i])


def lead_structure(trumps: Trumps, lead: Cards, declared: tuple[Unit, ...] | None = None) -> tuple[Unit, ...]:
    """The units of a lead: itself when one unit, else the declared or the lowest reading."""
    if declared:
        return declared
    unit = unit_of(trumps, lead)
    if unit is not None:
        return (unit,)
    found = readings(trumps, lead)
    if not found:
        raise ValueError(f"{lead} is not a lead: its cards are of more than one suit")
    return found[0]


def _search(trumps: Trumps, cards: Cards, structure: tuple[Unit, ...], before: list[Cards]) -> tuple[_Search | _Listed, Budget]:
    lead_width = max(u.width for u in structure)
    equal: dict = {}
    if trumps.rules.follow.outranked_frees_choice and len(structure) == 1:
        lead_kind = structure[0].kind
        units = (unit_of(trumps, p) for p in before)
        played = {u.kind for u in units if u is not None and u.suit in (structure[0].suit, TRUMP)}
        for better, worse in trumps.rules.combos.outranks:
            if worse == lead_kind and better in played:
                equal[(better[0],) * better[1]] = (lead_kind[0],) * lead_kind[1]
    search = _Search(trumps, Holding(trumps, cards), lead_width, equal)
    if search.connected:
        budget: Budget = (sum(len(u) for u in structure),)
    else:
        budget = tuple(sorted((u.width, len(u)) if search.cards else u.kind for u in structure))
    if len(structure) == 1 and structure[0].kind in trumps.rules.follow.listed:
        return _Listed(search, structure[0]), budget
    return search, budget


def requirement(trumps: Trumps, cards: Cards, structure: tuple[Unit, ...], before: list[Cards] = ()) -> tuple:
    """The best sequence of component keys these cards (of the led suit) can place."""
    search, budget = _search(trumps, cards, structure, list(before))
    return search.best(budget)


@lru_cache(maxsize=1024)
def ceiling(trumps: Trumps, structure: tuple[Unit, ...]) -> tuple:
    """The requirement the lead meets itself: no hand can meet more, and a play that meets it
    has the lead's whole format."""
    return requirement(trumps, Cards.join(u.cards for u in structure), structure)


def follow_ruling(
    trumps: Trumps,
    hand: Cards,
    lead: Cards,
    play: Cards,
    before: list[Cards] = (),
    structure: tuple[Unit, ...] | None = None,
) -> Reason | None:
    """None when ``play`` is a legal follow from ``hand``, else what the rules demanded.

    ``hand`` is the follower's hand before playing and must contain ``play``.
    """
    structure = structure or lead_structure(trumps, lead)
    suit = structure[0].suit
    size = sum(len(u) for u in structure)
    if len(play) != size:
        return Reason("tractor.follow_count", size=size, n=len(play))
    held = trumps.of_suit(hand, suit)
    played = trumps.of_suit(play, suit)
    if len(held) <= size:
        if len(played) != len(held):
            return Reason("tractor.follow_all_held", suit=suit, held_cards=held)
        return None
    if len(played) != size:
        return Reason("tractor.follow_suit", size=size, suit=suit)
    search, budget = _search(trumps, held, structure, list(before))
    need = search.best(budget)
    got = requirement(trumps, played, structure, before)
    if got == need:
        return None
    shapes = [_describe(p) for p in search.witness(budget)]
    named = search.named() if isinstance(search, _Listed) else ()
    if named:
        return Reason("tractor.follow_listed", shapes=shapes, suit=suit, patterns=named)
    return Reason("tractor.follow_shape", shapes=shapes, suit=suit)


SHAPES = {1: "single", 2: "pair", 3: "triple", 4: "bomb"}  # the catalogue's ``shape.*``


def _describe(placement: Placement) -> Reason:
    cards = Cards(c for c, w in placement for _ in range(w))
    widths = {w for _, w in placement}
    shape = "block"
    if len(widths) == 1 and len(placement) >= 1:
        w = widths.pop()
        shape = SHAPES[w] + ("_tractor" if len(placement) > 1 else "")
    return Reason("tractor.shape", shape=shape, cards=cards)


def is_legal_follow(trumps: Trumps, hand: Cards, lead: Cards, play: Cards, before: list[Cards] = ()) -> bool:
    return follow_ruling(trumps, hand, lead, play, before) is None


def legal_follow(
    trumps: Trumps,
    hand: Cards,
    lead: Cards,
    rng: random.Random,
    before: list[Cards] = (),
    structure: tuple[Unit, ...] | None = None,
) -> Cards:
    """A random legal follow, built from the requirement rather than checked against it."""
    structure = structure or lead_structure(trumps, lead)
    size = sum(len(u) for u in structure)
    held = trumps.of_suit(hand, structure[0].suit)
    if len(held) <= size:
        others = list(hand - held)
        return held + Cards(rng.sample(others, size - len(held)))
    search, budget = _search(trumps, held, structure, list(before))
    chosen = Cards(c for p in search.witness(budget, rng) for c, w in p for _ in range(w))
    rest = list(held - chosen)
    return chosen + Cards(rng.sample(rest, size - len(chosen)))
