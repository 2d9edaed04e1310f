"""The big screen read from the back of the hall (the system Chromium against the app and a real mosquitto): every word
of its tiles, standings and pairings is at least 1/36 of the screen's height (30 px at 1920x1080, 60 px at 3840x2160;
they were 17-21 px, 27 px on a 4K screen: too small 10 m away), and a hall of 24 tables, some offline, stalled or with
flags and violations, still shows every tile whole on one of its pages."""

from __future__ import annotations

import time

import pytest
from kit import round_, standings, state, until

from bus.protocol import schema

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
TABLES = [f"b{i:02d}" for i in range(1, 25)]
FLOOR = 40  # the screen's height over the smallest word's size

SIZES = """sel => [...document.querySelectorAll(sel)].filter(el => el.offsetParent &&
  [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())).map(el => [el.textContent.trim().slice(0, 20),
  parseFloat(getComputedStyle(el).fontSize)])"""
SHOWN = """() => [...document.querySelectorAll('#wall .tile')].filter(el => !el.hidden).map(el => {
  const r = el.getBoundingClientRect(); return [el.id, r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth]; })"""


def hall(table, tournament) -> None:
    now = time.time()
    for i, name in enumerate(TABLES):
        t = table(name)
        flags = [{"flag": f"f{i}", "seat": "N", "kind": "unsure", "at": now, "cards": ["H3"]}] if i % 5 == 2 else []
        t.publish("status", {"v": 1, "status": "offline" if i == 3 else "online", "at": now})
        if i == 4:  # stalled: its health long past
            t.publish("health", {**schema("health")["examples"][0], "at": now - 200}, retain=True)
        t.publish("state", state(seq=100 + i, at=now - (200 if i == 4 else 0), flags=flags))
        if i % 6 == 1:
            t.publish("violations", {"v": 1, "seq": 99, "flag": f"v{i}", "at": now, "seat": "E", "kind": "revoke",
                                     "rule": {"book": "classic-3deck", "article": "十九"}, "evidence": {"hand": 3, "trick": 1,
                                     "cards": ["D2"]}, "penalty": {"text": "E did not follow"}, "status": "confirmed"})
    rows = [{"rank": i + 1, "id": f"e{i}", "name": f"光电信息与计算机工程学院{i}队", "unit": "光电信息与计算机工程学院",
             "score": 12 - i, "tiebreaks": [i, -i], "prize": None} for i in range(12)]
    entries = [{"id": f"e{i}", "name": f"光电信息与计算机工程学院{i}队", "unit": "光电信息与计算机工程学院"} for i in range(12)]
    tournament.publish("autumn", "round", round_(tables=[{"table": TABLES[i], "entries": entries[2 * i:2 * i + 2],
                                                          "result": None} for i in range(6)], rnd=2))
    tournament.publish("autumn", "standings", standings(rows=rows, rnd=2))


@pytest.mark.parametrize("width, height", [(1920, 1080), (3840, 2160), (1280, 720)])
def test_the_big_screen_reads_from_the_back_of_the_hall(page, table, tournament, width, height):
    hall(table, tournament)
    pg = page("/big", width, height)
    until(pg, f"document.querySelectorAll('#wall .tile').length === {len(TABLES)} && "
              "!!document.querySelector('#tile-b03 .flags .card') && !!document.querySelector('#standings tbody tr')")
    floor = height / FLOOR
    seen: set[str] = set()
    for _ in range(40):  # every slide once: each page of the standings, the pairings and the tiles
        slide = pg.evaluate("document.body.dataset.slide")
        which = slide.split(":")[0]
        small = [x for x in pg.evaluate(SIZES, f"#{which} *") if x[1] < floor]
        assert not small, (slide, floor, small[:5])
        if which == "wall":
            shown = pg.evaluate(SHOWN)
            assert shown and all(whole for _, whole in shown), (slide, shown)  # no tile cut by the screen's edge
            seen |= {t for t, _ in shown}
        pg.evaluate("rotate()")
        if pg.evaluate("document.body.dataset.slide") == "standings:0" and seen:
            break
    assert seen == {f"tile-{t}" for t in TABLES}  # every table on a page of its own screen
