"""The table's append-only event log, in SQLite.

The table service commits every input here before acting on it and rebuilds its
state by replaying the log on start, so a ``kill -9`` at any moment loses nothing
that :meth:`EventLog.append` has returned. The database runs in WAL mode with
``synchronous=FULL`` (each commit is on disk, not only handed to the OS); triggers
refuse any UPDATE or DELETE, so entries are only ever added.

An input that carries an id is logged once: a QoS 1 redelivery of the same
``input_id`` is not appended again and ``append`` returns None. The service passes
an id that is unique per table, e.g. the topic name and the message id together.

A damaged file is refused when it is opened (SQLite's integrity check) or read
(:class:`LogError`, never SQLite's own error). What SQLite cannot see, a log that lost
its latest entries (a write-ahead file truncated or lost), the hash chain shows
(:meth:`EventLog.chain`, ``referee/table/witness.py``).

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as d, EventLog.open(os.path.join(d, "t.db")) as log:
...     log.append("observed", {"seat": "E", "cards": ["S9", "S9"]}, at=12.5, input_id="observed c-1")
...     log.append("observed", {"seat": "E", "cards": ["S9", "S9"]}, at=12.6, input_id="observed c-1")
...     [(e.seq, e.kind, e.payload["cards"]) for e in log.entries()]
1
[(1, 'observed', ['S9', 'S9'])]
"""

from __future__ import annotations

import contextlib
import json
import math
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from cardtable.backup import copy_checked
from referee.table.witness import ORIGIN, extend

FORMAT = 1  # PRAGMA user_version of the log's tables
_PAGE = 512  # entries read per query by ``entries``

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS events (
        seq      INTEGER PRIMARY KEY AUTOINCREMENT,
        kind     TEXT NOT NULL CHECK (length(kind) > 0),
        at       REAL NOT NULL,
        input_id TEXT UNIQUE CHECK (input_id IS NULL OR length(input_id) > 0),
        payload  TEXT NOT NULL
    )""",
    """CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END""",
    # Bookkeeping beside the log, never part of the table's state: whose log it is (``table``,
    # ``rulebook``) and how far the outputs of its entries reached the broker (``outputs_acked``).
    """CREATE TABLE IF NOT EXISTS meta (
        key   TEXT PRIMARY KEY CHECK (length(key) > 0),
        value TEXT NOT NULL
    )""",
)
_SET_META = "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"


class LogError(RuntimeError):
    """The log file cannot be opened, or is not an event log of a format this code reads, or not the one its table
    may start on. ``why`` and ``values``: what a person is told (:meth:`reason`, the catalogue's ``replay.why_*``;
    the message is for the logs)."""

    def __init__(self, message: str, why: str = "damaged", **values: object) -> None:
        super().__init__(message)
        self.why, self.values = why, values

    def reason(self, lang: str) -> str:
        """Why, in ``lang``'s words (a value said as :func:`referee.catalogue.said` says it: SQLite's error too)."""
        from referee.catalogue import said, say

        return say(lang, f"replay.why_{self.why}", **{k: said(v, lang) for k, v in self.values.items()})

    def data(self) -> dict:
        """Why, as the bus carries it (``status``'s ``why``, for each reader to say in its language): the key and the
        values, a value the catalogue says (an error it knows, a word of it) as its key and its English.

        >>> LogError("x", "failed", error=FileNotFoundError(2, "No such file or directory"), n=3).data()
        {'key': 'failed', 'values': {'error': {'key': 'oserror.ENOENT', 'text': 'no such file or folder'}, 'n': 3}}
        """
        from referee.catalogue import error_key, said

        def carried(v: object) -> object:
            key = getattr(v, "key", None) or error_key(v)
            if key:
                return {"key": key, "text": said(v, "en")}
            return v if isinstance(v, int | float) and not isinstance(v, bool) else said(v, "en")

        return {"key": self.why, "values": {k: carried(v) for k, v in self.values.items()}}


@dataclass(frozen=True, slots=True)
class Entry:
    """One logged event. ``payload`` is a fresh copy: changing it changes nothing logged."""

    seq: int
    kind: str
    at: float
    input_id: str | None
    payload: dict[str, Any]
    text: str = field(default="", repr=False, compare=False)  # the payload as logged (JSON)


class EventLog:
    """An open event log. Use :meth:`open`; safe to share between threads."""

    def __init__(self, conn: sqlite3.Connection, path: Path):
        self._conn: sqlite3.Connection | None = conn
        self._lock = threading.Lock()
        self.path = path
        self._head: tuple[int, bytes] | None = None  # (last seq, chain), once :meth:`chain` was asked

    @classmethod
    def open(cls, path: str | Path) -> EventLog:
        """Open the log at ``path``, creating the file and its tables when missing.

        Raises :class:`LogError` when the file cannot be opened as an event log.
        """
        path = Path(path)
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise LogError(f"cannot open event log {path}: {exc}", "failed", error=exc) from None
        try:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise LogError(f"event log {path}: WAL mode is not available here (journal_mode={mode})", "no_wal",
                               mode=mode)
            conn.execute("PRAGMA synchronous=FULL")
            problems = [r[0] for r in conn.execute("PRAGMA integrity_check(5)")]
            if problems != ["ok"]:
                raise LogError(f"event log {path} is damaged (SQLite's integrity check: {'; '.join(problems)})")
            conn.execute("BEGIN IMMEDIATE")
            try:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version not in (0, FORMAT):
                    raise LogError(f"event log {path}: format {version}, this code reads format {FORMAT}", "other_format")
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                if version == 0 and tables - {"events", "sqlite_sequence", "meta"}:
                    raise LogError(f"{path} is a database, but not an event log", "other_format")
                for statement in _SCHEMA:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version={FORMAT}")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            conn.close()
            raise LogError(f"cannot open event log {path}: {exc}", "failed", error=exc) from None
        except BaseException:
            conn.close()
            raise
        return cls(conn, path)

    @classmethod
    def read(cls, path: str | Path) -> EventLog:
        """Open the log at ``path`` to read it only (``cardtable table replay``): nothing is created or written, so a
        file that is not an event log (an empty file, another database) is refused as it is, never made one. Its
        connection only reads, and is not ``mode=ro``: a read-only one leaves a WAL log's ``-shm`` and ``-wal`` behind.

        Raises :class:`LogError` when the file cannot be read as an event log of this format.
        """
        path = Path(path)
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)  # only read, below
        except sqlite3.Error as exc:
            raise LogError(f"cannot open event log {path}: {exc}", "unreadable") from None
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.Error as exc:
            conn.close()
            why = "unreadable" if isinstance(exc, sqlite3.OperationalError) else "not_database"
            raise LogError(f"cannot open event log {path}: {exc}", why) from None
        if version != FORMAT or not {"events", "meta"} <= tables:
            conn.close()
            raise LogError(f"{path} is not an event log of format {FORMAT}", "other_format")
        return cls(conn, path)

    def append(self, kind: str, payload: dict[str, Any], at: float, input_id: str | None = None) -> int | None:
        """Log one event and commit it; return its sequence number (1, 2, ...).

        Returns None, and logs nothing, when ``input_id`` is already in the log (a
        redelivered input). Raises ValueError, logging nothing, for a blank ``kind``,
        a non-finite ``at``, or a payload that is not an object JSON keeps exactly.
        """
        row = _row(kind, payload, at, input_id)
        with self._lock:
            conn = self._open_conn()
            # One statement, so one transaction and one commit: the id is looked up and the entry
            # added together (an insert that hits the UNIQUE id would still use up a seq). One
            # call into SQLite also means the calling thread gives up Python's GIL once, not four
            # times: the service's network thread appends while its worker computes.
            try:
                seq = _insert(conn, row)
            except sqlite3.IntegrityError:  # another connection logged the same id meanwhile
                if input_id is not None and conn.execute(
                    "SELECT 1 FROM events WHERE input_id = ?", (input_id,)
                ).fetchone():
                    return None
                raise
            self._follow([(seq, row)])
            return seq

    def append_many(
        self, items: Iterable[tuple[str, dict[str, Any], float, str | None]], meta: dict[str, str] | None = None
    ) -> list[int | None]:
        """Log several events, given as ``(kind, payload, at, input_id)``, in order and in ONE
        transaction (one commit, so one fsync); return each one's sequence number, or None for an
        ``input_id`` already logged (also earlier in the same batch), as :meth:`append` does.
        ``meta`` entries (see :meth:`set_meta`) are written in the same transaction.

        Raises ValueError, logging nothing of the batch, when any item is one ``append`` refuses.
        """
        meta = _check_meta(meta or {})
        rows = [_row(*item) for item in items]
        if not rows and not meta:
            return []
        with self._lock:
            with _transaction(self._open_conn()) as conn:
                seqs = [_insert(conn, row) for row in rows]
                conn.executemany(_SET_META, meta.items())
            self._follow(zip(seqs, rows))
        return seqs

    def chain(self, at: Iterable[int] = ()) -> tuple[int, bytes, dict[int, bytes]]:
        """The last entry's seq, the hash chain up to it (``witness.extend`` from ``witness.ORIGIN``),
        and the chain after each entry of ``at`` that is in the log. Reads the whole log once; from
        then on :attr:`head` follows every append.

        >>> import tempfile, os
        >>> with tempfile.TemporaryDirectory() as d, EventLog.open(os.path.join(d, "t.db")) as log:
        ...     log.append("commands", {"v": 1}, at=12.5, input_id="commands k-1")
        ...     seq, chain, found = log.chain(at=[1, 7])
        ...     log.append("commands", {"v": 1}, at=13.0, input_id="commands k-2")
        ...     (seq, chain.hex()[:16], sorted(found)), log.head[0]
        1
        2
        ((1, '1a70e7d5efdb475d', [1]), 2)
        """
        wanted, found = set(at), {}
        chain, last = ORIGIN, 0
        with self._lock:
            conn = self._open_conn()
            try:
                for seq, kind, when, input_id, text in conn.execute(
                    "SELECT seq, kind, at, input_id, payload FROM events ORDER BY seq"
                ):
                    chain, last = extend(chain, seq, kind, when, input_id, text), seq
                    if seq in wanted:
                        found[seq] = chain
            except sqlite3.DatabaseError as exc:
                raise LogError(f"event log {self.path} is damaged: {exc}") from None
            self._head = (last, chain)
        return last, chain, found

    @property
    def head(self) -> tuple[int, bytes] | None:
        """(last seq, chain up to it), kept up to date once :meth:`chain` was asked; else None."""
        return self._head

    def _follow(self, added: Iterable[tuple[int | None, tuple]]) -> None:
        if self._head is None:
            return
        seq, chain = self._head
        for new, (kind, at, input_id, text) in added:
            if new is not None:
                seq, chain = new, extend(chain, new, kind, at, input_id, text)
        self._head = (seq, chain)

    def entries(self, after: int = 0) -> Iterator[Entry]:
        """The entries with ``seq > after``, in order (entries appended meanwhile included)."""
        last = int(after)
        while True:
            with self._lock:
                try:
                    rows = self._open_conn().execute(
                        "SELECT seq, kind, at, input_id, payload FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
                        (last, _PAGE),
                    ).fetchall()
                except sqlite3.DatabaseError as exc:
                    raise LogError(f"event log {self.path} is damaged: {exc}") from None
            for seq, kind, at, input_id, text in rows:
                yield Entry(seq, kind, at, input_id, json.loads(text), text)
                last = seq
            if len(rows) < _PAGE:
                return

    def meta(self, key: str) -> str | None:
        """A bookkeeping value beside the log (``table``, ``rulebook``, ``outputs_acked``), or None."""
        with self._lock:
            row = self._open_conn().execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, values: dict[str, str]) -> None:
        """Set bookkeeping values (one commit). Unlike the entries, they may change.

        >>> import tempfile, os
        >>> with tempfile.TemporaryDirectory() as d, EventLog.open(os.path.join(d, "t.db")) as log:
        ...     log.set_meta({"table": "t1"}); log.set_meta({"table": "t2"})
        ...     log.meta("table"), log.meta("nothing")
        ('t2', None)
        """
        values = _check_meta(values)
        with self._lock, _transaction(self._open_conn()) as conn:
            conn.executemany(_SET_META, values.items())

    def has_input(self, input_id: str) -> bool:
        """Whether an input with this id is already logged."""
        return self.input(input_id) is not None

    def input(self, input_id: str) -> Entry | None:
        """The entry logged for the input with this id, or None.

        >>> import tempfile, os
        >>> with tempfile.TemporaryDirectory() as d, EventLog.open(os.path.join(d, "t.db")) as log:
        ...     log.append("board/in", {"v": 1, "id": "b-1", "seat": "N"}, at=12.5, input_id="board/in b-1")
        ...     log.input("board/in b-1").payload["seat"], log.input("board/in b-2")
        1
        ('N', None)
        """
        with self._lock:
            row = self._open_conn().execute(
                "SELECT seq, kind, at, input_id, payload FROM events WHERE input_id = ?", (input_id,)).fetchone()
        if row is None:
            return None
        seq, kind, at, found, text = row
        return Entry(seq, kind, at, found, json.loads(text), text)

    def last_seq(self) -> int:
        """The sequence number of the last entry; 0 for an empty log."""
        with self._lock:
            return self._open_conn().execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0]

    def backup(self, out: str | Path) -> int:
        """Copy the log to ``out`` while its service writes (SQLite's online backup, :func:`cardtable.backup.copy_checked`:
        never over a file, nothing left behind when it fails), the copy checked before it takes its name: SQLite's
        integrity check, then every entry read and chained, its chain the same as this log's at the copy's last entry
        (the copy is this log up to there, entry for entry). Returns that entry's seq."""
        def check(copy: Path) -> int:
            with contextlib.closing(sqlite3.connect(copy)) as db:
                problems = [r[0] for r in db.execute("PRAGMA integrity_check(5)")]
            if problems != ["ok"]:
                raise LogError(f"the copy {copy} is damaged (SQLite's integrity check: {'; '.join(problems)})")
            with EventLog.read(copy) as kept:
                last, chain, _ = kept.chain()
            if last and self.chain(at=[last])[2].get(last) != chain:
                raise LogError(f"the copy {copy} is not this log up to entry {last}")
            return last

        with self._lock:
            conn = self._open_conn()
        return copy_checked(conn, out, check)

    def close(self) -> None:
        """Close the log (again: nothing happens). Everything appended is already on disk."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _open_conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise ValueError(f"event log {self.path} is closed")
        return self._conn

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EventLog({str(self.path)!r}{'' if self._conn else ', closed'})"


def _row(kind: str, payload: dict[str, Any], at: float, input_id: str | None) -> tuple[str, float, str | None, str]:
    """An entry checked and ready to insert: ``(kind, at, input_id, payload as JSON)``; ValueError if not."""
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"event kind must be a non-empty string, not {kind!r}")
    try:
        finite = not isinstance(at, bool) and isinstance(at, (int, float)) and math.isfinite(at)
    except OverflowError:  # an integer too long for a float
        finite = False
    if not finite:
        raise ValueError(f"event time must be a finite number of seconds, not {str(at)[:24]}")
    if input_id is not None and (not isinstance(input_id, str) or not input_id):
        raise ValueError(f"input_id must be a non-empty string or None, not {input_id!r}")
    return kind, float(at), input_id, _dump(payload)


def _insert(conn: sqlite3.Connection, row: tuple[str, float, str | None, str]) -> int | None:
    """Insert one checked entry (one statement: the id is looked up and the entry added together,
    as an insert that hit the UNIQUE id would still use up a seq); its seq, or None when its
    ``input_id`` is logged already."""
    kind, at, input_id, text = row
    if input_id is None:
        cursor = conn.execute("INSERT INTO events (kind, at, input_id, payload) VALUES (?, ?, NULL, ?)", (kind, at, text))
    else:
        cursor = conn.execute(
            "INSERT INTO events (kind, at, input_id, payload) SELECT ?, ?, ?, ?"
            " WHERE NOT EXISTS (SELECT 1 FROM events WHERE input_id = ?)",
            (kind, at, input_id, text, input_id),
        )
    return cursor.lastrowid if cursor.rowcount == 1 else None


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: committed when the block ends, rolled back if it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _check_meta(values: dict[str, str]) -> dict[str, str]:
    for key, value in values.items():
        if not isinstance(key, str) or not key or not isinstance(value, str):
            raise ValueError(f"meta entries are non-empty string keys with string values, not {key!r}: {value!r}")
    return values


def _dump(payload: Any) -> str:
    """``payload`` as JSON text, when JSON gives back exactly the same object."""
    if not isinstance(payload, dict):
        raise ValueError(f"event payload must be a dict, not {type(payload).__name__}")
    try:
        text = json.dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValueError(f"event payload is not JSON data: {exc}") from None
    back = json.loads(text)
    if back != payload or not _same_types(back, payload):
        raise ValueError("event payload would not read back the same from JSON (tuples, non-string keys?)")
    return text


def _same_types(a: Any, b: Any) -> bool:
    """Equal values of the same JSON types all the way down (1 and 1.0 and True differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_types(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_types(x, y) for x, y in zip(a, b))
    return True
