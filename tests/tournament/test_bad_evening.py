"""``cardtable tournament`` on a bad evening, by the organisers' technician: the disk full, a read-only disk or folder,
another program holding the file's lock, a file edited by hand or written by a newer version, exports into a device,
a pipe or a link, unreadable or endless free texts, processes killed with -9 while two of them write. Each ends in
words (Chinese first, English with ``--lang en``), changes nothing and loses nothing recorded; only a file that is
really damaged is said to be, since the advice then (put the latest backup back) loses what came after the backup."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from cardtable.cli import main
from referee.tournament import store as store_module
from referee.tournament.store import TournamentStore, seal

FORM = "单位,队名,对,选手\n" + "".join(f"{u},,{p},{u}{p}甲、{u}{p}乙\n" for u in ("机电学院", "外语学院", "化工学院", "体育部")
                                        for p in (1, 2))


def run(capsys, *argv) -> str:
    assert main(["tournament", *map(str, argv)]) == 0
    return capsys.readouterr().out


def refused(capsys, *argv) -> str:
    """What the command said when it refused (exit 2)."""
    with pytest.raises(SystemExit) as exc:
        main(["tournament", *map(str, argv)])
    assert exc.value.code == 2
    return capsys.readouterr().err


def cli(*argv) -> subprocess.CompletedProcess:
    """The command in a process of its own, as the technician runs it (its files closed when it ends)."""
    return subprocess.run([sys.executable, "-m", "cardtable", "tournament", *map(str, argv)], capture_output=True,
                          text=True, timeout=60)


def cli_refused(*argv) -> str:
    done = cli(*argv)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


@pytest.fixture
def form(tmp_path) -> Path:
    path = tmp_path / "form.csv"
    path.write_text(FORM, encoding="utf-8")
    return path


@pytest.fixture
def disk(tmp_path):
    """A real small file system (tmpfs, 512 KiB), unmounted after the test."""
    where = tmp_path / "disk"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(where)], capture_output=True).returncode:
        pytest.skip("mounting a tmpfs needs root")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=True)


def made(form, db: Path) -> None:
    """A pair-swiss field of 8 pairs, round 1 paired, t01's result in."""
    for argv in (["new", "--system", "pair-swiss", "--entries", form, "--rounds", 2, "--seed", 1], ["pair"],
                 ["result", "--round", 1, "--table", "t01", "--winner", 0]):
        assert cli(argv[0], "--db", db, *argv[1:]).returncode == 0


def fill(disk: Path, keep: int) -> None:
    """The disk filled up to ``keep`` bytes free."""
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    (disk / "fill").write_bytes(bytes(max(0, free - keep)))


def results(db: Path) -> dict:
    view = TournamentStore(db)
    try:
        return {x["table"]: x["result"] for x in view.round_view(1)["tables"] if x["result"] is not None}
    finally:
        view.close()


def test_a_full_disk_is_said_full_not_damaged_and_nothing_recorded_is_lost(form, disk):
    """The disk under the tournament's file fills up. Before, a result entered then ended in a traceback
    (sqlite3.OperationalError: database or disk is full), and with no room left at all every command said the file was
    damaged and to put its latest backup back: doing so would lose every result since. Now it says the disk is full,
    that nothing was changed and all recorded is there; once there is room the same command records it."""
    db = disk / "t.db"
    made(form, db)
    for keep in (0, 40 * 1024):  # no room at all (SQLite cannot map its -shm); room to start the write, not to commit it
        fill(disk, keep)
        err = cli_refused("result", "--db", db, "--round", 1, "--table", "t02", "--winner", 1)
        assert f"{db} 所在的磁盘已满（" in err and "已记录的都还在" in err and "不要换上备份" in err, err
        assert "已损坏" not in err
        err = cli_refused("new", "--system", "pair-swiss", "--entries", form, "--db", disk / "n.db", "--lang", "en")
        assert f"the disk holding {disk / 'n.db'} is full (" in err, err
        assert not [p.name for p in disk.iterdir() if p.name.startswith("n.db")]  # no file left of the refused one
        (disk / "fill").unlink()
        assert results(db) == {"t01": {"points": [2, 0], "scores": [2, -2]}}
    assert cli("result", "--db", db, "--round", 1, "--table", "t02", "--winner", 1).returncode == 0
    assert sorted(results(db)) == ["t01", "t02"]


def test_a_read_only_disk_or_folder_is_said_so_not_damaged(form, disk):
    """A tournament's file on a read-only disk (a write-protected stick, a disk the system remounted read-only after
    an error) or in a folder the user may not write: before, every command said it was damaged (put the backup back).
    Now it says it cannot write there (a WAL file's reader writes its -shm too), and what to do; nothing changes."""
    db = disk / "t.db"
    made(form, db)
    before = db.read_bytes()
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
    try:
        for argv in (["standings"], ["result", "--round", 1, "--table", "t02", "--winner", 1]):
            err = cli_refused(argv[0], "--db", db, *argv[1:])
            assert f"无法写入 {db} 或它所在的文件夹（" in err and "未作任何改动" in err and "已损坏" not in err, err
            assert "attempt to write" not in err and "unable to open" not in err, err  # SQLite's English said in words
        err = cli_refused("new", "--system", "pair-swiss", "--entries", form, "--db", disk / "n.db", "--lang", "en")
        assert f"cannot write {disk / 'n.db'} or its folder (it cannot be" in err, err
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)
    assert db.read_bytes() == before and sorted(p.name for p in disk.iterdir()) == ["t.db"]


def test_a_lock_held_past_the_wait_is_said_and_nothing_changes(capsys, form, tmp_path, monkeypatch):
    """Another program (a console stuck in a change, a person's sqlite3 shell in a transaction) holds the file's
    write lock past the wait: the command ended in a traceback (database is locked). Now it says so and to try again.
    The wait is shortened from 30 s to half a second here; the lock is SQLite's own, held by another connection."""
    db = tmp_path / "t.db"
    made(form, db)
    monkeypatch.setattr(store_module, "WAIT_S", 0.5)
    with closing(sqlite3.connect(db, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        err = refused(capsys, "result", "--db", db, "--round", 1, "--table", "t02", "--winner", 1)
        err_en = refused(capsys, "result", "--db", db, "--round", 1, "--table", "t02", "--winner", 1, "--lang", "en")
        other.execute("ROLLBACK")
    # SQLite's own words (database is locked) said as the catalogue's [sqlite]
    assert f"另一个程序占着 {db} 的锁超过了 0.5 秒（另一个程序锁住了它），未作任何改动；请稍后再试" in err, err
    assert f"another program has held the lock on {db} for over 0.5 s (another program holds its lock)" in err_en, err_en
    assert sorted(results(db)) == ["t01"]


def logged(db: Path) -> list[tuple]:
    with closing(sqlite3.connect(db)) as c:
        return c.execute("SELECT * FROM actions ORDER BY seq").fetchall()


def edited(db: Path, out: Path, seq: int, old: str, new: str) -> list[tuple]:
    """A copy of ``db`` edited by hand as a person with sqlite3 would: the seals dropped (the store then takes it as a
    file from before seals, sealed as it reads at its first opening) and action ``seq``'s text changed."""
    with closing(sqlite3.connect(db)) as src, closing(sqlite3.connect(out)) as dst:
        src.backup(dst)
    with closing(sqlite3.connect(out)) as c, c:
        c.execute("DROP TABLE seals")
        c.execute("DROP TRIGGER actions_no_update")
        (data,) = c.execute("SELECT data FROM actions WHERE seq = ?", (seq,)).fetchone()
        assert old in data
        c.execute("UPDATE actions SET data = ? WHERE seq = ?", (data.replace(old, new, 1), seq))
    return logged(out)


def test_a_file_edited_by_hand_into_what_the_store_never_writes_is_refused_naming_the_action(capsys, form, tmp_path):
    """Before: an entry id given twice in the field ended `standings` in a traceback (KeyError), a pair at two tables
    of a round and a table number given twice were taken silently (standings and the next pairing computed from them),
    and an impossible result was said as if the command had just been given it. Now the file is refused as damaged,
    naming the action and what is wrong with it, and no action is written (nor sealed in as it reads)."""
    db = tmp_path / "t.db"
    made(form, db)
    pair = json.loads(run(capsys, "show", "--db", db, "--json"))["tables"]
    first, second = pair[0]["entries"][0]["id"], pair[1]["entries"][0]["id"]
    cases = {"twice.db": (1, '"id": "e02"', '"id": "e01"', "第 1 条记录（`new`）：参赛编号不能重复"),
             "two_tables.db": (2, f'"{second}"', f'"{first}"', f"第 2 条记录（`pair`）：第 1 轮的对阵中 {first} 出现了不止一次"),
             "table_twice.db": (2, '"t02"', '"t01"', "第 2 条记录（`pair`）：第 1 轮的对阵中 t01 出现了不止一次"),
             "result.db": (3, '"winner": 0', '"winner": 7', "第 3 条记录（`result`）：成绩须写明胜方")}
    for name, (seq, old, new, said) in cases.items():
        before = edited(db, tmp_path / name, seq, old, new)
        for argv in (["standings"], ["show"], ["pair"], ["result", "--round", 1, "--table", "t02", "--winner", 1]):
            err = refused(capsys, argv[0], "--db", tmp_path / name, *argv[1:])
            assert f"{name} 已损坏" in err and said in err and "未作任何改动" in err, (name, argv, err)
        assert logged(tmp_path / name) == before
    err = refused(capsys, "standings", "--db", tmp_path / "two_tables.db", "--lang", "en")
    assert f"(action 2 (pair): round 1's draw holds {first} more than once)" in err


def test_a_file_from_a_newer_cardtable_is_said_so_not_damaged(capsys, form, tmp_path):
    """A file a newer version wrote (an action of a kind this one does not know, sealed as any): before, `unknown
    action 'prize'` and nothing else. Now it names the file and the action, says a newer cardtable wrote it and not to
    put a backup back (the file is whole)."""
    db = tmp_path / "t.db"
    made(form, db)
    with closing(sqlite3.connect(db)) as c, c:
        (chain,) = c.execute("SELECT chain FROM seals WHERE seq = 3").fetchone()
        text = json.dumps({"round": 1, "table": "t01", "prize": 1})
        c.execute("INSERT INTO actions VALUES (4, 'prize', ?, 'organiser', 1.0)", (text,))
        c.execute("INSERT INTO seals VALUES (4, ?)", (seal(chain, 4, "prize", text, "organiser", 1.0),))
    err = refused(capsys, "standings", "--db", db)
    assert f"{db} 的第 4 条记录是这个版本不认识的操作“prize”：文件大概是更新版本的 `cardtable` 写的。未作任何改动" in err, err
    assert "不要换上备份" in err
    assert "written by a newer `cardtable`" in refused(capsys, "pair", "--db", db, "--lang", "en")


def test_an_export_into_a_device_a_pipe_or_a_link_writes_into_it_and_replaces_nothing(capsys, form, tmp_path):
    """`export --out` wrote a file beside the target and renamed it over the target, whatever it was: `--out
    /dev/null` or `/dev/stdout` run as root replaced the system's device (a link) with a plain file, a named pipe was
    replaced, a link to a file became a file. Now a device or a pipe is written into (`/dev/full`: the disk full, said
    in words), and a link writes the file it names."""
    db = tmp_path / "t.db"
    made(form, db)
    full, link, target = tmp_path / "full", tmp_path / "link.csv", tmp_path / "real.csv"
    full.symlink_to("/dev/full")
    target.write_text("old")
    link.symlink_to(target)
    err = refused(capsys, "export", "--db", db, "--format", "csv", "--out", full)
    assert f"{full}：无法写出：磁盘已满" in err, err  # the system's words, not its English
    run(capsys, "export", "--db", db, "--format", "csv", "--out", link)
    assert full.is_symlink() and link.is_symlink() and target.read_bytes().startswith("\ufeff轮次".encode())
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = subprocess.Popen(["cat", str(pipe)], stdout=subprocess.PIPE)
    run(capsys, "export", "--db", db, "--format", "csv", "--out", pipe)
    assert reader.communicate(timeout=10)[0] == target.read_bytes() and pipe.is_fifo()


def test_an_export_over_a_database_is_refused_and_changes_nothing(capsys, form, tmp_path):
    """`export --out` named another command's file (the console's, a mistyped `--db` for `--out`, the tournament's
    own): the CSV replaced the database, exit 0. Now refused in words before the tournament is opened."""
    import sqlite3
    from contextlib import closing

    db, console = tmp_path / "t.db", tmp_path / "console.db"
    made(form, db)
    with closing(sqlite3.connect(console)) as c, c:
        c.execute("CREATE TABLE users (name TEXT)")
    before = {p: p.read_bytes() for p in (db, console)}
    for out in (console, db):
        err = refused(capsys, "export", "--db", db, "--format", "csv", "--out", out)
        assert f"{out} 是数据库文件（赛事、控制台或牌桌的记录），导出不写在它上面，未作任何改动" in err, err
    assert {p: p.read_bytes() for p in before} == before and sorted(tmp_path.iterdir()) == sorted([*before, form])


def test_who_and_the_free_texts_are_refused_unreadable_or_endless(capsys, form, tmp_path):
    """`--by` was logged as given (a terminal's escape, a right-to-left override that reverses who the console's audit
    shows, 30,000 characters), and a name or reason of any length (the console takes 128 and 200). Now they are
    refused as the console refuses them, and nothing changes."""
    db = tmp_path / "t.db"
    made(form, db)
    before = results(db)
    result = ["result", "--db", db, "--round", 1, "--table", "t02", "--winner", 1]
    assert "操作人“王\\x1b[2J”含有控制字符" in refused(capsys, *result, "--by", "王\x1b[2J")
    assert "操作人“\\u202e王老师”含有看不见的格式字符" in refused(capsys, *result, "--by", "\u202e王老师")
    assert "操作人有 10000 个字，最多 64 个，什么也没有改动" in refused(capsys, *result, "--by", "王" * 10_000)
    err = refused(capsys, *result, "--correct", "--reason", "x" * 10_000, "--lang", "en")
    assert "reason is 10000 characters long, at most 200: nothing was changed" in err
    assert "赛事名称有 10000 个字，最多 128 个" in refused(capsys, "new", "--system", "pair-swiss", "--entries", form,
                                                     "--db", tmp_path / "n.db", "--name", "秋" * 10_000)
    assert results(db) == before and not (tmp_path / "n.db").exists()


WRITER = """
import sys
from referee.tournament.store import TournamentStore
store, table, start = TournamentStore(sys.argv[1]), sys.argv[2], int(sys.argv[3])
for i in range(start, 10**9):
    store.correct_result(1, table, {"winner": i % 2}, by=f"w{table}", reason=f"{table}-{i}")
    print(f"{table}-{i}", flush=True)  # told once it is recorded
"""


def test_writers_killed_with_minus_9_while_another_writes_lose_nothing_recorded(capsys, form, tmp_path):
    """Two processes write the same tournament at once (the console and the command line, or the service), one of them
    killed with -9 at random moments and started again: every change either one was told was recorded is in the log,
    in order, the file always opens and replays, and neither overwrote the other's (an append-only log in SQLite
    transactions: a regression guard, this held before)."""
    db = tmp_path / "t.db"
    made(form, db)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    steady = subprocess.Popen([sys.executable, "-c", WRITER, str(db), "t03", "0"], stdout=subprocess.PIPE, text=True, env=env)
    told, rng = [], random.Random(7)
    for k in range(8):
        killed = subprocess.Popen([sys.executable, "-c", WRITER, str(db), "t02", str(k * 10**6)], stdout=subprocess.PIPE, text=True, env=env)
        try:
            killed.wait(timeout=rng.uniform(0.6, 1.5))
        except subprocess.TimeoutExpired:
            killed.send_signal(signal.SIGKILL)
        told += killed.communicate()[0].split()
        assert TournamentStore(db).round_view(1)["round"] == 1  # opens and replays between kills
    steady.send_signal(signal.SIGKILL)
    told += steady.communicate()[0].split()
    reasons = [a["data"].get("reason") for a in TournamentStore(db).actions() if a["kind"] == "correct"]
    assert {t for t in told if t.startswith("t02")} and {t for t in told if t.startswith("t03")}
    assert set(told) <= set(reasons)
    for table in ("t02", "t03"):
        mine = [int(r.split("-")[1]) for r in reasons if r.startswith(table)]
        assert mine == sorted(mine)
