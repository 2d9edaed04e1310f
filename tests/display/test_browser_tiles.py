"""What a tile says of each game, in the system Chromium against the app (uvicorn) and a real mosquitto: a Guandan
table has no trump suit, a San Da Yi dealer is named once, no hand is counted before it is dealt, a card picture
is named in the reader's words, and the red suits of what is said are red."""

from __future__ import annotations

import time

import pytest
from kit import REFEREE, login, state

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
TABLES = ["g1", "s1", "a1", "c1", "r1"]
SEED_002 = "级数为x时，x是本局的参谋，小于大小王。红心x可作为万能牌配用(俗称“逢人配”，不可配大小王)"


def test_a_guandan_tile_shows_the_level_played_and_no_trump_suit(page, table):
    """002 二: 级数为x时，x是本局的参谋 -- Guandan plays a level, with no trump suit: 打 2, never 主 无主."""
    assert "参谋" in SEED_002
    g1 = table("g1")
    g1.publish("state", state(seq=5, rulebook="sanjiang-2012", dealer=None, trump={"suit": None, "rank": "2"}))
    pg = page("/")
    pg.wait_for_selector("#tile-g1[data-seq='5']", timeout=WAIT_MS)
    assert pg.inner_text("#tile-g1 .info") == "打 2"
    # a Tractor hand of no trump suit (无主) still says so
    g1.publish("state", state(seq=6, trump={"suit": None, "rank": "7"}))
    pg.wait_for_selector("#tile-g1[data-seq='6']", timeout=WAIT_MS)
    assert pg.inner_text("#tile-g1 .info") == "庄家 南 · 主 无主 · 打 7"


def test_the_level_played_reads_apart_from_the_sides_levels_in_english(page, table):
    """002 二 (SEED_002): x是本局的参谋 -- the hand is played at one level. The English tile said it as "level 3" under the
    sides' rows "level 2" and "level 3", a third level of nobody; it says "playing 3" (打 3), the sides' levels as before."""
    teams = [{"name": "SN", "seats": ["S", "N"], "level": "2", "points": 0}, {"name": "EW", "seats": ["E", "W"], "level": "3", "points": 0}]
    table("g1").publish("state", state(seq=8, rulebook="sanjiang-2012", dealer=None, trump={"suit": None, "rank": "3"}, teams=teams))
    pg = page("/", lang="en")
    pg.wait_for_selector("#tile-g1[data-seq='8']", timeout=WAIT_MS)
    assert pg.inner_text("#tile-g1 .info") == "playing 3"
    assert pg.locator("#tile-g1 .lvl").all_inner_texts() == ["level 2", "level 3"]


def test_a_san_da_yi_tile_names_its_dealer_once(page, table):
    """004: 叫分最高的选手成为庄家 -- the dealer is a side of its own (庄家 against 同盟), named in its row."""
    teams = [{"name": "dealer", "seats": ["E"], "level": None, "points": 0},
             {"name": "allies", "seats": ["S", "N", "W"], "level": None, "points": 0}]
    s1 = table("s1")
    s1.publish("state", state(seq=7, rulebook="usst-2016", dealer="E", trump=None, teams=teams))
    pg = page("/")
    pg.wait_for_selector("#tile-s1[data-seq='7']", timeout=WAIT_MS)
    assert pg.inner_text("#tile-s1 .team[data-team=dealer]").split()[:2] == ["庄家", "李强"]
    assert "庄家" not in pg.inner_text("#tile-s1 .info")


def test_no_hand_is_counted_before_it_is_dealt(page, table):
    """A Tractor table counts the hand it will deal (39 of three decks) from the round's start: not shown while the
    players arrive and draw."""
    a1 = table("a1")
    full = {s: 39 for s in "SENW"}
    a1.publish("state", state(seq=8, phase="arriving", hand=0, trick=0, current_trick=None, cards=full))
    pg = page("/")
    pg.wait_for_selector("#tile-a1[data-seq='8']", timeout=WAIT_MS)
    assert [pg.inner_text(f"#tile-a1 .seat.{s} .count") for s in "SENW"] == [""] * 4
    a1.publish("state", state(seq=9, phase="dealing", hand=1, trick=0, current_trick=None, cards=full))
    pg.wait_for_selector("#tile-a1[data-seq='9']", timeout=WAIT_MS)
    assert pg.inner_text("#tile-a1 .seat.S .count") == ""
    a1.publish("state", state(seq=10, phase="playing", cards=full))
    pg.wait_for_selector("#tile-a1[data-seq='10']", timeout=WAIT_MS)
    assert pg.inner_text("#tile-a1 .seat.S .count") == "39 张"


def test_a_card_picture_is_named_in_the_readers_words(page, table):
    trick = {"leader": "S", "plays": [{"seat": "S", "cards": ["DK", "HT"]}, {"seat": "E", "cards": ["BJ", "SA"]}]}
    c1 = table("c1")
    c1.publish("state", state(seq=11, current_trick=trick, at=time.time()))
    pg = page("/")
    pg.wait_for_selector("#tile-c1 .seat.S svg.card[data-card=DK]", timeout=WAIT_MS)
    names = lambda seat: [c.get_attribute("aria-label") for c in pg.locator(f"#tile-c1 .seat.{seat} svg.card").all()]  # noqa: E731
    assert names("S") == ["方块K", "红心10"] and names("E") == ["大王", "黑桃A"]
    pg.click("#lang")
    pg.wait_for_selector("#tile-c1 .seat.S svg.card[aria-label='K of diamonds']", timeout=WAIT_MS)
    assert names("S") == ["K of diamonds", "10 of hearts"] and names("E") == ["big joker", "A of spades"]


RED = """sel => [...document.querySelectorAll(sel)].map(el => [el.textContent, getComputedStyle(el).color,
  getComputedStyle(el.parentElement).color])"""


def test_the_red_suits_of_what_is_said_are_red(page, table):
    """♥ and ♦ in a play, a violation and a flag read red as on the cards and the trump (they were the text's white)."""
    r1 = table("r1")
    flag = {"flag": "f9", "seat": "N", "kind": "unsure", "at": time.time(), "cards": ["H3"]}
    r1.publish("state", state(seq=30, at=time.time(), flags=[flag]))
    r1.publish("events", {"v": 1, "seq": 29, "kind": "play_accepted", "at": time.time(),
                          "data": {"hand": 3, "trick": 1, "seat": "S", "cards": ["H5", "D6", "S5"]}})
    r1.publish("violations", {"v": 1, "seq": 28, "flag": "v1", "at": time.time(), "seat": "E", "kind": "revoke",
                              "rule": {"book": "classic-3deck", "article": "十九"}, "penalty": {"text": "E did not follow"},
                              "evidence": {"hand": 3, "trick": 1, "cards": ["D2"]}, "status": "confirmed"})
    pg = page("/tables/r1")
    pg.wait_for_selector("#timeline li[data-seq='29'] .said:has-text('出 ♥5 ♦6 ♠5')", timeout=WAIT_MS)
    pg.wait_for_selector("#allviolations li[data-flag=v1]:has-text('♦2')", timeout=WAIT_MS)
    console = page("/console", 1366, 768)
    login(console, REFEREE)
    console.wait_for_selector(".flag-card[data-flag=f9]:has-text('♥3')", timeout=WAIT_MS)
    for pg_, sel, suits in ((pg, "#timeline li[data-seq='29'] .said .suit.red", "♥♦"),
                            (pg, "#allviolations li[data-flag=v1] .suit.red", "♦"), (console, ".flag-card[data-flag=f9] .suit.red", "♥")):
        red = pg_.evaluate(RED, sel)
        assert "".join(x for x, _, _ in red) == suits and all(c == "rgb(255, 176, 176)" != p for _, c, p in red), (sel, red)
