"""A table whose presence is not known (its state heard, never its status: a service that died before it said online,
its retained status cleared) never looks live, in the system Chromium against the app and a real mosquitto: the hall
walk found its tile green, its badge a small grey "未知", as a table refereeing would look."""

from __future__ import annotations

import re
import time

import pytest
from kit import login, state

pytestmark = pytest.mark.browser
TABLES = ["u1", "u2"]
WAIT_MS = 30_000
FELT = "rgb(29, 90, 58)"  # #1d5a3a
GREY, ALARM = "rgb(58, 58, 58)", "rgb(198, 40, 40)"  # an offline tile's #3a3a3a, its badge's --alarm  # style.css --felt: a live table's tile


def _look(pg, tile: str) -> tuple[str, str, str]:
    """The tile's background, its badge's words and background."""
    return pg.evaluate(f"""(() => {{ const t = document.querySelector('{tile}'), b = t.querySelector('.badge');
      return [getComputedStyle(t).backgroundColor, b.textContent, getComputedStyle(b).backgroundColor]; }})()""")


def test_a_table_whose_status_is_not_known_looks_not_live(page, table):
    u1 = table("u1")
    u1.publish("state", state(seq=3))
    for lang, words in (("zh", "状态未知"), ("en", "status not known")):
        pg = page("/", lang=lang)
        pg.wait_for_selector("#tile-u1[data-seq='3']", timeout=WAIT_MS)
        felt, said, badge = _look(pg, "#tile-u1")
        assert (felt, said, badge) == (GREY, words, ALARM)  # as an offline table's
    # its status said: online, a live tile
    u1.publish("status", {"v": 1, "status": "online", "at": time.time()})
    pg.wait_for_selector("#tile-u1.online", timeout=WAIT_MS)
    assert _look(pg, "#tile-u1")[0] == FELT


def test_the_consoles_row_says_its_status_is_not_known(page, table):
    table("u2").publish("state", state(seq=4, at=time.time()))
    console = page("/console")
    login(console)
    console.wait_for_selector("#c-tables tr[data-table=u2]", timeout=WAIT_MS)
    console.wait_for_selector("#c-tables tr[data-table=u2] td.live .unknown", timeout=WAIT_MS)
    assert re.fullmatch(r"状态未知 最后消息 \d+ 秒前", console.inner_text("#c-tables tr[data-table=u2] td.live"))  # since when, as offline's
