"""Entries from the registration forms (CSV or XLSX): one row per pair or per player.

Columns, by their English or Chinese header: ``unit`` (单位, 部门, 部门工会), ``team`` (队, 队名,
团体; default: the unit), ``pair`` (对, 配对; empty for individual events) and ``players`` (选手,
运动员, 姓名: several names in one cell split by 、 , ; / or spaces). Rows with the same unit, team
and pair are one entry (a form that lists each player on a row of its own). Entry ids are ``e01``,
``e02``, ... in the order of the form.

>>> rows = [{"unit": "机电学院", "team": "", "pair": "1", "players": "王芳、李强"},
...         {"unit": "机电学院", "team": "", "pair": "2", "players": "张伟"},
...         {"unit": "机电学院", "team": "", "pair": "2", "players": "刘洋"}]
>>> entries_of(rows)
(Entry(id='e01', name='王芳、李强', unit='机电学院', team='机电学院', players=('王芳', '李强')), Entry(id='e02', name='张伟、刘洋', unit='机电学院', team='机电学院', players=('张伟', '刘洋')))
>>> entries_of([{"unit": "", "players": "王芳"}])
Traceback (most recent call last):
...
referee.tournament.entries.EntryError: 第 1 行：单位为空
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from referee.catalogue import Refusal

HEADERS = {
    "unit": ("unit", "单位", "部门", "部门工会", "工会小组"),
    "team": ("team", "队", "队名", "团体", "队伍"),
    "pair": ("pair", "对", "配对", "组合"),
    "players": ("players", "player", "选手", "运动员", "姓名", "队员"),
}
_SPLIT = re.compile(r"[、,，;；/\s]+")


class EntryError(Refusal):
    """A registration form that cannot be read; nothing is created."""


@dataclass(frozen=True)
class Entry:
    """One pairing unit: a pair (pair-swiss, knockout) or a player (individual-tables)."""

    id: str
    name: str
    unit: str
    team: str
    players: tuple[str, ...]

    def as_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "unit": self.unit, "team": self.team, "players": list(self.players)}

    @staticmethod
    def of(d: dict) -> Entry:
        return Entry(d["id"], d["name"], d["unit"], d["team"], tuple(d["players"]))


def _column(header: str) -> str | None:
    h = header.strip().lower()
    return next((k for k, names in HEADERS.items() if h in names), None)


def entries_of(rows: list[dict]) -> tuple[Entry, ...]:
    """Entries from rows (dicts by column name ``unit team pair players``)."""
    groups: dict[tuple, list] = {}
    for n, row in enumerate(rows, 1):
        unit = str(row.get("unit") or "").strip()
        team = str(row.get("team") or "").strip() or unit
        pair = str(row.get("pair") or "").strip()
        players = [p for p in _SPLIT.split(str(row.get("players") or "").strip()) if p]
        if not unit:
            raise EntryError("row_no_unit", row=n)
        if not players:
            raise EntryError("row_no_players", row=n)
        key = (unit, team, pair) if pair else (unit, team, f"#{n}")
        groups.setdefault(key, [unit, team, []])[2].extend(players)
    if not groups:
        raise EntryError("form_no_entries")
    seen: dict[str, str] = {}
    entries = []
    for i, (unit, team, players) in enumerate(groups.values(), 1):
        for p in players:
            if p in seen:
                raise EntryError("registered_twice", player=p, first=seen[p], second=f"e{i:02d}")
            seen[p] = f"e{i:02d}"
        entries.append(Entry(f"e{i:02d}", "、".join(players), unit, team, tuple(players)))
    return tuple(entries)


def _rows(header: list, body: list[list]) -> list[dict]:
    columns = [_column(str(h or "")) for h in header]
    if "unit" not in columns or "players" not in columns:
        raise EntryError("form_header", header=header)
    return [{c: v for c, v in zip(columns, line) if c} for line in body if any(str(v or "").strip() for v in line)]


def load_entries(path: str | Path) -> tuple[Entry, ...]:
    """Entries from a CSV (UTF-8, with or without BOM) or XLSX registration form."""
    path = Path(path)
    if path.suffix.lower() not in (".csv", ".xlsx"):
        raise EntryError("form_suffix", path=path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise EntryError("form_unreadable", path=path, error=exc.strerror) from None
    return read_entries(str(path), data)


def read_entries(name: str, data: bytes) -> tuple[Entry, ...]:
    """Entries from the bytes of a form called ``name`` (its suffix says CSV or XLSX); the errors
    name the form by ``name`` only (an upload's own name: no path of the server's).

    >>> read_entries("报名表.xlsx", b"PK not a zip")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    referee.tournament.entries.EntryError: 报名表.xlsx：...
    """
    suffix = Path(name).suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise EntryError("form_suffix", path=name)
    try:
        if suffix == ".xlsx":
            from openpyxl import load_workbook

            sheet = load_workbook(io.BytesIO(data), read_only=True, data_only=True).worksheets[0]
            lines = [list(r) for r in sheet.iter_rows(values_only=True)]
        else:
            lines = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    except Exception as exc:  # noqa: BLE001 - a broken file raises zip, XML, openpyxl, csv and decoding errors alike
        raise EntryError("form_unreadable", path=name, error=exc) from None
    if not lines:
        raise EntryError("form_empty", path=name)
    return entries_of(_rows(lines[0], lines[1:]))
