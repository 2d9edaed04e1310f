"""The scoreboard names a round's byes as the console does (lot number, name, unit: 1号 张伟/李娜 工会), from what the page
has (the standings' rows, the pairings' entries), never by the tournament's internal ids; in the system Chromium
against the app (uvicorn) and a real mosquitto."""

from __future__ import annotations

import time

import pytest
from kit import round_, standings

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
    for lang, said in (("zh", "轮空: 陈静/赵磊 机电学院、化工学院（全队弃权）"),
                       ("en", "Byes: 陈静/赵磊 机电学院, 化工学院 (team forfeit)")):
        pg = page("/", lang=lang)
        pg.wait_for_selector("#pairings .byes", timeout=WAIT_MS)
        assert pg.inner_text("#pairings .byes") == said
        assert "e07" not in pg.inner_text("#pairings") and "e08" not in pg.inner_text("#pairings")
