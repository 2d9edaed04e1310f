"""Whole hands through the whole path: the simulator's bots (camera, board, console) publish to a real
mosquitto, the table service judges and publishes, a console watches. One hand with the service
in-process and the simulator run as ``cardtable table simulate``; one hand with the service as a
real process (``cardtable table run``) killed with SIGKILL three times in the middle (between
inputs, while an input waits on the broker, and while one is in flight) and restarted; and the
hand's log through ``cardtable table replay``.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import re
import threading
import time

import pytest

from cardtable import cli
from referee.catalogue.sentences import face
from referee.table.log import EventLog
from referee.table.service import TableService
from referee.table.simulate import PLAYERS, Simulator
from referee.table.tables import new_table

TABLES = ["p1", "p2"]
CONSOLE = "console"
RULEBOOK = "classic-3deck"
SEED = 1  # a hand with slow plays and unsure reads (the simulator is deterministic for a seed)
WAIT_S = 30.0  # the longest a wait for what must come (generous: a loaded machine)
SEAT_ZH = {"S": "南", "E": "东", "N": "北", "W": "西"}


# ---------------------------------------------------------------- one hand, service in-process


@pytest.fixture(scope="module")
def played(broker, tmp_path_factory, table_watch):
    """One hand at table p1: the service in-process (its own clock), ``cardtable table simulate``."""
    db = tmp_path_factory.mktemp("p1") / "p1.db"
    watch = table_watch("p1", broker, WAIT_S)
    start = time.time()
    service = TableService("p1", RULEBOOK, broker.url("table-p1"), db, clock=lambda: start, trust_senders=True).start()
    out = io.StringIO()
    began = time.monotonic()
    try:
        with contextlib.redirect_stdout(out):
            code = cli.main(["table", "simulate", "--table", "p1", "--rulebook", RULEBOOK,
                             "--broker", broker.url(CONSOLE), "--camera", broker.url("camera-p1"),
                             "--board", broker.url("board-p1"), "--console", broker.url(CONSOLE),
                             "--hands", "1", "--seed", str(SEED)])
    finally:
        service.stop()
        watch.close()
    return {"code": code, "out": out.getvalue(), "watch": watch, "db": db, "seconds": time.monotonic() - began}


def test_a_simulated_hand_end_to_end(played):
    assert played["code"] == 0, played["out"]
    watch = played["watch"]
    events = watch.of("events")
    kinds = [e["kind"] for e in events]
    for kind in ("play_accepted", "trick_won", "hand_played", "hand_scored", "levels_changed"):
        assert kind in kinds
    assert "rejected" not in kinds
    # Every card of every hand was played and accepted, and the state counted them down.
    plays = [e["data"] for e in events if e["kind"] == "play_accepted"]
    assert {s: sum(len(p["cards"]) for p in plays if p["seat"] == s) for s in "SENW"} == dict.fromkeys("SENW", 39)
    hand = [s for s in watch.of("state") if s["hand"] == 1 and s["phase"] in ("kitty", "playing", "hand_over")]
    for seat in "SENW":
        counts = [s["cards"][seat] for s in hand]
        assert counts[0] == 39 and counts[-1] == 0
        assert all(a >= b for a, b in itertools.pairwise(counts))
        assert len(set(counts)) > 5  # down play by play
    # Slow plays tripped the shot clock (a warning first, then points); unsure reads were flagged
    # and confirmed from the console.
    clock = [v for v in watch.of("violations") if v["kind"] == "overtime"]
    assert clock and clock[0]["penalty"]["warning"] and clock[0]["evidence"]["seconds"] > clock[0]["evidence"]["limit"]
    raised = [e["data"] for e in events if e["kind"] == "flag_raised"]
    assert raised and all(f["kind"] == "unsure" for f in raised)
    resolved = [e["data"] for e in events if e["kind"] == "flag_resolved"]
    assert [f["flag"] for f in resolved] == [f["flag"] for f in raised]
    with EventLog.open(played["db"]) as log:
        confirms = [e for e in log.entries() if e.kind == "commands" and e.payload["command"] == "confirm"]
    assert len(confirms) == len(raised)
    assert "第 1 盘结算" in played["out"] and "共 1 盘" in played["out"]


def test_replay_shows_every_accepted_play(played, capsys):
    """Each accepted play is a sentence with its seat, the player's name and the card faces, under its input."""
    plays = [e for e in played["watch"].of("events") if e["kind"] == "play_accepted"]
    assert cli.main(["table", "replay", str(played["db"])]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("牌桌 p1 事件日志")
    assert len(re.findall(r"[├└] 第 \d+ 盘第 \d+ 圈：", out)) == len(plays)
    for e in plays:
        d = e["data"]
        who, cards = f"{SEAT_ZH[d['seat']]} {PLAYERS[d['seat']]}", " ".join(face(c, "zh") for c in d["cards"])
        assert f"第 {d['hand']} 盘第 {d['trick']} 圈：{who} 出 {cards}" in out
        # under its input: the camera's read, or the console's confirm of an unsure read
        assert f"#{e['seq']}  摄像 {who} {cards}" in out or re.search(rf"#{e['seq']}  指令 确认第 \d+ 号标记", out)
    assert "超时（已确认）" in out and "第 1 盘结算" in out
    assert "{" not in out and "play_accepted" not in out
    assert cli.main(["table", "replay", str(played["db"]), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert len(re.findall(r"[├└] hand \d+ trick \d+: ", out)) == len(plays)
    for e in plays:
        d = e["data"]
        cards = " ".join(face(c, "en") for c in d["cards"])
        assert f"hand {d['hand']} trick {d['trick']}: {d['seat']} ({PLAYERS[d['seat']]}) plays {cards}" in out


def test_a_replay_of_what_is_not_an_event_log_is_refused_and_changes_nothing(played, tmp_path, capsys):
    """A replay reads only: an empty file was made an event log by it, and another database got its tables."""
    import sqlite3

    empty, text, other = tmp_path / "t1.db", tmp_path / "t2.jsonl", tmp_path / "t3.db"
    empty.write_bytes(b"")
    text.write_text('{"not": "a log"}\n')
    with contextlib.closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE standings (entry TEXT)")
    before = {p: p.read_bytes() for p in (empty, text, other)}
    for path in before:
        assert cli.main(["table", "replay", str(path)]) == 2
        assert f"{path} 不能当作事件日志读取，什么都没改" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in before} == before and sorted(tmp_path.iterdir()) == sorted(before)
    log, beside = played["db"].read_bytes(), set(played["db"].parent.glob(played["db"].name + "-*"))
    assert cli.main(["table", "replay", str(played["db"]), "--lang", "en"]) == 0
    assert played["db"].read_bytes() == log  # a real log read, not written
    assert set(played["db"].parent.glob(played["db"].name + "-*")) == beside  # nor a -shm or -wal left beside it


# ---------------------------------------------------------------- kill -9, as a real process


def test_kill_9_mid_hand_loses_nothing(broker, tmp_path, table_watch, service_process):
    db = tmp_path / "p2.db"
    watch = table_watch("p2", broker, WAIT_S)
    service = service_process(broker, "p2", RULEBOOK, db, tmp_path / "service.log", WAIT_S, trust_senders=True)
    service.start()
    done: dict[str, object] = {}
    killer: list[threading.Thread] = []

    def states() -> int:
        return len(watch.of("state"))

    def kill_and_restart() -> None:
        service.kill()
        service.start()

    def hook(n: int, name: str, payload: dict) -> None:
        if n == 50:  # between two inputs: the state after the restart is the state before the kill
            before = watch.wait("state", lambda s: s["seq"] == n - 1)
            assert before["phase"] == "playing" and 0 < sum(before["cards"].values()) < 156
            count = states()
            service.kill()
            watch.wait("status", lambda s: s["status"] == "offline")
            service.start()
            after = watch.wait("state", lambda s: states() > count)
            assert {k: v for k, v in after.items() if k != "at"} == {k: v for k, v in before.items() if k != "at"}
            assert after == before  # made at the last entry's time: the same to the second
            done["equal"] = after["seq"]
        elif n == 75:  # dead while this input is published: the broker keeps it for the service
            service.kill()
            service.start()
            done["queued"] = n
        elif n == 100:  # killed a moment after this input is published: in flight, or just logged
            killer.append(threading.Timer(0.002, kill_and_restart))
            killer[0].start()
            done["in_flight"] = n

    try:
        watch.wait("status", lambda s: s["status"] == "online")
        sim = Simulator("p2", RULEBOOK, broker.url(CONSOLE), camera=broker.url("camera-p2"),
                        board=broker.url("board-p2"), hands=1, seed=SEED + 1, wait_s=20.0, before_send=hook)
        summary = sim.run()
        for thread in killer:
            thread.join()
        assert done == {"equal": 49, "queued": 75, "in_flight": 100}
        assert summary.hands == 1 and service.starts == 4
        # Every input the bots sent is in the log once, applied once, in the order sent.
        with EventLog.open(db) as log:
            entries = list(log.entries())
        assert len(entries) == summary.inputs
        assert [e.seq for e in entries] == list(range(1, summary.inputs + 1))
        final = watch.wait("state", lambda s: s["seq"] == summary.inputs)
        assert final["hand"] == 2 and final["phase"] == "dealing"
        scored = [e for e in watch.of("events") if e["kind"] == "hand_scored"]
        assert [e["data"]["hand"] for e in scored] == [1]
        # Every ruling the log implies reached the broker, the in-flight input's included.
        implied, table = set(), new_table("p2", RULEBOOK)
        for e in entries:
            table, outputs = table.apply(e.kind, e.payload, e.at, e.seq)
            implied |= {(o.name, json.dumps(o.payload, sort_keys=True)) for o in outputs}
        received = {(n, json.dumps(p, sort_keys=True)) for n in ("events", "violations") for p in watch.of(n)}
        assert implied and implied <= received
        assert service.stop() == 0
        watch.wait("status", lambda s: s["status"] == "offline" and "at" in s)  # a clean stop, not the will
    finally:
        if service.proc and service.proc.poll() is None:
            service.proc.kill()
            service.proc.wait()
        watch.close()
