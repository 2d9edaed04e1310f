"""The cases the rules audits wrote from the seeds, kept (``tests/seed_cases/``): one JSON object a line, in the form of
``shared/conformance/README.md`` (every op, and our ``clock`` op as ``tests/clock.jsonl`` has it), each answer written
from the article's text and not from what the engine said. A file a rulebook's audit: Guandan (002), San Da Yi (004),
the three-deck Tractor books (000, 001), the four-deck ones (003), and every book's clock. They hold the engines to
what the audits checked (the boundaries of point bands, the readings of shapes, malformed inputs answered in words)
when a rule is changed for another reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable.cli import main

CASES = sorted((Path(__file__).resolve().parent / "seed_cases").glob("*.jsonl"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_case_the_audits_wrote_from_the_seeds_passes(path, capsys):
    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert main(["judge", str(path), "--check"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{len(cases)} passed, 0 failed"


def test_the_audits_cover_every_rulebook_and_every_op():
    """Each book of ``referee/rulebooks`` and each op of the README has cases here; no id is used twice."""
    cases = [json.loads(line) for path in CASES for line in path.read_text().splitlines() if line.strip()]
    books = {p.stem for p in (Path(__file__).resolve().parents[1] / "referee" / "rulebooks").glob("*.toml")}
    assert {c["rulebook"] for c in cases} >= books - {"sanjiang-2012-stage-two"}
    assert {c["op"] for c in cases} >= {"follow", "lead", "throw", "winner", "score", "kitty", "hand", "classify", "beats",
                                       "tribute", "return", "result", "bomb_allowed", "clock"}
    assert len({c["id"] for c in cases}) == len(cases) > 900
