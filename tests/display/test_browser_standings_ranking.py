"""The hall's scoreboard says under the standings what ranks them (the system Chromium against the app and a real
mosquitto): the sheets' own line (``export.ranking_of``: 排名依据：总分 → 对手分 → 级差 → 抽签（000 四5）) for the
standings' system, in the reader's language, switched with the page; on the big screen it stays on the screen under a
page of rows."""

from __future__ import annotations

import pytest
from kit import standings, until

from referee.tournament.export import ranking_of

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
SEED_000_4_5 = "团体总分高者名次列前；若总分相同，则比较对手分，对手分高者名次列前；若对手分相同，则比较竞赛级差"
SEED_004_1_1 = "如出现积分相同者，则计算小分进行排名，小分高者排名靠前"
COLUMNS = {"pair-swiss": ["对手分", "级差"], "individual-tables": ["小分", "弃权"], "knockout-best-of-three": []}


def rows(n: int, tiebreaks: int) -> list[dict]:
    return [{"rank": i + 1, "id": f"e{i}", "name": f"{i}队", "unit": "数学学院", "score": n - i, "tiebreaks": [0] * tiebreaks,
             "prize": None} for i in range(n)]


@pytest.mark.parametrize("system", list(COLUMNS))
def test_the_scoreboard_says_what_ranks_the_standings_in_both_languages(page, tournament, system):
    """000 四5 (若总分相同，则比较对手分 ...), 004 附件一 一、1 (计算小分进行排名), 002 四2: each system's order, with its
    article, as the exports write it; the language switch says it in English at once."""
    assert "比较对手分" in SEED_000_4_5 and "计算小分" in SEED_004_1_1
    tid = f"rank-{system}"
    tournament.publish(tid, "standings", standings(tid, rows=rows(3, len(COLUMNS[system]))) | {"system": system, "columns": COLUMNS[system]})
    pg = page("/", lang="zh")
    pg.wait_for_selector("#standings tr[data-entry=e2]", timeout=WAIT_MS)
    zh = ranking_of(system, "zh")
    assert zh.startswith("排名依据：") and pg.inner_text("#standings .ranking") == zh
    pg.click("#lang")
    until(pg, f"document.querySelector('#standings .ranking').textContent === {ranking_of(system, 'en')!r}")
    assert ranking_of(system, "en").startswith("Ranked by: ")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_ranking_order_stays_on_the_big_screen_under_a_page_of_rows(page, tournament, lang):
    """40 pairs paged on the big screen: the line under the rows is on the screen, not cut below its edge."""
    tournament.publish("rank-big", "standings", standings("rank-big", rows=rows(40, 2)))
    pg = page("/big", 1280, 720, lang=lang)
    pg.wait_for_selector("#standings tr[data-entry=e39]", state="attached", timeout=WAIT_MS)
    until(pg, "!document.querySelector('#standings').hidden && document.querySelector('#standings .ranking')")
    assert pg.inner_text("#standings .ranking") == ranking_of("pair-swiss", lang)
    assert pg.evaluate("document.querySelector('#standings .ranking').getBoundingClientRect().bottom <= innerHeight")
    assert pg.evaluate("[...document.querySelectorAll('#standings tbody tr')].filter(r => !r.hidden).length") < 40  # paged
