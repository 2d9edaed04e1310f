"""The console's side of the tournament (``referee.tournament``, called in-process): the entries
being registered, the seating a round gives each table, and one lock around the store (its SQLite
connection serves one request at a time).

Seating: two entries at a table face each other, the first at S and N, the second at E and W (its
players in the order registered); four entries sit S, E, N, W (``referee/tournament/README.md``).

>>> from referee.tournament import Entry
>>> a, b = Entry("e01", "王芳、张伟", "数学系", "数学系", ("王芳", "张伟")), Entry("e02", "李强、刘洋", "物理系", "物理系", ("李强", "刘洋"))
>>> seating([a, b])
{'S': '王芳', 'E': '李强', 'N': '张伟', 'W': '刘洋'}
>>> seating([a])
Traceback (most recent call last):
...
referee.tournament.core.TournamentError: 一桌坐两对或四名选手，而不是 1 方

The latest round at its tables (:func:`at_tables`, from the tables' ``state`` as the hall shows them): whether it has
started (a table of it seats the round's players, its round begun: the start is not offered again, it would seat them
anew), and the rulebook the organiser starts it with unless they choose another: the one its tables were started with,
else the one the round before was started with while the system plays both with the same book (a round of the
knockout's second stage gets its own), else the system's (``rules.rulebook_of``).

A change's audit lines (:func:`lines`) are made from the tournament's log (:meth:`Tournaments.made`): the change noted
pending in the console's file before it is made (``display.store``) is found there as the first action after it of its
user and of a kind it logs (``KINDS``), and its lines are made with that action's time and the tournament as it was
right after it; not found, it was never made. The console settles what it left pending (killed, or its file failing,
between the change and its lines) when it starts and before each change (:meth:`Tournaments.settle`).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from referee.tournament import (
    Entry,
    EntryError,
    Tournament,
    TournamentError,
    TournamentStore,
)
from referee.tournament.actions import replay
from referee.tournament.entries import entries_of, read_entries
from referee.catalogue import Refusal
from referee.rulebooks import RulebookError, load


def seating(entries: list[Entry]) -> dict[str, str]:
    """The players per seat of one table of a round."""
    if len(entries) == 2 and all(len(e.players) == 2 for e in entries):
        (s, n), (e, w) = entries[0].players, entries[1].players
        return {"S": s, "E": e, "N": n, "W": w}
    if len(entries) == 4 and all(len(e.players) == 1 for e in entries):
        return dict(zip("SENW", (e.players[0] for e in entries)))
    raise TournamentError("table_seating", n=len(entries))


def read_form(name: str, data: bytes) -> tuple[Entry, ...]:
    """Entries from an uploaded registration form (``.csv`` or ``.xlsx``); EntryError when unreadable."""
    return read_entries(Path(name).name, data)  # read in memory: no path of the server's in any error


def rows_of(entries: tuple[Entry, ...]) -> list[dict]:
    """The form rows that give these entries again (one row per entry, with the form's rows it came from)."""
    return [{"unit": e.unit, "team": e.team, "pair": e.id, "players": "、".join(e.players), "rows": list(e.rows)}
            for e in entries]


@dataclass(frozen=True)
class AtTables:
    """The latest round at its tables: ``started``, and the ``rulebook`` to start it with (see the module's docstring)."""

    started: bool
    rulebook: str


def at_tables(t: Tournament, states: Mapping[str, dict | None]) -> AtTables:
    """The latest round of ``t`` at its tables, by their latest ``state`` (table -> state, None: none seen)."""
    n = len(t.rounds)
    own = t.rules.rulebook_of(t, n or 1)
    now = _played(t, n, states)
    if now:
        return AtTables(True, now)
    before = _played(t, n - 1, states)
    return AtTables(False, before if before and own == t.rules.rulebook_of(t, n - 1) else own)


def _played(t: Tournament, round_no: int, states: Mapping[str, dict | None]) -> str | None:
    """The rulebook round ``round_no``'s tables were started with (the most of them), by the tables that seat its
    players with a round begun; None when none does (or no such round)."""
    if round_no < 1:
        return None
    books: Counter[str] = Counter()
    for x in t.round(round_no).tables:
        state = states.get(x.table)
        if not state or not state.get("rulebook") or state["round"]["started_at"] is None:
            continue
        try:
            game = load(state["rulebook"]).game
        except RulebookError:  # a book this display does not have
            continue
        seated = {p for p in state["players"].values() if p}
        if game in t.rules.games and seated == {p for e in x.entries for p in t.entry(e).players}:
            books[state["rulebook"]] += 1
    return books.most_common(1)[0][0] if books else None


def entries_known(t: Tournament) -> dict[str, dict]:
    """Every entry of ``t`` as the hall knows it, by id: its lot number (None without a lot), name and unit, and where
    the standings rank teams (pair Swiss, 000 四5) the name of the team it plays for: a pair is named by its team, as
    the standings name the team (empty where they rank the entries themselves)."""
    teams = t.rules.ranks == "team"
    return {e.id: {"lot": t.lot_no(e.id) if e.id in t.lot else None, "name": e.name, "unit": e.unit,
                   "team": e.team if teams else ""} for e in t.entries}


def entries_named(t: Tournament) -> list[dict]:
    """Every entry of ``t`` as the pages name it: as the hall knows it (:func:`entries_known`) and whether it withdrew
    (退赛)."""
    known = entries_known(t)
    return [{"id": e.id, **known[e.id], "withdrawn": e.id in t.withdrawn} for e in t.entries]


# the kinds each console action logs (``referee.tournament.store``; a forfeit over a result is a correction)
KINDS = {"new_tournament": ("new",), "pair_round": ("pair",), "unpair_round": ("unpair",), "draw_lot": ("lot",),
         "record_result": ("result",), "correct_result": ("correct",), "forfeit": ("forfeit", "correct"),
         "late_arrival": ("late",), "withdraw_unit": ("leave",), "withdraw_entry": ("leave",), "set_rounds": ("rounds",)}


class Line(NamedTuple):
    """One line of the audit log: the ``action`` (the catalogue's ``action.*``) and its ``detail``."""

    action: str
    detail: dict


def lines(action: str, detail: dict, t: Tournament) -> list[Line]:
    """The audit lines of the change ``action`` (``detail`` as the console asked it), ``t`` the tournament right after
    it: the change, with the entries it names as the hall knew them then (``named``); a round it paired again, never
    silent; after a withdrawal, the rounds the entries still in can no longer all play."""
    made = [Line(action, detail | _named(t, detail))]
    made += [Line("repaired_round", {"round": x.round, "because": x.because, "tables": [n for n, _, _ in x.tables]})
             for x in t.repaired if x.seq == t.seq]
    if KINDS.get(action) == ("leave",) and (can := t.rules.most_rounds(t, t.total_rounds)) < t.total_rounds:
        made.append(Line("rounds_short", {"rounds": t.total_rounds, "can": can}))
    return made


def _named(t: Tournament, detail: dict) -> dict:
    """The entries ``detail`` names by id (``entry``, ``entries``, ``order``, the result's ``forfeits``) as the hall knows them,
    ``named``: id -> lot number, name, unit and team; its line says them so (``display.actions``), as they were then."""
    result = detail.get("result") if isinstance(detail.get("result"), dict) else {}
    entries = [e for key in ("entries", "order") if isinstance(detail.get(key), list) for e in detail[key]]
    known = entries_known(t)
    named = {e: known[e] for e in [detail.get("entry"), *entries, *result.get("forfeits", [])] if e in known}
    return {"named": named} if named else {}


class Tournaments:
    """The tournament file the console runs (one tournament per file), one request at a time."""

    def __init__(self, path: Path, clock):
        self.store = TournamentStore(path, clock=clock)
        self.file = str(Path(path).resolve())  # the file the console's pending changes name
        self._lock = threading.Lock()
        self._unpublished = (None, 0.0)  # the latest change seen unpublished (its ``at``) and since when (monotonic)

    def __repr__(self) -> str:
        return f"Tournaments({str(self.store.path)!r})"

    @contextmanager
    def using(self):
        with self._lock:
            yield self.store

    def unpublished_for(self, at: float) -> float:
        """Seconds since this console first saw the change made at ``at`` unpublished, on its monotonic clock: a
        computer's clock set back (the change's ``at`` then ahead of it) never makes a service that stopped look
        healthy."""
        if self._unpublished[0] != at:
            self._unpublished = (at, time.monotonic())
        return time.monotonic() - self._unpublished[1]

    def made(self, change) -> list[tuple[float, str, dict]]:
        """The audit lines (time, action, detail) of ``change`` (a ``display.store.Pending`` on this file) as the log
        says it was made, at that action's time: none when it was not (see the module's docstring). Called holding the
        lock."""
        actions = self.store.actions()
        found = next((a for a in actions if a["seq"] > change.since and a["by"] == change.user
                      and a["kind"] in KINDS[change.action]), None)
        if found is None:
            return []
        t = self.store.tournament if found["seq"] == self.store.last_seq() else replay(actions[:actions.index(found) + 1])
        return [(found["at"], *x) for x in lines(change.action, change.detail, t)]

    def settle(self, console) -> None:
        """Make the audit lines of the changes to this file the console (``display.store.Store``) left pending, or drop
        those never made. Called holding the lock (:meth:`using`): no change of this console is being made."""
        for change in console.pending(self.file):
            console.settle(change, self.made(change))

    def exists(self) -> bool:
        with self._lock:
            return self.store.last_seq() > 0

    def close(self) -> None:
        self.store.close()


__all__ = ["KINDS", "AtTables", "EntryError", "Line", "Refusal", "TournamentError", "Tournaments", "at_tables", "entries_named", "entries_of", "lines", "read_form", "rows_of", "seating"]
