"""The referee's walk with a phone (s53), in the system Chromium against a real mosquitto and real table services: a
flag of a table that does not answer says so where the referee answers it, the list of flags says how many wait, and
a correction into cards the decks do not hold is refused in words, nothing sent."""

from __future__ import annotations

import time

import pytest
from kit import REFEREE, LiveTable, login, state, until

pytestmark = pytest.mark.browser
TABLES = ["j1", "j2", "j3", "j4"]
WAIT_MS = 30_000
PHONE = {"width": 360, "height": 740}


def test_a_flag_of_a_table_not_live_says_so_on_its_card(page, table):
    """002 十 第1条 3、停止打牌: a flag holds its table. A table gone offline (or of no status heard) kept its flags on the
    console with their buttons and no word: the referee answered, and only then was told in red that no answer came;
    its 离线 stood in the tables' list, far above on a phone. Now the card says it, in the reader's language."""
    j1 = table("j1")
    flag = {"flag": "f4", "seat": "W", "kind": "unsure", "at": time.time(), "cards": ["D4"]}
    j1.publish("state", state(seq=9, paused=True, flags=[flag], at=time.time()))
    j1.publish("status", {"v": 1, "status": "online", "at": time.time()})
    console = page("/console", **PHONE)
    login(console, REFEREE)
    card = ".flag-card[data-table=j1]"
    console.wait_for_selector(f"{card} button[data-how=confirm]", timeout=WAIT_MS)
    assert console.locator(f"{card} .not-live").inner_text() == ""  # online: nothing said
    j1.publish("status", {"v": 1, "status": "offline", "at": time.time()})
    console.wait_for_selector(f"{card} .not-live:not(:empty)", timeout=WAIT_MS)
    assert console.inner_text(f"{card} .not-live") == "j1 桌离线：操作可能得不到牌桌的回应，请到场核对"
    console.click("#lang")
    until(console, f"document.querySelector('{card} .not-live').textContent.startsWith('Table')")
    assert console.inner_text(f"{card} .not-live") == "Table j1: offline; an answer may get no reply from the table, check at the table"
    j1.publish("status", {"v": 1, "status": "online", "at": time.time()})
    until(console, f"document.querySelector('{card} .not-live').textContent === ''")
    j1.publish("state", state(seq=10, at=time.time()))  # the flag gone, for the tests after this one


def test_the_flags_heading_says_how_many_wait(page, table):
    """A long evening's list (here 30 flags at one table) runs to metres on a phone: its heading says how many wait,
    and a flag with no frame kept takes a line to say so, not a box."""
    now = time.time()
    flags = [{"flag": f"f{i}", "seat": "SENW"[i % 4], "kind": "unsure", "at": now, "cards": ["D4"]} for i in range(1, 31)]
    table("j2").publish("state", state(seq=30, paused=True, flags=flags, at=now))
    table("j2").publish("status", {"v": 1, "status": "online", "at": now})
    console = page("/console", **PHONE)
    login(console, REFEREE)
    console.wait_for_selector(".flag-card[data-flag=f30]", timeout=WAIT_MS)
    assert console.inner_text("#c-flags h2") == "待裁判 30"
    # each card a few lines: its 无画面 a dashed box a sixth of the screen high above each made the list 9 m long
    heights = console.evaluate("[...document.querySelectorAll('.flag-card')].map(c => c.getBoundingClientRect().height)")
    assert max(heights) < 240, max(heights)  # 305 px with the box
    console.click("#lang")
    until(console, "document.querySelector('#c-flags h2').textContent === 'For the referee 30'")
    table("j2").publish("state", state(seq=31, at=time.time()))
    console.wait_for_selector("#c-flags .empty", timeout=WAIT_MS)
    assert console.inner_text("#c-flags h2") == "For the referee"


def test_a_correction_into_more_copies_than_the_decks_hold_is_refused(page, broker, tmp_path):
    """001 (三副牌): each card is three times in the decks. A correction of S's unsure lead into four ♠5 was sent, the
    table took it (and then asked whether the four were a throw). Now the console refuses it in words, sends nothing
    and records nothing; the flag stays open."""
    live = LiveTable(broker, "j3", tmp_path / "j3.db")
    try:
        live.to_first_lead()
        live.send("observed", seat="S", cards=["S5"], confidence=0.5)
        flag, seq = live.flag(), live.service.seq
        console = page("/console", **PHONE)
        login(console, REFEREE)
        console.wait_for_selector(".flag-card[data-table=j3]", timeout=WAIT_MS)
        said = console.evaluate("""async flag => { const r = await fetch('/api/console/tables/j3/flags/' + flag, {method: 'POST',
          headers: {'Content-Type': 'application/json'}, body: JSON.stringify({how: 'correct', cards: ['S5', 'S5', 'S5', 'S5']})});
          return [r.status, (await r.json()).detail]; }""", flag)
        assert said == [422, "j3 桌不可能出 4 张 ♠5：3 副牌每张只有 3 张，本盘已出 0 张；更正没有发给牌桌（若之前哪一手认错了，请先更正那一手）"]
        time.sleep(1)
        assert live.service.seq == seq and live.flag() == flag
        assert console.locator("#c-audit tbody tr[data-action=correct]").count() == 0
    finally:
        live.close()


def test_the_answers_effect_is_seen_where_it_is_given(page, broker, tmp_path):
    """002 十 第1条 3、停止打牌: a flag stops the table's clocks till the referee answers. The console's row said nothing
    of it (the scoreboard's tile says 暂停), so a referee saw no effect of an answer but the card going: the row says the
    clocks wait for the referee while a flag holds them, and nothing once answered; the table's timeline says the
    ruling."""
    live = LiveTable(broker, "j4", tmp_path / "j4.db")
    try:
        live.to_first_lead()
        live.send("observed", seat="S", cards=["S5"], confidence=0.5)
        number = live.flag()[1:]
        console = page("/console", **PHONE)
        login(console, REFEREE)
        row = "#c-tables tr[data-table=j4]"
        console.wait_for_selector(f"{row} .held", timeout=WAIT_MS)
        assert console.inner_text(f"{row} .held") == "计时暂停，等裁判处理标记"
        console.click(f"{row} button[data-open=j4]")
        console.click(".flag-card[data-table=j4] button[data-how=confirm]")
        console.wait_for_selector(".flag-card[data-table=j4]", state="detached", timeout=WAIT_MS)
        console.wait_for_selector(f"{row}:not(:has(.held))", timeout=WAIT_MS)
        assert not live.service.table.state(time.time())["paused"]
        console.wait_for_selector(f"#c-timeline li:has-text('第 {number} 号标记已确认')", timeout=WAIT_MS)
        console.click("#lang")
        console.wait_for_selector(f"#c-timeline li:has-text('flag {number} confirmed')", timeout=WAIT_MS)
    finally:
        live.close()
