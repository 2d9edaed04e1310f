"""The scores the referee keeps that a spectator reads from the table's ``state`` (bus/PROTOCOL.md ``state``): each
side's games won in a Guandan match of several games (``teams[].games``) and each San Da Yi seat's running total of
the round (``totals``). Every state the kit makes is encoded against the schema (climbing_kit.Table_.send)."""

import random

from climbing_kit import SDY, Table_, guandan_hand, guandan_tribute
from test_guandan_stages import SN_GAME, STAGE_TWO, at_time, match_after, play_games

from bus.protocol import decode, encode
from referee.guandan.bots import deal as deal_guandan


def games(state):
    return {t["name"]: t.get("games") for t in state["teams"]}


def test_a_stage_two_tables_state_has_the_games_each_side_has_won():
    """规程 三 2: 第二阶段：采取三局两胜制. After each game the state's teams carry the match's games (1:0), as the
    ``game_won`` said them, and keep them at the round's end."""
    d, rng = Table_(STAGE_TWO), random.Random(11)
    d.start()
    assert games(d.state()) == {"SN": 0, "EW": 0} and d.state()["best_of"] == 3  # 三局两胜
    seen = []
    while d.table.phase == "dealing":
        before = len(d.events("game_won"))
        hands = deal_guandan(d.rules, rng)  # one hand, as play_games plays each
        d.press("S", "ready")
        if d.table.tribute is not None:
            guandan_tribute(d, rng, hands)
        guandan_hand(d, rng, hands, think=0.5)
        if len(d.events("game_won")) > before:
            seen.append(games(d.state()))
            assert seen[-1] == d.events("game_won")[-1]["data"]["games"]
    assert len(seen) >= 2 and sorted(seen[0].values()) == [0, 1] and max(seen[-1].values()) == 2
    assert d.table.phase == "round_over" and games(d.state()) == d.events("game_won")[-1]["data"]["games"]
    assert d.state()["best_of"] == 3


def test_time_called_shows_the_games_as_the_round_over_decided_them():
    """规程 三 2: 根据级差（级高方为胜）确定胜方: 1:0 and the same side ahead in game 2 when time is called: the state's
    games are the round's 2:0, the levels of the game in play kept."""
    d = Table_(STAGE_TWO)
    d.start()
    at_time(d, match_after(d, SN_GAME), [("N", 3)])
    over = d.events("round_over")[-1]["data"]
    assert games(d.state()) == over["games"] == {"SN": 2, "EW": 0}
    assert {t["name"]: t["level"] for t in d.state()["teams"]} == over["levels"] != {"SN": "2", "EW": "2"}


def test_a_single_game_has_no_games_in_its_state():
    """规程 三 2: 第一阶段：采取单局淘汰制: no match of games to count, so no ``games``."""
    d, rng = Table_("sanjiang-2012"), random.Random(3)
    d.start()
    assert games(d.state()) == {"SN": None, "EW": None} and "best_of" not in d.state()
    play_games(d, rng)
    assert games(d.state()) == {"SN": None, "EW": None} and "best_of" not in d.state()


def test_a_san_da_yi_state_has_each_seats_running_total():
    """Seed 004 一 1: 每轮比赛结束后，根据各选手的累计小分排名; the state carries each seat's 累计 after every game, as
    ``game_scored`` said it, and still carries it while the next game is played."""
    d = Table_(SDY)
    d.start()
    assert d.state()["totals"] == {"S": 0, "E": 0, "N": 0, "W": 0}
    for game in range(2):
        for button in ("bid1", "pass", "pass", "pass"):
            d.press(d.state()["turn"], button)
        dealer = d.table.dealer
        d.press(dealer, "ready")
        d.send("commands", {"command": "report", "seat": dealer, "play": False})  # 二 报到: 不打, the game ends
        scored = d.events("game_scored")[-1]["data"]
        assert scored["hand"] == game + 1 and d.state()["totals"] == scored["totals"]
    assert any(d.state()["totals"].values())
    d.press(d.state()["turn"], "bid1")  # the next game under way: the totals stay
    assert d.state()["totals"] == d.events("game_scored")[-1]["data"]["totals"]


def test_a_state_without_the_new_fields_is_still_valid():
    """Both fields are optional: a state from before them (a Tractor table's) decodes as before."""
    d = Table_("classic-3deck")
    state = d.state()
    assert "totals" not in state and "best_of" not in state and all("games" not in t for t in state["teams"])
    assert decode("state", encode("state", state)) == state
