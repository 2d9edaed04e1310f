"""Every game's table, by its rulebook: :func:`new_table` is the empty table of a rulebook's game.

>>> [type(new_table("t1", book)).__name__ for book in ("classic-3deck", "sanjiang-2012", "usst-2016")]
['TractorTable', 'GuandanTable', 'SandayiTable']
"""

from __future__ import annotations

from referee.rulebooks import load
from referee.table.guandan import GuandanTable
from referee.table.reducer import Reducer
from referee.table.sandayi import SandayiTable
from referee.table.tractor import TractorTable

TABLES: dict[str, type[Reducer]] = {"tractor": TractorTable, "guandan": GuandanTable, "sandayi": SandayiTable}


def new_table(table: str, rulebook: str) -> Reducer:
    """The empty table for ``rulebook``: the reducer of its game (Tractor, Guandan, San Da Yi)."""
    return TABLES[load(rulebook).game](table, rulebook)


__all__ = ["TABLES", "new_table"]
