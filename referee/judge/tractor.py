"""The Tractor ops of the judge (``shared/conformance/README.md``): cases in, answers out.

Each op reads its fields with :mod:`referee.judge.fields` and refuses, in words, what no hand of
the rulebook can hold: more cards than it deals, more copies than its decks, plays of unequal
sizes, points that are not counted in fives or beyond what a hand can give.
"""

from __future__ import annotations

import json
from typing import Any

from referee.cards import Cards, Decks
from referee.judge.fields import (
    CaseError, at_most, card_list, cards, field, flag, get, kind, plays, rank, rulebook, seat, seat_hands, seat_of, suit, whole,
)  # fmt: skip
from referee.reasons import Reason
from referee.tractor.follow import follow_ruling, lead_structure
from referee.tractor.hand import HandError, HandJudge
from referee.tractor.leads import failing_units, judge_lead
from referee.tractor.scoring import kitty_points, outcome, points_bound
from referee.tractor.tricks import trick_winner
from referee.tractor.trumps import Trumps
from referee.tractor.units import Unit


def _trumps(case: dict[str, Any]) -> Trumps:
    rules, level = rulebook(case, "tractor"), rank(case, "level")
    if level in rules.deal.permanent_ranks:  # 003 不留底牌打法 2: “2”作常主 (no side plays it: game.level_ranks)
        raise CaseError("judge.level_permanent", level=level, rulebook=rules.id)
    return Trumps(rules, level, suit(case, "trump", rules.id))


def _decks(t: Trumps, *groups: Cards) -> None:
    Decks(t.rules.deal.decks).check(Cards.join(groups))


def _hand(t: Trumps, what: Reason, held: Cards) -> Cards:
    at_most(what, len(held), t.rules.deal.hand_size, t.rules.id)
    return held


def _lead_of(t: Trumps, lead: Cards) -> tuple[Unit, ...]:
    if len(t.suits_in(lead)) != 1:
        raise CaseError("judge.lead_mixes_suits", lead_cards=lead)
    return lead_structure(t, lead)


def _trick(plays_: list[Cards], least: int, what: Reason) -> None:
    if not least <= len(plays_) <= 4 or any(len(p) != len(plays_[0]) for p in plays_):
        raise CaseError("judge.four_plays" if least == 4 else "judge.plays", what=what,
                        sizes=tuple(len(p) for p in plays_) or 0)


def follow(case: dict[str, Any]) -> str:
    t = _trumps(case)
    hand = _hand(t, field("hand"), cards(case, "hand"))
    lead, play = cards(case, "lead"), cards(case, "play")
    before = plays(case, "before", [])
    _decks(t, hand, lead, *before)
    if not hand.contains(play):
        raise CaseError("judge.play_not_in_hand", play_cards=play, hand_cards=hand)
    if len(play) != len(lead):
        raise CaseError("judge.play_size", n=len(play), lead=len(lead))
    _trick([lead, *before, play], 2, Reason("judge.fields", fields=("lead", "before", "play")))
    structure = _lead_of(t, _hand(t, field("lead"), lead))
    return "legal" if follow_ruling(t, hand, lead, play, before, structure) is None else "illegal"


def lead(case: dict[str, Any]) -> dict[str, bool]:
    t = _trumps(case)
    led = _hand(t, field("cards"), cards(case, "cards"))
    _decks(t, led)
    parts = plays(case, "declared", []) or None
    return {"legal": judge_lead(t, led, parts).legal}


def throw(case: dict[str, Any]) -> dict[str, Any]:
    t = _trumps(case)
    thrown = _hand(t, field("cards"), cards(case, "cards"))
    others = seat_hands(case, "others")
    if len(others) == 4:
        raise CaseError("judge.four_others")
    for s, held in others.items():
        _hand(t, Reason("judge.field_seat", field="others", seat=s), held)
    _decks(t, thrown, *others.values())
    ruling = judge_lead(t, thrown, plays(case, "declared", []) or None)
    if not ruling.legal:
        raise HandError("tractor.illegal_lead", why=ruling.reason)
    failing = failing_units(t, ruling.structure, others)
    if not failing:
        return {"valid": True}
    return {"valid": False, "forced": failing[0].cards.names()}


def winner(case: dict[str, Any]) -> int:
    t = _trumps(case)
    trick = plays(case, "plays")
    _trick(trick, 2, field("plays"))
    _decks(t, *trick)
    return trick_winner(t, trick, _lead_of(t, _hand(t, Reason("judge.the_lead"), trick[0])))


def score(case: dict[str, Any]) -> dict[str, Any]:
    rules = rulebook(case, "tractor")
    points = whole(case, "defender_points")
    if points % 5:
        raise CaseError("judge.not_fives", points=points)
    bound = points_bound(rules)
    if abs(points) > bound:
        raise CaseError("judge.points_bound", points=points, rulebook=rules.id, bound=bound)
    result = outcome(rules, points)
    return {"side": result.side, "levels": result.levels}


def kitty(case: dict[str, Any]) -> int:
    t = _trumps(case)
    value, size = whole(case, "kitty_points"), t.rules.deal.kitty
    if value < 0 or value % 5 or value > 10 * size:
        raise CaseError("judge.kitty_points", points=value, size=size, rulebook=t.rules.id, most=10 * size)
    last = plays(case, "last_trick")
    _trick(last, 4, field("last_trick"))
    _decks(t, *last)
    defender = flag(case, "winner_is_defender")
    if t.rules.kitty_capture.source != "kitty":
        return 0
    structure = _lead_of(t, _hand(t, Reason("judge.the_lead"), last[0]))
    win = trick_winner(t, last, structure)
    return kitty_points(t, value, last[win], structure, defender)


def hand(case: dict[str, Any]) -> dict[str, Any]:
    t = _trumps(case)
    judge = HandJudge.start(t, seat(case, "dealer"))
    tricks = get(case, "tricks")
    if not isinstance(tricks, list):
        raise CaseError("judge.wrong_type", what=field("tricks"), wanted=Reason("judge.a_trick_list"), found=kind(tricks))
    for n, trick in enumerate(tricks, 1):
        if not isinstance(trick, list):
            raise CaseError("judge.wrong_type", what=Reason("judge.trick", n=n), wanted=Reason("judge.a_trick"), found=kind(trick))
        if not trick:  # skipped, it would number every later trick one too low in the answer
            raise CaseError("judge.no_card", what=Reason("judge.trick", n=n))
        for play in trick:
            if not (isinstance(play, list) and len(play) == 2):
                raise CaseError("judge.not_play", n=n, found=kind(play), value=json.dumps(play)[:60])
            who = seat_of(play[0], Reason("judge.trick_seat", n=n))
            judge = judge.play(who, card_list(play[1], Reason("judge.trick_play", n=n, seat=who)))
    shown = get(case, "kitty", None)
    if shown is not None:
        judge = judge.show_kitty(cards(case, "kitty", empty=True))
    judge = judge.finish()

    def found(kind_: str) -> list[list]:
        order = {(tr.number, s): i for tr in judge.tricks for i, (s, _) in enumerate(tr.plays)}
        rulings = sorted((r for r in judge.rulings if r.kind == kind_), key=lambda r: (r.trick, order[r.trick, r.seat]))
        return [[r.seat, r.trick] for r in rulings]

    return {"revokes": found("revoke"), "failed_throws": found("failed_throw"), "defender_points": judge.defender_points()}


OPS = {
    "follow": follow,
    "lead": lead,
    "throw": throw,
    "winner": winner,
    "score": score,
    "kitty": kitty,
    "hand": hand,
}
