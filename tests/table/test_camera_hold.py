"""A table whose camera sees no table holds its shot clocks (the ``camera`` entry, ``Reducer._camera_entry``).

No seed speaks of a camera; the clock rules it protects are theirs: a play no camera can see must not be ruled late,
nor a turn given up, on a guess. Decided: every shot clock stops while the camera says ``lost`` or ``offline`` and
runs again, with the seconds it had left, when it says ``online``; the round's own time runs on."""

import random

from referee.table.reducer import CAMERA

from .test_climbing_tables import GD, Table_
from .test_tractor_table import Driver


def camera(d, status, dt=1.0, **more):
    return d.send(CAMERA, {"v": 1, "status": status} | more, dt=dt)


def test_a_lost_camera_holds_a_guandan_turn_that_would_be_given_up():
    """002 十二 第3条: 其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次出牌权 -- not while the camera
    sees no table: W's clock (its one 30 s long think) stops 3 s in, and W keeps its 27 s when the camera sees the
    table again."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    d.show("E", ["S5"], dt=12.0)  # E's one long think is spent
    d.show("N", ["S7"], dt=2.0)
    assert d.state()["clocks"]["W"] == {"left": 30.0, "running": True, "long_think": True}
    camera(d, "lost", dt=3.0, reason="markers")
    assert d.events()[-1]["kind"] == "camera_lost" and d.events()[-1]["data"] == {"status": "lost", "reason": "markers"}
    state = d.state(d.at + 600)
    assert state["paused"] and state["clocks"]["W"] == {"left": 27.0, "running": False, "long_think": True}
    assert d.table.clock.deadline() is None and d.table.board(d.at)["paused"]
    d.send("clock", {}, dt=600.0)  # ten minutes pass: nothing is ruled
    assert not d.violations() and d.state()["turn"] == "W"
    camera(d, "online", dt=5.0)
    assert d.events()[-1]["kind"] == "camera_back" and not d.state()["paused"]
    assert d.table.clock.deadline() == d.at + 27.0
    d.show("W", ["S9"], dt=26.5)  # in time: 3 s before the camera was lost, 26.5 s after
    assert not d.violations() and d.events("play_accepted")[-1]["data"]["seat"] == "W"


def test_the_camera_back_runs_the_clock_from_where_it_stopped_and_an_overrun_is_ruled():
    """002 十二 第3条 (否则，视作放弃本次出牌权): the seconds before the loss and after the return count, the outage
    does not."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"], dt=1.0)  # E's first turn: its 30 s long think
    camera(d, "offline", dt=20.0)
    assert d.events()[-1]["kind"] == "camera_offline" and d.state()["clocks"]["E"]["left"] == 10.0
    camera(d, "online", dt=300.0)
    d.send("clock", {}, dt=10.5)
    (v,) = d.violations("overtime")
    assert v["seat"] == "E" and v["evidence"]["seconds"] == 30.5 and d.events("passed")[-1]["data"]["seat"] == "E"


def test_a_clock_started_while_the_camera_is_lost_does_not_run():
    """A seat's pass pressed on the board reaches the table while its camera sees nothing: the next seat's clock
    starts stopped (002 十二 第3条 would give that turn up too)."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    camera(d, "lost", reason="frames")
    d.press("E", "pass")
    assert d.state()["turn"] == "N"
    assert d.state(d.at + 100)["clocks"]["N"]["running"] is False and d.table.clock.deadline() is None


def test_a_flag_resolved_while_the_camera_is_lost_leaves_the_clock_stopped():
    """An unsure read flagged, then the camera lost, then the flag confirmed: the clock waits for the camera too."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"], confidence=0.5)
    (flag,) = d.state()["flags"]
    camera(d, "lost", reason="markers")
    d.send("commands", {"command": "confirm", "flag": flag["flag"]})
    assert not d.state()["flags"] and d.state()["paused"] and d.table.clock.deadline() is None
    camera(d, "online")
    assert not d.state()["paused"] and d.table.clock.deadline() is not None


def test_a_lost_tractor_camera_holds_the_overtime_warning():
    """001 二十三: 按规定顺序跟牌、垫牌、将吃不超过10秒钟，如超过，召裁判，第一次警告 -- no warning for the seconds
    the camera could not see the table."""
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    assert d.table.clock is not None and d.table.clock.running
    seat = d.table.clock.seat
    camera(d, "lost", dt=2.0, reason="frames")
    d.send("clock", {}, dt=900.0)
    assert "overtime" not in d.kinds("violations") and d.table.clock.seat == seat and not d.table.clock.running
    camera(d, "online")
    assert d.table.clock.running
    d.play_hand(random.Random(5))
    assert "overtime" not in d.kinds("violations")


def test_only_a_change_of_presence_counts_and_the_first_online_says_nothing():
    d = Table_(GD)
    camera(d, "online")
    assert d.events() == [] and d.table.camera == "online"
    d.start()
    camera(d, "online")
    camera(d, "lost", reason="frames")
    camera(d, "lost", reason="markers")  # still lost: nothing new
    camera(d, "offline")  # stopped: said, still holding
    assert [e["kind"] for e in d.events() if e["kind"].startswith("camera")] == ["camera_lost", "camera_offline"]
    assert d.state()["paused"]


def test_between_rounds_a_blind_camera_pauses_nothing_and_replay_rebuilds_the_hold():
    d = Table_(GD)
    camera(d, "offline")
    assert not d.state()["paused"] and d.events()[-1]["kind"] == "camera_offline"
    d.start()
    assert d.state()["paused"]  # the round is on, and no camera sees it
    d.press("S", "ready")
    again = Table_(GD)
    for name, payload, at, seq in d.log:
        again.table, _ = again.table.apply(name, payload, at, seq)
    assert again.table == d.table and again.state(d.at + 50) == d.state(d.at + 50)
