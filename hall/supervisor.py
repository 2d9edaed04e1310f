"""``cardtable hall``: the whole hall on one machine, until Ctrl-C.

On loopback: a mosquitto with generated users and the hall's ACL (``bus.broker``); per
table its service (``cardtable table run``, its SQLite log under the run directory), a virtual
board (``cardtable bridge virtual``, its input a FIFO the players press into) and its bridge
(``cardtable bridge run``), the players (``cardtable hall player``) and the camera with its vision
(``cardtable hall camera``); the tournament service (``cardtable tournament serve``) and the
scoreboard and console (``cardtable display serve``). Then the organiser runs the tournament and
the referee rules on the flags (in this process). A child that dies is started again, as is one alive but hung (its
table's service, bridge or camera silent on the hall's notify socket: ``hall.procs``); so is the
broker (its files written again, its persistence kept); a disk nearly full under the run directory is said; Ctrl-C
(or SIGTERM, also while it starts) stops every process group it started, the broker last; killed (SIGKILL, a crash),
it leaves nothing running either (``hall.procs``, ``hall.reaper``).
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bus.mqtt import TAKEN_OVER_EXIT
from cardtable.lang import FAILED, REFUSED, refuse
from cardtable.logs import Lasting, setup_logging
from hall.plan import HallTable, hall_tables
from hall.procs import MARK, SILENT_S, Child, Pings, hall_serving, stop_all
from hall.reaper import Reaper
from referee import catalogue
from referee.catalogue import Refusal


DEFAULT_PORT = 8000
STEP_S = 0.5
READY_S = 60.0
BROKER_AGAIN_S = 5.0  # a broker that could not start is tried again this much later
LOW_DISK_B = 64 * 2**20  # under this much free under the run directory, the hall says so: the tables' logs need room


@dataclass(frozen=True)
class Options:
    tables: int = 8
    speed: float = 1.0
    port: int | None = None
    dir: Path | None = None
    seed: int = 2026
    see: str = "auto"  # vision, oracle, or auto (vision when the model is there)
    hands: int = 2  # then the last-hand notice; 0: the round clock ends a round
    slow: float = 0.04  # the share of the bots' plays past the shot clock


class HallError(Refusal):
    """The hall cannot start: a port taken, a run directory in use, options out of range (the catalogue's
    ``hall.error.*``)."""

    section = "hall.error"


def cardtable() -> list[str]:
    """The command that runs ``cardtable`` with this interpreter."""
    return [sys.executable, "-m", "cardtable"]


def port_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether a server can listen on ``port``: as the display and the broker do, with SO_REUSEADDR, so the
    connections of a hall just stopped or killed (TIME_WAIT, a minute) do not hold it; one listening there does."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
            return True
        except OSError:
            return False


def pick_port(asked: int | None) -> int:
    if asked is not None:
        if not port_free(asked):
            raise HallError("port_taken", port=asked)
        return asked
    if port_free(DEFAULT_PORT):
        return DEFAULT_PORT
    running = hall_serving(DEFAULT_PORT)
    if running is not None:  # a second `make demo`: two halls would share the machine's two cores, and a newcomer the port
        raise HallError("running", url=f"http://127.0.0.1:{DEFAULT_PORT}/", dir=running)
    from bus.broker import free_port

    return free_port()


def choose_sight(see: str) -> str:
    if see != "auto":
        return see
    from hall.camera import model_ready

    return "vision" if model_ready() else "oracle"


class Supervisor:
    def __init__(self, opts: Options, out=sys.stdout):
        if opts.speed <= 0:
            raise HallError("speed")
        self.opts, self.out, self.lang = opts, out, catalogue.cli_lang()
        self.tables = hall_tables(opts.tables)
        self.dir = Path(opts.dir).resolve() if opts.dir else None
        if self.dir is not None and self.dir.exists() and (not self.dir.is_dir() or any(self.dir.iterdir())):  # refused before anything starts
            raise HallError("not_empty", dir=self.dir)
        self.port = pick_port(opts.port)
        self.children: list[Child] = []
        self.broker = None
        self.organiser = None
        self.referee = None
        self.reaper: Reaper | None = None
        self.sight = choose_sight(opts.see)
        self._fifos: list[int] = []
        self._broker_users: tuple[dict[str, str], str] | None = None  # the broker's users and ACL, to start it again
        self._broker_due = 0.0  # monotonic: when to try a broker that could not start again
        self._broker_failing = Lasting()
        self._broker_out = False
        self._disk = Lasting()
        self.pings = Pings()  # where the services say they live: one silent too long is hung (hall.procs)

    def say(self, line: str) -> None:
        print(time.strftime("%H:%M:%S ") + line, file=self.out, flush=True)

    # -- start -------------------------------------------------------------------------------------

    def start(self, stop: threading.Event | None = None) -> bool:
        """Start every process and wait until the hall is ready; False when ``stop`` was set meanwhile (SIGTERM while
        starting: what was started is stopped by :meth:`stop`, nothing more is started)."""
        import tempfile

        stop = stop or threading.Event()
        if self.dir is None:
            self.dir = Path(tempfile.mkdtemp(prefix="cardtable-hall-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        os.environ[MARK] = str(self.dir)  # the broker and everything else started from here carry it
        self.reaper = Reaper(self.dir)  # first: whatever ends this process, what it starts ends too
        self.start_broker()
        url = self.broker.url  # for the demo's people, in their environment
        # The hall's programs as in a real hall: the broker's address, the passwords in a file.
        where = ["--broker", self.broker.address, "--credentials", str(self.broker.write_credentials(self.dir / "credentials"))]
        passwords = {"organiser": secrets.token_urlsafe(9), "referee": secrets.token_urlsafe(12)}
        for user, role in (("organiser", "organiser"), ("referee", "referee")):
            done = subprocess.run([*cardtable(), "display", "user", "--db", str(self.dir / "console.db"), "--user", user,
                                   "--role", role], env={**os.environ, "CARDTABLE_PASSWORD": passwords[user]},
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise HallError("user_failed", user=user, output=(done.stderr or done.stdout).strip())
        if stop.is_set():
            return False
        logs = self.dir / "logs"
        self.children.append(Child("display", [*cardtable(), "display", "serve", "--db", str(self.dir / "console.db"),
                                               "--tournament-db", str(self.dir / "tournament.db"),
                                               "--port", str(self.port), *where], logs / "display.log"))
        if any(t.toured for t in self.tables):
            self.children.append(Child("tournament", [*cardtable(), "tournament", "serve", "--db",
                                                      str(self.dir / "tournament.db"), *where],
                                       logs / "tournament.log", final=(TAKEN_OVER_EXIT,)))
        for i, t in enumerate(self.tables):
            self.children += self._table_children(t, i + 1, url, where)
        for child in self.children:
            child.silent_s = SILENT_S.get(child.name.rsplit("/", 1)[-1])
            if child.silent_s is not None:
                child.env.update(self.pings.env())
        from hall.organiser import Organiser

        self.organiser = Organiser(self.tables, url("hall-organiser"), self.dir / "tournament.db", self.opts.seed,
                                   self.opts.hands, self.say)
        self.organiser.start()  # the tournament file exists before its service opens it
        for child in self.children:
            child.start(self.dir)
        if not self._wait_ready(passwords["referee"], stop):
            return False
        from hall.referee_bot import RefereeBot

        self.referee = RefereeBot(f"http://127.0.0.1:{self.port}", "referee", passwords["referee"], self.dir, self.say)
        self.say(catalogue.say(self.lang, "hall.scoreboard", url=f"http://127.0.0.1:{self.port}/"))
        self.say(catalogue.say(self.lang, "hall.console", url=f"http://127.0.0.1:{self.port}/console", user="organiser",
                     password=passwords["organiser"]))
        self.say(catalogue.say(self.lang, "hall.running", n=len(self.tables), speed=f"{self.opts.speed:g}",
                     sight=catalogue.word(self.lang, f"hall.{self.sight}", self.sight), dir=self.dir))
        self.say(self.toured_line())
        if self.sight == "oracle" and self.opts.see == "auto":
            self.say(catalogue.say(self.lang, "hall.no_model"))
        return True

    def toured_line(self) -> str:
        """Which tables the tournament tours, and which play outside it (their game and decks).

        >>> hall = Supervisor.__new__(Supervisor)
        >>> hall.tables, hall.lang = hall_tables(5), "en"
        >>> hall.toured_line()
        'the tournament (pair Swiss): t01 Tractor (3 decks), t02 Tractor (3 decks); outside it, round after round: t03 Tractor (4 decks), t04 Guandan (2 decks), t05 San Da Yi (2 decks)'
        """
        from referee.rulebooks import load

        lang, join = self.lang, catalogue.word(self.lang, "word.list").join
        def table(t: HallTable) -> str:
            book = load(t.rulebook)
            return catalogue.say(lang, "hall.free_table", table=t.table, game=catalogue.word(lang, f"game.{book.game}"),
                                 decks=book.deal.decks)

        line = catalogue.say(lang, "hall.toured", tables=join(table(t) for t in self.tables if t.toured))
        free = [table(t) for t in self.tables if not t.toured]
        return line + (catalogue.say(lang, "hall.outside", tables=join(free)) if free else "")

    def start_broker(self) -> None:
        """The hall's broker in ``broker/`` of the run directory, with its users and ACL (kept: :meth:`_check_broker`
        starts it again with them)."""
        from bus.broker import Broker

        self._broker_users = self.users()
        self.broker = Broker.start(self.dir / "broker", *self._broker_users, own_session=True)

    def users(self) -> tuple[dict[str, str], str]:
        """The broker's users (name -> password) and ACL: the hall's, and one user per connection of the
        demo's people (the broker binds client ids to users): the organiser (the console's rights: it seats and
        starts every table) and each table's players, who need no more than people at that table: they read its
        ``state``, ``events`` and ``violations`` and write its ``commands`` (the bots send one, ``stop_round`` of a
        hand they did not deal, ``hall.player``; an ACL cannot narrow the commands within the topic), nothing of
        another table.

        >>> acl = Supervisor.__new__(Supervisor)
        >>> acl.tables = hall_tables(2)
        >>> print(acl.users()[1].split("user players-t01")[1].split("user")[0].strip())
        topic read cardtable/v1/tables/t01/state
        topic read cardtable/v1/tables/t01/events
        topic read cardtable/v1/tables/t01/violations
        topic write cardtable/v1/tables/t01/commands
        """
        from bus.broker import table_acl
        from bus.protocol import topic

        users, acl = table_acl([t.table for t in self.tables], also={"hall-organiser": "console"})
        for t in self.tables:
            users[f"players-{t.table}"] = secrets.token_urlsafe(18)
            rights = [f"topic read {topic(t.table, leaf)}" for leaf in ("state", "events", "violations")]
            acl += "\n".join(["", f"user players-{t.table}", *rights, f"topic write {topic(t.table, 'commands')}", ""])
        return users, acl

    def _table_children(self, t: HallTable, number: int, url, where: list[str]) -> list[Child]:
        d = self.dir / t.table
        d.mkdir()
        fifo = d / "buttons"
        os.mkfifo(fifo)
        fd = os.open(fifo, os.O_RDWR)  # held open: the board never sees the end of its input
        self._fifos.append(fd)
        (d / "scene.jsonl").touch()
        ct, logs = cardtable(), self.dir / "logs"
        seed = self.opts.seed * 100 + number
        return [
            Child(f"{t.table}/service", [*ct, "table", "run", "--table", t.table, "--rulebook", t.rulebook,
                                         *where, "--db", str(d / "table.db")],
                  logs / f"{t.table}-service.log", final=(REFUSED, TAKEN_OVER_EXIT)),  # as hall.setup's units
            Child(f"{t.table}/board", [*ct, "bridge", "virtual", "--link", str(d / "board-tty"),
                                       "--board-id", str(number)], logs / f"{t.table}-board.log", stdin=fd),
            Child(f"{t.table}/bridge", [*ct, "bridge", "run", "--table", t.table, "--port", str(d / "board-tty"),
                                        *where], logs / f"{t.table}-bridge.log", final=(TAKEN_OVER_EXIT,)),
            Child(f"{t.table}/camera", [*ct, "hall", "camera", "--table", t.table, "--rulebook", t.rulebook,
                                        "--dir", str(self.dir), "--seed", str(seed), "--see", self.sight],
                  logs / f"{t.table}-camera.log", final=(TAKEN_OVER_EXIT,),
                  env={"HALL_CAMERA": url(f"camera-{t.table}")}),
            Child(f"{t.table}/players", [*ct, "hall", "player", "--table", t.table, "--rulebook", t.rulebook,
                                         "--dir", str(self.dir), "--seed", str(seed), "--speed", str(self.opts.speed),
                                         "--slow", str(self.opts.slow)],
                  logs / f"{t.table}-players.log",
                  env={"HALL_READER": url(f"players-{t.table}"), "HALL_CONSOLE": url(f"players-{t.table}")}),
        ]

    def _wait_ready(self, password: str, stop: threading.Event) -> bool:
        """Wait until every table's service is online and the console answers, logging in as the hall's referee: a
        console that does not know that password is another program's on the hall's port (another hall started at
        the same moment took it, and this hall's display cannot), said so rather than shown as this hall's. False
        when ``stop`` was set meanwhile."""
        import httpx

        base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + READY_S
        while time.monotonic() < deadline:
            self._check()
            if self.organiser.ready():
                try:
                    answer = httpx.post(f"{base}/api/login", json={"user": "referee", "password": password},
                                        headers={"Origin": base}, timeout=5).status_code
                except httpx.HTTPError:
                    answer = None  # nothing listens yet
                if answer == 200:
                    return True
                if answer is not None:
                    raise HallError("port_answered", port=self.port, status=answer)
            if stop.wait(0.2):
                return False
        raise HallError("not_ready", seconds=f"{READY_S:g}", logs=self.dir / "logs")

    # -- run ---------------------------------------------------------------------------------------

    def _check(self) -> None:
        """The broker, the disk and every child, once."""
        now = time.monotonic()
        for child in self.children:
            child.lives(self.pings.heard.get(child.pid))
        self._check_broker(now)
        self._check_disk()
        for child in self.children:
            line = child.check(self.dir, now)
            if line:
                self.say(line)

    def _check_broker(self, now: float) -> None:
        """A broker that died (killed, crashed) is said, and started again on its port, its files written again from
        what the hall holds (a damaged ``mosquitto.conf`` is mended), its persistence kept; one that cannot start says
        why (once while the same reason lasts) and is tried again every ``BROKER_AGAIN_S``."""
        from bus.broker import Broker, BrokerError

        if self.broker is None or self.broker.running or now < self._broker_due:
            return
        port, lang = self.broker.port, self.lang
        if not self._broker_out:
            self._broker_out = True
            self.say(catalogue.say(lang, "hall.broker_exited", port=port))
        try:
            self.broker = Broker.start(self.broker.workdir, *self._broker_users, port=port, own_session=True)
        except BrokerError as exc:
            self._broker_due = now + BROKER_AGAIN_S
            if self._broker_failing.new(exc.key):
                self.say(catalogue.say(lang, "hall.broker_failed", error=exc.text(lang), delay=f"{BROKER_AGAIN_S:g}"))
            return
        self._broker_out = False
        self._broker_failing.over()
        self.say(catalogue.say(lang, "hall.broker_back", port=port))

    def _check_disk(self) -> None:
        """Said once while it lasts: the disk under the run directory nearly full (the tables' logs, which they must
        write to referee, and every process's log); and when it has room again."""
        try:
            free = shutil.disk_usage(self.dir).free
        except OSError:  # the run directory not there (yet, or any more): its parts say what they cannot write
            return
        mib = f"{free / 2**20:.0f}"
        if free < LOW_DISK_B:
            if self._disk.new("low"):
                self.say(catalogue.say(self.lang, "hall.disk_low", dir=self.dir, free=mib))
        elif self._disk.over():
            self.say(catalogue.say(self.lang, "hall.disk_again", dir=self.dir, free=mib))

    def serve(self, stop: threading.Event) -> None:
        parts = [(part, Lasting()) for part in (self.organiser, self.referee)]  # a failure said once while it lasts
        while not stop.wait(STEP_S):
            self._check()
            for part, failing in parts:
                try:
                    part.step()
                except Exception as exc:  # a console or tournament hiccup must not end the hall
                    if failing.new(str(exc)):
                        self.say(catalogue.say(self.lang, "hall.part_failing", error=_why(exc, self.lang),
                                               part=catalogue.word(self.lang, f"hall.part.{type(part).__name__}")))
                    continue
                failing.over()

    def stop(self) -> None:
        """Players and cameras first, then boards, services, tournament, display; the broker last."""
        order = sorted(self.children, key=lambda c: ("players" not in c.name, "camera" not in c.name,
                                                     "bridge" not in c.name, "board" not in c.name))
        stop_all(order)
        for part in (self.referee, self.organiser):
            if part is not None:
                part.close()
        for fd in self._fifos:
            os.close(fd)
        if self.broker is not None:
            self.broker.stop()
        if self.reaper is not None:
            self.reaper.close()
        self.pings.close()


def _why(exc: BaseException, lang: str) -> str:
    """Why a step failed, in ``lang``: the system's error under it (an HTTP client's refused connection) in the
    catalogue's words, else the error's own."""
    cause: BaseException | None = exc
    while cause is not None and not isinstance(cause, OSError):
        cause = cause.__cause__ or cause.__context__
    return catalogue.said(cause or exc, lang)


def run(opts: Options, command: argparse.Namespace) -> int:
    """``cardtable hall`` (``command``: its parsed arguments, whose name its errors say: ``cardtable.lang.refuse``)."""
    setup_logging(logging.WARNING)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):  # set from a thread: a handler must take no lock
        signal.signal(sig, lambda *_: threading.Thread(target=stop.set, daemon=True).start())
    try:
        hall = Supervisor(opts)
    except ValueError as exc:
        return refuse(command, exc)
    try:
        if hall.start(stop):
            hall.serve(stop)
    except (ValueError, RuntimeError, OSError) as exc:
        return refuse(command, exc, FAILED)
    finally:
        hall.say(catalogue.say(hall.lang, "hall.stopping"))
        hall.stop()
        hall.say(catalogue.say(hall.lang, "hall.stopped"))
    return 0

