"""A union's organiser who never used cardtable runs a tournament from the console, in the system Chromium against the
app (uvicorn) and a real mosquitto, in Chinese and in English: what stopped or confused them is said in words that
name what the hall sees and say what to do."""

from __future__ import annotations

import pytest
from kit import console_of, login, served, small_tournament

from referee.tournament import TournamentStore
from referee.tournament.entries import Entry

pytestmark = pytest.mark.browser
WAIT_MS = 30_000


@pytest.fixture
def console(browser, broker, tmp_path):
    hall = small_tournament(tmp_path / "hall.db")
    with served(broker, tmp_path / "console.db", hall) as server, console_of(browser, server) as page:
        page.wait_for_selector("#t-round[data-round='1']")
        yield page, hall


@pytest.mark.parametrize(("lang", "said"), ids=["zh", "en"], argvalues=[
    ("zh", "错误：第 1 轮 t02 桌已由 {lot}号 单位{u} 队{n} 弃权判定；弃权在更正之前一直有效，请改用更正"),
    ("en", "Error: round 1 t02 is decided by the forfeit of No. {lot} 单位{u} 队{n}; a forfeit stands until corrected: correct it instead")])
def test_a_refusal_names_the_entry_as_the_hall_knows_it_not_by_its_id(console, lang, said):
    """000 四4 (弃权): a table decided by a forfeit takes no result, only a correction; the refusal named the pair by
    the id the organiser never sees (已由 e03 弃权判定). It names it as the pairings do: its lot number, team and unit
    (here its name), in the reader's language."""
    page, hall = console
    if lang == "en":
        page.click("#lang")
    store = TournamentStore(hall)
    t02 = store.round_view(1)["tables"][1]
    gone = t02["entries"][0]["id"]
    n, lot = int(gone[1:]), store.tournament.lot_no(gone)
    store.forfeit(1, "t02", [gone])
    page.reload()
    page.wait_for_selector("#t-round tr[data-table=t02] b.forfeited")
    # the row offers no 录入结果 now (a result or a forfeit decided it): a second console's, or a script's, result
    refused = page.evaluate("api('POST', '/api/console/tournament/results', {round: 1, table: 't02', result: {winner: 1}})"
                            ".then(() => 'taken', e => e.message)")
    assert {"zh": "错误：", "en": "Error: "}[lang] + refused == said.format(lot=lot, n=n, u=n // 2)
    assert gone not in refused
    assert store.round_view(1)["tables"][1]["result"]["points"][0] == 0  # the forfeit stands, nothing changed
    store.close()


CSV = "单位,队,对,选手\n化工学院,化工学院队,1,张一、李一\n化工学院,化工学院队,2,张二、李二\n"
REPLACES = {"zh": "导入 报名表.csv 将替换已登记的 1 个参赛方（逐个添加的也会被清除）。确定导入吗？",
            "en": "Importing 报名表.csv replaces the 1 entries registered (those added one by one too). Import it?"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_import_over_entries_registered_is_confirmed_first(browser, broker, tmp_path, lang):
    """The organiser adds a late entry by hand, then imports the form: the import replaced the draft, and the entry
    typed in was gone without a word (README "replaces the draft"). The console asks first, naming the file and how
    many entries it replaces; declined, nothing is sent and the entry stays; confirmed, the form's entries are in."""
    form = tmp_path / "报名表.csv"
    form.write_text(CSV, encoding="utf-8")
    with served(broker, tmp_path / "console.db", tmp_path / "hall.db") as server, console_of(browser, server) as page:
        page.wait_for_selector("#t-entry")
        if lang == "en":
            page.click("#lang")
            page.wait_for_selector("#t-new button:has-text('New tournament')")
        page.fill("#t-entry input[name=unit]", "工会办公室")
        page.fill("#t-entry input[name=players]", "王一、王二")
        page.click("#t-entry button")
        page.wait_for_selector(".entries li:text-is('工会办公室 · 王一、王二')")
        asked: list[str] = []
        page.on("dialog", lambda d: (asked.append(d.message), d.dismiss() if len(asked) == 1 else d.accept()))
        page.set_input_files("#t-import input[type=file]", str(form))
        page.click("#t-import button")
        page.wait_for_timeout(500)
        assert asked == [REPLACES[lang]]
        assert page.locator(".entries li").all_inner_texts() == ["工会办公室 · 王一、王二"]  # declined: nothing sent
        page.click("#t-import button")
        page.wait_for_selector(".entries li:text-is('化工学院 · 化工学院队 · 张二、李二')", timeout=WAIT_MS)
        assert len(asked) == 2 and page.locator(".entries li").count() == 2


LEAVE_EMPTY = {"zh": "错误：淘汰赛（三局两胜） 的轮数由参赛人数决定：请把“轮数”一栏留空，再按“新建赛事”",
               "en": "Error: knockout, best of three: the rounds follow from the field: leave “Rounds” empty and press “New tournament” again"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_knockout_made_with_rounds_typed_says_to_leave_them_empty(browser, broker, tmp_path, lang):
    """002 三2: 第一阶段：采取单局淘汰制决出前16名 -- the knockout's rounds follow from the field. The organiser, who
    typed 轮数 as for the Swiss, was told 没有选项“rounds”；可用的选项：stage2_from (the options' internal names, nothing
    of what to do). The words say to leave the box empty; nothing is made."""
    form = tmp_path / "报名表.csv"
    form.write_text("单位,选手\n" + "".join(f"学院{i % 3},赵{i}、钱{i}\n" for i in range(6)), encoding="utf-8")
    with served(broker, tmp_path / "console.db", tmp_path / "hall.db") as server, console_of(browser, server) as page:
        page.wait_for_selector("#t-import")
        if lang == "en":
            page.click("#lang")
            page.wait_for_selector("#t-new button:has-text('New tournament')")
        page.set_input_files("#t-import input[type=file]", str(form))
        page.click("#t-import button")
        page.wait_for_selector(".entries li:nth-child(6)")
        page.select_option("#t-new select[name=system]", "knockout-best-of-three")
        page.fill("#t-new input[name=name]", "掼蛋赛")
        page.fill("#t-new input[name=rounds]", "3")
        page.click("#t-new button")
        page.wait_for_selector("#result.error", timeout=WAIT_MS)
        assert page.inner_text("#result .line") == LEAVE_EMPTY[lang]
        assert page.evaluate("api('GET', '/api/console/tournament').then(() => 200, e => e.status)") == 404  # none made


def test_no_late_arrival_is_offered_before_round_1_is_paired(browser, broker, tmp_path):
    """000 第十三条 (迟到：……21分钟以上判全队该轮弃权): a late arrival is to a round's table. Before round 1 is paired the
    console offered 迟到 with a picker of no entry (请选择 alone): a form that could not work. It is offered once the round
    is paired."""
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(f"e{i}", f"队{i}", f"单位{i // 2}", f"单位{i // 2}", (f"甲{i}", f"乙{i}")) for i in range(4)],
              name="秋季赛", options={"rounds": 2})
    with served(broker, tmp_path / "console.db", store.path) as server, console_of(browser, server) as page:
        page.wait_for_selector("#t-round[data-round='0']")
        assert page.locator("#t-late").count() == 0 and page.locator("#t-withdraw").count() == 1
        page.click("#t-pair")
        page.wait_for_selector("#t-round[data-round='1']")
        assert page.locator("#t-late-entry option").count() == 5  # 请选择 and the four pairs
    store.close()


def test_a_finished_tournament_offers_no_pairing_no_start_and_no_late_arrival(browser, broker, tmp_path):
    """000 四2: 共赛6轮 (the rounds the notice fixes; here 2): once every round has its result the console still offered 编排下一轮
    (refused: 全部 2 轮都已编排), 开始第 2 轮 (which seated the tables of the finished round again, answered 完成) and 迟到
    (recorded against a finished round). The page says it is finished, and offers the exports, the earlier rounds and
    their corrections."""
    hall = small_tournament(tmp_path / "hall.db")
    store = TournamentStore(hall)
    for _ in range(2):
        for x in store.round_view()["tables"]:
            store.record_result(store.round_view()["round"], x["table"], {"winner": 0})
        if not store.tournament.finished:
            store.pair_next_round()
    assert store.tournament.finished
    with served(broker, tmp_path / "console.db", hall) as server, console_of(browser, server) as page:
        page.wait_for_selector("#t-round[data-round='2']")
        assert page.inner_text("#t-next") == "全部 2 轮已完成：最终排名见记分牌，成绩表可导出或打印。"
        assert page.locator("#t-pair, #t-start, #t-rulebook, #t-late").count() == 0
        assert page.locator("#t-withdraw-closed").count() == 1
        assert page.locator("a[href$='export.csv'], a[href$='export.xlsx'], a[href$='export.html']").count() == 3
        assert page.locator("#t-round button[data-result=correct]").count() == 2  # a result found wrong is still corrected
    store.close()


LOT_SAID = {"zh": "错误：抽签号应为 1 到 4，每个号填一次：没有人填 1、4 号；2 号填了不止一次",
            "en": "Error: the lot numbers are 1 to 4, each once: nobody has 1, 4; 2 typed more than once"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_lot_typed_wrong_names_the_numbers_missing_and_twice(browser, broker, tmp_path, lang):
    """000 四2: 第1轮采取电脑抽签编排对手 -- or the lot drawn in the hall, typed number by number. A slip was said 抽签号应为
    1 到 4，每个号填一次 and nothing of where, the organiser left to search a field per entry by eye; the words name the
    numbers nobody has and those typed twice. Nothing is sent."""
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(f"e{i}", f"队{i}", f"单位{i // 2}", f"单位{i // 2}", (f"甲{i}", f"乙{i}")) for i in range(4)],
              name="秋季赛", options={"rounds": 2})
    lot = list(store.tournament.lot)
    with served(broker, tmp_path / "console.db", store.path) as server, console_of(browser, server) as page:
        page.wait_for_selector("#t-lot")
        if lang == "en":
            page.click("#lang")
            page.wait_for_selector("#t-lot button:has-text('Enter the lot')")
        for field, typed in zip(page.locator("#t-lot input[data-entry]").all(), ["2", "2", "3", "5"], strict=True):
            field.fill(typed)
        page.click("#t-lot button")
        page.wait_for_selector("#result.error", timeout=WAIT_MS)
        assert page.inner_text("#result .line") == LOT_SAID[lang]
        assert list(store.tournament.lot) == lot  # nothing sent
    store.close()


def test_a_row_offers_the_result_before_it_and_the_correction_after(console):
    """A table without its result offered 更正 (a correction of nothing was recorded as 更正第 1 轮 t01 桌成绩) and one
    with it 录入结果 (refused: 已有成绩；请改用更正). Each row offers what can be done: 录入结果 before, a reason and 更正
    after; Enter on the picked winner presses it."""
    page, hall = console
    undecided = page.locator("#t-round tr[data-table=t02]")
    assert undecided.locator("button[data-result=record]").count() == 1
    assert undecided.locator("button[data-result=correct], input[name=reason]").count() == 0
    page.locator("#t-round tr[data-table=t01] input[type=radio]").nth(0).check()
    page.keyboard.press("Enter")
    page.wait_for_selector("#t-round tr[data-table=t01] .finished", timeout=WAIT_MS)
    decided = page.locator("#t-round tr[data-table=t01]")
    assert decided.locator("button[data-result=record]").count() == 0
    assert decided.locator("button[data-result=correct]").count() == 1 and decided.locator("input[name=reason]").count() == 1
    decided.locator("input[type=radio]").nth(1).check()
    page.keyboard.press("Enter")  # no reason yet: asked for, nothing sent
    page.wait_for_selector("#result .line:has-text('请写明更正结果的原因')")
    decided.locator("button[data-forfeit]").nth(1).click()  # a forfeit over a result is a correction: asked why too
    page.wait_for_timeout(300)
    store = TournamentStore(hall)
    assert store.round_view(1)["tables"][0]["result"]["points"] == [2, 0] and store.round_view(1)["tables"][0]["forfeits"] == []
    undecided.locator("button[data-forfeit]").nth(0).click()  # before a result: a forfeit, no reason asked
    page.wait_for_selector("#t-round tr[data-table=t02] b.forfeited", timeout=WAIT_MS)
    store.close()


SEAT_SAID = {"zh": "{lot}号 选手3 单位3 已弃权 t01 桌，其座位的小分应为 0，而不是 9（若其实到场，请更正弃权）",
             "en": "No. {lot} 选手3 单位3 forfeited t01: their seat scores 0, not 9 (if they did play, correct the forfeit)"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_seat_forfeited_with_a_score_is_said_by_the_players_name(browser, broker, tmp_path, lang):
    """004 (弃权: a player absent scores 0): a 小分 typed for a seat ticked 弃权 was refused naming the player by id (p3
    已弃权 t01 桌). It is named as the table shows the player: lot number, name, unit."""
    store = TournamentStore(tmp_path / "hall.db")
    store.new("individual-tables", [Entry(f"p{i}", f"选手{i}", f"单位{i}", f"单位{i}", (f"选手{i}",)) for i in range(4)], name="三打一")
    store.pair_next_round()
    lot = store.tournament.lot_no("p3")
    with served(broker, tmp_path / "console.db", store.path) as server, console_of(browser, server) as page:
        page.wait_for_selector("form.scores")
        if lang == "en":
            page.click("#lang")
            page.wait_for_selector("#t-round th:has-text('Table')")
        for e in ("p0", "p1", "p2", "p3"):
            page.fill(f"input[name=score-{e}]", {"p0": "30", "p1": "-5", "p2": "12.5", "p3": "9"}[e])
        page.check("input[name=forfeit][value=p3]")
        page.click("form.scores button")
        page.wait_for_selector(".form-said:not([hidden])", timeout=WAIT_MS)
        assert page.inner_text(".form-said") == SEAT_SAID[lang].format(lot=lot)
        assert store.round_view(1)["tables"][0]["result"] is None
    store.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_san_da_yi_tables_points_are_in_sight_on_a_phone(browser, broker, tmp_path, lang):
    """004 一、1: 最终比赛结果按照四轮比赛累计积分进行排名 -- each seat's 积分 beside its 小分 once the table has its result.
    On a 360 px phone the line of a seat ran past the panel: 积分 ! , the number out of sight (the panel scrolled
    sideways). Each seat's 积分 and number are inside the panel, which does not scroll sideways."""
    store = TournamentStore(tmp_path / "hall.db")
    store.new("individual-tables", [Entry(f"p{i}", f"选手{i}", f"部门{i}", f"部门{i}", (f"选手{i}",)) for i in range(4)], name="三打一")
    store.pair_next_round()
    store.record_result(1, "t01", {"scores": [30, 0, 10, -5]})
    with served(broker, tmp_path / "console.db", store.path) as server:
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="zh-CN")
        try:
            page = context.new_page()
            page.goto(server.url + "/console")
            login(page)
            page.wait_for_selector("#t-round small.points")
            if lang == "en":
                page.click("#lang")
                page.wait_for_selector("#t-round small.points:has-text('Score')")
            box = page.evaluate("(() => { const b = document.querySelector('#c-tournament .body'); const r = b.getBoundingClientRect();"
                                " return [b.scrollWidth, b.clientWidth, r.right]; })()")
            assert box[0] <= box[1]
            rights = page.eval_on_selector_all("#t-round small.points", "els => els.map(e => e.getBoundingClientRect().right)")
            assert len(rights) == 4 and all(r <= box[2] for r in rights)
        finally:
            context.close()
    store.close()
