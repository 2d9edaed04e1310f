"""What a table's timeline says (``referee.catalogue.sentences``), where one thing was said two ways: a trick is a
圈 / trick whether a seat plays or passes in it (轮 is the tournament's round), a bid reads the same in the bid and in
the dealer it makes, and lateness is said in minutes and seconds."""

from __future__ import annotations

import pytest

from referee.catalogue.sentences import Sentences

PLAYERS = {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘丹"}


@pytest.mark.parametrize(("game", "hand", "en_hand"), [("guandan", "盘", "hand"), ("sandayi", "局", "game")])
def test_a_pass_is_said_in_the_trick_its_plays_are_said_in(game, hand, en_hand):
    """第1盘第2轮：西 刘丹 不出 stood between the 第2圈 plays of the same trick. San Da Yi plays games, as its own
    sentences and the scoreboard's tile say (004 一 3: 每轮进行8局比赛), not hands (盘)."""
    zh, en = Sentences("zh", game, PLAYERS), Sentences("en", game, PLAYERS)
    play = {"kind": "play_accepted", "data": {"hand": 1, "trick": 2, "seat": "N", "cards": ["S5"]}}
    passed = {"kind": "passed", "data": {"hand": 1, "trick": 2, "seat": "W"}}
    assert zh.event(play).startswith(f"第 1 {hand}第 2 圈：") and zh.event(passed) == f"第 1 {hand}第 2 圈：西 刘丹 不出"
    assert en.event(play).startswith(f"{en_hand} 1 trick 2: ") and en.event(passed) == f"{en_hand} 1 trick 2: W (刘丹) passes"
    for variant in ("forfeit", "sat_out") if game == "guandan" else ("forfeit",):  # a seat sits out in Guandan alone
        said = zh.event({"kind": "passed", "data": passed["data"] | {variant: True}})
        assert said.startswith(f"第 1 {hand}第 2 圈：西 刘丹 ") and "第 2 轮" not in said
        assert en.event({"kind": "passed", "data": passed["data"] | {variant: True}}).startswith(f"{en_hand} 1 trick 2: ")


def test_a_san_da_yi_bid_reads_the_same_in_the_bid_and_in_the_dealer_it_makes():
    """004 叫分: 首先叫牌者开始叫分，且最少叫1分，其他选手可选择叫“2分”、 “3分”或者“不叫” -- 叫 2 分, one form."""
    zh = Sentences("zh", "sandayi", PLAYERS)
    assert zh.event({"kind": "bid", "data": {"seat": "E", "bid": 2}}) == "东 李强 叫 2 分"
    assert zh.event({"kind": "dealer_chosen", "data": {"dealer": "E", "bid": 2}}) == "东 李强 叫 2 分成为庄家"
    assert zh.event({"kind": "bid", "data": {"seat": "S", "bid": "pass"}}) == "南 王芳 不叫"


@pytest.mark.parametrize(("minutes", "zh", "en"), [
    (1.13, "1 分 8 秒", "1 min 8 s"),  # 67.8 s: a second begun counts, as the table's minute does
    (6.0, "6 分钟", "6 min"),
    (0.5, "30 秒", "30 s"),
    (20.01, "20 分 1 秒", "20 min 1 s"),  # past the 20th minute: never said as 20 分钟
])
def test_lateness_is_said_in_minutes_and_seconds(minutes, zh, en):
    ready = {"kind": "ready", "data": {"seat": "S", "minutes_late": minutes}}
    assert Sentences("zh", "tractor", PLAYERS).event(ready) == f"南 王芳 到场（迟到 {zh}）"
    assert Sentences("en", "tractor", PLAYERS).event(ready) == f"S (王芳) arrived ({en} late)"
    both = {"kind": "round_forfeited", "data": {"teams": ["SN", "EW"], "minutes": minutes}}
    assert Sentences("zh", "guandan").event(both).endswith(f"双方本轮弃权（迟到 {zh}）")


def test_the_cards_shown_to_refuse_a_tribute_are_listed_apart():
    """抗贡 (Guandan: a seat that holds both big jokers refuses the tribute by showing them): the English read "shows
    big joker big joker", the cards run together; they are a list, joined as the other sentences join theirs (、 / ,)."""
    shown = {"kind": "tribute_shown", "data": {"seat": "W", "cards": ["BJ", "BJ"]}}
    assert Sentences("en", "guandan", PLAYERS).event(shown) == "W (刘丹) shows big joker, big joker (refusing the tribute)"
    assert Sentences("zh", "guandan", PLAYERS).event(shown) == "西 刘丹 亮出 大王、大王（抗贡）"
