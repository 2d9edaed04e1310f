"""The Tractor ops of the judge (``shared/conformance/README.md``): cases in, answers out.

Each op reads its fields with :mod:`referee.judge.fields` and refuses, in words, what no hand of
the rulebook can hold: more cards than it deals, more copies than its decks, plays of unequal
sizes, points that are not counted in fives or beyond what a hand can give.
"""

from __future__ import annotations

from typing import Any

from referee.cards import Cards, Decks
from referee.judge.fields import (
    CaseError, at_most, card_list, cards, flag, get, kind, plays, rank, rulebook, seat, seat_hands, seat_of, suit, whole,
)  # fmt: skip
from referee.tractor.follow import follow_ruling, lead_structure
from referee.tractor.hand import HandError, HandJudge
from referee.tractor.leads import failing_units, judge_lead
from referee.tractor.scoring import kitty_points, outcome, points_bound
from referee.tractor.tricks import trick_winner
from referee.tractor.trumps import Trumps
from referee.tractor.units import Unit


def _trumps(case: dict[str, Any]) -> Trumps:
    return Trumps(rulebook(case, "tractor"), rank(case, "level"), suit(case, "trump"))


def _decks(t: Trumps, *groups: Cards) -> None:
    Decks(t.rules.deal.decks).check(Cards.join(groups))


def _hand(t: Trumps, what: str, held: Cards) -> Cards:
    at_most(what, len(held), t.rules.deal.hand_size, t.rules.id)
    return held


def _lead_of(t: Trumps, lead: Cards) -> tuple[Unit, ...]:
    if len(t.suits_in(lead)) != 1:
        raise CaseError(f"lead {lead} mixes suits")
    return lead_structure(t, lead)


def _trick(plays_: list[Cards], least: int, what: str) -> None:
    if not least <= len(plays_) <= 4 or any(len(p) != len(plays_[0]) for p in plays_):
        sizes = ", ".join(str(len(p)) for p in plays_) or "none"
        many = "4 plays" if least == 4 else f"{least} to 4 plays"
        raise CaseError(f"{what} must be {many} of the lead's number of cards (plays of {sizes})")


def follow(case: dict[str, Any]) -> str:
    t = _trumps(case)
    hand = _hand(t, "hand", cards(case, "hand"))
    lead, play = cards(case, "lead"), cards(case, "play")
    before = plays(case, "before", [])
    _decks(t, hand, lead, *before)
    if not hand.contains(play):
        raise CaseError(f"play {play} is not part of the hand {hand}")
    if len(play) != len(lead):
        raise CaseError(f"play has {len(play)} cards, the lead {len(lead)}")
    _trick([lead, *before, play], 2, "lead, before and play")
    structure = _lead_of(t, _hand(t, "lead", lead))
    return "legal" if follow_ruling(t, hand, lead, play, before, structure) is None else "illegal"


def lead(case: dict[str, Any]) -> dict[str, bool]:
    t = _trumps(case)
    led = _hand(t, "cards", cards(case, "cards"))
    _decks(t, led)
    parts = plays(case, "declared", []) or None
    return {"legal": judge_lead(t, led, parts).legal}


def throw(case: dict[str, Any]) -> dict[str, Any]:
    t = _trumps(case)
    thrown = _hand(t, "cards", cards(case, "cards"))
    others = seat_hands(case, "others")
    if len(others) == 4:
        raise CaseError("field 'others' names all four seats, so one of them is the thrower's")
    for s, held in others.items():
        _hand(t, f"others.{s}", held)
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
    _trick(trick, 2, "plays")
    _decks(t, *trick)
    return trick_winner(t, trick, _lead_of(t, _hand(t, "the lead", trick[0])))


def score(case: dict[str, Any]) -> dict[str, Any]:
    rules = rulebook(case, "tractor")
    points = whole(case, "defender_points")
    if points % 5:
        raise CaseError(f"defender_points {points} is no count of points: cards count 5 and 10, penalties in fives")
    bound = points_bound(rules)
    if abs(points) > bound:
        raise CaseError(f"defender_points {points} is more than a hand of {rules.id} can give (at most ±{bound}: "
                        f"every point card, the kitty at its largest multiplier, the largest penalty on every card)")
    result = outcome(rules, points)
    return {"side": result.side, "levels": result.levels}


def kitty(case: dict[str, Any]) -> int:
    t = _trumps(case)
    value, size = whole(case, "kitty_points"), t.rules.deal.kitty
    if value < 0 or value % 5 or value > 10 * size:
        raise CaseError(f"kitty_points {value} cannot be the points of {size} kitty cards in {t.rules.id} "
                        f"(0 to {10 * size}, in fives: each card counts 0, 5 or 10)")
    last = plays(case, "last_trick")
    _trick(last, 4, "last_trick")
    _decks(t, *last)
    defender = flag(case, "winner_is_defender")
    if t.rules.kitty_capture.source != "kitty":
        return 0
    structure = _lead_of(t, _hand(t, "the lead", last[0]))
    win = trick_winner(t, last, structure)
    return kitty_points(t, value, last[win], structure, defender)


def hand(case: dict[str, Any]) -> dict[str, Any]:
    t = _trumps(case)
    judge = HandJudge.start(t, seat(case, "dealer"))
    tricks = get(case, "tricks")
    if not isinstance(tricks, list):
        raise CaseError(f"field 'tricks' must be a list of tricks, not {kind(tricks)}")
    for n, trick in enumerate(tricks, 1):
        if not isinstance(trick, list):
            raise CaseError(f"trick {n} must be a list of [seat, cards] plays, not {kind(trick)}")
        for play in trick:
            if not (isinstance(play, list) and len(play) == 2):
                raise CaseError(f"trick {n}: each play is [seat, cards], not {kind(play)} {str(play)[:60]}")
            who = seat_of(play[0], f"trick {n}: the first item of a play")
            judge = judge.play(who, card_list(play[1], f"trick {n}: the play of {who}"))
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
