"""The Guandan and San Da Yi ops of the judge (``shared/conformance/README.md``).

Fields are read with :mod:`referee.judge.fields`; a play of more cards than the largest hand of
the rulebook (its deal and kitty) is refused, as are more copies than its decks hold.
"""

from __future__ import annotations

from typing import Any

from referee.cards import Card, Cards, Decks
from referee.climbing.combos import beats as beats_reading
from referee.climbing.combos import readings, types
from referee.guandan.levels import levels_won
from referee.guandan.tribute import is_legal_return, is_legal_tribute
from referee.judge.fields import CaseError, at_most, cards, field, get, kind, rank, rulebook, text, whole
from referee.reasons import Reason
from referee.rulebooks import ClimbingRulebook
from referee.sandayi.bombs import bomb_allowed as allowed


def _level(case: dict[str, Any], rules: ClimbingRulebook) -> str | None:
    if rules.ranks.wildcard == "none" and not rules.ranks.level_above_ace:
        return None
    if case.get("level") is None:
        raise CaseError("judge.needs_level", rulebook=rules.id)
    return rank(case, "level")


def _plays(rules: ClimbingRulebook, case: dict[str, Any], *names: str) -> list[Cards]:
    groups = [cards(case, name) for name in names]
    most = rules.deal.hand_size + rules.deal.kitty
    for name, group in zip(names, groups):
        at_most(field(name), len(group), most, rules.id)
    Decks(rules.deal.decks).check(Cards.join(groups))
    return groups


def _card(case: dict[str, Any], name: str) -> Card:
    return Card.parse(text(case, name))


def _classify(game: str):
    def classify(case: dict[str, Any]) -> dict[str, list[str]]:
        rules = rulebook(case, game)
        (played,) = _plays(rules, case, "cards")
        return {"types": types(rules, played, _level(case, rules))}

    return classify


def _beats(game: str):
    def beats(case: dict[str, Any]) -> bool:
        rules = rulebook(case, game)
        level = _level(case, rules)
        prev, play = _plays(rules, case, "prev", "play")
        on_table = readings(rules, prev, level)
        if not on_table:
            raise CaseError("judge.prev_not_play", prev_cards=prev)
        return any(beats_reading(rules, r, on_table[0]) for r in readings(rules, play, level))

    return beats


def tribute(case: dict[str, Any]) -> bool:
    rules = rulebook(case, "guandan")
    (held,) = _plays(rules, case, "hand")
    at_most(field("hand"), len(held), rules.deal.hand_size, rules.id)
    card = _card(case, "card")
    if not held.count(card):
        raise CaseError("judge.card_not_in_hand", card=card, hand_cards=held)
    return is_legal_tribute(rules, _level(case, rules), held, card)


def return_card(case: dict[str, Any]) -> bool:
    rules = rulebook(case, "guandan")
    return is_legal_return(rules, _level(case, rules), _card(case, "card"))


def result(case: dict[str, Any]) -> int:
    return levels_won(rulebook(case, "guandan"), whole(case, "partner_place"))


def bomb_allowed(case: dict[str, Any]) -> bool:
    rules = rulebook(case, "sandayi")
    bid = get(case, "bid")
    if isinstance(bid, bool) or not isinstance(bid, (int, str)):
        raise CaseError("judge.wrong_type", what=field("bid"), wanted=Reason("judge.a_bid"), found=kind(bid))
    played = whole(case, "bombs_played")
    if played < 0:
        raise CaseError("judge.negative", what=field("bombs_played"), value=played)
    return allowed(rules, bid, played)


GUANDAN = {
    "classify": _classify("guandan"),
    "beats": _beats("guandan"),
    "tribute": tribute,
    "return": return_card,
    "result": result,
}
SANDAYI = {"classify": _classify("sandayi"), "beats": _beats("sandayi"), "bomb_allowed": bomb_allowed}
