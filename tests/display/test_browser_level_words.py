"""Levels as a person at the venue reads them, in the system Chromium against the app (uvicorn), a real mosquitto and the
tournament service: a ten is 10 on a tile's level and trump as on the cards and in the server's sentences (♣10), never
the bus's T (a canonical rank, shared/conformance/README.md "Card notation"), and a pair Swiss table's result on the
scoreboard's pairings and in the console says the levels reached as levels (级 K : 级 10, level K : level 10), not bare
3 : 3, which reads as a score of games or points."""

from __future__ import annotations

import pytest
from kit import hall_of, state, until

from referee.tournament import Entry, TournamentStore

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
TABLES = ["p1"]  # the module broker's tables
SEED_000_8_1 = "起庄：各家参赛运动员均由级牌2起庄，此后依次为3、4、5、6、7、8、9、10、J、Q、K和A，根据防家得分计算升级数。"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_tile_says_a_ten_as_10(page, table, lang):
    """000 第八条 1 (SEED_000_8_1): the levels run 2 … 9, 10, J: a side at ten read 级 T, its trump ♥T."""
    assert "9、10、J" in SEED_000_8_1
    t = table("p1")
    s = state(seq=77)
    s["teams"] = [{**s["teams"][0], "level": "T"}, {**s["teams"][1], "level": "5"}]
    s["trump"] = {"suit": "H", "rank": "T"}
    t.publish("state", s)
    pg = page("/", lang=lang)
    pg.wait_for_selector("#tile-p1[data-seq='77']", timeout=WAIT_MS)
    level = "级" if lang == "zh" else "level"
    assert pg.locator("#tile-p1 .lvl").all_inner_texts() == [f"{level} 10", f"{level} 5"]
    assert pg.inner_text("#tile-p1 .info").endswith(("主 ♥10" if lang == "zh" else "Trump ♥10"))


def test_a_pair_swiss_result_says_the_levels_reached(browser, broker, tmp_path):
    """000 第八条 1 (SEED_000_8_1): a table's result is the levels each side reached, said as levels on the scoreboard
    and in the console (K : 9 and 3 : 3 read as scores), past A as 过A; English on the switch."""
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(f"u{u}p{p}", f"甲{u}{p}、乙{u}{p}", f"单位{u}", f"单位{u}", (f"甲{u}{p}", f"乙{u}{p}"))
                             for u in range(1, 3) for p in (1, 2)], name="秋季赛", seed=4, options={"rounds": 2}, id="lv")
    store.pair_next_round()
    first, second = store.tournament.round(1).tables
    try:
        with hall_of(browser, broker, store, tmp_path / "console.db") as (_, console, board):
            board.wait_for_selector(f"#pairings tr[data-table={second.table}]", timeout=WAIT_MS)
            store.record_result(1, first.table, {"winner": 0, "levels": ["K", "10"]})
            store.record_result(1, second.table, {"winner": 0, "levels": ["A+", "3"]})
            cell = "document.querySelector('#pairings tr[data-table={}] td:last-child').textContent"
            done = "document.querySelector('#t-round tr[data-table={}] .finished')?.textContent"
            for pg, words in ((board, cell), (console, done)):
                until(pg, f"{words.format(first.table)}?.endsWith('级 K : 级 10')")
                assert pg.evaluate(words.format(second.table)).endswith("过A : 级 3")
            assert console.evaluate(done.format(first.table)) == "已完成 级 K : 级 10"
            for pg in (board, console):
                pg.click("#lang")
            until(board, f"{cell.format(first.table)} === 'level K : level 10'")
            assert board.evaluate(cell.format(second.table)) == "past A : level 3"
            until(console, f"{done.format(first.table)} === 'finished level K : level 10'")
    finally:
        store.close()
