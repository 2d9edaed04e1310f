"""Amending an accepted play: the referee settles a dispute, and everything after it is judged again.

The console's ``amend`` command names an earlier ``observed`` entry of the log (its ``seq``, which
the ``play_accepted`` event carried) and the cards that were really played. The log stays
append-only: the command is logged like any input, and the table is the replay of the log *as
amended* — every ``observed`` entry with the cards of its latest valid amendment — so a restarted
service, the replay timeline and the running service all judge the same inputs. The service
rebuilds the table when an amendment arrives; what changed after it (trick winners, violations,
scores) is in the new ``state``.

>>> entries = [("observed", {"seat": "S", "cards": ["S3"]}, 10.0, 1),
...            ("commands", {"command": "amend", "entry": 1, "cards": ["S4"]}, 11.0, 2),
...            ("commands", {"command": "amend", "entry": 2, "cards": ["S5"]}, 12.0, 3)]
>>> [(p["cards"] if kind == "observed" else p.get("invalid")) for kind, p, at, seq in as_amended(entries)]
[['S4'], None, Reason('table.not_a_play', entry=2)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from referee.reasons import Reason

Row = tuple[str, dict, float, int]  # (topic name, payload, at, seq), as the log holds an entry


def as_amended(entries: Iterable[Row]) -> Iterator[Row]:
    """The entries as the table judges them: each ``observed`` with the cards of its latest valid
    ``amend``; an ``amend`` that names no earlier ``observed`` entry gets an ``invalid`` reason (the
    table rejects it). Payloads are never changed in place."""
    rows = list(entries)
    kinds = {seq: kind for kind, _, _, seq in rows}
    cards: dict[int, list[str]] = {}
    invalid: dict[int, Reason] = {}
    for kind, payload, _, seq in rows:
        if kind != "commands" or payload.get("command") != "amend":
            continue
        target = payload["entry"]
        if kinds.get(target) != "observed" or target >= seq:
            invalid[seq] = Reason("table.not_a_play", entry=target)
        else:
            cards[target] = payload["cards"]
    for kind, payload, at, seq in rows:
        if seq in cards:
            payload = {**payload, "cards": cards[seq], "confidence": 1.0}
        elif seq in invalid:
            payload = {**payload, "invalid": invalid[seq]}
        yield kind, payload, at, seq


def is_amend(kind: str, payload: dict) -> bool:
    return kind == "commands" and payload.get("command") == "amend"


__all__ = ["as_amended", "is_amend"]
