"""The hall's scoreboard and the console read a pair Swiss tournament as a person at the venue does (seed 000), in the
system Chromium against the app (uvicorn), a real mosquitto and the tournament service on the same file: a pair
disqualified mid-round is marked 退赛 where it sits (its standings' rows are teams, and its team plays on), a table's
result is the levels each side reached, and the final standings give every team still in without a placed prize the
鼓励奖 (English on the switch), a team withdrawn none; a pair is named by its team, as the standings name the team."""

from __future__ import annotations

import pytest
from kit import hall_of, until

from referee.tournament import Entry, TournamentStore

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
SEED_000_5 = "本届竞赛决出一等奖1名，二等奖3名，三等奖5名。未获名次的队给予鼓励奖。"  # 000 五、名次及奖励
SEED_000_8_1 = "起庄：各家参赛运动员均由级牌2起庄，此后依次为3、4、5、6、7、8、9、10、J、Q、K和A，根据防家得分计算升级数。"
SEED_000_14 = "重则判取消参赛资格"  # 000 第十四条
LABELS = """[...document.querySelectorAll('#t-round label[data-entry="{0}"] input, #t-round button[data-forfeit="{0}"]')]
  .map(x => x.getAttribute('aria-label'))"""


def test_a_pair_withdrawn_the_levels_reached_and_the_encouragement_award_on_the_scoreboard(browser, broker, tmp_path):
    """000 第十四条 (重则判取消参赛资格): one pair of a two-pair team disqualified during round 1 shows 退赛 beside its
    forfeit in the public pairings (it showed 弃权 alone: the scoreboard looked for it among the standings' rows, which
    are teams); 第八条 1 (由级牌2起庄……根据防家得分计算升级数): a result reads 级 K : 级 9 (not the 级差 2 : -2), in the
    console too; 五 (SEED_000_5): once the last round is complete, the teams after the nine placed get 鼓励奖
    (Encouragement award on the switch), the withdrawn team nothing."""
    assert "取消参赛资格" in SEED_000_14 and "由级牌2起庄" in SEED_000_8_1 and "未获名次的队给予鼓励奖" in SEED_000_5
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(f"u{u:02d}p{p}", f"甲{u}{p}、乙{u}{p}", f"单位{u:02d}", f"单位{u:02d}", (f"甲{u}{p}", f"乙{u}{p}"))
                             for u in range(1, 13) for p in (1, 2)], name="秋季赛", seed=4, options={"rounds": 2}, id="swiss")
    store.pair_next_round()
    t = store.tournament
    first, held = t.round(1).tables[0], t.round(1).tables[1]
    gone = held.entries[0]
    try:
        with hall_of(browser, broker, store, tmp_path / "console.db") as (_, console, board):
            board.wait_for_selector(f"#pairings tr[data-table={held.table}]", timeout=WAIT_MS)
            store.record_result(1, first.table, {"winner": 0, "levels": ["K", "9"]})
            store.withdraw_entry(gone, reason="暗示，取消参赛资格")
            mark = f"#pairings tr[data-table={held.table}] .withdrawn-mark"
            until(board, f"document.querySelector('{mark}')?.textContent === '退赛'")
            assert board.locator("#pairings .withdrawn-mark").count() == 1
            assert board.locator(f"#pairings tr[data-table={held.table}] .forfeited").inner_text() == "弃权"
            cell = f"#pairings tr[data-table={first.table}] td:last-child"
            until(board, f"document.querySelector('{cell}').textContent === '级 K : 级 9'")
            console.wait_for_selector(f"#t-round tr[data-table={first.table}] .finished", timeout=WAIT_MS)
            until(console, f"document.querySelector('#t-round tr[data-table={first.table}] .finished').textContent === '已完成 级 K : 级 9'")
            # the last round complete, a unit withdrawn before it: 1 + 3 + 5 placed, two 鼓励奖, the withdrawn nothing
            store.withdraw_unit("单位12", reason="退赛")
            for x in store.tournament.round(1).tables:
                if x.outcome is None:
                    store.record_result(1, x.table, {"winner": 1, "levels": ["5", "7"]})
            store.pair_next_round()
            for x in store.tournament.round(2).tables:
                store.record_result(2, x.table, {"winner": 0, "levels": ["A", "J"]})
            assert store.tournament.finished
            prizes = "[...document.querySelectorAll('#standings tbody td:last-child')].map(x => x.textContent).join(',')"
            want = ["一等奖"] + ["二等奖"] * 3 + ["三等奖"] * 5 + ["鼓励奖"] * 2 + [""]
            until(board, f"{prizes} === {','.join(want)!r}")
            assert board.locator("#standings tbody tr").last.locator("td").first.inner_text() == "退赛"
            board.click("#lang")
            english = ["First prize"] + ["Second prize"] * 3 + ["Third prize"] * 5 + ["Encouragement award"] * 2 + [""]
            until(board, f"{prizes} === {','.join(english)!r}")
    finally:
        store.close()


def test_a_pair_is_named_by_its_team_as_the_standings_name_it(browser, broker, tmp_path):
    """000 四5 (各队的团体成绩由本队两对选手轮分积分累加): the standings rank teams, 一队 单位01 or 单位02 (named after its
    unit, once); the scoreboard's pairings and the console's round name each pair by that team, its players after it
    (they named it by its players alone, 甲12、乙12 单位01, a name the standings never show), the bye too, and so do the
    console's audit lines in both languages (they named it 1号 甲11、乙11 单位01 after c3259358 named its rows by team),
    its late arrival's and withdrawal's pickers (they named it 1号 甲11、乙11 and 1号 甲11、乙11 单位01), and what a screen
    reader says of its round row's winner and forfeit (胜方：1号 甲11、乙11, 1号 甲11、乙11 弃权)."""
    team = lambda u: "一队" if u == 1 else f"单位{u:02d}"  # noqa: E731  (unit 01's team has a name of its own)
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(f"u{u:02d}p{p}", f"甲{u}{p}、乙{u}{p}", f"单位{u:02d}", team(u), (f"甲{u}{p}", f"乙{u}{p}"))
                             for u in range(1, 4) for p in (1, 2)], name="秋季赛", seed=4, options={"rounds": 2}, id="named")
    store.withdraw_entry("u03p2", reason="缺席")  # five pairs: one sits out
    store.pair_next_round()
    r, lot = store.tournament.round(1), store.tournament.lot
    words = {e.id: (f"{e.team} {e.unit}" if e.team != e.unit else e.team, e.name) for e in store.tournament.entries}
    try:
        with hall_of(browser, broker, store, tmp_path / "console.db") as (_, console, board):
            board.wait_for_selector("#standings tr[data-entry='单位01·一队']", timeout=WAIT_MS)
            assert board.inner_text("#standings tr[data-entry='单位01·一队'] td.who") == "一队 单位01"
            for x in r.tables:
                said = " 对 ".join(f"{words[e][0]} {words[e][1]}" for e in x.entries)
                until(board, f"document.querySelector('#pairings tr[data-table={x.table}] td:nth-child(2)').textContent === {said!r}")
                for e in x.entries:
                    entry = console.locator(f"#t-round tr[data-table={x.table}] .entry[title={e}]")
                    entry.wait_for(timeout=WAIT_MS)
                    assert entry.inner_text() == f"{lot.index(e) + 1}号 {words[e][0]} {words[e][1]}"
            bye = [f"{lot.index(e) + 1}号 {words[e][0]} {words[e][1]}" for e in r.byes]
            assert len(bye) == 1, r
            until(board, f"document.querySelector('#pairings .byes').textContent === {'轮空：' + bye[0]!r}")
            assert console.inner_text("#t-byes") == "轮空：" + bye[0]
            # the audit lines so too (甲11、乙11 单位01 there), both languages: a late arrival (an entry), a forfeit (a list)
            late = next(e for x in r.tables for e in x.entries if e.startswith("u01"))
            table, gone = next((x.table, x.entries[0]) for x in r.tables if late not in x.entries)
            named = lambda e, no: f"{no.format(lot.index(e) + 1)} {words[e][0]} {words[e][1]}"  # noqa: E731
            # the late arrival's and the withdrawal's pickers name it as its audit line will (they named it by its players)
            picked = ("[document.querySelector('#t-late-entry option[value={0}]'), "
                      "document.querySelector('#t-withdraw option[value=\"entry:{0}\"]')].map(x => x.textContent).join('|')").format(late)
            assert console.evaluate(picked) == "|".join([named(late, "{}号")] * 2)
            for e in (x for t in r.tables for x in t.entries):  # a screen reader's words for its row: as the audit's
                assert console.evaluate(LABELS.format(e)) == [f"胜方：{named(e, '{}号')}", f"{named(e, '{}号')} 弃权"]
            console.select_option("#t-late-entry", late)
            console.fill("#t-late input[name=minutes]", "3")
            console.click("#t-late button")
            console.locator(f"#t-round tr[data-table={table}] button[data-forfeit={gone}]").click()
            audit = ("[...document.querySelectorAll('#c-audit tr[data-action=forfeit], #c-audit tr[data-action=late_arrival]')]"
                     ".map(x => x.cells[1].textContent).join('|')")
            zh = [f"组织者 wang 录入第 1 轮 {table} 桌弃权：{named(gone, '{}号')}", f"组织者 wang 录入第 1 轮 {named(late, '{}号')} 迟到 3 分钟"]
            until(console, f"{audit} === {'|'.join(zh)!r}")
            console.click("#lang")
            en = [f"organiser wang recorded a forfeit in round 1 {table}: {named(gone, 'No. {}')}",
                  f"organiser wang recorded {named(late, 'No. {}')} 3 min late in round 1"]
            until(console, f"{audit} === {'|'.join(en)!r}")
            until(console, f"{picked} === {'|'.join([named(late, 'No. {}')] * 2)!r}")
            assert console.evaluate(LABELS.format(gone)) == [f"winner: {named(gone, 'No. {}')}", f"{named(gone, 'No. {}')} forfeits"]
    finally:
        store.close()
