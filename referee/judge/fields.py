"""Reading the fields of a judge case (``shared/conformance/README.md``), with errors in words.

Every reader names the field it wanted and what it found instead, so that a malformed case is
answered ``{"id": ..., "error": "field 'lead' is missing"}`` and never with a Python exception.

>>> case = {"lead": ["S9", "s9"], "others": [], "level": 10}
>>> cards(case, "lead"), rank(case, "level")
(Cards('S9 S9'), 'T')
>>> cards(case, "play")
Traceback (most recent call last):
...
referee.judge.fields.CaseError: field 'play' is missing
>>> seat_hands(case, "others")
Traceback (most recent call last):
...
referee.judge.fields.CaseError: field 'others' must be an object of seat to cards, not a list
"""

from __future__ import annotations

from typing import Any, Callable

from referee.cards import Cards, parse_rank, parse_suit
from referee.rulebooks import ClimbingRulebook, TractorRulebook, load
from referee.seats import SEATS

MISSING = object()


class CaseError(ValueError):
    """A malformed case: a missing field, a field of the wrong type, an impossible input."""


def kind(value: Any) -> str:
    """The JSON type of a value, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return {dict: "an object", list: "a list", str: "a string", int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def get(case: dict[str, Any], name: str, default: Any = MISSING) -> Any:
    if name not in case:
        if default is MISSING:
            raise CaseError(f"field '{name}' is missing")
        return default
    return case[name]


def _typed(case: dict[str, Any], name: str, fits: Callable[[Any], bool], words: str) -> Any:
    value = get(case, name)
    if not fits(value):
        raise CaseError(f"field '{name}' must be {words}, not {kind(value)}")
    return value


def text(case: dict[str, Any], name: str) -> str:
    return _typed(case, name, lambda v: isinstance(v, str), "a string")


def whole(case: dict[str, Any], name: str) -> int:
    return _typed(case, name, lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number")


def flag(case: dict[str, Any], name: str) -> bool:
    return _typed(case, name, lambda v: isinstance(v, bool), "true or false")


def rank(case: dict[str, Any], name: str) -> str:
    value = get(case, name)
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise CaseError(f"field '{name}' must be a rank (2..10, J, Q, K, A), not {kind(value)}")
    return parse_rank(value, level=True)


def suit(case: dict[str, Any], name: str) -> str | None:
    """An optional suit letter (null or absent: none); ``s``, ``S`` and ``♠`` alike."""
    value = get(case, name, None)
    if value is None:
        return None
    if not isinstance(value, str):
        raise CaseError(f"field '{name}' must be a suit (S, H, D, C) or null, not {kind(value)}")
    return parse_suit(value, trump=True)


def card_list(value: Any, what: str, empty: bool = False) -> Cards:
    """A JSON list of card names, ``what`` naming it in errors."""
    if not isinstance(value, list):
        raise CaseError(f"{what} must be a list of cards, not {kind(value)}")
    if not value and not empty:
        raise CaseError(f"{what} must hold at least one card")
    if any(not isinstance(c, (str, int)) or isinstance(c, bool) for c in value):
        bad = next(c for c in value if not isinstance(c, (str, int)) or isinstance(c, bool))
        raise CaseError(f"{what} must be a list of card names, and holds {kind(bad)}")
    return Cards.parse([str(c) for c in value])


def cards(case: dict[str, Any], name: str, empty: bool = False) -> Cards:
    """A list of card names (lowercase, ``10`` and the suit symbols too); not empty unless ``empty``."""
    return card_list(get(case, name), f"field '{name}'", empty)


def plays(case: dict[str, Any], name: str, default: Any = MISSING) -> list[Cards]:
    """A list of plays, each a non-empty list of cards."""
    value = get(case, name, default)
    if not isinstance(value, list):
        raise CaseError(f"field '{name}' must be a list of plays (lists of cards), not {kind(value)}")
    return [card_list(p, f"field '{name}' play {i + 1}") for i, p in enumerate(value)]


def seat_of(value: Any, what: str) -> str:
    """A seat letter, ``s`` and ``S`` alike (as cards are read)."""
    found = value.strip().upper() if isinstance(value, str) else None
    if found not in SEATS:
        raise CaseError(f"{what} must be a seat ({' '.join(SEATS)}), not {str(value)[:20]!r}")
    return found


def seat_hands(case: dict[str, Any], name: str) -> dict[str, Cards]:
    value = get(case, name)
    if not isinstance(value, dict):
        raise CaseError(f"field '{name}' must be an object of seat to cards, not {kind(value)}")
    out = {seat_of(s, f"a key of field '{name}'"): card_list(h, f"field '{name}' seat {s}", True) for s, h in value.items()}
    if len(out) != len(value):
        raise CaseError(f"field '{name}' names a seat twice")
    return out


def seat(case: dict[str, Any], name: str) -> str:
    return seat_of(get(case, name), f"field '{name}'")


def rulebook(case: dict[str, Any], game: str) -> TractorRulebook | ClimbingRulebook:
    """The case's rulebook, which must be one of ``game``."""
    rules = load(text(case, "rulebook"))
    if rules.game != game:
        raise CaseError(f"rulebook {rules.id} is a {rules.game} rulebook, not a {game} one")
    return rules


def at_most(what: str, n: int, most: int, book: str) -> None:
    """Refuse ``n`` cards where ``book`` deals at most ``most``."""
    if n > most:
        raise CaseError(f"{what} has {n} cards, but a hand in {book} holds at most {most}")
