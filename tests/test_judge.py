"""``cardtable judge``: the public conformance cases, malformed input, and the command line."""

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cardtable.cli import main
from referee.judge import answer, matches
from referee.rulebooks import names

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
        ({"hand": "S5 S5"}, "field 'hand' must be a list of cards, not a string"),
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


def test_a_check_of_no_case_does_not_pass(tmp_path, capsys):
    """An empty file (a case file cut short, the wrong file given) checks nothing: it must not look like a pass."""
    cases = tmp_path / "cases.jsonl"
    cases.write_text("\n")
    assert main(["judge", str(cases), "--check"]) == 1
    assert capsys.readouterr().out.splitlines() == ["0 passed, 0 failed"]
    assert main(["judge", str(cases)]) == 0  # answering no case is not an error


def test_command_line_without_check_prints_only_answers(tmp_path, capsys):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps(FOLLOW) + "\n")
    assert main(["judge", str(cases)]) == 0
    assert capsys.readouterr().out.splitlines() == ['{"id": "f", "result": "legal"}']


def test_public_files_pass_on_the_command_line(capsys):
    files = [str(p) for p in sorted(CONFORMANCE.glob("*.jsonl"))]
    assert main(["judge", *files, "--check"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{len(PUBLIC)} passed, 0 failed"


def test_answers_piped_into_a_reader_that_stops_end_without_a_traceback(tmp_path):
    """``cardtable judge many.jsonl | head -1``: the reader goes away after one line (more than a pipe holds is
    written). The command stops there, exit status 1, and says nothing on stderr (it printed a BrokenPipeError)."""
    import subprocess
    import sys

    cases = tmp_path / "many.jsonl"
    cases.write_text((json.dumps(FOLLOW) + "\n") * 5000)  # about 150 KB of answers, more than a pipe's 64 KB
    proc = subprocess.Popen([sys.executable, "-m", "cardtable", "judge", str(cases)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=Path(__file__).resolve().parents[1])
    assert json.loads(proc.stdout.readline()) == {"id": "f", "result": "legal"}
    proc.stdout.close()
    assert proc.wait(60) == 1
    assert proc.stderr.read() == b""


# ---- every line answered, in words ------------------------------------------------------------

MUTANTS = (None, True, 0, 7, -5, 10**20, 1.5, "", "x", "h", [], {}, [[]], ["SX"], [None], [["S3"], ["S4", "S5"]], {"N": ["S3"]})


def _mutations():
    for case in PUBLIC:
        for key in case:
            if key in ("id", "expect"):
                continue
            rest = {k: v for k, v in case.items() if k != key}
            yield f"{case['id']}-no-{key}", rest
            for i, value in enumerate(MUTANTS):
                yield f"{case['id']}-{key}-{i}", {**case, key: value}


PYTHON_WORDS = ("internal error", "Error:", "Traceback", "attribute", "unpack", "object is not", "NoneType", "KeyError")


def chinese(said: str) -> bool:
    """An error said in Chinese: Chinese words, and no English word but inside backticks (a field, a value as the
    case wrote it), in quotes (a rulebook or card as typed) and the rulebooks' ids."""
    rest = re.sub(r"`[^`]*`|“[^”]*”|'[^']*'|" + "|".join(map(re.escape, names())), "", said)
    return bool(re.search(r"[\u4e00-\u9fff]", said)) and not re.search(r"[A-Za-z]{3,}", rest)


def worded(out: dict) -> bool:
    """An answer in words: a result, or an error in English (``error``, no Python in it) and in Chinese (``said``)."""
    if "result" in out:
        return "error" not in out
    return not any(w in out["error"] for w in PYTHON_WORDS) and chinese(out["said"])


def test_a_broken_case_is_answered_in_words(capsys):
    # README: an input that is malformed is answered with {"id": ..., "error": "<clear message>"}, never a
    # crash: every public case with each field dropped or replaced by a value of every JSON type
    bad, n = [], 0
    for name, case in _mutations():
        out, n = answer(case, "zh"), n + 1
        if not worded(out):
            bad.append((name, out))
    assert n > 5000 and not bad, (bad[:5], capsys.readouterr().err[-800:])


IMPOSSIBLE = [
    ({"op": "score", "rulebook": "zhongkai-2010", "defender_points": 123}, "no count of points"),
    ({"op": "score", "rulebook": "shaoguan-2023", "defender_points": 10**20}, "more than a hand of shaoguan-2023 can give"),
    ({**FOLLOW, "lead": [], "play": []}, "field 'lead' must hold at least one card"),
    ({**FOLLOW, "before": [["S3"]]}, "plays of 2, 1, 2"),
    ({**FOLLOW, "before": [["S3", "S3"], ["S4", "S4"], ["S6", "S6"]]}, "2 to 4 plays"),
    ({**FOLLOW, "hand": ["S5"] * 3 + ["D3"] * 37}, "field 'hand' has 40 cards, but a hand in zhongkai-2010 holds at most 39"),
    ({"op": "throw", "rulebook": "classic-3deck", "level": "7", "trump": "H", "cards": ["SA", "SA", "SK"],
      "others": {s: ["D3"] for s in "SENW"}}, "names all four seats"),
    ({"op": "kitty", "rulebook": "zhongkai-2010", "level": "7", "trump": "H", "kitty_points": 65,
      "last_trick": [["H3"], ["H9"], ["HK"], ["HA"]], "winner_is_defender": True}, "cannot be the points of 6 kitty cards"),
    ({"op": "kitty", "rulebook": "zhongkai-2010", "level": "7", "trump": "H", "kitty_points": 25,
      "last_trick": [["H3"], ["H9", "H9"], ["HK"], ["HA"]], "winner_is_defender": True}, "plays of 1, 2, 1, 1"),
    ({"op": "kitty", "rulebook": "zhongkai-2010", "level": "7", "trump": "H", "kitty_points": 25,
      "last_trick": [["H3"], ["H9"], ["HK"], ["HA"]], "winner_is_defender": "yes"}, "must be true or false"),
    ({"op": "winner", "rulebook": "zhongkai-2010", "level": "7", "trump": "H", "plays": [["S3"]]}, "2 to 4 plays"),
    ({"op": "follow", "rulebook": "sanjiang-2012"}, "sanjiang-2012 is a Guandan rulebook, not a Tractor one"),
    ({**FOLLOW, "hand": None}, "field 'hand' must be a list of cards, not null"),
    ({k: v for k, v in FOLLOW.items() if k != "lead"}, "field 'lead' is missing"),
    ({"op": "throw", "rulebook": "classic-3deck", "level": "7", "trump": "H", "cards": ["SA"], "others": []},
     "field 'others' must be an object of seat to cards, not a list"),
    ({"op": "hand", "rulebook": "zhongkai-2010", "level": "7", "trump": "H", "dealer": "S", "tricks": [[["S"]]]},
     "trick 1: each play is [seat, cards]"),
    # 003 不留底牌打法 2: “2”作常主; 5: 双方争打3 -- no side plays 2 as its level there
    ({"op": "lead", "rulebook": "shaoguan-2023-nokitty", "level": "2", "trump": "S", "cards": ["H3"]},
     "level 2 is never played in shaoguan-2023-nokitty"),
]


@pytest.mark.parametrize("change, message", IMPOSSIBLE, ids=[m for _, m in IMPOSSIBLE])
def test_an_impossible_case_is_refused_in_words(change, message):
    # README: malformed input gets {"id": ..., "error": ...}; the inputs no hand of the rulebook can hold too
    case = {"id": "x", "game": "tractor", **change}
    out = answer(case)
    assert "result" not in out and message in out["error"], out


def test_climbing_impossible_cases_are_refused_in_words():
    # 002 一: 每人27张牌 -- no hand pays a tribute out of 30 cards; 三: 二游/三游/四游 only
    case = {"id": "t", "game": "guandan", "rulebook": "sanjiang-2012", "op": "tribute", "level": "5",
            "hand": ["S3"] * 2 + ["D4"] * 2 + ["C5"] * 2 + ["H6"] * 2 + ["S7"] * 2 + ["D8"] * 2 + ["C9"] * 2
            + ["HT"] * 2 + ["SJ"] * 2 + ["DQ"] * 2 + ["CK"] * 2 + ["HA"] * 2 + ["S2"] * 2 + ["D2"] * 2 + ["C2"] * 2,
            "card": "S3"}
    assert "field 'hand' has 30 cards, but a hand in sanjiang-2012 holds at most 27" in answer(case)["error"]
    bad = {"id": "r", "game": "guandan", "rulebook": "sanjiang-2012", "op": "result", "partner_place": 1}
    assert answer(bad)["error"] == "the first's partner finishes one of 2, 3, 4, not 1"
    bombs = {"id": "b", "game": "sandayi", "rulebook": "usst-2016", "op": "bomb_allowed", "bid": 1, "bombs_played": -1}
    assert "must be 0 or more" in answer(bombs)["error"]


def test_a_decimal_where_a_whole_number_is_wanted_is_named_a_decimal():
    # 002 三: 如上游的对门为二游…三游…四游 -- a place is a whole number; 2.5 was "a whole number, not a number"
    case = {"id": "r", "game": "guandan", "rulebook": "sanjiang-2012", "op": "result", "partner_place": 2.5}
    assert answer(case)["error"] == "field 'partner_place' must be a whole number, not a number with a decimal point"
    assert answer(case, "zh")["said"] == "字段 `partner_place`应为整数，而不是小数"


def test_trump_suits_and_cards_read_alike():
    # conformance README: parsers accept the suit symbols and (as for cards) lowercase; output is canonical
    for trump in ("H", "h", "♥"):
        case = {"id": "w", "game": "tractor", "op": "winner", "rulebook": "zhongkai-2010", "level": "7", "trump": trump,
                "plays": [["s3"], ["h2"], ["♠K"], ["S4"]]}
        assert answer(case) == {"id": "w", "result": 1}
    case = {"id": "w", "game": "tractor", "op": "winner", "rulebook": "zhongkai-2010", "level": "7", "trump": "X",
            "plays": [["S3"], ["S4"]]}
    assert answer(case)["error"] == "unknown trump suit 'X'"
    # seats too: s and S alike, in the dealer, the tricks and the others of a throw
    hand = {"id": "h", "game": "tractor", "op": "hand", "rulebook": "zhongkai-2010", "level": "j", "trump": "h", "dealer": "s",
            "tricks": [[["s", ["SA"]], ["e", ["D3"]], ["n", ["S4"]], ["w", ["S5"]]]]}
    assert answer(hand)["result"] == {"revokes": [], "failed_throws": [], "defender_points": 0}
    throw = {"id": "t", "game": "tractor", "op": "throw", "rulebook": "classic-3deck", "level": "7", "trump": "h",
             "cards": ["sa", "sa", "sk"], "others": {"e": ["SA", "S3", "D3"], "n": ["S2", "C3"], "w": ["D4", "C5"]}}
    assert answer(throw)["result"] == {"valid": False, "forced": ["SK"]}


def test_unreadable_files_are_error_lines_and_the_others_are_answered(tmp_path, capsys):
    # every line answered: a missing file, a directory and bytes that are not UTF-8 are one error line each
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps({**FOLLOW, "expect": "legal"}) + "\n")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(json.dumps(FOLLOW).encode() + b"\n\xff\xfe{}\n")
    paths = [str(tmp_path / "missing.jsonl"), str(tmp_path), str(binary), str(good)]
    assert main(["judge", *paths]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["id"] for line in lines] == [None, None, None, "f"]
    assert "missing.jsonl: no such file" in lines[0]["error"]
    assert "is a directory" in lines[1]["error"]
    assert "binary.jsonl: line 2 is not UTF-8 text (byte 0xff)" in lines[2]["error"]
    assert lines[3] == {"id": "f", "result": "legal"}
    assert main(["judge", str(good), str(tmp_path / "missing.jsonl"), "--check"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 1 failed"


def test_a_line_that_is_no_case_is_answered_like_a_malformed_case(tmp_path, capsys):
    """README: a line that is no case is one error line with ``"id": null``, the other lines are answered, and, like
    a malformed case, it leaves the exit status 0; ``--check`` counts it failed (exit 1)."""
    cases = tmp_path / "cases.jsonl"
    cases.write_text("not json\n" + json.dumps({**FOLLOW, "expect": "legal"}) + "\n")
    assert main(["judge", str(cases)]) == 0
    assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == [None, "f"]
    assert main(["judge", str(cases), "--check"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 1 failed"


# ---------------------------------------------------------------- the clock op

CLOCK_CASES = Path(__file__).resolve().parent / "clock.jsonl"
CLOCK = [json.loads(line) for line in CLOCK_CASES.read_text().splitlines() if line.strip()]


def test_the_clock_cases_pass_on_the_command_line(capsys):
    """``cardtable judge tests/clock.jsonl --check``: every clock case answers as expected."""
    assert main(["judge", str(CLOCK_CASES), "--check"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{len(CLOCK)} passed, 0 failed"


def clock_settings(book: str) -> set[str]:
    """The settings of a rulebook's ``[clock]`` section as written (each late band by its entry); ``none`` when
    the section sets nothing; nothing for a book that extends another and leaves the clock as that book's (whose
    cases cover it)."""
    path = Path(__file__).resolve().parents[1] / "referee" / "rulebooks" / f"{book}.toml"
    raw = tomllib.loads(path.read_text())
    if "extends" in raw and "clock" not in raw:
        return set()
    clock = raw["clock"]
    found = {k for k in clock if k not in ("articles", "penalties", "late_bands")}
    found |= {f"late_bands.{key}" for _, key in clock.get("late_bands", [])}
    return found or {"none"}


@pytest.mark.parametrize("book", names())
def test_every_clock_setting_of_every_rulebook_has_a_case(book):
    """Each setting a book's ``[clock]`` writes (its 0 for no clock too) is covered by a case of its own book that
    quotes the article."""
    cases = [c for c in CLOCK if c["rulebook"] == book]
    covered = set().union(*(c["covers"] for c in cases)) if cases else set()
    assert clock_settings(book) <= covered, f"{book}: no clock case for {sorted(clock_settings(book) - covered)}"
    assert all(c["quote"] and c["id"].startswith("clock-") for c in cases)


def test_the_clock_cases_hold_every_item_of_the_clock_rules():
    """The rulings the cases expect, across the books: each kind of clock ruling happens in some case."""
    said = {(r.get("violation") or r.get("event"), r.get("penalty") or r.get("by")) for c in CLOCK for r in c["expect"]["rulings"]}
    for ruling in [("overtime", "warning"), ("overtime", "20 points"), ("overtime", "turn given up"), ("overtime", "foul"),
                   ("late_arrival", "warning"), ("late_arrival", "20 points"), ("late_arrival", "30 points"),
                   ("late_arrival", "first hand forfeited"), ("late_arrival", "round forfeited"),
                   ("game_won", "late"), ("game_won", "fouls"), ("round_forfeited", None), ("hand_forfeited", None),
                   ("round_over", None)]:
        assert ruling in said, ruling


CLOCK_CASE = {"id": "c", "game": "guandan", "op": "clock", "rulebook": "sanjiang-2012",
              "inputs": [[0, "ready", "S"], [0, "ready", "E"], [0, "ready", "N"], [0, "ready", "W"], [2, "draw", "S"]]}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"rulebook": "classic-3deck"}, "classic-3deck is a Tractor rulebook, not Guandan"),
        ({"inputs": []}, "inputs must be a list"),
        ({"inputs": [[5, "ready", "S"], [4, "ready", "E"]]}, "input 2: t 4 is before the one before it (5)"),
        ({"inputs": [[0, "dance"]]}, "input 1: unknown action 'dance'"),
        ({"inputs": [[0, "ready", "X"]]}, "unknown seat 'X'"),
        ({"inputs": [[0, "ready"]]}, "input 1: ready takes other arguments than []"),
        ({"inputs": [[0, "play"]]}, "input 1 (play at 0 s): no play is due (phase arriving)"),
        ({"inputs": CLOCK_CASE["inputs"] + [[3, "play", "E"]]}, "E is not to act: S is"),
        ({"inputs": CLOCK_CASE["inputs"] + [[3, "return"]]}, "no return card is due"),
        ({"seed": "x"}, "seed must be a whole number"),
        ({"inputs": CLOCK_CASE["inputs"][:4] + [[3, "bid", "S", 1]]}, "input 5 (bid at 3 s): only San Da Yi has bids"),
        ({"game": "sandayi", "rulebook": "usst-2016", "inputs": CLOCK_CASE["inputs"][:4] + [[5, "bid", "S", 3],
          [6, "bid", "E", 1]]}, "input 6 (bid at 6 s): no bidding now (phase kitty)"),  # not "bids are San Da Yi's"
        ({"game": "sandayi", "rulebook": "usst-2016", "inputs": CLOCK_CASE["inputs"][:4] + [[5, "bid", "S", 0]]},
         "input 5 (bid at 5 s): unknown bid 0; a bid is one of 1, 2, 3 or pass"),  # not "button bid0 means nothing"
        ({"inputs": CLOCK_CASE["inputs"][:4] + [[3, "play_out"]]}, "input 5 (play_out at 3 s): no play is due (phase drawing)"),
        ({"inputs": [[0, "ready", "S"], [float("inf"), "wait"]]}, "input 2: t inf is no time"),  # not "before the one before it"
        ({"inputs": [[float("nan"), "ready", "S"]]}, "input 1: t nan is no time"),
        ({"inputs": [[0, "ready", "S"], [10**400, "wait"]]}, "input 2: t 1000"),  # never a float overflow, an internal error
    ],
)
def test_a_malformed_clock_case_is_a_clear_error(change, message):
    out = answer({**CLOCK_CASE, **change})
    assert "result" not in out and message in out["error"], out


def test_a_broken_clock_case_is_answered_in_words(capsys):
    """As every op: a clock case with a field dropped or replaced, or one of its inputs' parts replaced, by a value
    of every JSON type is answered with an error in words (or a result), never a crash."""
    four = [[0, "ready", s] for s in "SENW"]
    cases = [CLOCK_CASE | {"inputs": CLOCK_CASE["inputs"] + [[3, "play"], [20, "pass"]]},
             {"id": "t", "game": "tractor", "op": "clock", "rulebook": "classic-3deck", "inputs": four + [[10, "draw"], [16, "kitty"], [20, "play"]]},
             {"id": "s", "game": "sandayi", "op": "clock", "rulebook": "usst-2016", "inputs": four + [[5, "bid", "S", 1]]}]
    bad, n = [], 0
    for case in cases:
        variants = [{k: v for k, v in case.items() if k != key} for key in ("rulebook", "inputs", "game")]
        variants += [{**case, key: value} for key in ("rulebook", "inputs", "seed") for value in MUTANTS]
        for i, item in enumerate(case["inputs"][3:], 3):
            for j in range(len(item) + 1):
                for value in MUTANTS:
                    changed = list(item[:j]) + [value] + list(item[j + 1:])
                    variants.append({**case, "inputs": case["inputs"][:i] + [changed] + case["inputs"][i + 1:]})
        for variant in variants:
            out, n = answer(variant, "zh"), n + 1
            if not worded(out):
                bad.append((variant.get("inputs"), out))
    assert n > 500 and not bad, (bad[:5], capsys.readouterr().err[-800:])


def test_a_card_shown_before_the_dealers_first_lead_is_out_of_turn():
    """Seed 001 二十二: 凡不按规定的出牌顺序，过早地将牌亮在桌上，称为越序引牌（越序领出）、越序跟牌或越序垫牌。越序出牌
    一旦成立，一次扣罚20分; 二十三: 庄家留底牌和首引不得超过60秒钟. A defender's card laid while the dealer still buries
    the kitty is 越序引牌: the op shows it (before, it refused: 'nothing is being played (phase kitty)'), the table flags
    it, and the dealer's 60 s stand while the referee looks (4 s + 56 s: in time)."""
    four = [[0, "ready", s] for s in "SENW"]
    case = {"id": "k", "game": "tractor", "op": "clock", "rulebook": "classic-3deck",
            "inputs": four + [[10, "draw"], [16, "kitty"], [20, "out_of_turn", "W"], [30, "confirm"], [86, "play"]]}
    out = answer(case)["result"]
    assert out["rulings"][-1] == {"t": 30.0, "seat": "W", "violation": "out_of_turn", "penalty": "20 points"}, out
    assert len(out["rulings"]) == 3 and (out["turn"], out["left"]) == ("E", 10.0), out


def test_playing_out_a_hand_while_a_flag_is_open_is_a_clear_error(tmp_path):
    """The clock op's ``play_out`` plays and passes for the seats; while a flag is open (an unsure read, a card shown
    out of turn) a pass waits for the referee as a play does, so the hand cannot be played out: said in words, as
    ``play`` says it. Before, Guandan and San Da Yi passed on for good and the judge never answered (the timeout
    only ends a run that hangs)."""
    four = [[0, "ready", s] for s in "SENW"]
    guandan = {**CLOCK_CASE, "inputs": CLOCK_CASE["inputs"] + [[3, "play"], [4, "unsure"], [5, "play_out"]]}
    cases = [guandan, {**guandan, "inputs": CLOCK_CASE["inputs"] + [[3, "play"], [4, "out_of_turn", "N"], [5, "play_out"]]},
             {"id": "s", "game": "sandayi", "op": "clock", "rulebook": "usst-2016",
              "inputs": four + [[1, "bid", "S", 3], [2, "kitty"], [3, "play"], [4, "unsure"], [5, "play_out"]]}]
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in cases))
    run = subprocess.run([sys.executable, "-m", "cardtable", "judge", str(path), "--lang", "en"], capture_output=True,
                         text=True, cwd=Path(__file__).resolve().parents[1], timeout=120)
    errors = [json.loads(line).get("error", "") for line in run.stdout.splitlines()]
    assert len(errors) == 3 and all("(play_out at 5 s): the table waits for the referee" in e for e in errors), run


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_command_line_says_its_errors_in_its_language_and_keeps_them_machine_readable(lang, tmp_path):
    """README: every command speaks Chinese (English with ``--lang en``). An error line stays one JSON object whose
    ``error`` is the same English words in either language (what programs compare); ``said`` is the reader's."""
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({**FOLLOW, "id": "z", "hand": ["ZZ"]}) + "\nnot json\n[1]\n")
    env = {**os.environ, "CARDTABLE_LANG": ""}
    run = subprocess.run([sys.executable, "-m", "cardtable", "judge", str(tmp_path / "none.jsonl"), str(cases), "--lang", lang],
                         capture_output=True, text=True, env=env, cwd=Path(__file__).resolve().parents[1], timeout=60)
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 1 and not run.stderr and [line["id"] for line in lines] == [None, "z", None, None], run
    assert [line["error"] for line in lines] == [f"{tmp_path / 'none.jsonl'}: no such file", "unknown card 'ZZ'",
                                                 f"{cases}:2: not a JSON object (no JSON from column 1 on)",
                                                 f"{cases}:3: not a JSON object: a case is an object, not a list"]
    said = [line["said"] for line in lines]
    if lang == "en":
        assert said == [line["error"] for line in lines]
    else:
        assert said == [f"{tmp_path / 'none.jsonl'}：没有这个文件", "没有这张牌：ZZ", f"{cases}:2：不是 `JSON` 对象（从第 1 列起不是 `JSON`）",
                        f"{cases}:3：不是 `JSON` 对象：案例应为对象，而不是列表"]


def test_a_san_da_yi_case_is_told_in_san_da_yi_words():
    """004: 决定庄家后，8张底牌发给庄家 -- the dealer takes the kitty and buries none: a bid refused then names the phase
    拿底牌, not Tractor's 扣底."""
    path = Path(__file__).resolve().parent / "seed_cases" / "sandayi-usst-2016.jsonl"
    case = next(json.loads(line) for line in path.read_text().splitlines() if "bid-after-three-in-the-middle" in line)
    said = answer(case, "zh")["said"]
    assert said.endswith("现在不在叫分（阶段：拿底牌）"), said


@pytest.mark.parametrize("trump, message, said", [
    (None, "field 'trump' must name the trump suit (S, H, D, C), not null: every hand of zhongkai-2010 has one",
     "字段 `trump` 应写明主牌花色（S、H、D、C），而不是空值（`null`）：zhongkai-2010 的每一盘都有主牌花色"),
    (7, "field 'trump' must be a suit (S, H, D, C), not a number", "字段 `trump`应为花色（S、H、D、C），而不是数"),
])
def test_a_tractor_case_names_its_trump_suit(trump, message, said):
    """000 第八条 2: 当一盘牌摸牌结束仍无人揭牌，则由该盘摸第一张牌的运动员做庄，由庄家指定任一门花色牌为主牌; 001 九 1:
    不打无将牌 -- every hand has a trump suit, and the README's Tractor ops take ``trump`` a suit letter. A case with
    ``"trump": null`` (or none) was judged as a hand where no suit is trump, which no rulebook plays: refused in words."""
    assert answer({**FOLLOW, "trump": trump}) == {"id": "f", "error": message, "said": message}
    assert answer({**FOLLOW, "trump": trump}, "zh")["said"] == said
    assert answer({k: v for k, v in FOLLOW.items() if k != "trump"})["error"] == "field 'trump' is missing"


FOUR = [[0, "ready", s] for s in "SENW"]
TRACTOR_CLOCK = {"id": "t", "game": "tractor", "op": "clock", "rulebook": "classic-3deck"}
SANDAYI_CLOCK = {"id": "s", "game": "sandayi", "op": "clock", "rulebook": "usst-2016"}


@pytest.mark.parametrize("case, message", [
    ({**TRACTOR_CLOCK, "inputs": FOUR + [[10, "draw"], [16, "kitty"], [17, "kitty"]]},
     "input 7 (kitty at 17 s): the dealer already took the kitty of hand 1 (phase kitty)"),
    ({**TRACTOR_CLOCK, "inputs": FOUR + [[10, "draw"], [16, "kitty"], [20, "play"], [25, "kitty"]]},
     "input 8 (kitty at 25 s): the dealer already took the kitty of hand 1 (phase playing)"),
    ({**TRACTOR_CLOCK, "inputs": FOUR + [[16, "kitty"]]}, "input 5 (kitty at 16 s): the draw has not ended: a draw input comes before kitty"),
    ({**TRACTOR_CLOCK, "inputs": [[16, "kitty"]]}, "input 1 (kitty at 16 s): no kitty is to be taken now (phase arriving)"),
    ({**SANDAYI_CLOCK, "inputs": FOUR + [[1, "bid", "S", 3], [2, "kitty"], [3, "kitty"]]},
     "input 7 (kitty at 3 s): the dealer already took the kitty of hand 1 (phase playing)"),
    ({**SANDAYI_CLOCK, "inputs": FOUR + [[1, "kitty"]]}, "input 5 (kitty at 1 s): no kitty is to be taken now (phase bidding)"),
    ({**TRACTOR_CLOCK, "inputs": FOUR + [[1, "last_hand"], [10, "draw"], [16, "kitty"], [20, "play_out"], [21, "last_hand"]]},
     "input 9 (last_hand at 21 s): no round is being played (phase round over): no hand is left to announce as the last"),
    ({**TRACTOR_CLOCK, "inputs": FOUR + [[1, "last_hand"], [2, "last_hand"]]}, "input 6 (last_hand at 2 s): the last hand is already announced"),
    ({**TRACTOR_CLOCK, "inputs": [[-5, "ready", "S"]]}, "input 1: t -5 is before the round's start (0): t counts the seconds"),
])
def test_a_clock_input_the_table_cannot_be_at_is_said_as_the_case_wrote_it(case, message):
    """A second ``kitty`` was 'the table did not take it: S: button ready means nothing in phase kitty' (the button
    the op presses, not the input the case gave); a ``last_hand`` after the round is over (001 三: 自宣布之时起手中正在打的
    这副牌打完结束比赛 -- announced, the hand in play is the last) was taken in silence as if it counted; a
    time before the round's start was 'before the one before it'. Each now names the input and what the table is at."""
    out = answer(case)
    assert "result" not in out and message in out["error"], out
    assert chinese(answer(case, "zh")["said"]), answer(case, "zh")


def test_lines_the_json_reader_cannot_take_are_error_lines_and_the_others_are_answered(tmp_path, capsys):
    """Every line answered: a line nested deeper than the reader follows stopped the whole run with a RecursionError
    traceback; a key given twice in one object was read as its last value (``"trump": "H", "trump": "S"``: spades,
    guessed in silence); a number past the reader's digits was 'no JSON from column 1 on'; NaN and 1e999 (infinity) were
    taken as numbers, though JSON has no such number (the judge now reads a line as the bus reads a payload)."""
    cases = tmp_path / "cases.jsonl"
    twice = json.dumps(FOLLOW)[:-1] + ', "trump": "S"}'
    cases.write_text("\n".join(["[" * 100000 + "]" * 100000, '{"id": "d", "v": ' + "[" * 100000 + "]" * 100000 + "}",
                                twice, '{"id": "n", "level": ' + "9" * 5000 + "}", '{"id": "i", "level": 1e999}',
                                '{"id": "j", "level": NaN}', json.dumps(FOLLOW)]) + "\n")
    assert main(["judge", str(cases), "--lang", "zh"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["id"] for line in lines] == [None] * 6 + ["f"] and lines[-1]["result"] == "legal"
    assert [line["error"] for line in lines[:6]] == [
        f"{cases}:1: lists or objects nested too deep to read: no case is so deep",
        f"{cases}:2: lists or objects nested too deep to read: no case is so deep",
        f"{cases}:3: key 'trump' is given twice in one object: which one is meant is not guessed",
        f"{cases}:4: a whole number of more digits than can be read: no case needs such a number",
        f"{cases}:5: the number 1e999 is no finite number: no case needs it",
        f"{cases}:6: the number NaN is no finite number: no case needs it"]
    assert all(chinese(line["said"].replace(str(cases), "")) for line in lines[:6]), lines


def test_a_huge_value_is_named_not_repeated():
    """An error names what the case wrote, cut: a 100 000-character card, rank, seat, rulebook, op, bid or action
    was written back whole into its error line (200 000 characters, English and Chinese)."""
    huge, outs = "S" * 100000, []
    for case in PUBLIC + [{**SANDAYI_CLOCK, "inputs": FOUR}]:
        for key, value in case.items():
            if key in ("id", "expect"):
                continue
            outs.append(answer({**case, key: huge}, "zh"))
            if isinstance(value, list) and value and isinstance(value[0], (str, list)):
                outs.append(answer({**case, key: [huge] + value[1:]}, "zh"))
    for i in range(len(FOUR[0])):
        outs.append(answer({**SANDAYI_CLOCK, "inputs": FOUR[:3] + [FOUR[3][:i] + [huge] + FOUR[3][i + 1:]]}, "zh"))
    outs.append(answer({**SANDAYI_CLOCK, "inputs": FOUR + [[1, "bid", "S", huge]]}, "zh"))
    assert all("error" in out for out in outs) and len(outs) > 300
    too_long = [out for out in outs if len(out["error"]) + len(out["said"]) > 800]
    assert not too_long, [(out["id"], out["error"][:100]) for out in too_long[:5]]


def test_a_throw_nobody_else_can_beat_is_valid_whoever_is_named():
    """000 第六条 5: 当引牌者确认自己手中所拥有的…多种牌种组合即使分拆为较低较小牌种组合后，仍然分别是最大级别时，可同时一齐
    打出 -- a throw is judged against the cards the others are given to hold (a case names only the cards that matter,
    as the public cases do). No seat named, or none holding a card of the suit that could beat a unit: every unit
    is the largest there is, so the throw stands; one card that beats a unit fails it."""
    throw = {"id": "t", "game": "tractor", "op": "throw", "rulebook": "zhongkai-2010", "level": "7", "trump": "H",
             "cards": ["SQ", "SK"]}
    for others in ({}, {"E": [], "N": [], "W": []}, {"E": ["D3"], "N": ["S2"], "W": ["CA"]}):
        assert answer({**throw, "others": others})["result"] == {"valid": True}, others
    assert answer({**throw, "others": {"E": ["D3"], "N": ["SA"], "W": ["CA"]}})["result"] == {"valid": False, "forced": ["SQ"]}


def test_a_seat_that_is_no_string_is_named_as_what_it_is():
    """README: seats ``S E N W``. A null dealer was "not 'None'" (Python's word for it), a number "not '7'" as if
    the case had written the string: each is named as the JSON it is, as every other field's wrong type is."""
    hand = {"id": "h", "game": "tractor", "op": "hand", "rulebook": "zhongkai-2010", "level": "7", "trump": "H", "dealer": None,
            "tricks": [[["S", ["SA"]], ["E", ["S3"]], ["N", ["S4"]], ["W", ["S5"]]]]}
    assert answer(hand)["error"] == "field 'dealer' must be a seat (S E N W), not null"
    assert answer(hand, "zh")["said"] == "字段 `dealer`应为座位（S E N W），而不是空值（`null`）"
    hand |= {"dealer": "S", "tricks": [[[7, ["SA"]]]]}
    assert answer(hand)["error"] == "trick 1: the first item of a play must be a seat (S E N W), not a number"
    assert answer(hand | {"tricks": [[["X", ["SA"]]]]})["error"] == "trick 1: the first item of a play must be a seat (S E N W), not 'X'"


def test_a_check_names_a_line_that_is_no_case_by_its_place(tmp_path, capsys):
    """``--check`` said ``FAIL None: expected null`` for a line that is no case (no id, no expect): its file and line."""
    cases = tmp_path / "cases.jsonl"
    cases.write_text('{"id": "x",\n' + json.dumps({**FOLLOW, "expect": "legal"}) + "\n")
    assert main(["judge", str(cases), "--check"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"FAIL {cases}:1: not a case (its error is the line above)" and out[-1] == "1 passed, 1 failed", out

