"""The hall's scoreboard and the console read a knockout as a person at the venue does (seed 002), in the system
Chromium against the app (uvicorn), a real mosquitto and the tournament service on the same file: a best-of-three match reads its games won
(2 : 1), and once the final is played the first eight get 证书和奖品 and every pair still in 纪念品
(English on the switch)."""

from __future__ import annotations

import pytest
from kit import hall_of, until

from referee.tournament import Entry, TournamentStore

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
SEED_002_4 = "1、凡参加比赛的选手均有纪念品。 2、获得本届比赛前八名的选手分别颁发证书和奖品。"  # 002 四、录取名次及奖励
SEED_002_3_2 = "根据级差（级高方为胜，同级时先到胜，第二阶段如1:1平局继续打完）确定胜方"  # 002 三2


def test_a_knockout_match_reads_its_games_won_and_the_placed_get_the_seeds_prizes(browser, broker, tmp_path):
    """002 三2 (SEED_002_3_2): a stage-two match won 2 : 1 reads 2 : 1 (三局两胜: its games won) on the scoreboard and in the console; 四
    (SEED_002_4): once the last round is complete, places 1 to 8 read 证书和奖品、纪念品, the two losers of the round of
    16 (sharing 9th, not played off) 纪念品."""
    assert "纪念品" in SEED_002_4 and "前八名" in SEED_002_4 and "确定胜方" in SEED_002_3_2
    store = TournamentStore(tmp_path / "hall.db")
    store.new("knockout-best-of-three", [Entry(f"p{i:02d}", f"甲{i}、乙{i}", f"单位{i:02d}", f"单位{i:02d}", (f"甲{i}", f"乙{i}"))
                                         for i in range(1, 11)], name="掼蛋赛", seed=4, id="ko")
    first = store.pair_next_round()["tables"][0]["table"]
    try:
        with hall_of(browser, broker, store, tmp_path / "console.db") as (_, console, board):
            board.wait_for_selector(f"#pairings tr[data-table={first}]", timeout=WAIT_MS)
            store.record_result(1, first, {"winner": 0, "games": [2, 1]})
            cell = f"#pairings tr[data-table={first}] td:last-child"
            until(board, f"document.querySelector('{cell}').textContent === '2 : 1'")  # 三局两胜: the games won
            console.wait_for_selector(f"#t-round tr[data-table={first}] .finished", timeout=WAIT_MS)
            until(console, f"document.querySelector('#t-round tr[data-table={first}] .finished').textContent === '已完成 2 : 1'")
            while not store.tournament.finished:
                t = store.tournament
                n = len(t.rounds)
                for x in t.round(n).tables:
                    if x.outcome is None:
                        store.record_result(n, x.table, {"winner": 1, "games": [0, 2]})
                if not store.tournament.finished:
                    store.pair_next_round()
            prizes = "[...document.querySelectorAll('#standings tbody td:last-child')].map(x => x.textContent).join('|')"
            want = ["证书和奖品、纪念品"] * 8 + ["纪念品"] * 2
            until(board, f"{prizes} === {'|'.join(want)!r}")
            assert board.locator("#standings tbody tr").last.locator("td").first.inner_text() == "9"
            board.click("#lang")
            english = ["Certificate and prize, Souvenir"] * 8 + ["Souvenir"] * 2
            until(board, f"{prizes} === {'|'.join(english)!r}")
    finally:
        store.close()
