"""Declaring trumps, settling a hand with penalties, and the game from 2 to past A."""

import pytest
import said

from referee.cards import CardError, Cards
from referee.rulebooks import load
from referee.tractor.game import (
    Declaring,
    DeclareError,
    Game,
    Penalty,
    level_ranks,
    penalties_of,
    settle,
)
from referee.tractor.hand import Ruling
from referee.tractor.scoring import Outcome


def C(s):
    return Cards.parse(s)


ZK, CL, SG, SGN = (load(n) for n in ("zhongkai-2010", "classic-3deck", "shaoguan-2023", "shaoguan-2023-nokitty"))


# -- declaring ------------------------------------------------------------------------------


def test_first_level_card_declares():
    """001 七: 谁先揭出该点数的牌，则为该轮比赛的主牌花色。"""
    d = Declaring(CL, "2").declare("W", C("D2"), at=3)
    assert (d.standing.seat, d.standing.suit, d.standing.count) == ("W", "D", 1)
    assert d.result(None, "S") == ("W", "D")


def test_overturn_needs_more_cards():
    """001 八: 你可以持两张相同点数反揭…别人也可持 3 张相同的点数再反揭; 〈2〉张数相同先反者定主牌。"""
    d = Declaring(CL, "5", first_hand=False).declare("S", C("H5"), at=1).declare("W", C("S5 S5"), at=2)
    with said.raises(DeclareError, "more than 2"):
        d.declare("N", C("C5 C5"), at=3)
    d = d.declare("N", C("C5 C5 C5"), at=4)
    assert d.standing.seat == "N" and d.standing.suit == "C"


def test_no_self_overturn():
    """001 八〈3〉: 自己不能反揭自己（例：打5，你揭了方块5，后又拿两张草花5反揭）。"""
    d = Declaring(CL, "5").declare("E", C("D5"), at=1)
    with said.raises(DeclareError, "own"):
        d.declare("E", C("C5 C5"), at=2)


def test_zhongkai_reinforce_and_same_suit_overturn():
    """000 第十条: 揭牌者继续摸到与揭出的级牌花色相同的牌，可以亮出加固; 其他家可持更多张的相同花色级牌进行反揭。"""
    d = Declaring(ZK, "9", first_hand=False).declare("S", C("H9"), at=1).declare("S", C("H9"), at=2)
    assert d.standing.count == 2
    d = d.declare("E", C("S9 S9 S9"), at=3)  # more cards, another seat
    assert (d.standing.seat, d.standing.count) == ("E", 3)
    same = Declaring(ZK, "9", first_hand=False).declare("S", C("H9"), at=1).declare("E", C("H9 H9"), at=2)
    assert (same.standing.seat, same.standing.suit, same.standing.count) == ("E", "H", 2)  # the same suit, more cards
    # 第四条 3副扑克: no fourth H9 (S shows two still): a misread, never a declaration
    with pytest.raises(CardError):
        Declaring(ZK, "9", first_hand=False).declare("S", C("H9 H9"), at=1).declare("E", C("H9 H9"), at=2)


def test_classic_no_reinforce_and_other_suit_after_first_hand():
    """001 八: 反揭别门花色（第一副牌打2时，还可抢庄，同一门花色也可以）; 南家不得再拿一张红心2来加固。"""
    d = Declaring(CL, "6", first_hand=False).declare("S", C("H6"), at=1)
    with said.raises(DeclareError, "reinforc"):
        d.declare("S", C("H6"), at=2)
    with said.raises(DeclareError, "another suit"):
        d.declare("E", C("H6 H6"), at=2)
    first = Declaring(CL, "2").declare("S", C("H2"), at=1).declare("E", C("H2 H2"), at=2)
    assert first.standing.seat == "E"


def test_declaring_closes_when_kitty_taken_and_window_is_checked():
    """000 第十条 2: 庄家应停顿5秒钟才拿底牌…当庄家拿了底牌后，任何一家都不能反揭。"""
    d = Declaring(ZK, "2").declare("S", C("S2"), at=10).draw_done(at=20, seat="S")
    early, warning = d.kitty_taken(at=22)
    assert warning is not None and "5 s" in said.words(warning)
    late, warning = d.kitty_taken(at=26)
    assert warning is None
    with said.raises(DeclareError, "kitty"):
        late.declare("E", C("D2 D2"), at=27)


def test_declaration_must_be_identical_level_cards():
    with said.raises(DeclareError, "identical level cards"):
        Declaring(ZK, "2").declare("S", C("S2 D2"), at=1)
    with said.raises(DeclareError, "identical level cards"):
        Declaring(ZK, "2").declare("S", C("S3"), at=1)


def test_no_declaration_first_drawer_deals():
    """000 第八条 2: 当一盘牌摸牌结束仍无人揭牌，则由该盘摸第一张牌的运动员做庄，由庄家指定任一门花色牌为主牌。"""
    assert Declaring(ZK, "2").result(None, "N") == ("N", None)
    assert Declaring(ZK, "7").result("E", "N") == ("E", None)


def test_later_hands_declaring_does_not_change_dealer():
    """003 10: 其它盘的翻牌翻主不反庄。"""
    d = Declaring(SG, "5", first_hand=False).declare("W", C("C5 C5"), at=1)
    assert d.result("S", "E") == ("S", "C")


# -- settlement --------------------------------------------------------------------------------


def test_points_penalty_moves_to_non_offending_side():
    """000 第十五条: 暴露张 一次扣罚20分. A dealer-side offence adds to the defenders; a defender's subtracts."""
    assert settle(ZK, "S", 100, [Penalty("exposed_card", "N")]).defender_points == 120
    assert settle(ZK, "S", 100, [Penalty("exposed_card", "E")]).defender_points == 80
    assert settle(ZK, "S", 100, [Penalty("exposed_card", "N")]).outcome == Outcome("defenders", 1)


def test_shaoguan_per_card_penalty():
    """003 17: 没规则跟牌的 按20分/张进行扣分."""
    s = settle(SG, "E", 150, [Penalty("revoke", "W", cards=2)])
    assert s.defender_points == 190
    assert s.outcome == Outcome("defenders", 2)


def test_zhongkai_revoke_awards_a_level_and_the_deal():
    """000 第十八条: 藏张一旦成立…每次判给非藏张方自动升一级，而且下一盘牌由非藏张方上台做庄。"""
    s = settle(ZK, "S", 30, [Penalty("revoke", "N")])
    assert s.outcome == Outcome("defenders", 1)
    s = settle(ZK, "S", 200, [Penalty("revoke", "E")])
    assert s.outcome == Outcome("dealer", 1)


def test_zhongkai_revoke_by_both_sides_replays():
    """000 第十八条: 如果竞赛双方均出现藏张情况，则重新该盘竞赛。"""
    s = settle(ZK, "S", 60, [Penalty("revoke", "N"), Penalty("revoke", "W")])
    assert s.outcome is None


def test_zhongkai_signalling_by_both_sides_replays_whichever_was_ruled_first():
    """000 第十四条: 暗示……轻则判该盘自动下台，对方升一级. Both sides signalling owe each other the award, as two revokes do
    (第十八条: 如果竞赛双方均出现藏张情况，则重新该盘竞赛): the hand is replayed. Before, the side ruled first took the
    hand and the other's award was dropped: the order of the referee's two rulings decided the hand."""
    for order in ([Penalty("signalling", "N"), Penalty("signalling", "E")], [Penalty("signalling", "E"), Penalty("signalling", "N")]):
        assert settle(ZK, "S", 60, order).outcome is None
    assert settle(ZK, "S", 60, [Penalty("signalling", "E"), Penalty("revoke", "N")]).outcome is None
    assert settle(ZK, "S", 60, [Penalty("signalling", "E")]).outcome == Outcome("dealer", 2)  # one side: as before


def test_classic_signalling_by_both_sides_replays_whichever_was_ruled_first():
    """001 十〈5〉: 每圈出牌不得以不正当手段（声音，暗示，动作，表情等）来传递非法信息，一旦发现，轻则该轮自动下台或升级.
    Both sides signalling owe each other that award; the book replays a hand both sides spoilt (二十一: 如双方均错，则
    重新该局比赛; 十八/十九 for revokes), so two signalling fouls replay it too, in either order. Before, the side ruled
    first took the hand and the other's award was dropped."""
    for order in ([Penalty("signalling", "N"), Penalty("signalling", "E")], [Penalty("signalling", "E"), Penalty("signalling", "N")]):
        assert settle(CL, "S", 60, order).outcome is None
    assert settle(CL, "S", 60, [Penalty("signalling", "E")]).outcome.side == "dealer"  # one side: awarded as before
    assert settle(CL, "S", 60, [Penalty("signalling", "N")]).outcome.side == "defenders"


def test_award_keeps_better_normal_result():
    """A side awarded the hand keeps its normal result when that is better (classic 十八: 按正常计分法以定升级级数)."""
    s = settle(CL, "S", 0, [Penalty("revoke", "E")])
    assert s.outcome == Outcome("dealer", 3)


def test_classic_revoke_steps_the_dealer_down_or_lets_the_dealer_go_up():
    """001 十八: 藏张一旦成立，即召裁判，判自动下台或别人自动升级（只作下台或升级，不累计分），比赛仍需继续（按正常计分法），
    以定升级级数. The dealer's side revoking steps down: the defenders take the deal at 0 levels (五: 防家上台), more only
    where their points give more; the defenders revoking let the dealer's side go up a level. 十〈5〉 暗示 the same."""
    for kind in ("revoke", "signalling"):
        assert settle(CL, "S", 30, [Penalty(kind, "N")]).outcome == Outcome("defenders", 0)
        assert settle(CL, "S", 190, [Penalty(kind, "S")]).outcome == Outcome("defenders", 1)  # 180—235: 防家升一级
        assert settle(CL, "S", 100, [Penalty(kind, "E")]).outcome == Outcome("dealer", 1)
    assert settle(ZK, "S", 30, [Penalty("signalling", "N")]).outcome == Outcome("defenders", 1)  # 000: 自动下台，对方升一级


def test_unknown_penalty_is_an_error():
    with said.raises(ValueError, "no penalty"):
        settle(CL, "S", 0, [Penalty("peeking", "E")])


def test_penalties_of_rulings():
    rulings = [
        Ruling("revoke", "E", 3, "x", cards=("S3", "D4")),
        Ruling("failed_throw", "S", 5, "y", cards=("SA", "SK")),
    ]
    assert penalties_of(SG, rulings) == [Penalty("revoke", "E", 2)]  # shaoguan has no throws
    assert penalties_of(CL, rulings) == [Penalty("revoke", "E", 2), Penalty("failed_throw", "S", 2)]


# -- the game ---------------------------------------------------------------------------------


def test_levels_skip_permanent_two():
    assert level_ranks(ZK)[0] == "2" and level_ranks(ZK)[-1] == "A"
    assert level_ranks(SGN) == list("3456789TJQKA")


def test_dealer_rotation():
    """000 第八条 3: 庄家一方升级时，下一盘牌由庄家的对家同伴接台为庄家；庄家下台时，下一盘牌由该庄家的下家上台为庄家。"""
    g = Game.start(ZK)
    g = g.after("S", Outcome("dealer", 2))
    assert g.dealer == "N" and g.level_of("SN") == "4" and g.level_of("EW") == "2"
    g = g.after("N", Outcome("defenders", 1))
    assert g.dealer == "W" and g.level_of("EW") == "3"
    assert g.hand_level() == "3"


def test_classic_take_over_without_levels():
    """001 五: 120—175分 防家上台."""
    g = Game.start(CL).after("E", Outcome("defenders", 0))
    assert g.dealer == "N" and dict(g.levels) == {"SN": 0, "EW": 0}


def test_game_won_past_a():
    """000 第二条: 每局竞赛最先升级超过级牌A的一方为胜方."""
    g = Game(ZK, (("SN", 11), ("EW", 5)), dealer="S")  # SN at K
    assert g.hand_level() == "K"
    g = g.after("S", Outcome("dealer", 1))
    assert g.winner is None and g.level_of("SN") == "A"
    g = g.after("N", Outcome("dealer", 1))
    assert g.winner == "SN"
    with pytest.raises(ValueError):
        g.after("S", Outcome("dealer", 1))
