"""A table whose camera sees no table, or whose board does not answer, holds its shot clocks (the ``presence``
entry, ``Reducer._presence_entry``), and a board down holds late arrival.

No seed speaks of cameras or boards; the rules they protect are theirs: a play no camera can see, or a pass or a
``ready`` no button can say, must not be ruled late, nor a turn given up, on a guess. Decided: every shot clock stops
while a device says ``lost`` or ``offline`` and runs again, with the seconds it had left, when every device is back;
late arrival stops while the board is down; the round's own time runs on."""

import random

from referee.table.reducer import PRESENCE, PRESENCE_EVENTS

from .test_climbing_tables import GD, Table_
from .test_tractor_table import Driver, arrive


def presence(d, device, status, dt=1.0, **more):
    return d.send(PRESENCE, {"v": 1, "device": device, "status": status} | more, dt=dt)


def camera(d, status, dt=1.0, **more):
    return presence(d, "camera", status, dt, **more)


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
    assert d.events() == [] and d.table.presence_of("camera") == "online" and d.table.presence_of("board") is None
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
    d.send("commands", {"command": "assign", "rulebook": GD, "players": {s: s * 2 for s in "SENW"}})
    d.send("commands", {"command": "start_round"})
    assert not d.state()["paused"]  # arriving: the seats press ready on the board, the camera holds nothing
    presence(d, "board", "lost")
    assert d.state()["paused"] and d.table.board(d.at)["paused"]  # late arrival stands still
    presence(d, "board", "online")
    for seat in "SENW":
        d.press(seat, "ready")
    assert d.state()["paused"]  # the round is on, and no camera sees it
    d.press("S", "ready")
    again = Table_(GD)
    for name, payload, at, seq in d.log:
        again.table, _ = again.table.apply(name, payload, at, seq)
    assert again.table == d.table and again.state(d.at + 50) == d.state(d.at + 50)


def test_a_board_that_does_not_answer_holds_a_guandan_turn_its_seat_would_pass():
    """002 十二 第3条: 否则，视作放弃本次出牌权 -- E would press ``pass`` on its board, which does not answer: E's turn is
    not given up meanwhile."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    presence(d, "board", "lost", dt=4.0)
    assert d.events()[-1] == {"v": 1, "seq": d.seq, "kind": "board_lost", "at": d.at, "data": {"status": "lost"}}
    d.send("clock", {}, dt=120.0)
    assert not d.violations() and d.state()["turn"] == "E" and d.state()["clocks"]["E"]["left"] == 26.0
    presence(d, "board", "online", dt=60.0)
    d.press("E", "pass", dt=20.0)
    assert not d.violations() and d.events("passed")[-1]["data"] == {"hand": 1, "trick": 1, "seat": "E"}


def test_the_clocks_run_only_once_every_device_is_back():
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    camera(d, "lost", reason="frames")
    presence(d, "board", "offline")
    camera(d, "online")
    back = d.events()[-1]
    assert (back["kind"], back["data"]) == ("camera_back", {"held": True}) and d.state()["paused"]
    assert d.table.clock.deadline() is None
    presence(d, "board", "online", dt=10.0)
    assert (d.events()[-1]["kind"], d.events()[-1]["data"]) == ("board_back", {})
    assert not d.state()["paused"] and d.table.clock.deadline() == d.at + 29.0
    said = [e["kind"] for e in d.events() if e["kind"].startswith(("camera_", "board_"))]
    assert said == ["camera_lost", "board_offline", "camera_back", "board_back"] and set(said) <= PRESENCE_EVENTS


def test_late_arrival_waits_while_the_board_is_down():
    """001 二: 迟到判罚: 5分钟之内警告 … 21分钟以上判该轮弃权 -- W cannot press ``ready`` while the board is down:
    the 40 minutes it is down do not count, and W's press 30 s after it answers again is in the first minute."""
    d = Driver()
    start = arrive(d, {"S": "0:05", "N": "0:05", "E": "0:06"})
    presence(d, "board", "offline", dt=start + 30 - d.at)
    assert d.table.next_deadline() is None or d.table.next_deadline() > d.at + 3600
    d.send("clock", {}, dt=40 * 60)
    assert not d.payloads("violations", "late_arrival") and d.table.phase == "arriving"
    presence(d, "board", "online", dt=0.0)
    assert d.table.next_deadline() == d.at + 30.0  # the first minute's end, 30 s of it already gone
    d.send("board/in", {"seat": "W", "button": "ready"}, dt=29.0)
    assert not d.payloads("violations", "late_arrival") and d.payloads("events", "ready")[-1]["data"]["minutes_late"] == 0.0
    assert d.table.phase == "dealing"


def test_a_round_started_with_its_board_down_counts_lateness_from_when_it_answers():
    """001 二: 5分钟之内警告 -- counted from when the seats could first press ``ready``."""
    d = Driver()
    presence(d, "board", "lost")
    start = arrive(d, {})
    d.send("clock", {}, dt=600.0)
    assert not d.payloads("violations", "late_arrival")
    presence(d, "board", "online", dt=0.0)
    d.send("clock", {}, dt=60.5)
    late = d.payloads("violations", "late_arrival")  # nobody pressed: both sides are late, by 60.5 s, not 660.5 s
    assert [(v["penalty"]["warning"], v["evidence"]["seconds"]) for v in late] == [(True, 60.5)] * 2
    assert d.at - start == 660.5
