"""``cardtable display``: adding users, and ``serve`` as a real process on a real broker (it stops
on SIGTERM even with a page's live stream open)."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from bus.broker import free_port
from cardtable import cli
from display.store import Store

ROOT = Path(__file__).resolve().parents[2]


def test_users_are_added_with_a_hashed_password(tmp_path, monkeypatch, capsys):
    db = tmp_path / "console.db"
    monkeypatch.setenv("CARDTABLE_PASSWORD", "organiser-pass")
    assert cli.main(["display", "user", "--db", str(db), "--user", "王老师", "--role", "organiser"]) == 0
    assert "已添加组织者 王老师" in capsys.readouterr().out
    assert cli.main(["display", "user", "--db", str(db), "--user", "王老师", "--role", "referee"]) == 2
    assert "用户“王老师”已经存在" in capsys.readouterr().err
    monkeypatch.setenv("CARDTABLE_PASSWORD", "short")
    assert cli.main(["display", "user", "--db", str(db), "--user", "李", "--role", "referee"]) == 2
    store = Store.open(db)
    assert store.users() == [("王老师", "organiser")]
    assert store.check_password("王老师", "organiser-pass") == "organiser"
    assert b"organiser-pass" not in db.read_bytes()


def test_a_file_that_is_not_the_consoles_is_refused_and_left_as_it_was(tmp_path, monkeypatch, capsys):
    """`display user` and `display serve` wrote the console's tables into whatever `--db` named (the tournament's
    file, text) or were a traceback (a missing folder, no terminal for the password): now refused in words."""
    import sqlite3
    from contextlib import closing

    monkeypatch.setenv("CARDTABLE_PASSWORD", "organiser-pass")
    tournament, text, empty = tmp_path / "tournament.db", tmp_path / "notes.txt", tmp_path / "empty.db"
    with closing(sqlite3.connect(tournament)) as db:
        db.execute("CREATE TABLE actions (seq INTEGER, kind TEXT, data TEXT, by TEXT, at REAL)")
    text.write_text("王老师\n")
    empty.write_bytes(b"")
    before = {p: p.read_bytes() for p in (tournament, text, empty)}
    for path, what in ((tournament, "另一种数据库，其中的表：actions"), (text, "不是 `SQLite` 数据库"), (empty, "空文件"),
                       (tmp_path, "是文件夹")):
        assert cli.main(["display", "user", "--db", str(path), "--user", "王老师", "--role", "organiser"]) == 2
        assert f"{path} 不是控制台的文件（{what}），未作任何改动" in capsys.readouterr().err
    creds = tmp_path / "creds"
    creds.write_text("scoreboard:pw-scoreboard\nconsole:pw-console\n")
    creds.chmod(0o600)
    before[creds] = creds.read_bytes()
    assert cli.main(["display", "serve", "--db", str(tournament), "--broker", "mqtt://127.0.0.1:1",
                     "--credentials", str(creds)]) == 2  # before it starts (and meets no broker at port 1)
    assert "不是控制台的文件" in capsys.readouterr().err
    assert cli.main(["display", "user", "--db", str(tmp_path / "no" / "c.db"), "--user", "王", "--role", "referee"]) == 2
    assert "没有文件夹" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in before} == before and sorted(tmp_path.iterdir()) == sorted(before)
    monkeypatch.delenv("CARDTABLE_PASSWORD")
    asked = subprocess.run([sys.executable, "-m", "cardtable", "display", "user", "--db", str(tmp_path / "c.db"),
                            "--user", "王", "--role", "referee"], stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=60)  # no terminal and no $CARDTABLE_PASSWORD: no password given
    assert asked.returncode == 2 and "密码至少需要 8 个字符" in asked.stderr and "Traceback" not in asked.stderr


def test_serve_refuses_missing_or_bad_broker_urls(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("CARDTABLE_BROKER", raising=False)
    monkeypatch.delenv("CARDTABLE_CREDENTIALS", raising=False)
    serve = ["display", "serve", "--db", str(tmp_path / "c.db")]
    assert cli.main(serve) == 2  # in Chinese unless asked for English (--lang en, $CARDTABLE_LANG)
    assert "没有指定消息服务器：请用 `--broker mqtt://host:port` 或设置 `$CARDTABLE_BROKER`" in capsys.readouterr().err
    assert cli.main(["--lang", "en", *serve]) == 2
    assert "no broker: give --broker mqtt://host:port or set $CARDTABLE_BROKER" in capsys.readouterr().err
    monkeypatch.setenv("CARDTABLE_LANG", "en")
    assert cli.main([*serve, "--broker", "http://x"]) == 2
    assert "not an mqtt:// or mqtts:// URL: http://x" in capsys.readouterr().err
    assert cli.main([*serve, "--broker", "mqtt://127.0.0.1:99999"]) == 2
    assert "bad port in mqtt://127.0.0.1:99999: 1 to 65535" in capsys.readouterr().err
    monkeypatch.setenv("LANG", "en_GB.UTF-8")  # the locale is not asked
    monkeypatch.setenv("CARDTABLE_LANG", "zh")
    assert cli.main([*serve, "--broker", "mqtt://127.0.0.1:1"]) == 2
    assert "scoreboard 没有密码：请用 `--credentials PATH` 给出凭据文件" in capsys.readouterr().err
    assert cli.main(["--lang", "en", *serve, "--broker", "mqtt://console:pw@127.0.0.1:1"]) == 2
    assert "the broker URL names no user" in capsys.readouterr().err
    assert not (tmp_path / "c.db").exists()  # refused before anything was made


def test_serve_of_a_tournament_file_in_a_folder_not_there_is_refused_before_anything_is_made(tmp_path, capsys):
    """A mistyped `--tournament-db` folder passed the files' check, the console's file was made, and the server's
    startup was a traceback (exit 3); now refused in words with the files (before the broker at port 1), nothing made."""
    creds = tmp_path / "creds"
    creds.write_text("scoreboard:pw-scoreboard\nconsole:pw-console\n")
    creds.chmod(0o600)
    assert cli.main(["display", "serve", "--db", str(tmp_path / "c.db"), "--tournament-db", str(tmp_path / "no" / "t.db"),
                     "--broker", "mqtt://127.0.0.1:1", "--credentials", str(creds)]) == 2
    assert f"{tmp_path / 'no' / 't.db'}：没有文件夹 {tmp_path / 'no'}，未建任何文件" in capsys.readouterr().err
    assert sorted(tmp_path.iterdir()) == [creds]


def test_serve_that_cannot_reach_the_broker_says_so_in_words(broker, tmp_path):
    """A wrong password, or no broker where it was said to be, was the server's startup traceback; now one sentence,
    before the server starts (the console's file not even made)."""
    from bus.credentials import write_credentials

    wrong = tmp_path / "wrong"
    write_credentials(wrong, {"scoreboard": "not-its-password", "console": broker.users["console"]})
    for url, said in ((broker.address, "scoreboard"), ("mqtt://127.0.0.1:1", "10 秒内没有连上消息服务器 127.0.0.1:1")):
        done = subprocess.run([sys.executable, "-m", "cardtable", "display", "serve", "--db", str(tmp_path / "c.db"),
                               "--port", str(free_port()), "--broker", url, "--credentials", str(wrong)], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.strip().splitlines()[-1].startswith("cardtable display serve：错误：")  # the last word: its own
    assert not (tmp_path / "c.db").exists()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_runs_and_stops_on_sigterm_with_a_stream_open(broker, tmp_path, sig):
    """Stopped with a page's live stream open, the server ends the stream and stops at once, and logs no error: uvicorn
    waited 2 s for the stream to end, then cancelled it ("Cancel 1 running task(s)", and on Ctrl-C "Exception in ASGI
    application" with its traceback)."""
    port = free_port()
    credentials = broker.write_credentials(tmp_path / "credentials", ["scoreboard", "console"])
    proc = subprocess.Popen([sys.executable, "-m", "cardtable", "display", "serve", "--db", str(tmp_path / "c.db"),
                             "--port", str(port), "--broker", broker.address, "--credentials", str(credentials)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(url + "/api/hall", timeout=1).json()["feed"]:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read().decode()
            time.sleep(0.1)
        first: list[str] = []

        def listen() -> None:
            try:
                with httpx.stream("GET", url + "/api/stream", timeout=30) as r:
                    first.extend(r.iter_lines())
            except httpx.HTTPError:
                pass

        threading.Thread(target=listen, daemon=True).start()
        deadline = time.monotonic() + 30
        while not first:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert first[0] == "event: snapshot"
        began = time.monotonic()
        proc.send_signal(sig)
        assert proc.wait(30) == 0  # SIGTERM ends as Ctrl-C does (display.cli), its console file let go
        # the stream was ended, not waited for (open for as long as the client reads, 30 s and more); the bound leaves
        # a loaded machine its time to stop a process
        assert time.monotonic() - began < 20
        logged = proc.stdout.read().decode()
        assert "Traceback" not in logged and "ERROR" not in logged and "Exception" not in logged, logged
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_serve_refuses_https_files_it_cannot_serve_with_in_words(tmp_path, capsys):
    """--tls-cert and --tls-key: both or neither, a certificate and its own key; said before anything starts."""
    from bus.credentials import write_credentials
    from hall.certs import make

    make(tmp_path / "a", ["localhost"])
    make(tmp_path / "b", ["localhost"])
    write_credentials(tmp_path / "credentials", {"scoreboard": "pw1", "console": "pw2"})
    serve = ["display", "serve", "--db", str(tmp_path / "c.db"), "--broker", "mqtt://127.0.0.1:1",
             "--credentials", str(tmp_path / "credentials")]
    assert cli.main([*serve, "--tls-cert", str(tmp_path / "a" / "server.pem")]) == 2
    assert "`--tls-cert` 和 `--tls-key` 要一起给出" in capsys.readouterr().err
    mismatched = ["--tls-cert", str(tmp_path / "a" / "server.pem"), "--tls-key", str(tmp_path / "b" / "server.key")]
    assert cli.main([*serve, *mismatched]) == 2
    assert f"不能用 {tmp_path / 'a' / 'server.pem'} 和 {tmp_path / 'b' / 'server.key'} 提供 `HTTPS`" in capsys.readouterr().err
    assert cli.main(["--lang", "en", *serve, "--tls-cert", str(tmp_path / "nowhere.pem"), "--tls-key", str(tmp_path / "b" / "server.key")]) == 2
    assert "cannot serve HTTPS with" in capsys.readouterr().err
    assert not (tmp_path / "c.db").exists()


def test_user_changes_at_the_command_line_are_in_the_audit_log(broker, tmp_path, monkeypatch, capsys):
    """A user added, given a new password, unlocked or removed with `display user` was in no audit log (no console user
    to name): the organisers' audit could not say who changed which account when. Each change is now there, as the
    command line's on the console's server with its OS user; a refused change records nothing."""
    import os
    import pwd

    from fastapi.testclient import TestClient
    from kit import OWN_USERS, as_, make_db, settings

    from display.app import create_app

    db, me = make_db(tmp_path / "console.db"), pwd.getpwuid(os.getuid()).pw_name
    monkeypatch.setenv("CARDTABLE_PASSWORD", "zhao-pass-1")
    for verb in (["--role", "referee"], ["--passwd"], ["--unlock"], ["--remove"]):
        assert cli.main(["display", "user", "--db", str(db), "--user", "赵老师", *verb]) == 0
    assert cli.main(["display", "user", "--db", str(db), "--user", "赵老师", "--remove"]) == 2  # gone already: refused
    capsys.readouterr()
    with TestClient(create_app(settings(broker, db, users=OWN_USERS)), headers={"Origin": "http://testserver"}) as client:
        rows = as_(client, ("wang", "organiser-pass")).get("/api/console/audit").json()
        cli_rows = [r for r in rows if r["detail"].get("via") == "command_line"]
        who = f"控制台服务器上的命令行（系统用户 {me}）"
        assert [r["text"] for r in cli_rows] == [f"{who} 删除用户 赵老师，其会话全部结束",
                                                 f"{who} 解除用户 赵老师 的登录锁定（清除 0 次登录失败记录）",
                                                 f"{who} 为用户 赵老师 设置新密码，其会话全部结束", f"{who} 添加裁判 赵老师"]
        assert {r["user"] for r in cli_rows} == {me} and cli_rows[-1]["at"] <= cli_rows[0]["at"]
        client.cookies.set("lang", "en")
        english = client.get("/api/console/audit").json()
        assert english[1]["text"] == f"the command line on the console's server (OS user {me}) removed the user 赵老师, ending their sessions"


@pytest.mark.parametrize("verb", ["--passwd", "--remove", "--unlock"])
def test_a_user_change_on_a_console_file_not_there_or_a_user_not_there_is_refused_and_makes_nothing(
        tmp_path, monkeypatch, capsys, verb):
    """README: exit 2, nothing done. A mistyped console file was made by ``--passwd``, ``--remove`` or ``--unlock``
    (then ``没有用户“赵老师”；用户有`` and no one, and ``--unlock`` said it had unlocked a user of the new empty file, exit 0); a
    mistyped name was unlocked as if it were a user's."""
    monkeypatch.setenv("CARDTABLE_PASSWORD", "zhao-pass-1")
    missing = tmp_path / "typo.db"
    assert cli.main(["display", "user", "--db", str(missing), "--user", "赵老师", verb]) == 2
    said = capsys.readouterr().err
    assert not missing.exists() and not list(tmp_path.iterdir()), said
    assert f"{missing}：没有这个控制台文件，什么都没有改" in said, said
    db = tmp_path / "console.db"
    assert cli.main(["display", "user", "--db", str(db), "--user", "赵老师", "--role", "referee"]) == 0
    capsys.readouterr()
    assert cli.main(["display", "user", "--db", str(db), "--user", "赵老帅", verb]) == 2
    assert "没有用户“赵老帅”；用户有 赵老师" in capsys.readouterr().err
    assert cli.main(["display", "user", "--db", str(db), "--user", "赵老师", "--unlock"]) == 0


@pytest.mark.parametrize("name, said", [
    ("l\u0456", "用户名“lі”与已有的用户“li”看起来一样"),  # a Cyrillic і beside the referee li
    ("ＬＩ", "用户名“ＬＩ”与已有的用户“li”看起来一样"),  # full-width capitals
    ("Wang", "用户名“Wang”与已有的用户“wang”看起来一样"),
    ("w\u0430ng", "用户名“wаng”与已有的用户“wang”看起来一样"),  # a Cyrillic а
    ("zh\u0430o", "用户名“zhаo”混用了拉丁字母与西里尔或希腊字母（第 3 个字符是 `U+0430 CYRILLIC SMALL LETTER A`）"),
    ("zhaο", "用户名“zhaο”混用了拉丁字母与西里尔或希腊字母（第 4 个字符是 `U+03BF GREEK SMALL LETTER OMICRON`）"),
])
def test_a_new_user_name_that_reads_as_another_is_refused_in_words(tmp_path, monkeypatch, capsys, name, said):
    """A Cyrillic а in "li" made a second user that reads the same in the audit log and at the console: a new name that
    reads as a user's already there, or that mixes Latin letters with Cyrillic or Greek ones, is refused before the
    password is asked, and nothing is added; Chinese names (and Chinese with Latin letters) stay allowed."""
    from kit import make_db

    db = make_db(tmp_path / "console.db")
    monkeypatch.delenv("CARDTABLE_PASSWORD", raising=False)  # refused before any password is asked for
    assert cli.main(["display", "user", "--db", str(db), "--user", name, "--role", "referee"]) == 2
    assert capsys.readouterr().err.startswith(f"cardtable display user：错误：{said}")
    assert cli.main(["display", "user", "--db", str(db), "--user", name, "--role", "referee", "--lang", "en"]) == 2
    english = capsys.readouterr().err
    assert "reads the same as the existing user" in english or "mixes Latin letters with Cyrillic or Greek ones" in english
    monkeypatch.setenv("CARDTABLE_PASSWORD", "a-long-pass")
    for fine in ("李明", "王A老师", "Ivan"):
        assert cli.main(["display", "user", "--db", str(db), "--user", fine, "--role", "referee"]) == 0
    store = Store.open(db)
    assert sorted(n for n, _ in store.users()) == sorted(["wang", "li", "李明", "王A老师", "Ivan"])
    assert [r["action"] for r in store.audit_log()].count("add_user") == 3


def test_a_user_change_run_through_sudo_names_the_person_logged_in(tmp_path):
    """The hall's INSTALL.txt has organisers run ``sudo -u cardtable cardtable display user ...``: every change was then
    audited as the OS user cardtable's, whoever made it. The kernel's login uid (kept through sudo, not the
    environment's word) names the person too. Here the login uid of the command's process is set as login does it
    (root only), as the user nobody, while root runs the command."""
    import os
    import pwd
    import subprocess

    from kit import make_db

    from display.store import Store

    db = make_db(tmp_path / "console.db")
    me, login = pwd.getpwuid(os.getuid()).pw_name, pwd.getpwuid(65534).pw_name
    as_login = ("import os, sys; open('/proc/self/loginuid', 'w').write('65534'); "
                "from cardtable.cli import main; sys.exit(main(sys.argv[1:]))")
    probe = subprocess.run([sys.executable, "-c", "open('/proc/self/loginuid', 'w').write('65534')"], capture_output=True)
    if probe.returncode:
        pytest.skip("this process may not set a login uid (root with the audit capability only)")
    done = subprocess.run([sys.executable, "-c", as_login, "display", "user", "--db", str(db), "--user", "li", "--unlock"],
                          capture_output=True, text=True, env=os.environ | {"PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    store = Store.open(db)
    try:
        row = [r for r in store.audit_log() if r["action"] == "unlock_user"][0]
    finally:
        store.close()
    assert row["user"] == me and row["detail"]["login"] == login


def serve_on(broker, credentials: Path, db: Path, port: int, *more: str, users: tuple[str, ...] = ()) -> subprocess.Popen:
    """``cardtable [more] display serve [users]`` of the console file ``db`` on ``port``, its errors piped."""
    return subprocess.Popen([sys.executable, "-m", "cardtable", *more, "display", "serve", "--db", str(db), *users,
                             "--port", str(port), "--broker", broker.address, "--credentials", str(credentials)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def serving(proc: subprocess.Popen, port: int) -> bool:
    """Whether ``proc`` serves the hall on ``port``, its feed connected."""
    assert proc.poll() is None, proc.stderr.read()
    try:
        return httpx.get(f"http://127.0.0.1:{port}/api/hall", timeout=5).json()["feed"]
    except httpx.HTTPError:
        return False


def test_a_second_display_of_the_scoreboard_user_on_the_broker_is_refused_in_words(broker, tmp_path, until):
    """The broker makes a client's id its user name and keeps the display's session for it (``display.feed``): two
    displays of one scoreboard user, of two console files, took it from each other for ever, both missing events. The
    second is refused in one line naming the first; with a user of its own it serves."""
    credentials = broker.write_credentials(tmp_path / "credentials", ["scoreboard", "console", "scoreboard-2", "console-2"])
    port, procs = free_port(), []
    try:
        procs.append(first := serve_on(broker, credentials, tmp_path / "c1.db", port))
        assert until(lambda: serving(first, port), 30)
        procs.append(second := serve_on(broker, credentials, tmp_path / "c2.db", free_port()))
        assert second.wait(60) == 2
        lines = second.stderr.read().strip().splitlines()
        said = (f"cardtable display serve：错误：消息服务器上的计分板用户 scoreboard 已由另一个 `cardtable display serve` 在用"
                f"（进程号和地址：{first.pid} 127.0.0.1:{port}；锁文件 ")
        assert len(lines) == 1 and lines[0].startswith(said), lines
        users = ("--scoreboard-user", "scoreboard-2", "--console-user", "console-2")
        procs.append(third := serve_on(broker, credentials, tmp_path / "c3.db", other := free_port(), users=users))
        assert until(lambda: serving(third, other), 30) and serving(first, port)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_a_second_serve_of_a_console_file_is_refused_and_one_killed_leaves_it_to_the_next(broker, tmp_path, until):
    """Two `display serve` of one console file: the later settled at its start the audit rows the other had pending
    (a change not yet in the tournament's log) as changes never made, their lines lost. Now the second is refused in
    one line naming the first, before it meets the broker (the first keeps its sessions and serves on); killed with
    -9, the first leaves its `<file>.lock`, which the next takes over; stopped, a serve removes it."""
    db, credentials = tmp_path / "c.db", broker.write_credentials(tmp_path / "credentials", ["scoreboard", "console"])
    lock = Path(f"{db}.lock")

    def serve(port: int, *more: str) -> subprocess.Popen:
        return serve_on(broker, credentials, db, port, *more)

    port, procs = free_port(), []
    try:
        procs.append(first := serve(port))
        assert until(lambda: serving(first, port), 30)
        assert lock.read_text() == f"{first.pid} 127.0.0.1:{port}\n"
        for more, said in (((), f"cardtable display serve：错误：控制台文件 {db} 已由另一个 `cardtable display serve` 在用"
                                f"（进程号和地址：{first.pid} 127.0.0.1:{port}；锁文件 {lock}）"),
                           (("--lang", "en"), f"cardtable display serve: error: the console file {db} is served already by "
                                              f"another `cardtable display serve` (its process and address: {first.pid} "
                                              f"127.0.0.1:{port}; lock file {lock})")):
            procs.append(second := serve(free_port(), *more))
            assert second.wait(60) == 2
            lines = second.stderr.read().strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith(said), lines
        assert serving(first, port) and lock.read_text().startswith(f"{first.pid} ")
        first.kill()
        first.wait()
        assert lock.read_text().startswith(f"{first.pid} ")  # left by the process killed, its flock gone with it
        procs.append(third := serve(port))
        assert until(lambda: serving(third, port), 30)
        assert lock.read_text() == f"{third.pid} 127.0.0.1:{port}\n"
        third.send_signal(signal.SIGTERM)
        assert third.wait(30) == 0 and not lock.exists()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_serve_of_a_console_file_without_users_says_nobody_can_log_in(broker, tmp_path, until, monkeypatch):
    """`--db` mistyped made a new console file and served it without a word: the organisers could not log in, and
    nothing said why. Serve says it once the broker is reached (zh, en), and serves on (a hall set up before its first
    user is added is one); a file with a user says nothing."""
    db, credentials = tmp_path / "c.db", broker.write_credentials(tmp_path / "credentials", ["scoreboard", "console"])

    def served(*more: str) -> str:
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "cardtable", *more, "display", "serve", "--db", str(db), "--port",
                                 str(port), "--broker", broker.address, "--credentials", str(credentials)],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

        def serving() -> bool:
            assert proc.poll() is None, proc.stderr.read()
            try:
                return httpx.get(f"http://127.0.0.1:{port}/api/hall", timeout=5).json()["feed"]
            except httpx.HTTPError:
                return False
        try:
            assert until(serving, 30)
        finally:
            proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        return proc.stderr.read()

    assert f"注意：控制台文件 {db} 里还没有用户，没有人能登录控制台（记分牌照常显示）。若 `--db` 没有打错，请添加：" \
           f"`cardtable display user --db {db} --user 名字 --role organiser`" in served()
    assert f"note: the console file {db} has no users yet, so nobody can log in" in served("--lang", "en")
    monkeypatch.setenv("CARDTABLE_PASSWORD", "a long enough password")
    assert cli.main(["display", "user", "--db", str(db), "--user", "zhao", "--role", "organiser"]) == 0
    assert "控制台文件" not in served()


def test_a_console_file_locked_past_the_wait_is_said_as_locked_not_as_another_file(tmp_path, monkeypatch, capsys):
    """Another program holds the console's own file locked past the wait (a person's sqlite3 shell in an exclusive
    transaction): `display user` said "not the console's file (damaged ...)", which sent the organiser to the wrong
    file or a backup. Now the lock is said, and to try again; nothing changes. The wait is shortened from 30 s."""
    import sqlite3
    from contextlib import closing

    from referee.tournament import store as tournament_store

    db = tmp_path / "console.db"
    monkeypatch.setenv("CARDTABLE_PASSWORD", "organiser-pass")
    assert cli.main(["display", "user", "--db", str(db), "--user", "王老师", "--role", "organiser"]) == 0
    capsys.readouterr()
    monkeypatch.setattr(tournament_store, "WAIT_S", 0.5)
    with closing(sqlite3.connect(db, isolation_level=None)) as other:
        other.execute("PRAGMA locking_mode=EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        other.execute("UPDATE users SET role = role")
        assert cli.main(["display", "user", "--db", str(db), "--user", "李老师", "--role", "referee"]) == 2
        err = capsys.readouterr().err
        assert cli.main(["--lang", "en", "display", "user", "--db", str(db), "--user", "李老师", "--role", "referee"]) == 2
        err_en = capsys.readouterr().err
        other.execute("ROLLBACK")
    assert f"另一个程序占着 {db} 的锁超过了 0.5 秒" in err and "不是控制台的文件" not in err, err
    assert f"another program has held the lock on {db} for over 0.5 s" in err_en and "not the console" not in err_en
    assert Store.open(db).users() == [("王老师", "organiser")]
