"""The tournament service against a real mosquitto: a table's game result arrives on its
``events`` and the retained ``round`` and ``standings`` topics change; a redelivered event counts
once; the round clock's end draws on equal levels; a result entered at the console (another
store on the same file) is published too; a late scoreboard gets both payloads retained; every
payload is valid against its schema."""

from __future__ import annotations

import json
import os
import sqlite3
import time
import uuid
from contextlib import closing

import pytest

from bus.mqtt import Connection
from bus.protocol import encode as encode_event
from bus.protocol import topic as table_topic
from bus.tournament import check
from bus.tournament import topic as tournament_topic
from referee.table.tables import new_table
from referee.tournament import Entry, TournamentStore
from referee.tournament.recorder import Recorder
from referee.tournament.service import TournamentService

TABLES = ["t01", "t02", "t03", "t04", "t05"]
UNITS = {"a1": "机电", "a2": "机电", "b1": "外语", "b2": "外语", "c1": "化工", "c2": "化工", "d1": "体育", "d2": "体育"}
WAIT_S = 30.0  # the longest a wait for what must come (generous: a loaded machine)


@pytest.fixture
def running(broker, tmp_path):
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", [Entry(p, p, u, u, (f"{p}甲", f"{p}乙")) for p, u in UNITS.items()],
              name="拖拉机赛", seed=1, options={"rounds": 2}, id="zk2010")
    store.pair_next_round()
    Connection(broker.url("tournament"), clean_start=True).connect().close(flush_timeout=0)  # no event of the last test waits
    service = TournamentService(store, broker.url("tournament"), client_id=f"tournament-{uuid.uuid4().hex[:6]}", poll_s=0.05)
    service.start()
    assert service.conn.flush(WAIT_S)  # its round retained in place of the last test's (the same tournament's id)
    yield store, service
    service.stop()
    store.close()


def listen(connect, inbox, user="scoreboard"):
    box = inbox()
    conn = connect(user, clean_start=True)
    conn.subscribe("cardtable/v1/tournament/#", box)
    assert conn.wait_subscribed(WAIT_S)
    return box


def latest(box, name, predicate=lambda p: True):
    """The first payload of ``name`` that satisfies ``predicate`` (waiting for it), schema-checked."""
    t = tournament_topic("zk2010", name)
    _, raw = box.wait_for(lambda tp, p: tp == t and predicate(json.loads(p)))
    return check(name, json.loads(raw))


def send(connect, table, seq, kind, data):
    conn = connect(f"table-{table}")
    conn.publish(table_topic(table, "events"), encode_event("events", {"v": 1, "seq": seq, "kind": kind, "at": 100.0 + seq, "data": data}))
    assert conn.flush(WAIT_S)
    conn.close()  # the table's user holds one connection at a time


def result_of(payload, table):
    return next(x["result"] for x in payload["tables"] if x["table"] == table)


def test_a_game_result_from_a_table_updates_the_standings(running, connect, inbox):
    store, _ = running
    box = listen(connect, inbox)
    first = latest(box, "round")
    assert first["round"] == 1 and all(x["result"] is None for x in first["tables"])
    assert latest(box, "standings")["columns"] == ["对手分", "级差"]
    t01 = first["tables"][0]["entries"]
    first, second = (store.tournament.entry(e["id"]) for e in t01)
    # The table seats the second entry at S/N and its side wins the game (passes A).
    send(connect, "t01", 3, "assigned", {"players": {"S": second.players[0], "E": first.players[0], "N": second.players[1],
                                                     "W": first.players[1]},
                                         "rulebook": "classic-3deck"})
    send(connect, "t01", 80, "levels_changed", {"levels": {"SN": "A", "EW": "9"}, "dealer": "N"})
    send(connect, "t01", 91, "game_won", {"team": "SN"})
    send(connect, "t01", 91, "game_won", {"team": "SN"})  # QoS 1 redelivery: once only
    view = latest(box, "round", lambda p: result_of(p, "t01") is not None)
    assert result_of(view, "t01") == {"points": [0, 2], "scores": [-2, 2]}
    standings = latest(box, "standings", lambda p: any(r["score"] == 2 for r in p["rows"]))
    assert {r["id"]: r["score"] for r in standings["rows"]}[second.team] == 2
    # The round clock ends t02's game on equal levels: a draw.
    send(connect, "t02", 40, "levels_changed", {"levels": {"SN": "9", "EW": "9"}, "dealer": "E"})
    send(connect, "t02", 41, "round_over", {"hands": 9})
    view = latest(box, "round", lambda p: result_of(p, "t02") is not None)
    assert result_of(view, "t02") == {"points": [1, 1], "scores": [0, 0]}
    # A table outside the round changes nothing; the next event is still taken.
    send(connect, "t05", 7, "game_won", {"team": "EW"})
    send(connect, "t03", 12, "game_won", {"team": "EW"})
    view = latest(box, "round", lambda p: result_of(p, "t03") is not None)
    assert result_of(view, "t03")["points"] == [0, 2]
    assert [a["data"]["event"] for a in store.actions() if a["kind"] == "game"] == ["t01:91:game_won", "t02:41:round_over", "t03:12:game_won"]
    assert {a["by"] for a in store.actions() if a["kind"] == "game"} == {"table t01", "table t02", "table t03"}


def test_levels_come_from_a_tables_retained_state_as_well(running, connect, inbox):
    """A service started mid-game has seen no ``levels_changed``: the table's retained state tells it the levels."""
    store, _ = running
    box = listen(connect, inbox)
    state = new_table("t04", "classic-3deck").state(100.0)
    state["teams"] = [dict(t, level=level) for t, level in zip(state["teams"], ("J", "9"))]
    conn = connect("table-t04")
    conn.publish(table_topic("t04", "state"), encode_event("state", state), qos=1, retain=True)
    assert conn.flush(WAIT_S)
    conn.close()
    send(connect, "t04", 41, "round_over", {"hands": 6})
    view = latest(box, "round", lambda p: result_of(p, "t04") is not None)
    assert result_of(view, "t04")["points"] == [2, 0]  # S/N (the first entry) at J beat E/W at 9
    conn = connect("table-t04")
    conn.publish(table_topic("t04", "state"), b"", qos=1, retain=True)  # the retained state cleared
    assert conn.flush(WAIT_S)


def test_a_result_entered_at_the_console_is_published_and_retained(running, connect, inbox, tmp_path):
    store, _ = running
    console = TournamentStore(tmp_path / "t.db")
    box = listen(connect, inbox)
    latest(box, "round")
    console.record_result(1, "t04", {"winner": 0}, by="王老师")
    view = latest(box, "round", lambda p: result_of(p, "t04") is not None)
    assert result_of(view, "t04") == {"points": [2, 0], "scores": [2, -2]}
    late = listen(connect, inbox, user="console")  # retained: a late reader sees it at once
    assert result_of(latest(late, "round"), "t04") == {"points": [2, 0], "scores": [2, -2]}
    assert latest(late, "standings")["round"] == 1
    console.close()


def test_a_round_lost_for_lateness_is_the_late_entries_late_arrival_both_sides_a_double_forfeit(running, connect, inbox):
    """000 第十三条: 21分钟以上判全队该轮弃权 -- a table whose two sides were both late past 20 minutes reports
    ``round_forfeited``: both entries forfeit (nobody wins), and, pair-swiss being a team event, their teams' other
    pairs forfeit their tables too; a round lost by one late side is that side's forfeit, not a game won."""
    store, _ = running
    box = listen(connect, inbox)
    tables = {x["table"]: [e["id"] for e in x["entries"]] for x in latest(box, "round")["tables"]}
    team = {e.id: e.team for e in store.tournament.entries}
    send(connect, "t01", 9, "round_forfeited", {"teams": ["SN", "EW"], "by": "late", "minutes": 21.5})
    send(connect, "t01", 9, "round_forfeited", {"teams": ["SN", "EW"], "by": "late", "minutes": 21.5})  # redelivered
    view = latest(box, "round", lambda p: result_of(p, "t01") is not None)
    assert result_of(view, "t01") == {"points": [0, 0], "scores": [-2, -2]}  # a double forfeit
    late_teams = {team[e] for e in tables["t01"]}
    for name, entries in tables.items():
        if name != "t01" and {team[e] for e in entries} & late_teams:  # a teammate's table: forfeited by that pair
            x = next(x for x in store.tournament.rounds[0].tables if x.table == name)
            assert set(x.forfeits) == {e for e in entries if team[e] in late_teams}
    late = [a for a in store.actions() if a["kind"] == "late"]
    assert [(a["data"]["entry"], a["data"]["minutes"], a["by"]) for a in late] == [(e, 21.5, "table t01") for e in tables["t01"]]
    # One late side at t02 (not a teammate's table of t01's): its entry forfeits, the other entry wins; no game recorded.
    t02 = next(n for n, entries in tables.items() if not {team[e] for e in entries} & late_teams)
    send(connect, t02, 5, "game_won", {"team": "SN", "by": "late", "loser": "EW", "minutes": 20.02})
    view = latest(box, "round", lambda p: result_of(p, t02) is not None)
    assert result_of(view, t02)["points"] == [2, 0] and not [a for a in store.actions() if a["kind"] == "game"]


def test_a_rejudged_game_is_corrected_once_by_the_table_with_its_reason(running, connect, inbox):
    """An amendment made the table's log end t01's game the other way (``rejudged``): the recorded game is corrected,
    by the table, with the reason, once however often the event comes; the entries keep the sides they had."""
    store, _ = running
    box = listen(connect, inbox)
    t01 = latest(box, "round")["tables"][0]["entries"]
    first, second = (store.tournament.entry(e["id"]) for e in t01)
    send(connect, "t01", 3, "assigned", {"players": {"S": second.players[0], "E": first.players[0], "N": second.players[1],
                                                     "W": first.players[1]},
                                         "rulebook": "classic-3deck"})
    send(connect, "t01", 80, "levels_changed", {"levels": {"SN": "A", "EW": "9"}, "dealer": "N"})
    send(connect, "t01", 91, "game_won", {"team": "SN"})
    assert result_of(latest(box, "round", lambda p: result_of(p, "t01") is not None), "t01")["points"] == [0, 2]
    was = {"seq": 91, "kind": "game_won", "data": {"team": "SN"}, "levels": {"SN": "A", "EW": "9"}}
    now = {"seq": 93, "kind": "game_won", "data": {"team": "EW"}, "levels": {"SN": "K", "EW": "A"}}
    for _ in range(2):  # a QoS 1 redelivery: once only
        send(connect, "t01", 95, "rejudged", {"entry": 40, "was": [was], "now": [now]})
    view = latest(box, "round", lambda p: (result_of(p, "t01") or {}).get("points") == [2, 0])
    assert result_of(view, "t01") == {"points": [2, 0], "scores": [2, -2]}  # the first entry (E/W) won
    [correct] = [a for a in store.actions() if a["kind"] == "correct"]
    assert correct["by"] == "table t01" and correct["data"]["result"] == {"winner": 0, "levels": ["A+", "K"]}
    assert correct["data"]["reason"] == "t01 桌第 40 条的出牌更正后，桌上的日志重新判定了本局结果（第 95 条）"
    assert correct["data"]["sides"] == {"SN": second.id, "EW": t01[0]["id"]}


def test_a_game_that_arrives_while_the_file_cannot_be_written_is_recorded_once_it_can(running, connect, inbox, caplog,
                                                                                       tmp_path, until):
    """Another program holds the tournament file's write lock past SQLite's timeout (a backup tool, a database browser
    left open; a full disk fails the same way, SQLite's error): the game was acknowledged to the broker and lost, a
    traceback in the log; now it is kept, not acknowledged, the events after it wait behind it in order, and both
    are recorded once the file can be written."""
    store, service = running
    box = listen(connect, inbox)
    first = latest(box, "round")
    tables = [x["table"] for x in first["tables"]][:2]
    store._db.execute("PRAGMA busy_timeout = 100")  # the test's patience, not SQLite's 30 s
    holder = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        for i, table in enumerate(tables):
            send(connect, table, 50 + i, "game_won", {"team": "EW"})
        deadline = time.monotonic() + WAIT_S
        while not any("is tried again" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "the failure was not said"
            time.sleep(0.05)
        assert until(lambda: len(service._waiting) == 2, WAIT_S), "the second game did not wait behind the first"
        time.sleep(1.0)  # tried again and again meanwhile
        assert [a for a in store.actions() if a["kind"] == "game"] == [] and len(service._waiting) == 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    view = latest(box, "round", lambda p: all(result_of(p, t) is not None for t in tables))
    assert [result_of(view, t)["points"] for t in tables] == [[0, 2], [0, 2]]
    assert [a["data"]["event"] for a in store.actions() if a["kind"] == "game"] == [
        f"{tables[0]}:50:game_won", f"{tables[1]}:51:game_won"]
    deadline = time.monotonic() + WAIT_S  # the round is published while the last event is handled, then it is let go
    while service._waiting:
        assert time.monotonic() < deadline, "an event recorded is still waiting"
        time.sleep(0.01)
    assert any("works again" in r.getMessage() for r in caplog.records)


def test_an_event_that_fails_otherwise_than_on_the_file_is_said_and_dropped_and_the_next_is_recorded(
        running, connect, inbox, caplog):
    """An event whose handling fails for a reason that is not the file's (a payload no check foresaw: none does today,
    so the fault is put in the recorder) would fail again at every poll: it is said with its traceback, acknowledged
    and dropped, and the events behind it are handled (a service that retried it for ever would record nothing more)."""
    store, service = running

    class Unforeseen(Recorder):
        def event(self, table: str, event: dict) -> None:
            if event["seq"] == 60:
                raise KeyError("a field no check foresaw")
            super().event(table, event)

    service.recorder = Unforeseen(store)
    box = listen(connect, inbox)
    tables = [x["table"] for x in latest(box, "round")["tables"]][:2]
    send(connect, tables[0], 60, "game_won", {"team": "EW"})
    send(connect, tables[1], 61, "game_won", {"team": "EW"})
    view = latest(box, "round", lambda p: result_of(p, tables[1]) is not None)
    assert result_of(view, tables[0]) is None
    assert [a["data"]["event"] for a in store.actions() if a["kind"] == "game"] == [f"{tables[1]}:61:game_won"]
    dropped = [r for r in caplog.records if "it is dropped" in r.getMessage()]
    assert len(dropped) == 1 and tables[0] in dropped[0].getMessage() and isinstance(dropped[0].exc_info[1], KeyError)
    deadline = time.monotonic() + WAIT_S
    while service._waiting:
        assert time.monotonic() < deadline, "an event handled is still waiting"
        time.sleep(0.01)


def test_a_file_that_cannot_be_published_is_said_once_while_it_lasts(running, tmp_path, caplog, until):
    """A change made in the file (the console's) to a log whose earlier row was then changed behind the store's back:
    the service cannot replay it, and said so with a traceback at every poll (twenty a second here); now once, and
    once again when it works."""
    store, service = running
    first, second = (x.table for x in store.tournament.rounds[-1].tables[:2])
    console = TournamentStore(tmp_path / "t.db")
    console.record_result(1, first, {"winner": 0})
    with sqlite3.connect(tmp_path / "t.db") as db:
        db.execute("DROP TRIGGER actions_no_update")  # what a disk error does not ask for
        db.execute("""UPDATE actions SET data = replace(data, '"winner": 0', '"winner": 1') WHERE kind = 'result'""")
    # The console's next change: the service replays the log now, though it may have published the first meanwhile
    # (it replays only a log that grew: on a loaded machine it had, and nothing failed).
    console.record_result(1, second, {"winner": 0})
    console.close()

    def failed() -> list:
        return [r for r in caplog.records if "publishing failed" in r.getMessage()]

    assert until(failed, WAIT_S), "the failure was not said"
    time.sleep(1.0)  # twenty more polls
    said = failed()
    assert len(said) == 1 and "not what was written" in said[0].exc_info[1].text("en")
    with sqlite3.connect(tmp_path / "t.db") as db:  # the backup's row put back
        db.execute("""UPDATE actions SET data = replace(data, '"winner": 1', '"winner": 0') WHERE kind = 'result'""")
    deadline = time.monotonic() + WAIT_S
    while not any("publishing works again" in r.getMessage() for r in caplog.records):
        assert time.monotonic() < deadline, "never said it works again"
        time.sleep(0.05)


def test_a_service_killed_with_games_not_yet_recorded_records_them_when_started_again(broker, connect, inbox, tmp_path):
    """``cardtable tournament serve`` as a real process, SIGKILLed while two games wait on the file (another program
    holds its write lock): they were never acknowledged, so the broker gives them again to the service started anew,
    and each is recorded once; a game recorded before the kill is not recorded twice."""
    import signal
    import subprocess
    import sys

    store = TournamentStore(tmp_path / "k.db")
    store.new("pair-swiss", [Entry(p, p, u, u, (f"{p}甲", f"{p}乙")) for p, u in UNITS.items()],
              name="拖拉机赛", seed=1, options={"rounds": 2}, id="killed")
    tables = [x["table"] for x in store.pair_next_round()["tables"]][:3]
    Connection(broker.url("tournament"), clean_start=True).connect().close(flush_timeout=0)
    box = inbox()
    reader = connect("scoreboard", clean_start=True)
    reader.subscribe("cardtable/v1/tournament/killed/round", box)
    assert reader.wait_subscribed(WAIT_S)
    argv = [sys.executable, "-m", "cardtable", "tournament", "serve", "--db", str(tmp_path / "k.db"), "--broker", broker.url("tournament")]
    served = lambda p: [result_of(json.loads(p), t) for t in tables]  # noqa: E731
    with open(tmp_path / "serve.log", "ab") as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=log)
        try:
            box.wait_for(lambda t, p: p and served(p)[0] is None, WAIT_S)
            send(connect, tables[0], 40, "game_won", {"team": "SN"})
            box.wait_for(lambda t, p: p and served(p)[0] is not None, WAIT_S)  # recorded (and acknowledged)
            holder = sqlite3.connect(tmp_path / "k.db", isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")  # the service waits on the file (SQLite's 30 s), the games unacknowledged
            for i, table in enumerate(tables[1:]):
                send(connect, table, 50 + i, "game_won", {"team": "EW"})
            time.sleep(1.5)  # delivered to the service, which is waiting on the lock
            os.kill(proc.pid, signal.SIGKILL)
            assert proc.wait(WAIT_S) == -signal.SIGKILL
            holder.execute("ROLLBACK")
            holder.close()
            assert [a["kind"] for a in store.actions()].count("game") == 1
            proc = subprocess.Popen(argv, stdout=log, stderr=log)
            box.wait_for(lambda t, p: p and None not in served(p), WAIT_S)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(WAIT_S)
    assert [a["data"]["event"] for a in store.actions() if a["kind"] == "game"] == [
        f"{tables[0]}:40:game_won", f"{tables[1]}:50:game_won", f"{tables[2]}:51:game_won"]
    Connection(broker.url("tournament"), clean_start=True).connect().close(flush_timeout=0)
    store.close()


def test_a_knockout_game_the_clock_ends_on_equal_levels_goes_to_the_side_first_there(broker, connect, inbox, tmp_path):
    """Seed 002 三2: 根据级差（级高方为胜，同级时先到胜……）确定胜方. A Guandan table's ``round_over`` names the side that
    reached the level first (``ahead``): in the knockout that side wins the game (the match 1:0 when the clock ended it,
    三2), where pair-swiss would call it a draw. A table that names no side (no hand played) is not decided by the
    service: it says so, at the table for the organiser."""
    store = TournamentStore(tmp_path / "k.db")
    store.new("knockout-best-of-three", [Entry(p, p, u, u, (f"{p}甲", f"{p}乙")) for p, u in list(UNITS.items())[:4]],
              name="掼蛋赛", seed=2, id="ko")
    tables = {x["table"]: [e["id"] for e in x["entries"]] for x in store.pair_next_round()["tables"]}
    assert list(tables) == ["t01", "t02"]
    Connection(broker.url("tournament"), clean_start=True).connect().close(flush_timeout=0)
    service = TournamentService(store, broker.url("tournament"), client_id=f"tournament-{uuid.uuid4().hex[:6]}", poll_s=0.05)
    service.start()
    try:
        send(connect, "t01", 30, "round_over", {"hands": 9, "by": "time", "levels": {"SN": "7", "EW": "7"}, "ahead": "EW"})
        send(connect, "t02", 2, "round_over", {"hands": 0, "by": "time", "levels": {"SN": "2", "EW": "2"}, "ahead": None})
        deadline = time.monotonic() + WAIT_S
        while store.tournament.round(1).table("t01").outcome is None or not store.tournament.round(1).waiting():
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        service.stop()
    t01 = store.tournament.round(1).table("t01")
    assert t01.outcome.points == (0, 1) and t01.outcome.scores == (0, 1)  # E/W, the second entry, won 1:0
    assert store.tournament.round(1).table("t02").outcome is None
    (note,) = store.tournament.round(1).waiting()
    assert note.table == "t02" and "同级时先到胜" in note.reason["zh"] and "first to the level wins" in note.reason["en"]
    store.close()


def test_a_game_waiting_on_a_locked_file_does_not_stop_the_connection(running, connect, inbox, tmp_path, until):
    """SQLite waits up to 30 s for another program's write lock: a game handled on the connection's own thread held it
    that long, deaf to the broker. Games wait on the service's own thread: with the file locked (SQLite's own wait
    kept), a table's state sent meanwhile is taken while the game still waits, and the game is recorded once the lock
    goes."""
    store, service = running
    box = listen(connect, inbox)
    latest(box, "round")
    holder = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        send(connect, "t01", 60, "game_won", {"team": "EW"})
        assert until(lambda: service._waiting, WAIT_S)  # the service waits on the lock with the game
        state = new_table("t03", "classic-3deck").state(100.0)
        state["teams"] = [dict(t, level=level) for t, level in zip(state["teams"], ("Q", "5"))]
        conn = connect("table-t03")
        conn.publish(table_topic("t03", "state"), encode_event("state", state), qos=1, retain=True)
        assert conn.flush(WAIT_S)
        # (a connection waiting with the game would take it only after SQLite's 30 s wait)
        assert until(lambda: service.recorder.levels.get("t03") == {"SN": "Q", "EW": "5"}, 20.0), \
            "the connection waited with the game"
        with closing(sqlite3.connect(tmp_path / "t.db")) as reader:  # the service's own connection waits on the lock
            assert service._waiting and reader.execute("SELECT COUNT(*) FROM actions WHERE kind = 'game'").fetchone() == (0,)
        conn.publish(table_topic("t03", "state"), b"", qos=1, retain=True)
        assert conn.flush(WAIT_S)
        conn.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    view = latest(box, "round", lambda p: result_of(p, "t01") is not None)
    assert result_of(view, "t01")["points"] == [0, 2]
