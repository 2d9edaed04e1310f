"""The draw never changes silently, and a withdrawn unit reads as such, in the system Chromium against the
app (uvicorn) and a real mosquitto: the big screen marks a round paired again (seed 000 四2: 第2轮起按同分或
近分原则由电脑随机编排对手, so a corrected score can change an announced draw) and writes 退赛 for a
withdrawn team; the console says a correction paired the next round again, shows each changed table as
announced, and records a unit's withdrawal."""

from __future__ import annotations

import time

import pytest
from kit import login, round_, standings, until

from referee.tournament import Entry, TournamentStore

pytestmark = pytest.mark.browser
SEED_000 = "第2轮起按同分或近分原则由电脑随机编排对手（同单位对手和赛过的对手不编排再赛）"


def test_the_big_screen_marks_a_round_paired_again_and_a_withdrawn_team(page, tournament):
    assert "同分或近分" in SEED_000
    entries = [{"id": "e1", "name": "数学系", "unit": "数学系"}, {"id": "e4", "name": "化学系", "unit": "化学系"}]
    r = round_(tables=[{"table": "t01", "entries": entries, "result": None},
                       {"table": "t02", "entries": [{"id": "e2", "name": "物理系", "unit": "物理系"},
                                                     {"id": "e3", "name": "外语系", "unit": "外语系"}], "result": None}], rnd=2)
    tournament.publish("autumn", "round", r)
    pg = page("/big")
    pg.wait_for_selector("#pairings tr[data-table=t02]")
    assert not pg.is_visible("#pairings .repaired")  # never paired again: nothing said
    r["repaired"] = {"round": 2, "seq": 17, "because": "correct", "byes": None,
                     "tables": [{"table": "t01", "before": ["e1", "e3"], "after": ["e1", "e4"]},
                                {"table": "t02", "before": ["e2", "e4"], "after": ["e2", "e3"]}]}
    r["at"] = time.time()
    tournament.publish("autumn", "round", r)
    pg.wait_for_selector("#pairings p.repaired")
    assert pg.inner_text("#pairings p.repaired") == "第 2 轮已重新编排（此前一轮的成绩已更正），请重新公布对阵；变动的牌桌：t01、t02"
    assert pg.inner_text("#pairings tr.repaired[data-table=t01] .repaired-mark") == "重排"
    rows = [{"rank": 1, "id": "数学系", "name": "数学系", "unit": "数学系", "score": 4, "tiebreaks": [2, 4], "prize": "一等奖"},
            {"rank": 2, "id": "物理系", "name": "物理系", "unit": "物理系", "score": 2, "tiebreaks": [2, 0], "prize": "二等奖"},
            {"rank": 3, "id": "化学系", "name": "化学系", "unit": "化学系", "score": 2, "tiebreaks": [4, 0], "prize": None, "withdrawn": True}]
    tournament.publish("autumn", "standings", standings(rows=rows, rnd=2))
    pg.wait_for_selector("#standings tr.withdrawn[data-entry=化学系]")
    assert pg.locator("#standings tr[data-entry=化学系]").inner_text().split("\t") == ["退赛", "化学系", "2", "4", "0", ""]
    pg.click("#lang")
    pg.wait_for_selector("#standings tr[data-entry=化学系] td:first-child:text-is('withdrawn')")
    assert "Round 2 has been paired again (a result of an earlier round was corrected)" in pg.inner_text("#pairings p.repaired")


def test_the_console_says_a_correction_paired_the_next_round_again_and_records_a_withdrawal(page, hall_db, server):
    store = TournamentStore(hall_db)
    units = ("数学系", "物理系", "化学系", "外语系")
    store.new("pair-swiss", [Entry(f"{u[0]}{k}", f"{u}{k}对", u, u, (f"{u}{k}甲", f"{u}{k}乙")) for u in units for k in (1, 2)],
              name="秋季教工升级赛", seed=11, options={"rounds": 3}, id="autumn")
    for x in store.pair_next_round()["tables"]:
        store.record_result(1, x["table"], {"winner": 0})
    store.pair_next_round()  # round 2 announced
    console = page("/console")
    login(console)
    console.wait_for_selector("#t-round[data-round='2']")
    assert not console.is_visible("#t-repaired")
    # a referee corrects round 1 (a dispute settled late) through the console's API, table by table, until the draw moves
    said = ""
    for x in store.round_view(1)["tables"]:
        answer = console.request.post(f"{server.url}/api/console/tournament/results", headers={"Origin": server.url},
                                      data={"round": 1, "table": x["table"], "result": {"winner": 1}, "correct": True, "reason": "记分卡填反"})
        assert answer.ok, answer.text()
        said = answer.json()["said"]
        if answer.json()["round"]["repaired"]:
            break
    repaired = store.round_view(2)["repaired"]
    changed = [x["table"] for x in repaired["tables"]]
    assert changed and f"第 2 轮因此重新编排（组织者 wang），变动的牌桌：{'、'.join(changed)}；请重新公布对阵" in said
    console.reload()
    console.wait_for_selector("#t-repaired")
    assert console.inner_text("#t-repaired").startswith(f"第 2 轮已重新编排（此前一轮的成绩已更正），请重新公布对阵；变动的牌桌：{'、'.join(changed)}")
    first = repaired["tables"][0]
    row = console.locator(f"#t-round tr.repaired[data-table={first['table']}]")
    assert row.locator(".repaired-mark").inner_text() == "重排"
    t = store.tournament  # each entry as announced: lot number, its team (named after its unit), its name (no id)
    named = [(t.lot.index(e) + 1, t.entry(e).name, t.entry(e).team) for e in first["before"]]
    assert row.locator(".was").inner_text() == "原为 " + " / ".join(f"{n}号 {team} {name}" for n, name, team in named)
    console.click("#lang")  # on the switch, in English
    english = "was " + " / ".join(f"No. {n} {team} {name}" for n, name, team in named)
    until(console, f"document.querySelector('tr.repaired[data-table={first['table']}] .was').textContent === {english!r}")
    console.click("#lang")
    console.wait_for_selector("#c-audit tbody tr[data-action=repaired_round]")
    # 化学系 withdraws from the console (confirmed: it cannot be undone): its tables of round 2 are forfeited, its results stand
    console.select_option("#t-withdraw select[name=who]", "unit:化学系")
    console.fill("#t-withdraw input[name=reason]", "全队出差")
    console.once("dialog", lambda d: d.accept())
    console.click("#t-withdraw button")
    until(console, "document.querySelector('#result .line').textContent.includes('退赛')")
    assert console.inner_text("#result .line") == "组织者 wang 登记 化学系 退赛（原因：全队出差）"
    t = store.tournament
    assert set(t.withdrawn) == {"化1", "化2"}
    assert all(x.outcome is not None for x in t.round(2).tables if {"化1", "化2"} & set(x.entries))
    last = store.standings()["rows"][-1]
    assert (last["id"], last["rank"], last["prize"], last["withdrawn"]) == ("化学系", 4, None, True)
    store.close()
