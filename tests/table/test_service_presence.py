"""The table service heeds its camera's and its board's presence (``camera/status``, ``board/status``): a real
mosquitto, the hall's ACL, the real service on an injected clock, each device's own broker user publishing its
retained presence.

002 十二 第3条 (一副牌只允许有一次30秒的长考时间，其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次
出牌权) is the rule at stake: a turn must not be given up while no camera can see whether the seat played."""

from __future__ import annotations

import json

from bus.protocol import encode, topic
from referee.table.deadlines import RULE_LAG_S
from referee.table.log import EventLog
from referee.table.tables import new_table
from referee.table.timeline import timeline

from .test_service import PLAYERS, WAIT_S, Clock, Table, connector

GD = "sanjiang-2012"


def presence(conn, status: str, device: str = "camera", **more) -> None:
    """The device says its presence, retained, as ``vision watch`` and ``cardtable bridge run`` do."""
    payload = {"v": 1, "status": status} | ({"camera": "cam-t1"} if device == "camera" else {}) | more
    conn.publish(topic("t1", f"{device}/status"), encode(f"{device}/status", payload), qos=1, retain=True)


def test_a_lost_camera_holds_the_clocks_across_a_restart_and_its_return_runs_them_again(fresh_broker, tmp_path,
                                                                                     table_watch, until):
    clock = Clock()
    connect, close_all = connector(fresh_broker)
    t = Table(fresh_broker, connect, "t1", tmp_path / "t1.db", clock, table_watch("t1", wait_s=WAIT_S), GD)
    camera = connect("camera-t1", clean_start=True)

    def looked() -> bool:
        """The service's worker came round its loop (and looked at its deadlines) since now."""
        beat = t.service._beat
        return until(lambda: t.service._beat > beat) and until(lambda: t.service._beat > beat + 0.5)

    def kinds() -> list[str]:
        return [e.kind for e in t.service.log.entries()]

    try:
        presence(camera, "online")  # before the service starts: the retained presence reaches it at start
        t.start()
        assert until(lambda: t.service._presence["camera"] == "online") and kinds() == ["presence"]
        t.seq += 1  # the camera entry is the log's first
        t.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": GD})
        t.send("commands", {"command": "start_round"})
        for seat in "SENW":
            t.send("board/in", {"seat": seat, "button": "ready"})
        led = t.send("board/in", {"seat": "S", "button": "ready"})  # S leads, on its 30 s
        start = led["at"]
        clock.now = start + 5.0
        presence(camera, "lost", reason="markers", since=start + 1.0)
        lost = t.watch.wait("events", lambda e: e["kind"] == "camera_lost")
        t.seq += 1
        assert lost["data"] == {"status": "lost", "reason": "markers"} and lost["at"] == start + 5.0
        state = t.watch.wait("state", lambda s: s["paused"])
        assert state["clocks"]["S"] == {"left": 25.0, "running": False, "long_think": True}
        assert t.watch.wait("board/out", lambda b: b["paused"])["seats"]["S"]["clock"] == 25.0

        clock.now = start + 300.0  # five minutes with no camera: S's deadline would have passed long ago
        assert looked()
        marker = t.send("board/in", {"seat": "E", "button": "pass"}, at=start + 300.0)  # not E's turn: refused, no change
        assert marker["turn"] == "S" and marker["paused"] and not t.watch.of("violations")
        assert "clock" not in kinds()

        logged = kinds()
        t.stop()  # a restart: the camera's retained presence comes again, and is logged once only
        t.start()
        assert t.service.table.presence_of("camera") == "lost" and looked() and kinds() == logged
        again = t.send("board/in", {"seat": "E", "button": "pass"}, at=start + 301.0)
        assert again["paused"] and again["clocks"]["S"]["left"] == 25.0

        clock.now = start + 400.0
        presence(camera, "online")
        t.watch.wait("events", lambda e: e["kind"] == "camera_back")
        t.seq += 1
        back = t.watch.wait("state", lambda s: s["at"] == start + 400.0 and not s["paused"])
        assert back["clocks"]["S"] == {"left": 25.0, "running": True, "long_think": True}
        assert t.service.table.next_deadline() == start + 425.0
        clock.now = start + 425.0 + RULE_LAG_S + 0.25  # S silent for its 25 s left: given up now, by its own seconds only
        v = t.watch.wait("violations", lambda p: p["kind"] == "overtime")
        assert (v["seat"], v["penalty"]["forfeit"], v["evidence"]["seconds"]) == ("S", "turn", 30.0 + RULE_LAG_S + 0.25)
        assert [e.payload["status"] for e in t.service.log.entries() if e.kind == "presence"] == ["online", "lost", "online"]
        logged = kinds()
        t.stop()
        presence(camera, "lost", reason="frames")  # a blink while the service is away: nothing kept for it
        presence(camera, "online")
        assert camera.flush(WAIT_S)
        t.start()
        assert looked() and kinds() == logged and t.service.table.presence_of("camera") == "online"
        t.stop()
        lines = list(timeline(t.db, "zh"))
        assert any("摄像机看不到牌桌（看不全桌角标记），计时暂停" in line for line in lines)
        assert any("摄像机又看到牌桌，计时继续" in line for line in lines)
    finally:
        t.stop(settle=False)
        close_all()


def test_a_presence_that_breaks_the_contract_is_rejected_and_changes_nothing(fresh_broker, tmp_path, table_watch):
    clock = Clock()
    connect, close_all = connector(fresh_broker)
    t = Table(fresh_broker, connect, "t1", tmp_path / "t1.db", clock, table_watch("t1", wait_s=WAIT_S), GD)
    camera, board = connect("camera-t1", clean_start=True), connect("board-t1", clean_start=True)
    try:
        t.start()
        for raw in (b"{", json.dumps({"v": 1, "status": "asleep"}).encode(), json.dumps({"v": 2, "status": "lost"}).encode()):
            camera.publish(topic("t1", "camera/status"), raw, qos=1)
        board.publish(topic("t1", "board/status"), json.dumps({"v": 1, "status": "lost", "reason": "x"}).encode(), qos=1)
        t.watch.wait("events", lambda e: len([x for x in t.watch.of("events") if x["kind"] == "rejected"]) == 4)
        rejected = [e["data"] for e in t.watch.of("events") if e["kind"] == "rejected"]
        assert sorted(d["topic"] for d in rejected) == ["board/status"] + ["camera/status"] * 3  # two senders: any order
        assert all(d["reason"] for d in rejected)
        assert [e.kind for e in t.service.log.entries()] == [] and t.service.table.presence == ()
        presence(camera, "offline")
        t.watch.wait("events", lambda e: e["kind"] == "camera_offline")
        presence(board, "lost", "board", board="board3", boot=7)
        t.watch.wait("events", lambda e: e["kind"] == "board_lost")
        assert [e.payload for e in t.service.log.entries()] == [{"v": 1, "device": "camera", "status": "offline"},
                                                                {"v": 1, "device": "board", "status": "lost"}]
    finally:
        t.stop(settle=False)
        close_all()


def test_a_board_that_restarted_is_told_once_and_never_again(fresh_broker, tmp_path, table_watch, until):
    """A board that restarted may have lost a press made meanwhile: a ``ready`` (002 十 第1条 迟到), a pass (002 十二
    第3条: 其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次出牌权, a pass not heard is a turn given up),
    a call. No seed speaks of boards: decided, a boot other than the last one logged is told to the referee
    (``board_restarted``) once, a notice that rules nothing; the first boot heard, and a boot said again (its
    retained status at a restart, a board back with the same boot), say nothing."""
    clock = Clock()
    connect, close_all = connector(fresh_broker)
    t = Table(fresh_broker, connect, "t1", tmp_path / "t1.db", clock, table_watch("t1", wait_s=WAIT_S), GD)
    board = connect("board-t1", clean_start=True)

    def says(status: str, boot: int | None = None) -> None:
        presence(board, status, "board", **({"board": "board3", "firmware": "2.0.0", "boot": boot} if boot else {}))

    def told(kind: str, n: int) -> list[dict]:
        """Once the table has published its ``n``-th event of ``kind``: its ``board_restarted`` events."""
        assert t.watch.wait("events", lambda e: len([x for x in t.watch.of("events") if x["kind"] == kind]) >= n)
        return [e for e in t.watch.of("events") if e["kind"] == "board_restarted"]

    def boots() -> list:
        return [(e.payload["status"], e.payload.get("boot")) for e in t.service.log.entries() if e.kind == "presence"]

    try:
        says("online", 31)  # retained before the service starts: the first boot it hears is no restart
        t.start()
        assert until(lambda: boots() == [("online", 31)])
        t.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": GD})
        clock.now += 10.0
        says("online", 31)  # the bridge's birth again (it reconnected): the same boot
        says("online", 32)  # the board restarted while online (its status never left online)
        (restarted,) = told("board_restarted", 1)
        assert restarted["data"] == {"boot": 32} and restarted["at"] == clock.now
        assert boots() == [("online", 31), ("online", 32)] and not t.watch.of("violations")
        says("offline")  # the bridge stopped, then came back with the board in the same boot
        says("online", 32)
        says("lost")
        says("online", 32)
        assert len(told("board_back", 2)) == 1
        assert t.service.table.boot == 32 and not t.service.table.down

        logged = boots()
        t.stop()  # a restart: the retained boot 32 comes again, and is neither logged nor told again
        t.start()
        says("lost")  # a marker after it on the same session
        assert len(told("board_lost", 2)) == 1 and boots() == logged + [("lost", None)]
        says("online", 33)  # restarted while it did not answer: told when it answers
        assert [e["data"] for e in told("board_back", 3)] == [{"boot": 32}, {"boot": 33}]
        t.stop()
        says("online", 34)  # restarted while the service was away: the log knows the boot before
        assert board.flush(WAIT_S)
        t.start()
        assert [e["data"] for e in told("board_restarted", 3)] == [{"boot": 32}, {"boot": 33}, {"boot": 34}]

        t.stop()  # the log replayed from scratch tells the same, at the same entries
        table, replayed = new_table("t1", GD), []
        with EventLog.open(t.db) as log:
            for e in log.entries():
                table, outputs = table.apply(e.kind, e.payload, e.at, e.seq)
                replayed += [o.payload for o in outputs if o.payload.get("kind") == "board_restarted"]
        assert replayed == told("board_restarted", 3)
        lines = list(timeline(t.db, "zh"))
        assert sum("显示板重启了（第 32 次启动）：重启时按下的键可能丢失，请核对" in line for line in lines) == 1
    finally:
        t.stop(settle=False)
        close_all()


def test_the_last_presence_of_a_flapping_camera_is_the_tables_however_fast_it_came(fresh_broker, tmp_path, table_watch):
    """A camera that says ``lost`` 300 times in a burst (flapping, or a hostile sender) and then ``online``: the
    presence messages over its pace were dropped like any input, the ``online`` with them (unless its pace had just
    let one more in), and the table took the camera as lost for good (its clocks standing still, its health saying
    nothing), though the camera was online. Now a presence over its pace is kept until the worker takes it, the next
    replacing it: the last one said is the table's, every time."""
    clock = Clock()
    connect, close_all = connector(fresh_broker)
    t = Table(fresh_broker, connect, "t1", tmp_path / "t1.db", clock, table_watch("t1", wait_s=WAIT_S), GD)
    lost = encode("camera/status", {"v": 1, "status": "lost", "reason": "markers", "since": clock.now})
    online = encode("camera/status", {"v": 1, "status": "online"})
    try:
        t.start(trust_senders=False)  # its senders' pace limited, as ``cardtable table run``'s
        camera = t.conns["observed"]  # the camera's one connection (a second of its user would take it over)
        for n in range(1, 4):
            for raw in [lost] * 300 + [online]:  # at QoS 0: a burst as it comes, no window of messages in flight
                camera.publish(topic("t1", "camera/status"), raw, qos=0, retain=True)
            t.watch.wait("events", lambda e: len([x for x in t.watch.of("events") if x["kind"] == "camera_back"]) == n)
            assert [e.payload["status"] for e in t.service.log.entries()] == ["lost", "online"] * n
            assert t.service.table.presence_of("camera") == "online"
    finally:
        t.stop(settle=False)
        close_all()
