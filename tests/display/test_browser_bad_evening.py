"""The hall's pages on a bad evening (Chromium, the real app, a real mosquitto): "a table that stops refereeing must
never look healthy", nor may a page that is no longer live. The display cut off from the broker, a page cut off from
the display (its stream closed, or dead without a word), a camera gone, a browser's clock an hour wrong."""

from __future__ import annotations

import json
import re
import time
import types

import pytest
from kit import OWN_USERS, Relay, Server, console_of, make_db, state, until

from bus.mqtt import Connection
from bus.protocol import encode, schema, topic
from display import hub
from display.app import Settings, create_app

pytestmark = pytest.mark.browser
TABLES = ["k2", "k3", "k4"]  # the module's broker's tables (a fresh broker has t1)
WAIT_MS = 30_000
HEALTH = {**schema("health")["examples"][0], "every": 60.0, "dropped": {}}  # refereeing: never stalled in a test


def running(seq: int, left: float = 60.0, **more) -> dict:
    """A state whose seat N is on turn with ``left`` s of its shot clock running, the round's clock too."""
    s = state(seq=seq, at=time.time(), **more)
    s["clocks"] = {**s["clocks"], "N": {"left": left, "running": True}}
    s["round"] = {**s["round"], "left": 1800.0}
    return s


def live_table(conn: Connection, name: str, seq: int, **more) -> None:
    for leaf, payload in (("status", {"v": 1, "status": "online", "at": time.time()}),
                          ("health", {**HEALTH, "at": time.time()}), ("state", running(seq, **more))):
        conn.publish(topic(name, leaf), encode(leaf, payload), qos=1, retain=True)
    assert conn.flush(10)


def still(pg, selector: str, seconds: float = 2.5) -> bool:
    """Whether ``selector``'s text stays as it is for ``seconds``."""
    shown = pg.inner_text(selector)
    time.sleep(seconds)
    return pg.inner_text(selector) == shown


def moves(pg, selector: str) -> None:
    """Wait until ``selector``'s text changes (a clock that runs; a busy machine may take its time to show it)."""
    until(pg, f"document.querySelector({json.dumps(selector)}).textContent !== {json.dumps(pg.inner_text(selector))}")


def test_the_display_cut_off_from_the_broker_shows_every_tile_stale_and_runs_no_clock(browser, fresh_broker, tmp_path):
    """The display's broker connection cut (the broker killed, the network gone): the banner said so, but every tile
    kept its live look and counted its shot clock down, and the header its round clock, as if the tables were heard
    (a healthy table's tile for three of its health periods, the round clock for as long as the cut lasted). Now
    every tile says within a second that it is not live and since when it heard from its table (数据未更新 · 最后消息
    N 秒前), its clocks and the round's stand still; once the broker is back, a flag raised meanwhile is shown."""
    t = Connection(fresh_broker.url("table-t1"), clean_start=True).connect()
    live_table(t, "t1", 10)
    with Relay(fresh_broker) as link, \
            Server(create_app(Settings(link.url("scoreboard"), fresh_broker.url("console"), make_db(tmp_path / "c.db")))) as server:
        context = browser.new_context(locale="zh-CN")
        pg, en = context.new_page(), browser.new_context(locale="en-GB").new_page()
        for p in (pg, en):
            p.goto(server.url + "/")
            p.wait_for_selector("#tile-t1[data-seq='10'] .seat.N .clk[data-running=true]")
        until(pg, "parseInt(document.querySelector('#tile-t1 .seat.N .clk').textContent) < 60")  # live: it counts
        moves(pg, "#roundclock b")
        assert pg.is_hidden("#banner")
        link.cut()
        pg.wait_for_selector("#tile-t1[data-live=stale]", timeout=WAIT_MS)  # display.feed.WATCH_S: looked at every 0.5 s
        assert pg.is_visible("#banner") and pg.is_hidden("#cut")
        assert pg.inner_text("#tile-t1 .badge") == "数据未更新"
        until(pg, "/^最后消息 \\d+ 秒前$/.test(document.querySelector('#tile-t1 .ago').textContent)")
        en.wait_for_selector("#tile-t1[data-live=stale] .badge:has-text('not live')", timeout=WAIT_MS)
        until(en, "/^last heard \\d+ s ago$/.test(document.querySelector('#tile-t1 .ago').textContent)")
        assert still(pg, "#tile-t1 .seat.N .clk") and pg.inner_text("#roundclock") == ""  # no clock runs
        flagged = running(11, flags=[{"flag": "f1", "seat": "N", "kind": "unsure", "at": time.time(), "cards": ["S5"]}])
        t.publish(topic("t1", "state"), encode("state", flagged), qos=1, retain=True)  # raised while cut off
        assert t.flush(10)
        time.sleep(1)
        link.mend()
        pg.wait_for_selector("#tile-t1[data-seq='11']:not([data-live=stale]) .badge.online", timeout=WAIT_MS)
        assert pg.is_hidden("#banner") and pg.locator("#tile-t1 .flags [data-flag=f1]").count() == 1
        assert pg.locator("#tile-t1 .ago").count() == 0
        moves(pg, "#tile-t1 .seat.N .clk")
    t.close()


def test_a_page_cut_off_from_the_display_says_so_and_catches_up_by_itself(browser, broker, table, tmp_path, monkeypatch):
    """The browser's link to the display cut (the display killed and started again, a proxy's restart) and then
    dead without a word (a network dropped without a reset, a laptop woken after the display gave its stream up).
    Cut, the page said the broker was gone (the display's words, not this page's) and its tiles and clocks ran on as
    if live; dead, it said nothing at all and showed the hall as it was for ever (the browser waits on a silent
    stream). Now the display says something at least every ``hub.KEEPALIVE_S`` s (an ``alive`` event); a page cut
    off, or hearing nothing for two of those and 5 s, says so (与显示服务的连接中断…), shows its tiles not live and
    runs no clock; it opens the stream again by itself and catches up: a flag raised meanwhile shown, the table's
    timeline with each event once."""
    monkeypatch.setattr(hub, "KEEPALIVE_S", 1.0)  # a dead stream found within 7 s
    t = Connection(broker.url("table-k2"), clean_start=True).connect()
    live_table(t, "k2", 20)

    def event(seq: int) -> None:
        e = {"v": 1, "seq": seq, "kind": "play_accepted", "at": time.time(),
             "data": {"hand": 1, "trick": seq, "seat": "N", "cards": ["S9"]}}
        t.publish(topic("k2", "events"), encode("events", e), qos=1)
        assert t.flush(10)

    with Server(create_app(Settings(broker.url(OWN_USERS[0]), broker.url(OWN_USERS[1]), make_db(tmp_path / "c.db")))) as server, \
            Relay(types.SimpleNamespace(host="127.0.0.1", port=server.port, url=lambda _: server.url)) as link, \
            console_of(browser, server) as console:
        pg = browser.new_context(locale="zh-CN").new_page()
        one = pg.context.new_page()
        pg.goto(f"http://127.0.0.1:{link.port}/")
        one.goto(f"http://127.0.0.1:{link.port}/tables/k2")
        for p in (pg, one):
            p.wait_for_selector("#tile-k2[data-seq='20'] .seat.N .clk[data-running=true]")
        event(1)
        one.wait_for_selector("#timeline li[data-seq='1']")
        row = "#c-tables tr[data-table=k2] td.live"
        console.wait_for_selector(f"{row}:not(:has(.stale))")
        link.cut()
        for p in (pg, one):
            p.wait_for_selector("#cut:not([hidden])", timeout=WAIT_MS)
            assert p.inner_text("#cut") == "与显示服务的连接中断，正在重新连接：本页显示的不是实时数据" and p.is_hidden("#banner")
            p.wait_for_selector("#tile-k2[data-live=stale]", timeout=WAIT_MS)
        assert still(pg, "#tile-k2 .seat.N .clk")
        event(2)
        flagged = running(21, flags=[{"flag": "f2", "seat": "N", "kind": "unsure", "at": time.time(), "cards": ["S5"]}])
        t.publish(topic("k2", "state"), encode("state", flagged), qos=1, retain=True)
        assert t.flush(10)
        link.mend()  # the pages open their streams again by themselves: a snapshot, the flag, the timeline once
        for p in (pg, one):
            p.wait_for_selector("#tile-k2[data-seq='21']:not([data-live=stale]) [data-flag=f2]", timeout=WAIT_MS)
            assert p.is_hidden("#cut") and p.is_hidden("#banner")
        one.wait_for_selector("#timeline li[data-seq='2']", timeout=WAIT_MS)
        event(2)  # told again (QoS 1): still once
        event(3)
        one.wait_for_selector("#timeline li[data-seq='3']", timeout=WAIT_MS)
        assert [one.locator(f"#timeline li[data-seq='{n}']").count() for n in (1, 2, 3)] == [1, 1, 1]
        # dead without a word: the page hears nothing more, and finds it out by itself
        pg.evaluate("window.cuts = 0; new MutationObserver(() => { if (!document.querySelector('#cut').hidden) window.cuts++; })"
                    ".observe(document.querySelector('#cut'), { attributes: true })")
        link.hold()
        t.publish(topic("k2", "state"), encode("state", running(22)), qos=1, retain=True)
        assert t.flush(10)
        pg.wait_for_selector("#tile-k2[data-seq='22']:not([data-live=stale])", timeout=WAIT_MS)
        assert pg.evaluate("window.cuts") >= 1 and pg.is_hidden("#cut")
        # the console: its rows say they are not live while it is cut off (its own words), never 无响应 of the table
        console_link = Relay(types.SimpleNamespace(host="127.0.0.1", port=server.port, url=lambda _: server.url))
        with console_link:
            console.goto(f"http://127.0.0.1:{console_link.port}/console")
            console.wait_for_selector(f"{row}:not(:has(.stale))", timeout=WAIT_MS)
            console_link.cut()
            console.wait_for_selector("#cut:not([hidden])", timeout=WAIT_MS)
            assert console.is_hidden("#banner") and console.is_hidden("#stale")
            console.wait_for_selector(f"{row} .stale:has-text('数据未更新')", timeout=WAIT_MS)
            assert "最后消息" in console.inner_text(row) and console.locator(f"{row} .stalled").count() == 0
            console_link.mend()
            console.wait_for_selector(f"{row}:not(:has(.stale))", timeout=WAIT_MS)
            assert console.is_hidden("#cut")
            console.evaluate("window.cuts = 0; new MutationObserver(() => { if (!document.querySelector('#cut').hidden) window.cuts++; })"
                             ".observe(document.querySelector('#cut'), { attributes: true })")
            console_link.hold()  # dead without a word: found out, opened again (stream.js, the pages' one mechanism)
            until(console, "window.cuts >= 1", WAIT_MS)
            console.wait_for_selector("#cut[hidden]", state="attached", timeout=WAIT_MS)
            console.wait_for_selector(f"{row}:not(:has(.stale))", timeout=WAIT_MS)
    t.close()


def test_a_camera_or_board_gone_is_said_on_the_tile(page, broker):
    """A table's camera that sees no table, or gone (its last will), and its board offline: the console's table list
    said it, but the hall's tile looked as healthy as ever (the table's clocks wait, its badge 在线). Now the tile says
    each in words, Chinese and English, and no more once the camera is back."""
    name = "k3"
    t = Connection(broker.url(f"table-{name}"), clean_start=True).connect()
    live_table(t, name, 30)
    camera = Connection(broker.url(f"camera-{name}"), clean_start=True).connect()
    board = Connection(broker.url(f"board-{name}"), clean_start=True).connect()

    def says(conn: Connection, leaf: str, status: str) -> None:
        payload = {"v": 1, "status": status, "at": time.time(), **({"camera": "cam"} if leaf.startswith("camera") else {})}
        conn.publish(topic(name, leaf), encode(leaf, payload), qos=1, retain=True)
        assert conn.flush(10)

    try:
        pg, en = page("/"), page("/", lang="en")
        says(camera, "camera/status", "offline")
        pg.wait_for_selector(f"#tile-{name} .device:has-text('摄像机离线')", timeout=WAIT_MS)
        en.wait_for_selector(f"#tile-{name} .device:has-text('camera offline')", timeout=WAIT_MS)
        says(board, "board/status", "offline")
        pg.wait_for_selector(f"#tile-{name} .device:has-text('显示板离线')", timeout=WAIT_MS)
        says(camera, "camera/status", "online")
        pg.wait_for_selector(f"#tile-{name}:not(:has(.device:has-text('摄像机')))", timeout=WAIT_MS)
        fresh = page("/")  # a page opened later learns it from the snapshot
        fresh.wait_for_selector(f"#tile-{name} .device:has-text('显示板离线')", timeout=WAIT_MS)
    finally:
        for c in (t, camera, board):
            c.close()


def test_a_browser_clock_an_hour_wrong_counts_from_the_displays_time(page, broker):
    """A projector PC's clock an hour behind (or ahead): the shot clock and the round clock are counted from the
    display's time (the state's age, ``state_age``) and the page's own monotonic clock, never the browser's date.
    A table's state made 10 s ago with 60 s left shows about 50 s, whatever the browser's clock says. (Held: a guard.)"""
    name = "k4"
    t = Connection(broker.url(f"table-{name}"), clean_start=True).connect()
    s = running(40)
    s["at"], s["round"]["left"] = time.time() - 10, 3000.0  # the longest round clock of the hall's: the header's
    for leaf, payload in (("status", {"v": 1, "status": "online", "at": time.time()}),
                          ("health", {**HEALTH, "at": time.time()}), ("state", s)):
        t.publish(topic(name, leaf), encode(leaf, payload), qos=1, retain=True)
    assert t.flush(10)
    try:
        for hours in (-1, 1):
            shift = (f"(() => {{ const R = Date, off = {hours} * 3600e3; class Wrong extends R {{"
                     "constructor(...a) { if (a.length) super(...a); else super(R.now() + off); }"
                     "static now() { return R.now() + off; } } globalThis.Date = Wrong; })();")
            pg = page("/", script=shift)
            pg.wait_for_selector(f"#tile-{name}[data-seq='40'] .seat.N .clk")
            assert abs(pg.evaluate("Date.now() / 1000") - time.time() - hours * 3600) < 60  # the browser's clock: wrong
            left = int(pg.inner_text(f"#tile-{name} .seat.N .clk").split()[0])
            assert 40 <= left <= 51, left
            shown = pg.inner_text("#roundclock b")
            minutes, seconds = map(int, shown.split(":"))
            assert 2900 <= minutes * 60 + seconds <= 2991, shown
    finally:
        t.close()


def test_a_frozen_tables_last_health_told_again_never_looks_live(browser, fresh_broker, tmp_path):
    """A table service frozen (SIGSTOP: the broker still holds its connection, no last will) says nothing more, and its
    tile goes 无响应 after three of its health periods. But the broker keeps its last health (retained) and tells it
    again to the display on every reconnect: the display took it for news, and the frozen table looked live again for
    three periods after each cut of the display's link. Now the same health told again changes nothing: the tile stays
    无响应 and says since when it was heard; the display's API says the same."""
    import httpx

    t = Connection(fresh_broker.url("table-t1"), clean_start=True).connect()
    for leaf, payload in (("status", {"v": 1, "status": "online", "at": time.time()}),
                          ("health", {**HEALTH, "every": 1.0, "at": time.time()}), ("state", running(50))):
        t.publish(topic("t1", leaf), encode(leaf, payload), qos=1, retain=True)
    assert t.flush(10)  # and no health more: frozen
    with Relay(fresh_broker) as link, \
            Server(create_app(Settings(link.url("scoreboard"), fresh_broker.url("console"), make_db(tmp_path / "c.db")))) as server:
        pg = browser.new_context(locale="zh-CN").new_page()
        pg.goto(server.url + "/")
        pg.wait_for_selector("#tile-t1[data-live=stalled] .badge:has-text('无响应')", timeout=WAIT_MS)
        link.cut()
        pg.wait_for_selector("#tile-t1[data-live=stale]", timeout=WAIT_MS)
        pg.evaluate("window.lives = []; new MutationObserver(() => window.lives.push(document.querySelector('#tile-t1').dataset.live))"
                    ".observe(document.querySelector('#tile-t1'), { attributes: true, attributeFilter: ['data-live'] })")
        link.mend()
        pg.wait_for_selector("#banner[hidden]", state="attached", timeout=WAIT_MS)
        time.sleep(2)
        assert "" not in pg.evaluate("window.lives") and pg.get_attribute("#tile-t1", "data-live") == "stalled"
        assert int(pg.inner_text("#tile-t1 .ago").split()[1]) >= 3
        assert httpx.get(server.url + "/api/tables/t1").json()["live"]["stalled"]
    t.close()


def test_a_fresh_display_judges_a_retained_health_by_its_time(browser, fresh_broker, tmp_path, until):
    """A display started after a table froze got the table's last health from the broker (retained) and took it for
    news: the table looked live for three of its periods (6 s here) although it had said nothing for a minute. A
    retained health is as old as its `at` says: from the first, the API says stalled with the health's age and the tile
    says 无响应 and that it last heard from the table a minute ago."""
    import httpx

    t = Connection(fresh_broker.url("table-t1"), clean_start=True).connect()
    for leaf, payload in (("status", {"v": 1, "status": "online", "at": time.time()}),
                          ("health", {**HEALTH, "every": 2.0, "at": time.time() - 60}), ("state", running(60))):
        t.publish(topic("t1", leaf), encode(leaf, payload), qos=1, retain=True)
    assert t.flush(10)  # a minute ago, and nothing since: frozen
    with Server(create_app(Settings(fresh_broker.url("scoreboard"), fresh_broker.url("console"), make_db(tmp_path / "c.db")))) as server:
        def table() -> dict:
            return httpx.get(server.url + "/api/tables/t1").json()

        assert until(lambda: table().get("health") is not None)
        live = table()["live"]
        assert live["stalled"] and live["age"] >= 55, live
        pg = browser.new_context(locale="zh-CN").new_page()
        pg.goto(server.url + "/")
        pg.wait_for_selector("#tile-t1[data-live=stalled] .badge:has-text('无响应')", timeout=WAIT_MS)
        m = re.fullmatch(r"最后消息 (?:(\d+) 分 )?(\d+) 秒前", pg.inner_text("#tile-t1 .ago"))  # 1 分 2 秒前, 58 秒前
        assert m and int(m[1] or 0) * 60 + int(m[2]) >= 55, pg.inner_text("#tile-t1 .ago")
    t.close()
