"""An organiser's day with the console, in the system Chromium against the app (uvicorn) and a real mosquitto: the page
says what to do next, a result is corrected in an earlier round once the next is paired, a forfeit and the byes are
said where the round is shown, a best-of-three match is entered with its games, and a winner not picked is said in
words before anything is sent, where the organiser looks."""

from __future__ import annotations

import pytest
from kit import HALL_LOCALE, console_of, login, served, small_tournament

from referee.tournament import TournamentStore
from referee.tournament.entries import Entry

pytestmark = pytest.mark.browser
WAIT_MS = 30_000


def test_the_page_says_what_to_do_next_from_registration_to_the_next_round(browser, broker, tmp_path):
    with served(broker, tmp_path / "console.db", tmp_path / "hall.db") as server, console_of(browser, server) as console:
        console.wait_for_selector("#t-next")
        assert console.inner_text("#t-next").startswith("下一步：导入报名表")
        store = TournamentStore(tmp_path / "hall.db")
        store.new("pair-swiss", [Entry(f"e{i}", f"队{i}", f"单位{i // 2}", f"单位{i // 2}", (f"甲{i}", f"乙{i}"))
                                 for i in range(4)], name="秋季赛", options={"rounds": 2})
        console.reload()
        console.wait_for_selector("#t-round[data-round='0']")
        assert console.inner_text("#t-next") == "如已在现场抽签，请先录入抽签。 下一步：按“编排下一轮”编排第 1 轮。"
        console.click("#t-pair")
        console.wait_for_selector("#t-round[data-round='1']")
        assert console.inner_text("#t-next").startswith("下一步：选择规则，按“开始第 1 轮”")
        # a winner not picked: said in words, nothing sent (was: 成绩须写明胜方（本桌第一方为 0……收到的是 `{}`)
        console.click("#t-round tr[data-table=t01] button[data-result=record]")
        console.wait_for_selector("#result .line:has-text('请先点选胜方')")
        assert store.round_view(1)["tables"][0]["result"] is None
        store.close()


def test_an_earlier_round_is_shown_with_its_forfeit_and_its_result_corrected_after_the_next_is_paired(browser, broker, tmp_path):
    """000 四4: 弃权0分……弃权者-2 -- a forfeit reads as a loss by its numbers, so the console says 弃权 at the entry;
    a round 1 result found wrong once round 2 is paired is corrected from the console (the correction recomputes
    everything after it, README "A correction recomputes scores")."""
    hall = small_tournament(tmp_path / "hall.db")
    store = TournamentStore(hall)
    t01, t02 = store.round_view(1)["tables"]
    store.record_result(1, "t01", {"winner": 0})
    store.forfeit(1, "t02", [t02["entries"][0]["id"]])
    store.pair_next_round()
    with served(broker, tmp_path / "console.db", hall) as server, console_of(browser, server) as console:
        console.wait_for_selector("#t-round[data-round='2']")
        console.click("#t-rounds-nav button:text-is('第 1 轮')")
        console.wait_for_selector("#t-round[data-round='1']")
        assert console.inner_text("#t-earlier").startswith("正在查看第 1 轮（最新为第 2 轮）")
        assert not console.locator("#t-pair, #t-start, #t-late").count()  # the latest round's actions are not offered here
        forfeiting = console.locator(f"#t-round tr[data-table=t02] label[data-entry={t02['entries'][0]['id']}] + b.forfeited")
        assert forfeiting.inner_text() == "（弃权）"
        assert console.locator("#t-round tr[data-table=t01] b.forfeited").count() == 0
        row = console.locator("#t-round tr[data-table=t01]")
        row.locator("input[type=radio]").nth(1).check()
        row.locator("input[name=reason]").fill("记分错误")
        row.locator("button[data-result=correct]").click()
        console.wait_for_selector("#result .line:has-text('更正第 1 轮 t01 桌成绩')", timeout=WAIT_MS)
        assert store.round_view(1)["tables"][0]["result"]["points"] == [0, 2]
        console.wait_for_selector("#t-round[data-round='1']")  # the round corrected stays shown
        console.click("#t-rounds-nav button:text-is('第 2 轮')")
        console.wait_for_selector("#t-round[data-round='2']")
        assert console.locator("#t-pair").count() == 1
        unpaired = console.evaluate("api('GET', '/api/console/tournament?round=9').catch(e => [e.status, e.message])")
        assert unpaired == [409, "第 9 轮尚未编排（已编排 2 轮）"]  # a round not paired is said, not shown empty
    store.close()


def test_the_knockouts_byes_are_listed_and_a_best_of_three_is_entered_with_its_games(browser, broker, tmp_path):
    """002 三2: 第一阶段：采取单局淘汰制决出前16名……第二阶段：采取三局两胜制 -- 18 pairs play two single games in
    round 1 (14 byes, listed by lot number and name), then best of three: a 2:1 entered by hand is a 2:1 (was 2:0,
    the console sent the winner alone)."""
    hall = tmp_path / "hall.db"
    store = TournamentStore(hall)
    store.new("knockout-best-of-three", [Entry(f"e{i:02d}", f"甲{i}、乙{i}", f"单位{i % 5}", f"单位{i % 5}", (f"甲{i}", f"乙{i}"))
                                         for i in range(18)], name="掼蛋赛")
    store.pair_next_round()
    byes = store.round_view(1)["byes"]
    with served(broker, tmp_path / "console.db", hall) as server, console_of(browser, server) as console:
        console.wait_for_selector("#t-round[data-round='1']")
        said = console.inner_text("#t-byes")
        lot = store.tournament.lot
        assert said.startswith("轮空：") and len(byes) == 14
        assert all(f"{lot.index(e) + 1}号 {store.tournament.entry(e).name}" in said for e in byes)
        assert not console.locator("select[name=games]").count()  # single games
        for x in store.round_view(1)["tables"]:
            store.record_result(1, x["table"], {"winner": 0})
        store.pair_next_round()
        console.reload()
        console.wait_for_selector("#t-round[data-round='2']")
        row = console.locator("#t-round tr[data-table=t01]")
        row.locator("input[type=radio]").nth(1).check()
        console.get_by_label("局分（胜方:负方）").first.select_option("2:1")
        row.locator("button[data-result=record]").click()
        console.wait_for_selector("#result .line:has-text('局数 1 : 2')", timeout=WAIT_MS)
        assert store.round_view(2)["tables"][0]["result"] == {"points": [0, 1], "scores": [1, 2]}
    store.close()


IN_SIGHT = """() => { const r = document.querySelector('#result .line').getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"""


@pytest.mark.parametrize("size", [(390, 844), (1366, 600)])
def test_a_refusal_is_said_in_sight_of_the_button_pressed(browser, broker, tmp_path, size):
    """The organiser, on a phone or a laptop, records a result far down the console without picking the winner: the
    refusal was said at the top of the page, scrolled out of sight (the page looked as if nothing happened), and began
    错误: (a Latin colon). It is said where the organiser looks, 错误：……"""
    with served(broker, tmp_path / "console.db", small_tournament(tmp_path / "hall.db")) as server:
        context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=HALL_LOCALE)
        try:
            console = context.new_page()
            console.goto(server.url + "/console")
            login(console)
            console.wait_for_selector("#t-round[data-round='1']")
            console.click("#t-round tr[data-table=t02] button[data-result=record]")
            console.wait_for_selector("#result .line:has-text('请先点选胜方')")
            assert console.inner_text("#result .line").startswith("错误：请先点选胜方")
            assert console.evaluate("scrollY") > 0 and console.evaluate(IN_SIGHT)
        finally:
            context.close()
