"""A round starts fresh: what one round's clock ruled (points still to settle, turns given up in a row, a seat's
violation notice) is that round's own, even when the round was stopped mid-hand, and a seat's call for the referee
stops play where the seed says so.

Each of these carried into the next round before: a clock penalty of a stopped round settled the next round's first
hand, three give-ups of a stopped Guandan round made the next round's first overrun a ``no_play`` flag, and the board
still showed the old round's 超时 警告."""

from climbing_kit import GD, Table_

from referee.table.scenario import _Drive
from referee.table.tables import new_table


def _scored(d: _Drive, since: float) -> list[dict]:
    return [o.payload["data"] for o in d.outputs if o.name == "events" and o.payload["kind"] == "hand_scored"
            and o.payload["at"] >= since]


def _tractor_overrun() -> _Drive:
    """A classic-3deck round whose first follower, E, took 11 s of its 10: the first overrun, a warning."""
    d = _Drive(new_table("t1", "classic-3deck"), "tractor", 0)
    d.send("commands", {"command": "start_round"}, 0.0)
    for s in "SENW":
        d.do_ready(0.0, s)
    d.do_draw(10.0)
    d.do_kitty(16.0)
    d.do_play(20.0)
    d.do_play(31.0)
    return d


def test_a_clock_penalty_of_a_stopped_round_is_not_settled_in_the_next():
    """001 二十三: 领出不得超过15秒钟，按规定顺序跟牌、垫牌、将吃不超过10秒钟，如超过，召裁判，第一次警告，以后每次扣20分 --
    the 20 points are the round's where they were earned; a round stopped before its hand was settled takes them with it."""
    d = _tractor_overrun()
    d.do_play(32.0)
    d.do_play(33.0)
    d.do_play(48.1)  # the trick's winner leads in 15.1 s: 20 points
    assert [(p.kind, p.seat) for p in d.table.penalties] == [("clock", "E")]
    d.send("commands", {"command": "stop_round"}, 60.0)
    d.send("commands", {"command": "start_round"}, 100.0)
    assert d.table.penalties == ()
    for s in "SENW":
        d.do_ready(100.0, s)
    d.dealt = 0
    d.do_draw(110.0)
    d.do_kitty(116.0)
    d.do_play_out(120.0)  # nobody is slow in round two
    [scored] = _scored(d, 100.0)
    assert scored["settled_points"] == scored["defender_points"] and not any(n.get("kind") == "clock" for n in scored.get("notes", []))


def _guandan_round_two(stopped_after_give_ups: bool) -> list[tuple[str, str]]:
    d = _Drive(new_table("t1", GD), "guandan", 0)
    d.send("commands", {"command": "start_round"}, 0.0)
    for s in "SENW":
        d.do_ready(0.0, s)
    d.do_draw(2.0, "S")
    if stopped_after_give_ups:
        d.do_wait(95.0)  # S, E and N each let 30 s pass: three turns given up in a row
        assert d.table.given_up == 3
    d.send("commands", {"command": "stop_round"}, 96.0)
    d.send("commands", {"command": "start_round"}, 100.0)
    for s in "SENW":
        d.do_ready(100.0, s)
    d.dealt = 0
    d.do_draw(102.0, "S")
    d.do_wait(135.0)  # S's lead runs out once
    return [(o.payload["kind"], o.payload.get("seat") or o.payload["data"].get("seat")) for o in d.outputs
            if o.payload.get("at", 0) >= 135 and o.payload["kind"] in ("overtime", "passed", "flag_raised")]


def test_turns_given_up_in_a_stopped_round_do_not_count_in_the_next():
    """002 十二 第3条: 否则，视作放弃本次出牌权 -- one overrun gives up one turn; only a whole round of seats giving up
    in a row (nobody is playing) stops the table, and a stopped round's give-ups are no part of the next round's row."""
    fresh = _guandan_round_two(stopped_after_give_ups=False)
    assert sorted(fresh) == [("overtime", "S"), ("passed", "S")]
    assert _guandan_round_two(stopped_after_give_ups=True) == fresh


def test_a_seats_violation_notice_ends_with_its_round():
    """The board's message (超时 警告) tells a seat what its last violation cost; a new round starts with none."""
    d = _tractor_overrun()  # E overruns: a warning on E's display
    e = d.table.board(31.0)["seats"]["E"]
    assert (e["light"], e["message"]) == ("red", "超时 警告")
    d.send("commands", {"command": "stop_round"}, 32.0)
    d.send("commands", {"command": "start_round"}, 40.0)
    assert all("message" not in s and s["light"] != "red" for s in d.table.board(40.0)["seats"].values())


# ---------------------------------------------------------------- a call for the referee

def test_guandan_a_call_for_the_referee_stops_play_until_it_is_answered():
    """002 十 第1条 犯规发生后的处理程序: 1、选手均可举报所发生的犯规行为。2、举报人举手报告裁判员。3、停止打牌。 -- the seat's
    referee button holds every clock and makes the plays wait, as any flag; the referee's dismiss lets play go on, and
    the waiting plays are judged in order. Pressing again adds no second call."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    left = d.state()["clocks"]["E"]["left"]
    d.press("W", "referee", dt=2.0)
    d.press("W", "referee")
    [flag] = d.state()["flags"]
    assert (flag["kind"], flag["seat"], flag["cards"]) == ("referee_called", "W", [])
    assert [e["kind"] for e in d.events()[-3:]] == ["referee_called", "flag_raised", "referee_called"]
    assert d.events("referee_called")[-1]["data"] == {"seat": "W"}
    assert d.state()["paused"] and not d.state()["clocks"]["E"]["running"]
    d.send("clock", {}, dt=60.0)  # a minute passes while the referee walks over: E's turn is not given up
    assert not d.events("passed") and d.state()["clocks"]["E"]["left"] == left - 2.0
    d.press("W", "confirm")  # the caller cannot answer its own call: a referee must come
    assert d.events()[-1]["kind"] == "rejected" and d.state()["flags"] == [flag]
    d.show("E", ["S5"])  # played while the referee walked over: waits
    assert d.events()[-1]["kind"] == "play_waits"
    assert not d.violations()  # a call is no violation of anybody's
    d.send("commands", {"command": "dismiss", "flag": flag["flag"]})
    assert not d.state()["flags"] and not d.state()["paused"]
    assert d.events("play_accepted")[-1]["data"]["cards"] == ["S5"]


def test_a_tractor_call_is_told_and_play_goes_on():
    """Seeds 000, 001, 003 say nothing of play stopping when a player calls the referee (001 二十三's 召裁判 follows an
    overrun the table rules by itself): the call is told, no flag holds the table."""
    d = Table_("classic-3deck")
    d.start()
    d.press("E", "referee")
    assert d.events()[-1] == d.events("referee_called")[-1] and not d.state()["flags"] and not d.state()["paused"]
