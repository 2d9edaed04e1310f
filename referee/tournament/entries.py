"""Entries from the registration forms (CSV or XLSX): one row per pair or per player.

Columns, by their English or Chinese header: ``unit`` (单位, 部门, 部门工会), ``team`` (队, 队名,
团体; default: the unit), ``pair`` (对, 配对; empty for individual events) and ``players`` (选手,
运动员, 姓名: several names in one cell split by 、 , ; / or line breaks). The header is the first
row naming the unit and players columns (a title row above it is skipped). Rows with the same
unit, team and pair are one entry (a form that lists each player on a row of its own). Entry ids
are ``e01``, ``e02``, ... in the order of the form; each entry keeps the rows it was read from,
numbered as the sheet numbers them, so that a refusal names the row to mend.

Names as people type them: spaces around a name, and spaces that align a name (王　芳, 王 芳), are
no part of it; whole names set apart by spaces are several names (王芳 李强), as before; a single
character standing beside a name (王 芳芳) could be either and is refused. Two staff of the same
name are allowed in different units (the unit tells them apart), not in one unit.

>>> rows = [{"row": 2, "unit": "机电学院", "team": "", "pair": "1", "players": "王　芳、李强"},
...         {"row": 3, "unit": "机电学院", "team": "", "pair": "2", "players": " 张伟 "},
...         {"row": 4, "unit": "机电 学院", "team": "", "pair": "2", "players": "刘洋"}]
>>> entries_of(rows)
(Entry(id='e01', name='王芳、李强', unit='机电学院', team='机电学院', players=('王芳', '李强'), rows=(2,)), Entry(id='e02', name='张伟、刘洋', unit='机电学院', team='机电学院', players=('张伟', '刘洋'), rows=(3, 4)))
>>> entries_of([{"row": 5, "unit": "", "players": "王芳"}])
Traceback (most recent call last):
...
referee.tournament.entries.EntryError: 第 5 行：单位为空
>>> names_in("王芳 李强 / 欧 阳 娜 娜")
['王芳', '李强', '欧阳娜娜']
"""

from __future__ import annotations

import csv
import errno
import io
import re
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

from referee.catalogue import Refusal, Term

HEADERS = {
    "unit": ("unit", "单位", "部门", "部门工会", "工会小组"),
    "team": ("team", "队", "队名", "团体", "队伍"),
    "pair": ("pair", "对", "配对", "组合"),
    "players": ("players", "player", "选手", "运动员", "姓名", "队员"),
}
_SPLIT = re.compile(r"[、,，;；/／\r\n]+")
_CJK = r"\u2e80-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # a terminal's escapes, bells, ...: never part of a name (nor of what is printed)
NAME_MOST = 64  # characters of a name, a unit or a team (the bus's names: a table's assign refuses longer)
_CJK_GAP = re.compile(rf"(?<=[{_CJK}])\s+(?=[{_CJK}])")  # spaces that align a name: 王　芳
SHEET_FIRST_ROW = 1  # the sheets number their rows from 1 (the header's row)
FORM_ROWS = 2000  # the rows of an .xlsx form read (a form has a few hundred)
FORM_COLUMNS = 32  # and its columns
FORM_UNZIPPED = 8 * 1024 * 1024  # bytes of an .xlsx's parts unpacked (a form of 2,000 rows is under 2 MiB)
MERGE_CELL_TAG = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}mergeCell"


class EntryError(Refusal):
    """A registration form that cannot be read; nothing is created."""


@dataclass(frozen=True)
class Entry:
    """One pairing unit: a pair (pair-swiss, knockout) or a player (individual-tables), of a team
    of a unit; ``rows``: the form's rows it was read from (none when made otherwise)."""

    id: str
    name: str
    unit: str
    team: str
    players: tuple[str, ...]
    rows: tuple[int, ...] = ()

    @property
    def team_id(self) -> str:
        """The team is its unit and its name: the unit alone when the team is named after it.

        >>> Entry("e01", "", "机电学院", "一队", ()).team_id, Entry("e02", "", "机电学院", "机电学院", ()).team_id
        ('机电学院·一队', '机电学院')
        """
        return self.unit if self.team == self.unit else f"{self.unit}·{self.team}"

    def as_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "unit": self.unit, "team": self.team, "players": list(self.players),
                "rows": list(self.rows)}

    @staticmethod
    def of(d: dict) -> Entry:
        return Entry(d["id"], d["name"], d["unit"], d["team"], tuple(d["players"]), tuple(d.get("rows", ())))


def plain(text: object) -> str:
    """A cell as one name: no spaces around it, none between Chinese characters, one between words.

    >>> plain(" 机电　学院 "), plain("Dept.  of\\u00a0Maths"), plain(None)
    ('机电学院', 'Dept. of Maths', '')
    """
    return " ".join(_CJK_GAP.sub("", str(text if text is not None else "")).split())


def names_in(cell: object, row: int = 0) -> list[str]:
    """The names in a players cell: split by 、 , ; / or line breaks; within a part, spaced-out
    characters are one name and whole words several (see the module's note)."""
    names = []
    for part in _SPLIT.split(str(cell if cell is not None else "")):
        words = part.split()
        i = 0
        while i < len(words):
            j = i + 1
            if len(words[i]) == 1:
                while j < len(words) and len(words[j]) == 1:
                    j += 1
                if j - i == 1 and len(words) > 1:
                    raise EntryError("names_unclear", row=row, cell=part.strip())
            names.append("".join(words[i:j]) if len(words[i]) == 1 else words[i])
            i = j
    return names


def invisible(text: str) -> bool:
    """Whether ``text`` holds a Unicode format character (category Cf: a zero-width space, a right-to-left override):
    a name that reads as another (``王芳`` and ``王芳\u200b``) on the tables, the sheets and the audit log.

    >>> invisible("王芳"), invisible("王芳\u200b"), invisible("a\u202eb")
    (False, True, True)
    """
    return any(unicodedata.category(c) == "Cf" for c in text)


def unreadable(text: str) -> str | None:
    """What in ``text`` a reader would not see as written, the one check of every text a person reads (a name, a
    tournament's name, a reason, a file's name): ``"control"`` (a control character: a line break, a bell, a terminal's
    escape), ``"invisible"`` (a format character, :func:`invisible`: a zero-width space, a right-to-left override that
    reverses the words around it on the big screen), else None.

    >>> unreadable("秋季赛"), unreadable("秋\x1b[31m季"), unreadable("秋\u202e季")
    (None, 'control', 'invisible')
    """
    return "control" if CONTROL.search(text) else "invisible" if invisible(text) else None


class TextError(EntryError):
    """A text that a reader would not see as written (:func:`readable`); nothing changes."""


def readable(text: str, what: str, most: int | None = None) -> str:
    """``text`` when :func:`unreadable` finds nothing in it and it is at most ``most`` characters long, else refused in
    words: ``refusal.text_control``, ``text_invisible`` or ``text_long``, ``what`` the field (the catalogue's
    ``text.*``: ``name``, ``reason``, ``user``...).

    >>> readable("秋季赛", "name")
    '秋季赛'
    >>> readable("秋\u202e季", "name")
    Traceback (most recent call last):
    ...
    referee.tournament.entries.TextError: 赛事名称“秋\\u202e季”含有看不见的格式字符（例如零宽空格、从右到左改写），会打乱它前后的文字，什么也没有改动；请删去后再试
    """
    kind, shown = unreadable(text), repr(text)[1:-1][:80]
    if most is not None and len(text) > most:
        raise TextError("text_long", what=Term(f"text.{what}"), n=len(text), most=most)
    if kind == "control":
        raise TextError("text_control", what=Term(f"text.{what}"), text=shown)
    if kind == "invisible":
        raise TextError("text_invisible", what=Term(f"text.{what}"), text=shown)
    return text


def _fit(text: str, row: int) -> None:
    """Refuse a name, unit or team that a table or the console could not take: over ``NAME_MOST`` characters, with
    a control character (a form's cell may hold a terminal's escape, printed as it came by every command), or with an
    invisible format character (:func:`invisible`).

    >>> _fit("王芳", 3)
    >>> _fit("王\x1b[2J芳", 3)
    Traceback (most recent call last):
    ...
    referee.tournament.entries.EntryError: 第 3 行：“王\\x1b[2J芳”含有控制字符（例如换页、响铃、终端转义），请删去后再导入
    >>> _fit("王芳\u200b", 4)
    Traceback (most recent call last):
    ...
    referee.tournament.entries.EntryError: 第 4 行：“王芳\\u200b”含有看不见的格式字符（例如零宽空格、从右到左标记），会与别的名字看起来一样，请删去后再导入
    """
    if CONTROL.search(text):
        raise EntryError("cell_control", row=row, cell=repr(text)[1:-1])
    if invisible(text):
        raise EntryError("cell_invisible", row=row, cell=repr(text)[1:-1])
    if len(text) > NAME_MOST:
        raise EntryError("cell_long", row=row, cell=text[:20] + "…", n=len(text), most=NAME_MOST)


def _column(header: str) -> str | None:
    h = plain(header).lower()
    return next((k for k, names in HEADERS.items() if h in names), None)


def where(entry: Entry) -> EntryError:
    """Where an entry is on the form, to name it in a refusal: its rows, else its id.

    >>> e = Entry("e03", "王芳", "机电学院", "机电学院", ("王芳",), (4, 5))
    >>> where(e).text("zh"), where(e).text("en"), where(Entry("e03", "王芳", "机电学院", "机电学院", ("王芳",))).text("en")
    ('第 4、5 行（e03）', 'row 4, 5 (e03)', 'entry e03 (机电学院)')
    """
    if entry.rows:
        return EntryError("at_rows", rows=list(entry.rows), entry=entry.id)
    return EntryError("at_entry", entry=entry.id, unit=entry.unit)


def entries_of(rows: list[dict]) -> tuple[Entry, ...]:
    """Entries from rows (dicts by column name ``unit team pair players``, and ``row``: its number
    on the sheet, or ``rows``: those of the entry it stands for; rows without either are numbered
    1, 2, ... as listed)."""
    groups: dict[tuple, list] = {}
    for n, row in enumerate(rows, 1):
        n = row.get("row", n)
        unit = plain(row.get("unit"))
        team = plain(row.get("team")) or unit
        pair = plain(row.get("pair"))
        players = names_in(row.get("players"), n)
        if not unit:
            raise EntryError("row_no_unit", row=n)
        if not players:
            raise EntryError("row_no_players", row=n)
        for text in (unit, team, pair, *players):
            _fit(text, n)
        key = (unit, team, pair) if pair else (unit, team, f"#{n}")
        group = groups.setdefault(key, [unit, team, [], []])
        group[2].extend((p, n) for p in players)
        group[3].extend(row.get("rows") or [n])  # a row that stands for an entry read before keeps its rows
    if not groups:
        raise EntryError("form_no_entries")
    seen: dict[tuple[str, str], int] = {}
    teams: dict[str, tuple[str, str]] = {}
    entries = []
    for i, (unit, team, players, lines) in enumerate(groups.values(), 1):
        for p, n in players:
            if (unit, p) in seen:  # the same name in two units is two people
                if seen[unit, p] == n:  # twice in one cell: "rows 2 and 2" said nothing
                    raise EntryError("registered_twice_in_row", player=p, unit=unit, row=n)
                raise EntryError("registered_twice", player=p, unit=unit, first=seen[unit, p], second=n)
            seen[unit, p] = n
        entry = Entry(f"e{i:02d}", "、".join(p for p, _ in players), unit, team, tuple(p for p, _ in players),
                      tuple(sorted(set(lines))))
        if teams.setdefault(entry.team_id, (unit, team)) != (unit, team):
            raise EntryError("team_names_clash", team=entry.team_id, row=lines[0])
        entries.append(entry)
    return tuple(entries)


def _header_at(lines: list[list]) -> int | None:
    """The header's index: the first row naming the unit and players columns."""
    for h, line in enumerate(lines):
        columns = {_column(str(c or "")) for c in line}
        if {"unit", "players"} <= columns:
            return h
    return None


def _rows(lines: list[list]) -> list[dict]:
    """The rows under the header (a title row above it skipped), each with its sheet row number;
    blank rows skipped."""
    h = _header_at(lines)
    if h is None:
        raise EntryError("form_header", header=lines[0])
    columns = [_column(str(c or "")) for c in lines[h]]
    return [{c: v for c, v in zip(columns, line) if c} | {"row": n}
            for n, line in enumerate(lines[h + 1 :], h + 1 + SHEET_FIRST_ROW) if any(plain(v) for v in line)]


def load_entries(path: str | Path) -> tuple[Entry, ...]:
    """Entries from a CSV (UTF-8 with or without BOM, or GBK as Excel saves it on Chinese Windows) or
    XLSX registration form."""
    path = Path(path)
    if path.suffix.lower() not in (".csv", ".xlsx"):
        raise EntryError("form_suffix", path=path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise EntryError("form_missing", path=path) from None
    except OSError as exc:  # its words are English only: its code (EACCES) reads in either language
        raise EntryError("form_unreadable", path=path, code=errno.errorcode.get(exc.errno or 0, "EIO")) from None
    return read_entries(str(path), data)


def text_of(name: str, data: bytes) -> str:
    """A CSV's text: UTF-8 (a BOM or not), else GB18030 (GBK's superset: Excel's "CSV" on Chinese
    Windows) when the bytes are that; else refused with the advice to save as UTF-8.

    >>> text_of("a.csv", "单位,选手".encode("gbk")), text_of("a.csv", "\\ufeff单位".encode())
    ('单位,选手', '单位')
    >>> text_of("a.csv", b"\\xff\\xfe\\x55\\x53")
    Traceback (most recent call last):
    ...
    referee.tournament.entries.EntryError: a.csv：不是 `UTF-8` 或 `GBK` 编码的文本；请在 `Excel` 中“另存为”“`CSV UTF-8`（逗号分隔）”
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        raise EntryError("form_encoding", path=name) from None
    try:
        header = _header_at(list(csv.reader(io.StringIO(text))))
    except csv.Error:
        header = None
    if header is None:  # it decodes, but no column name reads right
        raise EntryError("form_encoding", path=name)
    return text


def _xlsx_lines(name: str, data: bytes) -> list[list]:
    """The first sheet's rows as the sheet shows them: a merged cell's value in every cell it covers. Read as a
    stream, cell by cell (openpyxl's cell reader), each cell let go once read: a few KB
    zipped can hold millions of cells, which a full load holds all at once (hundreds of MB, tens of seconds). A
    value past ``FORM_ROWS`` rows or ``FORM_COLUMNS`` columns, and parts over ``FORM_UNZIPPED`` bytes unpacked, are
    refused in words; a merged range is cut to those bounds."""
    from openpyxl.reader.excel import ExcelReader
    from openpyxl.styles.stylesheet import apply_stylesheet
    from openpyxl.worksheet._reader import CELL_TAG, ROW_TAG, WorkSheetParser
    from openpyxl.worksheet.cell_range import CellRange
    from openpyxl.xml.functions import iterparse

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        if sum(i.file_size for i in z.infolist()) > FORM_UNZIPPED:  # what the zip says: no part reads past it
            raise EntryError("form_unzipped", path=name, mib=FORM_UNZIPPED >> 20)
    book = ExcelReader(io.BytesIO(data), read_only=True, data_only=True)  # its parts, not load_workbook: that reads
    try:  # every sheet whole once already, for its size
        book.read_manifest()
        book.read_strings()
        book.read_workbook()
        apply_stylesheet(book.archive, book.wb)  # which numbers are dates
        part = next((r.target for _, r in book.parser.find_sheets() if r.Type.endswith("/worksheet") and r.target in book.valid_files), None)
        if part is None:
            raise EntryError("form_empty", path=name)
        reader = WorkSheetParser(None, book.shared_strings, data_only=True, epoch=book.wb.epoch,
                                 date_formats=book.wb._date_formats, timedelta_formats=book.wb._timedelta_formats)
        values, merged, path, cell = {}, [], [], None
        with book.archive.open(part) as source:
            for event, el in iterparse(source, events=("start", "end")):
                if event == "start":
                    path.append(el)
                    if el.tag == ROW_TAG:
                        r = el.get("r")
                        reader.row_counter, reader.col_counter = int(float(r)) if r else reader.row_counter + 1, 0
                    cell = el if el.tag == CELL_TAG else cell
                    continue
                path.pop()
                if el.tag == CELL_TAG:
                    _keep(name, values, reader.parse_cell(el))
                    cell = None
                elif el.tag == MERGE_CELL_TAG:
                    merged.append(CellRange(el.get("ref")))
                if cell is None and path:
                    path[-1].remove(el)  # read: let go (a cell's value and text stay until the cell is read)
    finally:
        book.archive.close()
    return _spread(name, values, merged)


def _keep(name: str, values: dict, cell: dict) -> None:
    if cell["value"] is None:
        return
    if cell["row"] > FORM_ROWS or cell["column"] > FORM_COLUMNS:
        raise EntryError("form_bounds", path=name, row=cell["row"], column=cell["column"], rows=FORM_ROWS, columns=FORM_COLUMNS)
    values[cell["row"], cell["column"]] = cell["value"]


def _spread(name: str, values: dict, merged: list) -> list[list]:
    """The rows from row 1, a merged range's value in each cell it covers (within the bounds); merged ranges that
    cover more than the whole sheet overlap, which no spreadsheet makes: refused."""
    spread = {}
    for m in merged:
        value = values.get((m.min_row, m.min_col))
        if value is None:
            continue
        cells = [(r, c) for r in range(m.min_row, min(m.max_row, FORM_ROWS) + 1)
                 for c in range(m.min_col, min(m.max_col, FORM_COLUMNS) + 1)]
        if len(spread) + len(cells) > FORM_ROWS * FORM_COLUMNS:
            raise EntryError("form_merged", path=name)
        spread.update(dict.fromkeys(cells, value))
    values = values | spread
    height, width = (max((k[i] for k in values), default=0) for i in (0, 1))
    return [[values.get((r, c)) for c in range(1, width + 1)] for r in range(1, height + 1)]


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
    text = text_of(name, data) if suffix == ".csv" else None
    try:
        lines = _xlsx_lines(name, data) if text is None else list(csv.reader(io.StringIO(text)))
    except EntryError:
        raise
    except Exception:  # noqa: BLE001 - a broken file raises zip, XML, openpyxl and csv errors alike, in English
        raise EntryError("form_broken", path=name) from None
    if not lines:
        raise EntryError("form_empty", path=name)
    return entries_of(_rows(lines))
