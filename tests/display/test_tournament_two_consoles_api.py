"""Two people at two consoles correcting the same table at once (a dispute at the head table, the organiser and the
chief referee both at it), against a real mosquitto. Each correction names the table as its page showed it (``seen``,
the view's ``changed``): one made after another person's change to that table is refused in words, in the reader's
language, and changes nothing, so no correction is overwritten unseen; read again, it is made. The undo of a
correction offered to one is refused once the other changed the table since. A change made while another program
holds the file's lock is said so, and nothing changes."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from fastapi.testclient import TestClient
from kit import ORGANISER, REFEREE, as_, make_db

from display.app import Settings, create_app
from referee.tournament import Entry, TournamentStore
from referee.tournament import store as store_module

UNITS = {"a1": "机电", "a2": "机电", "b1": "外语", "b2": "外语", "c1": "化工", "c2": "化工", "d1": "体育", "d2": "体育"}
EN = {"Accept-Language": "en"}


@pytest.fixture
def hall(broker, tmp_path):
    """Pair Swiss, round 1 paired, t01's result entered (the first entry won); two consoles on the app."""
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(p, p, u, u, (f"{p}甲", f"{p}乙")) for p, u in UNITS.items()], seed=1,
              options={"rounds": 2}, id="zk2010")
    store.pair_next_round()
    store.record_result(1, "t01", {"winner": 0}, by="记分员")
    app = create_app(Settings(broker.url("scoreboard"), broker.url("console"), make_db(tmp_path / "console.db"), store.path))
    with TestClient(app, headers={"Origin": "http://testserver"}) as wang, \
            TestClient(app, headers={"Origin": "http://testserver"}) as li:
        yield as_(wang, ORGANISER), as_(li, REFEREE), store
    store.close()


def correct(client, winner: int, seen: int, headers=None):
    return client.post("/api/console/tournament/results", headers=headers, json={
        "round": 1, "table": "t01", "result": {"winner": winner}, "correct": True, "reason": "记分错误", "seen": seen})


def t01(store) -> dict:
    return store.round_view(1)["tables"][0]["result"]


def test_a_correction_made_on_a_table_another_console_changed_since_is_refused_and_changes_nothing(hall):
    """Before, both corrections were made, the later one over the earlier, which neither person saw: the organiser's
    draw silently undid the referee's correction (a lost update). Now the second is refused naming who changed the
    table and the change's number; read again, the organiser corrects it knowingly."""
    wang, li, store = hall
    seen = wang.get("/api/console/tournament").json()["changed"]["t01"]
    assert li.get("/api/console/tournament").json()["changed"]["t01"] == seen == 3  # t01's result, action 3
    done = correct(li, 1, seen)
    assert done.status_code == 200 and done.json()["changed"]["t01"] == 4
    undo = done.json()["undo"]
    assert undo["body"]["seen"] == 4 and t01(store)["points"] == [0, 2]
    last = store.last_seq()
    r = correct(wang, 0, seen)
    assert r.status_code == 409, r.text
    assert r.json()["detail"] == ("第 1 轮 t01 桌在你看到之后已被 li 改动（第 4 条记录）：这次没有记入，以免盖掉那次改动或记到"
                                  "另一对阵上；请看过这张桌现在的对阵和成绩后再录入")
    r = correct(wang, 0, seen, EN)
    assert r.json()["detail"].startswith("round 1 t01 was changed by li after you saw it (action 4): nothing was "
                                         "recorded")
    assert store.last_seq() == last and t01(store)["points"] == [0, 2]
    now = wang.get("/api/console/tournament").json()["changed"]["t01"]
    assert correct(wang, 0, now).status_code == 200 and t01(store)["points"] == [2, 0]
    r = li.post(undo["path"], json=undo["body"])  # the referee's undo, offered before the organiser's change
    assert r.status_code == 409 and "已被 wang 改动（第 5 条记录）" in r.json()["detail"]
    assert store.last_seq() == 5 and t01(store)["points"] == [2, 0]
    first = store.round_view(1)["tables"][0]["entries"][0]["id"]  # a forfeit over the result, as a correction
    r = li.post("/api/console/tournament/forfeits", json={"round": 1, "table": "t01", "entries": [first], "correct": True,
                                                           "reason": "未到场", "seen": 3})
    assert r.status_code == 409 and "已被 wang 改动（第 5 条记录）" in r.json()["detail"] and store.last_seq() == 5


def test_a_change_while_another_program_holds_the_files_lock_is_said_so_and_nothing_changes(broker, tmp_path, monkeypatch):
    """The command line (a catch-up, a person's sqlite3 shell in a transaction) holds the tournament file's write lock
    past the wait while the console enters a result. Before: a 500 saying the console's own file failed and that the
    change may have been made without its audit line, neither true (the tournament's file, and nothing was made). Now
    the store's words (db_busy: another program holds the lock, nothing changed, try again), a 503, and once the lock
    is let go the same request records it. The wait is shortened from 30 s to half a second here."""
    monkeypatch.setattr(store_module, "WAIT_S", 0.5)
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(p, p, u, u, (f"{p}甲", f"{p}乙")) for p, u in UNITS.items()], seed=1,
              options={"rounds": 2}, id="zk2010")
    store.pair_next_round()
    app = create_app(Settings(broker.url("scoreboard"), broker.url("console"), make_db(tmp_path / "console.db"), store.path))
    body = {"round": 1, "table": "t01", "result": {"winner": 0}}
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as client:
        as_(client, ORGANISER)
        with closing(sqlite3.connect(store.path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            r = client.post("/api/console/tournament/results", json=body)
            en = client.post("/api/console/tournament/results", json=body, headers=EN)
            other.execute("ROLLBACK")
        assert r.status_code == 503, r.text
        assert r.json()["detail"] == (f"另一个程序占着 {store.path} 的锁超过了 0.5 秒（另一个程序锁住了它），未作任何改动；"
                                      "请稍后再试（控制台或赛事服务正在写它，或有程序卡住了）")
        assert en.json()["detail"].startswith(f"another program has held the lock on {store.path} for over 0.5 s")
        assert store.round_view(1)["tables"][0]["result"] is None
        assert client.post("/api/console/tournament/results", json=body).status_code == 200
    assert store.round_view(1)["tables"][0]["result"]["points"] == [2, 0]
    store.close()


def test_a_result_entered_from_a_page_showing_a_pairing_drawn_anew_since_is_refused(broker, tmp_path):
    """The organiser undoes round 2's pairing (a unit's withdrawal entered after it) and pairs it again, while the chief
    referee's page still shows the pairing first drawn and enters t01's winner there: the winner is a side of the table
    (0, 1), so before it was recorded for whichever pair now sits first at t01, a pair that never played the game. Now
    the page names the table as it showed it (``seen``: its pairing's change too) and is refused in words."""
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(p, p, u, u, (f"{p}甲", f"{p}乙")) for p, u in UNITS.items()], seed=1,
              options={"rounds": 2}, id="zk2010")
    store.pair_next_round()
    for x in store.tournament.round(1).tables:
        store.record_result(1, x.table, {"winner": 0}, by="记分员")
    store.pair_next_round()
    app = create_app(Settings(broker.url("scoreboard"), broker.url("console"), make_db(tmp_path / "console.db"), store.path))
    with TestClient(app, headers={"Origin": "http://testserver"}) as li:
        as_(li, REFEREE)
        shown = li.get("/api/console/tournament").json()
        store.unpair_round(2, by="wang", reason="应先录入退赛")
        store.withdraw_unit("体育", by="wang", reason="全队退赛")
        store.pair_next_round(by="wang")
        assert [e["id"] for e in store.round_view(2)["tables"][0]["entries"]] != \
            [e["id"] for e in shown["round"]["tables"][0]["entries"]]
        last = store.last_seq()
        r = li.post("/api/console/tournament/results", json={"round": 2, "table": "t01", "result": {"winner": 0},
                                                               "seen": shown["changed"]["t01"]})
        assert r.status_code == 409, r.text
        assert r.json()["detail"].startswith(f"第 2 轮 t01 桌在你看到之后已被 wang 改动（第 {last} 条记录）")
        assert store.last_seq() == last
        now = li.get("/api/console/tournament").json()["changed"]["t01"]
        assert li.post("/api/console/tournament/results", json={"round": 2, "table": "t01", "result": {"winner": 0},
                                                                 "seen": now}).status_code == 200
    store.close()
