"""The standings on a phone (390 x 844, the system Chromium against the app and a real mosquitto), as a player reads
them between two rounds: a team named after its unit (pair Swiss's usual team: 数学学院 of 数学学院) is named once, not
in a 队 and a 单位 column side by side, each squeezed to a character a line; a team of a name of its own (一队) says its
unit beside it, as the pairings do."""

from __future__ import annotations

import pytest
from kit import standings

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
LONG = "光电信息与计算机工程学院"

LINES = """sel => [...document.querySelectorAll(sel)].map(el => {  // each cell's words and the lines they take
  const r = document.createRange(); r.selectNodeContents(el);
  return [el.textContent, new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top))).size];
})"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_team_named_after_its_unit_is_named_once(page, tournament, lang):
    rows = [{"rank": 1, "id": "math", "name": "数学科学学院", "unit": "数学科学学院", "score": 4, "tiebreaks": [0, 4], "prize": None},
            {"rank": 2, "id": "long", "name": LONG, "unit": LONG, "score": 4, "tiebreaks": [2, 3], "prize": None},
            {"rank": 3, "id": "one", "name": "一队", "unit": LONG, "score": 2, "tiebreaks": [2, 0], "prize": None},
            {"rank": 4, "id": "two", "name": "二队", "unit": LONG, "score": 0, "tiebreaks": [4, -4], "prize": None}]
    tournament.publish("phone", "standings", standings("phone", rows=rows))
    pg = page("/", 390, 844, lang=lang)
    pg.wait_for_selector("#standings tr[data-entry=two]", timeout=WAIT_MS)
    cells = lambda entry: pg.locator(f"#standings tr[data-entry={entry}]").inner_text().split("\t")  # noqa: E731
    assert pg.locator("#standings thead th").count() == 6  # no column of units beside the names
    assert cells("math") == ["1", "数学科学学院", "4", "0", "4", ""]  # once
    assert cells("long")[1:3] == [LONG, "4"]
    assert cells("one")[1:3] == [f"一队 {LONG}", "2"]  # a team of a name of its own says its unit
    # read as words: no name broken a character a line (数/学/科/学/学/院 in a column of one character)
    for text, n in pg.evaluate(LINES, "#standings tbody td:not(.num)"):
        assert n <= max(1, len(text) // 3), (text, n)
    assert pg.evaluate("document.querySelector('#standings table').scrollWidth <= document.querySelector('#standings .body').clientWidth")
