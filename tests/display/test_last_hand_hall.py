"""The console's last hand at every table of the hall, against a real mosquitto and real table services (and the system
Chromium). 001 三 / 000 通知 四 3: the last hand is announced while a round is played, once; since the tables refuse it
otherwise (``table.last_hand_no_round``, ``table.last_hand_twice``), the hall's announcement went to every table and
one table between rounds made the whole of it a 409. Now it goes to the tables playing a round whose last hand is not
announced yet, the others said skipped and why; none playing, a 409 that says why of each."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from kit import ORGANISER, LiveTable, Relay, Server, Table, login, make_db, until

from bus.protocol import topic
from display.app import Settings, create_app

HALL = ["h1", "h2"]  # the module's table services
TABLES = [*HALL, "h3", "h4", "h5", "h6"]  # the broker's (tests/conftest.py); h3 to h6: a test's own, after the console's


@pytest.fixture(scope="module")
def tables(broker, tmp_path_factory):
    """Two Tractor tables, idle (their services started, nobody seated)."""
    live = {t: LiveTable(broker, t, tmp_path_factory.mktemp(t) / f"{t}.db") for t in HALL}
    yield live
    for t in live.values():
        t.close()


def seen(c: httpx.Client, table: str, phase: str, last_hand: bool = False) -> None:
    """Wait until the display shows ``table`` in ``phase``, its last hand announced or not."""
    deadline = time.monotonic() + 30
    while True:
        s = c.get(f"/api/tables/{table}").json().get("state") or {}
        if s.get("phase") == phase and bool((s.get("round") or {}).get("last_hand")) == last_hand:
            return
        assert time.monotonic() < deadline, s
        time.sleep(0.05)


def test_the_last_hand_goes_to_the_tables_playing_and_says_the_others(server, tables):
    h1, h2 = tables["h1"], tables["h2"]
    with httpx.Client(base_url=server.url, headers={"Origin": server.url}, timeout=30) as c:
        assert c.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
        seen(c, "h1", "idle")
        seen(c, "h2", "idle")
        # no table plays a round: a 409 that says why of each, nothing sent, nothing recorded
        r = c.post("/api/console/last-hand")
        assert r.status_code == 409, r.text
        assert r.json()["detail"] == ("没有哪一桌在打一轮，最后一盘没有宣布：h1 桌：不在一轮中（空闲）、h2 桌：不在一轮中（空闲）")
        en = c.post("/api/console/last-hand", headers={"Accept-Language": "en"}).json()["detail"]
        assert en.startswith("no table is playing a round") and "h2: no round is being played (idle)" in en, en
        assert not any(e["action"] == "last_hand" for e in c.get("/api/console/audit").json())
        h1.seated()  # h1 plays a round, h2 idle: h1 gets the last hand, h2 is said skipped, no 409
        seen(c, "h1", "dealing")
        h2_before = h2.service.seq
        r = c.post("/api/console/last-hand")
        assert r.status_code == 200, r.text
        out = r.json()
        assert [(s["table"], s["answered"]) for s in out["sent"]] == [("h1", True)]
        assert out["sent"][0]["said"] == "组织者 wang 宣布 h1 桌本盘为最后一盘"
        assert out["skipped"] == [{"table": "h2", "said": "h2 桌没有宣布最后一盘：不在一轮中（空闲）"}]
        assert h1.service.table.last_hand and not h2.service.table.last_hand
        assert h2.service.seq == h2_before  # nothing sent to h2: not even a refusal in its log
        assert [e["detail"]["table"] for e in c.get("/api/console/audit").json() if e["action"] == "last_hand"] == ["h1"]
        # announced once: asked again, h1 is skipped as announced already, and with h2 idle no table is left
        seen(c, "h1", "dealing", last_hand=True)
        r = c.post("/api/console/last-hand")
        assert r.status_code == 409 and "h1 桌：这一轮已经宣布过最后一盘" in r.json()["detail"], r.text


@pytest.mark.browser
def test_the_console_says_the_tables_skipped(page, tables):
    """The console's line after 全场宣布最后一盘: the table announced, and the one skipped with why (h1: idle, or its
    last hand announced by the test before), not in red."""
    tables["h2"].seated()
    c = page("/console")
    login(c)
    until(c, "document.querySelector('#c-tables tr[data-table=h2]')?.textContent.includes('摸牌')")
    c.click("#all-last-hand")
    until(c, "document.querySelector('#result .line').textContent.includes('h1')")
    line = c.inner_text("#result .line")
    assert "组织者 wang 宣布 h2 桌本盘为最后一盘" in line and "h1 桌没有宣布最后一盘：" in line, line
    assert c.get_attribute("#result", "class") == "", line


@pytest.fixture
def playing(broker, tmp_path):
    """``playing(name)``: a table service of the test's own, its round played (dealing), closed after the test."""
    made: list[LiveTable] = []

    def make(name: str) -> LiveTable:
        made.append(LiveTable(broker, name, tmp_path / f"{name}.db"))
        made[-1].seated()
        return made[-1]

    yield make
    for t in made:
        t.close()


@contextmanager
def organiser(url: str) -> Iterator[httpx.Client]:
    """A client of the display at ``url``, logged in as the organiser."""
    with httpx.Client(base_url=url, headers={"Origin": url}, timeout=30) as c:
        assert c.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
        yield c


def test_a_table_whose_state_is_unseen_is_skipped_and_sent_nothing(server, connect, inbox, playing):
    """h5's service says it is online, no state of it heard (nothing shows it playing): skipped, in the words of
    ``error.state_unseen``, and nothing published to it; h6, playing, takes the last hand."""
    h6, h5 = playing("h6"), Table(connect, "h5")
    heard = inbox()
    h5.listeners.append(heard)  # every command to h5, answered as its service would (kit.answers)
    h5.publish("status", {"v": 1, "status": "online"})
    with organiser(server.url) as c:
        until_seen = time.monotonic() + 30
        while "h5" not in c.get("/api/tables").json():
            assert time.monotonic() < until_seen, "the display never heard h5"
            time.sleep(0.05)
        assert c.get("/api/tables/h5").json().get("state") is None
        seen(c, "h6", "dealing")
        r = c.post("/api/console/last-hand")
        assert r.status_code == 200, r.text
        out = r.json()
        assert ("h6", True) in [(s["table"], s["answered"]) for s in out["sent"]], out
        assert "h5" not in [s["table"] for s in out["sent"]]
        said = {s["table"]: s["said"] for s in out["skipped"]}
        assert said["h5"] == "h5 桌没有宣布最后一盘：还没有收到它的状态（它的牌桌服务可能没有运行），看不出它在打一轮", said
        en = c.post("/api/console/last-hand", headers={"Accept-Language": "en"})  # h6 announced already: none left
        assert en.status_code == 409 and "h5: no state of it heard yet" in en.json()["detail"], en.text
        assert h6.service.table.last_hand
        # a command the display sends h5 now comes after anything it sent it before (one connection, in order): the
        # first h5 hears is this one, so the hall's last hand sent it nothing
        one = c.post("/api/console/tables/h5/commands", json={"command": "last_hand"})
        assert one.status_code == 200, one.text
        first = heard.wait_for(lambda t, p: True)
        assert json.loads(first[1])["id"] == one.json()["id"], heard.messages


def test_a_table_refusing_it_all_the_same_is_skipped_in_its_words(broker, connect, inbox, playing, tmp_path):
    """h4's last hand is announced at the table (its own console) while the display's scoreboard connection is held, so
    the display still shows h4 playing, its last hand not announced: sent to h4 and h3, h4 refuses it (announced
    once), and it is skipped with the table's words; h3 took it, so no 409."""
    h3, h4 = playing("h3"), playing("h4")
    watch = connect("scoreboard-2", clean_start=True)  # a user of its own: the display's are scoreboard-3 and console-3
    sent_h4 = inbox()
    watch.subscribe(topic("h4", "commands"), sent_h4)
    assert watch.wait_subscribed(30)
    with Relay(broker) as link, Server(create_app(Settings(link.url("scoreboard-3"), broker.url("console-3"),
                                                           make_db(tmp_path / "d.db")))) as d, organiser(d.url) as c:
        seen(c, "h3", "dealing")
        seen(c, "h4", "dealing")
        link.hold()  # the display hears nothing more of the tables
        h4.send("commands", command="last_hand")  # applied by h4 (LiveTable.send waits for it)
        assert h4.service.table.last_hand
        assert not (c.get("/api/tables/h4").json()["state"]["round"] or {}).get("last_hand")  # the display's view: not yet
        answer: list[httpx.Response] = []
        asked = threading.Thread(target=lambda: answer.append(c.post("/api/console/last-hand")))
        asked.start()
        sent_h4.wait_for(lambda t, p: json.loads(p)["id"].startswith("console-"))  # the display sent it to h4
        link.held.clear()  # now the display hears h4's state, and its refusal
        asked.join(30)
        r = answer[0]
        assert r.status_code == 200, r.text
        out = r.json()
        assert [(s["table"], s["answered"]) for s in out["sent"]] == [("h3", True)], out
        said = {s["table"]: s["said"] for s in out["skipped"]}
        assert said["h4"] == "h4 桌没有接受这项操作，什么也没有改变：最后一盘已经宣布过了", said
        assert h3.service.table.last_hand
        assert [e["detail"]["table"] for e in c.get("/api/console/audit").json() if e["action"] == "last_hand"] == ["h3"]
