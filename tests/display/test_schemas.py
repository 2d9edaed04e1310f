"""The scoreboard's models of the tournament topics take every example of the tournament service's
own contract (bus/schemas/tournament), and refuse what the contract refuses."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from display.schemas import Round, Standings

SCHEMAS = Path(__file__).resolve().parents[2] / "bus" / "schemas" / "tournament"
MODELS = {"round": Round, "standings": Standings}


def examples(name: str) -> list[dict]:
    found = json.loads((SCHEMAS / f"{name}.json").read_text())["examples"]
    assert found
    return found


@pytest.mark.parametrize("name", MODELS)
def test_every_example_of_the_tournament_contract_is_taken(name):
    for example in examples(name):
        # optional fields an example leaves out (the round's ``repaired``) are not written back
        assert MODELS[name].model_validate(example).model_dump(mode="json", exclude_unset=True) == example


@pytest.mark.parametrize(("name", "change"), [
    ("round", lambda p: p.update(v=2)),
    ("round", lambda p: p["tables"][0].update(table="t/1")),
    ("round", lambda p: p.update(extra=1)),
    ("standings", lambda p: p["rows"][0].update(prize="特等奖")),
    ("standings", lambda p: p["rows"][0].update(rank=0)),
    ("standings", lambda p: p["rows"][0]["tiebreaks"].append(1)),
])
def test_what_the_contract_refuses_is_refused(name, change):
    payload = copy.deepcopy(examples(name)[0])
    change(payload)
    with pytest.raises(ValidationError):
        MODELS[name].model_validate(payload)
