"""The Guandan and San Da Yi ops of the judge (``shared/conformance/README.md``)."""

from __future__ import annotations

from typing import Any

from referee.cards import Card, Cards, Decks
from referee.climbing.combos import beats as beats_reading
from referee.climbing.combos import readings, types
from referee.judge import CaseError
from referee.rulebooks import ClimbingRulebook, load


def _rules(case: dict[str, Any], game: str) -> ClimbingRulebook:
    rules = load(case["rulebook"])
    if not isinstance(rules, ClimbingRulebook) or rules.game != game:
        raise CaseError(f"rulebook {case['rulebook']} is not a {game} rulebook")
    return rules


def _level(case: dict[str, Any], rules: ClimbingRulebook) -> str | None:
    if rules.ranks.wildcard == "none" and not rules.ranks.level_above_ace:
        return None
    level = case.get("level")
    if level is None:
        raise CaseError(f"{rules.id} needs the level")
    return "T" if str(level) == "10" else str(level).upper()


def _cards(rules: ClimbingRulebook, *values: Any) -> list[Cards]:
    groups = []
    for value in values:
        if not isinstance(value, list) or not value:
            raise CaseError("cards must be a non-empty list of cards")
        groups.append(Cards.parse(value))
    Decks(rules.deal["decks"]).check(Cards.join(groups))
    return groups


def _classify(game: str):
    def classify(case: dict[str, Any]) -> dict[str, list[str]]:
        rules = _rules(case, game)
        (cards,) = _cards(rules, case["cards"])
        return {"types": types(rules, cards, _level(case, rules))}

    return classify


def _beats(game: str):
    def beats(case: dict[str, Any]) -> bool:
        rules = _rules(case, game)
        level = _level(case, rules)
        prev, play = _cards(rules, case["prev"], case["play"])
        on_table = readings(rules, prev, level)
        if not on_table:
            raise CaseError(f"prev {prev} is not a play")
        return any(beats_reading(rules, r, on_table[0]) for r in readings(rules, play, level))

    return beats


def tribute(case: dict[str, Any]) -> bool:
    from referee.guandan.tribute import is_legal_tribute

    rules = _rules(case, "guandan")
    (hand,) = _cards(rules, case["hand"])
    card = Card.parse(case["card"])
    if not hand.count(card):
        raise CaseError(f"{card} is not in the hand {hand}")
    return is_legal_tribute(rules, _level(case, rules), hand, card)


def return_card(case: dict[str, Any]) -> bool:
    from referee.guandan.tribute import is_legal_return

    rules = _rules(case, "guandan")
    return is_legal_return(rules, _level(case, rules), Card.parse(case["card"]))


def result(case: dict[str, Any]) -> int:
    from referee.guandan.levels import levels_won

    place = case["partner_place"]
    if isinstance(place, bool) or not isinstance(place, int):
        raise CaseError("partner_place must be 2, 3 or 4")
    return levels_won(_rules(case, "guandan"), place)


def bomb_allowed(case: dict[str, Any]) -> bool:
    from referee.sandayi.bombs import bomb_allowed as allowed

    played = case["bombs_played"]
    if isinstance(played, bool) or not isinstance(played, int):
        raise CaseError("bombs_played must be a whole number")
    return allowed(_rules(case, "sandayi"), case["bid"], played)


GUANDAN = {
    "classify": _classify("guandan"),
    "beats": _beats("guandan"),
    "tribute": tribute,
    "return": return_card,
    "result": result,
}
SANDAYI = {"classify": _classify("sandayi"), "beats": _beats("sandayi"), "bomb_allowed": bomb_allowed}
