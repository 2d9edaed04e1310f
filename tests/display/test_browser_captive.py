"""A captive led at a classic-3deck table, answered from the console, in the system Chromium against a real mosquitto
and a real table service.

Seed 001 十五: “俘虏”不能出……除非当“甩牌”出牌，要说明“甩牌”的结构（三条加一对或拖拉机加一单张）. Seed 001 十九: 甩错牌一旦成，
一次扣罚20分，且甩牌不成立.

The table holds such a lead on an ``illegal_lead`` flag whose ``choices`` are its readings, and takes a ``dismiss``
naming the one stated (``reading``) or a ``confirm`` (none stated, 甩错牌). The console could send no ``reading``: its
撤销标记 was refused by the table, so a referee could only confirm, charging 20 points for a structure that was said.
Now it shows one button per structure, with its cards, and its confirm says what it means."""

from __future__ import annotations

import pytest
from kit import LiveTable, login

pytestmark = pytest.mark.browser
TABLES = ["k1", "k2"]
WAIT_MS = 30_000
CAPTIVE = ["SA", "SA", "SA", "SK", "SK"]  # 三条加一对, or 拖拉机 (SA SA SK SK) 加一单张 (SA)


def _captive_led(broker, name: str, db) -> LiveTable:
    live = LiveTable(broker, name, db)
    live.to_first_lead()
    live.send("observed", seat="S", cards=CAPTIVE, confidence=0.99)
    assert live.service.table.flags[0].kind == "illegal_lead" and live.service.table.judge.tricks == ()
    return live


def test_the_referee_names_the_structure_the_leader_stated_and_the_lead_stands_as_it(page, broker, tmp_path):
    live = _captive_led(broker, "k1", tmp_path / "k1.db")
    try:
        number = live.flag()[1:]
        console = page("/console")
        login(console)
        card = ".flag-card[data-table=k1]"
        console.wait_for_selector(f"{card} button[data-reading]", timeout=WAIT_MS)
        buttons = console.locator(f"{card} button")
        shown = [[" ".join(b.inner_text().split()), b.get_attribute("data-reading"),
                  [c.get_attribute("data-card") for c in b.locator("svg.card").all()]] for b in buttons.all()]
        assert shown == [["说明了：按此结构 +", "1", ["SK", "SK", "SA", "SA", "SA"]],
                         ["说明了：按此结构 +", "2", ["SA", "SA", "SK", "SK", "SA"]],
                         ["没有说明：按甩错牌处罚", None, []], ["更正", None, []]]  # no plain 撤销标记: the table refuses it
        assert console.locator(f"{card} button[data-reading='1'] svg.card").first.get_attribute("aria-label") == "黑桃K"
        assert _post(console, "k1", live.flag(), {"how": "confirm", "reading": 1}) == (
            422, "出牌者说明的读法只在撤销标记时给出，确认和更正时不给")
        console.click(f"{card} button[data-reading='2']")  # 拖拉机加一单张
        console.wait_for_selector("#c-flags .empty", timeout=WAIT_MS)
        assert console.inner_text("#result .line") == \
            f"组织者 wang 撤销 k1 桌第 {number} 号标记：出牌者说明了第 2 种读法 ♠A ♠A ♠K ♠K + ♠A"
        table = live.service.table
        assert not table.flags and not table.penalties  # nothing charged: the lead stands as the structure stated
        assert sorted(sorted(u.cards.names()) for u in table.judge.tricks[0].structure) == [["SA"], ["SA", "SA", "SK", "SK"]]
        console.wait_for_selector("#c-audit tbody tr[data-action=dismiss]")
    finally:
        live.close()


def _post(console, table: str, flag: str, body: dict) -> tuple[int, str]:
    """An answer to ``flag`` through the console's API, with the console's session (and language)."""
    origin = console.url.split("/console")[0]
    r = console.request.post(f"{origin}/api/console/tables/{table}/flags/{flag}", data=body, headers={"Origin": origin})
    return r.status, r.json()["detail"]


def test_a_reading_goes_with_a_dismiss_only_and_one_is_needed(page, broker, tmp_path):
    """The API refuses a reading with confirm or correct in words, and sends nothing; the table's refusals of a dismiss
    without one, or of one out of range, come back in its words. In English, the buttons and the words."""
    live = _captive_led(broker, "k2", tmp_path / "k2.db")
    try:
        flag = live.flag()
        console = page("/console", lang="en")
        login(console)
        card = ".flag-card[data-table=k2]"
        console.wait_for_selector(f"{card} button[data-reading]", timeout=WAIT_MS)
        assert [" ".join(b.split()) for b in console.locator(f"{card} button").all_inner_texts()] == \
            ["Stated: this structure +", "Stated: this structure +", "Not stated: penalise as a wrong throw", "Correct"]
        seq = live.service.seq
        assert _post(console, "k2", flag, {"how": "confirm", "reading": 1}) == (
            422, "the reading stated comes with dismiss, and never with confirm or correct")
        assert _post(console, "k2", flag, {"how": "correct", "cards": CAPTIVE, "reading": 2})[0] == 422
        assert _post(console, "k2", flag, {"how": "dismiss", "reading": 0})[0] == 422
        assert live.service.seq == seq and live.service.table.flags  # nothing reached the table
        assert _post(console, "k2", flag, {"how": "dismiss"}) == (409, "table k2 did not take this action, nothing "
                                                                  f"changed: dismissing flag {flag[1:]} needs the reading its player stated (1 to 2)")
        assert _post(console, "k2", flag, {"how": "dismiss", "reading": 3})[0] == 409
        assert live.service.table.flags and not live.service.table.penalties
    finally:
        live.close()
