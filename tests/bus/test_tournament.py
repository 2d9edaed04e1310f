"""The tournament topics' contract: the schemas' examples are valid, PROTOCOL.md's examples are
the schemas' and document every field, and real payloads of all three systems are valid."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from bus.tournament import NAMES, check, schema
from referee.tournament import Entry, TournamentStore

PROTOCOL_MD = Path(__file__).parents[2] / "bus" / "PROTOCOL.md"


def test_schema_examples_are_valid():
    for name in NAMES:
        Draft202012Validator.check_schema(schema(name))
        for example in schema(name)["examples"]:
            assert check(name, example) == example


def test_protocol_md_documents_the_tournament_topics():
    text = PROTOCOL_MD.read_text(encoding="utf-8").split("\n## Tournament topics")[1]
    parts = re.split(r"^### `([^`]+)`\s*$", text, flags=re.MULTILINE)
    sections = dict(zip(parts[1::2], parts[2::2]))
    assert set(sections) == set(NAMES)
    for name, body in sections.items():
        blocks = re.findall(r"```json\n(.*?)\n```", body, flags=re.DOTALL)
        assert blocks
        for block in blocks:
            payload = json.loads(block)
            assert payload in schema(name)["examples"] and check(name, payload) == payload
        for field in schema(name)["properties"]:
            assert f"`{field}`" in body or f"`{field}`" in sections["round"], f"{name}: {field} undocumented"
    assert "| `cardtable/v1/tournament/{id}/round` | tournament service | scoreboard, console | 1 | yes |" in text


def test_invalid_payloads_are_refused():
    good = schema("standings")["examples"][0]
    for bad in ({**good, "extra": 1}, {**good, "v": 2}, {**good, "rows": [{**good["rows"][0], "prize": "特等奖"}]}):
        with pytest.raises(ValueError):
            check("standings", bad)


@pytest.mark.parametrize("system,n", [("pair-swiss", 8), ("knockout-best-of-three", 6), ("individual-tables", 8)])
def test_payloads_of_every_system_are_valid(tmp_path, system, n):
    store = TournamentStore(tmp_path / "t.db")
    players = lambda i: (f"p{i}",) if system == "individual-tables" else (f"p{i}甲", f"p{i}乙")  # noqa: E731
    store.new(system, [Entry(f"e{i}", f"选手{i}", f"u{i // 2}", f"u{i // 2}", players(i)) for i in range(n)],
              seed=2, options={"rounds": 2} if system != "knockout-best-of-three" else {})
    check("round", store.round_view())
    for _ in range(2):
        view = check("round", store.pair_next_round())
        for x in view["tables"]:
            result = ({"scores": [3, 1.5, 0, -2]} if system == "individual-tables" else
                      {"winner": 0} if system == "pair-swiss" else {"winner": 0, "games": [2, 0]})  # 000 四3: one game a round
            store.record_result(view["round"], x["table"], result)
        check("round", store.round_view())
        check("standings", store.standings())
