"""Benchmark of the table service: plays per second through one service with persistence,
and the latency from ``observed`` published to the matching ``state`` received.

Run from the repository root:  .venv/bin/python bench/bench_table.py  [--hands N] [--rounds N]
[--latency-hands N] [--seed S] [--pings N] [--stages N] [--switch-ms MS] [--profile]

Everything is real: a mosquitto from ``bus.broker.Broker`` on a free loopback port (the
hall's ACL for table ``bench``, plus a ``feeder`` user that writes the three inputs on one
connection, and a ``watcher`` that reads the state), the real ``TableService`` in this process with
its SQLite log (WAL, synchronous=FULL) in a temp dir, and real MQTT clients (``bus.mqtt.Connection``, QoS 1)
in a child process, as the camera, the board and the scoreboard are other processes in the hall
(in this one they would share the service's GIL). This process sets Python's thread switch
interval as ``cardtable table run`` does (``service.SWITCH_INTERVAL_S``, when there is one).

The inputs are real Tractor hands (``classic-3deck``): the bots of ``referee/tractor/bots.py`` deal
and play every hand, a pure ``tractor.TractorTable`` is driven alongside to know whose turn it is (as
tests/table/test_tractor_table.py's Driver does: assign, start_round, four readies, a declaration, the
draw ended, the dealer takes the kitty, the plays, the kitty turned up). The service's clock is
frozen before the first input's time, so commands are stamped exactly as the pure table was, no
shot-clock refresh fires, and the last published state must equal the pure table's last state.

1. Throughput: ``--hands`` hands in ``--rounds`` rounds; each round's inputs (the plays, and the
   three inputs before each hand's first play) are published as fast as the client can, in runs:
   the service takes each sender's inputs on a session of its own (``protocol.INTAKE``), and
   nothing orders two sessions' inputs but time, so each run of one session's inputs is applied
   before the next run (another session's) is published. The camera's runs (every play, each
   hand's declaration and kitty) are timed, from the first publish to the ``state`` with the run's
   last seq; the board's two presses a hand are not. Their rate, median over the rounds.
   Target: 1,000 plays/s.
2. Latency: ``--latency-hands`` more hands one input at a time: from publishing each ``observed``
   to receiving the ``state`` with its seq. Median and p99; target: p99 under 20 ms.

Baselines, in the same run: the pure ``TractorTable.apply`` + ``state()`` per input (no MQTT, no log), and
a bare MQTT round trip (QoS 1, publish -> receive through the same broker by the same client
process, one at a time and as a stream). A last table shows where an input's time goes, stage by
stage, without the broker. ``--profile`` adds cProfile of the service's worker in the
throughput run (which then runs slower). Exits 1 on FAIL.
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import io
import json
import multiprocessing
import os
import pstats
import random
import re
import secrets
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bus.broker import Broker, table_acl
from bus.mqtt import Connection
from bus.protocol import INTAKE, decode, encode, topic
from referee.seats import SEATS, next_seat
from referee.table import service as service_module
from referee.table.log import EventLog
from referee.table.service import TableService
from referee.table.tables import new_table
from referee.tractor.bots import deal, legal_follow, random_lead
from referee.tractor.trumps import Trumps

TABLE = "bench"
RULEBOOK = "classic-3deck"
T0 = 1_767_261_600.0  # the frozen service clock; every input's time is after it
PLAY_S = 1.0  # between two plays: well inside the shot clock, and 15 hands end before the round clock's notice
TARGET_RATE = 1000.0  # plays per second: the target
TARGET_P99_MS = 20.0  # observed -> state, p99: the target
WAIT_S = 30.0  # the longest the bench waits for one state
PING = "bench/ping"
PLAYERS = {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"}
SEQ = re.compile(rb'"seq":(\d+)')
SESSION = {topic(TABLE, n): suffix for suffix, names in INTAKE.items() for n in names}


# ---------------------------------------------------------------- the inputs: real hands, driven purely


@dataclass
class Script:
    """Inputs ``(name, payload)`` in log order (seq = index + 1) and the pure table after each part."""

    setup: list = field(default_factory=list)
    hands: list = field(default_factory=list)  # one list of inputs per hand
    table: Table | None = None  # after every input
    at: float = 0.0  # the latest input time (what the service stamps a command with)


class Maker:
    """Drives a pure ``TractorTable`` with the bots, as the camera, the board and the console would."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.table = new_table(TABLE, RULEBOOK)
        self.at = T0
        self.n = 0
        self.out: list = []

    def send(self, name: str, payload: dict, dt: float = PLAY_S) -> None:
        self.n += 1
        payload = {"v": 1, "id": f"{name.replace('/', '-')}-{self.n}", **payload}
        if name == "commands":  # no time of its own: the service stamps it with the latest logged time
            at = self.at
        else:
            self.at += dt
            at = payload["at"] = round(self.at, 3)
        payload = decode(name, encode(name, payload))  # exactly what the service reads
        self.table, _ = self.table.apply(name, payload, at, self.n)
        self.out.append((name, payload))

    def setup(self) -> list:
        self.out = []
        self.send("commands", {"command": "assign", "rulebook": RULEBOOK, "players": PLAYERS})
        self.to_dealing()
        return self.out

    def to_dealing(self) -> None:
        for _ in range(3):
            if self.table.phase in ("idle", "round_over"):
                self.send("commands", {"command": "start_round"})
            if self.table.phase == "arriving":
                for seat in SEATS:
                    self.send("board/in", {"seat": seat, "button": "ready"})
            if self.table.phase == "dealing":
                return
        raise RuntimeError(f"the table does not deal (phase {self.table.phase})")

    def hand(self) -> list:
        """One whole hand: a declaration, the draw ended, the kitty taken, every play, the kitty shown."""
        self.out = []
        self.to_dealing()
        t = self.table
        level = t.game.hand_level()
        suit = self.rng.choice("SHDC")
        self.send("observed", {"seat": "S", "cards": [suit + level], "confidence": 0.99})
        self.send("board/in", {"seat": "E", "button": "declare"})
        self.send("board/in", {"seat": self.table._dealer_to_be() or "S", "button": "ready"}, dt=6.0)
        t = self.table
        if t.phase != "kitty" or t.trump is None:
            raise RuntimeError(f"the kitty was not taken: phase {t.phase}, trump {t.trump}")
        trumps = Trumps(t.rules, t.game.hand_level(), t.trump)
        hands, kitty = deal(t.rules.deal.decks, t.rules.deal.kitty, self.rng)
        while any(hands.values()):
            leader = self.table.turn()
            lead = random_lead(trumps, hands[leader], self.rng)
            self.play(leader, lead, hands)
            seat, before = next_seat(leader), []
            for _ in range(3):
                cards = legal_follow(trumps, hands[seat], lead, self.rng, before)
                self.play(seat, cards, hands)
                before.append(cards)
                seat = next_seat(seat)
        self.send("observed", {"seat": self.table.dealer, "cards": kitty.names(), "confidence": 0.99})
        if self.table.phase not in ("dealing", "round_over"):
            raise RuntimeError(f"the hand did not end: phase {self.table.phase}")
        return self.out

    def play(self, seat, cards, hands) -> None:
        self.send("observed", {"seat": seat, "cards": cards.names(), "confidence": 0.99})
        hands[seat] = hands[seat] - cards


def make_script(hands: int, seed: int) -> Script:
    m = Maker(seed)
    s = Script(setup=m.setup())
    s.hands = [m.hand() for _ in range(hands)]
    s.table, s.at = m.table, m.at
    return s


# ---------------------------------------------------------------- baselines without the service


def time_pure(script: Script, first: int, last: int) -> list[float]:
    """ms per input for ``TractorTable.apply`` + ``state()``, over hands ``first:last`` (replayed up to them)."""
    t, seq, at = new_table(TABLE, RULEBOOK), 0, T0
    times = []
    for h, inputs in enumerate([script.setup] + script.hands[:last]):
        for name, payload in inputs:
            seq += 1
            at = max(at, payload.get("at", at))
            a = time.perf_counter()
            t, _ = t.apply(name, payload, at, seq)
            t.state(at)
            if h > first:
                times.append((time.perf_counter() - a) * 1000)
    return times


def time_stages(script: Script, count: int, workdir: Path) -> list[tuple[str, list[float]]]:
    """ms per input and stage, for the first ``count`` inputs of the first hand (after the setup)."""
    t, seq, at = new_table(TABLE, RULEBOOK), 0, T0
    for name, payload in script.setup:
        seq += 1
        t, _ = t.apply(name, payload, at, seq)
    fast = "validate" in inspect.signature(encode).parameters
    stages: dict[str, list[float]] = {k: [] for k in (
        "decode (input, validated)", "log append (commit, fsync)", "TractorTable.apply", "state() + board()",
        "encode outputs (validated)", "encode outputs (validate=False)")}
    with EventLog.open(workdir / "stages.db") as log:
        for name, payload in [x for hand in script.hands for x in hand][:count]:
            seq += 1
            at = max(at, payload.get("at", at))
            raw = encode(name, payload)
            a = time.perf_counter()
            decode(name, raw)
            b = time.perf_counter()
            log.append(name, payload, at, input_id=f"{name} {payload['id']}")
            c = time.perf_counter()
            t, outputs = t.apply(name, payload, at, seq)
            d = time.perf_counter()
            snapshots = [("state", t.state(at)), ("board/out", t.board(at))]
            e = time.perf_counter()
            everything = [(o.name, o.payload) for o in outputs] + snapshots
            for n, p in everything:
                encode(n, p)
            f = time.perf_counter()
            if fast:
                for n, p in everything:
                    encode(n, p, validate=False)
            g = time.perf_counter()
            for key, (x, y) in zip(stages, [(a, b), (b, c), (c, d), (d, e), (e, f), (f, g)]):
                stages[key].append((y - x) * 1000)
    if not fast:
        stages["encode outputs (validate=False)"] = []
    return list(stages.items())


# ---------------------------------------------------------------- the broker and the clients


class Clock:
    def __init__(self, now: float):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Watch:
    """The ``state`` subscriber: the newest seq, when the wanted one came, and waits for a seq."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.seq = -1
        self.raw = b""
        self.states = 0
        self.want = -1
        self.got_at = 0.0

    def __call__(self, _topic: str, raw: bytes) -> None:
        now = time.perf_counter()
        m = SEQ.search(raw)
        seq = int(m.group(1)) if m else json.loads(raw)["seq"]
        with self.cond:
            self.states += 1
            if seq >= self.seq:
                self.seq, self.raw = seq, raw
            if seq == self.want:
                self.got_at = now
            self.cond.notify_all()

    def wait(self, seq: int, timeout: float = WAIT_S) -> None:
        with self.cond:
            if not self.cond.wait_for(lambda: self.seq >= seq, timeout):
                raise RuntimeError(f"no state with seq {seq} within {timeout} s (last seq {self.seq})")


class Ping:
    """The bare MQTT round trip: the receiver notes when each numbered message arrives."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.at: dict[int, float] = {}

    def __call__(self, _topic: str, raw: bytes) -> None:
        now = time.perf_counter()
        with self.cond:
            self.at[int(raw)] = now
            self.cond.notify_all()

    def wait(self, n: int, timeout: float = WAIT_S) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: n in self.at, timeout):
                raise RuntimeError(f"ping {n} did not come back within {timeout} s")
            return self.at[n]


def start_broker(workdir: Path) -> Broker:
    """The hall's ACL for the table, plus ``feeder`` (writes its three inputs, on one connection:
    in order) and ``watcher`` (reads its state); both use the ping topic."""
    users, acl = table_acl([TABLE])
    users["feeder"] = secrets.token_urlsafe(18)
    users["watcher"] = secrets.token_urlsafe(18)
    acl += "\n".join([
        "", "user feeder", *(f"topic write {topic(TABLE, n)}" for n in ("observed", "board/in", "commands")),
        f"topic write {PING}", "", "user watcher", f"topic read {topic(TABLE, 'state')}", f"topic read {PING}", "",
    ])
    return Broker.start(workdir, users, acl)


def connect(url: str, user: str) -> Connection:
    return Connection(url, f"{user}-{secrets.token_hex(4)}", clean_start=True).connect()


def time_pings(feeder: Connection, ping: Ping, n: int) -> tuple[list[float], float]:
    """(ms per round trip one at a time, messages per second as a stream)."""
    times = []
    for i in range(n):
        a = time.perf_counter()
        feeder.publish(PING, str(i).encode(), qos=1)
        times.append((ping.wait(i) - a) * 1000)
    a = time.perf_counter()
    stream = range(n, n + 4 * n)
    for i in stream:
        feeder.publish(PING, str(i).encode(), qos=1)
    ping.wait(stream[-1])
    return times, len(stream) / (time.perf_counter() - a)


def sessions(inputs: list) -> list[list]:
    """``inputs`` cut where the next one goes to another of the service's sessions
    (``protocol.INTAKE``: one per sender), whose order against this one nobody keeps."""
    runs: list[list] = []
    for item in inputs:
        if runs and SESSION[runs[-1][-1][0]] == SESSION[item[0]]:
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def clients(pipe, feeder_url: str, watcher_url: str, pings: int, setup: list, stream: list, one_by_one: list) -> None:
    """The camera, board and console (``feeder``) and the scoreboard (``watcher``), in a process of
    their own as in the hall. Inputs are ``(topic, bytes, observed?)``, ``stream`` a list of rounds
    of them; the results go back on ``pipe``."""
    try:
        feeder, watcher = connect(feeder_url, "feeder"), connect(watcher_url, "watcher")
        watch, ping = Watch(), Ping()
        watcher.subscribe(topic(TABLE, "state"), watch)
        watcher.subscribe(PING, ping)
        if not watcher.wait_subscribed(WAIT_S):
            raise RuntimeError("the watcher's subscriptions were not acknowledged")
        out: dict = {}
        out["pings"], out["ping_rate"] = time_pings(feeder, ping, pings)
        watch.wait(0)
        seq = watch.seq
        for full, raw, _ in setup:  # one at a time: the table is dealing after it
            feeder.publish(full, raw, qos=1)
            seq += 1
            watch.wait(seq)

        pipe.send(("stream", None))  # 1. throughput: each round's inputs at once, then its last state
        states = watch.states
        out["rounds"] = []
        for inputs in stream:
            streamed, sent, took = 0, 0.0, 0.0
            for run in sessions(inputs):  # a run reaches the service on one session, in order
                b = time.perf_counter()
                for full, raw, _ in run:
                    feeder.publish(full, raw, qos=1)
                sent = max(sent, time.perf_counter() - b)
                seq += len(run)
                watch.wait(seq, timeout=WAIT_S + len(run) * 0.05)  # before another session's run
                if SESSION[run[0][0]] == "-camera":  # the plays (and the declarations, the kitty) are timed
                    streamed, took = streamed + len(run), took + time.perf_counter() - b
            out["rounds"].append((streamed, sent, took))
        out["states"] = watch.states - states
        pipe.send(("streamed", None))

        latencies = []  # 2. latency: one input at a time, every observed timed
        for full, raw, observed in one_by_one:
            seq += 1
            with watch.cond:
                watch.want = seq
            a = time.perf_counter()
            feeder.publish(full, raw, qos=1)
            watch.wait(seq)
            if observed:
                latencies.append((watch.got_at - a) * 1000)
        out["latencies"], out["final"] = latencies, watch.raw
        for conn in (feeder, watcher):
            conn.close(flush_timeout=1.0)
        pipe.send(("done", out))
    except BaseException as exc:  # noqa: BLE001 - reported by the parent
        pipe.send(("failed", repr(exc)))


# ---------------------------------------------------------------- profiling the service's threads


class Profiles:
    """cProfile of the service's worker (``_log_batch``: decode and log; ``_handle`` and
    ``_publish_snapshots``: apply, encode, publish); paho's network thread only queues what it hears."""

    def __init__(self) -> None:
        self.by_thread: dict[str, cProfile.Profile] = {}
        self.on = False

    def wrap(self, service: TableService) -> None:
        for attr in ("_log_batch", "_handle", "_publish_snapshots"):
            setattr(service, attr, self._profiled(getattr(service, attr)))

    def _profiled(self, fn):
        def wrapper(*args, **kwargs):
            if not self.on:
                return fn(*args, **kwargs)
            name = "worker" if threading.current_thread().name.startswith("table-") else "network thread"
            p = self.by_thread.setdefault(name, cProfile.Profile())
            p.enable()
            try:
                return fn(*args, **kwargs)
            finally:
                p.disable()
        return wrapper

    def report(self, top: int = 16) -> str:
        out = io.StringIO()
        for what, p in self.by_thread.items():
            out.write(f"\n--- cProfile of the service's {what} during the throughput run (by own time)\n")
            stats = pstats.Stats(p, stream=out)
            stats.sort_stats("tottime").print_stats(top)
            out.write("--- the same, by cumulative time\n")
            stats.sort_stats("cumulative").print_stats(top)
        return out.getvalue()


# ---------------------------------------------------------------- the run


def median_p99(xs: list[float]) -> tuple[float, float]:
    s = sorted(xs)
    return statistics.median(s), s[min(len(s) - 1, round(0.99 * (len(s) - 1)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--hands", type=int, default=12, help="hands streamed for the throughput")
    ap.add_argument("--rounds", type=int, default=3, help="the streamed hands in this many rounds (median rate)")
    ap.add_argument("--latency-hands", type=int, default=3, help="hands sent one input at a time")
    ap.add_argument("--pings", type=int, default=500, help="bare MQTT round trips (and 4x as many streamed)")
    ap.add_argument("--stages", type=int, default=300, help="inputs timed stage by stage")
    ap.add_argument("--profile", action="store_true", help="cProfile the service's worker in the throughput run"
                    " (slows it: its rate is then not comparable)")
    ap.add_argument("--switch-ms", type=float, default=None, help="Python's thread switch interval in this"
                    " process (default: service.SWITCH_INTERVAL_S, as `cardtable table run` sets it)")
    args = ap.parse_args()
    switch_s = args.switch_ms / 1000 if args.switch_ms else getattr(service_module, "SWITCH_INTERVAL_S", None)
    if switch_s:
        sys.setswitchinterval(switch_s)
    began = time.perf_counter()

    script = make_script(args.hands + args.latency_hands, args.seed)
    stream = [x for hand in script.hands[: args.hands] for x in hand]
    per_round = -(-args.hands // max(1, args.rounds))
    rounds = [[x for hand in script.hands[i : min(i + per_round, args.hands)] for x in hand]
              for i in range(0, args.hands, per_round)]
    one_by_one = [x for hand in script.hands[args.hands :] for x in hand]
    first_seq = len(script.setup) + 1
    made_s = time.perf_counter() - began

    pure = time_pure(script, 0, args.hands)

    def wire(inputs: list) -> list:
        return [(topic(TABLE, n), encode(n, p), n == "observed") for n, p in inputs]

    with tempfile.TemporaryDirectory(prefix="bench-table-") as tmp:
        tmp = Path(tmp)
        stages = time_stages(script, args.stages, tmp)
        broker = start_broker(tmp / "broker")
        service = child = None
        profiles = Profiles()
        try:
            # The inputs run on the bots' virtual time, faster than any hall: their times are believed
            # and no sender's pace is limited (the service's own checks cost the same either way).
            service = TableService(TABLE, RULEBOOK, broker.url(f"table-{TABLE}"), tmp / "table.db", clock=Clock(T0),
                                   trust_senders=True)
            if args.profile:
                profiles.wrap(service)
            service.start()
            ctx = multiprocessing.get_context("spawn")
            pipe, child_end = ctx.Pipe()
            child = ctx.Process(target=clients, name="bench-clients", args=(
                child_end, broker.url("feeder"), broker.url("watcher"), args.pings,
                wire(script.setup), [wire(r) for r in rounds], wire(one_by_one)))
            child.start()
            published = 0
            while True:
                if not pipe.poll(WAIT_S + len(stream) * 0.05):
                    raise RuntimeError("the clients' process went quiet")
                what, out = pipe.recv()
                if what == "stream":
                    profiles.on = args.profile
                    published = service.published
                elif what == "streamed":
                    profiles.on = False
                    published = service.published - published
                elif what == "failed":
                    raise RuntimeError(f"the clients failed: {out}")
                else:
                    break
            child.join(10)
        finally:
            if child is not None and child.is_alive():
                child.kill()
            if service is not None:
                service.stop()
            broker.stop()
    pings, ping_rate, done = out["pings"], out["ping_rate"], out["rounds"]
    rates = [n / through for n, _, through in done]
    states_seen, latencies = out["states"], out["latencies"]
    same = json.loads(out["final"]) == json.loads(json.dumps(script.table.state(script.at)))

    pure_med, pure_p99 = median_p99(pure)
    pure_rate = len(pure) / (sum(pure) / 1000)
    ping_med, ping_p99 = median_p99(pings)
    rate = statistics.median(rates)
    lat_med, lat_p99 = median_p99(latencies)
    plays = sum(1 for n, p in stream if n == "observed")
    rate_ok, lat_ok = rate >= TARGET_RATE, lat_p99 < TARGET_P99_MS
    ok = rate_ok and lat_ok and same

    header = f"{'what':<44} {'n':>6} {'per s':>8} {'median ms':>10} {'p99 ms':>8} {'target':>14}  result"
    rows = [
        f"{'baseline: TractorTable.apply + state()':<44} {len(pure):>6} {pure_rate:>8.0f} {pure_med:>10.2f} {pure_p99:>8.2f} {'':>14}  -",
        f"{'baseline: MQTT round trip, one at a time':<44} {len(pings):>6} {1000 / statistics.mean(pings):>8.0f} {ping_med:>10.2f} {ping_p99:>8.2f} {'':>14}  -",
        f"{'baseline: MQTT stream (publish -> receive)':<44} {4 * args.pings:>6} {ping_rate:>8.0f} {'':>10} {'':>8} {'':>14}  -",
        f"{'service: plays streamed (throughput)':<44} {sum(n for n, _, _ in done):>6} {rate:>8.0f} {'':>10} {'':>8} {'>= 1000/s':>14}  {'PASS' if rate_ok else 'FAIL'}",
        f"{'service: observed -> state, one at a time':<44} {len(latencies):>6} {1000 / statistics.mean(latencies):>8.0f} {lat_med:>10.2f} {lat_p99:>8.2f} {'p99 < 20 ms':>14}  {'PASS' if lat_ok else 'FAIL'}",
    ]
    print(header)
    print("-" * len(header))
    print("\n".join(rows))
    print()
    print(f"throughput: {len(stream)} inputs of {args.hands} hands ({plays} observed, seq {first_seq}..{first_seq + len(stream) - 1},"
          f" every input counted; the {sum(n for n, _, _ in done)} of the camera's runs timed) in {len(done)} rounds,"
          f" per s (median above): {', '.join(f'{r:.0f}' for r in rates)};"
          f" each round published in {max(sent for _, sent, _ in done):.2f} s at most;"
          f" {published} messages published by the service, {states_seen} states received"
          f" ({published / len(stream):.2f} messages per input)")
    print(f"latency: {len(one_by_one)} inputs of {args.latency_hands} hands sent one at a time, {len(latencies)} observed timed")
    print(f"the last state received {'equals' if same else 'DIFFERS FROM'} the pure table's state after the same inputs")
    print()
    sheader = f"{'where an input goes (no broker)':<44} {'n':>6} {'mean ms':>8} {'median ms':>10} {'p99 ms':>8}"
    print(sheader)
    print("-" * len(sheader))
    for label, xs in stages:
        if xs:
            med, top = median_p99(xs)
            print(f"{label:<44} {len(xs):>6} {statistics.mean(xs):>8.3f} {med:>10.3f} {top:>8.3f}")
        else:
            print(f"{label:<44} {'(encode has no validate= here)':>34}")
    if args.profile:
        print(profiles.report())
        print("(--profile: the throughput above ran under cProfile and is not comparable)")
    print(f"\nthe inputs made in {made_s:.1f} s; {time.perf_counter() - began:.0f} s in all;"
          f" {os.cpu_count()} CPUs; thread switch interval {sys.getswitchinterval() * 1000:g} ms;"
          f" result: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
