"""The pages as a person reads them, found by looking at every page of a whole simulated evening (cardtable hall) in
Chromium at 1920x1080, 1366x768 and 390x844, in both languages: a seat's shot clock says its unit, an empty list or a
table not heard from says so, a table that stopped refereeing does not look like one in play, and a phone does not
break a heading inside its word. Against the app (uvicorn) and a real mosquitto."""

from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from kit import console_of, served, standings, state, until

from bus.protocol import schema

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
TABLES = ["q1", "q2", "q3"]


def test_a_seat_clock_says_its_unit(page, table):
    """001: 领出不得超过15秒钟，按规定顺序跟牌、垫牌、将吃不超过10秒钟 -- the limit is in seconds, and the tile's shot
    clock was a bare number beside the seat's count of cards (37 张 10); now 10 秒, 10 s, as it counts down."""
    q1 = table("q1")
    q1.publish("status", {"v": 1, "status": "online", "at": time.time()})
    q1.publish("health", {**schema("health")["examples"][0], "at": time.time(), "every": 60.0})
    q1.publish("state", state(seq=10, at=time.time(), clocks={**state()["clocks"], "N": {"left": 30.0, "running": True}}))
    for lang, unit in (("zh", "秒"), ("en", "s")):
        pg = page("/", lang=lang)
        pg.wait_for_selector("#tile-q1[data-seq='10'] .seat.N .clk", timeout=WAIT_MS)
        until(pg, "parseInt(document.querySelector('#tile-q1 .seat.N .clk').textContent) < 30")  # counted down by the page
        number, said = pg.inner_text("#tile-q1 .seat.N .clk").split()
        assert said == unit and 0 < int(number) < 30, (lang, number, said)


def test_a_table_not_heard_from_says_so(page):
    """A table's page before its service said anything (a table being set up, a link followed early) was a tile with
    its name and 未知, and two headed panels with nothing under them."""
    for lang, words in (("zh", ["还没有收到这张牌桌的消息", "本盘还没有事件", "暂无违例"]),
                        ("en", ["Nothing heard from this table yet", "No events this hand yet", "No violations"])):
        pg = page("/tables/q3", lang=lang)
        pg.wait_for_selector("#tile-q3", timeout=WAIT_MS)
        assert [pg.inner_text(x) for x in ("#tile-q3 .empty", "#timeline li.empty", "#allviolations li.empty")] == words


def test_a_table_that_stopped_refereeing_is_grey_as_one_offline(page, table):
    """A service that hangs keeps its status online (its connection to the broker may live on): its health stops,
    the tile's badge said 无响应 on a green felt, the same green as every table in play; now grey, as an offline one."""
    q2 = table("q2")
    q2.publish("status", {"v": 1, "status": "online", "at": time.time()})
    q2.publish("health", {**schema("health")["examples"][0], "at": time.time(), "every": 0.5})  # and no more
    q2.publish("state", state(seq=20))
    pg = page("/")
    pg.wait_for_selector("#tile-q2[data-live=stalled]", timeout=WAIT_MS)
    background = "getComputedStyle(document.querySelector('#tile-q2')).backgroundColor"
    assert pg.evaluate(background) == "rgb(58, 58, 58)"
    q2.publish("status", {"v": 1, "status": "offline"})
    pg.wait_for_selector("#tile-q2[data-status=offline]", timeout=WAIT_MS)
    assert pg.evaluate(background) == "rgb(58, 58, 58)"


def test_the_console_with_no_table_yet_says_so(browser, fresh_broker, tmp_path):
    """The console's tables panel before any table said anything was its column headings over nothing."""
    with served(fresh_broker, tmp_path / "console.db", users=("scoreboard-3", "console-3")) as server, \
            console_of(browser, server) as console:
        console.wait_for_selector("#c-tables td.empty", timeout=WAIT_MS)
        assert console.inner_text("#c-tables tbody") == "暂无牌桌"


def test_standings_headings_keep_their_words_on_a_phone(page, tournament):
    """At 390 pixels the standings' headings broke inside their words, a character a line (名 / 次, 总 / 分)."""
    rows = [{"rank": 1, "id": "e1", "name": "数学学院", "unit": "数学学院", "score": 2, "tiebreaks": [0, 2], "prize": None},
            {"rank": 2, "id": "e2", "name": "外语学院", "unit": "外语学院", "score": 0, "tiebreaks": [2, -2], "prize": None}]
    tournament.publish("evening", "standings", standings("evening", rows=rows))
    pg = page("/", width=390, height=844)
    pg.wait_for_selector("#standings tr[data-entry=e1]", timeout=WAIT_MS)
    lines = pg.evaluate("[...document.querySelectorAll('#standings th')].map(th => "
                        "Math.round(th.getBoundingClientRect().height / parseFloat(getComputedStyle(th).lineHeight)))")
    assert lines == [1] * 6, lines
    assert pg.evaluate("document.querySelector('#standings table').scrollWidth <= document.querySelector('#standings .body').clientWidth")


def test_an_address_that_is_no_page_says_so_in_words(page, server):
    """A mistyped address or an old bookmark was answered {"detail":"Not Found"}, a line of JSON in English on a
    Chinese hall's browser; now a page under the header and its links, in the reader's language, still a 404. The API
    keeps answering JSON."""
    for lang, said in (("zh", "这里没有页面：请从上面的链接进入记分牌、大屏或控制台"),
                       ("en", "There is no page here: the links above lead to the scoreboard, the big screen and the console")):
        pg = page("/scoreboard", lang=lang)
        assert pg.inner_text("#missing") == said
        assert pg.inner_text("header.top nav").split() == (["记分牌", "大屏", "控制台"] if lang == "zh" else
                                                           ["Scoreboard", "Big", "screen", "Console"])
    for path, accept, kind in (("/scoreboard", "text/html", "text/html"), ("/api/nothing", "text/html", "application/json"),
                               ("/scoreboard", "application/json", "application/json")):
        request = urllib.request.Request(server.url + path, headers={"Accept": accept})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 404 and refused.value.headers["content-type"].startswith(kind), (path, accept)



@pytest.mark.parametrize("path", ["/tables/一号桌", "/tables/t%2001", "/tables/%3Cscript%3E", "/tables/" + "t" * 40])
def test_a_table_address_not_in_a_tables_form_is_no_page_either(page, server, path):
    """A table's address whose id cannot be a table's (not letters, digits, - and _; over 32 of them) was answered
    422 in JSON, {"detail":"path.table：格式不对"} alone on the phone's screen; now the page that says there is no page
    here, in the reader's language, a 404. The API keeps answering JSON."""
    for lang, said in (("zh", "这里没有页面：请从上面的链接进入记分牌、大屏或控制台"),
                       ("en", "There is no page here: the links above lead to the scoreboard, the big screen and the console")):
        assert page(path, 360, 800, lang=lang).inner_text("#missing") == said
    for asked, accept, status, kind in ((path, "text/html", 404, "text/html"), (path, "application/json", 422, "application/json"),
                                        ("/api" + path, "text/html", 422, "application/json")):
        request = urllib.request.Request(server.url + urllib.parse.quote(asked, safe="/%"), headers={"Accept": accept})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert (refused.value.code, refused.value.headers["content-type"].split(";")[0]) == (status, kind), (asked, accept)

CONTRAST = """sel => {  // the contrast ratio (WCAG 2) of an element's words against the ground it is drawn on, its own and its
  // ancestors' backgrounds laid one over the other (the seat on turn is a translucent highlight over the felt)
  const rgba = s => { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const el = document.querySelector(sel), grounds = [];
  for (let e = el; e; e = e.parentElement) grounds.unshift(rgba(getComputedStyle(e).backgroundColor));
  const ground = grounds.reduce((under, [r, g, b, a]) => [r, g, b].map((c, i) => c * a + under[i] * (1 - a)), [255, 255, 255]);
  const lum = c => c.map(v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [x, y] = [lum(rgba(getComputedStyle(el).color).slice(0, 3)), lum(ground)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}"""


def test_the_tiles_words_read_from_the_back_of_a_hall(page, table):
    """The big screen is read across a hall: every word of a tile at 4.5 : 1 at least (WCAG AA). The felt's quieter
    words (cards left, phase, dealer and trump) were at 3.9 : 1, the count of the seat on turn at 2.8 : 1, a red trump
    suit at 3.6 : 1, and the white of 离线 and 最后一盘 on their light red at 2.8 : 1."""
    q1, q2 = table("q1"), table("q2")
    q1.publish("status", {"v": 1, "status": "online", "at": time.time()})
    q1.publish("state", state(seq=30, turn="N", round={**state()["round"], "last_hand": True}))
    q2.publish("state", state(seq=31))
    q2.publish("status", {"v": 1, "status": "offline"})
    pg = page("/big", width=1920, height=1080)
    pg.wait_for_selector("#tile-q1[data-seq='30'] .lh", state="attached", timeout=WAIT_MS)
    pg.wait_for_selector("#tile-q2[data-status=offline]", state="attached", timeout=WAIT_MS)
    until(pg, "!document.querySelector('#tile-q1').hidden")  # the wall's slide
    words = ["#tile-q1 .phase", "#tile-q1 .ht", "#tile-q1 .info", "#tile-q1 .info .suit.red", "#tile-q1 .info .lh",
             "#tile-q1 .seat.N .count", "#tile-q1 .seat.S .count", "#tile-q1 .seat.S .who", "#tile-q1 .badge",
             "#tile-q2 .badge.offline", "#tile-q2 .seat.S .count", "#roundclock .notice"]
    ratios = {w: round(pg.evaluate(CONTRAST, w), 2) for w in words}
    assert all(r >= 4.5 for r in ratios.values()), ratios
