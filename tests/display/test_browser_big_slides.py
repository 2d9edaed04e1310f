"""The big screen's slides (the system Chromium, the app and a real mosquitto): a panel with nothing to show has no
slide. Before round 1 is paired, or in a hall whose tables play outside the tournament (the demo's Guandan and San Da
Yi tables), the screen turned to 暂无积分榜 and 暂无对阵 for 12 s each, every turn: a hall's screen mostly empty."""

from __future__ import annotations

import pytest
from kit import round_, state, until

pytestmark = pytest.mark.browser
TABLES = ["e1", "e2"]  # the broker's (tests/conftest.py)
WAIT_MS = 30_000
EMPTY = "[...document.querySelectorAll('#standings .empty, #pairings .empty')].some(el => el.offsetParent)"


def slides(big, n: int = 6) -> list[str]:
    seen = []
    for _ in range(n):
        big.evaluate("rotate()")
        seen.append(big.evaluate("document.body.dataset.slide"))
        assert not big.evaluate(EMPTY), seen  # 暂无积分榜 / 暂无对阵 never the screen's whole slide
    return seen


def test_the_big_screen_shows_no_empty_panel(page, table, tournament):
    for i, name in enumerate(TABLES):
        table(name).publish("state", state(seq=10 + i))
    bigs = [page("/big", 1920, 1080), page("/big", 1280, 720)]  # a hall's screen, a TV's
    for big in bigs:
        until(big, "document.querySelectorAll('#wall .tile').length === 2", WAIT_MS)
        assert set(slides(big)) == {"wall:0"}  # no standings, no pairings: the tables alone
    tournament.publish("autumn", "round", round_(tables=[{"table": "e1", "entries": [{"id": "a", "name": "甲队", "unit": "机械学院"},
                                                                                     {"id": "b", "name": "乙队", "unit": "外语学院"}],
                                                          "result": None}]))
    for big in bigs:
        until(big, "!!document.querySelector('#pairings tbody tr')", WAIT_MS)
        assert set(slides(big)) == {"pairings:0", "wall:0"}  # the pairings come in; the standings, still none, do not
