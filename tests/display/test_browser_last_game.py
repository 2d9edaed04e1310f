"""A San Da Yi table's last game announced, in the system Chromium against the app (uvicorn) and a real mosquitto: San
Da Yi plays games (局: 004 每轮进行8局比赛), and its tile says 第 2 局 · 第 10 圈; beside it the mark said 最后一盘 and its
timeline 本盘为最后一盘（第 2 盘）, the words of the games that play hands. Now 最后一局 and 本局为最后一局（第 2 局）
(Last game, this is the last game (game 2)); a Tractor table's stay 最后一盘."""

from __future__ import annotations

import time

import pytest
from kit import state

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
TABLES = ["g1", "g2"]  # the module broker's tables
SEED_004 = "每轮进行8局比赛"


def announced(t, seq: int, **rules) -> None:
    s = state(seq=seq, hand=2, **rules)
    t.publish("state", s)  # the table's game, known before the event (a table publishes states all round)
    s = {**s, "seq": seq + 1, "round": {**s["round"], "last_hand": True}}
    t.publish("events", {"v": 1, "seq": seq + 1, "kind": "last_hand", "at": time.time(), "data": {"hand": 2}})
    t.publish("state", s)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_san_da_yi_last_game_is_a_game(page, table, lang):
    assert "8局" in SEED_004
    teams = [{"name": "dealer", "seats": ["E"], "level": None, "points": 0},
             {"name": "allies", "seats": ["S", "N", "W"], "level": None, "points": 0}]
    announced(table("g1"), 60, rulebook="usst-2016", dealer="E", trump=None, teams=teams)
    announced(table("g2"), 70)
    pg = page("/tables/g1", lang=lang)
    pg.wait_for_selector("#tile-g1[data-seq='61'] .lh", timeout=WAIT_MS)
    assert pg.inner_text("#tile-g1 .lh") == ("最后一局" if lang == "zh" else "Last game")
    line = pg.locator("#timeline li[data-kind=last_hand]")
    line.wait_for(timeout=WAIT_MS)
    assert line.inner_text().endswith("本局为最后一局（第 2 局）" if lang == "zh" else "this is the last game (game 2)")
    board = page("/", lang=lang)
    board.wait_for_selector("#tile-g2[data-seq='71'] .lh", timeout=WAIT_MS)
    assert board.inner_text("#tile-g2 .lh") == ("最后一盘" if lang == "zh" else "Last hand")
