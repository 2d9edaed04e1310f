"""The console by keyboard alone, and in English (the system Chromium against the app, a real table service and a real
mosquitto): a play of the timeline is reached with Tab and opened with Enter (it took a mouse: a line with a click
handler and no focus), the picker takes the focus, and a card pressed keeps it there (each press drew the picker anew
and sent the focus back to the top of the page); where the keyboard is shows on the dark ground. An action's line on
an English page has English punctuation (it said "…：sent to the table"). A round's result is entered so too: the winner
picked and Enter pressed on it (the row is no form: Enter did nothing).
"""

from __future__ import annotations

import re
import time

import pytest
from kit import REFEREE, LiveTable, hall_of, login, state, until

from display.routers import tables
from referee.tournament import Entry, TournamentStore

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
TABLES = ["k1", "k2", "k3"]
FOCUSED = "document.activeElement"


def tab_to(pg, expression: str, most: int = 200) -> None:
    """Press Tab until the focused element satisfies ``expression`` (of ``el``)."""
    for _ in range(most):
        if pg.evaluate(f"(el => !!el && ({expression}))({FOCUSED})"):
            return
        pg.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {expression}")


def pick(pg, row: str, side: str) -> None:
    """Tab to the winner's choice of ``row``, Space on it, the arrows to ``side``: focused and picked."""
    tab_to(pg, f"el.matches('{row} input[type=radio]')")
    pg.keyboard.press("Space")
    for _ in range(2):
        if pg.evaluate(f"{FOCUSED}.matches('{row} input[type=radio][value=\"{side}\"]:checked')"):
            return
        pg.keyboard.press("ArrowRight")
    raise AssertionError(f"side {side} of {row} not picked")


def test_a_play_is_corrected_by_keyboard_alone(page, broker, tmp_path):
    live = LiveTable(broker, "k1", tmp_path / "k1.db")
    try:
        live.to_first_lead()
        live.send("observed", seat="S", cards=["S5"], confidence=0.99)  # accepted: a play to correct
        console = page("/console", 1366, 768)
        console.wait_for_selector("#login-form")
        console.fill("input[name=user]", REFEREE[0])
        console.fill("input[name=password]", REFEREE[1])
        console.keyboard.press("Enter")  # Enter logs in
        console.wait_for_selector("#desk:not([hidden])", timeout=WAIT_MS)
        console.wait_for_selector("button[data-open=k1]", timeout=WAIT_MS)
        console.focus("button[data-open=k1]")
        console.keyboard.press("Enter")
        console.wait_for_selector("#c-timeline li[data-kind=play_accepted]", timeout=WAIT_MS)
        tab_to(console, "el.matches('#c-timeline li[data-kind=play_accepted]')")
        ring = console.evaluate(f"(s => [s.outlineStyle, parseFloat(s.outlineWidth)])(getComputedStyle({FOCUSED}))")
        assert ring[0] != "none" and ring[1] >= 2, ring  # seen where it is
        console.keyboard.press("Enter")
        console.wait_for_selector("#c-picker:not([hidden]) .chosen .pick[data-card=S5]", timeout=WAIT_MS)
        assert console.evaluate(f"document.querySelector('#c-picker').contains({FOCUSED})")
        tab_to(console, "el.matches('#c-picker .chosen .pick[data-card=S5]')", 20)
        console.keyboard.press("Enter")  # S5 out
        console.wait_for_selector("#c-picker .chosen:not(:has(.pick))")
        assert console.evaluate(f"document.querySelector('#c-picker').contains({FOCUSED})")  # not sent back to the top
        tab_to(console, "el.matches('#c-picker .choices .pick[data-card=SK]')")
        console.keyboard.press("Enter")  # SK in
        console.wait_for_selector("#c-picker .chosen .pick[data-card=SK]")
        assert console.evaluate(f"{FOCUSED}.matches('#c-picker .choices .pick[data-card=SK]')")  # the next copy, to add it again
        tab_to(console, "el.id === 'pick-ok'", 200)
        console.keyboard.press("Enter")
        console.wait_for_selector("#result .line:has-text('♠K')", timeout=WAIT_MS)
    finally:
        live.close()


def test_an_english_consoles_lines_read_in_english(page, table, monkeypatch):
    monkeypatch.setattr(tables, "ANSWER_S", 0.5)
    flag = {"flag": "f9", "seat": "W", "kind": "unsure", "at": time.time(), "cards": ["D4"]}
    table("k2").publish("state", state(seq=9, paused=True, flags=[flag]))
    table("k2").taking = False  # it answers nothing
    table("k3").publish("state", state(seq=4))
    console = page("/console", 1366, 768, lang="en")
    login(console)
    console.click(".flag-card[data-table=k2] button[data-how=confirm]")
    console.wait_for_selector("#result.error", timeout=WAIT_MS)
    line = console.inner_text("#result .line")
    assert ": sent to the table, but no answer" in line and "：" not in line, line
    console.click("#all-last-hand")  # one line for every table's announcement
    until(console, "document.querySelector('#result .line').textContent.includes('k3')")
    line = console.inner_text("#result .line")
    assert "k2" in line and not any(c in line for c in "；："), line
    # k2 did not answer: its part says so, in red, beside k3's plain one (the line was said done for both)
    assert console.get_attribute("#result", "class") == "error", line
    said = dict(re.findall(r"announced the last hand at (k\d)(: sent to the table, but no answer)?", line))
    assert said["k2"] and not said["k3"], line  # (k1, a table of an earlier test, answers nothing either)


def test_a_result_is_entered_and_corrected_by_keyboard_alone(browser, broker, tmp_path):
    """A round's row by keyboard: Tab to the winner, Space picks it, Enter records the result (as 录入结果 does: it did
    nothing, a keyboard had to Tab on to the button); with a reason typed, Enter on it corrects the result (更正). The
    panel drawn anew meanwhile (another table's result) leaves the focus on the side picked (it moved to the other
    side, where the next Space picked the wrong winner)."""
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(f"u{u}p{p}", f"甲{u}{p}、乙{u}{p}", f"单位{u}", f"单位{u}", (f"甲{u}{p}", f"乙{u}{p}"))
                             for u in range(1, 5) for p in (1, 2)], name="秋季赛", options={"rounds": 2}, id="keys")
    store.pair_next_round()
    first, other = (x.table for x in store.tournament.round(1).tables[:2])
    row = f"#t-round tr[data-table={first}]"
    points = lambda: TournamentStore(store.path).tournament.round(1).tables[0].outcome  # noqa: E731  (as the file has it)
    try:
        with hall_of(browser, broker, store, tmp_path / "console.db") as (_, console, _board):
            console.wait_for_selector(row, timeout=WAIT_MS)
            pick(console, row, "0")  # the first side wins
            store.record_result(1, other, {"winner": 1})  # the panel drawn anew meanwhile: the focus stays on that side
            console.wait_for_selector(f"#t-round tr[data-table={other}] .finished", timeout=WAIT_MS)
            assert console.evaluate(f"{FOCUSED}.matches('{row} input[value=\"0\"]:checked')")
            console.keyboard.press("Enter")
            console.wait_for_selector(f"{row} .finished", timeout=WAIT_MS)
            assert points().points == (2, 0) and console.get_attribute("#result", "class") != "error"
            pick(console, row, "1")  # the other side, then why
            tab_to(console, f"el.matches('{row} input[name=reason]')")
            console.keyboard.type("记错了胜方")
            console.keyboard.press("Enter")
            until(console, "document.querySelector('#result .line').textContent.includes('记错了胜方')")
            assert points().points == (0, 2) and console.get_attribute("#result", "class") != "error"
    finally:
        store.close()
