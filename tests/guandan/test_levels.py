"""Levels won, the game of each stage, and the match with its time limit: seed 002 规则 三, 规程 三 2."""

import pytest
import said

from referee.guandan.levels import (
    Game,
    GameError,
    HandResult,
    Match,
    at_time_up,
    levels_won,
    stage,
)
from referee.judge import answer
from referee.rulebooks import load

GD = load("sanjiang-2012")


def R(first, place):
    return HandResult(first, place)


def run(game, results):
    for first, place in results:
        game = game.after(R(first, place))
    return game


@pytest.mark.parametrize("place, levels", [(2, 3), (3, 2), (4, 1)])
def test_levels_by_where_the_partner_finished(place, levels):
    """三: 如上游的对门为二游，则上游方升3级；如为三游，则升2级;如为四游(下游)，则升1级。"""
    assert levels_won(GD, place) == levels
    out = answer({"id": "x", "game": "guandan", "rulebook": "sanjiang-2012", "op": "result", "partner_place": place})
    assert out["result"] == levels


@pytest.mark.parametrize("place", [1, 5, 0, "2", True, None])
def test_other_places_are_errors(place):
    """三: 如上游的对门为二游 ... 三游 ... 四游(下游) -- the partner of the first finishes 2, 3 or 4."""
    with said.raises(ValueError, "one of 2, 3, 4"):
        levels_won(GD, place)
    out = answer({"id": "x", "game": "guandan", "rulebook": "sanjiang-2012", "op": "result", "partner_place": place})
    assert "error" in out and "result" not in out


def test_stages_are_rulebook_data():
    """规程 三 2: 第一阶段 ... 记级从打2开始，过“A”为胜，“A”必打；第二阶段：采取三局两胜制，每局过“8”即胜，但是“8”不必打。"""
    one, two = stage(GD, "one"), stage(GD, "two")
    assert (one.start, one.passes, one.must_play, one.best_of) == ("2", "A", True, 1)
    assert (two.passes, two.must_play, two.best_of) == ("8", False, 3)
    with said.raises(GameError, "no stage"):
        stage(GD, "three")


def test_only_the_firsts_team_goes_up_and_the_next_hand_is_played_at_its_level():
    """三: 比赛中第一个把手中牌出完的一方为上游，只有上游方可以升级。"""
    g = Game.start(GD, "one")
    assert g.hand_level() == "2"
    g = run(g, [("E", 3)])  # E first, W third: EW +2
    assert (g.level_of("EW"), g.level_of("SN"), g.hand_level()) == ("4", "2", "4")
    g = run(g, [("N", 4)])  # N first, S last: SN +1, the next hand at SN's level
    assert (g.level_of("EW"), g.level_of("SN"), g.hand_level()) == ("4", "3", "3")


def test_stage_one_levels_stop_at_ace():
    """三: A不能升过去，A必打。"""
    g = run(Game.start(GD, "one"), [("S", 2)] * 3 + [("S", 4)] * 2)  # 2 -> 5 -> 8 -> J -> Q -> K
    assert g.level_of("SN") == "K"
    g = run(g, [("N", 2)])  # K + 3 stops at A
    assert (g.level_of("SN"), g.winner) == ("A", None)


def test_stage_one_a_is_won_with_the_first_and_a_partner_not_last():
    """三: 胜方过“A”必须有一人是上游，另一人不是下游才能算取胜，否则需再打“A”。"""
    at_a = run(Game.start(GD, "one"), [("S", 2)] * 4)  # 2 5 8 J A
    assert (at_a.level_of("SN"), at_a.hand_level()) == ("A", "A")
    assert at_a.after(R("S", 3)).winner == "SN"
    assert at_a.after(R("N", 2)).winner == "SN"
    again = at_a.after(R("S", 4))  # partner last: A is played again
    assert (again.winner, again.level_of("SN"), again.hand_level()) == (None, "A", "A")
    assert again.after(R("N", 3)).winner == "SN"
    won = Match.start(GD, "one", at=0.0)
    for first, place in [("S", 2)] * 4 + [("S", 3)]:
        won = won.after(R(first, place))
    assert won.winner == "SN" and dict(won.game.levels) == {"SN": "A", "EW": "2"}  # the match won keeps its levels (not 2:2)


def test_stage_one_a_must_be_played():
    """三: A不能升过去，A必打 -- a team at A that takes first in a hand at the other team's level
    has not played A: it stays at A, and the next hand is played at A."""
    g = run(Game.start(GD, "one"), [("S", 2)] * 4 + [("E", 2)])  # SN at A; EW won a hand at 2 -> 5
    assert (g.level_of("SN"), g.level_of("EW"), g.hand_level()) == ("A", "5", "5")
    g = g.after(R("S", 2))
    assert (g.winner, g.level_of("SN"), g.hand_level()) == (None, "A", "A")
    assert g.after(R("S", 2)).winner == "SN"


def test_a_team_at_a_never_falls_back():
    """三: 但是一方到A后，则永不退级。"""
    g = run(Game.start(GD, "one"), [("S", 2)] * 4)
    g = run(g, [("S", 4), ("E", 2), ("W", 2), ("E", 3), ("S", 4), ("W", 4)])
    assert g.level_of("SN") == "A" and g.winner is None


def test_stage_two_double_down_from_six_passes_eight():
    """规程 三 2: 每局过“8”即胜，但是“8”不必打（如级数为“6”时，双下后升三级过“8”）。"""
    g = run(Game.start(GD, "two"), [("S", 3), ("N", 3)])  # 2 -> 4 -> 6
    assert g.level_of("SN") == "6"
    assert g.after(R("S", 2)).winner == "SN"  # 6 + 3 = 9: past 8
    assert g.after(R("S", 3)).winner is None  # 6 + 2 = 8: not past it
    assert g.after(R("S", 3)).level_of("SN") == "8"


def test_stage_two_eight_need_not_be_played():
    """规程 三 2: 每局过“8”即胜，但是“8”不必打 -- passing 8 wins at any hand's level."""
    g = run(Game.start(GD, "two"), [("S", 2), ("S", 3), ("E", 4)])  # SN at 7, the hand at EW's 3
    assert (g.level_of("SN"), g.hand_level()) == ("7", "3")
    done = g.after(R("N", 3))  # partner third: 7 + 2 = 9, even with the partner last +1 would not do
    assert done.winner == "SN"
    assert g.after(R("N", 4)).winner is None
    with said.raises(GameError, "over"):
        done.after(R("E", 2))


def test_time_up_the_higher_level_wins_at_equal_levels_the_first_to_get_there():
    """规程 三 2: 根据级差（级高方为胜，同级时先到胜）确定胜方。"""
    g = run(Game.start(GD, "one"), [("S", 3), ("E", 3)])  # both at 4; SN got there first
    assert (g.level_of("SN"), g.level_of("EW"), g.ahead()) == ("4", "4", "SN")
    assert g.after(R("E", 4)).ahead() == "EW"
    assert Game.start(GD, "one").ahead() is None


def test_time_up_stops_an_undealt_hand_and_finishes_a_dealt_one():
    """规程 三 2: 未抓完牌牌桌停止打牌（抓完牌打完本副）。"""
    assert at_time_up(cards_drawn=False) == "stop"
    assert at_time_up(cards_drawn=True) == "finish_hand"


def test_match_time_limit():
    """规程 三 2: 每场比赛时间定为1小时。"""
    m = Match.start(GD, "one", at=100.0)
    assert not m.is_time_up(100.0 + 3599) and m.is_time_up(100.0 + 3600)


def test_stage_one_match_at_time_up_goes_to_the_team_ahead():
    """规程 三 2: 第一阶段：采取单局淘汰制 ... 裁判宣布比赛结束（时间到1小时）... 级高方为胜。"""
    m = Match.start(GD, "one", at=0.0)
    for first, place in [("E", 2), ("S", 4)]:
        m = m.after(R(first, place))
    assert m.winner is None
    assert m.time_up().winner == "EW"


def test_stage_two_best_of_three():
    """规程 三 2: 第二阶段：采取三局两胜制，每局过“8”即胜。"""
    m = Match.start(GD, "two", at=0.0)
    for first, place in [("S", 2), ("S", 2)]:  # 2 -> 5 -> 8: not past it
        m = m.after(R(first, place))
    assert m.games == () and m.game.level_of("SN") == "8"
    m = m.after(R("N", 4))  # 8 -> 9
    assert m.games == ("SN",) and m.winner is None and m.game.hands == 0
    for first, place in [("E", 2), ("W", 2), ("E", 2)]:
        m = m.after(R(first, place))
    assert m.games == ("SN", "EW") and m.winner is None
    for first, place in [("N", 2), ("N", 2), ("S", 2)]:
        m = m.after(R(first, place))
    assert m.winner == "SN"
    assert m.game.level_of("SN") == "J" and m.game.level_of("EW") == "2"  # the board shows the last game as it ended
    with said.raises(GameError, "match is over"):
        m.after(R("S", 2))


def test_stage_two_time_up_at_one_all_the_third_game_is_played_out():
    """规程 三 2: 第二阶段如1:1平局继续打完。"""
    m = Match.start(GD, "two", at=0.0)
    for first, place in [("S", 2), ("S", 2), ("S", 2), ("E", 3)]:  # SN wins game one; EW ahead in game two
        m = m.after(R(first, place))
    m = m.time_up()
    assert m.games == ("SN", "EW") and m.winner is None and m.unlimited
    assert not m.is_time_up(10_000.0)
    for first, place in [("W", 2), ("W", 2), ("W", 2)]:
        m = m.after(R(first, place))
    assert m.winner == "EW"


def test_stage_two_time_called_at_one_all_plays_the_third_game_out_whoever_leads_it():
    """规程 三 2: 根据级差（级高方为胜…第二阶段如1:1平局继续打完）确定胜方 -- the games stand 1:1 when time is called:
    the third game is played out, not given to the team ahead in it."""
    m = Match.start(GD, "two", at=0.0)
    for first, place in [("S", 2), ("S", 2), ("S", 2), ("E", 2), ("E", 2), ("E", 2), ("S", 2)]:
        m = m.after(R(first, place))
    assert m.games == ("SN", "EW") and m.game.ahead() == "SN"
    m = m.time_up()
    assert m.winner is None and m.unlimited and m.games == ("SN", "EW")
    for first, place in [("W", 2), ("W", 2), ("W", 2)]:
        m = m.after(R(first, place))
    assert m.winner == "EW"


def test_stage_two_time_up_with_a_game_ahead():
    """规程 三 2: 根据级差（级高方为胜）确定胜方 ... 如1:1平局继续打完 -- 2:0 ends the match."""
    m = Match.start(GD, "two", at=0.0)
    for first, place in [("S", 2), ("S", 2), ("S", 2), ("N", 4)]:
        m = m.after(R(first, place))
    assert m.games == ("SN",) and m.time_up().winner == "SN"
