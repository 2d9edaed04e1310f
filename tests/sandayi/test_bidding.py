"""Bidding (叫分), the dealer, and who was asked (附件一 二 叫分, 头撂).

叫分：首先叫牌者开始叫分，且最少叫1分，其他选手可选择叫“2分”、“3分”或者“不叫”，所叫的分数必须比上一家高，
叫分最高的选手成为庄家，无荒番局。
"""

import pytest
import said

from referee.sandayi.bidding import Bidding, BidError


def bids(rules, first, *values):
    b = Bidding(rules, first)
    for v in values:
        b = b.bid(b.turn, v)
    return b


def test_bidding_goes_counter_clockwise_from_the_first_bidder(rules):
    """首先叫牌者开始叫分 … (逆时针)"""
    b = Bidding(rules, "N")
    assert b.turn == "N"
    b = b.bid("N", 1)
    assert b.turn == "W"
    b = b.bid("W", "pass")
    assert b.turn == "S"
    with said.raises(BidError, "it is S's turn"):
        b.bid("E", 2)


def test_first_bidder_must_bid_at_least_one(rules):
    """且最少叫1分"""
    with said.raises(BidError, "must bid at least 1"):
        Bidding(rules, "S").bid("S", "pass")


def test_each_bid_must_be_higher_than_the_last(rules):
    """所叫的分数必须比上一家高"""
    b = bids(rules, "S", 2)
    with said.raises(BidError, "higher than 2"):
        b.bid("E", 2)
    with said.raises(BidError, "higher than 2"):
        b.bid("E", 1)
    assert b.bid("E", 3).dealer == "E"


def test_highest_bidder_deals_after_everyone_spoke(rules):
    """叫分最高的选手成为庄家"""
    b = bids(rules, "E", 1, 2, "pass")  # E 1, N 2, W pass: S still to speak
    assert not b.done and b.dealer is None and b.turn == "S"
    b = b.bid("S", "pass")
    assert b.done and b.dealer == "N" and b.high == 2 and b.turn is None


def test_no_redeal_the_first_bidder_deals_when_all_others_pass(rules):
    """无荒番局: the first bidder's bid stands when the three pass."""
    b = bids(rules, "W", 1, "pass", "pass", "pass")
    assert b.dealer == "W" and b.high == 1


def test_three_ends_the_bidding_and_later_players_are_not_asked(rules):
    """其他选手可选择叫“2分”、“3分” … 3 is the top bid: the bidding stops."""
    b = bids(rules, "S", 1, 3)
    assert b.done and b.dealer == "E"
    assert [b.bomb_category(s) for s in "SENW"] == [1, "dealer", "not_asked", "not_asked"]
    with said.raises(BidError, "bidding is over, E is the dealer"):
        b.bid("N", "pass")


def test_first_bid_three_is_touliao(rules):
    """头撂：首先叫者选择“3分”，令其他三家都没有机会叫档。"""
    b = bids(rules, "N", 3)
    assert b.first_bid_three and b.dealer == "N"
    assert not any(b.asked(s) for s in "SEW")
    assert not bids(rules, "N", 1, 3).first_bid_three  # a later 3 is not 头撂


def test_bomb_categories_record_what_each_player_said(rules):
    """炸弹限制 depends on the bid: 叫2分 / 叫1分 / 轮到叫牌且选择“不叫” / 未轮到叫牌 / 庄家"""
    b = bids(rules, "S", 1, "pass", 2, "pass")
    assert [b.bomb_category(s) for s in "SENW"] == [1, "pass", "dealer", "pass"]
    with said.raises(BidError, "not over"):
        bids(rules, "S", 1).bomb_category("E")


@pytest.mark.parametrize("value", [0, 4, "3", "PASS", None, True, 1.5])
def test_unknown_bids_are_refused(rules, value):
    with said.raises(BidError, "unknown bid"):
        Bidding(rules, "S").bid("S", value)
