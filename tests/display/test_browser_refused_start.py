"""A table whose service will not start says why on the console, in the reader's language (a real ``cardtable table
run``, mosquitto, the display and the system Chromium): the console showed such a table as 离线 alone, and the
referee had to find the unit's log to learn that its log is another table's or not a log, or its rulebook unknown.
Now the service publishes its refusal as its retained ``status`` (``offline`` with ``why``) before it exits, and the
console says it after 离线; the inputs the broker keeps for the table meanwhile wait for the service that starts."""

from __future__ import annotations

import json
import time
import uuid

import pytest
from kit import login, until

from bus.mqtt import Connection
from bus.protocol import encode, topic
from referee.table.service import TableService

pytestmark = pytest.mark.browser
TABLES = ["r1", "r2", "r3", "r4", "r5"]
REFUSED = "(document.querySelector('#c-tables tr[data-table={t}] td:nth-child(2)')?.textContent || '')"  # its state


def refused(broker, tmp_path, service_process, table: str, rulebook: str, db) -> None:
    """``cardtable table run`` of ``table`` on ``db`` with ``rulebook``: it refuses to start, and exits."""
    proc = service_process(broker, table, rulebook, db, tmp_path / f"{table}.log")
    proc.start()
    try:
        assert proc.proc.wait(30) != 0
    finally:
        proc.reap()


BADGE = "(document.querySelector('#tile-{t} .badge')?.textContent || '')"  # a scoreboard tile's word of its status
CALL = "(document.querySelector('#tile-{t} .call')?.textContent || '')"  # the table page's line to the players


def says(pg, table: str, words: str) -> None:
    until(pg, f"{REFUSED.format(t=table)}.includes({json.dumps(words, ensure_ascii=False)})")


def test_a_service_that_will_not_start_says_why_on_the_console(page, broker, tmp_path, service_process):
    """r1's log is of classic-3deck, its unit now names zhongkai-2010 (a bad rulebook for it); r2's log is no database
    (an unreadable store); r3's unit names a rulebook there is none of. Each console row says 离线 and why, in Chinese,
    and in English on an English page; a command sent to r1 while its service refused is applied once a right one
    starts."""
    log = TableService("r1", "classic-3deck", broker.url("table-r1"), tmp_path / "r1.db").start()
    log.stop()  # its status offline, said without a why: a service that stopped
    console = Connection(broker.url("console-2"), f"console-2-{uuid.uuid4().hex[:6]}", clean_start=True).connect()
    assign = {"v": 1, "id": "c-seat", "command": "assign", "rulebook": "classic-3deck",
              "players": {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"}}
    console.publish(topic("r1", "commands"), encode("commands", assign))
    assert console.flush(10)
    (tmp_path / "r2.db").write_bytes(b"this is no database, only words " * 64)
    c = page("/console")
    login(c)
    until(c, "!!document.querySelector('#c-tables tr[data-table=r1]')")
    assert "离线" in c.evaluate(REFUSED.format(t="r1")) and "未能启动" not in c.evaluate(REFUSED.format(t="r1"))
    refused(broker, tmp_path, service_process, "r1", "zhongkai-2010", tmp_path / "r1.db")
    says(c, "r1", "离线 未能启动：它是 r1 桌（classic-3deck）的日志，不是 r1 桌（zhongkai-2010）的")
    refused(broker, tmp_path, service_process, "r2", "classic-3deck", tmp_path / "r2.db")
    says(c, "r2", "离线 未能启动：它不是数据库文件")  # SQLite's error in the catalogue's words (sqlite.notadb)
    refused(broker, tmp_path, service_process, "r3", "classic-3dek", tmp_path / "r3.db")
    says(c, "r3", "离线 未能启动：没有规则“classic-3dek”；可用的规则：")
    en = page("/console", lang="en")
    login(en)
    says(en, "r1", "would not start: it is the log of table r1 (classic-3deck), not of table r1 (zhongkai-2010)")
    says(en, "r3", "would not start: unknown rulebook 'classic-3dek'; known: ")
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in en.evaluate(REFUSED.format(t="r1")))
    right = TableService("r1", "classic-3deck", broker.url("table-r1"), tmp_path / "r1.db").start()
    try:
        deadline = time.monotonic() + 20
        while (right.table.state(time.time()).get("players") or {}).get("S") != "王芳":
            assert time.monotonic() < deadline, "the command sent while the service refused was lost"
            time.sleep(0.05)
        until(c, f"!{REFUSED.format(t='r1')}.includes('未能启动')")  # online: the refusal is gone
    finally:
        right.stop()
    console.close()


def test_the_public_pages_say_it_in_a_word_and_the_table_page_to_call_an_organiser(page, broker, tmp_path,
                                                                                    service_process):
    """The big screen and the scoreboard are public, read from across the hall: a table whose service refused is
    未能启动 there (离线 said a service stopped), never why (another table's log, a file's path: the console's); the table
    page says the same and asks the players to call an organiser, in English on an English page. r4's log is of
    classic-3deck, its unit names zhongkai-2010; r5's log is no database. Once r4's right service starts its tile is
    online again and the call gone."""
    log = TableService("r4", "classic-3deck", broker.url("table-r4"), tmp_path / "r4.db").start()
    log.stop()
    (tmp_path / "r5.db").write_bytes(b"this is no database, only words " * 64)
    big, board, one = page("/big", 1920, 1080), page("/"), page("/tables/r4")
    for pg in (big, board, one):
        until(pg, f"{BADGE.format(t='r4')} === '离线'")  # a service stopped: offline, as before
    assert one.evaluate(CALL.format(t="r4")) == ""
    refused(broker, tmp_path, service_process, "r4", "zhongkai-2010", tmp_path / "r4.db")
    refused(broker, tmp_path, service_process, "r5", "classic-3deck", tmp_path / "r5.db")
    for pg in (big, board, one):
        until(pg, f"{BADGE.format(t='r4')} === '未能启动'")
    until(one, f"{CALL.format(t='r4')} === '本桌的裁判系统未能启动：请找组织者'")
    for pg in (big, board):
        until(pg, f"{BADGE.format(t='r5')} === '未能启动'")
        shown = pg.evaluate("document.body.textContent")
        assert str(tmp_path) not in shown and "r5.db" not in shown and "日志" not in shown and "数据库" not in shown
        assert pg.evaluate("document.querySelectorAll('.tile .call').length") == 0  # the call is the table page's
    en = page("/tables/r4", lang="en")
    until(en, f"{BADGE.format(t='r4')} === 'failed to start'")
    assert en.evaluate(CALL.format(t="r4")) == "This table's refereeing system failed to start: please call an organiser"
    right = TableService("r4", "classic-3deck", broker.url("table-r4"), tmp_path / "r4.db").start()
    try:
        for pg in (big, board, one):
            until(pg, f"{BADGE.format(t='r4')} === '在线'")
        until(en, f"{BADGE.format(t='r4')} === 'online'")
        assert one.evaluate(CALL.format(t="r4")) == "" and en.evaluate(CALL.format(t="r4")) == ""
    finally:
        right.stop()
