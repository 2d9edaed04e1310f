"""The command line's errors as a person meets them, run as the real command: each said from the catalogue, in Chinese,
or in English when asked (``--lang en``), in the form argparse gives its own (``cardtable table replay：错误：...``),
with no English words of Python, SQLite or the system passed through."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def run(args: list[str], lang: str, cwd) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_LANG"}
    return subprocess.run([sys.executable, "-m", "cardtable", *args, "--lang", lang], capture_output=True, text=True,
                          timeout=120, env=env, cwd=cwd)


def last_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    return done.stderr.splitlines()[-1]


@pytest.mark.parametrize("argv, zh, en", [
    (["--bogus"], "cardtable：错误：无法识别的参数：--bogus", "cardtable: error: unrecognized arguments: --bogus"),
    (["table", "--bogus"], "cardtable table：错误：无法识别的参数：--bogus", "cardtable table: error: unrecognized arguments: --bogus"),
    (["table", "run", "--tabel", "t1"], "cardtable table run：错误：无法识别的参数：--tabel",
     "cardtable table run: error: unrecognized arguments: --tabel"),
    (["table", "run"], "cardtable table run：错误：缺少参数：--table, --rulebook, --db",
     "cardtable table run: error: the following arguments are required: --table, --rulebook, --db"),
    (["tournament"], "cardtable tournament：错误：缺少参数：{new,pair,result,late,lot,withdraw,rounds,unpair,standings,show,export,"
     "backup,catch-up,simulate,serve}", "cardtable tournament: error: the following arguments are required: {new,pair,result,"
     "late,lot,withdraw,rounds,unpair,standings,show,export,backup,catch-up,simulate,serve}"),  # not 缺少参数：verb (the code's name)
    (["bridge", "bogus"], "cardtable bridge：错误：参数 {run,virtual}：无效的选择：'bogus'（可选：'run', 'virtual'）",
     "cardtable bridge: error: argument {run,virtual}: invalid choice: 'bogus' (choose from 'run', 'virtual')"),
])
def test_an_unknown_option_is_named_before_a_missing_argument(argv, zh, en, tmp_path):
    """``cardtable --bogus`` said 缺少参数：command (argparse checks what is missing first): it names the option."""
    assert last_line(run(argv, "zh", tmp_path)) == zh
    assert last_line(run(argv, "en", tmp_path)) == en


@pytest.mark.parametrize("verb", [["replay"], ["events"], ["backup", "--out", "copy.db", "--db"]])
def test_a_file_that_is_no_event_log_is_refused_in_the_command_lines_words(verb, tmp_path):
    (tmp_path / "notes.txt").write_text("root:x:0:0:root:/root:/bin/bash\n" * 40)
    name = " ".join(verb[:1])
    zh, en = (last_line(run(["table", *verb, "notes.txt"], lang, tmp_path)) for lang in ("zh", "en"))
    assert zh == f"cardtable table {name}：错误：notes.txt 不能当作事件日志读取，什么都没改（它不是 `SQLite` 数据库，或已损坏）", zh
    assert en == (f"cardtable table {name}: error: notes.txt cannot be read as an event log; nothing was changed "
                  "(it is no SQLite database, or a damaged one)"), en
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # nothing made


def test_a_registration_form_that_is_not_there_or_broken_is_said_in_words(tmp_path):
    (tmp_path / "form.xlsx").write_bytes(b"PK not a zip")
    for form, zh, en in (("nothere.csv", "nothere.csv：没有这个文件", "nothere.csv: no such file"),
                         ("form.xlsx", "form.xlsx：无法读取报名表：文件已损坏，或不是它的后缀所说的格式",
                          "form.xlsx: cannot read the form: the file is damaged, or not of the format its suffix says")):
        argv = ["tournament", "new", "--system", "pair-swiss", "--entries", form, "--db", "t.db"]
        assert last_line(run(argv, "zh", tmp_path)) == f"cardtable tournament new：错误：{zh}"
        assert last_line(run(argv, "en", tmp_path)) == f"cardtable tournament new: error: {en}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["form.xlsx"]  # no tournament file left


FORM = "单位,队,对,选手\n" + "".join(f"单位{u},1,{p},甲{u}{p} 乙{u}{p}\n" for u in range(1, 5) for p in (1, 2))


@pytest.fixture
def paired(tmp_path):
    """A pair Swiss tournament of four teams, round 1 paired, as an organiser makes it on the first evening."""
    (tmp_path / "form.csv").write_text(FORM, encoding="utf-8")
    for argv in (["new", "--system", "pair-swiss", "--entries", "form.csv", "--db", "hall.db", "--seed", "7"],
                 ["pair", "--db", "hall.db"]):
        assert run(["tournament", *argv], "zh", tmp_path).returncode == 0
    return tmp_path


def test_a_tournament_refusal_of_a_right_command_line_is_its_one_sentence(paired):
    """A result for a round not paired yet, a table the round has not, a pair Swiss table given seats' scores: the
    arguments were right, so the refusal is the one sentence, not argparse's usage before it (as if the command were
    mistyped); the file is unchanged."""
    before = (paired / "hall.db").read_bytes()
    for argv, zh, en in ((["--round", "2", "--table", "t01", "--winner", "0"], "第 2 轮尚未编排（已编排 1 轮）",
                          "round 2 is not paired (rounds paired: 1)"),
                         (["--round", "1", "--table", "t9", "--winner", "0"], "第 1 轮没有 t9 桌", "round 1 has no table t9"),
                         (["--round", "1", "--table", "t01", "--scores", "1,2,3,4"],  # a word of the code, in backticks
                          "成绩中有未知的字段 `scores`；成绩应写明胜方（0 或 1）或平局，以及双方的级数、局数",
                          "unknown result field(s) `scores`; a result names the winner (0 or 1) or a draw, the levels and the games")):
        for lang, words in (("zh", f"cardtable tournament result：错误：{zh}"), ("en", f"cardtable tournament result: error: {en}")):
            done = run(["tournament", "result", "--db", "hall.db", *argv], lang, paired)
            assert done.returncode == 2 and done.stderr == words + "\n", done.stderr
    assert (paired / "hall.db").read_bytes() == before


def test_a_mistyped_number_is_named_in_the_command_lines_words(paired):
    """argparse names a number by Python's type (无效的int值：'x'): a Chinese sentence with ``int`` in it."""
    for argv, zh, en in ((["late", "--round", "1", "--entry", "e01", "--minutes", "abc"], "参数 --minutes：无效的数值：'abc'",
                          "argument --minutes: invalid number value: 'abc'"),
                         (["show", "--round", "x"], "参数 --round：无效的整数值：'x'", "argument --round: invalid integer value: 'x'")):
        assert last_line(run(["tournament", *argv, "--db", "hall.db"], "zh", paired)) == f"cardtable tournament {argv[0]}：错误：{zh}"
        assert last_line(run(["tournament", *argv, "--db", "hall.db"], "en", paired)) == \
            f"cardtable tournament {argv[0]}: error: {en}"


def test_the_systems_error_is_said_in_words(paired):
    """An export written onto a folder said the system's English in the Chinese sentence (无法写出：Is a directory)."""
    (paired / "sheets").mkdir()
    argv = ["tournament", "export", "--db", "hall.db", "--format", "csv", "--out", "sheets"]
    assert last_line(run(argv, "zh", paired)) == "cardtable tournament export：错误：sheets：无法写出：是一个文件夹"
    assert last_line(run(argv, "en", paired)) == "cardtable tournament export: error: sheets: cannot write it: it is a folder"
    assert not any((paired / "sheets").iterdir())


def test_standings_before_any_round_is_complete_say_so(paired):
    """Round 1 in progress headed the standings 第 0 轮后 (after round 0): no round is complete yet; a complete round
    is still named (第 1 轮后)."""
    def heading(lang):
        done = run(["tournament", "standings", "--db", "hall.db"], lang, paired)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()[0]

    assert heading("zh").endswith("，尚无完成的一轮") and heading("en").endswith(", no round complete yet")
    for table in ("t01", "t02", "t03", "t04"):  # four teams of two pairs: four tables
        assert run(["tournament", "result", "--db", "hall.db", "--round", "1", "--table", table, "--winner", "0"], "zh",
                   paired).returncode == 0
    assert heading("zh").endswith("，第 1 轮后") and heading("en").endswith(", after round 1")


def test_sqlites_own_english_is_said_in_words(paired):
    """A tournament's file damaged said SQLite's English inside the Chinese sentence (database disk image is malformed,
    its integrity check's report): said in words ([sqlite]: 文件已损坏 / the file is damaged; the report in backticks);
    the file is unchanged."""
    db = paired / "hall.db"
    whole = db.read_bytes()
    for start, end, zh_said, en_said in ((4096, len(whole), "文件已损坏（`SQLite` 的完整性检查：", "the file is damaged (SQLite's integrity check: "),
                                         (100, 4096, "文件已损坏）", "the file is damaged)")):  # its pages, its first page
        data = whole[:start] + b"\xa5" * (end - start) + whole[end:]
        db.write_bytes(data)
        zh = last_line(run(["tournament", "standings", "--db", "hall.db"], "zh", paired))
        en = last_line(run(["tournament", "standings", "--db", "hall.db"], "en", paired))
        assert zh.startswith(f"cardtable tournament standings：错误：hall.db 已损坏（{zh_said}"), zh
        assert f"hall.db is damaged ({en_said}" in en, en
        assert "malformed" not in zh + en and db.read_bytes() == data
