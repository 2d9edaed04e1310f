"""A console action said at once, in the system Chromium against the app (uvicorn) and a real mosquitto: a table's
command waits up to ``routers.tables.ANSWER_S`` (10 s) for the table's answer, and all that time the console's line
said nothing, or the line of the action before, as if the button had done nothing; a referee clicks again. Now it
says 处理中…… (working…) until the answer, then the answer."""

from __future__ import annotations

import pytest
from kit import login, state, until

from display.routers import tables

pytestmark = pytest.mark.browser
TABLES = ["w1"]  # the module broker's tables
WAIT_MS = 30_000
LINE = "document.querySelector('#result .line').textContent"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_action_waiting_for_the_table_says_so(page, table, monkeypatch, lang):
    monkeypatch.setattr(tables, "ANSWER_S", 3.0)
    w1 = table("w1")
    w1.publish("state", state(seq=40))
    w1.taking = False  # its link down: the command goes, no answer comes
    console = page("/console", lang=lang)
    login(console)
    button = "#c-tables tr[data-table=w1] button[data-cmd=last_hand]"
    console.wait_for_selector(button, timeout=WAIT_MS)
    console.click(button)
    until(console, f"{LINE} === {('处理中……' if lang == 'zh' else 'working…')!r}", timeout_ms=2_000)
    console.wait_for_selector("#result.error", timeout=WAIT_MS)  # then the answer: none came, said in red
    assert console.inner_text("#result .line").endswith(("请到场核对后再决定是否重做", "check at the table before doing it again"))
    w1.taking = True
