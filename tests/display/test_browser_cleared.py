"""A table cleared on the broker (its retained ``state`` deleted: an empty retained payload), in the system Chromium
against the app and a real mosquitto: its tile leaves the scoreboard and the big screen at once, and the big screen's
wall is paged anew then, not at its next slide: no empty slot on the page shown, no page beyond the last."""

from __future__ import annotations

import pytest
from kit import state, until

from bus.protocol import topic

pytestmark = pytest.mark.browser
TABLES = [f"k{i}" for i in range(1, 10)]
HELD = "const every = setInterval; setInterval = (f, ms, ...a) => ms === 12000 ? 0 : every(f, ms, ...a);"  # no slide by time
WALL = """() => ({slide: document.body.dataset.slide,
  shown: [...document.querySelectorAll('#wall .tile')].filter(el => !el.hidden && el.offsetParent).map(el => el.dataset.table),
})"""


def clear(t) -> None:
    t.conn.publish(topic(t.name, "state"), b"", qos=1, retain=True)
    assert t.conn.flush(5.0)


def test_a_cleared_tables_tile_leaves_the_scoreboard_and_the_big_screen_pages_anew_at_once(page, table):
    for i, name in enumerate(TABLES):
        table(name).publish("state", state(seq=10 + i))
    home = page("/")
    big = page("/big", 1920, 1080, script=HELD)
    for pg in (home, big):
        until(pg, f"document.querySelectorAll('#wall .tile').length === {len(TABLES)}")
    size = big.evaluate("pageSize([...document.querySelectorAll('#wall .tile')])")  # shows every tile: paged again
    assert 1 < size < len(TABLES) - 1, size  # pages of tiles, the last one not full
    big.evaluate("rotate('wall:0')")  # the wall's first page
    first = big.evaluate(WALL)
    assert first["slide"] == "wall:0" and first["shown"] == TABLES[:size], first
    clear(table(TABLES[1]))  # a tile of the page shown: the next page's first takes its slot at once
    for pg in (home, big):
        until(pg, "!document.getElementById('tile-k2')", 5000)
    until(big, f"({WALL})().shown.length === {size}", 2000)
    assert big.evaluate(WALL)["shown"] == [TABLES[0]] + TABLES[2:size + 1]
    assert "k2" not in home.inner_text("#wall") and "k2" not in big.inner_text("#wall")
    left = [TABLES[0]] + TABLES[2:]
    last = (len(left) - 1) // size  # the last page of the eight left
    while big.evaluate("document.body.dataset.slide") != f"wall:{last}":
        big.evaluate("rotate()")
    gone = left[last * size:]
    for name in gone:  # every tile of the last page: the wall's page before it is shown, whole
        clear(table(name))
    until(big, f"document.querySelectorAll('#wall .tile').length === {len(left) - len(gone)}", 5000)
    until(big, f"document.body.dataset.slide === 'wall:{last - 1}'", 2000)
    assert big.evaluate(WALL)["shown"] == left[(last - 1) * size:last * size]
    until(home, f"document.querySelectorAll('#wall .tile').length === {len(left) - len(gone)}", 5000)
    for name in left:  # and the last one gone: the wall says it has no table, on both pages
        clear(table(name))
    for pg in (home, big):
        until(pg, "!document.querySelector('#wall .tile') && !!document.querySelector('#wall .empty')", 5000)
        assert pg.inner_text("#wall .empty") == "暂无牌桌"
