"""Amending an accepted play: the referee settles a dispute, and everything after it is judged again.

The console's ``amend`` command names an earlier play of the log (its ``seq``, which the
``play_accepted`` event carried: the camera's ``observed`` read, or the referee's ``confirm`` or
``correct`` that played it) and the cards that were really played. The log stays
append-only: the command is logged like any input, and the table is the replay of the log *as
amended* — every play with the cards of its latest valid amendment — so a restarted
service, the replay timeline and the running service all judge the same inputs. The service
rebuilds the table when an amendment arrives; what changed after it (trick winners, violations,
scores) is in the new ``state``.

A result can change with it: a game won, a round's levels at the clock's end. The tournament took
the result from the events the table published then, so the amendment tells what it changed: a
``rejudged`` event (:func:`rejudged`) with every result of the log as judged before the amendment
(``was``) and as judged now (``now``), each with its ``seq``, ``kind``, ``data`` and the levels by
side as they stood. The tournament service corrects the result it recorded from it, or withdraws
it for the organiser to enter where the table's log no longer ends that game.

>>> entries = [("observed", {"seat": "S", "cards": ["S3"]}, 10.0, 1),
...            ("commands", {"command": "amend", "entry": 1, "cards": ["S4"]}, 11.0, 2),
...            ("commands", {"command": "amend", "entry": 2, "cards": ["S5"]}, 12.0, 3)]
>>> [(p["cards"] if kind == "observed" else p.get("invalid")) for kind, p, at, seq in as_amended(entries)]
[['S4'], None, Reason('table.not_a_play', entry=2)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from referee.reasons import Reason

Row = tuple[str, dict, float, int]  # (topic name, payload, at, seq), as the log holds an entry
RESULTS = ("game_won", "round_over", "round_forfeited")  # the events a tournament takes a result from


def as_amended(entries: Iterable[Row]) -> Iterator[Row]:
    """The entries as the table judges them: each ``observed`` with the cards of its latest valid
    ``amend``; an ``amend`` that names no earlier play gets an ``invalid`` reason (the table rejects
    it). A play the referee corrected holds the cards the referee entered, and one the referee
    confirmed was told at that ``confirm``'s seq: an ``amend`` naming either gives the command the
    amended cards, which it plays in place of its flag's (``Reducer._resolve``), and the ``amend`` is marked
    ``of`` that command: only the table knows whether the command took cards (a confirmed ``out_of_turn`` took
    none) and refuses the amend where it took none (``Reducer.took``). Not the entry that
    raised the flag: a ``laid_*`` flag (cards lying on the table, ``Reducer._lying_asked``) is raised
    by the play before it, another seat's, which an amendment of the confirmed play changed instead.
    Payloads are never changed in place."""
    rows = list(entries)
    kinds = {seq: kind for kind, _, _, seq in rows}
    payloads = {seq: payload for _, payload, _, seq in rows}
    cards: dict[int, list[str]] = {}
    invalid: dict[int, Reason] = {}
    for kind, payload, _, seq in rows:
        if kind != "commands" or payload.get("command") != "amend":
            continue
        target = payload["entry"]
        if not _a_play(target, kinds, payloads) or target >= seq:
            invalid[seq] = Reason("table.not_a_play", entry=target)
        else:
            cards[target] = payload["cards"]
    for kind, payload, at, seq in rows:
        if seq in cards:
            payload = {**payload, "cards": cards[seq]} | ({"confidence": 1.0} if kind == "observed" else {})
        elif seq in invalid:
            payload = {**payload, "invalid": invalid[seq]}
        elif is_amend(kind, payload) and kinds[payload["entry"]] == "commands":
            payload = {**payload, "of": payloads[payload["entry"]]["command"]}
        yield kind, payload, at, seq


def _a_play(entry: int, kinds: dict, payloads: dict) -> bool:
    """Whether ``entry`` holds a play's cards: the camera's read, or a person's ``correct`` or ``confirm`` of a flag."""
    return kinds.get(entry) == "observed" or kinds.get(entry) == "commands" and (payloads.get(entry) or {}).get("command") in ("correct", "confirm")


def is_amend(kind: str, payload: dict) -> bool:
    return kind == "commands" and payload.get("command") == "amend"


def results(table: Any, rows: Iterable[Row]) -> list[dict]:
    """Every result the ``table`` (a fresh one: the runtime's ``apply`` and ``state``) judges from
    ``rows`` as amended: ``{"seq", "kind", "data", "levels"}``, the levels by side as the state
    showed them then (None for a game without levels). An entry the runtime fails on changes
    nothing, as in the service."""
    found = []
    for kind, payload, at, seq in as_amended(rows):
        try:
            table, outputs = table.apply(kind, payload, at, seq)
        except Exception:  # the service logs it when it applies the entry itself
            continue
        for out in outputs:
            if out.name == "events" and out.payload["kind"] in RESULTS:
                teams = table.state(out.payload["at"]).get("teams") or []
                levels = {t["name"]: str(t["level"]) for t in teams if t.get("level") is not None}
                found.append({"seq": out.payload["seq"], "kind": out.payload["kind"], "data": out.payload["data"],
                              "levels": levels or None})
    return found


def rejudged(fresh: Callable[[], Any], rows: list[Row], at: float) -> dict | None:
    """The ``rejudged`` event of the amendment that is the last of ``rows`` (the log up to it), at
    ``at``, when it changed a result; else None. ``fresh()`` makes a table as the log starts it."""
    *before, (kind, payload, _, seq) = rows
    if not is_amend(kind, payload):
        raise ValueError(f"entry {seq} is not an amendment")
    was, now = results(fresh(), before), results(fresh(), rows)
    if was == now:
        return None
    return _event("rejudged", {"entry": payload["entry"], "was": was, "now": now}, seq, at)


def rejudged_of(fresh: Callable[[], Any], rows: list[Row], outputs: list) -> dict | None:
    """:func:`rejudged` of the amendment that is the last of ``rows``, given its own ``outputs`` as the table judged
    it: None when the table rejected it (no ``amended`` event: nothing was judged again) or it changed no result."""
    amended = [o.payload for o in outputs if o.name == "events" and o.payload["kind"] == "amended"]
    return rejudged(fresh, rows, amended[0]["at"]) if amended else None


def _event(kind: str, data: dict, seq: int, at: float) -> dict:
    return {"v": 1, "seq": seq, "kind": kind, "at": at, "data": data}


__all__ = ["RESULTS", "as_amended", "is_amend", "rejudged", "rejudged_of", "results"]
