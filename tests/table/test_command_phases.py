"""A console command out of its phase is refused in words and changes nothing, as the judge refuses it.

``last_hand`` was taken when the table was idle, once its round was over, and a second time (each a ``last_hand`` event
and an ``applied`` answer, the console told it was done), and ``stop_round`` with no round to stop (a ``round_stopped``
of nothing); the judge (``scenario.do_last_hand``) refused both ``last_hand``s. The seeds' article: 001 三
(classic-3deck) 每轮比赛1小时30分，最后10分钟大会统一提醒，打完结束比赛（自宣布之时起手中正在打的这副牌打完结束比赛）, and
000 通知 四 3 (zhongkai-2010) 正在竞赛的当盘牌为最后一盘牌，赛完该盘牌结束当轮竞赛: the announcement makes the hand in
play the round's last, so it is made once, while a round is played. Every other command keeps its phase too: seating and a
start between rounds, a ruling while a game is played, a flag's answer while the flag is open."""

from __future__ import annotations

import pytest

from bus.protocol import decode
from referee.catalogue.sentences import Sentences
from referee.rulebooks import load
from referee.table.reducer import Reducer
from referee.table.scenario import ScenarioError, _Drive
from referee.table.tables import new_table

from .test_service import RULEBOOK, WAIT_S, Clock, Table, connector, without

TABLES = ["p1"]  # the broker's (tests/conftest.py)

PLAYERS = {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"}
BOOKS = {"tractor": "classic-3deck", "guandan": "sanjiang-2012", "sandayi": "usst-2016"}
ANNOUNCED = "自宣布之时起手中正在打的这副牌打完结束比赛"  # 001 三


def command(t: Reducer, name: str, at: float, **fields) -> tuple[Reducer, list[dict]]:
    """The table after console command ``name`` (as the protocol takes it), and the events it caused."""
    p = decode("commands", {"v": 1, "id": f"c{t.seq + 1}", "command": name, **fields})
    t, out = t.apply("commands", p, at, t.seq + 1)
    return t, [o.payload for o in out]


def table_in(game: str, phase: str) -> Reducer:
    """A table of ``game`` seated and idle, with a round just started (``arriving``), or stopped (``round_over``)."""
    t, _ = command(new_table("t1", BOOKS[game]), "assign", 0.0, players=PLAYERS, rulebook=BOOKS[game])
    if phase != "idle":
        t, _ = command(t, "start_round", 1.0)
    if phase == "round_over":
        t, _ = command(t, "stop_round", 2.0)
    assert t.phase == phase
    return t


def refused(t: Reducer, name: str, **fields) -> dict:
    """Command ``name`` at ``t``, which must refuse it: one ``rejected`` event and nothing else, the table unchanged
    (but for the log's count); its reason."""
    at = t.at + 1.0
    after, events = command(t, name, at, **fields)
    assert [e["kind"] for e in events] == ["rejected"], events
    assert {**after.state(at), "seq": None} == {**t.state(at), "seq": None}
    data = events[0]["data"]
    assert data["topic"] == "commands" and data["id"] == f"c{t.seq + 1}" and data["reason"]
    return data["why"]


def taken(t: Reducer, name: str, **fields) -> tuple[Reducer, list[str]]:
    t, events = command(t, name, t.at + 1.0, **fields)
    assert "rejected" not in [e["kind"] for e in events], events
    return t, [e["kind"] for e in events]


def _ruling(game: str, what: str) -> dict:
    if what == "foul":
        return {"seat": "S", "kind": next(iter(load(BOOKS[game]).fouls.kinds))}
    return {"seat": "S", "play": True} if what == "report" else {"seat": "S"}


@pytest.mark.parametrize("game", BOOKS)
@pytest.mark.parametrize("phase", ["idle", "round_over"])
def test_no_round_no_last_hand_and_nothing_to_stop(game, phase):
    """001 三 / 000 通知 四 3: the last hand is the hand in play when it is announced: with no round played there is none."""
    t = table_in(game, phase)
    assert refused(t, "last_hand") == {"key": "table.last_hand_no_round", "values": {"phase": phase}}
    assert refused(t, "stop_round") == {"key": "table.no_round_to_stop", "values": {"phase": phase}}
    assert not t.last_hand


@pytest.mark.parametrize("game", BOOKS)
def test_the_last_hand_is_announced_once(game):
    """001 三: 自宣布之时起手中正在打的这副牌打完结束比赛 -- one announcement; a second changes nothing. Stopping the round
    then ends it, and a new round may be announced again."""
    t = table_in(game, "arriving")
    t, kinds = taken(t, "last_hand")
    assert kinds == ["last_hand"] and t.last_hand
    assert refused(t, "last_hand") == {"key": "table.last_hand_twice", "values": {}}
    t, kinds = taken(t, "stop_round")
    assert kinds == ["round_stopped"] and t.phase == "round_over"
    t, _ = taken(t, "start_round")
    assert not t.last_hand and taken(t, "last_hand")[1] == ["last_hand"]


@pytest.mark.parametrize("game", BOOKS)
@pytest.mark.parametrize("phase", ["idle", "round_over"])
def test_between_rounds_no_ruling_and_no_flag_to_answer(game, phase):
    """Between rounds (idle, or its round over): no game to rule in (a foul; San Da Yi's 报到 and 摊打, refused elsewhere
    as no ruling of the game), no open flag to confirm, dismiss or correct; seating and a start are what it takes."""
    t = table_in(game, phase)
    for what in ("foul", "report", "open_hand"):
        why = refused(t, what, **_ruling(game, what))
        assert why["key"] == ("table.no_game" if what == "foul" or game == "sandayi" else "table.no_ruling"), why
    for how in ("confirm", "dismiss"):
        assert refused(t, how, flag="f1")["key"] == "table.no_open_flag"
    assert refused(t, "correct", flag="f1", cards=["S3"])["key"] == "table.no_open_flag"
    assert taken(t, "assign", players=PLAYERS, rulebook=BOOKS[game])[1] == ["assigned"]
    assert taken(t, "start_round")[1] == ["round_started"]


@pytest.mark.parametrize("game", BOOKS)
def test_in_a_round_no_seating_and_no_second_start(game):
    t = table_in(game, "arriving")
    assert refused(t, "assign", players=PLAYERS, rulebook=BOOKS[game])["key"] == "table.assign_between_rounds"
    assert refused(t, "start_round") == {"key": "table.round_running", "values": {"phase": "arriving"}}


def _both_refuse(d: _Drive, at: float, judge_key: str, table_key: str) -> None:
    """The judge refuses ``last_hand`` at ``at`` with ``judge_key``, and the table, sent it, with ``table_key``."""
    with pytest.raises(ScenarioError) as said:
        d.do_last_hand(at)
    assert said.value.reason.key == judge_key
    before = d.table.state(at)
    events = [o.payload for o in d.send("commands", {"command": "last_hand"}, at) if o.name == "events"]
    assert [(e["kind"], e["data"]["why"]["key"]) for e in events] == [("rejected", table_key)]
    assert {**d.table.state(at), "seq": None} == {**before, "seq": None}


@pytest.mark.parametrize("game", ["tractor", "guandan"])
def test_the_table_refuses_the_last_hand_where_the_judge_does(game):
    """The judge's clock op and the table agree: the round's last hand announced (001 三), announced again, then played
    out (the round ends with it), and announced once more. Each refusal of the judge's is the table's."""
    d = _Drive(new_table("judge", BOOKS[game]), game, 0)
    d.send("commands", {"command": "start_round"}, 0.0)
    for s in "SENW":
        d.do_ready(0.0, s)
    d.do_last_hand(1.0)
    assert d.table.last_hand
    _both_refuse(d, 2.0, "clock.last_hand_twice", "table.last_hand_twice")
    d.do_draw(10.0)
    if game == "tractor":
        d.do_kitty(16.0)
    d.do_play_out(20.0)
    assert d.table.phase == "round_over"
    _both_refuse(d, 21.0, "clock.no_round", "table.last_hand_no_round")


def test_the_service_answers_an_out_of_phase_command_rejected_and_logs_it_changing_nothing(broker, tmp_path, table_watch):
    """Through the table service, a real mosquitto and the console's connection: each command out of its phase gets its
    ``rejected`` answer (its id, the reason in words the console says in Chinese), no ``applied``, the state as it was;
    the ones in phase their ``applied``. Restarted, the service replays the log to the same table."""
    connect, close_all = connector(broker)
    t = Table(broker, connect, "p1", tmp_path / "p1.db", Clock(), table_watch("p1", wait_s=WAIT_S))
    try:
        t.start()
        t.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": RULEBOOK})

        def answer(body: dict, before: dict) -> tuple[bool, dict]:
            state = t.send("commands", body)
            [event] = [e for e in t.watch.of("events") if e["seq"] == state["seq"]]  # the state comes after its events
            return without(state, "seq", "at") == without(before, "seq", "at"), event

        idle = t.watch.state(t.seq)
        for name, key in (("last_hand", "table.last_hand_no_round"), ("stop_round", "table.no_round_to_stop")):
            same, event = answer({"command": name}, idle)
            assert same and event["kind"] == "rejected" and event["data"]["why"] == {"key": key, "values": {"phase": "idle"}}
        said = Sentences("zh").event(event)
        assert said == "拒绝了一条指令输入：现在没有在打的一轮（阶段：空闲）：没有可以停止的一轮", said
        t.send("commands", {"command": "start_round"})
        announced = t.send("commands", {"command": "last_hand"})
        assert announced["round"]["last_hand"]
        applied = t.watch.wait("events", lambda e: e["kind"] == "applied" and e["seq"] == announced["seq"])
        assert applied["data"]["command"] == "last_hand"
        same, event = answer({"command": "last_hand"}, announced)  # 001 三: announced once
        assert same and event["data"]["why"]["key"] == "table.last_hand_twice"
        assert event["data"]["reason"] == "the last hand is already announced"
        stopped = t.send("commands", {"command": "stop_round"})
        assert stopped["phase"] == "round_over"
        same, event = answer({"command": "stop_round"}, stopped)
        assert same and event["data"]["why"] == {"key": "table.no_round_to_stop", "values": {"phase": "round_over"}}
        assert not any(e["kind"] == "applied" and e["seq"] in (2, 3, 6, 8) for e in t.watch.of("events"))
        last = t.watch.state(t.seq)
        t.stop()
        count = len(t.watch.of("state"))
        t.start()
        assert without(t.watch.wait("state", lambda p: len(t.watch.of("state")) > count), "at") == without(last, "at")
    finally:
        t.stop(settle=False)
        close_all()
