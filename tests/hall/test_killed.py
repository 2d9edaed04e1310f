"""``cardtable hall`` killed with SIGKILL (nothing of it runs to stop anything): every process it started dies with
it, the broker and the processes its children started too, and a hall started again finds its ports free.

Its parts run in sessions of their own (a stop reaches each process group), so before this they all went on
running, 13 for two tables, holding the scoreboard's and the broker's ports. A real hall of two tables (Tractor,
Guandan; the cameras taking the cards as laid), its process tree read from /proc.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from bus.broker import free_port
from hall.procs import hall_processes
from hall.supervisor import port_free

UP_S = 90  # a hall comes up (two tables' processes on a busy machine)
GONE_S = 8  # the hall's parts are gone this long after it was killed


def descendants(pid: int) -> set[int]:
    """Every living process under ``pid``, by the parent pids in /proc."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and alive(int(entry.name)):
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
    found, todo = set(), [pid]
    while todo:
        above = todo.pop()
        below = [p for p, parent in parents.items() if parent == above]
        found.update(below)
        todo += below
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


class Hall:
    def __init__(self, run: Path, port: int, tables: int):
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardtable", "hall", "--tables", str(tables), "--speed", "10", "--see", "oracle",
             "--port", str(port), "--dir", str(run)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True).start()

    def wait_up(self) -> None:
        deadline = time.monotonic() + UP_S
        while not any("记分牌：http://127.0.0.1:" in line for line in self.lines):
            assert self.proc.poll() is None and time.monotonic() < deadline, "".join(self.lines)
            time.sleep(0.2)


def test_a_killed_hall_leaves_nothing_running_and_its_ports_free(tmp_path):
    port, run = free_port(), tmp_path / "run"
    hall = Hall(run, port, tables=2)
    try:
        hall.wait_up()
        deadline = time.monotonic() + UP_S
        while len(tree := descendants(hall.proc.pid)) < 13:  # 5 per table, display, tournament, broker
            assert time.monotonic() < deadline, (tree, "".join(hall.lines))
            time.sleep(0.2)
        assert set(hall_processes(run)) >= tree  # each marked as the hall's
        broker_port = int(re.search(r"^listener (\d+)", (run / "broker" / "mosquitto.conf").read_text(), re.M)[1])
        assert not port_free(port) and not port_free(broker_port)
        hall.proc.kill()
        hall.proc.wait(10)
        deadline = time.monotonic() + GONE_S
        while left := [pid for pid in tree if alive(pid)] + hall_processes(run):
            assert time.monotonic() < deadline, left
            time.sleep(0.1)
        assert port_free(port) and port_free(broker_port)
    finally:
        hall.proc.kill()
        for pid in hall_processes(run):  # never leave anything behind, even when the test failed
            subprocess.run(["kill", "-9", str(pid)])
    again = Hall(tmp_path / "again", port, tables=1)  # on the same scoreboard port
    try:
        again.wait_up()
    finally:
        again.proc.send_signal(signal.SIGINT)
        assert again.proc.wait(60) == 0, "".join(again.lines)


SUPERVISOR = """
import os, sys, time
from pathlib import Path
from hall.procs import MARK, Child
from hall.reaper import Reaper

hall = Path(sys.argv[1])
os.environ[MARK] = str(hall)
if sys.argv[2] == "reaper":
    Reaper(hall)
child = Child("part", ["sh", "-c", sys.argv[3]], hall / "part.log")
child.start(hall)
print(child.pid, flush=True)
time.sleep(600)
"""


def killed_supervisor(hall: Path, reaper: str, command: str, processes: int) -> tuple[int, set[int]]:
    """A supervisor started with (or without) its reaper and one child running ``command``, killed once the hall
    has ``processes``: the child's pid and every process of the hall there was."""
    proc = subprocess.Popen([sys.executable, "-c", SUPERVISOR, str(hall), reaper, command], stdout=subprocess.PIPE,
                            text=True)
    child = int(proc.stdout.readline())
    deadline = time.monotonic() + 30
    while len(there := set(hall_processes(hall))) < processes:  # the child's command starting its own
        assert time.monotonic() < deadline, there
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    return child, there


def wait_gone(pids, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while left := [pid for pid in pids if alive(pid)]:
        assert time.monotonic() < deadline, left
        time.sleep(0.05)


def test_a_part_ends_with_its_supervisor_by_the_kernel(tmp_path):
    """No reaper: the kernel's parent-death signal alone ends the child."""
    child, there = killed_supervisor(tmp_path, "none", "sleep 600", 1)
    try:
        assert child in there
        wait_gone([child], 2)
    finally:
        for pid in hall_processes(tmp_path):
            subprocess.run(["kill", "-9", str(pid)])


def test_a_part_started_from_a_thread_outlives_that_thread(tmp_path):
    """The kernel's signal watches the thread that forked the child: a part a supervisor serving from another thread
    started again (the soak's hall restarting a killed table service) was ended with that thread, and its table
    answered nothing from then on. Only a part started from the main thread asks for it; the reaper ends the rest."""
    from hall.procs import Child

    child = Child("part", ["sleep", "600"], tmp_path / "part.log")
    starter = threading.Thread(target=child.start, args=(tmp_path,))
    starter.start()
    starter.join()
    try:
        time.sleep(0.5)
        assert child.proc.poll() is None
    finally:
        child.proc.kill()
        child.proc.wait()


def test_the_reaper_ends_what_the_parts_started(tmp_path):
    """The child's own children (a simulator under a bridge) get no parent-death signal: the reaper ends them, and
    itself."""
    child, there = killed_supervisor(tmp_path, "reaper", "sleep 600 & sleep 600 & wait", 4)  # the reaper, the child, its two
    try:
        wait_gone(there, 5)
        assert not hall_processes(tmp_path)
    finally:
        for pid in hall_processes(tmp_path):
            subprocess.run(["kill", "-9", str(pid)])
