"""A number out of its range on any command line (a port past 65535, a speed of nan, a board id below 0) is refused
in words, in either language, before anything starts or is written: never a traceback when a server binds it, never
a hall that runs at a speed no clock can keep."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CASES = [
    (["display", "serve", "--db", "d.db", "--port", "-5"], "参数 --port：不是端口（应在 1 到 65535 之间）：'-5'",
     "argument --port: not a port (1 to 65535): '-5'"),
    (["hall", "--port", "99999"], "参数 --port：不是端口（应在 1 到 65535 之间）：'99999'", "not a port (1 to 65535)"),
    (["hall", "setup", "--tables", "2", "--broker-host", "h", "--out", "plan", "--display-port", "70000"],
     "`--display-port` 应在 1 到 65535 之间", "`--display-port` 1 to 65535"),
    (["hall", "--speed", "nan"], "`--speed` 应大于 0，而不是 nan", "`--speed` must be above 0, not nan"),
    (["hall", "--speed", "inf"], "`--speed` 应大于 0，而不是 inf", "`--speed` must be above 0, not inf"),
    (["table", "simulate", "--table", "t01", "--rulebook", "classic-3deck", "--speed", "nan"], "`--speed` 不能小于 0",
     "`--speed` 0 or more"),
    (["bridge", "virtual", "--board-id", "-1", "--link", "tty"], "`--board-id` 是显示板的编号，应在 0 到 65535 之间，而不是 -1",
     "`--board-id` is a board's id, 0 to 65535, not -1"),
]


@pytest.mark.parametrize("argv, zh, en", CASES)
def test_a_number_out_of_range_is_refused_in_words_before_anything_starts(argv, zh, en, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("CARDTABLE_LANG", "CARDTABLE_BROKER")}
    for lang, said in (("zh", zh), ("en", en)):
        done = subprocess.run([sys.executable, "-m", "cardtable", *argv, "--lang", lang], capture_output=True, text=True,
                              timeout=60, cwd=tmp_path, env=env)
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.parametrize("argv, zh, en", [
    (["hall", "--tables", "0"], "cardtable hall：错误：`--tables` 应在 1 到 32 之间，而不是 0",
     "cardtable hall: error: `--tables` must be 1 to 32, not 0"),
    (["hall", "--slow", "2", "--hands", "-1"], "cardtable hall：错误：`--hands` 不能小于 0，而不是 -1、`--slow` 应在 0 到 1 之间，而不是 2.0",
     "cardtable hall: error: `--hands` must be 0 or more, not -1, `--slow` must be 0 to 1, not 2.0"),
])
def test_the_hall_names_only_the_option_out_of_its_range(argv, zh, en, tmp_path):
    """``cardtable hall --tables 0`` once listed the limits of all four options: it says the one that is wrong."""
    env = {k: v for k, v in os.environ.items() if k not in ("CARDTABLE_LANG", "CARDTABLE_BROKER")}
    for lang, said in (("zh", zh), ("en", en)):
        done = subprocess.run([sys.executable, "-m", "cardtable", *argv, "--lang", lang], capture_output=True, text=True,
                              timeout=60, cwd=tmp_path, env=env)
        assert done.returncode == 2 and done.stderr.splitlines()[-1] == said, done.stderr
    assert not list(tmp_path.iterdir())
