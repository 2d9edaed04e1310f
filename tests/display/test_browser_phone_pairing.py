"""A referee entering a pair Swiss result on a phone (390 x 844), in the system Chromium against the app (uvicorn), a
real mosquitto and the tournament service: each table's winner is picked by the round button before an entry's name.
The line broke between the button and the name (… 对 ○ / 9号 外语学院, … vs ○ / No. 9 …), so the button at a line's end
read as the next entry's, beside the other; now a button keeps its entry's number and name on its line."""

from __future__ import annotations

import pytest
from kit import hall_of

from referee.tournament import Entry, TournamentStore

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
SEED_000_4_5 = "各队的团体成绩由本队两对选手轮分积分累加"  # 000 四5: pairs of two units' teams, named at length
APART = """() => [...document.querySelectorAll('#t-round label[data-entry]')].filter(label => {  // a button not on its name's line
  const dot = label.querySelector('input').getBoundingClientRect(), r = document.createRange();
  r.selectNodeContents(label.querySelector('.entry')); const first = [...r.getClientRects()].find(x => x.width > 0);
  return Math.abs((dot.top + dot.bottom) / 2 - (first.top + first.bottom) / 2) > first.height / 2;
}).map(label => label.textContent.trim())"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_winners_button_stays_beside_its_entry_on_a_phone(browser, broker, tmp_path, lang):
    assert "两对选手" in SEED_000_4_5
    store = TournamentStore(tmp_path / "hall.db")
    units = ["机电学院", "外语学院", "后勤处", "化工学院", "图书馆"]
    store.new("pair-swiss", [Entry(f"u{u}p{p}", f"王芳{u}{p}、张伟{u}{p}", units[u], units[u], (f"王芳{u}{p}", f"张伟{u}{p}"))
                             for u in range(5) for p in (1, 2)], name="秋季赛", seed=4, options={"rounds": 2}, id="ph")
    store.pair_next_round()
    try:
        with hall_of(browser, broker, store, tmp_path / "console.db") as (_, console, _board):
            console.set_viewport_size({"width": 390, "height": 844})
            if lang == "en":
                console.click("#lang")
            console.wait_for_selector("#t-round label[data-entry]", timeout=WAIT_MS)
            assert console.locator("#t-round label[data-entry]").count() == 10
            assert console.evaluate(APART) == []
    finally:
        store.close()
