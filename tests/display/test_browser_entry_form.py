"""The organiser registering entries in the console, in the system Chromium against the app (uvicorn) and a real
mosquitto: each box of the entry and new-tournament forms shows its whole hint while empty. The team's box cut 队名（默认为单位）
to 队名（默认为单 and team (default: the unit) to team (default, so the organiser could not read that a blank team is the
unit's; the players' box cut players (separated by commas)."""

from __future__ import annotations

import pytest
from kit import login

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
CUT = """() => [...document.querySelectorAll('#t-entry input[placeholder], #t-new input[placeholder]')].filter(el => {
  const style = getComputedStyle(el), ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return ctx.measureText(el.placeholder).width > room + 1;
}).map(el => el.placeholder)"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_entry_forms_hints_are_whole(page, lang):
    console = page("/console", lang=lang)
    login(console)
    console.wait_for_selector("#t-entry input[name=team]", timeout=WAIT_MS)
    assert console.evaluate(CUT) == []
