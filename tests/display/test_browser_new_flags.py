"""This session's table events and flags on the pages, in the system Chromium against a real mosquitto and real tables:
cards shown in a Tractor draw corrected from the console's card picker, and a Guandan hand taken up again whose
result leaves the scoreboard's tile. What was looked at besides (every new flag and event, zh and en):
/work/notes/s40/pages-new.md."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from kit import LiveTable, login

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "table"))
from climbing_kit import GD, Table_  # noqa: E402
from test_guandan_taken_back import _misreport, _plays_out  # noqa: E402
from test_idle import _drawn  # noqa: E402

from referee.table.reducer import STALLED_S  # noqa: E402

pytestmark = pytest.mark.browser
TABLES = ["n1", "n2", "n3", "n4", "n5"]
WAIT_MS = 30_000


def test_cards_shown_in_a_tractor_draw_are_corrected_to_the_declaration_they_were(page, broker, tmp_path):
    """001 二十: 在抓牌和打牌过程中，过早地暴露牌张或牌张组合…均属暴露张. E shows a card in the draw that the camera reads
    as ♠5, no declaration: an exposed card for a person. It may be a misread of the ♠2 E declared with (bus/PROTOCOL.md
    "Flags": corrected, the draw's cards are judged as read, a declaration where they make one), but the console
    offered 确认 and 撤销标记 only (no seat is on turn in the draw, so it took the cards as shown off turn): now 更正
    opens the card picker, and the ♠2 chosen is E's declaration."""
    live = LiveTable(broker, "n1", tmp_path / "n1.db")
    try:
        live.seated()
        live.send("observed", seat="E", cards=["S5"], confidence=0.99)
        console = page("/console")
        login(console)
        card = ".flag-card[data-table=n1]"
        console.wait_for_selector(f"{card}:has-text('暴露张')", timeout=WAIT_MS)
        assert console.locator(f"{card} button").all_inner_texts() == ["确认", "撤销标记", "更正"]
        console.click(f"{card} button[data-how=correct]")
        console.wait_for_selector("#c-picker:not([hidden]) .chosen button.pick[data-card=S5]", timeout=WAIT_MS)
        console.click("#c-picker .chosen button.pick[data-card=S5]")
        console.click("#c-picker .choices button.pick[data-card=S2]")
        console.click("#pick-ok")
        console.wait_for_selector("#c-flags .empty", timeout=WAIT_MS)
        assert console.inner_text("#result .line").endswith("n1 桌第 7 号标记更正为 ♠2")
        assert not live.service.table.flags and live.service.table.declaring.standing.seat == "E"
    finally:
        live.close()


def _published(pub, d, since: int = 0) -> int:
    """The driven table's outputs from ``since`` on, published as its service does (its state first, so the display
    knows the game it says them in, and last); how many there are."""
    pub.publish("state", d.state())
    for o in d.outputs[since:]:
        pub.publish(o.name, o.payload)
    pub.publish("state", d.state())
    return len(d.outputs)


def test_a_guandan_hand_taken_up_again_leaves_no_result_on_its_tile(page, table):
    """002 九 3: 如报错牌张或故意隐瞒，则已出完的牌必须收回重出（对方选手可以打牌压）. S and then N played out, the hand scored
    (SN up three levels) and hand 2 drawn; the referee records N's misreport: hand 1 is played on, the levels back at 2
    (``hand_reopened``, ``levels_changed``). The tile kept saying hand 1's result (the defenders up 3) beside levels 2
    and N's three cards; now the result goes with the hand taken back, and the tile says the hand in play."""
    d = Table_(GD, at=time.time() - 600)
    d.start()
    d.press("S", "ready")
    _plays_out(d, "S")
    _plays_out(d, "N")
    pub = table("n2")
    n = _published(pub, d)
    board = page("/")
    tile = "#tile-n2"
    board.wait_for_selector(f"{tile} .result li[data-kind=hand_scored]", timeout=WAIT_MS)
    assert "第 1 盘结算" in board.inner_text(f"{tile} .result")
    _misreport(d, "N")
    _published(pub, d, n)
    board.wait_for_selector(f"{tile}:has-text('3 张')", timeout=WAIT_MS)
    board.wait_for_selector(f"{tile} .result", state="detached", timeout=WAIT_MS)
    text = board.inner_text(tile)
    assert "第 1 盘" in text and "出牌" in text and text.count("级 2") == 2 and "结算" not in text
    assert not board.errors


def test_cards_lying_that_cannot_be_the_follow_offer_no_confirm(page, broker, tmp_path):
    """001 十九: 甩牌不成立 (000 第十六条: 按规定出所甩错的最低最小级别牌种组合). S throws SA SK, W's third-deck SA beats SK:
    S leads SK alone and E, whose S3 S4 still lie there, is asked at its turn (``laid_taken_back``). Two cards are no
    follow of one: the table refuses their confirm (``table.lying_not_the_play``), so the console offered a 确认 that
    could only be refused; now it offers 撤销标记 and 更正 alone, and 确认 again where the count can be the follow."""
    live = LiveTable(broker, "n3", tmp_path / "n3.db")
    try:
        live.to_first_lead()
        for seat, cards in (("S", ["SA", "SK"]), ("E", ["S3", "S4"]), ("N", ["S5", "S6"]), ("W", ["SA", "S7"])):
            live.send("observed", seat=seat, cards=cards, confidence=0.99)
        console = page("/console")
        login(console)
        card = ".flag-card[data-table=n3]"
        console.wait_for_selector(f"{card}:has-text('甩牌')", timeout=WAIT_MS)
        assert console.locator(f"{card} button").all_inner_texts() == ["撤销标记", "更正"]
        live.send("commands", command="correct", flag=live.flag(), cards=["S3"])  # E follows with S3: N is asked
        console.wait_for_selector(f"{card}[data-seat=N]", timeout=WAIT_MS)
        assert console.locator(f"{card} button").all_inner_texts() == ["撤销标记", "更正"]
    finally:
        live.close()


def test_a_seat_waited_on_is_answered_by_a_button_that_says_what_it_does(page, table):
    """A Tractor dealer not taking the kitty (001 八〈4〉: 当庄家示意摸牌结束，应停顿5秒钟才能拿底牌; 二十三: 庄家留底牌和首引不得超过
    60秒钟) is flagged ``idle`` for a person (no penalty). Confirm and dismiss do the same (bus/PROTOCOL.md "Flags": the
    wait goes on, no second flag), so one button, which said only 确认: now it says 已查看，继续等待."""
    d = _drawn("classic-3deck")
    d.do_wait(10.0 + 5 + 60 + STALLED_S)
    assert [f.kind for f in d.table.flags] == ["idle"]
    pub = table("n4")
    for o in d.outputs:
        pub.publish(o.name, o.payload)
    pub.publish("state", d.table.state(d.at))
    for lang, words in (("zh", "已查看，继续等待"), ("en", "Seen: keep waiting")):
        console = page("/console", lang=lang)
        login(console)
        card = ".flag-card[data-table=n4]"
        console.wait_for_selector(card, timeout=WAIT_MS)
        assert console.locator(f"{card} button").all_inner_texts() == [words]


def test_a_san_da_yi_game_a_ruling_ended_is_said_on_its_page(page, broker, tmp_path):
    """004 三: 同一副牌内，任何一名选手被记过2次及以上犯规，作输者处理. E passes behind S's unsure read, then E's second foul
    ends the game: S's flag is closed with it, said 随本局结束撤销 (not only 已撤销), and E's pass, a button press, is
    dropped in words that call it no camera read. San Da Yi plays games (004: 每轮进行8局比赛), so the timeline is
    headed 本局与上一局, not 本盘与上一盘."""
    live = LiveTable(broker, "n5", tmp_path / "n5.db", rulebook="usst-2016")
    try:
        number = live.foul_and_unsure_lead()
        live.send("board/in", seat="E", button="pass")
        live.send("commands", command="foul", seat="E", kind="peeking")
        tp = page("/tables/n5")
        tp.wait_for_selector("#timeline li[data-kind=flag_resolved]", timeout=WAIT_MS)
        assert tp.inner_text("#timeline h2") == "本局与上一局"
        text = tp.inner_text("#timeline")
        assert f"第 {number} 号标记随本局结束撤销" in text
        assert "拒绝了一条按键输入：裁判的判定在判定这条输入之前已结束本局：它不算入下一局" in text
        console = page("/console")  # the console's own view of the table's hand says games too
        login(console)
        console.click("button[data-open=n5]")
        console.wait_for_selector("#c-timeline li[data-kind=flag_resolved]", timeout=WAIT_MS)
        assert console.inner_text("#c-timeline h2 span[data-t]") == "本局与上一局"
    finally:
        live.close()
