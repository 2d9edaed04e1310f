"""The three competition systems of the seeds, by name.

>>> sorted(SYSTEMS)
['individual-tables', 'knockout-best-of-three', 'pair-swiss']
>>> system("pair-swiss").defaults["points"]
[2, 1, 0]
"""

from __future__ import annotations

from referee.tournament.base import System
from referee.tournament.core import TournamentError
from referee.tournament.individual import IndividualTables
from referee.tournament.knockout import Knockout
from referee.tournament.pairswiss import PairSwiss

SYSTEMS: dict[str, System] = {s.name: s for s in (PairSwiss(), Knockout(), IndividualTables())}


def system(name: str) -> System:
    if name not in SYSTEMS:
        raise TournamentError("unknown_system", system=name, known=sorted(SYSTEMS))
    return SYSTEMS[name]
