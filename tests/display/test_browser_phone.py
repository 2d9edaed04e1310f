"""A player checking their table on a phone (390 x 844, the system Chromium against the app and a real mosquitto), and
a referee opening it in the console: a tile's words stay whole (出牌, 暂停, 在线, 无响应, a clock's 2 秒: the head broke
them letter by letter, 出 / 牌), a seat's cards left on one line on a 360 px phone, a short name beside the dealer's
mark is not cut to 东 李… with the mark cut off, and an empty timeline says why: nothing yet in this hand (San Da Yi:
局), or events the display never heard (it started or restarted mid-round: the broker keeps no events), never
本盘还没有事件 beside a trick under way."""

from __future__ import annotations

import time

import pytest
from kit import HALL_LOCALE, ORGANISER, OWN_USERS, REFEREE, login, served, shot, small_tournament, state, until

from bus.protocol import schema

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
TABLES = ["p1", "p2", "p3", "p4"]

LINES = """sel => [...document.querySelectorAll(sel)].map(el => {  // the line boxes each element's words take
  const r = document.createRange(); r.selectNodeContents(el);
  return [el.textContent, new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top))).size];
})"""
ONE_LINE = """sel => [...document.querySelectorAll(sel)].map(el => {  // its words, their lines, and a height of one line's
  const r = document.createRange(), style = getComputedStyle(el); r.selectNodeContents(el);
  const lines = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top))).size;
  return [el.textContent, lines, el.getBoundingClientRect().height < 1.5 * parseFloat(style.fontSize)];
})"""
CUT = """sel => [...document.querySelectorAll(sel)].filter(el => el.scrollWidth > el.clientWidth + 1 ||
  el.getBoundingClientRect().right > el.closest('.seat').getBoundingClientRect().right + 1).map(el => el.textContent)"""

CHOICES_CUT = """sel => {  // how much wider a select's longest choice is than the select: a choice cut where it is chosen
  const el = document.querySelector(sel), shown = el.getBoundingClientRect().width;
  el.style.maxWidth = "none"; const whole = el.getBoundingClientRect().width; el.style.maxWidth = "";
  return whole - shown;
}"""


def sandayi(seq: int, **more) -> dict:
    teams = [{"name": "dealer", "seats": ["E"], "level": None, "points": 0},
             {"name": "allies", "seats": ["S", "N", "W"], "level": None, "points": 0}]
    s = state(seq=seq, rulebook="usst-2016", dealer="E", trump=None, teams=teams, paused=True, at=time.time(), **more)
    s["clocks"] = {**s["clocks"], "N": {"left": 2.0, "running": False}}
    return s


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_tile_on_a_phone_keeps_its_words_whole(page, table, lang):
    p1, p2 = table("p1"), table("p2")
    p1.publish("status", {"v": 1, "status": "online", "at": time.time()})
    p1.publish("state", sandayi(12))
    p2.publish("status", {"v": 1, "status": "online", "at": time.time() - 200})  # stalled: its health long past
    p2.publish("health", {**schema("health")["examples"][0], "at": time.time() - 200}, retain=True)
    p2.publish("state", state(seq=22, at=time.time() - 200))
    for t, ready in (("p1", "#tile-p1[data-seq='12'] .paused"), ("p2", "#tile-p2[data-live=stalled] .ago")):
        pg = page(f"/tables/{t}", 390, 844, lang=lang)
        pg.wait_for_selector(ready, timeout=WAIT_MS)
        until(pg, f"document.querySelector('#tile-{t} .ago')?.textContent || '{t}' === 'p1'")
        words = pg.evaluate(LINES, ".tile header > *, .tile .clk, .tile .dealer")
        assert len(words) >= 6 and all(n == 1 for _, n in words), words
        assert not pg.evaluate(CUT, ".seat .who .pname, .seat .dealer"), t  # 东 李强 whole, 庄 beside or below it
    assert pg.evaluate(LINES, "#tile-p2 .badge")[0][0] == ("无响应" if lang == "zh" else "stalled")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_seats_cards_left_take_one_line_on_a_phone(page, table, lang):
    """On a 360 x 740 phone each seat's cards left (多于 10 张, over 10 left: San Da Yi tells no count above 10) is on one
    line, on the scoreboard and on the table's own page: a side seat broke it over two (多于 / 10 张, more than / 10 in
    hand), and the table's page, drawn larger, in Chinese too."""
    p4 = table("p4")
    s = sandayi(31, cards={"S": 25, "E": 14, "N": 8, "W": 25},
                players={"S": "欧阳明月", "E": "司马长风", "N": "诸葛晓岚", "W": "上官云裳"})
    s["clocks"] = {seat: {"left": 59.0, "running": False} for seat in "SENW"}  # a clock beside every count
    p4.publish("state", s)
    for path in ("/", "/tables/p4"):
        pg = page(path, 360, 740, lang=lang)
        pg.wait_for_selector("#tile-p4[data-seq='31']", timeout=WAIT_MS)
        counts = pg.evaluate(ONE_LINE, "#tile-p4 .seat .count")
        said = ["8 张", "多于 10 张"] if lang == "zh" else ["8 left", "over 10 left"]
        assert sorted({text for text, _, _ in counts}) == said, counts
        assert all(n == 1 and tall for _, n, tall in counts), (path, counts)


def test_an_empty_timeline_says_whether_events_were_missed(page, table):
    p3 = table("p3")
    p3.publish("state", sandayi(0, hand=0, trick=0, phase="idle", current_trick=None))  # a service just started
    zh, en = page("/tables/p3", 390, 844), page("/tables/p3", 390, 844, lang="en")
    zh.wait_for_selector("#timeline li.empty:has-text('本局还没有事件')", timeout=WAIT_MS)
    en.wait_for_selector("#timeline li.empty:has-text('No events this game yet')", timeout=WAIT_MS)
    p3.publish("state", sandayi(40))  # a game under way, none of its events heard by this display
    zh.wait_for_selector("#timeline li.empty:has-text('显示服务接入之前的事件没有收到')", timeout=WAIT_MS)
    en.wait_for_selector("#timeline li.empty:has-text('were not received')", timeout=WAIT_MS)
    console = page("/console", 1366, 768)
    login(console, REFEREE)
    console.click("button[data-open=p3]")
    console.wait_for_selector("#c-timeline li.empty:has-text('显示服务接入之前的事件没有收到')", timeout=WAIT_MS)


WORDS_SPLIT = """sel => {  // each word (between spaces) of the elements' text that is drawn on more than one line
  const split = [];
  for (const el of document.querySelectorAll(sel)) {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
        if (new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top))).size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_console_on_a_phone_splits_no_word_and_does_not_scroll_sideways(browser, broker, table, tmp_path, lang):
    """At 360 x 800 the English console's tables ran past the screen (scrollWidth 364: the tables' Actions column to
    364 px) and broke their words where a column ended, Last han / d, playin / g, Forfe / it, finishe / d, and the
    audit's dates 02/12/202 / 6; the Chinese one fitted, its words broken as well (p / 1, 进行 / 中). Every word is now
    whole (a row wraps between its cells and words), every date on one line, and nothing scrolls sideways."""
    for name, payload in (("p1", state(seq=4)), ("p2", sandayi(5, phase="round_over")), ("p3", state(seq=6, phase="idle"))):
        table(name).publish("state", payload)
    with served(broker, tmp_path / "console.db", small_tournament(tmp_path / "hall.db"), users=OWN_USERS) as server:
        context = browser.new_context(viewport={"width": 360, "height": 800}, locale=HALL_LOCALE)
        try:
            context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
            console = context.new_page()
            console.goto(server.url + "/console")
            login(console, ORGANISER)
            console.wait_for_selector("#t-round button[data-forfeit]", timeout=WAIT_MS)
            seated = console.evaluate("[...document.querySelectorAll('#t-round tr[data-table]')].map(tr => "
                                      "[tr.dataset.table, tr.querySelector('button[data-forfeit]').dataset.forfeit])")
            for at, entry in seated:  # a line in the audit log for each, with its date
                r = console.request.post(server.url + "/api/console/tournament/forfeits", headers={"Origin": server.url},
                                         data={"round": 1, "table": at, "entries": [entry]})
                assert r.ok, r.text()
            console.reload()
            console.wait_for_selector("#c-tables tr[data-table=p3]", timeout=WAIT_MS)
            console.wait_for_selector("#t-round .forfeited", timeout=WAIT_MS)
            until(console, "document.querySelectorAll('#c-audit tbody tr').length >= 2")
            shot(console, f"console-phone-{lang}.png")
            assert console.evaluate("document.documentElement.scrollWidth") <= 360  # nor a panel's box, nor a select
            assert console.evaluate("[...document.querySelectorAll('#desk .panel, #desk .body')].every(e => e.scrollWidth <= e.clientWidth)")
            # Chinese sentences (the audit's lines) break between any two characters, as Chinese is set; its cells'
            # words and the buttons' stay whole (p / 1, 进行 / 中, 本轮 / 结束 in the squeezed table)
            words = "#desk td, #desk th, #desk button" if lang == "en" else "#c-tables td, #t-round td:first-child, #desk button"
            assert not console.evaluate(WORDS_SPLIT, words), lang
            dates = console.evaluate(LINES, "#c-audit tbody td:first-child")
            assert len(dates) >= 2 and all(n == 1 for _, n in dates), dates
            for typed in ("", "p1", "p2"):  # the ruling's choices whole in its select, none at a table not typed
                console.fill("#ruling-form input[name=table]", typed)
                assert console.evaluate(CHOICES_CUT, "#ruling-form select[name=what]") <= 0, (lang, typed)
        finally:
            context.close()
