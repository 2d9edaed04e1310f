"""One sender per table: a lock file per role, table and broker, held while the process lives.

Two board bridges of one table (on two ports) or two cameras of one table take the table's broker session from each
other for ever, and the table hears every input twice or not at all. Each such sender holds the lock file of its role
and table on its broker (two halls on one machine have a broker each) with ``flock``: the kernel lets it go when the
process ends, however it ends. The file names the holder (its process and what it reads), for the second to say.
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
from pathlib import Path

from bus.mqtt import parse_url

LOCKS = Path("/run/lock")  # every user may write there, and no unit's PrivateTmp hides it from another


class Held(Exception):
    """The table's lock file ``lock`` is not this process's: another holds it (``holder``, its process and what it
    reads), or it cannot be opened (``holder`` None, ``error`` why); the caller says which in its own section's words
    (``table_busy``, ``table_lock``: keys written out where they are raised, as the catalogue's test reads them)."""

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


def hold(role: str, table: str, broker_url: str, what: str) -> int:
    """Hold ``table`` for this process as its ``role``, reading ``what`` (a port, a camera): the lock file's
    descriptor (keep it open); :class:`Held` when another process holds it or the file cannot be opened.

    >>> fd = hold("camera", "t99", "mqtt://localhost:1", "0")
    >>> try:
    ...     hold("camera", "t99", "mqtt://localhost:1", "1")  # another open file: flock refuses it, as another process
    ... except Held as e:
    ...     print(e.holder.split()[1])
    0
    >>> os.close(fd)
    """
    where = path(role, table, broker_url)
    try:
        fd = os.open(where, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise Held(where, error=e) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(fd, 4096).decode(errors="replace").strip()
        os.close(fd)
        raise Held(where, holder=holder or "?") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()} {what}\n".encode(), 0)
    return fd


__all__ = ["LOCKS", "Held", "hold", "path"]
