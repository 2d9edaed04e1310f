"""The organisers' console enters a San Da Yi table's result (individual-tables, seed 004) in the system Chromium,
against the app (uvicorn), a real mosquitto and the tournament service on the same file: each player's 小分 and
弃权 typed into the table's form, the big screen's standings following; a refused entry said in words beside the
form, with nothing changed and the typing kept; a forfeit entered elsewhere standing in the form; a correction
with its reason.

Seed 004 附件一 一、1: "每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分，最终比赛结果按照四轮比赛累计积分
进行排名，如出现积分相同者，则计算小分进行排名，小分高者排名靠前。" and 一、3: "本次比赛采取记分制，每轮进行8局比赛。"
The score typed per player is the round's 小分 (the eight games' scores summed); the round points follow from it.
"""

from __future__ import annotations

import pytest
from kit import hall_of, shot, until

from referee.tournament import Entry, TournamentStore

pytestmark = pytest.mark.browser
TABLES = ["t01", "t02"]
SEED_004 = ("每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分，最终比赛结果按照四轮比赛累计积分进行排名，"
            "如出现积分相同者，则计算小分进行排名，小分高者排名靠前。")
WAIT_MS = 30_000  # the longest a page may take to show what the broker delivered (a loaded machine)


def first_row(board, entry: str, score: str) -> None:
    board.wait_for_selector(f"#standings tbody tr:first-child[data-entry={entry}] td.score:text-is('{score}')", timeout=WAIT_MS)


def test_the_console_enters_and_corrects_a_san_da_yi_table(browser, broker, tmp_path, table):
    assert "第一名积5分" in SEED_004 and "小分高者排名靠前" in SEED_004
    store = TournamentStore(tmp_path / "hall.db")
    units = ("机械学院", "光电学院", "管理学院", "外语学院")
    store.new("individual-tables", [Entry(f"{u[0]}{k}", f"{u[:2]}{k}号", u, u, (f"{u[:2]}{k}号",)) for u in units for k in (1, 2)],
              name="三打一比赛", seed=2016, id="usst2016")
    tables = store.pair_next_round()["tables"]
    seats = [e["id"] for e in tables[0]["entries"]]  # S E N W, by the suits drawn
    names = {e["id"]: e["name"] for e in tables[0]["entries"]}
    with hall_of(browser, broker, store, tmp_path / "console.db") as (_, console, board):
        # t02 reports its round over with a stranger at W: whose seat scored what is not guessed; the console says so at
        # the table, in the reader's language, until its result is entered
        drawn = {s: e["name"] for s, e in zip("SENW", tables[1]["entries"])}
        t02 = table("t02")
        t02.publish("events", {"v": 1, "seq": 1, "kind": "assigned", "at": 1.0, "data": {"players": drawn | {"W": "路人甲"}, "rulebook": "usst-2016"}})
        t02.publish("events", {"v": 1, "seq": 60, "kind": "round_over", "at": 2.0, "data": {
            "hands": 8, "totals": {"S": 10, "E": 20, "N": -30, "W": 0}, "points": {"S": 3, "E": 5, "N": 1, "W": 2}}})
        note = console.locator("#t-round tr[data-table=t02] .unrecorded")
        note.wait_for(timeout=WAIT_MS)
        assert note.inner_text().startswith("牌桌报告的结果未能自动记入：t02 桌坐的选手（") and "W 路人甲" in note.inner_text()
        assert store.tournament.rounds[0].table("t02").outcome is None
        assert console.input_value("#t-rulebook") == "usst-2016"  # the round is started with San Da Yi's rulebook
        form = "#t-scores-t01"
        console.wait_for_selector(f"{form} button:text-is('录入小分')")
        row = console.locator("#t-round tr[data-table=t01]")
        assert row.locator("input[name^=score-]").count() == 4 and row.locator("input[name=forfeit]").count() == 4
        # S 30, E -5 (typed with a Chinese input method: full-width), N 12.5, W absent (弃权: the seat scores 0, left blank)
        for entry, typed in zip(seats, ("30", "－５", "12.5")):
            row.locator(f"input[name=score-{entry}]").fill(typed)
        row.locator(f"input[name=forfeit][value={seats[3]}]").check()
        # the panel is drawn again on each publication: the typing and the ticked box survive it, and the focus
        row.locator(f"input[name=score-{seats[2]}]").focus()
        console.evaluate("tournamentPanel()")
        until(console, f"document.activeElement.name === 'score-{seats[2]}'")
        assert row.locator(f"input[name=score-{seats[0]}]").input_value() == "30"
        assert row.locator(f"input[name=forfeit][value={seats[3]}]").is_checked()
        console.click(f"{form} button")
        console.wait_for_selector(f"{form} button:text-is('更正小分')")
        absent = next(e for e in store.tournament.entries if e.id == seats[3])  # named as the console names an entry
        lot = store.tournament.lot.index(absent.id) + 1
        assert console.inner_text("#result .line") == (f"组织者 wang 录入第 1 轮 t01 桌成绩：小分 30 : -5 : 12.5 : 0，弃权 "
                                                       f"{lot}号 {absent.name} {absent.unit}")
        assert "已完成 第一名 : 第三名 : 第二名 : 弃权" in row.inner_text()  # 004 一1: 第一名积5分…… the places, not the 小分
        # 5 / 3 / 2 among the three who played; the absent player takes none
        assert [row.locator(f".player[data-entry={e}] .points").inner_text() for e in seats] == ["积分 5", "积分 2", "积分 3", "积分 0"]
        first_row(board, seats[0], "5")
        board.wait_for_selector("#pairings tr[data-table=t01] td.num:text-is('第一名 : 第三名 : 第二名 : 弃权')", timeout=WAIT_MS)
        assert board.locator("#pairings tr[data-table=t01] .forfeited").all_inner_texts() == ["弃权"]
        w = tables[0]["entries"][3]
        assert board.inner_text("#pairings tr[data-table=t01] td:nth-child(2)").endswith(f"{w['name']} {w['unit']} 弃权")  # W's mark
        absent = board.locator(f"#standings tr[data-entry={seats[3]}]").inner_text().split("\t")
        assert absent[1].split()[0] == names[seats[3]] and absent[2:5] == ["0", "0", "1"]  # 积分 0, 小分 0, 弃权 1
        assert absent[0] == "8"
        assert board.locator(f"#standings tr[data-entry={seats[2]}]").inner_text().split("\t")[2:5] == ["3", "12又1/2", "0"]

        # refused: table t02 with one seat left blank (three scores), then a seat that is no number
        before = store.last_seq()
        form2, row2 = "#t-scores-t02", console.locator("#t-round tr[data-table=t02]")
        seats2 = [e["id"] for e in tables[1]["entries"]]
        for entry, typed in zip(seats2, ("10", "20", "-30")):
            row2.locator(f"input[name=score-{entry}]").fill(typed)
        console.click(f"{form2} button")
        said = row2.locator(".form-said")
        said.wait_for()
        # said in words: which seat, what is wrong, what is allowed (was: 而不是 [10, 20, -30], Python's list)
        assert said.inner_text() == "西座的小分没有填：应为整数或小数（弃权的座位打勾，记 0 分）", said.inner_text()
        assert console.inner_text("#result .line").startswith("错误：西座的小分没有填")
        row2.locator(f"input[name=score-{seats2[3]}]").fill("二十")
        console.click(f"{form2} button")
        console.wait_for_selector(f"{form2} ~ .form-said:text-is('西座的小分“二十”不是有限的数：应为整数或小数，绝对值不超过 100000')")
        assert store.last_seq() == before  # nothing changed
        assert row2.locator(f"input[name=score-{seats2[0]}]").input_value() == "10"  # the typing is kept
        # the switch: the form and the server's words in English
        console.click("#lang")
        console.wait_for_selector(f"{form2} button:text-is('Enter scores')")
        assert row2.locator(f"input[name=score-{seats2[3]}]").input_value() == "二十"
        console.click(f"{form2} button")
        console.wait_for_selector(f"{form2} ~ .form-said:text-is(\"seat W's score '二十' is not a finite number: a whole or decimal number, at most 100000 either way\")")
        assert note.inner_text().startswith("The table's report was not recorded: the players at t02 (")
        console.click("#lang")
        console.wait_for_selector(f"{form2} button:text-is('录入小分')")
        assert store.last_seq() == before
        # W's forfeit entered elsewhere (the command line): the service publishes, the panel is drawn again, the typing
        # stays, and the box is ticked for good (a forfeit stands until corrected); the blank absent seat scores 0
        store.forfeit(1, "t02", [seats2[3]], by="裁判长")
        console.wait_for_selector(f"#t-round input[name=forfeit][value={seats2[3]}]:checked:disabled", timeout=WAIT_MS)
        assert [row2.locator(f"input[name=score-{e}]").input_value() for e in seats2] == ["10", "20", "-30", "二十"]
        row2.locator(f"input[name=score-{seats2[3]}]").fill("")
        console.click(f"{form2} button")
        console.wait_for_selector(f"{form2} button:text-is('更正小分')")
        assert console.inner_text("#result .line") == "组织者 wang 录入第 1 轮 t02 桌成绩：小分 10 : 20 : -30 : 0"
        assert not row2.locator(".form-said").is_visible()
        assert store.tournament.rounds[0].table("t02").outcome.points == (3, 5, 2, 0)
        assert note.count() == 0  # entered: nothing waits at t02 any more

        # a correction: W did play (the 弃权 was a slip) and scored 40; the table is restated with its reason
        assert row.locator(f"input[name=score-{seats[2]}]").input_value() == "12.5"  # the result as entered
        assert row.locator(f"input[name=forfeit][value={seats[3]}]").is_checked()
        row.locator(f"input[name=forfeit][value={seats[3]}]").uncheck()
        row.locator(f"input[name=score-{seats[3]}]").fill("40")
        row.locator("input[name=reason]").fill("记分卡填错")
        console.click(f"{form} button")
        until(console, "document.querySelector('#result .line').textContent.includes('更正')")
        assert console.inner_text("#result .line") == "组织者 wang 更正第 1 轮 t01 桌成绩：小分 30 : -5 : 12.5 : 40（原因：记分卡填错）"
        assert console.is_visible("#undo")
        first_row(board, seats[3], "5")
        board.wait_for_selector("#pairings tr[data-table=t01] td.num:text-is('第二名 : 第四名 : 第三名 : 第一名')", timeout=WAIT_MS)
        assert board.locator("#pairings tr[data-table=t01] .forfeited").count() == 0
        assert board.locator(f"#standings tr[data-entry={seats[3]}]").inner_text().split("\t")[2:5] == ["5", "40", "0"]
        assert board.locator(f"#standings tr[data-entry={seats[1]}]").inner_text().split("\t")[2:5] == ["1", "-5", "0"]
        assert not row.locator(f"input[name=forfeit][value={seats[3]}]").is_checked()
        t01 = store.tournament.rounds[0].table("t01")
        assert t01.forfeits == () and t01.outcome.points == (3, 1, 2, 5)
        console.wait_for_selector("#c-audit tbody tr[data-action=correct_result]")
        console.set_viewport_size({"width": 1280, "height": 1400})
        shot(console, "console-sandayi.png")
