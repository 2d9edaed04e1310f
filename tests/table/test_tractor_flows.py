"""Tractor table flows of a real evening under the 3-deck books (seeds 000, 001), each against its article."""

import pytest

from referee.cards import Cards
from referee.tractor.game import penalties_of
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
    for seat, card in (("E", "SA"), ("N", "S5"), ("W", "S6")):
        _show(d, seat, card)
    trick = d.table.judge.tricks[0]
    assert (trick.winner, trick.points, d.table.turn()) == ("E", 15, "E")
    assert [r.kind for r in d.table.judge.rulings] == ["failed_throw"] and not d.table.flags
    charged = penalties_of(d.table.rules, list(d.table.judge.rulings))  # settled with the hand
    assert [(p.kind, p.seat, d.table.rules.penalties[p.kind].points_for(p.cards)) for p in charged] == [("failed_throw", "S", 20)]
