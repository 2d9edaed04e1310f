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
    assert cli.main(["display", "user", "--db", str(db), "--user", "王老师", "--role", "referee"]) == 1
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
        assert done.stderr.strip().splitlines()[-1].startswith("cardtable display serve: ")  # the last word: its own
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
        assert proc.wait(30) in (0, -signal.SIGTERM)  # uvicorn raises SIGTERM again once it has shut down; Ctrl-C ends 0
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
