"""A tournament as pure values: its entries, rounds, tables and their outcomes.

A :class:`Tournament` carries its competition system (``rules``, a ``base.System`` chosen by the name
in ``system``), which rules on its rounds; ``actions`` rebuilds one from its log.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from referee.catalogue import Refusal
from referee.tournament.entries import Entry
from referee.tournament.exact import Fraction, exact, wire


class TournamentError(Refusal):
    """A request that cannot be applied (bad input, wrong moment); nothing changes."""


@dataclass(frozen=True)
class Outcome:
    """A table's result: round points and scores (级差, games won, 小分) per entry, in table order,
    exact (``exact.py``); ``as_dict`` is the payloads' form."""

    points: tuple[int | Fraction, ...]
    scores: tuple[int | Fraction, ...]

    def __post_init__(self):
        object.__setattr__(self, "points", tuple(exact(p) for p in self.points))
        object.__setattr__(self, "scores", tuple(exact(s) for s in self.scores))

    def as_dict(self) -> dict:
        return {"points": [wire(p) for p in self.points], "scores": [wire(s) for s in self.scores]}


@dataclass(frozen=True)
class Table:
    table: str
    entries: tuple[str, ...]  # seat order; two entries face each other, four sit S E N W
    outcome: Outcome | None = None
    games: tuple[int | None, ...] = ()  # winners (index, None for a draw) of the games reported by the table
    levels: tuple[str, ...] = ()  # the last levels reported for the table's entries
    forfeits: tuple[str, ...] = ()
    entered: dict | None = None  # the result entered by hand (or its correction)
    clock: bool = False  # the round clock ended a game reported (``round_over``)
    changed: int = 0  # the log seq of the latest change to this table's result or forfeits


@dataclass(frozen=True)
class Unrecorded:
    """A table's report of its game (``report``: table, seq and kind of the event) that the tournament service could
    not record, ``reason`` in both languages (``zh``, ``en``); the organiser sees it until the table's result is
    entered or changed after it (log ``seq``, time ``at``)."""

    table: str
    report: str
    reason: dict
    seq: int
    at: float


@dataclass(frozen=True)
class LostByes:
    """Byes lost with a team's round to a late arrival past the limit (seed 000 第十三条: 21分钟以上判全队该轮弃权), and
    the forfeits that lateness put on the team's tables (``(table, entries)``). They stay lost while one of those
    forfeits stands: a correction that restates every one of those tables without them gives the byes back."""

    byes: tuple[str, ...]
    forfeits: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def stand(self, tables: tuple[Table, ...]) -> bool:
        """Whether the lateness still stands on ``tables`` (the round's); with no table of the team, always."""
        now = {x.table: set(x.forfeits) for x in tables}
        return not self.forfeits or any(now[n] & set(ids) for n, ids in self.forfeits)


@dataclass(frozen=True)
class Round:
    round: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    seq: int  # the pair action's log seq
    changed: int = 0  # the log seq of the latest change to a result of this round
    lost_byes: tuple[LostByes, ...] = ()  # byes lost with the whole team's round, each late arrival's
    unrecorded: tuple[Unrecorded, ...] = ()  # the tables' reports the service could not record

    @property
    def bye_forfeits(self) -> tuple[str, ...]:
        """The byes lost with the whole team's round (seed 000 第十三条) as the tables stand now."""
        return tuple(sorted({b for lost in self.lost_byes if lost.stand(self.tables) for b in lost.byes}))

    def seen(self, name: str) -> int:
        """The log seq of the latest change to table ``name``: its pairing (the round paired, or paired again) or its
        result and forfeits; what a person who saw the table names with a change to it (the store's ``seen``)."""
        return max(self.seq, self.table(name).changed)

    def waiting(self) -> tuple[Unrecorded, ...]:
        """The reports not recorded that still wait for the organiser: their table changed by nothing since."""
        return tuple(n for n in self.unrecorded if self.table(n.table).changed < n.seq)

    @property
    def complete(self) -> bool:
        return all(t.outcome is not None for t in self.tables)

    def table(self, name: str) -> Table:
        for t in self.tables:
            if t.table == name:
                return t
        raise TournamentError("no_table_in_round", round=self.round, table=name)


@dataclass(frozen=True)
class Repaired:
    """A round paired again before any of it was played, after a change to an earlier round (a
    correction) or to the field: ``because`` the kind of the logged change (its ``seq``), and the
    tables (and byes) as announced and as paired now, of those that changed."""

    round: int
    seq: int
    because: str
    tables: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]  # (table, before, after)
    byes: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # (before, after) when they changed

    def as_dict(self) -> dict:
        """The ``repaired`` of the round payload and of the change's log entry.

        >>> Repaired(2, 9, "correct", (("t01", ("a1", "b1"), ("a1", "c1")),)).as_dict()["tables"]
        [{'table': 't01', 'before': ['a1', 'b1'], 'after': ['a1', 'c1']}]
        """
        return {"round": self.round, "seq": self.seq, "because": self.because,
                "tables": [{"table": n, "before": list(b), "after": list(a)} for n, b, a in self.tables],
                "byes": None if self.byes is None else {"before": list(self.byes[0]), "after": list(self.byes[1])}}


@dataclass(frozen=True)
class Tournament:
    id: str
    name: str
    system: str
    seed: str
    options: dict
    entries: tuple[Entry, ...]
    lot: tuple[str, ...]  # entry ids in the order of the lot drawn at registration (final ties)
    rules: Any = field(compare=False, repr=False)  # the system named by ``system`` (``systems.system``)
    rounds: tuple[Round, ...] = ()
    repaired: tuple[Repaired, ...] = ()  # every round paired again, oldest first
    withdrawn: tuple[str, ...] = ()  # entries out of the draw (their unit withdrew); their results stand
    seq: int = 0
    at: float = 0.0  # the latest change's time, later than the one before it (actions.TICK_S) whatever the clock

    def entry(self, eid: str) -> Entry:
        for e in self.entries:
            if e.id == eid:
                return e
        raise TournamentError("no_entry", entry=eid)

    def lot_no(self, eid: str) -> int:
        """An entry's number as people know it: its lot number (抽签号, from 1), which the pairings, the slips, the
        sheets and the console show (its id, ``e09``, is the log's, which no one at the venue reads)."""
        return self.lot.index(eid) + 1

    @property
    def total_rounds(self) -> int:
        return self.rules.rounds(self)

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.total_rounds and all(r.complete for r in self.rounds)

    def round(self, no: int) -> Round:
        if no < 1:  # never said as a round 0 still to be paired
            raise TournamentError("round_from_one", round=no, paired=len(self.rounds))
        if no > len(self.rounds):
            raise TournamentError("round_not_paired", round=no, paired=len(self.rounds))
        return self.rounds[no - 1]

    def rng(self, purpose: str) -> random.Random:
        """The seeded random source of one draw; the seed is in the log, so every draw can be redone."""
        return random.Random(f"{self.seed}:{purpose}")

    def with_round(self, r: Round) -> Tournament:
        rounds = self.rounds[: r.round - 1] + (r,) + self.rounds[r.round :]
        return replace(self, rounds=rounds)


def table_name(i: int) -> str:
    """The table ids of a round: t01, t02, ... (the tables' MQTT ids)."""
    return f"t{i:02d}"
