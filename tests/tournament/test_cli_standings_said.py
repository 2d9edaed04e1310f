"""``cardtable tournament`` as the organiser reads it: the standings printed say what ranks them (the exports' own line,
``export.ranking``) and head themselves with the system in words (no id, no bare parenthesis); ``--reason`` reads as
required in ``--help`` where it is; an XLSX asked for on a terminal is refused in words, not poured out as bytes."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys

import pytest

from cardtable.cli import main
from referee.tournament import Entry, TournamentStore
from referee.tournament.export import ranking

SEED_000_4_5 = "团体总分高者名次列前；若总分相同，则比较对手分"


def made(tmp_path, name: str = "") -> TournamentStore:
    store = TournamentStore(tmp_path / "t.db")
    entries = [Entry(f"p{i}", f"甲{i}/乙{i}", unit, unit, (f"甲{i}", f"乙{i}")) for i, unit in enumerate(["机电", "机电", "工会", "工会"])]
    store.new("pair-swiss", entries, name=name, seed=1, options={"rounds": 2})
    store.pair_next_round()
    return store


def printed(capsys, *argv) -> list[str]:
    capsys.readouterr()
    assert main(["tournament", *argv]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_standings_printed_end_with_the_ranking_order_the_exports_say(tmp_path, capsys, lang):
    """000 四5 (团体总分高者名次列前；若总分相同，则比较对手分 ...): the command line's standings say it under the rows, the
    very line (one function) the CSV writes under its standings."""
    assert "比较对手分" in SEED_000_4_5
    store = made(tmp_path, "升级赛")
    lines = printed(capsys, "standings", "--db", str(store.path), "--lang", lang)
    said = ranking(store.tournament, lang)
    assert lines[-1] == said == {"zh": "排名依据：总分 → 对手分 → 级差 → 抽签（000 四5）",
                                 "en": "Ranked by: Total → Opp. score → Level diff → Lot (seed 000 四5)"}[lang]
    sheet = list(csv.reader(io.StringIO(store.export("csv", lang=lang).decode("utf-8-sig"))))
    assert [said] in sheet


@pytest.mark.parametrize("name, zh, en", [("", "积分编排赛，尚无完成的一轮", "pair Swiss, no round complete yet"),
                                          ("升级赛", "升级赛 · 积分编排赛，尚无完成的一轮", "升级赛 (pair Swiss), no round complete yet")])
def test_the_standings_heading_names_the_system_in_words_and_no_bare_parenthesis(tmp_path, capsys, name, zh, en):
    """Without ``--name`` the heading began （pair-swiss），…: the system is said in the reader's words, the tournament's
    name before it only where it has one."""
    db = str(made(tmp_path, name).path)
    assert printed(capsys, "standings", "--db", db)[0] == zh
    assert printed(capsys, "standings", "--db", db, "--lang", "en")[0] == en


def help_of(verb: str, lang: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_LANG"}
    done = subprocess.run([sys.executable, "-m", "cardtable", "tournament", verb, "--help", "--lang", lang],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split())  # argparse's lines wrapped at the terminal's width: read as one


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_help_says_reason_is_required_where_it_is_refused_without_it(lang):
    """``withdraw`` and ``unpair`` are refused without ``--reason`` (the log keeps why), ``result --correct`` too, but
    their ``--help`` showed it optional ([--reason REASON]): required in the usage, the option's line saying so."""
    for verb in ("withdraw", "unpair"):
        text = help_of(verb, lang)
        assert " --reason REASON" in text and "[--reason REASON]" not in text, text
        assert {"zh": "原因（必须给出，会记录）", "en": "why (required; recorded)"}[lang] in text
    text = help_of("result", lang)
    assert "[--reason REASON]" in text  # a result entered needs none
    assert {"zh": "原因（会记录）：用 `--correct` 更正成绩时必须给出", "en": "why (recorded): required with --correct"}[lang] in text


def test_withdraw_and_unpair_without_reason_are_refused_before_anything_changes(tmp_path, capsys):
    store = made(tmp_path)
    seq, db = store.last_seq(), str(store.path)
    for argv in (["withdraw", "--entry", "p1"], ["unpair", "--round", "1"]):
        with pytest.raises(SystemExit) as exc:
            main(["tournament", argv[0], "--db", db, *argv[1:], "--lang", "en"])
        assert exc.value.code == 2 and "the following arguments are required: --reason" in capsys.readouterr().err
    assert TournamentStore(db).last_seq() == seq


def export_on_a_terminal(db: str, lang: str, *more: str) -> tuple[int, bytes, str]:
    """``tournament export`` run with its standard output a terminal (a real pty): its status, what the terminal got,
    its standard error."""
    import pty

    main_end, term = pty.openpty()
    try:
        env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_LANG"}
        done = subprocess.run([sys.executable, "-m", "cardtable", "tournament", "export", "--db", db, *more, "--lang", lang],
                              stdout=term, stderr=subprocess.PIPE, timeout=120, env=env)
        os.set_blocking(main_end, False)
        got = b""
        try:
            while chunk := os.read(main_end, 65536):
                got += chunk
        except (BlockingIOError, OSError):
            pass
    finally:
        os.close(term)
        os.close(main_end)
    return done.returncode, got, done.stderr.decode()


@pytest.mark.parametrize("lang, words", [("zh", "`xlsx` 是二进制的工作簿，不能写到终端上：请用 `--out 文件名.xlsx` 写成文件"),
                                         ("en", "`xlsx` is a binary workbook, not for a terminal: give `--out FILE.xlsx` to write it to a file")])
def test_an_xlsx_asked_for_on_a_terminal_is_refused_in_words(tmp_path, lang, words):
    """The workbook's bytes (PK\\x03\\x04 ...) were written onto the organiser's terminal: refused, saying to give
    ``--out``; nothing written. A CSV there is text, still printed; piped, the XLSX still goes to standard output."""
    db = str(made(tmp_path).path)
    code, got, err = export_on_a_terminal(db, lang, "--format", "xlsx")
    assert code == 2 and got == b"" and err.strip().endswith(words), (code, got[:40], err)
    code, got, err = export_on_a_terminal(db, lang, "--format", "csv")
    assert code == 0 and {"zh": "排名依据", "en": "Ranked by"}[lang] in got.decode("utf-8-sig", "replace"), err
    piped = subprocess.run([sys.executable, "-m", "cardtable", "tournament", "export", "--db", db, "--format", "xlsx"],
                           capture_output=True, timeout=120)
    assert piped.returncode == 0 and piped.stdout.startswith(b"PK\x03\x04"), piped.stderr
