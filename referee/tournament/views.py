"""The payloads of the tournament topics (``round`` and ``standings``), as pure functions of a
:class:`~referee.tournament.core.Tournament`; ``bus/PROTOCOL.md`` "Tournament topics" and
``schemas/round.json`` / ``schemas/standings.json`` are the contract. ``at`` is the time of the
tournament's latest change, so the same log always gives the same bytes."""

from __future__ import annotations

import json

from referee.tournament.base import awarded
from referee.tournament.core import Tournament


def round_view(t: Tournament, round_no: int | None = None) -> dict:
    """The pairings of a round by table, with the results so far (default: the latest round; 0 before round 1);
    each entry with its lot number (抽签号, from 1: its place in the lot), and the entries that forfeit it
    (弃权, a standing forfeit with or without a result); ``repaired``: the latest time
    the round was paired again before it was played, with the tables that changed (else None)."""
    no = len(t.rounds) if round_no is None else round_no
    head = {"v": 1, "tournament": t.id, "name": t.name, "system": t.system, "round": no, "rounds": t.total_rounds}
    if no == 0:
        return head | {"tables": [], "byes": [], "byes_forfeited": [], "repaired": None, "at": t.at}
    r = t.round(no)
    repaired = next((x.as_dict() for x in reversed(t.repaired) if x.round == no), None)
    tables = [{"table": x.table,
               "entries": [{"id": e, "name": t.entry(e).name, "unit": t.entry(e).unit, "lot": t.lot_no(e)}
                           for e in x.entries],
               "result": x.outcome.as_dict() if x.outcome is not None else None, "forfeits": list(x.forfeits)}
              for x in r.tables]
    return head | {"tables": tables, "byes": list(r.byes), "byes_forfeited": list(r.bye_forfeits), "repaired": repaired, "at": t.at}


def results_said(t: Tournament, round_no: int | None = None) -> dict[str, list[str]]:
    """The decided tables of a round (default: the latest) whose result a person reads otherwise than its scores
    (``System.said``: pair Swiss's levels reached, or won / drawn / lost; the knockout's won / lost of a single game or walkover; the
    individual tables' places), by table. Not in the payloads (``v1`` is
    closed): the command line, the sheets and the display's pages say them."""
    if not t.rounds:
        return {}
    r = t.round(len(t.rounds) if round_no is None else round_no)
    return {x.table: list(said) for x in r.tables if (said := t.rules.said(t, x)) is not None}


def awards_given(t: Tournament) -> dict[str, list[str]]:
    """The system's awards each standings row is given beside its placed prize (:func:`~referee.tournament.base.awarded`:
    pair Swiss's 鼓励奖, the knockout's 证书和奖品 and 纪念品), by row id, the rows given none left out: nothing before
    the last round is complete. Not in the standings payload (its ``prize`` is closed in ``v1``): the display serves
    it to the scoreboard."""
    return {row["id"]: got for row in t.rules.standings(t) if (got := awarded(t.rules.awards, row, t.finished))}


def standings_view(t: Tournament) -> dict:
    """The standings after every result so far (prizes once the last round is complete)."""
    rules = t.rules
    return {"v": 1, "tournament": t.id, "name": t.name, "system": t.system, "round": len(t.rounds),
            "columns": list(rules.columns), "rows": rules.standings(t), "at": t.at}


def encode(payload: dict) -> bytes:
    """Compact UTF-8 JSON, keys in the contract's order."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")

