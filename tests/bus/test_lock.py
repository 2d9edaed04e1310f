"""One sender per table (``bus.lock``): a second board bridge or camera of a table says, in its own words, who holds
the table, and a lock file that cannot be opened is said too; each refusal a key of the catalogue written out where
it is raised (before, both raised the lock's key passed through, which ``tests/test_catalogue.py`` cannot check)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bridge.run import PortBusy, hold_table
from bus import lock
from vision.watch import SourceError
from vision.watch import hold as hold_camera

BROKER = "mqtt://localhost:1"
ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "firmware-bridge")])}


@pytest.mark.parametrize(("hold", "refusal", "role", "zh", "en"), [
    (hold_table, PortBusy, "bridge", "已由本机另一个 `cardtable bridge run` 桥接", "bridged already by another"),
    (hold_camera, SourceError, "camera", "已由本机另一个 `cardtable vision watch` 在看", "watched already by another"),
])
def test_a_second_sender_of_a_table_says_who_holds_it_and_one_without_its_lock_file_says_why(hold, refusal, role, zh, en):
    table = f"t-lock-{os.getpid()}"
    held = hold(table, BROKER, "/dev/ttyUSB0")
    try:
        with pytest.raises(refusal) as busy:
            hold(table, BROKER, "/dev/ttyUSB1")
    finally:
        held.release()
    assert busy.value.key.endswith("table_busy") and f"{os.getpid()} /dev/ttyUSB0" in busy.value.text("zh")
    assert zh in busy.value.text("zh") and en in busy.value.text("en")
    hold(table, BROKER, "/dev/ttyUSB1").release()  # the first let it go: the next one holds it

    where = lock.path(role, f"{table}-dir", BROKER)
    where.mkdir()  # a lock file that cannot be opened (a directory there)
    try:
        with pytest.raises(refusal) as unopened:
            hold(f"{table}-dir", BROKER, "/dev/ttyUSB0")
    finally:
        where.rmdir()
    assert unopened.value.key.endswith("table_lock") and str(where) in unopened.value.text("zh")
    assert "（是一个文件夹）" in unopened.value.text("zh") and "(it is a folder)" in unopened.value.text("en")  # the system's error in words
    assert not lock.path(role, table, BROKER).exists()  # let go, the lock file is removed: none piles up in /run/lock


def test_one_broker_written_two_ways_is_one_lock():
    """A bridge told ``mqtt://localhost:1883`` and another told ``mqtt://127.0.0.1:1883`` reach one broker: the second
    is refused (the lock was named by the host as written, so both ran and took the table's session from each other)."""
    table = f"t-lock-{os.getpid()}-alias"
    held = hold_table(table, "mqtt://localhost:1883", "/dev/ttyUSB0")
    try:
        with pytest.raises(PortBusy) as busy:
            hold_table(table, "mqtt://127.0.0.1:1883", "/dev/ttyUSB1")
    finally:
        held.release()
    assert busy.value.key.endswith("table_busy")


RACER = """
import os, sys, time
from bus import lock
table, inside, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
held_rounds = 0
while held_rounds < rounds:
    try:
        held = lock.hold("bridge", table, "mqtt://localhost:1", str(os.getpid()))
    except lock.Held:
        continue
    fd = os.open(inside, os.O_CREAT | os.O_EXCL | os.O_WRONLY)  # FileExistsError: two holders at once
    os.close(fd)
    time.sleep(0.0005)
    os.unlink(inside)
    held.release()
    held_rounds += 1
"""


def test_three_processes_taking_one_lock_in_turn_never_hold_it_together_and_leave_no_file(tmp_path):
    """Each process holds the lock, lets it go (removing the file) and takes it again, 300 times, while two others race
    for it: one that opened the file before its holder removed it and locked it after holds a file no name names any
    more, while a third makes the name anew and locks that one: two holders at once. ``hold`` opens the name again when
    it no longer names the file it locked. None holds it with another (each makes a marker file only it may), and the
    last to let go leaves no lock file (before, one a table and role per broker port piled up in /run/lock)."""
    table, inside = f"t-race-{os.getpid()}", tmp_path / "inside"
    racers = [subprocess.Popen([sys.executable, "-c", RACER, table, str(inside), "300"], env=ENV, stderr=subprocess.PIPE,
                               text=True) for _ in range(3)]
    errors = [racer.communicate(timeout=120)[1] for racer in racers]
    assert [racer.returncode for racer in racers] == [0, 0, 0], errors
    assert not lock.path("bridge", table, "mqtt://localhost:1").exists()


def test_a_process_refused_before_the_holder_has_named_itself_waits_for_its_name(tmp_path):
    """The holder names itself just after it takes the lock; one refused in between (three table services started at
    once on one log, the holder not yet given the CPU) read the empty file and said ``?`` for the holder. It reads on
    until the name is there (up to ``NAMING_S``)."""
    import fcntl
    import threading
    import time

    where = tmp_path / "k.lock"
    fd = os.open(where, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held, not yet named: as between the holder's flock and its write
    refused: list[lock.Held] = []

    def take() -> None:
        try:
            lock.hold_file(where, "second")
        except lock.Held as e:
            refused.append(e)

    taker = threading.Thread(target=take)
    taker.start()
    time.sleep(0.2)  # the second is refused meanwhile (without its wait it said "?" here)
    os.pwrite(fd, f"{os.getpid()} first\n".encode(), 0)  # named a moment later
    taker.join(30)
    os.close(fd)
    assert [e.holder for e in refused] == [f"{os.getpid()} first"]
