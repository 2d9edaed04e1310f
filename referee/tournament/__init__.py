"""Tournaments: pairing, scoring, standings and exports for the seeds' three systems.

The API the console calls in-process is :class:`TournamentStore` (an SQLite log of actions,
replayed) and :func:`load_entries`; see ``README.md`` in this folder for every call, the result
shapes, the options and the decisions taken where the notices are silent.
"""

from referee.tournament.core import Tournament, TournamentError
from referee.tournament.entries import Entry, EntryError, load_entries
from referee.tournament.store import TournamentStore

__all__ = ["Entry", "EntryError", "Tournament", "TournamentError", "TournamentStore", "load_entries"]
