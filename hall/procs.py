"""The hall's child processes: each in a process group of its own, its output in a log file,
started again when it dies, and stopped as a group (SIGTERM, then SIGKILL) so nothing is left.
Each is sent SIGTERM by the kernel when the supervisor dies, however it dies (Linux ``PR_SET_PDEATHSIG``, set in
the child before it runs its command): the death it watches is that of the thread that started it, so only a child
started from the main thread, which lives as long as the supervisor, asks for it (a supervisor serving from another
thread, as the soak's does, would see each child it restarted end with that thread); ``hall.reaper`` ends the rest.

A child alive but hung (a hang that holds the interpreter's lock stops the child's own watchdog: ``cardtable.watchdog``)
is killed, its group with SIGKILL, and started again: a child with a hung limit (``SILENT_S``, its unit's
``WatchdogSec=``) says it lives, as to systemd, to the hall's :class:`Pings` socket; once it has said so, silence
longer than its limit is a hang. A child that never said so is left to its own watchdog (it may be long starting).

Every child gets ``CARDTABLE_HALL`` (the run directory) in its environment, so whatever it starts
in turn can be found too (``hall_processes``).
"""

from __future__ import annotations

import ctypes
import logging
import os
import secrets
import signal
import socket
import struct
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from cardtable.logs import Lasting
from cardtable.watchdog import NOTIFY
from referee.catalogue import cli_lang, said, say

log = logging.getLogger(__name__)

MARK = "CARDTABLE_HALL"
STOP_S = 8.0  # SIGTERM, then this long before SIGKILL
RESTART_DELAYS_S = (0.5, 1.0, 2.0, 5.0)  # after the 1st, 2nd, ... death in a row
STEADY_S = 60.0  # a child that ran this long before it died died once, not again in a row
SAID_IN_ROW = 5  # a child dying again at once: its first five deaths in a row are told, ...
SAY_AGAIN_EVERY = 12  # ... then every 12th (one a minute, at 5 s each)
SILENT_S = {"service": 20.0, "bridge": 15.0, "camera": 60.0}  # silent this long, alive: hung (the table service's
# loop says it lives every second; a bridge's watchdog ends it after 5 s, a camera's after 30 s, in words: first)
PR_SET_PDEATHSIG = 1  # linux/prctl.h
_prctl = ctypes.CDLL(None, use_errno=True).prctl


def _dies_with(parent: int):
    """What the child runs before its command: SIGTERM when ``parent``'s starting thread ends; at once when
    ``parent`` died before that was set (the child was made an orphan in between)."""

    def arm() -> None:
        _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGTERM)

    return arm


@dataclass
class Child:
    """One supervised command. ``restart``: start it again when it dies (not when stopped)."""

    name: str
    argv: list[str]
    log_path: Path
    env: dict[str, str] = field(default_factory=dict)
    stdin: int | None = None  # a file descriptor, e.g. a FIFO opened read-write
    restart: bool = True
    final: tuple[int, ...] = ()  # exit statuses after which it is not started again (the hall's units'
    # ``RestartPreventExitStatus``): refused, a person decides; taken over by another of its kind (no fight)
    proc: subprocess.Popen | None = None
    starts: int = 0
    _due: float | None = None  # when to start again after a death
    _started: float = 0.0  # monotonic, when last started
    _in_row: int = 0  # deaths in a row (each within STEADY_S of its start)
    _log_from: int = 0  # where this start's output begins in the log
    _failing: Lasting = field(default_factory=Lasting)  # why it could not be started again, said once while it lasts
    silent_s: float | None = None  # alive but silent this long (once it said it lives) is hung: killed, started again
    _lived: float | None = None  # monotonic, when this start last said it lives (:class:`Pings`)
    _hung: float | None = None  # how long it had been silent when killed as hung

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, hall_dir: Path) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, **self.env, MARK: str(hall_dir), "PYTHONUNBUFFERED": "1"}
        with open(self.log_path, "ab") as out:
            self._log_from = out.tell()
            self.proc = subprocess.Popen(
                self.argv, stdin=self.stdin if self.stdin is not None else subprocess.DEVNULL,
                stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True,
                preexec_fn=_dies_with(os.getpid()) if threading.current_thread() is threading.main_thread() else None)
        self.starts += 1
        self._due = None
        self._lived = self._hung = None
        self._started = time.monotonic()
        log.info("started %s (pid %d)", self.name, self.proc.pid)

    def check(self, hall_dir: Path, now: float) -> str | None:
        """Start a dead child again when due; returns a line to tell when it died, with the last line it wrote when
        it exited by itself (a refusal says why there: a damaged file, a port taken). The wait grows with each
        death in a row (``RESTART_DELAYS_S``), and is the first again once the child ran ``STEADY_S`` (a service
        killed now and then comes back in half a second each time, not in five). A child that keeps dying at once is
        told of at its first deaths and then once a minute (``SAID_IN_ROW``, ``SAY_AGAIN_EVERY``), not every 5 s; one
        that exits with a status of ``final`` is not started again (started again, it would be refused again every few
        seconds, or fight the other that took its place), said once with its last words. One
        that cannot be started again (its log cannot be opened: a disk full or gone read-only; no process can be made)
        is tried again every 5 s, why said once while it lasts: the rest of the hall goes on."""
        if self.proc is None or self.alive and not self._silent(now):
            return None
        if self._due is None:
            code = self.proc.returncode
            self._in_row = 1 if now - self._started >= STEADY_S else self._in_row + 1
            delay = RESTART_DELAYS_S[min(self._in_row - 1, len(RESTART_DELAYS_S) - 1)]
            again = self.restart and code not in self.final
            self._due = now + delay if again else float("inf")
            _reap_group(self.proc.pid)
            if again and self._in_row > SAID_IN_ROW and self._in_row % SAY_AGAIN_EVERY:
                return None
            lang = cli_lang()
            if self._hung is not None:
                return say(lang, "hall.hung", name=self.name, seconds=f"{self._hung:.0f}", delay=f"{delay:g}")
            line = (say(lang, "hall.exited_again", name=self.name, code=code, delay=f"{delay:g}") if again
                    else say(lang, "hall.exited", name=self.name, code=code))
            last = self.last_words() if code > 0 else ""
            return line + (say(lang, "hall.last_words", line=last) if last else "")
        if self.restart and now >= self._due:
            try:
                self.start(hall_dir)
            except OSError as exc:
                delay = RESTART_DELAYS_S[-1]
                self._due = now + delay
                error = said(exc, cli_lang())
                return say(cli_lang(), "hall.start_failed", name=self.name, error=error, delay=f"{delay:g}") \
                    if self._failing.new(error) else None
            self._failing.over()
        return None

    def lives(self, when: float | None) -> None:
        """It said it lives (``WATCHDOG=1``) at ``when`` (monotonic; before this start: another process of its pid)."""
        if when is not None and when >= self._started:
            self._lived = when

    def _silent(self, now: float) -> bool:
        """Alive but hung: silent longer than ``silent_s`` since it last said it lives. Its group is killed then
        (SIGKILL: a hung process may not take SIGTERM); True once it is gone."""
        if self.silent_s is None or self._lived is None or now - self._lived <= self.silent_s:
            return False
        self._hung = now - self._lived
        _reap_group(self.proc.pid)
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:  # in the kernel yet: seen dead at a later check
            return False
        return True

    def last_words(self) -> str:
        """The last line this start of the child wrote (its log's end, at most 4 KiB read), shortened to 300
        characters; "" when it wrote nothing."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(max(self._log_from, f.seek(0, os.SEEK_END) - 4096))
                tail = f.read().decode(errors="replace")
        except OSError:
            return ""
        lines = [line.strip() for line in tail.splitlines() if line.strip()]
        return lines[-1][:300] if lines else ""

    def signal(self, sig: int) -> None:
        if self.proc is not None:
            _kill_group(self.proc.pid, sig)

    def wait(self, deadline: float) -> bool:
        if self.proc is None:
            return True
        try:
            self.proc.wait(max(0.0, deadline - time.monotonic()))
            return True
        except subprocess.TimeoutExpired:
            return False


class Pings:
    """The hall's end of systemd's notify protocol (``cardtable.watchdog.notify``): a unix datagram socket with an
    abstract name, ``address`` for the children's ``$NOTIFY_SOCKET``, read by a thread of its own as the words come
    (the kernel queues only a few). Each word carries its sender's pid, by the kernel (``SO_PASSCRED``): a child is
    heard only from its own process (a unit's ``NotifyAccess=main``); ``heard``: pid -> when it last said it lives."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        name = f"cardtable-hall-{os.getpid()}-{secrets.token_hex(4)}"
        self.sock.bind("\0" + name)
        self.sock.settimeout(0.5)
        self.address = "@" + name
        self.heard: dict[int, float] = {}
        self._closed = False
        threading.Thread(target=self._listen, name="hall-pings", daemon=True).start()

    def _listen(self) -> None:
        while not self._closed:
            try:
                data, extra, _, _ = self.sock.recvmsg(4096, socket.CMSG_SPACE(12))
            except TimeoutError:
                continue
            except OSError:  # closed
                return
            creds = [d for level, kind, d in extra if (level, kind) == (socket.SOL_SOCKET, socket.SCM_CREDENTIALS)]
            if creds and b"WATCHDOG=1" in data.split(b"\n"):
                self.heard[struct.unpack("3i", creds[0][:12])[0]] = time.monotonic()

    def close(self) -> None:
        self._closed = True
        self.sock.close()

    def env(self) -> dict[str, str]:
        return {NOTIFY: self.address}


def _kill_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _reap_group(pgid: int) -> None:
    """What a dead leader left in its group (e.g. a child it started) goes too."""
    _kill_group(pgid, signal.SIGKILL)


def stop_all(children: list[Child], timeout: float = STOP_S) -> None:
    """SIGTERM every group, wait, SIGKILL what is left; in ``children``'s order, in stages."""
    for child in children:
        child.restart = False
        child.signal(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for child in children:
        if not child.wait(deadline):
            log.warning("%s did not stop within %g s: killed", child.name, timeout)
        child.signal(signal.SIGKILL)  # the group: anything the child left behind
        if child.proc is not None:
            child.proc.wait()


def hall_processes(hall_dir: Path) -> list[int]:
    """The pids of every running process marked with this hall's run directory (Linux /proc)."""
    mark = f"{MARK}={hall_dir}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and mark in environ.split(b"\0"):
            found.append(int(entry.name))
    return sorted(found)


def hall_serving(port: int) -> Path | None:
    """The run directory of the hall whose scoreboard (``display serve``) serves ``port`` on this machine; None when
    no hall's does (Linux /proc)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        marked = [v.split(b"=", 1)[1] for v in environ if v.startswith(MARK.encode() + b"=")]
        at = [i for i, arg in enumerate(argv) if arg == b"--port"]
        if marked and b"display" in argv and b"serve" in argv and any(argv[i + 1:i + 2] == [str(port).encode()] for i in at):
            return Path(os.fsdecode(marked[0]))
    return None
