"""The flow of a Guandan hand and game beyond single plays, driven through the real engines (seed 002).

Each scenario's answer was written from the article quoted in its docstring
before the engine ran. Hands are scripted from a count each seat holds (``replace(..., counts=...)``)
so a seat plays out in one or two plays.
"""

from dataclasses import replace

import said

from referee.cards import Card, Cards
from referee.guandan.hand import Hand, HandError
from referee.guandan.levels import Game, GameError, HandResult
from referee.guandan.tribute import TributePhase, payers
from referee.rulebooks import load

GD = load("sanjiang-2012")


def C(s):
    return Cards.parse(s)


def dealt(leader="S", level="2", counts=(27, 27, 27, 27), exchanges=()):
    return replace(Hand.start(GD, level, leader, exchanges), counts=counts)


def test_after_the_first_is_out_two_passes_end_a_trick():
    """七②: 如果其他选手都弃权，则最后出牌的一方可以出新的牌型 -- with S out, only N and W are left to pass E's play."""
    h = dealt(counts=(1, 27, 27, 27)).play("S", C("S3")).pass_("E").pass_("N").pass_("W")
    assert h.turn == "N" and h.table is None  # 接风
    h = h.play("N", C("S5")).play("W", C("S9")).play("E", C("ST")).pass_("N").pass_("W")
    assert h.turn == "E" and h.table is None


def test_a_played_out_seat_is_skipped_in_turn():
    """七①: 选手依次轮流压牌 -- the seat that played out has no turn: W is followed by E."""
    h = dealt(counts=(1, 27, 27, 27)).play("S", C("S3")).pass_("E").pass_("N").pass_("W")
    h = h.play("N", C("S4")).play("W", C("S6"))
    assert h.turn == "E"
    with said.raises(HandError, "S has played out"):
        h.pass_("S")


def test_the_second_out_hands_the_lead_to_its_own_partner():
    """三: 如上游出完最后一手牌后，无人压牌，则由对门借风出牌 -- so too for the second out: E's partner W leads."""
    h = dealt(counts=(1, 1, 27, 27)).play("S", C("S3")).play("E", C("S5")).pass_("N").pass_("W")
    assert h.finish == ("S", "E") and not h.over
    assert h.turn == "W" and h.table is None


def test_partners_first_and_second_end_the_hand_mid_trick():
    """七②: 如果对家两人争得上游或二游则提前结束; 三: 如上游的对门为二游，则上游方升3级。"""
    h = dealt(counts=(1, 27, 1, 27)).play("S", C("S3")).play("E", C("S5")).play("N", C("S9"))
    assert h.over and h.finish == ("S", "N") and h.turn is None
    assert h.result() == HandResult("S", 2)
    with said.raises(HandError, "over"):
        h.play("W", C("SA"))


def test_the_firsts_partner_last_wins_one_level_and_pays_the_tribute():
    """三: 如为四游(下游)，则升1级; 四: 上一副牌下游者需向前一副得上游者进贡一张牌 -- the last pays even its own partner."""
    h = dealt(counts=(1, 1, 27, 1)).play("S", C("S3")).play("E", C("S5")).pass_("N").play("W", C("S9"))
    assert h.over and h.finish == ("S", "E", "W", "N")
    assert h.result() == HandResult("S", 4)
    assert payers(GD, h.finish) == ("N",)


def test_the_third_out_ends_the_hand_at_once():
    """七②: 重复①一②，直到三个选手手中的牌出完 -- the last card of the third ends it, unbeaten or not."""
    h = dealt(counts=(1, 1, 1, 27)).play("S", C("S3")).play("E", C("S5")).play("N", C("S9"))
    assert h.over and h.finish == ("S", "E", "N", "W") and h.result() == HandResult("S", 3)


def test_the_double_down_payer_of_the_bigger_card_leads_the_next_hand():
    """四: 双下时，二人都应向上游方分别进贡，上游者拿大牌，并还牌给贡大牌者，由贡大牌者先出牌。"""
    p = TributePhase.start(GD, "5", ("E", "W"))
    assert p.payers == ("N", "S")
    p = p.pay("N", Card.parse("BJ")).pay("S", Card.parse("H5"))  # H5: the heart level card, said in words
    assert p.rulings and not p.paid[1:]
    p = p.pay("S", Card.parse("S5"))  # the level card (参谋) is below the big joker
    assert {(x.giver, x.receiver) for x in p.exchanges} == {("N", "E"), ("S", "W")}
    p = p.return_("E", Card.parse("S9")).return_("W", Card.parse("C2"))
    assert p.done and p.leader == "N"
    h = Hand.start(GD, "5", p.leader, p.exchanges)
    assert h.turn == "N"


def test_equal_double_down_tributes_the_firsts_next_seat_leads():
    """四: 如双方进贡的牌一样大小，则按照顺时针方向进贡，还牌时向下家牌面向下分别还牌…并由上游者的下家先出牌。"""
    p = TributePhase.start(GD, "7", ("N", "S")).pay("W", Card.parse("SA")).pay("E", Card.parse("DA"))
    assert {(x.giver, x.receiver) for x in p.exchanges} == {("W", "N"), ("E", "S")}
    p = p.return_("N", Card.parse("C3")).return_("S", Card.parse("D4"))
    assert p.leader == "W"  # N's 下家


def test_one_big_joker_each_refuses_the_double_down_and_the_first_leads():
    """四: 双下时，如二人各抓到一个“大王”…则都不用进贡，由上游者出牌。"""
    p = TributePhase.start(GD, "2", ("W", "E")).refuse("N", C("BJ")).refuse("S", C("BJ"))
    assert p.refused and p.done and p.leader == "W" and p.exchanges == ()
    with said.raises(Exception, "refused"):
        p.pay("N", Card.parse("SA"))


def test_the_next_hand_is_played_at_the_firsts_level():
    """三: 只有上游方可以升级 -- EW at 2 take first in a hand SN had raised to 5: the next hand is at 2+1."""
    g = Game.start(GD, "one").after(HandResult("S", 2))
    assert (g.level_of("SN"), g.hand_level()) == ("5", "5")
    g = g.after(HandResult("W", 4))
    assert (g.level_of("SN"), g.level_of("EW"), g.hand_level()) == ("5", "3", "3")


def test_stage_one_ace_reached_is_not_yet_won():
    """三: A不能升过去，A必打 -- SN at K with a double down stop at A and must still play it."""
    g = Game.start(GD, "one")
    for _ in range(4):
        g = g.after(HandResult("S", 2))  # 2 -> 5 -> 8 -> J -> A
    assert g.level_of("SN") == "A" and g.winner is None and g.hand_level() == "A"
    g = g.after(HandResult("N", 3))
    assert g.winner == "SN"


def test_stage_one_at_ace_a_hand_at_the_others_level_wins_nothing():
    """三: A必打 -- SN at A take first and second in a hand played at EW's level: not won; the next hand is at A."""
    g = Game.start(GD, "one")
    for _ in range(4):
        g = g.after(HandResult("S", 2))
    g = g.after(HandResult("E", 3))
    assert g.hand_level() == "4"
    g = g.after(HandResult("S", 2))
    assert g.winner is None and g.hand_level() == "A"
    g = g.after(HandResult("S", 4))  # 另一人是下游: 否则需再打A
    assert g.winner is None and g.level_of("SN") == "A" and g.hand_level() == "A"
    g = g.after(HandResult("E", 2))
    assert g.winner is None and g.level_of("SN") == "A" and g.level_of("EW") == "7"  # 永不退级
    with said.raises(GameError, "finishes one of 2, 3, 4, not 1"):
        g.after(HandResult("N", 1))


def test_stage_two_reaching_eight_is_not_passing_it():
    """规程 三 2: 每局过“8”即胜 -- 6 + 2 = 8 is not past 8; the next hand won at 8 passes it, whoever is last."""
    g = Game.start(GD, "two").after(HandResult("S", 3)).after(HandResult("S", 3))
    assert g.level_of("SN") == "6"
    g = g.after(HandResult("N", 3))
    assert g.level_of("SN") == "8" and g.winner is None
    g = g.after(HandResult("N", 4))
    assert g.winner == "SN"
    with said.raises(GameError, "over"):
        g.after(HandResult("E", 2))


def test_a_partner_due_to_sit_out_hands_the_lead_from_jiefeng_to_its_next_seat():
    """三: 无人压牌，则由对门借风出牌; 十一 3: 如是越序出牌则停止一轮出牌，由下家出牌 -- N's 接风 lead, sat out, goes to W."""
    h = dealt(counts=(1, 27, 27, 27)).play("S", C("S3")).pass_("E").pass_("N").sit_out("N").pass_("W")
    assert h.table is None and h.turn == "W" and str(h.turns[-1]) == "N sits out"
    h = h.play("W", C("S4"))
    assert h.turn == "E"  # S is out; the sit-out is served
    h = h.pass_("E").play("N", C("S9"))
    assert h.turn == "W"
