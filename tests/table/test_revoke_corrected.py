"""Seed 000 第十八条: a wrong play corrected in the trick, the referee's foul that names the corrected cards."""

import random

from test_tractor_table import Driver

from referee.catalogue.sentences import Sentences
from referee.table.tables import new_table


def _violations(d):
    return [o.payload for o in d.outputs if o.name == "violations"]


def _refused(d):
    return d.payloads("events", "rejected")[-1]["data"]["why"]


def test_the_corrected_cards_points_go_to_the_non_offending_side_with_the_20():
    """000 第十八条: 当圈发现出错牌时要马上更正（更正的牌变为最小牌种组合，如其中含有分数牌，则该分数为非错方赢取），一次
    扣罚出错牌者20分 -- the referee's ``revoke_corrected`` names the corrected cards (the book's ``card_points``): the
    violation names them and their points, and the settled hand moves 20 and their points (♠K ♠5: 15) to the
    non-offending side; the scoreboard's sentence says both."""
    d = Driver("zhongkai-2010")
    d.start()
    d.declare_and_take_kitty("S", "H")
    d.send("commands", {"command": "foul", "seat": "N", "kind": "revoke_corrected", "cards": ["SK", "S5"]})
    v = _violations(d)[-1]
    assert (v["seat"], v["kind"], v["status"], v["penalty"]) == ("N", "revoke_corrected", "confirmed", {"points": 35})
    assert sorted(v["evidence"]["cards"]) == ["S5", "SK"] and v["rule"]["article"].startswith("第十八条")
    assert v["evidence"]["why"]["key"] == "table.foul_card_points" and v["evidence"]["why"]["values"]["n"] == 15
    assert "含分数 15 分，连同罚分 20 分归非错方" in Sentences("zh").violation(v)
    assert "hold 15 points" in Sentences("en").violation(v)
    d.play_hand(random.Random(5))
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    assert scored["settled_points"] == scored["defender_points"] + 35  # the dealer's side (S, N) offended
    assert any(n["key"] == "tractor.note_points" and n["values"]["n"] == 35 for n in scored["notes"])


def test_a_defender_s_corrected_cards_are_taken_from_the_defenders():
    """000 第十八条 from the defenders' side: 20 and the cards' points (♦10: 10) go to the dealer's side."""
    d = Driver("zhongkai-2010")
    d.start()
    d.declare_and_take_kitty("S", "H")
    d.send("commands", {"command": "foul", "seat": "E", "kind": "revoke_corrected", "cards": ["D10", "D3"]})
    assert _violations(d)[-1]["penalty"] == {"points": 30}
    d.play_hand(random.Random(5))
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    assert scored["settled_points"] == scored["defender_points"] - 30


def test_cards_wrong_for_the_foul_are_refused_in_words_and_change_nothing():
    """Refused, nothing changed: no cards for a kind that takes them, a name that is no card, more copies than the
    three decks hold with what the other seats played, cards for a kind that takes none (and under a book whose
    entry has no ``card_points``, and in a climbing game)."""
    d = Driver("zhongkai-2010")
    d.start()
    d.declare_and_take_kitty("S", "H")
    before, seen = d.table, len(_violations(d))
    for cards, kind, key in [(None, "revoke_corrected", "table.foul_needs_cards"),
                             (["SK", "X9"], "revoke_corrected", "cards.unknown"),
                             (["SA"] * 4, "revoke_corrected", "table.foul_cards_not_held"),
                             (["SK"], "signalling", "table.foul_takes_no_cards")]:
        d.send("commands", {"command": "foul", "seat": "N", "kind": kind} | ({"cards": cards} if cards else {}))
        assert _refused(d)["key"] == key, (cards, kind, _refused(d))
    assert len(_violations(d)) == seen and d.table.penalties == before.penalties == ()
    assert "不涉及牌" in Sentences("zh").reason(_refused(d)) and "names no cards" in Sentences("en").reason(_refused(d))
    other = Driver("shaoguan-2023")
    other.start()
    other.declare_and_take_kitty("S", "H")
    other.send("commands", {"command": "foul", "seat": "N", "kind": "peeking", "cards": ["SK"]})
    assert _refused(other)["key"] == "table.foul_takes_no_cards" and other.table.penalties == ()
    guandan, out = new_table("g1", "sanjiang-2012").apply(
        "commands", {"v": 1, "id": "c1", "command": "foul", "seat": "E", "kind": "signalling", "cards": ["SK"]}, 1.0, 1)
    assert [o.payload["data"]["why"]["key"] for o in out if o.name == "events"] == ["table.foul_takes_no_cards"]


def test_the_corrected_cards_may_not_be_cards_the_other_seats_played():
    """Cards the seat could have played this hand: a card of which the others played every copy is refused."""
    d = Driver("zhongkai-2010")
    d.start()
    d.declare_and_take_kitty("S", "H")
    lead = d.table.turn()
    d.send("observed", {"seat": lead, "cards": ["C3"], "confidence": 0.99})
    d.send("commands", {"command": "foul", "seat": "N" if lead != "N" else "E", "kind": "revoke_corrected", "cards": ["C3"] * 3})
    assert _refused(d)["key"] == "table.foul_cards_not_held"
