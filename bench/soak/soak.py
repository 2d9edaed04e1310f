"""bench/soak: the hall on a bad evening.

    nice .venv/bin/python bench/soak/soak.py [--minutes 30] [--tables 6] [--speed 3] [--seed 7] [--json FILE]

The demo hall (``hall.supervisor``: per table its service, virtual board, bridge, camera
taking the cards as laid, and four bot players; the display, the tournament, the organiser and the
referee) is played for ``--minutes`` while a fault injector does, one fault at a time at random
moments, all that goes wrong on a bad evening: ``kill -9`` of a table service, a camera or a board
bridge, the tournament service or the display (the hall starts them again, as systemd would), a broker restart, a reset of a service's
connection (``ss -K``), a 30 s broker outage, poisoned inputs, a retained input, a press stamped by
a clock 2 h ahead, and a flood from one board: presses into its virtual board as fast as it takes
them (``flood``: one key, which the board takes at most every 40 ms, as the firmware's debounce lets a stuck
button), and presses published with a board's payload as fast as the broker takes them
for ``FLOOD_S`` (``flood_mqtt``: a board computer gone wrong, the issue's 11,000 a second); ``backup``: every file
backed up as at a break; ``restore``: the tournament's file damaged, the run's first backup put back and caught up
from every table's log (``table events``, ``tournament catch-up``).

It measures from outside the tables. An observer (a user of its own that reads everything, with
a persistent session) sees every input that reaches the broker and every event; each table's log,
read read-only, says which inputs were logged. Every ``PROBE_S``, and every second after a fault
until it is answered, the injector sends each table a probe: a console command with an id that no
table may take (a command that does not exist), which a working service answers at once with a
``rejected`` event, whatever the game is doing. Per table:

- sent: inputs seen at the broker, the injector's own excluded; logged; answered (a ``rejected``
  event); lost: sent, and neither logged nor answered once the players stopped and the tables had
  ``GRACE_S`` to catch up. Must be 0. The board's own presses that reached the broker while
  ``flood_mqtt`` flooded its topic, and that the service dropped with the flood (over the board's
  pace: it counts them in its health), are counted apart, once the table has caught up;
- hands finished (``hand_scored`` and ``game_scored`` events), and how often the table's bots stopped (their
  process exited and the hall started it again: they lost step with the table, and begin the round anew). Not
  the table's fault, but a table of people would be as lost: each one is looked into;
- quiet: the longest time, in minutes, that the table ruled nothing that moves a game on (any event but a
  refusal or a device's coming and going) within a round: bots that lost step with the table without stopping
  (each one is looked into, as the stops are);
- inputs that reached the broker more than ``LATE_S`` after their own time (a press's or a read's ``at``): each is
  said as it comes, to match with the faults (a board keeps its presses while its bridge is away) or not;
- stalled while healthy: minutes during which an input or a probe waited longer than ``STALL_S``
  while the table looked healthy: its status ``online`` and its ``health`` as the console takes it
  (``display.view.TableView.live``: health coming, no problem named). Must be 0;
- the injector's inputs: poison sent, logged (must be 0) and answered; retained inputs logged;
  events stamped more than 10 minutes ahead of the wall clock (a clock 2 h off taken as true);
  the presses of the floods: written into the board, and published, logged or answered; what the
  table's last health counted as dropped (over a sender's pace) and clamped (a clock ahead).

The tournament: every game a table ended (``game_won``, ``round_over``, ``round_forfeited``) is recorded in the
tournament's file or said in the tournament service's log (a table outside the round, levels never seen); lost:
neither (a game recorded, then lost to a restore and not caught up, is lost). Must be 0.

Per fault, the recovery time: from the end of the fault (its start, for one that takes no time) to
the first moment every table it touched is well again (looking healthy, a probe sent after the
fault answered, no input waiting longer than ``WELL_S``; after a bridge's kill its board online
again, after a camera's its camera connected again; after the tournament service's, its round published again;
after the display's, its ``/api/hall`` answering); the median and the worst of each kind.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import secrets
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "firmware-bridge")]
os.environ["PYTHONPATH"] = os.pathsep.join([*sys.path[:2], os.environ.get("PYTHONPATH", "")])  # the hall: this code

from display.view import TableView  # noqa: E402
from hall.supervisor import Options, Supervisor  # noqa: E402
from bus.broker import ROOT as TOPICS, TABLES  # noqa: E402
from bus.mqtt import Connection  # noqa: E402
from bus.protocol import INPUTS, topic  # noqa: E402

STALL_S = 30.0  # an input waiting this long at a table that says it is online: the table is stalled
WELL_S = 5.0  # ... this long at most: the table is well
GRACE_S = 60.0  # after the players stop, for the tables to log what is on its way
RECOVER_MAX_S = 180.0  # a fault whose table is not well by then: not recovered
OUTAGE_S = 30.0
FLOOD_S = 10.0
GAP_S = (10.0, 60.0)  # between one fault's recovery and the next fault
PROBE_S = 10.0
AHEAD_S = 600.0
LATE_S = 5.0  # an input that reaches the broker this long after its own time (a press's, a read's) is told
HANDS = ("hand_scored", "game_scored")
ROUND_ENDS = ("game_won", "round_over", "round_forfeited", "round_stopped")  # then the table waits for the hall
GAMES = ("game_won", "round_over", "round_forfeited")  # what the tournament service records, or says why not
STILL = ("rejected", "camera_offline", "camera_lost", "camera_back", "board_offline", "board_lost", "board_back")
FAULTS = ("kill_service", "kill_camera", "kill_bridge", "kill_tournament", "kill_display", "broker_restart", "reset",
          "outage", "poison", "retained",
          "clock", "flood", "flood_mqtt", "backup", "restore")
HALL_WIDE = ("kill_tournament", "kill_display", "backup", "restore")  # no table of their own
OBSERVER, INJECTOR = "soak-observer", "soak-injector"


class SoakHall(Supervisor):
    """The demo hall with two more broker users: the observer (reads everything) and the injector,
    who may write every table's inputs (as a broken or hostile camera, board or console would). While the soak
    restarts or stops the broker itself (``broker``, held), the hall's own watch of it (which starts a broker found
    stopped) waits: both starting one on its port, the second failed (Address already in use), and an outage could end early."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.broker_held = threading.Lock()

    def _check_broker(self, now: float) -> None:
        if self.broker_held.acquire(blocking=False):
            try:
                super()._check_broker(now)
            finally:
                self.broker_held.release()

    def users(self) -> tuple[dict[str, str], str]:
        users, acl = super().users()
        users |= {OBSERVER: secrets.token_urlsafe(18), INJECTOR: secrets.token_urlsafe(18)}
        acl += f"\nuser {OBSERVER}\ntopic read {TOPICS}/#\n\nuser {INJECTOR}\n"
        acl += "".join(f"topic write {TABLES}/+/{leaf}\n" for leaf in INPUTS)
        return users, acl


@dataclass
class Ledger:
    """What one table was sent, logged and answered, and its time stalled while healthy."""

    waiting: dict[str, float] = field(default_factory=dict)  # input id -> when first seen at the broker (or sent)
    settled: set[str] = field(default_factory=set)  # logged or answered
    sent: set[str] = field(default_factory=set)
    logged: set[str] = field(default_factory=set)
    answered: set[str] = field(default_factory=set)
    injected: dict[str, str] = field(default_factory=dict)  # the injector's input id -> its kind
    probes: dict[str, float] = field(default_factory=dict)  # the probes' ids -> when sent
    probe_answered: float = 0.0  # when the latest probe answered was sent
    hands: set[int] = field(default_factory=set)
    ahead: set[int] = field(default_factory=set)
    status: str = "?"
    health: dict | None = None  # the latest, and when it came (monotonic)
    health_seen: float | None = None
    board_online: float = 0.0  # when its board/status last said online (monotonic)
    camera_connected: float = 0.0  # when the broker last logged its camera connecting
    stalled_s: float = 0.0
    stalled_waits: set[str] = field(default_factory=set)  # what waited while the table said online
    reasons: Counter = field(default_factory=Counter)  # why inputs were rejected (their first words)
    cpu_s: float = 0.0  # CPU seconds of the table's processes (service, board, bridge, camera, players)
    flood_written: int = 0
    flood_dropped: set[str] = field(default_factory=set)  # the board's presses dropped with a flood of its topic
    seq: int = 0
    late: dict[str, float] = field(default_factory=dict)  # input id -> seconds it reached the broker after its time
    moved: float | None = None  # when the table last ruled something that moves a game on (monotonic)
    quiet_s: float = 0.0  # the longest time it did not

    def move(self, now: float) -> None:
        """The table ruled something that moves a game on, ``now`` (or the players stopped)."""
        if self.moved is not None:
            self.quiet_s = max(self.quiet_s, now - self.moved)
        self.moved = now

    def see(self, input_id: str, now: float) -> None:
        if input_id in self.injected:
            return
        self.sent.add(input_id)
        if input_id not in self.settled:
            self.waiting.setdefault(input_id, now)

    def probe(self, input_id: str, now: float) -> None:
        self.injected[input_id] = "probe"
        self.probes[input_id] = self.waiting[input_id] = now

    def settle(self, input_id: str, logged: bool, now: float) -> None:
        (self.logged if logged else self.answered).add(input_id)
        self.settled.add(input_id)
        self.waiting.pop(input_id, None)
        if input_id in self.probes:
            self.probe_answered = max(self.probe_answered, self.probes[input_id])

    def write_off(self, leaf: str, since: float) -> int:
        """The inputs of ``leaf`` first seen since ``since`` and still waiting: dropped with a flood."""
        gone = [i for i, t in self.waiting.items() if t >= since and i.startswith(f"{leaf} ") and i not in self.injected]
        for input_id in gone:
            self.flood_dropped.add(input_id)
            del self.waiting[input_id]
        return len(gone)

    def oldest(self, now: float, floor: float = 0.0) -> float:
        """How long the oldest input has waited (since ``floor`` at the most: when the observer could see again)."""
        return now - max(floor, min(self.waiting.values())) if self.waiting else 0.0

    def healthy(self, now: float) -> bool:
        """Does the table look healthy, as the console shows it (online, its health coming, no problem)?"""
        view = TableView("t", status=self.status, health=self.health, health_seen=self.health_seen)
        return self.status == "online" and not view.live(now)["stalled"]

    def why(self, now: float, since: float, part: str = "") -> str:
        """What keeps the table from being well (``well``), in words."""
        if not self.healthy(now):
            return f"looks unhealthy (status {self.status}, health {self.health and self.health.get('problem')})"
        if self.probe_answered < since:
            return "no probe answered since"
        if self.oldest(now) > WELL_S:
            return f"{min(self.waiting, key=self.waiting.get)} waits {self.oldest(now):.0f} s"
        return f"its {part} is not back"

    def well(self, now: float, since: float, part: str = "") -> bool:
        """Looking healthy, a probe sent since ``since`` answered, nothing waiting long; and ``part``
        (``bridge``, ``camera``) back since ``since``."""
        back = {"bridge": self.board_online, "camera": self.camera_connected}.get(part, since)
        return self.healthy(now) and self.probe_answered >= since and back >= since and self.oldest(now) <= WELL_S


class Soak:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.rng = random.Random(args.seed)
        self.hall = SoakHall(Options(tables=args.tables, speed=args.speed, seed=args.seed, see="oracle", dir=args.dir),
                             out=sys.stdout)
        self.tables = [t.table for t in self.hall.tables]
        self.books = {t.table: t.rulebook for t in self.hall.tables}
        self.ledgers = {t: Ledger() for t in self.tables}
        self.lock = threading.Lock()
        self.faults: list[dict] = []
        self.backups, self.backed_up = 0, False  # backups made while the hall runs, and whether the last one was
        self.restored = False  # whether the last restore was put back and caught up
        self.stop = threading.Event()
        self.cut = threading.Event()  # SIGINT or SIGTERM: the run ends early, with its report
        self.n = 0
        self.games: set[tuple[str, int, str]] = set()  # (table, seq, kind) of every game a table ended
        self.round_seen = 0.0  # when the tournament service last published a round

    # -- the observer ---------------------------------------------------------------------------------

    def on_input(self, full_topic: str, raw: bytes) -> None:
        parts = full_topic.split("/")
        table, leaf = parts[3], "/".join(parts[4:])
        try:
            payload = json.loads(raw)
            input_id = f"{leaf} {payload['id']}"
        except (ValueError, KeyError, TypeError):
            return  # the injector's poison (no id): counted where it is sent
        stamped = payload.get("at")
        late = time.time() - stamped if isinstance(stamped, int | float) and abs(stamped) < 1e15 else 0.0  # poison: 401 nines
        with self.lock:
            ledger = self.ledgers.get(table)
            if ledger is None:
                return
            ledger.see(input_id, time.monotonic())
            told = late > LATE_S and input_id not in ledger.injected
            if told:
                ledger.late[input_id] = round(late, 1)
        if told:  # a board or a camera that held it (its link down, or stuck): when, to match with the faults
            self.hall.say(f"soak: {table} {input_id} reached the broker {late:.1f} s after its own time")

    def on_event(self, full_topic: str, raw: bytes) -> None:
        table = full_topic.split("/")[3]
        event = json.loads(raw)
        with self.lock:
            ledger = self.ledgers.get(table)
            if ledger is None:
                return
            if event["kind"] == "rejected" and event["data"].get("id"):
                input_id = f"{event['data']['topic']} {event['data']['id']}"
                ledger.settle(input_id, False, time.monotonic())
                if input_id not in ledger.injected:
                    ledger.reasons[" ".join(str(event["data"].get("reason", "")).split()[:6])] += 1
            if event["kind"] in HANDS:
                ledger.hands.add(event["seq"])
            if event["kind"] not in STILL:
                ledger.move(time.monotonic())
            if event["kind"] in GAMES:
                self.games.add((table, event["seq"], event["kind"]))
            if event["kind"] in ROUND_ENDS:
                ledger.moved = None  # the next round begins when the hall's tournament pairs it: not quiet
            if event.get("at", 0) > time.time() + AHEAD_S:
                ledger.ahead.add(event["seq"])

    def on_round(self, full_topic: str, raw: bytes) -> None:
        self.round_seen = time.monotonic()

    def back(self, kind: str, since: float) -> bool:
        """A hall-wide part killed at ``since`` is back: the tournament service published a round, or the display
        answers."""
        if kind == "kill_tournament":
            return self.round_seen >= since
        if kind == "backup":
            return self.backed_up
        if kind == "restore":
            return self.restored
        try:
            return httpx.get(f"http://127.0.0.1:{self.hall.port}/api/hall", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def on_status(self, full_topic: str, raw: bytes) -> None:
        with self.lock:
            ledger = self.ledgers.get(full_topic.split("/")[3])
            if ledger is None or not raw:
                return
            status = json.loads(raw).get("status", "?")
            if full_topic.endswith("/board/status"):
                if status == "online":
                    ledger.board_online = time.monotonic()
            else:
                ledger.status = status

    def on_health(self, full_topic: str, raw: bytes) -> None:
        with self.lock:
            ledger = self.ledgers.get(full_topic.split("/")[3])
            if ledger is not None and raw:
                ledger.health, ledger.health_seen = json.loads(raw), time.monotonic()

    def tail_broker_log(self) -> None:
        """When each camera connects, as the broker logs it (the camera has no status of its own)."""
        path, where = self.hall.broker.log_path, self.hall.broker.log_path.stat().st_size
        while not self.stop.wait(0.1):
            with open(path, "rb") as f:
                f.seek(where)
                new = f.read()
            complete = new.rfind(b"\n") + 1
            where += complete
            for line in new[:complete].decode(errors="replace").splitlines():
                if "New client connected" in line and " as camera-" in line:
                    table = line.split(" as camera-", 1)[1].split(" ", 1)[0]
                    with self.lock:
                        if table in self.ledgers:
                            self.ledgers[table].camera_connected = time.monotonic()

    def read_logs(self, conns: dict[str, sqlite3.Connection]) -> None:
        """What each table's log holds now (read-only: the service writes on)."""
        for table in self.tables:
            db = self.hall.dir / table / "table.db"
            try:
                if table not in conns:
                    conns[table] = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
                rows = conns[table].execute("SELECT seq, input_id FROM events WHERE seq > ? AND input_id IS NOT NULL",
                                            (self.ledgers[table].seq,)).fetchall()
            except sqlite3.Error:
                conns.pop(table, None)
                continue
            now = time.monotonic()
            with self.lock:
                ledger = self.ledgers[table]
                for seq, input_id in rows:
                    ledger.settle(input_id, True, now)
                    ledger.seq = max(ledger.seq, seq)

    def poll_logs(self) -> None:
        """Every second: the logs, and the time each table was stalled."""
        last = back = time.monotonic()  # back: since when the observer sees the broker again
        conns: dict[str, sqlite3.Connection] = {}
        while not self.stop.wait(1.0):
            self.read_logs(conns)
            now = time.monotonic()
            if not self.observer.connected:
                back = now  # the broker is away: nothing can be seen waiting, nor looking healthy
            with self.lock:
                for ledger in self.ledgers.values():
                    if ledger.healthy(now) and ledger.oldest(now, back) > STALL_S:
                        ledger.stalled_s += now - last
                        ledger.stalled_waits.add(min(ledger.waiting, key=ledger.waiting.get))
            last = now

    # -- the faults -----------------------------------------------------------------------------------

    def child(self, name: str):
        return next(c for c in self.hall.children if c.name == name)

    def publish(self, table: str, leaf: str, payload: bytes, kind: str, input_id: str | None = None,
                retain: bool = False) -> None:
        if input_id is not None:
            with self.lock:
                self.ledgers[table].injected[f"{leaf} {input_id}"] = kind
        self.injector.publish(topic(table, leaf), payload, retain=retain)

    def next_id(self, kind: str) -> str:
        with self.lock:
            self.n += 1
            return f"soak-{kind}-{self.n}"

    def probe(self, table: str) -> None:
        """An input no table may take (no such command): a working service answers it with ``rejected``."""
        pid = self.next_id("probe")
        with self.lock:
            self.ledgers[table].probe(f"commands {pid}", time.monotonic())
        self.injector.publish(topic(table, "commands"), json.dumps({"v": 1, "id": pid, "command": "probe"}).encode())

    def probe_all(self) -> None:
        while not self.stop.wait(PROBE_S):
            for table in self.tables:
                self.probe(table)

    def fault(self, kind: str, table: str) -> tuple[list[str], float]:
        """Do one fault; (the tables it touched, when it ended)."""
        if kind.startswith("kill_"):
            part = kind.removeprefix("kill_")
            hall_wide = part in ("tournament", "display")
            pid = self.child(part if hall_wide else f"{table}/{part}").pid
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
            return ([] if hall_wide else [table]), time.monotonic()
        if kind == "backup":  # as at a break, while every service writes: every file copied and checked
            self.backups += 1
            files = [("tournament", "tournament.db"), ("display", "console.db"),
                     *(("table", f"{t}/table.db") for t in self.tables)]
            done = [subprocess.run([sys.executable, "-m", "cardtable", part, "backup", "--db", str(self.hall.dir / db),
                                    "--out", str(self.hall.dir / f"backup-{self.backups}-{db.replace('/', '-')}")],
                                   capture_output=True, text=True)
                    for part, db in files]
            self.backed_up = all(d.returncode == 0 for d in done)
            if not self.backed_up:
                self.hall.say("soak: backup failed: " + " / ".join(d.stderr.strip()[-200:] for d in done if d.returncode))
            return [], time.monotonic()
        if kind == "restore":  # the tournament's file damaged: its latest backup put back, caught up from the logs
            return self.restore(table)
        if kind == "broker_restart":
            with self.hall.broker_held:
                self.hall.broker.restart()
            return self.tables, time.monotonic()
        if kind == "outage":
            with self.hall.broker_held:
                self.hall.broker.stop()
                time.sleep(OUTAGE_S)
                self.hall.broker.restart()
            return self.tables, time.monotonic()
        if kind == "reset":
            reset_connections(self.child(f"{table}/service").pid, self.hall.broker.port)
            return [table], time.monotonic()
        now = time.time()
        if kind == "poison":
            press = {"v": 1, "seat": "S", "button": "ready"}
            for leaf, raw in (
                ("board/in", '{"v":1,"id":"%s","seat":"S","button":"ready","at":%s}' % (self.next_id("poison"), "9" * 401)),
                ("board/in", json.dumps({**press, "id": self.next_id("poison"), "at": "soon"})),
                ("board/in", json.dumps({**press, "id": self.next_id("poison"), "at": now, "seat": "Q"})),
                ("observed", json.dumps({"v": 1, "id": self.next_id("poison"), "seat": "S", "cards": ["ZZ"],
                                         "confidence": 0.9, "at": now})),
                ("commands", json.dumps({"v": 1, "id": self.next_id("poison"), "command": "explode"})),
                ("commands", '{"v":1,"id":"%s","command":"last_hand","extra":1e999}' % self.next_id("poison")),
            ):
                self.publish(table, leaf, raw.encode(), "poison", json_id(raw))
            self.publish(table, "board/in", b"not json at all", "poison")
            return [table], time.monotonic()
        if kind == "retained":
            pid = self.next_id("retained")
            self.publish(table, "board/in", json.dumps({"v": 1, "id": pid, "seat": "S", "button": "ready", "at": now})
                         .encode(), "retained", pid, retain=True)
            self.injector.flush(10)
            threading.Timer(20.0, lambda: self.injector.publish(topic(table, "board/in"), b"", retain=True)).start()
            return [table], time.monotonic()
        if kind == "clock":
            pid = self.next_id("clock")
            self.publish(table, "board/in", json.dumps({"v": 1, "id": pid, "seat": "S", "button": "ready",
                                                        "at": now + 7200}).encode(), "clock", pid)
            return [table], time.monotonic()
        if kind == "flood":
            written = flood(self.hall.dir / table / "buttons", FLOOD_S)
            with self.lock:
                self.ledgers[table].flood_written += written
            return [table], time.monotonic()
        if kind == "flood_mqtt":
            began = time.monotonic()
            deadline = began + FLOOD_S
            while time.monotonic() < deadline:
                if self.injector.pending() > 2000:  # as fast as the broker acknowledges them
                    time.sleep(0.001)
                    continue
                for _ in range(100):
                    pid = self.next_id("flood")
                    self.publish(table, "board/in", json.dumps({"v": 1, "id": pid, "seat": "S", "button": "ready",
                                                                "at": time.time()}).encode(), "flood", pid)
            self.injector.flush(60)
            flushed = time.monotonic()
            dropped, steady = None, flushed
            while (now := time.monotonic()) - flushed < 120:  # until the table has drained the flood:
                time.sleep(0.5)  # its count of presses dropped still over three health periods, nothing waiting
                with self.lock:
                    health = self.ledgers[table].health or {"dropped": {}, "waiting": 1, "every": 2.0}
                count = health["dropped"].get("board/in")
                if count != dropped:
                    dropped, steady = count, now
                elif now - steady > 3 * health["every"] and health["waiting"] == 0:
                    break
            with self.lock:
                self.ledgers[table].write_off("board/in", began)
            return [table], flushed
        raise ValueError(kind)

    def inject(self, deadline: float) -> None:
        kinds: list[str] = []
        self.cut.wait(self.rng.uniform(*GAP_S))
        while time.monotonic() < deadline and not self.cut.is_set():
            if not kinds:
                kinds = list(self.args.faults)
                self.rng.shuffle(kinds)
            kind, table = kinds.pop(), self.rng.choice(self.tables)
            began = time.monotonic()
            where = "" if kind in HALL_WIDE else f" at {table}"
            self.hall.say(f"soak: {kind}{where}")
            try:
                touched, ended = self.fault(kind, table)
            except Exception as exc:  # noqa: BLE001 - a fault that could not be done is reported, the soak goes on
                self.faults.append({"kind": kind, "table": table, "error": str(exc), "at": began})
                continue
            recovered, probed = None, ended - 1.0
            part = kind.removeprefix("kill_") if kind in ("kill_bridge", "kill_camera") else ""
            while time.monotonic() - ended < RECOVER_MAX_S and not self.cut.is_set():
                now = time.monotonic()
                with self.lock:
                    well = all(self.ledgers[t].well(now, ended, part) for t in touched)
                if well and (touched or self.back(kind, ended)):
                    recovered = now - ended
                    break
                if now - probed >= 1.0:
                    for t in touched:
                        self.probe(t)
                    probed = now
                time.sleep(0.05)
            record = {"kind": kind, "table": table, "tables": touched, "at": round(began - self.began, 1),
                      "lasted_s": round(ended - began, 1), "recovery_s": recovered}
            if recovered is None:
                with self.lock:
                    record["not_well"] = {t: self.ledgers[t].why(time.monotonic(), ended, part) for t in touched
                                          if not self.ledgers[t].well(time.monotonic(), ended, part)}
            self.faults.append(record)
            self.hall.say(f"soak: {kind}{where}: " + (f"well again {recovered:.1f} s after" if recovered is not None
                                                           else "NOT well again"))
            self.cut.wait(self.rng.uniform(*GAP_S))

    # -- the run --------------------------------------------------------------------------------------

    def run(self) -> dict:
        hall, load = self.hall, [os.getloadavg()[0]]
        serving = threading.Event()
        conns: list[Connection] = []
        try:
            hall.start()
            self.began = time.monotonic()
            threading.Thread(target=hall.serve, args=(serving,), daemon=True).start()
            self.observer = observer = Connection(hall.broker.url(OBSERVER), reconnect_delay_s=(0.1, 1.0))
            conns.append(observer)
            for leaf in INPUTS:
                observer.subscribe(f"{TABLES}/+/{leaf}", self.on_input)
            observer.subscribe(f"{TABLES}/+/events", self.on_event)
            observer.subscribe(f"{TABLES}/+/status", self.on_status)
            observer.subscribe(f"{TABLES}/+/board/status", self.on_status)
            observer.subscribe(f"{TABLES}/+/health", self.on_health)
            observer.subscribe(f"{TOPICS}/tournament/+/round", self.on_round)
            observer.connect()
            self.injector = Connection(hall.broker.url(INJECTOR), clean_start=True, reconnect_delay_s=(0.1, 1.0))
            conns.append(self.injector.connect())
            for work in (self.poll_logs, self.probe_all, self.tail_broker_log):
                threading.Thread(target=work, daemon=True).start()
            deadline = self.began + self.args.minutes * 60
            injector = threading.Thread(target=self.inject, args=(deadline,), daemon=True)
            injector.start()
            while time.monotonic() < deadline and not self.cut.wait(10):
                load.append(os.getloadavg()[0])
            injector.join(OUTAGE_S + RECOVER_MAX_S + 10)
            hall.say("soak: time is up; the players stop, the tables catch up")
            with self.lock:
                for ledger in self.ledgers.values():
                    ledger.move(time.monotonic())
            self.count_cpu()
            serving.set()  # no organiser, no referee from now on
            for child in hall.children:
                if child.name.endswith(("/players", "/camera")):
                    child.restart = False
                    child.signal(signal.SIGTERM)
            time.sleep(GRACE_S)
            self.stop.set()
            self.read_logs({})  # the last word
        finally:
            self.stop.set()
            serving.set()
            for conn in conns:
                conn.close(flush_timeout=0)
            hall.stop()
        return self.report(load)

    def count_cpu(self) -> None:
        """CPU seconds each table's processes used (the ones living now: a process killed took its own along)."""
        tick = os.sysconf("SC_CLK_TCK")
        for child in self.hall.children:
            table = child.name.split("/")[0]
            if table in self.ledgers and child.pid is not None:
                try:
                    fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                self.ledgers[table].cpu_s += (int(fields[11]) + int(fields[12])) / tick

    def restore(self, table: str) -> tuple[list[str], float]:
        """The run's first backup of the tournament's file put back (the oldest: every game reported since must be
        caught up; into the file, by SQLite's backup, while the services run: harder than the documented way, which
        stops them first), then every table's log told again (``table events``) and the games the backup lacks caught
        up (``tournament catch-up``). A game lost on the way is lost in the report."""
        if not self.backups:
            self.fault("backup", table)
        self.restored = False
        backup, live = self.hall.dir / "backup-1-tournament.db", self.hall.dir / "tournament.db"
        with contextlib.closing(sqlite3.connect(backup)) as source, contextlib.closing(sqlite3.connect(live)) as target:
            source.backup(target)
        files, said = [], []
        for t in self.tables:
            out = self.hall.dir / f"restore-{self.backups}-{t}-{len(self.faults)}.jsonl"
            done = subprocess.run([sys.executable, "-m", "cardtable", "table", "events", str(self.hall.dir / t / "table.db"),
                                   "--out", str(out)], capture_output=True, text=True)
            if done.returncode:
                said.append(done.stderr.strip()[-200:])
            else:
                files.append(str(out))
        done = subprocess.run([sys.executable, "-m", "cardtable", "tournament", "catch-up", "--db", str(live), *files],
                              capture_output=True, text=True)
        self.restored = done.returncode == 0 and not said
        self.hall.say("soak: restore: " + (" / ".join(done.stdout.split("\n")).strip(" /") if self.restored
                                           else " / ".join([*said, done.stderr.strip()[-300:]])))
        return [], time.monotonic()

    def tournament_games(self) -> dict:
        """The games the tables ended: recorded in the tournament's file (by their event), said in the service's log
        as not recorded, or lost."""
        with sqlite3.connect(f"file:{self.hall.dir / 'tournament.db'}?mode=ro", uri=True) as db:
            events = {json.loads(d).get("event") or "" for (d,) in db.execute("SELECT data FROM actions")}
        recorded = {g for g in self.games if any(e == f"{g[0]}:{g[1]}:{g[2]}" or e.startswith(f"{g[0]}:{g[1]}:{g[2]}:")
                                                 for e in events)}
        log = self.hall.dir / "logs" / "tournament.log"
        said = {g for line in (log.read_text(errors="replace").splitlines() if log.exists() else ()) if (g := _said(line))}
        lost = self.games - recorded - said
        return {"games": len(self.games), "recorded": len(recorded), "said": len(self.games & said - recorded),
                "lost": len(lost), "lost_games": sorted(lost)[:10]}

    def report(self, load: list[float]) -> dict:
        tables = {}
        for table, ledger in self.ledgers.items():
            injected = ledger.injected
            kinds = lambda kind, within: sum(1 for i, k in injected.items() if k == kind and i in within)  # noqa: E731
            tables[table] = {
                "rulebook": self.books[table], "sent": len(ledger.sent), "logged": len(ledger.sent & ledger.logged),
                "answered": len(ledger.sent & ledger.answered - ledger.logged),
                "lost": len(ledger.sent - ledger.settled - ledger.flood_dropped),
                "lost_by_topic": dict(Counter(i.split(" ", 1)[0] for i in ledger.sent - ledger.settled - ledger.flood_dropped)),
                "board_dropped_in_floods": len(ledger.flood_dropped),
                "cpu_s": round(ledger.cpu_s, 1), "refusals": dict(ledger.reasons.most_common(4)),
                "hands": len(ledger.hands), "stalled_healthy_min": round(ledger.stalled_s / 60, 2),
                "bots_stopped": max(self.child(f"{table}/players").starts - 1, 0),
                "quiet_worst_min": round(ledger.quiet_s / 60, 1),
                "late_inputs": len(ledger.late), "late_worst": sorted(ledger.late.items(), key=lambda x: -x[1])[:3],
                "flood_presses_written": ledger.flood_written,
                "stalled_on": sorted(ledger.stalled_waits)[:5],
                "probes": len(ledger.probes), "probes_answered": len(ledger.probes.keys() & ledger.answered),
                "poison_sent": sum(1 for k in injected.values() if k == "poison"),
                "poison_logged": kinds("poison", ledger.logged), "poison_answered": kinds("poison", ledger.answered),
                "retained_logged": kinds("retained", ledger.logged), "clock_2h_logged": kinds("clock", ledger.logged),
                "flood_mqtt_sent": sum(1 for k in injected.values() if k == "flood"),
                "health_dropped": (ledger.health or {}).get("dropped", {}),
                "health_clamped": (ledger.health or {}).get("clamped", {}),
                "flood_mqtt_settled": kinds("flood", ledger.settled),
                "events_2h_ahead": len(ledger.ahead),
            }
        by_kind: dict[str, list] = defaultdict(list)
        for f in self.faults:
            by_kind[f["kind"]].append(f.get("recovery_s"))
        kinds = {}
        for kind, times in sorted(by_kind.items()):
            done = [t for t in times if t is not None]
            kinds[kind] = {"faults": len(times), "not_recovered": len(times) - len(done),
                           "median_s": round(statistics.median(done), 1) if done else None,
                           "worst_s": round(max(done), 1) if done else None}
        return {"minutes": self.args.minutes, "tables": len(self.tables), "speed": self.args.speed, "seed": self.args.seed,
                "tournament": self.tournament_games(),
                "soak_cpu_s": round(time.process_time(), 1),
                "load_average": {"median": round(statistics.median(load), 1), "max": round(max(load), 1)},
                "per_table": tables, "recovery": kinds, "faults": self.faults, "run_dir": str(self.hall.dir)}


def _said(line: str) -> tuple[str, int, str] | None:
    """(table, seq, kind) of a game the tournament service's log says it did not record.

    >>> _said("2026-11-29 22:11:40,784 WARNING referee.tournament.recorder: tournament: t02 round_over (seq 943) not "
    ...       "recorded: 第 1 轮没有 t02 桌")
    ('t02', 943, 'round_over')
    >>> _said("2026-11-29 22:11:40,784 INFO referee.tournament.service: tournament main: serving") is None
    True
    """
    words = line.split()
    for i, w in enumerate(words[2:], 2):
        if w == "(seq" and i + 1 < len(words) and words[i - 1] in GAMES:
            return words[i - 2].rstrip(":"), int(words[i + 1].rstrip("):")), words[i - 1]
    return None


def json_id(raw: str) -> str | None:
    try:
        return json.loads(raw).get("id")
    except ValueError:
        return raw.split('"id":"', 1)[1].split('"', 1)[0] if '"id":"' in raw else None


def reset_connections(pid: int | None, port: int) -> int:
    """Abort (``ss -K``) the TCP connections of process ``pid`` to ``port`` on loopback; how many."""
    if pid is None:
        return 0
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            link = os.readlink(fd)
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    done = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], fields[9]
        if inode in inodes and int(remote.split(":")[1], 16) == port:
            mine = int(local.split(":")[1], 16)
            subprocess.run(["ss", "-K", "dst", "127.0.0.1", "dport", "=", f":{port}", "sport", "=", f":{mine}"],
                           capture_output=True, check=True)
            done += 1
    return done


def flood(fifo: Path, seconds: float) -> int:
    """Presses into a virtual board's input as fast as it takes them, for ``seconds``; how many."""
    written, deadline = 0, time.monotonic() + seconds
    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    try:
        while time.monotonic() < deadline:
            try:
                os.write(fd, b"S ready\n" * 64)
                written += 64
            except BlockingIOError:
                time.sleep(0.005)
    finally:
        os.close(fd)
    return written


def table_text(report: dict) -> str:
    rows = [f"{'table':6} {'rulebook':14} {'sent':>7} {'logged':>7} {'answer':>6} {'lost':>5} {'hands':>5} {'bots':>4} {'quiet':>5} "
            f"{'stall m':>7} {'probes':>9} {'flood':>6} {'mqtt flood':>13} {'poison s/l/a':>12} {'ret l':>5} {'2h l/ev':>7}"]
    for t, r in report["per_table"].items():
        rows.append(f"{t:6} {r['rulebook']:14} {r['sent']:7} {r['logged']:7} {r['answered']:6} {r['lost']:5} "
                    f"{r['hands']:5} {r.get('bots_stopped', '-'):>4} {r.get('quiet_worst_min', '-'):>5} {r['stalled_healthy_min']:7} {r['probes_answered']:>4}/{r['probes']:<4} "
                    f"{r['flood_presses_written']:6} {r['flood_mqtt_settled']:>6}/{r['flood_mqtt_sent']:<6} "
                    f"{r['poison_sent']:>4}/{r['poison_logged']}/{r['poison_answered']:<4} {r['retained_logged']:5} "
                    f"{r['clock_2h_logged']:>3}/{r['events_2h_ahead']:<3}")
    rows.append("")
    rows.append(f"{'fault':16} {'n':>3} {'not well':>8} {'median s':>9} {'worst s':>8}")
    for kind, r in report["recovery"].items():
        rows.append(f"{kind:16} {r['faults']:3} {r['not_recovered']:8} {str(r['median_s']):>9} {str(r['worst_s']):>8}")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--speed", type=float, default=3.0, help="the bots' pace, times real time (default 3)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--dir", type=Path, default=None, help="the hall's run directory (default: a new temporary one)")
    parser.add_argument("--json", type=Path, default=None, help="write the whole report here")
    parser.add_argument("--faults", default=",".join(FAULTS), help=f"the kinds, in turn (default all: {','.join(FAULTS)})")
    args = parser.parse_args()
    args.faults = args.faults.split(",")
    if unknown := set(args.faults) - set(FAULTS):
        parser.error(f"unknown faults {sorted(unknown)}; faults are {', '.join(FAULTS)}")
    soak = Soak(args)
    for sig in (signal.SIGINT, signal.SIGTERM):  # end early and report (SIGINT is ignored in a background job)
        signal.signal(sig, lambda *_: soak.cut.set())
    report = soak.run()
    print(table_text(report))
    print(f"load average: median {report['load_average']['median']}, max {report['load_average']['max']}; "
          f"run directory {report['run_dir']}")
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1))
    g = report["tournament"]
    print(f"tournament: {g['games']} games ended at the tables, {g['recorded']} recorded, {g['said']} said not recorded "
          f"in its log, {g['lost']} lost {g['lost_games'] or ''}")
    bad = [t for t, r in report["per_table"].items() if r["lost"] or r["stalled_healthy_min"] or r["poison_logged"]]
    bad += ["tournament"] if g["lost"] else []
    print("PASS: nothing lost, no table stalled while healthy" if not bad else f"FAIL: {' '.join(bad)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
