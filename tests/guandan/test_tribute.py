"""Tribute, refusing it, the return card and who leads: seed 002 规则 四 (and 七 for the lead)."""

import pytest
import said

from referee.cards import Card, Cards
from referee.guandan.hand import Hand
from referee.guandan.tribute import (
    Exchange,
    TributeError,
    TributePhase,
    is_legal_return,
    is_legal_tribute,
    legal_tributes,
    payers,
)
from referee.judge import answer
from referee.rulebooks import load

GD = load("sanjiang-2012")


def C(s):
    return Cards.parse(s)


def K(s):
    return Card.parse(s)


# -- the tribute card ---------------------------------------------------------------------------


def test_tribute_is_the_largest_card_and_the_level_card_ranks_above_ace():
    """四: 进贡的牌必须是自己手中最大的牌; 二: 级数为x时，x是本局的参谋，小于大小王。"""
    hand = C("H5 S5 SA SK D3 C4")
    assert is_legal_tribute(GD, "5", hand, K("S5"))
    assert not is_legal_tribute(GD, "5", hand, K("SA"))
    assert not is_legal_tribute(GD, "5", hand, K("D3"))
    # at level 9 the fives are plain cards: the ace is the largest
    assert is_legal_tribute(GD, "9", C("S5 D5 SA SK D3"), K("SA"))
    assert not is_legal_tribute(GD, "9", C("S5 D5 SA SK D3"), K("S5"))


def test_any_card_as_large_as_the_largest_may_be_paid():
    """四: 进贡的牌必须是自己手中最大的牌 -- two aces of different suits are equally large."""
    hand = C("SA HA DK C3")
    assert is_legal_tribute(GD, "7", hand, K("SA")) and is_legal_tribute(GD, "7", hand, K("HA"))
    assert legal_tributes(GD, "7", hand) == [K("SA"), K("HA")]


def test_jokers_are_the_largest_cards():
    """六: 牌点由大到小顺序为：大王、小王、参谋、A ..."""
    hand = C("LJ BJ S7 SA")
    assert is_legal_tribute(GD, "7", hand, K("BJ"))
    assert not is_legal_tribute(GD, "7", hand, K("LJ"))
    assert not is_legal_tribute(GD, "7", hand, K("S7"))


def test_the_heart_level_card_is_never_the_tribute():
    """四: 进贡的牌必须是自己手中最大的牌，“逢人配”除外。"""
    hand = C("H7 S7 SA C3")
    assert not is_legal_tribute(GD, "7", hand, K("H7"))
    assert is_legal_tribute(GD, "7", hand, K("S7"))  # the other sevens are level cards, and largest
    assert legal_tributes(GD, "7", C("H7 SA C3")) == [K("SA")]


def test_a_tribute_not_in_the_hand_is_an_error():
    """四: 进贡的牌必须是自己手中最大的牌 -- a card the hand does not hold cannot be paid from it."""
    with said.raises(ValueError, "BJ is not in the hand"):
        is_legal_tribute(GD, "5", C("SA SK"), K("BJ"))
    assert "error" in answer({"id": "t", "game": "guandan", "rulebook": "sanjiang-2012", "op": "tribute",
                              "level": "5", "hand": ["SA", "SK"], "card": "BJ"})


def test_tribute_op_of_the_judge():
    """四: 进贡的牌必须是自己手中最大的牌，“逢人配”除外 (README op `tribute`)."""
    case = {"id": "t", "game": "guandan", "rulebook": "sanjiang-2012", "op": "tribute", "level": "5",
            "hand": ["H5", "S5", "SA", "SK", "D3", "C4"]}
    assert answer(case | {"card": "S5"})["result"] is True
    assert answer(case | {"card": "H5"})["result"] is False
    assert answer(case | {"card": "SA"})["result"] is False


# -- the return card ------------------------------------------------------------------------------


@pytest.mark.parametrize("level, card, legal", [
    ("5", "S9", True), ("5", "ST", False), ("5", "S2", True), ("5", "SK", False),
    ("5", "S5", False), ("5", "H5", False),  # the level card ranks above A: never below 10
    ("9", "S9", False), ("9", "S8", True),
    ("T", "S9", True), ("T", "ST", False),
    ("5", "BJ", False), ("5", "LJ", False),
])  # fmt: skip
def test_return_card_must_be_below_ten(level, card, legal):
    """四: 还牌：必须小于10; 二: x是本局的参谋 (above A), 六: 大王、小王、参谋、A ..."""
    assert is_legal_return(GD, level, K(card)) is legal
    out = answer({"id": "r", "game": "guandan", "rulebook": "sanjiang-2012", "op": "return", "level": level, "card": card})
    assert out["result"] is legal


# -- who pays -------------------------------------------------------------------------------------


def test_the_last_pays_the_first():
    """四: 上一副牌下游者需向前一副得上游者进贡一张牌。"""
    assert payers(GD, ("E", "S", "W", "N")) == ("N",)
    assert payers(GD, ("E", "S", "W")) == ("N",)  # three placed: the fourth is last
    p = TributePhase.start(GD, "6", ("E", "S", "W", "N"))
    p = p.pay("N", K("BJ")).return_("E", K("D4"))
    assert [(x.giver, x.receiver, str(x.tribute), str(x.returned)) for x in p.exchanges] == [("N", "E", "BJ", "D4")]


def test_a_double_down_pays_both():
    """四: 双下时，二人都应向上游方分别进贡。 (七②: the hand ended early: 对家两人争得上游或二游)"""
    assert payers(GD, ("W", "E")) == ("S", "N")
    assert payers(GD, ("N", "S", "E", "W")) == ("W", "E")


def test_a_finish_order_without_the_last_is_an_error():
    """四: 上一副牌下游者 -- after first and second of different teams the last is not yet known."""
    with pytest.raises(TributeError):
        payers(GD, ("S", "E"))
    with pytest.raises(TributeError):
        payers(GD, ("S", "S", "E"))


def test_single_tribute_the_payer_leads():
    """四: 接受进贡者须将自己手中的一张牌还给进贡者，并由下游者出牌。"""
    p = TributePhase.start(GD, "6", ("S", "E", "W", "N"))
    assert p.leader is None
    p = p.pay("N", K("SA"))
    assert not p.done and p.leader is None
    p = p.return_("S", K("C3"))
    assert p.done and p.leader == "N"


# -- refusing --------------------------------------------------------------------------------------


def test_last_with_two_big_jokers_refuses_and_the_first_leads():
    """四: 下游者抓到两个大王，则不用进贡，由上游者出牌。"""
    p = TributePhase.start(GD, "6", ("S", "E", "W", "N")).refuse("N", C("BJ BJ"))
    assert p.refused and p.done and p.leader == "S" and p.exchanges == ()
    with said.raises(TributeError, "refused"):
        p.pay("N", K("SA"))


def test_one_big_joker_does_not_refuse():
    """四: 下游者抓到两个大王，则不用进贡 -- one is not enough; nor are little jokers."""
    p = TributePhase.start(GD, "6", ("S", "E", "W", "N")).refuse("N", C("BJ"))
    assert not p.refused and not p.done
    with said.raises(TributeError, "showing BJ"):
        TributePhase.start(GD, "6", ("S", "E", "W", "N")).refuse("N", C("LJ LJ"))
    with said.raises(TributeError, "pays no tribute"):
        TributePhase.start(GD, "6", ("S", "E", "W", "N")).refuse("W", C("BJ BJ"))


@pytest.mark.parametrize("shows", [(("E", "BJ"), ("W", "BJ")), (("W", "BJ BJ"),)])
def test_double_down_refused_by_the_two_big_jokers_between_them(shows):
    """四: 双下时，如二人各抓到一个“大王”或一方抓到两个“大王”，则都不用进贡，由上游者出牌。"""
    p = TributePhase.start(GD, "6", ("S", "N"))
    for seat, cards in shows:
        p = p.refuse(seat, C(cards))
    assert p.refused and p.leader == "S"


# -- double tribute --------------------------------------------------------------------------------


def test_double_tribute_first_takes_the_bigger_and_its_payer_leads():
    """四: 上游者拿大牌，并还牌给贡大牌者，由贡大牌者先出牌。"""
    p = TributePhase.start(GD, "6", ("E", "W", "S", "N"))  # E first, W second: S and N pay
    assert p.payers == ("N", "S")
    p = p.pay("S", K("LJ")).pay("N", K("SA"))
    assert {x.giver: x.receiver for x in p.exchanges} == {"S": "E", "N": "W"}
    p = p.return_("E", K("D9")).return_("W", K("C2"))
    assert {x.giver: str(x.returned) for x in p.exchanges} == {"S": "D9", "N": "C2"}
    assert p.leader == "S"


def test_level_card_is_the_bigger_tribute():
    """四: 上游者拿大牌; 二: 级数为x时，x是本局的参谋 -- a level card beats an ace."""
    p = TributePhase.start(GD, "6", ("E", "W")).pay("N", K("D6")).pay("S", K("SA"))
    assert {x.giver: x.receiver for x in p.exchanges} == {"N": "E", "S": "W"}
    assert p.return_("E", K("S3")).return_("W", K("S4")).leader == "N"


def test_equal_tributes_go_clockwise_and_the_firsts_next_seat_leads():
    """四: 如双方进贡的牌一样大小，则按照顺时针方向进贡，还牌时向下家牌面向下分别还牌，
    双方得牌后同时亮牌，并由上游者的下家先出牌。"""
    # S first, N second; E is S's 下家, W its 上家. Clockwise: E pays S, W pays N.
    p = TributePhase.start(GD, "6", ("S", "N")).pay("W", K("HA")).pay("E", K("SA"))
    assert {x.giver: x.receiver for x in p.exchanges} == {"E": "S", "W": "N"}
    p = p.return_("N", K("C5")).return_("S", K("D3"))  # each returns to its 下家
    assert p.done and p.leader == "E"
    # W first, E second: S is W's 下家 and pays W; N pays E; S leads
    p = TributePhase.start(GD, "9", ("W", "E")).pay("S", K("BJ")).pay("N", K("BJ"))
    assert {x.giver: x.receiver for x in p.exchanges} == {"S": "W", "N": "E"}
    assert p.return_("W", K("S2")).return_("E", K("S3")).leader == "S"


def test_no_return_before_every_tribute_is_paid():
    """四: 上游者拿大牌，并还牌给贡大牌者 -- which tribute is the bigger is known once both are paid."""
    p = TributePhase.start(GD, "6", ("S", "N")).pay("E", K("SA"))
    with said.raises(TributeError, "before every tribute"):
        p.return_("S", K("D3"))
    p = p.pay("W", K("BJ"))
    with said.raises(TributeError, "received no tribute"):
        p.return_("E", K("D3"))
    with said.raises(TributeError, "already paid"):
        p.pay("W", K("SA"))


# -- violations: the card is given again ------------------------------------------------------------


def test_illegal_return_is_a_ruling_and_the_card_is_given_again():
    """四: 还牌：必须小于10; 进贡和还牌时如出现违规 ... 正常判为重新给牌。"""
    p = TributePhase.start(GD, "5", ("S", "E", "W", "N")).pay("N", K("BJ"))
    q = p.return_("S", K("S5"))  # a level card: above A
    assert not q.done and q.rulings[-1].kind == "illegal_return" and "S5" in said.words(q.rulings[-1].detail)
    q = q.return_("S", K("S9"))
    assert q.done and q.exchanges[0].returned == K("S9") and len(q.rulings) == 1


def test_tribute_checked_against_a_known_hand():
    """四: 进贡的牌必须是自己手中最大的牌，“逢人配”除外 ... 正常判为重新给牌。"""
    hand = C("BJ H5 SA SK D3")
    p = TributePhase.start(GD, "5", ("S", "E", "W", "N"))
    q = p.pay("N", K("SA"), hand)
    assert q.paid == () and q.rulings[0].kind == "illegal_tribute" and "BJ" in said.words(q.rulings[0].detail)
    assert q.pay("N", K("BJ"), hand).paid == (("N", K("BJ")),)
    # the heart level card is refused even when the hand is not known
    q = p.pay("N", K("H5"))
    assert q.paid == () and q.rulings[0].detail.key == "guandan.tribute_wild" and "wildcard" in said.words(q.rulings[0].detail)


# -- proof from later plays -------------------------------------------------------------------------


def _after_tribute(tribute, returned, level="2"):
    return Hand.start(GD, level, "S", (Exchange("W", "S", K(tribute), K(returned)),))


def test_tribute_proven_not_the_largest_by_a_later_play():
    """四: 进贡的牌必须是自己手中最大的牌 -- W paid SK, then played an ace it must have held."""
    h = _after_tribute("SK", "D3").play("S", C("S4")).pass_("E").pass_("N")
    assert h.rulings == ()
    h = h.play("W", C("HA"))
    (r,) = h.rulings
    assert (r.kind, r.seat, r.evidence) == ("tribute_not_largest", "W", ((4, "HA"),))
    assert "SK" in said.words(r.detail) and "HA" in said.words(r.detail)
    # ruled once: another ace adds nothing
    h = h.pass_("S").pass_("E").pass_("N").play("W", C("DA"))
    assert len(h.rulings) == 1


def test_the_heart_level_card_proves_nothing():
    """四: 进贡的牌必须是自己手中最大的牌，“逢人配”除外 -- W may keep the heart 2 (level 2) above its SK."""
    h = _after_tribute("SK", "D3").play("S", C("S4")).pass_("E").pass_("N").play("W", C("H2"))
    assert h.rulings == ()
    h = h.pass_("S").pass_("E").pass_("N").play("W", C("S2"))  # another level card: larger than a K
    assert [r.kind for r in h.rulings] == ["tribute_not_largest"]


def test_the_card_given_back_proves_nothing():
    """四: 接受进贡者须将自己手中的一张牌还给进贡者 -- a card W got back was not in its hand when it paid."""
    h = _after_tribute("S8", "S9").play("S", C("S4")).pass_("E").pass_("N").play("W", C("S9"))
    assert h.rulings == ()
    h = _after_tribute("S8", "S9").play("S", C("S4 S4")).pass_("E").pass_("N").play("W", C("S9 S9"))
    assert [r.evidence for r in h.rulings] == [((4, "S9 S9"),)]
