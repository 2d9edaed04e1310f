"""Settings as typed values: a rulebook's tables read into frozen dataclasses, every value checked
against its field's type when the file loads.

A section of a rulebook is a frozen dataclass whose fields are made by :func:`setting` (what the
setting means, for ``README.md``). Its type says what the file may hold: ``bool``, ``int``,
``float`` (a whole number reads as one), ``str``, ``Literal[...]`` (a closed set of values),
``tuple[T, ...]`` (a list), ``tuple[A, B]`` (a list of exactly these), ``Mapping[K, V]`` (a table;
its keys read as ``K``), ``A | B`` (the first that fits), a section (a table of its settings), or
a class with a ``parse`` that reads a string (a card, a format ``WxN``). A key the section does
not have is refused too. A check that spans settings is the section's ``__post_init__``: a
``ValueError`` naming the setting, its value and what is allowed. The schema modules do without
``from __future__ import annotations``: their types are made once, when the classes are, rather
than compiled from strings at the first load (all six books then load in about 6 ms, not 19).

>>> from referee.rulebooks.tractor import Combos
>>> raw = {"widths": [2, 3], "tractor_suits": "one", "low_ace": False, "throws": True, "captive": "declared",
...        "throw_check": "units", "outranks": [["4x1", "2x2"]]}
>>> read(Combos, raw, ("combos",)).outranks
((Format(width=4, length=1), Format(width=2, length=2)),)
>>> read(Combos, raw | {"captive": "hidden"}, ("combos",))
Traceback (most recent call last):
...
referee.rulebooks.settings.SettingError: [combos] captive = "hidden": allowed "declared", "chosen_after" or "illegal"
>>> read(Combos, raw | {"widths": [2, 5]}, ("combos",))
Traceback (most recent call last):
...
referee.rulebooks.settings.SettingError: [combos] widths[1] = 5: allowed 2, 3 or 4
>>> read(Combos, raw | {"captives": "declared"}, ("combos",))
Traceback (most recent call last):
...
referee.rulebooks.settings.SettingError: [combos] captives = "declared": no such setting; [combos] has widths, tractor_suits, low_ace, throws, captive, throw_check, outranks
"""

from __future__ import annotations

import dataclasses
import inspect
import json
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType, UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from referee.cards import Card
from referee.catalogue import fill, has, word
from referee.rulebooks.shapes import Shape


class SettingError(ValueError):
    """A setting missing, unknown, or of a value its type does not allow; the words name the key,
    the value and what is allowed."""


def setting(doc: str, default: Any = dataclasses.MISSING, *, key: str | None = None) -> Any:
    """A field of a section: ``doc`` says what it means (README.md's tables), ``default`` is its
    value when the file leaves it out (none: the file must give it), ``key`` its name in the file
    when that is no Python name (``pass``)."""
    meta = {"doc": doc, "key": key}
    if isinstance(default, dict):
        return dataclasses.field(default_factory=lambda: MappingProxyType(dict(default)), metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def show(value: Any) -> str:
    """A value as a rulebook file writes it (``"declared"``, ``true``, ``[2, 3]``)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


@cache
def fields(section: type) -> tuple[tuple[str, str, Any, dataclasses.Field], ...]:
    """Each setting of a section: its key in the file, its field name, its type and its field."""
    types_ = get_type_hints(section)
    return tuple((f.metadata.get("key") or f.name, f.name, types_[f.name], f) for f in dataclasses.fields(section) if f.init)


def default(field: dataclasses.Field) -> Any:
    """A setting's value when the file leaves it out (``dataclasses.MISSING``: the file must give it)."""
    return field.default if field.default_factory is dataclasses.MISSING else field.default_factory()


def meaning(section: type, key: str, lang: str) -> str:
    """What the setting ``key`` of ``section`` means: its :func:`setting`'s words (README.md's), in Chinese the
    catalogue's ``setting.<module>.<class>.<key>`` (the class that declares it).

    >>> from referee.rulebooks.tractor import Deal
    >>> meaning(Deal, "decks", "en"), meaning(Deal, "decks", "zh")
    ('decks shuffled together (54 cards each)', '几副牌洗在一起（每副 54 张）')
    """
    name, f = next((name, f) for k, name, _, f in fields(section) if k == key)
    owner = next(c for c in section.__mro__ if name in inspect.get_annotations(c))
    doc = f.metadata["doc"]
    return doc if lang == "en" else word(lang, f"setting.{owner.__module__.rpartition('.')[2]}.{owner.__name__}.{key}", doc)


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


#: Words for types whose values are long to list or read by a ``parse``: :func:`describe` uses them.
NAMED: dict[Any, str] = {Card: "a card (SA, HT, LJ, BJ)", Shape: "a pattern (README: the patterns of `listed`)"}


def named(t: Any, words: str) -> Any:
    """Call ``t`` ``words`` wherever :func:`describe` says what is allowed; returns ``t``."""
    NAMED[t] = words
    return t


def describe(t: Any) -> str:
    """What a value of type ``t`` may be, in words.

    >>> describe(tuple[Literal["units", "strict"], ...]), describe(int | Literal["unlimited"])
    ('a list, each "units" or "strict"', 'a whole number or "unlimited"')
    """
    origin, args = get_origin(t), get_args(t)
    if t in NAMED:
        return NAMED[t]
    if t is bool:
        return "true or false"
    if t is int:
        return "a whole number"
    if t is float:
        return "a number"
    if t is str:
        return "a string"
    if t is Any:
        return "any value"
    if origin is Literal:
        return _or([show(a) for a in args])
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list, each {describe(args[0])}"
        if len(set(args)) == 1:
            return f"a list of {len(args)}, each {describe(args[0])}"
        return f"a list of {len(args)}: {', '.join(describe(a) for a in args)}"
    if origin is Mapping:
        return f"a table: keys {describe(args[0])}, each {describe(args[1])}"
    if origin in (Union, UnionType):
        return _or([describe(a) for a in args if a is not type(None)])
    if hasattr(t, "parse"):
        return getattr(t, "ALLOWED", f"a {t.__name__}")
    return f"a table of {', '.join(k for k, *_ in fields(t))}"


Path = tuple[str | int, ...]


def where(path: Path, tables: int) -> str:
    """A setting's place in the file: the table its first ``tables`` keys name, then the key
    (``[follow.listed] 4x2[0][1]``)."""
    head, rest = ".".join(map(str, path[:tables])), path[tables:]
    key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" if i else p for i, p in enumerate(rest))
    return f"[{head}] {key}" if head and key else f"[{head}]" if head else key


def _refuse(path: Path, tables: int, raw: Any, t: Any) -> SettingError:
    return SettingError(f"{where(path, tables)} = {show(raw)}: allowed {describe(t)}")


def value(t: Any, raw: Any, path: Path, tables: int) -> Any:
    """``raw`` (as TOML gives it) read as a ``t``; :class:`SettingError` naming its place."""
    origin, args = get_origin(t), get_args(t)
    if t is Any:
        return raw
    if t is type(None):  # TOML has no null: a setting that may be None is left out
        raise SettingError(f"{where(path, tables)} = {show(raw)}: allowed only by leaving it out")
    if t is bool or t is str:
        if type(raw) is not t:
            raise _refuse(path, tables, raw, t)
        return raw
    if t is int or t is float:
        if isinstance(raw, bool) or not isinstance(raw, (int, float) if t is float else int):
            raise _refuse(path, tables, raw, t)
        return t(raw)
    if origin is Literal:
        if not any(type(raw) is type(a) and raw == a for a in args):
            raise _refuse(path, tables, raw, t)
        return raw
    if origin is tuple:
        many = len(args) == 2 and args[1] is Ellipsis
        if not isinstance(raw, list) or not (many or len(raw) == len(args)):
            raise _refuse(path, tables, raw, t)
        each = (args[0],) * len(raw) if many else args
        return tuple(value(a, x, path + (i,), tables) for i, (a, x) in enumerate(zip(each, raw)))
    if origin is Mapping:
        if not isinstance(raw, dict):
            raise _refuse(path, tables, raw, t)
        return MappingProxyType({_key(args[0], k, path): value(args[1], v, path + (k,), len(path)) for k, v in raw.items()})
    if origin in (Union, UnionType):
        for a in args:
            try:
                return value(a, raw, path, tables)
            except SettingError:
                continue
        raise _refuse(path, tables, raw, t)
    if hasattr(t, "parse"):
        if not isinstance(raw, str):
            raise _refuse(path, tables, raw, t)
        try:
            return t.parse(raw)
        except ValueError as exc:
            raise SettingError(f"{where(path, tables)} = {show(raw)}: {_words(exc)}") from None
    if not isinstance(raw, dict):
        raise _refuse(path, tables, raw, t)
    return read(t, raw, path)


def _words(exc: ValueError) -> str:
    """An error's words: a rules engine's reason (``referee.reasons.Refused``) said in English from the catalogue
    (a rulebook's author reads it in the file's terms), any other error its message."""
    reason = getattr(exc, "reason", None)
    if reason is None or not has("en", f"reason.{reason.key}"):
        return str(exc)
    return fill("en", f"reason.{reason.key}", reason.values)


def _key(t: Any, text: str, path: Path) -> Any:
    """A table's key (always a string in TOML) read as a ``t``: numbers from their digits."""
    numbers = t is int or get_origin(t) is Literal and isinstance(get_args(t)[0], int)
    try:
        return value(t, int(text) if numbers and text.lstrip("-").isdigit() else text, path + (text,), len(path))
    except SettingError:
        raise SettingError(f"{where(path + (text,), len(path))}: no such key; allowed {describe(t)}") from None


def read(section: type, raw: dict[str, Any], path: Path = ()) -> Any:
    """The section ``section`` from the TOML table ``raw`` at ``path`` (its keys in the file, for the
    words of an error); :class:`SettingError` on a missing, unknown or wrong setting."""
    known = fields(section)
    here = len(path)
    for k, v in raw.items():
        if not any(k == key for key, *_ in known):
            has = ", ".join(key for key, *_ in known)
            table = f"[{where(path, here)[1:-1]}]" if path else "a rulebook"
            raise SettingError(f"{where(path + (k,), here)} = {show(v)}: no such setting; {table} has {has}")
    values = {}
    for k, name, t, f in known:
        if k in raw:
            values[name] = value(t, raw[k], path + (k,), here)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise SettingError(f"{where(path + (k,), here)} is missing: allowed {describe(t)}")
    try:
        return section(**values)
    except SettingError:
        raise
    except ValueError as exc:
        raise SettingError(f"{where(path, here)} {exc}" if path else str(exc)) from None


def check(ok: bool, key: str, found: Any, allowed: str) -> None:
    """For a section's ``__post_init__``: raise ``ValueError`` naming the setting ``key``, the value
    ``found`` and what is ``allowed`` unless ``ok``."""
    if not ok:
        raise ValueError(f"{key} = {show(found)}: allowed {allowed}")


__all__ = ["NAMED", "SettingError", "check", "default", "describe", "meaning", "named", "read", "setting", "show", "value"]
