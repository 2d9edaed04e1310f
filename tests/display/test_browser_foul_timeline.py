"""The console's timeline of a table shows each foul logged there (the table's ``violations``): its seat, the foul, its
penalty and the cards it names, said by the catalogue in the reader's language, against a real mosquitto, a real table
service and the system Chromium."""

from __future__ import annotations

import pytest
from kit import REFEREE, LiveTable, login, until

TABLES = ["f1"]  # the broker's (tests/conftest.py)
FOUL = "#c-timeline li[data-kind=violation]:has-text('当圈更正出错牌')"


@pytest.mark.browser
def test_a_foul_is_a_line_of_the_timeline_in_words(page, broker, tmp_path):
    """A foul ruled while the table's timeline is open comes into it at once (the newest line: the foul's command logs no other); a
    console opened after it shows it from the snapshot; English on the switch. Seed 000 第十八条 (``zhongkai-2010``'s
    ``revoke_corrected``): 20 points and the cards' ♠K ♠9 10."""
    live = LiveTable(broker, "f1", tmp_path / "f1.db", rulebook="zhongkai-2010")
    try:
        live.to_first_lead()
        c = page("/console")
        login(c, REFEREE)
        c.click("button[data-open=f1]")
        c.wait_for_selector("#c-timeline li.ev")
        early = c.inner_text("#c-timeline li[data-kind=violation]")  # S took the kitty at once (000 第十条): the draw's foul
        assert "南 王芳 拿底过早（已确认）：警告" in early, early
        assert c.locator(FOUL).count() == 0
        live.send("commands", command="foul", seat="E", kind="revoke_corrected", cards=["SK", "S9"])
        c.wait_for_selector(FOUL)
        line = c.inner_text(FOUL)
        assert "东 李强 当圈更正出错牌（已确认）" in line and "扣 30 分" in line and "♠K ♠9" in line, line
        assert c.locator(f"{FOUL} svg, {FOUL} .card").count() >= 2  # the cards drawn too, as a play's are
        assert "{" not in line and "revoke" not in line
        kinds = c.eval_on_selector_all("#c-timeline li", "els => els.map(e => e.dataset.kind)")
        assert kinds[0] == "violation", kinds  # newest first: the foul logs no other line (a command's applied event)

        again = page("/console")  # from the snapshot: the display heard it before this page opened
        login(again, REFEREE)
        again.click("button[data-open=f1]")
        again.wait_for_selector(FOUL)
        assert again.inner_text(FOUL) == line
        again.click("#lang")
        until(again, "document.documentElement.lang === 'en'")
        en = again.inner_text("#c-timeline li[data-kind=violation]:has-text('corrected')")
        assert "E (李强) wrong card corrected in the trick (confirmed)" in en and "30 points off" in en and "♠K ♠9" in en and not any("\u4e00" <= ch <= "\u9fff" for ch in en.replace("李强", "")), en
    finally:
        live.close()
