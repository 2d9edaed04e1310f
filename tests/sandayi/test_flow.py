"""The flow of a San Da Yi game beyond single plays, driven through the real engine (seed 004, 附件一).

Each scenario's answer was written from the article quoted in its docstring
before the engine ran. Games are followed unseen (as the table follows them, from what is played face
up), with the counts cut short (``replace(..., counts=...)``) where a seat is to run out quickly.
"""

from dataclasses import replace

import said

from referee.sandayi.game import Game, GameError
from referee.sandayi.round import round_points
from referee.sandayi.scoring import Result, game_scores

EIGHT_3 = "S3 S3 H3 H3 D3 D3 C3 C3"


def unseen(rules, first, bids, counts=None):
    g = Game.start_unseen(rules, first)
    for value in bids:
        g = g.bid(g.turn, value)
    g = g.take_kitty(g.dealer)
    return replace(g, counts=counts) if counts else g


def test_a_three_in_the_middle_ends_the_bidding_and_the_rest_bomb_freely(rules):
    """叫分: 所叫的分数必须比上一家高; 炸弹限制: 叫1分的选手——限制当局最多打1次“炸弹”; 未轮到叫牌的选手——没有限制。
    S bids 1, E bids 3: E deals, N and W were never asked, and it is no 头撂 (首先叫者 did not bid 3)."""
    g = unseen(rules, "S", [1, 3])
    assert g.dealer == "E" and g.turn == "E" and not g.first_bid_three
    assert [g.bidding.bomb_category(s) for s in "SENW"] == [1, "dealer", "not_asked", "not_asked"]
    g = g.play("E", "S4").play("N", "S5 S5 H5 H5").play("W", "S6 S6 H6 H6").play("S", "S7 S7 H7 H7")
    g = g.play("E", "S8 S8 H8 H8").play("N", "S9 S9 H9 H9").play("W", "ST ST HT HT")
    with said.raises(GameError, "S bid 1 and has played 1 bomb.s.: no more bombs this game"):
        g.play("S", "SJ SJ HJ HJ")
    assert g.bombs_played("S") == 1 and g.turn == "S"  # refused: nothing changed
    g = g.pass_("S").play("E", "SQ SQ HQ HQ")
    assert g.bombs == (1, 2, 2, 2)


def test_a_bid_of_two_allows_two_bombs_the_joker_bomb_one_of_them(rules):
    """叫2分的选手——限制当局最多打2次“炸弹”; 天王炸弹 counts as a bomb (the book's joker_bomb setting)."""
    g = unseen(rules, "S", [2, 3])
    assert g.dealer == "E" and g.bidding.bomb_category("S") == 2
    g = g.play("E", "S4").play("N", "S5 S5 H5 H5").play("W", "S6 S6 H6 H6").play("S", "LJ LJ BJ BJ")
    g = g.pass_("E").pass_("N").pass_("W")
    assert g.turn == "S" and g.leading
    g = g.play("S", "S9 S9 H9 H9")
    assert g.bombs_played("S") == 2
    g = g.pass_("E").pass_("N").pass_("W")
    with said.raises(GameError, "S bid 2 and has played 2 bomb.s.: no more bombs this game"):
        g.play("S", "SJ SJ HJ HJ")


def test_no_bid_above_the_first_bidder_makes_it_the_dealer_and_the_passers_have_one_bomb(rules):
    """叫分: 叫分最高的选手成为庄家，无荒番局; 轮到叫牌且选择“不叫”的选手——限制当局最多打1次“炸弹”。"""
    g = unseen(rules, "N", [1, "pass", "pass", "pass"])
    assert g.dealer == "N" and g.turn == "N" and g.count("N") == 33
    g = g.play("N", "S4").play("W", EIGHT_3)
    g = g.pass_("S").pass_("E").pass_("N")
    assert g.turn == "W" and g.leading
    g = g.play("W", "S5").play("S", "SQ").play("E", "SK").pass_("N")
    with said.raises(GameError, "W passed and has played 1 bomb.s.: no more bombs this game"):
        g.play("W", "S9 S9 H9 H9")


def test_a_pass_by_every_other_seat_returns_the_lead_the_dealer_may_not_pass_it(rules):
    """出牌规则: 庄家先出牌，然后按逆时针顺序依次出牌，轮到某个玩家时，其可以选择“不出”或出比上一个玩家大的牌。"""
    g = unseen(rules, "W", [2, 3])
    assert g.dealer == "S" and g.turn == "S"
    with said.raises(GameError, "cannot pass"):
        g.pass_("S")
    with said.raises(GameError, "E"):
        g.play("E", "S3")
    g = g.play("S", "S3").play("E", "S4").pass_("N").pass_("W").pass_("S")
    assert g.turn == "E" and g.leading


def test_the_dealer_running_out_wins_three_bases(rules):
    """首先出完所有手牌的玩家获胜; the bid is the base (the book's decision): 2 x 3 to the dealer."""
    g = unseen(rules, "S", [1, 2, "pass", "pass"], counts=(25, 1, 25, 25))
    assert g.dealer == "E"
    g = g.play("E", "SA")
    assert g.over and g.winner == "dealer" and g.ended_by == "out"
    assert g.scores == {"S": -2, "E": 6, "N": -2, "W": -2}
    with said.raises(GameError, "over"):
        g.foul("S", "talking")


def test_an_ally_running_out_wins_for_all_three_after_a_first_bid_three(rules):
    """头撂: 首先叫者选择“3分”…庄家输牌扣3倍底分 -- base 3: the dealer -9, each ally +3, whoever of them ran out."""
    g = unseen(rules, "W", [3])
    assert g.first_bid_three and g.dealer == "W"
    g = g.play("W", "S4").play("S", "S5").play("E", "S6").pass_("N").pass_("W").pass_("S")
    g = replace(g, counts=(25, 1, 25, 32)).play("E", "S7")
    assert g.over and g.winner == "allies" and g.scores == {"S": 3, "E": 3, "N": 3, "W": -9}


def test_first_bid_three_open_hand_and_report_play_multiply(rules):
    """头撂 4 倍底分; 摊打 本局输赢分数×2; 报到 然后“打”: 庄家赢牌则分数翻倍 -- 4 x 3 x 2 x 2 = 48 to the dealer."""
    won = Result(dealer="N", bid=3, dealer_won=True, first_bid_three=True, open_hand=True, report="play")
    assert game_scores(rules, won) == {"S": -16, "E": -16, "N": 48, "W": -16}
    lost = replace(won, dealer_won=False)
    assert game_scores(rules, lost) == {"S": 0, "E": 0, "N": 0, "W": 0}  # 如庄家输牌则本局所有选手得分为0
    no_play = Result(dealer="N", bid=3, dealer_won=True, first_bid_three=True, report="no_play")
    assert game_scores(rules, no_play) == {"S": -4, "E": -4, "N": 12, "W": -4}  # 直接获胜: a 头撂 win


def test_report_and_open_hand_then_the_dealer_loses_to_fouls(rules):
    """报到…如果选择“打”，本局如庄家赢牌则分数翻倍，如庄家输牌则本局所有选手得分为0; 三: 同一副牌内，任何一名选手被记过2次及以上
    犯规，作输者处理 -- the dealer's two fouls lose a game it reported and played: 0 for all."""
    g = unseen(rules, "S", [3]).open_hand("S").report("S", play=True)
    g = g.play("S", "S4").foul("S", "talking")
    assert not g.over
    g = g.foul("S", "peeking")
    assert g.over and g.ended_by == "fouls" and g.winner == "allies"
    assert g.scores == {"S": 0, "E": 0, "N": 0, "W": 0}


def test_open_hand_without_a_first_bid_three_and_reports_out_of_time_are_refused(rules):
    """摊打: 在“头撂”的情况下，庄家拿到底牌后，可以选择是否“摊打” -- not after S 1, E 3; nor once the first lead is made."""
    g = unseen(rules, "S", [1, 3])
    with said.raises(GameError, "an open hand is only allowed after a first-bid three"):
        g.open_hand("E")
    g = g.play("E", "S3")
    with said.raises(GameError, "only the dealer reports"):
        g.report("E", play=True)


def test_count_reports_and_questions_in_the_flow(rules):
    """三 (一)1: 每位选手出牌后手中牌数在10张以内（含10张），需主动报牌一次，其他时间不能自动报牌，否则属于犯规;
    2: 只有轮到自己出牌时，才可以询问其他选手的牌数; 3: 10张以外回答“不报” -- two fouls: 作输者处理."""
    g = unseen(rules, "S", [1, "pass", "pass", "pass"], counts=(33, 11, 25, 25))
    assert g.count_answer("E") is None
    g = g.play("S", "S3").play("E", "S4")
    assert g.count_answer("E") == 10
    g = g.announce_count("E")
    assert g.fouls == () and "E" in g.announced
    g = g.ask_count("N")  # N is on turn: no foul
    assert g.fouls == ()
    g = g.announce_count("E")  # a second report
    assert g.foul_count("E") == 1 and not g.over
    g = g.ask_count("E")  # not E's turn
    assert g.over and g.offender == "E" and g.winner == "dealer"
    assert g.scores == {"S": 3, "E": -3, "N": 0, "W": 0}


def test_round_points_split_between_equal_game_scores(rules):
    """一 1: 每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分 -- two level second share 3 and 2."""
    pts = round_points(rules, {"a": 10, "b": -2, "c": -2, "d": -6})
    assert pts == {"a": 5, "b": 2.5, "c": 2.5, "d": 1}
