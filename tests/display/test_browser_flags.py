"""A bad evening at the console, in the system Chromium against a real mosquitto and real table services: two
referees at one flag, a flag that is no play corrected, the camera's reason beside its frame, a table that does not
answer. The console says what the table did, never a change the table refused."""

from __future__ import annotations

import time

import pytest
from kit import ORGANISER, REFEREE, LiveTable, login, state, until

from bus.protocol import encode, topic
from display.routers import tables
from referee.catalogue.sentences import Sentences
from referee.reasons import Reason

pytestmark = pytest.mark.browser
TABLES = ["f1", "f2", "f3"]
WAIT_MS = 30_000


def test_two_referees_at_one_call_and_a_call_corrected_into_cards(page, broker, tmp_path):
    """002 十 第1条: 犯规发生后的处理程序 ... 2、举报人举手报告裁判员。3、停止打牌。 -- E calls the referee (the board's
    button): a flag holds the table. "Correct" on it is refused by the table (it is no play): the console said
    "corrected into ♠3" and recorded it while the flag stayed. Two referees then answer it at the same moment: both
    were told done (the table refused the second); now one is, the other is told who resolved it, and the flag
    leaves both consoles."""
    live = LiveTable(broker, "f1", tmp_path / "f1.db", rulebook="sanjiang-2012")
    try:
        live.seated()
        live.send("board/in", seat="E", button="referee")
        number = live.flag()[1:]
        consoles = [page("/console"), page("/console")]
        for console, who in zip(consoles, (ORGANISER, REFEREE)):
            login(console, who)
            console.wait_for_selector(".flag-card[data-table=f1]:has-text('东 李强 召裁判：停止打牌，计时暂停，请裁判到场')")
        wang, li = consoles
        wang.click(".flag-card[data-table=f1] button[data-how=correct]")
        wang.click("#c-picker .choices button.pick >> nth=0")
        wang.click("#pick-ok")
        wang.wait_for_selector("#result.error", timeout=WAIT_MS)
        assert wang.inner_text("#result .line") == (f"错误: f1 桌没有接受这项操作，什么也没有改变：第 {number} 号标记（召裁判）"
                                                     "不是一次出牌，没有可更正的牌：请确认或驳回")
        assert len(live.service.table.flags) == 1 and wang.locator(".flag-card[data-table=f1]").count() == 1
        for console in consoles:  # both at once
            console.evaluate("document.querySelector('.flag-card[data-table=f1] button[data-how=dismiss]').click()")
        for console in consoles:
            until(console, "document.querySelector('#result .line').textContent.includes('撤销')")
            console.wait_for_selector("#c-flags .empty", timeout=WAIT_MS)
        lines = sorted(c.inner_text("#result .line") for c in consoles)
        done = next(x for x in lines if not x.startswith("错误"))
        assert done in (f"组织者 wang 撤销 f1 桌第 {number} 号标记", f"裁判 li 撤销 f1 桌第 {number} 号标记")
        assert lines == sorted([done, f"错误: 这个标记已经处理过了，不必再操作：{done}"])
        assert not live.service.table.flags
        li.wait_for_selector("#c-audit tbody tr[data-action=dismiss]")
        assert li.locator("#c-audit tbody tr[data-action=dismiss]").count() == 1  # one change, recorded once
        assert li.locator("#c-audit tbody tr[data-action=correct]").count() == 0  # the refused one: nothing changed
    finally:
        live.close()


def test_the_cameras_reason_stands_beside_its_frame(page, broker, connect, tmp_path):
    """The camera keeps the frame of a read it is unsure of, with why (here two corners of one card read as two
    cards): the console showed the frame and "unsure read" only, so the referee did not know what to look for. Its
    words are the camera's, in the camera's language: shown on pages of that language."""
    live = LiveTable(broker, "f2", tmp_path / "f2.db")
    try:
        live.to_first_lead()
        why = Sentences("zh").reason(Reason("vision.conflict", card="S5"))  # what `cardtable vision watch` says
        camera = connect("camera-f2", clean_start=True)
        camera.publish(topic("f2", "frames"), encode("frames", {"v": 1, "id": "cam-f2-1", "seat": "S", "at": time.time(),
                                                               "reason": why, "jpeg": JPEG}), qos=1)
        assert camera.flush(5)
        live.send("observed", seat="S", cards=["S5"], confidence=0.5)
        console = page("/console")
        login(console)
        card = ".flag-card[data-table=f2]"
        console.wait_for_selector(f"{card} .camera", timeout=WAIT_MS)
        assert console.inner_text(f"{card} .camera") == "摄像头：同一张牌的两个角认成了不同的牌（♠5）"
        console.click("#lang")
        console.wait_for_selector(f"{card}:has-text('is an unsure read')")
        assert console.locator(f"{card} .camera").count() == 0  # Chinese words on an English page: not shown
        console.click(f"{card} button[data-how=confirm]")
        console.wait_for_selector("#c-flags .empty", timeout=WAIT_MS)
        assert not live.service.table.flags and console.inner_text("#result .line").startswith("organiser wang confirmed flag")
    finally:
        live.close()


def test_a_resolution_the_table_does_not_answer_is_said_so(page, table, monkeypatch):
    """A table that takes no command (its service stalled, its link down) while its last state still shows the flag:
    the console said "confirmed" as if done. Now it says the command went and no answer came (in red), and to check
    at the table."""
    monkeypatch.setattr(tables, "ANSWER_S", 0.5)
    flag = {"flag": "f9", "seat": "W", "kind": "unsure", "at": time.time(), "cards": ["D4"]}
    table("f3").publish("state", state(seq=9, paused=True, flags=[flag]))
    console = page("/console")
    login(console)
    console.click(".flag-card[data-table=f3] button[data-how=confirm]")
    console.wait_for_selector("#result.error", timeout=WAIT_MS)
    assert console.inner_text("#result .line") == ("组织者 wang 确认 f3 桌第 9 号标记：已发给牌桌，但没有看到牌桌的回应（牌桌可能离线，"
                                                   "或显示服务收不到牌桌的数据）：请到场核对，标记消失前不要重复操作")
    table("f3").publish("state", state(seq=10))  # the flag gone, for the tests after this one


JPEG = "/9j/4AAQSkZJRgABAQ=="
