"""A damaged log, against a real mosquitto: a log emptied to 0 bytes, its write-ahead file truncated
or lost, 4 KiB of random bytes in the middle of it, a log of another evening put in its place.
Each is refused with a clear message (``cardtable table run`` exits 1), the broker keeps the state
last published (never one older), and ``--accept-log`` is the referee's way on (docs/recovery.md).
"""

from __future__ import annotations

import json
import random
import shutil
import time
import uuid

import pytest

from bus.mqtt import Connection
from bus.protocol import encode, topic
from referee.table import witness
from referee.table.log import EventLog, LogError
from referee.table.service import TableService

TABLES = ["d1", "d2", "d3", "d4", "d5", "d6"]
RULEBOOK = "classic-3deck"
WAIT_S = 30.0  # generous: a loaded machine


def serve(broker, table: str, db, **kwargs) -> TableService:
    """The service; the tests press faster than any board, so no pace is limited."""
    return TableService(table, RULEBOOK, broker.url(f"table-{table}"), db, reconnect_delay_s=(0.05, 0.5),
                        trust_senders=True, **kwargs).start()


def fill(broker, connect, table: str, service: TableService, n: int) -> int:
    """``n`` presses, each committed on its own (a WAL frame each); the last seq."""
    board = connect(f"board-{table}", on=broker)
    for _ in range(n):
        payload = {"v": 1, "id": f"b-{uuid.uuid4().hex[:10]}", "seat": "N", "button": "referee", "at": time.time()}
        want = service.seq + 1  # read before the press: the service may apply it before this thread reads on
        board.publish(topic(table, "board/in"), encode("board/in", payload))
        assert service.wait_applied(want, WAIT_S)
    return service.seq


def retained(broker, table: str, name: str) -> dict:
    """The broker's retained ``name`` of ``table``, as a newcomer gets it (there must be one)."""
    got: list[dict] = []
    conn = Connection(broker.url("console"), f"look-{uuid.uuid4().hex[:6]}", clean_start=True)
    conn.subscribe(topic(table, name), lambda t, p: got.append(json.loads(p)))
    conn.connect()
    deadline = time.monotonic() + WAIT_S
    while not got and time.monotonic() < deadline:
        time.sleep(0.02)
    conn.close()
    assert got, f"no retained {name} of {table}"
    return got[0]


def crash_image(db, to) -> None:
    """The log's files as a ``kill -9`` leaves them (the service still runs: its WAL is not folded in)."""
    to.mkdir()
    for suffix in ("", "-wal", ".witness"):
        src = db.with_name(db.name + suffix)
        if src.exists():
            shutil.copy(src, to / src.name)


def refused(broker, table: str, db, **kwargs) -> str:
    with pytest.raises(LogError) as caught:
        serve(broker, table, db, **kwargs)
    return str(caught.value)


def test_an_emptied_log_is_refused_and_the_state_published_stays(broker, connect, tmp_path):
    db = tmp_path / "d1.db"
    service = serve(broker, "d1", db)
    last = fill(broker, connect, "d1", service, 20)
    service.stop()
    db.write_bytes(b"")  # 0 bytes: a disk that lost it, a copy that failed
    message = refused(broker, "d1", db)
    assert f"the log ends at entry 0, but entry {last} was logged and published before" in message
    assert "docs/recovery.md" in message and "refusing to start" in message
    assert retained(broker, "d1", "state")["seq"] == last  # never a state at seq 0 over it
    witness.sidecar(db).unlink()  # the file beside it lost too: the broker's witness is enough
    assert f"entry {last} was logged" in refused(broker, "d1", db)


@pytest.mark.parametrize("damage", ["truncated", "lost"])
def test_a_truncated_or_lost_write_ahead_file_is_refused(broker, connect, tmp_path, damage):
    table = {"truncated": "d2", "lost": "d3"}[damage]
    db = tmp_path / f"{table}.db"
    service = serve(broker, table, db)
    last = fill(broker, connect, table, service, 120)
    crash_image(db, tmp_path / "image")
    service.stop()
    copy = tmp_path / "image" / db.name
    wal = copy.with_name(copy.name + "-wal")
    if damage == "truncated":
        with open(wal, "r+b") as f:
            f.truncate(wal.stat().st_size // 2)
    else:
        wal.unlink()
    with EventLog.open(copy) as log:  # SQLite itself sees nothing wrong: an older log
        kept = log.last_seq()
    assert kept < last
    message = refused(broker, table, copy)
    assert f"the log ends at entry {kept}, but entry {last} was logged and published before" in message
    assert retained(broker, table, "state")["seq"] == last
    witness.sidecar(copy).unlink()
    assert "the broker's retained" in refused(broker, table, copy)


def test_random_bytes_in_the_middle_of_the_log_are_refused_in_words(broker, connect, tmp_path):
    db = tmp_path / "d4.db"
    service = serve(broker, "d4", db)
    fill(broker, connect, "d4", service, 150)
    service.stop()  # the write-ahead file folded into the log
    size = db.stat().st_size
    assert size > 32 * 1024
    with open(db, "r+b") as f:
        f.seek(size // 2)
        f.write(random.Random(24).randbytes(4096))
    message = refused(broker, "d4", db)
    assert "is damaged" in message, message


def test_another_log_in_its_place_is_refused_and_accept_log_goes_on(broker, connect, tmp_path):
    """A log of the same table from another evening (as long, different entries): only the hash
    chain tells it apart. The referee who decides to go on with it starts with ``accept_log``."""
    db, other = tmp_path / "d5.db", tmp_path / "old" / "d5.db"
    service = serve(broker, "d5", db)
    last = fill(broker, connect, "d5", service, 10)
    service.stop()
    other.parent.mkdir()
    with EventLog.open(other) as log:
        log.set_meta({"table": "d5", "rulebook": RULEBOOK})
        for i in range(last):
            log.append("board/in", {"v": 1, "id": f"old-{i}", "seat": "N", "button": "referee", "at": 1.0 + i},
                       at=1.0 + i, input_id=f"board/in old-{i}")
    message = refused(broker, "d5", other)
    assert f"entry {last} of the log is not the entry {last} that was logged and published before" in message
    service = serve(broker, "d5", other, accept_log=True)
    try:
        with EventLog.open(other) as log:
            chain = log.chain()[1].hex()
        assert service.wait_applied(last, WAIT_S)
        deadline = time.monotonic() + WAIT_S
        while retained(broker, "d5", "health")["chain"] != chain:  # the new witness, once published
            assert time.monotonic() < deadline
            time.sleep(0.1)
    finally:
        service.stop()
    serve(broker, "d5", other).stop()  # from now on it is the table's log


def test_table_run_refused_says_why_in_words_and_exits_2(broker, connect, tmp_path, service_process):
    """A log that lost entries: ``table run`` said an English log line under a Chinese command and exited 1, which
    its unit starts again every 2 s for ever. Now the one error line (``cardtable table run：错误：…``) in words, and
    exit 2 (refused: a person decides, ``docs/recovery.md``), which the table's unit does not start again."""
    db = tmp_path / "d6.db"
    service = serve(broker, "d6", db)
    fill(broker, connect, "d6", service, 5)
    service.stop()
    db.write_bytes(b"")
    for lang, said in (("zh", "cardtable table run：错误：d6 桌无法启动：日志到第 0 条为止，而第 5 条之前已经记下并发布过（"),
                       ("en", "cardtable table run: error: table d6 cannot start: the log ends at entry 0, but entry 5 "
                              "was logged and published before (")):
        proc = service_process(broker, "d6", RULEBOOK, db, tmp_path / f"service-{lang}.log")
        proc.args += ["--lang", lang]
        proc.start()
        assert proc.proc.wait(WAIT_S) == 2
        text = (tmp_path / f"service-{lang}.log").read_text()  # the service's log lines, then the error line
        guide = "docs/recovery.zh.md" if lang == "zh" else "docs/recovery.md"  # each language its own guide
        assert text.splitlines()[-1].startswith(said) and guide in text, text
        assert " ERROR " not in text, text  # no English log line of it (table d6: cannot start: …)


FULL = """
import os, resource, signal, sys
from pathlib import Path
from referee.table import witness
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of ending the process
resource.setrlimit(resource.RLIMIT_FSIZE, (40, resource.RLIM_INFINITY))  # a disk with 40 bytes left, as it were
try:
    witness.write_file(Path(sys.argv[1]), witness.Witness("d1", 4, "cd" * 32))
except OSError as e:
    print(e.errno)
"""


def test_a_witness_written_on_a_full_disk_leaves_the_one_before(tmp_path):
    """A disk that fills while the witness beside the log is written: ``os.write`` wrote the first 40 bytes and said
    so, no error, and the short file was renamed over the witness; the table's next start was refused (the witness
    "is not a witness of a log") until a person decided. Now the write goes on to its error and the witness before
    stays. (A file size limit makes the kernel's short write here.)"""
    import errno
    import subprocess
    import sys
    from pathlib import Path

    beside = tmp_path / "d1.db.witness"
    witness.write_file(beside, witness.Witness("d1", 3, "ab" * 32))
    said = subprocess.run([sys.executable, "-c", FULL, str(beside)], capture_output=True, text=True, timeout=WAIT_S,
                          cwd=Path(__file__).resolve().parents[2])
    assert said.stdout.split() == [str(errno.EFBIG)], said.stderr
    assert witness.read_file(beside) == witness.Witness("d1", 3, "ab" * 32)
