"""A corrected play found on the timeline, in the system Chromium against the app (uvicorn) and a real mosquitto: the
console's audit line of an amendment names the play by its entry number (将 a1 桌第 37 条 南 王芳 的出牌由 ♠5 ♠5 更正为 …),
as the picker does, but no timeline line showed that number, so a referee could not find the play it corrected. Each
play's line on the timeline (the table page's and the console's) now says its entry number as the audit line does."""

from __future__ import annotations

import re

import pytest
from kit import login, state

pytestmark = pytest.mark.browser
TABLES = ["a1", "a2"]  # the module broker's tables
WAIT_MS = 30_000
SEED_AMEND = "牌一经触桌，不得收回"  # a play disputed is corrected by the referee, never taken back at the table
SAID = {"zh": ("a1", r"第 (\d+) 条", "第 37 条"), "en": ("a2", r"play (\d+) at", "entry 37")}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_play_an_audit_line_corrected_is_found_by_its_number(page, table, lang):
    assert "不得收回" in SEED_AMEND
    t = table(SAID[lang][0])
    t.publish("state", state(seq=36, hand=3, trick=1))
    name, in_audit, shown = SAID[lang]
    t.event(37, "play_accepted", hand=3, trick=1, seat="S", cards=["S5", "S5"])
    t.event(38, "play_accepted", hand=3, trick=1, seat="E", cards=["S9", "S9"])
    board = page(f"/tables/{name}", lang=lang)
    console = page("/console", lang=lang)
    login(console)
    console.click(f"#c-tables button[data-open={name}]")
    console.wait_for_selector("#c-timeline li[data-seq='38']", timeout=WAIT_MS)
    console.evaluate(f"act(() => api('POST', '/api/console/tables/{name}/plays/37', {{cards: ['S5', 'S6']}}))")
    audit = console.locator(f"#c-audit tr[data-action=amend]:has-text('{name}')")
    audit.wait_for(timeout=WAIT_MS)
    entry = re.search(in_audit, audit.inner_text()).group(1)
    assert entry == "37"
    for pg, box in ((board, "#timeline"), (console, "#c-timeline")):
        pg.wait_for_selector(f"{box} li[data-seq='38']", timeout=WAIT_MS)
        assert pg.inner_text(f"{box} li[data-seq='{entry}'] .entry-no") == shown
        assert pg.locator(f"{box} .entry-no").all_inner_texts() == [shown.replace("37", "38"), shown]
