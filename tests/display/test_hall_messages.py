"""What a hostile device in the hall, or a service half dead on a bad evening, publishes on a table's topics, and the
display (the app over HTTP, on a real mosquitto) never showing the table healthier than it is (the s52 attacker
audit):

- A table whose service stopped telling its health, while malformed ones keep coming on its topic (a wrong schema
  version, a field of no schema, not JSON, a retained one), goes stalled within three of its health periods: each
  such message is ignored and said in the log, and none counts as news of the table.
- The table's camera or board, whose broker users are on a computer in the hall, cannot say the table is online or
  healthy: the broker refuses their publishing on the table's topics (``Not authorized``), and the display hears
  nothing of it.

These are the bus's own rules (``bus/PROTOCOL.md``), not a rulebook's: no seed article speaks of messages."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient
from kit import make_db, settings, state

from bus.protocol import topic
from display.app import create_app

TABLES = ["m1"]
EVERY = 0.5  # the health's period: stalled after three of them without one


def health(**changes) -> dict:
    return {"v": 1, "at": time.time(), "every": EVERY, "seq": 3, "chain": "0" * 64, "input_at": None, "waiting": 0,
            "rejected": 0, "dropped": {}, "clamped": {}, "clocks_off": {}, "problem": None} | changes


@pytest.fixture
def client(broker, tmp_path):
    with TestClient(create_app(settings(broker, make_db(tmp_path / "console.db"))), headers={"Origin": "http://testserver"}) as c:
        yield c


def live(client: TestClient) -> dict:
    return client.get("/api/tables/m1").json()["live"]


def until(predicate, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_table_telling_only_malformed_health_goes_stalled(client, table, caplog):
    t = table("m1")
    t.publish("status", {"v": 1, "status": "online", "at": time.time()})
    t.publish("state", state(seq=4))
    t.publish("health", health(), retain=True)
    until(lambda: client.get("/api/tables/m1").status_code == 200 and live(client)["age"] is not None
          and not live(client)["stalled"])
    poisoned = [json.dumps(health(v=2)).encode(), json.dumps(health(beat=True)).encode(), b"{not json", b"\xff\xfe",
                json.dumps(health(every=0)).encode()]
    started = time.monotonic()
    while time.monotonic() - started < 5 * EVERY * 3:  # for five times as long as a table is allowed without health
        for raw in poisoned:
            t.conn.publish(topic("m1", "health"), raw, qos=1, retain=raw is poisoned[0])
        time.sleep(EVERY / 2)
    assert t.conn.flush(5.0)
    until(lambda: live(client)["stalled"])
    shown = client.get("/api/tables/m1").json()
    assert shown["status"] == "online" and shown["state"]["seq"] == 4 and shown["health"]["problem"] is False
    said = [r.getMessage() for r in caplog.records if r.name == "display.feed" and "/m1/health" in r.getMessage()]
    assert len(said) >= 5 and all(m.startswith("ignored: cardtable/v1/tables/m1/health: ") for m in said), said


@pytest.mark.parametrize("user", ["camera-m1", "board-m1"])
def test_a_device_of_the_table_cannot_say_it_is_online_or_healthy(client, table, connect, user):
    t = table("m1")
    t.publish("status", {"v": 1, "status": "offline", "at": time.time()})
    until(lambda: client.get("/api/tables/m1").status_code == 200
          and client.get("/api/tables/m1").json()["status"] == "offline")
    device = connect(user)
    device.publish(topic("m1", "status"), json.dumps({"v": 1, "status": "online", "at": time.time()}).encode(), qos=1,
                   retain=True)
    device.publish(topic("m1", "health"), json.dumps(health()).encode(), qos=1, retain=True)
    assert device.flush(5.0)
    assert [str(rc) for _, rc in device.refused_publishes] == ["Not authorized"] * 2
    t.publish("state", state(seq=9))  # a message after them: the display has heard whatever came before it
    until(lambda: (client.get("/api/tables/m1").json().get("state") or {}).get("seq") == 9)
    shown = client.get("/api/tables/m1").json()
    assert shown["status"] == "offline" and shown["health"] is None
