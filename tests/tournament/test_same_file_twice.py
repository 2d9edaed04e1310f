"""The tournament's file opened twice in one process (the console's store beside another: a test's, a tool's) while
another process writes it (``cardtable tournament result`` at the command line, the tournament service). Opening the
second store read the file's first bytes with a plain open() and close(), and a POSIX close drops every lock the
process holds on the file, SQLite's too: the other process, closing, then found the file unlocked, took itself for the
last one on it and removed the write-ahead log and its index under the console, whose next change was written over the
command line's. The command line's correction was lost without a word (seq 4 written twice)."""

from __future__ import annotations

import os
import subprocess
import sys

from referee.tournament import Entry, TournamentStore

UNITS = {"a1": "机电", "a2": "机电", "b1": "外语", "b2": "外语"}


def test_a_change_the_command_line_made_while_the_file_is_open_twice_here_is_kept(tmp_path):
    db = tmp_path / "hall.db"
    first = TournamentStore(db)
    first.new("pair-swiss", [Entry(p, p, u, u, (f"{p}甲", f"{p}乙")) for p, u in UNITS.items()], seed=1,
              options={"rounds": 1, "team_pairs": 2})
    first.pair_next_round()
    first.record_result(1, "t01", {"winner": 0}, by="记分员")
    console = TournamentStore(db)  # a second store on the file in this process, as the console's beside a test's
    done = subprocess.run([sys.executable, "-m", "cardtable", "tournament", "result", "--db", str(db), "--round", "1", "--table",
                           "t01", "--winner", "1", "--correct", "--reason", "记分错误", "--by", "裁判长"],
                          capture_output=True, text=True, timeout=60, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert done.returncode == 0, done.stderr
    console.correct_result(1, "t01", {"winner": 0}, by="王老师", reason="看错了")
    kept = TournamentStore(db)
    assert [(a["seq"], a["by"]) for a in kept.actions()][3:] == [(4, "裁判长"), (5, "王老师")]
    for store in (first, console, kept):
        store.close()
