"""One sender per table (and one tournament service per broker, one table service per log, one display per console
file, one enrolment per venue's folder): a lock file per role, table and broker (:func:`hold`), or at a path of the
caller's (:func:`hold_file`: beside the log, the file, the folder), held while the process lives.

Two board bridges of one table (on two ports) or two cameras of one table take the table's broker session from each
other for ever, and the table hears every input twice or not at all. Each such sender holds the lock file of its role
and table on its broker (two halls on one machine have a broker each) with ``flock``: the kernel lets it go when the
process ends, however it ends. The file names the holder (its process and what it reads), for the second to say.
A holder that lets go (:meth:`Holding.release`) removes the file, so they do not pile up in ``/run/lock`` (one a table
and role per broker port); one killed leaves it, for the next holder to take and remove. A file is removed only by its
holder, before it unlocks it: so one locked whose name no longer names it was removed under the locker (let go
meanwhile), and :func:`hold` opens the name again.
A lock file holds one machine: a sender of the table on another machine takes the table over, and the older yields
(``bus.mqtt``'s ``yields``).

>>> path("camera", "t07", "mqtt://camera-t07:pw@hall.invalid:1883").name
'cardtable-camera-hall.invalid-1883-t07.lock'
>>> path("camera", "t07", "mqtt://localhost:1883") == path("camera", "t07", "mqtt://127.0.0.1:1883")  # one broker
True
"""

from __future__ import annotations

import fcntl
import os
import socket
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bus.mqtt import parse_url
from referee.catalogue import Refusal

NAMING_S = 2.0  # how long a refused process waits for the holder to name itself in an empty lock file
LOCKS = Path("/run/lock")  # every user may write there, and no unit's PrivateTmp hides it from another


class Held(Exception):
    """The lock file ``lock`` is not this process's: another holds it (``holder``, its process and what it reads), or
    it cannot be opened or written (``holder`` None, ``error`` why); the caller says which in its own section's words
    (:func:`hold_or_refuse`)."""

    def __init__(self, lock: Path, holder: str | None = None, error: OSError | None = None) -> None:
        super().__init__(holder or error)
        self.lock, self.holder, self.error = lock, holder, error


def path(role: str, table: str, broker_url: str) -> Path:
    """The lock file of ``table``'s ``role`` (``bridge``, ``camera``) on the broker of ``broker_url``: its host by
    address where the name resolves (``hall`` and its address are one broker), else as written."""
    address = parse_url(broker_url)
    try:
        host = socket.gethostbyname(address.host)
    except (OSError, UnicodeError):
        host = address.host
    folder = LOCKS if os.access(LOCKS, os.W_OK | os.X_OK) else Path(tempfile.gettempdir())
    return folder / f"cardtable-{role}-{host}-{address.port}-{table}.lock"


@dataclass(frozen=True, slots=True)
class Holding:
    """This process's hold of the lock file ``path`` (open as ``fd``)."""

    path: Path
    fd: int

    def release(self) -> None:
        """Let the table go: remove the lock file, then close it (the lock goes with it). Removed before it is
        unlocked, the name is never removed under another holder."""
        try:
            self.path.unlink()
        except OSError:  # removed by a person, or its folder's rights changed: it is let go all the same
            pass
        os.close(self.fd)


def hold(role: str, table: str, broker_url: str, what: str) -> Holding:
    """Hold ``table`` for this process as its ``role``, reading ``what`` (a port, a camera) until
    :meth:`Holding.release` (or the process's end): :func:`hold_file` of :func:`path`.

    >>> held = hold("camera", "t99", "mqtt://localhost:1", "0")
    >>> try:
    ...     hold("camera", "t99", "mqtt://localhost:1", "1")  # another open file: flock refuses it, as another process
    ... except Held as e:
    ...     print(e.holder.split()[1])
    0
    >>> held.release(); held.path.exists()
    False
    """
    return hold_file(path(role, table, broker_url), what)


def hold_or_refuse(refusal: type[Refusal], where: Path, what: str, *, busy: str, unopened: str, **words: object) -> Holding:
    """:func:`hold_file`, or ``refusal`` in the caller's words: its key ``busy`` naming the ``holder`` when another
    process holds the lock file, its key ``unopened`` saying the ``error`` when the file cannot be opened or written;
    both with the ``lock`` file and ``words`` (the caller's values: the table, the user). The keys are written out at
    each call, where ``tests/test_catalogue.py`` reads them.

    >>> where = path("camera", "t98", "mqtt://localhost:1")
    >>> held = hold_file(where, "0")
    >>> try:
    ...     hold_or_refuse(Refusal, where, "1", busy="serve_busy", unopened="serve_lock", broker="localhost:1")
    ... except Refusal as e:
    ...     print(e.key, sorted(e.values))
    refusal.serve_busy ['broker', 'holder', 'lock']
    >>> held.release()
    """
    try:
        return hold_file(where, what)
    except Held as e:
        if e.holder is None:
            raise refusal(unopened, lock=e.lock, error=e.error, **words) from None
        raise refusal(busy, holder=e.holder, lock=e.lock, **words) from None


def hold_file(where: Path, what: str) -> Holding:
    """Hold the lock file ``where`` for this process, which names itself in it by its process and ``what``, until
    :meth:`Holding.release` (or the process's end); :class:`Held` when another process holds it or the file cannot be
    opened (made, where it is not there) or written (a full disk)."""
    while True:
        try:
            fd = os.open(where, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as e:
            raise Held(where, error=e) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _holder(fd)
            os.close(fd)
            raise Held(where, holder=holder or "?") from None
        if _names(where, fd):
            break
        os.close(fd)  # its holder let it go and removed it between the open and the lock: the name is a new file's
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {what}\n".encode(), 0)
    except OSError as e:  # a full disk: not held (let go, not left locked until the process ends), no file naming nobody
        Holding(where, fd).release()
        raise Held(where, error=e) from None
    return Holding(where, fd)


def _holder(fd: int) -> str:
    """What the holder of the lock file open as ``fd`` wrote of itself: it names itself just after taking the lock, so
    one refused in between (three started at once, the holder not yet given the CPU) reads on for up to
    ``NAMING_S``; empty when it never does (an older holder's empty file)."""
    deadline = time.monotonic() + NAMING_S
    while True:
        holder = os.pread(fd, 4096, 0).decode(errors="replace").strip()
        if holder or time.monotonic() >= deadline:
            return holder
        time.sleep(0.01)


def _names(where: Path, fd: int) -> bool:
    """Whether ``where`` names the file open as ``fd``."""
    try:
        now = os.stat(where)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)


__all__ = ["LOCKS", "Held", "Holding", "hold", "hold_file", "hold_or_refuse", "path"]
