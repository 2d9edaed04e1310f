"""The lock of a table's log (``<log>.lock`` beside it, :func:`referee.table.recovery.hold_log`, a use of
:func:`bus.lock.hold_file`) on a bad evening: the service killed with -9 (the next start serves), two started at the
same instant on one log (one serves, the other is refused naming it), a lock file a dead process left (taken over),
one that cannot be made (a read-only disk: refused in words, nothing changed). A service that stops removes it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.table.log import LogError
from referee.table.recovery import hold_log
from referee.table.service import TableService

TABLES = ["k1", "k2", "k3"]
RULEBOOK = "classic-3deck"
WAIT_S = 30.0
# ``cardtable table run`` waiting for a line on its stdin, loaded, before it starts: the racers start as one.
READY = ("import sys; from cardtable.cli import main; import referee.table.service; print('ready', flush=True); "
         "sys.stdin.readline(); sys.exit(main())")


def test_a_service_killed_with_9_leaves_its_lock_file_and_the_next_start_serves(broker, tmp_path, table_watch,
                                                                                service_process):
    """Killed with -9, the service leaves ``<log>.lock`` naming its dead process; the kernel let its lock go, so the
    next start takes the file over, names itself in it, serves, and on SIGTERM removes it."""
    db = tmp_path / "k1.db"
    lock = Path(f"{db}.lock")
    watch = table_watch("k1", broker, WAIT_S)
    service = service_process(broker, "k1", RULEBOOK, db, tmp_path / "service.log", WAIT_S)
    try:
        service.start()
        watch.wait("status", lambda s: s["status"] == "online")
        killed = service.proc.pid
        assert lock.read_text() == f"{killed} k1\n"
        service.kill()
        assert lock.read_text() == f"{killed} k1\n"  # left by the dead process
        online = len([s for s in watch.of("status") if s["status"] == "online"])
        service.start()
        watch.wait("status", lambda s: s["status"] == "online" and
                   len([s for s in watch.of("status") if s["status"] == "online"]) > online)
        assert lock.read_text() == f"{service.proc.pid} k1\n", (tmp_path / "service.log").read_text()
        assert service.stop() == 0
        assert not lock.exists()  # let go: removed
    finally:
        service.reap()
        watch.close()


def test_two_services_started_at_the_same_instant_on_one_log_one_serves_the_other_names_it(broker, tmp_path,
                                                                                         table_watch, service_process):
    """Three ``table run`` of one log, loaded and let go together: one holds the log and serves, the others are
    refused (status 2) naming its process, in Chinese; the log is the one service's."""
    db = tmp_path / "k2.db"
    watch = table_watch("k2", broker, WAIT_S)
    args = service_process(broker, "k2", RULEBOOK, db, tmp_path / "unused.log").args
    racers = [subprocess.Popen([sys.executable, "-c", READY, *args[3:]], cwd=Path(__file__).resolve().parents[2],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
              for _ in range(3)]
    try:
        for racer in racers:
            assert racer.stdout.readline() == "ready\n", racer.communicate(timeout=WAIT_S)
        for racer in racers:
            racer.stdin.write("go\n")
            racer.stdin.flush()
        watch.wait("status", lambda s: s["status"] == "online")
        holder = int(Path(f"{db}.lock").read_text().split()[0])
        refused = [r for r in racers if r.pid != holder]
        assert len(refused) == 2 and holder in {r.pid for r in racers}
        for racer in refused:
            err = racer.communicate(timeout=WAIT_S)[1]
            assert racer.returncode == 2, err
            assert f"另一个裁判服务已经在用它（进程号和桌：{holder} k2；它占着 {db}.lock）" in err, err
    finally:
        for racer in racers:
            if racer.poll() is None:
                racer.terminate()
            racer.communicate(timeout=WAIT_S)
        watch.close()
    assert not Path(f"{db}.lock").exists()  # the one that served stopped: removed


def test_a_lock_file_left_by_a_dead_process_is_taken_over_and_removed_at_the_end(tmp_path):
    """A ``<log>.lock`` a dead process left (or a person made, empty or not): nobody holds its lock, so it is taken,
    names this process, and goes when let go."""
    for left in ("99999999 k9\n", "", "不是进程号"):
        lock = tmp_path / "t.db.lock"
        lock.write_text(left)
        held = hold_log(tmp_path / "t.db", "k9")
        assert lock.read_text() == f"{os.getpid()} k9\n"
        with pytest.raises(LogError) as second:  # another open file: flock refuses it as it would another process
            hold_log(tmp_path / "t.db", "k9")
        assert second.value.why == "held" and second.value.values["holder"] == f"{os.getpid()} k9"
        held.release()
        assert not lock.exists()


# A full disk, as a write sees it: no byte may be written (RLIMIT_FSIZE; SIGXFSZ ignored, so the write fails, EFBIG).
FULL = """
import resource, signal, sys
from referee.table.log import LogError
from referee.table.recovery import hold_log
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))
try:
    hold_log(sys.argv[1], "k4")
except LogError as e:
    print(e.why, e.reason("zh"), e.reason("en"), sep="\\n")
resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
hold_log(sys.argv[1], "k4").release()  # the lock not kept by the refused attempt: this process takes it at once
print("taken")
"""


def test_a_log_whose_lock_file_cannot_be_written_is_refused_in_words_and_not_kept(tmp_path):
    """A full disk: ``<log>.lock`` is made and locked, but the service's name cannot be written in it. The system's
    error escaped (a traceback, not a refusal in words), the file and its lock kept until the process ended; now the
    service is refused as on a lock it cannot take (``unlockable``, the system's error in words), the lock let go and
    the file removed."""
    db = tmp_path / "k4.db"
    done = subprocess.run([sys.executable, "-c", FULL, str(db)], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    why, zh, en, taken = done.stdout.splitlines()
    assert why == "unlockable" and taken == "taken"
    assert f"无法取得它的锁 {db}.lock（文件超出了允许的大小）" in zh and f"cannot take its lock {db}.lock (" in en, (zh, en)
    assert "Errno" not in zh + en and not Path(f"{db}.lock").exists()


@pytest.fixture
def disk(tmp_path):
    """A folder that can be made read-only: a small tmpfs of its own as root (whom a folder's rights do not stop),
    else a plain folder (its rights then do). ``disk.read_only(bool)``."""
    where = tmp_path / "disk"
    where.mkdir()
    mounted = os.geteuid() == 0
    if mounted and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)]).returncode:
        pytest.skip("mounting a tmpfs failed")

    def read_only(ro: bool) -> None:
        if mounted:
            subprocess.run(["mount", "-o", f"remount,{'ro' if ro else 'rw'}", str(where)], check=True)
        else:
            where.chmod(0o555 if ro else 0o755)

    yield where, read_only
    read_only(False)
    if mounted:
        subprocess.run(["umount", "-l", str(where)], check=True)


def test_a_log_whose_lock_file_cannot_be_made_is_refused_in_words_and_nothing_changes(broker, disk, table_watch):
    """The log's folder read-only (a disk remounted read-only after an error): ``<log>.lock`` cannot be made, so the
    service is refused, saying why in words (``unlockable``), without opening the log or connecting; once the folder
    is writable again it serves."""
    where, read_only = disk
    db = where / "k3.db"
    watch = table_watch("k3", broker, WAIT_S)
    try:
        service = TableService("k3", RULEBOOK, broker.url("table-k3"), db)
        service.start()
        watch.stopped(service.stop)
        before = {p.name: p.read_bytes() for p in where.iterdir()}
        assert "k3.db.lock" not in before
        read_only(True)
        again = TableService("k3", RULEBOOK, broker.url("table-k3"), db)
        with pytest.raises(LogError) as refused:
            again.start()
        assert refused.value.why == "unlockable" and again.conn is None and again.log is None
        assert f"无法取得它的锁 {db}.lock（" in refused.value.reason("zh")
        assert f"cannot take its lock {db}.lock (" in refused.value.reason("en")
        assert "Errno" not in refused.value.reason("zh") + refused.value.reason("en")  # the system's error in words
        assert {p.name: p.read_bytes() for p in where.iterdir()} == before
        read_only(False)
        again.start()
        watch.stopped(again.stop)
    finally:
        watch.close()
