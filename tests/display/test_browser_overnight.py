"""A console left open overnight, in the system Chromium against the app (uvicorn) and a real mosquitto: its login ended
meanwhile (a login lasts one evening, ``store.SESSION_S``), the referee's next command is not done, and the page says so
in words in the reader's language, back at the login form; logged in again, the desk comes back. The display stopped
under it: a command is said in our words (not the browser's ``Failed to fetch``), unknown whether it got there."""

from __future__ import annotations

import sqlite3
import time

import pytest
from kit import HALL_LOCALE, OWN_USERS, REFEREE, login, served, state, until

pytestmark = pytest.mark.browser
TABLES = ["n1"]
ENDED_ZH = "登录已失效（一次登录管一个晚上；或用户已被删除、密码已更改）：失效后的操作都没有执行，请重新登录"
ENDED_EN = ("Your login has ended (a login lasts one evening; or the user was removed or its password changed): nothing "
            "asked since was done; log in again")


def ended(console_db) -> None:
    """Every login of the console's file past its time, as the next evening finds it."""
    with sqlite3.connect(console_db) as db:
        db.execute("UPDATE sessions SET expires = 0")


@pytest.mark.parametrize(("lang", "words"), [("zh", ENDED_ZH), ("en", ENDED_EN)])
def test_a_command_from_a_page_whose_login_ended_is_said_not_done(page, table, console_db, lang, words):
    table("n1").publish("state", state(seq=1, at=time.time(), phase="playing"))
    c = page("/console", lang=lang)
    login(c, REFEREE)
    c.wait_for_selector("#c-tables tr[data-table=n1] button[data-cmd=last_hand]")
    ended(console_db)
    c.click("#c-tables tr[data-table=n1] button[data-cmd=last_hand]")
    c.wait_for_selector("#login:not([hidden])")
    assert c.inner_text("#login-error") == words and c.locator("#desk[hidden]").count() == 1
    login(c, REFEREE)
    until(c, "document.querySelector('#login-error').textContent === ''")
    until(c, "[...document.querySelectorAll('#c-audit tbody tr')].length > 0")
    assert "n1" not in c.inner_text("#c-audit tbody")  # the command was not sent, nor recorded


def test_a_command_to_a_display_stopped_is_said_in_our_words(browser, broker, tmp_path):
    context = browser.new_context(locale=HALL_LOCALE)
    try:
        c = context.new_page()
        with served(broker, tmp_path / "console.db", users=OWN_USERS) as server:
            c.goto(server.url + "/console")
            login(c, REFEREE)
        c.click("#all-last-hand")
        until(c, "document.querySelector('#result.error .line')?.textContent")
        assert c.inner_text("#result .line") == ("错误：连不上显示服务（网络中断，或显示服务停止、重启）：这项操作是否已经送到不得而知，"
                                                 "请等页面重新连上后查看操作记录，再决定是否重做")
    finally:
        context.close()
