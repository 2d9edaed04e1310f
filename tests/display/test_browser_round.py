"""The console's round, as a person new to it reads it, in the system Chromium against the app (uvicorn) and a real
mosquitto: the rulebook a round is started with is named and labelled, defaults to the one its tables play, and the
start is not offered once the round has started; each entry reads by its lot number and name, every field and radio
button has its label, the forms under the round their headings."""

from __future__ import annotations

import time

import pytest
from kit import console_of, served, small_tournament, state

from display.tournament import seating
from referee.tournament import TournamentStore

pytestmark = pytest.mark.browser
TABLES = ["t01", "t02"]
WAIT_MS = 30_000
ZHONGKAI, CLASSIC = "三副牌拖拉机竞赛规则（仲恺 2010）", "扑克牌拖拉机竞赛规则（三副牌）"


def seated(table, store: TournamentStore, round_no: int, rulebook: str) -> None:
    """Each table of the round publishes its state as its service does once seated and started with ``rulebook``."""
    t = store.tournament
    for x in t.round(round_no).tables:
        players = seating([t.entry(e) for e in x.entries])
        table(x.table).publish("state", state(seq=round_no, at=time.time(), rulebook=rulebook, phase="dealing", players=players,
                                              round={"started_at": time.time(), "left": None, "notice": False, "last_hand": False}))


def test_the_round_starts_with_the_rulebook_its_tables_play_and_once(browser, broker, table, tmp_path):
    """000 四1: 竞赛采用…《三副牌拖拉机竞赛规则》进行 -- the system's book (zhongkai-2010) until the tables play
    another: a hall whose tables were started with classic-3deck is not switched silently at the next round."""
    hall = small_tournament(tmp_path / "hall.db")
    with served(broker, tmp_path / "console.db", hall) as server, console_of(browser, server) as console:
        console.wait_for_selector("#t-round[data-round='1']")
        assert console.get_by_label("规则", exact=True).get_attribute("id") == "t-rulebook"  # a visible label
        assert console.locator("#t-rulebook option:checked").inner_text() == ZHONGKAI  # nothing seated: the system's
        assert console.inner_text("#t-start") == "开始第 1 轮"
        store = TournamentStore(hall)
        seated(table, store, 1, "classic-3deck")
        console.reload()
        console.wait_for_selector("#t-started", timeout=WAIT_MS)
        assert console.inner_text("#t-started") == f"第 1 轮已开始，规则：{CLASSIC}"
        assert not console.locator("#t-start, #t-rulebook").count()
        for x in store.round_view(1)["tables"]:
            store.record_result(1, x["table"], {"winner": 0})
        store.pair_next_round()
        console.reload()
        console.wait_for_selector("#t-round[data-round='2']")
        assert console.inner_text("#t-start") == "开始第 2 轮"  # round 2 is not seated yet
        assert console.locator("#t-rulebook option:checked").inner_text() == CLASSIC  # as round 1 was started
        assert console.input_value("#t-rulebook") == "classic-3deck"
        console.click("#lang")
        console.wait_for_selector("#t-start:text-is('Start round 2')")
        assert console.locator("#t-rulebook option:checked").inner_text() == "Tractor competition rules (three decks)"  # its title_en (ef39a43)
        store.close()


def test_each_entry_and_field_of_the_round_has_its_words(browser, broker, tmp_path):
    hall = small_tournament(tmp_path / "hall.db")
    store = TournamentStore(hall)
    first = store.round_view(1)["tables"][0]
    a, b = first["entries"]
    store.close()
    with served(broker, tmp_path / "console.db", hall) as server, console_of(browser, server) as console:
        console.wait_for_selector("#t-round[data-round='1']")
        row = console.locator(f"#t-round tr[data-table={first['table']}]")
        side = row.locator(f"label[data-entry={a['id']}]").inner_text().strip()
        # a pair Swiss pair by its team, named after its unit (单位0), as the standings name it; no internal id
        assert side == f"{a['lot']}号 {a['unit']} {a['name']}" and a["id"] not in row.inner_text()
        radio = console.get_by_role("radio", name=f"胜方：{side}", exact=True)  # a screen reader names it so too
        assert radio.count() == 1 and console.get_by_role("button", name=f"{b['lot']}号 {b['unit']} {b['name']} 弃权").count() == 1
        assert "点选胜方" in console.inner_text("#t-round thead")
        legends = console.locator("#c-tournament fieldset legend").all_inner_texts()
        assert legends == ["迟到", "退赛", "轮数", "编排有误（尚无成绩时）"]
        for label in ("参赛方", "迟到分钟", "退赛的单位或参赛者", "原因", "总轮数", "撤销的原因"):
            assert console.get_by_label(label, exact=True).count() == 1, label
        # a late arrival is entered by the entry's lot number and name (a pair by its team, as its audit line names it),
        # not an id typed in
        console.get_by_label("参赛方", exact=True).select_option(label=side)
        console.get_by_label("迟到分钟", exact=True).fill("3")
        console.click("#t-late button")
        console.wait_for_selector("#result .line:has-text('迟到')", timeout=WAIT_MS)
        assert console.inner_text("#result .line").endswith("迟到 3 分钟")  # minutes as a person says them, not 3.0
        console.click("#lang")
        console.wait_for_selector("#c-tournament legend:text-is('Late')")
        assert console.get_by_label("Rounds in all", exact=True).count() == 1
        assert console.get_by_role("radio", name=f"winner: No. {a['lot']} {a['unit']} {a['name']}", exact=True).count() == 1
