"""二 (seed 002): 红心x可作为万能牌配用…x4567，相当于34567（或45678须出牌时说明）: the book's ``[combos] wild_reading``
and the hand's side of it, for a lead and for a follow (七①: 后一家打出的牌必须比前一家打出的牌大; the table's:
tests/table/test_guandan_wild_reading.py)."""

import dataclasses

import pytest

from referee.cards import Cards
from referee.climbing.combos import Reading
from referee.guandan.hand import Hand, HandError
from referee.rulebooks import HERE, RulebookError, build, load, settings_of

GD = load("sanjiang-2012")
LEAD, FOLLOW = Cards.parse("H9 S4 S5 S6 C7"), Cards.parse("D4 D5 D6 D7 C8")  # level 9: H9 the wildcard


def _led(rules=GD, cards=LEAD, declared=None):
    return Hand.start(rules, "9", leader="S").play("S", cards, declared)


def test_the_books_setting_cites_its_article():
    """002 二 须出牌时说明: asked; 004 (usst-2016) has no wildcard, so its leads read one way: lowest (the default)."""
    assert GD.combos.wild_reading == "asked" and load("sanjiang-2012-stage-two").combos.wild_reading == "asked"
    assert load("usst-2016").combos.wild_reading == "lowest" and load("usst-2016").ranks.wildcard == "none"
    book = (HERE / "sanjiang-2012.toml").read_text(encoding="utf-8")
    assert 'wild_reading = "asked"          # 二: 如x555，相当于5555； x4567，相当于34567（或45678须出牌时说明）' in book


@pytest.mark.parametrize("book, value, words", [
    ("sanjiang-2012", "ask", '[combos] wild_reading = "ask": allowed "asked" or "lowest"'),
    ("usst-2016", "asked", 'combos.wild_reading = "asked": allowed "lowest" with [ranks] wildcard = "none" (no lead then reads two ways)'),
])
def test_a_wrong_value_is_refused_when_the_book_loads(book, value, words):
    raw = settings_of(book)
    raw["combos"]["wild_reading"] = value
    with pytest.raises(RulebookError) as refused:
        build(raw, f"{book}.toml")
    assert str(refused.value) == f"{book}.toml: {words}"


def test_a_wildcard_lead_keeps_the_readings_its_leader_could_have_said():
    h = _led()
    assert h.table.reading == Reading("straight", 7, 5) and h.table.could == (Reading("straight", 7, 5), Reading("straight", 8, 5))
    assert h.depends("E", FOLLOW) == h.table.could
    assert h.depends("E", Cards.parse("D5 D6 D7 D8 CT")) == ()  # no play: judged alike (refused) under both
    assert h.depends("E", Cards.parse("D5 D6 D7 D8 C9")) == ()  # beats both


def test_the_answer_reads_the_lead_and_the_follow_is_judged_against_it():
    h = _led()
    with pytest.raises(HandError) as refused:
        h.read_as(Reading("straight", 8, 5)).play("E", FOLLOW)
    assert refused.value.reason.key == "guandan.does_not_beat"
    followed = h.read_as(None).play("E", FOLLOW)  # none said: the lowest stands
    assert followed.turns[0].reading == Reading("straight", 7, 5) and followed.table.seat == "E"
    with pytest.raises(HandError) as refused:
        followed.read_as(None)  # the follow (no wildcard) is on the table: no reading waits
    assert refused.value.reason.key == "guandan.no_reading_asked"


def test_nothing_is_kept_where_nothing_can_have_been_said():
    """A declared lead, a lead without the wildcard, a book that reads the lowest: the lead reads one way."""
    lowest = dataclasses.replace(GD, combos=dataclasses.replace(GD.combos, wild_reading="lowest"))
    assert _led(declared=("straight", 8)).table.could == ()
    assert _led(cards=Cards.parse("S3 S4 S5 S6 C7")).table.could == ()
    assert _led(rules=lowest).table.could == () and _led(rules=lowest).depends("E", FOLLOW) == ()


PLAIN = Cards.parse("S3 S4 S5 S6 C7")  # 34567, no wildcard: one reading
WILD_FOLLOW = Cards.parse("H9 D5 D6 D7 C8")  # x5678: beats 34567 as 45678 or as 56789
NEXT = Cards.parse("C5 C6 C7 C8 S9")  # 56789: beats 45678, not 56789


def _followed(counts=None):
    h = Hand.start(GD, "9", leader="S")
    h = dataclasses.replace(h, counts=counts) if counts else h
    return h.play("S", PLAIN).play("E", WILD_FOLLOW)


def test_a_wildcard_follow_keeps_the_readings_that_beat_the_play_before_it():
    """七①: 后一家打出的牌必须比前一家打出的牌大; 二: 须出牌时说明. E's x5678 on 34567 may have been said 45678 or
    56789 (both beat): it stands as 45678 and keeps both; N's 56789 is judged otherwise under each, so it depends; a
    6789T beats both and does not. Recorded 45678, N's 56789 would have been taken as beating a play E may have said
    was 56789."""
    h = _followed()
    assert h.table.seat == "E" and h.table.reading == Reading("straight", 8, 5)
    assert h.table.could == (Reading("straight", 8, 5), Reading("straight", 9, 5))
    assert h.depends("N", NEXT) == h.table.could
    assert h.depends("N", Cards.parse("C6 C7 C8 C9 ST")) == ()
    with pytest.raises(HandError) as refused:
        h.read_as(Reading("straight", 9, 5)).play("N", NEXT)
    assert refused.value.reason.key == "guandan.does_not_beat"
    assert h.read_as(None).play("N", NEXT).table.seat == "N"
    unasked = h.play("N", NEXT)  # played on without the question (a bot's mirror): none said, the lowest stands
    assert unasked.table.seat == "N" and unasked.turns[1].reading == Reading("straight", 8, 5) and not unasked.turns[1].could


def test_a_follow_keeps_only_the_readings_that_beat_and_after_passes_the_third_seat_is_asked():
    """x4567 on 34567 beats only as 45678: one reading stands, nothing kept. After two passes the play on the table,
    E's, still keeps its readings: S, the third to play, is compared with it (七①) and depends on it."""
    assert Hand.start(GD, "9", leader="S").play("S", PLAIN).play("E", LEAD).table.could == ()
    h = _followed().pass_("N").pass_("W")
    assert h.turn == "S" and h.depends("S", NEXT) == (Reading("straight", 8, 5), Reading("straight", 9, 5))


def test_a_hand_replayed_from_its_turns_keeps_what_was_asked_and_what_was_answered():
    """九 3 (a play that emptied a hand taken back) replays the turns: a follow's readings not yet asked are found
    again, an answer stays as stated."""
    for answer in (None, Reading("straight", 9, 5)):
        h = _followed(counts=(27, 27, 27, 5))
        h = h if answer is None else h.read_as(answer)
        before = h.pass_("N")
        out = before.play("W", Cards.parse("C7 C8 C9 CT SJ"))  # 789TJ beats both readings: W plays out
        back = out.taken_back("W")
        assert back.turns == before.turns and back.table == before.table and back.turn == "W"
        assert back.table.could == (() if answer else (Reading("straight", 8, 5), Reading("straight", 9, 5)))


def test_the_briefs_case_x4567_on_23456_is_34567_or_45678_and_45678_after_it_is_asked():
    """二 x4567，相当于34567（或45678须出牌时说明）, as a follow (七①): on 23456, H9 S4 S5 S6 C7 beats as 34567 and as
    45678; recorded 34567 alone, N's 45678 was accepted though E may have said 45678, which it does not beat."""
    h = Hand.start(GD, "9", leader="S").play("S", Cards.parse("S2 D3 D4 D5 D6")).play("E", LEAD)
    assert h.table.could == (Reading("straight", 7, 5), Reading("straight", 8, 5)) == h.depends("N", FOLLOW)
