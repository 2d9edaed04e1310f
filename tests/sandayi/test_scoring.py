"""Game scores (附件一 二 特殊规则介绍; the base is the bid, decided where the seed is silent).

头撂牌局计分规则为：庄家赢牌得4倍底分，庄家输牌扣3倍底分。 摊打计分规则：本局输赢分数×2。
报到 … 如果选择“打”，本局如庄家赢牌则分数翻倍，如庄家输牌则本局所有选手得分为0。
"""

from dataclasses import replace

import pytest

from referee.sandayi.scoring import Result, dealer_amount, game_scores


@pytest.mark.parametrize("bid", [1, 2, 3])
def test_a_plain_game_moves_three_bases(rules, bid):
    """A plain win: the dealer +3×bid, each of the three −bid; a loss the other way round."""
    assert game_scores(rules, Result("W", bid, True)) == {"S": -bid, "E": -bid, "N": -bid, "W": 3 * bid}
    assert game_scores(rules, Result("W", bid, False)) == {"S": bid, "E": bid, "N": bid, "W": -3 * bid}


def test_first_bid_three_wins_four_bases_and_loses_three(rules):
    """头撂: 庄家赢牌得4倍底分，庄家输牌扣3倍底分"""
    assert game_scores(rules, Result("N", 3, True, first_bid_three=True)) == {"S": -4, "E": -4, "N": 12, "W": -4}
    assert game_scores(rules, Result("N", 3, False, first_bid_three=True)) == {"S": 3, "E": 3, "N": -9, "W": 3}
    # a 3 bid after another bid is a plain game
    assert game_scores(rules, Result("N", 3, True)) == {"S": -3, "E": -3, "N": 9, "W": -3}


def test_open_hand_doubles_win_or_loss(rules):
    """摊打计分规则：本局输赢分数×2"""
    assert dealer_amount(rules, Result("S", 3, True, first_bid_three=True, open_hand=True)) == 24
    assert dealer_amount(rules, Result("S", 3, False, first_bid_three=True, open_hand=True)) == -18


def test_report_doubles_a_win_and_voids_a_loss(rules):
    """报到 then 打: 赢牌则分数翻倍; 输牌则本局所有选手得分为0. 不打: a plain win."""
    assert game_scores(rules, Result("E", 2, True, report="play")) == {"S": -4, "E": 12, "N": -4, "W": -4}
    assert game_scores(rules, Result("E", 2, False, report="play")) == {"S": 0, "E": 0, "N": 0, "W": 0}
    assert game_scores(rules, Result("E", 2, True, report="no_play")) == {"S": -2, "E": 6, "N": -2, "W": -2}


def test_multipliers_compose(rules):
    """头撂, 摊打 and 报到(打) on one game: 4 × 3 × 2 × 2 = 48 to the dealer."""
    r = Result("S", 3, True, first_bid_three=True, open_hand=True, report="play")
    assert game_scores(rules, r) == {"S": 48, "E": -16, "N": -16, "W": -16}


def test_an_ally_ruled_the_loser_pays_alone(rules):
    """三: 任何一名选手被记过2次及以上犯规，作输者处理 — the offender pays the dealer's win."""
    assert game_scores(rules, Result("S", 2, True, offender="N")) == {"S": 6, "E": 0, "N": -6, "W": 0}
    side = replace(rules, fouls=replace(rules.fouls, ally_ruling="side"))
    assert game_scores(side, Result("S", 2, True, offender="N")) == {"S": 6, "E": -2, "N": -2, "W": -2}


def test_a_dealer_ruled_the_loser_loses_the_game(rules):
    assert game_scores(rules, Result("S", 1, False, offender="S")) == {"S": -3, "E": 1, "N": 1, "W": 1}


def test_results_that_contradict_themselves_are_refused(rules):
    with pytest.raises(ValueError, match="cannot have won"):
        Result("S", 1, True, offender="S")
    with pytest.raises(ValueError, match="report is None"):
        Result("S", 1, True, report="maybe")
    with pytest.raises(ValueError, match="a first-bid three \\(头撂\\) is a bid of 3, not 2"):
        game_scores(rules, Result("S", 2, True, first_bid_three=True))
    with pytest.raises(ValueError, match="only after a first-bid three"):
        game_scores(rules, Result("S", 3, True, open_hand=True))
    with pytest.raises(ValueError, match="bid is one of"):
        game_scores(rules, Result("S", 5, True))


@pytest.mark.parametrize(
    "result",
    [Result(d, b, w, t, o, rp) for d in "SW" for b in (1, 2, 3) for w in (True, False) for t in (False, True)
     for o in (False, True) for rp in (None, "play", "no_play")
     if not (rp == "no_play" and not w) and (b == 3 or not t) and (t or not o)],
)  # fmt: skip
def test_every_game_is_zero_sum(rules, result):
    scores = game_scores(rules, result)
    assert sum(scores.values()) == 0
    assert all(isinstance(v, int) for v in scores.values())
