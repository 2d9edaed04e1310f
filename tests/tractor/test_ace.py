"""The ace in shaoguan-2023 (both variants): the highest card of its suit, low only inside a tractor.

003 3(1): 主牌花色牌（A、K、Q、J、10、9、8、7、6、5、4、3、2、1）、副牌花色牌（A、K、Q、J、10、9…2、1）;
3(2): 拖拉机按点数计算大小，如：“大鬼大鬼小鬼小鬼>AAKK>KKQQ>……3344>AA22”.
Every unit of one rank (single, pair, triple, bomb) ranks A above K, in the trump suit and in the side
suits; only a tractor may read A as 1 (AA22, the smallest).
"""

import pytest

from referee.cards import Cards
from referee.judge import answer
from referee.tractor.follow import is_legal_follow
from referee.tractor.hand import HandJudge
from referee.tractor.leads import judge_lead
from referee.tractor.tricks import trick_winner
from referee.tractor.trumps import Trumps
from referee.tractor.units import unit_of

BOOKS = ("shaoguan-2023", "shaoguan-2023-nokitty")
SUITS = (("D", "a side suit"), ("H", "the trump suit"))


def C(s):
    return Cards.parse(s)


def unit(suit, rank, width):
    return " ".join([suit + rank] * width)


def winner(t, *plays):
    return trick_winner(t, [C(p) for p in plays])


@pytest.mark.parametrize("book", BOOKS)
@pytest.mark.parametrize("suit", [s for s, _ in SUITS])
@pytest.mark.parametrize("width", [1, 2, 3, 4])
def test_one_rank_units_rank_the_ace_above_the_king(book, suit, width):
    # 003 3(1): (A、K、Q、J、10…2、1): a single, pair, triple (三条) or bomb (炸弹) of aces beats the kings',
    # whether it leads or follows, in the trump suit (H) and in a side suit (D)
    t = Trumps.of(book, "J", "H")
    ace, king, low = unit(suit, "A", width), unit(suit, "K", width), unit(suit, "3", width)
    other = unit("C" if suit == "D" else "S", "4", width)
    assert unit_of(t, C(ace)).top > unit_of(t, C(king)).top
    assert winner(t, ace, king, low, other) == 0
    assert winner(t, king, ace, low, other) == 1
    assert winner(t, low, other, king, ace) == 3


@pytest.mark.parametrize("book", BOOKS)
@pytest.mark.parametrize("width", [2, 3, 4])
def test_ace_high_tractors_beat_king_high_ones(book, width):
    # 003 3(2): “大鬼大鬼小鬼小鬼>AAKK>KKQQ>……”; 推土机 AAAKKK, 地雷 AAAAKKKK alike
    t = Trumps.of(book, "J", "H")
    for suit in ("D", "H"):
        aces = f"{unit(suit, 'A', width)} {unit(suit, 'K', width)}"
        kings = f"{unit(suit, 'K', width)} {unit(suit, 'Q', width)}"
        assert judge_lead(t, C(aces)).legal
        assert winner(t, kings, aces) == 1
        assert winner(t, aces, kings) == 0


@pytest.mark.parametrize("width", [2, 3, 4])
def test_only_a_tractor_reads_the_ace_as_one_the_smallest(width):
    # 003 3(2): “……3344>AA22”: AA22 is a tractor, and the smallest (2 is no trump in 留底牌打法 1)
    t = Trumps.of("shaoguan-2023", "J", "H")
    for suit in ("D", "H"):
        low = f"{unit(suit, 'A', width)} {unit(suit, '2', width)}"
        assert judge_lead(t, C(low)).legal
        assert winner(t, low, f"{unit(suit, '3', width)} {unit(suit, '4', width)}") == 1
        assert winner(t, f"{unit(suit, '3', width)} {unit(suit, '4', width)}", low) == 0


def test_nokitty_has_no_low_ace_since_the_two_is_a_trump():
    # 003 不留底牌打法 2: “2”作常主 -- the 2 leaves the suits, so A and 3 are not adjacent
    t = Trumps.of("shaoguan-2023-nokitty", "J", "H")
    assert unit_of(t, C("DA DA D3 D3")) is None


def test_issue_case_ace_wins_the_single_trick():
    # 003 3(1): 副牌花色牌（A、K、Q…）: DA, DK, D3, D4 (level J, trump H): the ace (index 0)
    case = {"id": "w", "game": "tractor", "op": "winner", "rulebook": "shaoguan-2023", "level": "J", "trump": "H",
            "plays": [["DA"], ["DK"], ["D3"], ["D4"]]}
    assert answer(case) == {"id": "w", "result": 0}


def test_a_follower_must_play_a_pair_of_aces_as_a_pair():
    # 003 6(1): 对子跟对子 -- the pair of aces is a pair at its high place, like any other
    t = Trumps.of("shaoguan-2023", "J", "H")
    assert is_legal_follow(t, C("DA DA D3 D5"), C("D8 D8"), C("DA DA"))
    assert not is_legal_follow(t, C("DA DA D3 D5"), C("D8 D8"), C("D3 D5"))


def test_a_whole_hand_in_which_an_ace_wins_a_trick():
    # 003 3(1): the ace's seat wins trick 1 and leads trick 2 (13: 出牌必须按逆时针方向轮着出)
    t = Trumps.of("shaoguan-2023", "J", "H")
    j = HandJudge.start(t, "S")
    for seat, cards in [("S", "DK"), ("E", "DA"), ("N", "D3"), ("W", "D4"), ("E", "S5"), ("N", "S6"), ("W", "S7"), ("S", "S8")]:
        j = j.play(seat, C(cards))
    assert [tr.winner for tr in j.tricks] == ["E", "S"]
    case = {"id": "h", "game": "tractor", "op": "hand", "rulebook": "shaoguan-2023", "level": "J", "trump": "H", "dealer": "S",
            "tricks": [[["S", ["DK", "DK"]], ["E", ["DA", "DA"]], ["N", ["D3", "D3"]], ["W", ["D4", "D4"]]],
                       [["E", ["SK"]], ["N", ["S6"]], ["W", ["S7"]], ["S", ["S8"]]]]}
    assert answer(case) == {"id": "h", "result": {"revokes": [], "failed_throws": [], "defender_points": 30}}
