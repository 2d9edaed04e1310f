"""``cardtable table run`` killed with SIGKILL at the moments of this session's mechanisms and started again: the same
table (flags and their ids, clocks paused or running, turn), nothing asked twice, the events published again the same
(same seq and payload: at least once), and the next input judged as by a table never killed (the whole log replayed
in one go). Each moment is driven through the test drivers, whose inputs are then sent to the real process."""

import time
import uuid

import pytest
from climbing_kit import GD, SDY, Table_
from test_guandan_taken_back import _misreport, _plays_out
from test_sandayi_flow import bids
from test_tractor_table import Driver

from bus.protocol import encode, topic
from referee.table.amend import as_amended
from referee.table.answer import answered
from referee.table.deadlines import IDLE_WAKE_S
from referee.table.health import HEAR_AGAIN_S
from referee.table.log import EventLog
from referee.table.tables import new_table

TABLES = [f"m{i}" for i in range(1, 6)]
WAIT_S = 30.0
AGO_S = 500.0  # the draw began this long before the restart that lets the service's clock rule it (case idle)
# ``cardtable table run`` on a computer whose clock is ``offset`` seconds off (the service's SteadyClock starts there).
LAUNCH = "import sys, time; w = time.time; time.time = lambda: w() + {}; from cardtable.cli import main; sys.exit(main())"


def _idle(t0):
    """001 六: 庄家示意摸牌结束 -- a draw nobody ends is watched: the service's clock raises ``idle``
    (tractor.DRAW_S_PER_CARD, decided), a ``clock`` entry of its own after its restart 500 s on; S's declaration then
    answers it."""
    d = Driver("classic-3deck", at=t0 - AGO_S)
    d.start()
    d.send("clock", {"held": True}, dt=AGO_S)
    d.send("observed", {"seat": "S", "cards": ["H" + d.table.game.hand_level()], "confidence": 0.99}, dt=40.0)
    return d


def _exposed(t0):
    """001 二十: 在抓牌和打牌过程中，过早地暴露牌张……一次扣罚20分 -- W's S9 in the draw declares nothing: flagged,
    confirmed."""
    d = Driver("classic-3deck", at=t0)
    d.start()
    d.send("observed", {"seat": "W", "cards": ["S9"], "confidence": 0.99})
    d.send("commands", {"command": "confirm", "flag": d.table.flags[0].flag})
    return d


def _reopened(t0):
    """002 九 3: 如报错牌张或故意隐瞒，则已出完的牌必须收回重出 -- S's last play taken back (hand_reopened), played
    again."""
    d = Table_(GD, at=t0)
    d.start()
    d.press("S", "ready")
    _plays_out(d, "S")
    _misreport(d, "S")
    d.show("S", ["S6", "H6", "C6"])
    return d


def _game_ended(t0):
    """004 三: 同一副牌内，任何一名选手被记过2次及以上犯规，作输者处理 -- E's second foul ends the game with S's unsure
    lead flagged and E's read waiting: both go with it; E bids first in game 2 (一 5)."""
    d = Table_(SDY, at=t0)
    d.start()
    bids(d, "bid1", "pass", "pass", "pass")
    d.press("S", "ready")
    d.send("commands", {"command": "foul", "seat": "E", "kind": "talking"})
    d.show("S", ["S3"], confidence=0.5)
    d.show("E", ["S5"])
    d.send("commands", {"command": "foul", "seat": "E", "kind": "peeking"})
    bids(d, "bid3")
    return d


def _pass_waits(t0):
    """004 三（二）2: 轮到自己出牌时不要时，只能敲一下台子 -- E knocks while S's unsure lead waits for a person: the pass
    waits (pass_waits) and is played after the confirmed lead."""
    d = Table_(SDY, at=t0)
    d.start()
    bids(d, "bid1", "pass", "pass", "pass")
    d.press("S", "ready")
    d.show("S", ["S3"], confidence=0.5)
    d.press("E", "pass")
    d.send("commands", {"command": "confirm", "flag": d.table.flags[0].flag})
    return d


# (driver, the event the entry before the last tells: the moment the service is killed)
CASES = {"idle": (_idle, "flag_raised"), "exposed": (_exposed, "flag_raised"), "reopened": (_reopened, "hand_reopened"),
         "game_ended": (_game_ended, "flag_resolved"), "pass_waits": (_pass_waits, "pass_waits")}


def _judged(db, table, rulebook, seqs):
    """The log replayed in one go, never killed: the state after each of ``seqs``, and the last entry's outputs."""
    with EventLog.open(db) as log:
        rows = [(e.kind, e.payload, e.at, e.seq) for e in log.entries()]
    assert rows[-1][3] == seqs[-1]  # nothing logged after the next input (a clock entry of the restarted service's own)
    t, states, out = new_table(table, rulebook), {}, []
    for kind, payload, at, seq in as_amended(rows):
        t, out = t.apply(kind, payload, at, seq)
        out = answered(kind, payload, seq, t.at, out)  # a console command's answer, as the service gives it
        states[seq] = t.state(at)
    return [states[s] for s in seqs], {name: [o.payload for o in out if o.name == name] for name in ("events", "violations")}


@pytest.mark.parametrize("case", CASES)
def test_killed_at_the_moment_the_restarted_service_is_the_same_and_judges_the_next_input_the_same(
        case, broker, connect, tmp_path, table_watch, service_process):
    table, (drive, moment) = TABLES[list(CASES).index(case)], CASES[case]
    d = drive(time.time())
    *inputs, (next_name, next_payload, _, _) = d.log
    db = tmp_path / f"{table}.db"
    watch = table_watch(table, broker, WAIT_S)
    service = service_process(broker, table, d.table.rulebook, db, tmp_path / "service.log", WAIT_S, trust_senders=True)
    conns = {"commands": connect("console"), "observed": connect(f"camera-{table}"), "board/in": connect(f"board-{table}")}

    def start(offset=0.0):
        service.args[1:3] = ["-c", LAUNCH.format(offset)]
        count = len(watch.of("state"))
        service.start()
        return watch.wait("state", lambda s: len(watch.of("state")) > count)

    def send(name, payload, seq):
        if name == "clock":  # the service's own: started again with its clock where the driver's entry is
            watch.stopped(service.stop)
            start()
        else:
            conns[name].publish(topic(table, name), encode(name, payload | {"id": f"x-{uuid.uuid4().hex[:10]}"}))
        return watch.state(seq)

    try:
        start(min(0.0, inputs[0][2] - time.time()))
        for name, payload, _, seq in inputs:
            before = send(name, payload, seq)
        service.kill()  # at once: its outputs may not be noted as acknowledged (published again)
        told = {name: watch.of(name) for name in ("events", "violations")}
        assert moment in [e["kind"] for e in told["events"] if e["seq"] == before["seq"]]
        after = start()
        assert after == before  # flags and their ids, paused or running clocks, turn: to the second
        if case == "idle":  # time rules again from the log's clock entry: the draw is not asked about twice
            time.sleep(HEAR_AGAIN_S + 2 * IDLE_WAKE_S)
        for name in told:  # whatever is published again is what was told, same seq and payload
            assert all(e in told[name] for e in watch.of(name)[len(told[name]):])
        done = send(next_name, next_payload, before["seq"] + 1)
        watch.stopped(service.stop)
        (was, now), judged = _judged(db, table, d.table.rulebook, [before["seq"], done["seq"]])
        assert was == before and next(s for s in watch.of("state") if s["seq"] == done["seq"]) == now
        for name, expected in judged.items():
            assert [e for e in watch.of(name) if e["seq"] == done["seq"]] == expected
        # as the driver judged it (its own times): the scenario reached the judgement its unit test proves
        driven = [o.payload["kind"] for o in d.outputs if o.name == "events" and o.payload["seq"] == d.seq]
        assert [e["kind"] for e in judged["events"] if e["kind"] != "applied"] == driven  # (the service's answer aside)
    finally:
        service.reap()
        watch.close()
