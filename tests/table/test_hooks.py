"""A game's table overrides the hooks of every table (``referee.table.reducer.Reducer``, ``climbing.ClimbingTable``):
each override takes what the hook it replaces takes, so a call written against the hook (``_exposed`` with the
article it cites, e403973) works at every table, whatever its game."""

import inspect

from referee.table.climbing import ClimbingTable
from referee.table.guandan import GuandanTable
from referee.table.sandayi import SandayiTable
from referee.table.tractor import TractorTable


def _positional(f):
    """The parameters a call may give by position, and how many of them it must give."""
    ps = [p for p in inspect.signature(f).parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(ps), sum(p.default is p.empty for p in ps)


def test_every_override_of_a_tables_hook_takes_what_the_hook_takes():
    differ = []
    for cls in (TractorTable, ClimbingTable, GuandanTable, SandayiTable):
        for name, f in vars(cls).items():
            base = next((vars(b)[name] for b in cls.__mro__[1:] if name in vars(b)), None)
            if not inspect.isfunction(f) or not inspect.isfunction(base) or name.startswith("__"):
                continue
            (n, needed), (base_n, base_needed) = _positional(f), _positional(base)
            if n < base_n or needed > base_needed:
                differ.append(f"{cls.__name__}.{name}")
    assert differ == []
