"""A checked copy of a running service's SQLite file (``cardtable tournament backup``, ``cardtable display backup``), and
what tells such a file (:func:`is_database`), so that no command writes over one (:func:`refuse_over_database`).

SQLite's online backup copies the file whole and consistent while the service writes to it; the copy is made beside
its target (``NAME.part``), checked by the caller's reading of it, and only then takes its name. A backup never
writes over a file, and a copy that fails (a full USB stick, a check that refuses it) leaves nothing behind.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> with closing(sqlite3.connect(":memory:")) as db:
...     _ = db.execute("CREATE TABLE t (x)")
...     copy_checked(db, folder / "copy.db", lambda p: sqlite3.connect(p).execute("SELECT COUNT(*) FROM t").fetchone())
(0,)
>>> sorted(p.name for p in folder.iterdir())
['copy.db']
>>> with closing(sqlite3.connect(":memory:")) as db:
...     copy_checked(db, folder / "copy.db", lambda p: None)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cardtable.backup.BackupError: ... 已经存在：备份从不覆盖文件，请换一个新名字（例如加上轮次和时间）
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import TypeVar

from referee.catalogue import Refusal, say

T = TypeVar("T")


class BackupError(Refusal):
    """A backup that was not made; nothing was left behind (``backup.*``)."""

    section = "backup"


def copy_checked(db: sqlite3.Connection, out: str | Path, check: Callable[[Path], T]) -> T:
    """Copy the file ``db`` holds to ``out``, ``check`` the copy (its answer is returned; it raises to refuse it), then
    give the copy its name. Refused when ``out`` exists or its folder does not."""
    out = Path(out)
    if out.exists() or out.is_symlink():
        raise BackupError("exists", path=out)
    if not out.parent.is_dir():
        raise BackupError("no_folder", path=out, folder=out.parent)
    part = out.with_name(out.name + ".part")
    leftovers = (part, Path(f"{part}-wal"), Path(f"{part}-shm"))
    try:
        for p in leftovers:
            p.unlink(missing_ok=True)
        with closing(sqlite3.connect(part)) as copy:
            db.backup(copy)
        checked = check(part)
        if out.exists():  # made meanwhile by someone else: theirs stays
            raise BackupError("exists", path=out)
        os.replace(part, out)
    except OSError as exc:
        raise BackupError("failed", path=out, error=exc) from None
    except sqlite3.Error as exc:
        raise BackupError("failed", path=out, error=exc) from None
    finally:
        for p in leftovers:
            p.unlink(missing_ok=True)
    return checked


SQLITE = b"SQLite format 3\x00"  # how every SQLite database begins


def is_database(path: str | Path) -> bool:
    """Whether the file at ``path`` begins as an SQLite database does (any command's: the tournament's, the
    console's, a table's log); :class:`OSError` where it cannot be read."""
    with open(path, "rb") as f:
        return f.read(len(SQLITE)) == SQLITE


class OverDatabase(OSError):
    """A file that would have been written over a database (a mistyped ``--out``): an ``OSError``, so every writer
    that says why it cannot write says this too, in the reader's words (``referee.catalogue.said`` takes its ``text``).

    >>> str(OverDatabase("console.db"))
    'console.db 是数据库文件：赛事、控制台或牌桌的记录，不能被覆盖'
    """

    def __init__(self, path: str | Path) -> None:
        super().__init__(errno.EEXIST, "a database", str(path))

    def text(self, lang: str) -> str:
        return say(lang, "backup.over_database", path=self.filename)

    def __str__(self) -> str:
        return self.text("zh")


def refuse_over_database(path: str | Path) -> None:
    """Raise :class:`OverDatabase` where ``path`` is a database file; one that cannot be read is left to its writer
    (which says why it cannot write it).

    >>> import tempfile
    >>> db = Path(tempfile.mkdtemp()) / "hall.db"
    >>> refuse_over_database(db)  # nothing there: written
    >>> db.write_bytes(SQLITE + bytes(100)) and refuse_over_database(db)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.backup.OverDatabase: ... 是数据库文件：赛事、控制台或牌桌的记录，不能被覆盖
    """
    try:
        database = Path(path).is_file() and is_database(path)
    except OSError:
        return
    if database:
        raise OverDatabase(path)
