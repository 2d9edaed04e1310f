"""``cardtable hall setup`` and credentials kept off the command line: a real mosquitto started
from the command's output, each user's reach checked against the protocol's table of who
writes and who reads what (written out here, not taken from the code), a table computer's unit
run as written, and the password never on a command line."""

from __future__ import annotations

import getpass
import json
import os
import shlex
import shutil
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bus.broker import find_program, free_port
from bus.credentials import broker_url, read_credentials
from bus.mqtt import Connection
from bus.protocol import topic
from cardtable import cli
from referee.table.intake import session_url

ROOT = Path(__file__).resolve().parents[2]
TABLES = ("t01", "t02")
WAIT_S = 30.0  # the longest a wait for what must come (generous: a loaded machine)
LEAVES = ("observed", "removed", "frames", "camera/status", "board/in", "board/status", "commands", "state", "events",
          "violations", "status", "health", "board/out")
ROUND = "cardtable/v1/tournament/main/round"
# bus/PROTOCOL.md: who writes and who reads each topic of a table (T), and the tournament's.
# The table service takes each sender's inputs on a session of its own (table-T-camera, table-T-board, with
# the password of table-T), reads back its own state and health when it starts, and heeds its devices' presence.
WRITES = {"table-T": {"state", "events", "violations", "status", "health", "board/out"},
          "camera-T": {"observed", "removed", "frames", "camera/status"}, "board-T": {"board/in", "board/status"}}
READS = {"table-T": {"commands", "state", "health", "camera/status", "board/status"}, "table-T-camera": {"observed", "removed"},
         "table-T-board": {"board/in"}, "camera-T": {"state"}, "board-T": {"board/out", "status", "health"}}  # the bridge: its service gone, rEF GonE
SESSIONS = ("-camera", "-board")


def may_write(user: str, where: str) -> bool:
    if where == ROUND:
        return user == "tournament"
    table, leaf = where.split("/")[3], where.split("/", 4)[4]
    if user == "console":
        return leaf == "commands"
    return user in (f"table-{table}", f"camera-{table}", f"board-{table}") and leaf in WRITES[user.replace(table, "T")]


def may_read(user: str, where: str) -> bool:
    if user in ("console", "scoreboard"):
        return True
    if where == ROUND:
        return False
    table, leaf = where.split("/")[3], where.split("/", 4)[4]
    if user == "tournament":
        return leaf in ("events", "state")
    return user.replace(table, "T") != user and leaf in READS.get(user.replace(table, "T"), set())


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """``hall setup`` for two tables; the broker started as its unit says, from its files in place."""
    tmp = tmp_path_factory.mktemp("setup")
    out, port = tmp / "out", free_port()
    etc, state = tmp / "etc", tmp / "state"  # each machine's: one machine after the other here
    state.mkdir()
    code = cli.main(["hall", "setup", "--tables", *TABLES, "--broker-host", "127.0.0.1", "--port", str(port),
                     "--listen", "127.0.0.1", "--out", str(out), "--etc", str(etc), "--state", str(state),
                     "--system-user", getpass.getuser(), "--cardtable", f"{sys.executable} -m cardtable",
                     "--mosquitto", find_program("mosquitto"), "--rulebook", "t02=sanjiang-2012"])
    assert code == 0
    install(out / "console", etc)  # as INSTALL.txt says, on the console machine
    argv = exec_start(out / "console" / "cardtable-broker.service")
    log = open(tmp / "broker.log", "wb")
    broker = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + WAIT_S
    while b" running" not in (tmp / "broker.log").read_bytes():
        assert broker.poll() is None and time.monotonic() < deadline, (tmp / "broker.log").read_text()
        time.sleep(0.05)
    yield {"out": out, "port": port, "etc": etc, "state": state}
    broker.terminate()
    broker.wait(WAIT_S)
    log.close()


def install(folder: Path, etc: Path) -> None:
    """A machine's folder copied into its ``--etc`` (what the broker read at its start stays as it was)."""
    etc.mkdir(mode=0o700, exist_ok=True)
    for path in folder.iterdir():
        shutil.copy2(path, etc / path.name)


def exec_start(unit: Path) -> list[str]:
    lines = [line for line in unit.read_text().splitlines() if line.startswith("ExecStart=")]
    assert len(lines) == 1
    return shlex.split(lines[0].removeprefix("ExecStart="))


def connect(hall, machine: str, user: str, **kwargs) -> Connection:
    """``user`` connected the way its unit does: the broker's address and the machine's credentials file
    (a table service's session: its service's user, the session's name)."""
    owner = next((user[: -len(s)] for s in SESSIONS if user.endswith(s)), user)
    url = broker_url(f"mqtt://127.0.0.1:{hall['port']}", str(hall["out"] / machine / "credentials"), owner, environ={})
    return Connection(session_url(url, user[len(owner):]), clean_start=True, **kwargs).connect()


def test_every_password_is_in_the_credentials_files_only(hall, capsys):
    out = hall["out"]
    machines = {"console": ["scoreboard", "console", "tournament"]} | {
        t: [f"table-{t}", f"camera-{t}", f"board-{t}"] for t in TABLES}
    passwords = []
    for machine, users in machines.items():
        path = out / machine / "credentials"
        assert path.stat().st_mode & 0o777 == 0o600
        found = read_credentials(path)
        assert list(found) == users and len(set(found.values())) == 3
        passwords += found.values()
    assert len(set(passwords)) == len(passwords)
    assert (out / "console" / "passwd").stat().st_mode & 0o777 == 0o600
    for path in out.rglob("*"):
        if path.is_file() and path.name != "credentials":
            text = path.read_text()
            assert not any(p in text for p in passwords), path  # the broker's passwd holds hashes only
    assert "no password is ever on a command line" in (out / "INSTALL.txt").read_text()
    before = {path: path.read_bytes() for path in out.rglob("*") if path.is_file()}
    assert cli.main(["hall", "setup", "--tables", "t03", "--broker-host", "x", "--out", str(out)]) == 2
    assert {path: path.read_bytes() for path in out.rglob("*") if path.is_file()} == before  # never overwritten
    assert f"{out} 不是新的或空的文件夹：什么都没写（凭据从不覆盖）" in capsys.readouterr().err


def test_setup_refuses_in_chinese_or_english_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "hall"
    setup = ["hall", "setup", "--broker-host", "x", "--out", str(out)]
    cases = [(["--tables", "1000"], "`--tables 1000`：应为 1 到 999 张桌"),
             (["--tables", "t1", "t1"], "`--tables` 里有重复的桌：t1 t1"),
             (["--tables", "t/1"], "桌号“t/1”不对"),
             (["--tables", "t1", "--rulebook", "t2=usst-2016"], "`--rulebook t2=usst-2016`：没有桌 t2"),
             (["--tables", "t1", "--rulebook", "t1=nowhere"], "t1 桌：没有规则“nowhere”；可用的规则：classic-3deck"),
             (["--tables", "t1", "--port", "0"], "`--port` 和 `--display-port` 应在 1 到 65535 之间"),
             (["--tables", "t1", "--display-port", "70000"], "`--port` 和 `--display-port` 应在 1 到 65535 之间"),
             (["--lang", "en", "--tables", "t1", "--rulebook", "t1=nowhere"], "table t1: unknown rulebook 'nowhere'; known: ")]
    for argv, said in cases:
        assert cli.main([*setup, *argv]) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(("cardtable hall setup：错误：", "cardtable hall setup: error: ")) and said in err, (argv, err)
    assert not out.exists()
    assert cli.main(["--lang", "en", *setup, "--tables", "t1"]) == 0
    files = sum(1 for path in out.rglob("*") if path.is_file())
    said = capsys.readouterr()
    assert said.out == f"{files} files for 1 table(s) in {out}; next: {out / 'INSTALL.txt'}\n"
    assert said.err.startswith("cardtable hall setup: warning: no certificate")
    assert cli.main(["--lang", "zh", *setup[:-1], str(tmp_path / "zh"), "--tables", "t1"]) == 0
    assert capsys.readouterr().err.startswith("cardtable hall setup：警告：没有给证书"), "the colon of a Chinese line is full width"


def test_each_user_reaches_what_the_protocol_says_and_nothing_else(hall):
    users = {u: m for m, us in [("console", ["scoreboard", "console", "tournament"])] +
             [(t, [f"table-{t}", f"table-{t}-camera", f"table-{t}-board", f"camera-{t}", f"board-{t}"])
              for t in TABLES] for u in us}
    places = [topic(t, leaf) for t in TABLES for leaf in LEAVES] + [ROUND]
    got: dict[str, set[bytes]] = {u: set() for u in users}
    conns = {}
    try:
        for user, machine in users.items():
            conn = connect(hall, machine, user)
            conn.subscribe("cardtable/v1/#", lambda t, p, u=user: got[u].add(p))  # granted; the ACL filters each message
            assert conn.wait_subscribed(WAIT_S)
            conns[user] = conn
        mids: dict[str, dict[int, str]] = {u: {} for u in users}
        for user, conn in conns.items():
            for where in places:
                mids[user][conn.publish(where, f"{user}>{where}".encode()).mid] = where
        for user, conn in conns.items():
            assert conn.flush(WAIT_S)
            refused = {mids[user][mid] for mid, _ in conn.refused()}
            assert refused == {w for w in places if not may_write(user, w)}, user
        expected = {u: {f"{w}>{p}".encode() for w in users for p in places if may_write(w, p) and may_read(u, p)}
                    for u in users}
        deadline = time.monotonic() + WAIT_S
        while any(not expected[u] <= got[u] for u in users) and time.monotonic() < deadline:
            time.sleep(0.05)
        for user in users:
            assert got[user] == expected[user], user
        assert sum(map(len, expected.values())) == 82
        assert expected["camera-t01"] == {b"table-t01>cardtable/v1/tables/t01/state"}  # vision.tracker.told
        assert expected["board-t01"] == {b"table-t01>cardtable/v1/tables/t01/" + leaf  # the bridge: rEF GonE
                                         for leaf in (b"board/out", b"status", b"health")}
    finally:
        for conn in conns.values():
            conn.close(flush_timeout=0)


def test_a_cameras_unit_names_its_tables_rulebook(hall):
    """A Guandan table's camera counts copies up to its two decks and lets a seat play again within a trick (the
    climbing games): its unit says the rulebook, and the command line takes it."""
    from cardtable.cli import parser

    argv = exec_start(hall["out"] / "t02" / "cardtable-camera.service")
    args = parser().parse_args(argv[argv.index("vision"):])
    assert (args.table, args.rulebook, args.decks) == ("t02", "sanjiang-2012", None)
    assert parser().parse_args(exec_start(hall["out"] / "t01" / "cardtable-camera.service")[argv.index("vision"):]).rulebook == "classic-3deck"



def test_a_tables_camera_bridge_and_service_taken_over_are_not_started_again(hall):
    """A camera, bridge or table service that another machine's took the table over from ends with
    ``TAKEN_OVER_EXIT`` (3): its unit does not start it again (started again after ``RestartSec``, it would take the
    table back, the other's unit would start that one again, and the two would fight every few seconds). Any other
    end is started again, as before."""
    prevent = {name: (hall["out"] / "t01" / name).read_text() for name in
               ("cardtable-camera.service", "cardtable-bridge.service", "cardtable-table.service")}
    assert all("Restart=always" in text for text in prevent.values())
    # a table's service refused at start (its log damaged, lost entries, another's: exit 2) waits for a person, and a
    # camera whose model will not do (vision watch: exit 2) too
    assert "RestartPreventExitStatus=2 3\n" in prevent["cardtable-table.service"]
    assert "RestartPreventExitStatus=3 2\n" in prevent["cardtable-camera.service"]
    assert "RestartPreventExitStatus=3\n" in prevent["cardtable-bridge.service"]
    # so does the tournament service another machine's took over (one a broker: tests/tournament/test_two_services.py)
    assert "RestartPreventExitStatus=3\n" in (hall["out"] / "console" / "cardtable-tournament.service").read_text()

def test_a_table_computers_unit_runs_as_written_with_no_password_on_its_command_line(hall):
    states = []
    watch = connect(hall, "console", "scoreboard")
    watch.subscribe(topic("t02", "status"), lambda t, p: states.append(json.loads(p)["status"]))
    install(hall["out"] / "t02", hall["etc"])  # now on table t02's computer
    service = subprocess.Popen(exec_start(hall["out"] / "t02" / "cardtable-table.service"), cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while "online" not in states:
            assert service.poll() is None and time.monotonic() < deadline, service.stderr.read() if service.poll() else states
            time.sleep(0.05)
        cmdline = Path(f"/proc/{service.pid}/cmdline").read_bytes().decode()
        assert "--credentials" in cmdline and "sanjiang-2012" in cmdline
        assert read_credentials(hall["out"] / "t02" / "credentials")["table-t02"] not in cmdline
        intruder = connect(hall, "t02", "camera-t02", client_id="table-t02")  # asks for the service's id
        intruder.close()
        time.sleep(0.5)
        assert states[-1] == "online" and "offline" not in states  # the service was never knocked off
        assert (hall["state"] / "t02.db").exists()
    finally:
        service.terminate()
        service.wait(WAIT_S)
        watch.close()
    assert "warning" not in service.stderr.read()


def test_a_password_on_the_command_line_is_warned_about_and_open_credentials_refused(hall, tmp_path):
    creds = hall["out"] / "t01" / "credentials"
    password = read_credentials(creds)["table-t01"]
    loose = tmp_path / "loose"
    loose.write_text(f"table-t01:{password}\n")
    loose.chmod(0o644)
    run = [sys.executable, "-m", "cardtable", "table", "run", "--table", "t01", "--rulebook", "classic-3deck",
           "--db", str(tmp_path / "t01.db")]
    refused = subprocess.run([*run, "--broker", f"mqtt://127.0.0.1:{hall['port']}", "--credentials", str(loose)],
                             cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and f"凭据文件 {loose} 其他用户也能读写（权限 0644）：请执行 `chmod 600 {loose}`" in refused.stderr
    assert not (tmp_path / "t01.db").exists()  # refused before anything was made
    env = {**os.environ, "CARDTABLE_CREDENTIALS": str(creds), "CARDTABLE_LANG": "en"}
    no_line = subprocess.run([*run, "--broker", f"mqtt://camera-t02@127.0.0.1:{hall['port']}"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=30)
    assert no_line.returncode == 2 and "no password for camera-t02 in" in no_line.stderr
    states = []
    watch = connect(hall, "console", "scoreboard")
    watch.subscribe(topic("t01", "status"), lambda t, p: states.append(json.loads(p)["status"]))
    url = f"mqtt://table-t01:{password}@127.0.0.1:{hall['port']}"
    service = subprocess.Popen([*run, "--broker", url, "--lang", "en"], cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while "online" not in states:  # it works, for tests ...
            assert service.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        service.terminate()
        service.wait(WAIT_S)
        watch.close()
    assert "the broker password is on the command line, where every local user can read it" in service.stderr.read()


def test_every_command_install_txt_gives_is_one_the_command_line_takes(hall):
    """INSTALL.txt is what a venue types: each `cardtable` line in it (the user, the backups at every break, catching up
    after a backup is put back) is read by
    the real parser, with its options (a renamed option there would fail the evening it is needed)."""
    text = (hall["out"] / "INSTALL.txt").read_text()
    prefix = f"{sys.executable} -m cardtable "
    lines = [line.split(prefix, 1)[1].split("   #")[0].replace("$(date +%H%M)", "1200") for line in text.splitlines() if prefix in line]
    assert [shlex.split(x)[:2] for x in lines] == [["display", "user"], ["tournament", "backup"], ["display", "backup"],
                                                   ["table", "backup"], ["table", "events"], ["tournament", "catch-up"]]
    for line in lines:
        args = cli.parser().parse_args(shlex.split(line.replace("TABLE", "t01")))
        assert args.func is not None
        assert Path(getattr(args, "db", None) or args.path).name in ("console.db", "tournament.db", "t01.db")
        assert "TABLE" not in line or args.verb in ("backup", "events")


# ---------------------------------------------------------------- a hall on TLS (audit s37 A1)


def environment(unit: Path) -> dict[str, str]:
    """The unit's ``Environment=`` lines, over this process's environment, as systemd starts it."""
    lines = [line.removeprefix("Environment=") for line in unit.read_text().splitlines() if line.startswith("Environment=")]
    return {**os.environ, **dict(line.split("=", 1) for line in lines)}


@pytest.fixture(scope="module")
def tls_hall(tmp_path_factory):
    """``hall certs`` for the console machine (localhost here), ``hall setup`` with them, the broker started as its
    unit says, from its files in place."""
    tmp = tmp_path_factory.mktemp("tls-setup")
    certs, out, etc, state = tmp / "certs", tmp / "out", tmp / "etc", tmp / "state"
    state.mkdir()
    assert cli.main(["hall", "certs", "--name", "localhost", "--out", str(certs)]) == 0
    port, display_port = free_port(), free_port()
    code = cli.main(["hall", "setup", "--tables", "t01", "--broker-host", "localhost", "--port", str(port),
                     "--out", str(out), "--etc", str(etc), "--state", str(state), "--system-user", getpass.getuser(),
                     "--cardtable", f"{sys.executable} -m cardtable", "--mosquitto", find_program("mosquitto"),
                     "--display-port", str(display_port), "--tls-ca", str(certs / "ca.pem"),
                     "--tls-cert", str(certs / "server.pem"), "--tls-key", str(certs / "server.key")])
    assert code == 0
    install(out / "console", etc)
    log = open(tmp / "broker.log", "wb")
    broker = subprocess.Popen(exec_start(out / "console" / "cardtable-broker.service"), stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + WAIT_S
    while b" running" not in (tmp / "broker.log").read_bytes():
        assert broker.poll() is None and time.monotonic() < deadline, (tmp / "broker.log").read_text()
        time.sleep(0.05)
    yield {"out": out, "port": port, "etc": etc, "state": state, "certs": certs, "display_port": display_port}
    broker.terminate()
    broker.wait(WAIT_S)
    log.close()


def test_with_certificates_the_broker_takes_tls_only_and_every_unit_speaks_it(tls_hall):
    out, etc, port = tls_hall["out"], tls_hall["etc"], tls_hall["port"]
    conf = (out / "console" / "mosquitto.conf").read_text().splitlines()
    assert [line for line in conf if line.startswith(("listener", "certfile", "keyfile"))] == [
        f"listener {port}", f"certfile {etc / 'server.pem'}", f"keyfile {etc / 'server.key'}"]  # no plain listener
    units = [path for path in out.rglob("cardtable-*.service") if path.name != "cardtable-broker.service"]
    assert len(units) == 5
    for path in units:
        assert f"--broker mqtts://localhost:{port} " in path.read_text(), path
        assert environment(path)["CARDTABLE_BROKER_CA"] == str(etc / "ca.pem"), path
    assert (out / "t01" / "ca.pem").read_bytes() == (tls_hall["certs"] / "ca.pem").read_bytes()
    assert not (out / "t01" / "server.key").exists() and (out / "console" / "server.key").stat().st_mode & 0o777 == 0o600
    assert "https://localhost:" in (out / "INSTALL.txt").read_text()
    url = broker_url(f"mqtt://localhost:{port}", str(out / "console" / "credentials"), "scoreboard", environ={})
    with pytest.raises(TimeoutError):  # plain MQTT on the TLS port: no CONNACK ever comes
        Connection(url, clean_start=True, connect_timeout_s=2).connect()


def test_a_table_computers_unit_runs_over_tls_as_written(tls_hall):
    out, port = tls_hall["out"], tls_hall["port"]
    states = []
    url = broker_url(f"mqtts://localhost:{port}", str(out / "console" / "credentials"), "scoreboard", environ={})
    watch = Connection(url, clean_start=True, ca=str(tls_hall["certs"] / "ca.pem"))
    watch.subscribe(topic("t01", "status"), lambda t, p: states.append(json.loads(p)["status"]))
    watch.connect()
    install(out / "t01", tls_hall["etc"])
    unit = out / "t01" / "cardtable-table.service"
    service = subprocess.Popen(exec_start(unit), cwd=ROOT, env=environment(unit), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + WAIT_S
        while "online" not in states:
            assert service.poll() is None and time.monotonic() < deadline, service.stderr.read() if service.poll() else states
            time.sleep(0.05)
    finally:
        service.terminate()
        service.wait(WAIT_S)
        watch.close()


def test_the_display_unit_serves_https_with_a_secure_cookie(tls_hall):
    import httpx

    out, state = tls_hall["out"], tls_hall["state"]
    install(out / "console", tls_hall["etc"])  # now on the console machine
    unit = out / "console" / "cardtable-display.service"
    argv = exec_start(unit)
    env = environment(unit) | {"CARDTABLE_PASSWORD": "correct horse"}
    subprocess.run([*argv[: argv.index("display")], "display", "user", "--db", str(state / "console.db"), "--user",
                    "wang", "--role", "organiser"], env=env, check=True, capture_output=True, cwd=ROOT)
    display = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"https://localhost:{tls_hall['display_port']}"
    try:
        trust = ssl.create_default_context(cafile=tls_hall["certs"] / "ca.pem")  # as a browser given ca.pem
        with httpx.Client(base_url=base, verify=trust, headers={"Origin": base}) as web:
            deadline = time.monotonic() + WAIT_S
            while True:
                assert display.poll() is None, display.stderr.read()
                try:
                    assert web.get("/").status_code == 200
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline
                    time.sleep(0.1)
            login = web.post("/api/login", json={"user": "wang", "password": "correct horse"})
            assert login.status_code == 200 and "secure" in login.headers["set-cookie"].lower()
        with pytest.raises(httpx.TransportError):  # plain HTTP is not served
            httpx.get(f"http://localhost:{tls_hall['display_port']}/", timeout=5)
    finally:
        display.terminate()
        display.wait(WAIT_S)


def test_setup_refuses_certificates_a_client_would_refuse_and_writes_nothing(tls_hall, tmp_path, capsys):
    from hall.certs import make

    make(tmp_path / "other", ["console.hall"])
    certs, other, out = tls_hall["certs"], tmp_path / "other", tmp_path / "hall"
    setup = ["hall", "setup", "--tables", "t01", "--out", str(out)]
    tls = ["--tls-ca", str(certs / "ca.pem"), "--tls-cert", str(certs / "server.pem"), "--tls-key", str(certs / "server.key")]
    cases = [(["--broker-host", "console.hall", *tls], f"客户端会拒绝 {certs / 'server.pem'}"),  # it names localhost
             (["--broker-host", "console.hall", "--tls-ca", str(certs / "ca.pem"), "--tls-cert", str(other / "server.pem"),
               "--tls-key", str(other / "server.key")], "并由"),  # signed by another CA
             (["--broker-host", "localhost", "--tls-ca", str(certs / "ca.pem"), "--tls-cert", str(certs / "server.pem"),
               "--tls-key", str(other / "server.key")], "私钥不是这张证书的"),
             (["--broker-host", "localhost", "--tls-cert", str(certs / "server.pem")], "要一起给出")]
    for argv, said in cases:
        assert cli.main([*setup, *argv]) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(("cardtable hall setup：错误：", "cardtable hall setup: error: ")) and said in err, (argv, err)
    assert not out.exists()
    assert cli.main(["--lang", "en", *setup, "--broker-host", "console.hall", *tls]) == 2
    assert "clients would refuse" in capsys.readouterr().err
    assert cli.main([*setup, "--broker-host", "x"]) == 0  # no certificates: written, and warned about
    assert "消息服务器和控制台都不加密" in capsys.readouterr().err
