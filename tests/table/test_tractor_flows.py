"""Tractor table flows of a real evening under the 3-deck books (seeds 000, 001), each against its article."""

import random

import pytest

from referee.cards import Cards
from referee.tractor.game import Declaration, Penalty, penalties_of
from test_tractor_table import Driver


def _show(d, seat, cards):
    return d.send("observed", {"seat": seat, "cards": cards.split(), "confidence": 0.99})


@pytest.mark.parametrize("book", ["classic-3deck", "zhongkai-2010"])
def test_a_throw_failed_in_its_own_trick_is_taken_back_and_the_forced_unit_followed_anew(book):
    """001 十九: 甩错牌一旦成，一次扣罚20分，且甩牌不成立，当甩错的牌或牌张组合为多种时，由甩错者的下家指定出其中的一种最小的单张或组合;
    000 第十六条: 甩错牌一旦成立，一次扣罚20分，且甩牌不成立，按规定出所甩错的最低最小级别牌种组合. S throws SA SK; E's follow shows
    a third-deck SA, which beats SK: the throw does not stand. S's lead is SK alone, SA goes back to S's hand, E takes back
    its two cards and the trick is followed by singles: E's SA takes it and leads next. Before, the throw stood, S took
    the trick and its points and led again, and only the 20 points were charged."""
    d = Driver(book)
    d.start()
    d.declare_and_take_kitty("S", "H")
    _show(d, "S", "SA SK")
    _show(d, "E", "SA S3")
    [v] = [o.payload for o in d.outputs if o.name == "violations"]
    assert (v["seat"], v["kind"], v["status"]) == ("S", "failed_throw", "confirmed")
    [back] = d.payloads("events", "throw_taken_back")
    assert back["data"] | {"back_cards": sorted(back["data"]["back_cards"])} == {"hand": 1, "trick": 1, "seat": "S", "cards": ["SK"], "back_cards": ["S3", "SA", "SA"]}
    assert d.table.judge.tricks[-1].plays == (("S", Cards.parse("SK")),) and d.table.turn() == "E"
    assert d.table.cards_left() == {"S": 38, "E": 39, "N": 39, "W": 39}
    [ask] = d.table.flags  # E's SA S3 lie there, sent once: its new follow may be among them (tests/table/test_laid_out_of_turn.py)
    assert (ask.kind, ask.seat, sorted(ask.cards)) == ("laid_taken_back", "E", ["S3", "SA"])
    d.send("commands", {"command": "correct", "flag": ask.flag, "cards": ["SA"]})  # E leaves its SA there as its follow
    for seat, card in (("N", "S5"), ("W", "S6")):
        _show(d, seat, card)
    trick = d.table.judge.tricks[0]
    assert (trick.winner, trick.points, d.table.turn()) == ("E", 15, "E")
    assert [r.kind for r in d.table.judge.rulings] == ["failed_throw"] and not d.table.flags
    charged = penalties_of(d.table.rules, list(d.table.judge.rulings))  # settled with the hand
    assert [(p.kind, p.seat, d.table.rules.penalties[p.kind].points_for(p.cards)) for p in charged] == [("failed_throw", "S", 20)]


def test_the_cards_a_throw_taken_back_leaves_on_the_table_are_picked_up_not_refused():
    """001 十九: 甩错牌一旦成……且甩牌不成立 (000 第十六条: 甩牌不成立): the thrower's other cards and the follows go back
    to the hands, so the camera sees them lifted. Before, each removal was refused on the timeline as cards that never
    lay there (`rejected`, table.not_on_table); now it is a pickup, said as one. Cards that never lay there stay refused."""
    d = Driver("classic-3deck")
    d.start()
    d.declare_and_take_kitty("S", "H")
    _show(d, "S", "SA SK")
    _show(d, "E", "SA S3")
    before = len(d.outputs)
    d.send("removed", {"seat": "E", "cards": ["SA", "S3"], "confidence": 0.97})  # E takes its follow back (answering laid_taken_back)
    _show(d, "E", "SA")  # and follows the forced SK anew
    d.send("removed", {"seat": "S", "cards": ["SA"], "confidence": 0.97})  # S lifts the card its throw took back
    picked = [(o.payload["data"]["seat"], o.payload["data"]["cards"]) for o in d.outputs[before:] if o.payload.get("kind") == "picked_up"]
    assert sorted(picked) == [("E", ["SA", "S3"]), ("S", ["SA"])] and "rejected" not in d.kinds()[-4:] and not d.table.flags
    d.send("removed", {"seat": "N", "cards": ["SA"], "confidence": 0.97})  # N's SA never lay there
    assert d.kinds()[-1] == "rejected"


def _flagged(d):
    return d.table.flags[-1], [o.payload for o in d.outputs if o.name == "violations"][-1]


def test_a_card_shown_in_the_draw_that_is_no_declaration_is_an_exposed_card_for_a_person_classic():
    """001 二十: “暴露张”：在抓牌和打牌过程中，过早地暴露牌张或牌张组合，把牌的牌面向上放在桌上……均属暴露张。凡属于“暴露张”的，
    一次扣罚20分. Under classic-3deck (seed 001) cards shown face up in the draw that declare nothing (W's S9 at level 2) or
    make an overturn the book refuses (N's one D2 on S's one H2: 八 反揭原则〈1〉 张数增加可造反) are flagged for a person,
    never priced on the read alone: dismissed (a misread), nothing; corrected, the read is judged again (an overturn);
    confirmed, the 20 points are settled with the hand. A valid declaration stays a declaration. Before, each was only
    rejected."""
    d = Driver("classic-3deck")
    d.start()
    _show(d, "W", "S9")
    flag, v = _flagged(d)
    assert (flag.kind, flag.seat, flag.why.key) == ("exposed_card", "W", "tractor.declare_level")
    assert (v["status"], v["penalty"], v["rule"]["article"][:6]) == ("flagged", {"points": 20}, "二十 暴露张")
    _show(d, "S", "H2")  # a declaration shown while the flag is open waits behind it
    assert d.table.declaring.standing is None
    d.send("commands", {"command": "dismiss", "flag": flag.flag})
    assert d.kinds()[-1] == "declared" and d.table.declaring.standing == Declaration("S", "H", 1) and not d.table.penalties
    _show(d, "N", "D2")
    flag, _ = _flagged(d)
    assert (flag.kind, flag.seat, flag.why.key) == ("exposed_card", "N", "tractor.overturn_more")
    d.send("commands", {"command": "correct", "flag": flag.flag, "cards": ["D2", "D2"]})  # the referee saw two
    assert d.table.declaring.standing == Declaration("N", "D", 2) and not d.table.penalties
    _show(d, "E", "C5 C5")
    flag, _ = _flagged(d)
    d.send("commands", {"command": "confirm", "flag": flag.flag})
    v = [o.payload for o in d.outputs if o.name == "violations"][-1]
    assert (v["seat"], v["kind"], v["status"], v["penalty"]) == ("E", "exposed_card", "confirmed", {"points": 20})
    assert d.table.penalties == (Penalty("exposed_card", "E", 2),)
    d.send("board/in", {"seat": "E", "button": "declare"})
    d.send("board/in", {"seat": "N", "button": "ready"}, dt=6.0)
    d.play_hand(random.Random(5))
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    assert scored["settled_points"] == scored["defender_points"] - 20  # E defends: its side's points pay


@pytest.mark.parametrize("book", ["zhongkai-2010", "shaoguan-2023", "shaoguan-2023-nokitty"])
def test_a_card_shown_in_the_draw_is_no_exposure_where_the_book_counts_the_plays_only(book):
    """000 第十五条: 暴露张：在打牌过程中，过早地暴露牌张或牌张组合……一次扣罚20分 (the play's only, where 001 二十 says 在抓牌和
    打牌过程中); 003 13: 比赛开始后，牌一经触桌，不得收回……如出现出错牌或是掉牌，一张牌罚20分 (cards played or dropped in play;
    decided: the draw's cards turned up are its 翻牌). A card shown in the draw that declares nothing is refused, no flag."""
    d = Driver(book)
    d.start()
    _show(d, "W", "S9")
    assert d.kinds()[-1] == "rejected" and not d.table.flags and not [o for o in d.outputs if o.name == "violations"]
