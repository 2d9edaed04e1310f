"""The console's results API for a San Da Yi table (individual-tables, seed 004) against a real mosquitto: each
seat's 小分 as typed (whole or decimal, kept exact), the players absent entered with them in one change, text
or a wrong count refused by the rules in words with nothing changed, a correction restating the table with its
forfeits, and its undo.

004 附件一 一、1: 每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分……如出现积分相同者，则计算小分进行排名。
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from kit import ORGANISER, REFEREE, as_, make_db

from display.app import Settings, create_app
from referee.tournament import Entry, TournamentStore

URL = "/api/console/tournament/results"
EN = {"Accept-Language": "en"}


@pytest.fixture(scope="module")
def client(broker, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("display")
    store = TournamentStore(tmp / "hall.db")
    store.new("individual-tables", [Entry(f"p{i}", f"选手{i}", f"单位{i % 4}", f"单位{i % 4}", (f"选手{i}",)) for i in range(8)],
              name="三打一比赛", seed=2016, id="usst2016")
    store.pair_next_round()
    store.close()
    app = create_app(Settings(broker.url("scoreboard"), broker.url("console"), make_db(tmp / "console.db"), tmp / "hall.db"))
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as c:
        yield as_(c, REFEREE)


def _table(view: dict, name: str) -> dict:
    return next(x for x in view["round"]["tables"] if x["table"] == name)


def test_scores_with_the_absent_player_at_once_then_a_correction_and_its_undo(client):
    seats = [e["id"] for e in _table(client.get("/api/console/tournament").json(), "t01")["entries"]]
    seq = len(client.get("/api/console/audit?limit=50").json())
    for scores, said in (([30, -5, 12.5], "小分应有四个，南、东、北、西每座一个，而这里有 3 个"),
                         ([30, -5, "12,5", 0], "北座的小分“12,5”不是有限的数：应为整数或小数，绝对值不超过 100000"),
                         ([30, -5, 100001, 0], "北座的小分 100001 超出范围：绝对值不超过 100000")):
        r = client.post(URL, json={"round": 1, "table": "t01", "result": {"scores": scores}, "forfeits": [seats[3]]})
        assert r.status_code == 409 and r.json()["detail"] == said, r.text
    r = client.post(URL, json={"round": 1, "table": "t01", "result": {"scores": [30, -5, 12.5, 0]}, "forfeits": ["p99"]}, headers=EN)
    assert r.status_code == 409 and r.json()["detail"].endswith(", not p99"), r.text
    r = client.post(URL, json={"round": 1, "table": "t01", "result": {"scores": [30, -5, 12.5, 9]}, "forfeits": [seats[3]]})
    e = next(x for x in client.get("/api/console/tournament").json()["entries"] if x["id"] == seats[3])  # named as the hall knows it
    assert r.status_code == 409 and f"{e['lot']}号 {e['name']} {e['unit']} 已弃权 t01 桌，其座位的小分应为 0，而不是 9" in r.json()["detail"]
    view = client.get("/api/console/tournament").json()
    assert _table(view, "t01")["result"] is None and _table(view, "t01")["forfeits"] == []  # nothing changed
    assert len(client.get("/api/console/audit?limit=50").json()) == seq
    view = client.post(URL, json={"round": 1, "table": "t01", "result": {"scores": [30, -5, 12.5, 0]}, "forfeits": [seats[3]]}).json()
    t01 = _table(view, "t01")
    assert t01["result"] == {"points": [5, 2, 3, 0], "scores": [30, -5, "25/2", 0]} and t01["forfeits"] == [seats[3]]
    absent = next(e for e in view["entries"] if e["id"] == seats[3])  # named as the console names an entry
    assert view["said"] == f"裁判 li 录入第 1 轮 t01 桌成绩：小分 30 : -5 : 12.5 : 0，弃权 {absent['lot']}号 {absent['name']} {absent['unit']}"
    row = {r["id"]: r for r in view["standings"]["rows"]}
    assert row[seats[2]]["tiebreaks"] == ["25/2", 0] and row[seats[3]]["tiebreaks"] == [0, 1]
    # the absent player did play: the correction restates the table without the forfeit
    view = client.post(URL, json={"round": 1, "table": "t01", "result": {"scores": [30, -5, 12.5, 40]}, "correct": True,
                                  "reason": "记分卡填错"}).json()
    assert _table(view, "t01")["result"]["points"] == [3, 1, 2, 5] and _table(view, "t01")["forfeits"] == []
    assert view["undo"]["body"] == {"round": 1, "table": "t01", "result": {"scores": [30, -5, 12.5, 0]}, "forfeits": [seats[3]],
                                    "correct": True, "reason": "撤销上一次更正", "seen": view["changed"]["t01"]}
    back = client.post(view["undo"]["path"], json=view["undo"]["body"]).json()
    assert _table(back, "t01")["result"]["points"] == [5, 2, 3, 0] and _table(back, "t01")["forfeits"] == [seats[3]]
    assert "undo" in back and "forfeits" not in back["undo"]["body"]  # back again restates it without the forfeit


def test_a_round_starts_with_san_da_yi_s_rulebook_unless_told_otherwise(client, connect, inbox):
    """The console's start of a round seats each table with the tournament's rulebook: San Da Yi's (usst-2016) for
    individual tables, where it sent Tractor's (classic-3deck), which a San Da Yi table refuses (another game), so
    no table was seated. A Tractor book is refused in words, nothing sent."""
    view = client.get("/api/console/tournament").json()
    assert view["rulebook"] == "usst-2016"
    as_(client, ORGANISER)
    try:
        wrong = client.post("/api/console/tournament/rounds/1/start", json={"rulebook": "classic-3deck"}, headers=EN)
        assert wrong.status_code == 409 and wrong.json()["detail"] == (
            "classic-3deck is a rulebook of Tractor, which the tables of this system (individual tables of four) do not play; "
            "the round was not started (its default: usst-2016)")
        r = client.post("/api/console/tournament/rounds/1/start", json={})
        assert r.status_code == 200 and r.json()["missing"] == ["t01", "t02"]  # no table on this broker: none sent
    finally:
        as_(client, REFEREE)
