"""The console's own file (``display.store``) on a bad evening: its audit log is append-only and sealed, so a row
damaged on disk or slipped in by hand reads as not what was written (never as a change someone made), and a damaged
draft is refused in words. Each damage is done to the real SQLite file."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import pytest
from fastapi.testclient import TestClient
from kit import ORGANISER, damaged_tournament, make_db, settings

from display.app import create_app
from display.store import Damaged, Store


def _filled(path) -> Store:
    s = Store.open(path)
    for i in range(5):
        s.audit("wang", "last_hand", {"table": f"t{i}"}, now=100.0 + i)
    return s


def _damage(path, old: bytes, new: bytes) -> None:
    """Change bytes of the file itself, as a failing disk would (same length: the page still reads)."""
    data = path.read_bytes()
    assert data.count(old) == 1 and len(old) == len(new)
    path.write_bytes(data.replace(old, new))


def test_the_audit_log_is_append_only(tmp_path):
    s = _filled(tmp_path / "c.db")
    for sql in ("UPDATE audit SET name = 'li'", "DELETE FROM audit", "DELETE FROM audit_seals",
                "UPDATE audit_seals SET chain = x'00'"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            s._db.execute(sql)
    assert [e["detail"]["table"] for e in s.audit_log()] == ["t4", "t3", "t2", "t1", "t0"]


def test_a_row_damaged_on_disk_reads_as_damaged_and_the_others_as_written(tmp_path):
    path = tmp_path / "c.db"
    _filled(path).close()  # the last connection closed: the WAL is in the file
    _damage(path, b'{"table": "t2"}', b'{"table": "t9"}')
    log = Store.open(path).audit_log()
    assert [e["action"] for e in log] == ["last_hand", "last_hand", "damaged", "last_hand", "last_hand"]
    assert log[2] == {"at": 102.0, "user": "", "action": "damaged", "detail": {"id": 3}}
    assert [e["detail"].get("table") for e in log] == ["t4", "t3", None, "t1", "t0"]


def test_text_that_is_not_utf8_any_more_reads_as_damaged_not_as_an_error(tmp_path):
    path = tmp_path / "c.db"
    _filled(path).close()
    _damage(path, b'{"table": "t3"}', b'{"table": "\xff3"}')
    log = Store.open(path).audit_log()
    assert [e["action"] for e in log] == ["last_hand", "damaged", "last_hand", "last_hand", "last_hand"]


def test_a_row_slipped_in_by_hand_is_not_taken_for_a_change(tmp_path):
    """A forged "add user" written straight into the file (an insert is all the triggers allow) has no seal."""
    path = tmp_path / "c.db"
    s = _filled(path)
    with closing(sqlite3.connect(path)) as db:
        db.execute("INSERT INTO audit (at, name, action, detail) VALUES (200.0, 'wang', 'add_user', ?)",
                   (json.dumps({"user": "x", "role": "organiser"}),))
        db.commit()
    assert s.audit_log(2) == [{"at": 200.0, "user": "", "action": "damaged", "detail": {"id": 6}},
                              {"at": 104.0, "user": "wang", "action": "last_hand", "detail": {"table": "t4"}}]
    s.audit("wang", "logout", {}, now=300.0)  # sealed on the forged row's seal, which is not there: still read
    assert [e["action"] for e in s.audit_log(3)] == ["logout", "damaged", "last_hand"]


def test_a_file_made_before_seals_is_sealed_at_its_first_opening(tmp_path):
    path = tmp_path / "old.db"
    with closing(sqlite3.connect(path)) as db:  # the console's file as the last release made it
        db.executescript("""
            CREATE TABLE users (name TEXT PRIMARY KEY, role TEXT NOT NULL, hash TEXT NOT NULL, created REAL NOT NULL);
            CREATE TABLE sessions (digest TEXT PRIMARY KEY, name TEXT NOT NULL, expires REAL NOT NULL);
            CREATE TABLE audit (id INTEGER PRIMARY KEY, at REAL NOT NULL, name TEXT NOT NULL, action TEXT NOT NULL,
                                detail TEXT NOT NULL);
            CREATE TABLE draft (id INTEGER PRIMARY KEY, row TEXT NOT NULL);
            CREATE TABLE failed_logins (at REAL NOT NULL, name TEXT NOT NULL, client TEXT NOT NULL);
            INSERT INTO audit (at, name, action, detail) VALUES (1.0, 'wang', 'login', '{}'), (2.0, 'wang', 'logout', '{}');
        """)
    s = Store.open(path)
    assert [e["action"] for e in s.audit_log()] == ["logout", "login"]
    assert s._run("SELECT id FROM audit_seals") == [(1,), (2,)]
    s.audit("li", "login", {}, now=3.0)
    s.close()
    assert [e["action"] for e in Store.open(path).audit_log()] == ["login", "logout", "login"]


def test_a_damaged_draft_is_refused_in_words_and_replaced_by_registering_again(tmp_path):
    path = tmp_path / "c.db"
    s = Store.open(path)
    s.set_draft([{"unit": "数学系", "players": "王芳、张伟"}, {"unit": "物理系", "players": "李强、刘洋"}])
    s.close()
    _damage(path, b'"unit": "\xe7\x89\xa9', b'"unit": "\xff\x89\xa9')  # 物 no longer UTF-8
    s = Store.open(path)
    with pytest.raises(Damaged) as said:
        s.draft()
    assert said.value.text("zh") == (f"控制台的文件 {path} 已损坏：draft 2 与写入时不同，未被采用；"
                                     "请清空报名后重新登记，或重新导入报名表（都会替换它）")
    s.set_draft([])
    assert s.draft() == []


def test_the_console_says_a_damaged_row_and_a_damaged_draft_in_words(broker, tmp_path):
    """Through the API, in both languages: the audit log shows the damaged row as such among the others; the
    entries, whose draft is damaged, are a 500 that says what and what to do (a bare 500 before), and clearing them
    mends it."""
    path = make_db(tmp_path / "c.db")
    s = Store.open(path)
    s.audit("wang", "last_hand", {"table": "t1"}, now=100.0)
    s.set_draft([{"unit": "物理系", "players": "李强、刘洋"}])
    s.close()
    _damage(path, b'{"table": "t1"}', b'{"table": "t7"}')
    _damage(path, b'"unit": "\xe7\x89\xa9', b'"unit": "\xff\x89\xa9')
    with TestClient(create_app(settings(broker, path, tmp_path / "hall.db")), raise_server_exceptions=False,
                    headers={"Origin": "http://testserver"}) as client:
        assert client.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
        log = client.get("/api/console/audit").json()
        assert [e["action"] for e in log] == ["login", "damaged"]
        assert log[1]["text"] == "审计记录第 1 条与写入时不同（文件已损坏或被人改动过）：这一条不可信"
        assert client.get("/api/console/audit", headers={"Accept-Language": "en"}).json()[1]["text"] == (
            "audit entry 1 is not what was written (the file is damaged or was changed by hand): do not trust it")
        r = client.get("/api/console/entries")
        assert r.status_code == 500 and r.json()["detail"].startswith(f"控制台的文件 {path} 已损坏：draft 1 与写入时不同")
        assert client.post("/api/console/entries", json={"unit": "数学系", "players": "王芳、张伟"}).status_code == 500
        assert client.delete("/api/console/entries").status_code == 200
        assert client.get("/api/console/entries").json()["entries"] == []


def test_a_damaged_tournament_file_is_said_in_words_not_shown_as_no_tournament(broker, tmp_path):
    """The tournament's file damaged (a digit of a result changed: its seal differs) when the console opens it: the
    tournament and its entries were a bare 500 (``Internal Server Error``), and the console's page, taking any failure
    for "no tournament yet", offered the registration forms. Now a 500 that says what and what to do."""
    hall = damaged_tournament(tmp_path / "hall.db")
    with TestClient(create_app(settings(broker, make_db(tmp_path / "c.db"), hall)), raise_server_exceptions=False,
                    headers={"Origin": "http://testserver"}) as client:
        assert client.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
        actions = "SELECT count(*) FROM actions"
        with closing(sqlite3.connect(hall)) as db:
            before = db.execute(actions).fetchone()
        for r in (client.get("/api/console/tournament"), client.get("/api/console/entries"),
                  client.post("/api/console/tournament/rounds")):
            assert r.status_code == 500 and r.json()["detail"].startswith(f"{hall} 已损坏（第 3 条记录与写入时不同（它的封印对不上））"), (r.request.url, r.text)
        with closing(sqlite3.connect(hall)) as db:
            assert db.execute(actions).fetchone() == before == (3,)  # no round paired on it


def test_a_full_disk_is_said_in_words_and_reading_goes_on(broker, tmp_path):
    """The console's file cannot grow (SQLite's own "database or disk is full", made here by capping the file's pages):
    a change was a bare 500 ("Internal Server Error"; a command to a table was sent all the same); now a 500 that says the file
    failed (in words: 磁盘已满, not SQLite's English) and that the change may have been made without its audit line. What
    reads still works."""
    app = create_app(settings(broker, make_db(tmp_path / "c.db"), tmp_path / "hall.db"))
    with TestClient(app, raise_server_exceptions=False, headers={"Origin": "http://testserver"}) as client:
        assert client.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
        db = app.state.ctx.store._db
        (pages,) = db.execute("PRAGMA page_count").fetchone()
        db.execute(f"PRAGMA max_page_count = {pages}")
        for i in range(500):  # entries registered until the file's last page is full
            r = client.post("/api/console/entries", json={"unit": f"单位{i}", "players": "王芳、张伟"})
            if r.status_code != 201:
                break
        assert r.status_code == 500 and r.json()["detail"] == (
            "控制台读写它的文件失败（磁盘已满）：若这是一项操作，它可能已经生效，却没有记入审计记录；"
            "请查看磁盘空间后再试")
        assert client.get("/api/console/audit").status_code == 200
        assert client.get("/api/me").json()["user"] == ORGANISER[0]


def test_a_backup_is_a_checked_copy_and_says_what_it_cannot_restore(tmp_path, capsys):
    """`cardtable display backup` copies the console's file while the display holds it open, opens the copy as the
    console would and says what it holds; never over a file, never from a file that is not there; a row damaged in
    the file is damaged in the copy too, and it says so."""
    from cardtable import cli

    path, out = tmp_path / "c.db", tmp_path / "c-r1.db"
    held = _filled(path)  # the display holds it open
    held.add_user("wang", "organiser-pass", "organiser", now=99.0)
    assert cli.main(["display", "backup", "--db", str(path), "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"已备份到 {out}：1 个用户，5 条审计记录，核对无误"  # add_user is the console's to log
    copy = Store.open(out)
    assert copy.users() == held.users() and copy.audit_log() == held.audit_log()
    assert copy.check_password("wang", "organiser-pass") == "organiser"
    copy.close()
    assert cli.main(["display", "backup", "--db", str(path), "--out", str(out), "--lang", "en"]) == 2
    assert "exists: a backup never overwrites a file" in capsys.readouterr().err
    assert cli.main(["display", "backup", "--db", str(tmp_path / "none.db"), "--out", str(tmp_path / "x.db")]) == 2
    assert "没有这个控制台文件" in capsys.readouterr().err and not (tmp_path / "none.db").exists()
    held.close()
    _damage(path, b'{"table": "t2"}', b'{"table": "t9"}')
    assert cli.main(["display", "backup", "--db", str(path), "--out", str(tmp_path / "c-r2.db")]) == 0
    assert "其中 1 条审计记录在原文件里已损坏" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".db") == ["c-r1.db", "c-r2.db", "c.db"]
