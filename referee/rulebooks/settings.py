"""Settings as typed values: a rulebook's tables read into frozen dataclasses, every value checked
against its field's type when the file loads.

A section of a rulebook is a frozen dataclass whose fields are made by :func:`setting` (what the
setting means, for ``README.md``). Its type says what the file may hold: ``bool``, ``int``,
``float`` (a whole number reads as one), ``str``, ``Literal[...]`` (a closed set of values),
``tuple[T, ...]`` (a list), ``tuple[A, B]`` (a list of exactly these), ``Mapping[K, V]`` (a table;
its keys read as ``K``), ``A | B`` (the first that fits), a section (a table of its settings), or
a class with a ``parse`` that reads a string (a card, a format ``WxN``). A key the section does
not have is refused too. A check that spans settings is the section's ``__post_init__``: :func:`check` (the
setting, its value and what is allowed, a key of the catalogue's ``rulebook.allowed``) or :func:`fault` (an error of
its own, ``rulebook.error``), every error's words the catalogue's, said in the reader's language
(:mod:`~referee.rulebooks.said`; ``str()`` the English). The schema modules do without
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
from referee.catalogue import word
from referee.rulebooks.said import Either, Joined, Said, SaidError, said, words_of
from referee.rulebooks.shapes import Shape


class SettingError(SaidError):
    """A setting missing, unknown, or of a value its type does not allow; the words (:class:`Said`, in either
    language) name the key, the value and what is allowed."""


_E = "rulebook.error."


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


#: Words for types whose values are long to list or read by a ``parse``: :func:`allowed` uses them.
NAMED: dict[Any, Said] = {Card: Said("rulebook.allowed.card"), Shape: Said("rulebook.allowed.shape")}
_A = "rulebook.allowed."


def named(t: Any, key: str) -> Any:
    """Call ``t`` by the catalogue's ``rulebook.allowed.<key>`` wherever :func:`allowed` says what is allowed;
    returns ``t``."""
    NAMED[t] = Said(_A + key)
    return t


def describe(t: Any) -> str:
    """What a value of type ``t`` may be, in English (:func:`allowed`'s words).

    >>> describe(tuple[Literal["units", "strict"], ...]), describe(int | Literal["unlimited"])
    ('a list, each "units" or "strict"', 'a whole number or "unlimited"')
    """
    return said(allowed(t), "en")


def allowed(t: Any) -> Said | Either:
    """What a value of type ``t`` may be, as words in either language.

    >>> allowed(Mapping[str, bool]).text("zh")
    '表：键为 字符串，每项为 true 或 false'
    """
    origin, args = get_origin(t), get_args(t)
    if t in NAMED:
        return NAMED[t]
    if t is bool:
        return Either(("true", "false"))
    plain = {int: _A + "int", float: _A + "float", str: _A + "str", Any: _A + "any"}
    if t in plain:
        return Said(plain[t])
    if origin is Literal:
        return Either(show(a) for a in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return Said(_A + "list_each", each=allowed(args[0]))
        if len(set(args)) == 1:
            return Said(_A + "list_of_each", n=len(args), each=allowed(args[0]))
        return Said(_A + "list_of", n=len(args), each=Joined(allowed(a) for a in args))
    if origin is Mapping:
        return Said(_A + "table_keys", keys=allowed(args[0]), each=allowed(args[1]))
    if origin in (Union, UnionType):
        return Either(allowed(a) for a in args if a is not type(None))
    if hasattr(t, "parse"):
        return Said(_A + t.ALLOWED) if hasattr(t, "ALLOWED") else Said(_A + "parsed", name=t.__name__)
    return Said(_A + "table_of", keys=", ".join(k for k, *_ in fields(t)))


Path = tuple[str | int, ...]


def where(path: Path, tables: int) -> str:
    """A setting's place in the file: the table its first ``tables`` keys name, then the key
    (``[follow.listed] 4x2[0][1]``)."""
    head, rest = ".".join(map(str, path[:tables])), path[tables:]
    key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" if i else p for i, p in enumerate(rest))
    return f"[{head}] {key}" if head and key else f"[{head}]" if head else key


def refused(setting: str, found: Any, allowed_: Said | Either | str) -> Said:
    """The words ``SETTING = VALUE: allowed X``: the setting's place, the value ``found`` as the file writes it."""
    return Said(_E + "refused", setting=setting, value=show(found), allowed=allowed_)


def _refuse(path: Path, tables: int, raw: Any, t: Any) -> SettingError:
    return SettingError(refused(where(path, tables), raw, allowed(t)))


def value(t: Any, raw: Any, path: Path, tables: int) -> Any:
    """``raw`` (as TOML gives it) read as a ``t``; :class:`SettingError` naming its place."""
    origin, args = get_origin(t), get_args(t)
    if t is Any:
        return raw
    if t is type(None):  # TOML has no null: a setting that may be None is left out
        raise SettingError(Said(_E + "left_out_only", setting=where(path, tables), value=show(raw)))
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
            raise SettingError(Said(_E + "unread", setting=where(path, tables), value=show(raw), error=words_of(exc))) from None
    if not isinstance(raw, dict):
        raise _refuse(path, tables, raw, t)
    return read(t, raw, path)


def _key(t: Any, text: str, path: Path) -> Any:
    """A table's key (always a string in TOML) read as a ``t``: numbers from their digits."""
    numbers = t is int or get_origin(t) is Literal and isinstance(get_args(t)[0], int)
    try:
        return value(t, int(text) if numbers and text.lstrip("-").isdigit() else text, path + (text,), len(path))
    except SettingError:
        raise SettingError(Said(_E + "no_key", setting=where(path + (text,), len(path)), allowed=allowed(t))) from None


def read(section: type, raw: dict[str, Any], path: Path = ()) -> Any:
    """The section ``section`` from the TOML table ``raw`` at ``path`` (its keys in the file, for the
    words of an error); :class:`SettingError` on a missing, unknown or wrong setting."""
    known = fields(section)
    here = len(path)
    for k, v in raw.items():
        if not any(k == key for key, *_ in known):
            has = ", ".join(key for key, *_ in known)
            setting_, value_ = where(path + (k,), here), show(v)
            if not path:
                raise SettingError(Said(_E + "no_setting_top", setting=setting_, value=value_, has=has))
            raise SettingError(Said(_E + "no_setting", setting=setting_, value=value_, table=f"[{where(path, here)[1:-1]}]", has=has))
    values = {}
    for k, name, t, f in known:
        if k in raw:
            values[name] = value(t, raw[k], path + (k,), here)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise SettingError(Said(_E + "missing", setting=where(path + (k,), here), allowed=allowed(t)))
    try:
        return section(**values)
    except SettingError:
        raise
    except ValueError as exc:
        raise SettingError(Said(_E + "in_table", table=where(path, here), error=words_of(exc)) if path else words_of(exc)) from None


def check(ok: bool, key: str, found: Any, allowed_: str, **values: Any) -> None:
    """For a section's ``__post_init__``: raise :class:`SaidError` naming the setting ``key``, the value
    ``found`` and what is allowed (the catalogue's ``rulebook.allowed.<allowed_>`` with ``values``) unless ``ok``."""
    if not ok:
        raise SaidError(refused(key, found, Said(_A + allowed_, **values)))


def fault(key: str, **values: Any) -> SaidError:
    """For a section's ``__post_init__``: the error ``rulebook.error.<key>`` with ``values`` (one that says more
    than ``SETTING = VALUE: allowed X``)."""
    return SaidError(Said(_E + key, **values))


__all__ = ["NAMED", "Said", "SaidError", "SettingError", "allowed", "check", "default", "describe", "fault", "meaning", "named", "read", "setting", "show", "value"]
