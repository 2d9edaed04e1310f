"""Property tests of the climbing-game combinations (``referee.climbing.combos``), both rulebooks.

Hypothesis draws a seed, the rulebook, the level rank (Guandan), the play type and how many
wildcards (逢人配, Guandan) a play holds; a ``random.Random(seed)`` then builds legal plays
constructively from the two decks of a deal (``legal_plays.Builder``: a rank and copies for
sets, a window of places for sequences). The properties:

* every built play classifies with its intended type, and the reading it was built as is
  among ``readings(...)``;
* ``beats`` is a strict order within a type and size (irreflexive, asymmetric, transitive,
  and of two readings of different rank one beats the other); over all bombs (炸弹, 同花顺,
  四大天王) it is a strict total order; a plain play never beats another type or size;
* ``types(...)`` agrees with an oracle written independently from the seeds' definitions, on
  plays near legal ones (a card swapped, added or dropped) and on random handfuls; with
  wildcards the oracle tries every card a wildcard may stand for (any card but a joker);
* ``lowest_beating`` is the first reading that beats;
* natural cards (no wildcard) read one way at most, so the play on the table is never ambiguous;
* random deals conserve the 108 cards (Guandan 4 x 27; San Da Yi 4 x 25 + 8 in the kitty).

Example counts keep the whole file to a few seconds.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections import Counter
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.cards import RANKS, SUITS, Card, Cards, Decks
from referee.climbing.combos import BOMBS, TYPES, beats, lowest_beating, readings, strength, types
from referee.rulebooks import load

sys.path.insert(0, str(Path(__file__).resolve().parent))
from legal_plays import RANK_AT, SEQUENCES, Builder, deal, kinds, sizes  # noqa: E402

GD = load("sanjiang-2012")
SD = load("usst-2016")
BOOKS = {"sanjiang-2012": GD, "usst-2016": SD}
JOKERS = ("LJ", "BJ")
FAST = settings(max_examples=150, deadline=None)


@st.composite
def setups(draw):
    """(rules, level, rng): the level is drawn for Guandan only."""
    rules = BOOKS[draw(st.sampled_from(sorted(BOOKS)))]
    level = draw(st.sampled_from(RANKS)) if rules is GD else None
    return rules, level, random.Random(draw(st.integers(0, 2**32 - 1)))


def draw_wilds(draw, rules) -> int:
    return draw(st.sampled_from((0, 0, 1, 2))) if rules is GD else 0


# ---- every built play classifies as built -----------------------------------------------------


@FAST
@given(setups(), st.data())
def test_built_plays_classify_with_their_type(setup, data):
    rules, level, rng = setup
    kind = data.draw(st.sampled_from(kinds(rules)))
    built = Builder(rules, level, rng).build(kind, draw_wilds(data.draw, rules))
    assume(built is not None)
    found = readings(rules, built.cards, level)
    assert built.type in types(rules, built.cards, level), (built, found)
    assert built.found_in(found), (built, found)
    # readings come lowest first, once each; types are theirs in the canonical order
    assert list(found) == sorted(set(found), key=lambda r: strength(rules, r))
    assert types(rules, built.cards, level) == [t for t in TYPES if t in {r.type for r in found}]
    assert all(r.size == len(built.cards) for r in found)


@FAST
@given(setups(), st.integers(2, 6))
def test_plays_built_from_one_deal_never_use_more_cards_than_it_has(setup, n):
    rules, level, rng = setup
    builder = Builder(rules, level, rng)
    plays = [b for b in (builder.build(rng.choice(kinds(rules)), rng.choice((0, 1))) for _ in range(n)) if b]
    together = Cards.join(p.cards for p in plays)
    Decks(2).check(together)
    assert Decks(2).full().contains(together)


# ---- beats: a strict order ---------------------------------------------------------------------


def same_kind_readings(rules, level, rng, kind, k, want=5, tries=40):
    """Readings of type ``kind`` and one size, from up to ``want`` plays built with ``k`` places/cards."""
    out = set()
    size = None
    for _ in range(tries):
        wilds = rng.choice((0, 0, 1, 2)) if rules is GD else 0
        built = Builder(rules, level, rng).build(kind, wilds, k)
        if built is None or (size is not None and built.size != size):
            continue
        size = built.size
        out |= {r for r in readings(rules, built.cards, level) if r.type == kind and r.size == size}
        if len(out) >= want:
            break
    return sorted(out, key=lambda r: r.rank)


def assert_strict_order(rules, rs):
    for a in rs:
        assert not beats(rules, a, a), a
    for a, b in itertools.permutations(rs, 2):
        if beats(rules, a, b):
            assert not beats(rules, b, a), (a, b)
    for a, b, c in itertools.permutations(rs, 3):
        if beats(rules, a, b) and beats(rules, b, c):
            assert beats(rules, a, c), (a, b, c)


@FAST
@given(setups(), st.data())
def test_beats_is_a_strict_order_within_a_type_and_size(setup, data):
    rules, level, rng = setup
    kind = data.draw(st.sampled_from([k for k in kinds(rules) if k != "joker_bomb"]))
    k = data.draw(st.sampled_from(sizes(rules, kind, cap=8)))
    rs = same_kind_readings(rules, level, rng, kind, None if kind in ("single", "pair", "triple", "full_house") else k)
    assume(len(rs) >= 2)
    assert_strict_order(rules, rs)
    for a, b in itertools.permutations(rs, 2):  # of two ranks, the higher beats the lower
        assert beats(rules, a, b) == (a.rank > b.rank), (a, b)


@FAST
@given(setups())
def test_bombs_are_a_strict_total_order_above_every_plain_play(setup):
    rules, level, rng = setup
    bombs, plain = set(), set()
    for _ in range(12):
        kind = rng.choice(kinds(rules))
        wilds = rng.choice((0, 1, 2)) if rules is GD else 0
        built = Builder(rules, level, rng).build(kind, wilds)
        if built:
            for r in readings(rules, built.cards, level):
                (bombs if r.type in BOMBS else plain).add(r)
    bombs, plain = sorted(bombs, key=repr), sorted(plain, key=repr)
    assert_strict_order(rules, bombs)
    for a, b in itertools.combinations(bombs, 2):  # total: of two different bombs one beats the other
        assert beats(rules, a, b) != beats(rules, b, a), (a, b)
    for a in bombs:
        for p in plain:
            assert beats(rules, a, p) and not beats(rules, p, a), (a, p)
        if a.type == "straight_flush":  # 六: 火箭可压5张(含5张)以下的炸弹，六张以上的炸弹可以压火箭
            for b in bombs:
                if b.type == "bomb":
                    assert beats(rules, a, b) == (b.size <= 5), (a, b)


@FAST
@given(setups())
def test_a_plain_play_beats_only_its_own_type_and_size(setup):
    rules, level, rng = setup
    plain = [k for k in kinds(rules) if k not in BOMBS]
    rs = []
    for _ in range(6):
        built = Builder(rules, level, rng).build(rng.choice(plain), rng.choice((0, 1)) if rules is GD else 0)
        if built:
            rs += [r for r in readings(rules, built.cards, level) if r.type not in BOMBS]
    for a, b in itertools.permutations(rs, 2):
        if beats(rules, a, b):
            assert (a.type, a.size) == (b.type, b.size) and a.rank > b.rank, (a, b)


@FAST
@given(setups(), st.data())
def test_lowest_beating_is_the_first_reading_that_beats(setup, data):
    rules, level, rng = setup
    ks = kinds(rules)
    prev = Builder(rules, level, rng).build(data.draw(st.sampled_from(ks)), draw_wilds(data.draw, rules))
    play = Builder(rules, level, rng).build(data.draw(st.sampled_from(ks)), draw_wilds(data.draw, rules))
    assume(prev is not None and play is not None)
    on_table = readings(rules, prev.cards, level)[0]
    found = readings(rules, play.cards, level)
    got = lowest_beating(rules, play.cards, on_table, level)
    winners = [r for r in found if beats(rules, r, on_table)]
    assert got == (winners[0] if winners else None)


# ---- types agree with an independent oracle --------------------------------------------------


def _windows(rules, k):
    first = 1 if rules.ranks.ace_low else 2
    return [range(lo, lo + k) for lo in range(first, 16 - k)]


def _places(window, width) -> Counter:
    out: Counter = Counter()
    for v in window:
        out[RANK_AT[v]] += width
    return out


def oracle_types(rules, cards: Cards) -> set[str]:
    """The types of a play without wildcards, straight from the seeds' definitions."""
    c = rules.combos
    n = len(cards)
    keys = Counter(card.code if card.is_joker else card.rank for card in cards)
    naturals = Counter({k: v for k, v in keys.items() if k not in JOKERS})
    has_jokers = len(naturals) != len(keys)
    out = set()
    if n == 1:
        out.add("single")
    if len(keys) == 1:
        ((key, m),) = keys.items()
        joker = key in JOKERS
        if m == 2 and (not joker or rules.ranks.joker_pairs):
            out.add("pair")
        if m == 3 and not joker:
            out.add("triple")
        if not joker and c.bomb and c.bomb[0] <= m <= c.bomb[1]:
            out.add("bomb")
    if c.joker_bomb and keys == Counter({"LJ": 2, "BJ": 2}):
        out.add("joker_bomb")
    if n == 5 and sorted(keys.values()) == [2, 3]:
        t = next(k for k, v in keys.items() if v == 3)
        p = next(k for k, v in keys.items() if v == 2)
        if t not in JOKERS and (p not in JOKERS or (c.full_house_joker_pair and rules.ranks.joker_pairs)):
            out.add("full_house")
    if has_jokers:
        return out
    for kind, width in SEQUENCES.items():
        span = getattr(c, kind)
        if not (span and n % width == 0 and span[0] <= n // width <= span[1]):
            continue
        if any(_places(w, width) == naturals for w in _windows(rules, n // width)):
            # 002 五: 五张且只能五张相连的单张牌…如果花色相同称为同花顺 -- one suit: the straight flush only
            one_suit = kind == "straight" and c.straight_flush and len({card.suit for card in cards}) == 1
            out.add("straight_flush" if one_suit else kind)
    if c.airplane and n % 5 == 0 and c.airplane[0] <= n // 5 <= c.airplane[1]:
        k = n // 5
        for tw in _windows(rules, k):
            for pw in _windows(rules, k):
                trip, pair = _places(tw, 3), _places(pw, 2)
                if not set(trip) & set(pair) and trip + pair == naturals:
                    out.add("airplane")
    return out


def oracle_with_wilds(rules, level, cards: Cards) -> set[str]:
    """二: 红心x可作为万能牌配用（不可配大小王）: the union over every card each wildcard may stand for."""
    wild = Card.parse("H" + level) if rules is GD else None
    w = cards.count(wild) if wild else 0
    if not w:
        return oracle_types(rules, cards)
    rest = cards - Cards([wild] * w)
    suits = {c.suit for c in rest if not c.is_joker}
    # the suit matters only for a straight flush: the naturals' one suit, and one other
    sub_suits = sorted(suits)[:1] if len(suits) == 1 else []
    sub_suits += [s for s in SUITS if s not in sub_suits][:1]
    stand_ins = [Card.parse(s + r) for s in sub_suits for r in RANKS]
    out = set()
    for subs in itertools.product(stand_ins, repeat=w):
        out |= oracle_types(rules, rest + Cards(subs))
    return out


@st.composite
def near_plays(draw):
    """A legal play with a card swapped, added or dropped (or none), or a random handful."""
    rules, level, rng = draw(setups())
    builder = Builder(rules, level, rng)
    how = draw(st.sampled_from(("as built", "swap", "add", "drop", "handful")))
    if how == "handful":
        deck = list(Decks(2).full())
        return rules, level, Cards(rng.sample(deck, draw(st.integers(1, 8)))), how
    built = builder.build(draw(st.sampled_from(kinds(rules))), draw_wilds(draw, rules))
    assume(built is not None)
    cards = list(built.cards)
    spare = list(builder.pool.elements())
    if how in ("swap", "drop"):
        cards.pop(rng.randrange(len(cards)))
    if how in ("swap", "add"):
        cards.append(rng.choice(spare))
    assume(cards)
    return rules, level, Cards(cards), how


@settings(max_examples=400, deadline=None)
@given(near_plays())
def test_types_agree_with_the_oracle(case):
    rules, level, cards, how = case
    assert set(types(rules, cards, level)) == oracle_with_wilds(rules, level, cards), (rules.id, level, cards, how)


@settings(max_examples=400, deadline=None)
@given(near_plays())
def test_a_play_without_wildcards_reads_one_way(case):
    """002 五: 如果花色相同称为同花顺; 004 牌型大小: 由顺子中最大的牌点数大小决定 -- natural cards have one
    reading at most (a same-suit straight is a straight flush only, an ace that could end a run either
    way sits high), so the play on the table is never read two ways; only wildcards (逢人配) may be."""
    rules, level, cards, how = case
    wild = Card.parse("H" + level) if rules is GD else None
    assume(not (wild and cards.count(wild)))
    assert len(readings(rules, cards, level)) <= 1, (rules.id, level, cards, readings(rules, cards, level))


# ---- random deals conserve the cards ---------------------------------------------------------


@FAST
@given(st.sampled_from(sorted(BOOKS)), st.integers(0, 2**32 - 1))
def test_random_deals_conserve_cards(book, seed):
    rules = BOOKS[book]
    hands, kitty = deal(rules, random.Random(seed))
    full = Decks(2).full()
    assert len(full) == 108
    assert [len(h) for h in hands] == [rules.deal.hand_size] * 4
    assert len(kitty) == rules.deal.kitty
    assert (rules.deal.hand_size, rules.deal.kitty) == ((27, 0) if rules is GD else (25, 8))
    together = Cards.join([*hands, kitty])
    assert together == full
    Decks(2).check(together)
