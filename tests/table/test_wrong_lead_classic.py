"""classic-3deck: a captive led is held for the referee, who says whether its leader stated its structure.

Seed 001 十五: “俘虏”……规定“俘虏”不能出，相连的俘虏也不能出（如44433）。除非当“甩牌”出牌，要说明“甩牌”的结构（三条加一对
或拖拉机加一单张）.
Seed 001 十九: 出错牌：包括甩错牌、跟错牌、垫错牌、错将吃等多种表现形式。甩错牌：甩错牌一旦成，一次扣罚20分，且甩牌不成立，
当甩错的牌或牌张组合为多种时，由甩错者的下家指定出其中的一种最小的单张或组合。跟错牌、垫错牌、错将吃一旦成立，均按藏张处理.

What the leader said aloud no camera or board carries: the table ruled every captive 甩错牌 (20 points), even one whose
leader stated its structure as 十五 allows. Now the lead waits, unplayed and charged nothing, on an ``illegal_lead``
flag whose ``choices`` are its readings: dismissed naming one (``reading``), it is led as that structure; confirmed (no
structure said), it costs 20 points and the throw does not stand, its smallest unit led. A wrong lead is 20 points, not
a revoke (十八 is for followers' wrong plays).
"""

import random

import pytest
from test_tractor_table import Driver, _stacked

from bus.protocol import PayloadError, decode
from referee.cards import Cards
from referee.catalogue.sentences import Sentences
from referee.reasons import Reason
from referee.rulebooks import load
from referee.tractor.bots import legal_follow
from referee.tractor.game import Penalty, penalties_of, settle
from referee.tractor.hand import Ruling
from referee.tractor.scoring import Outcome, outcome

CL, ZK = load("classic-3deck"), load("zhongkai-2010")
CAPTIVE = Ruling("illegal_lead", "S", 1, Reason("tractor.captive", cards="SA SA SA SK SK"))
LEAD = Cards.parse("SA SA SA SK SK")
READINGS = [[["SK", "SK"], ["SA", "SA", "SA"]], [["SA", "SA", "SK", "SK"], ["SA"]]]  # 三条加一对, 拖拉机加一单张


def test_a_wrong_lead_costs_20_points_to_the_side_that_led_it():
    assert penalties_of(CL, [CAPTIVE]) == [Penalty("illegal_lead", "S")]
    by_dealer = settle(CL, "S", 40, penalties_of(CL, [CAPTIVE]))  # 40 + 20: 60—115 庄家升一级, no step-down
    assert (by_dealer.defender_points, by_dealer.outcome) == (60, Outcome("dealer", 1))
    by_defender = settle(CL, "E", 140, penalties_of(CL, [CAPTIVE]))  # S defends: 140 - 20 = 120, 防家上台
    assert (by_defender.defender_points, by_defender.outcome) == (120, Outcome("defenders", 0))


def test_a_book_without_its_own_entry_keeps_pricing_it_as_a_revoke():
    """zhongkai-2010 has no ``illegal_lead`` entry: its wrong plays stay revokes (000 第十八条, decided)."""
    assert penalties_of(ZK, [CAPTIVE]) == [Penalty("revoke", "S")]


def _captive_led():
    """S deals and leads SA SA SA SK SK (十五: a captive) in trick 1; E's follow comes while the flag is open."""
    rng = random.Random(3)
    d = Driver("classic-3deck")
    d.start()
    d.declare_and_take_kitty("S", "H")
    kitty = Cards.parse("D3 D4 D6 D7 D8 D9")
    trumps, hands = _stacked(d, {"S": "SA SA SA SK SK"}, kitty, rng)
    d.send("observed", {"seat": "S", "cards": LEAD.names(), "confidence": 0.99})
    return d, trumps, hands, kitty, rng


def _violations(d):
    return [(v["kind"], v["status"], v["rule"]["article"], v["penalty"]) for v in (o.payload for o in d.outputs if o.name == "violations")]


def test_a_captive_led_waits_for_the_referee_unplayed_and_charged_nothing():
    d, *_ = _captive_led()
    flag = d.table.state(d.at)["flags"][0]
    assert (flag["kind"], flag["seat"], flag["cards"], flag["choices"]) == ("illegal_lead", "S", LEAD.names(), READINGS)
    assert d.payloads("events", "flag_raised")[-1]["data"]["choices"] == READINGS
    assert _violations(d) == [("illegal_lead", "flagged", "甩错牌", {"points": 20})]  # said, not charged
    assert not d.payloads("events", "play_accepted") and d.table.state(d.at)["paused"] and d.table.judge.tricks == ()
    said = {lang: Sentences(lang).flag(flag) for lang in ("zh", "en")}
    assert said["zh"].startswith("南 领出 ♠A ♠A ♠A ♠K ♠K：♠A ♠A ♠A ♠K ♠K 是“俘虏”，只能当甩牌出，且要说明甩牌的结构（十五）")
    assert "(1) ♠K ♠K | ♠A ♠A ♠A，(2) ♠A ♠A ♠K ♠K | ♠A" in said["zh"] and "甩牌不成立" in said["zh"]
    assert said["en"].startswith("S led ♠A ♠A ♠A ♠K ♠K: ♠A ♠A ♠A ♠K ♠K is a captive") and "(1) ♠K ♠K | ♠A ♠A ♠A" in said["en"]
    # the leader's own confirm button cannot answer it: the referee says what was said aloud
    d.send("board/in", {"seat": "S", "button": "confirm"})
    assert d.payloads("events", "rejected")[-1]["data"]["why"]["key"] == "table.no_flag_for" and d.table.flags
    for bad, key in (({}, "table.reading_needed"), ({"reading": 3}, "table.reading_needed")):
        d.send("commands", {"command": "dismiss", "flag": flag["flag"]} | bad)
        assert d.payloads("events", "rejected")[-1]["data"]["why"]["key"] == key and d.table.flags  # nothing changed
    d.send("commands", {"command": "confirm", "flag": flag["flag"], "reading": 1})
    assert d.payloads("events", "rejected")[-1]["data"]["why"]["key"] == "table.reading_not_asked" and d.table.flags


def test_the_reading_rides_a_dismiss_only_on_the_bus():
    decode("commands", {"v": 1, "id": "c1", "command": "dismiss", "flag": "f9", "reading": 2})
    for bad in ({"command": "dismiss", "reading": 0}, {"command": "confirm", "reading": 1}, {"command": "dismiss", "reading": "1"}):
        with pytest.raises(PayloadError):
            decode("commands", {"v": 1, "id": "c1", "flag": "f9"} | bad)


@pytest.mark.parametrize("reading", [1, 2])
def test_a_captive_whose_structure_was_stated_is_led_as_that_throw_and_costs_nothing(reading):
    """十五: 除非当“甩牌”出牌，要说明“甩牌”的结构（三条加一对或拖拉机加一单张）. The referee dismisses the flag naming what S
    said: the lead stands as that structure (E's follow, waiting behind the flag, is judged against it), and the hand
    is scored on its points alone."""
    d, trumps, hands, kitty, rng = _captive_led()
    hands["S"] = hands["S"] - LEAD
    follow = legal_follow(trumps, hands["E"], LEAD, rng, [])
    d.play("E", follow, hands)  # played while the referee walks over: it waits
    assert not d.payloads("events", "play_accepted")
    d.send("commands", {"command": "dismiss", "flag": d.table.flags[0].flag, "reading": reading})
    assert [(v[0], v[1]) for v in _violations(d)] == [("illegal_lead", "flagged"), ("illegal_lead", "dismissed")]
    played = [(p["data"]["seat"], p["data"]["cards"]) for p in d.payloads("events", "play_accepted")]
    assert played == [("S", LEAD.names()), ("E", follow.names())] and not d.table.flags
    structure = sorted(sorted(u.cards.names()) for u in d.table.judge.tricks[0].structure)
    assert structure == sorted(sorted(u) for u in READINGS[reading - 1])
    before = [LEAD, follow]
    for seat in "NW":
        before.append(legal_follow(trumps, hands[seat], LEAD, rng, before[1:]))
        d.play(seat, before[-1], hands)
    assert not [v for v in _violations(d) if v[1] == "confirmed"]  # nobody holds an A or a pair of them: the throw stands
    d.play_out(trumps, hands, rng)
    d.send("observed", {"seat": "S", "cards": kitty.names(), "confidence": 0.99})
    scored = d.payloads("events", "hand_scored")[0]["data"]
    assert scored["settled_points"] == scored["defender_points"]


def test_a_captive_whose_structure_was_not_stated_costs_20_points_and_its_smallest_unit_is_led():
    """十九: 甩错牌一旦成，一次扣罚20分，且甩牌不成立，当甩错的牌或牌张组合为多种时，由甩错者的下家指定出其中的一种最小的单张或组合.
    The referee confirms: the flag's violation is confirmed at 20 points, and S's throw is taken back as a failed throw is:
    it leads SK SK (the smallest unit of its lowest reading; no input carries the 下家's choice), its three aces back
    in its hand. E, who followed the captive while the referee walked over, is asked about its cards lying there (as the
    follows of a failed throw are) and follows the pair; the hand is scored with 20 more to the defenders, the level
    table deciding (not a revoke's step-down)."""
    d, trumps, hands, kitty, rng = _captive_led()
    laid = legal_follow(trumps, hands["E"], LEAD, rng, [])
    d.send("observed", {"seat": "E", "cards": laid.names(), "confidence": 0.99})  # waits behind the flag
    d.send("commands", {"command": "confirm", "flag": d.table.flags[0].flag})
    assert _violations(d) == [("illegal_lead", "flagged", "甩错牌", {"points": 20}), ("illegal_lead", "confirmed", "甩错牌", {"points": 20})]
    pair = Cards.parse("SK SK")
    assert [(p["data"]["seat"], p["data"]["cards"]) for p in d.payloads("events", "play_accepted")] == [("S", pair.names())]
    back = d.payloads("events", "throw_taken_back")[-1]["data"]
    assert (back["cards"], back["back_cards"], d.table.turn()) == (pair.names(), ["SA", "SA", "SA"], "E")
    assert d.table.state(d.at)["current_trick"]["plays"] == [{"seat": "S", "cards": pair.names()}]
    assert [(f.kind, f.seat, f.cards) for f in d.table.flags] == [("laid_taken_back", "E", tuple(laid.names()))]
    hands["S"] = hands["S"] - pair
    before = [pair, legal_follow(trumps, hands["E"], pair, rng, [])]
    d.send("commands", {"command": "correct", "flag": d.table.flags[0].flag, "cards": before[1].names()})
    hands["E"] = hands["E"] - before[1]
    for seat in "NW":
        before.append(legal_follow(trumps, hands[seat], pair, rng, before[1:]))
        d.play(seat, before[-1], hands)
    assert len(d.payloads("events", "trick_won")) == 1 and not d.table.flags
    d.play_out(trumps, hands, rng)
    d.send("observed", {"seat": "S", "cards": kitty.names(), "confidence": 0.99})
    scored = d.payloads("events", "hand_scored")[0]["data"]
    assert scored["settled_points"] == scored["defender_points"] + 20
    expected = outcome(CL, scored["settled_points"])
    assert (scored["side"], scored["levels"]) == (expected.side, expected.levels)
    notes = [n["key"] for n in scored["notes"]]
    assert "tractor.note_awarded" not in notes and "tractor.note_points" in notes
