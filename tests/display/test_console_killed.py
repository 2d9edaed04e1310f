"""The console killed (SIGKILL) between a change to the tournament's file and its line in the console's audit log: the
change stood (with who and when in the tournament's log) and the audit lost who made it and why (the reason a
withdrawal, a correction, an unpairing must give). Real ``display serve`` processes on a real broker; the moment is
made by holding the files' own SQLite locks. Also the console's file's format: an older one opens, a newer one is
refused in words."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing, contextmanager
from pathlib import Path

import httpx
from kit import ORGANISER, make_db, small_tournament

from bus.broker import free_port
from cardtable import cli
from display.store import VERSION, Store
from referee.tournament import TournamentStore

ROOT = Path(__file__).resolve().parents[2]
REASON = "赛场上严重违纪，取消比赛资格"  # 004 三: 取消比赛资格 (a withdrawal's reason, recorded)


@contextmanager
def console(broker, tmp_path: Path, until):
    """``display serve`` on the console's ``console.db`` and the tournament's ``hall.db``; a client logged in as the
    organiser, once it answers."""
    port = free_port()
    credentials = broker.write_credentials(tmp_path / "credentials", ["scoreboard", "console"])
    proc = subprocess.Popen([sys.executable, "-m", "cardtable", "display", "serve", "--db", str(tmp_path / "console.db"),
                             "--tournament-db", str(tmp_path / "hall.db"), "--port", str(port), "--broker", broker.address,
                             "--credentials", str(credentials)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        def up() -> bool:
            assert proc.poll() is None, proc.stdout.read().decode()
            try:
                return httpx.get(url + "/api/hall", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        assert until(up, 30)
        with httpx.Client(base_url=url, headers={"Origin": url}, timeout=60) as client:
            assert client.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
            yield proc, client
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _pending(db: Path) -> int:
    with closing(sqlite3.connect(db)) as c:
        try:
            return c.execute("SELECT COUNT(*) FROM pending").fetchone()[0]
        except sqlite3.OperationalError:  # no such table (a console without it)
            return 0


def _last_seq(db: Path) -> int:
    with closing(sqlite3.connect(db)) as c:
        return c.execute("SELECT MAX(seq) FROM actions").fetchone()[0]


def _held(db: Path) -> sqlite3.Connection:
    """The file's write lock, held by this test until its ROLLBACK."""
    c = sqlite3.connect(db, isolation_level=None)
    c.execute("BEGIN IMMEDIATE")
    return c


def _waiting(client, hall: Path, db: Path, until) -> tuple[sqlite3.Connection, list]:
    """The organiser withdraws entry e1 with its reason, on a thread, while this test holds the tournament's lock (it
    returns it, and the list the answer goes into): the withdrawal noted, it waits on the lock (a console that notes
    nothing surely does after 3 s)."""
    tournament, answers = _held(hall), []

    def send() -> None:
        try:
            answers.append(client.post("/api/console/tournament/withdrawals", json={"entry": "e1", "reason": REASON}))
        except httpx.HTTPError as exc:  # the console killed under it
            answers.append(exc)

    threading.Thread(target=send, daemon=True).start()
    until(lambda: _pending(db) > 0, 3)
    return tournament, answers


def test_killed_after_the_change_before_its_audit_line_the_line_is_made_at_start(broker, tmp_path, until):
    """The tournament's write lock held, the withdrawal waits; the console's file locked, the tournament's let go: the
    withdrawal is logged and its audit line waits. Killed -9 there, the console starts again and the line is there,
    who and why, at the time the tournament's log gives the change."""
    hall, db = small_tournament(tmp_path / "hall.db"), make_db(tmp_path / "console.db")
    before = _last_seq(hall)
    with console(broker, tmp_path, until) as (proc, client):
        tournament, answers = _waiting(client, hall, db, until)
        mine = _held(db)
        tournament.execute("ROLLBACK")
        assert until(lambda: _last_seq(hall) > before, 20)  # the change is made; its audit line waits on the lock
        time.sleep(0.5)
        assert proc.poll() is None and not answers
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert not [r for r in mine.execute("SELECT action FROM audit").fetchall() if r[0] == "withdraw_entry"]
        mine.execute("ROLLBACK")
        mine.close()
        tournament.close()
    store = TournamentStore(hall)
    action = store.actions()[-1]
    assert store.tournament.withdrawn == ("e1",) and action["kind"] == "leave" and action["by"] == ORGANISER[0]
    store.close()
    with console(broker, tmp_path, until) as (_, client):
        audit = client.get("/api/console/audit").json()
        english = client.get("/api/console/audit", headers={"Accept-Language": "en"}).json()
    withdrawn = [a for a in audit if a["action"] == "withdraw_entry"]
    assert len(withdrawn) == 1, audit
    assert withdrawn[0]["user"] == ORGANISER[0] and withdrawn[0]["at"] == action["at"]
    assert withdrawn[0]["detail"]["reason"] == REASON and withdrawn[0]["detail"]["named"]["e1"]["name"] == "队1"
    lot = withdrawn[0]["detail"]["named"]["e1"]["lot"]
    assert withdrawn[0]["text"] == f"组织者 wang 登记 {lot}号 单位0 队1 退赛（原因：{REASON}）"
    assert next(a for a in english if a["action"] == "withdraw_entry")["text"] == \
        f"organiser wang recorded that No. {lot} 单位0 队1 withdrew (reason: {REASON})"
    assert _pending(db) == 0


def test_killed_before_the_change_leaves_no_line(broker, tmp_path, until):
    """Killed while the withdrawal waits on the tournament's lock: nothing was changed, and the console started again
    writes no line for it (its note dropped)."""
    hall, db = small_tournament(tmp_path / "hall.db"), make_db(tmp_path / "console.db")
    before = _last_seq(hall)
    with console(broker, tmp_path, until) as (proc, client):
        tournament, answers = _waiting(client, hall, db, until)
        assert not answers
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        tournament.execute("ROLLBACK")
        tournament.close()
    assert _last_seq(hall) == before
    with console(broker, tmp_path, until) as (_, client):
        audit = client.get("/api/console/audit").json()
    assert not [a for a in audit if a["action"] == "withdraw_entry"], audit
    assert _pending(db) == 0


def test_a_file_of_an_older_console_opens_and_a_newer_ones_is_refused_in_words(tmp_path, capsys):
    """A console's file made before the pending changes (format 0: no ``pending``) opens, its users and audit kept, and
    is brought up to this format; one a newer console wrote (a later format, a table of its own) is refused in words,
    in both languages, and not written to."""
    old = tmp_path / "old.db"
    with closing(sqlite3.connect(old)) as c:  # the tables as the console made them before
        c.executescript("""
            CREATE TABLE users (name TEXT PRIMARY KEY, role TEXT NOT NULL, hash TEXT NOT NULL, created REAL NOT NULL);
            CREATE TABLE sessions (digest TEXT PRIMARY KEY, name TEXT NOT NULL, expires REAL NOT NULL);
            CREATE TABLE audit (id INTEGER PRIMARY KEY, at REAL NOT NULL, name TEXT NOT NULL, action TEXT NOT NULL, detail TEXT NOT NULL);
            CREATE TABLE draft (id INTEGER PRIMARY KEY, row TEXT NOT NULL);
            CREATE TABLE failed_logins (at REAL NOT NULL, name TEXT NOT NULL, client TEXT NOT NULL);
            CREATE TABLE audit_seals (id INTEGER PRIMARY KEY, chain BLOB NOT NULL);
            CREATE TABLE known_clients (name TEXT NOT NULL, client TEXT NOT NULL, PRIMARY KEY (name, client));""")
        c.execute("INSERT INTO users VALUES ('wang', 'organiser', 'x', 0)")
        c.commit()
    s = Store.open(old)
    assert s.users() == [("wang", "organiser")] and s.pending("hall.db") == []
    s.close()
    with closing(sqlite3.connect(old)) as c:
        assert c.execute("PRAGMA user_version").fetchone()[0] == VERSION
        c.execute(f"PRAGMA user_version = {VERSION + 1}")
        c.execute("CREATE TABLE rosters (id INTEGER PRIMARY KEY)")
        c.commit()
    written = old.read_bytes()
    assert cli.main(["display", "backup", "--db", str(old), "--out", str(tmp_path / "copy.db")]) == 2
    assert f"{old} 是更新版本的 `cardtable` 写的控制台文件（格式第 {VERSION + 1} 版，本机的只认到第 {VERSION} 版），未作任何改动" \
        in capsys.readouterr().err
    assert cli.main(["--lang", "en", "display", "user", "--db", str(old), "--user", "li", "--remove"]) == 2
    assert f"{old} is a console file written by a newer `cardtable` (format {VERSION + 1}" in capsys.readouterr().err
    assert old.read_bytes() == written
