"""An offline table's row in the console, in the system Chromium against the app (uvicorn) and a real mosquitto: its
tile on the scoreboard says since when the hall heard from a table not live (最后消息 9 秒前), but the console's row of an
offline table said 离线 alone, and an organiser could not tell a table that just dropped from one gone for an hour. Now
the row says it too, counted on as the page stays open."""

from __future__ import annotations

import time

import pytest
from kit import login, state, until

from bus.protocol import schema

pytestmark = pytest.mark.browser
TABLES = ["o1"]  # the module broker's tables
WAIT_MS = 30_000
LIVE = "document.querySelector('#c-tables tr[data-table=o1] td.live')?.textContent || ''"
SAID = {"zh": (r"^最后消息 (\d+) 秒前$", "离线"), "en": (r"^last heard (\d+) s ago$", "offline")}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_offline_tables_row_says_when_it_was_last_heard(page, table, lang):
    o1 = table("o1")
    o1.publish("state", state(seq=30))
    o1.publish("health", {**schema("health")["examples"][0], "at": time.time()}, retain=False)
    o1.publish("status", {"v": 1, "status": "offline", "at": time.time()})  # its service gone (the broker's last will)
    console = page("/console", lang=lang)
    login(console)
    heard, offline = SAID[lang]
    console.wait_for_selector(f"#c-tables tr[data-table=o1] b.error:text-is('{offline}')", timeout=WAIT_MS)
    until(console, f"new RegExp({heard!r}).test({LIVE})")
    first = int(console.evaluate(f"new RegExp({heard!r}).exec({LIVE})[1]"))
    until(console, f"Number(new RegExp({heard!r}).exec({LIVE})?.[1]) >= {first + 2}", timeout_ms=10_000)  # counted on
