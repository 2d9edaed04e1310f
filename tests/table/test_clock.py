"""The table's clocks (referee/table/clock.py): each rule with its seed article quoted. Time is
given as numbers of seconds; nothing sleeps.

Seeds: 000 (zhongkai-2010: 通知 四 3, 第十三条), 001 (classic-3deck: 二, 三, 二十三), 002
(sanjiang-2012: 规程 三 2, 规则 十 第3条, 十二), 003 and 004 (no clock).
"""

from __future__ import annotations

import math
import tomllib

import pytest

from referee.rulebooks import HERE, RulebookError, build, load, names
from referee.table.clock import (
    ClockRecord,
    Foul,
    FoulCount,
    RoundClock,
    ShotClock,
    late_penalty,
    limits,
    minutes_late,
)
from referee.tractor.game import Penalty, settle

CLASSIC = load("classic-3deck")
ZHONGKAI = load("zhongkai-2010")
GD = load("sanjiang-2012")


def with_clock(book, **values):
    """The rulebook with its [clock] section changed, loaded (and checked) as its file would be."""
    raw = tomllib.loads((HERE / f"{book.id}.toml").read_text(encoding="utf-8"))
    raw["clock"] = raw.get("clock", {}) | values
    return build(raw, f"{book.id}.toml")


# ---- classic-3deck: seed 001 二十三 ----

ART_23 = "庄家留底牌和首引不得超过60秒钟，领出不得超过15秒钟，按规定顺序跟牌、垫牌、将吃不超过10秒钟"


def test_classic_limits_60_15_10():
    """001 二十三: 庄家留底牌和首引不得超过60秒钟，领出不得超过15秒钟，按规定顺序跟牌、垫牌、将吃不超过10秒钟。"""
    L = limits(CLASSIC)
    assert (L.limit("kitty_and_first_lead"), L.limit("lead"), L.limit("follow")) == (60, 15, 10)
    assert L.limit("return") is None and L.limit("play") is None  # not timed by this book
    with pytest.raises(ValueError, match="unknown action"):
        L.limit("bid")
    assert ART_23 in L.rule("play").article and L.rule("play").book == "classic-3deck"


@pytest.mark.parametrize("action, limit", [("kitty_and_first_lead", 60), ("lead", 15), ("follow", 10)])
def test_classic_a_play_at_the_limit_is_in_time_and_past_it_overruns(action, limit):
    """001 二十三: 不得超过60秒钟 / 15秒钟 / 不超过10秒钟 -- exactly the limit is in time."""
    c = ShotClock.start("S", action, 1000.0, limits(CLASSIC))
    assert c.left(1000.0) == limit and c.deadline() == 1000.0 + limit
    assert c.stop(1000.0 + limit) is None and c.overrun(1000.0 + limit) == 0
    o = c.stop(1000.0 + limit + 0.5)
    assert (o.seat, o.action, o.limit, o.used, o.over) == ("S", action, limit, limit + 0.5, 0.5)
    assert o.rule.seed == "001_914f2302ca4ec1b5.txt" and ART_23 in o.rule.article
    assert c.left(1000.0 + limit + 3) == 0 and c.overrun(1000.0 + limit + 3) == 3


@pytest.mark.parametrize("start, at, action", [(22.2, 32.2, "follow"), (22.2, 37.2, "lead"), (4.4, 64.4, "kitty_and_first_lead")])
def test_a_play_at_the_limit_in_tenths_of_a_second_is_in_time(start, at, action):
    """001 二十三: 不超过10秒钟 / 领出不得超过15秒钟 / 首引不得超过60秒钟 -- a play exactly at the limit, at times
    written in tenths (as a case or a log has them), is in time: 32.2 - 22.2 is 10.000000000000004 in floats."""
    c = ShotClock.start("E", action, start, limits(CLASSIC))
    assert c.stop(at) is None and c.overrun(at) == 0 and c.deadline() == at
    assert c.stop(at + 0.01) is not None


def test_a_paused_clock_runs_out_exactly_at_its_limit():
    """002 十二 第3条: 30秒的长考时间 -- 4.1 s, a pause for a flag, then 25.9 s more: 30 s in all, in time (the
    deadline was a hair early, 34.099999999999994, and a table ruled the turn given up at 34.1)."""
    c = ClockRecord().start(limits(GD), "S", "lead", 2.1).paused(6.2).resumed(8.2)
    assert c.deadline() == 34.1 and c.stop(34.1) is None and c.stop(34.2) is not None
    assert c.stop(34.1000003) is not None  # past the deadline is an overrun, though its seconds round to the limit


def test_classic_first_overrun_a_warning_then_20_points_each():
    """001 二十三: 如超过，召裁判，第一次警告，以后每次扣20分 -- warnings counted per player per round."""
    L, record = limits(CLASSIC), ClockRecord()
    outcomes = []
    for seat, at_stop in [("E", 12.0), ("E", 11.0), ("W", 10.5), ("E", 30.0)]:
        clock = record.start(L, seat, "follow", 0.0)
        record, verdict = record.stop(L, clock, at_stop)
        outcomes.append((seat, verdict.outcome, verdict.points, verdict.penalty))
    assert outcomes == [
        ("E", "warning", 0, None),
        ("E", "points", 20, Penalty("clock", "E")),
        ("W", "warning", 0, None),  # W's first: its own warning
        ("E", "points", 20, Penalty("clock", "E")),
    ]
    # a play in time changes nothing
    assert record.stop(L, record.start(L, "S", "follow", 0.0), 10.0) == (record, None)
    # the warning is per round: the next hand keeps it
    record = record.next_hand(L)
    assert record.warnings_of("E") == 1 and record.stop(L, record.start(L, "E", "lead", 0.0), 16.0)[1].outcome == "points"
    # and a fresh round starts a fresh record
    assert ClockRecord().stop(L, ClockRecord().start(L, "E", "lead", 0.0), 16.0)[1].outcome == "warning"


def test_classic_clock_points_go_to_the_non_offending_side():
    """001 二十三: 以后每次扣20分 -- added to the defenders when the dealer side overruns, taken
    from them when a defender does ([penalties] clock through settle)."""
    L = limits(CLASSIC)
    record, _ = ClockRecord().judge(L, ShotClock.start("S", "lead", 0.0, L).stop(20.0))
    _, verdict = record.judge(L, ShotClock.start("S", "lead", 0.0, L).stop(20.0))
    assert verdict.outcome == "points" and "20 points" in str(verdict) and "5.0 s over" in str(verdict)
    assert settle(CLASSIC, "S", 80, [verdict.penalty]).defender_points == 100  # S deals: dealer side
    assert settle(CLASSIC, "E", 80, [verdict.penalty]).defender_points == 60  # S defends


def test_a_hand_waiting_for_a_person_pauses_the_clock():
    """Hands that need a person (a flagged recognition, a disputed play) pause the clock."""
    L = limits(CLASSIC)
    c = ShotClock.start("N", "follow", 50.0, L)
    c = c.paused(56.0)  # 6 s used; the referee is called
    assert not c.running and c.left(90.0) == 4.0 and c.deadline() is None
    assert c.paused(91.0) is c  # pausing twice changes nothing
    c = c.resumed(120.0)
    assert c.deadline() == 124.0 and c.resumed(121.0) is c
    assert c.stop(124.0) is None  # 10 s in all: in time
    o = c.stop(125.0)
    assert (o.used, o.over) == (11.0, 1.0)  # the 64 paused seconds never count
    with pytest.raises(ValueError, match="time runs forward"):
        c.left(100.0)


# ---- sanjiang-2012: seed 002 十二 第3条, 十 第3条 ----

ART_12_3 = "一副牌只允许有一次30秒的长考时间，其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次出牌权"


def test_guandan_limits():
    """002 十二 第3条: 每次出牌时间一般不得超过10秒（含10秒）; 贡牌后，还牌人必须在20秒内还牌。"""
    L = limits(GD)
    assert (L.limit("play"), L.limit("lead"), L.limit("follow"), L.limit("return")) == (10, 10, 10, 20)
    assert L.limit("kitty_and_first_lead") is None and L.long_think_s == 30
    assert ART_12_3 in L.rule("play").article and L.rule("play").seed == "002_69efca09199bf5b0.txt"


def test_guandan_long_think_once_per_player_per_hand():
    """002 十二 第3条: 一副牌只允许有一次30秒的长考时间 -- the first play past 10 s takes it: that play
    may last 30 s in all; the player's later plays in the hand have 10 s; the next hand gives it back."""
    L, record = limits(GD), ClockRecord()
    c = record.start(L, "S", "play", 0.0)
    assert c.allowed == 30 and c.left(0.0) == 30 and c.deadline() == 30.0
    record, verdict = record.stop(L, c, 25.0)  # a long think of 25 s: in time
    assert verdict is None and "S" in record.long_thinks
    # S's next play: 10 s only (含10秒)
    c = record.start(L, "S", "play", 100.0)
    assert c.allowed == 10 and record.stop(L, c, 110.0) == (record, None)
    record, verdict = record.stop(L, c, 110.5)
    assert (verdict.outcome, verdict.overrun.limit, verdict.overrun.used) == ("pass", 10, 10.5)
    # E still has its own
    assert record.start(L, "E", "play", 0.0).allowed == 30
    # a play within 10 s does not spend the long think
    r2, _ = ClockRecord().stop(L, ClockRecord().start(L, "E", "play", 0.0), 10.0)
    assert "E" not in r2.long_thinks
    # the next hand: S has it again
    assert record.next_hand(L).start(L, "S", "play", 0.0).allowed == 30


def test_guandan_overrun_forfeits_the_turn_as_a_pass():
    """002 十二 第3条: 否则，视作放弃本次出牌权 -- past the long think too, the turn passes."""
    L, record = limits(GD), ClockRecord()
    c = record.start(L, "W", "play", 0.0)
    record, verdict = record.stop(L, c, 31.0)
    o = verdict.overrun
    assert (verdict.outcome, o.limit, o.used, o.long_think) == ("pass", 30, 31.0, True)
    assert verdict.foul is None and verdict.penalty is None and "W" in record.long_thinks
    assert ART_12_3 in str(verdict)


def test_guandan_overrun_when_leading_gives_up_the_lead():
    """002 十二 第3条: 否则，视作放弃本次出牌权 -- a leader's overrun too gives up its turn (the table passes
    the lead to the next seat); never a foul."""
    L, record = limits(GD), ClockRecord()
    record, _ = record.stop(L, record.start(L, "N", "play", 0.0), 20.0)  # long think spent
    record, verdict = record.stop(L, record.start(L, "N", "lead", 50.0), 61.0)
    assert verdict.outcome == "pass" and verdict.overrun.limit == 10 and verdict.overrun.over == 1.0
    assert verdict.foul is None and L.outcome("lead") == L.outcome("follow") == "pass"


def test_a_spent_clock_rules_once():
    """A clock whose overrun was ruled has no deadline left: 002 十二 第3条 否则记犯规1次 is one foul."""
    L = limits(GD)
    c = ShotClock.start("E", "return", 0.0, L)
    assert c.deadline() == 20.0
    spent = c.spent()
    assert spent.deadline() is None and spent.left(25.0) == 0.0 and spent.paused(26.0).resumed(27.0).deadline() is None


def test_guandan_return_card_within_20_s():
    """002 十二 第3条: 贡牌后，还牌人必须在20秒内还牌，否则记犯规1次 -- no long think for it."""
    L, record = limits(GD), ClockRecord()
    c = record.start(L, "E", "return", 0.0)
    assert c.allowed == 20 and record.stop(L, c, 20.0) == (record, None)
    record2, verdict = record.stop(L, c, 20.5)
    assert (verdict.outcome, verdict.overrun.limit, verdict.overrun.used) == ("foul", 20, 20.5)
    assert "还牌人必须在20秒内还牌" in verdict.rule.article and record2.long_thinks == frozenset()


def test_three_fouls_by_one_side_lose_the_round():
    """002 十 第3条: 在一轮比赛中如某一方运动员出现累计三次犯规，则本轮判负。"""
    L = limits(GD)
    fouls = FoulCount.of(L)
    assert fouls.limit == 3 and "累计三次犯规" in fouls.rule.article
    ruled = ClockRecord().judge(L, ShotClock.start("S", "return", 0.0, L).stop(25.0))[1]
    fouls = fouls.add(ruled.foul).add(Foul("E", "signalling")).add(Foul("N", "exposed_card"))
    fouls = fouls.add(None)  # a verdict that is no foul adds nothing
    assert (fouls.count("SN"), fouls.count("EW"), fouls.loser) == (2, 1, None)
    fouls = fouls.add(Foul("W", "out_of_turn"))
    assert fouls.loser is None
    fouls = fouls.add(Foul("N", "peeking"))  # SN's third: the clock foul counts with the others
    assert fouls.count("SN") == 3 and fouls.loser == "SN"


def test_the_first_side_to_three_fouls_loses():
    """002 十 第3条: 某一方运动员出现累计三次犯规 -- the two players of a side count together."""
    fouls = FoulCount(3)
    for seat in ("E", "S", "W", "N"):
        fouls = fouls.add(Foul(seat, "talking"))
    assert fouls.loser is None
    fouls = fouls.add(Foul("W", "talking"))
    assert fouls.loser == "EW"
    assert fouls.add(Foul("S", "talking")).loser == "EW"  # SN's third comes after
    assert FoulCount().add(Foul("S", "x")).add(Foul("S", "x")).add(Foul("S", "x")).loser is None  # no limit


# ---- late arrival: seed 001 二, seed 000 第十三条, seed 002 十二 第2条 ----


@pytest.mark.parametrize("book", ["classic-3deck", "zhongkai-2010"])
@pytest.mark.parametrize(
    "minutes, kind, key, points",
    [
        (-3.0, "none", None, 0),
        (0.0, "none", None, 0),
        (0.1, "warning", "late_5_min", 0),  # 5分钟之内警告
        (5.0, "warning", "late_5_min", 0),  # 5:00 is still within 5 minutes
        (5.01, "points", "late_10_min", 20),  # 6－10分钟: the sixth minute has started
        (10.0, "points", "late_10_min", 20),
        (10.5, "points", "late_15_min", 30),  # 11－15分钟，首盘扣30分
        (15.0, "points", "late_15_min", 30),
        (15.2, "forfeit_hand", "late_20_min", 0),  # 16－20分钟，首盘自动放弃，对手自动升级
        (20.0, "forfeit_hand", "late_20_min", 0),
        (20.001, "forfeit_round", "late_21_min", 0),  # 21分钟以上判该轮弃权
        (95.0, "forfeit_round", "late_21_min", 0),
    ],
)
def test_late_bands_at_their_boundaries(book, minutes, kind, key, points):
    """001 二 / 000 第十三条: 5分钟之内警告；6－10分钟，首盘扣20分；11－15分钟，首盘扣30分；
    16－20分钟，首盘自动放弃，对手自动升级；21分钟以上判该轮弃权 -- a started minute counts."""
    late = late_penalty(load(book), minutes)
    assert (late.kind, late.key, late.points, late.minutes) == (kind, key, points, minutes)
    if kind != "none":
        assert "迟到" in late.rule.article and late.rule.book == book


def test_late_penalties_settle_the_first_hand():
    """001 二: 首盘扣20分 / 首盘自动放弃，对手自动升级 -- through settle, against the late seat's side."""
    assert late_penalty(CLASSIC, 4.0).penalty("S") is None  # a warning settles nothing
    p20 = late_penalty(CLASSIC, 7.0).penalty("S")
    assert p20 == Penalty("late_10_min", "S")
    assert settle(CLASSIC, "S", 100, [p20]).defender_points == 120  # the dealer side was late
    assert settle(CLASSIC, "E", 100, [late_penalty(CLASSIC, 12.0).penalty("S")]).defender_points == 70
    forfeit = settle(CLASSIC, "S", 0, [late_penalty(CLASSIC, 18.0).penalty("S")])
    assert forfeit.outcome.side == "defenders" and forfeit.outcome.levels >= 1
    assert late_penalty(CLASSIC, 25.0).penalty("S") is None  # the round, not a hand: the service's ruling


def test_minutes_late_from_the_round_start_to_ready():
    assert minutes_late(1000.0, 1300.0) == 5.0 and late_penalty(CLASSIC, minutes_late(1000.0, 1300.0)).kind == "warning"
    assert late_penalty(CLASSIC, minutes_late(1000.0, 1300.6)).kind == "points"
    assert late_penalty(CLASSIC, minutes_late(212.2, 512.2)).kind == "warning"  # 5分钟之内 (512.2 - 212.2 > 300 in floats)
    with pytest.raises(ValueError):
        late_penalty(CLASSIC, math.nan)


def test_guandan_late_more_than_5_minutes_forfeits_the_round():
    """002 十二 第2条: 比赛宣布开始5分钟后，一方两位选手仍未同时到赛场就位，则本轮比赛作弃权论处。"""
    assert late_penalty(GD, 5.0).kind == "none" and late_penalty(GD, 5.0).key == "late_5_min"
    late = late_penalty(GD, 5.01)
    assert late.kind == "forfeit_round" and "本轮比赛作弃权论处" in late.rule.article


# ---- the round clock: seed 000 通知 四 3, seed 001 三, seed 002 规程 三 2 ----


def test_round_clock_zhongkai_90_minutes_notice_15_before():
    """000 通知 四 3: 每轮竞赛时间为1小时30分钟，每轮竞赛最后15分钟由大会统一提醒，正在竞赛的当盘牌为
    最后一盘牌，赛完该盘牌结束当轮竞赛。"""
    r = RoundClock.of(ZHONGKAI, 1000.0)
    assert (r.length_s, r.notice_s, r.notice_at, r.ends_at) == (5400, 900, 1000 + 4500, 1000 + 5400)
    assert not r.notice_due(5499.9) and not r.last_hand(5499.9)
    assert r.notice_due(5500.0) and r.last_hand(5500.0)
    assert r.left(5500.0) == 900
    # the last hand is finished even past the end
    assert r.over(6400.0) and not r.stops(7000.0, drawn=False) and not r.stops(7000.0, drawn=True)
    assert "最后15分钟" in r.rule.article


def test_round_clock_classic_notice_10_before():
    """001 三: 每轮比赛1小时30分，最后10分钟大会统一提醒，打完结束比赛（自宣布之时起手中正在打的这副牌打完结束比赛）。"""
    r = RoundClock.of(CLASSIC, 0.0)
    assert (r.notice_at, r.ends_at) == (4800.0, 5400.0)
    assert not r.last_hand(4799.0) and r.last_hand(4800.0)
    # the brief's constructor: RoundClock(start, length_s, notice_s)
    assert RoundClock(0.0, 5400, 600).notice_at == 4800.0
    late_start = RoundClock.of(CLASSIC, 2792.2)  # 2792.2 + 5400 - 600 is 7592.200000000001 in floats
    assert late_start.notice_due(7592.2) and late_start.over(8192.2)


def test_round_clock_guandan_one_hour_undrawn_tables_stop():
    """002 规程 三 2: 每场比赛时间定为1小时，裁判宣布比赛结束（时间到1小时），未抓完牌牌桌停止打牌（抓完牌打完本副）。"""
    r = RoundClock.of(GD, 0.0)
    assert r.length_s == GD.match.minutes * 60 == 3600 and r.notice_s == 0
    assert not r.last_hand(3599.0)
    assert r.last_hand(3600.0)
    assert r.stops(3600.0, drawn=False)  # still drawing: the table stops
    assert not r.stops(3600.0, drawn=True)  # drawn: the hand is played out
    assert not r.stops(3599.0, drawn=False)


# ---- books without a clock ----


@pytest.mark.parametrize("book", ["zhongkai-2010", "shaoguan-2023", "shaoguan-2023-nokitty", "usst-2016"])
def test_a_book_without_a_per_play_clock_gives_no_overruns(book):
    """003 and 004 set no time per play (nor 000): none unless the venue configures one."""
    rules = load(book)
    L = limits(rules)
    assert not L.timed
    record = ClockRecord()
    for action in ("kitty_and_first_lead", "lead", "follow", "play", "return"):
        c = record.start(L, "S", action, 0.0)
        assert c.left(1e6) == math.inf and c.overrun(1e6) == 0 and c.deadline() is None
        assert c.stop(1e6) is None and record.stop(L, c, 1e6) == (record, None)


@pytest.mark.parametrize("book", ["shaoguan-2023", "shaoguan-2023-nokitty", "usst-2016"])
def test_books_without_late_or_round_rules(book):
    """003 and 004: no late arrival rule and no round time."""
    rules = load(book)
    assert late_penalty(rules, 30.0).kind == "none"
    r = RoundClock.of(rules, 0.0)
    assert not r.timed and not r.last_hand(1e9) and not r.notice_due(1e9) and r.left(0.0) == math.inf


def test_a_venue_may_configure_a_clock():
    """Other books: no per-play clock unless the venue configures one -- a copy of usst-2016
    with 15 s per play and overruns logged only."""
    venue = with_clock(load("usst-2016"), play_s=15, overrun="foul", overrun_lead="foul")
    L = limits(venue)
    assert L.limit("play") == 15 and L.outcome("lead") == "foul"
    assert ClockRecord().stop(L, ShotClock.start("S", "play", 0.0, L), 16.0)[1].outcome == "foul"
    logged = limits(with_clock(load("usst-2016"), play_s=15))
    assert ClockRecord().stop(logged, ShotClock.start("S", "play", 0.0, logged), 16.0)[1].outcome == "none"


def test_bad_clock_settings_are_rulebook_errors():
    """The loader's discipline: a wrong setting names itself."""
    for values, match in [
        ({"play_s": 10, "return_s": 20, "overrun": "pass"}, "a return cannot be passed"),
        ({"play_s": 10, "overrun": "shout"}, "overrun"),
        ({"play_s": 10, "overrun": "penalty"}, "clock"),
        ({"late_bands": [[5, "nope"]]}, "nope"),
        ({"late_bands": [[5, "a"], [5, "a"]], "penalties": {"a": {}}}, "rise"),
        ({"round_cut": "never"}, "round_cut"),
        ({"round_s": 60, "round_notice_s": 120}, "round_notice_s"),
        ({"warnings_per": "game"}, "warnings_per"),
    ]:
        with pytest.raises(RulebookError, match=match):
            limits(with_clock(load("usst-2016"), **values))


def test_a_tractor_play_cannot_be_passed():
    """Tractor has no pass: every follower plays (001 十一..十六), so ``pass`` is no outcome there."""
    for action in ("overrun", "overrun_lead"):
        with pytest.raises(RulebookError, match="cannot be passed in tractor"):
            limits(with_clock(CLASSIC, **{action: "pass"}))


def test_every_rulebook_still_loads_and_reads_its_clocks():
    for book in names():
        rules = load(book)
        L = limits(rules)
        assert L.book == book
        RoundClock.of(rules, 0.0)
        late_penalty(rules, 7.0)
