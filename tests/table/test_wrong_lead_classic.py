"""classic-3deck: a lead made wrongly is 甩错牌 (20 points), not a revoke.

Seed 001 十五: “俘虏”……规定“俘虏”不能出，相连的俘虏也不能出（如44433）。除非当“甩牌”出牌，要说明“甩牌”的结构.
Seed 001 十九: 出错牌：包括甩错牌、跟错牌、垫错牌、错将吃等多种表现形式。甩错牌：甩错牌一旦成，一次扣罚20分……
跟错牌、垫错牌、错将吃一旦成立，均按藏张处理.

A captive led without its structure is a throw made wrongly: 十九 prices it 20 points; only a follower's wrong
play (跟错牌、垫错牌、错将吃) is a revoke (十八: 判自动下台或别人自动升级). The table ruled it a revoke: the dealer's side
leading one stepped down whatever its points, the defenders leading one let the dealer's side go up.
"""

import random

from test_tractor_table import Driver, _stacked

from referee.cards import Cards
from referee.reasons import Reason
from referee.rulebooks import load
from referee.tractor.bots import legal_follow
from referee.tractor.game import Penalty, penalties_of, settle
from referee.tractor.hand import Ruling
from referee.tractor.scoring import Outcome, outcome

CL, ZK = load("classic-3deck"), load("zhongkai-2010")
CAPTIVE = Ruling("illegal_lead", "S", 1, Reason("tractor.captive", cards="SA SA SA SK SK"))


def test_a_wrong_lead_costs_20_points_to_the_side_that_led_it():
    assert penalties_of(CL, [CAPTIVE]) == [Penalty("illegal_lead", "S")]
    by_dealer = settle(CL, "S", 40, penalties_of(CL, [CAPTIVE]))  # 40 + 20: 60—115 庄家升一级, no step-down
    assert (by_dealer.defender_points, by_dealer.outcome) == (60, Outcome("dealer", 1))
    by_defender = settle(CL, "E", 140, penalties_of(CL, [CAPTIVE]))  # S defends: 140 - 20 = 120, 防家上台
    assert (by_defender.defender_points, by_defender.outcome) == (120, Outcome("defenders", 0))


def test_a_book_without_its_own_entry_keeps_pricing_it_as_a_revoke():
    """zhongkai-2010 has no ``illegal_lead`` entry: its wrong plays stay revokes (000 第十八条, decided)."""
    assert penalties_of(ZK, [CAPTIVE]) == [Penalty("revoke", "S")]


def test_a_captive_led_at_the_table_is_settled_with_20_points():
    """S deals and leads SA SA SA SK SK undeclared in trick 1: the violation is 出错牌, and the hand is scored by its
    points with 20 more to the defenders, the level table deciding (no automatic step-down)."""
    rng = random.Random(3)
    d = Driver("classic-3deck")
    d.start()
    d.declare_and_take_kitty("S", "H")
    kitty = Cards.parse("D3 D4 D6 D7 D8 D9")
    trumps, hands = _stacked(d, {"S": "SA SA SA SK SK"}, kitty, rng)
    lead = Cards.parse("SA SA SA SK SK")
    d.play("S", lead, hands)
    before = [lead]
    for seat in "ENW":
        before.append(legal_follow(trumps, hands[seat], lead, rng, before[1:]))
        d.play(seat, before[-1], hands)
    ruled = [(o.payload["seat"], o.payload["kind"], o.payload["rule"]["article"]) for o in d.outputs if o.name == "violations"]
    assert ruled == [("S", "illegal_lead", "出错牌")]  # the throw itself stands: nobody holds an A or a pair of them
    d.play_out(trumps, hands, rng)
    d.send("observed", {"seat": "S", "cards": kitty.names(), "confidence": 0.99})
    scored = d.payloads("events", "hand_scored")[0]["data"]
    assert scored["settled_points"] == scored["defender_points"] + 20
    expected = outcome(CL, scored["settled_points"])
    assert (scored["side"], scored["levels"]) == (expected.side, expected.levels)
    notes = [n["key"] for n in scored["notes"]]
    assert "tractor.note_awarded" not in notes and "tractor.note_points" in notes
