"""A rulebook told to the people who play by it (``cardtable rulebook show``): every setting of a book, table by table
as its file has them, with its value in words, what it means (the schema's own words, as README.md's tables have
them, :func:`~referee.rulebooks.settings.meaning`) and its note (the seed article it cites,
:mod:`~referee.rulebooks.notes`). A setting the file leaves out is told with the value it then has.

>>> from referee.rulebooks import load
>>> lead = next(s for t in told(load("classic-3deck"), "en") if t.name == "clock" for s in t.settings if s.key == "lead_s")
>>> lead.value, lead.meaning, lead.note[:3]
('15 s', 'a play that leads a trick; left out: `play_s`', '二十三')
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args, get_origin

from referee.catalogue import fill, speaks, word
from referee.rulebooks.book import Book
from referee.rulebooks.notes import Key, notes
from referee.rulebooks.settings import default, fields, meaning


@dataclass(frozen=True)
class Setting:
    """One setting (or one entry of a table of entries): its key, its value in words ("" for a table of entries,
    told by ``entries``), what it means, its note ("" for none)."""

    key: str
    value: str
    meaning: str
    note: str
    entries: tuple[Setting, ...] = ()


@dataclass(frozen=True)
class Table:
    """A table of the file (``clock``; "" for the book's own settings, above its first table) and its settings; a
    table of entries (``penalties``, ``clock.articles``) says what it means and its note too."""

    name: str
    settings: tuple[Setting, ...]
    meaning: str = ""
    note: str = ""


def told(book: Book, lang: str, folder: Path | None = None) -> tuple[Table, ...]:
    """Every setting of ``book`` (its file in ``folder``, else the rulebooks') told in ``lang``."""
    from referee.rulebooks import settings_of

    raw = settings_of(book.id, folder=folder)
    order = list(raw)  # the tables in the file's order (one it leaves out after those it has)
    tables = _tables(type(book), raw, (), notes(book.id, folder), lang)
    return tuple(sorted(tables, key=lambda t: -1 if not t.name else order.index(t.name.split(".")[0])
                        if t.name.split(".")[0] in order else len(order)))


def _section(t: Any) -> bool:
    return dataclasses.is_dataclass(t) and not hasattr(t, "parse")


def _tables(section: type, raw: Mapping[str, Any], path: Key, found: Mapping[Key, str], lang: str) -> list[Table]:
    here, below = [], []
    for key, _, t, f in fields(section):
        if _section(t):
            below += _tables(t, raw.get(key, {}), (*path, key), found, lang)
            continue
        value, note = raw[key] if key in raw else default(f), found.get((*path, key), "")
        if get_origin(t) is Mapping:
            entries = _entries(get_args(t)[1], value, (*path, key), found, lang)
            below.append(Table(".".join((*path, key)), entries, meaning(section, key, lang), note))
            continue
        words = said(value, key, lang)
        if key not in raw:
            words = fill(lang, "rulebook.left_out", {"value": words})
        here.append(Setting(key, words, meaning(section, key, lang), note))
    return [Table(".".join(path), tuple(here)), *below] if here else below


def _entries(kind: Any, table: Mapping[str, Any], path: Key, found: Mapping[Key, str], lang: str) -> tuple[Setting, ...]:
    """A table of entries (penalties, articles): each told with its note; an entry that is a section (a penalty
    entry, a stage) by the settings the file gives it, each with what it means."""
    out = []
    for name, value in table.items():
        inner = tuple(Setting(k, said(v, k, lang), meaning(kind, k, lang), found.get((*path, name, k), ""))
                      for k, v in value.items()) if _section(kind) else ()
        out.append(Setting(str(name), "" if inner else said(value, str(name), lang), "", found.get((*path, str(name)), ""), inner))
    return tuple(out)


def said(value: Any, key: str, lang: str) -> str:
    """A value in words: yes or no, a number (seconds where its key ends ``_s``, ``inf`` as no limit), a code word
    in backticks in Chinese (``penalty``), a list and a table item by item.

    >>> said(True, "throws", "zh"), said(15.0, "lead_s", "zh"), said([[5, "late_5_min"], [math.inf, "x"]], "b", "en")
    ('是', '15 秒', '[[5, late_5_min], [no limit, x]]')
    """
    if value is None:
        return word(lang, "word.none")
    if isinstance(value, bool):
        return word(lang, f"rulebook.{'yes' if value else 'no'}")
    if isinstance(value, (int, float)):
        if math.isinf(value):
            return word(lang, "rulebook.unlimited")
        number = f"{value:g}" if isinstance(value, float) else str(value)
        return fill(lang, "word.secs", {"s": number}) if key.endswith("_s") else number
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(said(v, "", lang) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {said(v, str(k), lang)}" for k, v in value.items()) + "}"
    text = str(value)
    return f"`{text}`" if lang == "zh" and text and not speaks(text, "zh") else text


__all__ = ["Setting", "Table", "said", "told"]
