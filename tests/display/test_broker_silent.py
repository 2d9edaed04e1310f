"""The display and a broker it cannot hear without being told: frozen (SIGSTOP), or its link cut without a word
(``tests/cutlink.py``). The display kept ``feed`` and ``commands`` true for 45 s and answered a command 200 that reached
the table a minute later, when the broker came back. Now it says so within seconds (``bus.mqtt``'s ``hears``, the
table services' own), refuses every command meanwhile (503, in words), and none of them reaches the table afterwards.
And a table cleared on the broker (its retained ``state`` deleted: an empty retained payload) leaves the hall."""

from __future__ import annotations

import json
import os
import signal
import time

from cutlink import CutLink
from dataclasses import replace

from fastapi.testclient import TestClient
from kit import ORGANISER, make_db, settings, state

from bus.mqtt import Connection
from bus.protocol import encode, topic
from display.app import create_app

FREEZE_S = 8.0  # past the display's keepalive (5 s): paho ends its connections and tries again meanwhile
SAID_WITHIN_S = 5.0  # a probe after 1 s of silence, unanswered 2 s, looked at every 0.5 s


def _client(app) -> TestClient:
    return TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"})


def _live(broker) -> tuple[Connection, list[str]]:
    """t1 as its service: its state retained, and the ids of the commands it receives."""
    t1, got = Connection(broker.url("table-t1"), clean_start=True).connect(), []
    t1.subscribe(topic("t1", "commands"), lambda _t, raw: got.append(json.loads(raw)["id"]))
    assert t1.wait_subscribed(10)
    t1.publish(topic("t1", "state"), encode("state", state()), retain=True)
    assert t1.flush(10)
    return t1, got


def _reaches(got: list[str], cid: str) -> None:
    deadline = time.monotonic() + 10
    while cid not in got:
        assert time.monotonic() < deadline, f"the command {cid} did not reach the table"
        time.sleep(0.05)


def _deaf_then_mended(c: TestClient, got: list[str], mend) -> None:
    """From a cut made just before: every command refused in words, the hall not live within ``SAID_WITHIN_S``; after
    ``mend()`` the link is heard again, and only the command sent then reaches the table."""
    cut, refused = time.monotonic(), []
    while time.monotonic() - cut < FREEZE_S:
        r = c.post("/api/console/tables/t1/commands", json={"command": "last_hand"})
        assert r.status_code == 503, (round(time.monotonic() - cut, 1), r.text)
        assert r.json()["detail"].startswith("显示服务与消息服务器的连接中断：这项操作没有发给牌桌")
        refused.append(r)
        hall = c.get("/api/hall").json()
        if hall["feed"] or hall["commands"]:
            assert time.monotonic() - cut < SAID_WITHIN_S, "the display still said it heard the broker"
        time.sleep(0.3)
    assert len(refused) >= 5
    mend()
    deadline = time.monotonic() + 30
    while not c.get("/api/hall").json()["commands"]:
        assert time.monotonic() < deadline, "the display did not hear the broker again"
        time.sleep(0.1)
    after = c.post("/api/console/tables/t1/commands", json={"command": "last_hand"})
    assert after.status_code == 200, after.text
    _reaches(got, after.json()["id"])
    time.sleep(1.0)  # anything kept from the cut would have come by now
    assert got[1:] == [after.json()["id"]], got  # the first: sent before the cut


def test_a_frozen_broker_is_said_within_seconds_and_no_command_waits_for_it(fresh_broker, tmp_path):
    app = create_app(settings(fresh_broker, make_db(tmp_path / "console.db")))
    t1, got = _live(fresh_broker)
    with _client(app) as c:
        assert c.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
        assert c.get("/api/hall").json()["commands"]
        before = c.post("/api/console/tables/t1/commands", json={"command": "last_hand"})
        assert before.status_code == 200, before.text
        _reaches(got, before.json()["id"])
        os.kill(fresh_broker.pid, signal.SIGSTOP)
        try:
            _deaf_then_mended(c, got, lambda: os.kill(fresh_broker.pid, signal.SIGCONT))
        finally:
            os.kill(fresh_broker.pid, signal.SIGCONT)
    t1.close()


def test_a_link_cut_without_a_word_is_said_within_seconds_and_no_command_waits_for_it(fresh_broker, tmp_path):
    with CutLink(fresh_broker.host, fresh_broker.port) as link:
        urls = settings(fresh_broker, make_db(tmp_path / "console.db"))
        app = create_app(replace(urls, broker_scoreboard=link.url(urls.broker_scoreboard),
                                 broker_console=link.url(urls.broker_console)))
        t1, got = _live(fresh_broker)
        with _client(app) as c:
            assert c.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
            _reaches(got, c.post("/api/console/tables/t1/commands", json={"command": "last_hand"}).json()["id"])
            link.cut()
            _deaf_then_mended(c, got, link.mend)
        t1.close()


def test_a_table_cleared_on_the_broker_leaves_the_hall(fresh_broker, tmp_path):
    """An empty retained ``state`` is the broker deleting it: the table leaves ``/api/tables`` and the pages (a
    ``cleared`` change), as it would on the display's restart; the other tables stay, and its status cleared after
    it brings nothing back."""
    app = create_app(settings(fresh_broker, make_db(tmp_path / "console.db")))
    t1, _ = _live(fresh_broker)
    t2 = Connection(fresh_broker.url("table-t2"), clean_start=True).connect()
    t2.publish(topic("t2", "state"), encode("state", state()), retain=True)
    assert t2.flush(10)
    changes = []
    with _client(app) as c:
        feed = app.state.ctx.feed
        hand = feed.on_change
        feed.on_change = lambda change: (changes.append(change), hand(change))
        deadline = time.monotonic() + 10
        while sorted(c.get("/api/tables").json()) != ["t1", "t2"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        t1.publish(topic("t1", "status"), encode("status", {"v": 1, "status": "offline"}), retain=True)
        t1.publish(topic("t1", "state"), b"", retain=True)
        t1.publish(topic("t1", "status"), b"", retain=True)
        assert t1.flush(10)
        deadline = time.monotonic() + 10
        while "t1" in c.get("/api/tables").json():
            assert time.monotonic() < deadline, "the cleared table stayed"
            time.sleep(0.05)
        time.sleep(0.5)
        assert sorted(c.get("/api/tables").json()) == ["t2"]
        assert c.get("/api/tables/t1").status_code == 404
        assert {"type": "cleared", "table": "t1"} in changes
    t1.close()
    t2.close()
