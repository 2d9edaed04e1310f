"""The console's last hand at every table of the hall, against a real mosquitto and real table services (and the system
Chromium). 001 三 / 000 通知 四 3: the last hand is announced while a round is played, once; since the tables refuse it
otherwise (``table.last_hand_no_round``, ``table.last_hand_twice``), the hall's announcement went to every table and
one table between rounds made the whole of it a 409. Now it goes to the tables playing a round whose last hand is not
announced yet, the others said skipped and why; none playing, a 409 that says why of each."""

from __future__ import annotations

import time

import httpx
import pytest
from kit import ORGANISER, LiveTable, login, until

TABLES = ["h1", "h2"]  # the broker's (tests/conftest.py)


@pytest.fixture(scope="module")
def tables(broker, tmp_path_factory):
    """Two Tractor tables, idle (their services started, nobody seated)."""
    live = {t: LiveTable(broker, t, tmp_path_factory.mktemp(t) / f"{t}.db") for t in TABLES}
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
