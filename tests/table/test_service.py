"""The table service against a real mosquitto and real clients: the retained state and status,
inputs applied once and in order, a play by the wrong seat, malformed payloads (hand-written and
generated), the shot clock's display refresh, rulings made by time with no input (a Guandan turn
given up, a seat that never arrives), and a restart that replays the log.

The service runs in-process on its own worker thread with an injected clock. Nothing sleeps: every
wait is for a real message, and where a test shows that something did *not* happen it sends a
valid marker input the same way afterwards (one connection keeps its messages in order, the service
handles its inputs in arrival order), so once the marker's state is there, anything the earlier
messages would have caused is there too.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
import uuid

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bus.broker import Broker
from bus.protocol import (
    INPUTS,
    PayloadError,
    decode,
    encode,
    peek_id,
    schema,
    topic,
)
from referee.catalogue import entries, placeholders
from referee.catalogue.sentences import Sentences
from referee.table.deadlines import RULE_LAG_S
from referee.table.health import HEAR_AGAIN_S
from referee.table.service import TableService
from referee.table.timeline import timeline
from test_guandan_wild_reading import NEXT as WILD_NEXT, PLAIN as WILD_PLAIN, WILD_FOLLOW

TABLES = [f"s{i}" for i in range(1, 26)]
CONSOLE = "console"
RULEBOOK = "classic-3deck"
T0 = 1_767_261_600.0  # the injected clock's start (2026-01-01 10:00 in Beijing)
WAIT_S = 30.0  # the longest a wait for what must come (generous: a loaded machine)
PLAYERS = {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"}
ROLE = {"observed": "camera-{t}", "removed": "camera-{t}", "board/in": "board-{t}", "commands": CONSOLE}


class Clock:
    """The service's injected clock: stands still unless a test moves it."""

    def __init__(self, now: float = T0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Table:
    """One table under test: the service, a console watching it, and the camera, board and console
    connections that feed it; ``send`` waits until the input's state is published."""

    def __init__(self, broker: Broker, connect, name: str, db, clock: Clock, watch, rulebook: str = RULEBOOK):
        self.name, self.broker, self.db, self.clock, self.rulebook = name, broker, db, clock, rulebook
        self.watch = watch
        console = connect(CONSOLE, clean_start=True)
        console.subscribe(topic(name, "state").rsplit("/", 1)[0] + "/#", self.watch)
        assert console.wait_subscribed(WAIT_S)
        users = {ROLE[n].format(t=name) for n in INPUTS} - {CONSOLE}  # one connection per user
        by_user = {CONSOLE: console} | {u: connect(u, clean_start=True) for u in sorted(users)}
        self.conns = {n: by_user[ROLE[n].format(t=name)] for n in INPUTS}
        self.service: TableService | None = None
        self.seq = 0
        self.at = T0

    def start(self, **kwargs) -> TableService:
        """The service; its senders run on virtual time, ahead of the standing clock, so their
        clocks are trusted unless ``trust_senders=False`` says otherwise."""
        kwargs.setdefault("trust_senders", True)
        self.service = TableService(self.name, self.rulebook, self.broker.url(f"table-{self.name}"), self.db,
                                    clock=self.clock, reconnect_delay_s=(0.05, 0.5), **kwargs)
        return self.service.start()

    def stop(self, settle: bool = True) -> None:
        """Stop the service and (``settle``) wait until the watch got all it published (``TableWatch.stopped``)."""
        if self.service is not None:
            if settle:
                self.watch.stopped(self.service.stop)
            else:
                self.service.stop()
            self.service = None

    def publish(self, name: str, raw: bytes) -> None:
        self.conns[name].publish(topic(self.name, name), raw)

    def send(self, name: str, payload: dict, at: float | None = None) -> dict:
        """Publish a valid input (an id and, but for commands, a time added: a second after the last
        one, or ``at``) and wait for its state."""
        payload = {"v": 1, "id": f"{name}-{uuid.uuid4().hex[:10]}", **payload}
        if name != "commands":
            self.at = self.at + 1.0 if at is None else at
            payload["at"] = self.at
        self.publish(name, encode(name, payload))
        self.seq += 1
        return self.watch.state(self.seq)

    def guandan_lead(self) -> dict:
        """Start, assign (sanjiang-2012), start_round, four seats ready, S draws the turned card and leads (七), on its
        30 s: the state."""
        self.start()
        self.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": "sanjiang-2012"})
        self.send("commands", {"command": "start_round"})
        for seat in "SENW":
            self.send("board/in", {"seat": seat, "button": "ready"})
        return self.send("board/in", {"seat": "S", "button": "ready"})

    def play_to_first_lead(self) -> dict:
        """assign, start_round, four seats ready, S declares spades and takes the kitty."""
        self.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": RULEBOOK})
        self.send("commands", {"command": "start_round"})
        for seat in "SENW":
            state = self.send("board/in", {"seat": seat, "button": "ready"})
        assert state["phase"] == "dealing"
        self.send("observed", {"seat": "S", "cards": ["S2"], "confidence": 0.99})
        self.send("board/in", {"seat": "N", "button": "declare"})
        self.at += 10  # past the overturn window
        state = self.send("board/in", {"seat": "S", "button": "ready"})
        assert (state["phase"], state["dealer"], state["trump"]) == ("kitty", "S", {"suit": "S", "rank": "2"})
        return state


def connector(broker: Broker):
    """``(connect, close_all)``: clients of ``broker`` as conftest's ``connect`` makes them."""
    from bus.mqtt import Connection

    made: list[Connection] = []

    def connect(user: str, **kwargs) -> Connection:
        conn = Connection(broker.url(user), f"{user}-{uuid.uuid4().hex[:8]}", reconnect_delay_s=(0.05, 0.5), **kwargs)
        made.append(conn)
        return conn.connect()

    def close_all() -> None:
        for conn in made:
            conn.close(flush_timeout=0)

    return connect, close_all


@pytest.fixture
def table(broker, tmp_path, table_watch):
    made: list[Table] = []
    connect, close_all = connector(broker)

    def make(name: str, clock: Clock | None = None, rulebook: str = RULEBOOK) -> Table:
        t = Table(broker, connect, name, tmp_path / f"{name}.db", clock or Clock(), table_watch(name, wait_s=WAIT_S), rulebook)
        made.append(t)
        return t

    yield make
    for t in made:
        t.stop(settle=False)
    close_all()


def without(state: dict, *keys: str) -> dict:
    return {k: v for k, v in state.items() if k not in keys}


# ---------------------------------------------------------------- start, stop, order, duplicates


def test_start_publishes_state_display_and_status_retained(table):
    t = table("s1")
    t.start()
    state = t.watch.state(0)
    assert (state["phase"], state["rulebook"], state["at"]) == ("idle", RULEBOOK, T0)
    t.watch.wait("board/out", lambda p: p["seats"]["S"]["cards"] == 0)
    assert t.watch.wait("status")["status"] == "online"
    t.stop()
    assert t.watch.wait("status", lambda p: p["status"] == "offline")["at"] == T0


def test_inputs_are_applied_in_order_and_a_duplicate_once(table):
    t = table("s2")
    t.start()
    state = t.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": RULEBOOK})
    assert state["players"] == PLAYERS and state["at"] == T0  # a command has no time: the service's clock
    t.send("commands", {"command": "start_round"})
    ready = encode("board/in", {"v": 1, "id": "b-ready-S", "seat": "S", "button": "ready", "at": T0 + 30})
    t.publish("board/in", ready)
    t.publish("board/in", ready)  # a QoS 1 redelivery: the same id again
    t.seq += 1
    state = t.watch.state(t.seq)
    assert state["seq"] == 3 and state["at"] == T0 + 30
    t.at = T0 + 40
    state = t.send("board/in", {"seat": "E", "button": "ready"})
    assert state["seq"] == 4
    assert [s["seq"] for s in t.watch.of("state")] == [0, 1, 2, 3, 4]
    readies = [e for e in t.watch.of("events") if e["kind"] == "ready"]
    assert [(e["seq"], e["data"]["seat"]) for e in readies] == [(3, "S"), (4, "E")]
    # The log holds each input once, under its topic and id.
    assert t.service.log.has_input("board/in b-ready-S")
    assert [e.seq for e in t.service.log.entries()] == [1, 2, 3, 4]


def test_an_id_logged_already_with_other_content_is_refused_in_words_not_dropped(table):
    """A copy of an input (the broker's redelivery, a restarted bridge's press dated a little apart) is taken once and
    says nothing. Another input under an id logged already, a board whose press numbers ran out (firmware 1.0:
    ``board3-1-000001`` again after 65,535 presses), was taken for a copy and dropped without a word."""
    t = table("s14")
    t.start()
    t.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": RULEBOOK})
    t.send("commands", {"command": "start_round"})
    press = {"v": 1, "id": "board3-1-000001", "seat": "S", "button": "ready", "at": T0 + 30}
    t.publish("board/in", encode("board/in", press))
    t.seq += 1
    t.watch.state(t.seq)
    t.publish("board/in", encode("board/in", press | {"at": T0 + 30.4}))  # the bridge restarted: its copy, dated anew
    t.publish("board/in", encode("board/in", press | {"seat": "E", "at": T0 + 31}))  # E's press, under S's id
    t.publish("board/in", encode("board/in", press | {"at": T0 + 900}))  # the same button, a quarter of an hour on
    state = t.send("board/in", {"seat": "N", "button": "ready"}, at=T0 + 901)
    assert state["seq"] == 4  # neither taken: the log holds the press once and the marker
    assert [e.payload["seat"] for e in t.service.log.entries() if e.kind == "board/in"] == ["S", "N"]
    refused = [e for e in t.watch.of("events") if e["kind"] == "rejected"]
    assert [(e["data"]["id"], e["data"]["why"]) for e in refused] == [
        ("board3-1-000001", {"key": "table.id_reused", "values": {"input_id": "board3-1-000001", "entry": 3}})] * 2
    assert refused[0]["data"]["reason"].startswith("id board3-1-000001 is logged already, as entry 3, with other content")
    said = Sentences("zh").event(refused[0])
    assert said == ("拒绝了一条按键输入：编号 board3-1-000001 已记在第 3 条，内容却不同：这条未被采用"
                    "（发送方把编号用了两次；若是按键板，请重启它）"), said


def test_out_of_order_deliveries_are_applied_in_arrival_order_with_time_running_forward(table):
    """The camera and the board are separate clients: a press stamped before the last play can
    arrive after it, and a QoS 1 redelivery of an old input after newer ones. The first is applied
    at the latest time already seen (no clock runs backwards, no overrun is measured from the
    past); the second is applied never."""
    t = table("s9")
    t.start()
    t.play_to_first_lead()
    lead = {"v": 1, "id": "o-lead", "seat": "S", "cards": ["HA", "HA"], "confidence": 0.98, "at": t.at + 5}
    t.publish("observed", encode("observed", lead))
    t.seq += 1
    led = t.watch.state(t.seq)
    assert led["turn"] == "E" and led["clocks"]["E"]["left"] == 10
    early = t.send("board/in", {"seat": "N", "button": "referee"}, at=lead["at"] - 4)  # stamped before the lead
    assert early["at"] == led["at"] and early["clocks"]["E"] == led["clocks"]["E"]
    t.publish("observed", encode("observed", lead))  # the old lead redelivered after the press
    marker = t.send("board/in", {"seat": "N", "button": "referee"}, at=lead["at"] + 1)
    assert marker["cards"] == led["cards"] and marker["current_trick"] == led["current_trick"]
    ids = [e.payload["id"] for e in t.service.log.entries()]
    assert ids.count("o-lead") == 1 and len(ids) == t.seq


def test_a_restart_replays_the_log_and_ignores_what_it_already_has(table):
    t = table("s3")
    t.start()
    t.play_to_first_lead()
    before = t.send("observed", {"seat": "S", "cards": ["HA", "HA"], "confidence": 0.98})
    assert before["turn"] == "E" and before["clocks"]["E"]["running"]
    t.stop()
    count = len(t.watch.of("state"))
    t.start()
    after = t.watch.wait("state", lambda p: len(t.watch.of("state")) > count)
    assert after == before  # the same state, to its time: it is made at the last entry's time
    assert t.watch.wait("status")["status"] == "online"
    # The camera sends the last play again after a reconnect: logged already, so nothing happens.
    again = encode("observed", {"v": 1, "id": "o-again", "seat": "E", "cards": ["H3", "H3"],
                                "confidence": 0.97, "at": before["at"] + 5})  # within E's time
    t.publish("observed", again)
    t.seq += 1
    t.watch.state(t.seq)
    t.stop()
    t.start()
    t.publish("observed", again)
    state = t.send("board/in", {"seat": "N", "button": "referee"})  # the marker
    assert state["seq"] == t.seq and state["cards"]["E"] == 37


def test_outputs_of_inputs_logged_but_never_published_are_published_on_restart(table):
    """kill -9 between logging an input and publishing its rulings: the restarted service publishes
    them (at least once, with their seq); after a clean stop it publishes nothing twice."""
    from referee.table.log import EventLog

    t = table("s11")
    t.start()
    t.play_to_first_lead()
    t.stop()
    logged = t.seq
    with EventLog.open(t.db) as log:  # what a service killed right after its commit leaves behind
        play = {"v": 1, "id": "o-inflight", "seat": "S", "cards": ["HA", "HA"], "confidence": 0.98, "at": T0 + 100}
        assert log.append("observed", play, at=T0 + 100, input_id="observed o-inflight") == logged + 1
    events_before = len(t.watch.of("events"))
    t.start()
    t.watch.state(logged + 1)
    accepted = t.watch.wait("events", lambda e: e["kind"] == "play_accepted" and e["seq"] == logged + 1)
    assert accepted["data"]["cards"] == ["HA", "HA"] and accepted["data"]["seat"] == "S"
    t.stop()
    count = len(t.watch.of("events"))
    assert count > events_before
    t.start()
    t.seq = logged + 1
    t.send("board/in", {"seat": "N", "button": "referee"})  # the marker
    new = t.watch.of("events")[count:]
    assert [e["kind"] for e in new] == ["referee_called"]


def test_a_log_serves_only_its_own_table_and_rulebook(table, broker):
    from referee.table.log import LogError

    t = table("s12")
    t.start()
    t.send("commands", {"command": "start_round"})
    t.stop()
    for name, rulebook in (("s10", RULEBOOK), ("s12", "shaoguan-2023")):
        other = TableService(name, rulebook, broker.url(f"table-{name}"), t.db, clock=Clock())
        with pytest.raises(LogError, match="is the log of table s12 \\(classic-3deck\\), not of table"):
            other.start()
    t.start()  # its own table still opens it
    assert t.watch.wait("status", lambda s: s["status"] == "online")


def test_an_amended_play_is_judged_again_with_everything_after_it(table):
    """A dispute settled by the referee: the camera read E's follow as H3 H3, it was H4 H4. The console
    amends the accepted play (by its seq); the table is the log replayed as amended, now and after a
    restart; an amendment that names no play is rejected and changes nothing."""
    t = table("s10")
    t.start()
    t.play_to_first_lead()
    t.send("observed", {"seat": "S", "cards": ["HA", "HA"], "confidence": 0.98})
    follow = t.send("observed", {"seat": "E", "cards": ["H3", "H3"], "confidence": 0.97})
    t.send("observed", {"seat": "N", "cards": ["H5", "H5"], "confidence": 0.97})
    before = t.watch.state(t.seq)
    amended = t.send("commands", {"command": "amend", "entry": follow["seq"], "cards": ["H4", "H4"]})
    event = t.watch.wait("events", lambda e: e["kind"] == "amended")
    assert event["data"] == {"entry": follow["seq"], "cards": ["H4", "H4"]} and event["seq"] == amended["seq"]
    plays = {p["seat"]: p["cards"] for p in amended["current_trick"]["plays"]}
    assert plays == {"S": ["HA", "HA"], "E": ["H4", "H4"], "N": ["H5", "H5"]}
    assert without(amended, "seq", "at") == without(before, "seq", "at") | {"current_trick": amended["current_trick"]}
    bad = t.send("commands", {"command": "amend", "entry": 1, "cards": ["S2"]})  # entry 1 is the assign
    rejected = t.watch.wait("events", lambda e: e["kind"] == "rejected" and e["seq"] == bad["seq"])
    assert "is not a play (one the camera saw or a referee entered)" in rejected["data"]["reason"]
    assert without(bad, "seq") == without(amended, "seq")
    t.stop()
    count = len(t.watch.of("state"))
    t.start()
    again = t.watch.wait("state", lambda p: len(t.watch.of("state")) > count)
    assert again == bad  # the restart replays the log as amended


# ---------------------------------------------------------------- plays the table cannot take


def test_a_play_by_the_wrong_seat_is_flagged_and_changes_nothing_else(table):
    t = table("s4")
    t.start()
    t.play_to_first_lead()
    before = t.send("observed", {"seat": "S", "cards": ["HA"], "confidence": 0.98})
    assert before["turn"] == "E"
    flagged = t.send("observed", {"seat": "W", "cards": ["H3"], "confidence": 0.98})  # E is to play
    [flag] = flagged["flags"]
    assert (flag["seat"], flag["kind"], flag["cards"]) == ("W", "out_of_turn", ["H3"])
    assert flagged["paused"] and not flagged["clocks"]["E"]["running"]
    assert flagged["clocks"]["E"]["left"] == before["clocks"]["E"]["left"] - 1.0  # stopped when flagged
    moving = ("seq", "at", "flags", "paused", "clocks", "round")  # time went on by a second
    assert without(flagged, *moving) == without(before, *moving)
    violation = t.watch.wait("violations", lambda v: v["seq"] == flagged["seq"])
    assert (violation["kind"], violation["status"], violation["flag"]) == ("out_of_turn", "flagged", flag["flag"])
    assert not any(e["kind"] == "play_accepted" and e["seq"] == flagged["seq"] for e in t.watch.of("events"))
    # While the flag waits, E's play waits too (judged once the flag is resolved); W's own confirm button settles it.
    t.send("observed", {"seat": "E", "cards": ["H4"], "confidence": 0.98})
    t.watch.wait("events", lambda e: e["seq"] == t.seq and e["kind"] == "play_waits")
    done = t.send("board/in", {"seat": "W", "button": "confirm"})
    assert not done["flags"] and not done["paused"] and done["turn"] == "N" and done["cards"]["W"] == 39
    assert done["cards"]["E"] == 38  # E's H4, judged after the flag
    confirmed = t.watch.wait("violations", lambda v: v["seq"] == done["seq"])
    assert confirmed["status"] == "confirmed" and confirmed["flag"] == flag["flag"]


def test_an_unsure_read_waits_for_the_console(table):
    t = table("s5")
    t.start()
    t.play_to_first_lead()
    flagged = t.send("observed", {"seat": "S", "cards": ["C5", "C5"], "confidence": 0.6})
    [flag] = flagged["flags"]
    assert flag["kind"] == "unsure" and flagged["cards"]["S"] == 39
    corrected = t.send("commands", {"command": "correct", "flag": flag["flag"], "cards": ["C6", "C6"]})
    assert corrected["current_trick"]["plays"] == [{"seat": "S", "cards": ["C6", "C6"]}]
    assert corrected["cards"]["S"] == 37 and not corrected["flags"]


def test_an_unsure_early_pickup_is_told_to_the_console_and_never_a_penalty_on_a_guess(table):
    """003 13 (留底 and 不留底 alike): 比赛开始后，牌一经触桌，不得收回(跟错牌除外). A pickup before the trick is complete
    that the camera is unsure of was ignored: the play it took back stood, and nobody was told. Now it is a flag in
    words with no violation: dismissed, nothing changes; confirmed, it is judged as a sure read (the early pickup's
    own flag, whose violation counts only when confirmed in turn)."""
    t = table("s17")
    t.start()
    t.play_to_first_lead()
    t.send("observed", {"seat": "S", "cards": ["HA"], "confidence": 0.98})
    flagged = t.send("removed", {"seat": "S", "cards": ["HA"], "confidence": 0.5})
    [flag] = flagged["flags"]
    assert (flag["seat"], flag["kind"], flag["cards"], flag["why"]["key"]) == ("S", "unsure_pickup", ["HA"], "table.unsure_pickup")
    assert flagged["paused"] and flagged["current_trick"]["plays"] == [{"seat": "S", "cards": ["HA"]}]
    assert Sentences("zh").flag(flag).startswith("南 似乎在一圈未完时收回了 ♥A，摄像机没有把握")
    assert "picked up ♥A before the trick was complete" in Sentences("en").flag(flag)
    t.send("observed", {"seat": "E", "cards": ["H4"], "confidence": 0.98})  # waits behind the flag
    refused = t.send("commands", {"command": "correct", "flag": flag["flag"], "cards": ["HK"]})
    assert refused["flags"] == [flag]
    said = t.watch.wait("events", lambda e: e["seq"] == refused["seq"] and e["kind"] == "rejected")
    assert said["data"]["why"]["key"] == "table.nothing_to_correct"
    dismissed = t.send("commands", {"command": "dismiss", "flag": flag["flag"]})
    assert not dismissed["flags"] and dismissed["turn"] == "N" and dismissed["cards"]["E"] == 38
    # Confirmed, the pickup is judged as sure: an early pickup, flagged with its violation for the referee.
    flagged = t.send("removed", {"seat": "E", "cards": ["H4"], "confidence": 0.5})
    [flag] = flagged["flags"]
    assert flag["kind"] == "unsure_pickup"
    confirmed = t.send("commands", {"command": "confirm", "flag": flag["flag"]})
    [early] = confirmed["flags"]
    assert (early["seat"], early["kind"], early["cards"]) == ("E", "early_pickup", ["H4"])
    violation = t.watch.wait("violations", lambda v: v["seq"] == confirmed["seq"])
    assert (violation["kind"], violation["status"], violation["flag"]) == ("early_pickup", "flagged", early["flag"])
    assert [v["seq"] for v in t.watch.of("violations")] == [confirmed["seq"]]  # nothing from the unsure reads


def test_a_play_in_the_wrong_phase_is_rejected_and_changes_nothing(table):
    t = table("s6")
    t.start()
    t.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": RULEBOOK})
    before = t.send("commands", {"command": "start_round"})
    after = t.send("observed", {"seat": "E", "cards": ["SA"], "confidence": 0.99}, at=before["at"])  # no deal yet
    assert without(after, "seq") == without(before, "seq")
    rejected = t.watch.wait("events", lambda e: e["seq"] == after["seq"])
    assert rejected["kind"] == "rejected" and rejected["data"]["topic"] == "observed"


# ---------------------------------------------------------------- malformed payloads

BAD = [
    ("observed", b"not json"),
    ("observed", b'{"v":1,"id":"bad-1","seat":"E","cards":["S9","SX"],"confidence":0.9,"at":3}'),
    ("observed", b'{"v":2,"id":"bad-2","seat":"E","cards":["S9"],"confidence":0.9,"at":3}'),
    ("observed", b'{"v":1,"id":"bad-3","seat":"E","cards":["S9"],"confidence":1.5,"at":3}'),
    ("observed", b'{"v":1,"id":"bad-4","seat":"E","cards":["S9","S9","S9","S9","S9","S9","S9","S9","S9"],"confidence":0.9,"at":3}'),
    ("observed", b'{"v":1,"id":"bad-5","id":"bad-5","seat":"E","cards":["S9"],"confidence":0.9,"at":3}'),
    ("observed", b'{"v":1,"id":"bad-6","seat":"E","cards":["S9"],"confidence":NaN,"at":3}'),
    ("observed", b'[1,2,3]'),
    ("observed", b"\xff\xfe"),
    ("removed", b'{"v":1,"id":"bad-r1","seat":"E","cards":["S9"],"at":3}'),
    ("removed", b'{"v":1,"id":"bad-r2","seat":"E","cards":[],"confidence":0.9,"at":3}'),
    ("board/in", b'{"v":1,"id":"bad-7","seat":"X","button":"ready","at":1}'),
    ("board/in", b'{"v":1,"id":"bad-8","seat":"S","button":"ready","at":1,"extra":true}'),
    ("board/in", b'{"v":1,"seat":"S","button":"ready","at":1}'),
    ("commands", b'{"v":1,"id":"bad-9","command":"confirm"}'),
    ("commands", (b'{"v":1,"id":"bad-10","command":"assign","players":{"S":"a","E":"a","N":"b","W":"c"},'
                 b'"rulebook":"classic-3deck"}')),
    ("commands", (b'{"v":1,"id":"bad-11","command":"assign","players":{"S":"a","E":"b","N":"c","W":"d"},'
                 b'"rulebook":"no-such-book"}')),
    ("commands", b'{"v":1,"id":"","command":"start_round"}'),
]

MARKERS = {  # a valid input that changes nothing but the state's seq (each is ruled out as it is)
    "observed": {"seat": "E", "cards": ["SA"], "confidence": 0.99},  # nothing is dealt
    "removed": {"seat": "E", "cards": ["SA"], "confidence": 0.99},  # nothing lies on the table
    "board/in": {"seat": "S", "button": "referee"},
    "commands": {"command": "confirm", "flag": "no-such-flag"},
}


def check_rejected(t: Table, batch: list[tuple[str, bytes]]) -> None:
    """Publish ``batch`` (one topic) then a marker; each bad payload got a ``rejected`` event naming
    it, and nothing but the marker reached the log or the state."""
    name = batch[0][0]
    before = t.watch.state(t.seq)
    events = len(t.watch.of("events"))
    states = len(t.watch.of("state"))
    for _, raw in batch:
        t.publish(name, raw)
    after = t.send(name, MARKERS[name], at=before["at"])
    assert without(after, "seq") == without(before, "seq")
    assert len(t.watch.of("state")) == states + 1  # the marker's only
    marker = t.watch.wait("events", lambda e: e["seq"] == after["seq"])
    seen = t.watch.of("events")[events:]
    seen = seen[: seen.index(marker)]
    assert [e["kind"] for e in seen] == ["rejected"] * len(batch)
    for event, (_, raw) in zip(seen, batch):
        decode("events", event)
        assert event["data"]["topic"] == name
        assert event["data"]["id"] == peek_id(raw)
        assert event["data"]["reason"].startswith(f"{name}: ")
        assert event["seq"] == max(before["seq"], 1)
        said_both_ways(event)


def said_both_ways(event: dict) -> tuple[str, str]:
    """A ``rejected`` event's ``why`` is a sentence of both catalogues, every value it names given: what a console
    or a display says of it in Chinese and in English."""
    why = event["data"]["why"]
    key = f"reason.{why['key']}"
    for lang in ("zh", "en"):
        assert placeholders(key, entries(lang)[key]) == set(why["values"]), why
    return Sentences("zh").event(event), Sentences("en").event(event)


def test_malformed_payloads_are_rejected_with_an_event(table):
    t = table("s7")
    t.start()
    t.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": RULEBOOK})
    t.send("commands", {"command": "start_round"})
    for name in INPUTS:
        check_rejected(t, [(n, raw) for n, raw in BAD if n == name])
    assert len(list(t.service.log.entries())) == t.seq  # nothing bad was logged


def test_a_malformed_input_is_refused_in_chinese_and_english_naming_the_field_and_what_it_should_be(table):
    """The schema's refusals, through mosquitto: ``why`` names the field and what it should be in a person's words,
    in each language; nothing is logged and the state does not change."""
    t = table("s20")
    t.start()
    t.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": RULEBOOK})
    before = t.watch.state(t.seq)
    cases = [
        ("observed", b'{"v":1,"id":"w-1","seat":"E","cards":["S9","SX"],"confidence":0.9,"at":3}',
         "拒绝了一条摄像输入：字段 `cards` 的第 2 项 应为牌（如 `S9`、`HT`、`BJ`），而不是 `\"SX\"`",
         'rejected a camera input: field `cards` item 2 should be a card (such as S9, HT, BJ), not "SX"'),
        ("board/in", b'{"v":1,"id":"w-2","seat":"S","button":"ready","at":1,"extra":true}',
         "拒绝了一条按键输入：不应有字段 `extra`", "rejected a button input: field `extra` does not belong in this message"),
        ("commands", b'{"v":1,"id":"w-3","command":"confirm"}',
         "拒绝了一条指令输入：缺少字段 `flag`", "rejected a command input: field `flag` is missing"),
        ("commands", b'{"v":1,"id":"w-4","command":"assign","players":{"S":"a","E":"a","N":"b","W":"c"},'
                     b'"rulebook":"classic-3deck"}',
         "拒绝了一条指令输入：选手“a”坐了两个座位（南、东）", "rejected a command input: 'a' is seated twice (S, E)"),
        ("observed", b'{"v":1,"id":"w-5","seat":"E","cards":["S9"],"confidence":"high","at":3}',
         "拒绝了一条摄像输入：字段 `confidence` 应为数，而不是 `\"high\"`",
         'rejected a camera input: field `confidence` should be a number, not "high"'),
    ]
    for name, raw, zh, en in cases:
        t.publish(name, raw)
        event = t.watch.wait("events", lambda e, i=peek_id(raw): e["kind"] == "rejected" and e["data"]["id"] == i)
        assert said_both_ways(event) == (zh, en)
        assert event["data"]["reason"] == str(pytest.raises(PayloadError, decode, name, raw).value)  # the logs' words
    after = t.send("board/in", MARKERS["board/in"])
    assert without(after, "seq", "at", "clocks") == without(before, "seq", "at", "clocks")
    assert len(list(t.service.log.entries())) == t.seq  # nothing refused was logged


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
KEYS = st.sampled_from(["v", "id", "seat", "cards", "confidence", "at", "button", "command", "flag", "players",
                        "rulebook", "x"])


@st.composite
def bad_payloads(draw, name: str) -> bytes:
    """Bytes that are not a valid ``name`` payload: noise, a random object, or a valid one broken."""
    how = draw(st.sampled_from(["bytes", "object", "set", "drop", "add"]))
    if how == "bytes":
        raw = draw(st.binary(max_size=24))
    elif how == "object":
        raw = json.dumps(draw(st.dictionaries(KEYS | st.text(max_size=5), JSON, max_size=6))).encode()
    else:
        payload = dict(draw(st.sampled_from(schema(name)["examples"])))
        key = draw(st.sampled_from(sorted(payload)))
        if how == "set":
            payload[key] = draw(JSON)
        elif how == "drop":
            del payload[key]
        else:
            payload[draw(KEYS)] = draw(JSON)
        raw = json.dumps(payload, ensure_ascii=False).encode()
    try:
        decode(name, raw)
    except PayloadError:
        return raw
    assume(False)


@pytest.fixture
def fuzzed(broker, tmp_path_factory, table_watch):
    """A table of its own for the generated payloads (made once: hypothesis runs the test's examples
    with the same fixture), closed before the next test connects as the console."""
    connect, close_all = connector(broker)
    t = Table(broker, connect, "s8", tmp_path_factory.mktemp("fuzz") / "s8.db", Clock(), table_watch("s8", wait_s=WAIT_S))
    t.start()
    yield t
    t.stop()
    close_all()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_malformed_payloads_change_nothing(fuzzed, data):
    name = data.draw(st.sampled_from(INPUTS))
    batch = data.draw(st.lists(bad_payloads(name), min_size=1, max_size=4))
    check_rejected(fuzzed, [(name, raw) for raw in batch])


def test_the_healths_rejected_counts_every_input_refused_the_rules_refusals_too_not_those_over_pace(table, until):
    """``health.rejected`` is "inputs rejected since the service started" (bus/PROTOCOL.md): every input answered with a
    ``rejected`` event. It counted only malformed payloads: the hall's audit, 400 ``ready`` presses in play, 110 logged
    and each refused (“准备”键在出牌阶段没有意义) and 291 over the board's pace, left it at the 6 malformed. Now a
    restarted service (from 0) counts the malformed, the presses and the console's command the rules refused; the
    presses over the pace are ``dropped`` only."""
    clock = Clock()
    t = table("s24", clock, "sanjiang-2012")
    t.guandan_lead()  # S on lead, in play
    t.stop()
    clock.now = t.at
    t.start(trust_senders=False)  # the board's pace kept
    assert t.watch.wait("health", lambda h: h["at"] == clock.now and h["rejected"] == 0 and h["dropped"] == {})
    malformed = [raw for name, raw in BAD if name == "board/in"]
    for raw in malformed:
        t.publish("board/in", raw)
    for i in range(150):  # over the burst of 100
        t.publish("board/in", encode("board/in", {"v": 1, "id": f"flood-{i}", "seat": "E", "button": "ready", "at": t.at}))
    t.publish("commands", encode("commands", {"v": 1, "id": "no-flag", "command": "confirm", "flag": "no-such-flag"}))
    t.watch.wait("events", lambda e: e["kind"] == "rejected" and e["data"]["id"] == "no-flag")
    t.watch.wait("health", lambda h: h["dropped"].get("board/in") and h["waiting"] == 0)
    clock.now += 2.0  # a health after the marker says so (the pace's tokens came back meanwhile, on the real clock)
    t.publish("board/in", encode("board/in", {"v": 1, "id": "marker", "seat": "S", "button": "referee", "at": t.at}))
    assert until(lambda: t.service.log.input("board/in marker") is not None)  # after the flood on its connection
    marker = t.watch.state(t.service.log.input("board/in marker").seq)
    logged = len([e for e in t.service.log.entries() if e.kind == "board/in" and e.payload["id"].startswith("flood-")])
    health = t.watch.wait("health", lambda h: h["at"] == clock.now and h["seq"] >= marker["seq"])
    assert 0 < logged < 150 and health["dropped"] == {"board/in": 150 - logged}
    refused = [e["data"] for e in t.watch.of("events") if e["kind"] == "rejected"]
    assert len([d for d in refused if d["why"]["key"] == "table.button_meaningless"]) == logged
    assert health["rejected"] == len(malformed) + logged + 1 == len(refused)  # + the command


# ---------------------------------------------------------------- the shot clock on the displays


def test_a_turn_gone_quiet_is_flagged_by_the_service_itself(table):
    """The demo's t05: the camera never read E's card, and no input came. The service must rule the ``stalled`` flag
    at its time by itself (a ``clock`` entry), so that the console shows it while the table waits (tests/table/
    test_stalled.py: the rule), not with the next input."""
    from referee.table.reducer import STALLED_S

    clock = Clock()
    t = table("s15", clock)
    t.start()
    t.play_to_first_lead()
    state = t.send("observed", {"seat": "S", "cards": ["DA"], "confidence": 0.98})
    stall = state["at"] + 10.0 + STALLED_S
    assert t.service.table.next_deadline(after=state["at"] + 10.0) == stall
    clock.now = stall + RULE_LAG_S + 0.25
    flagged = t.watch.wait("state", lambda p: p["flags"])
    assert [(f["kind"], f["seat"]) for f in flagged["flags"]] == [("stalled", "E")] and flagged["paused"]
    assert [e.kind for e in t.service.log.entries()][-1] == "clock"


def test_a_play_made_in_its_last_second_is_the_seats_though_the_camera_sends_it_after_the_deadline(table):
    """002 十二 第3条: 一副牌只允许有一次30秒的长考时间，其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次
    出牌权 -- S puts its lead down at 29.5 s of its 30; the camera sends it once the cards have lain still for its settle
    time, dated when they came to rest, and it reaches the service at 30.9 s. It is S's lead, in time. (With time ruling
    0.25 s after the deadline, S's turn was given up first and its play taken for one out of turn.)"""
    clock = Clock()
    t = table("s16", clock, "sanjiang-2012")
    start = t.guandan_lead()["at"]
    clock.now = start + 30.9  # the deadline passed on the service's clock: its worker looks at the time
    beat, end = t.service._beat, time.monotonic() + 10
    while t.service._beat <= beat + 0.5 and time.monotonic() < end:  # the worker came round its loop since
        time.sleep(0.02)
    led = t.send("observed", {"seat": "S", "cards": ["H3"], "confidence": 0.99}, at=start + 29.5)
    assert led["turn"] == "E" and led["current_trick"]["plays"] == [{"seat": "S", "cards": ["H3"]}]
    clock.now = start + 30.0 + RULE_LAG_S + 1.0
    assert t.service.table.next_deadline() == start + 29.5 + 30.0  # E's clock, from S's play
    assert not [v for v in t.watch.of("violations") if v["kind"] == "overtime"]


def test_a_clock_running_out_is_shown_at_its_deadline(table):
    clock = Clock()
    t = table("s13", clock)
    t.start()
    t.play_to_first_lead()
    state = t.send("observed", {"seat": "S", "cards": ["DA"], "confidence": 0.98})
    assert state["turn"] == "E" and state["clocks"]["E"]["left"] == 10.0
    deadline = t.service.table.next_deadline()
    assert deadline == state["at"] + 10.0
    shown = len(t.watch.of("state"))
    now = clock.now = deadline + RULE_LAG_S + 0.25  # the service's clock passes the deadline: the worker wakes within a second
    out = t.watch.wait("state", lambda p: len(t.watch.of("state")) > shown)
    assert out["seq"] == state["seq"] and out["at"] == now
    assert out["clocks"]["E"] == {"left": 0.0, "running": True}
    board = t.watch.wait("board/out", lambda p: p["at"] == now)
    assert board["seats"]["E"]["clock"] == 0.0 and board["seats"]["E"]["on_turn"]


def test_a_guandan_turn_given_up_by_the_clock_is_published_when_the_time_runs_out(table):
    """002 十二 第3条: 一副牌只允许有一次30秒的长考时间，其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次
    出牌权 -- S on lead and silent: when its 30 s run out, with no input at all, the service publishes the overrun and
    the lead passing to E, and the state shows E's turn and clock; 30 s later E's lead passes to N. A restart replays
    the ``clock`` entries it logged to the same state, and publishes no ruling twice."""
    clock = Clock()
    t = table("s18", clock, "sanjiang-2012")
    led = t.guandan_lead()
    assert (led["phase"], led["turn"], led["clocks"]["S"]) == ("playing", "S", {"left": 30.0, "running": True, "long_think": True})
    start = led["at"]
    assert t.service.table.next_deadline() == start + 30.0
    clock.now = start + 56.0  # no input for 56 s: the worker wakes within a second and time rules
    t.seq += 1
    after = t.watch.state(t.seq)
    assert (after["turn"], after["at"], after["clocks"]["E"]) == ("E", start + 56.0, {"left": 4.0, "running": True, "long_think": True})
    v = t.watch.wait("violations", lambda p: p["kind"] == "overtime")
    assert (v["seat"], v["penalty"]["forfeit"], v["evidence"]["action"], v["evidence"]["limit"], v["seq"]) == ("S", "turn", "lead", 30.0, t.seq)
    passed = t.watch.wait("events", lambda e: e["kind"] == "passed")
    assert (passed["data"]["seat"], passed["data"]["forfeit"], passed["at"]) == ("S", True, start + 56.0)
    board = t.watch.wait("board/out", lambda p: p["at"] == start + 56.0)
    assert board["seats"]["E"]["on_turn"] and board["seats"]["E"]["clock"] == 4.0 and board["seats"]["S"]["light"] == "red"
    clock.now = start + 60.0 + RULE_LAG_S + 0.25  # E's own 30 s, from S's deadline, run out too
    t.seq += 1
    assert t.watch.state(t.seq)["turn"] == "N"
    assert [(p["seat"], p["seq"]) for p in t.watch.of("violations")] == [("S", t.seq - 1), ("E", t.seq)]
    assert not [e for e in t.watch.of("events") if e["kind"] in ("foul_counted", "game_won")]
    kinds = [e.kind for e in t.service.log.entries()]
    assert kinds[-3:] == ["board/in", "clock", "clock"]
    shown = t.watch.of("state")[-1]
    t.stop()
    count, rulings = len(t.watch.of("state")), len(t.watch.of("violations"))
    t.start()
    again = t.watch.wait("state", lambda p: len(t.watch.of("state")) > count)
    assert without(again, "at") == without(shown, "at") and again["turn"] == "N"
    marker = t.send("board/in", {"seat": "S", "button": "referee"}, at=start + 61.0)
    assert marker["turn"] == "N" and len(t.watch.of("violations")) == rulings
    t.stop()
    lines = list(timeline(t.db, "zh"))  # ``cardtable table replay``: the clock's entries and what they ruled
    first = next(i for i, line in enumerate(lines) if "计时 时间到" in line)
    assert "南 王芳 超时，视作不出" in lines[first + 1] and "南 王芳 超时（已确认），第 1 盘：弃权（本次出牌）" in lines[first + 2]


def test_no_turn_is_given_up_by_the_clock_while_the_table_cannot_hear_its_seats(fresh_broker, tmp_path, table_watch, until):
    """002 十二 第3条: 一副牌只允许有一次30秒的长考时间，其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次
    出牌权 -- S leads with its 30 s; the broker goes away, S puts its cards down at 20 s (the camera keeps them until the
    broker is back) and the service's clock passes S's deadline meanwhile. Time rules nothing while the service cannot
    hear the table, nor for ``HEAR_AGAIN_S`` after it hears it again: S's play, made in time, is S's lead. (Before, the
    service gave S's turn up at 30.25 s while deaf, and S's play came as one out of turn: the soak's Guandan table, at
    each broker outage.) Then E is silent and its deadline passes in a second outage: E's turn is given up once the
    table is heard again, and N's clock starts at that ruling (nobody saw E's turn pass before), not at E's deadline."""
    clock = Clock()
    connect, close_all = connector(fresh_broker)
    t = Table(fresh_broker, connect, "t1", tmp_path / "t1.db", clock, table_watch("t1", wait_s=WAIT_S), "sanjiang-2012")

    def looked() -> bool:
        """The service's worker came round its loop (and looked at its sessions and deadlines) since now."""
        beat = t.service._beat
        return until(lambda: t.service._beat > beat) and until(lambda: t.service._beat > beat + 0.5)

    def deaf_until(now: float) -> None:
        """The broker away while the service's clock moves to ``now``; then back, the service hearing it."""
        fresh_broker.stop()
        assert until(lambda: not any(c.connected for c in t.service.intake))
        clock.now = now
        assert looked()
        fresh_broker.restart()
        assert until(lambda: all(c.connected for c in t.service.intake)) and looked()

    try:
        t.start()
        t.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": "sanjiang-2012"})
        t.send("commands", {"command": "start_round"})
        for seat in "SENW":
            t.send("board/in", {"seat": seat, "button": "ready"})
        led = t.send("board/in", {"seat": "S", "button": "ready"})  # S leads (七)
        start = led["at"]
        assert (led["turn"], t.service.table.next_deadline()) == ("S", start + 30.0)
        t.publish("observed", encode("observed", {"v": 1, "id": "cam-late", "seat": "S", "cards": ["H3"],
                                                  "confidence": 0.99, "at": start + 20.0}))  # kept by the camera's client
        deaf_until(start + 40.0)  # S's deadline passes on the service's clock, deaf
        t.seq += 1
        state = t.watch.state(t.seq)
        assert (state["turn"], state["current_trick"]) == ("E", {"leader": "S", "plays": [{"seat": "S", "cards": ["H3"]}]})
        assert [e.kind for e in t.service.log.entries()][-2:] == ["board/in", "observed"]  # no clock entry
        assert [v for v in t.watch.of("violations") if v["kind"] == "overtime"] == []
        deaf_until(start + 60.0)  # E's 30 s from S's play run out, deaf
        clock.now = start + 60.0 + HEAR_AGAIN_S + 0.5
        t.seq += 1
        after = t.watch.state(t.seq)
        assert after["turn"] == "N" and [(v["seat"], v["kind"]) for v in t.watch.of("violations")] == [("E", "overtime")]
        assert after["clocks"]["N"] == {"left": 30.0, "running": True, "long_think": True}
        assert [(e.kind, e.payload) for e in t.service.log.entries()][-1] == ("clock", {"v": 1, "held": True})
    finally:
        t.stop(settle=False)
        close_all()


def test_a_seat_that_never_arrives_is_ruled_on_when_its_minutes_pass(table):
    """001 二: 5分钟之内警告，违例一次；6－10分钟，首盘扣20分 … 21分钟以上判该轮弃权 -- W never presses ``ready``: the
    service rules W's side late as each minute passes, with no input, up to the round's forfeit at 21 minutes."""
    clock = Clock()
    t = table("s19", clock)
    t.start()
    t.send("commands", {"command": "start_round"})
    start = t.watch.of("state")[-1]["round"]["started_at"]
    for seat in "SEN":
        t.send("board/in", {"seat": seat, "button": "ready"}, at=start + 1.0)
    for minute, text in ((1, "warning"), (5, "points"), (20, "forfeit_round")):
        clock.now = start + 60 * minute + RULE_LAG_S + 0.25
        t.seq += 1
        state = t.watch.state(t.seq)
        v = t.watch.of("violations")[-1]
        assert (v["seat"], v["kind"], v["penalty"]["text"], v["seq"]) == ("W", "late_arrival", text, t.seq)
    assert state["phase"] == "round_over"
    assert [e["data"] for e in t.watch.of("events") if e["kind"] == "game_won"] == [{"team": "SN", "by": "late", "loser": "EW", "minutes": 20.03}]  # ruled RULE_LAG_S past the minute
    assert len({v["flag"] for v in t.watch.of("violations")}) == 1


def test_a_san_da_yi_seats_display_shows_its_count_only_at_ten_or_fewer(table):
    """004 三（一）3: 被询问者牌数在10张以内（含10张）必须准确回答；10张以外回答“不报” (``[deal] told_at = 10``). The
    seats' displays, which every player reads, showed every count (33, 25...) on ``board/out``. Now a count above
    10 goes as ``cards`` 255, which the board shows blank (bus/PROTOCOL.md ``board/out``), and 10 or fewer as is;
    ``state`` (the officials') keeps every count."""
    t = table("s21", rulebook="usst-2016")
    t.start()
    t.send("commands", {"command": "assign", "players": PLAYERS, "rulebook": "usst-2016"})
    t.send("commands", {"command": "start_round"})
    for seat in "SENW":
        t.send("board/in", {"seat": seat, "button": "ready"})
    for seat, button in zip("SENW", ("bid1", "pass", "pass", "pass")):
        t.send("board/in", {"seat": seat, "button": button})
    t.send("board/in", {"seat": "S", "button": "ready"})  # S deals and takes the kitty: 33 cards
    ranks = "A23456789TJQK"
    t.send("observed", {"seat": "S", "cards": [f"S{r}" for r in ranks] + ["HA"], "confidence": 0.99})  # 14顺
    for seat in "ENW":
        state = t.send("board/in", {"seat": seat, "button": "pass"})
    board = t.watch.wait("board/out", lambda p: p["at"] == state["at"])
    assert state["cards"] == {"S": 19, "E": 25, "N": 25, "W": 25}
    assert {s: d["cards"] for s, d in board["seats"].items()} == {"S": 255, "E": 255, "N": 255, "W": 255}
    state = t.send("observed", {"seat": "S", "cards": [f"D{r}" for r in ranks] + ["CA"], "confidence": 0.99})
    board = t.watch.wait("board/out", lambda p: p["at"] == state["at"])
    assert state["cards"]["S"] == 5
    assert {s: d["cards"] for s, d in board["seats"].items()} == {"S": 5, "E": 255, "N": 255, "W": 255}


@contextlib.contextmanager
def log_locked(t: Table):
    """Another program holds the write lock of ``t``'s log while the block runs (a full or read-only disk fails the
    service's writes the same way)."""
    holder = sqlite3.connect(t.db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_ruling_by_time_that_cannot_be_logged_is_said_and_made_once_the_log_works(table):
    """002 十二 第3条: 一副牌只允许有一次30秒的长考时间，其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次
    出牌权 -- S on lead and silent while another process holds the log's write lock (a full or read-only disk fails the
    same way) as S's 30 s run out: the ``clock`` entry giving S's turn up could not be logged. Before, the deadline was
    taken as handled all the same: S's turn was never given up, the table waited on S for ever, and its health said no
    problem. Now the health says the log fails while it does, and once it works again (its bookkeeping written: no input
    waits) and ``HEAR_AGAIN_S`` more pass, as after the table could not be heard, the turn is given up (held: ruled
    late)."""
    clock = Clock()
    t = table("s22", clock, "sanjiang-2012")
    start = t.guandan_lead()["at"]
    with log_locked(t):
        clock.now = start + 40.0
        health = t.watch.wait("health", lambda h: "database is locked" in (h["problem"] or ""))
        assert health["problem"].startswith("logging inputs fails")
    clock.now += 0.5
    assert t.watch.wait("health", lambda h: h["at"] == clock.now and h["problem"] is None)
    assert [e.kind for e in t.service.log.entries()][-1] == "board/in"  # not ruled yet
    clock.now += HEAR_AGAIN_S
    t.seq += 1
    after = t.watch.state(t.seq)
    assert after["turn"] == "E" and [(v["seat"], v["kind"]) for v in t.watch.of("violations")] == [("S", "overtime")]
    assert after["clocks"]["E"] == {"left": 30.0, "running": True, "long_think": True}  # from the ruling, seen
    assert [(e.kind, e.payload) for e in t.service.log.entries()][-1] == ("clock", {"v": 1, "held": True})


def test_a_play_made_in_time_while_the_log_is_locked_is_the_seats_not_a_turn_given_up(table):
    """002 十二 第3条: … 其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次出牌权 -- S leads with its 30 s;
    another program locks the table's log (``BEGIN EXCLUSIVE``) and S puts its cards down at 20 s: the play reaches the
    service, which cannot log it (nor acknowledge it), and S's deadline passes on the service's clock meanwhile. Time
    rules nothing while inputs cannot be logged: once the lock goes S's play is logged and is S's lead, in time. (Before,
    the worker tried the ``clock`` entry between tries of the waiting play, and whichever waited on the lock when it
    went was logged first: S's turn given up, held, and S's play taken for one out of turn; the hall's audit, a 40 s lock:
    超时（已确认）…弃权（本次出牌）；用时 44.8 秒.) A deadline that passes while the log is locked with no input waiting:
    test_a_ruling_by_time_that_cannot_be_logged_is_said_and_made_once_the_log_works."""
    clock = Clock()
    t = table("s23", clock, "sanjiang-2012")
    start = t.guandan_lead()["at"]
    with log_locked(t):
        t.publish("observed", encode("observed", {"v": 1, "id": "cam-locked", "seat": "S", "cards": ["H3"],
                                                  "confidence": 0.99, "at": start + 20.0}))
        clock.now = start + 40.0  # S's deadline passes, the play waiting on the lock
        t.watch.wait("health", lambda h: "database is locked" in (h["problem"] or "") and h["at"] == clock.now)
        # Tries of the log go on, each waiting up to 5 s for the lock: the batch holding the play, and (before) between
        # two of them the clock entry, whichever waited when the lock went being logged.
        time.sleep(7.5)
    t.seq += 1
    state = t.watch.state(t.seq)
    assert (state["turn"], state["current_trick"]) == ("E", {"leader": "S", "plays": [{"seat": "S", "cards": ["H3"]}]})
    assert [e.kind for e in t.service.log.entries()][-2:] == ["board/in", "observed"]  # no clock entry
    assert [v for v in t.watch.of("violations") if v["kind"] == "overtime"] == []
    assert t.watch.wait("health", lambda h: h["at"] >= clock.now and h["problem"] is None)


def test_a_restarted_table_service_asks_the_same_about_a_wildcard_follow_and_takes_the_answer(table):
    """002 二 (x4567，相当于34567（或45678须出牌时说明）) and 七①: the real service, stopped while N's play waits on the
    reading of E's wildcard follow and started again, rebuilt from its log publishes the same state (the same flag, its
    choices), and the referee's answer then is taken as before (tests/table/test_guandan_wild_reading.py)."""
    t = table("s25", rulebook="sanjiang-2012")
    t.guandan_lead()
    for seat, cards in (("S", WILD_PLAIN), ("E", WILD_FOLLOW), ("N", WILD_NEXT)):
        before = t.send("observed", {"seat": seat, "cards": cards, "confidence": 0.99})
    (flag,) = before["flags"]
    assert flag["kind"] == "play_reading" and len(flag["choices"]) == 2
    t.stop()
    count = len(t.watch.of("state"))
    t.start()
    assert t.watch.wait("state", lambda p: len(t.watch.of("state")) > count) == before
    after = t.send("commands", {"command": "dismiss", "flag": flag["flag"], "reading": 2})  # E said 56789
    assert after["flags"][0]["why"]["key"] == "guandan.does_not_beat" and t.service.table.hand.table.seat == "E"
