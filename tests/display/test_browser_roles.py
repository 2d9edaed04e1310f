"""Who is offered what at the console, in the system Chromium against the app and a real mosquitto and table service:
each control says the role the API lets call it (``data-needs``), the desk says the user's role (``data-role``), and a
referee sees no organiser's control; the API still refuses one called anyway (the page is not the guard)."""

from __future__ import annotations

import re

import pytest
from kit import ORGANISER, REFEREE, LiveTable, login, small_tournament, state, until

pytestmark = pytest.mark.browser
TABLES = ["r1", "r2"]
WAIT_MS = 30_000
ROW = "#c-tables tr[data-table=r2]"
# the API's Organiser dependency (display/routers): starting and stopping a table's round, registering, making the
# tournament, pairing (and undoing a pairing made by mistake), starting a round with its rulebook, withdrawing, changing
# the number of rounds
ORGANISERS = {"registration": ("#t-entry", "#t-import", "#t-new"),
              "round": (f"{ROW} button[data-cmd=start_round]", f"{ROW} button[data-cmd=stop_round]", "#t-pair", "#t-unpair",
                        "#t-start", "#t-rulebook", "#t-withdraw", "#t-rounds")}
# a referee's (Referee): the last hand (at r1, playing a round: idle r2 has no hand to announce), the rulings, the flags, results, forfeits, late arrivals, exports
REFEREES = ("#c-tables tr[data-table=r1] button[data-cmd=last_hand]", "#all-last-hand", "#ruling-form", "#t-late",
            "#t-round tr[data-table=t01] button[data-result=record]", "#t-round tr[data-table=t01] button[data-forfeit]",
            "#c-tournament a[href$='export.csv']")


def shown(pg, selector: str) -> bool:
    """Whether the page shows the control (it is there and a person sees it)."""
    found = pg.locator(selector)
    return found.count() > 0 and all(x.is_visible() for x in found.all())


# the next-step hint (#t-next) at each step, as each role reads it: a referee is told what the organiser does
HINTS = {"registration": ("下一步：导入报名表", "赛事尚未建立：由组织者登记参赛方、新建赛事"),
         "round": ("下一步：选择规则，按“开始第 1 轮”", "下一步：由组织者选择规则、开始第 1 轮")}


def hint_names_what_the_reader_sees(pg, starts: str) -> None:
    """The next-step hint begins ``starts``, and every button it tells the reader to press (“…”) is one shown."""
    hint = pg.inner_text("#t-next")
    assert hint.startswith(starts), hint
    for name in re.findall(r"“(.+?)”", hint):
        assert shown(pg, f"#c-tournament button:text-is('{name}')"), (name, hint)


def test_a_referee_is_offered_no_organisers_control_and_still_answers_flags_and_rules_fouls(page, table, hall_db, broker, tmp_path):
    """000 四2: 按报名人数采用积分编排法……由电脑随机编排对手 -- pairing, like registering and starting rounds, is the
    organisers' (display/README.md "Roles"); 002 十 第1条: 举报人举手报告裁判员, 第2条: 一般行为由临场裁判员处理 -- the
    referee answers a seat's call, and rules a foul (九 1: 不允许通过明示或暗示传递非法信息，否则记犯规1次). The console
    showed a referee 开始本轮, 结束本轮 and every tournament form, each refused with a 403 when pressed; it now shows
    them to an organiser only, and the referee still answers a call and rules a foul at a real Guandan table. The
    next-step hint told a referee to press 新建赛事 and 开始第 1 轮, buttons a referee is not shown: it now tells a
    referee that the organiser does it."""
    live = LiveTable(broker, "r1", tmp_path / "r1.db", rulebook="sanjiang-2012")
    try:
        live.seated()
        live.send("board/in", seat="E", button="referee")
        table("r2").publish("state", state(seq=70, phase="idle"))  # between rounds: 开始本轮 is offered to whom may
        wang, li = page("/console"), page("/console")
        login(wang, ORGANISER)
        login(li, REFEREE)
        for pg in (wang, li):
            pg.wait_for_selector(f"{ROW}:has-text('空闲')", timeout=WAIT_MS)
            pg.wait_for_selector("#t-entry", state="attached")
        assert li.get_attribute("#desk", "data-role") == "referee"
        for step, after in (("registration", lambda: small_tournament(hall_db)), ("round", lambda: None)):
            for selector in ORGANISERS[step]:
                assert shown(wang, selector), selector
                assert not shown(li, selector), selector
            hint_names_what_the_reader_sees(wang, HINTS[step][0])
            hint_names_what_the_reader_sees(li, HINTS[step][1])
            after()
            for pg in (wang, li):
                pg.reload()
                pg.wait_for_selector("#t-round[data-round='1']", timeout=WAIT_MS)
        for selector in REFEREES:
            assert shown(wang, selector) and shown(li, selector), selector
        refused = li.evaluate("api('POST', '/api/console/tables/r2/commands', {command: 'start_round'}).catch(e => [e.status, e.message])")
        assert refused == [403, "li 是裁判；“开始本轮”需要组织者"]  # the API refuses as before: the page is not the guard

        li.wait_for_selector(".flag-card[data-table=r1] button[data-how=confirm]", timeout=WAIT_MS)
        li.click(".flag-card[data-table=r1] button[data-how=confirm]")
        li.wait_for_selector("#result .line:has-text('裁判 li 确认 r1 桌')", timeout=WAIT_MS)
        until(li, "!document.querySelector('.flag-card[data-table=r1]')")
        assert not live.service.table.flags
        li.fill("#ruling-form input[name=table]", "r1")
        li.select_option("#ruling-form select[name=seat]", "E")
        li.select_option("#ruling-form select[name=what]", "foul:signalling")
        li.click("#ruling-form button")
        li.wait_for_selector("#result .line:text-is('裁判 li 判 r1 桌 东 李强 犯规：暗示性手势')", timeout=WAIT_MS)
    finally:
        live.close()
