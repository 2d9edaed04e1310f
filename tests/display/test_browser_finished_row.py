"""A finished table's row in the console, in the system Chromium against the app (uvicorn) and a real mosquitto: a table
whose round is over (本轮结束, 已完成) still offered 宣布最后一盘, a button with no next hand to announce (001 三: the last
hand is announced while a round is played; the table refuses it, table.last_hand_no_round). Now it is offered only at a
table playing a round (and at one not heard of yet, its row the one place to announce it); an idle table offers none."""

from __future__ import annotations

import pytest
from kit import login, state

pytestmark = pytest.mark.browser
TABLES = ["d1", "d2", "d3"]  # the module broker's tables
WAIT_MS = 30_000
SEED_000 = "正在竞赛的当盘牌为最后一盘牌，赛完该盘牌结束当轮竞赛"  # 000 通知 四 3: the hand being played, once the round's over none


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_finished_table_offers_no_last_hand(page, table, lang):
    assert "当盘牌为最后一盘" in SEED_000
    table("d1").publish("state", state(seq=90, phase="round_over", round={**state()["round"], "left": 0}))
    table("d2").publish("state", state(seq=91))  # playing a round
    table("d3").publish("state", state(seq=92, phase="idle"))
    console = page("/console", lang=lang)
    login(console)
    row = "#c-tables tr[data-table={}]"
    console.wait_for_selector(row.format("d2") + " button[data-cmd=last_hand]", timeout=WAIT_MS)
    console.wait_for_selector(row.format("d1") + " td.finished", timeout=WAIT_MS)
    assert console.inner_text(row.format("d1") + " td.finished") == ("已完成" if lang == "zh" else "finished")
    for t in ("d1", "d3"):
        assert console.locator(row.format(t) + " button[data-cmd=last_hand]").count() == 0, t
    assert console.locator(row.format("d1") + " button[data-cmd=start_round]").count() == 1  # the next round is offered
