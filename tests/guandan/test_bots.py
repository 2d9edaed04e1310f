"""The random players against the referee: every play they build is legal, whole hands keep the
rules of seed 002 (七 play, 三 places, 九 3 counts, 四 tribute), and the plays they build from a
hand are every play the hand holds.

Hypothesis draws the seed, the level and the first leader; ``random.Random(seed)`` deals and plays.
"""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from referee.cards import Card, Cards, Decks
from referee.climbing.combos import beats, lowest_beating, power_of, readings
from referee.guandan.bots import candidates, deal, pay_tribute, play_hand, random_play
from referee.guandan.tribute import TributePhase, is_legal_return, is_legal_tribute
from referee.rulebooks import load
from referee.seats import SEATS, partner

GD = load("sanjiang-2012")
LEVELS = st.sampled_from(GD.ranks.order)
SEEDS = st.integers(0, 2**32 - 1)


def test_a_follow_beats_the_table():
    """七①: 后一家打出的牌必须比前一家打出的牌大，如没有可以弃权; 二: 红心x可作为万能牌配用。"""
    hand = Cards.parse("S3 D3 S4 H4 C5 S6 H7 BJ")  # level 7: H7 is the wildcard
    prev = readings(GD, Cards.parse("C4 C4"), "7")[0]
    plays = [p for seed in range(40) if (p := random_play(GD, "7", hand, prev, random.Random(seed)))]
    for cards, r in plays:
        assert hand.contains(cards) and beats(GD, r, prev) and r == lowest_beating(GD, cards, prev, "7")
    # the only pairs above 44: C5 or S6 with the wildcard
    assert {str(c) for c, _ in plays} == {"H7 C5", "S6 H7"}
    # nothing beats a pair of big jokers but bombs, and this hand has none: always a pass
    top = readings(GD, Cards.parse("BJ BJ"), "7")[0]
    assert all(random_play(GD, "7", hand, top, random.Random(s)) is None for s in range(10))


def test_the_wildcard_fills_a_gap():
    """二: 红心x可作为万能牌配用 ... x4567，相当于34567（或45678）。"""
    hand = Cards.parse("H9 S4 D5 C6 S7")
    built = {r for c in candidates(GD, "9", hand, random.Random(1)) for r in readings(GD, c, "9")}
    assert {(r.type, r.rank) for r in built if r.type == "straight"} == {("straight", 7), ("straight", 8)}


@st.composite
def small_hands(draw):
    """Up to ten cards from a few adjacent ranks, the heart level cards and the jokers: hands full of combinations
    (of two decks: at most two of any card, the two heart level cards among them)."""
    level = draw(LEVELS)
    rng = random.Random(draw(SEEDS))
    lo = rng.randint(1, 9)
    ranks = ["A" if v in (1, 14) else "23456789TJQKA"[v - 2] for v in range(lo, lo + 6)]
    wild = Card.parse("H" + level)
    pool = [c for c in Decks(2).full() if not c.is_joker and c.rank in ranks and c != wild]
    pool += [wild] * 2 + [Card.parse(j) for j in ("LJ", "LJ", "BJ", "BJ")]
    return level, Cards(rng.sample(pool, draw(st.integers(4, 10))))


@settings(max_examples=60, deadline=None)
@given(small_hands())
@example(("7", Cards.parse("LJ S6 S4 H6 H5 H4 H3 H2 D6")))  # a straight 2-6 whose cards drawn at random were all hearts
def test_the_players_build_every_play_the_hand_holds(drawn):
    """五/六: every combination the hand holds (by type, rank and size) is among the plays built
    from it, and every play built reads as some combination."""
    level, hand = drawn
    cards = list(hand)
    held = set()
    for k in range(1, len(cards) + 1):
        for idx in combinations(range(len(cards)), k):
            held |= set(readings(GD, Cards(cards[i] for i in idx), level))
    built = set()
    for play in candidates(GD, level, hand, random.Random(0)):
        assert hand.contains(play)
        rs = readings(GD, play, level)
        assert rs, str(play)
        built |= set(rs)
    assert held == built, (str(hand), level, sorted(map(repr, held - built)))


def _check_hand(h, dealt):
    """What every finished hand must show."""
    assert h.over and h.turn is None
    first = h.finish[0]
    if len(h.finish) == 2:
        assert h.finish[1] == partner(first)  # 七②: 对家两人争得上游或二游则提前结束
        out = set(h.finish)
    else:
        assert sorted(h.finish) == sorted(SEATS) and h.finish.index(partner(first)) >= 2
        out = set(h.finish[:3])
    assert {s for s in SEATS if h.count(s) == 0} == out
    held = {s: 27 for s in SEATS}
    expected = []  # 九 3: the first time a seat holds ten cards or fewer, the table shows the count
    table = None
    for t in h.turns:
        if t.cards is None:
            continue
        if t.lead:
            assert t.reading in readings(GD, t.cards, h.level)
        else:
            assert beats(GD, t.reading, table)  # 七①: 后一家打出的牌必须比前一家打出的牌大
            assert t.reading == lowest_beating(GD, t.cards, table, h.level)
        table = t.reading
        before, held[t.seat] = held[t.seat], held[t.seat] - len(t.cards)
        if before > 10 >= held[t.seat]:
            expected.append((t.seat, held[t.seat], t.number, t.at))
    assert [(a.seat, a.cards, a.turn, a.at) for a in h.announced] == expected
    for seat in SEATS:
        assert dealt[seat].contains(h.known_hand(seat)) and h.count(seat) == held[seat]


@settings(max_examples=30, deadline=None)
@given(LEVELS, SEEDS, st.sampled_from(SEATS))
def test_whole_hands(level, seed, leader):
    """七: the players play a hand out through the referee; 三, 七②, 九 3 hold at the end."""
    rng = random.Random(seed)
    dealt = deal(GD, rng)
    h = play_hand(GD, level, rng, leader=leader, hands=dealt)
    assert h.turns[0].seat == leader and h.rulings == ()
    _check_hand(h, dealt)
    r = h.result()
    assert r.first == h.finish[0] and r.partner_place == h.finish.index(partner(r.first)) + 1


@settings(max_examples=30, deadline=None)
@given(LEVELS, SEEDS, st.permutations(SEATS), st.booleans())
def test_hands_after_a_tribute(level, seed, order, early):
    """四: the players pay the tribute (or refuse it) and play on; a legal tribute is never ruled against."""
    finish = tuple(order[:2]) if early and order[1] == partner(order[0]) else tuple(order)
    rng = random.Random(seed)
    dealt = deal(GD, rng)
    phase, after = pay_tribute(GD, level, finish, dealt, rng)
    assert phase.done and phase.rulings == ()
    for x in phase.exchanges:
        assert is_legal_tribute(GD, level, dealt[x.giver], x.tribute) and is_legal_return(GD, level, x.returned)
    h = play_hand(GD, level, rng, leader=phase.leader, hands=after, exchanges=phase.exchanges)
    assert h.rulings == ()
    _check_hand(h, after)


@settings(max_examples=40, deadline=None)
@given(LEVELS, SEEDS, st.sampled_from(SEATS))
def test_a_tribute_ruling_is_never_wrong(level, seed, first):
    """四: 进贡的牌必须是自己手中最大的牌，“逢人配”除外 -- a payer that pays any card: the referee rules
    only when the payer truly held a larger card (not the heart level card), with plays that show it."""
    rng = random.Random(seed)
    dealt = deal(GD, rng)
    finish = (first, SEATS[(SEATS.index(first) + 1) % 4], SEATS[(SEATS.index(first) + 3) % 4])
    phase = TributePhase.start(GD, level, finish)
    (payer,) = phase.payers
    wild = Card.parse("H" + level)
    tribute = rng.choice([c for c in dealt[payer].distinct() if c != wild])
    phase = phase.pay(payer, tribute)
    back = rng.choice([c for c in dealt[first].distinct() if is_legal_return(GD, level, c)])
    phase = phase.return_(first, back)
    hands = dict(dealt)
    hands[payer] = dealt[payer] - Cards([tribute]) + Cards([back])
    hands[first] = dealt[first] - Cards([back]) + Cards([tribute])
    h = play_hand(GD, level, rng, leader=phase.leader, hands=hands, exchanges=phase.exchanges)
    legal = is_legal_tribute(GD, level, dealt[payer], tribute)
    ruled = [r for r in h.rulings if r.kind == "tribute_not_largest"]
    if legal:
        assert ruled == []
    for r in ruled:
        assert r.seat == payer and r.evidence
        larger = [c for c in dealt[payer].distinct() if c != wild and power_of(GD, c, level) > power_of(GD, tribute, level)]
        assert larger, (str(dealt[payer]), str(tribute))
        for number, cards in r.evidence:
            turn = h.turns[number - 1]
            assert turn.seat == payer and str(turn.cards) == cards
            assert any(power_of(GD, c, level) > power_of(GD, tribute, level) and c != wild for c in turn.cards)
    # the ruling is made whenever the plays prove it (the card given back aside)
    seen = h.known_hand(payer)
    if seen.count(back):
        seen = seen - Cards([back])
    proof = any(c != wild and power_of(GD, c, level) > power_of(GD, tribute, level) for c in seen)
    assert bool(ruled) == proof
