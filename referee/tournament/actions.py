"""A tournament rebuilt from its log of actions.

Each action is a dict ``{"seq", "kind", "data", "by", "at"}``; kinds: ``new`` (system, name,
seed, options, entries and the lot that breaks final ties), ``pair`` (a round's tables and byes,
drawn with the recorded seed), ``result`` (a table's result as entered, maybe with entries that
forfeit it) and ``correct`` (a table restated: its result and who forfeits it), ``game`` (one
game's result from a table's ``events``), ``retract`` (a table's result taken back: its log no
longer says it, the organiser enters it), ``forfeit`` (entries that forfeit a table; they stand
under a later ``result``, a ``correct`` names the forfeits anew), ``late`` (a late arrival; past
the system's limit it is a forfeit), ``unrecorded`` (a table's report the service could not record, for
the organiser to see: it changes no result), ``lot`` (a lot drawn in the hall, in place of the one drawn
at registration), ``leave`` (a unit or an entry withdrawn from the competition: its entries leave the draw)
``rounds`` (the organiser changes the number of rounds) and ``unpair`` (the latest round's pairing undone, a
mistake found before any result). :func:`replay`
applies them in order; the latest word on a table counts, so a correction changes everything
computed from it: scores, tie-breaks, ranks, prizes, and the pairing of a round not yet started.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from referee.tournament.core import LostByes, Repaired, Round, Table, Tournament, TournamentError, Unrecorded
from referee.tournament.entries import Entry
from referee.tournament.systems import system


TICK_S = 0.001  # a change's time (``Tournament.at``, the payloads' ``at``) is at least this after the one before it: a
# wall clock set back between two changes (a laptop's clock put right) never gives a change the time of the one before,
# by which the scoreboard tells a round published anew (display/static/app.js asks its results once per ``at``)


def start(data: dict, seq: int = 1, at: float = 0.0) -> Tournament:
    entries = tuple(Entry.of(e) for e in data["entries"])
    if len({e.id for e in entries}) != len(entries):
        raise TournamentError("entry_ids_unique")
    _check_lot(entries, data["lot"])
    return Tournament(data["id"], data["name"], data["system"], str(data["seed"]), dict(data["options"]),
                      entries, tuple(data["lot"]), system(data["system"]), seq=seq, at=at)


def replay(actions: list[dict]) -> Tournament:
    """The tournament after its log (the first action is ``new``). An action that cannot be what the store logged (a
    file edited by hand, or written by a newer version: a kind not known here) is refused naming it, ``log_action``
    with its ``seq``, ``kind`` and ``why``."""
    if not actions or actions[0]["kind"] != "new":
        raise TournamentError("log_starts_new")
    t = None
    for a in actions:
        try:
            t = start(a["data"], a["seq"], a["at"]) if t is None else repair_last_round(apply(t, a), a)
        except Exception as exc:  # whatever the action's data made fail, said with the action
            why = exc if isinstance(exc, TournamentError) else TournamentError("log_data", error=f"{exc!r}"[:200])
            raise TournamentError("log_action", seq=a["seq"], kind=a["kind"], why=why) from None
    return t


def apply(t: Tournament, action: dict) -> Tournament:
    """One logged action (already checked when it was logged)."""
    kind, d = action["kind"], action["data"]
    t = replace(t, seq=action["seq"], at=max(t.at + TICK_S, action["at"]))  # later than the change before, whatever the clock
    if kind == "lot":
        _check_lot(t.entries, d["lot"])
        return replace(t, lot=tuple(d["lot"]))
    if kind == "pair":
        tables = tuple(Table(x["table"], tuple(x["entries"])) for x in d["tables"])
        _check_draw(t, d["round"], tables, d["byes"])
        t = replace(t, rounds=t.rounds[: d["round"] - 1] + (Round(d["round"], tables, tuple(d["byes"]), action["seq"]),))
        return _held_by_withdrawn(t, action["seq"])
    if kind == "unpair":  # the latest round's pairing undone before any result: drawn anew by the next ``pair``
        if d["round"] != len(t.rounds):
            raise TournamentError("unpair_not_last", round=d["round"], last=len(t.rounds))
        return replace(t, rounds=t.rounds[:-1], repaired=tuple(x for x in t.repaired if x.round != d["round"]))
    if kind == "leave":
        return _leave(t, d["entries"], action["seq"])
    if kind == "rounds":
        return replace(t, options=t.options | {"rounds": d["rounds"]})
    r = t.round(d["round"])
    if kind == "unrecorded":  # a note for the organiser: nothing of the result changes
        note = Unrecorded(d["table"], d["report"], dict(d["reason"]), action["seq"], action["at"])
        return t.with_round(replace(r, unrecorded=r.unrecorded + (note,)))
    if kind == "late":
        forfeits = t.rules.late_forfeits(t, d["round"], d["entry"], d["minutes"])
        for name, ids in forfeits.items():
            r = _set(t, r, r.table(name), forfeits=tuple(sorted(set(r.table(name).forfeits) | set(ids))), seq=action["seq"])
        byes = t.rules.late_byes(t, d["round"], d["entry"], d["minutes"])
        if byes:  # lost while the lateness stands on the team's tables (a correction of them gives them back)
            lost = LostByes(tuple(byes), tuple((name, tuple(ids)) for name, ids in sorted(forfeits.items())))
            r = replace(r, lost_byes=r.lost_byes + (lost,), changed=action["seq"])
        return t.with_round(r)
    table = r.table(d["table"])
    if kind == "result":  # the table's forfeits stand; those entered with the result join them
        forfeits = tuple(sorted(set(table.forfeits) | set(d.get("forfeits", ()))))
        r = _set(t, r, table, entered=d["result"], forfeits=forfeits, seq=action["seq"])
    elif kind == "correct":  # restates the table: its result and who forfeits it
        r = _set(t, r, table, entered=d["result"], forfeits=tuple(d.get("forfeits", ())), seq=action["seq"])
    elif kind == "forfeit":
        r = _set(t, r, table, forfeits=tuple(sorted(set(table.forfeits) | set(d["entries"]))), seq=action["seq"])
    elif kind == "retract":  # the forfeits stand
        r = _set(t, r, table, entered=None, games=(), levels=(), clock=False, seq=action["seq"])
    elif kind == "game":
        clock = table.clock or str(d.get("event") or "").endswith(":round_over")
        r = _set(t, r, table, games=table.games + (d["winner"],), levels=tuple(d.get("levels") or ()), clock=clock,
                 seq=action["seq"])
    else:
        raise TournamentError("unknown_action", kind=kind)
    return t.with_round(r)


def _check_draw(t: Tournament, no: int, tables: tuple[Table, ...], byes: list[str]) -> None:
    """A round's draw as the store draws it: the next round (or one paired again), each table named once, each entry
    of the field at one table or bye at most."""
    if type(no) is not int or not 1 <= no <= len(t.rounds) + 1:
        raise TournamentError("round_number", round=repr(no))
    seated = [e for x in tables for e in x.entries] + list(byes)
    if twice := sorted(k for c in (Counter(x.table for x in tables), Counter(seated)) for k, n in c.items() if n > 1):
        raise TournamentError("draw_twice", round=no, twice=twice)
    if unknown := sorted(set(seated) - {e.id for e in t.entries}):
        raise TournamentError("no_entry", entry=unknown[0])


def _check_lot(entries: tuple[Entry, ...], lot: list[str]) -> None:
    """A lot as the store draws it: every entry once."""
    if sorted(lot) != sorted(e.id for e in entries):
        ids = {e.id for e in entries}
        raise TournamentError("lot_entries", twice=sorted({e for e in lot if lot.count(e) > 1}) or "-",
                              unknown=sorted(set(lot) - ids) or "-", missing=sorted(ids - set(lot)) or "-")


def _leave(t: Tournament, entries: list[str], seq: int) -> Tournament:
    """``entries`` leave the draw; in a round not complete their tables without a result are forfeited
    (the opponents win, as with a bye), so no table waits for an entry that left."""
    return _held_by_withdrawn(replace(t, withdrawn=tuple(sorted(set(t.withdrawn) | set(entries)))), seq)


def _held_by_withdrawn(t: Tournament, seq: int) -> Tournament:
    """The latest round's tables without a result where a withdrawn entry sits, forfeited by it: tables paired before
    it left, or (individual tables) a seat the draw left empty for it to hold."""
    if not t.rounds or t.rounds[-1].complete:
        return t
    r = t.rounds[-1]
    for x in r.tables:
        gone = set(x.entries) & set(t.withdrawn)
        if gone - set(x.forfeits) and x.outcome is None:
            r = _set(t, r, x, forfeits=tuple(sorted(set(x.forfeits) | gone)), seq=seq)
    return t.with_round(r)


def _set(t: Tournament, r: Round, table: Table, *, seq: int, **fields) -> Round:
    table = replace(table, changed=seq, **fields)
    table = replace(table, outcome=t.rules.outcome(t, r.round, table))
    tables = tuple(table if x.table == table.table else x for x in r.tables)
    return replace(r, tables=tables, changed=seq)


def repair_last_round(t: Tournament, action: dict | None = None) -> Tournament:
    """A round paired before a correction of an earlier round, with no result yet, is paired again
    from the corrected standings with its recorded seed (a round already under way stays as played);
    when its tables change, :class:`Repaired` says which (``action``: the change that caused it)."""
    if len(t.rounds) < 2:
        return t
    last = t.rounds[-1]
    if last.lost_byes or any(x.outcome is not None or x.games or x.forfeits for x in last.tables):  # under way
        return t
    if max(r.changed for r in t.rounds[:-1]) <= last.seq:
        return t
    before = replace(t, rounds=t.rounds[:-1])
    tables, byes = t.rules.pair(before, last.round)
    again = Round(last.round, tuple(Table(n, e) for n, e in tables), tuple(byes), t.seq)
    was = {x.table: x.entries for x in last.tables}
    now = {x.table: x.entries for x in again.tables}
    changed = tuple((n, was.get(n, ()), now.get(n, ())) for n in sorted(set(was) | set(now)) if was.get(n) != now.get(n))
    moved = None if tuple(sorted(last.byes)) == tuple(sorted(byes)) else (last.byes, tuple(byes))
    t = replace(t, rounds=t.rounds[:-1] + (again,))
    if not changed and moved is None:
        return t
    because = action["kind"] if action else "change"
    return replace(t, repaired=t.repaired + (Repaired(last.round, t.seq, because, changed, moved),))


__all__ = ["apply", "repair_last_round", "replay", "start"]
