"""A hall's part alive but hung, holding the GIL (a C call that never lets it go): its own watchdog thread stops with
it, and so do paho's pings, so the broker says it offline; but its process is there, so the hall never started it
again and the table stayed unrefereed all evening. Now the hall hears each service say it lives (systemd's notify
protocol on its ``Pings`` socket) and kills, then starts again, one silent longer than its limit, saying so; one
merely slow for less is left alone."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from bus.broker import free_port
from hall.procs import SILENT_S, Child, Pings, hall_processes

HANG = "import ctypes; ctypes.PyDLL(None).sleep(600)"  # holds the GIL: no thread of the process runs
LIVES = "from cardtable.watchdog import notify; notify('WATCHDOG=1')"


def watch(child: Child, pings: Pings, seconds: float, tmp: Path) -> list[str]:
    """The hall's checks of ``child`` for ``seconds``: what it said."""
    said, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        child.lives(pings.heard.get(child.pid))
        line = child.check(tmp, time.monotonic())
        said += [line] if line else []
        time.sleep(0.1)
    return said


def test_a_child_hung_holding_the_gil_is_killed_and_started_again(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDTABLE_LANG", "zh")
    pings = Pings()
    child = Child("t01/service", [sys.executable, "-c", f"{LIVES}; {HANG}"], tmp_path / "s.log", silent_s=2.0,
                  env=pings.env())
    try:
        child.start(tmp_path)
        first = child.pid
        said = watch(child, pings, 4, tmp_path)
        assert said == ["t01/service 卡住了：进程还在，但 2 秒没有报平安；已强行结束，0.5 秒后重启"]
        assert child.starts == 2 and child.pid != first and child.alive
        os.kill(child.pid, 9)
        child.proc.wait()
        monkeypatch.setenv("CARDTABLE_LANG", "en")
        child.start(tmp_path)
        assert watch(child, pings, 3.5, tmp_path)[0] == ("t01/service hung: its process was there but gave no sign of "
                                                         "life for 2 s; killed (SIGKILL), again in 1 s")  # the 2nd in a row
    finally:
        child.restart = False
        child.signal(9)
        pings.close()


def test_a_child_slow_for_less_than_its_limit_or_never_saying_it_lives_is_left(tmp_path):
    pings = Pings()
    slow = Child("t01/bridge", [sys.executable, "-c", f"import time; {LIVES}; time.sleep(1.5); {LIVES}; "
                                f"time.sleep(1.5); {LIVES}; time.sleep(600)"], tmp_path / "b.log", silent_s=2.0,
                 env=pings.env())
    mute = Child("t01/players", [sys.executable, "-c", HANG], tmp_path / "p.log", silent_s=1.0, env=pings.env())
    try:
        slow.start(tmp_path)
        mute.start(tmp_path)
        time.sleep(1)
        assert watch(slow, pings, 3.5, tmp_path) == [] and slow.starts == 1 and slow.alive
        assert watch(mute, pings, 1.5, tmp_path) == [] and mute.alive  # may be starting yet: its own watchdog's
    finally:
        for child in (slow, mute):
            child.restart = False
            child.signal(9)
        pings.close()


SITE = """
import ctypes, os, signal
if os.environ.get("HANG_ON_USR2"):
    signal.signal(signal.SIGUSR2, lambda *_: ctypes.PyDLL(None).sleep(600))
"""


def service_pid(run: Path) -> int | None:
    for pid in hall_processes(run):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"table" in argv and b"run" in argv:
            return pid
    return None


def test_a_hall_restarts_a_table_service_hung_holding_the_gil_and_the_table_is_refereed_again(tmp_path):
    """A real hall of one table; its service made to hang holding the GIL (SIGUSR2 to a handler the test's
    sitecustomize installs). It is killed once silent ``SILENT_S``, started again, said so, and its table judges
    plays again (its state's seq moves on from where it stood)."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(SITE)
    env = {k: v for k, v in os.environ.items() if k not in ("CARDTABLE_HALL", "NOTIFY_SOCKET")}
    env.update(HANG_ON_USR2="1", CARDTABLE_LANG="zh",
               PYTHONPATH=os.pathsep.join([str(tmp_path / "site"), *sys.path]))
    run, port, lines = tmp_path / "run", free_port(), []
    proc = subprocess.Popen([sys.executable, "-m", "cardtable", "hall", "--tables", "1", "--speed", "10", "--see",
                             "oracle", "--port", str(port), "--dir", str(run)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env)
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()

    def seq() -> int:
        try:
            r = httpx.get(f"http://127.0.0.1:{port}/api/tables/t01", timeout=10)
        except httpx.HTTPError:
            return -1
        return (r.json().get("state") or {}).get("seq", -1) if r.status_code == 200 else -1

    def until(what, seconds: float):
        deadline = time.monotonic() + seconds
        while not (found := what()):
            assert proc.poll() is None and time.monotonic() < deadline, "".join(lines)
            time.sleep(0.3)
        return found

    try:
        until(lambda: any("记分牌：" in x for x in lines), 120)
        until(lambda: seq() > 5, 180)
        hung = service_pid(run)
        os.kill(hung, 12)  # SIGUSR2: it hangs holding the GIL
        time.sleep(3)
        stood = seq()
        time.sleep(SILENT_S["service"] - 8)  # slow so far, not hung: not killed
        assert Path(f"/proc/{hung}").exists() and seq() == stood
        said = until(lambda: [x for x in lines if "t01/service 卡住了" in x], 60)
        assert "秒没有报平安；已强行结束，" in said[0]
        assert not Path(f"/proc/{hung}").exists() or "Z" in Path(f"/proc/{hung}/stat").read_text().split(")")[1][:3]
        until(lambda: (pid := service_pid(run)) is not None and pid != hung, 30)
        until(lambda: seq() > stood, 180)  # a play judged after the restart
    finally:
        proc.send_signal(2)
        try:
            proc.wait(60)
        finally:
            proc.kill()
            for pid in hall_processes(run):
                subprocess.run(["kill", "-9", str(pid)])
