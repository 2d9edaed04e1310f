"""A console form sent with a field empty or not as it takes, in the system Chromium against the app (uvicorn), a real
mosquitto and the tournament service: said in our words on the status line (the login's error line before a login), in
the reader's language, the field named, as the withdrawal form says its own, never the browser's bubble in the
browser's language; nothing is sent."""

from __future__ import annotations

import pytest
from kit import OWN_USERS, console_of, hall_of, served, small_tournament, until

from referee.tournament import TournamentStore

pytestmark = pytest.mark.browser
TABLES: list[str] = []


def said(pg) -> str:
    """The status line, once it says an error."""
    until(pg, "document.querySelector('#result.error .line')?.textContent")
    out = pg.inner_text("#result .line")
    pg.evaluate("document.querySelector('#result').className = ''; document.querySelector('#result .line').textContent = ''")
    return out


def test_every_console_form_says_a_field_left_empty_in_our_words(browser, broker, tmp_path, page):
    store = TournamentStore(small_tournament(tmp_path / "hall.db"))
    with hall_of(browser, broker, store, tmp_path / "console.db") as hall:
        c = hall.console
        c.wait_for_selector("#t-late")
        c.click("#t-late button")
        assert said(c) == "错误：请选择“参赛方”"
        assert c.evaluate("document.activeElement.id") == "t-late-entry"
        c.select_option("#t-late-entry", index=1)
        c.click("#t-late button")
        assert said(c) == "错误：请填写“迟到分钟”"
        c.fill("#t-late input[name=minutes]", "-1")
        c.click("#t-late button")
        assert said(c) == "错误：“迟到分钟”应为不小于 0 的数"
        c.fill("#t-late input[name=minutes]", "0.2")
        c.press("#t-late input[name=minutes]", "Enter")  # a form's Enter is validated as its button is
        assert said(c) == "错误：“迟到分钟”应为 0.5 的整数倍"
        c.fill("#t-rounds input[name=rounds]", "")
        c.click("#t-rounds button")
        assert said(c) == "错误：请填写“总轮数”"
        c.click("#lang")
        c.wait_for_selector("#c-tournament legend:text-is('Late')")
        c.fill("#t-late input[name=minutes]", "")
        c.click("#t-late button")
        assert said(c) == "Error: Fill in “minutes late”"
        c.fill("#t-rounds input[name=rounds]", "101")
        c.click("#t-rounds button")
        assert said(c) == "Error: “Rounds in all” takes a number from 1 to 100"
        audit = c.inner_text("#c-audit tbody")
        assert "late" not in audit and "迟到" not in audit and "rounds" not in audit.lower()  # nothing was sent
        assert int(TournamentStore(store.path).tournament.options["rounds"]) == 2
    login = page("/console")  # before a login: its own error line
    login.wait_for_selector("#login-form")
    login.click("#login-form button")
    until(login, "document.querySelector('#login-error').textContent")
    assert login.inner_text("#login-error") == "请填写“用户名”"
    assert login.locator("#desk:not([hidden])").count() == 0


def test_the_registration_forms_say_theirs_too(browser, broker, tmp_path):
    """Before a tournament is made: an entry without its unit, an import without its file, a tournament id not of its
    letters; each said, nothing registered nor made."""
    with served(broker, tmp_path / "console.db", tmp_path / "none.db", users=OWN_USERS) as server, console_of(browser, server) as c:
        c.wait_for_selector("#t-entry")
        c.click("#t-entry button")
        assert said(c) == "错误：请填写“单位”"
        c.click("#t-import button")
        assert said(c) == "错误：请先选择要导入的报名表文件（CSV 或 XLSX）"
        c.fill("#t-new input[name=name]", "秋季赛")
        c.fill("#t-new input[name=id]", "秋季")
        c.click("#t-new button")
        assert said(c) == "错误：“赛事编号”应为 1 到 32 个 A-Z a-z 0-9 _ - 字符，“秋季”不是"
        assert c.locator("#t-entry").count() == 1 and c.locator(".entries li").count() == 0  # nothing made
