"""Two displays of one broker user on two machines (``display serve``'s lock holds one a machine only): the broker gives
a user's connection to the newer, and the older took it back at once, the newer then took it back in turn, for ever,
ten times a second, each display missing the plays the broker gave the other, and each looking live half the time.
Now the display whose connection was taken over yields (``bus.mqtt``'s ``yields``): it stops reconnecting, says so in
both languages in its log and to the console (``GET /api/console/health``), and its pages show it cut off from the
broker (``feed`` false) until it is restarted; the newer keeps the connection. A real mosquitto, the older display an app
served here, the newer a real ``cardtable display serve`` (another machine: no lock of the first's). These are the
display's own rules, not a rulebook's: no seed article speaks of a display's broker user."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from kit import ORGANISER, login, make_db, served
from kit import until as shows

from bus.broker import free_port
from bus.mqtt import TAKEN_WITHIN_S
from display.feed import Feed

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 30.0
QUIET_S = 2 * TAKEN_WITHIN_S  # watched this long once one yielded: no connection more, never live


def watch(read, seconds: float) -> list:
    """``read()`` every 0.1 s for ``seconds``: what it said."""
    seen, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        seen.append(read())
        time.sleep(0.1)
    return seen


def feed_of(url: str) -> bool | None:
    """Whether the display serving ``url`` shows its feed live (None: it does not serve yet)."""
    try:
        return httpx.get(url + "/api/hall", timeout=10).json()["feed"]
    except httpx.HTTPError:
        return None


def test_the_older_of_two_feeds_of_one_user_yields_and_stays_down(broker, until, caplog):
    """Both connections of each (the scoreboard's and the console's users): the older's are taken over, each once."""
    caplog.set_level(logging.ERROR, logger="display.feed")
    older = Feed(broker.url("scoreboard"), broker.url("console")).start()
    newer = None
    try:
        assert until(lambda: older.hall.feed and older.hall.commands, WAIT_S)
        newer = Feed(broker.url("scoreboard"), broker.url("console")).start()
        time.sleep(TAKEN_WITHIN_S)  # the fight, where there is one, is on
        until(lambda: older.scoreboard.taken and older.console.taken and not older.hall.commands, WAIT_S)  # or not
        tries = (older.scoreboard.connects, older.console.connects, newer.scoreboard.connects, newer.console.connects)
        shown = watch(lambda: (older.hall.feed, older.hall.commands, newer.hall.feed, newer.hall.commands), QUIET_S)
        assert set(shown) == {(False, False, True, True)}, shown  # never live again; the newer live
        assert (older.scoreboard.connects, older.console.connects, newer.scoreboard.connects,
                newer.console.connects) == tries and max(tries) <= 3, tries  # no fight: nobody connects again
        assert not older.can_send and newer.can_send and set(older.taken) == {"scoreboard", "console"}
        zh, en = older.taken["scoreboard"]["zh"], older.taken["console"]["en"]
        assert zh.startswith("本显示服务已不再实时显示赛场：另一个显示服务（在另一台机器上）用同一计分板用户 'scoreboard' 连上了")
        assert "这里不再重连" in zh and "`--scoreboard-user scoreboard-2`" in zh, zh
        assert en.startswith("this display can no longer send the tables commands: another display connected to the "
                             "broker as its console user 'console'") and "`--console-user console-2`" in en, en
        logged = [r.getMessage() for r in caplog.records if r.name == "display.feed"]
        assert len(logged) == 2 and any(m.startswith("this display no longer shows the hall live") for m in logged), logged
        assert newer.taken == {}
    finally:
        older.stop()
        if newer is not None:
            newer.stop()


@pytest.mark.browser
def test_a_display_taken_over_by_a_serve_on_another_machine_shows_the_feed_down_and_says_why(broker, tmp_path, until,
                                                                                             caplog, browser):
    caplog.set_level(logging.ERROR, logger="display.feed")
    credentials = broker.write_credentials(tmp_path / "credentials", ["scoreboard", "console"])
    port, before = free_port(), broker.log_tail(100_000).count("Client scoreboard already connected")
    with served(broker, tmp_path / "here.db") as here:
        assert until(lambda: feed_of(here.url), WAIT_S)
        other = subprocess.Popen([sys.executable, "-m", "cardtable", "display", "serve", "--db", str(tmp_path / "other.db"),
                                  "--port", str(port), "--broker", broker.address, "--credentials", str(credentials)],
                                 cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        there = f"http://127.0.0.1:{port}"
        try:
            feed = here.server.config.app.state.ctx.feed
            assert until(lambda: other.poll() is None and feed_of(there) and feed_of(here.url) is False, WAIT_S), other.poll()
            time.sleep(TAKEN_WITHIN_S)  # the fight, where there is one, is on
            until(lambda: feed.scoreboard.taken is not None and not feed.hall.feed, WAIT_S)  # a loaded machine: or not
            connects = feed.scoreboard.connects
            shown = watch(lambda: (feed_of(here.url), feed_of(there)), QUIET_S)
            assert set(shown) == {(False, True)} and feed.scoreboard.connects == connects <= 3, (shown, connects)
            with httpx.Client(base_url=here.url, timeout=10, headers={"Origin": here.url}) as console:
                assert console.get("/api/console/health").status_code == 401  # the broker's users: the console's alone
                assert console.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
                health = console.get("/api/console/health").json()
            assert not health["feed"] and not health["commands"], health
            assert health["taken"]["scoreboard"]["zh"].startswith("本显示服务已不再实时显示赛场")
            assert "重启之前，它的页面一直显示与消息服务器断开" in health["taken"]["scoreboard"]["zh"]
            assert any(r.getMessage().startswith("this display no longer shows the hall live") for r in caplog.records)
            context = browser.new_context(locale="zh-CN")
            try:  # the console's banner says it, to a login alone, in the page's language
                pg = context.new_page()
                pg.goto(here.url + "/console")
                assert pg.evaluate("document.querySelector('#taken').hidden")
                login(pg)
                shows(pg, "!document.querySelector('#taken').hidden && "
                          "document.querySelector('#taken').textContent.includes('本显示服务已不再实时显示赛场')")
                assert "`--console-user console-2`" in pg.evaluate("document.querySelector('#taken').textContent")
                asked = ("performance.getEntriesByType('resource').filter(e => e.name.endsWith('/api/console/health'))"
                         ".map(e => e.startTime)")
                asked_before = len(pg.evaluate(asked))
                pg.evaluate("for (let i = 0; i < 20; i++) renderFeed()")  # as a flapping feed's events and snapshots do
                pg.wait_for_timeout(2500)
                times = pg.evaluate(asked)  # asked on each render while the feed was down: now once a second at most
                assert 1 <= len(times) - asked_before <= 2 and all(b - a >= 990 for a, b in zip(times, times[1:])), times
                pg.click("#lang")
                shows(pg, "document.querySelector('#taken').textContent.startsWith('this display no longer shows the hall live')")
                pg.click("#logout")
                shows(pg, "document.querySelector('#taken').hidden")
            finally:
                context.close()
        finally:
            other.terminate()
            other.wait(30)
    taken = broker.log_tail(100_000).count("Client scoreboard already connected") - before
    assert taken <= 4, taken  # the serve's probe, back, over, back (and at worst once more): no more
