"""A table's problem in the reader's language (a real ``cardtable table run``, mosquitto, the display and the system
Chromium): the console said a stalled table's problem in the service's English only ("logging inputs fails:
OperationalError: database is locked") to organisers who read Chinese first. Now the health carries the problem as
data too (``problem_why``), and the console says it in the page's language; a key it does not know (a newer service's)
is shown in the service's words, marked as English, never blank."""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from contextlib import contextmanager

import pytest
from kit import login, served, until

from bus.mqtt import Connection
from bus.protocol import encode, schema, topic

pytestmark = pytest.mark.browser
TABLES = ["p1", "p2"]
RULEBOOK = "classic-3deck"
PROBLEM = "(document.querySelector('#c-tables tr[data-table={t}] td.live .problem')?.textContent || '')"
LIVE = "hall.tables.{t}?.status === 'online' && !!hall.tables.{t}.health && !hall.tables.{t}.health.problem && " \
       "!!document.querySelector('#c-tables tr[data-table={t}] td.live') && " \
       "!document.querySelector('#c-tables tr[data-table={t}] td.live .stalled')"


@contextmanager
def consoles(browser, server):
    """The console logged in twice, a Chinese page and an English one (the browser's language)."""
    contexts = {lang: browser.new_context(locale="zh-CN" if lang == "zh" else "en-GB") for lang in ("zh", "en")}
    try:
        pages = {}
        for lang, context in contexts.items():
            pages[lang] = context.new_page()
            pages[lang].goto(server.url + "/console")
            login(pages[lang])
        yield pages
    finally:
        for context in contexts.values():
            context.close()


def says(pages: dict, table: str, words: dict[str, str]) -> None:
    for lang, pg in pages.items():
        until(pg, f"{PROBLEM.format(t=table)} === {json.dumps(words[lang], ensure_ascii=False)}")


def test_a_log_that_cannot_be_written_is_said_in_the_consoles_language(browser, broker, tmp_path, service_process):
    """Another program holds the table's log's write lock as a press comes (a full or read-only disk fails alike):
    the service's health names the problem, the Chinese console says 输入记不进日志：另一个程序锁住了它, the English
    one logging inputs fails: another program holds its lock; once the lock goes, both show the table live."""
    db = tmp_path / "p1.db"
    proc = service_process(broker, "p1", RULEBOOK, db, tmp_path / "p1.log")
    proc.start()
    board = Connection(broker.url("board-p1"), f"board-p1-{uuid.uuid4().hex[:6]}", clean_start=True).connect()
    try:
        with served(broker, tmp_path / "console.db") as server, consoles(browser, server) as pages:
            for pg in pages.values():
                until(pg, LIVE.format(t="p1"))
            holder = sqlite3.connect(db, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            try:
                press = {"v": 1, "id": f"b-{uuid.uuid4().hex[:6]}", "seat": "N", "button": "referee", "at": time.time()}
                board.publish(topic("p1", "board/in"), encode("board/in", press))
                says(pages, "p1", {"zh": "输入记不进日志：另一个程序锁住了它；计时不作裁决",
                                   "en": "logging inputs fails: another program holds its lock; no clock rules"})
                assert "无响应" in pages["zh"].inner_text("#c-tables tr[data-table=p1] td.live")
            finally:
                holder.execute("ROLLBACK")
                holder.close()
            for pg in pages.values():
                until(pg, LIVE.format(t="p1"))
            assert proc.proc.poll() is None  # it never gave up
    finally:
        board.close()
        proc.reap()


def test_a_problem_this_console_does_not_know_is_shown_in_english_marked(browser, broker, table, tmp_path):
    """A newer service's problem (a key this display's catalogue lacks) and an older one's (no key): the service's own
    words, the Chinese page marking them as English."""
    p2 = table("p2")
    p2.publish("status", {"v": 1, "status": "online", "at": time.time()})
    health = {**schema("health")["examples"][0], "at": time.time(), "every": 60.0}
    with served(broker, tmp_path / "console.db") as server, consoles(browser, server) as pages:
        p2.publish("health", health | {"problem": "the camera's lens is fogged",
                                       "problem_why": {"key": "lens_fogged", "values": {"camera": "cam-p2"}}})
        says(pages, "p2", {"zh": "（英文原话）the camera's lens is fogged", "en": "the camera's lens is fogged"})
        p2.publish("health", health | {"problem": "an older service's words"})
        says(pages, "p2", {"zh": "（英文原话）an older service's words", "en": "an older service's words"})
        p2.publish("health", health | {"problem": "not connected to the broker for 9 s: table-p2-camera; its inputs "
                                       "wait there, and no clock rules",
                                       "problem_why": {"key": "deaf", "values": {"seconds": 9, "sessions": ["table-p2-camera"]}}})
        says(pages, "p2", {"zh": "已 9 秒连不上消息服务器：table-p2-camera；它的输入在服务器上等着，计时不作裁决",
                           "en": "not connected to the broker for 9 s: table-p2-camera; its inputs wait there, and no clock rules"})
