"""Every command family's error line in one form, argparse's (``cardtable X Y：错误：...`` in Chinese, ``cardtable X Y:
error: ...`` in English, ``cardtable.lang.refuse``), the system's errors in words (no English ``strerror`` inside a
Chinese sentence, ``referee.catalogue.said``), exit status 2 for a command refused (nothing done, nothing changed),
and nothing changed. Each runs the real ``cardtable`` in a process, as a person at the terminal does.

The judge's unreadable file is an answer line of its own (README, "The judge"), not an error line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.catalogue import speaks

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "firmware-bridge")])}
ENV.pop("CARDTABLE_LANG", None)
ENV.pop("CARDTABLE_BROKER", None)
STRERRORS = ("No such file", "Not a directory", "Is a directory", "Permission denied", "Read-only", "No space")
CANNOT = "/proc/cardtable-nowhere"  # a folder that cannot be made, even by root


def cardtable(tmp: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardtable", *argv], cwd=tmp, env=ENV, capture_output=True,
                          text=True, timeout=120)


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"/" for p in sorted(folder.rglob("*"))}


def a_table_log(tmp: Path) -> Path:
    from referee.table.log import EventLog

    with EventLog.open(tmp / "t07.db") as log:
        log.append("commands", {"command": "assign", "rulebook": "classic-3deck",
                                "players": {"S": "李强", "E": "王芳", "N": "刘静", "W": "张伟"}}, at=10.0)
    return tmp / "t07.db"


def a_console_file(tmp: Path) -> Path:
    subprocess.run([sys.executable, "-m", "cardtable", "display", "user", "--db", str(tmp / "c.db"), "--user", "wang",
                    "--role", "referee"], env={**ENV, "CARDTABLE_PASSWORD": "a-long-pass"}, check=True, capture_output=True)
    return tmp / "c.db"


def non_empty(tmp: Path) -> Path:
    (tmp / "hall").mkdir()
    (tmp / "hall" / "kept.txt").write_text("an earlier hall's")
    return tmp / "hall"


# (the command's name as said, its arguments (a function of the test's folder), the Chinese and the English words)
CASES = {
    "tournament refused": ("cardtable tournament pair", lambda t: ["tournament", "pair", "--db", "none.db"],
                           "none.db：没有这个赛事文件", "none.db: no such tournament file"),
    "tournament, a missing file": ("cardtable tournament new", lambda t: [
        "tournament", "new", "--db", "t.db", "--system", "pair-swiss", "--entries", "none.csv"],
        "none.csv：没有这个文件", "none.csv: no such file"),
    "table refused": ("cardtable table events", lambda t: ["table", "events", "none.db"],
                      "none.db 没有事件日志", "no event log at none.db"),
    "table, an unwritable path": ("cardtable table events", lambda t: [
        "table", "events", str(a_table_log(t)), "--out", f"{CANNOT}/t07.jsonl"],
        f"无法写入 {CANNOT}/t07.jsonl（没有这个文件或文件夹），什么也没有写", f"cannot write {CANNOT}/t07.jsonl (no such file or folder)"),
    "hall refused": ("cardtable hall", lambda t: ["hall", "--dir", str(non_empty(t))],
                     "不是空文件夹：请给 `--dir` 一个新的或空的文件夹", "is not an empty folder: give `--dir` a new or empty folder"),
    "hall setup, an unwritable path": ("cardtable hall setup", lambda t: [
        "hall", "setup", "--tables", "2", "--broker-host", "h", "--out", CANNOT],
        f"无法在 {CANNOT} 写入（没有这个文件或文件夹）", f"cannot write in {CANNOT} (no such file or folder)"),
    "hall certs, an unwritable path": ("cardtable hall certs", lambda t: ["hall", "certs", "--name", "h", "--out", CANNOT],
                                       f"无法在 {CANNOT} 写入（没有这个文件或文件夹）", f"cannot write in {CANNOT} (no such file or folder)"),
    "display user refused": ("cardtable display user", lambda t: [
        "display", "user", "--db", str(a_console_file(t)), "--user", "zhao", "--remove"],
        "没有用户“zhao”；用户有 wang", "no user 'zhao'"),
    "display backup, a missing file": ("cardtable display backup", lambda t: ["display", "backup", "--db", "none.db",
                                                                              "--out", "copy.db"],
                                       "none.db：没有这个控制台文件，没有做备份", "none.db"),
    "bridge refused": ("cardtable bridge run", lambda t: ["bridge", "run", "--table", "t 1", "--port", "/dev/null"],
                       "桌号“t 1”不对", "t 1"),
    "bridge, a missing file": ("cardtable bridge run", lambda t: [
        "bridge", "run", "--table", "t1", "--port", "/dev/null", "--broker", "mqtt://127.0.0.1:1", "--credentials", "none"],
        "无法读取凭据文件 none：没有这个文件或文件夹", "none: no such file or folder"),
    "vision refused": ("cardtable vision deck", lambda t: ["vision", "deck", "--faces", ".", "--out", "v", "--share", "2"],
                       "`--share` 是 0 到 1 之间的比例", "`--share` is a fraction between 0 and 1"),
    "vision, a missing file": ("cardtable vision read", lambda t: ["vision", "read", "none.png"],
                               "没有这个图片：none.png", "no such image: none.png"),
}


@pytest.mark.parametrize("case", CASES)
def test_an_error_line_of_every_family_is_argparses_form_in_words_and_changes_nothing(case, tmp_path):
    prog, argv, zh_words, en_words = CASES[case]
    args = argv(tmp_path)
    before = tree(tmp_path)
    zh, en = cardtable(tmp_path, *args), cardtable(tmp_path, *args, "--lang", "en")
    assert zh.returncode == en.returncode == 2, (zh.stderr, en.stderr)  # refused: nothing was done
    assert zh.stderr == f"{prog}：错误：{zh.stderr.split('：错误：', 1)[1]}" and zh_words in zh.stderr, zh.stderr
    assert en.stderr.startswith(f"{prog}: error: ") and en_words in en.stderr, en.stderr
    assert len(zh.stderr.splitlines()) == len(en.stderr.splitlines()) == 1  # the sentence alone, no usage, no traceback
    assert not any(s in zh.stderr for s in STRERRORS) and speaks(en.stderr, "en"), (zh.stderr, en.stderr)
    assert tree(tmp_path) == before and not Path(CANNOT).exists()


def test_a_mistyped_command_line_is_the_same_form_with_its_usage(tmp_path):
    """The demo and the judge refuse as argparse does (the usage first: the command line itself is wrong), in the
    same form and status as every refusal after it."""
    demo = cardtable(tmp_path, "demo", "--game", "guandan", "--rulebook", "classic-3deck")
    assert demo.returncode == 2 and demo.stderr.startswith("用法：cardtable demo ")
    assert demo.stderr.splitlines()[-1] == "cardtable demo：错误：规则 classic-3deck 是拖拉机的，不是掼蛋的", demo.stderr
    judge = cardtable(tmp_path, "judge")
    assert judge.returncode == 2 and judge.stderr.splitlines()[-1] == "cardtable judge：错误：缺少参数：FILE", judge.stderr
    assert not list(tmp_path.iterdir())


def test_a_running_service_stopped_by_a_failure_says_it_in_the_same_form_with_status_1(tmp_path):
    """A simulation whose broker is not there: the service ran and failed (``FAILED``), said as every error line."""
    creds = tmp_path / "credentials"
    creds.write_text("console:pw\n")
    creds.chmod(0o600)
    done = cardtable(tmp_path, "table", "simulate", "--table", "t1", "--rulebook", "classic-3deck", "--broker",
                     "mqtt://127.0.0.1:1", "--credentials", str(creds))
    assert done.returncode == 1 and done.stderr.startswith("cardtable table simulate：错误：模拟中止："), done.stderr
    assert not any(s in done.stderr for s in (*STRERRORS, "Traceback")), done.stderr
