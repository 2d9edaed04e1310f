"""A tournament in SQLite: an append-only log of actions, replayed into a
:class:`~referee.tournament.core.Tournament` (see ``README.md`` for the API).

Every change is one row ``(seq, kind, data, by, at)``; rows are never updated or deleted
(triggers refuse it). Each row is sealed: ``seals`` holds the hash chain up to it (SHA-256 of the
chain before and the row), written with it, so a row whose bytes were damaged and still read (a
digit of a result changed) is refused as damaged, not replayed. Each change is checked on the replayed tournament inside one write
transaction before it is appended, so a bad request raises :class:`TournamentError` and
changes nothing, and two writers (the console and the MQTT service) never interleave.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import random
import re
import shutil
import sqlite3
import time
from collections import Counter
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Callable, Iterator, Mapping

from cardtable.backup import copy_checked, is_database
from referee.catalogue import SQLITE, Term
from referee.tournament.actions import apply, repair_last_round, replay, start
from referee.tournament.core import Tournament, TournamentError
from referee.tournament.entries import Entry, readable
from referee.tournament.swiss import PairingError
from referee.tournament.systems import system
from referee.tournament.views import round_view, standings_view

_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
SCHEMA = """
CREATE TABLE IF NOT EXISTS actions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, data TEXT NOT NULL, by TEXT NOT NULL, at REAL NOT NULL);
CREATE TRIGGER IF NOT EXISTS actions_no_update BEFORE UPDATE ON actions BEGIN SELECT RAISE(ABORT, 'the log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS actions_no_delete BEFORE DELETE ON actions BEGIN SELECT RAISE(ABORT, 'the log is append-only'); END;
CREATE TABLE IF NOT EXISTS seals (seq INTEGER PRIMARY KEY, chain BLOB NOT NULL);
CREATE TRIGGER IF NOT EXISTS seals_no_update BEFORE UPDATE ON seals BEGIN SELECT RAISE(ABORT, 'the log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS seals_no_delete BEFORE DELETE ON seals BEGIN SELECT RAISE(ABORT, 'the log is append-only'); END;
"""
ORIGIN = bytes(32)  # the chain before the first action
WAIT_S = 30.0  # how long a command waits for another program's lock on the file (SQLite's busy timeout)
ROOM = 1 << 20  # free bytes below which a disk error on the file is the disk full (SQLite's -shm alone takes 32 KiB)
TEXT_MOST = {"name": 128, "seed": 64, "reason": 200, "by": 64}  # characters of the free texts logged (as the console's)
LATE_MOST = 24 * 60  # minutes: lateness past a whole day is a typing slip (no event lasts it; 000 二 runs 8:00 to 21:00)
NOTES_PER_TABLE = 10  # reports not recorded noted for the organiser, per table and round


def seal(chain: bytes, *row: int | float | str) -> bytes:
    """The hash chain after ``row``, its columns as stored: here ``(seq, kind, data, by, at)``, ``data`` JSON text
    (the console's audit log is sealed the same way, ``display.store``).

    >>> seal(ORIGIN, 1, "new", '{"id": "main"}', "organiser", 1767261600.0).hex()[:16]
    '1b0fff1b9a6bbad8'
    """
    return hashlib.sha256(chain + json.dumps(list(row), ensure_ascii=False).encode()).digest()


@contextmanager
def writing(db: sqlite3.Connection) -> Iterator[None]:
    """One write transaction on ``db`` (opened with ``isolation_level=None``): committed when the block ends, rolled
    back when it raises (the console's file is written so too, ``display.store``)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # a failed COMMIT (the disk full) has rolled back already: its error is the one said
            db.execute("ROLLBACK")
        raise


def whole(db: sqlite3.Connection) -> None:
    """Copy the changes the write-ahead log holds into the file itself and empty the log (``PRAGMA
    wal_checkpoint(TRUNCATE)``), after every change: so the ``.db`` alone holds every change made, and a copy of it alone
    while a service runs (``cp``, a file manager), or a ``-wal`` lost or cut short, loses nothing. A checkpoint not
    made now (a reader's snapshot held past the wait, the disk full) leaves the change in the log, as safe as SQLite
    keeps it, and the next change tries again: the change itself is made."""
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.Error:
        return


class TournamentStore:
    """One tournament per SQLite file. ``clock`` gives the time recorded with each change."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time):
        self.path = Path(path)
        self.clock = clock
        self._db = _open(self.path)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        self._cache: tuple[int, Tournament] | None = None
        self._seal_unsealed()

    def _unsealed(self) -> bool:
        return bool(self.last_seq()) and self._db.execute("SELECT 1 FROM seals LIMIT 1").fetchone() is None

    def _seal_unsealed(self) -> None:
        """Seal the rows a file made before seals holds (they are taken as they read at their first opening here),
        when they replay: one that does not (edited by hand) stays as it is, refused by every command naming the
        action (:attr:`tournament`). A sealed file is only read: no write lock on every opening."""
        if not self._unsealed():
            return
        with writing(self._db):
            if self._unsealed():  # another opening may have sealed it meanwhile
                try:
                    replay(self.actions())
                except Exception:  # said by every command that reads it
                    return
                chain = ORIGIN
                for row in self._db.execute("SELECT seq, kind, data, by, at FROM actions ORDER BY seq").fetchall():
                    chain = seal(chain, *row)
                    self._db.execute("INSERT INTO seals (seq, chain) VALUES (?, ?)", (row[0], chain))
        whole(self._db)

    def close(self) -> None:
        self._db.close()

    def __repr__(self) -> str:
        return f"TournamentStore({str(self.path)!r})"

    # -- reading ----------------------------------------------------------------------------------
    def actions(self) -> list[dict]:
        """The whole log, oldest first: ``{"seq", "kind", "data", "by", "at"}``. A row that cannot be what was
        written (its bytes damaged) is refused, with its seq and what is wrong with it in words
        (``damaged_text``, ``damaged_seal``, ``damaged_json``, ``damaged_row``): :class:`TournamentError`
        ``tournament_damaged``. SQLite's own failure is said by :func:`file_error` (locked, the disk, damaged)."""
        try:
            rows = self._db.execute("SELECT a.seq, kind, data, by, at, chain FROM actions a LEFT JOIN seals s "
                                    "ON s.seq = a.seq ORDER BY a.seq").fetchall()
        except sqlite3.Error as exc:  # SQLite's, or Python's: text that is not UTF-8 any more
            seq = None if getattr(exc, "sqlite_errorname", None) else self._unreadable()
            if seq is None:
                raise file_error(self.path, exc) from None
            raise self._damaged(TournamentError("damaged_text", seq=seq)) from None
        actions, chain, unsealed = [], ORIGIN, self._unsealed()  # a file from before seals, not sealed: it does not replay
        for s, k, d, b, a, sealed in rows:
            try:
                chain = seal(chain, s, k, d, b, a)
            except (TypeError, ValueError):
                chain = b""  # not a row any more: said below
            if sealed != chain and not unsealed:
                raise self._damaged(TournamentError("damaged_seal", seq=s))
            try:
                data = json.loads(d)
            except (TypeError, ValueError):
                raise self._damaged(TournamentError("damaged_json", seq=s)) from None
            if not (isinstance(k, str) and isinstance(b, str) and isinstance(a, float | int) and isinstance(data, dict)):
                raise self._damaged(TournamentError("damaged_row", seq=s))
            actions.append({"seq": s, "kind": k, "data": data, "by": b, "at": a})
        return actions

    def _damaged(self, what: TournamentError) -> TournamentError:
        return TournamentError("tournament_damaged", path=self.path, error=what)

    def _unreadable(self) -> int | None:
        """The seq of the first action whose row (its seal's too) does not read, its text not UTF-8; None if all do."""
        for (s,) in self._db.execute("SELECT seq FROM actions ORDER BY seq").fetchall():
            try:
                self._db.execute("SELECT kind, data, by, at, chain FROM actions a LEFT JOIN seals s ON s.seq = a.seq "
                                 "WHERE a.seq = ?", (s,)).fetchone()
            except sqlite3.Error:
                return s
        return None

    def backup(self, out: str | Path) -> Tournament:
        """Copy the file to ``out`` while the services write (:func:`cardtable.backup.copy_checked`), the copy checked as
        every command checks a file (the seals, the replay); the tournament it holds. Never of a damaged file (a backup
        of one is worse than none): refused before anything is copied."""
        self.tournament  # noqa: B018 - tournament_damaged: refused before anything is copied

        def check(part: Path) -> Tournament:
            copy = TournamentStore(part)
            try:
                return copy.tournament
            finally:
                copy.close()

        return copy_checked(self._db, out, check)

    def last_seq(self) -> int:
        return self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions").fetchone()[0]

    @property
    def tournament(self) -> Tournament:
        """The tournament as the log says now (replayed when the log grew)."""
        seq = self.last_seq()
        if seq == 0:
            raise TournamentError("no_tournament_in", path=self.path)
        if self._cache is None or self._cache[0] != seq:
            actions = self.actions()
            try:
                self._cache = (seq, replay(actions))
            except TournamentError as exc:  # an action that reads but no longer says what was done (or one not known yet)
                if getattr(exc.values.get("why"), "key", None) == "refusal.unknown_action":
                    raise TournamentError("tournament_newer", path=self.path, seq=exc.values["seq"],
                                          kind=exc.values["kind"]) from None
                raise TournamentError("tournament_damaged", path=self.path, error=exc) from None
        return self._cache[1]

    def round_view(self, round_no: int | None = None) -> dict:
        t = self.tournament
        if round_no is not None and round_no != 0:
            _round(t, round_no)
        return round_view(t, round_no)

    def standings(self) -> dict:
        return standings_view(self.tournament)

    def export(self, fmt: str, round_no: int | None = None, lang: str = "zh", stylesheet: str | None = None) -> bytes:
        """``csv``, ``xlsx`` or ``html`` (the pairing sheet and slips of ``round_no``, default the latest; its styles
        linked from ``stylesheet``, else within), stamped as made now (the store's ``clock``)."""
        from referee.tournament.export import export

        return export(self.tournament, fmt, round_no, lang, made=self.clock(), stylesheet=stylesheet)

    # -- changes ----------------------------------------------------------------------------------
    def new(self, system_name: str, entries: list[Entry] | tuple[Entry, ...], name: str = "", seed: str | int | None = None,
            options: dict | None = None, id: str = "main", by: str = "organiser") -> Tournament:
        """Register the field; refused (with the reason) when the system cannot run it, or when its name or seed holds
        what a reader would not see as written (``entries.readable``: a terminal's escape, a right-to-left override)."""
        rules = system(system_name)
        if not _ID.fullmatch(id):
            raise TournamentError("tournament_id", id=id)
        readable(name, "name", TEXT_MOST["name"])
        readable(str(seed) if seed is not None else "", "seed", TEXT_MOST["seed"])
        opts = rules.options(options)
        entries = tuple(entries)
        if len({e.id for e in entries}) != len(entries):
            raise TournamentError("entry_ids_unique")
        rules.check(entries, opts)
        seed = str(random.SystemRandom().randrange(10**12) if seed is None else seed)
        lot = [e.id for e in entries]
        random.Random(f"{seed}:lot").shuffle(lot)
        data = {"id": id, "name": name, "system": system_name, "seed": seed, "options": opts,
                "entries": [e.as_dict() for e in entries], "lot": lot}
        return self._append("new", lambda t: data, by)

    def pair_next_round(self, by: str = "organiser") -> dict:
        """Pair the next round (all results of the last one must be in); returns its round view."""
        def make(t: Tournament) -> dict:
            if t.finished or len(t.rounds) >= t.total_rounds:
                raise TournamentError("all_paired", rounds=t.total_rounds)
            if t.rounds and not t.rounds[-1].complete:
                missing = [x.table for x in t.rounds[-1].tables if x.outcome is None]
                raise TournamentError("round_waits", round=len(t.rounds), tables=missing)
            no = len(t.rounds) + 1
            try:
                tables, byes = t.rules.pair(t, no)
            except PairingError as exc:
                can = t.rules.most_rounds(t, t.total_rounds)  # fewer rounds left than set (entries withdrew): say how many
                if can < t.total_rounds:
                    raise TournamentError("round_pairing_can", round=no, reason=exc, can=can) from None
                raise TournamentError("round_pairing", round=no, reason=exc) from None
            return {"round": no, "tables": [{"table": n, "entries": list(e)} for n, e in tables], "byes": list(byes),
                    "draw": f"{t.seed}:pair:{no}"}  # the seed of this round's draw, for the record

        self._append("pair", make, by)
        return self.round_view()

    def unpair_round(self, round_no: int, by: str = "organiser", reason: str = "") -> dict:
        """Undo the latest round's pairing, a mistake found before any result (paired before the lot drawn in the
        hall was entered, before a unit's withdrawal): the round is no longer paired, ``pair_next_round`` draws it
        anew. Refused for any other round and for a round with a result, a game, a forfeit, a bye lost or a table's
        report at any table (only a withdrawn entry's forfeit, which its withdrawal put there, is no result): a round
        under way is changed by corrections. Returns the view of the round before it."""
        def check(t: Tournament) -> dict:
            r = _round(t, round_no)
            if round_no != len(t.rounds):
                raise TournamentError("unpair_not_last", round=round_no, last=len(t.rounds))
            started = [x.table for x in r.tables if x.entered is not None or x.games or set(x.forfeits) - set(t.withdrawn)
                       or any(n.table == x.table for n in r.unrecorded)]
            started += [b for lost in r.lost_byes for b in lost.byes]  # a bye lost to the team's lateness
            if started:
                raise TournamentError("unpair_started", round=round_no, tables=started)
            _said_why(reason, TournamentError("unpair_no_reason", round=round_no))
            return {"round": round_no, "reason": reason}

        self._append("unpair", check, by)
        return self.round_view()

    def draw_lot(self, order: list[str], by: str = "organiser") -> Tournament:
        """The lot drawn in the hall (seed 002 一4: 分组抽签): every entry id once, lot number 1 first; it
        replaces the lot drawn at registration, when the system allows it now (``lot_closed``: the
        knockout before round 1, pair-swiss before round 1 or once the last round is complete,
        individual-tables at any time)."""
        def check(t: Tournament) -> dict:
            ids = [e.id for e in t.entries]
            if not isinstance(order, list) or not all(isinstance(e, str) for e in order):
                raise TournamentError("lot_list")
            seen = Counter(order)  # each id named once in the words, however often the list repeats it
            twice = sorted(e for e, n in seen.items() if n > 1)
            unknown = [e for e in seen if e not in ids]
            missing = [e for e in ids if e not in seen]
            if twice or unknown or missing:
                raise TournamentError("lot_entries", twice=twice or "-", unknown=unknown or "-", missing=missing or "-")
            if closed := t.rules.lot_closed(t):
                raise closed
            return {"lot": list(order)}

        return self._append("lot", check, by)

    def record_result(self, round_no: int, table: str, result: dict, by: str = "organiser",
                      forfeits: list[str] | tuple[str, ...] = (), event: str | None = None, sides: dict | None = None,
                      seen: int | None = None) -> dict:
        """A table's result entered by hand (see README.md for its shape per system); a table with a
        result, or decided by forfeit, is changed only by :meth:`correct_result`. Forfeits stand, and
        ``forfeits`` (entries at the table) join them in the same change: a San Da Yi table's scores
        with the player who was absent, entered at once, or refused with nothing changed. ``event``,
        ``sides``: the table event that reported the result (recorded once, as :meth:`record_game`) and
        the entry at each seat then; ``seen``: the table as the person entering it saw it (:meth:`_as_seen`)."""
        def check(t: Tournament) -> dict:
            self._unseen(event, round_no)
            x = _table(t, round_no, table)
            self._as_seen(t, round_no, table, seen)
            _check_sides(round_no, x, sides)
            _check_result(result)
            gone = _seated(x, round_no, forfeits, allow_none=True)
            if x.entered == result and set(gone) <= set(x.forfeits):  # entered twice: said as the same, not another
                raise TournamentError("result_same", round=round_no, table=table)
            _undecided(x, round_no)
            t.rules.check_entry(t, x, result, tuple(sorted(set(x.forfeits) | set(gone))))
            return ({"round": round_no, "table": table, "result": result} | ({"forfeits": gone} if gone else {})
                    | _table_event(event, sides))

        self._append_once("result", check, by)
        return self.round_view(round_no)

    def correct_result(self, round_no: int, table: str, result: dict | None, by: str = "organiser", reason: str = "",
                       forfeits: list[str] | tuple[str, ...] = (), event: str | None = None, sides: dict | None = None,
                       seen: int | None = None) -> dict:
        """Restate a table: its result (None: none) and the entries that forfeit it (none unless
        named); everything computed after it is computed again. ``event``, ``sides``: the table event
        that made the correction (a result judged again) and where the entries sat, as :meth:`record_game`.
        ``seen``: the table as the corrector saw it (:meth:`_as_seen`)."""
        def check(t: Tournament) -> dict:
            self._unseen(event, round_no)
            x = _table(t, round_no, table)
            self._as_seen(t, round_no, table, seen)
            _check_sides(round_no, x, sides)
            if result is not None:
                _check_result(result)
            gone = _seated(x, round_no, forfeits, allow_none=result is not None)
            _said_why(reason, TournamentError("correct_no_reason", round=round_no, table=table))
            t.rules.check_entry(t, x, result, tuple(gone))
            return {"round": round_no, "table": table, "result": result, "forfeits": gone, "reason": reason} | _table_event(event, sides)

        self._append_once("correct", check, by)
        return self.round_view(round_no)

    def retract_result(self, round_no: int, table: str, by: str, reason: str, event: str | None = None,
                        sides: dict | None = None, seen: int | None = None) -> dict:
        """The table's result as recorded is no longer what its log says, and the log says no other: the games
        and the result entered are withdrawn (a forfeit stays), the table waits for the organiser to enter its
        result (the next round cannot be paired before), ``reason`` says why. ``event``, ``sides``, ``seen`` as
        :meth:`correct_result`."""
        def check(t: Tournament) -> dict:
            self._unseen(event, round_no)
            self._as_seen(t, round_no, table, seen)
            _check_sides(round_no, _table(t, round_no, table), sides)
            if not isinstance(reason, str) or not reason:
                raise TournamentError("reason_text")
            return {"round": round_no, "table": table, "reason": reason} | _table_event(event, sides)

        self._append_once("retract", check, by)
        return self.round_view(round_no)

    def forfeit(self, round_no: int, table: str, entries: list[str], by: str = "organiser", event: str | None = None,
                correct: bool = False, reason: str = "", seen: int | None = None) -> dict:
        """``entries`` (ids at the table) forfeit it (弃权); both entries: a double forfeit, nobody wins.
        Over a result (or a table decided) only as a correction (``correct``, which restates the table:
        these forfeits, no result; ``seen`` as :meth:`correct_result`). ``event``: the table event that reported it
        (recorded once, as :meth:`record_game`)."""
        if correct:
            return self.correct_result(round_no, table, None, by=by, reason=reason, forfeits=entries, seen=seen)

        def check(t: Tournament) -> dict:
            self._unseen(event, round_no)
            x = _table(t, round_no, table)
            gone = _seated(x, round_no, entries)
            _undecided(x, round_no, forfeit=True)
            return {"round": round_no, "table": table, "entries": gone} | ({"event": event} if event else {})

        self._append_once("forfeit", check, by)
        return self.round_view(round_no)

    def late_arrival(self, round_no: int, entry: str, minutes: float, by: str = "organiser", event: str | None = None) -> dict:
        """An entry arrived ``minutes`` late; past the notice's limit it forfeits the round (in
        pair-swiss the whole team, its tables and its bye, seed 000 第十三条: a pair with the bye may be the late
        one). Below it the table service rules."""
        def check(t: Tournament) -> dict:
            self._unseen(event, round_no)
            if not (type(minutes) in (int, float) and 0 <= minutes <= LATE_MOST):
                shown = f"{minutes:g}" if type(minutes) in (int, float) else repr(minutes)
                raise TournamentError("minutes_late", most=LATE_MOST, minutes=shown)
            r = _round(t, round_no)
            # a pair with the bye is late for its team's round where the system's rule takes the team's byes too
            bye = entry in r.byes and entry in t.rules.late_byes(t, round_no, entry, float("inf"))
            if not bye and not any(entry in x.entries for x in r.tables):
                raise TournamentError("entry_no_table", entry=entry, round=round_no)
            lost = t.rules.late_forfeits(t, round_no, entry, minutes)  # in pair-swiss the team's every table
            for x in r.tables:
                if x.table in lost:
                    _undecided(x, round_no, forfeit=True)  # a result there: only a correction changes it
            return {"round": round_no, "entry": entry, "minutes": minutes} | ({"event": event} if event else {})

        self._append_once("late", check, by)
        return self.round_view(round_no)

    def withdraw_unit(self, unit: str, by: str = "organiser", reason: str = "") -> dict:
        """A unit withdraws (退赛): its entries leave the draw (:meth:`_withdraw`). Returns the latest round's view."""
        def entries(t: Tournament) -> list[str]:
            ids = [e.id for e in t.entries if e.unit == unit]
            if not ids:
                raise TournamentError("no_unit", unit=unit, known=sorted({e.unit for e in t.entries}))
            if set(ids) <= set(t.withdrawn):
                raise TournamentError("unit_withdrawn", unit=unit)
            return ids

        return self._withdraw(entries, {"unit": unit}, by, reason)

    def withdraw_entry(self, entry: str, by: str = "organiser", reason: str = "") -> dict:
        """One entry withdraws or is disqualified (取消比赛资格: seed 004 三, 002 十 第3条, 000 第十四条): it leaves the
        draw (:meth:`_withdraw`). Returns the latest round's view."""
        def entries(t: Tournament) -> list[str]:
            t.entry(entry)  # refused when there is no such entry
            if entry in t.withdrawn:
                raise TournamentError("entry_withdrawn", entry=entry)
            return [entry]

        return self._withdraw(entries, {}, by, reason)

    def _withdraw(self, entries, data: dict, by: str, reason: str) -> dict:
        """Every system: the ``entries(t)`` leave the draw (no table, no bye in any round paired from now on; in a
        round not complete their tables without a result are forfeited; individual tables: they hold the seats the
        draw leaves empty, forfeited), their results stand, and the standings list them after every row still in,
        marked withdrawn, with no prize. Logged as a ``leave`` with ``data``, the entries, the reason, who and when."""
        def check(t: Tournament) -> dict:
            ids = entries(t)
            if t.finished:
                raise TournamentError("withdraw_finished")
            _said_why(reason, TournamentError("withdraw_no_reason", who=data.get("unit", ids[0])))
            return data | {"entries": ids, "reason": reason}

        self._append("leave", check, by)
        return self.round_view()

    def set_rounds(self, rounds: int, by: str = "organiser") -> Tournament:
        """The organiser changes the number of rounds: not below the rounds paired, and (pair-swiss) only to
        a number whose rounds left can all be paired (proved, as at registration)."""
        def check(t: Tournament) -> dict:
            if type(rounds) is not int or rounds < max(1, len(t.rounds)):
                raise TournamentError("rounds_below", rounds=repr(rounds), paired=len(t.rounds))
            if "rounds" not in t.options:
                raise TournamentError("rounds_fixed", system=Term(f"system.{t.system}"))
            t.rules.check_rounds(t, rounds)
            return {"rounds": rounds}

        return self._append("rounds", check, by)

    def record_game(self, round_no: int, table: str, winner: int | None, levels: list[str] | None = None,
                    by: str = "table", event: str | None = None, sides: dict | None = None) -> bool:
        """One game reported by a table (``winner`` 0 or 1 in the table's order, None for a draw);
        False when ``event`` (its table, seq and kind) was recorded already. ``sides``: the entry at each
        side (``SN``, ``EW``), for a correction of the game later. Refused at a table whose result stands (entered
        by hand, a forfeit, or its games decided it): only a correction changes that."""
        def check(t: Tournament) -> dict:
            self._unseen(event, round_no)
            x = _table(t, round_no, table)
            _check_sides(round_no, x, sides)
            _undecided(x, round_no)  # a result stands (entered, forfeited, or the table's own games): corrected only
            if winner not in (0, 1, None) or isinstance(winner, bool):
                raise TournamentError("winner_value", winner=repr(winner))
            return {"round": round_no, "table": table, "winner": winner, "levels": levels, "event": event} | (
                {"sides": sides} if sides else {})

        return self._append_once("game", check, by)

    def note_unrecorded(self, table: str, report: str, reason: dict, by: str) -> bool:
        """Note for the organiser that a table of the latest round reported its game (``report``: its table, seq and
        kind) and the service could not record it, ``reason`` in both languages (``zh``, ``en``); once per report,
        False for one noted already. No result changes: the organiser enters it, and the note is shown until then.
        At most ``NOTES_PER_TABLE`` a table each round (False past them): a table that reports for ever (a fault, a
        hostile client with its credentials) cannot grow the log without end; the service's log says every one."""
        def check(t: Tournament) -> dict:
            if not t.rounds:
                raise TournamentError("no_round_paired")
            r = t.rounds[-1]
            r.table(table)
            if any(n.report == report for n in r.unrecorded) or sum(n.table == table for n in r.unrecorded) >= NOTES_PER_TABLE:
                raise _Seen(report)
            if not (isinstance(reason, dict) and set(reason) == {"zh", "en"} and all(isinstance(v, str) and v for v in reason.values())):
                raise TournamentError("reason_text")
            return {"round": r.round, "table": table, "report": report, "reason": reason}

        return self._append_once("unrecorded", check, by)

    def _as_seen(self, t: Tournament, round_no: int, table: str, seen: int | None) -> None:
        """Refuse a change to a table made on a view of it older than its latest change (``Round.seen``: ``seen`` is
        what the view showed; None: not known, not checked): another person's correction, the table's report, or its
        pairing drawn anew (a result names a side, 0 or 1, which would be another pair's). Said naming who made it."""
        now = t.round(round_no).seen(table)
        if seen is not None and seen != now:
            by = next((a["by"] for a in self.actions() if a["seq"] == now), "-")
            raise TournamentError("table_changed", round=round_no, table=table, seq=now, by=by)

    def _unseen(self, event: str | None, round_no: int) -> None:
        """Raise :class:`_Seen` when a table event was recorded already in the round (a QoS 1 redelivery). One
        recorded in another round is refused in words (:class:`TournamentError`), for the organiser: a message of
        that round sent again, or the table started again on a new log, whose entries are numbered from 1 again
        and whose game this is; nothing tells them apart, so a person does."""
        if event is None:
            return
        rounds = [a["data"].get("round") for a in self.actions() if a["data"].get("event") == event]
        if round_no in rounds:
            raise _Seen(event)
        if rounds:
            raise TournamentError("event_other_round", event=event, round=rounds[0], now=round_no)

    def _append_once(self, kind: str, make: Callable[[Tournament | None], dict], by: str) -> bool:
        """:meth:`_append`; False when ``make`` found its table event recorded already."""
        try:
            self._append(kind, make, by)
        except _Seen:
            return False
        return True

    def _append(self, kind: str, make: Callable[[Tournament | None], dict], by: str) -> Tournament:
        """Check the change on the tournament as it is, then log it, in one write transaction. ``by`` is refused as
        a reason is (a terminal's escape, a right-to-left override, too long): the log says who, as written."""
        readable(by, "by", TEXT_MOST["by"])
        if not by.strip():  # `--by ""`: the log would say nobody made it
            raise TournamentError("by_blank")
        with writing(self._db):
            t = self.tournament if kind != "new" or self.last_seq() else None
            if kind == "new" and t is not None:
                raise TournamentError("holds_tournament", path=self.path)
            data = make(t)
            seq, at = self.last_seq() + 1, float(self.clock())
            action = {"seq": seq, "kind": kind, "data": data, "by": by, "at": at}
            after = start(data, seq, at) if t is None else repair_last_round(apply(t, action), action)
            if t is not None and len(after.repaired) > len(t.repaired):  # the log says which tables it changed
                data = data | {"repaired": after.repaired[-1].as_dict()}
            after.rules.standings(after)  # a result that cannot be scored raises here
            after.rules.follows(after)  # so does one that a knockout round already played depends on
            text = json.dumps(data, ensure_ascii=False, sort_keys=True)
            before = self._db.execute("SELECT chain FROM seals WHERE seq = ?", (seq - 1,)).fetchone()
            self._db.execute("INSERT INTO actions (seq, kind, data, by, at) VALUES (?, ?, ?, ?, ?)", (seq, kind, text, by, at))
            self._db.execute("INSERT INTO seals (seq, chain) VALUES (?, ?)",
                             (seq, seal(before[0] if before else ORIGIN, seq, kind, text, by, at)))
        whole(self._db)
        self._cache = (seq, after)
        return after


LOG_COLUMNS = ["seq", "kind", "data", "by", "at"]


def check_file(path: str | Path) -> None:
    """Refuse a file that exists and is not a tournament's: an empty file, text, a folder, another
    program's database, a table's event log (an SQLite file holding the log and nothing else is
    one), or a new file in a folder that does not exist. Nothing is written to it; a new file in a folder that exists
    is made by the store."""
    path = Path(path)
    if str(path) == ":memory:":
        return
    if not path.exists():
        if not path.parent.is_dir():
            raise TournamentError("db_no_folder", path=path, folder=path.parent)
        return
    try:
        what = unlike(path, {"actions": LOG_COLUMNS, "seals": None})
    except OSError as exc:
        raise TournamentError("db_unreadable", path=path, error=exc) from None
    if what is not None and what.key.endswith(".db_damaged"):
        error = what.values["error"]
        raise file_error(path, error) if isinstance(error, sqlite3.Error) else TournamentError(
            "tournament_damaged", path=path, error=error)
    if what is not None:
        raise TournamentError("not_a_tournament", path=path, what=what)


def file_error(path: str | Path, exc: sqlite3.Error) -> TournamentError:
    """What SQLite's ``exc`` on the tournament's file ``path`` means for the person who ran the command, by SQLite's
    own code: the disk full (``SQLITE_FULL``, or a disk error with less than ``ROOM`` free beside the file), a file or
    folder it may not write (a read-only medium, no permission: a WAL file's reader writes its ``-shm`` too), another
    program's lock held past ``WAIT_S``, the disk failing to read or write; else the file damaged (in the catalogue's
    words, ``[sqlite]``; SQLite's own quoted, ``damaged_sqlite``, where it has none). Only the last says to put a backup
    back: the others lose nothing recorded, and a backup put back for them would."""
    code = getattr(exc, "sqlite_errorname", None) or ""  # exc itself is said in words (referee.catalogue.said)
    if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return TournamentError("db_busy", path=path, error=exc, s=f"{WAIT_S:g}")
    if code.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return TournamentError("db_readonly", path=path, error=exc)
    if code == "SQLITE_FULL" or code.startswith("SQLITE_IOERR") and _free(Path(path).parent) < ROOM:
        return TournamentError("db_full", path=path, error=exc)
    if code.startswith("SQLITE_IOERR"):
        return TournamentError("db_io", path=path, error=exc)
    if "_".join(code.split("_")[:2]) in SQLITE:  # SQLITE_CORRUPT, SQLITE_NOTADB: said in words
        return TournamentError("tournament_damaged", path=path, error=exc)
    said = str(exc).split(" with text ")[0]  # SQLite's (or Python's) own words, quoted; not the damaged bytes themselves
    return TournamentError("tournament_damaged", path=path, error=TournamentError("damaged_sqlite", said=said[:200]))


def _free(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return ROOM  # not known: not said to be full


def unlike(path: Path, ours: Mapping[str, list[str] | None]) -> TournamentError | None:
    """What the existing ``path`` is where it is not an SQLite database of the tables ``ours`` alone (``sqlite_sequence``
    aside; a table given its columns must be there with exactly those): a folder, an empty file, not SQLite, damaged
    (SQLite's integrity check) or locked past 30 s, another database; None where it is one. It is only read (the
    tournament's file and the console's, ``display.store.check_file``, are checked so). OSError where it cannot be
    read.

    A file SQLite reads is never opened otherwise here: closing a file a process opened drops every POSIX lock the
    process holds on it, SQLite's connections' too, and another process closing the file then takes itself for the last
    one on it and removes the write-ahead log under them (their next change written over its). Only a file SQLite
    refuses is read as bytes, to tell one that is no SQLite file from one damaged."""
    if path.is_dir():
        return TournamentError("db_folder")
    if not os.access(path, os.R_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
    if path.stat().st_size == 0:
        return TournamentError("db_empty")
    try:
        with closing(sqlite3.connect(path, timeout=WAIT_S)) as db:  # only read (not mode=ro: that leaves a WAL file's -shm)
            tables = sorted(n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
            columns = {t: [row[1] for row in db.execute(f"PRAGMA table_info({t})")]
                       for t, want in ours.items() if want is not None}
            problems = [p for (p,) in db.execute("PRAGMA integrity_check(3)")]  # a page overwritten reads as rows missing
    except sqlite3.Error as exc:  # damaged, or locked past the timeout
        if getattr(exc, "sqlite_errorname", "") == "SQLITE_NOTADB" and not is_database(path):
            return TournamentError("db_not_sqlite")
        return TournamentError("db_damaged", error=exc)
    if problems != ["ok"]:
        said = "; ".join(line for p in problems for line in p.splitlines() if not line.startswith("***"))
        return TournamentError("db_damaged", error=TournamentError("db_integrity", problems=said[:300]))
    if set(tables) - set(ours) - {"sqlite_sequence"} or any(columns[t] != want for t, want in ours.items() if want):
        return TournamentError("db_other", tables=tables or "—")
    return None



def _open(path: Path) -> sqlite3.Connection:
    check_file(path)
    try:
        return sqlite3.connect(path, timeout=WAIT_S, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise file_error(path, exc) from None


def _round(t: Tournament, round_no: int):
    if type(round_no) is not int:
        raise TournamentError("round_number", round=repr(round_no))
    return t.round(round_no)


def _table(t: Tournament, round_no: int, table: str):
    if not isinstance(table, str):
        raise TournamentError("table_name", table=repr(table))
    return _round(t, round_no).table(table)


def _seated(x, round_no: int, entries, allow_none: bool = False) -> list[str]:
    """``entries`` as a sorted list of ids seated at table ``x`` (at least one unless ``allow_none``)."""
    if isinstance(entries, (list, tuple)) and not (entries or allow_none):  # said as "not " and nothing before
        raise TournamentError("no_seats_named", round=round_no, table=x.table, seated=list(x.entries))
    if not isinstance(entries, (list, tuple)) or not set(map(str, entries)) <= set(x.entries):
        named = list(entries) if isinstance(entries, (list, tuple)) else repr(entries)  # a string was said letter by letter
        raise TournamentError("table_seats", round=round_no, table=x.table, seated=list(x.entries), entries=named)
    return sorted(set(entries))


def _undecided(x, round_no: int, forfeit: bool = False) -> None:
    """Refuse a first word on a table that has one already: a result entered, or an outcome (a
    forfeit that decides it, games reported); it is changed only by a correction. A ``forfeit``
    may join forfeits (the other side absent too: a double forfeit), never a result."""
    if x.entered is not None or x.outcome is not None and not (forfeit and x.forfeits):
        if x.forfeits and x.entered is None:
            raise TournamentError("has_forfeit", round=round_no, table=x.table, entries=list(x.forfeits))
        raise TournamentError("has_result", round=round_no, table=x.table)


def _check_sides(round_no: int, table, sides: dict | None) -> None:
    if sides is not None and (not isinstance(sides, dict) or sorted(sides.values()) != sorted(table.entries)):
        raise TournamentError("table_seats", round=round_no, table=table.table, seated=list(table.entries), entries=repr(sides))


def _table_event(event: str | None, sides: dict | None) -> dict:
    return ({"event": event} if event else {}) | ({"sides": sides} if sides else {})


def _said_why(reason, refused: TournamentError) -> None:
    """The reason a change needs (the READMEs: undone, corrected, withdrawn with a reason, which the log keeps): text a
    person can read, not blank; else ``refused``."""
    if not isinstance(reason, str):
        raise TournamentError("reason_text")
    readable(reason, "reason", TEXT_MOST["reason"])
    if not reason.strip():
        raise refused


def _check_result(result) -> None:
    if not isinstance(result, dict):
        raise TournamentError("result_object", result=repr(result))


class _Seen(Exception):
    """A table event recorded already (a QoS 1 redelivery)."""
