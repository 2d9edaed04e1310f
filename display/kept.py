"""The hall's timelines kept across a restart: what the display knows of each table only from its ``events`` and
``violations``, which the broker does not keep (``TableView.kept``: the hand in play and the one before, the last
violations, a tile's bids and results, and the ``seq`` of the table's latest state, for the gap of a restart:
``view._resume``), and the camera's ``frames`` the console's flags show. A display killed or restarted reads them
back, so a page shows the same timeline after it, and a flag its frame.

One SQLite file in WAL mode beside the console's (``<console file>.timelines``: ``kept_path``, held with it by
``display serve``): each table's kept view as of its last snapshot, and every message since, one row each, written as
it comes. Every ``SNAPSHOT_AFTER`` rows of a table one snapshot replaces them, so the file holds at most a snapshot,
``SNAPSHOT_AFTER`` rows and ``FRAMES_KEPT`` frames per table: what the pages show and no more.

A file that cannot be read back (not SQLite, damaged, a row not what was written, another program's tables) or of a
newer format is set aside (renamed ``<file>.set-aside-<time>``, with its ``-wal`` and ``-shm``) and said, and the
display starts on a new one: never a display that cannot start. A file that cannot be opened at all is said, and the
timelines are kept in memory only. A write that fails (the disk full) is said once, and the table's next write is a
whole snapshot; its end is said too.

>>> k, (views, frames) = open_kept(":memory:")
>>> v = TableView("t1").said("events", {"seq": 3, "kind": "hand_started", "data": {"hand": 1}, "say": {}})
>>> k.note(v, {"type": "event", "table": "t1", "data": v.timeline[-1]})
>>> [e["seq"] for e in k.read()[0]["t1"].timeline]
[3]
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from bus.protocol import decode
from display.view import TableView, named
from referee.catalogue import Refusal, cli_lang

log = logging.getLogger(__name__)

VERSION = 1  # the file's format (SQLite's user_version)
SNAPSHOT_AFTER = 200  # rows of a table after its snapshot before a new snapshot replaces them
FRAMES_KEPT = 32  # per table, the newest (the console's flags show them)
WAIT_S = 5.0  # SQLite's wait for its lock
LEAVES = {"event": "events", "violation": "violations", "state": "state"}  # the changes kept, by their topic's leaf
EMPTY = {"timeline": [], "violations": [], "bids": {}, "results": [], "seq": None}
_SCHEMA = """
CREATE TABLE IF NOT EXISTS views (tbl TEXT PRIMARY KEY, kept TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS since (id INTEGER PRIMARY KEY, tbl TEXT NOT NULL, leaf TEXT NOT NULL, payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS frames (id INTEGER PRIMARY KEY, tbl TEXT NOT NULL, frame TEXT NOT NULL);
"""


class KeptWords(Refusal):
    """What is said of the kept file (the catalogue's ``kept`` section)."""

    section = "kept"


class Unreadable(KeptWords):
    """A file that cannot be read back: set aside."""


def kept_path(db: str | Path) -> Path | None:
    """Where the display keeps the timelines of the console file ``db``: beside it; none for ``:memory:``.

    >>> kept_path("/srv/hall/console.db"), kept_path(":memory:")
    (PosixPath('/srv/hall/console.db.timelines'), None)
    """
    return None if str(db) == ":memory:" else Path(f"{db}.timelines")


def open_kept(path: str | Path, clock=time.time) -> tuple[Kept | None, tuple[dict[str, TableView], dict[str, list[dict]]]]:
    """The kept file at ``path`` (made when missing) and what is read back from it: the tables, and their frames; a file
    that cannot be read back set aside and a new one made, and said (the log, in the command line's language);
    ``(None, ({}, {}))`` when no file can be opened there (said too: the timelines live in memory only)."""
    for _ in range(2):
        kept = None
        try:
            kept = Kept(path)
            return kept, kept.read()
        except Unreadable as why:
            if kept is not None:
                kept.close()
            try:
                aside = _set_aside(Path(path), clock())
            except OSError as exc:
                log.error("%s", KeptWords("cannot_open", path=path, error=exc).text(cli_lang()))
                return None, ({}, {})
            log.error("%s", KeptWords("set_aside", path=path, why=why, aside=aside).text(cli_lang()))
        except (sqlite3.Error, OSError) as exc:  # a folder it cannot write in, a lock another program holds
            if kept is not None:
                kept.close()
            log.error("%s", KeptWords("cannot_open", path=path, error=exc).text(cli_lang()))
            return None, ({}, {})
    return None, ({}, {})  # a new file unreadable at once: said above


class Kept:
    """The open file. ``note`` is called under the feed's lock, on its connection's thread."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._db = sqlite3.connect(self.path, timeout=WAIT_S, check_same_thread=False, isolation_level=None)
        self._rows: Counter[str] = Counter()  # rows of each table since its snapshot
        self._seq: dict[str, int | None] = {}  # the state's seq each table's rows say last
        self._stale: set[str] = set()  # tables whose last write failed: the next is a snapshot
        self.failing: Exception | None = None  # the error of the writes failing now
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            tables = {n for (n,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if version > VERSION:
                raise Unreadable("newer", version=version, ours=VERSION)
            if tables - {"views", "since", "frames"} or (version == 0 and tables):
                raise Unreadable("other", tables="、".join(sorted(tables)))
            check = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise Unreadable("damaged", error=check)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")  # a commit survives the process killed (not a power cut)
            self._db.executescript(f"BEGIN; {_SCHEMA} PRAGMA user_version = {VERSION}; COMMIT;")  # both or neither
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if isinstance(exc, sqlite3.OperationalError):
                raise
            raise Unreadable("damaged", error=exc) from None
        except Unreadable:
            self._db.close()
            raise

    def read(self) -> tuple[dict[str, TableView], dict[str, list[dict]]]:
        """Every table as kept (its snapshot, then each row since, in order) and its frames kept, oldest first."""
        views: dict[str, TableView] = {}
        frames: dict[str, list[dict]] = {}
        try:
            for table, text in self._db.execute("SELECT tbl, frame FROM frames ORDER BY id"):
                frames.setdefault(table, []).append(decode("frames", text.encode()))
            for table, text in self._db.execute("SELECT tbl, kept FROM views"):
                views[table] = TableView.restored(table, _checked("views", json.loads(text)))
                self._seq[table] = views[table].resumed
            for table, leaf, text in self._db.execute("SELECT tbl, leaf, payload FROM since ORDER BY id"):
                view, payload = views.get(table) or TableView.restored(table, EMPTY), _checked(leaf, json.loads(text))
                views[table] = (replace(view, resumed=payload["seq"], named=payload.get("named", view.named))
                                if leaf == "state" else view.said(leaf, payload))
                self._rows[table] += 1
                self._seq[table] = views[table].resumed
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError):
                raise
            raise Unreadable("damaged", error=exc) from None
        except (ValueError, KeyError, TypeError, AttributeError) as exc:  # JSON that is not what was written
            raise Unreadable("row", error=f"{type(exc).__name__}: {exc}") from None
        return views, frames

    def note(self, view: TableView, change: dict) -> None:
        """Keep ``change`` (a page's change: an event, a violation, a state) of ``view``'s table, ``view`` as it made
        it: one row, or a snapshot of ``view`` in place of the table's rows. A write that fails is said (once while
        they fail) and leaves the table's next write a snapshot."""
        leaf, table = LEAVES.get(change["type"]), view.table
        if leaf is None:
            return
        payload = {"seq": change["data"]["seq"], "named": named(change["data"])} if leaf == "state" else change["data"]
        if leaf == "state" and self._seq.get(table) == payload["seq"] and table not in self._stale:
            return  # the same state again (retained, on a reconnect): nothing new to keep
        snapshot = table in self._stale or self._rows[table] >= SNAPSHOT_AFTER
        if snapshot:
            written = self._write(("DELETE FROM since WHERE tbl = ?", (table,)),
                                  ("INSERT OR REPLACE INTO views VALUES (?, ?)", (table, _json(view.kept()))))
        else:
            written = self._write(("INSERT INTO since (tbl, leaf, payload) VALUES (?, ?, ?)", (table, leaf, _json(payload))))
        if not written:
            self._stale.add(table)
            return
        self._rows[table] = 0 if snapshot else self._rows[table] + 1
        if snapshot or leaf == "state":
            self._seq[table] = view.kept()["seq"]
        self._stale.discard(table)
        if self.failing is not None and not self._stale:
            self.failing = None
            log.warning("%s", KeptWords("written_again", path=self.path).text(cli_lang()))

    def frame(self, table: str, frame: dict) -> None:
        """Keep a camera's frame of ``table``, and its newest ``FRAMES_KEPT`` only (``display.feed``)."""
        self._write(("INSERT INTO frames (tbl, frame) VALUES (?, ?)", (table, _json(frame))),
                    ("DELETE FROM frames WHERE tbl = ? AND id NOT IN (SELECT id FROM frames WHERE tbl = ? ORDER BY id DESC "
                     "LIMIT ?)", (table, table, FRAMES_KEPT)))

    def _write(self, *statements: tuple[str, tuple]) -> bool:
        """Run ``statements`` in one transaction: whether it was written. A failure is said, once while they fail."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, values in statements:
                    self._db.execute(sql, values)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # a COMMIT that failed may have rolled back itself
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            if self.failing is None:
                log.error("%s", KeptWords("write_failed", path=self.path, error=exc).text(cli_lang()))
            self.failing = exc
            return False
        return True

    def close(self) -> None:
        self._db.close()


def _checked(leaf: str, value: object) -> dict:
    """``value`` read back as a ``leaf`` row (``views``: a snapshot) of the shape written, else a ValueError: a line the
    pages or the timeline's rules could not take would fail on every message of its table.

    >>> _checked("events", {"seq": 4, "kind": "bid", "data": {}, "say": {"zh": "叫分"}})["seq"]
    4
    >>> _checked("views", EMPTY | {"timeline": [{"seq": "4"}]})
    Traceback (most recent call last):
    ...
    ValueError: not a views row as written
    """
    def event(e) -> bool:
        return isinstance(e, dict) and type(e.get("seq")) is int and isinstance(e.get("kind"), str) and isinstance(e.get("say"), dict)

    def violation(v) -> bool:
        return isinstance(v, dict) and isinstance(v.get("flag"), str) and isinstance(v.get("say"), dict)

    def seq(s) -> bool:
        return s is None or type(s) is int

    def whom(n) -> bool:  # whom the table's state named: None, or its players (seat -> name or None) and rulebook
        players = n.get("players") or {} if isinstance(n, dict) else {}
        return n is None or (isinstance(n, dict) and isinstance(players, dict) and isinstance(n.get("rulebook") or "", str)
                             and all(x is None or isinstance(x, str) for x in players.values()))

    if leaf == "views":
        ok = (isinstance(value, dict) and value.keys() - {"named"} == EMPTY.keys() and isinstance(value["bids"], dict)
              and seq(value["seq"]) and whom(value.get("named"))
              and all(isinstance(value[k], list) for k in ("timeline", "violations", "results"))
              and all(map(event, value["timeline"] + value["results"])) and all(map(violation, value["violations"])))
    elif leaf == "events":
        ok = event(value) and isinstance(value.get("data"), dict)
    elif leaf == "violations":
        ok = violation(value)
    else:
        ok = leaf == "state" and isinstance(value, dict) and seq(value.get("seq")) and whom(value.get("named"))
    if not ok:
        raise ValueError(f"not a {leaf} row as written")
    return value


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _set_aside(path: Path, now: float) -> Path:
    """Rename the file at ``path`` and its ``-wal`` and ``-shm`` (a new file's SQLite would read an old WAL beside it)
    to ``<path>.set-aside-<time>``; the new name."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    aside = next(a for n in range(1000) if not (a := Path(f"{path}.set-aside-{stamp}" + (f"-{n}" if n else ""))).exists())
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{path}{suffix}").exists():
            Path(f"{path}{suffix}").rename(f"{aside}{suffix}")
    return aside


__all__ = ["SNAPSHOT_AFTER", "Kept", "kept_path", "open_kept"]
