"""A trick's cards collected, in the system Chromium against the app (uvicorn) and a real mosquitto: each seat's pickup
is an event of its own (its camera's removed read, picked_up), so a table page's timeline and the console's said four
收牌 lines a trick (南 收牌 ♠5♠5, 东 收牌 …), each repeating the cards the plays above them showed. Pickups one after
another are now one line naming the seats (东、南、西、北 收牌); a pickup alone (cards shown out of turn, taken back: 002
十一 3) keeps its line with its cards."""

from __future__ import annotations

import pytest
from kit import login, state

pytestmark = pytest.mark.browser
TABLES = ["k1", "k2"]  # the module broker's tables
WAIT_MS = 30_000
SEED_PICKUP = "牌一经触桌，不得收回"  # a seat's cards are collected once the trick is complete (an early pickup a foul)
SAID = {"zh": ("k1", "南、东、北、西 收牌", "南 王芳 收牌"), "en": ("k2", "S, E, N, W collected their cards", "S (王芳) picks up")}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_tricks_pickups_are_one_line(page, table, lang):
    assert "不得收回" in SEED_PICKUP
    name, folded, alone = SAID[lang]
    k1 = table(name)
    k1.publish("state", state(seq=100, hand=3, trick=2))
    trick = {"S": ["S5", "S5"], "E": ["S9", "S9"], "N": ["SK", "SK"], "W": ["S2", "S3"]}
    base = 100
    for i, (seat, cards) in enumerate(trick.items()):
        k1.event(base + 1 + i, "play_accepted", hand=3, trick=1, seat=seat, cards=cards)
    k1.event(base + 5, "trick_won", hand=3, trick=1, seat="N", points=0)
    for i, (seat, cards) in enumerate(trick.items()):
        k1.event(base + 6 + i, "picked_up", seat=seat, cards=cards)
    k1.event(base + 10, "play_accepted", hand=3, trick=2, seat="N", cards=["HA"])
    k1.event(base + 11, "picked_up", seat="S", cards=["D3"])  # alone: its cards said
    pg = page(f"/tables/{name}", lang=lang)
    console = page("/console", lang=lang)
    login(console)
    console.click(f"#c-tables button[data-open={name}]")
    for p, box in ((pg, "#timeline"), (console, "#c-timeline")):
        p.wait_for_selector(f"{box} li[data-seq='{base + 11}']", timeout=WAIT_MS)
        lines = p.locator(f"{box} li[data-kind=picked_up]")
        assert lines.count() == 2, lines.all_inner_texts()
        assert lines.nth(1).inner_text().endswith(folded)  # the newest first: the trick's, then the lone one
        assert lines.nth(1).locator("svg, .card").count() == 0
        assert alone in lines.nth(0).inner_text() and lines.nth(0).get_attribute("data-seq") == str(base + 11)
