"""A table's board on older firmware than the release ships, on the console (the system Chromium against the app, a real
mosquitto): the bridge said it only in its log, which the organiser does not read."""

from __future__ import annotations

import time

import pytest
from kit import login, state

from bus.firmware import FIRMWARE, SHIPPED
from bus.protocol import encode, topic

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
TABLES = ["f1"]


def test_the_console_row_says_a_board_on_older_firmware_and_nothing_for_the_shipped_or_a_newer_one(page, table, connect):
    """The board says its firmware in ``board/status`` (its bridge's hello): 2.0.0, older than the shipped one, reads
    on the table's row, Chinese and English, with both versions; the board flashed, or a newer one, nothing."""
    assert FIRMWARE > (2, 0, 0)
    major, minor, patch = FIRMWARE
    table("f1").publish("status", {"v": 1, "status": "online", "at": time.time()})
    table("f1").publish("state", state(seq=3))
    board = connect("board-f1", clean_start=True)

    def says(firmware: str) -> None:
        payload = {"v": 1, "status": "online", "at": time.time(), "board": "board3", "firmware": firmware, "boot": 7}
        board.publish(topic("f1", "board/status"), encode("board/status", payload), qos=1, retain=True)
        assert board.flush(10)

    row = "#c-tables tr[data-table=f1]"
    zh, en = page("/console"), page("/console", lang="en")
    for console in (zh, en):
        login(console)
        console.wait_for_selector(row, timeout=WAIT_MS)
    says("2.0.0")
    zh.wait_for_selector(f"{row} .firmware-old", timeout=WAIT_MS)
    assert zh.inner_text(f"{row} .firmware-old") == f"显示板固件较旧：2.0.0，本版配套 {SHIPPED}"
    en.wait_for_selector(f"{row} .firmware-old", timeout=WAIT_MS)
    assert en.inner_text(f"{row} .firmware-old") == f"board on older firmware: 2.0.0, this release ships {SHIPPED}"
    for flashed in (SHIPPED, f"{major}.{minor}.{patch + 1}", f"{major + 1}.0.0"):
        says(flashed)
        zh.wait_for_selector(f"{row}:not(:has(.firmware-old))", timeout=WAIT_MS)
        says("2.0.0")  # said again: the row took each firmware as it came
        zh.wait_for_selector(f"{row} .firmware-old", timeout=WAIT_MS)


def test_the_console_row_of_a_table_online_without_a_health_yet_is_not_shown_live(page, table):
    """The organiser's row errs towards "not live": a table that says ``online`` but has sent no health (a service
    frozen before its first) is 无响应 there until its health comes (the scoreboard's tile keeps its status). The pages'
    one liveness rule (42e224f) had left that row blank, as if all were well."""
    from bus.protocol import schema

    table("f1").publish("status", {"v": 1, "status": "online", "at": time.time()})
    table("f1").publish("state", state(seq=3))
    live = "#c-tables tr[data-table=f1] td.live"
    console = page("/console")
    login(console)
    console.wait_for_selector(f"{live} .stalled", timeout=WAIT_MS)
    assert console.inner_text(live) == "无响应"
    table("f1").publish("health", {**schema("health")["examples"][0], "every": 60.0, "dropped": {}, "at": time.time()})
    console.wait_for_selector(f"{live}:not(:has(.stalled))", timeout=WAIT_MS)
