"""A request the API could not validate (a 422), said in one line of the reader's language: each problem where it is,
the field named in our words (the catalogue's ``invalid.field``, a name of its own for a path's or a query's field:
``invalid.field.query.entry``), an item of a list by its number, a seat by its name; then what is wrong by its kind
(``invalid.*``). A field the catalogue does not name is shown as sent, as code; nothing is left out.

>>> said([{"loc": ("body", "password"), "type": "missing"}], "zh")
'“密码”：缺少此项'
>>> said([{"loc": ("body", "result", "winner"), "type": "int_type"}], "en")
'“winner” of “result”: must be a whole number'
>>> said([{"loc": ("body", "forfeits", 0), "type": "string_too_short"}], "zh")
'“弃权的报名”的第 1 项：太短或为空'
>>> said([{"loc": ("body", "players", "Q", "[key]"), "type": "literal_error"}], "zh")
'“选手”的键 `Q`：不是可选的值'
>>> said([{"loc": ("body", "foul", "seat"), "type": "literal_error"}, {"loc": ("body", "wings"), "type": "extra_forbidden"}], "zh")
'“座位”：不是可选的值，`wings`：不应有此项'
>>> said([{"loc": ("body",), "type": "union_tag_invalid"}], "en"), said([], "en")
('the request: its kind is none of those allowed', 'invalid request')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import get_args

from display.schemas import Ruling
from referee.catalogue import has, say, word

PLACES = ("body", "query", "path", "header", "cookie")  # where in the request: said by the field, not named
SEATS = ("S", "E", "N", "W")
# The kinds of a body of several (a ruling: foul, report, open_hand), which pydantic puts in a field's path.
TAGS = frozenset(get_args(m.model_fields["ruling"].annotation)[0] for m in get_args(get_args(Ruling)[0]))


def said(errors: Iterable[Mapping], lang: str) -> str:
    """Every problem of a validation error's ``errors()`` in one line."""
    problems = [say(lang, "invalid.line", where=where(e.get("loc", ()), lang),
                    problem=word(lang, f"invalid.{e.get('type')}", word(lang, "invalid.other"))) for e in errors]
    return word(lang, "word.sep").join(problems) or word(lang, "invalid.empty")


def where(loc: Sequence, lang: str) -> str:
    """A problem's place (pydantic's ``loc``) in words."""
    place = loc[0] if loc and loc[0] in PLACES else "body"
    parts = [p for p in loc[1:] if p not in TAGS] if loc and loc[0] in PLACES else list(loc)
    words: list[str] = []
    for i, part in enumerate(parts):
        if part == "[key]" and words:  # a dict's key that is wrong: the one before it
            words[-1] = say(lang, "invalid.key", name=parts[i - 1])
        elif isinstance(part, int):
            words.append(say(lang, "invalid.item", n=part + 1))
        elif part in SEATS and words:
            words.append(word(lang, f"seat.{part}"))
        else:
            words.append(_named(str(part), place if i == 0 else "body", lang))
    if not words:
        return word(lang, "invalid.whole")
    text = words[0]
    for w in words[1:]:
        text = say(lang, "invalid.of", whole=text, part=w)
    return text


def _named(name: str, place: str, lang: str) -> str:
    for key in (f"invalid.field.{place}.{name}", f"invalid.field.{name}"):
        if has(lang, key):
            return say(lang, "invalid.name", field=word(lang, key))
    return say(lang, "invalid.code", field=name)
