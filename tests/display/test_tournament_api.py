"""The console's tournament API (``referee.tournament`` in-process) against a real mosquitto:
registration by hand and by form, the tournament, pairing and starting a round at the tables,
results and their correction, forfeits, late arrivals, exports; bad input, wrong roles, no login."""

from __future__ import annotations

import csv
import io
import json
import time

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from kit import ORGANISER, OWN_USERS, REFEREE, answers, as_, make_db, settings, small_tournament, state
from openpyxl import Workbook, load_workbook

from bus.mqtt import Connection
from bus.protocol import topic
from display.app import Settings, create_app
from display.routers.tournament import PUBLISH_GRACE_S

TABLES = ["t01", "t02", "t03"]
UNITS = ("数学系", "物理系", "化学系")
EN = {"Accept-Language": "en-GB,en;q=0.9"}  # a reader who asks for English


def form_rows() -> list[list[str]]:
    return [["单位", "对", "选手"]] + [[u, str(p), f"{u}{p}甲、{u}{p}乙"] for u in UNITS for p in (1, 2)]


def xlsx(rows) -> bytes:
    wb = Workbook()
    for r in rows:
        wb.active.append(r)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@pytest.fixture(scope="module")
def client(broker, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("display")
    app = create_app(Settings(broker.url("scoreboard"), broker.url("console"), make_db(tmp / "console.db"), tmp / "hall.db"))
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as c:  # as a browser
        yield c


def test_without_a_login_nothing_is_open(client):
    client.cookies.clear()
    for method, path in (("GET", "/api/console/entries"), ("POST", "/api/console/entries"), ("DELETE", "/api/console/entries"),
                         ("POST", "/api/console/entries/import"), ("POST", "/api/console/tournament"),
                         ("GET", "/api/console/tournament"), ("POST", "/api/console/tournament/rounds"),
                         ("POST", "/api/console/tournament/rounds/1/start"), ("POST", "/api/console/tournament/results"),
                         ("POST", "/api/console/tournament/forfeits"), ("POST", "/api/console/tournament/late"),
                         ("GET", "/api/console/tournament/export.csv")):
        r = client.request(method, path, json={})
        assert r.status_code == 401, (method, path, r.text)


def test_registration_by_hand_and_by_form(client):
    as_(client, REFEREE)
    assert client.post("/api/console/entries", json={"unit": "数学系", "players": "王芳、张伟"}).status_code == 403
    as_(client, ORGANISER)
    assert client.get("/api/console/tournament").status_code == 404
    # refusals in the reader's language: Chinese unless the request asks for English
    assert client.post("/api/console/tournament", json={"system": "pair-swiss", "name": "x"}).json()["detail"] == "还没有报名"
    assert client.post("/api/console/tournament", json={"system": "pair-swiss", "name": "x"},
                       headers=EN).json()["detail"] == "no entries registered yet"
    r = client.post("/api/console/entries", json={"unit": "数学系", "pair": "1", "players": "王芳、张伟"})
    assert r.status_code == 201 and r.json()["entries"][0]["players"] == ["王芳", "张伟"]
    dup = client.post("/api/console/entries", json={"unit": "数学系", "pair": "2", "players": "王芳、李强"})
    assert dup.status_code == 422 and dup.json()["detail"].startswith("王芳（数学系）报名了两次（第 1 行和第 2 行）")
    dup = client.post("/api/console/entries", json={"unit": "数学系", "pair": "2", "players": "王芳、李强"}, headers=EN)
    assert dup.status_code == 422 and "王芳 (数学系) is registered twice (rows 1 and 2)" in dup.json()["detail"]
    assert len(client.get("/api/console/entries").json()["entries"]) == 1  # the refused row changed nothing
    # Another unit's 王芳 is another person (told apart by the unit).
    other = client.post("/api/console/entries", json={"unit": "物理系", "pair": "1", "players": "王芳、李强"})
    assert other.status_code == 201 and [e["unit"] for e in other.json()["entries"]] == ["数学系", "物理系"]
    assert client.post("/api/console/entries", json={"unit": "", "players": "x"}).status_code == 422
    assert client.delete("/api/console/entries").json() == {"source": "draft", "entries": [], "said": "组织者 wang 清空报名"}
    bad = client.post("/api/console/entries/import", files={"file": ("form.txt", b"unit,players\n", "text/plain")})
    assert bad.status_code == 422 and ".csv 或 .xlsx" in bad.json()["detail"]
    broken = client.post("/api/console/entries/import", files={"file": ("form.xlsx", b"PK\x03\x04 not a workbook", "application/octet-stream")},
                         headers=EN)
    assert broken.status_code == 422 and "cannot read" in broken.json()["detail"]
    headless = client.post("/api/console/entries/import", files={"file": ("form.csv", "名字\n王芳\n".encode(), "text/csv")})
    assert headless.status_code == 422 and "表头" in headless.json()["detail"]
    text = io.StringIO()
    csv.writer(text).writerows(form_rows())
    r = client.post("/api/console/entries/import", files={"file": ("报名表.csv", text.getvalue().encode("utf-8-sig"), "text/csv")})
    assert r.status_code == 200 and len(r.json()["entries"]) == 6
    r = client.post("/api/console/entries/import", files={"file": ("报名表.xlsx", xlsx(form_rows()), "application/octet-stream")})
    assert r.status_code == 200
    got = r.json()["entries"]
    assert [e["unit"] for e in got] == [u for u in UNITS for _ in (1, 2)] and got[0]["players"] == ["数学系1甲", "数学系1乙"]


@pytest.fixture(scope="module")
def made(client, broker):
    """The tournament made from the imported form and round 1 paired; t01 and t02 are on the broker."""
    as_(client, ORGANISER)
    client.post("/api/console/entries/import", files={"file": ("报名表.xlsx", xlsx(form_rows()), "application/octet-stream")})
    assert client.post("/api/console/tournament", json={"system": "swiss", "name": "x"}).status_code == 422
    r = client.post("/api/console/tournament", json={"system": "pair-swiss", "name": "秋季教工升级赛", "id": "autumn",
                                                     "seed": "2026", "rounds": 3})
    assert r.status_code == 201, r.text
    assert r.json()["paired"] == 0 and r.json()["rounds"] == 3
    assert client.post("/api/console/tournament", json={"system": "pair-swiss", "name": "again"}).status_code == 409
    assert client.post("/api/console/entries", json={"unit": "数学系", "players": "新人"}).status_code == 409
    assert client.get("/api/console/entries").json()["source"] == "tournament"
    for t in ("t01", "t02"):
        conn = Connection(broker.url(f"table-{t}"), f"table-{t}-{time.monotonic_ns()}", clean_start=True).connect()
        conn.publish(topic(t, "state"), json.dumps(state(seq=1, phase="idle")).encode(), qos=1, retain=True)
        assert conn.flush(5)
        conn.close()
    r = client.post("/api/console/tournament/rounds")
    assert r.status_code == 201 and r.json()["paired"] == 1
    assert client.post("/api/console/tournament/rounds").status_code == 409  # round 1 waits for its results
    return {"round": r.json()["round"]}


def test_a_round_starts_at_its_tables(client, made, connect, inbox):
    commands = inbox()
    for t in TABLES:
        answers(connect(f"table-{t}", clean_start=True), t, commands)
    as_(client, REFEREE)
    assert client.post("/api/console/tournament/rounds/1/start", json={}).status_code == 403
    as_(client, ORGANISER)
    deadline = time.monotonic() + 30
    while not {"t01", "t02"} <= set(client.get("/api/tables").json()):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert client.post("/api/console/tournament/rounds/2/start", json={}).status_code == 409
    assert client.post("/api/console/tournament/rounds/1/start", json={"rulebook": "No Such"}).status_code == 422
    unknown = client.post("/api/console/tournament/rounds/1/start", json={"rulebook": "no-such"})
    assert unknown.status_code == 409 and unknown.json()["detail"].startswith("没有规则“no-such”，本轮没有开赛")
    other = client.post("/api/console/tournament/rounds/1/start", json={"rulebook": "usst-2016"})  # San Da Yi: four players
    assert other.status_code == 409 and other.json()["detail"] == (
        "规则 usst-2016 是三打一的，积分编排（双人对抗）的牌桌不打这种游戏，本轮没有开赛（本赛制默认的规则：zhongkai-2010）")
    # 000 四1: 竞赛采用…《三副牌拖拉机竞赛规则》进行 -- the book of seed 000, whose pair-swiss this is
    assert client.get("/api/console/tournament").json()["rulebook"] == "zhongkai-2010"
    r = client.post("/api/console/tournament/rounds/1/start", json={"rulebook": "classic-3deck"}).json()
    assert r["missing"] == ["t03"] and [s["command"] for s in r["sent"]] == ["assign", "start_round"] * 2
    first = made["round"]["tables"][0]
    _, raw = commands.wait_for(lambda t, p: t == topic(first["table"], "commands") and json.loads(p)["command"] == "assign")
    e1, e2 = first["entries"]
    assert json.loads(raw)["players"] == {"S": e1["name"].split("、")[0], "N": e1["name"].split("、")[1],
                                          "E": e2["name"].split("、")[0], "W": e2["name"].split("、")[1]}
    commands.wait_for(lambda t, p: t == topic(first["table"], "commands") and json.loads(p)["command"] == "start_round")


def test_a_result_with_a_winner_and_a_draw_is_refused_in_words(client, made):
    """(Before any result of round 1.) Said in the reader's language, not as a Python dict with English keys."""
    as_(client, REFEREE)
    body = {"round": 1, "table": "t01", "result": {"winner": 0, "draw": True}}
    zh = client.post("/api/console/tournament/results", json=body)
    assert zh.status_code == 409 and zh.json()["detail"] == "成绩既写了胜方（0）又写了平局：只能写其一"
    en = client.post("/api/console/tournament/results", json=body, headers={"Accept-Language": "en"})
    assert en.json()["detail"] == "a result names a winner (0) and a draw as well: give one of them"


def test_results_their_correction_forfeits_and_late_arrivals(client, made):
    tables = [t["table"] for t in made["round"]["tables"]]
    as_(client, REFEREE)
    url = "/api/console/tournament/results"
    assert client.post(url, json={"round": 1, "table": tables[0], "result": {"winner": 2}}).status_code == 422
    assert client.post(url, json={"round": 1, "table": tables[0], "result": {"winner": 0, "colour": "red"}}).status_code == 422
    r = client.post(url, json={"round": 1, "table": tables[0], "result": {"scores": [1, 2, 3, 4]}})
    assert r.status_code == 409 and "成绩中有未知的字段" in r.json()["detail"]
    assert client.post(url, json={"round": 9, "table": tables[0], "result": {"winner": 0}}).status_code == 409
    assert client.post(url, json={"round": 1, "table": "t99", "result": {"winner": 0}}).status_code == 409
    view = client.post(url, json={"round": 1, "table": tables[0], "result": {"winner": 0}}).json()
    winner = view["round"]["tables"][0]["entries"][0]["unit"]
    assert view["standings"]["rows"][0]["id"] == winner and view["standings"]["rows"][0]["score"] == 2
    again = client.post(url, json={"round": 1, "table": tables[0], "result": {"winner": 1}}, headers=EN)
    assert again.status_code == 409 and "correct it instead" in again.json()["detail"]
    # the dispute: the other pair won; the standings are computed again
    view = client.post(url, json={"round": 1, "table": tables[0], "result": {"winner": 1}, "correct": True, "reason": "记分错误"}).json()
    other = view["round"]["tables"][0]["entries"][1]["unit"]
    scores = {row["id"]: row["score"] for row in view["standings"]["rows"]}
    assert scores[other] == 2 and scores[winner] == 0 and view["round"]["tables"][0]["result"]["points"] == [0, 2]
    assert view["said"] == f"裁判 li 更正第 1 轮 {tables[0]} 桌成绩：本桌第二方胜（原因：记分错误）"
    # a correction of a result entered by hand can be taken back: corrected again to what it was
    assert view["undo"] == {"path": url, "body": {"round": 1, "table": tables[0], "result": {"winner": 0}, "correct": True,
                                                  "reason": "撤销上一次更正", "seen": view["changed"][tables[0]]}}
    back = client.post(view["undo"]["path"], json=view["undo"]["body"]).json()
    assert back["round"]["tables"][0]["result"]["points"] == [2, 0] and back["undo"]["body"]["result"] == {"winner": 1}
    view = client.post(back["undo"]["path"], json=back["undo"]["body"]).json()  # and again: the other pair won
    assert view["round"]["tables"][0]["result"]["points"] == [0, 2]
    f = client.post("/api/console/tournament/forfeits", json={"round": 1, "table": tables[1], "entries": ["e99"]})
    assert f.status_code == 409
    assert client.post("/api/console/tournament/forfeits", json={"round": 1, "table": tables[1], "entries": []}).status_code == 422
    seated = [e["id"] for e in view["round"]["tables"][1]["entries"]]
    view = client.post("/api/console/tournament/forfeits", json={"round": 1, "table": tables[1], "entries": seated[:1]}).json()
    assert view["round"]["tables"][1]["result"] is not None
    gone = view["round"]["tables"][1]["entries"][0]  # named as the console names it: lot number, team (its unit), players (no id)
    assert view["said"] == f"裁判 li 录入第 1 轮 {tables[1]} 桌弃权：{gone['lot']}号 {gone['unit']} {gone['name']}"
    # a forfeit stands until corrected: a result over it, or a forfeit over a result, only as a correction
    r = client.post(url, json={"round": 1, "table": tables[1], "result": {"winner": 0}})
    assert r.status_code == 409 and "弃权在更正之前一直有效" in r.json()["detail"]
    first = [e["id"] for e in view["round"]["tables"][0]["entries"]]
    r = client.post("/api/console/tournament/forfeits", json={"round": 1, "table": tables[0], "entries": first[1:]})
    assert r.status_code == 409 and "已有成绩；请改用更正" in r.json()["detail"]
    r = client.post("/api/console/tournament/forfeits", json={"round": 1, "table": tables[0], "correct": True, "reason": "未到场",
                                                              "entries": first[1:]})
    assert r.status_code == 200 and r.json()["round"]["tables"][0]["result"]["points"] == [2, 0]
    assert client.post("/api/console/tournament/late", json={"round": 1, "entry": seated[0], "minutes": -1}).status_code == 422
    assert client.post("/api/console/tournament/late", json={"round": 1, "entry": "e99", "minutes": 3}).status_code == 409
    late = view["round"]["tables"][2]["entries"][0]["id"]
    r = client.post("/api/console/tournament/late", json={"round": 1, "entry": late, "minutes": 3}, headers=EN)
    came = r.json()["round"]["tables"][2]["entries"][0]
    assert r.json()["said"] == f"referee li recorded No. {came['lot']} {came['unit']} {came['name']} 3 min late in round 1"
    shown = client.get("/api/console/tournament").json()
    assert shown["paired"] == 1 and [t["result"] is not None for t in shown["round"]["tables"]] == [True, True, False]
    audit = client.get("/api/console/audit?limit=50").json()
    actions = [(a["user"], a["action"]) for a in audit]
    for action in ("record_result", "correct_result", "forfeit", "late_arrival"):
        assert ("li", action) in actions
    late_line = next(a["text"] for a in audit if a["action"] == "late_arrival")  # the log says it so too
    assert late_line == f"裁判 li 录入第 1 轮 {came['lot']}号 {came['unit']} {came['name']} 迟到 3 分钟"
    corrected = [a for a in audit if a["action"] == "correct_result"][-1]  # the first correction (the log is newest first)
    assert corrected["detail"] == {"round": 1, "table": tables[0], "result": {"winner": 1}, "reason": "记分错误"}


def test_the_lot_drawn_in_the_hall(client, made):
    # 002 一4 分组抽签: entered before round 1 is paired; here round 1 is paired (pair-swiss pairs by the lot).
    as_(client, ORGANISER)
    view = client.get("/api/console/tournament").json()
    lot = view["lot"]
    assert view["lot_open"] is False
    assert sorted(lot) == sorted(e["id"] for e in client.get("/api/console/entries").json()["entries"])
    r = client.post("/api/console/tournament/lot", json={"order": list(reversed(lot))})
    assert r.status_code == 409 and "现场抽签只能在第 1 轮编排之前，或全部比赛结束后" in r.json()["detail"]
    r = client.post("/api/console/tournament/lot", json={"order": list(reversed(lot))}, headers=EN)
    assert "before round 1 is paired" in r.json()["detail"]
    assert client.post("/api/console/tournament/lot", json={"order": []}).status_code == 422
    assert client.get("/api/console/tournament").json()["lot"] == lot
    as_(client, REFEREE)
    assert client.post("/api/console/tournament/lot", json={"order": lot}).status_code == 403


def test_exports(client, made):
    as_(client, REFEREE)
    r = client.get("/api/console/tournament/export.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert 'filename="autumn.csv"' in r.headers["content-disposition"]
    assert r.content.decode("utf-8-sig").startswith("轮次,桌号")
    x = client.get("/api/console/tournament/export.xlsx")
    assert load_workbook(io.BytesIO(x.content)).sheetnames
    assert "<html" in client.get("/api/console/tournament/export.html").text.lower()
    assert client.get("/api/console/tournament/export.pdf").status_code == 404
    # in the reader's language: asked in English, or from a page switched to English (a plain link: the browser's own
    # Accept-Language, the page's choice in its cookie)
    assert client.get("/api/console/tournament/export.csv", headers={"Accept-Language": "en"}).content.decode(
        "utf-8-sig").startswith("Round,Table")
    client.cookies.set("lang", "en")
    try:
        assert client.get("/api/console/tournament/export.csv").content.decode("utf-8-sig").startswith("Round,Table")
        assert '<html lang=en>' in client.get("/api/console/tournament/export.html", headers={"Accept-Language": "zh-CN"}).text
    finally:
        client.cookies.delete("lang")


@hsettings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/api/console/entries", "/api/console/tournament", "/api/console/tournament/results",
                             "/api/console/tournament/forfeits", "/api/console/tournament/late",
                             "/api/console/tournament/rounds/1/start", "/api/console/tournament/lot"]),
       body=st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(["t01", "e01", "pair-swiss", "A+"]),
                         lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                             st.sampled_from(["round", "table", "result", "winner", "draw", "levels", "entries", "entry",
                                              "minutes", "unit", "players", "system", "name", "correct", "order"]), inner, max_size=5),
                         max_leaves=12))
def test_no_body_makes_a_500(client, made, path, body):
    if client.get("/api/me").json().get("role") != "organiser":
        as_(client, ORGANISER)
    r = client.post(path, json=body)
    assert r.status_code < 500, (path, body, r.text)
    if r.status_code >= 400:
        assert isinstance(r.json()["detail"], str) and r.json()["detail"]


def test_a_tournament_service_that_does_not_publish_is_said_on_the_console(broker, tmp_path):
    """The tournament's service is enabled once the tournament is made (docs/deployment.md): forgotten, or stopped,
    nothing told the organiser: the console reads the file itself and looked right, while the big screens kept an
    old round and the tables' results went unrecorded. Now the console says so once the latest change has gone
    unpublished for 10 s, and stops saying it once the service publishes."""
    from referee.tournament import TournamentStore
    from referee.tournament.service import TournamentService

    now = [1_767_261_600.0]
    hall = small_tournament(tmp_path / "hall.db", clock=lambda: now[0])
    store = TournamentStore(hall, clock=lambda: now[0])
    app = create_app(settings(broker, make_db(tmp_path / "c.db"), hall, OWN_USERS, clock=lambda: now[0]))
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as client:
        assert client.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
        assert client.get("/api/console/tournament").json()["unpublished"] == ""  # just made: not yet
        now[0] += 11
        assert client.get("/api/console/tournament").json()["unpublished"] == (
            "赛事服务（`cardtable tournament serve`）已有 1 分钟没有发布本赛事的最新改动：大屏幕上的对阵和排名不是最新的，"
            "各桌的结果也不会自动记入。请检查它是否在运行")
        service = TournamentService(store, broker.url("tournament"), client_id="tournament-unpublished", poll_s=0.1)
        service.start()
        try:
            deadline = time.monotonic() + 30
            while client.get("/api/console/tournament").json()["unpublished"]:
                assert time.monotonic() < deadline, "the service's round never reached the console"
                time.sleep(0.1)
            now[0] += 600  # time passes with nothing to publish: nothing said
            assert client.get("/api/console/tournament").json()["unpublished"] == ""
            service.stop()
            store.record_result(1, "t01", {"winner": 0})  # a change nobody publishes: said
            now[0] += 11
            assert client.get("/api/console/tournament").json()["unpublished"]
            app.state.ctx.feed.scoreboard.close()  # the display cut off from the broker: not said (it cannot see)
            assert client.get("/api/console/tournament").json()["unpublished"] == ""
        finally:
            service.stop()
    store.close()


def test_a_tournament_service_that_stopped_is_said_with_the_clock_set_back(broker, tmp_path):
    """The computer's clock set back an hour after a change (a laptop's clock put right): the change's time stays
    ahead of the clock (``Tournament.at`` never goes back), and the console measured the wait as clock minus the
    change's time, negative for an hour: a tournament service that stopped looked healthy all that while. Now the
    wait is counted on the console's monotonic clock from when it first saw the change unpublished."""
    from referee.tournament import TournamentStore

    now = [1_767_261_600.0]
    hall = small_tournament(tmp_path / "hall.db", clock=lambda: now[0])
    app = create_app(settings(broker, make_db(tmp_path / "c.db"), hall, OWN_USERS, clock=lambda: now[0]))
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as client:
        assert client.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
        now[0] -= 3600  # set back an hour: the next change is still later than the one before
        store = TournamentStore(hall, clock=lambda: now[0])
        store.record_result(1, "t01", {"winner": 0})
        assert store.tournament.at > now[0] + 3599
        store.close()
        assert client.get("/api/console/tournament").json()["unpublished"] == ""  # just made: not yet
        time.sleep(PUBLISH_GRACE_S + 0.5)  # real seconds, the wall clock still an hour behind the change
        assert client.get("/api/console/tournament").json()["unpublished"].startswith("赛事服务（`cardtable tournament serve`）已有 1 分钟没有发布")


def test_a_round_whose_names_a_table_cannot_take_is_not_started_and_says_why(broker, tmp_path, table):
    """A tournament file made before the forms were checked may hold a name the bus refuses (here with a terminal's
    escape): starting the round was a bare 500 after some tables had been seated. Now nothing is sent and the
    answer names the table and what is wrong, in the reader's language."""
    from referee.tournament import Entry, TournamentStore

    hall = tmp_path / "hall.db"
    t = TournamentStore(hall)
    t.new("pair-swiss", [Entry(f"e{i}", f"队{i}", f"单位{i // 2}", f"单位{i // 2}", (f"甲{i}", "乙\x1b[2J" if i == 3 else f"乙{i}"))
                         for i in range(4)], name="秋季赛", options={"rounds": 2})
    t.pair_next_round()
    bad = next(x.table for x in t.tournament.rounds[0].tables if "e3" in x.entries)
    t.close()
    for name in TABLES[:2]:  # the round's tables are on the broker: their commands would be sent
        table(name).publish("state", state())
    app = create_app(settings(broker, make_db(tmp_path / "c.db"), hall, OWN_USERS))
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as client:
        as_(client, ORGANISER)
        deadline = time.monotonic() + 30
        while not set(TABLES[:2]) <= set(client.get("/api/tables").json()):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        r = client.post("/api/console/tournament/rounds/1/start", json={"rulebook": "classic-3deck"})
        assert r.status_code == 409 and r.json()["detail"].startswith(f"{bad} 桌的选手姓名无法发给牌桌（")
        assert "本轮没有开赛" in r.json()["detail"]
        en = client.post("/api/console/tournament/rounds/1/start", json={"rulebook": "classic-3deck"}, headers=EN)
        assert en.json()["detail"].startswith(f"the names at {bad} cannot be sent to the table")
        assert not [a for a in client.get("/api/console/audit").json() if a["action"] == "start_tournament_round"]
    for name in TABLES[:2]:  # the module's broker keeps no state of this test's
        table(name).conn.publish(topic(name, "state"), b"", qos=1, retain=True)
        assert table(name).conn.flush(10)
