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
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from referee.tournament import (
    Entry,
    EntryError,
    Tournament,
    TournamentError,
    TournamentStore,
)
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
    """Every entry of ``t`` as the hall knows it, by id: its lot number (None without a lot), name and unit."""
    return {e.id: {"lot": t.lot.index(e.id) + 1 if e.id in t.lot else None, "name": e.name, "unit": e.unit}
            for e in t.entries}


class Tournaments:
    """The tournament file the console runs (one tournament per file), one request at a time."""

    def __init__(self, path: Path, clock):
        self.store = TournamentStore(path, clock=clock)
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

    def exists(self) -> bool:
        with self._lock:
            return self.store.last_seq() > 0

    def close(self) -> None:
        self.store.close()


__all__ = ["AtTables", "EntryError", "Refusal", "TournamentError", "Tournaments", "at_tables", "entries_known", "entries_of", "read_form", "rows_of", "seating"]
