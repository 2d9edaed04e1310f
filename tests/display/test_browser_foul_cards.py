"""The console's ruling form for a foul that names its cards (seed 000 第十八条, ``zhongkai-2010``'s ``revoke_corrected``:
the wrong play corrected in the trick, its points to the non-offending side), against a real mosquitto, a real table
service and the system Chromium."""

from __future__ import annotations

import time

import pytest
from kit import REFEREE, LiveTable, login, until

from referee.table.timeline import timeline
from referee.tractor.game import Penalty

TABLES = ["r2", "r3"]  # the broker's (tests/conftest.py)


def ruling_form(page, live: LiveTable):
    """The console, logged in as the referee, its ruling form at ``live``'s table once S is to lead the first trick."""
    live.to_first_lead()
    c = page("/console")
    login(c, REFEREE)
    c.fill("#ruling-form input[name=table]", live.name)
    until(c, "!document.querySelector('#ruling-form select[name=what]').disabled")
    return c


@pytest.mark.browser
def test_the_cards_field_is_offered_for_the_corrected_play_only_and_reaches_the_table(page, broker, tmp_path):
    """The form shows its cards field for 当圈更正出错牌 only (not for 暗示 of the same book), in both languages; the
    cards typed reach the table, which prices the foul 20 and their points (♠K ♠9: 10); a name that is no card is
    refused in words and changes nothing."""
    live = LiveTable(broker, "r2", tmp_path / "r2.db", rulebook="zhongkai-2010")
    try:
        c = ruling_form(page, live)
        c.select_option("#ruling-form select[name=what]", "foul:signalling")
        assert c.locator("#ruling-form span.named-cards").is_hidden()
        c.select_option("#ruling-form select[name=what]", "foul:revoke_corrected")
        assert c.locator("#ruling-form span.named-cards").is_visible() and "更正的牌" in c.inner_text("#ruling-form span.named-cards")
        c.select_option("#ruling-form select[name=seat]", "E")
        c.fill("#ruling-form input[name=cards]", "sk s9")
        c.click("#ruling-form button")
        until(c, "document.querySelector('#result .line')?.textContent.includes('当圈更正出错牌')")
        assert c.locator("#result.error").count() == 0
        assert c.inner_text("#result .line").endswith("判 r2 桌 东 李强 犯规：当圈更正出错牌，更正的牌 ♠K ♠9")  # the cards said
        deadline = time.monotonic() + 10
        while not live.service.table.penalties and time.monotonic() < deadline:
            time.sleep(0.05)
        assert live.service.table.penalties == (Penalty("revoke_corrected", "E", points=10),)
        fouls = [x for x in timeline(tmp_path / "r2.db") if "当圈更正出错牌" in x]  # the log's timeline says the cards too
        assert fouls and fouls[0].endswith("指令 判 东 李强 犯规：当圈更正出错牌，更正的牌 ♠K ♠9")
        assert any("wrong card corrected in the trick, the cards corrected ♠K ♠9" in x
                   for x in timeline(tmp_path / "r2.db", lang="en"))
        c.fill("#ruling-form input[name=cards]", "SK XX")
        c.click("#ruling-form button")
        until(c, "document.querySelector('#result.error')")
        assert live.service.table.penalties == (Penalty("revoke_corrected", "E", points=10),)
        en = page("/console", lang="en")
        login(en, REFEREE)
        en.fill("#ruling-form input[name=table]", "r2")
        until(en, "!document.querySelector('#ruling-form select[name=what]').disabled")
        en.select_option("#ruling-form select[name=what]", "foul:revoke_corrected")
        assert "Cards corrected" in en.inner_text("#ruling-form span.named-cards")
    finally:
        live.close()


@pytest.mark.browser
def test_a_foul_double_clicked_is_sent_once(page, broker, tmp_path):
    """A referee's double click on 记录 (or an Enter pressed twice): the table records the foul once, the console says it
    once; the second click gets the first one's answer."""
    live = LiveTable(broker, "r3", tmp_path / "r3.db", rulebook="zhongkai-2010")
    try:
        c = ruling_form(page, live)
        c.select_option("#ruling-form select[name=what]", "foul:revoke_corrected")  # costs points, play goes on
        c.fill("#ruling-form input[name=cards]", "SK")
        c.dblclick("#ruling-form button[type=submit]")
        until(c, "document.querySelector('#result .line')?.textContent.includes('犯规')")
        time.sleep(1.5)  # a second command would have reached the table by now
        assert len(live.service.table.penalties) == 1, live.service.table.penalties
        until(c, "document.querySelectorAll('#c-audit tbody tr').length > 0")
        assert c.inner_text("#c-audit tbody").count("r3 桌") == 1 and c.locator("#result.error").count() == 0
    finally:
        live.close()
