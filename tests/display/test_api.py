"""The REST API against a real mosquitto: every endpoint, bad input (a clear 4xx, never a 500, nothing
changed) and calls without a login; what the console sends arrives on the broker as the protocol says."""

from __future__ import annotations

import base64
import html
import json
import re
import threading
import time

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from kit import ORGANISER, REFEREE, make_db, round_, settings, standings, state

from bus.protocol import encode, topic
from display.app import create_app
from display.deps import Denied
from referee.catalogue.kinds import KINDS, name
from referee.rulebooks import load

TABLES = ["t1", "t2", "t3"]
EN = {"Accept-Language": "en"}
JPEG = base64.b64encode(b"\xff\xd8\xff\xe0 a tiny jpeg \xff\xd9").decode()


@pytest.fixture(scope="module")
def app(broker, tmp_path_factory):
    return create_app(settings(broker, make_db(tmp_path_factory.mktemp("display") / "console.db")))


@pytest.fixture
def client(app):
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as c:  # as a browser
        yield c


def login(client: TestClient, who=ORGANISER) -> TestClient:
    r = client.post("/api/login", json={"user": who[0], "password": who[1]})
    assert r.status_code == 200, r.text
    return client


def wait(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.fixture
def commands(table, inbox):
    """What the tables t1..t3 receive on their commands topic (as their services would)."""
    box = inbox()
    for t in TABLES:
        table(t).listeners.append(box)
    return box


def online(table, name, **changes):
    t = table(name)
    t.publish("status", {"v": 1, "status": "online", "at": time.time()})
    t.publish("state", state(**changes))
    return t


# ---------------------------------------------------------------- public


def test_hall_tables_and_one_table(client, table):
    t = online(table, "t1")
    t.publish("events", {"v": 1, "seq": 419, "kind": "play_accepted", "at": 1.0,
                         "data": {"hand": 3, "trick": 12, "seat": "N", "cards": ["SA"]}})
    wait(lambda: client.get("/api/tables/t1").json().get("timeline"))
    assert "t1" in client.get("/api/tables").json()
    hall = client.get("/api/hall").json()
    assert hall["tables"]["t1"]["state"]["players"]["S"] == "王芳" and hall["tables"]["t1"]["status"] == "online"
    one = client.get("/api/tables/t1").json()
    assert one["timeline"][-1]["data"]["cards"] == ["SA"]
    assert client.get("/api/tables/t9").status_code == 404
    r = client.get("/api/tables/a b")
    assert r.status_code == 422 and r.json()["detail"] == "“桌号”：格式不对"  # the field in our words


def test_malformed_messages_change_nothing(client, table, connect, tournament, caplog):
    online(table, "t2", seq=5)
    wait(lambda: (client.get("/api/tables/t2").json().get("state") or {}).get("seq") == 5)
    raw = table("t2").conn
    for payload in (b"not json", b'{"v":1}', json.dumps(state(seq=6, phase="lunch")).encode(), b"\xff\xfe"):
        raw.publish(topic("t2", "state"), payload, qos=1)
    raw.publish(topic("t2", "status"), b'{"v":2,"status":"offline"}', qos=1)
    tournament.publish("autumn", "standings", b'{"v":1,"tournament":"autumn"}')
    tournament.publish("autumn", "standings", json.dumps(standings(rows=[{"rank": 1, "id": "a", "name": "x", "unit": "u",
                       "score": 3, "tiebreaks": [1], "prize": None}])).encode())  # one tie-break for two columns
    tournament.publish("other", "standings", json.dumps(standings("autumn")).encode())  # wrong id
    raw.flush(5)
    table("t2").publish("state", state(seq=7))  # a good one after them: the bad ones came first
    wait(lambda: client.get("/api/tables/t2").json()["state"]["seq"] == 7)
    assert client.get("/api/tables/t2").json()["status"] == "online"
    assert client.get("/api/tournaments/autumn/standings").status_code == 404
    assert client.get("/api/tournaments/other/standings").status_code == 404
    ignored = [r.getMessage() for r in caplog.records if r.name == "display.feed"]
    assert len(ignored) == 8 and all(m.startswith("ignored: cardtable/v1/") for m in ignored), ignored
    assert any("'phase'" in m for m in ignored) and any("of tournament 'autumn'" in m for m in ignored)


def test_a_restarted_table_with_a_new_log_is_shown(client, table):
    t = online(table, "t2", seq=900)
    wait(lambda: client.get("/api/tables/t2").json()["state"]["seq"] == 900)
    t.publish("state", state(seq=1, phase="idle"))
    wait(lambda: client.get("/api/tables/t2").json()["state"]["seq"] == 1)


def test_no_broker_password_reaches_a_browser(client, broker, table):
    online(table, "t1")
    login(client)
    secrets = [broker.users["console"], broker.users["scoreboard"]]
    for path in ("/", "/big", "/console", "/tables/t1", "/api/hall", "/api/console/flags", "/openapi.json",
                 "/static/app.js", "/static/console.js", "/api/console/audit"):
        text = client.get(path).text
        assert not any(s in text for s in secrets), path


def test_tournament_round_and_standings(client, tournament):
    rows = [{"rank": 1, "id": "e1", "name": "数学系一队", "unit": "数学系", "score": 6, "tiebreaks": [12, 5], "prize": "一等奖"}]
    tournament.publish("spring", "standings", standings("spring", rows))
    tables = [{"table": "t1", "entries": [{"id": "e1", "name": "数学系一队", "unit": "数学系"},
                                          {"id": "e2", "name": "物理系", "unit": "物理系"}], "result": None}]
    tournament.publish("spring", "round", round_("spring", tables))
    wait(lambda: client.get("/api/tournaments/spring/round").status_code == 200)
    wait(lambda: client.get("/api/tournaments/spring/standings").status_code == 200)
    assert client.get("/api/tournaments/spring/standings").json()["rows"][0]["prize"] == "一等奖"
    assert client.get("/api/tournaments/spring/round").json()["tables"][0]["table"] == "t1"
    assert client.get("/api/tournaments/nope/round").status_code == 404


@pytest.mark.parametrize("cookie, asked, lang", [(None, None, "zh"), (None, "fr-FR,fr", "zh"), (None, "en-GB,en", "en"),
                                                 (None, "fr, zh;q=0.4, en;q=0.6", "en"), (None, "zh-CN,zh;q=0.9,en;q=0.8", "zh"),
                                                 ("en", "zh-CN,zh", "en"), ("zh", "en-US,en", "zh"), ("klingon", "en", "en")])
def test_one_rule_says_the_readers_language_on_pages_refusals_and_bad_bodies(client, cookie, asked, lang):
    """``deps.language``: the choice made on the pages' switch (its cookie) over the browser's Accept-Language (the
    one of ours it prefers), Chinese when neither says. Pages went by the cookie alone, refusals by the header
    alone: a reader who chose English read Chinese refusals from a Chinese browser."""
    if cookie:
        client.cookies.set("lang", cookie)
    headers = {"Accept-Language": asked} if asked else {}
    assert f'data-lang="{lang}"' in client.get("/console", headers=headers).text
    for refused in (client.get("/api/me", headers=headers),  # the app's handler
                    client.post("/api/console/last-hand", headers=headers)):  # the guard's, before any route
        assert refused.status_code == 401 and refused.json()["detail"] == Denied("not_logged_in").text(lang)
    bad = client.post("/api/login", json={}, headers=headers).json()["detail"]
    assert bool(re.search("[\u4e00-\u9fff]", bad)) == (lang == "zh"), bad


def test_pages_and_openapi(client):
    for path in ("/", "/big", "/tables/t1", "/console"):
        r = client.get(path)
        assert r.status_code == 200 and "赛场实况" in r.text and 'data-lang="zh"' in r.text
    assert client.get("/tables/no%20such").status_code == 422
    schema = client.get("/openapi.json").json()
    for path in ("/api/hall", "/api/stream", "/api/login", "/api/console/tables/{table}/flags/{flag}", "/api/console/audit"):
        assert path in schema["paths"]
    assert "Standings" in schema["components"]["schemas"]


# ---------------------------------------------------------------- login


def test_login_logout_and_sessions(client):
    assert client.get("/api/me").status_code == 401
    assert client.post("/api/login", json={"user": "wang", "password": "nope"}).status_code == 401
    assert client.post("/api/login", json={"user": "ghost", "password": "nope"}).status_code == 401
    r = client.post("/api/login", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and "json" in r.json()["detail"].lower()
    assert client.post("/api/login", json={"user": "wang"}).json() == {"detail": "“密码”：缺少此项"}  # in words, Chinese first
    assert client.post("/api/login", json={"user": "wang"}, headers=EN).json() == {"detail": "“password”: missing"}
    login(client)
    cookie = client.cookies["cardtable_session"]
    assert client.get("/api/me").json() == {"user": "wang", "role": "organiser"}
    assert client.post("/api/logout").status_code == 204
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/me", headers={"Authorization": f"Bearer {cookie}"}).status_code == 401  # ended
    fresh = login(client).cookies["cardtable_session"]
    client.cookies.clear()
    assert client.get("/api/me", headers={"Authorization": f"Bearer {fresh}"}).json()["user"] == "wang"
    assert client.get("/api/me", headers={"Authorization": "Bearer forged"}).status_code == 401


def test_users_need_an_organiser(client):
    assert client.get("/api/users").status_code == 401
    login(client, REFEREE)
    assert client.get("/api/users").status_code == 403
    assert client.post("/api/users", json={"user": "zhao", "password": "long-enough", "role": "referee"}).status_code == 403
    login(client)
    assert client.post("/api/users", json={"user": "zhao", "password": "short", "role": "referee"}).status_code == 422
    assert client.post("/api/users", json={"user": "zhao", "password": "long-enough", "role": "boss"}).status_code == 422
    assert client.post("/api/users", json={"user": "zhao", "password": "long-enough", "role": "referee"}).status_code == 201
    assert client.post("/api/users", json={"user": "zhao", "password": "long-enough", "role": "referee"}).status_code == 409
    assert {"user": "zhao", "role": "referee"} in client.get("/api/users").json()
    client.post("/api/logout")
    login(client, ("zhao", "long-enough"))


# ---------------------------------------------------------------- console: tables


def test_commands_reach_the_table_and_the_audit_log(client, table, commands):
    online(table, "t3")
    wait(lambda: client.get("/api/tables/t3").status_code == 200)
    body = {"command": "last_hand"}
    assert client.post("/api/console/tables/t3/commands", json=body).status_code == 401
    login(client, REFEREE)
    assert client.post("/api/console/tables/t3/commands", json={"command": "start_round"}).status_code == 403
    assert client.post("/api/console/tables/t3/commands", json={"command": "explode"}).status_code == 422
    assert client.post("/api/console/tables/t9/commands", json=body).status_code == 404
    sent = client.post("/api/console/tables/t3/commands", json=body).json()
    _, raw = commands.wait_for(lambda t, p: t == topic("t3", "commands") and json.loads(p)["id"] == sent["id"])
    assert json.loads(raw) == {"v": 1, "id": sent["id"], "command": "last_hand"}
    entry = client.get("/api/console/audit").json()[0]
    assert entry["user"] == "li" and entry["action"] == "last_hand" and entry["detail"]["table"] == "t3"
    assert abs(entry["at"] - time.time()) < 5
    # the action confirmed in one line, and the audit log in sentences, in the reader's language
    assert sent["said"] == entry["text"] == "裁判 li 宣布 t3 桌本盘为最后一盘" and sent["undo"] is None
    assert client.get("/api/console/audit", headers=EN).json()[0]["text"] == "referee li announced the last hand at t3"


def test_last_hand_everywhere_and_assign(client, table, commands):
    online(table, "t1")
    online(table, "t3")
    login(client)
    wait(lambda: {"t1", "t3"} <= set(client.get("/api/tables").json()))
    sent = client.post("/api/console/last-hand").json()["sent"]  # both play a round (their state's phase: playing)
    assert {s["table"] for s in sent} >= {"t1", "t3"}
    for s in sent:
        commands.wait_for(lambda t, p, s=s: json.loads(p)["id"] == s["id"])
    players = {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"}
    bad = client.post("/api/console/tables/t1/assign", json={"players": {**players, "W": "王芳"}, "rulebook": "classic-3deck"})
    assert bad.status_code == 422 and "四个不同的名字" in bad.json()["detail"]
    assert client.post("/api/console/tables/t1/assign", json={"players": {"S": "a"}, "rulebook": "classic-3deck"}).status_code == 422
    assert client.post("/api/console/tables/t1/assign", json={"players": players, "rulebook": "Bad Book"}).status_code == 422
    escaped = client.post("/api/console/tables/t1/assign", json={"players": {**players, "W": "\x1b]0;x\x07刘洋"}, "rulebook": "classic-3deck"})
    assert escaped.status_code == 422 and escaped.json()["detail"].startswith("“选手”的西：")  # a control character: said where
    sent = client.post("/api/console/tables/t1/assign", json={"players": players, "rulebook": "classic-3deck"}).json()
    _, raw = commands.wait_for(lambda t, p: json.loads(p)["id"] == sent["id"])
    assert json.loads(raw)["players"] == players
    client.post("/api/logout")
    login(client, REFEREE)
    assert client.post("/api/console/tables/t1/assign", json={"players": players, "rulebook": "classic-3deck"}).status_code == 403


def test_flags_with_their_frames_and_their_resolution(client, table, connect, commands):
    flag = {"flag": "f7", "seat": "E", "kind": "unsure", "at": time.time(), "cards": ["S9", "S8"], "text": "unsure read (0.71)"}
    camera = connect("camera-t2", clean_start=True)
    frame = {"v": 1, "id": "cam-000412", "seat": "E", "at": flag["at"] - 0.2, "reason": "unsure read (0.71)", "jpeg": JPEG}
    camera.publish(topic("t2", "frames"), encode("frames", frame), qos=1)
    camera.publish(topic("t2", "frames"), b'{"v":1,"id":"bad","seat":"E","at":1,"reason":"x","jpeg":"%%%"}', qos=1)
    assert camera.flush(5)
    online(table, "t2", seq=50, paused=True, flags=[flag])
    assert client.get("/api/console/flags").status_code == 401
    assert client.get("/api/console/frames/t2/cam-000412").status_code == 401
    login(client, REFEREE)
    wait(lambda: any(f["flag"] == "f7" and f["frame"] for f in client.get("/api/console/flags").json()))
    view = next(f for f in client.get("/api/console/flags").json() if f["flag"] == "f7")
    assert view["cards"] == ["S9", "S8"] and view["frame"]["id"] == "cam-000412"
    assert view["said"] == "东 李强 的出牌 ♠9 ♠8 识别存疑，请裁判确认"
    assert next(f for f in client.get("/api/console/flags", headers=EN).json() if f["flag"] == "f7")["said"] == \
        "E (李强)'s play ♠9 ♠8 is an unsure read: please confirm"
    picker = client.get("/api/console/tables/t2/choices?seat=E").json()  # the cards E could have played
    assert picker["cards"] == ["S9", "S8"] and picker["entry"] is None and picker["said"] == "东 李强 亮出 ♠9 ♠8"
    assert {"card": "S9", "left": 3} in picker["choices"] and len(picker["choices"]) == 54  # nothing played this hand yet
    img = client.get(view["frame"]["url"])
    assert img.status_code == 200 and img.headers["content-type"] == "image/jpeg" and img.content == base64.b64decode(JPEG)
    assert client.get("/api/console/frames/t2/bad").status_code == 404  # the malformed frame was dropped
    url = "/api/console/tables/t2/flags/f7"
    assert client.post(url, json={"how": "correct"}).status_code == 422
    assert client.post(url, json={"how": "confirm", "cards": ["S9"]}).status_code == 422
    r = client.post(url, json={"how": "correct", "cards": ["S9", "SX"]})
    assert r.status_code == 422 and r.json()["detail"] == "“牌”的第 2 项：格式不对"
    r = client.post("/api/console/tables/t2/flags/f8", json={"how": "confirm"})
    assert r.status_code == 409 and r.json()["detail"] == "t2 桌没有未处理的第 8 号标记"

    def as_the_table() -> None:  # takes the correction: the flag resolved in its next state
        commands.wait_for(lambda t, p: json.loads(p)["command"] == "correct")
        online(table, "t2", seq=51)

    answering = threading.Thread(target=as_the_table)
    answering.start()
    sent = client.post(url, json={"how": "correct", "cards": ["S9", "S7"]}).json()  # answered once the table took it
    answering.join()
    _, raw = commands.wait_for(lambda t, p: json.loads(p)["id"] == sent["id"])
    assert json.loads(raw) == {"v": 1, "id": sent["id"], "command": "correct", "flag": "f7", "cards": ["S9", "S7"]}
    assert client.get("/api/console/audit?limit=1").json()[0]["detail"] == {"table": "t2", "id": sent["id"], "flag": "f7", "cards": ["S9", "S7"]}
    assert sent["said"] == "裁判 li 将 t2 桌第 7 号标记更正为 ♠9 ♠7" and sent["undo"] is None  # a flag resolved stays resolved
    assert sent["answered"] is True
    assert client.get("/api/console/audit?limit=0").status_code == 422


def test_an_accepted_play_is_amended(client, table, commands):
    t2 = online(table, "t2", seq=60)
    for seq, kind, data in ((50, "hand_started", {"hand": 3, "level": "7", "dealer": "S"}),
                            (57, "play_accepted", {"hand": 3, "trick": 1, "seat": "E", "cards": ["S9", "S8"]}),
                            (58, "play_accepted", {"hand": 3, "trick": 1, "seat": "N", "cards": ["S9", "SA"]})):
        t2.publish("events", {"v": 1, "seq": seq, "kind": kind, "at": time.time(), "data": data})
    url = "/api/console/tables/t2/plays/57"
    assert client.post(url, json={"cards": ["S9", "S7"]}).status_code == 401
    login(client, REFEREE)
    assert client.post(url, json={"cards": []}).status_code == 422
    assert client.post(url, json={"cards": ["S9", "SX"]}).status_code == 422
    assert client.post("/api/console/tables/t2/plays/0", json={"cards": ["S9"]}).status_code == 422
    assert client.post("/api/console/tables/nope/plays/57", json={"cards": ["S9"]}).status_code == 404
    # the picker: E's play and the cards E could have played (three decks, less N's S9 and SA, not E's own)
    wait(lambda: client.get("/api/console/tables/t2/choices?entry=57").status_code == 200)
    picker = client.get("/api/console/tables/t2/choices?entry=57").json()
    assert (picker["seat"], picker["cards"], picker["hand"], picker["trick"]) == ("E", ["S9", "S8"], 3, 1)
    assert picker["said"] == "第 57 条：东 李强 出 ♠9 ♠8"
    left = {c["card"]: c["left"] for c in picker["choices"]}
    assert (left["S9"], left["SA"], left["S8"], left["BJ"]) == (2, 2, 3, 3) and len(left) == 54
    assert client.get("/api/console/tables/t2/choices?entry=56").json()["detail"] == "t2 桌本盘和上一盘都没有第 56 条出牌"
    sent = client.post(url, json={"cards": ["S9", "S7"]}).json()
    _, raw = commands.wait_for(lambda t, p: json.loads(p)["id"] == sent["id"])
    assert json.loads(raw) == {"v": 1, "id": sent["id"], "command": "amend", "entry": 57, "cards": ["S9", "S7"]}
    assert client.get("/api/console/audit?limit=1").json()[0]["action"] == "amend"
    assert sent["said"] == "裁判 li 将 t2 桌第 57 条 东 李强 的出牌由 ♠9 ♠8 更正为 ♠9 ♠7"
    assert sent["undo"] == {"path": url, "body": {"cards": ["S9", "S8"]}}  # amended back, the rules allow it
    undone = client.post(sent["undo"]["path"], json=sent["undo"]["body"], headers=EN).json()
    _, raw = commands.wait_for(lambda t, p: json.loads(p)["id"] == undone["id"])
    assert json.loads(raw)["cards"] == ["S9", "S8"] and undone["said"].startswith("referee li amended E (李强)'s play 57")
    # the next hand started: the hand before is still corrected, from its own cards
    for seq, kind, data in ((61, "hand_started", {"hand": 4, "level": "7", "dealer": "S"}),
                            (63, "play_accepted", {"hand": 4, "trick": 1, "seat": "W", "cards": ["SA", "SA"]})):
        t2.publish("events", {"v": 1, "seq": seq, "kind": kind, "at": time.time(), "data": data})
    wait(lambda: client.get("/api/console/tables/t2/choices?entry=63").status_code == 200)
    before = {c["card"]: c["left"] for c in client.get("/api/console/tables/t2/choices?entry=57").json()["choices"]}
    assert (before["S9"], before["SA"], before["S8"]) == (2, 2, 3)  # hand 3's: N's S9 and SA, not hand 4's SA SA
    now = {c["card"]: c["left"] for c in client.get("/api/console/tables/t2/choices?seat=E").json()["choices"]}
    assert (now["S9"], now["SA"], now["S8"]) == (3, 1, 3)  # hand 4's: W's SA SA
    assert client.post(url, json={"cards": ["S9", "S7"]}).json()["undo"] == {"path": url, "body": {"cards": ["S9", "S8"]}}


def test_the_referees_rulings_reach_the_table(client, table, commands):
    online(table, "t2", seq=70)
    url = "/api/console/tables/t2/rulings"
    assert client.post(url, json={"ruling": "foul", "seat": "E", "kind": "talking"}).status_code == 401
    login(client, REFEREE)
    for bad in ({"ruling": "foul", "seat": "E"}, {"ruling": "foul", "seat": "X", "kind": "talking"},
                {"ruling": "foul", "seat": "E", "kind": "Talking!"}, {"ruling": "report", "seat": "S"},
                {"ruling": "open_hand", "seat": "S", "play": True}, {"ruling": "bribe", "seat": "S"}):
        assert client.post(url, json=bad).status_code == 422, bad
    assert client.post("/api/console/tables/nope/rulings", json={"ruling": "open_hand", "seat": "S"}).status_code == 404
    for body, command in (({"ruling": "foul", "seat": "E", "kind": "talking"}, {"command": "foul", "seat": "E", "kind": "talking"}),
                          ({"ruling": "report", "seat": "S", "play": False}, {"command": "report", "seat": "S", "play": False}),
                          ({"ruling": "open_hand", "seat": "S"}, {"command": "open_hand", "seat": "S"})):
        sent = client.post(url, json=body).json()
        _, raw = commands.wait_for(lambda t, p, sent=sent: json.loads(p)["id"] == sent["id"])
        assert json.loads(raw) == {"v": 1, "id": sent["id"], **command}
    assert client.get("/api/console/audit?limit=1").json()[0]["action"] == "open_hand"


def test_the_stream_starts_with_a_snapshot(app, table):
    from kit import Server

    online(table, "t1")
    import httpx

    with Server(app) as server, httpx.stream("GET", server.url + "/api/stream?table=t1", timeout=30) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        lines = r.iter_lines()
        assert next(lines) == "event: snapshot"
        snapshot = json.loads(next(lines)[len("data: "):])
        assert snapshot["tables"]["t1"]["state"]["seq"] == 418 and "timeline" in snapshot["tables"]["t1"]
        table("t1").publish("status", {"v": 1, "status": "offline"})
        for line in lines:
            if line.startswith("data: ") and '"offline"' in line:
                assert json.loads(line[6:]) == {"type": "status", "table": "t1", "data": {"v": 1, "status": "offline"}}
                break


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/api/login", "/api/users", "/api/console/tables/t1/commands", "/api/console/tables/t1/assign",
                             "/api/console/tables/t1/flags/f1", "/api/console/last-hand", "/api/console/tables/t1/plays/3",
                             "/api/console/tables/t1/rulings"]),
       body=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                         lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                         max_leaves=10))
def test_no_body_makes_a_500(client, path, body):
    if not client.cookies.get("cardtable_session"):
        login(client)
    r = client.post(path, json=body)
    assert r.status_code < 500, (path, body, r.text)
    if r.status_code >= 400:
        assert isinstance(r.json()["detail"], str) and r.json()["detail"]


def test_the_consoles_rulings_are_each_rulebooks_with_names_in_both_languages(client):
    page = client.get("/console").text
    rulings = json.loads(html.unescape(re.search(r'data-rulings="([^"]*)"', page).group(1)))
    books = ("classic-3deck", "sanjiang-2012", "shaoguan-2023", "shaoguan-2023-nokitty", "usst-2016", "zhongkai-2010")
    assert set(books) <= set(rulings)
    assert all(rulings[book]["fouls"] == list(load(book).fouls.kinds) for book in books)  # each book's own
    assert {book for book in rulings if rulings[book]["rulings"]} == {"usst-2016"}  # 报到 and 摊打: San Da Yi's
    assert rulings["usst-2016"]["rulings"] == ["report", "open_hand"]
    fouls = {kind for book in books for kind in rulings[book]["fouls"]}
    assert {"ceding_the_deal", "signalling", "talking", "extra_card_before_kitty"} <= fouls
    assert all(kind in KINDS and name(kind, "zh") != name(kind, "en") for kind in fouls)  # named in both languages


def test_a_command_while_the_display_is_cut_off_from_the_broker_is_refused_and_not_recorded(fresh_broker, tmp_path):
    """Nothing would leave the display (paho keeps it in memory until the broker is back, or loses it on a restart):
    a 503 in words, in the reader's language, and no line in the audit log that says it was done."""
    from bus.mqtt import Connection

    app = create_app(settings(fresh_broker, make_db(tmp_path / "console.db")))
    t1 = Connection(fresh_broker.url("table-t1"), clean_start=True).connect()
    t1.publish(topic("t1", "state"), encode("state", state()), retain=True)
    assert t1.flush(10)
    t1.close()
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as c:
        login(c)
        wait(lambda: c.get("/api/tables/t1").status_code == 200)
        before = c.get("/api/console/audit").json()
        fresh_broker.stop()
        feed = app.state.ctx.feed
        wait(lambda: not feed.console.connected)
        for url, body in (("/api/console/tables/t1/commands", {"command": "start_round"}), ("/api/console/last-hand", None),
                          ("/api/console/tables/t1/rulings", {"ruling": "open_hand", "seat": "S"})):
            zh, en = c.post(url, json=body), c.post(url, json=body, headers=EN)
            assert zh.status_code == en.status_code == 503, (url, zh.text)
            assert zh.json()["detail"].startswith("显示服务与消息服务器的连接中断：这项操作没有发给牌桌")
            assert en.json()["detail"].startswith("the display is cut off from the broker")
        assert feed.console.pending() == 0  # nothing waits to be sent when the broker is back
        assert c.get("/api/console/audit").json() == before


def test_a_command_the_protocol_refuses_is_said_in_words_not_a_500(client, table, commands):
    """A rulebook name with a typo, or more copies of a card than the decks hold: a 422 that says why, in the reader's
    language; nothing sent, nothing in the audit log."""
    online(table, "t1")
    login(client)
    wait(lambda: client.get("/api/tables/t1").status_code == 200)
    before = client.get("/api/console/audit").json()
    players = {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"}
    typo = {"players": players, "rulebook": "classic-3dek"}
    zh, en = (client.post("/api/console/tables/t1/assign", json=typo, headers=h) for h in ({}, EN))
    assert zh.status_code == en.status_code == 422
    assert zh.json()["detail"].startswith("没有规则“classic-3dek”，没有安排入座；可用的规则：") and "classic-3deck" in zh.json()["detail"]
    assert en.json()["detail"].startswith("there is no rulebook 'classic-3dek'; nobody was seated; known: ")
    five = client.post("/api/console/tables/t1/plays/3", json={"cards": ["SA"] * 5})
    assert five.status_code == 422 and five.json()["detail"].startswith("t1 桌不可能出 5 张 ♠A：3 副牌每张只有 3 张"), five.text  # the
    # table's own decks (the protocol's most, 4, refused it too: display/routers/tables.py _held says it of the table)
    assert client.post("/api/console/tables/t1/plays/3", json={"cards": ["SA"] * 5}, headers=EN).json()["detail"].startswith(
        "table t1 cannot have 5 × ♠A: 3 decks hold 3 of each card")
    assert client.get("/api/console/audit").json() == before


def test_a_foul_no_rulebook_has_is_refused_in_words(client, table, commands):
    """The page offers only the rulebooks' fouls; a script or a stale page could send another, which was sent and
    audited with its raw name in the line."""
    online(table, "t2")
    login(client, REFEREE)
    wait(lambda: client.get("/api/tables/t2").status_code == 200)
    before = client.get("/api/console/audit").json()
    body = {"ruling": "foul", "seat": "S", "kind": "not_a_kind"}
    zh, en = (client.post("/api/console/tables/t2/rulings", json=body, headers=h) for h in ({}, EN))
    assert zh.status_code == en.status_code == 422
    assert zh.json()["detail"].startswith("没有这种犯规：`not_a_kind`，没有发给牌桌；可判的犯规有 ") and "交谈" in zh.json()["detail"]
    assert en.json()["detail"].startswith("there is no foul 'not_a_kind'; nothing was sent to the table; the fouls a referee may rule: ")
    assert "talking" in en.json()["detail"]
    assert client.get("/api/console/audit").json() == before


def test_a_name_with_an_invisible_format_character_is_refused_in_words(client, table):
    """``wang`` and ``wang`` with a zero-width space (or a right-to-left override) read alike in the audit log and at
    the tables: such a user, or a player seated so, is refused, said in the reader's language."""
    login(client)
    online(table, "t1")
    wait(lambda: client.get("/api/tables/t1").status_code == 200)
    for user in ("wang\u200b", "a\u202eb", "\ufeffli"):
        r = client.post("/api/users", json={"user": user, "password": "long-enough", "role": "referee"})
        assert r.status_code == 422 and r.json()["detail"] == "“用户名”：含有看不见的格式字符（例如零宽空格、从右到左标记），会与别的名字看起来一样"
    en = client.post("/api/users", json={"user": "wang\u200b", "password": "long-enough", "role": "referee"}, headers=EN)
    assert en.json()["detail"] == "“user name”: holds an invisible format character (a zero-width space, a right-to-left mark): it would look like another name"
    assert [u["user"] for u in client.get("/api/users").json()].count("wang") == 1
    players = {"S": "王芳", "E": "李强", "N": "张伟", "W": "a\u202eb"}
    r = client.post("/api/console/tables/t1/assign", json={"players": players, "rulebook": "classic-3deck"})
    assert r.status_code == 422 and r.json()["detail"].startswith("“选手”的西：含有看不见的格式字符")


def test_a_flag_answer_at_a_table_that_does_not_answer_holds_one_thread_at_most(client, table, commands, monkeypatch):
    """A flag's resolution waits for the table's answer, one at a time per table. A table that does not answer (offline,
    stalled) held every later click at it for ever, each one of the server's threads: a few referees could freeze the
    whole console. A click that cannot have its turn within one answer's time is told so in words, and nothing sent."""
    from display.routers import tables
    monkeypatch.setattr(tables, "ANSWER_S", 0.5)
    monkeypatch.setattr(tables, "REFUSAL_S", 0.1)
    flag = {"flag": "f9", "seat": "E", "kind": "unsure", "at": time.time(), "cards": ["S9"]}
    online(table, "t3", seq=60, paused=True, flags=[flag]).taking = False  # it answers nothing
    login(client, REFEREE)
    wait(lambda: any(f["flag"] == "f9" for f in client.get("/api/console/flags").json()))
    held = tables._RESOLVING.setdefault("t3", threading.Lock())
    assert held.acquire(timeout=5)  # another referee's answer, still waiting for the table
    answers = []
    click = threading.Thread(target=lambda: answers.append(client.post("/api/console/tables/t3/flags/f9", json={"how": "confirm"})))
    click.start()
    click.join(timeout=10)
    held.release()
    click.join()
    assert answers, "the click waited for ever"
    r = answers[0]
    assert r.status_code == 409 and r.json()["detail"] == "t3 桌另一项标记处理还在等牌桌回复（牌桌可能离线）：请稍后再看"
    assert not any(json.loads(p).get("flag") == "f9" for _, p in commands.messages)
    late = client.post("/api/console/tables/t3/flags/f9", json={"how": "confirm"})  # its turn: sent, no answer came
    assert late.status_code == 200 and late.json()["answered"] is False


def test_a_user_name_that_reads_as_another_is_refused_at_the_console_too(client):
    """The console's own form adds users through the same check as the command line (``Store.may_add``): a Cyrillic і
    in "li" (the referee) reads as li in the audit log; refused in words, nothing added."""
    login(client)
    r = client.post("/api/users", json={"user": "l\u0456", "password": "long-enough", "role": "referee"})
    assert r.status_code == 409 and r.json()["detail"].startswith("用户名“lі”与已有的用户“li”看起来一样")
    en = client.post("/api/users", json={"user": "qu\u0430n", "password": "long-enough", "role": "referee"}, headers=EN)
    assert en.status_code == 409 and en.json()["detail"].startswith("the user name 'quаn' mixes Latin letters with Cyrillic")
    assert not {"lі", "quаn"} & {u["user"] for u in client.get("/api/users").json()}
