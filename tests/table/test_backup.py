"""``cardtable table backup``: a table's event log copied at a break while its service writes, checked before it
takes its name (the copy is the log up to its last entry, entry for entry), never over a file, nothing left behind
when it fails. ``docs/recovery.md`` told referees to use Debian's ``sqlite3``, which setup does not install."""

from __future__ import annotations

import subprocess
import sys
import threading

from full import small_files

from cardtable.cli import main
from referee.table.log import EventLog


def write(log: EventLog, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        log.append("board/in", {"v": 1, "id": f"b-{i}", "seat": "SENW"[i % 4], "button": "ready", "at": 100.0 + i},
                   at=100.0 + i, input_id=f"board/in b-{i}")


def test_a_log_is_backed_up_while_its_service_writes_and_the_copy_is_its_beginning(tmp_path, capsys):
    """A thread appends entries as the service does while the backup runs: the copy holds the log's first entries,
    exactly, and reads as a log (``table replay``); nothing else is left beside it."""
    db, out = tmp_path / "t07.db", tmp_path / "t07-break.db"
    log = EventLog.open(db)
    log.set_meta({"table": "t07", "rulebook": "classic-3deck"})
    write(log, 500)
    stop = threading.Event()

    def service() -> None:  # the table goes on: an entry at a time, each committed
        i = 500
        while not stop.is_set():
            write(log, 1, i)
            i += 1

    writer = threading.Thread(target=service)
    writer.start()
    try:
        assert main(["table", "backup", "--db", str(db), "--out", str(out)]) == 0
    finally:
        stop.set()
        writer.join()
    said = capsys.readouterr().out
    with EventLog.read(out) as copy:
        kept = list(copy.entries())
        assert copy.meta("table") == "t07"
    assert len(kept) >= 500 and said == f"已备份到 {out}：{len(kept)} 条记录，核对无误（与原记录逐条相同）\n"
    assert [(e.seq, e.kind, e.payload) for e in kept] == [(e.seq, e.kind, e.payload) for e in log.entries()][:len(kept)]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("t07-break")) == ["t07-break.db"]
    log.close()
    assert main(["table", "replay", str(out)]) == 0  # the copy reads as a log


def test_a_backup_is_refused_in_words_over_a_file_into_no_folder_or_of_no_log(tmp_path, capsys):
    """Refused, said, and nothing made: over a file that exists (an earlier backup stays), into a folder that does not
    exist (a USB stick not mounted), of a file that is no table's log, of no file."""
    db = tmp_path / "t07.db"
    with EventLog.open(db) as log:
        write(log, 3)
    taken = tmp_path / "taken.db"
    taken.write_text("an earlier backup", encoding="utf-8")
    notes = tmp_path / "notes.txt"
    notes.write_text("not a log", encoding="utf-8")
    for argv, said in ((["--db", str(db), "--out", str(taken)], "已经存在：备份从不覆盖文件"),
                       (["--db", str(db), "--out", str(tmp_path / "usb" / "t07.db")], "没有文件夹"),
                       (["--db", str(notes), "--out", str(tmp_path / "n.db")], "不能当作事件日志读取"),
                       (["--db", str(tmp_path / "nowhere.db"), "--out", str(tmp_path / "x.db")], "没有事件日志"),
                       (["--db", str(db), "--out", str(taken), "--lang", "en"], "exists: a backup never overwrites a file")):
        assert main(["table", "backup", *argv]) == 2
        assert said in capsys.readouterr().err, argv
    assert taken.read_text(encoding="utf-8") == "an earlier backup"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [
        "notes.txt", "t07.db", "taken.db"]  # nothing made


def test_a_backup_that_cannot_be_written_leaves_nothing_and_says_why(tmp_path):
    """A USB stick that fills up: the command runs under a file-size limit (40 KB) smaller than the log; the refusal
    says so, and neither the copy nor its part is left."""
    db, out = tmp_path / "t07.db", tmp_path / "b.db"
    with EventLog.open(db) as log:
        write(log, 1000)
    assert db.stat().st_size > 60_000
    done = subprocess.run([sys.executable, "-m", "cardtable", "table", "backup", "--db", str(db), "--out", str(out)],
                          capture_output=True, text=True, preexec_fn=small_files(40_000), timeout=60)
    assert done.returncode == 2 and f"无法写入备份 {out}（" in done.stderr and "没有留下任何文件" in done.stderr, done.stderr
    assert not any(p.name.startswith("b.db") for p in tmp_path.iterdir())
