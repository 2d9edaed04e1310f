"""An independent second reading of seed 003's play rulings (shaoguan-2023, both 打法), checked against the engine.

The model below is written from the seed's text, not from the engine (it uses the engine only to compare: card
parsing, the follow, lead and trick functions and the judge): the card order of 3(1)/4(1), the shapes of 2/3, their order in 3(2)-(5), no throws (9), the follow
obligations of 6(1)-(3) and the trumping of 7(1)-(2). Thousands of random hands and tricks (fixed seed) must get
the same verdict and the same trick winner from both. The follows after a 地雷 (6(3) C, the seed's list) are
tests/tractor/test_follow_order.py's.

Readings where the seed is silent or could be read two ways (the engine's behaviour is kept, and the model
follows it so that the comparison tests the rest):
- R1 (不留底牌 2, 4(1)): “2”作常主, but the order of 4(1) does not place the 2s. Read: below the level cards, the
  trump suit's 2 above the other 2s, all above the trump suit's A; a side suit then has no 2, and no “1” either
  (the ace sits below the 2 only where the 2 is a plain rank: 3(2) 3344>AA22).
- R2 (3(1), 3(2)): the ace also sits below the 2 (“1”) inside a tractor, never alone; where the level is 2 it has
  no low place (1133 is no tractor: the seed shows the 1 only next to the 2). 不能拐弯: KKAA22 is no tractor.
- R3 (2): 同花色: a tractor is of one printed suit, the two jokers counting as one (大鬼大鬼小鬼小鬼>AAKK): 小王小王
  with the trump suit's level pair is no tractor (jokers have no 花色); the trump suit's A and a level card never
  join (the other level cards stand between them in 3(1)).
- R4 (3(3)-(5)): a bomb beats a two-pair tractor, a 推土机 of two triples a three-pair tractor, a 地雷 of two
  bombs a four-pair tractor, whatever the ranks, also in the led side suit (梅花2222 > 梅花7788); no other format
  outranks another (the seed's 依此类推 is not extended to longer ones).
- R5 (7(2)): a format's rank comes before trumping: after a trump tractor on a side tractor, a side bomb of the
  led suit still wins by 3(3) (炸弹比2连拖大); a trump tractor after a bomb cannot win (C或D须用主牌炸弹才能枪毙).
- R6 (6(3)): the follow order: connected blocks (adjacent ranks of one suit, two or more identical cards each),
  the most cards first (以跟最多拖数为准; A: 如果跟牌人有“三个大鬼两个小鬼”须五个鬼再带一张散牌跟出), then the
  cards fitting the lead's width (B: 223344 先于 223333), then fewer ranks (B: 223333 先于 22333+散牌 is size;
  bomb 先于 tractor under a bomb lead, 6(1) 如出炸弹时，没炸弹跟拖拉机), then against a lead of pairs the pairs held.
  So after AAKKQQ, 33444+散牌 comes before 3344 88 (the A joker example), which a reading of 6(3)'s 之后跟…对子 by
  units alone would reverse.
- R7 (6(2)): the choice freed by a bomb on a two-pair tractor is freed by a bomb of the led suit or of trumps, and
  依此类推 for 推土机 on a three-pair and 地雷 on a four-pair tractor.
- R8 (17): a revoke proven later changes who counts the trick (出错的牌…不能作大牌计, 留底牌 only), never who led
  the next one: the order of play is what the table played.
- R9 (不留底牌 10): 手中牌的分数 is the last trick's points; 相应的对方需减 is the same sum seen from the dealer's side,
  and a last trick the dealer's side takes adds or takes away nothing (the article prices only 如是非庄家方).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from referee.cards import Cards
from referee.judge import answer
from referee.tractor.follow import is_legal_follow
from referee.tractor.leads import judge_lead
from referee.tractor.tricks import trick_winner
from referee.tractor.trumps import Trumps

RANKS = "23456789TJQKA"
SUITS = "SHDC"
BOOKS = {"shaoguan-2023": (), "shaoguan-2023-nokitty": ("2",)}  # book: permanent ranks (一 1 / 不留底牌 2)
OUTRANKS = {(4, 1): (2, 2), (3, 2): (2, 3), (4, 2): (2, 4)}  # 3(3), 3(4), 3(5): better -> worse


class Model:
    """One hand's card order by the seed's words: class (trump ``T`` or a suit) and grade of every card."""

    def __init__(self, level: str, trump: str, permanent: tuple[str, ...]):
        self.level, self.trump = level, trump
        self.memo: dict = {}
        perm = [r for r in permanent if r != level]
        plain = [r for r in RANKS if r != level and r not in perm]
        self.low_ace = plain[0] == "2" and plain[-1] == "A"  # R2, R1
        self.grade: dict[str, tuple[str, int]] = {}
        for s in SUITS:  # 3(1): 主牌花色牌 and 副牌花色牌 A > K > ... > 2
            for i, r in enumerate(plain):
                self.grade[s + r] = ("T" if s == trump else s, i)
        g = len(plain)
        for r in perm:  # R1
            for s in SUITS:
                self.grade[s + r] = ("T", g + (s == trump))
            g += 2
        for s in SUITS:  # 3(1): 主牌花色级牌、其他级牌 (the other level cards equal)
            self.grade[s + level] = ("T", g + (s == trump))
        self.grade["LJ"], self.grade["BJ"] = ("T", g + 2), ("T", g + 3)  # 大王、小王

    def klass(self, card: str) -> str:
        return self.grade[card][0]

    def suit(self, card: str) -> str:
        return "J" if card in ("LJ", "BJ") else card[0]

    def places(self, card: str) -> list[int]:
        """Grades a card may take in a run: its own, and the ace's low one (R2)."""
        return [self.grade[card][1]] + ([-1] if self.low_ace and card[1:] == "A" else [])

    def shape(self, cards: list[str]) -> tuple[int, int, int] | None:
        """(width, ranks, top grade) of a 2 单牌/对牌/三条/炸弹/拖拉机/连拖/推土机/地雷, else None."""
        if not cards or len({self.klass(c) for c in cards}) != 1:
            return None
        counts = Counter(cards)
        widths = set(counts.values())
        if len(widths) != 1:
            return None
        w = widths.pop()
        distinct = list(counts)
        if len(distinct) == 1:
            return (w, 1, self.grade[distinct[0]][1])
        if w < 2 or len({self.suit(c) for c in distinct}) != 1:  # 同花色 (R3)
            return None
        for choice in _choices([self.places(c) for c in distinct]):
            ordered = sorted(choice)
            if all(b == a + 1 for a, b in zip(ordered, ordered[1:])):
                return (w, len(distinct), ordered[-1])
        return None

    # 6: following
    def blocks(self, cards: Counter, lead_width: int, cap: int, equal: dict) -> list[tuple]:
        """Keys of every connected block of at most ``cap`` cards the cards hold (R6), with the cards it uses."""
        out = []
        by_suit: dict[str, list[str]] = {}
        for c in cards:
            by_suit.setdefault(self.suit(c), []).append(c)
        for group in by_suit.values():
            slots: dict[int, list[str]] = {}
            for c in group:
                for g in self.places(c):
                    slots.setdefault(g, []).append(c)
            for start in sorted(slots):
                self._grow(slots, cards, start, (), cap, lead_width, equal, out)
        return out

    def _grow(self, slots, cards, g, acc, room, lead_width, equal, out):
        if len(acc) > 1 or (acc and self.grade[acc[0][0]][1] == g - 1):  # the low ace never stands alone (R2)
            widths = tuple(w for _, w in acc)
            out.append((self.key(widths, lead_width, equal), acc))
        for card in slots.get(g, ()):
            used = sum(w for c, w in acc if c == card)
            for w in range(2, min(cards[card] - used, room) + 1):
                self._grow(slots, cards, g + 1, acc + ((card, w),), room - w, lead_width, equal, out)

    @staticmethod
    def key(widths: tuple[int, ...], lead_width: int, equal: dict) -> tuple:
        widths = equal.get(widths, widths)
        pairs = sum(w // 2 for w in widths) if lead_width == 2 else 0
        return (sum(widths), sum(min(w, lead_width) for w in widths), -len(widths), pairs)

    def quality(self, cards: Counter, lead_width: int, cap: int, equal: dict) -> tuple:
        """The best sequence of block keys (strongest first) these cards can place at once."""
        memo = (tuple(sorted(cards.items())), lead_width, cap, tuple(sorted(equal.items())))
        if memo in self.memo:
            return self.memo[memo]
        best: tuple = ()
        for k, acc in self.blocks(cards, lead_width, cap, equal):
            for c, w in acc:
                cards[c] -= w
            seq = (k,) + self.quality(+cards, lead_width, cap - sum(w for _, w in acc), equal)
            for c, w in acc:
                cards[c] += w
            best = max(best, seq)
        self.memo[memo] = best
        return best

    def legal_follow(self, hand: list[str], lead: list[str], play: list[str], before: list[list[str]] = ()) -> bool:
        w, n, _ = self.shape(lead)
        klass, size = self.klass(lead[0]), len(lead)
        held = [c for c in hand if self.klass(c) == klass]
        mine = [c for c in play if self.klass(c) == klass]
        if len(play) != size:
            return False
        if len(held) <= size:  # 没对牌跟散牌: all of the suit, then any cards
            return len(mine) == len(held)
        if len(mine) != size:
            return False
        equal = {}
        for p in before:  # 6(2) (R7)
            s = self.shape(p)
            if s and self.klass(p[0]) in (klass, "T") and OUTRANKS.get(s[:2]) == (w, n):
                equal[(s[0],) * s[1]] = (w,) * n
        need = max(
            self.quality(Counter(sub), w, size, equal) for sub in _submultisets(Counter(held), size)
        )
        return self.quality(Counter(mine), w, size, equal) == need

    # 3, 7: who wins
    def winner(self, plays: list[list[str]], ruled_out: frozenset[int] = frozenset()) -> int:
        """The winning play; ``ruled_out``: revokes (留底牌 17: 出错的牌只能跟出，不能作大牌计)."""
        lw, ln, ltop = self.shape(plays[0])
        lead_klass = self.klass(plays[0][0])
        best, value = 0, (0, lead_klass == "T", ltop)
        for i, p in enumerate(plays[1:], 1):
            s = self.shape(p)
            if i in ruled_out or s is None or self.klass(p[0]) not in (lead_klass, "T"):
                continue  # 7(1): 只有主牌可以枪副牌; another side suit never wins
            if s[:2] == (lw, ln):
                rank = 0
            elif OUTRANKS.get(s[:2]) == (lw, ln):
                rank = 1  # 3(3)-(5) (R4); 7(2): later trumpers match the highest format so far (R5)
            else:
                continue  # 7(1): 需与出牌方具备同一牌型的牌才能枪牌
            v = (rank, self.klass(p[0]) == "T", s[2])
            if v > value:  # equal plays: the earlier wins
                best, value = i, v
        return best


def _choices(options: list[list[int]]):
    if not options:
        yield ()
        return
    for g in options[0]:
        for rest in _choices(options[1:]):
            yield (g,) + rest


def _submultisets(counts: Counter, size: int):
    items = sorted(counts.items())

    def go(i, left, acc):
        if left == 0:
            yield acc
            return
        if i == len(items):
            return
        card, n = items[i]
        for k in range(min(n, left), -1, -1):
            yield from go(i + 1, left - k, acc + [card] * k)

    yield from go(0, size, [])


def C(cards: list[str]) -> Cards:
    return Cards.parse(" ".join(cards))


# --- the model against the seed's own examples ---------------------------------------------------------------


def test_the_model_reads_the_seed_examples():
    m = Model("J", "H", ())
    # 3(2): 大鬼大鬼小鬼小鬼>AAKK>KKQQ>……3344>AA22; 2: 方块1122 is a tractor, 红桃QQKK112233 不能拐弯
    order = [["BJ", "BJ", "LJ", "LJ"], ["HA", "HA", "HK", "HK"], ["HK", "HK", "HQ", "HQ"], ["H3", "H3", "H4", "H4"],
             ["HA", "HA", "H2", "H2"]]
    assert [m.winner([order[-1], p])for p in order[:-1]] == [1, 1, 1, 1]
    assert m.shape(["DA", "DA", "D2", "D2"]) == (2, 2, 0)
    assert m.shape(["HQ", "HQ", "HK", "HK", "HA", "HA", "H2", "H2", "H3", "H3"]) is None
    # 3(3)-(5): 梅花2222 > 梅花7788, 梅花222333 > 梅花667788, 方块22223333 > 方块66778899 (no level 2 here)
    assert m.winner([["C7", "C7", "C8", "C8"], ["C2"] * 4]) == 1
    assert m.winner([["C6", "C6", "C7", "C7", "C8", "C8"], ["C2"] * 3 + ["C3"] * 3]) == 1
    assert m.winner([["D6", "D6", "D7", "D7", "D8", "D8", "D9", "D9"], ["D2"] * 4 + ["D3"] * 4]) == 1
    # 7(2): A出副牌拖拉机，B用炸弹炸了，C或D须用主牌炸弹才能枪毙
    lead, bomb = ["S9", "S9", "ST", "ST"], ["S3"] * 4
    assert m.winner([lead, bomb, ["H3", "H3", "H4", "H4"], ["S2"]]) == 1
    assert m.winner([lead, bomb, ["H3"] * 4, ["S2"]]) == 2
    # 6(1): 如出炸弹时，没炸弹跟拖拉机，没拖拉机跟“三条+散牌”，没三条跟2对
    lead = ["SK"] * 4
    hand = ["S3", "S3", "S3", "S5", "S5", "S6", "S6", "S9", "S9", "SQ"]
    assert m.legal_follow(hand, lead, ["S5", "S5", "S6", "S6"])
    assert not m.legal_follow(hand, lead, ["S3", "S3", "S3", "S9"])
    hand = ["S3", "S3", "S3", "S5", "S5", "S9", "S9", "SQ"]
    assert m.legal_follow(hand, lead, ["S3", "S3", "S3", "SQ"])
    assert not m.legal_follow(hand, lead, ["S5", "S5", "S9", "S9"])
    # 6(3) A: AAKKQQ: 667777 先于 66777+散牌; 三个大鬼两个小鬼: 五个鬼再带一张散牌
    lead = ["SA", "SA", "SK", "SK", "SQ", "SQ"]
    hand = ["S6", "S6", "S7", "S7", "S7", "S7", "S9", "S9"]
    assert m.legal_follow(hand, lead, hand[:6]) and not m.legal_follow(hand, lead, hand[:5] + ["S9"])
    jokers = ["BJ", "BJ", "BJ", "LJ", "LJ", "H3", "H5", "H5"]
    tl = ["HQ", "HQ", "HK", "HK", "HA", "HA"]
    assert m.legal_follow(jokers, tl, jokers[:5] + ["H3"]) and not m.legal_follow(jokers, tl, jokers[1:5] + ["H5", "H5"])
    # 6(3) B: AAAKKK: 223344 先于 223333 先于 “22333+散牌” 先于 223355
    lead = ["SA"] * 3 + ["SK"] * 3
    for first, after in [("S2 S2 S3 S3 S4 S4", "S2 S2 S3 S3 S3 S3"), ("S2 S2 S3 S3 S3 S3", "S2 S2 S3 S3 S3 S9"),
                         ("S2 S2 S3 S3 S3 S9", "S2 S2 S3 S3 S5 S5")]:
        hand = [c for c, n in (Counter(first.split()) | Counter(after.split())).items() for _ in range(n)]
        assert m.legal_follow(hand, lead, first.split()) and not m.legal_follow(hand, lead, after.split()), first


# --- random comparison ------------------------------------------------------------------------------------------

KINDS = [(1, 1), (2, 1), (3, 1), (4, 1), (2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]


def _deal_suit(rng, m: Model, klass: str, n: int, window: int) -> list[str]:
    """``n`` cards of one class, from a window of neighbouring grades, four copies each at most (4 decks)."""
    cards = sorted((c for c in m.grade if m.klass(c) == klass), key=lambda c: m.grade[c][1])
    start = rng.randrange(max(1, len(cards) - window + 1))
    chosen = cards[start : start + window]
    if rng.random() < 0.3:  # the aces with the lowest ranks: the “1” below the 2 (3(2) AA22, 2 方块1122)
        chosen = [c for c in cards if c[1:] == "A"] + cards[: window - 1]
    pool = [c for c in chosen for _ in range(4)]
    return rng.sample(pool, min(n, len(pool)))


def _unit(rng, m: Model, klass: str, kind: tuple[int, int], avoid: Counter) -> list[str] | None:
    """A random unit of this kind and class whose cards the decks still hold beside ``avoid``, or None."""
    w, n = kind
    cards = [c for c in m.grade if m.klass(c) == klass]
    rng.shuffle(cards)
    for low in cards:
        same = sorted((x for x in m.grade if m.suit(x) == m.suit(low) and m.klass(x) == klass), key=lambda x: m.grade[x][1])
        run = [low] + same[: n - 1] if n > 1 and m.low_ace and low[1:] == "A" else same[same.index(low) :][:n]
        unit = [x for x in run for _ in range(w)]
        shape = m.shape(unit)
        if shape and shape[:2] == kind and not (Counter(unit) + avoid) - Counter({x: 4 for x in m.grade}):
            return unit
    return None


def _setting(rng):
    book = rng.choice(sorted(BOOKS))
    level = rng.choice([r for r in RANKS if r not in BOOKS[book]])
    trump = rng.choice(SUITS)
    return book, Trumps.of(book, level, trump), Model(level, trump, BOOKS[book])


def test_shapes_and_leads_agree_with_the_engine():
    rng = random.Random(3003)
    for _ in range(1500):
        book, t, m = _setting(rng)
        klass = rng.choice(["T", *SUITS])
        cards = _deal_suit(rng, m, klass, rng.randint(1, 8), rng.randint(1, 5))
        if rng.random() < 0.1:
            cards += _deal_suit(rng, m, rng.choice(["T", *SUITS]), 1, 3)
        mine = m.shape(cards) is not None  # 9: no throws: a lead is one unit
        assert judge_lead(t, C(cards)).legal == mine, (book, t.level, t.suit, cards)


def test_follows_agree_with_the_engine():
    rng = random.Random(3006)
    checked = 0
    while checked < 4000:
        book, t, m = _setting(rng)
        klass = rng.choice(["T", *SUITS])
        kind = rng.choice(KINDS[:7])
        lead = _unit(rng, m, klass, kind, Counter())
        if lead is None:
            continue
        held = _deal_suit(rng, m, klass, rng.randint(len(lead) - 1, len(lead) + 5), rng.randint(3, 6))
        if (Counter(held) + Counter(lead)) - Counter({x: 4 for x in m.grade}):
            continue
        other = _deal_suit(rng, m, rng.choice([k for k in ["T", *SUITS] if k != klass]), 3, 6)
        hand = held + other
        before = []
        if kind in OUTRANKS.values() and rng.random() < 0.5:
            better = next(b for b, w in OUTRANKS.items() if w == kind)
            b = _unit(rng, m, rng.choice([klass, "T"]), better, Counter(hand) + Counter(lead))
            before = [b] if b else []
        plays = {tuple(sorted(p)) for p in _submultisets(Counter([c for c in held]), min(len(lead), len(held)))}
        plays = [list(p) + other[: len(lead) - len(p)] for p in plays]
        for play in rng.sample(plays, min(12, len(plays))):
            mine = m.legal_follow(hand, lead, play, before)
            engine = is_legal_follow(t, C(hand), C(lead), C(play), [C(b) for b in before])
            assert mine == engine, (book, t.level, t.suit, hand, lead, play, before, mine)
            checked += 1


def test_trick_winners_agree_with_the_engine():
    rng = random.Random(3007)
    for _ in range(3000):
        book, t, m = _setting(rng)
        klass = rng.choice(["T", *SUITS])
        kind = rng.choice(KINDS)
        lead = _unit(rng, m, klass, kind, Counter())
        if lead is None:
            continue
        plays = [lead]
        for _ in range(3):
            used = sum((Counter(p) for p in plays), Counter())
            k = rng.choice([kind, kind, next((b for b, w in OUTRANKS.items() if w == kind), kind)])
            play = _unit(rng, m, rng.choice([klass, klass, "T", rng.choice(SUITS)]), k, used)
            if play is None or rng.random() < 0.15:
                play = _deal_suit(rng, m, rng.choice([klass, "T"]), len(lead), 6)
                if len(play) < len(lead) or (Counter(play) + used) - Counter({x: 4 for x in m.grade}):
                    play = ([c for c in m.grade if m.klass(c) not in (klass, "T")] * 4)[: len(lead)]
            plays.append(play)
        assert trick_winner(t, [C(p) for p in plays]) == m.winner(plays), (book, t.level, t.suit, plays)


# --- scoring: 8, 14 (留底牌), 10 (不留底牌) ---------------------------------------------------------------------


def _levels_by_article_8(points: int) -> tuple[str, int]:
    """8: 以160分为基点，每多或少20分确定升级数（以20、40……整数计算）: 140 庄家 1+1 升两级; 180 下庄, 新庄 1+1."""
    if points >= 160:
        return "defenders", 1 + (points - 160) // 20
    return "dealer", 1 + (160 - points) // 20  # 145..155: one level (no whole 20 less); 140: 1+1


@pytest.mark.parametrize("book", sorted(BOOKS))
def test_level_table_is_article_8(book):
    for p in range(-100, 405, 5):
        case = {"id": "s", "game": "tractor", "op": "score", "rulebook": book, "defender_points": p}
        got = answer(case)["result"]
        assert (got["side"], got["levels"]) == _levels_by_article_8(p), p


def _kitty(plays: list[str], points: int, defender: bool = True) -> int:
    case = {"id": "k", "game": "tractor", "op": "kitty", "rulebook": "shaoguan-2023", "level": "J", "trump": "H",
            "kitty_points": points, "last_trick": [p.split() for p in plays], "winner_is_defender": defender}
    return answer(case)["result"]


def test_kitty_capture_is_article_14():
    # 14: 非庄家方只能以主牌大牌才能…抠底，抠底分数以底牌分数乘于抠底主牌张数 (一个牌不加倍，一对…X2，三个X3)
    assert _kitty(["S3", "SA", "H3", "S4"], 25) == 25
    assert _kitty(["S3 S3 S3", "S5 S6 S7", "H4 H4 H4", "S8 S9 ST"], 25) == 75
    assert _kitty(["SK SK SQ SQ", "H2 H2 H3 H3", "S5 S6 S7 S8", "D2 D3 D4 D5"], 30) == 120
    assert _kitty(["SK SK SQ SQ", "S2 S2 S2 S2", "S5 S6 S7 S8", "D2 D3 D4 D5"], 30) == 0  # a side bomb: no trump
    assert _kitty(["SK SK SQ SQ", "H2 H2 H3 H3", "S5 S6 S7 S8", "D2 D3 D4 D5"], 30, defender=False) == 0  # 保底


def _last_trick(tricks: list[list[tuple[str, str]]]) -> int:
    case = {"id": "h", "game": "tractor", "op": "hand", "rulebook": "shaoguan-2023-nokitty", "level": "J", "trump": "H",
            "dealer": "S", "tricks": [[[s, p.split()] for s, p in t] for t in tricks]}
    return answer(case)["result"]["defender_points"]


def test_last_trick_is_no_kitty_article_10():
    # 不留底牌 10: 最后一轮大牌方（无论是主牌还是副牌都可以），如是非庄家方则按手中牌的分数牌总分进行加分；对牌以上
    # 加倍的倍数以大牌方的张数来计算 (一个牌不加倍): the last trick's points, times the winning play's cards. Read: the
    # points of the whole last trick (手中牌: the cards still in hand, all played in it), counted once in all for a single;
    # 相应的对方需减相应的分数 is the same sum seen from the dealer's side, and a last trick the dealer's side wins adds
    # and takes away nothing (the seed prices only 如是非庄家方).
    first = [("S", "SA"), ("E", "S6"), ("N", "S3"), ("W", "S4")]
    assert _last_trick([first, [("S", "D3 D3 D3"), ("E", "D5 D6 D7"), ("N", "D4 D4 D4"), ("W", "DK DK DK")]]) == 3 * 35
    assert _last_trick([first, [("S", "DT"), ("E", "D6"), ("N", "D4"), ("W", "DK")]]) == 20  # side suit: 都可以
    assert _last_trick([first, [("S", "DT DT"), ("E", "DK DK"), ("N", "D4 D4"), ("W", "D5 D6")]]) == 2 * 45
    assert _last_trick([first, [("S", "DT DT"), ("E", "D4 D4"), ("N", "DK DK"), ("W", "D5 D6")]]) == 0  # N: dealer's side


# --- whole hands: revokes proven by later plays (17), who scores a trick, the last trick ---------------------------

SEATS = "SENW"


def _play_hand(rng, book: str, m: Model) -> tuple[list, list, int] | None:
    """Four hands of 8 cards from two classes, played out: each lead a random unit, each follow legal by the model
    seven times in ten, else any cards. The revokes the model finds, and the defenders' points: a trick a revoke cannot
    win (留底牌 17) counts for the best other play, the next trick is led by whoever took it at the table (the order
    of play as it was: the revoke is proven later); the kitty (the 8 cards left) counts times the cards of a trump
    play taking the last trick (留底牌 14), without a kitty the last trick's points count times the winning play's
    cards (不留底牌 10)."""
    pool = []
    for k in rng.sample(["T", *SUITS], 2):
        cards = sorted((c for c in m.grade if m.klass(c) == k), key=lambda c: m.grade[c][1])
        start = rng.randrange(max(1, len(cards) - 5))
        pool += [c for c in cards[start : start + 5] for _ in range(4)]
    if len(pool) < 32:
        return None
    rng.shuffle(pool)
    hands = {s: pool[i * 8 : (i + 1) * 8] for i, s in enumerate(SEATS)}
    kitty = pool[32:40] if book == "shaoguan-2023" else []  # 留底牌 4: 8 张底牌
    leader, tricks, revokes, points = "S", [], [], 0
    while hands["S"]:
        order = SEATS[SEATS.index(leader) :] + SEATS[: SEATS.index(leader)]
        units = [u for n in (1, 2, 3, 4, 6) for u in _submultisets(Counter(hands[leader]), n) if m.shape(u)]
        plays = [rng.choice(units)]
        out = set()
        for i, seat in enumerate(order):
            hand = hands[seat]
            if i:
                if len(hand) < len(plays[0]):
                    return None
                choices = [list(p) for p in {tuple(p) for p in _submultisets(Counter(hand), len(plays[0]))}]
                legal = [p for p in choices if m.legal_follow(hand, plays[0], p, plays[1:])]
                play = rng.choice(legal if legal and rng.random() < 0.7 else choices)
                if not m.legal_follow(hand, plays[0], play, plays[1:]):
                    revokes.append([seat, len(tricks) + 1])
                    out.add(i)
                plays.append(play)
            hands[seat] = list((Counter(hand) - Counter(plays[i])).elements())
        if len({len(h) for h in hands.values()}) != 1:
            return None
        scorer = m.winner(plays, frozenset(out) if book == "shaoguan-2023" else frozenset())
        trick_points = sum({"5": 5, "T": 10, "K": 10}.get(c[1:], 0) for p in plays for c in p)
        if order[scorer] in "EW":
            points += trick_points
            if not hands["S"] and book.endswith("nokitty"):
                points += trick_points * (len(plays[scorer]) - 1)
            elif not hands["S"] and all(m.klass(c) == "T" for c in plays[scorer]):  # 14: 只能以主牌大牌才能…抠底
                points += sum({"5": 5, "T": 10, "K": 10}.get(c[1:], 0) for c in kitty) * len(plays[scorer])
        tricks.append([[order[i], p] for i, p in enumerate(plays)])
        leader = order[m.winner(plays)]
    return tricks, revokes, points, kitty


def test_whole_hands_agree_with_the_judge():
    rng = random.Random(3017)
    done = 0
    while done < 60:
        book, t, m = _setting(rng)
        played = _play_hand(rng, book, m)
        if played is None:
            continue
        tricks, revokes, points, kitty = played
        case = {"id": "h", "game": "tractor", "op": "hand", "rulebook": book, "level": t.level, "trump": t.suit,
                "dealer": "S", "tricks": tricks, **({"kitty": kitty} if kitty else {})}
        got = answer(case)["result"]
        assert (sorted(got["revokes"]), got["defender_points"]) == (sorted(revokes), points), case
        done += 1
