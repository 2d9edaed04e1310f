"""The Guandan rules are rulebook data: each setting of sanjiang-2012 cites its article, and changing
a setting changes the referee (a copy of the rulebook with one setting changed)."""

import tomllib
from dataclasses import replace

import pytest

from referee.cards import Card, Cards
from referee.guandan.hand import Hand
from referee.guandan.tribute import payers
from referee.rulebooks import HERE, RulebookError, build, load

GD = load("sanjiang-2012")


def changed(section, **values):
    return replace(GD, **{section: replace(getattr(GD, section), **values)})


def eight(rank):
    return Cards.parse(" ".join(s + rank for s in "SHDC" * 2))


def s_plays_out(h):
    for cards in (eight("3"), eight("4"), eight("5")):
        h = h.play("S", cards).pass_("E").pass_("N").pass_("W")
    return h.play("S", Cards.parse("S6 D6 C6"))


def test_sanjiang_settings():
    """三: 对门借风出牌; 七②: 提前结束; 九 3: 10张以下; 四: 还牌必须小于10, 两个大王; 三: 升3级/2级/1级。"""
    assert (GD.play.take_the_lead, GD.play.early_end, GD.announce.cards) == ("partner", True, 10)
    assert (GD.tribute.return_below, GD.tribute.refuse_with, GD.tribute.refuse_count) == ("T", Card.parse("BJ"), 2)
    assert dict(GD.levels.places) == {2: 3, 3: 2, 4: 1}
    assert GD.levels.pass_partner_places == (2, 3)


def test_take_the_lead_setting():
    """三: 如上游出完最后一手牌后，无人压牌，则由对门借风出牌 -- with `next` the next seat would lead."""
    assert s_plays_out(Hand.start(GD, "2", "S")).pass_("E").pass_("N").pass_("W").turn == "N"
    other = changed("play", take_the_lead="next")
    assert s_plays_out(Hand.start(other, "2", "S")).pass_("E").pass_("N").pass_("W").turn == "E"


def test_early_end_setting():
    """七②: 如果对家两人争得上游或二游则提前结束 -- without it, play goes on to the third place."""
    def s_and_n_out(rules):
        h = s_plays_out(Hand.start(rules, "2", "S")).pass_("E").pass_("N").pass_("W")
        for cards in (eight("7"), eight("8"), eight("9")):
            h = h.play("N", cards).pass_("W").pass_("E")
        return h.play("N", Cards.parse("ST DT CT"))

    assert s_and_n_out(GD).over
    h = s_and_n_out(changed("play", early_end=False))
    assert not h.over and h.finish == ("S", "N") and h.turn == "W"
    h = h.pass_("W").pass_("E")
    assert h.turn == "W"  # N's partner S has played out: the next seat holding cards leads


def test_announce_setting():
    """九 3: 手中牌10张以下(包括10张牌)，第一次必须主动报数 -- a book saying 12 shows the count earlier."""
    h = Hand.start(changed("announce", cards=12), "2", "S").play("S", eight("3")).pass_("E").pass_("N").pass_("W")
    h = h.play("S", eight("4"))
    assert [(a.seat, a.cards) for a in h.announced] == [("S", 11)]


def test_double_down_setting():
    """四: 双下时，二人都应向上游方分别进贡 -- a book where only the last pays."""
    assert payers(GD, ("S", "N", "E", "W")) == ("E", "W")
    assert payers(changed("tribute", double_down="last"), ("S", "N", "E", "W")) == ("W",)


def test_unknown_setting_value_is_refused_when_the_book_loads():
    """三: 由对门借风出牌 -- an unknown value is refused when the file loads, naming the file, the setting,
    the value and what is allowed; never during play."""
    raw = tomllib.loads((HERE / "sanjiang-2012.toml").read_text(encoding="utf-8"))
    raw["play"]["take_the_lead"] = "dealer"
    with pytest.raises(RulebookError) as refused:
        build(raw, "sanjiang-2012.toml")
    assert str(refused.value) == 'sanjiang-2012.toml: [play] take_the_lead = "dealer": allowed "partner" or "next"'
