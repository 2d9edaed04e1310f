"""One sender per table (``bus.lock``): a second board bridge or camera of a table says, in its own words, who holds
the table, and a lock file that cannot be opened is said too; each refusal a key of the catalogue written out where
it is raised (before, both raised the lock's key passed through, which ``tests/test_catalogue.py`` cannot check)."""

from __future__ import annotations

import os

import pytest

from bridge.run import PortBusy, hold_table
from bus import lock
from vision.watch import SourceError
from vision.watch import hold as hold_camera

BROKER = "mqtt://localhost:1"


@pytest.mark.parametrize(("hold", "refusal", "role", "zh", "en"), [
    (hold_table, PortBusy, "bridge", "已由本机另一个 `cardtable bridge run` 桥接", "bridged already by another"),
    (hold_camera, SourceError, "camera", "已由本机另一个 `cardtable vision watch` 在看", "watched already by another"),
])
def test_a_second_sender_of_a_table_says_who_holds_it_and_one_without_its_lock_file_says_why(hold, refusal, role, zh, en):
    table = f"t-lock-{os.getpid()}"
    fd = hold(table, BROKER, "/dev/ttyUSB0")
    try:
        with pytest.raises(refusal) as busy:
            hold(table, BROKER, "/dev/ttyUSB1")
    finally:
        os.close(fd)
    assert busy.value.key.endswith("table_busy") and f"{os.getpid()} /dev/ttyUSB0" in busy.value.text("zh")
    assert zh in busy.value.text("zh") and en in busy.value.text("en")
    os.close(hold(table, BROKER, "/dev/ttyUSB1"))  # the first let it go: the next one holds it

    where = lock.path(role, f"{table}-dir", BROKER)
    where.mkdir()  # a lock file that cannot be opened (a directory there)
    try:
        with pytest.raises(refusal) as unopened:
            hold(f"{table}-dir", BROKER, "/dev/ttyUSB0")
    finally:
        where.rmdir()
    assert unopened.value.key.endswith("table_lock") and str(where) in unopened.value.text("zh")
    assert "（是一个文件夹）" in unopened.value.text("zh") and "(it is a folder)" in unopened.value.text("en")  # the system's error in words
    lock.path(role, table, BROKER).unlink()


def test_one_broker_written_two_ways_is_one_lock():
    """A bridge told ``mqtt://localhost:1883`` and another told ``mqtt://127.0.0.1:1883`` reach one broker: the second
    is refused (the lock was named by the host as written, so both ran and took the table's session from each other)."""
    table = f"t-lock-{os.getpid()}-alias"
    fd = hold_table(table, "mqtt://localhost:1883", "/dev/ttyUSB0")
    try:
        with pytest.raises(PortBusy) as busy:
            hold_table(table, "mqtt://127.0.0.1:1883", "/dev/ttyUSB1")
    finally:
        os.close(fd)
        lock.path("bridge", table, "mqtt://localhost:1883").unlink()
    assert busy.value.key.endswith("table_busy")
