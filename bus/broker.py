"""A real mosquitto for tests and the demo, with a generated config, passwords and ACL.

``Broker.start(workdir, users, acl)`` writes ``mosquitto.conf`` into ``workdir`` (a listener on
127.0.0.1 and a free port, and with ``tls=(certfile, keyfile)`` a TLS listener on another, no anonymous clients, a hashed password file, the ACL when given,
persistence and the log in ``workdir``), starts ``mosquitto -c`` and returns once the port accepts
connections. ``restart()`` keeps the port, the config and the persistence file, so retained
messages, persistent sessions and the QoS 1 messages queued for them survive it (mosquitto writes
its database on SIGTERM, and every ``AUTOSAVE_S`` seconds while it runs).

``table_acl(tables, scoreboard_user, console_user)`` makes the users and the ACL of the hall's
policy: each table's service (three sessions, one password: ``protocol.INTAKE``), camera
and board bridge may write only their own topics of their own table (the camera reads its table's ``state``, the
bridge its ``board/out`` and its service's ``status`` and ``health``: whether the table is refereed), the scoreboard only reads, the console reads everything and writes commands, the tournament
service reads the tables' events and states and writes the tournament topics.

>>> users, acl = table_acl(["t1"], "scoreboard", "console")
>>> sorted(users)
['board-t1', 'camera-t1', 'console', 'scoreboard', 'table-t1', 'table-t1-board', 'table-t1-camera', 'tournament']
>>> print(acl)  # doctest: +ELLIPSIS
# cardtable hall ACL ...
user table-t1
topic write cardtable/v1/tables/t1/board/out
topic write cardtable/v1/tables/t1/state
topic write cardtable/v1/tables/t1/events
topic write cardtable/v1/tables/t1/violations
topic write cardtable/v1/tables/t1/status
topic write cardtable/v1/tables/t1/health
topic read cardtable/v1/tables/t1/commands
topic read cardtable/v1/tables/t1/state
topic read cardtable/v1/tables/t1/health
topic read cardtable/v1/tables/t1/camera/status
topic read cardtable/v1/tables/t1/board/status
<BLANKLINE>
user table-t1-camera
topic read cardtable/v1/tables/t1/observed
topic read cardtable/v1/tables/t1/removed
<BLANKLINE>
user table-t1-board
topic read cardtable/v1/tables/t1/board/in
<BLANKLINE>
user camera-t1
topic write cardtable/v1/tables/t1/observed
topic write cardtable/v1/tables/t1/removed
topic write cardtable/v1/tables/t1/frames
topic write cardtable/v1/tables/t1/camera/status
topic read cardtable/v1/tables/t1/state
<BLANKLINE>
user board-t1
topic write cardtable/v1/tables/t1/board/in
topic write cardtable/v1/tables/t1/board/status
topic read cardtable/v1/tables/t1/board/out
topic read cardtable/v1/tables/t1/status
topic read cardtable/v1/tables/t1/health
<BLANKLINE>
user scoreboard
topic read cardtable/v1/tables/#
topic read cardtable/v1/tournament/#
topic read $SYS/broker/publish/messages/dropped
<BLANKLINE>
user console
topic read cardtable/v1/#
topic write cardtable/v1/tables/+/commands
topic read $SYS/broker/publish/messages/dropped
<BLANKLINE>
user tournament
topic read cardtable/v1/tables/+/events
topic read cardtable/v1/tables/+/state
topic write cardtable/v1/tournament/#
<BLANKLINE>
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from bus.mqtt import BrokerAddress
from bus.protocol import HEEDED, INTAKE, MAX_BYTES, OUTPUTS, PREFIX, topic
from referee.catalogue import Refusal

TABLES = PREFIX.rstrip("/")  # cardtable/v1/tables
ROOT = TABLES.rsplit("/", 1)[0]  # cardtable/v1
TOURNAMENTS = f"{ROOT}/tournament"  # cardtable/v1/tournament/{id}/round and .../standings
# The messages the broker dropped since it started (a subscriber's queue full: a sender flooding it),
# published by mosquitto every sys_interval; the scoreboard and the console read it (the console shows it).
BROKER_DROPPED = "$SYS/broker/publish/messages/dropped"

# What a table's service publishes (the protocol's outputs), and reads back of them at start (the
# witnesses of its log); each of its sessions reads its senders' inputs (``protocol.INTAKE``).
TABLE_WRITES = OUTPUTS
TABLE_READS_BACK = ("state", "health")

HOST = "127.0.0.1"
FREE_FROM = 10_000  # free_port picks from here up to the system's range for connections' own ports
STARTUP_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 10.0
AUTOSAVE_S = 5  # mosquitto also saves on a clean stop (SIGTERM); this bounds the loss on a crash
MAX_QUEUED_MESSAGES = 100_000  # per client; mosquitto's default (1000) is small for a whole evening
MAX_QUEUED_BYTES = 16 * 1024 * 1024  # per client, whichever limit comes first: a queue holds no more than this

_SBIN = ("/usr/sbin", "/usr/local/sbin", "/sbin")


class BrokerError(Refusal, RuntimeError):
    """mosquitto is missing, would not start, or refused its config (the message has the log tail), or the broker's
    users and tables cannot be (the catalogue's ``broker.*``; a ValueError too)."""

    section = "broker"


def table_user(table: str) -> str:
    return f"table-{table}"


def camera_user(table: str) -> str:
    return f"camera-{table}"


def board_user(table: str) -> str:
    return f"board-{table}"


def table_acl(
    tables: list[str], scoreboard_user: str = "scoreboard", console_user: str = "console",
    tournament_user: str = "tournament", also: dict[str, str] | None = None,
) -> tuple[dict[str, str], str]:
    """Users (name -> a fresh random password) and the mosquitto ACL text of the hall's policy.

    Per table: the table service writes its outputs and reads its inputs and its devices' presence (``HEEDED``),
    the camera writes ``observed``, ``removed``, ``frames`` (the pictures kept for a flagged read) and its presence
    ``camera/status`` and reads ``state`` (what the table holds as played: ``vision.tracker.told``), the board bridge writes ``board/in`` and its presence ``board/status`` and reads
    ``board/out``. The scoreboard reads every table and the tournament; the console reads everything and writes
    every table's ``commands``; the tournament service reads every table's ``events`` and writes the tournament
    topics.

    The broker makes every user's client id its name (``use_username_as_clientid``), so a user
    holds one connection at a time and no user can take over another's session. ``also`` adds
    users with the rights of a central role (name -> ``scoreboard``, ``console`` or
    ``tournament``) for a second program of that kind, e.g. a second display.

    >>> print(table_acl(["t1"], also={"display-2": "scoreboard"})[1].split("user display-2")[1].strip())
    topic read cardtable/v1/tables/#
    topic read cardtable/v1/tournament/#
    topic read $SYS/broker/publish/messages/dropped
    >>> table_acl(["t1"], also={"x": "referee"})
    Traceback (most recent call last):
    ...
    bus.broker.BrokerError: 用户 x：没有“referee”这个角色；可用的角色：console、scoreboard、tournament
"""
    for table in tables:
        if not table or any(c in table for c in "/+#\0") or any(c.isspace() for c in table):
            raise BrokerError("bad_table", table=table)
    if len(set(tables)) != len(tables):
        raise BrokerError("tables_twice", tables=list(tables))
    blocks: list[tuple[str, list[str]]] = []
    shared: dict[str, str] = {}  # a table service's sessions share its password
    for t in tables:
        blocks.append((table_user(t),
                       [f"topic write {topic(t, leaf)}" for leaf in TABLE_WRITES]
                       + [f"topic read {topic(t, leaf)}" for leaf in (*INTAKE[""], *TABLE_READS_BACK, *HEEDED)]))
        for suffix, leaves in INTAKE.items():
            if suffix:
                blocks.append((table_user(t) + suffix, [f"topic read {topic(t, leaf)}" for leaf in leaves]))
                shared[table_user(t) + suffix] = table_user(t)
        blocks.append((camera_user(t), [f"topic write {topic(t, leaf)}"
                                        for leaf in ("observed", "removed", "frames", "camera/status")]
                       + [f"topic read {topic(t, 'state')}"]))
        blocks.append((board_user(t), [f"topic write {topic(t, 'board/in')}",
                                       f"topic write {topic(t, 'board/status')}",
                                       f"topic read {topic(t, 'board/out')}"]
                       + [f"topic read {topic(t, leaf)}" for leaf in ("status", "health")]))  # is it refereed?
    central = {"scoreboard": [f"topic read {TABLES}/#", f"topic read {TOURNAMENTS}/#", f"topic read {BROKER_DROPPED}"],
               "console": [f"topic read {ROOT}/#", f"topic write {TABLES}/+/commands", f"topic read {BROKER_DROPPED}"],
               "tournament": [f"topic read {TABLES}/+/events", f"topic read {TABLES}/+/state",
                              f"topic write {TOURNAMENTS}/#"]}
    roles = {scoreboard_user: "scoreboard", console_user: "console", tournament_user: "tournament"}
    for name, role in (also or {}).items():
        if role not in central:
            raise BrokerError("unknown_role", user=name, role=role, roles=sorted(central))
        roles[name] = role
    blocks += [(name, central[role]) for name, role in roles.items()]
    names = [name for name, _ in blocks]
    if len(set(names)) != len(names):
        raise BrokerError("users_collide", names=names)
    for name in names:
        _check_user(name)
    lines = ["# cardtable hall ACL (generated by bus.broker.table_acl)", ""]
    for name, rules in blocks:
        lines += [f"user {name}", *rules, ""]
    users = {name: secrets.token_urlsafe(18) for name in names}
    users.update({name: users[owner] for name, owner in shared.items()})
    return users, "\n".join(lines)


@dataclass(frozen=True)
class Listener:
    """One of the broker's listeners: ``port`` on ``address`` ("": every interface); TLS when given the server's
    certificate (PEM, its chain after it) and key.

    >>> Listener(8883, "", Path("/etc/cardtable/server.pem"), Path("/etc/cardtable/server.key")).lines()
    ['listener 8883', 'certfile /etc/cardtable/server.pem', 'keyfile /etc/cardtable/server.key']
    """

    port: int
    address: str = ""
    certfile: Path | None = None
    keyfile: Path | None = None

    def lines(self) -> list[str]:
        tls = [f"certfile {self.certfile}", f"keyfile {self.keyfile}"] if self.certfile is not None else []
        return [f"listener {self.port} {self.address}".strip(), *tls]


def config_text(listeners: list[Listener], passwd: Path, acl: Path | None, persistence: Path, log_dest: str,
                user: str | None = None) -> str:
    """mosquitto.conf of the hall's broker: its ``listeners``, no anonymous clients,
    the hashed ``passwd`` file, the ``acl`` file, persistence in the folder ``persistence``, each
    client's id its user name, logs to ``log_dest`` (``file PATH``, ``stderr``), ``user`` to run as
    when started as root."""
    lines = ["per_listener_settings false", *(line for listener in listeners for line in listener.lines()),
             "allow_anonymous false", f"password_file {passwd}"]
    if acl is not None:
        lines.append(f"acl_file {acl}")
    lines += [
        "persistence true",
        f"persistence_location {persistence}/",
        "persistence_file mosquitto.db",
        f"autosave_interval {AUTOSAVE_S}",
        f"max_queued_messages {MAX_QUEUED_MESSAGES}",
        # No payload of the contract is bigger (protocol.MAX_BYTES); a bigger one (a faulty sender) is not taken,
        # nor queued for a service away: a session's queue is bounded in bytes too, not only in messages.
        f"message_size_limit {MAX_BYTES}",
        f"max_queued_bytes {MAX_QUEUED_BYTES}",
        "use_username_as_clientid true",  # a user holds only its own session: none takes over another's
        "set_tcp_nodelay true",  # small messages go out at once (Nagle would hold them ~40 ms)
        f"log_dest {log_dest}",
        *(f"log_type {t}" for t in ("error", "warning", "notice", "information")),
        "connection_messages true",
        "log_timestamp_format %Y-%m-%dT%H:%M:%S",
    ]
    if user is not None:
        lines.append(f"user {user}")
    for line in lines:
        if "\n" in line or "\r" in line:
            raise BrokerError("config_line", line=repr(line))
    return "\n".join(lines) + "\n"


def write_passwords(path: Path, users: dict[str, str]) -> None:
    """mosquitto's password file of ``users``, hashed (``mosquitto_passwd -U``), mode 0600."""
    for name in users:
        _check_user(name)
    passwd = find_program("mosquitto_passwd")
    # Plain text first, then hashed in place: no password ever appears on a command line.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.writelines(f"{name}:{password}\n" for name, password in users.items())
    done = subprocess.run([passwd, "-U", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        raise BrokerError("passwd_failed", code=done.returncode, output=done.stderr or done.stdout)


def free_port(host: str = HOST) -> int:
    """A TCP port on ``host`` that nobody listens on right now, below the system's range for connections' own ends
    (Linux's ``ip_local_port_range``): a port the system picked from that range, found free and let go, was taken by a
    connection made before its server listened there (Errno 98, a display's in a clean clone). The system picks where
    the range leaves no room below it."""
    low, pick = _connections_ports()[0], secrets.SystemRandom()
    for _ in range(50 if low > FREE_FROM else 0):
        port = pick.randrange(FREE_FROM, low)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((host, port))
            except OSError:  # in use
                continue
            return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _connections_ports() -> tuple[int, int]:
    """The range the system takes connections' own ports from (Linux's; elsewhere, where IANA puts them)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 49152, 65535


def find_program(name: str) -> str:
    """The path of a mosquitto program; /usr/sbin is searched even when it is not on PATH."""
    path = os.pathsep.join([os.environ.get("PATH", ""), *_SBIN])
    found = shutil.which(name, path=path)
    if not found:
        raise BrokerError("no_program", name=name, looked=list(_SBIN))
    return found


def _check_user(name: str) -> None:
    if not name or ":" in name or any(c.isspace() for c in name) or "\0" in name:
        raise BrokerError("bad_user", user=name)


def _check_path(path: Path) -> None:
    if "\n" in str(path) or "\r" in str(path):
        raise BrokerError("path_newline", path=repr(path))


class Broker:
    """One mosquitto process on ``127.0.0.1:port`` (and ``tls_port`` with TLS); make it with ``Broker.start``."""

    def __init__(self, workdir: Path, users: dict[str, str], acl: str | None, port: int | None,
                 tls: tuple[Path, Path] | None = None):
        self.workdir = Path(workdir).resolve()
        self.users = dict(users)
        self.acl = acl
        self.host = HOST
        self.port = port or 0
        self.tls = tls
        self.tls_port: int | None = None
        self._pick_port = port is None
        self.config_path = self.workdir / "mosquitto.conf"
        self.passwd_path = self.workdir / "passwd"
        self.acl_path = self.workdir / "acl"
        self.log_path = self.workdir / "mosquitto.log"
        self.output_path = self.workdir / "mosquitto.out"  # stdout/stderr: errors before the log opens
        self.db_path = self.workdir / "mosquitto.db"
        self._proc: subprocess.Popen | None = None
        self.own_session = False

    # -- life cycle ------------------------------------------------------------------------------

    @classmethod
    def start(
        cls, workdir: Path, users: dict[str, str], acl: str | None = None, port: int | None = None,
        tls: tuple[Path, Path] | None = None, own_session: bool = False,
    ) -> Broker:
        """Write the config into ``workdir`` and start mosquitto; returns once it accepts connections.

        ``port=None`` picks a free one (and tries another if it is taken meanwhile); ``tls``, the server's certificate
        and key files, adds a TLS listener on a free port (``tls_port``); ``own_session``: mosquitto in a session of
        its own, which a terminal's Ctrl-C (SIGINT to its foreground process group) does not reach: its owner stops
        it, after its clients (the hall)."""
        broker = cls(workdir, users, acl, port, tls)
        broker.own_session = own_session
        broker._write_files()
        attempts = 3 if broker._pick_port or tls else 1
        for attempt in range(attempts):
            if broker._pick_port:
                broker.port = free_port(broker.host)
            if tls:
                broker.tls_port = free_port(broker.host)
            broker._write_config()
            try:
                broker._spawn()
                return broker
            except BrokerError:
                if attempt + 1 < attempts and "Address already in use" in broker.log_tail():
                    continue
                raise
        raise AssertionError("unreachable")

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self.running else None

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> None:
        """SIGTERM (mosquitto saves its persistence file) and wait; SIGKILL if it does not exit."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def kill(self) -> None:
        """SIGKILL: a crash; whatever changed since the last autosave is lost."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()

    def restart(self) -> None:
        """Stop if running, then start again on the same port with the same config and database."""
        self.stop()
        self._spawn()

    def __enter__(self) -> Broker:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def __del__(self) -> None:  # a forgotten broker must not outlive the tests
        try:
            self.kill()
        except Exception:
            pass

    # -- clients ---------------------------------------------------------------------------------

    def url(self, user: str, tls_host: str | None = None) -> str:
        """``mqtt://user:password@127.0.0.1:port`` for one of this broker's users; with ``tls_host``,
        ``mqtts://`` to the TLS listener by that name (the one its certificate must carry)."""
        if user not in self.users:
            raise KeyError(f"no user {user!r} on this broker (users: {sorted(self.users)})")
        tls = tls_host is not None
        return BrokerAddress(tls_host if tls else self.host, self.tls_port if tls else self.port, user, self.users[user], tls).url

    @property
    def address(self) -> str:
        """``mqtt://127.0.0.1:port``: with a credentials file, what the programs are given as ``--broker``."""
        return f"mqtt://{self.host}:{self.port}"

    def write_credentials(self, path: Path, users: list[str] | None = None) -> Path:
        """A credentials file (mode 0600, ``bus.credentials``) of ``users`` (default: all)."""
        from bus.credentials import write_credentials

        write_credentials(Path(path), {u: self.users[u] for u in (users or self.users)})
        return Path(path)

    def log_tail(self, lines: int = 30) -> str:
        """The last lines of mosquitto's output and log, for error messages."""
        out = []
        for path in (self.output_path, self.log_path):
            if path.exists():
                text = path.read_text(errors="replace").splitlines()[-lines:]
                if text:
                    out.append(f"--- {path.name}\n" + "\n".join(text))
        return "\n".join(out) or "(mosquitto wrote nothing)"

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<Broker {self.host}:{self.port} {state} in {self.workdir}>"

    # -- internals -------------------------------------------------------------------------------

    def _write_files(self) -> None:
        _check_path(self.workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        write_passwords(self.passwd_path, self.users)
        if self.acl is not None:
            self.acl_path.write_text(self.acl if self.acl.endswith("\n") else self.acl + "\n")

    def _write_config(self) -> None:
        # As root mosquitto would switch to the user "mosquitto", who cannot read our workdir.
        listeners = [Listener(self.port, self.host)]
        if self.tls is not None:
            listeners.append(Listener(self.tls_port, self.host, *self.tls))
        text = config_text(listeners, self.passwd_path, self.acl_path if self.acl is not None else None,
                           self.workdir, f"file {self.log_path}", "root" if os.geteuid() == 0 else None)
        self.config_path.write_text("# generated by bus.broker; rewritten on every Broker.start\n" + text)

    def _spawn(self) -> None:
        if self.running:
            return
        program = find_program("mosquitto")
        log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        with open(self.output_path, "ab") as out:
            self._proc = subprocess.Popen(
                [program, "-c", str(self.config_path)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, cwd=self.workdir,
                start_new_session=self.own_session,
            )
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            code = self._proc.poll()
            if code is not None:
                self._proc = None
                raise BrokerError("exited", code=code, address=f"{self.host}:{self.port}", config=self.config_path,
                                  log=self.log_tail())
            # Ready: this process logged that it runs (after opening its listener) and the port answers;
            # the log line makes sure that it is our mosquitto, not something else on that port.
            if self._logged_running(log_start):
                try:
                    with socket.create_connection((self.host, self.port), timeout=0.5):
                        return
                except OSError:
                    pass
            if time.monotonic() > deadline:
                self.kill()
                raise BrokerError("no_accept", address=f"{self.host}:{self.port}", seconds=f"{STARTUP_TIMEOUT_S:.0f}",
                                  log=self.log_tail())
            time.sleep(0.02)

    def _logged_running(self, since: int) -> bool:
        try:
            with open(self.log_path, "rb") as f:
                f.seek(since)
                new = f.read()
        except FileNotFoundError:
            return False
        return b" running" in new and b"mosquitto version" in new
