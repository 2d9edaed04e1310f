"""Seats, turn order and the first bidder of each game (附件一 一 4, 一 5; conformance README: S E N W)."""

import pytest

from referee.sandayi.seats import first_bidder, next_seat, seat_of_suit, seats_from


def test_play_goes_counter_clockwise():
    # README: Play goes counter-clockwise: the next player (下家) after S is E, then N, then W.
    assert [next_seat(s) for s in "SENW"] == ["E", "N", "W", "S"]
    assert seats_from("W") == ("W", "S", "E", "N")


def test_seats_follow_black_red_plum_square_counter_clockwise(rules):
    """一 4: 每轮比赛前进行抽签决定桌次，并按照黑红梅方逆时针依次落座。"""
    assert [seat_of_suit(rules, s) for s in "SHCD"] == ["S", "E", "N", "W"]
    with pytest.raises(ValueError, match="unknown suit"):
        seat_of_suit(rules, "X")


def test_first_bidder_rotates_each_game_in_suit_order(rules):
    """一 5: 每局比赛均按照黑红梅方的顺序依次作为首先叫牌者。 一 3: 每轮进行8局比赛。"""
    order = [first_bidder(rules, g) for g in range(1, 9)]
    assert order == ["S", "E", "N", "W"] * 2
    # 梅 (clubs) bids third and sits at N; 方 (diamonds) bids fourth and sits at W
    assert order[2] == seat_of_suit(rules, "C") and order[3] == seat_of_suit(rules, "D")


@pytest.mark.parametrize("game", [0, 9, -1, "1", True])
def test_games_outside_the_round_are_refused(rules, game):
    with pytest.raises(ValueError, match="numbered from 1 to 8"):
        first_bidder(rules, game)


def test_unknown_seat_is_refused():
    with pytest.raises(ValueError, match="unknown seat 'X'"):
        next_seat("X")
