"""The hall's referee at the real console: a read the table flags is looked at (the cards on the
physical table) and corrected through the console's web API; the table applies the cards as they
are, and the console's audit log has the referee's ruling."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import httpx

from bus.broker import free_port
from bus.protocol import encode, topic
from hall import scene
from hall.referee_bot import RefereeBot

TABLES = ["t1"]


def cardtable(*args: str, env: dict | None = None, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cardtable", *args], env={**os.environ, **(env or {})},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)


def test_a_flagged_misread_is_corrected_at_the_console(tmp_path, broker, connect, inbox):
    db, port = tmp_path / "console.db", free_port()
    subprocess.run([sys.executable, "-m", "cardtable", "display", "user", "--db", str(db), "--user", "ref",
                    "--role", "referee"], env={**os.environ, "CARDTABLE_PASSWORD": "s3cret-pass"}, check=True)
    service = cardtable("table", "run", "--table", "t1", "--rulebook", "classic-3deck", "--broker",
                        broker.url("table-t1"), "--db", str(tmp_path / "t1.db"))
    display = cardtable("display", "serve", "--db", str(db), "--port", str(port), "--broker", broker.address,
                        "--credentials", str(broker.write_credentials(tmp_path / "credentials", ["scoreboard", "console"])))
    referee = None
    try:
        states, events = inbox(), inbox()
        reader = connect("scoreboard-2")  # the display is the scoreboard and the console
        reader.subscribe(topic("t1", "state"), states)
        reader.subscribe(topic("t1", "events"), events)
        states.wait_for(lambda t, p: True, timeout=30)  # the service is up
        console, camera, board = connect("console-2"), connect("camera-t1"), connect("board-t1")

        def send(conn, name: str, payload: dict) -> None:
            conn.publish(topic("t1", name), encode(name, {"v": 1, "id": f"x-{time.time_ns()}", **payload}), qos=1)

        def state_where(check) -> dict:
            _, raw = states.wait_for(lambda t, p: check(json.loads(p)), timeout=30)
            return json.loads(raw)

        send(console, "commands", {"command": "assign", "players": {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"},
                                   "rulebook": "classic-3deck"})
        state_where(lambda s: s["players"]["S"] == "王芳")  # one input at a time: they come on three connections
        send(console, "commands", {"command": "start_round"})
        state_where(lambda s: s["phase"] == "arriving")
        for seat in "SENW":
            send(board, "board/in", {"seat": seat, "button": "ready", "at": time.time()})
        state_where(lambda s: s["phase"] == "dealing")
        # S shows the level card S2 to declare; the camera is unsure and reads S3.
        (tmp_path / "t1").mkdir()
        laid = scene.Table().laid("S", ["S2"], time.time())
        scene.append(tmp_path / "t1" / "scene.jsonl", laid)
        send(camera, "observed", {"seat": "S", "cards": ["S3"], "confidence": 0.5, "at": time.time()})
        flagged = state_where(lambda s: s["flags"])["flags"][0]
        assert flagged["cards"] == ["S3"] and flagged["seat"] == "S"
        deadline = time.monotonic() + 30
        while not _up(port):
            assert time.monotonic() < deadline, "cardtable display serve did not start"
            time.sleep(0.2)
        said: list[str] = []
        referee = RefereeBot(f"http://127.0.0.1:{port}", "ref", "s3cret-pass", tmp_path, said.append)
        deadline = time.monotonic() + 30
        while not said:  # the console sees the flag once its feed has the table's state
            assert time.monotonic() < deadline, "the referee never ruled"
            referee.step()
            time.sleep(0.2)
        number = flagged["flag"][1:]  # the flag is named by the log entry that raised it
        assert referee.counts == {"confirm": 0, "correct": 1, "dismiss": 0} and said == [f"裁判 ref 将 t1 桌第 {number} 号标记更正为 ♠2"]
        # The table applies the declaration as the cards really are.
        events.wait_for(lambda t, p: json.loads(p)["kind"] == "declared" and "S2" in p.decode(), timeout=30)
        assert not state_where(lambda s: s["seq"] >= 8)["flags"]
        login = httpx.post(f"http://127.0.0.1:{port}/api/login", json={"user": "ref", "password": "s3cret-pass"}, timeout=30)
        audit = httpx.get(f"http://127.0.0.1:{port}/api/console/audit", cookies=login.cookies, timeout=30)
        assert any(a["action"] == "correct" and a["user"] == "ref" for a in audit.json()), audit.text
    finally:
        if referee is not None:
            referee.close()
        for proc in (display, service):
            proc.terminate()
            proc.wait(15)


def _up(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False
