"""The rulebooks: one TOML file each, read by the general engines.

Adding a rulebook is writing a file here (or one that ``extends`` another book and holds only what it changes);
``README.md`` documents every setting (its tables written from the
schema by :mod:`~referee.rulebooks.readme`). Each game's rulebook is a typed schema
(:mod:`~referee.rulebooks.tractor`, :mod:`~referee.rulebooks.guandan`, :mod:`~referee.rulebooks.sandayi`, on
:mod:`~referee.rulebooks.book`, what every book has, and :mod:`~referee.rulebooks.climbing`, what the climbing
games share; a seed's follow shapes as :mod:`~referee.rulebooks.shapes` reads them), checked when the file loads
(:mod:`~referee.rulebooks.settings`): a missing, unknown or wrong setting is a :class:`RulebookError` naming the
file, the key, the value and what is allowed. ``cardtable rulebook show`` tells a book to the people who play by it
(:mod:`~referee.rulebooks.told`: each setting's value, meaning and the note beside it in the file, which
:mod:`~referee.rulebooks.notes` reads: the seed article it cites).

>>> sorted(names("guandan")), sorted(names("sandayi"))
(['sanjiang-2012', 'sanjiang-2012-stage-two'], ['usst-2016'])
>>> sorted(names("tractor"))
['classic-3deck', 'shaoguan-2023', 'shaoguan-2023-nokitty', 'zhongkai-2010']
>>> load("classic-3deck").deal.decks, load("usst-2016").bidding.bids
(3, (1, 2, 3))
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Literal

from referee.rulebooks.book import Book
from referee.rulebooks.climbing import ClimbingRulebook
from referee.rulebooks.guandan import GuandanRulebook
from referee.rulebooks.sandayi import SandayiRulebook
from referee.rulebooks.settings import SettingError, describe, read, show
from referee.rulebooks.tractor import TractorRulebook

HERE = Path(__file__).parent
#: Each game's schema, by the ``game`` its file names.
SCHEMAS: dict[str, type[Book]] = {"tractor": TractorRulebook, "guandan": GuandanRulebook, "sandayi": SandayiRulebook}


NESTING_MOST = 16  # arrays and tables within each other in a rulebook file (the books have at most 5)


class RulebookError(ValueError):
    """An unknown rulebook, or a rulebook file with a missing, unknown or wrong setting."""


def build(raw: dict[str, Any], file: str) -> TractorRulebook | GuandanRulebook | SandayiRulebook:
    """The rulebook a TOML file holds (``raw``, as ``tomllib`` reads it); :class:`RulebookError`
    naming ``file`` and the setting when one is missing, unknown or wrong."""
    schema = SCHEMAS.get(raw.get("game"))
    try:
        if schema is None:
            raise SettingError(f"game = {show(raw.get('game'))}: allowed {describe(Literal[tuple(SCHEMAS)])}")
        book = read(schema, raw)
        if Path(file).stem != book.id:
            raise SettingError(f"id = {show(book.id)}: allowed {show(Path(file).stem)}, the file's name")
    except SettingError as exc:
        raise RulebookError(f"{file}: {exc}") from None
    return book


def names(game: str | None = None) -> list[str]:
    """The ids of the rulebooks on disk, optionally of one game."""
    found = []
    for path in HERE.glob("*.toml"):
        try:
            book_game = settings_of(path.stem).get("game")
        except RulebookError:
            book_game = None  # a broken file is a known name all the same: loading it says what is wrong
        if game is None or book_game == game:
            found.append(path.stem)
    return found


def settings_of(rulebook_id: str, extended: tuple[str, ...] = (), folder: Path | None = None) -> dict[str, Any]:
    """The settings of ``<rulebook_id>.toml`` as ``tomllib`` reads them; a file that ``extends`` another book holds
    only what it changes: its settings laid over that book's, table by table (a value it names replaces the book's,
    a table it names is merged key by key).

    >>> s = settings_of("sanjiang-2012-stage-two")
    >>> s["id"], s["game"], s["match"]["stage"], s["match"]["minutes"], "extends" in s
    ('sanjiang-2012-stage-two', 'guandan', 'two', 60, False)
    """
    folder = folder or HERE
    path = folder / f"{rulebook_id}.toml"
    if not rulebook_id or "/" in rulebook_id or not path.is_file():
        known = sorted(p.stem for p in folder.glob("*.toml"))
        raise RulebookError(f"unknown rulebook {rulebook_id!r}; known: {', '.join(known)}")
    with path.open("rb") as f:
        try:
            raw = tomllib.load(f)
        except tomllib.TOMLDecodeError as exc:
            raise RulebookError(f"{path}: not TOML: {exc}") from None
        except RecursionError:  # arrays or tables nested thousands deep: tomllib reads them by recursion
            raw = None
    if raw is None or _nesting(raw) > NESTING_MOST:
        raise RulebookError(f"{path}: not a rulebook: arrays or tables nested more than {NESTING_MOST} deep")
    base = raw.pop("extends", None)
    if base is None:
        return raw
    if not isinstance(base, str) or base in (rulebook_id, *extended):
        raise RulebookError(f"{path}: extends = {show(base)}: allowed the id of another rulebook that does not extend this one")
    return _laid_over(settings_of(base, (*extended, rulebook_id), home(base, folder)), raw)


def home(rulebook_id: str, folder: Path | None) -> Path:
    """The folder a book ``extends`` is read from: ``folder`` where it holds it, else the rulebooks' own where they
    do (a venue's book being written in a folder of its own extends a shipped one: ``rulebook show FILE.toml``), else
    ``folder`` (unknown there, and said so)."""
    folder = folder or HERE
    shipped = not (folder / f"{rulebook_id}.toml").is_file() and (HERE / f"{rulebook_id}.toml").is_file()
    return HERE if shipped else folder


def _nesting(value: Any) -> int:
    """How deep arrays and tables are nested in ``value`` (counted without recursion: a file may nest thousands).

    >>> _nesting({"a": 1}), _nesting({"a": [[1], {"b": 2}]})
    (1, 3)
    """
    most, todo = 0, [(value, 0)]
    while todo:
        item, depth = todo.pop()
        inner = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if inner is not None:
            most = max(most, depth + 1)
            todo += [(x, depth + 1) for x in inner]
    return most


def _laid_over(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        out[key] = _laid_over(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return out


@cache
def load(rulebook_id: str) -> TractorRulebook | GuandanRulebook | SandayiRulebook:
    """Read ``<rulebook_id>.toml`` (and the book it ``extends``); raise :class:`RulebookError` when it is unknown
    or broken."""
    return build(settings_of(rulebook_id), str(HERE / f"{rulebook_id}.toml"))


__all__ = ["HERE", "SCHEMAS", "Book", "ClimbingRulebook", "GuandanRulebook", "RulebookError", "SandayiRulebook",
           "TractorRulebook", "build", "load", "names", "settings_of"]
