"""The organiser undoes a round paired by mistake from the console and pairs it again, in the system Chromium against
the app (uvicorn), a real mosquitto and the tournament service on the same file: the reason is asked for and the
undoing confirmed in words naming the round (neither given, nothing sent); once a result is in, the refusal is said
on the page in the reader's language and the round stays paired."""

from __future__ import annotations

import json

import pytest
from kit import hall_of, until

from referee.tournament import Entry, TournamentStore

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
SEED_002_1_4 = "抽签：各工会组长于 11月30日下午3：40在行政楼5322参加分组抽签。"
CONFIRM = "确认撤销第 1 轮的编排（原因：{reason}）？已公布的对阵作废，须重新编排并重新公布。"


def line_is(console, text: str) -> None:
    until(console, f"document.querySelector('#result .line').textContent === {json.dumps(text)}")


def test_a_knockout_paired_before_the_halls_lot_is_undone_and_paired_again_by_that_lot(browser, broker, tmp_path):
    """002 一4 (SEED_002_1_4): 参加分组抽签 -- the bracket follows the lot drawn in the hall. The organiser pairs round 1
    before entering it, which closes the lot; undone from the console (why asked, then confirmed), the lot is entered
    and round 1 paired again gives the byes to lot numbers 1 and 2. A result entered while the organiser confirms a
    second undoing is the store's refusal, said on the page, and nothing changes; with that result in, the page no
    longer offers the undoing."""
    assert "参加分组抽签" in SEED_002_1_4
    store = TournamentStore(tmp_path / "hall.db")
    store.new("knockout-best-of-three", [Entry(f"e{i}", f"甲{i}、乙{i}", f"工会{i}", f"工会{i}", (f"甲{i}", f"乙{i}"))
                                         for i in range(1, 7)], name="掼蛋赛", seed=1, id="ko")
    hall_lot = {f"e{i}": 7 - i for i in range(1, 7)}  # e6 drew 1, e5 drew 2, ...
    asked: list[str] = []
    answers = [False, True, True]  # declined once, then confirmed
    before: list = []  # what happens elsewhere while the organiser reads the question

    with hall_of(browser, broker, store, tmp_path / "console.db") as hall:
        console = hall.console

        def on_dialog(dialog) -> None:
            asked.append(dialog.message)
            while before:
                before.pop()()
            dialog.accept() if answers[len(asked) - 1] else dialog.dismiss()

        console.on("dialog", on_dialog)
        console.wait_for_selector("#t-lot", timeout=WAIT_MS)
        console.click("#t-pair")  # by mistake: the hall's lot is not in yet
        console.wait_for_selector("#t-round[data-round='1'] tr[data-table]", timeout=WAIT_MS)
        assert console.locator("#t-lot").count() == 0 and len(store.tournament.rounds) == 1
        form = console.locator("#t-unpair")
        assert form.locator("legend").inner_text() == "编排有误（尚无成绩时）"
        form.locator("button").click()  # no reason: said, nothing asked nor sent
        line_is(console, "错误：请写明撤销编排的原因")
        form.locator("input[name=reason]").fill("先编排后抽签")
        form.locator("button").click()  # declined: nothing sent
        until(console, f"{len(asked)} === 1")
        assert asked == [CONFIRM.format(reason="先编排后抽签")] and len(store.tournament.rounds) == 1
        form.locator("button").click()
        line_is(console, "组织者 wang 撤销第 1 轮的编排（原因：先编排后抽签），可以重新编排")
        assert store.tournament.rounds == () and store.actions()[-1]["kind"] == "unpair"
        console.wait_for_selector("#t-lot", timeout=WAIT_MS)  # the lot may be entered again
        assert console.locator("#t-unpair").count() == 0
        until(console, "document.querySelector('#c-audit tr[data-action=unpair_round]') !== null")
        for entry, n in hall_lot.items():
            console.fill(f"#t-lot input[data-entry={entry}]", str(n))
        console.click("#t-lot button")
        line_is(console, "组织者 wang 录入现场抽签：" + "、".join(
            f"{n}号 甲{e[1:]}、乙{e[1:]} 工会{e[1:]}" for e, n in sorted(hall_lot.items(), key=lambda x: x[1])))
        console.click("#t-pair")
        console.wait_for_selector("#t-round[data-round='1'] tr[data-table]", timeout=WAIT_MS)
        assert sorted(store.tournament.round(1).byes) == ["e5", "e6"]
        assert console.inner_text("#t-byes") == "轮空：1号 甲6、乙6 工会6、2号 甲5、乙5 工会5"
        # the public board shows the round paired again
        hall.board.wait_for_selector("#pairings tr[data-table]", timeout=WAIT_MS)
        # a result entered at the desk while the organiser confirms undoing again: refused in words, nothing changes
        table = store.tournament.round(1).tables[0].table
        before.append(lambda: store.record_result(1, table, {"winner": 0, "games": [2, 0]}))
        seq = store.last_seq() + 1
        form.locator("input[name=reason]").fill("再次撤销")
        form.locator("button").click()
        line_is(console, f"错误：第 1 轮已经开始（已有成绩、弃权或牌桌的报告：{table}），不能撤销编排：请更正成绩")
        assert store.last_seq() == seq and len(store.tournament.rounds) == 1
        console.reload()
        console.wait_for_selector("#t-round[data-round='1'] tr[data-table] .finished", timeout=WAIT_MS)
        assert console.locator("#t-unpair").count() == 0  # a result is in: nothing to undo, so not offered
    store.close()
