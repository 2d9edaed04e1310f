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
