"""What the display tests share: the app on the module's real mosquitto (tests/conftest.py),
served by uvicorn in a thread, users of both roles, valid payloads to change, and publishers
that speak as a table service and the tournament service would."""

from __future__ import annotations

import copy
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, Self

import uvicorn

from bus.mqtt import Connection
from bus.protocol import encode, schema, topic
from display.app import Settings, create_app
from display.store import Store
from referee.table.service import TableService
from referee.tournament import TournamentStore
from referee.tournament.entries import Entry
from referee.tournament.service import TournamentService

ORGANISER = ("wang", "organiser-pass")
REFEREE = ("li", "referee-pass")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "display"
CHROMIUM = "/usr/bin/chromium"
HALL_LOCALE = "zh-CN"  # the browsers of the tests' hall ask for Chinese (Chromium asks for en-US unless told)
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

STATE = schema("state")["examples"][0]  # the example of bus/PROTOCOL.md, changed by the tests


def state(**changes) -> dict:
    s = copy.deepcopy(STATE)
    s.update(changes)
    return s


def standings(tid: str = "autumn", rows: list[dict] | None = None, rnd: int = 1) -> dict:
    return {"v": 1, "tournament": tid, "name": "秋季教工升级赛", "system": "pair-swiss", "round": rnd,
            "columns": ["对手分", "级差"], "rows": rows or [], "at": time.time()}


def round_(tid: str = "autumn", tables: list[dict] | None = None, rnd: int = 1) -> dict:
    return {"v": 1, "tournament": tid, "name": "秋季教工升级赛", "system": "pair-swiss", "round": rnd, "rounds": 5,
            "tables": tables or [], "byes": [], "at": time.time()}


def answers(conn: Connection, table: str, heard: Callable[[str, bytes], None] | None = None,
            taking: Callable[[], bool] = lambda: True) -> None:
    """``conn`` (``table``'s broker user) answers each console command to ``table`` as its service does when it takes
    it (an ``applied`` event, which the console waits for), after handing it to ``heard``; nothing while not
    ``taking()`` (a table offline or stalled)."""

    def answer(t: str, raw: bytes) -> None:
        if heard is not None:
            heard(t, raw)
        if not taking():
            return
        p = json.loads(raw)
        event = {"v": 1, "seq": 1, "kind": "applied", "at": time.time(), "data": {"id": p["id"], "command": p["command"]}}
        conn.publish(topic(table, "events"), encode("events", event), qos=1)

    conn.subscribe(topic(table, "commands"), answer)
    assert conn.wait_subscribed(30)


class Table:
    """Publishes a table's outputs as its service would (its own broker user), and takes every console command
    (``answers``; each handed to ``listeners`` first) while ``taking``."""

    def __init__(self, connect, name: str):
        self.name = name
        self.conn = connect(f"table-{name}", clean_start=True)
        self.listeners: list[Callable[[str, bytes], None]] = []
        self.taking = True
        answers(self.conn, name, lambda t, raw: [heard(t, raw) for heard in self.listeners], lambda: self.taking)

    def publish(self, leaf: str, payload: dict, retain: bool | None = None) -> None:
        retained = leaf in ("state", "status") if retain is None else retain
        self.conn.publish(topic(self.name, leaf), encode(leaf, payload), qos=1, retain=retained)
        assert self.conn.flush(5.0)

    def event(self, seq: int, kind: str, **data) -> None:
        """An event of the table's log, said now."""
        self.publish("events", {"v": 1, "seq": seq, "kind": kind, "at": time.time(), "data": data})


class Tournament:
    def __init__(self, connect):
        self.conn = connect("tournament", clean_start=True)

    def publish(self, tid: str, leaf: str, payload: dict | bytes) -> None:
        raw = payload if isinstance(payload, bytes) else json.dumps(payload, ensure_ascii=False).encode()
        self.conn.publish(f"cardtable/v1/tournament/{tid}/{leaf}", raw, qos=1, retain=True)
        assert self.conn.flush(5.0)


def make_db(path: Path) -> Path:
    store = Store.open(path)
    store.add_user(*ORGANISER, "organiser", now=time.time())
    store.add_user(*REFEREE, "referee", now=time.time())
    store.close()
    return path


def small_tournament(path: Path, clock=time.time) -> Path:
    """A tournament's file: four pairs of two units, pair-swiss of two rounds, round 1 paired."""
    t = TournamentStore(path, clock=clock)
    t.new("pair-swiss", [Entry(f"e{i}", f"队{i}", f"单位{i // 2}", f"单位{i // 2}", (f"甲{i}", f"乙{i}")) for i in range(4)],
          name="秋季赛", options={"rounds": 2})
    t.pair_next_round()
    t.close()
    return path


def damaged_tournament(path: Path) -> Path:
    """``small_tournament`` with t01 won by its first side, the result then changed on disk: it still reads, and its
    seal differs (``第 3 条记录与写入时不同`` / ``action 3 is not what was written``)."""
    small_tournament(path)
    t = TournamentStore(path)
    t.record_result(1, "t01", {"winner": 0})
    t.close()
    data = path.read_bytes()
    assert data.count(b'"winner": 0') == 1
    path.write_bytes(data.replace(b'"winner": 0', b'"winner": 1'))
    return path


@contextmanager
def console_of(browser, server: Server, locale: str = HALL_LOCALE, viewport: dict | None = None):
    """The console of ``server`` in a browser context of its own (``locale``, ``viewport``: a phone's), logged in as
    the organiser."""
    context = browser.new_context(locale=locale, **({"viewport": viewport} if viewport else {}))
    try:
        console = context.new_page()
        console.goto(server.url + "/console")
        login(console)
        yield console
    finally:
        context.close()


class Hall(NamedTuple):
    """A tournament's hall as :func:`hall_of` opens it."""

    server: Server
    console: Any  # a Playwright page: the console, logged in as the organiser
    board: Any  # a Playwright page: the hall's scoreboard


@contextmanager
def hall_of(browser, broker, store: TournamentStore, db: Path) -> Iterator[Hall]:
    """The tournament service on ``store``'s file, the app serving it (the console's users in ``db``), its console
    logged in as the organiser and the hall's scoreboard, each in a browser context of its own asking for Chinese
    (``HALL_LOCALE``). Everything is stopped on leaving, a failed test's too; a test that passed asserts its pages
    threw no error."""
    service = TournamentService(TournamentStore(store.path), broker.url("tournament"),
                                client_id=f"tournament-{store.tournament.id}", poll_s=0.1).start()
    try:
        with served(broker, db, store.path) as server, console_of(browser, server) as console:
            context = browser.new_context(locale=HALL_LOCALE)
            try:
                board = context.new_page()
                errors: list[str] = []
                for pg in (console, board):
                    pg.on("pageerror", lambda e: errors.append(str(e)))
                board.goto(server.url + "/")
                board.wait_for_selector("body[data-live='1']", state="attached")
                yield Hall(server, console, board)
                assert not errors, errors
            finally:
                context.close()
    finally:
        service.stop()


def settings(broker, db: Path, tournament_db: Path | None = None, users=("scoreboard", "console"), **more) -> Settings:
    """The app's settings; ``users``: its broker users (each holds one connection at a time: an app beside the
    module's takes ``OWN_USERS``)."""
    return Settings(broker.url(users[0]), broker.url(users[1]), db, tournament_db, **more)


OWN_USERS = ("scoreboard-3", "console-3")


class Server:
    """The app served by uvicorn on a thread, on a port it holds from the start (a port found free and let go may be
    taken by another socket, a connection's own end, before uvicorn binds it)."""

    def __init__(self, app):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()




class Relay:
    """A TCP relay to the broker: one of a program's connections through it can be cut while its others stay (the
    display's scoreboard and console connections). ``cut()`` drops every connection through it and refuses new
    ones (each is closed at once, as by a network gone) until ``mend()``. ``hold()`` stops the connections through it
    without a word, as a network dropped silently does (no reset, no close): new ones pass."""

    def __init__(self, broker):
        self.broker, self.open, self.pairs = broker, True, []
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.1)
        self.port = self.listener.getsockname()[1]
        self.closed = False
        self.held: set[socket.socket] = set()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def url(self, user: str) -> str:
        """The broker's URL for ``user``, through this relay."""
        return self.broker.url(user).rsplit(":", 1)[0] + f":{self.port}"

    def _accept(self) -> None:
        while not self.closed:
            try:
                near, _ = self.listener.accept()
            except TimeoutError:
                continue
            with self.lock:
                try:
                    far = socket.create_connection((self.broker.host, self.broker.port)) if self.open else None
                except OSError:  # the broker itself gone
                    far = None
                if far is None:
                    near.close()
                    continue
                self.pairs.append((near, far))
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                while source in self.held and not self.closed:
                    time.sleep(0.05)
                sink.sendall(data)
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # cut

    def cut(self) -> None:
        with self.lock:
            self.open, pairs, self.pairs = False, self.pairs, []
        for pair in pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def hold(self) -> None:
        with self.lock:
            self.held |= {s for pair in self.pairs for s in pair}

    def mend(self) -> None:
        with self.lock:
            self.open = True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.cut()
        self.closed = True
        self.thread.join(5)
        self.listener.close()


def served(broker, db: Path, tournament_db: Path | None = None, users=("scoreboard", "console")) -> Server:
    """The app on ``broker`` with the users of ``make_db``, served on a free port."""
    return Server(create_app(settings(broker, make_db(db), tournament_db, users)))


class LiveTable:
    """A real table service (in-process) and its camera, board and console (its own console user, ``console-<name>``:
    tests/conftest.py), driven by the test."""

    PLAYERS: ClassVar[dict[str, str]] = {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"}

    def __init__(self, broker, name: str, db: Path, rulebook: str = "classic-3deck"):
        self.name, self.n, self.rulebook = name, 0, rulebook
        self.service = TableService(name, rulebook, broker.url(f"table-{name}"), db).start()
        self.conns = {leaf: Connection(broker.url(user), f"{user}-{time.monotonic_ns()}", clean_start=True).connect()
                      for leaf, user in (("observed", f"camera-{name}"), ("board/in", f"board-{name}"), ("commands", f"console-{name}"))}

    def send(self, leaf: str, **fields) -> None:
        """Publish one input and wait until the service has applied it. The camera, the board and the console
        reach the service on sessions of their own, so two inputs sent one after the other by different senders
        may be applied in either order (as at a real table); a test that means an order waits for each."""
        self.n += 1
        payload = {"v": 1, "id": f"test-{leaf}-{self.n}-{time.monotonic_ns()}", **fields}
        if leaf != "commands":
            payload["at"] = time.time()
        conn, before = self.conns[leaf], self.service.seq
        conn.publish(topic(self.name, leaf), encode(leaf, payload), qos=1)
        assert conn.flush(5.0)
        assert self.service.wait_applied(before + 1, 30.0), f"the table did not apply {leaf} {fields}"

    def flag(self) -> str:
        """The id of the table's first open flag (named by the log entry that raised it)."""
        return self.service.table.flags[0].flag

    def seated(self) -> None:
        """Seat four players, start the round, all arrive."""
        self.send("commands", command="assign", players=self.PLAYERS, rulebook=self.rulebook)
        self.send("commands", command="start_round")
        for seat in "SENW":
            self.send("board/in", seat=seat, button="ready")

    def to_first_lead(self) -> None:
        """Seat four players, start the round, all arrive, end the draw, S takes the kitty, hearts trump:
        S is to lead the first trick."""
        self.seated()
        self.send("board/in", seat="S", button="declare")
        self.send("board/in", seat="S", button="ready")
        self.send("observed", seat="S", cards=["H3"], confidence=0.99)

    def foul_and_unsure_lead(self) -> str:
        """A San Da Yi table (``usst-2016``): S bids first (一 5) and deals, the referee records E's first foul, S's lead is
        an unsure read: its flag's number."""
        self.seated()
        for button in ("bid1", "pass", "pass", "pass"):
            self.send("board/in", seat=self.service.table.state(time.time())["turn"], button=button)
        self.send("board/in", seat="S", button="ready")
        self.send("commands", command="foul", seat="E", kind="talking")
        self.send("observed", seat="S", cards=["S3"], confidence=0.5)
        return self.flag()[1:]

    def close(self) -> None:
        for conn in self.conns.values():
            conn.close()
        self.service.stop()


def shot(pg, name: str) -> None:
    """A screenshot of the page into artifacts/display/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    pg.screenshot(path=str(path))
    print(f"screenshot: {path}")
    assert path.stat().st_size > 10_000


def as_(client, who):
    """A TestClient logged in as ``who`` (its cookies replaced)."""
    client.cookies.clear()
    assert client.post("/api/login", json={"user": who[0], "password": who[1]}).status_code == 200
    return client


def login(console, who=ORGANISER) -> None:
    console.wait_for_selector("#login-form")
    console.fill("input[name=user]", who[0])
    console.fill("input[name=password]", who[1])
    console.click("#login-form button")
    console.wait_for_selector("#desk:not([hidden])")


def until(pg, expression: str, timeout_ms: float = 30_000) -> None:
    """Wait until ``expression`` is true in the page, asked from here (Playwright's wait_for_function polls with
    eval inside the page, which the pages' Content-Security-Policy forbids)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not pg.evaluate(expression):
        assert time.monotonic() < deadline, f"not true within {timeout_ms:g} ms: {expression}"
        time.sleep(0.03)
