"""Why a table's service would not start is the console's alone (a real ``cardtable table run`` that refuses,
mosquitto, the display served by uvicorn): its retained ``status`` says why with the log's path (``reason``) and the catalogue's
key and values (``why``), and the display passed all of it to its public API, /api/hall, /api/tables/{table} and the
stream, which the hall's big screen and anyone in the hall read. Now the public hear that the table would not start
(``refused``: 未能启动 on the pages) and no more; a logged-in console asks why at /api/console/tables, a visitor
without a login is refused there (401). These are the console's own rules, not a rulebook's: no seed article speaks
of logins or of what the public may read."""

from __future__ import annotations

import json

import httpx
from kit import REFEREE, served

TABLES = ["n1"]
SECRETS = ('"reason"', '"why":{', '"say"', "n1.db", "database", "数据库")  # why, in any form (live's why: null)


def test_the_public_hear_that_a_table_would_not_start_and_the_console_why(broker, tmp_path, service_process):
    db = tmp_path / "n1.db"
    db.write_bytes(b"this is no database, only words " * 64)
    with served(broker, tmp_path / "console.db") as server, httpx.Client(base_url=server.url, timeout=30) as anyone:
        with anyone.stream("GET", "/api/stream") as stream:
            lines = stream.iter_lines()
            assert next(lines) == "event: snapshot"
            proc = service_process(broker, "n1", "classic-3deck", db, tmp_path / "n1.log")
            proc.start()
            try:
                assert proc.proc.wait(30) != 0
            finally:
                proc.reap()
            heard = next(line[6:] for line in lines if line.startswith('data: {"type":"status","table":"n1"'))
        assert json.loads(heard)["data"] | {"at": 0} == {"v": 1, "status": "offline", "at": 0, "refused": True}
        with anyone.stream("GET", "/api/stream") as stream:
            lines = stream.iter_lines()
            assert next(lines) == "event: snapshot"
            snapshot = next(lines)
        view = anyone.get("/api/tables/n1").json()
        assert (view["status"], view["refused"]) == ("offline", True)
        for body in (heard, snapshot, anyone.get("/api/hall").text, anyone.get("/api/tables/n1").text):
            assert str(tmp_path) not in body and not any(s in body for s in SECRETS), body
        assert anyone.get("/api/console/tables").status_code == 401
        console = httpx.Client(base_url=server.url, timeout=30, headers={"Origin": server.url})
        assert console.post("/api/login", json={"user": REFEREE[0], "password": REFEREE[1]}).status_code == 200
        (inside,) = console.get("/api/console/tables").json()
        told = inside["not_started"]
        assert inside["table"] == "n1" and str(db) in told["reason"] and told["why"]["key"] and inside["problem"] is None
        assert told["say"]["zh"].startswith("未能启动：") and told["say"]["en"].startswith("would not start: ")
        console.close()
