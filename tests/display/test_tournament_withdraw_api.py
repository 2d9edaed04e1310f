"""The console's API for a unit's withdrawal and the number of rounds, against a real mosquitto: the
withdrawal is recorded (audit log, the tournament's log) and says when the rounds left can no longer all be
paired; the organiser changes the rounds, refused in words above what can be paired; a referee may not."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from kit import ORGANISER, REFEREE, as_, make_db

from display.app import Settings, create_app
from referee.tournament import Entry, TournamentStore


@pytest.fixture
def client(broker, tmp_path):
    hall = tmp_path / "hall.db"
    store = TournamentStore(hall)
    # four units of two pairs, six rounds: every pair meets all six others (000 四2: 共赛6轮)
    store.new("pair-swiss", [Entry(f"{u[0]}{k}", f"{u}{k}对", u, u, (f"{u}{k}甲", f"{u}{k}乙"))
                             for u in ("数学系", "物理系", "化学系", "外语系") for k in (1, 2)], seed=3, options={"rounds": 6})
    for x in store.pair_next_round()["tables"]:
        store.record_result(1, x["table"], {"draw": True})
    store.close()
    app = create_app(Settings(broker.url("scoreboard"), broker.url("console"), make_db(tmp_path / "console.db"), hall))
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as c:
        yield c


def test_a_withdrawal_says_how_many_rounds_can_still_be_played_and_the_organiser_changes_them(client):
    as_(client, REFEREE)
    assert client.post("/api/console/tournament/withdrawals", json={"unit": "化学系"}).status_code == 403
    assert client.put("/api/console/tournament/rounds", json={"rounds": 4}).status_code == 403
    as_(client, ORGANISER)
    r = client.post("/api/console/tournament/withdrawals", json={"unit": "生物系"})
    assert r.status_code == 409 and r.json()["detail"].startswith("没有单位“生物系”")
    r = client.post("/api/console/tournament/withdrawals", json={"unit": "化学系", "reason": "全队出差"})
    assert r.status_code == 200
    said = r.json()["said"]
    assert said.startswith("组织者 wang 登记 化学系 退赛（原因：全队出差）")
    can = int(said.split("最多能排 ")[1].split(" 轮")[0])
    assert 1 <= can < 6 and "排不出全部 6 轮" in said
    rows = r.json()["standings"]["rows"]
    assert rows[-1]["id"] == "化学系" and rows[-1]["withdrawn"] and rows[-1]["prize"] is None
    too_many = client.put("/api/console/tournament/rounds", json={"rounds": can + 1})
    assert too_many.status_code == 409 and f"最多能排 {can} 轮" in too_many.json()["detail"]
    english = client.put("/api/console/tournament/rounds", json={"rounds": can + 1}, headers={"Accept-Language": "en"})
    assert f"at most {can}" in english.json()["detail"]
    ok = client.put("/api/console/tournament/rounds", json={"rounds": can})
    assert ok.status_code == 200 and ok.json()["rounds"] == can and ok.json()["said"] == f"组织者 wang 把轮数改为 {can} 轮"
    audit = [a["action"] for a in client.get("/api/console/audit").json()]
    assert {"withdraw_unit", "rounds_short", "set_rounds"} <= set(audit)


def test_one_entry_disqualified_is_withdrawn_through_the_same_call_and_audited(client):
    """000 第十四条: 重则判取消参赛资格 -- one pair, not its unit: named by its entry id; exactly one of unit and entry."""
    as_(client, REFEREE)
    assert client.post("/api/console/tournament/withdrawals", json={"entry": "数1"}).status_code == 403
    as_(client, ORGANISER)
    for body in ({}, {"unit": "数学系", "entry": "数1"}):
        r = client.post("/api/console/tournament/withdrawals", json=body)
        assert r.status_code == 409 and r.json()["detail"] == "请给出退赛的单位或参赛编号（二者选一）"
    r = client.post("/api/console/tournament/withdrawals", json={"entry": "数9"})
    assert r.status_code == 409 and r.json()["detail"] == "没有参赛编号 数9"
    seq = client.get("/api/console/audit").json()
    for body in ({"entry": "数1"}, {"entry": "数1", "reason": " \u3000"}):  # withdrawn with a reason, which the log keeps
        r = client.post("/api/console/tournament/withdrawals", json=body, headers={"Accept-Language": "en"})
        assert r.status_code == 409 and r.json()["detail"] == "say why 数1 withdraws or is disqualified: the reason is recorded"
    r = client.post("/api/console/tournament/withdrawals", json={"unit": "数学系"})
    assert r.status_code == 409 and r.json()["detail"] == "请说明 数学系 退赛或被取消比赛资格的原因：原因会记录在案"
    assert client.get("/api/console/audit").json() == seq  # nothing changed, nothing audited
    r = client.post("/api/console/tournament/withdrawals", json={"entry": "数1", "reason": "取消参赛资格"})
    assert r.status_code == 200
    assert r.json()["said"].startswith("组织者 wang 登记") and "数学系1对" in r.json()["said"] and r.json()["said"].endswith("退赛（原因：取消参赛资格）")
    assert not any(row.get("withdrawn") for row in r.json()["standings"]["rows"])  # its teammates play on: the team stays in
    assert "withdraw_entry" in [a["action"] for a in client.get("/api/console/audit").json()]
    again = client.post("/api/console/tournament/withdrawals", json={"entry": "数1"}, headers={"Accept-Language": "en"})
    said = again.json()["detail"]  # named as the hall knows it, not by its id
    assert again.status_code == 409 and said.startswith("No. ") and "数学系1对" in said and said.endswith(" has withdrawn already")
