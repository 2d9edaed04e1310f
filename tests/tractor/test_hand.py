"""Judging a whole hand from what the camera saw (README op `hand`).

A seat's hand at trick t is known only as the cards it plays from trick t on; a follow
is a revoke (藏张) and a throw failed (甩错牌) only when those later plays prove it.
"""

import pytest

from referee.cards import Cards
from referee.judge import answer
from referee.tractor.hand import HandError, HandJudge
from referee.tractor.trumps import Trumps


def C(s):
    return Cards.parse(s)


ZK = Trumps.of("zhongkai-2010", "7", "H")
CL = Trumps.of("classic-3deck", "7", "H")
SG = Trumps.of("shaoguan-2023", "J", "H")


def run(t, dealer, tricks):
    """Feed tricks, each a list of (seat, cards) in play order; return the judge."""
    j = HandJudge.start(t, dealer)
    for trick in tricks:
        for seat, cards in trick:
            j = j.play(seat, C(cards))
    return j


def found(j, kind):
    return [(r.seat, r.trick) for r in j.rulings if r.kind == kind]


def hand_case(rulebook, dealer, tricks, kitty=None, level="7", trump="H"):
    case = {"id": "h", "game": "tractor", "op": "hand", "rulebook": rulebook, "level": level, "trump": trump,
            "dealer": dealer, "tricks": [[[s, c.split()] for s, c in trick] for trick in tricks]}
    if kitty is not None:
        case["kitty"] = kitty.split()
    return case


PAIR_REVOKE = [
    [("S", "SK SK"), ("E", "S3 S4"), ("N", "S5 S5"), ("W", "D2 D3")],
    [("S", "S9 S9"), ("E", "S8 S8"), ("N", "ST ST"), ("W", "D4 D5")],
]


def test_revoke_is_proven_by_a_pair_played_in_a_later_trick():
    # 000 第十一条 2(2): 引牌者出对子时，跟牌者必须先跟对子; 第十八条: 当下一圈牌已出，为藏张成立
    j = run(ZK, "S", PAIR_REVOKE[:1])
    assert found(j, "revoke") == []  # nothing proves it yet
    j = j.play("S", C("S9 S9")).play("E", C("S8 S8"))
    assert found(j, "revoke") == [("E", 1)]
    ruling = next(r for r in j.rulings if r.kind == "revoke")
    assert any(trick == 2 and "S8" in cards for trick, cards in ruling.evidence)


def test_revoke_via_the_judge_op():
    # 000 第十八条: 当下一圈牌已出，为藏张成立 (README op `hand`: revokes [[seat, trick]])
    out = answer(hand_case("zhongkai-2010", "S", PAIR_REVOKE))
    assert out["result"] == {"revokes": [["E", 1]], "failed_throws": [], "defender_points": 0}


def test_discard_never_contradicted_is_no_revoke():
    # 000 第十二条 2: 跟牌者无与引牌者出牌类型的牌 ... 可以用任何牌色跟出 -- nothing shows E held a spade
    tricks = [
        [("S", "SA"), ("E", "D3"), ("N", "S4"), ("W", "S5")],
        [("S", "C2"), ("E", "C3"), ("N", "C4"), ("W", "CA")],
    ]
    assert found(run(ZK, "S", tricks).finish(), "revoke") == []


def test_revoke_on_a_trump_lead_proven_by_a_later_level_card():
    # 000 第四条: 级牌为固定主牌; 第十一条 2(1): 出完该类型的牌后才能跟出其它类型的牌
    tricks = [
        [("S", "H3"), ("E", "D3"), ("N", "H4"), ("W", "H5")],
        [("W", "C2"), ("S", "C3"), ("E", "S7"), ("N", "C4")],
    ]
    j = run(ZK, "S", tricks)
    assert found(j, "revoke") == [("E", 1)]


FAILED_THROW = [
    [("S", "SA SA SK"), ("E", "S3 S4 S5"), ("N", "D2 D3 D4"), ("W", "C2 C3 C4")],
    [("S", "S6"), ("E", "SA"), ("N", "D6"), ("W", "CK")],
]


def test_failed_throw_is_proven_by_another_seats_later_card():
    # 001 十四: 当确认这门花色手中的牌是最大级别时，可同时一齐放出; 十九: 甩错牌
    j = run(CL, "S", FAILED_THROW[:1])
    assert found(j, "failed_throw") == []
    j = j.play("S", C("S6")).play("E", C("SA"))
    assert found(j, "failed_throw") == [("S", 1)]
    ruling = next(r for r in j.rulings if r.kind == "failed_throw")
    assert ruling.forced == ("SK",)


def test_failed_throw_via_the_judge_op_with_defender_points():
    # E (defender) wins trick 2 with SA: W's CK is 10 points; trick 1 (SK, S5) went to the dealer
    out = answer(hand_case("classic-3deck", "S", FAILED_THROW))
    assert out["result"] == {"revokes": [], "failed_throws": [["S", 1]], "defender_points": 10}


def test_card_played_before_the_throw_does_not_break_it():
    # 001 十四: 当确认这门花色手中的牌是最大级别时 -- E's SA was gone before the throw
    tricks = [
        [("S", "DA"), ("E", "SA"), ("N", "D3"), ("W", "D4")],
        [("S", "SK SK SQ"), ("E", "S3 S4 S5"), ("N", "C2 C3 C4"), ("W", "C5 C6 C8")],
    ]
    j = run(CL, "S", tricks).finish()
    assert found(j, "failed_throw") == [] and found(j, "revoke") == []


def test_defender_points_with_single_kitty_capture():
    # 000 第十二条 3 and 表1: 单张抠底 2倍 -- E wins the last trick with SA (side suits count)
    tricks = [[("S", "S3"), ("E", "SA"), ("N", "S4"), ("W", "S5")]]
    out = answer(hand_case("zhongkai-2010", "S", tricks, kitty="SK S5 D2 D3 D4 D6"))
    assert out["result"]["defender_points"] == 5 + 15 * 2


def test_defender_points_with_pair_kitty_capture():
    # 000 表1: 对子抠底 3倍; W won 15 in trick 1, then the last trick with a trump pair
    tricks = [
        [("S", "D3"), ("E", "D4"), ("N", "D5"), ("W", "DK")],
        [("W", "HA HA"), ("S", "H2 H3"), ("E", "H8 H6"), ("N", "H4 H4")],
    ]
    j = run(ZK, "S", tricks).show_kitty(C("SK ST C2 C3 C4 C6")).finish()
    assert j.defender_points() == 15 + 20 * 3


def test_classic_kitty_only_with_trumps():
    # 001 十七: 在最后一圈牌中，防守方一家牌最大，谓防守方抠底（主牌才可以抠底）
    side = [[("S", "S3"), ("E", "SA"), ("N", "S4"), ("W", "S5")]]
    trump = [[("S", "H3"), ("E", "HA"), ("N", "H4"), ("W", "H5")]]
    kitty = "SK S5 D2 D3 D4 D6"
    assert answer(hand_case("classic-3deck", "S", side, kitty=kitty))["result"]["defender_points"] == 5
    assert answer(hand_case("classic-3deck", "S", trump, kitty=kitty))["result"]["defender_points"] == 5 + 30


def test_kitty_not_counted_when_the_dealer_side_wins_the_last_trick():
    # 000 第十二条 3: 在每盘竞赛的最后一圈牌中由防家赢取，称为防守方抠底
    tricks = [[("S", "S3"), ("E", "S4"), ("N", "SA"), ("W", "S5")]]
    out = answer(hand_case("zhongkai-2010", "S", tricks, kitty="SK S5 D2 D3 D4 D6"))
    assert out["result"]["defender_points"] == 0


def test_shaoguan_kitty_times_cards():
    # 003 14: 抠底分数以底牌分数乘于抠底主牌张数 (一对牌 X2)
    tricks = [[("S", "H3 H3"), ("E", "HA HA"), ("N", "H4 H8"), ("W", "H6 H6")]]
    out = answer(hand_case("shaoguan-2023", "S", tricks, kitty="SK S5 D2 D3 D4 D6 D7 D8", level="J"))
    assert out["result"]["defender_points"] == 15 * 2


def test_nokitty_last_trick_counts_again_per_card_in_a_short_hand():
    """003 不留底牌打法 10: 每盘牌最后一轮大牌方（无论是主牌还是副牌都可以），如是非庄家方则按手中牌的分数牌总分进行加分；
    如果大牌方是对牌以上，则按手中牌的分数牌总分进行加倍加分，加倍的倍数以大牌方的张数来计算。
    A case's last trick is its hand's last (each seat's hand is what it plays from then on), as a kitty is
    captured in a short hand of shaoguan-2023; the bonus waited for all 216 cards, so the judge never gave it."""
    first = [("S", "SA"), ("E", "S6"), ("N", "S3"), ("W", "S4")]
    pair = [first, [("S", "D3 D3"), ("E", "D6 D7"), ("N", "D4 D4"), ("W", "DK DK")]]
    single = [first, [("S", "D3"), ("E", "D6"), ("N", "D4"), ("W", "DK")]]
    held = [first, [("S", "D3 D3"), ("E", "D6 D7"), ("N", "DK DK"), ("W", "D4 D4")]]
    points = {name: answer(hand_case("shaoguan-2023-nokitty", "S", tricks, level="J"))["result"]["defender_points"]
              for name, tricks in (("pair", pair), ("single", single), ("held", held))}
    assert points == {"pair": 20 * 2, "single": 10, "held": 0}  # a pair x2; 一个牌不加倍; the dealer's side: nothing


def test_defenders_are_the_seats_beside_the_dealer():
    # 000 第二十一条 6: 庄家 ...; README: the defenders are the seats other than the dealer and the partner
    tricks = [[("E", "S3"), ("N", "SA"), ("W", "S4"), ("S", "SK")]]
    assert run(ZK, "E", tricks).defender_points() == 10
    tricks = [[("S", "S3"), ("E", "S4"), ("N", "SA"), ("W", "SK")]]
    assert run(ZK, "S", tricks).defender_points() == 0


def test_wrong_leader_is_an_error():
    # 000 第十一条 1: 庄家先出第一圈的引牌，以后谁家的牌大则拥有下一圈的引牌权
    with pytest.raises(HandError):
        HandJudge.start(ZK, "S").play("E", C("S3"))
    tricks = [
        [("S", "S3"), ("E", "SA"), ("N", "S4"), ("W", "S5")],
        [("S", "D3"), ("E", "D4"), ("N", "D5"), ("W", "D6")],
    ]
    out = answer(hand_case("zhongkai-2010", "S", tricks))
    assert "error" in out and "result" not in out


def test_follow_with_wrong_card_count_is_an_error():
    # 000 第十一条 2: 跟牌张数与引牌相同
    j = HandJudge.start(ZK, "S").play("S", C("SK SK"))
    with pytest.raises(HandError):
        j.play("E", C("S3"))
    out = answer(hand_case("zhongkai-2010", "S", [[("S", "SK SK"), ("E", "S3 S4 S5"), ("N", "S6 S6"), ("W", "D2 D3")]]))
    assert "error" in out and "result" not in out


def test_more_copies_than_the_decks_hold_is_an_error():
    # 000 第四条: 3 副扑克 -- a fourth SA cannot be seen
    tricks = [
        [("S", "SA"), ("E", "SA"), ("N", "SA"), ("W", "S5")],
        [("S", "SA"), ("E", "S3"), ("N", "S4"), ("W", "S6")],
    ]
    out = answer(hand_case("zhongkai-2010", "S", tricks))
    assert "error" in out and "SA" in out["error"]


def test_an_empty_trick_is_an_error_not_skipped():
    # README op `hand`: "tricks (each trick a list of [seat, cards] in the order played ... trick numbers from 1)";
    # an empty trick skipped would number the later ones one too low: E's revoke of the case's trick 2 said as trick 1
    tricks = [[], [("S", "S3"), ("E", "D2"), ("N", "S4"), ("W", "S6")], [("W", "C2"), ("S", "C3"), ("E", "S5"), ("N", "C4")]]
    out = answer(hand_case("zhongkai-2010", "S", tricks))
    assert out.get("error") == "trick 1 must hold at least one card" and "result" not in out
    assert answer(hand_case("zhongkai-2010", "S", tricks[1:]))["result"]["revokes"] == [["E", 1]]


def test_zhongkai_undeclared_captive_structure_is_chosen_by_the_leaders_upper_seat():
    # 000 第十一条 1: 引牌者没有声明甩牌结构，则待本圈各家跟牌完成后由引牌者上家指定甩牌结构
    # S leads; its 上家 (the seat before it, counter-clockwise S E N W) is W
    tricks = [[("S", "S4 S4 S4 S3 S3"), ("E", "S5 S6 S8 S9 ST"), ("N", "D2 D3 D4 D5 D6"), ("W", "C2 C3 C4 C5 C6")]]
    j = run(ZK, "S", tricks)
    with pytest.raises(HandError):
        j.choose_structure("E", [C("S4 S4 S4"), C("S3 S3")])
    chosen = j.choose_structure("W", [C("S4 S4 S4"), C("S3 S3")])
    assert sorted(u.kind for u in chosen.tricks[-1].structure) == [(2, 1), (3, 1)]
