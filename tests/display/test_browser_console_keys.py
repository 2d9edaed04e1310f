"""The console by keyboard alone, and in English (the system Chromium against the app, a real table service and a real
mosquitto): a play of the timeline is reached with Tab and opened with Enter (it took a mouse: a line with a click
handler and no focus), the picker takes the focus, and a card pressed keeps it there (each press drew the picker anew
and sent the focus back to the top of the page); where the keyboard is shows on the dark ground. An action's line on
an English page has English punctuation (it said "…：sent to the table").
"""

from __future__ import annotations

import time

import pytest
from kit import REFEREE, LiveTable, login, state, until

from display.routers import tables

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
