"""Whether a table referees, as the console shows it: a real ``cardtable table run`` whose process is
stopped (SIGSTOP: alive, connected, its status still ``online``, refereeing nothing) is shown as
stalled within three of its health periods, over HTTP, on the logged-in console and on the scoreboard
in Chromium, and live again once it goes on; a table computer's clock two hours ahead is shown as off."""

from __future__ import annotations

import os
import signal
import time
import uuid

import httpx
import pytest
from kit import ORGANISER, served

from bus.mqtt import Connection
from bus.protocol import encode, topic

TABLES = ["w1", "w2"]
RULEBOOK = "classic-3deck"
WAIT_S = 30.0  # the longest a wait for what must come (generous: a loaded machine)


@pytest.fixture
def service(broker, tmp_path, service_process):
    made = []

    def start(table: str):
        proc = service_process(broker, table, RULEBOOK, tmp_path / f"{table}.db", tmp_path / f"{table}.log")
        proc.start()
        made.append(proc)
        return proc

    yield start
    for proc in made:
        if proc.proc.poll() is None:
            os.kill(proc.proc.pid, signal.SIGCONT)
        proc.reap()


def live(client: httpx.Client, table: str, predicate, what: str) -> dict:
    deadline = time.monotonic() + WAIT_S
    while True:
        r = client.get(f"/api/tables/{table}")
        if r.status_code == 200 and r.json()["status"] and predicate(r.json()):
            return r.json()
        assert time.monotonic() < deadline, f"{table}: not {what} within {WAIT_S} s: {r.text[:500]}"
        time.sleep(0.2)


def test_a_stopped_service_shows_as_stalled_while_its_status_says_online(broker, tmp_path, service):
    proc = service("w1")
    with served(broker, tmp_path / "console.db") as server, httpx.Client(base_url=server.url) as client:
        view = live(client, "w1", lambda v: v["live"]["age"] is not None and not v["live"]["stalled"], "live")
        assert view["status"] == "online" and view["health"]["problem"] is None
        deadline = time.monotonic() + WAIT_S  # the broker's count of its drops (mosquitto: every 10 s)
        while client.get("/api/hall").json()["broker_dropped"] is None:
            assert time.monotonic() < deadline, "no count of the broker's drops"
            time.sleep(0.2)
        os.kill(proc.proc.pid, signal.SIGSTOP)  # alive, its connection open: only its heartbeat tells
        began = time.monotonic()
        view = live(client, "w1", lambda v: v["live"]["stalled"], "stalled")
        assert time.monotonic() - began < 3 * view["health"]["every"] + 3
        assert view["status"] == "online" and view["live"]["why"].startswith("no health for")
        os.kill(proc.proc.pid, signal.SIGCONT)
        live(client, "w1", lambda v: not v["live"]["stalled"], "live again")


@pytest.mark.browser
def test_the_console_shows_a_stalled_table_and_a_clock_off(broker, tmp_path, service):
    from playwright.sync_api import sync_playwright

    proc = service("w2")
    board = Connection(broker.url("board-w2"), f"board-w2-{uuid.uuid4().hex[:6]}", clean_start=True).connect()
    with served(broker, tmp_path / "console.db") as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        try:
            console = browser.new_page()
            console.goto(server.url + "/console")
            console.fill("input[name=user]", ORGANISER[0])
            console.fill("input[name=password]", ORGANISER[1])
            console.click("#login-form button")
            row = "#c-tables tr[data-table=w2] td.live"
            console.wait_for_selector(f"{row}:has-text('最后输入'), {row}:not(:has(.stalled))", timeout=WAIT_S * 1000)
            wall = browser.new_page()  # the scoreboard: the table's badge
            wall.goto(server.url + "/")
            wall.wait_for_selector("#tile-w2[data-status=online]:not([data-live=stalled])", timeout=WAIT_S * 1000)
            os.kill(proc.proc.pid, signal.SIGSTOP)
            console.wait_for_selector(f"{row} .stalled:has-text('无响应')", timeout=WAIT_S * 1000)
            assert "秒无心跳" in console.inner_text(row)
            wall.wait_for_selector("#tile-w2[data-live=stalled] .badge.stalled:has-text('无响应')", timeout=WAIT_S * 1000)
            os.kill(proc.proc.pid, signal.SIGCONT)
            console.wait_for_selector(f"{row}:not(:has(.stalled))", timeout=WAIT_S * 1000)
            wall.wait_for_selector("#tile-w2:not([data-live=stalled]) .badge.online", timeout=WAIT_S * 1000)
            for i in range(8):  # the board's clock two hours ahead
                press = {"v": 1, "id": f"b-{i}-{uuid.uuid4().hex[:6]}", "seat": "N", "button": "referee",
                         "at": time.time() + 7200}
                board.publish(topic("w2", "board/in"), encode("board/in", press))
            console.wait_for_selector(f"{row} .clock-off:has-text('时钟偏差')", timeout=WAIT_S * 1000)
            assert "按键板 +7200 秒" in console.inner_text(row)
        finally:
            browser.close()
            board.close()
