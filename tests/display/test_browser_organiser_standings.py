"""The organiser between rounds, in the system Chromium against the app (uvicorn) and a real mosquitto: the console's
tournament panel shows the standings as the tournament ranks them (its own standings view: the rows in its order,
its tie-break columns, the order they compare said in words as the exports say it), whole on a 360 px phone (each
number beside its head, none behind a sideways scroll); 打印 opens the printable sheets as a page, styled, under the
same strict Content-Security-Policy as every page, and the sheets can still be saved; an export format nobody has is
quoted short in the refusal.

Seed 004 附件一 一、1: "最终比赛结果按照四轮比赛累计积分进行排名，如出现积分相同者，则计算小分进行排名，小分高者排名靠前。"
"""

from __future__ import annotations

import pytest
from kit import OWN_USERS, console_of, served, until

from display.guard import CSP
from referee.tournament import Entry, TournamentStore
from referee.tournament.export import ranking

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
LOCALES = {"zh": "zh-CN", "en": "en-GB"}  # the browser's language: the console answers in it
SEED_004_1_1 = "最终比赛结果按照四轮比赛累计积分进行排名，如出现积分相同者，则计算小分进行排名，小分高者排名靠前。"
UNITS = ["光电信息与计算机工程学院", "数学科学学院", "外国语言文学学院", "马克思主义学院"]
HEADS = {"zh": ["名次", "选手", "积分", "小分", "弃权"], "en": ["Rank", "Player", "Points", "Game score", "Forfeits"]}
CELLS = """() => [...document.querySelectorAll('#t-standings tbody tr')].map(tr => [tr.dataset.entry,
  [...tr.cells].map(td => (getComputedStyle(td, '::before').content.replace(/^"|"$/g, '').replace(/^none$/, '') +
    td.textContent).trim())])"""  # each cell as read: its head's words before it where the phone shows them
HIDDEN = """() => [...document.querySelectorAll('#t-standings td')].filter(td => {  // a cell out of the panel's sight
  const r = td.getBoundingClientRect(), box = td.closest('.body').getBoundingClientRect();
  return r.width === 0 || r.right > box.right + 0.5 || r.left < box.left - 0.5;
}).map(td => td.textContent)"""


def hall(tmp_path) -> TournamentStore:
    """Eight players of four units at two tables, round 1 scored (two level on points and 小分: the lot ranks them),
    round 2 paired: the organiser between rounds."""
    store = TournamentStore(tmp_path / "hall.db")
    store.new("individual-tables", [Entry(f"{'abcd'[u]}{k}", f"欧阳明月{u}{k}", UNITS[u], UNITS[u], (f"欧阳明月{u}{k}",))
                                    for u in range(4) for k in (1, 2)], name="三打一比赛", seed=2016, id="usst")
    store.pair_next_round()
    store.record_result(1, "t01", {"scores": [120, -35, 12.5, 0]})
    store.record_result(1, "t02", {"scores": [120, -35, 12.5, 0]})
    store.pair_next_round()
    return store


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_console_shows_the_tournaments_standings_whole_on_a_phone(browser, broker, tmp_path, lang):
    assert "积分相同者，则计算小分进行排名" in SEED_004_1_1
    store = hall(tmp_path)
    view = store.standings()
    words = ranking(store.tournament, lang)
    store.close()
    with served(broker, tmp_path / "console.db", tmp_path / "hall.db", users=OWN_USERS) as server:
        with console_of(browser, server, LOCALES[lang], {"width": 360, "height": 800}) as console:
            console.wait_for_selector("#t-standings tbody tr", timeout=WAIT_MS)
            until(console, "document.fonts.status === 'loaded'")
            rows = console.evaluate(CELLS)
            assert [r for r, _ in rows] == [r["id"] for r in view["rows"]]  # the tournament's order, not worked out anew
            assert any(r["by_lot"] for r in view["rows"])
            for (_, cells), r in zip(rows, view["rows"]):
                assert cells[0] == f'{r["rank"]}{"※" if r["by_lot"] else ""}'
                assert cells[2:] == [f"{HEADS[lang][2]} {r['score']}", *(f"{h} {x}".replace("25/2", "12又1/2" if lang == "zh" else "12 1/2")
                                                                           for h, x in zip(HEADS[lang][3:], r["tiebreaks"]))]
            assert console.inner_text("#t-ranking") == words
            assert words.startswith("排名依据：积分 → 小分 → 弃权" if lang == "zh" else "Ranked by: Points → Game score → Forfeits")
            assert console.evaluate(HIDDEN) == []  # every number in sight
            assert console.evaluate("document.documentElement.scrollWidth <= innerWidth")
            # the panel does not scroll sideways either (the 退赛 picker of long units' names made it 367 px wide)
            assert console.evaluate("(b => b.scrollWidth <= b.clientWidth)(document.querySelector('#c-tournament .body'))")
            # a wide screen: the table with its heads
            console.set_viewport_size({"width": 1280, "height": 900})
            until(console, "getComputedStyle(document.querySelector('#t-standings thead')).display !== 'none'")
            assert console.locator("#t-standings thead th").all_inner_texts() == HEADS[lang]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_print_opens_the_sheets_styled_under_the_strict_policy_and_saves_them(browser, broker, tmp_path, lang):
    hall(tmp_path).close()
    with served(broker, tmp_path / "console.db", tmp_path / "hall.db", users=OWN_USERS) as server:
        with console_of(browser, server, LOCALES[lang]) as console:
            context = console.context
            console.wait_for_selector("#t-print", timeout=WAIT_MS)
            assert console.inner_text("#t-print") == ("打印" if lang == "zh" else "Print")
            refused: list[str] = []
            with context.expect_page() as opened:
                console.click("#t-print")
            sheet = opened.value
            sheet.on("console", lambda m: refused.append(m.text) if m.type == "error" else None)
            with sheet.expect_response(lambda r: r.url.endswith("/print.css")) as css:
                sheet.reload()  # the first load's CSS answer came before the listener: asked again, and the page's own headers
            sheet.wait_for_selector("p.ranking")
            assert css.value.ok
            page_answer = sheet.request.get(sheet.url)
            assert page_answer.headers["content-security-policy"] == CSP and "'unsafe-inline'" not in CSP
            assert page_answer.headers["content-disposition"].startswith("inline")
            assert css.value.headers["content-security-policy"] == CSP
            styled = sheet.evaluate("""() => [getComputedStyle(document.querySelector('table')).borderCollapse,
              getComputedStyle(document.querySelector('td')).borderTopStyle, getComputedStyle(document.body).marginLeft]""")
            assert styled == ["collapse", "solid", "56.6929px"] or styled[:2] == ["collapse", "solid"], styled
            assert sheet.evaluate("document.querySelectorAll('style').length") == 0  # its styles linked, none inline
            assert not [m for m in refused if "Content Security Policy" in m], refused
            assert sheet.inner_text("p.ranking").startswith("排名依据：积分" if lang == "zh" else "Ranked by: Points")
            sheet.close()
            # the download: a file with its styles within, readable wherever it is opened
            with console.expect_download() as saved:
                console.click("#t-print-file")
            assert saved.value.suggested_filename == "usst.html"
            data = open(saved.value.path(), encoding="utf-8").read()
            assert "<style>" in data and "border-collapse:collapse" in data
            # an export format nobody has: its name quoted short
            answer = console.request.get(server.url + "/api/console/tournament/export." + "p" * 3000)
            assert answer.status == 404
            said = answer.json()["detail"]
            assert "p" * 39 + "…" in said and "p" * 41 not in said, said
