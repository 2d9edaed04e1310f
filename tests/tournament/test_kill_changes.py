"""The organiser's changes killed with -9 at random moments, in real processes, and started again: a round paired and
undone again and again (pair, unpair), the sheets exported after each (``export --out``). After every kill the file
opens and replays, the log holds whole changes only (pair and unpair in turn, each that was told done there), and the
sheet is whole: the one before or the one after, never a cut one (a regression guard: each change is one SQLite
transaction, each sheet written beside its place and renamed)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys

from referee.tournament import Entry, TournamentStore

UNITS = {"a1": "机电", "a2": "机电", "b1": "外语", "b2": "外语", "c1": "化工", "c2": "化工", "d1": "体育", "d2": "体育"}
ORGANISER = """
import sys
from cardtable.cli import main
from referee.tournament.store import TournamentStore
db, out = sys.argv[1], sys.argv[2]
store = TournamentStore(db)
for i in range(10**9):
    if store.tournament.rounds:
        store.unpair_round(1, by="王老师", reason=f"编排有误 {i}")
    else:
        store.pair_next_round(by="王老师")
    print(f"{store.last_seq()}", flush=True)  # told once it is recorded
    assert main(["tournament", "export", "--db", db, "--format", "csv", "--out", out]) == 0
"""


def test_pairing_undoing_and_exporting_killed_at_random_moments_leave_whole_changes_and_a_whole_sheet(tmp_path):
    db, out = tmp_path / "hall.db", tmp_path / "sheet.csv"
    store = TournamentStore(db)
    store.new("pair-swiss", [Entry(p, p, u, u, (f"{p}甲", f"{p}乙")) for p, u in UNITS.items()], seed=1,
              options={"rounds": 2}, id="zk2010")
    store.close()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    told, rng = [], random.Random(41)
    for _ in range(8):
        organiser = subprocess.Popen([sys.executable, "-c", ORGANISER, str(db), str(out)], stdout=subprocess.PIPE,
                                     text=True, env=env)
        try:
            organiser.wait(timeout=rng.uniform(1.0, 2.5))
        except subprocess.TimeoutExpired:
            organiser.send_signal(signal.SIGKILL)
        told += [int(s) for s in organiser.communicate()[0].split()]
        view = TournamentStore(db)
        kinds = [a["kind"] for a in view.actions()]
        assert kinds[1:] == [("pair", "unpair")[i % 2] for i in range(len(kinds) - 1)], kinds
        assert len(view.tournament.rounds) == (kinds[-1] == "pair")
        if told:
            assert max(told) <= view.last_seq()
        if out.exists():  # the sheet of some change, whole: it ends with its stamp naming a change the log holds
            last = out.read_text(encoding="utf-8-sig").rstrip("\n").split("\n")[-1]
            assert last.startswith(("尚无完成的一轮", "第")) and "赛事记录至第" in last, last
            assert int(last.split("赛事记录至第 ")[1].split(" ")[0]) <= view.last_seq()
        view.close()
    assert len(told) > 8  # changes were made between the kills
