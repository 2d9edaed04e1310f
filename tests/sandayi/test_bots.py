"""Random players and whole games: the built combinations against the classifier, and every
finished game against the rules it was played under (附件一 二 牌型说明, 出牌规则, 炸弹限制).

The players build their plays from the hand (``candidates``), the classifier
(``referee.climbing.combos``) and the game state judge them: each half checks the other.
"""

import itertools
import random
from collections import Counter

import pytest

from referee.cards import Cards, Decks
from referee.climbing.combos import beats, readings
from referee.sandayi.bombs import bomb_allowed, bomb_limit
from referee.sandayi.bots import candidates, play_game, random_play
from referee.sandayi.seats import next_seat

PACK = list(Decks(2).full())


def hands(n, size, seed):
    rng = random.Random(seed)
    return [Cards(rng.sample(PACK, size)) for _ in range(n)]


def test_every_built_combination_reads_as_built(rules):
    """牌型说明: 单牌, 对牌, 三张, 三带二, 单顺, 双顺, 三顺, 飞机带翅膀, 炸弹, 天王炸弹 — each built
    combination is read by the classifier as the type, rank and size it was built as."""
    checked = Counter()
    for hand in hands(40, 33, 1):
        for cards, reading in candidates(rules, hand):
            assert reading in readings(rules, cards), (str(cards), reading)
            checked[reading.type] += 1
    for kind in ("single", "pair", "triple", "full_house", "straight", "pair_straight", "triple_straight", "bomb"):
        assert checked[kind], kind


def test_rich_hands_build_airplanes_long_straights_and_the_joker_bomb(rules):
    hand = Cards.parse("LJ LJ BJ BJ SA HA S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK D3 D3 C3 D4 D4 C4 D5 D5 D6 D6 HK HK CK HK")
    built = {(r.type, r.size, r.rank) for _, r in candidates(rules, hand)}
    assert ("straight", 14, 14) in built  # A、2、3、4～K、A
    assert ("airplane", 10, 4) in built and ("joker_bomb", 4, 15) in built
    assert ("straight", 5, 5) in built  # A2345, the lowest
    assert not any(t == "straight" and r == 15 for t, _, r in built)  # 不可出JQKA2


@pytest.mark.parametrize("seed", range(6))
def test_the_classifier_finds_nothing_the_builder_misses(rules, seed):
    """Every sub-play of a small hand the classifier reads is one the builder makes (by type, size, rank)."""
    rng = random.Random(seed)
    start = rng.randrange(0, 9)
    window = "A23456789TJQKA"[start : start + 5]
    pool = [c for c in PACK if c.rank in window or (seed % 2 and c.is_joker)]
    hand = Cards(rng.sample(pool, 12))
    built = {(r.type, r.size, r.rank) for _, r in candidates(rules, hand)}
    cards = list(hand)
    seen = set()
    for k in range(1, 11):
        for combo in itertools.combinations(cards, k):
            key = tuple(sorted(c.code for c in combo))
            if key in seen:
                continue
            seen.add(key)
            for r in readings(rules, Cards(combo)):
                assert (r.type, r.size, r.rank) in built, (key, r)


def test_random_leads_and_follows(rules):
    """A leader always plays; a follower plays something that beats the table, or passes."""
    rng = random.Random(3)
    for hand in hands(30, 25, 2):
        lead = random_play(rules, hand, None, rng)
        assert lead is not None and hand.contains(lead) and readings(rules, lead)
        prev = readings(rules, lead)[-1]
        for other in hands(3, 25, rng.random()):
            play = random_play(rules, other, prev, rng)
            if play is not None:
                assert other.contains(play)
                assert any(beats(rules, r, prev) for r in readings(rules, play))
            no_bombs = random_play(rules, other, prev, rng, bombs=False)
            assert no_bombs is None or not any(r.is_bomb for r in readings(rules, no_bombs))


@pytest.mark.parametrize("seed", range(25))
def test_whole_games_follow_the_rules(rules, seed):
    """庄家先出牌，然后按逆时针顺序依次出牌 … 出比上一个玩家大的牌，首先出完所有手牌的玩家获胜; 炸弹限制."""
    g = play_game(rules, random.Random(seed), "SENW"[seed % 4])
    assert g.over and g.scores is not None and sum(g.scores.values()) == 0
    assert g.bidding.first == "SENW"[seed % 4] and g.dealer == g.bidding.dealer
    played = Cards.join(p.cards for _, p in g.history if p is not None)
    assert played + Cards.join(g.hands) == Decks(2).full()
    if g.ended_by != "out":
        assert g.ended_by == "report" and not g.history
        return
    table, seat, passes, bombs = None, None, 0, Counter()
    for i, (who, play) in enumerate(g.history):
        assert who == (g.dealer if i == 0 else next_seat(seat))
        if play is None:
            assert table is not None  # a leader never passes
            passes += 1
            if passes == 3:
                table, passes = None, 0
        else:
            assert play.reading in readings(rules, play.cards)
            if table is not None:
                assert beats(rules, play.reading, table.reading)
            if play.reading.is_bomb:
                category = g.bidding.bomb_category(who)
                assert bomb_allowed(rules, category, bombs[who]), (who, category, bombs[who])
                bombs[who] += 1
            table, passes = play, 0
        seat = who
    assert not len(g.hand(seat)) and g.side(seat) == g.winner
    for s in "SENW":
        limit = bomb_limit(rules, g.bidding.bomb_category(s))
        assert limit is None or bombs[s] <= limit
