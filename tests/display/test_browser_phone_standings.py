"""The standings and pairings on a phone (the system Chromium against the app and a real mosquitto), as a player reads
them between two rounds: a team named after its unit (pair Swiss's usual team: 数学学院 of 数学学院) is named once, not
in a 队 and a 单位 column side by side, each squeezed to a character a line; a team of a name of its own (一队) says its
unit beside it, as the pairings do; a unit's or a player's name in the pairings moves to the next line whole."""

from __future__ import annotations

import pytest
from kit import round_, standings

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
LONG = "光电信息与计算机工程学院"
WIDE = "很" * 40  # a unit's name wider than a 360 px phone's line

NAMES = """sel => [...document.querySelectorAll(sel)].flatMap(el => {  // each name of its words (a unit, a player: between
  // spaces and 、) and the lines its characters take
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), out = [];
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    for (const m of node.data.matchAll(/[^\\s、]+/g)) {
      const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      out.push([m[0], new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top))).size]);
    }
  }
  return out;
})"""
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


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_units_name_in_the_pairings_moves_to_the_next_line_whole(page, tournament, lang):
    """On a 360 px phone a long unit's name (光电信息与计算机工程学院) broke where the line ended, 光电信息与计算机工 /
    程学院 (in English 数学科 / 学学院 too): a unit's and a player's name now moves to the next line whole, in the
    pairings and the byes; one wider than the line (WIDE) breaks, and the page does not scroll sideways."""
    players = ["张伟、李娜", "欧阳明月、司马长风", "王芳、赵磊", "诸葛亮、上官婉儿", "陈晨、刘洋"]
    units = [LONG, "数学科学学院", LONG, "外国语学院", WIDE]
    rows = [{"rank": i + 1, "id": f"p{i}", "name": name, "unit": unit, "score": 0, "tiebreaks": [0, 0], "prize": None}
            for i, (name, unit) in enumerate(zip(players, units, strict=True))]
    entries = [{"id": r["id"], "name": r["name"], "unit": r["unit"], "lot": i + 1} for i, r in enumerate(rows)]
    tables = [{"table": "t1", "entries": entries[:2], "result": None},
              {"table": "t12", "entries": entries[2:4], "result": {"points": [2, 0], "scores": [3, 1]}}]
    tournament.publish("phone-pairings", "standings", standings("phone-pairings", rows=rows))
    tournament.publish("phone-pairings", "round", round_("phone-pairings", tables) | {"byes": ["p4"]})
    pg = page("/", 360, 740, lang=lang)
    pg.wait_for_selector("#pairings tr[data-table=t12]", timeout=WAIT_MS)
    pg.wait_for_selector("#pairings .byes", timeout=WAIT_MS)
    names = pg.evaluate(NAMES, "#pairings td, #pairings .byes")
    assert {LONG, "数学科学学院", "外国语学院", "欧阳明月", "司马长风", WIDE} <= {name for name, _ in names}, names
    assert [name for name, n in names if n != 1] == [WIDE], names  # each on one line, but the one wider than the line
    assert pg.evaluate("document.documentElement.scrollWidth <= innerWidth")  # no sideways scroll of the page
    assert pg.evaluate("document.querySelector('#pairings table').scrollWidth <= document.querySelector('#pairings .body').clientWidth")


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("system, columns", [("pair-swiss", ["对手分", "级差"]), ("individual-tables", ["小分", "弃权"])])
def test_the_standings_fit_a_360_px_phone_whole(page, tournament, lang, system, columns):
    """On a 360 px phone the English standings of pair Swiss ran 26 px past their panel: its last column read "Pri", the
    rest of it only by scrolling the panel sideways; the Chinese ones broke a prize, 一等 / 奖. Every column is shown
    whole, a prize on one line, in both languages, for each system's columns, a long name among the rows."""
    rows = [{"rank": 1, "id": "long", "name": LONG, "unit": LONG, "score": 12, "tiebreaks": [30, 14], "prize": "一等奖"},
            {"rank": 2, "id": "math", "name": "数学科学学院", "unit": "数学科学学院", "score": 10, "tiebreaks": [28, 9], "prize": None}]
    tid = f"phone-{system}"
    tournament.publish(tid, "standings", standings(tid, rows=rows) | {"system": system, "columns": columns})
    pg = page("/", 360, 740, lang=lang)
    pg.wait_for_selector("#standings tr[data-entry=math]", timeout=WAIT_MS)
    assert pg.evaluate("document.querySelector('#standings table').scrollWidth <= document.querySelector('#standings .body').clientWidth")
    for text, n in pg.evaluate(LINES, "#standings tbody td:not(.num)"):
        assert n <= max(1, len(text) // 3), (text, n)  # still no name a character a line
