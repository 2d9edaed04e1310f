"""The rulebooks: one TOML file each, read by the general engines.

Adding a rulebook is writing a file here (or one that ``extends`` another book and holds only what it changes);
``README.md`` documents every setting (its tables written from the
schema by :mod:`~referee.rulebooks.readme`). Each game's rulebook is a typed schema
(:mod:`~referee.rulebooks.tractor`, :mod:`~referee.rulebooks.guandan`, :mod:`~referee.rulebooks.sandayi`, on
:mod:`~referee.rulebooks.book`, what every book has, and :mod:`~referee.rulebooks.climbing`, what the climbing
games share; a seed's follow shapes as :mod:`~referee.rulebooks.shapes` reads them), checked when the file loads
(:mod:`~referee.rulebooks.settings`): a missing, unknown or wrong setting is a :class:`RulebookError` naming the
file, the key, the value and what is allowed, in words of the catalogue said in the reader's language
(:mod:`~referee.rulebooks.said`). ``cardtable rulebook show`` tells a book to the people who play by it
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
from referee.rulebooks.said import Said, SaidError, words_of
from referee.rulebooks.settings import SettingError, allowed, read, refused, show
from referee.rulebooks.tractor import TractorRulebook

HERE = Path(__file__).parent
#: Each game's schema, by the ``game`` its file names.
SCHEMAS: dict[str, type[Book]] = {"tractor": TractorRulebook, "guandan": GuandanRulebook, "sandayi": SandayiRulebook}


NESTING_MOST = 16  # arrays and tables within each other in a rulebook file (the books have at most 5)


class RulebookError(SaidError):
    """An unknown rulebook, or a rulebook file with a missing, unknown or wrong setting: ``str()`` in English,
    ``text(lang)`` in the reader's language."""


def _error(key: str, **values: Any) -> RulebookError:
    return RulebookError(Said(f"rulebook.error.{key}", **values))


def build(raw: dict[str, Any], file: str) -> TractorRulebook | GuandanRulebook | SandayiRulebook:
    """The rulebook a TOML file holds (``raw``, as ``tomllib`` reads it); :class:`RulebookError`
    naming ``file`` and the setting when one is missing, unknown or wrong."""
    schema = SCHEMAS.get(raw.get("game"))
    try:
        if schema is None:
            raise SettingError(refused("game", raw.get("game"), allowed(Literal[tuple(SCHEMAS)])))
        book = read(schema, raw)
        if Path(file).stem != book.id:
            raise SettingError(refused("id", book.id, Said("rulebook.allowed.file_name", name=show(Path(file).stem))))
    except SettingError as exc:
        raise _error("in_file", file=file, error=words_of(exc)) from None
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
        raise _error("unknown", rulebook=repr(rulebook_id), known=", ".join(known))
    with path.open("rb") as f:
        try:
            raw = tomllib.load(f)
        except tomllib.TOMLDecodeError as exc:
            raise _error("not_toml", file=path, error=exc) from None
        except RecursionError:  # arrays or tables nested thousands deep: tomllib reads them by recursion
            raw = None
    if raw is None or _nesting(raw) > NESTING_MOST:
        raise _error("nested", file=path, most=NESTING_MOST)
    base = raw.pop("extends", None)
    if base is None:
        return raw
    if not isinstance(base, str) or base in (rulebook_id, *extended):
        raise _error("in_file", file=path, error=refused("extends", base, Said("rulebook.allowed.extends")))
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
