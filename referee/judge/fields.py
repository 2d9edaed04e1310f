"""Reading the fields of a judge case (``shared/conformance/README.md``), with errors in words.

Every reader names the field it wanted and what it found instead, so that a malformed case is
answered ``{"id": ..., "error": "field 'lead' is missing"}`` and never with a Python exception. A
:class:`CaseError` is a reason (``referee.reasons``, the catalogue's ``reason.judge.*``), said in
either language; what it names (a field, a play of it) is a reason too.

>>> from referee.catalogue.sentences import told
>>> case = {"lead": ["S9", "s9"], "others": [], "level": 10}
>>> cards(case, "lead"), rank(case, "level")
(Cards('S9 S9'), 'T')
>>> cards(case, "play")
Traceback (most recent call last):
...
referee.judge.fields.CaseError: judge.missing (field='play')
>>> try:
...     seat_hands(case, "others")
... except CaseError as exc:
...     told(exc), told(exc, "zh")
("field 'others' must be an object of seat to cards, not a list", '字段 `others`应为座位到牌的对象，而不是列表')
"""

from __future__ import annotations

from typing import Any, Callable

from referee.cards import Cards, parse_rank, parse_suit
from referee.reasons import Reason, Refused, cut
from referee.rulebooks import ClimbingRulebook, TractorRulebook, load, names
from referee.seats import SEATS

MISSING = object()


class CaseError(Refused):
    """A malformed case: a missing field, a field of the wrong type, an impossible input."""


# The JSON type of a value, in words (a reason: said in either language).
KINDS = {type(None): Reason("judge.a_null"), bool: Reason("judge.a_boolean"), dict: Reason("judge.an_object"),
         list: Reason("judge.a_list"), str: Reason("judge.a_string"), int: Reason("judge.a_number"),
         float: Reason("judge.a_decimal")}


def kind(value: Any) -> Reason:
    """The JSON type of a value, in words."""
    return KINDS.get(type(value), Reason("judge.a_value"))


def field(name: str) -> Reason:
    """A field of the case, as errors name it."""
    return Reason("judge.field", field=name)


def get(case: dict[str, Any], name: str, default: Any = MISSING) -> Any:
    if name not in case:
        if default is MISSING:
            raise CaseError("judge.missing", field=name)
        return default
    return case[name]


def _typed(case: dict[str, Any], name: str, fits: Callable[[Any], bool], wanted: Reason) -> Any:
    value = get(case, name)
    if not fits(value):
        raise CaseError("judge.wrong_type", what=field(name), wanted=wanted, found=kind(value))
    return value


def text(case: dict[str, Any], name: str) -> str:
    return _typed(case, name, lambda v: isinstance(v, str), Reason("judge.a_string"))


def whole(case: dict[str, Any], name: str) -> int:
    return _typed(case, name, lambda v: isinstance(v, int) and not isinstance(v, bool), Reason("judge.a_whole_number"))


def flag(case: dict[str, Any], name: str) -> bool:
    return _typed(case, name, lambda v: isinstance(v, bool), Reason("judge.a_boolean"))


def rank(case: dict[str, Any], name: str) -> str:
    value = get(case, name)
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise CaseError("judge.wrong_type", what=field(name), wanted=Reason("judge.a_rank"), found=kind(value))
    return parse_rank(value, level=True)


def suit(case: dict[str, Any], name: str, book: str) -> str:
    """A suit letter, ``s``, ``S`` and ``♠`` alike. Every Tractor hand of ``book`` has a trump suit (000 第八条 2:
    当一盘牌摸牌结束仍无人揭牌…由庄家指定任一门花色牌为主牌; 001 九 1: 不打无将牌), so null is refused, saying so.

    >>> suit({"trump": "♥"}, "trump", "zhongkai-2010")
    'H'
    >>> suit({"trump": None}, "trump", "zhongkai-2010")
    Traceback (most recent call last):
    ...
    referee.judge.fields.CaseError: judge.no_trump (field='trump', rulebook='zhongkai-2010')
    """
    value = get(case, name)
    if value is None:
        raise CaseError("judge.no_trump", field=name, rulebook=book)
    if not isinstance(value, str):
        raise CaseError("judge.wrong_type", what=field(name), wanted=Reason("judge.a_suit"), found=kind(value))
    return parse_suit(value, trump=True)


def card_list(value: Any, what: Reason, empty: bool = False) -> Cards:
    """A JSON list of card names, ``what`` naming it in errors."""
    if not isinstance(value, list):
        raise CaseError("judge.wrong_type", what=what, wanted=Reason("judge.a_card_list"), found=kind(value))
    if not value and not empty:
        raise CaseError("judge.no_card", what=what)
    if any(not isinstance(c, (str, int)) or isinstance(c, bool) for c in value):
        bad = next(c for c in value if not isinstance(c, (str, int)) or isinstance(c, bool))
        raise CaseError("judge.not_card_names", what=what, found=kind(bad))
    return Cards.parse([str(c) for c in value])


def cards(case: dict[str, Any], name: str, empty: bool = False) -> Cards:
    """A list of card names (lowercase, ``10`` and the suit symbols too); not empty unless ``empty``."""
    return card_list(get(case, name), field(name), empty)


def plays(case: dict[str, Any], name: str, default: Any = MISSING) -> list[Cards]:
    """A list of plays, each a non-empty list of cards."""
    value = get(case, name, default)
    if not isinstance(value, list):
        raise CaseError("judge.wrong_type", what=field(name), wanted=Reason("judge.a_play_list"), found=kind(value))
    return [card_list(p, Reason("judge.field_play", field=name, n=i + 1)) for i, p in enumerate(value)]


def seat_of(value: Any, what: Reason) -> str:
    """A seat letter, ``s`` and ``S`` alike (as cards are read); null or a number is named as what it is."""
    if not isinstance(value, str):
        raise CaseError("judge.wrong_type", what=what, wanted=Reason("judge.a_seat"), found=kind(value))
    found = value.strip().upper()
    if found not in SEATS:
        raise CaseError("judge.not_seat", what=what, value=repr(cut(value, 20)))
    return found


def seat_hands(case: dict[str, Any], name: str) -> dict[str, Cards]:
    value = get(case, name)
    if not isinstance(value, dict):
        raise CaseError("judge.wrong_type", what=field(name), wanted=Reason("judge.a_seat_object"), found=kind(value))
    out = {seat_of(s, Reason("judge.field_key", field=name)): card_list(h, Reason("judge.field_seat", field=name, seat=s), True)
           for s, h in value.items()}
    if len(out) != len(value):
        raise CaseError("judge.seat_twice", field=name)
    return out


def seat(case: dict[str, Any], name: str) -> str:
    return seat_of(get(case, name), field(name))


def rulebook(case: dict[str, Any], game: str) -> TractorRulebook | ClimbingRulebook:
    """The case's rulebook, which must be one of ``game``."""
    book = text(case, "rulebook")
    if book not in names():
        raise CaseError("judge.unknown_rulebook", rulebook=cut(book), known=", ".join(sorted(names())))
    rules = load(book)
    if rules.game != game:
        raise CaseError("judge.other_game", rulebook=rules.id, table_game=rules.game, game=game)
    return rules


def at_most(what: Reason, n: int, most: int, book: str) -> None:
    """Refuse ``n`` cards where ``book`` deals at most ``most``."""
    if n > most:
        raise CaseError("judge.hand_too_big", what=what, n=n, rulebook=book, most=most)
