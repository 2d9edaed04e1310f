"""A console and the command line correcting the same table at once, in the system Chromium against the app (uvicorn)
and a real mosquitto: the chief referee corrects t01 with ``cardtable tournament result --correct`` while the
organiser's page still shows t01 as it was; the organiser's correction from that page is refused in words naming who
changed it, nothing changes, and once the page is read again the organiser corrects it knowingly."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from kit import console_of, served, small_tournament

from referee.tournament import TournamentStore

pytestmark = pytest.mark.browser
WAIT_MS = 30_000


def test_a_correction_from_a_page_older_than_the_command_lines_correction_is_refused_in_words(browser, broker, tmp_path):
    """Before, the page's correction was made over the command line's, which the organiser never saw (a lost update)."""
    hall = small_tournament(tmp_path / "hall.db")
    store = TournamentStore(hall)
    store.record_result(1, "t01", {"winner": 0}, by="记分员")
    with served(broker, tmp_path / "console.db", hall) as server, console_of(browser, server) as console:
        console.wait_for_selector("#t-round tr[data-table=t01][data-seen='3']")
        done = subprocess.run([sys.executable, "-m", "cardtable", "tournament", "result", "--db", str(hall), "--round", "1",
                               "--table", "t01", "--winner", "1", "--correct", "--reason", "记分错误", "--by", "裁判长"],
                              capture_output=True, text=True, timeout=60, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
        assert done.returncode == 0, done.stderr
        row = console.locator("#t-round tr[data-table=t01]")
        row.locator("input[type=radio]").nth(0).check()
        row.locator("input[name=reason]").fill("看错了")
        row.locator("button[data-result=correct]").click()
        console.wait_for_selector("#result .line:has-text('第 1 轮 t01 桌在你看到之后已被 裁判长 改动（第 4 条记录）')",
                                  timeout=WAIT_MS)
        assert store.last_seq() == 4 and store.round_view(1)["tables"][0]["result"]["points"] == [0, 2]
        console.reload()
        console.wait_for_selector("#t-round tr[data-table=t01][data-seen='4']")
        row.locator("input[type=radio]").nth(0).check()
        row.locator("input[name=reason]").fill("看错了")
        row.locator("button[data-result=correct]").click()
        console.wait_for_selector("#result .line:has-text('更正第 1 轮 t01 桌成绩')", timeout=WAIT_MS)
        assert store.round_view(1)["tables"][0]["result"]["points"] == [2, 0]
    store.close()
