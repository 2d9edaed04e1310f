"""Fouls and the ruling they bring (附件一 三 打牌犯规规定).

犯规时由裁判判定，同一副牌内，任何一名选手被记过2次及以上犯规，作输者处理。
"""

from dataclasses import replace

import said

from referee.sandayi.game import Foul, Game, GameError

STRAIGHT14 = "SA S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK HA"
AIRPLANE = "D3 D3 C3 D4 D4 C4 D5 D5 D6 D6"
KITTY = "D3 D3 C3 D4 D4 C4 D5 D5"
DEALER_S = f"{STRAIGHT14} D6 D6 HK HK CK HQ HQ H9 H9 C9 C9"


def test_one_foul_is_recorded_and_play_goes_on(new_game):
    """(二)1 打牌期间严格禁止选手间交谈，讲话，违者犯规。"""
    g = new_game("S", [1, "pass", "pass", "pass"]).foul("E", "talking")
    assert g.fouls == (Foul("E", "talking"),) and g.foul_count("E") == 1 and not g.over


def test_one_foul_each_by_two_players_is_no_ruling(new_game):
    g = new_game("S", [1, "pass", "pass", "pass"]).foul("E", "talking").foul("N", "peeking")
    assert not g.over


def test_an_ally_with_two_fouls_loses_alone(new_game):
    """同一副牌内 … 被记过2次及以上犯规，作输者处理: the offender pays the dealer's win."""
    g = new_game("S", [2, "pass", "pass", "pass"]).foul("W", "hurrying")
    g = g.foul("W", "signalling")
    assert g.over and g.ended_by == "fouls" and g.offender == "W" and g.winner == "dealer"
    assert g.scores == {"S": 6, "E": 0, "N": 0, "W": -6}


def test_a_dealer_with_two_fouls_loses_the_game(new_game):
    g = new_game("S", [3]).foul("S", "peeking").foul("S", "spoken_pass")
    assert g.winner == "allies" and g.offender == "S"
    assert g.scores == {"S": -9, "E": 3, "N": 3, "W": 3}  # 头撂 loss: 3 bases


def test_side_ruling_makes_the_three_lose_together(rules, deal):
    side = replace(rules, fouls=replace(rules.fouls, ally_ruling="side"))
    g = Game.start(side, *deal(), "S").bid("S", 1).bid("E", "pass").bid("N", "pass").bid("W", "pass")
    g = g.foul("E", "talking").foul("E", "talking")
    assert g.scores == {"S": 3, "E": -1, "N": -1, "W": -1}


def test_fouls_during_bidding_are_ruled_when_the_dealer_is_known(new_game):
    g = new_game("S", [1]).foul("N", "talking").foul("N", "talking")
    assert not g.over and g.phase == "bidding"  # no sides yet
    g = g.bid("E", "pass").bid("N", 2).bid("W", "pass")
    assert g.over and g.dealer == "N" and g.winner == "allies" and g.offender == "N"


def test_unknown_fouls_are_refused(new_game):
    with said.raises(GameError, "unknown foul 'swearing'"):
        new_game().foul("S", "swearing")


def test_reporting_the_count_once_at_ten_or_fewer(new_game):
    """(一)1 每位选手出牌后手中牌数在10张以内（含10张），需主动报牌一次，其他时间不能自动报牌，否则属于犯规。"""
    g = new_game("S", [1, "pass", "pass", "pass"], kitty=KITTY, S=DEALER_S)
    g = g.play("S", STRAIGHT14)
    assert len(g.hand("S")) == 19
    early = g.announce_count("S")
    assert early.fouls == (Foul("S", "count_report"),)  # 19 cards: not the time to report
    g = g.pass_("E").pass_("N").pass_("W").play("S", AIRPLANE)
    assert len(g.hand("S")) == 9
    g = g.announce_count("S")
    assert g.fouls == () and g.announced == {"S"}
    g = g.announce_count("S")  # a second report is a foul
    assert g.fouls == (Foul("S", "count_report"),) and not g.over


def test_a_late_first_report_is_a_foul(new_game):
    """(一)1 每位选手出牌后手中牌数在10张以内（含10张），需主动报牌一次，其他时间不能自动报牌，否则属于犯规 -- the report
    belongs to the play that brings the seat to ten or fewer (出牌后): once the next player has passed, or the seat has
    played again, it is another time (其他时间). Without the rule's time the engine took the late report as the due one."""
    g = new_game("S", [1, "pass", "pass", "pass"], kitty=KITTY, S=DEALER_S)
    g = g.play("S", STRAIGHT14).pass_("E").pass_("N").pass_("W").play("S", AIRPLANE)
    assert len(g.hand("S")) == 9
    late = g.pass_("E").announce_count("S")  # E has passed since: too late
    assert late.fouls == (Foul("S", "count_report"),) and late.announced == frozenset()
    g = g.pass_("E").pass_("N").pass_("W").play("S", "HK HK CK HQ HQ")
    assert len(g.hand("S")) == 4
    later = g.announce_count("S")  # after the seat's next play: still not the play that brought it to ten
    assert later.fouls == (Foul("S", "count_report"),) and later.announced == frozenset()


def test_asking_counts_only_on_ones_turn(new_game):
    """(一)2 只有轮到自己出牌时，才可以询问其他选手的牌数。不是自己出牌时问其他人属于犯规。"""
    g = new_game("S", [1, "pass", "pass", "pass"], kitty=KITTY, S=DEALER_S).play("S", STRAIGHT14)
    assert g.ask_count("E") is g  # E's turn: a fair question
    assert g.ask_count("N").fouls == (Foul("N", "ask_out_of_turn"),)


def test_count_answers(new_game):
    """(一)3 被询问者牌数在10张以内（含10张）必须准确回答；10张以外回答“不报”。"""
    g = new_game("S", [1, "pass", "pass", "pass"], kitty=KITTY, S=DEALER_S)
    assert g.count_answer("S") is None and g.count_answer("E") is None
    g = g.play("S", STRAIGHT14).pass_("E").pass_("N").pass_("W").play("S", AIRPLANE)
    g = g.pass_("E").pass_("N").pass_("W").play("S", "HK HK CK HQ HQ")
    assert g.count_answer("S") == 4
