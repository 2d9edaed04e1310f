"""How long ago, as a person says it (the system Chromium against the app and a real mosquitto): a table silent for two
hours said 最后消息 7200 秒前 on its tile and 7200 秒无心跳 in the console, a number to work out in the middle of a
hall; now 120 分钟, and 4 分 37 秒 under ten minutes, 9 秒 under one, in either language."""

from __future__ import annotations

import time

import pytest
from kit import OWN_USERS, login, served, state, until

from bus.protocol import schema

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
TABLES = ["h1", "h2"]
AGO = "document.querySelector('#tile-{t} .ago')?.textContent || ''"
SAID = {"zh": (r"^最后消息 12[01] 分钟前$", r"^最后消息 [45] 分 \d+ 秒前$", "120 分钟无心跳"),
        "en": (r"^last heard 12[01] min ago$", r"^last heard [45] min \d+ s ago$", "no heartbeat for 120 min")}


def test_a_table_silent_for_long_says_so_in_minutes(browser, broker, table, tmp_path):
    now = time.time()
    for t, ago in (("h1", 7200), ("h2", 280)):  # their last health retained: a display started now reads it as that old
        tb = table(t)
        tb.publish("status", {"v": 1, "status": "online", "at": now - ago})
        tb.publish("health", {**schema("health")["examples"][0], "at": now - ago}, retain=True)
        tb.publish("state", state(seq=22, at=now - ago))
    with served(broker, tmp_path / "c.db", users=OWN_USERS) as server:
        for lang, (long, short, row) in SAID.items():
            context = browser.new_context(locale="zh-CN" if lang == "zh" else "en-GB")
            try:
                pg = context.new_page()
                pg.goto(server.url + "/")
                for t, words in (("h1", long), ("h2", short)):
                    until(pg, f"new RegExp({words!r}).test({AGO.format(t=t)})")
                console = context.new_page()
                console.goto(server.url + "/console")
                login(console)
                until(console, f"(document.querySelector('#c-tables tr[data-table=h1] td.live')?.textContent || '').includes({row!r})")
            finally:
                context.close()
