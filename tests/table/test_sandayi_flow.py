"""A San Da Yi table (``usst-2016``, seed 004) through the awkward events of a real evening: what the flows of the
live table found wrong (the audit: /work/notes/s40/audit-sdy.md), each in its smallest form."""

from dataclasses import replace

import pytest
from climbing_kit import SDY, Table_

from referee.rulebooks import load
from referee.table import reducer


def table():
    d = Table_(SDY)
    d.start()
    return d


def bids(d, *buttons):
    for button in buttons:
        d.press(d.state()["turn"], button)


@pytest.mark.parametrize("ruling", [{"command": "foul", "seat": "E", "kind": "peeking"}, {"command": "report", "seat": "S", "play": False}])
def test_a_game_a_ruling_ends_takes_its_open_flags_and_waiting_reads_with_it(ruling):
    """三: 同一副牌内，任何一名选手被记过2次及以上犯规，作输者处理; 二 报到: 如果选择“不打”，本局地主直接获胜. The game ends on the
    referee's word while a read waits for a person; the next game is a new deal (二 发牌: 每人发25张牌，留8张底牌), so the
    old game's reads are no plays of it. They were: the unsure read, confirmed later, became the new dealer's first lead
    and the read waiting behind it the next seat's play."""
    d = table()
    bids(d, "bid1", "pass", "pass", "pass")  # S deals
    d.press("S", "ready")
    d.send("commands", {"command": "foul", "seat": "E", "kind": "talking"})
    d.show("S", ["S3"], confidence=0.5)  # the dealer's first lead, unsure: flagged
    (flag,) = d.state()["flags"]
    d.show("E", ["S5"])  # waits behind the flag
    d.send("commands", ruling)
    assert d.events("game_scored")[-1]["data"]["hand"] == 1 and d.table.hand_no == 2
    assert d.events("flag_resolved")[-1]["data"] == {"flag": flag["flag"], "how": "dismiss", "game_ended": True}
    assert d.events("rejected")[-1]["data"]["why"]["key"] == "table.game_ended_unjudged"
    assert not d.state()["flags"] and not d.table.waiting and not d.state()["paused"]
    bids(d, "bid3")  # game 2: E bids first (一 5) and deals
    d.press("E", "ready")
    assert d.state()["cards"] == {"S": 25, "E": 33, "N": 25, "W": 25} and d.state()["current_trick"] is None


def test_a_venue_round_time_ends_the_round_after_the_game_in_play(monkeypatch):
    """Seed 004 sets no round time (一 3: 每轮进行8局比赛); a venue may (referee/rulebooks/README.md "Round clock": from
    the notice on the hand in play is the last, no hand starts after it). The table said so (state ``last_hand``) and
    dealt the next game all the same."""
    book = load(SDY)
    venue = replace(book, clock=replace(book.clock, round_s=3600, round_notice_s=600))
    monkeypatch.setattr(reducer, "load", lambda name: venue if name == SDY else load(name))
    reducer._limits.cache_clear()
    reducer._round_clock.cache_clear()
    try:
        d = table()
        bids(d, "bid1", "pass", "pass", "pass")
        d.press("S", "ready")
        d.show("S", ["S3"], dt=3000.0)  # past the notice: this game is the round's last
        assert d.state()["round"]["last_hand"]
        d.send("commands", {"command": "foul", "seat": "N", "kind": "talking"})
        d.send("commands", {"command": "foul", "seat": "N", "kind": "hurrying"})  # N is ruled the loser: the game ends
        over = d.events("round_over")[-1]["data"]
        assert (over["hands"], d.table.phase, len(d.events("hand_started"))) == (1, "round_over", 1)
        assert over["totals"] == {"S": 3, "E": 0, "N": -3, "W": 0} and over["points"] == {"S": 5, "E": 2.5, "N": 1, "W": 2.5}
    finally:
        reducer._limits.cache_clear()
        reducer._round_clock.cache_clear()


def test_a_pass_knocked_while_the_referee_walks_over_waits_with_the_plays_after_it():
    """二 出牌规则: 轮到某个玩家时，其可以选择“不出”或出比上一个玩家大的牌; 三（二）2: 轮到自己出牌时不要时，只能敲一下台子，
    表示不要. The dealer's lead is read unsure; the players play on while the referee walks over: E knocks (its pass
    button), N beats the lead, W knocks. The pass was refused (S was still on turn at the table), so once the lead was
    confirmed N's play was flagged out of turn (越序) against a player who played in turn, and E's pass was lost."""
    d = table()
    bids(d, "bid1", "pass", "pass", "pass")  # S deals
    d.press("S", "ready")
    d.show("S", ["S3"], confidence=0.5)
    (flag,) = d.state()["flags"]
    d.press("E", "pass")
    d.show("N", ["S5"])
    d.press("W", "pass")
    assert [e["data"]["seat"] for e in d.events("pass_waits")] == ["E", "W"] and not d.events("rejected")
    d.send("commands", {"command": "confirm", "flag": flag["flag"]})
    assert [(e["kind"], e["data"]["seat"]) for e in d.events() if e["kind"] in ("play_accepted", "passed")] == \
        [("play_accepted", "S"), ("passed", "E"), ("play_accepted", "N"), ("passed", "W")]
    assert not d.state()["flags"] and not d.violations() and d.state()["turn"] == "S"
    d.press("S", "pass")
    d.press("E", "pass")
    assert d.state()["turn"] == "N" and d.table.game.leading  # the three others passed: N leads again
