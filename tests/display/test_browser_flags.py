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
TABLES = ["f1", "f2", "f3", "f4", "f5", "f6", "f7"]
WAIT_MS = 30_000


def test_two_referees_at_one_call_and_a_call_offered_no_correction(page, broker, tmp_path):
    """002 十 第1条: 犯规发生后的处理程序 ... 2、举报人举手报告裁判员。3、停止打牌。 -- E calls the referee (the board's
    button): a flag holds the table. It holds no play, and dismissing it is confirming it (bus/PROTOCOL.md "Flags"):
    the console offered 更正 (the card picker, refused by the table) and 撤销标记 beside 确认; now one button, that
    says play goes on. Two referees answer it at the same moment: both were told done (the table refused the second);
    now one is, the other is told who resolved it, and the flag leaves both consoles."""
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
        assert wang.locator(".flag-card[data-table=f1] button").all_inner_texts() == ["已处理，继续比赛"]
        for console in consoles:  # both at once
            console.evaluate("document.querySelector('.flag-card[data-table=f1] button[data-how=confirm]').click()")
        for console in consoles:
            until(console, "document.querySelector('#result .line').textContent.includes('确认')")
            console.wait_for_selector("#c-flags .empty", timeout=WAIT_MS)
        lines = sorted(c.inner_text("#result .line") for c in consoles)
        done = next(x for x in lines if not x.startswith("错误"))
        assert done in (f"组织者 wang 确认 f1 桌第 {number} 号标记", f"裁判 li 确认 f1 桌第 {number} 号标记")
        assert lines == sorted([done, f"错误：这个标记已经处理过了，不必再操作：{done}"])
        assert not live.service.table.flags
        li.wait_for_selector("#c-audit tbody tr[data-action=confirm]")
        assert li.locator("#c-audit tbody tr[data-action=confirm]").count() == 1  # one change, recorded once
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
        assert console.inner_text(f"{card} .camera") == "摄像机：同一张牌的两个角认成了不同的牌（♠5）"
        console.click("#lang")
        console.wait_for_selector(f"{card}:has-text('is an unsure read')")
        assert console.locator(f"{card} .camera").count() == 0  # Chinese words on an English page: not shown
        console.click(f"{card} button[data-how=confirm]")
        console.wait_for_selector("#c-flags .empty", timeout=WAIT_MS)
        until(console, "document.querySelector('#result .line').textContent.startsWith('organiser wang confirmed flag')")
        assert not live.service.table.flags  # said once the seat's own confirm is ruled out (tables.REFUSAL_S)
    finally:
        live.close()


def test_a_resolution_the_table_does_not_answer_is_said_so(page, table, monkeypatch):
    """A table that takes no command (its service stalled, its link down) while its last state still shows the flag:
    the console said "confirmed" as if done. Now it says the command went and no answer came (in red), and to check
    at the table."""
    monkeypatch.setattr(tables, "ANSWER_S", 0.5)
    flag = {"flag": "f9", "seat": "W", "kind": "unsure", "at": time.time(), "cards": ["D4"]}
    table("f3").publish("state", state(seq=9, paused=True, flags=[flag]))
    table("f3").taking = False  # it answers nothing
    console = page("/console")
    login(console)
    console.click(".flag-card[data-table=f3] button[data-how=confirm]")
    console.wait_for_selector("#result.error", timeout=WAIT_MS)
    assert console.inner_text("#result .line") == ("组织者 wang 确认 f3 桌第 9 号标记：已发给牌桌，但没有看到牌桌的回应（牌桌可能离线，"
                                                   "或显示服务收不到牌桌的数据）：请到场核对后再决定是否重做")
    table("f3").publish("state", state(seq=10))  # the flag gone, for the tests after this one


JPEG = "/9j/4AAQSkZJRgABAQ=="


def test_each_flag_offers_the_answers_that_mean_something_for_its_kind(page, table):
    """bus/PROTOCOL.md "Flags": correct is refused for a flag that holds no play (000 第十七条 越序出牌：凡不按规定的出牌顺序，
    过早地将牌亮在桌面上: cards shown, not played), dismissing a call or a turn nobody played is confirming it, and correcting a stalled seat enters the play a
    person sees on the table. The console offered 确认, 撤销标记 and 更正 (the card picker) for every flag."""
    now = time.time()
    flags = [{"flag": "f21", "seat": "S", "kind": "unsure", "at": now, "cards": ["D4"]},
             {"flag": "f22", "seat": "E", "kind": "out_of_turn", "at": now, "cards": ["S9"]},
             {"flag": "f23", "seat": "W", "kind": "exposed_card", "at": now, "cards": ["C3"]},
             {"flag": "f24", "seat": "N", "kind": "stalled", "at": now, "cards": []}]
    table("f4").publish("state", state(seq=30, paused=True, turn="N", flags=flags))
    en = page("/console", lang="en")
    login(en)
    console = page("/console")
    login(console)
    console.wait_for_selector(".flag-card[data-flag=f24]", timeout=WAIT_MS)
    offered = {f: console.locator(f".flag-card[data-flag={f}] button").all_inner_texts() for f in ("f21", "f22", "f23", "f24")}
    assert offered == {"f21": ["确认", "撤销标记", "更正"], "f22": ["确认", "撤销标记"], "f23": ["确认", "撤销标记"],
                       "f24": ["继续等待出牌", "录入所见出牌"]}
    en.wait_for_selector(".flag-card[data-flag=f24]", timeout=WAIT_MS)
    assert en.locator(".flag-card[data-flag=f24] button").all_inner_texts() == ["Keep waiting", "Enter the play seen"]
    console.click(".flag-card[data-flag=f24] button[data-how=correct]")  # the seat's possible cards, none chosen yet
    console.wait_for_selector("#c-picker:not([hidden]) .choices button.pick", timeout=WAIT_MS)
    assert console.inner_text("#c-picker .chosen") == "点选下面的牌"
    table("f4").publish("state", state(seq=31))  # the flags gone, for the tests after this one


def _first(monkeypatch, how: str, before) -> None:
    """The display's ``how`` command to a table goes only once ``before()`` (another input) was applied there: the
    seat's button pressed, or the round stopped, while the referee's click was on its way."""
    from display.feed import Feed

    real = Feed.command

    def command(self, table, command, **fields):
        if command == how:
            before()
        return real(self, table, command, **fields)

    monkeypatch.setattr(Feed, "command", command)


def test_a_flag_the_seat_confirmed_first_is_not_said_dismissed_by_the_referee(page, broker, tmp_path, monkeypatch):
    """bus/PROTOCOL.md "Flags": a seat's own confirm button answers its oldest open flag (an unsure read): the seat
    pressed confirm while the referee's 撤销标记 was on its way; the flag left the table's state and the
    console said "dismissed" and recorded it. Now it says what happened, and records nothing."""
    live = LiveTable(broker, "f5", tmp_path / "f5.db")
    try:
        live.to_first_lead()
        live.send("observed", seat="S", cards=["S4"], confidence=0.5)
        number = live.flag()[1:]
        _first(monkeypatch, "dismiss", lambda: live.send("board/in", seat="S", button="confirm"))
        console = page("/console")
        login(console)
        console.click(".flag-card[data-table=f5] button[data-how=dismiss]")
        console.wait_for_selector("#result.error", timeout=WAIT_MS)
        assert console.inner_text("#result .line") == (f"错误：f5 桌的第 {number} 号标记在你的操作到达之前已确认（别处的操作，"
                                                       "如选手按了确认键）：你的操作没有执行")
        assert console.locator("#c-audit tbody tr[data-action=dismiss]:has-text('f5 ')").count() == 0
    finally:
        live.close()


def test_a_flag_the_round_ending_dismissed_is_not_said_confirmed(page, broker, tmp_path, monkeypatch):
    """A flag still open when its round ends is dismissed with it (bus/PROTOCOL.md: flag_resolved with round_ended):
    the referee's 确认 on its way was said done and recorded. Now the console says the round ended first."""
    live = LiveTable(broker, "f6", tmp_path / "f6.db")
    try:
        live.to_first_lead()
        live.send("observed", seat="S", cards=["S4"], confidence=0.5)
        number = live.flag()[1:]
        _first(monkeypatch, "confirm", lambda: live.send("commands", command="stop_round"))
        console = page("/console")
        login(console)
        console.click(".flag-card[data-table=f6] button[data-how=confirm]")
        console.wait_for_selector("#result.error", timeout=WAIT_MS)
        assert console.inner_text("#result .line") == f"错误：f6 桌本轮已结束，第 {number} 号标记随之撤销：你的操作没有执行"
        assert console.locator("#c-audit tbody tr[data-action=confirm]:has-text('f6 ')").count() == 0
    finally:
        live.close()


def test_a_flag_a_ruling_ended_with_its_game_is_said_so(page, broker, tmp_path, monkeypatch):
    """004 三: 同一副牌内，任何一名选手被记过2次及以上犯规，作输者处理. A San Da Yi game the referee's second foul ends
    takes its open flags with it (flag_resolved with game_ended): a 确认 on its way was said "closed first by dismiss",
    as if someone had dismissed it. Now the console says the game ended by a ruling."""
    live = LiveTable(broker, "f7", tmp_path / "f7.db", rulebook="usst-2016")
    try:
        number = live.foul_and_unsure_lead()
        _first(monkeypatch, "confirm", lambda: live.send("commands", command="foul", seat="E", kind="peeking"))
        console = page("/console")
        login(console)
        console.click(".flag-card[data-table=f7] button[data-how=confirm]")
        console.wait_for_selector("#result.error", timeout=WAIT_MS)
        assert console.inner_text("#result .line") == f"错误：f7 桌这一局已由判罚结束，第 {number} 号标记随之撤销：你的操作没有执行"
    finally:
        live.close()
