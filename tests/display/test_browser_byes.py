"""The scoreboard names a round's byes as the console does (lot number, name, unit: 1号 张伟/李娜 工会), from what the page
has (the standings' rows, the pairings' entries), never by the tournament's internal ids; in the system Chromium
against the app (uvicorn) and a real mosquitto."""

from __future__ import annotations

import time

import pytest
from kit import round_, standings, until

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
SEED_002 = "第一阶段：采取单局淘汰制决出前16名"  # 三2: a knockout of a field not a power of two gives byes


def row(rank: int, eid: str, name: str, unit: str) -> dict:
    return {"rank": rank, "id": eid, "name": name, "unit": unit, "score": 0, "tiebreaks": [], "prize": None}


def test_the_byes_are_named_by_name_and_unit_not_by_id(page, tournament):
    """002 三2 (SEED_002): a round of the knockout leaves entries with a bye; the pairings said them e07, e08 (the
    tournament's ids), which nobody in the hall knows. One whose team forfeits the round is marked so."""
    rows = [row(1, "e01", "张伟/李娜", "工会"), row(2, "e02", "王芳/刘洋", "外语学院"), row(3, "e07", "陈静/赵磊", "机电学院"),
            row(4, "e08", "化工学院", "化工学院")]
    table = {"table": "t01", "entries": [{"id": "e01", "name": "张伟/李娜", "unit": "工会", "lot": 1},
                                         {"id": "e02", "name": "王芳/刘洋", "unit": "外语学院", "lot": 2}],
             "result": None, "forfeits": []}
    tournament.publish("ko", "standings", standings("ko", rows) | {"system": "knockout-best-of-three", "columns": []})
    tournament.publish("ko", "round", round_("ko", [table]) | {"system": "knockout-best-of-three", "byes": ["e07", "e08"],
                                                               "byes_forfeited": ["e08"], "at": time.time() + 1})
    for lang, said in (("zh", "轮空：陈静/赵磊 机电学院、化工学院（全队弃权）"),
                       ("en", "Byes: 陈静/赵磊 机电学院, 化工学院 (team forfeit)")):
        pg = page("/", lang=lang)
        pg.wait_for_selector("#pairings .byes", timeout=WAIT_MS)
        assert pg.inner_text("#pairings .byes") == said
        assert "e07" not in pg.inner_text("#pairings") and "e08" not in pg.inner_text("#pairings")


SEED_000 = "各队的团体成绩由本队两对选手轮分积分累加而定"  # 四5: pair Swiss ranks teams
SEED_002_TEAMS = "以各院（系）、部门、单位工会小组为单位组队参赛"  # 一2: the knockout's pairs enter as teams
SEED_004 = "本次比赛采取个人赛形式"  # the individual tables rank players


def test_each_systems_standings_head_their_rows_and_a_pair_swiss_bye_is_named(page, tournament, hall_db, server):
    """The public standings headed every system's rows 参赛队: individual tables rank players (SEED_004: 选手), pair
    Swiss teams (000 四5, SEED_000: 队), the knockout pairs entered as teams (002 一2, SEED_002_TEAMS: 队). A pair Swiss
    pair with the bye showed its id (e2): the standings' rows are teams, and the pair is at no table of its round; the
    page asks the display, which runs the tournament, for its name. The console names it as well."""
    from kit import login

    from referee.tournament import Entry, TournamentStore

    store = TournamentStore(hall_db)
    units = ("数学系", "物理系", "化学系")  # three pairs, each a team of its own (team_pairs 1): one has the bye
    store.new("pair-swiss", [Entry(f"e{i}", f"{u}甲、{u}乙", u, u, (f"{u}甲", f"{u}乙")) for i, u in enumerate(units, 1)],
              name="秋季赛", seed=3, options={"rounds": 3, "team_pairs": 1}, id="odd")
    r = store.pair_next_round()
    assert r["byes"] == ["e2"]
    bye = f"{store.tournament.lot.index('e2') + 1}号 物理系 物理系甲、物理系乙"  # by its team, as the standings name it
    for leaf, payload in (("round", r), ("standings", store.standings())):
        tournament.publish("odd", leaf, payload | {"at": time.time() + 5})
    for lang, said, head in (("zh", f"轮空：{bye}", "队"), ("en", "Byes: No. " + bye.replace("号", ""), "Team")):
        pg = page("/", lang=lang)
        pg.wait_for_selector("#pairings .byes", timeout=WAIT_MS)
        until(pg, "!document.querySelector('#pairings .byes').textContent.includes('e2')")
        assert pg.inner_text("#pairings .byes") == said
        assert pg.locator("#standings thead th").nth(1).inner_text() == head
    big = page("/big")
    big.wait_for_selector("#pairings .byes", state="attached", timeout=WAIT_MS)
    until(big, f"document.querySelector('#pairings .byes').textContent === '轮空：{bye}'")
    console = page("/console")
    login(console)
    console.wait_for_selector("#t-byes", timeout=WAIT_MS)
    assert console.inner_text("#t-byes") == f"轮空：{bye}"
    for system, tid, head, english in (("individual-tables", "solo", "选手", "Player"), ("knockout-best-of-three", "ko2", "队", "Team")):
        rows = [row(1, "e01", "王芳" if system == "individual-tables" else "王芳、李强", "机械学院")]
        tournament.publish(tid, "standings", standings(tid, rows) | {"system": system, "columns": [], "at": time.time() + 10})
        for lang, want in (("zh", head), ("en", english)):
            pg = page("/", lang=lang)
            pg.wait_for_selector("#standings tr[data-entry=e01]", timeout=WAIT_MS)
            assert pg.locator("#standings thead th").nth(1).inner_text() == want, system
