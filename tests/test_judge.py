"""``cardtable judge``: the public conformance cases, malformed input, and the command line."""

import json
from pathlib import Path

import pytest

from referee.cli import main
from referee.judge import answer, matches

CONFORMANCE = Path(__file__).resolve().parents[1].parent / "shared" / "conformance"
PUBLIC = [
    json.loads(line)
    for path in sorted(CONFORMANCE.glob("*.jsonl"))
    for line in path.read_text().splitlines()
    if line.strip()
]


def test_every_game_has_public_cases():
    assert {c["game"] for c in PUBLIC} == {"tractor", "guandan", "sandayi"}


@pytest.mark.parametrize("case", PUBLIC, ids=[c["id"] for c in PUBLIC])
def test_public_case(case):
    out = answer(case)
    assert out["id"] == case["id"]
    assert matches(case["expect"], out), out


FOLLOW = {
    "id": "f",
    "game": "tractor",
    "op": "follow",
    "rulebook": "zhongkai-2010",
    "level": "7",
    "trump": "H",
    "hand": ["S5", "S5", "SK", "D3"],
    "lead": ["S9", "S9"],
    "play": ["S5", "S5"],
}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"hand": ["S5", "SX", "SK"]}, "unknown card 'SX'"),
        ({"hand": ["S5"] * 4, "play": ["S5", "S5"]}, "S5 appears 4 times, but 3 decks hold only 3"),
        ({"play": ["S5", "D4"]}, "is not part of the hand"),
        ({"play": ["S5"]}, "play has 1 cards, the lead 2"),
        ({"rulebook": "nowhere"}, "unknown rulebook 'nowhere'"),
        ({"op": "dance"}, "unknown op 'dance'"),
        ({"game": "poker"}, "unknown game 'poker'"),
        ({"level": "Z"}, "unknown level rank"),
        ({"hand": "S5 S5"}, "hand must be a list of cards"),
        ({"lead": ["S9", "D9"]}, "mixes suits"),
    ],
)
def test_malformed_case_is_a_clear_error(change, message):
    out = answer({**FOLLOW, **change})
    assert "result" not in out and message in out["error"]


def test_missing_field_is_an_error_not_a_crash():
    case = dict(FOLLOW)
    del case["play"]
    assert "play" in answer(case)["error"]


def test_hand_with_a_wrong_follow_size_is_an_error():
    case = {
        "id": "h", "game": "tractor", "op": "hand", "rulebook": "classic-3deck", "level": "7", "trump": "H",
        "dealer": "S", "tricks": [[["S", ["SA"]], ["E", ["S3", "S4"]], ["N", ["S5"]], ["W", ["S6"]]]],
    }
    assert "E showed 2 cards, the lead has 1" in answer(case)["error"]


def test_command_line_check(tmp_path, capsys):
    cases = tmp_path / "cases.jsonl"
    good = {**FOLLOW, "expect": "legal"}
    wrong = {**FOLLOW, "id": "g", "play": ["S5", "SK"], "expect": "legal"}
    error = {**FOLLOW, "id": "e", "play": ["S5", "ZZ"], "expect": {"error": True}}
    cases.write_text("\n".join(json.dumps(c) for c in (good, wrong, error)) + "\nnot json\n")
    assert main(["judge", str(cases), "--check"]) == 1
    lines = capsys.readouterr().out.splitlines()
    answers = [json.loads(line) for line in lines if line.startswith("{")]
    assert answers[0] == {"id": "f", "result": "legal"}
    assert answers[1] == {"id": "g", "result": "illegal"}
    assert "unknown card 'ZZ'" in answers[2]["error"]
    assert "not a JSON object" in answers[3]["error"]
    assert lines[-1] == "2 passed, 2 failed"


def test_command_line_without_check_prints_only_answers(tmp_path, capsys):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps(FOLLOW) + "\n")
    assert main(["judge", str(cases)]) == 0
    assert capsys.readouterr().out.splitlines() == ['{"id": "f", "result": "legal"}']


def test_public_files_pass_on_the_command_line(capsys):
    files = [str(p) for p in sorted(CONFORMANCE.glob("*.jsonl"))]
    assert main(["judge", *files, "--check"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{len(PUBLIC)} passed, 0 failed"
