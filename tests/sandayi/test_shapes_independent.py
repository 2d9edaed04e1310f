"""A second classifier of San Da Yi shapes, written from seed 004's text alone (附件一 二 牌型说明, 牌型大小), held
against the engine (``referee.climbing.combos``) on thousands of random plays built near every shape.

牌型说明: 1.天王炸弹：四张王牌。 2.炸弹：4—8个牌点一样的牌。 3.单牌：单个牌。 4.对牌：牌点相同的2张牌，两个小王或两个
大王也算对子牌型。 5.三张：牌点相同的3张牌(不包括三张王，三张王只可以当一对和单张)。 6.三带二：点数相同的三张牌 + 一对牌，
(三牌的牌点必须和所带的对牌牌点不同)。 7.单顺：5张或5张以上牌点连续的牌，其中A即可以连在K后，又可以连在2前，即可以出现
14张牌的顺子：A、2、3、4～K、A(注：这种14顺是最大的顺子，但不可出JQKA2)。 8.双顺：3对或3对以上牌点连续的对牌
9.三顺：2个或2个以上牌点连续的三牌 10.飞机带翅膀：多个三带二的牌，要求所有的三条牌为牌点连续的牌，同时对牌也必须为牌点
连续的牌。
牌型大小: 大王>小王>2>A>K>…>3 … 天王炸弹大于所有其他的牌型。炸弹根据张数决定大小 … 非炸弹牌型，张数相同才能比较大小，
牌点数大的则大。飞机带翅膀的大小比较，由三顺中最大牌点数大小决定，附带的对子不影响大小。三带一对的大小比较，由三张的最大牌点数
大小决定，附带的对子会影响大小。… 单顺和双顺的大小比较，需要张数相同，由顺子中最大的牌点数大小决定(2在顺子中的牌点比3小)。

Readings this classifier takes where the text leaves a choice, as the engine does (the seed says no more): a sequence
of one type beats only the same type and size (三顺 and 飞机 are not compared with 双顺 of as many cards); bombs of
equal size go by rank; two wing pairs of jokers (小王小王 大王大王) are not 牌点连续; a wing pair shares no rank with
a triple (reported before); the sequence place of a 13-rank run holding one A is its high end (all such runs are equal).
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from referee.cards import Cards
from referee.climbing.combos import beats, readings
from referee.rulebooks import load

RULES = load("usst-2016")
SINGLE = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "LJ", "BJ"]  # 牌点由小到大
PLACE = {r: i for i, r in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"])}  # A low: 0
HIGH_A = 13  # A即可以连在K后


def _rank(code: str) -> str:
    return code if code in ("LJ", "BJ") else code[1]


def classify(codes: list[str]) -> dict[str, tuple]:
    """Every type the cards read as, each with its rank key (the highest where several)."""
    n = len(codes)
    count: dict[str, int] = {}
    for c in codes:
        count[_rank(c)] = count.get(_rank(c), 0) + 1
    jokers = count.get("LJ", 0) + count.get("BJ", 0)
    out: dict[str, tuple] = {}
    ranks = sorted(count, key=SINGLE.index)

    def is_pair(r: str, k: int) -> bool:
        return k == 2  # 牌点相同的2张牌; 两个小王或两个大王 are one rank here

    if n == 1:
        out["single"] = (SINGLE.index(ranks[0]),)
    if len(ranks) == 1 and is_pair(ranks[0], n):
        out["pair"] = (SINGLE.index(ranks[0]),)
    if len(ranks) == 1 and n == 3 and not jokers:
        out["triple"] = (SINGLE.index(ranks[0]),)
    if len(ranks) == 1 and 4 <= n <= 8 and not jokers:
        out["bomb"] = (n, SINGLE.index(ranks[0]))
    if count.get("LJ") == 2 and count.get("BJ") == 2 and n == 4:
        out["joker_bomb"] = (99,)
    if n == 5 and len(ranks) == 2:
        for t, p in (ranks, ranks[::-1]):
            if count[t] == 3 and t not in ("LJ", "BJ") and is_pair(p, count[p]):
                out["full_house"] = (SINGLE.index(t), SINGLE.index(p))
    if not jokers:
        aces = count.get("A", 0)
        for low in range(aces + 1):  # how many aces sit before the 2, the rest after the K
            at = [0] * 14
            for r, k in count.items():
                if r != "A":
                    at[PLACE[r]] += k
            at[0], at[HIGH_A] = low, aces - low
            used = [i for i in range(14) if at[i]]
            lo, hi = used[0], used[-1]
            run = hi - lo + 1
            if used != list(range(lo, hi + 1)):
                continue
            for width, kind, least in ((1, "straight", 5), (2, "pair_straight", 3), (3, "triple_straight", 2)):
                if all(at[i] == width for i in used) and run >= least:
                    out[kind] = max(out.get(kind, (0,)), (hi,))
        for low in range(aces + 1):
            at = [0] * 14
            for r, k in count.items():
                if r != "A":
                    at[PLACE[r]] += k
            at[0], at[HIGH_A] = low, aces - low
            for k in range(2, 15):
                if 5 * k != n:
                    continue
                for t0, p0 in product(range(15 - k), repeat=2):
                    tri, par = range(t0, t0 + k), range(p0, p0 + k)
                    if {i % HIGH_A for i in tri} & {i % HIGH_A for i in par}:  # no rank both a triple and a wing
                        continue
                    want = [3 if i in tri else 2 if i in par else 0 for i in range(14)]
                    if want == at:
                        out["airplane"] = max(out.get("airplane", (0,)), (t0 + k - 1,))
    return out


def beats_text(play: list[str], prev: list[str]) -> bool:
    """Does some reading of ``play`` beat ``prev`` (its lowest reading, as on the table)?"""
    mine, theirs = classify(play), classify(prev)
    if not mine or not theirs:
        return False
    order = ["single", "pair", "triple", "full_house", "straight", "pair_straight", "triple_straight", "airplane"]
    pt = min(theirs, key=lambda t: (t in ("bomb", "joker_bomb"), order.index(t) if t in order else 0))
    for t, key in mine.items():
        if pt == "joker_bomb":
            continue
        if t == "joker_bomb":
            return True
        if t == "bomb":
            if pt != "bomb" or key > theirs[pt]:
                return True
        elif t == pt and len(play) == len(prev) and key > theirs[pt]:
            return True
    return False


# -- random plays near every shape ------------------------------------------------------------------

NATURAL = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


def _cards(rng: random.Random, ranks: list[str]) -> list[str] | None:
    """Codes for the ranks (two decks: 8 of a rank, 2 of each joker), suits spread; None when the decks lack them."""
    seen: dict[str, int] = {}
    out = []
    for r in ranks:
        i = seen.get(r, 0)
        seen[r] = i + 1
        if r in ("LJ", "BJ"):
            if i >= 2:
                return None
            out.append(r)
        else:
            if i >= 8:
                return None
            out.append("SHDC"[i % 4] + r)
    rng.shuffle(out)
    return out


def _near_shape(rng: random.Random) -> list[str] | None:
    place = ["A"] + NATURAL[1:] + ["A"]  # the sequence places, A at both ends
    kind = rng.choice(["set", "run1", "run2", "run3", "plane", "fh", "jokers", "loose"])
    if kind == "set":
        ranks = [rng.choice(NATURAL + ["LJ", "BJ"])] * rng.randint(1, 9)
    elif kind.startswith("run"):
        width, k = int(kind[-1]), rng.randint(1, 14)
        lo = rng.randint(0, 14 - k)
        ranks = [place[i] for i in range(lo, lo + k) for _ in range(width)]
    elif kind == "plane":
        k = rng.randint(1, 5)
        t0, p0 = rng.randint(0, 14 - k), rng.randint(0, 14 - k)
        ranks = [place[i] for i in range(t0, t0 + k) for _ in range(3)] + [place[i] for i in range(p0, p0 + k) for _ in range(2)]
    elif kind == "fh":
        ranks = [rng.choice(NATURAL + ["LJ"])] * 3 + [rng.choice(NATURAL + ["LJ", "BJ"])] * 2
    elif kind == "jokers":
        ranks = [rng.choice(["LJ", "BJ"]) for _ in range(rng.randint(1, 5))]
    else:
        ranks = [rng.choice(NATURAL + ["LJ", "BJ"]) for _ in range(rng.randint(1, 12))]
    for _ in range(rng.choice([0, 0, 1, 2])):  # a card added, taken out or changed
        how = rng.choice(["add", "drop", "swap"])
        if how in ("drop", "swap") and ranks:
            ranks.pop(rng.randrange(len(ranks)))
        if how in ("add", "swap"):
            ranks.append(rng.choice(NATURAL + ["LJ", "BJ"]))
    return _cards(rng, ranks) if ranks else None


def _plays(seed: int, n: int) -> list[list[str]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        cards = _near_shape(rng)
        if cards:
            out.append(cards)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_the_engine_reads_every_random_play_as_the_seed_text_does(seed):
    for codes in _plays(seed, 2500):
        engine = sorted({r.type for r in readings(RULES, Cards.parse(" ".join(codes)))})
        assert engine == sorted(classify(codes)), " ".join(codes)


@pytest.mark.parametrize("seed", range(2))
def test_the_engine_ranks_random_pairs_of_plays_as_the_seed_text_does(seed):
    rng = random.Random(100 + seed)
    plays = [p for p in _plays(200 + seed, 3000) if classify(p)]
    by_size: dict[int, list[list[str]]] = {}
    for p in plays:
        by_size.setdefault(len(p), []).append(p)
    checked = 0
    for _ in range(6000):
        prev = rng.choice(plays)
        play = rng.choice(by_size[len(prev)] if rng.random() < 0.7 else plays)
        if any(prev.count(c) + play.count(c) > 2 for c in set(prev) | set(play)):
            continue  # more copies than two decks hold
        table = readings(RULES, Cards.parse(" ".join(prev)))
        engine = any(beats(RULES, r, table[0]) for r in readings(RULES, Cards.parse(" ".join(play))))
        assert engine == beats_text(play, prev), f"{' '.join(play)} on {' '.join(prev)}"
        checked += 1
    assert checked > 5000


def test_the_second_classifier_reads_the_seed_examples():
    """The seed's own examples, through the second classifier (it must be right before it judges the engine)."""
    assert set(classify("SA S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK HA".split())) == {"straight"}  # 14张牌的顺子
    assert classify("SJ SQ SK SA S2".split()) == {}  # 不可出JQKA2
    assert classify("LJ LJ BJ".split()) == {}  # 三张王只可以当一对和单张
    assert set(classify("LJ LJ".split())) == {"pair"}  # 两个小王也算对子
    assert set(classify("S3 H3 D3 S3 H3 D3 S3 H3".split())) == {"bomb"}  # 8张炸弹
    assert beats_text("S2 H3 D4 C5 S6".split(), "SA H2 D3 C4 S5".split())  # 2在顺子中的牌点比3小


# -- whole random games: every play the engine accepts or refuses, against the text -------------------------------------

LIMIT = {1: 1, 2: 2, "pass": 1}  # 炸弹限制: 叫1分 1, 叫2分 2, 不叫 1; the dealer and a player never asked: none


def _candidates(rng: random.Random, hand: list[str]) -> list[list[str]]:
    by_rank: dict[str, list[str]] = {}
    for c in hand:
        by_rank.setdefault(_rank(c), []).append(c)
    out = []
    for _ in range(12):
        how = rng.random()
        if how < 0.3:  # a set of one rank
            group = by_rank[rng.choice(list(by_rank))]
            out.append(group[: rng.randint(1, len(group))])
        elif how < 0.45:  # a triple and a pair
            three = [g for g in by_rank.values() if len(g) >= 3]
            two = [g for g in by_rank.values() if len(g) >= 2]
            if three and two:
                a, b = rng.choice(three), rng.choice(two)
                out.append(a[:3] + b[:2] if a is not b else a[:5])
        elif how < 0.75:  # a run of one width over the ranks held
            width = rng.choice([1, 1, 2, 3])
            place = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
            lo, k = rng.randrange(14), rng.randint(5, 12) if width == 1 else rng.randint(2, 6)
            cards, used = [], {}
            for r in place[lo : lo + k]:
                have = [c for c in by_rank.get(r, []) if hand.count(c) > used.get(c, 0)]
                for c in have[:width]:
                    used[c] = used.get(c, 0) + 1
                    cards.append(c)
            out.append(cards)
        else:  # any few cards
            out.append(rng.sample(hand, min(len(hand), rng.randint(1, 6))))
    return [c for c in out if c]


@pytest.mark.parametrize("seed", range(3))
def test_random_games_accept_and_refuse_every_play_as_the_seed_text_does(seed):
    """出牌规则: 庄家先出牌 … 其可以选择“不出”或出比上一个玩家大的牌，首先出完所有手牌的玩家获胜; 炸弹限制 by what each
    player said; a game's three others passing give the lead back. Every try of random cards is judged twice."""
    from referee.cards import Decks
    from referee.sandayi.game import Game, GameError, deal_cards

    rng = random.Random(seed)
    for _ in range(10):
        pack = list(Decks(2).full())
        rng.shuffle(pack)
        first = rng.choice("SENW")
        g = Game.start(RULES, *deal_cards(RULES, pack, first), first_bidder=first)
        said: dict[str, object] = {}
        while g.phase == "bidding":
            high = g.bidding.high or 0
            value = rng.choice([b for b in (1, 2, 3) if b > high] + (["pass"] if high else []))
            said[g.turn] = value
            g = g.bid(g.turn, value)
        g = g.take_kitty(g.dealer)
        bombs = dict.fromkeys("SENW", 0)
        last: list[str] | None = None
        last_seat = None
        for _ in range(3000):
            if g.over:
                break
            seat = g.turn
            hand = [c.code for c in g.hand(seat)]
            moved = False
            for cards in _candidates(rng, hand):
                kinds = classify(cards)
                is_bomb = bool(kinds) and set(kinds) <= {"bomb", "joker_bomb"}
                limit = None if seat == g.dealer or seat not in said else LIMIT[said[seat]]
                legal = bool(kinds) and (last is None or beats_text(cards, last)) and not (is_bomb and limit is not None and bombs[seat] >= limit)
                try:
                    after = g.play(seat, " ".join(cards))
                except GameError:
                    assert not legal, f"{seat} refused {' '.join(cards)} on {last}"
                    continue
                assert legal, f"{seat} accepted {' '.join(cards)} on {last}"
                g, last, last_seat, moved = after, cards, seat, True
                bombs[seat] += is_bomb
                assert g.over == (len(cards) == len(hand))
                break
            if not moved:
                if last is None:
                    g, last, last_seat = g.play(seat, hand[0]), [hand[0]], seat
                else:
                    g = g.pass_(seat)
                    if g.turn == last_seat:
                        last = None
                        assert g.leading
        assert g.over and g.ended_by == "out" and sum(g.scores.values()) == 0
        out = [s for s in "SENW" if g.count(s) == 0]
        assert len(out) == 1 and g.winner == ("dealer" if out[0] == g.dealer else "allies")
