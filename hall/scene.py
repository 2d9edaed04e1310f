"""The physical table between the players and the camera: which cards lie face up in front of
each seat, and whether a hand is over them. The players (``hall player``) change it, the camera
(``hall camera``) and the hall's referee look at it. Every change is one JSON line appended to the
table's ``scene.jsonl``, so the camera sees every change in order (as a camera sees every moment),
also after a restart.

``at`` is the players' simulated time of the change; ``version`` goes up by one on every change;
``last`` holds each seat's latest cards put down (what the referee looks at).

>>> t = Table().laid("S", ["SA", "SA"], at=10.0)
>>> t.seats["S"], t.hand, t.version
(('SA', 'SA'), 'S', 1)
>>> t = t.withdrawn(at=10.4).cleared(at=12.0)
>>> t.seats["S"], t.hand, t.version
((), None, 3)
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from referee.seats import SEATS


@dataclass(frozen=True)
class Table:
    seats: dict[str, tuple[str, ...]] = field(default_factory=lambda: {s: () for s in SEATS})
    hand: str | None = None  # the seat whose hand is over its cards
    at: float = 0.0
    version: int = 0
    last: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def laid(self, seat: str, cards: list[str], at: float) -> Table:
        """``seat`` puts ``cards`` down (beside what it has there), its hand still over them."""
        seats = {**self.seats, seat: self.seats[seat] + tuple(cards)}
        return replace(self, seats=seats, hand=seat, at=at, version=self.version + 1,
                       last={**self.last, seat: tuple(cards)})

    def withdrawn(self, at: float) -> Table:
        return replace(self, hand=None, at=at, version=self.version + 1)

    def cleared(self, at: float, seats: tuple[str, ...] = SEATS) -> Table:
        """The cards in front of ``seats`` are picked up (a trick taken, cards shown taken back)."""
        if not any(self.seats[s] for s in seats) and self.hand is None:
            return self
        return replace(self, seats={s: () if s in seats else c for s, c in self.seats.items()}, hand=None,
                       at=at, version=self.version + 1)

    @property
    def empty(self) -> bool:
        return self.hand is None and not any(self.seats.values())

    def as_json(self) -> dict:
        return {"version": self.version, "at": self.at, "hand": self.hand,
                "seats": {s: list(c) for s, c in self.seats.items()}, "last": {s: list(c) for s, c in self.last.items()}}

    @staticmethod
    def of(d: dict) -> Table:
        return Table({s: tuple(d["seats"][s]) for s in SEATS}, d["hand"], float(d["at"]), int(d["version"]),
                     {s: tuple(c) for s, c in d["last"].items()})


def append(path: Path, table: Table) -> None:
    """One change, one line (flushed and synced: the camera may read it at once)."""
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(table.as_json(), ensure_ascii=False) + "\n")
        f.flush()
        os.fsync(f.fileno())


class Reader:
    """Follows a table's scene log: ``new()`` returns the changes appended since the last call
    (whole lines only)."""

    def __init__(self, path: Path):
        self.path = path
        self._offset = 0
        self._partial = b""

    def new(self) -> list[Table]:
        try:
            with open(self.path, "rb") as f:
                f.seek(self._offset)
                data = f.read()
        except FileNotFoundError:
            return []
        self._offset += len(data)
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()
        return [Table.of(json.loads(line)) for line in lines if line.strip()]


def latest(path: Path) -> Table | None:
    """The table as it is now (the log's last line), or None before the first change."""
    tables = Reader(path).new()
    return tables[-1] if tables else None
