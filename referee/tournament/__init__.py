"""Tournaments: pairing, scoring, standings and exports for the seeds' three systems.

In the flow: the tournament service (:mod:`referee.tournament.service`) reads the tables' ``events`` from
the bus and gives them to :mod:`~referee.tournament.recorder`, which records each game once (what each event says of
a game: :mod:`~referee.tournament.reports`, pure); :mod:`~referee.tournament.catchup` gives it again the events a
table's log said, after a backup was restored. The service publishes each
tournament's ``round`` and ``standings`` (``bus.tournament``); the console runs
the same store in-process. :mod:`~referee.tournament.core` holds the values (points exact:
:mod:`~referee.tournament.exact`), :mod:`~referee.tournament.actions`
rebuilds them from the log, :mod:`~referee.tournament.systems` names the three systems
(:mod:`~referee.tournament.pairswiss`, :mod:`~referee.tournament.knockout`,
:mod:`~referee.tournament.individual`, on :mod:`~referee.tournament.base`; pair Swiss pairs a round with
:mod:`~referee.tournament.swiss` and :mod:`~referee.tournament.matching`, and proves the rounds left
can be paired with :mod:`~referee.tournament.schedule`), :mod:`~referee.tournament.entries`
reads the registration forms, :mod:`~referee.tournament.store` keeps the log in SQLite,
:mod:`~referee.tournament.views` and :mod:`~referee.tournament.export` show it; :mod:`~referee.tournament.cli`
has the ``cardtable tournament`` commands, :mod:`~referee.tournament.simulate` random tournaments through them.

The API the console calls in-process is :class:`TournamentStore` (an SQLite log of actions,
replayed) and :func:`load_entries`; see ``README.md`` in this folder for every call, the result
shapes, the options and the decisions taken where the notices are silent.
"""

from referee.tournament.core import Tournament, TournamentError
from referee.tournament.entries import Entry, EntryError, load_entries
from referee.tournament.store import TournamentStore

__all__ = ["Entry", "EntryError", "Tournament", "TournamentError", "TournamentStore", "load_entries"]
