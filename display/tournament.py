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
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path

from referee.tournament import (
    Entry,
    EntryError,
    TournamentError,
    TournamentStore,
)
from referee.tournament.entries import entries_of, read_entries
from referee.catalogue import Refusal


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


class Tournaments:
    """The tournament file the console runs (one tournament per file), one request at a time."""

    def __init__(self, path: Path, clock):
        self.store = TournamentStore(path, clock=clock)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Tournaments({str(self.store.path)!r})"

    @contextmanager
    def using(self):
        with self._lock:
            yield self.store

    def exists(self) -> bool:
        with self._lock:
            return self.store.last_seq() > 0

    def close(self) -> None:
        self.store.close()


__all__ = ["EntryError", "Refusal", "TournamentError", "Tournaments", "entries_of", "read_form", "rows_of", "seating"]
