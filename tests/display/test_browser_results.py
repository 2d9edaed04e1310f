"""A tile between hands and after a round, in the system Chromium against the app (uvicorn) and a real mosquitto: it
says the result as the table said it (who won the hand and by how many levels, a game's result and 小分, who won the
round), not only 本盘结束 / 本轮结束, from the hand's end to the next hand's first play."""

from __future__ import annotations

import time

import pytest
from kit import LiveTable, state, until

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
TABLES = ["p1", "p2", "s3"]  # the module broker's tables
SEED_000 = ("防家得分120分，则防家升一级；以后每多30分得分，则防家多升一级。",  # 第二十条
            "每局竞赛最先升级超过级牌A的一方为胜方，另一方为负方。")  # 第二条
SEED_002 = "如上游的对门为二游，则上游方升3级；如为三游，则升2级;如为四游(下游)，则升1级。"
SEED_004 = "每局比赛有1名选手作为“庄家”，独自对抗另3名选手组成的同盟，先出完牌的一方获胜。"


def event(t, seq: int, kind: str, **data) -> None:
    t.publish("events", {"v": 1, "seq": seq, "kind": kind, "at": time.time(), "data": data})


def test_a_tractor_tile_says_the_hands_result_until_the_next_play_and_who_won_the_round(page, table):
    """000 第二十条 (SEED_000[0]): the defenders' points decide who goes up and by how many levels; the tile between
    hands said 摸牌 and nothing of it, and says which side defended (防家（东西）: 防家 alone left it to be worked out). A round the announced last hand ends is won on the levels (the higher wins)."""
    t = table("p1")
    t.publish("state", state(seq=90, phase="playing"))
    pg, en = page("/"), page("/", lang="en")
    event(t, 91, "hand_scored", hand=2, defenders="EW", defender_points=125, settled_points=125, notes=[], side="defenders", levels=1)
    event(t, 91, "levels_changed", levels={"SN": "9", "EW": "8"}, dealer="E")
    event(t, 91, "hand_started", hand=3, level="8", dealer="E")
    t.publish("state", state(seq=91, phase="dealing", hand=3, trick=0, current_trick=None))
    for p, said in ((pg, "第 2 盘结算：防家（东西）得分 125，结算后 125 → 防家上台并升 1 级"),
                    (en, "hand 2 scored: defenders (E-W) 125, settled 125 → the defenders take over and go up 1")):
        p.wait_for_selector("#tile-p1[data-seq='91'] .result li", timeout=WAIT_MS)
        assert p.inner_text("#tile-p1 .result") == said
    assert page("/").inner_text("#tile-p1 .result") == "第 2 盘结算：防家（东西）得分 125，结算后 125 → 防家上台并升 1 级"  # opened after
    event(t, 92, "play_accepted", hand=3, trick=1, seat="E", cards=["S9"])
    t.publish("state", state(seq=92, hand=3))
    pg.wait_for_selector("#tile-p1[data-seq='92']", timeout=WAIT_MS)
    assert pg.locator("#tile-p1 .result li").count() == 0  # the next hand is in play
    # the announced last hand is over: the round is won on the levels, which its round_over does not name
    event(t, 120, "hand_scored", hand=3, defenders="SN", defender_points=40, settled_points=40, notes=[], side="dealer", levels=2)
    event(t, 120, "levels_changed", levels={"SN": "9", "EW": "T"}, dealer="W")
    event(t, 120, "round_over", hands=3)
    t.publish("state", state(seq=120, phase="round_over", current_trick=None))
    pg.wait_for_selector("#tile-p1[data-seq='120'] .result li[data-kind=round_over]", timeout=WAIT_MS)
    assert pg.locator("#tile-p1 .result li").all_inner_texts() == [
        "第 3 盘结算：防家（南北）得分 40，结算后 40 → 庄家方升 2 级", "本轮结束（共 3 盘），东西 级别高，本轮获胜"]
    assert pg.inner_text("#tile-p1 .phase") == "本轮结束"


def test_a_guandan_tile_says_the_finish_the_levels_and_the_match_won(page, table):
    """002 (SEED_002): the first out's side goes up by its partner's place; passing A wins (SEED_000[1] is Tractor's
    game, Guandan's match the same): the tile says the finishing order and the levels, then who won the match."""
    t = table("p2")
    rules = {"rulebook": "sanjiang-2012", "dealer": None, "trump": {"suit": None, "rank": "A"}}
    t.publish("state", state(seq=300, **rules))
    pg = page("/")
    event(t, 301, "hand_scored", hand=9, finish=["S", "E", "N", "W"], first="S", partner_place=3, team="SN", levels=2)
    event(t, 301, "levels_changed", levels={"SN": "A", "EW": "K"}, level="A", before={"SN": "Q", "EW": "K"})
    event(t, 301, "game_won", team="SN", by="levels", passed="A", games={"SN": 1, "EW": 0}, match="SN")
    t.publish("state", state(seq=301, phase="round_over", current_trick=None, **rules))
    pg.wait_for_selector("#tile-p2[data-seq='301'] .result li[data-kind=game_won]", timeout=WAIT_MS)
    assert pg.locator("#tile-p2 .result li").all_inner_texts() == [
        "第 9 盘结算：上游 南 王芳，名次 南 王芳、东 李强、北 张伟、西 刘洋，南北 升 2 级", "南北 过 A 胜出本局；局数 南北 1，东西 0"]


def test_a_san_da_yi_tile_says_the_games_result_and_its_small_points(page, broker, tmp_path):
    """004 (SEED_004): each game is the dealer against the three; the table's game_scored says who won and each seat's
    小分 (this game's and the round's). A real table service: the dealer's 报到 不打 (the referee's word) ends the game."""
    live = LiveTable(broker, "s3", tmp_path / "s3.db", rulebook="usst-2016")
    try:
        live.seated()
        pg = page("/")
        for seat, button in (("S", "bid1"), ("E", "bid2"), ("N", "pass"), ("W", "pass")):  # E deals, at 2
            live.send("board/in", seat=seat, button=button)
        until(pg, "document.querySelector('#tile-s3 .phase').textContent === '拿底牌'")  # 8张底牌发给庄家: none buried (扣底)
        live.send("board/in", seat="E", button="ready")  # E takes the kitty
        live.send("commands", command="report", seat="E", play=False)  # 不打: the dealer wins at once
        pg.wait_for_selector("#tile-s3 .result li[data-kind=game_scored]", timeout=WAIT_MS)
        said = pg.inner_text("#tile-s3 .result")
        assert said.startswith("第 1 局结算：庄家 东 李强（叫 2 分）庄家胜；本局 ") and "累计 " in said, said
        until(pg, "document.querySelector('#tile-s3 .phase').textContent === '叫牌'")  # game 2 is bid: the result stays
        assert pg.inner_text("#tile-s3 .result") == said
    finally:
        live.close()
