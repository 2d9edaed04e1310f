"""``cardtable hall setup``: every file a real hall needs, from one command (docs/deployment.md).

Writes into a new folder, one sub-folder per machine, each to be copied to that machine's
``--etc`` (default ``/etc/cardtable``; the files name the paths they will have there):

- ``console/``: the broker's ``mosquitto.conf``, ``acl`` and hashed ``passwd``; the credentials of
  the scoreboard, the console and the tournament service; the systemd units
  ``cardtable-broker``, ``cardtable-display`` and ``cardtable-tournament``;
- ``TABLE/`` for each table: the credentials of its service, camera and board bridge and their
  units ``cardtable-table``, ``cardtable-camera`` and ``cardtable-bridge``;
- ``INSTALL.txt``: what to copy where, and the commands that start it all.

Every password is fresh and random, and is written only into the credentials files (mode 0600)
and, hashed, into the broker's ``passwd``; the units give the programs ``--credentials``, never a
password.

Given the console machine's certificate (``tls``: the CA that signed it, the certificate and its key, e.g. from
``cardtable hall certs``), the hall speaks TLS only: the broker has one listener, a TLS one (port 8883 unless
given), every unit's URL is ``mqtts://`` with the CA in ``$CARDTABLE_BROKER_CA`` (``ca.pem`` in every folder), and
the display serves HTTPS with the same certificate (its session cookie HTTPS only). The files are checked first,
as a client will check them: a certificate that does not name the broker's host, or that the CA did not sign, is
refused and nothing is written. Without them everything crosses the hall network in the clear (passwords
included): only for a network no player or spectator can reach.

>>> plan = Plan(tables={"t07": "classic-3deck"}, broker_host="hall-broker")
>>> print(table_units(plan, "t07")["cardtable-table.service"])
[Unit]
Description=cardtable table t07: the referee service
After=network-online.target time-sync.target
Wants=network-online.target time-sync.target
<BLANKLINE>
[Service]
User=cardtable
ExecStart=/usr/local/bin/cardtable table run --table t07 --rulebook classic-3deck --broker mqtt://hall-broker:1883 --credentials /etc/cardtable/credentials --db /var/lib/cardtable/t07.db
Restart=always
RestartSec=2
RestartPreventExitStatus=2 3
Type=notify
NotifyAccess=main
TimeoutStartSec=300
WatchdogSec=20
NoNewPrivileges=yes
PrivateTmp=yes
<BLANKLINE>
[Install]
WantedBy=multi-user.target
<BLANKLINE>
"""

from __future__ import annotations

import os
import shlex
import ssl
from dataclasses import dataclass, field
from pathlib import Path

from bus.broker import Listener, board_user, camera_user, config_text, table_acl, table_user, write_passwords
from bus.mqtt import DEFAULT_PORT, ENV_CA, TAKEN_OVER_EXIT, TLS_PORT
from bus.credentials import write_credentials
from cardtable.lang import REFUSED
from hall.procs import SILENT_S
from referee.catalogue import Refusal

CONSOLE_DIR = "console"
CENTRAL_USERS = ("scoreboard", "console", "tournament")


class PlanError(Refusal):
    """A hall that cannot be set up as asked (the catalogue's ``hall.setup.*``); nothing is written."""

    section = "hall.setup"


@dataclass(frozen=True)
class Tls:
    """The console machine's certificate (PEM, its chain after it), its key, and the CA that signed it."""

    ca: Path
    cert: Path
    key: Path


def check_tls(tls: Tls, host: str) -> None:
    """Refuse (in words) ``tls`` files a client reaching ``host`` would refuse: a handshake in memory between the
    broker's side (the certificate and key) and a client's (the CA, the host name checked), as ``bus.mqtt`` makes."""
    try:
        server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server.load_cert_chain(tls.cert, tls.key)
        client = ssl.create_default_context(cafile=tls.ca)
    except (OSError, ssl.SSLError) as exc:  # missing, not PEM, or a key that is not the certificate's
        raise PlanError("tls_unreadable", ca=tls.ca, cert=tls.cert, keyfile=tls.key,
                        error=exc) from None
    wires = [ssl.MemoryBIO() for _ in range(4)]
    ends = [(client.wrap_bio(wires[0], wires[1], server_hostname=host), wires[1], wires[2]),
            (server.wrap_bio(wires[2], wires[3], server_side=True), wires[3], wires[0])]
    done: set[int] = set()
    while len(done) < 2:
        for n, (end, out, peer) in enumerate(ends):
            try:
                end.do_handshake()
                done.add(n)
            except ssl.SSLWantReadError:
                pass
            except ssl.SSLError as exc:  # the client's check, or the server hearing of it
                reason = getattr(exc, "verify_message", None) or exc.reason
                raise PlanError("tls_refused", host=host, cert=tls.cert, ca=tls.ca, reason=reason) from None
            peer.write(out.read())


@dataclass(frozen=True)
class Plan:
    """What ``cardtable hall setup`` writes: the tables (id -> rulebook), where the broker is, and
    where each machine keeps its files."""

    tables: dict[str, str]
    broker_host: str
    port: int | None = None  # the broker's (default 8883 with TLS, else 1883)
    listen: str = ""  # the broker's listening address ("": every interface)
    etc: Path = Path("/etc/cardtable")
    state: Path = Path("/var/lib/cardtable")
    system_user: str = "cardtable"
    cardtable: str = "/usr/local/bin/cardtable"  # the command, as a shell would split it
    mosquitto: str = "/usr/sbin/mosquitto"
    camera_source: str = "0"
    board_port: str = "/dev/ttyUSB0"
    display_port: int = 8080
    also: dict[str, str] = field(default_factory=dict)  # more central users: name -> role (table_acl)
    tls: Tls | None = None  # the console machine's certificate: the hall speaks TLS only

    @property
    def broker_port(self) -> int:
        return self.port or (TLS_PORT if self.tls else DEFAULT_PORT)

    @property
    def broker(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.broker_host}:{self.broker_port}"


def unit(description: str, argv: list[str], plan: Plan, groups: str = "", down: tuple[int, ...] = (),
         silent_s: float | None = None) -> str:
    """A systemd service that runs ``argv`` as the hall's system user, started again whenever it stops, unless it
    exited with a status of ``down``; with TLS, its broker's CA in ``$CARDTABLE_BROKER_CA``. A table's one sender
    (its camera, its bridge), and the broker's one tournament service, stays down when one of another machine took it
    over (``TAKEN_OVER_EXIT``; a table's service too, its log moved to another machine while it ran):
    started again, it would take the table back, and the two would fight every few seconds; a table's service when
    it refused to start (``REFUSED``: its log will not do, a person decides, ``docs/recovery.md``), and a camera whose
    model file will not do (damaged, of the wrong kind): started again, it would be refused again every 2 s for
    ever. The unit shows failed, its log says why. A service that says it lives (``silent_s``: its loop's
    ``WATCHDOG=1``, ``cardtable.watchdog``) and then falls silent that long is hung, even alive (a hang holding the GIL
    stops its own watchdog): systemd kills it (``WatchdogSec=``, ``SIGABRT``) and starts it again; it counts from its
    first word (``Type=notify``, ``READY=1``), a start taking ``TimeoutStartSec=`` at most."""
    lines = ["[Unit]", f"Description={description}", "After=network-online.target time-sync.target",
             "Wants=network-online.target time-sync.target", "",
             "[Service]", f"User={plan.system_user}"]
    if plan.tls:
        lines.append(f"Environment={ENV_CA}={plan.etc / 'ca.pem'}")
    if groups:
        lines.append(f"SupplementaryGroups={groups}")
    lines += [f"ExecStart={shlex.join(argv)}", "Restart=always", "RestartSec=2"]
    if down:
        lines.append(f"RestartPreventExitStatus={' '.join(map(str, down))}")
    if silent_s is not None:
        lines += ["Type=notify", "NotifyAccess=main", "TimeoutStartSec=300", f"WatchdogSec={silent_s:g}"]
    lines += ["NoNewPrivileges=yes", "PrivateTmp=yes", "", "[Install]", "WantedBy=multi-user.target"]
    return "\n".join(lines) + "\n"


def _cardtable(plan: Plan, *args: str) -> list[str]:
    """A ``cardtable`` command line with the broker's address and the machine's credentials file."""
    return [*shlex.split(plan.cardtable), *args, "--broker", plan.broker, "--credentials", str(plan.etc / "credentials")]


def table_units(plan: Plan, table: str) -> dict[str, str]:
    """The three units of one table's computer (file name -> text)."""
    db = str(plan.state / f"{table}.db")
    return {
        "cardtable-table.service": unit(f"cardtable table {table}: the referee service", _cardtable(
            plan, "table", "run", "--table", table, "--rulebook", plan.tables[table]) + ["--db", db], plan,
            down=(REFUSED, TAKEN_OVER_EXIT), silent_s=SILENT_S["service"]),
        "cardtable-camera.service": unit(f"cardtable table {table}: the camera", _cardtable(
            plan, "vision", "watch", "--table", table, "--rulebook", plan.tables[table], "--source", plan.camera_source),
            plan, "video", down=(TAKEN_OVER_EXIT, REFUSED), silent_s=SILENT_S["camera"]),
        "cardtable-bridge.service": unit(f"cardtable table {table}: the table board", _cardtable(
            plan, "bridge", "run", "--table", table, "--port", plan.board_port), plan, "dialout", down=(TAKEN_OVER_EXIT,),
            silent_s=SILENT_S["bridge"]),
    }


def console_units(plan: Plan) -> dict[str, str]:
    """The broker's, the display's and the tournament service's units (file name -> text)."""
    tournament_db = str(plan.state / "tournament.db")
    https = ["--tls-cert", str(plan.etc / "server.pem"), "--tls-key", str(plan.etc / "server.key")]
    return {
        "cardtable-broker.service": unit("cardtable: the hall's MQTT broker (mosquitto)",
                                         [plan.mosquitto, "-c", str(plan.etc / "mosquitto.conf")], plan),
        "cardtable-display.service": unit("cardtable: the scoreboard and the organisers' console", _cardtable(
            plan, "display", "serve", "--host", "0.0.0.0", "--port", str(plan.display_port), "--db",
            str(plan.state / "console.db"), "--tournament-db", tournament_db, *(https if plan.tls else [])), plan),
        "cardtable-tournament.service": unit("cardtable: the tournament service (results, standings)", _cardtable(
            plan, "tournament", "serve", "--db", tournament_db), plan, down=(TAKEN_OVER_EXIT,)),  # one a broker, as a camera
    }


def write(plan: Plan, out: Path) -> list[Path]:
    """Every file of ``plan`` under ``out`` (a new or empty folder); the files written."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PlanError("not_empty", out=out)
    users, acl = table_acl(list(plan.tables), also=plan.also)  # checks the table ids and the user names
    if plan.tls:
        check_tls(plan.tls, plan.broker_host)
    written: list[Path] = []

    def put(path: Path, text: str | bytes, mode: int = 0o644) -> None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode() if isinstance(text, str) else text)
        written.append(path)

    console = out / CONSOLE_DIR
    console.mkdir(parents=True, mode=0o700)
    write_passwords(console / "passwd", users)
    written.append(console / "passwd")
    put(console / "acl", acl)
    tls = [plan.etc / "server.pem", plan.etc / "server.key"] if plan.tls else []
    put(console / "mosquitto.conf", "# the hall's broker, written by cardtable hall setup\n" + config_text(
        [Listener(plan.broker_port, plan.listen, *tls)], plan.etc / "passwd", plan.etc / "acl", plan.state, "stderr",
        plan.system_user))
    if plan.tls:  # the console machine's certificate and key; every machine's CA (below)
        put(console / "server.pem", plan.tls.cert.read_bytes())
        put(console / "server.key", plan.tls.key.read_bytes(), 0o600)
    machines = {CONSOLE_DIR: ([*CENTRAL_USERS, *plan.also], console_units(plan))}
    for table in plan.tables:
        machines[table] = ([table_user(table), camera_user(table), board_user(table)], table_units(plan, table))
    for machine, (names, units) in machines.items():
        (out / machine).mkdir(exist_ok=True, mode=0o700)
        write_credentials(out / machine / "credentials", {name: users[name] for name in names})
        written.append(out / machine / "credentials")
        for name, text in units.items():
            put(out / machine / name, text)
        if plan.tls:
            put(out / machine / "ca.pem", plan.tls.ca.read_bytes())
    put(out / "INSTALL.txt", install_text(plan))
    return written


def install_text(plan: Plan) -> str:
    """What to do with the folders, in order (Chinese first)."""
    etc, state, user = plan.etc, plan.state, plan.system_user
    first = [f"sudo useradd --system --home {state} {user}   # 一次即可 once",
             f"sudo install -d -o {user} -m 0700 {etc} {state}",
             f"sudo install -o {user} -m 0600 FOLDER/* {etc}/",
             "sudo cp FOLDER/*.service /etc/systemd/system/ && sudo systemctl daemon-reload"]
    return "\n".join([
        "cardtable 赛场部署 / hall setup (cardtable hall setup)",
        "",
        f"每台机器: 把它的文件夹复制到 {etc} (FOLDER = console 或桌号) / on each machine, FOLDER being its folder:",
        *(f"  {line}" for line in first),
        "",
        f"控制台机器 the console machine (console/, the broker at {plan.broker_host}:{plan.broker_port}):",
        "  sudo systemctl disable --now mosquitto   # Debian 自带的 broker 占用端口 / Debian's own broker holds the port",
        "  sudo systemctl enable --now cardtable-broker cardtable-display",
        *(["  # 大屏和手机的浏览器先导入 console/ca.pem / first import console/ca.pem into every big screen's and phone's"
            " browser,", f"  # 再打开 then open https://{plan.broker_host}:{plan.display_port}/big"] if plan.tls else
          ["  # 未加密：密码以明文经过赛场网络，只能用在选手和观众接不上的网络 / NOT encrypted: passwords cross the"
           " network in the clear; only for a network no player or spectator can reach (hall setup --tls-cert ...)"]),
        f"  sudo -u {user} {plan.cardtable} display user --db {state / 'console.db'} --user NAME --role organiser",
        "  sudo systemctl enable --now cardtable-tournament   # 赛事建好之后 / once the tournament is made at the console",
        "  # 每次休息时备份（服务运行时也可以）/ back up at every break (while the services run), e.g. to a USB stick:",
        f"  sudo -u {user} {plan.cardtable} tournament backup --db {state / 'tournament.db'} --out /media/usb/tournament-$(date +%H%M).db",
        f"  sudo -u {user} {plan.cardtable} display backup --db {state / 'console.db'} --out /media/usb/console-$(date +%H%M).db",
        "",
        "每张桌的电脑 each table's computer (its folder, e.g. " + ", ".join(list(plan.tables)[:3]) + "):",
        "  sudo systemctl enable --now cardtable-table cardtable-camera cardtable-bridge",
        "  # 每次休息时备份牌桌的记录 / back up the table's log at every break (docs/recovery.zh.md, docs/recovery.md):",
        f"  sudo -u {user} {plan.cardtable} table backup --db {state}/TABLE.db --out /media/usb/TABLE-$(date +%H%M).db",
        "  # 换回赛事备份之后，补记各桌报告过的对局 / after a tournament backup is put back, each table's games since:",
        f"  sudo -u {user} {plan.cardtable} table events {state}/TABLE.db --out /media/usb/TABLE.jsonl",
        f"  # 再在控制台机器上 / then on the console machine: {plan.cardtable} tournament catch-up --db "
        f"{state / 'tournament.db'} /media/usb/t*.jsonl",
        "",
        "凭据文件只给本机用户读 (0600); 密码从不出现在命令行 / credentials files are 0600; no password is ever on a"
        " command line.",
    ]) + "\n"


def parse_tables(spec: list[str], rulebook: str, overrides: list[str]) -> dict[str, str]:
    """Table ids -> rulebook from ``--tables`` (ids, or one number N for t01..tN) and ``--rulebook``
    (a name for every table, and ``TABLE=NAME`` for some).

    >>> parse_tables(["3"], "classic-3deck", ["t02=sanjiang-2012"])
    {'t01': 'classic-3deck', 't02': 'sanjiang-2012', 't03': 'classic-3deck'}
    >>> parse_tables(["a-t1", "a-t2"], "classic-3deck", ["t9=usst-2016"])
    Traceback (most recent call last):
    ...
    hall.setup.PlanError: `--rulebook t9=usst-2016`：没有桌 t9
    """
    from bus.protocol import check_table
    from referee import rulebooks

    if len(spec) == 1 and spec[0].isdigit():
        n = int(spec[0])
        if not 1 <= n <= 999:
            raise PlanError("table_count", n=n)
        spec = [f"t{i:0{max(2, len(str(n)))}d}" for i in range(1, n + 1)]
    for table in spec:
        try:
            check_table(table)
        except ValueError:
            raise PlanError("bad_table", table=table) from None
    if len(set(spec)) != len(spec):
        raise PlanError("table_twice", tables=" ".join(spec))
    tables = dict.fromkeys(spec, rulebook)
    for item in overrides:
        table, sep, name = item.partition("=")
        if not sep or table not in tables:
            raise PlanError("no_table", item=item, table=table) if sep else PlanError("not_table_name", item=item)
        tables[table] = name
    known = set(rulebooks.names())
    for table, name in tables.items():
        if name not in known:
            raise PlanError("unknown_rulebook", table=table, rulebook=name, known=", ".join(sorted(known)))
    return tables


__all__ = ["Plan", "PlanError", "console_units", "install_text", "parse_tables", "table_units", "unit", "write"]
