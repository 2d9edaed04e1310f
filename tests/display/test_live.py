"""Whether a table referees, as the console shows it: a real ``cardtable table run`` whose process is
stopped (SIGSTOP: alive, connected, its status still ``online``, refereeing nothing) is shown as
stalled within three of its health periods, over HTTP, on the logged-in console and on the scoreboard
in Chromium, and live again once it goes on; a table computer's clock two hours ahead is shown as off."""

from __future__ import annotations

import os
import signal
import time
import uuid
from contextlib import contextmanager

import httpx
import pytest
from kit import HALL_LOCALE, ORGANISER, served

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


@contextmanager
def console_page(broker, tmp_path):
    """A display served on ``broker``, Chromium, and the console in it logged in as the organiser."""
    from playwright.sync_api import sync_playwright

    with served(broker, tmp_path / "console.db") as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        try:
            console = browser.new_page(locale=HALL_LOCALE)
            console.goto(server.url + "/console")
            console.fill("input[name=user]", ORGANISER[0])
            console.fill("input[name=password]", ORGANISER[1])
            console.click("#login-form button")
            yield server, browser, console
        finally:
            browser.close()


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
        assert view["status"] == "online" and view["health"]["problem"] is False
        deadline = time.monotonic() + WAIT_S  # the broker's count of its drops (mosquitto: every 10 s)
        while client.get("/api/hall").json()["broker_dropped"] is None:
            assert time.monotonic() < deadline, "no count of the broker's drops"
            time.sleep(0.2)
        os.kill(proc.proc.pid, signal.SIGSTOP)  # alive, its connection open: only its heartbeat tells
        began = time.monotonic()
        view = live(client, "w1", lambda v: v["live"]["stalled"], "stalled")
        assert time.monotonic() - began < 3 * view["health"]["every"] + 3
        assert view["status"] == "online" and "why" not in view["live"]  # why: the console's (test_inside)
        with httpx.Client(base_url=server.url, headers={"Origin": server.url}) as console:
            assert console.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
            (inside,) = console.get("/api/console/tables").json()
            assert inside["stalled"].startswith("no health for"), inside
        os.kill(proc.proc.pid, signal.SIGCONT)
        live(client, "w1", lambda v: not v["live"]["stalled"], "live again")


@pytest.mark.browser
def test_the_console_shows_a_stalled_table_and_a_clock_off(broker, tmp_path, service):
    proc = service("w2")
    board = Connection(broker.url("board-w2"), f"board-w2-{uuid.uuid4().hex[:6]}", clean_start=True).connect()
    try:
        with console_page(broker, tmp_path) as (server, browser, console):
            row = "#c-tables tr[data-table=w2] td.live"
            console.wait_for_selector(f"{row}:has-text('最后输入'), {row}:not(:has(.stalled))", timeout=WAIT_S * 1000)
            assert "没有摄像机的消息" in console.inner_text("#c-tables tr[data-table=w2]")  # no camera at this table
            wall = browser.new_page(locale=HALL_LOCALE)  # the scoreboard: the table's badge
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
        board.close()


def _camera(broker, table: str) -> Connection:
    """The table's camera as the broker knows it: its user, ``offline`` as its last will (``vision watch``'s)."""
    will = (topic(table, "camera/status"), encode("camera/status", {"v": 1, "status": "offline", "camera": "cam"}), True)
    return Connection(broker.url(f"camera-{table}"), clean_start=True, will=will).connect()


def _says(camera: Connection, table: str, status: str, **more) -> None:
    payload = {"v": 1, "status": status, "at": time.time(), "camera": "cam", **more}
    camera.publish(topic(table, "camera/status"), encode("camera/status", payload), retain=True)


def test_a_camera_that_sees_no_table_or_is_gone_shows_on_the_tables_devices(broker, tmp_path):
    """``camera/status`` as the camera's own user publishes it: the table's ``devices`` say lost and why, then
    offline when its connection drops (the broker's last will), over HTTP; the board bridge's ``board/status`` too."""
    camera = _camera(broker, "w1")
    with served(broker, tmp_path / "console.db") as server, httpx.Client(base_url=server.url) as client:
        _says(camera, "w1", "online")
        deadline = time.monotonic() + WAIT_S

        def device(predicate, what):
            while True:
                r = client.get("/api/tables/w1")
                if r.status_code == 200 and predicate(r.json()["devices"].get("camera") or {}):
                    return r.json()["devices"]["camera"]
                assert time.monotonic() < deadline, f"the camera not {what}: {r.text[:300]}"
                time.sleep(0.1)

        device(lambda c: c.get("status") == "online", "online")
        _says(camera, "w1", "lost", reason="markers", since=time.time() - 6)
        lost = device(lambda c: c.get("status") == "lost", "lost")
        assert (lost["device"], lost["reason"], lost["camera"]) == ("camera", "markers", "cam")
        camera.close(send_will=True)  # the connection gone as a killed process's goes
        gone = device(lambda c: c.get("status") == "offline", "offline")
        assert "at" not in gone and "reason" not in gone
        board = Connection(broker.url("board-w1"), clean_start=True).connect()  # the board bridge's, alike
        board.publish(topic("w1", "board/status"), encode("board/status", {"v": 1, "status": "lost", "at": time.time()}),
                      retain=True)
        while (client.get("/api/tables/w1").json()["devices"].get("board") or {}).get("status") != "lost":
            assert time.monotonic() < deadline, "the board not lost"
            time.sleep(0.1)
        board.close()


@pytest.mark.browser
def test_the_console_shows_a_table_whose_camera_sees_nothing(broker, tmp_path):
    camera = _camera(broker, "w2")
    _says(camera, "w2", "online")
    try:
        with console_page(broker, tmp_path) as (server, browser, console):
            row = "#c-tables tr[data-table=w2]"
            console.wait_for_selector(f"{row}:not(:has(.device))", timeout=WAIT_S * 1000)
            _says(camera, "w2", "lost", reason="frames")
            console.wait_for_selector(f"{row} .device.camera-lost:has-text('摄像机看不到牌桌')", timeout=WAIT_S * 1000)
            assert "(没有画面)" in console.inner_text(row)
            _says(camera, "w2", "online")
            console.wait_for_selector(f"{row}:not(:has(.device))", timeout=WAIT_S * 1000)
            camera.close(send_will=True)
            console.wait_for_selector(f"{row} .device.camera-offline:has-text('摄像机离线')", timeout=WAIT_S * 1000)
    finally:
        camera.close()


@pytest.mark.browser
def test_the_console_says_the_clocks_wait_for_a_table_whose_camera_sees_nothing(broker, tmp_path, service):
    """A real table service (``cardtable table run``) in its draw: its camera says it sees no table, and the console's
    row says the clocks wait (the service's state is ``paused`` with no flag), the scoreboard's tile 暂停; the camera
    back, both go."""
    camera = _camera(broker, "w1")
    board = Connection(broker.url("board-w1"), f"board-w1-{uuid.uuid4().hex[:6]}", clean_start=True).connect()
    board.publish(topic("w1", "board/status"), encode("board/status", {"v": 1, "status": "online"}), retain=True)
    assert board.flush(WAIT_S)  # (an earlier test left it lost)
    _says(camera, "w1", "online")
    service("w1")
    try:
        with console_page(broker, tmp_path) as (server, browser, console):
            row = "#c-tables tr[data-table=w1]"
            console.click(f"{row} button[data-cmd=start_round]")
            console.wait_for_selector(f"{row}:has-text('进行中')", timeout=WAIT_S * 1000)
            for seat in "SENW":
                press = {"v": 1, "id": f"r-{seat}-{uuid.uuid4().hex[:6]}", "seat": seat, "button": "ready", "at": time.time()}
                board.publish(topic("w1", "board/in"), encode("board/in", press))
            wall = browser.new_page(locale=HALL_LOCALE)
            wall.goto(server.url + "/")
            wall.wait_for_selector("#tile-w1 .phase:has-text('摸牌')", timeout=WAIT_S * 1000)
            assert not wall.query_selector("#tile-w1 .paused")
            _says(camera, "w1", "lost", reason="markers")
            console.wait_for_selector(f"{row} .held:has-text('计时暂停，等设备恢复')", timeout=WAIT_S * 1000)
            assert "摄像机看不到牌桌 (看不全桌角标记)" in console.inner_text(row)
            wall.wait_for_selector("#tile-w1 .paused:has-text('暂停')", timeout=WAIT_S * 1000)
            _says(camera, "w1", "online")
            console.wait_for_selector(f"{row}:not(:has(.held)):not(:has(.device))", timeout=WAIT_S * 1000)
            wall.wait_for_selector("#tile-w1:not(:has(.paused))", timeout=WAIT_S * 1000)
    finally:
        camera.close()
        board.close()
