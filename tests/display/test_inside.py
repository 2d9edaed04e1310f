"""A running table's problem is the console's alone (a real ``cardtable table run``, mosquitto, the display served by
uvicorn): another program holds the table's log's write lock as a press comes, and the service's health names the
problem in the words of its logs ("logging inputs fails: OperationalError: database is locked"), as data and said;
the display passed it all to its public API, /api/hall, /api/tables/{table} and the stream (the health, and
``live.why``), which the hall's big screen and anyone in the hall read. Now the public hear that the health names a
problem (``problem: true``) and that the table is stalled (无响应 on the pages), no more; a logged-in console reads the
problem at /api/console/tables, a visitor without a login is refused there (401). These are the console's own rules,
not a rulebook's: no seed article speaks of logins or of what the public may read."""

from __future__ import annotations

import json
import sqlite3
import time
import uuid

import httpx
from kit import REFEREE, served

from bus.mqtt import Connection
from bus.protocol import encode, topic

TABLES = ["i1"]
SECRETS = ("OperationalError", "locked", "problem_why", "i1.db", "记不进", "锁住", "logging", '"why"')


def health(lines, told, within_s: float = 30.0) -> str:
    """The stream's next health event of i1 that ``told`` of its data (as sent), within ``within_s``."""
    deadline = time.monotonic() + within_s
    for line in lines:
        if line.startswith('data: {"type":"health","table":"i1"') and told(json.loads(line[6:])["data"]):
            return line[6:]
        assert time.monotonic() < deadline, "no such health of i1"
    raise AssertionError("the stream ended")


def test_the_public_hear_that_a_table_has_a_problem_and_the_console_which(broker, tmp_path, service_process):
    db = tmp_path / "i1.db"
    proc = service_process(broker, "i1", "classic-3deck", db, tmp_path / "i1.log")
    proc.start()
    board = Connection(broker.url("board-i1"), f"board-i1-{uuid.uuid4().hex[:6]}", clean_start=True).connect()
    try:
        with served(broker, tmp_path / "console.db") as server, httpx.Client(base_url=server.url, timeout=30) as anyone:
            with anyone.stream("GET", "/api/stream") as stream:
                lines = stream.iter_lines()
                assert next(lines) == "event: snapshot"
                health(lines, lambda h: not h["problem"])  # the service refereeing: its log open
                holder = sqlite3.connect(db, isolation_level=None)
                holder.execute("BEGIN IMMEDIATE")
                try:
                    press = {"v": 1, "id": f"b-{uuid.uuid4().hex[:6]}", "seat": "N", "button": "referee", "at": time.time()}
                    board.publish(topic("i1", "board/in"), encode("board/in", press))
                    heard = health(lines, lambda h: h["problem"])
                    view = anyone.get("/api/tables/i1").json()
                    assert view["health"]["problem"] is True and view["live"]["stalled"], view
                    bodies = [heard, anyone.get("/api/hall").text, json.dumps(view)]
                    with anyone.stream("GET", "/api/stream") as again:
                        more = again.iter_lines()
                        assert next(more) == "event: snapshot"
                        bodies.append(next(more))
                    for body in bodies:
                        assert str(tmp_path) not in body and not any(s in body for s in SECRETS), body
                    assert anyone.get("/api/console/tables").status_code == 401
                    with httpx.Client(base_url=server.url, timeout=30, headers={"Origin": server.url}) as console:
                        login = {"user": REFEREE[0], "password": REFEREE[1]}
                        assert console.post("/api/login", json=login).status_code == 200
                        (inside,) = console.get("/api/console/tables").json()
                finally:
                    holder.execute("ROLLBACK")
                    holder.close()
        problem = inside["problem"]
        assert inside["table"] == "i1" and inside["not_started"] is None, inside
        assert "database is locked" in problem["problem"] and inside["stalled"] == problem["problem"]
        assert problem["problem_why"]["key"] == "logging_fails" and problem["say"]["zh"].startswith("输入记不进日志")
    finally:
        board.close()
        proc.reap()
