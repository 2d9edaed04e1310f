"""The console starts a Guandan knockout round under its stage's book (seed 002 规程 三 2: 第一阶段…单局淘汰制; 第二阶段：
采取三局两胜制，每局过“8”即胜): by default, and refused in words when the organiser names the other stage's book."""

from __future__ import annotations

from fastapi.testclient import TestClient
from kit import ORGANISER, as_, make_db

from display.app import Settings, create_app
from referee.tournament import Entry, TournamentStore


def test_a_best_of_three_round_is_started_under_stage_twos_book_and_never_stage_ones(broker, tmp_path):
    store = TournamentStore(tmp_path / "hall.db")  # two pairs: best of three from round 1
    store.new("knockout-best-of-three", [Entry("k01", "南北", "u1", "u1", ("甲", "乙")), Entry("k02", "东西", "u2", "u2", ("丙", "丁"))],
              name="掼蛋淘汰赛", seed=1, id="ko")
    store.pair_next_round()
    store.close()
    app = create_app(Settings(broker.url("scoreboard"), broker.url("console"), make_db(tmp_path / "console.db"), tmp_path / "hall.db"))
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as c:
        as_(c, ORGANISER)
        assert c.get("/api/console/tournament").json()["rulebook"] == "sanjiang-2012-stage-two"
        wrong = c.post("/api/console/tournament/rounds/1/start", json={"rulebook": "sanjiang-2012"})
        assert wrong.status_code == 409 and wrong.json()["detail"] == (
            "第 1 轮每场 3 局，规则 sanjiang-2012 不是这一阶段的打法，本轮没有开赛（这一轮的规则：sanjiang-2012-stage-two）")
        r = c.post("/api/console/tournament/rounds/1/start", json={})
        assert r.status_code == 200 and r.json()["missing"] == ["t01"]  # no table t01 on this broker: none sent, said
