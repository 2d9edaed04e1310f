"""The event log: real SQLite files in tmp_path, and a real process killed with SIGKILL."""

from __future__ import annotations

import dataclasses
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading

import pytest

from referee.table import log as log_module
from referee.table.log import Entry, EventLog, LogError

PAYLOADS = [
    {"seat": "E", "cards": ["S9", "S9"], "confidence": 0.97},
    {"text": "第一次超时：警告", "nested": {"list": [1, 2.5, None, True, False, "", {"deep": []}]}},
    {},
    {"big": 2**62, "negative": -(2**53) - 1, "tiny": 5e-324, "exp": 1.7976931348623157e308, "zero": -0.0},
    {"quote\"and\\slash": "line\nbreak\ttab\u0000nul", "emoji": "🂡", "大王": "BJ"},
]


@pytest.fixture
def path(tmp_path):
    return tmp_path / "table.db"


def test_append_and_read_back_exactly(path):
    with EventLog.open(path) as log:
        seqs = [log.append(f"kind{i}", p, at=100.0 + i / 8) for i, p in enumerate(PAYLOADS)]
        assert seqs == [1, 2, 3, 4, 5]
        entries = list(log.entries())
    assert [e.seq for e in entries] == seqs
    assert [e.kind for e in entries] == [f"kind{i}" for i in range(5)]
    assert [e.at for e in entries] == [100.0 + i / 8 for i in range(5)]
    assert [e.input_id for e in entries] == [None] * 5
    for entry, payload in zip(entries, PAYLOADS):
        assert entry.payload == payload
        assert repr(entry.payload) == repr(payload)  # same types: 1.0 stays float, -0.0 stays -0.0


def test_entries_are_frozen_copies(path):
    with EventLog.open(path) as log:
        log.append("observed", {"cards": ["SA"]}, at=1)
        entry = next(log.entries())
        assert isinstance(entry, Entry)
        with pytest.raises(dataclasses.FrozenInstanceError):
            entry.kind = "other"  # type: ignore[misc]
        entry.payload["cards"].append("BJ")
        assert next(log.entries()).payload == {"cards": ["SA"]}


def test_a_redelivered_input_is_logged_once(path):
    with EventLog.open(path) as log:
        assert log.append("observed", {"n": 1}, at=1, input_id="observed cam-1") == 1
        assert log.append("observed", {"n": 1}, at=2, input_id="observed cam-1") is None
        assert log.append("observed", {"n": 2}, at=3, input_id="observed cam-2") == 2
        assert log.append("trick_won", {"seat": "N"}, at=3) == 3  # events without an input id
        assert log.append("trick_won", {"seat": "N"}, at=3) == 4
        # even a different payload under a logged id is not applied again
        assert log.append("observed", {"n": 99}, at=4, input_id="observed cam-1") is None
        assert [(e.seq, e.input_id, e.payload) for e in log.entries()] == [
            (1, "observed cam-1", {"n": 1}),
            (2, "observed cam-2", {"n": 2}),
            (3, None, {"seat": "N"}),
            (4, None, {"seat": "N"}),
        ]
        assert log.has_input("observed cam-2") and not log.has_input("observed cam-3")
        assert log.last_seq() == 4


def test_order_is_kept_and_entries_after(path, monkeypatch):
    monkeypatch.setattr(log_module, "_PAGE", 7)  # read in several pages
    with EventLog.open(path) as log:
        assert log.last_seq() == 0 and list(log.entries()) == []
        for i in range(50):
            log.append("tick", {"i": i}, at=float(50 - i), input_id=f"t{i}")
        assert [e.payload["i"] for e in log.entries()] == list(range(50))
        assert [e.seq for e in log.entries(after=45)] == [46, 47, 48, 49, 50]
        assert list(log.entries(after=50)) == []
        assert log.last_seq() == 50


def test_entries_appended_while_reading_are_included(path, monkeypatch):
    monkeypatch.setattr(log_module, "_PAGE", 2)
    with EventLog.open(path) as log:
        for i in range(3):
            log.append("tick", {"i": i}, at=i)
        seen = []
        for entry in log.entries():
            seen.append(entry.seq)
            if entry.seq == 2:
                log.append("tick", {"i": 3}, at=3)
        assert seen == [1, 2, 3, 4]


def test_the_log_survives_reopening(path):
    with EventLog.open(path) as log:
        for i, payload in enumerate(PAYLOADS):
            log.append("k", payload, at=i, input_id=f"in-{i}")
        before = list(log.entries())
    with EventLog.open(path) as log:
        assert list(log.entries()) == before
        assert log.last_seq() == 5
        assert log.append("k", {"again": True}, at=9, input_id="in-0") is None  # ids are remembered
        assert log.append("k", {"new": True}, at=9, input_id="in-5") == 6


def test_wal_and_full_sync(path):
    with EventLog.open(path) as log:
        log.append("k", {}, at=0)
        assert log._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        other = sqlite3.connect(path)
        try:
            assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert other.execute("PRAGMA user_version").fetchone()[0] == log_module.FORMAT
            # a second reader sees the committed entry while the log is still open
            assert other.execute("SELECT count(*) FROM events").fetchone()[0] == 1
        finally:
            other.close()


def test_the_log_is_append_only_in_the_database(path):
    with EventLog.open(path) as log:
        log.append("k", {"a": 1}, at=0)
    raw = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            raw.execute("UPDATE events SET kind = 'x'")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            raw.execute("DELETE FROM events")
    finally:
        raw.close()
    with EventLog.open(path) as log:
        assert [(e.kind, e.payload) for e in log.entries()] == [("k", {"a": 1})]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("", {}, 1.0), "kind must be a non-empty string"),
        ((None, {}, 1.0), "kind must be a non-empty string"),
        (("k", {}, float("nan")), "finite number"),
        (("k", {}, float("inf")), "finite number"),
        (("k", {}, "12:00"), "finite number"),
        (("k", {}, True), "finite number"),
        (("k", {}, int("9" * 401)), "finite number"),  # too long for a float: a ValueError, not an OverflowError
        (("k", [1], 1.0), "must be a dict"),
        (("k", {"x": float("nan")}, 1.0), "not JSON data"),
        (("k", {"x": {1, 2}}, 1.0), "not JSON data"),
        (("k", {"x": b"bytes"}, 1.0), "not JSON data"),
        (("k", {"x": (1, 2)}, 1.0), "would not read back the same"),
        (("k", {1: "x"}, 1.0), "would not read back the same"),
        (("k", {}, 1.0, ""), "input_id must be"),
        (("k", {}, 1.0, 5), "input_id must be"),
    ],
)
def test_bad_input_raises_and_changes_nothing(path, args, message):
    with EventLog.open(path) as log:
        log.append("k", {"first": 1}, at=0, input_id="a")
        with pytest.raises(ValueError, match=message):
            log.append(*args)
        assert log.last_seq() == 1
        assert [e.payload for e in log.entries()] == [{"first": 1}]
        assert log.append("k", {"second": 2}, at=1) == 2  # and the log still works


def test_files_that_are_not_event_logs(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(LogError, match="cannot open event log"):
        EventLog.open(junk)
    assert junk.read_bytes() == b"this is not a database at all" * 100
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE scores (x)")
    conn.commit()
    conn.close()
    with pytest.raises(LogError, match="not an event log"):
        EventLog.open(other)
    newer = tmp_path / "newer.db"
    conn = sqlite3.connect(newer)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(LogError, match="format 99"):
        EventLog.open(newer)
    with pytest.raises(LogError, match="cannot open event log"):
        EventLog.open(tmp_path / "missing-dir" / "t.db")


def test_closed_log(path):
    log = EventLog.open(path)
    log.append("k", {}, at=0)
    log.close()
    log.close()
    with pytest.raises(ValueError, match="closed"):
        log.append("k", {}, at=1)
    with pytest.raises(ValueError, match="closed"):
        log.last_seq()
    assert "closed" in repr(log)


def test_threads_share_one_log(path):
    with EventLog.open(path) as log:

        def work(t: int) -> None:
            for i in range(25):
                log.append("tick", {"t": t, "i": i}, at=i, input_id=f"{t}-{i % 20}")

        threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        entries = list(log.entries())
    assert [e.seq for e in entries] == list(range(1, 81))  # 4 threads x 20 distinct ids
    for t in range(4):
        assert [e.payload["i"] for e in entries if e.payload["t"] == t] == list(range(20))


CHILD = textwrap.dedent(
    """
    import sys
    from referee.table.log import EventLog

    log = EventLog.open(sys.argv[1])
    for i in range(int(sys.argv[2])):
        seq = log.append("observed", {"i": i, "cards": ["S9", "S9"], "note": "第%d次" % i}, at=i / 4, input_id="cam-%d" % i)
        print(seq, i, flush=True)
    """
)


@pytest.mark.parametrize("kill_after", [1, 37, 150])
def test_sigkill_right_after_append_loses_nothing_printed(path, kill_after):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), "1000000"],
        stdout=subprocess.PIPE,
        text=True,
    )
    printed: list[tuple[int, int]] = []
    try:
        while len(printed) < kill_after:
            line = child.stdout.readline()
            assert line, "the child stopped before it was killed"
            seq, i = map(int, line.split())
            printed.append((seq, i))
        os.kill(child.pid, signal.SIGKILL)
        rest = child.stdout.read()  # what it printed before it died counts too
    finally:
        child.kill()
        child.wait()
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    printed += [tuple(map(int, line.split())) for line in rest.splitlines() if len(line.split()) == 2]
    assert len(printed) >= kill_after

    with EventLog.open(path) as log:
        entries = {e.seq: e for e in log.entries()}
        for seq, i in printed:
            assert entries[seq].payload == {"i": i, "cards": ["S9", "S9"], "note": f"第{i}次"}
            assert entries[seq].input_id == f"cam-{i}" and entries[seq].at == i / 4
        # nothing beyond what was printed, but the one append that may have committed unprinted
        assert sorted(entries) == list(range(1, len(entries) + 1))
        assert len(printed) <= len(entries) <= len(printed) + 1
        # and the restarted service goes on where the killed one stopped
        assert log.append("observed", {}, at=0, input_id=f"cam-{printed[-1][1]}") is None
        assert log.append("restart", {}, at=0) == len(entries) + 1


def test_append_many_logs_a_batch_in_order_once_per_input_in_one_commit(path):
    with EventLog.open(path) as log:
        assert log.append("observed", {"n": 0}, at=1, input_id="observed cam-0") == 1
        assert log.append_many([]) == []
        seqs = log.append_many([
            ("observed", {"n": 1}, 2.0, "observed cam-1"),
            ("observed", {"n": 0, "again": True}, 2.5, "observed cam-0"),  # logged before
            ("commands", {"n": 2}, 3, "commands c-1"),
            ("observed", {"n": 1, "again": True}, 3.5, "observed cam-1"),  # earlier in this batch
            ("trick_won", {"seat": "N"}, 4, None),  # no id: always logged
            ("trick_won", {"seat": "N"}, 4, None),
        ])
        assert seqs == [2, None, 3, None, 4, 5]  # one seq per new input, in the order given
        assert [(e.seq, e.kind, e.at, e.input_id, e.payload) for e in log.entries()] == [
            (1, "observed", 1.0, "observed cam-0", {"n": 0}),
            (2, "observed", 2.0, "observed cam-1", {"n": 1}),
            (3, "commands", 3.0, "commands c-1", {"n": 2}),
            (4, "trick_won", 4.0, None, {"seat": "N"}),
            (5, "trick_won", 4.0, None, {"seat": "N"}),
        ]
        assert log.append("commands", {"n": 2}, at=5, input_id="commands c-1") is None  # ids are kept
        assert log.append_many([("k", {}, 6, "k-1")]) == [6]
        # one item append refuses: nothing of the batch is logged
        with pytest.raises(ValueError):
            log.append_many([("k", {}, 7, "k-2"), ("k", {}, float("nan"), "k-3")])
        with pytest.raises(ValueError):
            log.append_many([("k", {}, 7, "k-2"), ("k", {"t": (1, 2)}, 7, "k-3")])
        assert log.last_seq() == 6 and not log.has_input("k-2")
    with EventLog.open(path) as log:  # committed: on disk after a reopen
        assert [e.seq for e in log.entries()] == [1, 2, 3, 4, 5, 6]


def test_append_many_commits_once(path):
    with EventLog.open(path) as log:
        statements = []
        log._conn.set_trace_callback(statements.append)
        log.append_many([("k", {"i": i}, i, f"in-{i}") for i in range(10)])
        assert [s for s in statements if s.strip().upper() in ("BEGIN IMMEDIATE", "COMMIT")] == [
            "BEGIN IMMEDIATE", "COMMIT"]
        assert [e.seq for e in log.entries()] == list(range(1, 11))
