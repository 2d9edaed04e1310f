"""The tournament's ``.db`` alone holds every change made (checkpointed after each, ``store.whole``): a careless copy
of it without its ``-wal`` while the service runs, or a ``-wal`` lost or cut short, loses nothing recorded."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from referee.tournament import TournamentStore

WRITER = """
import sys
from referee.tournament import Entry, TournamentStore
store = TournamentStore(sys.argv[1])
store.new("individual-tables", [Entry(f"p{i}", f"选手{i}", "机械", "机械", (f"选手{i}",)) for i in range(8)], seed=1)
store.pair_next_round(by="王老师")
for table in ("t01", "t02"):
    store.record_result(1, table, {"scores": [40, 12, 12, -20]}, by="王老师")
print(store.last_seq(), flush=True)  # told once recorded; the process lives on, its file open, as a service's
sys.stdin.read()
"""


def results(path: Path) -> tuple[int, list]:
    store = TournamentStore(path)
    try:
        return store.last_seq(), [x["result"] for x in store.round_view(1)["tables"]]
    finally:
        store.close()


def test_the_db_copied_alone_while_its_writer_lives_or_its_wal_lost_holds_every_result(tmp_path):
    db = tmp_path / "hall.db"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env=env)
    try:
        told = int(writer.stdout.readline())
        assert told == 4  # new, the round, two results
        shutil.copyfile(db, tmp_path / "copy.db")  # as a careless organiser would: the .db only, the service running
        seq, recorded = results(tmp_path / "copy.db")
        assert seq == told and all(r is not None for r in recorded) and len(recorded) == 2
    finally:
        writer.send_signal(signal.SIGKILL)  # its -wal and -shm left as they were
        writer.wait()
    Path(f"{db}-wal").unlink(missing_ok=True)  # lost (a copy of the folder that missed it, a cleaner)
    Path(f"{db}-shm").unlink(missing_ok=True)
    assert results(db) == (told, recorded)
