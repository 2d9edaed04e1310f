"""The display's broker connection cut while a table plays on: the broker keeps no events for it (a clean session),
so the plays made meanwhile never reached the table's timeline, and nothing said so: the tile showed a play (its
state is retained) that the timeline never did. Now the timeline says where it lacks them, as after a restart
(``Hall.reconnected``). A real table service on a real mosquitto, the display's link to it through a relay, Chromium."""

from __future__ import annotations

import time

import pytest
from kit import LiveTable, Relay, Server, make_db

from display.app import Settings, create_app

pytestmark = pytest.mark.browser
TABLES = ["k1"]
WAIT_MS = 30_000  # the longest a page may take to show what the broker delivered (a loaded machine)
CUT = "显示服务与消息服务器断开期间，本桌的事件没有收到：这里缺了一段"


def test_plays_made_while_the_display_was_cut_off_from_the_broker_are_said_missing(browser, broker, tmp_path):
    live = LiveTable(broker, "k1", tmp_path / "k1.db")
    try:
        with Relay(broker) as link, \
                Server(create_app(Settings(link.url("scoreboard"), broker.url("console"), make_db(tmp_path / "c.db")))) as server:
            live.to_first_lead()
            pg = browser.new_context(locale="zh-CN").new_page()
            pg.goto(server.url + "/tables/k1")
            pg.wait_for_selector("#timeline li[data-kind=trump_named]", timeout=WAIT_MS)
            link.cut()  # connected again at once: nothing was published meanwhile, nothing is said missing
            pg.wait_for_selector("#banner:not([hidden])", state="attached", timeout=WAIT_MS)
            link.mend()
            pg.wait_for_selector("#banner[hidden]", state="attached", timeout=WAIT_MS)
            link.cut()
            pg.wait_for_selector("#banner:not([hidden])", state="attached", timeout=WAIT_MS)
            live.send("observed", seat="S", cards=["S5", "S5"], confidence=0.97)  # published while the display is away
            time.sleep(0.5)
            link.mend()
            pg.wait_for_selector("#tile-k1 .seat.S svg.card[data-card=S5]", timeout=WAIT_MS)  # the retained state shows it
            live.send("observed", seat="E", cards=["S4", "S3"], confidence=0.97)
            pg.wait_for_selector("#timeline li[data-kind=play_accepted]:has-text('东 李强 出 ♠4 ♠3')", timeout=WAIT_MS)
            kinds = pg.eval_on_selector_all("#timeline li", "els => els.map(e => [e.dataset.kind, e.innerText])")[::-1]
            assert [k for k, _ in kinds[-3:]] == ["trump_named", "missed", "play_accepted"], kinds
            assert CUT in kinds[-2][1] and not any("南 王芳 出" in text for _, text in kinds), kinds
            assert sum(k == "missed" for k, _ in kinds) == 1, kinds  # the cut with nothing published meanwhile: no line
    finally:
        live.close()
