"""二 (seed 002): 红心x可作为万能牌配用…x4567，相当于34567（或45678须出牌时说明）. A lead holding the wildcard that reads
two ways stands as its lowest reading until it matters; when its first follow would be judged otherwise under another
reading the leader could have said aloud (which no input carries), the table does not guess: a ``play_reading`` flag
asks the referee which was said, its readings the flag's ``choices``, and charges nothing. A follow holding the
wildcard is never guessed either (七①: 后一家打出的牌必须比前一家打出的牌大): it keeps the readings that beat the play
before it, and the next play that would be judged otherwise under another is asked about the same way (the kind still
named ``play_reading``), after passes too; a table rebuilt from its log (a service restart, an amendment) asks and
answers the same (the real service restarted: tests/table/test_service.py)."""

import pytest
from climbing_kit import GD, Table_

from referee.catalogue.sentences import Sentences
from referee.table.amend import as_amended
from referee.table.tables import new_table

ARTICLE = "x4567，相当于34567（或45678须出牌时说明）"
LEAD = ["H2", "S4", "S5", "S6", "C7"]  # level 2: H2 is the wildcard (逢人配): 34567 or 45678
FOLLOW = ["D4", "D5", "D6", "D7", "C8"]  # 45678: beats 34567, not 45678


def _led(cards=LEAD):
    d = Table_(GD)
    d.start()
    d.press("S", "ready")  # the draw is done: S drew the turned-up card and leads (七)
    d.show("S", cards)
    return d


def _asked(d):
    (flag,) = d.state()["flags"]
    assert flag["kind"] == "play_reading" and flag["seat"] == "E" and sorted(flag["cards"]) == sorted(FOLLOW)
    return flag


def test_a_follow_that_beats_one_reading_of_a_wildcard_lead_and_not_another_is_asked_not_guessed():
    """二: x4567，相当于34567（或45678须出牌时说明）: S leads ♥2 (the wildcard) ♠4 ♠5 ♠6 ♣7, E follows 45678, which beats
    34567 and not 45678: a flag with both readings, the follow not played yet, the clocks held, nothing charged."""
    d = _led()
    d.show("E", FOLLOW)
    flag = _asked(d)
    assert flag["choices"] == [[LEAD], [["S4", "S5", "S6", "C7", "H2"]]]  # the wildcard where it stands
    assert [w["values"]["rank"] for w in flag["choice_words"]] == ["7", "8"]
    assert flag["why"]["key"] == "guandan.play_reading_asked"
    assert not d.violations() and not d.events("play_accepted")[1:]  # only the lead stands
    assert d.state()["cards"]["E"] == 27 and not d.state()["clocks"]["E"]["running"]
    zh, en = Sentences("zh", "guandan").flag(flag), Sentences("en", "guandan").flag(flag)
    assert "到 7 的顺子" in zh and "到 8 的顺子" in zh and "须出牌时说明" in zh and "不罚分" in zh
    assert "straight to 8" in en and "Nothing is charged" in en
    assert ARTICLE in __doc__


def test_the_leader_said_45678_the_follow_does_not_beat_it():
    """The referee answers that S said 45678 (its second reading): the lead is 45678, and E's 45678 does not beat it,
    a wrong play flagged as any (十一 1), nothing charged for the reading."""
    d = _led()
    d.show("E", FOLLOW)
    d.send("commands", {"command": "dismiss", "flag": _asked(d)["flag"], "reading": 2})
    assert d.table.hand.table.reading.rank == 8 and d.table.hand.table.seat == "S"
    (flag,) = d.state()["flags"]
    assert flag["kind"] == "impossible" and flag["why"]["key"] == "guandan.does_not_beat"
    assert not [v for v in d.violations() if v["kind"] == "play_reading"]


def test_the_leader_said_34567_or_nothing_the_lowest_stands_and_the_follow_beats_it():
    """Said 34567 (the first reading), or nothing said (confirm: the lowest stands, decided; 002 prices nothing): E's
    45678 beats it and stands, N on turn, nothing charged either way."""
    for answer in ({"command": "dismiss", "reading": 1}, {"command": "confirm"}):
        d = _led()
        d.show("E", FOLLOW)
        d.send("commands", answer | {"flag": _asked(d)["flag"]})
        s = d.state()
        assert not s["flags"] and s["turn"] == "N" and s["cards"]["E"] == 22
        assert sorted(d.events("play_accepted")[-1]["data"]["cards"]) == sorted(FOLLOW)
        assert d.table.hand.turns[0].reading.rank == 7 and not d.violations()


def test_a_follow_that_beats_every_reading_is_not_asked_about():
    """56789 beats 34567 and 45678 alike: no flag, no pause."""
    d = _led()
    d.show("E", ["D5", "D6", "D7", "D8", "C9"])
    assert not d.state()["flags"] and d.state()["turn"] == "N"


def test_a_bomb_on_a_lead_that_may_be_a_straight_flush_is_asked_about():
    """五 火箭: 五张花色相同的顺子; 六: 炸弹可炸…非同花顺: ♥2 ♠4 ♠5 ♠6 ♠7 is a straight or a straight flush (the
    wildcard stands for any suit); a bomb of four beats the straight, not the straight flush: asked with its four
    readings; said a straight flush, the bomb does not beat it."""
    d = _led(["H2", "S4", "S5", "S6", "S7"])
    d.show("E", ["D8", "C8", "S8", "H8"])
    (flag,) = d.state()["flags"]
    assert [(w["values"]["type"], w["values"]["rank"]) for w in flag["choice_words"]] == [
        ("straight", "7"), ("straight", "8"), ("straight_flush", "7"), ("straight_flush", "8")]
    d.send("commands", {"command": "dismiss", "flag": flag["flag"], "reading": 3})
    assert d.state()["flags"][0]["kind"] == "impossible"


def test_a_reading_out_of_range_or_a_plain_dismiss_is_refused_and_changes_nothing():
    d = _led()
    d.show("E", FOLLOW)
    flag = _asked(d)
    for bad in ({"reading": 3}, {}):
        d.send("commands", {"command": "dismiss", "flag": flag["flag"]} | bad)
        assert d.state()["flags"] == [flag]


PLAIN = ["D3", "D4", "D5", "D6", "C7"]  # 34567: one reading
WILD_FOLLOW = ["H2", "S5", "S6", "S7", "C8"]  # x5678: beats 34567 as 45678 or as 56789
NEXT = ["C5", "C6", "C7", "C8", "S9"]  # 56789: beats 45678, not 56789


def _followed():
    d = _led(PLAIN)
    d.show("E", WILD_FOLLOW)
    assert not d.state()["flags"] and d.state()["turn"] == "N"  # E's follow beats 34567 whichever it reads: it stands
    return d


def _rebuilt(d):
    """The table as a restarted service (or an amendment) rebuilds it: the log replayed as amended, into a new one."""
    t = new_table("t1", GD)
    for kind, payload, at, seq in as_amended(d.log):
        t, _ = t.apply(kind, payload, at, seq)
    return t


@pytest.mark.parametrize("answer, stands", [({"command": "dismiss", "reading": 1}, True), ({"command": "confirm"}, True),
                                            ({"command": "dismiss", "reading": 2}, False)])
def test_a_play_on_a_wildcard_follow_that_reads_two_ways_is_asked_not_guessed(answer, stands):
    """七①: 后一家打出的牌必须比前一家打出的牌大; 二: 须出牌时说明. E follows 34567 with ♥2 (the wildcard) ♠5 ♠6 ♠7 ♣8,
    45678 or 56789; N's 56789 beats the first and not the second: asked, E's readings the choices. Said 45678 or
    nothing: N's play stands. Said 56789: N's does not beat it, a wrong play flagged as any (十一 1)."""
    d = _followed()
    d.show("N", NEXT)
    (flag,) = d.state()["flags"]
    assert flag["kind"] == "play_reading" and flag["seat"] == "N" and flag["why"]["values"]["other"] == "E"
    assert flag["choices"] == [[WILD_FOLLOW], [["S5", "S6", "S7", "C8", "H2"]]]
    assert [w["values"]["rank"] for w in flag["choice_words"]] == ["8", "9"]
    assert not d.events("play_accepted")[2:] and not d.state()["clocks"]["N"]["running"]
    d.send("commands", answer | {"flag": flag["flag"]})
    assert d.table.hand.turns[1].reading.rank == (9 if not stands else 8) and not d.table.hand.turns[1].could
    if stands:
        assert not d.state()["flags"] and d.state()["turn"] == "W" and d.table.hand.table.seat == "N"
    else:
        assert d.state()["flags"][0]["why"]["key"] == "guandan.does_not_beat" and d.table.hand.table.seat == "E"
    assert not d.violations() or all(v["kind"] != "play_reading" for v in d.violations())
    assert _rebuilt(d).state(d.at) == d.state()  # a restarted service: the same question, the same answer


def test_a_play_beating_every_reading_of_the_follow_is_not_asked_and_after_two_passes_the_third_seat_is():
    """N's 6789T beats 45678 and 56789 alike: no flag. After N and W pass, E's play is still on the table with its
    readings, and S, the third to play, is compared with it (七①): S's 56789 is asked about."""
    d = _followed()
    d.show("N", ["C6", "C7", "C8", "C9", "ST"])
    assert not d.state()["flags"] and d.state()["turn"] == "W"
    d = _followed()
    d.press("N", "pass")
    d.press("W", "pass")
    d.show("S", NEXT)
    (flag,) = d.state()["flags"]
    assert flag["kind"] == "play_reading" and flag["seat"] == "S" and flag["why"]["values"]["other"] == "E"
    rebuilt = _rebuilt(d)
    assert rebuilt.state(d.at) == d.state() and rebuilt.hand.table.could == d.table.hand.table.could
