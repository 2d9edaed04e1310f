"""The hall's players killed in a Tractor draw and started again by the hall play on as people who looked at the table:
its ``state`` shows the declaration standing (and whether the draw's end was signalled), so the restarted bots hold
its cards, overturn only with more, and declare nothing the table refuses. Before, they drew a hand of their own from
nothing standing and showed one level card, which the table refused as an overturn short of the cards standing
(classic-3deck 二十: an exposed card in the draw), a flag for the hall's referee.

A real hall of one Tractor table (real processes, a real broker, the camera taking the cards as laid), at twice real
speed, so that the draw lasts half a minute and the players are killed in it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from bus.broker import free_port
from hall.procs import hall_processes

from .test_hall import replayed

UP_S = 90  # the hall comes up (its processes on a busy machine)
DRAW_S = 300  # a declaration seen; the restarted players' draw and the kitty taken (a loaded machine)
PLAYERS = "hall player --table t01"


def pids(run: Path, argv_part: str) -> list[int]:
    found = []
    for pid in hall_processes(run):
        try:
            if argv_part in Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode():
                found.append(pid)
        except OSError:
            continue
    return found


def until(predicate, timeout: float, what: str, lines: list[str]):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := predicate():
            return found
        time.sleep(0.2)
    raise AssertionError(f"no {what} within {timeout} s:\n" + "\n".join(lines[-60:]))


def test_players_restarted_in_the_draw_know_the_declaration_standing(tmp_path):
    run, port, lines = tmp_path / "run", free_port(), []
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardtable", "hall", "--tables", "1", "--speed", "2", "--hands", "1", "--slow", "0",
         "--seed", "5", "--see", "oracle", "--port", str(port), "--dir", str(run)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    threading.Thread(target=lambda: lines.extend(line.rstrip() for line in proc.stdout), daemon=True).start()
    http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)

    def state() -> dict | None:
        try:
            r = http.get("/api/tables/t01")
        except httpx.HTTPError:
            return None
        return r.json()["state"] if r.status_code == 200 else None

    try:
        until(lambda: any("记分牌：http://127.0.0.1:" in x for x in lines), UP_S, "scoreboard", lines)
        drawing = until(lambda: (s := state()) and s["phase"] == "dealing" and s["draw"]["declared"]
                        and not s["draw"]["ended_by"] and s, DRAW_S, "a declaration in the draw", lines)
        for pid in until(lambda: pids(run, PLAYERS), UP_S, "the players", lines):
            os.kill(pid, signal.SIGKILL)
        killed = state()
        assert killed["phase"] == "dealing" and killed["hand"] == drawing["hand"], killed  # in the draw, as meant
        until(lambda: pids(run, PLAYERS), UP_S, "the players started again", lines)
        until(lambda: (s := state()) and s["phase"] == "playing", DRAW_S, "the restarted players' hand in play", lines)
        events = [e for e in replayed(run / "t01" / "table.db", "t01", "classic-3deck")
                  if e["_topic"] == "events" and e["seq"] > killed["seq"]]
        taken = next(e["seq"] for e in events if e["kind"] == "kitty_taken")
        refused = [e for e in events if e["seq"] <= taken and e["kind"] in ("rejected", "flag_raised")]
        assert refused == [], refused
        declared = [e["data"] for e in events if e["kind"] == "declared"]
        standing = killed["draw"]["declared"]
        assert all(len(d["cards"]) > len(standing["cards"]) for d in declared), (standing, declared)  # overturns only
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
        for pid in hall_processes(run):  # never leave anything behind, even when the test failed
            os.kill(pid, signal.SIGKILL)
        http.close()
