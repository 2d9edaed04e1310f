"""二 (seed 002): 红心x可作为万能牌配用…x4567，相当于34567（或45678须出牌时说明）: the book's ``[combos] wild_reading``
and the hand's side of it (the table's: tests/table/test_guandan_wild_reading.py)."""

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
        h.lead_read_as(Reading("straight", 8, 5)).play("E", FOLLOW)
    assert refused.value.reason.key == "guandan.does_not_beat"
    followed = h.lead_read_as(None).play("E", FOLLOW)  # none said: the lowest stands
    assert followed.turns[0].reading == Reading("straight", 7, 5) and followed.table.seat == "E"
    with pytest.raises(HandError) as refused:
        followed.lead_read_as(None)  # the follow is on the table: no lead waits for its reading
    assert refused.value.reason.key == "guandan.no_reading_asked"


def test_nothing_is_kept_where_nothing_can_have_been_said():
    """A declared lead, a lead without the wildcard, a book that reads the lowest: the lead reads one way."""
    lowest = dataclasses.replace(GD, combos=dataclasses.replace(GD.combos, wild_reading="lowest"))
    assert _led(declared=("straight", 8)).table.could == ()
    assert _led(cards=Cards.parse("S3 S4 S5 S6 C7")).table.could == ()
    assert _led(rules=lowest).table.could == () and _led(rules=lowest).depends("E", FOLLOW) == ()
