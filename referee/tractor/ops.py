"""The Tractor ops of the judge (``shared/conformance/README.md``): cases in, answers out."""

from __future__ import annotations

from typing import Any

from referee.cards import Cards, Decks
from referee.judge import CaseError
from referee.rulebooks import load
from referee.tractor.follow import follow_ruling, lead_structure
from referee.tractor.hand import HandJudge
from referee.tractor.leads import failing_units, judge_lead
from referee.tractor.scoring import kitty_points, outcome
from referee.tractor.tricks import trick_winner
from referee.tractor.trumps import Trumps

SEATS = ("S", "E", "N", "W")


def _trumps(case: dict[str, Any]) -> Trumps:
    return Trumps.of(case["rulebook"], str(case["level"]), case.get("trump"))


def _cards(value: Any, what: str) -> Cards:
    if not isinstance(value, list):
        raise CaseError(f"{what} must be a list of cards")
    return Cards.parse(value)


def _decks(t: Trumps, *groups: Cards) -> None:
    Decks(t.rules.deal.decks).check(Cards.join(groups))


def _lead_of(t: Trumps, lead: Cards):
    ruling = judge_lead(t, lead)
    if not ruling.legal and len(t.suits_in(lead)) != 1:
        raise CaseError(f"lead {lead} mixes suits")
    return lead_structure(t, lead)


def follow(case: dict[str, Any]) -> str:
    t = _trumps(case)
    hand, lead, play = (_cards(case[k], k) for k in ("hand", "lead", "play"))
    before = [_cards(p, "before") for p in case.get("before", [])]
    _decks(t, hand, lead, *before)
    if not hand.contains(play):
        raise CaseError(f"play {play} is not part of the hand {hand}")
    if len(play) != len(lead):
        raise CaseError(f"play has {len(play)} cards, the lead {len(lead)}")
    structure = _lead_of(t, lead)
    return "legal" if follow_ruling(t, hand, lead, play, before, structure) is None else "illegal"


def lead(case: dict[str, Any]) -> dict[str, bool]:
    t = _trumps(case)
    cards = _cards(case["cards"], "cards")
    _decks(t, cards)
    declared = case.get("declared")
    parts = [_cards(p, "declared") for p in declared] if declared else None
    return {"legal": judge_lead(t, cards, parts).legal}


def throw(case: dict[str, Any]) -> dict[str, Any]:
    t = _trumps(case)
    cards = _cards(case["cards"], "cards")
    others = {seat: _cards(h, f"others.{seat}") for seat, h in case["others"].items()}
    if not set(others) <= set(SEATS):
        raise CaseError(f"unknown seat in others: {sorted(others)}")
    _decks(t, cards, *others.values())
    declared = case.get("declared")
    ruling = judge_lead(t, cards, [_cards(p, "declared") for p in declared] if declared else None)
    if not ruling.legal:
        raise CaseError(f"not a legal lead: {ruling.reason}")
    failing = failing_units(t, ruling.structure, others)
    if not failing:
        return {"valid": True}
    return {"valid": False, "forced": failing[0].cards.names()}


def winner(case: dict[str, Any]) -> int:
    t = _trumps(case)
    plays = [_cards(p, "plays") for p in case["plays"]]
    if not 2 <= len(plays) <= 4 or any(len(p) != len(plays[0]) for p in plays):
        raise CaseError("plays must be 2 to 4 plays of the lead's number of cards")
    _decks(t, *plays)
    return trick_winner(t, plays, _lead_of(t, plays[0]))


def score(case: dict[str, Any]) -> dict[str, Any]:
    points = case["defender_points"]
    if not isinstance(points, int) or isinstance(points, bool):
        raise CaseError("defender_points must be an integer")
    result = outcome(load(case["rulebook"]), points)
    return {"side": result.side, "levels": result.levels}


def kitty(case: dict[str, Any]) -> int:
    t = _trumps(case)
    value = case["kitty_points"]
    if not isinstance(value, int) or value < 0:
        raise CaseError("kitty_points must be a non-negative integer")
    plays = [_cards(p, "last_trick") for p in case["last_trick"]]
    _decks(t, *plays)
    if t.rules.kitty_capture.source != "kitty":
        return 0
    structure = _lead_of(t, plays[0])
    win = trick_winner(t, plays, structure)
    return kitty_points(t, value, plays[win], structure, bool(case["winner_is_defender"]))


def hand(case: dict[str, Any]) -> dict[str, Any]:
    t = _trumps(case)
    dealer = case["dealer"]
    judge = HandJudge.start(t, dealer)
    for trick in case["tricks"]:
        for seat, cards in trick:
            judge = judge.play(seat, _cards(cards, f"play of {seat}"))
    if case.get("kitty") is not None:
        judge = judge.show_kitty(_cards(case["kitty"], "kitty"))
    judge = judge.finish()

    def found(kind: str) -> list[list]:
        order = {(t.number, s): i for t in judge.tricks for i, (s, _) in enumerate(t.plays)}
        rulings = sorted((r for r in judge.rulings if r.kind == kind), key=lambda r: (r.trick, order[r.trick, r.seat]))
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
