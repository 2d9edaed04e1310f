"""The scores a spectator reads on a tile (the hall's screen and the table page), from the table's state, in the system
Chromium against the app (uvicorn) and a real mosquitto, zh and en: a Guandan match's games won (局数 1:0) and each San
Da Yi player's running total of the round (累计), which the game's result line no longer says once the next game is
played."""

from __future__ import annotations

import pytest
from kit import LiveTable, state, until

from referee.guandan.levels import HandResult, Match
from referee.table.guandan import GuandanTable

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
TABLES = ["g2", "s4", "s5"]
SEED_002 = "第二阶段：采取三局两胜制，每局过“8”即胜"  # 规程 三 2
SEED_004 = "每轮比赛结束后，根据各选手的累计小分排名"  # 一 1


def stage_two_at_one_nil() -> dict:
    """A stage-two table's state (the referee's), SN having won the match's first game: 2 -> 5 -> 8 -> past 8."""
    t, seq = GuandanTable("g2", "sanjiang-2012-stage-two"), 0
    inputs = [("commands", {"command": "assign", "rulebook": t.rulebook, "players": LiveTable.PLAYERS}),
              ("commands", {"command": "start_round"})] + [("board/in", {"seat": s, "button": "ready", "at": 1.0}) for s in "SENW"]
    for seq, (name, payload) in enumerate(inputs, 1):
        t, _ = t.apply(name, {"v": 1, "id": f"i{seq}", **payload}, at=1.0, seq=seq)
    match = Match.start(t.rules, "two", 1.0)
    for _ in range(3):
        match = match.after(HandResult("S", 2))
    return t._with(match=match).state(2.0)


def test_a_guandan_tile_shows_the_matchs_games(page, table):
    """规程 三 2 (SEED_002): the match is best of three; the tile says the games each pair has won and how many games the
    match is played over, as the table's state says it (best_of): 局数 南北 1:0 东西（三局两胜）."""
    assert "三局两胜" in SEED_002
    s = stage_two_at_one_nil()
    assert [x["games"] for x in s["teams"]] == [1, 0] and s["best_of"] == 3
    table("g2").publish("state", s)
    for path, lang, said in (("/", None, "局数 南北 1:0 东西（三局两胜）"), ("/tables/g2", "en", "Games N-S 1:0 E-W (best of 3, first to 2)")):
        pg = page(path, lang=lang)
        pg.wait_for_selector(f"#tile-g2[data-seq='{s['seq']}']", timeout=WAIT_MS)
        assert pg.inner_text("#tile-g2 .info .games") == said


def test_the_match_length_is_the_tables_and_an_older_state_shows_the_games_alone(page, table):
    """The length comes from the state, never the page: best of five reads 五局三胜; a state from a table before
    best_of (games alone) shows the games as before, and a single game (stage one) shows no games at all."""
    s = stage_two_at_one_nil()
    pg = page("/")
    for seq, best_of, said in ((s["seq"] + 1, 5, "局数 南北 1:0 东西（五局三胜）"), (s["seq"] + 2, None, "局数 南北 1:0 东西")):
        table("g2").publish("state", {k: v for k, v in s.items() if k != "best_of"} | {"seq": seq} | ({"best_of": best_of} if best_of else {}))
        pg.wait_for_selector(f"#tile-g2[data-seq='{seq}']", timeout=WAIT_MS)
        assert pg.inner_text("#tile-g2 .info .games") == said
    one = {k: v for k, v in s.items() if k != "best_of"} | {"seq": s["seq"] + 3, "teams": [{k: v for k, v in t.items() if k != "games"} for t in s["teams"]]}
    table("g2").publish("state", one)
    pg.wait_for_selector(f"#tile-g2[data-seq='{one['seq']}']", timeout=WAIT_MS)
    assert pg.locator("#tile-g2 .info .games").count() == 0 and "局" not in pg.inner_text("#tile-g2 .info")


def test_a_san_da_yi_tile_keeps_each_players_running_total(page, broker, tmp_path):
    """一 1 (SEED_004): players are ranked by their 累计小分; each seat shows its 累计 from the table's state, still there
    while the next game is played (the result line that also said it is gone at the next game's first play)."""
    assert "累计小分" in SEED_004
    live = LiveTable(broker, "s4", tmp_path / "s4.db", rulebook="usst-2016")
    try:
        live.seated()
        zh, en = page("/"), page("/tables/s4", lang="en")
        for seat, button in (("S", "bid1"), ("E", "bid2"), ("N", "pass"), ("W", "pass")):  # E deals, at 2
            live.send("board/in", seat=seat, button=button)
        until(zh, "document.querySelector('#tile-s4 .seat.W .bid')?.textContent === '不叫'")
        assert zh.locator("#tile-s4 .total").count() == 0  # no game scored yet: no 累计 0 beside every seat
        live.send("board/in", seat="E", button="ready")  # E takes the kitty
        live.send("commands", command="report", seat="E", play=False)  # 不打: the dealer wins at once
        totals = live.service.table.totals()
        assert totals["E"] > 0
        for pg, word in ((zh, "累计"), (en, "total")):
            until(pg, f"document.querySelector('#tile-s4 .seat.E .total')?.textContent === '{word} {totals['E']}'")
            assert [pg.inner_text(f"#tile-s4 .seat.{x} .total") for x in "SENW"] == [f"{word} {totals[x]}" for x in "SENW"]
        dealer = live.service.table.game.turn  # game 2: its first bidder deals at 3 and leads
        live.send("board/in", seat=dealer, button="bid3")
        live.send("board/in", seat=dealer, button="ready")
        live.send("observed", seat=dealer, cards=["S3"], confidence=0.99)
        until(zh, "!document.querySelector('#tile-s4 .result li')")  # the result line is gone
        assert [zh.inner_text(f"#tile-s4 .seat.{x} .total") for x in "SENW"] == [f"累计 {totals[x]}" for x in "SENW"]
    finally:
        live.close()


def test_a_total_stays_whole_on_a_phone(page, table):
    """一 1 (SEED_004): on a 360 px phone a seat's 累计 wrapped inside its box, the number on a line under its word
    (西 刘洋 累计 / -3), read as a number of nothing; it keeps its word and its number on one line, zh and en."""
    teams = [{"name": "dealer", "seats": ["E"], "level": None, "points": 0}, {"name": "allies", "seats": ["S", "N", "W"], "level": None, "points": 0}]
    s = state(seq=41, rulebook="usst-2016", phase="bidding", dealer="E", trump=None, hand=2, trick=0, turn="N", current_trick=None,
              players={"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"}, teams=teams, totals={"S": -3, "E": 9, "N": -3, "W": -12.5})
    table("s5").publish("state", s)
    for lang in (None, "en"):
        pg = page("/", 360, 780, lang=lang)
        pg.wait_for_selector("#tile-s5[data-seq='41'] .seat.W .total", timeout=WAIT_MS)
        lines = pg.evaluate("[...document.querySelectorAll('#tile-s5 .total')].map(e => e.getClientRects().length)")
        assert lines == [1, 1, 1, 1], lines
