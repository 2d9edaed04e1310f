"""Shared fixtures. A real mosquitto per test module, with the hall's users and ACL for tables t1 and t2 (or the module's ``TABLES``), and helpers
to connect real clients and collect what they receive."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import pytest

from bus.broker import Broker, BrokerError, table_acl
from bus.mqtt import Connection
from bus.protocol import topic

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/said.py: what the engines' reasons say; full.py: a full disk
# The command line speaks $CARDTABLE_LANG's language, Chinese by default (referee.catalogue.cli_lang): the tests run
# in Chinese whatever the caller's environment; a test that wants English asks for it (--lang en, $CARDTABLE_LANG).
os.environ.pop("CARDTABLE_LANG", None)

TABLES = ["t1", "t2"]
SCOREBOARD = "scoreboard"
CONSOLE = "console"
# A user holds one connection at a time: tests that watch or command the tables while a display runs
# (as the scoreboard and the console) do so as these.
ALSO = {"scoreboard-2": "scoreboard", "console-2": "console",  # a second display, or programs of those roles
        "scoreboard-3": "scoreboard", "console-3": "console"}  # an app of a test's own beside its module's
# and a console user of each table's own, console-<table>: its commands sender (tests/display/kit.py's LiveTable), so
# that several live tables of a test do not take each other's connection
WAIT_S = 30.0  # the longest a test waits for a message that must come (generous: CI and a loaded machine)
TEST_RECONNECT_DELAY_S = (0.05, 0.5)

Message = tuple[str, bytes]


class Inbox:
    """A handler that keeps every (topic, payload) it is given, for tests on other threads."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._messages: list[Message] = []

    def __call__(self, topic: str, payload: bytes) -> None:
        with self._cond:
            self._messages.append((topic, payload))
            self._cond.notify_all()

    @property
    def messages(self) -> list[Message]:
        with self._cond:
            return list(self._messages)

    def payloads(self, topic: str | None = None) -> list[bytes]:
        return [p for t, p in self.messages if topic is None or t == topic]

    def wait_for(self, predicate: Callable[[str, bytes], bool], timeout: float = WAIT_S) -> Message:
        """The first message (received so far or within ``timeout``) that satisfies ``predicate``."""
        with self._cond:
            found: list[Message] = []

            def match() -> bool:
                found[:] = [m for m in self._messages if predicate(*m)][:1]
                return bool(found)

            if not self._cond.wait_for(match, timeout):
                raise AssertionError(f"no matching message within {timeout} s; got {self._messages}")
            return found[0]

    def wait_payload(self, topic: str, payload: bytes, timeout: float = WAIT_S) -> Message:
        return self.wait_for(lambda t, p: t == topic and p == payload, timeout)


def start_broker(workdir: Path, tables: list[str] = TABLES) -> Broker:
    users, acl = table_acl(tables, SCOREBOARD, CONSOLE, also=ALSO | {f"console-{t}": CONSOLE for t in tables})
    try:
        return Broker.start(workdir, users, acl)
    except BrokerError as e:
        pytest.fail(f"cannot start mosquitto for the table tests (run `make setup`):\n{e}", pytrace=False)


@pytest.fixture(scope="module")
def broker(request, tmp_path_factory):
    """The hall's broker for a test module: its ``TABLES`` (default t1 and t2) with the hall's ACL."""
    b = start_broker(tmp_path_factory.mktemp("broker"), getattr(request.module, "TABLES", TABLES))
    yield b
    b.stop()


@pytest.fixture
def fresh_broker(tmp_path):
    """A broker of the test's own, for tests that stop and restart it."""
    b = start_broker(tmp_path / "broker")
    yield b
    b.stop()


@pytest.fixture
def inbox() -> Callable[[], Inbox]:
    return Inbox


def until(condition: Callable[[], bool], timeout: float = WAIT_S) -> bool:
    """Poll ``condition`` (a state no message shows) until it holds (True) or ``timeout`` passes (False)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture(name="until")
def until_fixture() -> Callable[..., bool]:
    """:func:`until` (tests cannot import conftest)."""
    return until


@pytest.fixture
def connect(broker):
    """``connect(user, client_id=None, *, on=broker, start=True, **Connection kwargs)``: a client
    of ``on`` as ``user`` (a persistent session unless ``clean_start=True``), connected unless
    ``start=False``, closed after the test. The broker makes the client id the user's name
    whatever ``client_id`` asks, so a user holds one connection at a time, and its session is
    shared by every test of the module: the test's first persistent connection of a user
    starts from no session."""
    made: list[Connection] = []
    fresh: set[tuple[int, str]] = set()

    def make(user: str, client_id: str | None = None, *, on: Broker | None = None, start: bool = True,
             **kwargs) -> Connection:
        b = on or broker
        kwargs.setdefault("reconnect_delay_s", TEST_RECONNECT_DELAY_S)
        live = [c for c in made if c.address.port == b.port and c.address.username == user and not c._closed]
        assert not live, f"{user} is connected already in this test: close that connection first (the broker would take it over)"
        if not kwargs.get("clean_start") and (id(b), user) not in fresh:
            Connection(b.url(user), clean_start=True).connect().close(flush_timeout=0)
        fresh.add((id(b), user))
        conn = Connection(b.url(user), client_id, **kwargs)
        made.append(conn)
        if start:
            conn.connect()
        return conn

    yield make
    for conn in made:
        conn.close(flush_timeout=0)


class TableWatch:
    """Everything a console sees of one table, decoded, with waits on it. A handler for a
    subscription of the caller's, or (given a broker) connected as the scoreboard by itself."""

    def __init__(self, table: str, broker: Broker | None = None, wait_s: float = WAIT_S):
        self.table, self.wait_s = table, wait_s
        self._cond = threading.Condition()
        self.messages: list[tuple[str, dict]] = []
        self.conn: Connection | None = None
        if broker is not None:
            self.conn = Connection(broker.url(SCOREBOARD), clean_start=True)  # the console's user is the test's
            self.conn.subscribe(topic(table, "state").rsplit("/", 1)[0] + "/#", self)
            self.conn.connect()
            assert self.conn.wait_subscribed(wait_s)

    def __call__(self, full_topic: str, raw: bytes) -> None:
        name = full_topic.split(f"/{self.table}/", 1)[1]
        with self._cond:
            self.messages.append((name, json.loads(raw)))
            self._cond.notify_all()

    def of(self, name: str) -> list[dict]:
        with self._cond:
            return [p for n, p in self.messages if n == name]

    def wait(self, name: str, predicate: Callable[[dict], bool] = lambda p: True, timeout: float | None = None) -> dict:
        """The latest ``name`` payload (received so far or within ``timeout``) that satisfies ``predicate``."""
        timeout = self.wait_s if timeout is None else timeout
        with self._cond:
            found: list[dict] = []

            def match() -> bool:
                found[:] = [p for n, p in self.messages if n == name and predicate(p)][-1:]
                return bool(found)

            if not self._cond.wait_for(match, timeout):
                raise AssertionError(f"no matching {name} within {timeout} s; last: {self.of(name)[-3:]}")
            return found[0]

    def state(self, seq: int) -> dict:
        return self.wait("state", lambda p: p["seq"] == seq)

    def stopped(self, stop: Callable[[], None]) -> None:
        """Run ``stop`` (the table's service stopping) and wait until this watch got all the service published: its
        ``offline`` status comes last on its connection, so in order. What the watch saw then is all of it (a test
        that counts what came before a restart counts everything)."""
        told = len(self.of("status"))
        stop()
        self.wait("status", lambda s: len(self.of("status")) > told and s["status"] == "offline")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close(flush_timeout=0)


class ServiceProcess:
    """``cardtable table run`` as a real process, to kill with SIGKILL and start again."""

    def __init__(self, broker: Broker, table: str, rulebook: str, db: Path, logfile: Path, wait_s: float = 10.0,
                 trust_senders: bool = False):
        credentials = broker.write_credentials(db.parent / f"{table}.credentials", [f"table-{table}"])
        self.args = [sys.executable, "-m", "cardtable", "table", "run", "--table", table, "--rulebook", rulebook,
                     "--broker", broker.address, "--credentials", str(credentials), "--db", str(db)]
        if trust_senders:  # a simulation on virtual time
            self.args.append("--trust-senders")
        self.logfile, self.wait_s = logfile, wait_s
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        with open(self.logfile, "a") as log:
            self.proc = subprocess.Popen(self.args, cwd=Path(__file__).resolve().parents[1],
                                         stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        self.starts += 1

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        assert self.proc.wait(self.wait_s) == -signal.SIGKILL

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(self.wait_s)

    def reap(self) -> None:
        """Make sure the process is gone (after a failed test)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="session")
def table_watch() -> type[TableWatch]:
    """The :class:`TableWatch` class (tests cannot import conftest)."""
    return TableWatch


@pytest.fixture(scope="session")
def service_process() -> type[ServiceProcess]:
    """The :class:`ServiceProcess` class."""
    return ServiceProcess
