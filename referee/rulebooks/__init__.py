"""The rulebooks: one TOML file each, read by the general engines.

Adding a rulebook is writing a file here; ``README.md`` documents every setting (its tables written from the
schema by :mod:`~referee.rulebooks.readme`). Each game's rulebook is a typed schema
(:mod:`~referee.rulebooks.tractor`, :mod:`~referee.rulebooks.guandan`, :mod:`~referee.rulebooks.sandayi`, on
:mod:`~referee.rulebooks.book`, what every book has, and :mod:`~referee.rulebooks.climbing`, what the climbing
games share; a seed's follow shapes as :mod:`~referee.rulebooks.shapes` reads them), checked when the file loads
(:mod:`~referee.rulebooks.settings`): a missing, unknown or wrong setting is a :class:`RulebookError` naming the
file, the key, the value and what is allowed.

>>> sorted(names("guandan")), sorted(names("sandayi"))
(['sanjiang-2012'], ['usst-2016'])
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
        with path.open("rb") as f:
            if game is None or tomllib.load(f).get("game") == game:
                found.append(path.stem)
    return found


@cache
def load(rulebook_id: str) -> TractorRulebook | GuandanRulebook | SandayiRulebook:
    """Read ``<rulebook_id>.toml``; raise :class:`RulebookError` when it is unknown or broken."""
    path = HERE / f"{rulebook_id}.toml"
    if not rulebook_id or "/" in rulebook_id or not path.is_file():
        raise RulebookError(f"unknown rulebook {rulebook_id!r}; known: {', '.join(sorted(names()))}")
    with path.open("rb") as f:
        try:
            raw = tomllib.load(f)
        except tomllib.TOMLDecodeError as exc:
            raise RulebookError(f"{path}: not TOML: {exc}") from None
    return build(raw, str(path))


__all__ = ["HERE", "SCHEMAS", "Book", "ClimbingRulebook", "GuandanRulebook", "RulebookError", "SandayiRulebook",
           "TractorRulebook", "build", "load", "names"]
