"""A console command the table refuses, against a real mosquitto and real table services (and the system Chromium).
The console said every command but a flag's answer done, and kept it in the audit log, when the table refused it
(a foul its rulebook does not have, 报到 at a Tractor table, an amendment of no play, seating or a start mid-round):
now it waits for the table's answer (its ``applied`` or ``rejected`` event) and says the refusal in the table's words,
a 409, nothing recorded. The ruling form offers what the chosen table's rulebook takes, under a heading of no game."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from kit import ORGANISER, REFEREE, LiveTable, login, state, until

from referee.catalogue.sentences import Sentences

TABLE = "r1"
TABLES = ["r1", "r2", "r3"]  # the broker's (tests/conftest.py)
REFUSED = [  # who, the console's path under the table, the body, the table's reason (Chinese)
    (REFEREE, "rulings", {"ruling": "foul", "seat": "S", "kind": "talking"}, "没有这种犯规：`交谈`；本桌规则可判的有 "),
    (REFEREE, "rulings", {"ruling": "report", "seat": "S", "play": True}, "拖拉机牌桌（classic-3deck）不能记录报到"),
    (REFEREE, "rulings", {"ruling": "open_hand", "seat": "S"}, "拖拉机牌桌（classic-3deck）不能"),
    (REFEREE, "plays/999999", {"cards": ["S3"]}, "第 999999 条不是一次出牌"),
    (ORGANISER, "assign", {"players": LiveTable.PLAYERS, "rulebook": "classic-3deck"}, "入座和规则只能在两轮之间安排"),
    (ORGANISER, "commands", {"command": "start_round"}, "本轮已在进行（扣底）"),
]
OPENING = {"zh": f"{TABLE} 桌没有接受这项操作，什么也没有改变：", "en": f"table {TABLE} did not take this action, nothing changed: "}


@pytest.fixture(scope="module")
def tractor(broker, tmp_path_factory):
    """A Tractor table (classic-3deck) in play: S is to lead the first trick."""
    live = LiveTable(broker, TABLE, tmp_path_factory.mktemp(TABLE) / f"{TABLE}.db")
    live.to_first_lead()
    yield live
    live.close()


@contextmanager
def console(server, who, lang: str = "zh") -> Iterator[httpx.Client]:
    """The console's API logged in as ``who``, in ``lang``."""
    with httpx.Client(base_url=server.url, headers={"Origin": server.url}, cookies={"lang": lang}, timeout=30) as c:
        assert c.post("/api/login", json={"user": who[0], "password": who[1]}).status_code == 200
        yield c


def settled(live: LiveTable) -> dict:
    """The table's state but for what time moves (its clocks) and the log's count."""
    s = live.service.table.state(time.time())
    return {k: v for k, v in s.items() if k not in ("at", "seq", "clocks", "round")} | {"round": s["round"] | {"left": None}}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("who", "path", "body", "words"), REFUSED, ids=[f"{p}-{b.get('ruling') or b.get('command') or p}" for _, p, b, _ in REFUSED])
def test_a_command_the_table_refuses_is_said_in_its_words_and_not_recorded(server, tractor, who, path, body, words, lang):
    with console(server, who, lang) as c:
        audit, before = c.get("/api/console/audit").json(), settled(tractor)
        r = c.post(f"/api/console/tables/{TABLE}/{path}", json=body)
        assert r.status_code == 409, r.text
        timeline = c.get(f"/api/tables/{TABLE}").json()["timeline"]
        refusal = next(e for e in reversed(timeline) if e["kind"] == "rejected" and e["data"]["topic"] == "commands")
        why = Sentences(lang, players=LiveTable.PLAYERS).reason(refusal["data"]["why"])  # the table's reason
        assert r.json()["detail"] == OPENING[lang] + why
        assert words in why if lang == "zh" else not any("\u4e00" <= ch <= "\u9fff" for ch in why.replace("王芳", ""))
        assert c.get("/api/console/audit").json() == audit  # nothing recorded
        assert settled(tractor) == before  # the table unchanged


def test_a_command_the_table_takes_is_recorded_as_answered(server, tractor):
    with console(server, REFEREE) as c:
        sent = c.post(f"/api/console/tables/{TABLE}/commands", json={"command": "last_hand"}).json()
        assert sent["answered"] is True and sent["said"] == f"裁判 li 宣布 {TABLE} 桌本盘为最后一盘"
        assert c.get("/api/console/audit?limit=1").json()[0]["detail"]["id"] == sent["id"]
        assert tractor.service.table.last_hand


@pytest.mark.browser
def test_the_console_says_the_refusal_and_offers_what_the_table_takes(page, broker, table, tmp_path):
    """A foul ruled at a Tractor table seated but not started (it has no hand to rule in): the console's line says the
    table's refusal, in red, and no line says it recorded; its audit log holds nothing of it. The form offers the
    Tractor table its rulebook's fouls and no 报到 nor 摊打, a San Da Yi table both."""
    live = LiveTable(broker, "r2", tmp_path / "r2.db")
    try:
        live.send("commands", command="assign", players=LiveTable.PLAYERS, rulebook="classic-3deck")
        table("r3").publish("state", state(rulebook="usst-2016", phase="idle", trump=None))
        c = page("/console")
        login(c)
        assert c.inner_text("#ruling-form b") == "裁判判定"
        assert c.locator("#ruling-form select[name=what]").is_disabled()  # no table chosen: nothing to rule
        c.fill("#ruling-form input[name=table]", "r2")
        until(c, "!document.querySelector('#ruling-form select[name=what]').disabled")
        offered = c.locator("#ruling-form select[name=what] option").all_inner_texts()
        assert "犯规：暗示性手势" in offered and "犯规：交谈" not in offered
        assert not [o for o in offered if "报到" in o or "摊打" in o]
        c.fill("#ruling-form input[name=table]", "r3")
        until(c, "[...document.querySelectorAll('#ruling-form option')].some(o => o.textContent.includes('报到'))")
        assert {"庄家报到：打", "庄家报到：不打", "庄家摊打", "犯规：交谈"} <= set(c.locator("#ruling-form option").all_inner_texts())
        c.fill("#ruling-form input[name=table]", "r2")
        until(c, "!document.querySelector('#ruling-form option[value=open_hand]')")
        c.select_option("#ruling-form select[name=what]", "foul:signalling")
        before = settled(live)
        c.click("#ruling-form button")
        until(c, "document.querySelector('#result .line').textContent.startsWith('错误：')")
        line = c.inner_text("#result .line")
        assert line.startswith("错误：r2 桌没有接受这项操作，什么也没有改变：") and "组织者 wang" not in line, line  # not the line of a ruling made
        assert c.locator("#result.error").count() == 1
        time.sleep(0.5)  # the audit log, asked again after the action
        assert "犯规" not in c.inner_text("#c-audit tbody")
        assert settled(live) == before
    finally:
        live.close()
