"""A tournament as a pure value rebuilt from its log of actions.

Each action is a dict ``{"seq", "kind", "data", "by", "at"}``; kinds: ``new`` (system, name,
seed, options, entries and the lot that breaks final ties), ``pair`` (a round's tables and byes,
drawn with the recorded seed), ``result`` and ``correct`` (a table's result as entered),
``game`` (one game's result from a table's ``events``), ``forfeit`` (entries that forfeit a
table) and ``late`` (a late arrival; past the system's limit it is a forfeit). :func:`replay`
applies them in order; the latest word on a table counts, so a correction changes everything
computed from it: scores, tie-breaks, ranks, prizes, and the pairing of a round not yet started.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from referee.tournament.entries import Entry
from referee.catalogue import Refusal


class TournamentError(Refusal):
    """A request that cannot be applied (bad input, wrong moment); nothing changes."""


@dataclass(frozen=True)
class Outcome:
    """A table's result: round points and scores (级差, games won, 小分) per entry, in table order."""

    points: tuple[float, ...]
    scores: tuple[float, ...]

    def as_dict(self) -> dict:
        return {"points": [num(p) for p in self.points], "scores": [num(s) for s in self.scores]}


@dataclass(frozen=True)
class Table:
    table: str
    entries: tuple[str, ...]  # seat order; two entries face each other, four sit S E N W
    outcome: Outcome | None = None
    games: tuple[int | None, ...] = ()  # winners (index, None for a draw) of the games reported by the table
    levels: tuple[str, ...] = ()  # the last levels reported for the table's entries
    forfeits: tuple[str, ...] = ()
    entered: dict | None = None  # the result entered by hand (or its correction)


@dataclass(frozen=True)
class Round:
    round: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    seq: int  # the pair action's log seq
    changed: int = 0  # the log seq of the latest change to a result of this round

    @property
    def complete(self) -> bool:
        return all(t.outcome is not None for t in self.tables)

    def table(self, name: str) -> Table:
        for t in self.tables:
            if t.table == name:
                return t
        raise TournamentError("no_table_in_round", round=self.round, table=name)


@dataclass(frozen=True)
class Tournament:
    id: str
    name: str
    system: str
    seed: str
    options: dict
    entries: tuple[Entry, ...]
    lot: tuple[str, ...]  # entry ids in the order of the lot drawn at registration (final ties)
    rounds: tuple[Round, ...] = ()
    notes: tuple[str, ...] = ()
    seq: int = 0
    at: float = 0.0

    @property
    def rules(self):
        from referee.tournament.systems import system

        return system(self.system)

    def entry(self, eid: str) -> Entry:
        for e in self.entries:
            if e.id == eid:
                return e
        raise TournamentError("no_entry", entry=eid)

    @property
    def total_rounds(self) -> int:
        return self.rules.rounds(self)

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.total_rounds and all(r.complete for r in self.rounds)

    def round(self, no: int) -> Round:
        if not 1 <= no <= len(self.rounds):
            raise TournamentError("round_not_paired", round=no, paired=len(self.rounds))
        return self.rounds[no - 1]

    def rng(self, purpose: str) -> random.Random:
        """The seeded random source of one draw; the seed is in the log, so every draw can be redone."""
        return random.Random(f"{self.seed}:{purpose}")

    def with_round(self, r: Round) -> Tournament:
        rounds = self.rounds[: r.round - 1] + (r,) + self.rounds[r.round :]
        return replace(self, rounds=rounds)


def num(x: float) -> float | int:
    """Whole numbers as int (JSON ``2`` rather than ``2.0``).

    >>> num(2.0), num(2.5), num(-0.0)
    (2, 2.5, 0)
    """
    return int(x) if float(x).is_integer() else float(x)


def start(data: dict, seq: int = 1, at: float = 0.0) -> Tournament:
    entries = tuple(Entry.of(e) for e in data["entries"])
    return Tournament(data["id"], data["name"], data["system"], str(data["seed"]), dict(data["options"]),
                      entries, tuple(data["lot"]), seq=seq, at=at)


def replay(actions: list[dict]) -> Tournament:
    """The tournament after its log (the first action is ``new``)."""
    if not actions or actions[0]["kind"] != "new":
        raise TournamentError("log_starts_new")
    first = actions[0]
    t = start(first["data"], first["seq"], first["at"])
    for a in actions[1:]:
        t = repair_last_round(apply(t, a))
    return t


def apply(t: Tournament, action: dict) -> Tournament:
    """One logged action (already checked when it was logged)."""
    kind, d = action["kind"], action["data"]
    t = replace(t, seq=action["seq"], at=max(t.at, action["at"]))
    if kind == "pair":
        tables = tuple(Table(x["table"], tuple(x["entries"])) for x in d["tables"])
        return replace(t, rounds=t.rounds[: d["round"] - 1] + (Round(d["round"], tables, tuple(d["byes"]), action["seq"]),))
    r = t.round(d["round"])
    if kind == "late":
        forfeits = t.rules.late_forfeits(t, d["round"], d["entry"], d["minutes"])
        for name, ids in forfeits.items():
            r = _set(t, r, r.table(name), forfeits=tuple(sorted(set(r.table(name).forfeits) | set(ids))), seq=action["seq"])
        return t.with_round(r)
    table = r.table(d["table"])
    if kind in ("result", "correct"):
        r = _set(t, r, table, entered=d["result"], forfeits=(), seq=action["seq"])
    elif kind == "forfeit":
        r = _set(t, r, table, forfeits=tuple(sorted(set(table.forfeits) | set(d["entries"]))), seq=action["seq"])
    elif kind == "game":
        r = _set(t, r, table, games=table.games + (d["winner"],), levels=tuple(d.get("levels") or ()), seq=action["seq"])
    else:
        raise TournamentError("unknown_action", kind=kind)
    return t.with_round(r)


def _set(t: Tournament, r: Round, table: Table, *, seq: int, **fields) -> Round:
    table = replace(table, **fields)
    table = replace(table, outcome=t.rules.outcome(t, r.round, table))
    tables = tuple(table if x.table == table.table else x for x in r.tables)
    return replace(r, tables=tables, changed=seq)


def repair_last_round(t: Tournament) -> Tournament:
    """A round paired before a correction of an earlier round, with no result yet, is paired again
    from the corrected standings with its recorded seed (a round already under way stays as played)."""
    if len(t.rounds) < 2:
        return t
    last = t.rounds[-1]
    if any(x.outcome is not None or x.games or x.forfeits for x in last.tables):
        return t
    if max(r.changed for r in t.rounds[:-1]) <= last.seq:
        return t
    before = replace(t, rounds=t.rounds[:-1])
    tables, byes = t.rules.pair(before, last.round)
    again = Round(last.round, tuple(Table(n, e) for n, e in tables), tuple(byes), t.seq)
    if (again.tables, again.byes) == (last.tables, last.byes):
        return replace(t, rounds=t.rounds[:-1] + (again,))
    note = f"round {last.round} paired again after a correction of an earlier round"
    return replace(t, rounds=t.rounds[:-1] + (again,), notes=t.notes + (note,))


def table_name(i: int) -> str:
    """The table ids of a round: t01, t02, ... (the tables' MQTT ids)."""
    return f"t{i:02d}"
