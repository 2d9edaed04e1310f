"""The console's own records in one SQLite file: users (hashed passwords, roles), login
sessions, and the audit log of every change (who, when, what).

A change to the tournament's file leaves its audit line ``pending`` first (:meth:`Store.begin`): the line is made, or
the row dropped, once the tournament's log says whether the change was made (:meth:`Store.settle`,
``display.tournament.Tournaments.settle``), so a console killed between the two loses no line.

The file's format is ``VERSION`` (SQLite's ``user_version``): an older file is brought up to it when opened, a newer
one (a newer ``cardtable``'s) refused in words.

The audit log is append-only (triggers refuse an update or a delete) and each of its rows is sealed as the
tournament's are (``audit_seals``: the hash chain up to it, ``referee.tournament.store.seal``), so a row that is not
what was written (damaged bytes, a row changed or slipped in by hand) is shown as such, never as a change someone
made.

Times are passed in (``now``), never read here.

>>> s = Store.open(":memory:"); s
Store(':memory:')
>>> s.add_user("wang", "secret-pass", "organiser", now=0.0)
>>> s.check_password("wang", "secret-pass"), s.check_password("wang", "wrong")
('organiser', None)
>>> token = s.new_session("wang", now=10.0)
>>> s.session(token, now=20.0)
('wang', 'organiser')
>>> s.session(token, now=10.0 + SESSION_S + 1) is None
True
>>> [s.login_try("wang", "10.0.0.9", now=40.0 + i) for i in range(LOCK_AFTER["pair"])]  # five tries, each noted
[None, None, None, None, None]
>>> s.login_try("wang", "10.0.0.9", now=50.0), s.login_locked("wang", "10.0.0.7", now=100.0)  # the sixth waits
(1240.0, None)
>>> s.login_locked("wang", "10.0.0.9", now=1240.0) is None
True
>>> s.audit("wang", "last_hand", {"table": "t1"}, now=30.0)
>>> s.set_draft([{"unit": "数学系", "players": "王芳、张伟"}]); s.draft()
[{'unit': '数学系', 'players': '王芳、张伟'}]
>>> s.audit_log()
[{'at': 30.0, 'user': 'wang', 'action': 'last_hand', 'detail': {'table': 't1'}}]
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import unicodedata
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from cardtable.backup import copy_checked
from display.names import alike, mixed
from referee.catalogue import Refusal
from referee.tournament.core import TournamentError  # the words for what a file is (the tournament's own check)
from referee.tournament.entries import readable
from referee.tournament.store import ORIGIN, WAIT_S, file_error, seal, unlike, writing

SESSION_S = 12 * 3600.0  # a login lasts one evening
LOCK_WINDOW_S = 20 * 60.0  # failed logins count this long ...
LOCK_AFTER = {"pair": 5, "client": 20, "name": 50}  # ... and this many lock a name from one address, an address, a name
# (the name's lock holds no address the name has logged in from: a stranger failing from many cannot lock out its user)
ROLES = ("referee", "organiser")
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}  # ~16 MiB and a few tens of ms per check
VERSION = 1  # the file's format: 1 added ``pending`` (0, a file made before, opens and is brought up to 1)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (name TEXT PRIMARY KEY, role TEXT NOT NULL, hash TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (digest TEXT PRIMARY KEY, name TEXT NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS audit (id INTEGER PRIMARY KEY, at REAL NOT NULL, name TEXT NOT NULL, action TEXT NOT NULL, detail TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS draft (id INTEGER PRIMARY KEY, row TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS failed_logins (at REAL NOT NULL, name TEXT NOT NULL, client TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS audit_seals (id INTEGER PRIMARY KEY, chain BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS known_clients (name TEXT NOT NULL, client TEXT NOT NULL, PRIMARY KEY (name, client));
CREATE TABLE IF NOT EXISTS pending (id INTEGER PRIMARY KEY, name TEXT NOT NULL, action TEXT NOT NULL, detail TEXT NOT NULL,
                                    file TEXT NOT NULL, since INTEGER NOT NULL);
""" + "".join(f"CREATE TRIGGER IF NOT EXISTS {t}_no_{op} BEFORE {op.upper()} ON {t} BEGIN "
              "SELECT RAISE(ABORT, 'the audit log is append-only'); END;\n"
              for t in ("audit", "audit_seals") for op in ("update", "delete"))
# an audit row, its text as bytes (damaged text is read, not raised), its seal, and the seal it was made on (``audit``)
_AUDIT_ROWS = ("SELECT a.id, a.at, CAST(a.name AS BLOB), CAST(a.action AS BLOB), CAST(a.detail AS BLOB), s.chain, "
               "(SELECT chain FROM audit_seals b WHERE b.id < a.id ORDER BY b.id DESC LIMIT 1) "
               "FROM audit a LEFT JOIN audit_seals s ON s.id = a.id")


def hash_password(password: str, salt: bytes | None = None) -> str:
    """``scrypt$n$r$p$salt$hash`` (hex), stdlib ``hashlib.scrypt``.

    >>> h = hash_password("pw", bytes(16)); h.split("$")[:4]
    ['scrypt', '16384', '8', '1']
    >>> verify_password("pw", h), verify_password("pW", h)
    (True, False)
    """
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(password.encode(), salt=salt, dklen=32, **_SCRYPT)
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    kind, n, r, p, salt, digest = stored.split("$")
    mine = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32)
    return kind == "scrypt" and hmac.compare_digest(mine.hex(), digest)


_ABSENT = hash_password("no such user")  # checked against for a name that is none: the same work as for a user


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()  # the database never holds a usable token


class UserError(Refusal):
    """A user that cannot be added (a name taken, an unknown role), said by the catalogue's ``error.*``."""

    section = "error"


class Damaged(Refusal):
    """The console's file holds something that is not what was written (``error.console_damaged``)."""

    section = "error"


CONSOLE_TABLES = {"users", "sessions", "audit", "draft", "failed_logins", "audit_seals", "known_clients", "pending"}


@dataclass(frozen=True)
class Pending:
    """A change the console is making to the tournament's ``file`` (or was, when it stopped): by ``user``, its audit
    line's ``action`` and ``detail`` as asked, made after the tournament log's action ``since``."""

    id: int
    user: str
    action: str
    detail: dict
    file: str
    since: int


def check_file(path: str | Path) -> None:
    """Refuse a ``--db`` that is not the console's own file: a folder, an empty file, text, a damaged file or another
    database (the tournament's, a table's event log), which the console would otherwise have written its tables into;
    or a file in a folder that does not exist. The file is checked as the tournament's is (``unlike``, with its
    words). A lock another program holds past the wait, a full or failing disk are said as such (the file may well be
    the console's, and whole), not as another file. Nothing is written. A new file in a folder that exists is fine.

    >>> check_file(":memory:")
    """
    path = Path(path)
    if str(path) == ":memory:":
        return
    if not path.exists():
        if not path.parent.is_dir():
            raise TournamentError("db_no_folder", path=path, folder=path.parent)
        return
    try:
        what = unlike(path, dict.fromkeys(CONSOLE_TABLES))
        if what is None or what.key == "refusal.db_other":  # a newer console's file may hold tables of its own
            version, tables = _version(path)
            if version > VERSION and {"users", "audit"} <= tables:
                raise UserError("console_newer", path=path, version=version, ours=VERSION)
    except OSError as exc:
        what = TournamentError("db_damaged", error=exc)
    error = what.values.get("error") if what is not None and what.key.endswith(".db_damaged") else None
    said = file_error(path, error) if isinstance(error, sqlite3.Error) else None
    if said is not None and said.key.endswith((".db_busy", ".db_full", ".db_io")):
        raise said  # a lock held, a full or failing disk: the console's file may well be whole
    if what is not None:
        raise UserError("not_console", path=path, what=what)


def _version(path: Path) -> tuple[int, set[str]]:
    """The format (``user_version``) and the tables of an SQLite file ``unlike`` has read."""
    with closing(sqlite3.connect(path, timeout=WAIT_S)) as db:
        tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return db.execute("PRAGMA user_version").fetchone()[0], tables


class Store:
    def __init__(self, db: sqlite3.Connection, path: str = ":memory:"):
        self._db = db
        self._path = path
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Store({self._path!r})"

    @classmethod
    def open(cls, path: str | Path) -> Store:
        """The console's file at ``path``, made where there is none; a file that is not the console's (``check_file``)
        is refused, nothing written to it."""
        check_file(path)
        db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(_SCHEMA)
        if db.execute("PRAGMA user_version").fetchone()[0] != VERSION:  # an older file, brought up to this one
            db.execute(f"PRAGMA user_version = {VERSION}")
        store = cls(db, str(path))
        store._seal_unsealed()
        return store

    def _seal_unsealed(self) -> None:
        """Seal the audit rows of a file made before seals (taken as they read at their first opening here; a file
        with seals is only read)."""
        unsealed = "SELECT 1 FROM audit WHERE NOT EXISTS (SELECT 1 FROM audit_seals) LIMIT 1"
        if self._run(unsealed):
            with self._lock, writing(self._db):
                if self._db.execute(unsealed).fetchone():  # another opening may have sealed it meanwhile
                    chain = ORIGIN
                    for row in self._db.execute(_AUDIT_ROWS + " ORDER BY a.id").fetchall():
                        chain = seal(chain, *_text(row[:5], errors="replace"))
                        self._db.execute("INSERT INTO audit_seals VALUES (?, ?)", (row[0], chain))

    def close(self) -> None:
        self._db.close()

    def _run(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # -- users and sessions --------------------------------------------------------------------
    def add_user(self, name: str, password: str, role: str, now: float) -> None:
        if role not in ROLES:
            raise UserError("unknown_role", role=role, known=list(ROLES))
        self.may_add(name)
        try:
            self._run("INSERT INTO users VALUES (?, ?, ?, ?)", (name, role, hash_password(password), now))
        except sqlite3.IntegrityError:
            raise UserError("user_exists", user=name) from None

    def may_add(self, name: str) -> None:
        """Refuse, in words, a new user's name that a person would not read as written (``readable``), that mixes Latin
        letters with Cyrillic or Greek ones, or that reads as a user's already there (``display.names``)."""
        readable(name, "user")
        shown = repr(name)[1:-1]
        other = alike(name, (n for n, _ in self.users()))
        if other is not None:
            raise UserError("user_alike", user=shown, other=repr(other)[1:-1])
        at = mixed(name)
        if at is not None:
            char = unicodedata.normalize("NFKC", name)[at - 1]
            raise UserError("user_mixed", user=shown, n=at, char=f"U+{ord(char):04X} {unicodedata.name(char)}")

    def set_password(self, name: str, password: str) -> None:
        """A new password for ``name``, whose sessions end at once (a password seen, a phone left logged in)."""
        self._change_user(name, "UPDATE users SET hash = ? WHERE name = ?", (hash_password(password), name))

    def remove_user(self, name: str) -> None:
        """``name`` can log in no more; its sessions end at once. Its lines in the audit log stay."""
        self._change_user(name, "DELETE FROM users WHERE name = ?", (name,))

    def _change_user(self, name: str, sql: str, args: tuple) -> None:
        with self._lock, writing(self._db):
            if self._db.execute(sql, args).rowcount == 0:
                raise UserError("no_user", user=repr(name)[1:-1], known=[n for (n,) in self._db.execute("SELECT name FROM users ORDER BY name")])
            for table in ("sessions", "known_clients", "failed_logins"):
                self._db.execute(f"DELETE FROM {table} WHERE name = ?", (name,))

    def unlock(self, name: str) -> int:
        """Lift the locks on logins as ``name`` (an organiser's remedy: its failed logins forgotten); how many were.
        A name that is no user's is refused as :meth:`set_password` refuses it (a mistyped name is no remedy)."""
        with self._lock:
            if not self._db.execute("SELECT 1 FROM users WHERE name = ?", (name,)).fetchone():
                raise UserError("no_user", user=repr(name)[1:-1], known=[n for (n,) in self._db.execute("SELECT name FROM users ORDER BY name")])
            return self._db.execute("DELETE FROM failed_logins WHERE name = ?", (name,)).rowcount

    def users(self) -> list[tuple[str, str]]:
        return [(n, r) for n, r in self._run("SELECT name, role FROM users ORDER BY name")]

    def check_password(self, name: str, password: str) -> str | None:
        """The user's role when the password is right, else None; one password check either way (an unknown name is
        checked against ``_ABSENT``), so that its time tells no name that exists from one that does not."""
        rows = self._run("SELECT role, hash FROM users WHERE name = ?", (name,))
        role, stored = rows[0] if rows else (None, _ABSENT)
        return role if verify_password(password, stored) else None

    def login_locked(self, name: str, client: str, now: float) -> float | None:
        """When logins as ``name`` from ``client`` open again, while they are locked (too many failed
        logins in ``LOCK_WINDOW_S``: of the name from that address, from that address, or of the name but from an
        address it has logged in from)."""
        with self._lock:
            return self._locked(name, client, now)

    def _locked(self, name: str, client: str, now: float) -> float | None:
        since = now - LOCK_WINDOW_S
        until = None
        known = self._db.execute("SELECT 1 FROM known_clients WHERE name = ? AND client = ?", (name, client)).fetchone()
        scopes = [("pair", "name = ? AND client = ?", (name, client)), ("client", "client = ?", (client,))]
        for scope, where, args in scopes if known else [*scopes, ("name", "name = ?", (name,))]:
            rows = self._db.execute(f"SELECT at FROM failed_logins WHERE {where} AND at > ? ORDER BY at DESC LIMIT ?",
                                    (*args, since, LOCK_AFTER[scope])).fetchall()
            if len(rows) == LOCK_AFTER[scope]:  # open when the oldest of these leaves the window
                until = max(until or 0.0, rows[-1][0] + LOCK_WINDOW_S)
        return until

    def login_try(self, name: str, client: str, now: float) -> float | None:
        """One try at logging in: while locked, when logins open again (``login_locked``), nothing noted; else None,
        and the try noted as a failed login at once, before its password is checked (``login_succeeded`` forgives
        it), so that guesses sent together cannot all pass the lock before the first of them is counted."""
        with self._lock, writing(self._db):
            self._db.execute("DELETE FROM failed_logins WHERE at < ?", (now - LOCK_WINDOW_S,))
            until = self._locked(name, client, now)
            if until is None:
                self._db.execute("INSERT INTO failed_logins VALUES (?, ?, ?)", (now, name, client))
            return until

    def login_succeeded(self, name: str, client: str) -> None:
        """The name's failures from that address are forgiven (the others still count), and the address is known to
        the name from now on: the name's lock across addresses does not hold it (``_locked``)."""
        with self._lock, writing(self._db):
            self._db.execute("DELETE FROM failed_logins WHERE name = ? AND client = ?", (name, client))
            self._db.execute("INSERT OR IGNORE INTO known_clients VALUES (?, ?)", (name, client))

    def new_session(self, name: str, now: float) -> str:
        token = secrets.token_urlsafe(32)
        self._run("DELETE FROM sessions WHERE expires < ?", (now,))
        self._run("INSERT INTO sessions VALUES (?, ?, ?)", (_digest(token), name, now + SESSION_S))
        return token

    def session(self, token: str, now: float) -> tuple[str, str] | None:
        """(user, role) of a live session, else None."""
        rows = self._run("SELECT s.name, u.role FROM sessions s JOIN users u ON u.name = s.name"
                         " WHERE s.digest = ? AND s.expires >= ?", (_digest(token), now))
        return rows[0] if rows else None

    def end_session(self, token: str) -> None:
        self._run("DELETE FROM sessions WHERE digest = ?", (_digest(token),))

    # -- the entries being registered, before the tournament is made --------------------------
    def draft(self) -> list[dict]:
        """The rows registered so far; a row damaged in the file is refused in words (:class:`Damaged`), as the whole
        draft: registering again (or importing the form) replaces it."""
        rows = []
        for n, (text,) in enumerate(self._run("SELECT CAST(row AS BLOB) FROM draft ORDER BY id"), 1):
            try:
                row = json.loads(bytes(text).decode())
            except (TypeError, ValueError):
                row = None
            if not isinstance(row, dict):
                raise Damaged("console_damaged", path=self._path, what=f"draft {n}")
            rows.append(row)
        return rows

    def set_draft(self, rows: list[dict]) -> None:
        with self._lock, writing(self._db):
            self._db.execute("DELETE FROM draft")
            self._db.executemany("INSERT INTO draft (row) VALUES (?)", [(json.dumps(r, ensure_ascii=False),) for r in rows])

    # -- the audit log -------------------------------------------------------------------------
    def audit(self, user: str, action: str, detail: dict, now: float) -> None:
        """Append one change, sealed with it in one transaction."""
        with self._lock, writing(self._db):
            self._audit(user, action, detail, now)

    def _audit(self, user: str, action: str, detail: dict, now: float) -> None:
        row = (float(now), user, action, json.dumps(detail, ensure_ascii=False))
        n = self._db.execute("INSERT INTO audit (at, name, action, detail) VALUES (?, ?, ?, ?)", row).lastrowid
        before = self._db.execute("SELECT chain FROM audit_seals WHERE id < ? ORDER BY id DESC LIMIT 1", (n,)).fetchone()
        self._db.execute("INSERT INTO audit_seals VALUES (?, ?)", (n, seal(before[0] if before else ORIGIN, n, *row)))

    def begin(self, user: str, action: str, detail: dict, file: str, since: int) -> Pending:
        """Note a change about to be made to the tournament's ``file`` (its log's last action ``since``), before it is
        made: :meth:`settle` makes its audit line or drops it."""
        with self._lock:
            n = self._db.execute("INSERT INTO pending (name, action, detail, file, since) VALUES (?, ?, ?, ?, ?)",
                                 (user, action, json.dumps(detail, ensure_ascii=False), file, since)).lastrowid
        return Pending(n, user, action, detail, file, since)

    def pending(self, file: str) -> list[Pending]:
        """The changes to ``file`` noted and not settled, oldest first."""
        return [Pending(n, u, a, json.loads(d), f, s) for n, u, a, d, f, s in
                self._run("SELECT * FROM pending WHERE file = ? ORDER BY id", (file,))]

    def settle(self, change: Pending, lines: list[tuple[float, str, dict]]) -> None:
        """The change's audit ``lines`` (time, action, detail; none: it was not made) in the log and its note gone, in
        one transaction; nothing when another settled it already."""
        with self._lock, writing(self._db):
            if self._db.execute("DELETE FROM pending WHERE id = ?", (change.id,)).rowcount:
                for at, action, detail in lines:
                    self._audit(change.user, action, detail, at)

    def backup(self, out: str | Path) -> dict:
        """Copy the file to ``out`` while the console runs (:func:`cardtable.backup.copy_checked`), the copy opened as
        the console opens its file; what it holds: ``users``, ``audit`` rows and how many of them are ``damaged`` (a
        row damaged here is damaged in the copy too: it cannot be restored from this backup)."""
        def check(part: Path) -> dict:
            copy = Store.open(part)
            try:
                rows = copy.audit_log(limit=2**31 - 1)
                return {"users": len(copy.users()), "audit": len(rows), "damaged": sum(r["action"] == "damaged" for r in rows)}
            finally:
                copy.close()

        with self._lock:
            return copy_checked(self._db, out, check)

    def audit_log(self, limit: int = 200) -> list[dict]:
        """The newest ``limit`` changes, newest first. A row that is not what was written (its seal, made from the
        one before, differs) is given as action ``damaged`` with its ``id``, its time where that still reads."""
        log = []
        for n, at, *text, chain, before in self._run(_AUDIT_ROWS + " ORDER BY a.id DESC LIMIT ?", (limit,)):
            try:
                name, action, detail = _text(text)
                sealed = chain == seal(before or ORIGIN, n, at, name, action, detail)
                detail = json.loads(detail) if sealed else None
            except (TypeError, ValueError):  # text that is not UTF-8 (any more), JSON that is not
                sealed = False
            if sealed and isinstance(detail, dict):
                log.append({"at": at, "user": name, "action": action, "detail": detail})
            else:
                log.append({"at": at if type(at) is float else 0.0, "user": "", "action": "damaged", "detail": {"id": n}})
        return log


def _text(columns, errors: str = "strict") -> tuple:
    """The columns read as bytes (``_AUDIT_ROWS``) as the text that was written; ValueError where one is not UTF-8."""
    return tuple(bytes(c).decode(errors=errors) if isinstance(c, bytes) else c for c in columns)


__all__ = ["Damaged", "LOCK_AFTER", "LOCK_WINDOW_S", "Pending", "ROLES", "SESSION_S", "Store", "VERSION", "UserError", "hash_password", "verify_password"]
