"""The console's API to undo a round paired by mistake (``unpair``), against a real mosquitto: the organiser's alone
(a referee is refused in words), the reason kept in the audit log and the tournament's log, refused in the reader's
language for any round but the latest and once a result is in, and nothing changes then."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from kit import ORGANISER, REFEREE, as_, make_db

from display.app import Settings, create_app
from referee.tournament import Entry, TournamentStore

SEED_002_1_4 = "抽签：各工会组长于 11月30日下午3：40在行政楼5322参加分组抽签。"
EN = {"Accept-Language": "en"}


@pytest.fixture
def hall(broker, tmp_path):
    """A knockout of six pairs whose round 1 was paired before the hall's lot was entered; the app on its file."""
    store = TournamentStore(tmp_path / "hall.db")
    store.new("knockout-best-of-three", [Entry(f"e{i}", f"甲{i}、乙{i}", f"工会{i}", f"工会{i}", (f"甲{i}", f"乙{i}"))
                                         for i in range(1, 7)], name="掼蛋赛", seed=1)
    store.pair_next_round()
    app = create_app(Settings(broker.url("scoreboard"), broker.url("console"), make_db(tmp_path / "console.db"), store.path))
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as c:
        yield c, store
    store.close()


def test_the_organiser_undoes_a_knockout_paired_before_the_halls_lot_and_pairs_it_by_that_lot(hall):
    """002 一4 (SEED_002_1_4): 参加分组抽签 -- the bracket is the lot drawn in the hall; round 1 paired before it was
    entered refuses it, until the organiser undoes the pairing (a referee may not); paired again, the byes go to lot
    numbers 1 and 2."""
    assert "参加分组抽签" in SEED_002_1_4
    client, store = hall
    order = ["e6", "e5", "e4", "e3", "e2", "e1"]
    as_(client, REFEREE)
    r = client.post("/api/console/tournament/rounds/1/unpair", json={"reason": "先编排后抽签"})
    assert r.status_code == 403 and r.json()["detail"] == "li 是裁判；这需要组织者"
    assert client.post("/api/console/tournament/rounds/1/unpair", json={}, headers=EN).json()["detail"] == \
        "li is a referee; this needs an organiser"
    as_(client, ORGANISER)
    assert client.post("/api/console/tournament/lot", json={"order": order}).status_code == 409
    seq = store.last_seq()
    r = client.post("/api/console/tournament/rounds/2/unpair", json={"reason": "x"})
    assert r.status_code == 409 and r.json()["detail"] == "第 2 轮尚未编排（已编排 1 轮）"
    for body in ({}, {"reason": "  "}):  # undone with a reason, kept in the logs (display/README.md)
        r = client.post("/api/console/tournament/rounds/1/unpair", json=body, headers=EN)
        assert r.status_code == 409 and r.json()["detail"] == "say why round 1's pairing is undone: the reason is recorded"
    assert store.last_seq() == seq
    r = client.post("/api/console/tournament/rounds/1/unpair", json={"reason": "先编排后抽签"})
    assert r.status_code == 200 and r.json()["paired"] == 0 and r.json()["lot_open"]
    assert r.json()["said"] == "组织者 wang 撤销第 1 轮的编排（原因：先编排后抽签），可以重新编排"
    undone = store.actions()[-1]
    assert (undone["kind"], undone["by"], undone["data"]) == ("unpair", "wang", {"round": 1, "reason": "先编排后抽签"})
    audit = client.get("/api/console/audit", headers=EN).json()
    said = next(a for a in audit if a["action"] == "unpair_round")
    assert said["detail"] == {"round": 1, "reason": "先编排后抽签"}
    assert said["text"] == "organiser wang undid round 1's pairing (reason: 先编排后抽签); it can be paired again"
    assert client.post("/api/console/tournament/lot", json={"order": order}).status_code == 200
    r = client.post("/api/console/tournament/rounds")
    assert r.status_code == 201 and sorted(r.json()["round"]["byes"]) == ["e5", "e6"]


def test_a_round_with_a_result_is_refused_in_words_and_nothing_changes(hall):
    """A round under way is changed by corrections only: one result in, the pairing stays, said in the reader's
    language naming the table."""
    client, store = hall
    table = store.tournament.round(1).tables[0].table
    as_(client, REFEREE)
    assert client.post("/api/console/tournament/results", json={"round": 1, "table": table,
                                                                 "result": {"winner": 0, "games": [2, 0]}}).status_code == 200
    as_(client, ORGANISER)
    seq, audited = store.last_seq(), len(client.get("/api/console/audit").json())
    r = client.post("/api/console/tournament/rounds/1/unpair", json={"reason": "编错"})
    assert r.status_code == 409
    assert r.json()["detail"] == f"第 1 轮已经开始（已有成绩、弃权或牌桌的报告：{table}），不能撤销编排：请更正成绩"
    r = client.post("/api/console/tournament/rounds/1/unpair", json={"reason": "编错"}, headers=EN)
    assert r.status_code == 409 and r.json()["detail"] == (
        f"round 1 is under way (a result, a forfeit or a table's report: {table}): its pairing cannot be undone; "
        "correct the results instead")
    assert store.last_seq() == seq and len(client.get("/api/console/audit").json()) == audited
    assert client.get("/api/console/tournament").json()["paired"] == 1
