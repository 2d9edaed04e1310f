"""A Guandan wildcard lead's reading, asked of the referee and answered from the console, in the system Chromium against
a real mosquitto and a real table service.

Seed 002 二: 红心x可作为万能牌配用…x4567，相当于34567（或45678须出牌时说明）. S leads ♥2 (the wildcard at level 2) ♠4 ♠5
♠6 ♣7; E's 45678 beats 34567 and not 45678, so the table holds E's follow on a ``play_reading`` flag whose ``choices``
are the lead's readings, its ``choice_words`` their words. The console shows one button per reading, its words and its
cards as the reading reads them, and a confirm that says the lowest stands and nothing is charged (not 甩错牌's penalty)."""

from __future__ import annotations

import pytest
from kit import LiveTable, login

pytestmark = pytest.mark.browser
TABLES = ["g1", "g2"]
WAIT_MS = 30_000
LEAD, FOLLOW = ["H2", "S4", "S5", "S6", "C7"], ["D4", "D5", "D6", "D7", "C8"]


def _asked(broker, name: str, db) -> LiveTable:
    live = LiveTable(broker, name, db, rulebook="sanjiang-2012")
    live.seated()
    live.send("board/in", seat="S", button="ready")  # the draw is done: S drew the turned-up card and leads (七)
    live.send("observed", seat="S", cards=LEAD, confidence=0.99)
    live.send("observed", seat="E", cards=FOLLOW, confidence=0.99)
    assert live.service.table.flags[0].kind == "play_reading"
    return live


def _buttons(console, card: str) -> list:
    return [[" ".join(b.inner_text().split()), b.get_attribute("data-reading"),
             [c.get_attribute("data-card") for c in b.locator("svg.card").all()]] for b in console.locator(f"{card} button").all()]


def test_the_referee_names_the_reading_the_leader_stated(page, broker, tmp_path):
    live = _asked(broker, "g1", tmp_path / "g1.db")
    try:
        console = page("/console")
        login(console)
        card = ".flag-card[data-table=g1]"
        console.wait_for_selector(f"{card} button[data-reading]", timeout=WAIT_MS)
        assert _buttons(console, card) == [["说明了： 到 7 的顺子", "1", LEAD],
                                           ["说明了： 到 8 的顺子", "2", ["S4", "S5", "S6", "C7", "H2"]],
                                           ["没有说明：按最小的牌型，不罚", None, []], ["更正", None, []]]
        console.click(f"{card} button[data-reading='1']")  # 34567: E's 45678 beats it
        console.wait_for_selector("#c-flags .empty", timeout=WAIT_MS)
        assert console.inner_text("#result .line").endswith("：出牌者说明了第 1 种读法 到 7 的顺子 ♥2 ♠4 ♠5 ♠6 ♣7")  # the audit line
        table = live.service.table
        assert not table.flags and table.hand.table.seat == "E" and table.hand.turns[0].reading.rank == 7
    finally:
        live.close()


def test_in_english_and_none_stated_the_lowest_stands(page, broker, tmp_path):
    live = _asked(broker, "g2", tmp_path / "g2.db")
    try:
        console = page("/console", lang="en")
        login(console)
        card = ".flag-card[data-table=g2]"
        console.wait_for_selector(f"{card} button[data-reading]", timeout=WAIT_MS)
        assert [b[0] for b in _buttons(console, card)] == ["Stated: straight to 7", "Stated: straight to 8",
                                                          "Not stated: the lowest reading, nothing charged", "Correct"]
        console.click(f"{card} button[data-how=confirm]")
        console.wait_for_selector("#c-flags .empty", timeout=WAIT_MS)
        table = live.service.table
        assert not table.flags and table.hand.table.seat == "E" and table.hand.turns[0].reading.rank == 7
    finally:
        live.close()
