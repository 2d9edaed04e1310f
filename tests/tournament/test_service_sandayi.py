"""San Da Yi tables' results reach the tournament by themselves, end to end against a real mosquitto: a real
San Da Yi table service (``usst-2016``) seated as the round drew it plays a round to its end (one game, announced
the last; two fouls end it) and the tournament service records the seats' 小分 as the table's result, ranked into
round points by seed 004 (第一名积5分 ... ties share). The entry at each seat is the draw's (S E N W by the suit drawn,
一 4) or, where the players sit otherwise, read from their names; a table whose players are not the round's is not
guessed: nothing is recorded and the log says why. A redelivery counts once; an amendment corrects the result."""

from __future__ import annotations

import json
import logging
import time
import uuid

import pytest

from bus.protocol import encode, topic
from bus.tournament import topic as tournament_topic
from cardtable.cli import main
from published import table_result
from referee.table.service import TableService
from referee.tournament import Entry, TournamentStore
from referee.tournament.service import TournamentService

TABLES = ["t01", "t02"]
SDY = "usst-2016"
SEED_004 = "每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分"
UNITS = ("机械学院", "光电学院", "管理学院", "外语学院")
WAIT_S = 30.0


@pytest.fixture
def hall(broker, connect, inbox, tmp_path):
    store = TournamentStore(tmp_path / "t.db")
    store.new("individual-tables", [Entry(f"{u[0]}{k}", f"{u[:2]}{k}号", u, u, (f"{u[:2]}{k}号",)) for u in UNITS for k in (1, 2)],
              name="三打一比赛", seed=2016, id="usst2016")
    store.pair_next_round()
    box = inbox()
    reader = connect("scoreboard", clean_start=True)
    reader.subscribe("cardtable/v1/tournament/#", box)
    assert reader.wait_subscribed(WAIT_S)
    service = TournamentService(TournamentStore(tmp_path / "t.db"), broker.url("tournament"),
                                client_id=f"tournament-{uuid.uuid4().hex[:6]}", poll_s=0.05).start()
    tables: list[TableService] = []
    yield {"store": store, "box": box, "tables": tables, "db": tmp_path}
    for t in tables:
        t.stop()
    for table in {t.table_id for t in tables}:  # the module's next test plays on a new log: no witness of this one
        conn = connect(f"table-{table}")
        for name in ("state", "health"):
            conn.publish(topic(table, name), b"", qos=1, retain=True)
        assert conn.flush(WAIT_S)
        conn.close()
    service.stop()
    conn = connect("tournament", clean_start=True)  # the module's next test: no round of this one retained, no event waiting
    for name in ("round", "standings"):
        conn.publish(tournament_topic("usst2016", name), b"", qos=1, retain=True)
    assert conn.flush(WAIT_S)
    conn.close()
    store.close()


def seated(store: TournamentStore, table: str) -> dict[str, str]:
    """The players of ``table`` at their seats as drawn (S E N W)."""
    t = store.tournament
    return dict(zip("SENW", (t.entry(e).players[0] for e in t.rounds[-1].table(table).entries)))


def play_round(broker, connect, h, table: str, players: dict[str, str], fouled: str = "E") -> list[dict]:
    """A San Da Yi round at ``table`` on a real table service: seated, started, the four ready, announced the last
    game, S bids 1 and the others pass, then two fouls by ``fouled`` end the game (三: 作输者处理) and the round.
    Returns the table's events as published."""
    watch = []
    events = connect("scoreboard-2", clean_start=True)
    events.subscribe(topic(table, "events"), lambda t, p, *_: watch.append(json.loads(p)))
    assert events.wait_subscribed(WAIT_S)
    h["tables"].append(TableService(table, SDY, broker.url(f"table-{table}"), h["db"] / f"{table}.db", trust_senders=True).start())
    console, board = connect("console"), connect(f"board-{table}")

    def command(name: str, **fields) -> None:
        console.publish(topic(table, "commands"), encode("commands", {"v": 1, "id": f"c-{uuid.uuid4().hex[:8]}", "command": name, **fields}), qos=1)
        assert console.flush(WAIT_S)

    def press(seat: str, button: str) -> None:
        board.publish(topic(table, "board/in"), encode("board/in", {"v": 1, "id": f"b-{uuid.uuid4().hex[:8]}", "seat": seat,
                                                                     "button": button, "at": time.time()}), qos=1)
        assert board.flush(WAIT_S)

    command("assign", players=players, rulebook=SDY)
    command("start_round")
    for seat in "SENW":
        press(seat, "ready")
    command("last_hand")
    for seat, button in zip("SENW", ("bid1", "pass", "pass", "pass")):
        press(seat, button)
    for _ in range(2):
        command("foul", seat=fouled, kind="talking")
    deadline = time.monotonic() + WAIT_S
    while not any(e["kind"] == "round_over" for e in watch):
        assert time.monotonic() < deadline, [e["kind"] for e in watch]
        time.sleep(0.05)
    for conn in (events, console, board):
        conn.close()
    return watch


def result(box, table: str, predicate, after: int = 0) -> dict | None:
    return table_result(box, "usst2016", table, predicate, after)


def test_a_san_da_yi_round_over_is_the_tables_result(broker, connect, hall):
    """t01 seated as drawn: S bid 1 and became the dealer, E fouled twice and lost the game (三: 同一副牌内，任何一名选手被记过2次
    及以上犯规，作输者处理): 小分 S +3, E -3, N 0, W 0; the round points by place, N and W sharing 2nd and 3rd
    (seed 004 四: 每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分)."""
    assert SEED_004 in "每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分，最终比赛结果按照四轮比赛累计积分进行排名"
    store = hall["store"]
    events = play_round(broker, connect, hall, "t01", seated(store, "t01"))
    over = next(e for e in events if e["kind"] == "round_over")
    assert over["data"]["totals"] == {"S": 3, "E": -3, "N": 0, "W": 0}
    got = result(hall["box"], "t01", lambda r: r is not None)
    assert got == {"points": [5, 1, "5/2", "5/2"], "scores": [3, -3, 0, 0]}  # the entries in seat order S E N W
    recorded = [a for a in store.actions() if a["kind"] == "result"]
    assert len(recorded) == 1 and recorded[0]["by"] == "table t01"
    assert recorded[0]["data"]["event"] == f"t01:{over['seq']}:round_over"
    assert recorded[0]["data"]["sides"] == dict(zip("SENW", store.tournament.round(1).table("t01").entries))
    standings = {r["id"]: r["score"] for r in store.standings()["rows"]}
    assert standings[store.tournament.round(1).table("t01").entries[0]] == 5


def show(capsys, db, *more) -> str:
    """``cardtable tournament show``'s output."""
    capsys.readouterr()
    assert main(["tournament", "show", "--db", str(db), *more]) == 0
    return capsys.readouterr().out


def test_players_seated_otherwise_are_found_by_name_and_a_table_not_the_rounds_is_not_guessed(broker, connect, hall, caplog, capsys):
    """t02's players sit rotated one seat (the player drawn to S sits at E, ...): each seat's 小分 goes to the player
    who sat there. t01 is seated with a stranger at W: nothing is recorded, the log says why, a person enters it."""
    store = hall["store"]
    drawn = seated(store, "t02")
    rotated = dict(zip("ENWS", drawn.values()))  # S's player at E, E's at N, N's at W, W's at S
    play_round(broker, connect, hall, "t02", rotated)
    got = result(hall["box"], "t02", lambda r: r is not None)
    # E fouled: the player drawn to S (sitting at E) scored -3, the one drawn to W (sitting at S, the dealer) +3
    assert got["scores"] == [-3, 0, 0, 3]
    entries = store.tournament.round(1).table("t02").entries
    sides = next(a for a in store.actions() if a["kind"] == "result")["data"]["sides"]
    assert sides == {"E": entries[0], "N": entries[1], "W": entries[2], "S": entries[3]}
    with caplog.at_level(logging.WARNING, logger="referee.tournament.recorder"):
        strangers = seated(store, "t01") | {"W": "路人甲"}
        play_round(broker, connect, hall, "t01", strangers)
        deadline = time.monotonic() + WAIT_S
        while "not recorded" not in caplog.text:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert "t01 round_over" in caplog.text and "路人甲" in caplog.text and "请核对后手工录入" in caplog.text
    assert store.tournament.round(1).table("t01").outcome is None
    assert [a["data"]["table"] for a in store.actions() if a["kind"] == "result"] == ["t02"]
    # the organiser sees it at the table (the console reads the round's waiting notes) until the result is entered
    (note,) = store.tournament.round(1).waiting()
    assert note.table == "t01" and note.report.startswith("t01:") and note.report.endswith(":round_over")
    assert "路人甲" in note.reason["zh"] and "enter the result by hand" in note.reason["en"]
    shown = show(capsys, hall["db"] / "t.db")  # and on the command line, under the table
    assert "\nt01  " in shown and "\n      牌桌报告的结果未能自动记入：t01 桌坐的选手（S " in shown and "W 路人甲）" in shown
    assert "The table's report was not recorded: the players at t01" in show(capsys, hall["db"] / "t.db", "--lang", "en")
    store.record_result(1, "t01", {"scores": [3, -3, 0, 0]}, by="王老师")
    assert store.tournament.round(1).waiting() == () and len(store.tournament.round(1).unrecorded) == 1
    assert "未能自动记入" not in show(capsys, hall["db"] / "t.db")


def send(connect, table: str, seq: int, kind: str, data: dict) -> None:
    conn = connect(f"table-{table}")
    conn.publish(topic(table, "events"), encode("events", {"v": 1, "seq": seq, "kind": kind, "at": 100.0 + seq, "data": data}), qos=1)
    assert conn.flush(WAIT_S)
    conn.close()


def test_a_redelivery_counts_once_and_an_amendment_corrects_or_withdraws_the_result(connect, hall, caplog):
    """No players seen at t01 (the service started after the table was seated): the seats are the draw's. The same
    ``round_over`` twice (QoS 1) is one result. A referee's amendment that changes the totals (``rejudged``) corrects it,
    by the table, with the reason; one after which the log no longer ends the round withdraws it for the organiser.
    t02's result typed in by hand first stands: the table's later word is refused, said in the log."""
    store, box = hall["store"], hall["box"]
    entries = store.tournament.round(1).table("t01").entries
    over = {"seq": 13, "kind": "round_over", "data": {"hands": 1, "totals": {"S": -3, "E": 0, "N": 3, "W": 0},
                                                        "points": {"S": 1, "E": 2.5, "N": 5, "W": 2.5}}, "levels": None}
    send(connect, "t01", 13, "round_over", over["data"])
    send(connect, "t01", 13, "round_over", over["data"])
    assert result(box, "t01", lambda r: r is not None)["scores"] == [-3, 0, 3, 0]
    mark = len(box.messages)
    now = dict(over, data=dict(over["data"], totals={"S": -6, "E": 0, "N": 6, "W": 0}))
    send(connect, "t01", 20, "rejudged", {"entry": 9, "was": [over], "now": [now]})
    assert result(box, "t01", lambda r: r is not None and r["scores"][0] == -6, mark) == {
        "points": [1, "5/2", 5, "5/2"], "scores": [-6, 0, 6, 0]}
    corrected = [a for a in store.actions() if a["kind"] == "correct"]
    assert len(corrected) == 1 and corrected[0]["by"] == "table t01" and corrected[0]["data"]["reason"].startswith("t01 桌第 ")
    assert corrected[0]["data"]["sides"] == dict(zip("SENW", entries))
    mark = len(box.messages)
    send(connect, "t01", 21, "rejudged", {"entry": 9, "was": [now], "now": []})
    assert result(box, "t01", lambda r: r is None, mark) is None
    assert [a["kind"] for a in store.actions()][-2:] == ["correct", "retract"]
    assert [a["kind"] for a in store.actions()].count("result") == 1
    store.record_result(1, "t02", {"scores": [1, 2, -3, 0]}, by="王老师")
    with caplog.at_level(logging.WARNING, logger="referee.tournament.recorder"):
        send(connect, "t02", 13, "round_over", over["data"])
        deadline = time.monotonic() + WAIT_S
        while "t02 round_over" not in caplog.text:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert "not recorded" in caplog.text
    assert store.tournament.round(1).table("t02").entered == {"scores": [1, 2, -3, 0]}
    assert [n.reason["en"] for n in store.tournament.round(1).waiting()] == ["round 1 t02 has a result already; correct it instead"]
    send(connect, "t02", 13, "round_over", over["data"])  # again (QoS 1): noted once
    send(connect, "t02", 14, "round_over", over["data"])  # the next event is handled: the one before it was
    deadline = time.monotonic() + WAIT_S
    while len(store.tournament.round(1).unrecorded) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert [n.report for n in store.tournament.round(1).unrecorded] == ["t02:13:round_over", "t02:14:round_over"]


def test_a_name_the_table_sent_reaches_no_terminal_as_a_control_character(connect, hall, capsys):
    """A table's events are the table's word (a hostile client with its credentials may send any): a player's name with
    a terminal's escape in its ``assigned`` is refused at t01 as not the round's, and the note (the service's log, the
    tournament's log, ``cardtable tournament show``) carries it with the escape replaced."""
    store = hall["store"]
    send(connect, "t01", 1, "assigned", {"players": seated(store, "t01") | {"W": "\x1b[2J\x1b]0;x\x07路人"}, "rulebook": SDY})
    send(connect, "t01", 13, "round_over", {"hands": 1, "totals": {"S": 3, "E": -3, "N": 0, "W": 0}, "points": {}})
    deadline = time.monotonic() + WAIT_S
    while not store.tournament.round(1).waiting():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    (note,) = store.tournament.round(1).waiting()
    assert "\ufffd[2J\ufffd]0;x\ufffd路人" in note.reason["zh"] and not any(c < " " for c in note.reason["zh"] + note.reason["en"])
    shown = show(capsys, hall["db"] / "t.db")
    assert "路人" in shown and "\x1b" not in shown and "\x07" not in shown


def test_a_backup_put_back_catches_up_with_a_san_da_yi_round_as_the_service_recorded_it(broker, connect, hall, capsys):
    """The break's backup is made with round 1 paired; t02's players then sit rotated one seat and play the round out
    (the live service records each seat's 小分 for the player who sat there). The backup put back lacks it; caught up
    from the table's log (``table events``, read while the table service runs), it has the same result and seats."""
    store = hall["store"]
    backup = hall["db"] / "backup.db"
    store.backup(backup)
    play_round(broker, connect, hall, "t02", dict(zip("ENWS", seated(store, "t02").values())))
    got = result(hall["box"], "t02", lambda r: r is not None)
    told = hall["db"] / "t02.jsonl"
    assert main(["table", "events", str(hall["db"] / "t02.db"), "--out", str(told)]) == 0
    capsys.readouterr()
    assert main(["tournament", "catch-up", "--db", str(backup), str(told)]) == 0
    over = next(a for a in store.actions() if a["kind"] == "result")["data"]
    assert capsys.readouterr().out == f"t02：记入 #{over['event'].split(':')[1]} round_over\n"
    caught = TournamentStore(backup)
    try:
        view = next(x for x in caught.round_view(1)["tables"] if x["table"] == "t02")
        assert view["result"] == got and got["scores"] == [-3, 0, 0, 3]
        assert next(a for a in caught.actions() if a["kind"] == "result")["data"]["sides"] == over["sides"]
    finally:
        caught.close()
