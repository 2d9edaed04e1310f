"""The reader's language, in the system Chromium: one rule (display.deps.language) for every page, answer, refusal
and export: the choice made on the switch, else the browser's Accept-Language, else Chinese. The pages went by the
switch's cookie alone, the console's calls by the language the page sent, an export by the cookie then the browser's
language: a reader of an English browser read a Chinese console whose export came in English. The rulebooks a round
may start with are named by their titles in the reader's language (the English console named them by their ids)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from kit import OWN_USERS, login, served, small_tournament

from referee.catalogue import speaks

pytestmark = pytest.mark.browser
WORDS = {"zh": {"html": "zh-CN", "h1": "赛场实况", "refused": "错误：消息服务器上还没有牌桌", "csv": "轮次,桌号",
                "book": "三副牌拖拉机竞赛规则（仲恺 2010）"},
         "en": {"html": "en", "h1": "Hall live", "refused": "Error: no table on the broker yet", "csv": "Round,Table",
                "book": "Three-deck Tractor competition rules (Zhongkai 2010)"}}  # book: pair Swiss's, zhongkai-2010


@pytest.fixture(scope="module")
def hall(broker, tmp_path_factory):
    """A display on the module's broker (no table on it: announcing the last hand is refused) with a tournament."""
    where = tmp_path_factory.mktemp("language")
    with served(broker, where / "c.db", small_tournament(where / "hall.db"), OWN_USERS) as server:
        yield server


@contextmanager
def console_in(browser, hall, locale: str):
    """The console, logged in, in a first-time browser asking for ``locale``, its tournament panel drawn."""
    context = browser.new_context(locale=locale)
    try:
        console = context.new_page()
        console.goto(hall.url + "/console")
        login(console)
        console.wait_for_selector("a[href='/api/console/tournament/export.csv']")
        yield console
    finally:
        context.close()


def reads(console, lang: str) -> None:
    """The console, the rulebooks it offers, a refusal it is answered and the sheet it exports are all in ``lang``."""
    assert console.get_attribute("html", "lang") == WORDS[lang]["html"] and console.inner_text("h1") == WORDS[lang]["h1"]
    console.wait_for_selector(f"#t-rulebook option[selected]:text-is({WORDS[lang]['book']!r})", state="attached")  # redrawn
    books = console.locator("#t-rulebook option").all_text_contents()
    assert len(books) == 6 and all(speaks(b, lang) for b in books), books  # pair Swiss plays Tractor and Guandan: six books
    console.click("#all-last-hand")
    console.wait_for_selector(f"#result .line:text-is({WORDS[lang]['refused']!r})")
    with console.expect_download() as sheet:
        console.click("a[href='/api/console/tournament/export.csv']")
    with open(sheet.value.path(), encoding="utf-8-sig") as f:
        assert f.readline().startswith(WORDS[lang]["csv"])


@pytest.mark.parametrize("locale, first, chosen", [("zh-CN", "zh", "en"), ("en-US", "en", "zh")])
def test_the_switch_rules_every_page_refusal_and_export_over_the_browsers_language(browser, hall, locale, first, chosen):
    """A first-time reader reads the browser's language (of ours); one who chose the other on the switch reads it
    everywhere: the console as it is, its refusals and exports, the next page, the scoreboard."""
    with console_in(browser, hall, locale) as console:
        reads(console, first)
        console.click("#lang")
        console.wait_for_selector(f"h1:text-is({WORDS[chosen]['h1']!r})")
        reads(console, chosen)  # without a reload: the page's calls follow the switch
        console.reload()
        reads(console, chosen)
        board = console.context.new_page()
        board.goto(hall.url + "/")
        assert board.get_attribute("body", "data-lang") == chosen and board.inner_text("h1") == WORDS[chosen]["h1"]  # as served


@pytest.mark.parametrize("locale", ["fr-FR", "de"])
def test_a_first_time_reader_whose_browser_asks_no_english_reads_chinese(browser, hall, locale):
    """Chinese is the default wherever a person reads: a browser that asks for neither language gets Chinese."""
    with console_in(browser, hall, locale) as console:
        reads(console, "zh")


def test_english_pages_draw_latin_punctuation_from_a_latin_face(browser, hall):
    """The pages' fonts put the CJK faces first, so on the English pages “quotes” and other punctuation were drawn
    full-width (“press “Record result””). English takes a Latin face first, Chinese names still drawn by the CJK faces
    after it; the Chinese pages are as they were. Measured in Chromium with the fonts `make setup` installs."""
    widths = {}
    for lang in ("zh", "en"):
        context = browser.new_context(locale="en-US" if lang == "en" else "zh-CN")
        try:
            page = context.new_page()
            page.goto(hall.url + "/")
            page.wait_for_selector(f"html[lang={WORDS[lang]['html']!r}]")
            widths[lang] = page.evaluate("""() => { const s = document.createElement('span');
                s.textContent = '\u201c\u201d'.repeat(10); document.body.appendChild(s);
                const em = parseFloat(getComputedStyle(s).fontSize); const w = s.getBoundingClientRect().width / 20 / em;
                const z = document.createElement('span'); z.textContent = '王'.repeat(10); document.body.appendChild(z);
                return [w, z.getBoundingClientRect().width / 10 / em]; }""")
        finally:
            context.close()
    assert widths["zh"][0] > 0.8 and widths["en"][0] < 0.6, widths  # full-width in Chinese, Latin in English
    assert widths["en"][1] > 0.9, widths  # a Chinese name on an English page: still a CJK face, a full square
