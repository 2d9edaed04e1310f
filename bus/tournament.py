"""The tournament topics as code: ``cardtable/v1/tournament/{id}/round`` and ``.../standings``,
both retained, QoS 1, checked against ``schemas/tournament/round.json`` and ``standings.json``.

>>> topic("zk2010", "standings")
'cardtable/v1/tournament/zk2010/standings'
>>> check("round", {"v": 1})
Traceback (most recent call last):
...
ValueError: round: 'tournament' is a required property
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

PREFIX = "cardtable/v1/tournament"
NAMES = ("round", "standings")
SCHEMA_DIR = Path(__file__).parent / "schemas" / "tournament"


def topic(tournament: str, name: str) -> str:
    if name not in NAMES:
        raise ValueError(f"not a tournament topic: {name!r}")
    return f"{PREFIX}/{tournament}/{name}"


@cache
def schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{name}.json").read_text(encoding="utf-8"))


@cache
def _validator(name: str):
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema(name))


def check(name: str, payload: dict) -> dict:
    """``payload`` when it is a valid ``name`` payload; else ValueError naming the first error."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator(name).iter_errors(payload))
    if error is not None:
        where = "".join(f"[{p!r}]" for p in error.absolute_path)
        raise ValueError(f"{name}{where}: {error.message}")
    return payload
