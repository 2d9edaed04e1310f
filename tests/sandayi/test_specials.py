"""报到 (report) and 摊打 (open hand) through the game (附件一 二 特殊规则介绍).

摊打：在“头撂”的情况下，庄家拿到底牌后，可以选择是否“摊打”。如果选择“摊打”，其他三家可以看到庄家的手牌
(摊打计分规则：本局输赢分数×2)。
报到：庄家手中有4个王或7张以上(包含7张)的炸弹即可以选择“报到”;在“报到”后，庄家可以选择“打”或“不打”;如果选择
“不打”，本局地主直接获胜;如果选择“打”，本局如庄家赢牌则分数翻倍，如庄家输牌则本局所有选手得分为0。
"""

import said

from referee.sandayi.game import GameError

SEVEN_FOURS = "S4 S4 D4 D4 C4 C4 H4"
ALLY_W = "CA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA D7 D7 D8 D8 C9 C9 CJ CJ SJ SQ SQ"


def passes(game, *seats):
    for seat in seats:
        game = game.pass_(seat)
    return game


def allies_run_out(g):
    """S (dealer) leads 333+55; W takes it with JJJ+QQ and plays out a 14-card straight and 778899."""
    g = g.play("S", "S3 S3 H3 S5 S5").pass_("E").pass_("N").play("W", "CJ CJ SJ SQ SQ")
    g = passes(g, "S", "E", "N").play("W", "CA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA")
    return passes(g, "S", "E", "N").play("W", "D7 D7 D8 D8 C9 C9")


def test_four_jokers_after_the_kitty_allow_a_report(new_game):
    """庄家手中有4个王 … 即可以选择“报到” (the kitty counts: 8张底牌发给庄家)."""
    g = new_game("S", [1, "pass", "pass", "pass"], take=False, kitty="LJ BJ", S="LJ BJ")
    with said.raises(GameError, "only the dealer reports"):
        g.report("S", play=False)  # the kitty is not taken yet
    g = g.take_kitty("S")
    assert g.can_report
    with said.raises(GameError, "only the dealer reports"):
        g.report("E", play=False)


def test_a_bomb_of_seven_allows_a_report_and_six_does_not(new_game):
    """7张以上(包含7张)的炸弹"""
    assert new_game("S", [1, "pass", "pass", "pass"], S=SEVEN_FOURS, W="H4 BJ").can_report
    g = new_game("S", [1, "pass", "pass", "pass"], S="S4 S4 D4 D4 C4 C4", E="H4 H4", W="BJ")
    assert not g.can_report
    with said.raises(GameError, "needs 4 jokers or a bomb of 7 or more"):
        g.report("S", play=True)


def test_report_and_not_play_wins_at_once(new_game):
    """如果选择“不打”，本局地主直接获胜"""
    g = new_game("E", [2, "pass", "pass", "pass"], E=SEVEN_FOURS, S="H4").report("E", play=False)
    assert g.over and g.winner == "dealer" and g.ended_by == "report"
    assert g.scores == {"S": -2, "E": 6, "N": -2, "W": -2}


def test_report_and_play_doubles_a_win(new_game):
    """如果选择“打”，本局如庄家赢牌则分数翻倍"""
    hand = "S3 S3 H3 H3 D3 D3 C3 HA D2 C3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK DA S5 S5 D5 S6"
    g = new_game("S", [1, "pass", "pass", "pass"], kitty="S6 D6 S7 S7 S8 S8 SK SK", S=hand)
    assert len(g.hand("S")) == 33
    g = g.report("S", play=True)
    assert g.reported == "play" and not g.over
    with said.raises(GameError, "already reported"):
        g.report("S", play=False)
    for play in ("HA D2 C3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK DA", "S5 S5 D5 S6 S6 D6 S7 S7 S8 S8", "SK SK"):
        g = passes(g.play("S", play), "E", "N", "W")
    g = g.play("S", "S3 S3 H3 H3 D3 D3 C3")
    assert g.winner == "dealer"
    assert g.scores == {"S": 6, "E": -2, "N": -2, "W": -2}


def test_report_and_play_then_a_loss_scores_zero_for_all(new_game):
    """如庄家输牌则本局所有选手得分为0"""
    g = new_game("S", [3], S=SEVEN_FOURS + " S3 S3 H3 S5 S5", W=ALLY_W).report("S", play=True)
    g = allies_run_out(g)
    assert g.winner == "allies"
    assert g.scores == {"S": 0, "E": 0, "N": 0, "W": 0}


def test_no_report_after_the_first_lead(new_game):
    g = new_game("S", [1, "pass", "pass", "pass"], S=SEVEN_FOURS + " S3", W="H4").play("S", "S3")
    assert not g.can_report
    with said.raises(GameError, "before the first lead"):
        g.report("S", play=True)


def test_open_hand_only_after_first_bid_three(new_game):
    """在“头撂”的情况下，庄家拿到底牌后，可以选择是否“摊打”"""
    with said.raises(GameError, "only allowed after a first-bid three"):
        new_game("S", [1, 3]).open_hand("E")  # E bid 3, but not as the first bidder
    g = new_game("S", [3], take=False)
    with said.raises(GameError, "after taking the kitty"):
        g.open_hand("S")
    g = g.take_kitty("S")
    with said.raises(GameError, "only the dealer opens"):
        g.open_hand("E")
    g = g.open_hand("S")
    assert g.hand_open
    with said.raises(GameError, "already open"):
        g.open_hand("S")


def test_open_hand_doubles_a_first_bid_three_loss(new_game):
    """摊打计分规则：本局输赢分数×2 — 头撂 loss 3×3 = 9, doubled: the dealer −18, each ally +6."""
    g = new_game("S", [3], S="S3 S3 H3 S5 S5", W=ALLY_W).open_hand("S")
    g = allies_run_out(g)
    assert g.scores == {"S": -18, "E": 6, "N": 6, "W": 6}


def test_no_open_hand_after_the_first_lead(new_game):
    g = new_game("S", [3], S="S3").play("S", "S3")
    with said.raises(GameError, "before the first lead"):
        g.open_hand("S")
