"""The console's round on a phone (390 x 844), in the system Chromium against the app (uvicorn) and a real mosquitto: a
referee entering results between two rounds read a unit's name broken where the line ended, 光电信息与计算机工 / 程学院
(数学科 / 学学院), and took it for two. A name (a unit's, a team's, a player's) now moves to the next line whole, as the
scoreboard's pairings do, and the page does not scroll sideways; one wider than the line still breaks."""

from __future__ import annotations

import pytest
from kit import OWN_USERS, login, served, until

from referee.tournament import Entry, TournamentStore

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
SEED_000_4_5 = "各队的团体成绩由本队两对选手轮分积分累加"  # 000 四5: pairs of two units' teams, named at length
UNITS = ["光电信息与计算机工程学院", "数学科学学院", "外国语言文学学院", "马克思主义学院"]
NAMES = """sel => [...document.querySelectorAll(sel)].flatMap(el => {  // each name of its words (between spaces, 、 and
  // ·) and the lines its characters take
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), out = [];
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    for (const m of node.data.matchAll(/[^\\s、·]+/g)) {
      const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      out.push([m[0], new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top))).size]);
    }
  }
  return out;
})"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_units_name_in_the_consoles_round_stays_whole_on_a_phone(browser, broker, tmp_path, lang):
    assert "两对选手" in SEED_000_4_5
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(f"u{u}p{p}", f"欧阳明月{u}{p}、司马长风{u}{p}", UNITS[u], "甲乙丙丁"[u] + "队",
                                   (f"欧阳明月{u}{p}", f"司马长风{u}{p}")) for u in range(4) for p in (1, 2)],
              name="秋季赛", seed=4, options={"rounds": 2}, id="pr")
    store.pair_next_round()
    store.close()
    with served(broker, tmp_path / "console.db", tmp_path / "hall.db", users=OWN_USERS) as server:
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN" if lang == "zh" else "en-GB")
        try:
            console = context.new_page()
            console.goto(server.url + "/console")
            login(console)
            console.wait_for_selector("#t-round tr[data-table] .entry", timeout=WAIT_MS)
            until(console, "document.fonts.status === 'loaded'")
            names = console.evaluate(NAMES, "#t-round tr[data-table] td:nth-child(2)")
            assert set(UNITS) <= {name for name, _ in names}, names
            assert [name for name, n in names if n != 1] == [], names  # each name on one line
            assert console.evaluate("document.documentElement.scrollWidth <= innerWidth")  # no sideways scroll
        finally:
            context.close()
