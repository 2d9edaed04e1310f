"""Why a rules engine refuses something or rules against a seat, as data: a :class:`Reason` is a key of the
catalogue's ``reason`` section (``referee/catalogue``) and its values (cards in the conformance notation, seats
``S E N W``, numbers, the rulebooks' own words), never a sentence in one language. Whoever shows it to a person
says it in that person's language (``referee.catalogue.sentences.Sentences.reason``: card faces, seat and player
names; ``told`` there for logs and the judge: English with card codes). It travels in the table's messages as
``{"key": ..., "values": {...}}`` (:meth:`Reason.json`).

The engines raise :class:`Refused` (their errors derive from it) and keep a :class:`Reason` in their rulings.

>>> r = Reason("tractor.not_on_turn", trick=3, expected="S", seat="E")
>>> r
Reason('tractor.not_on_turn', expected='S', seat='E', trick=3)
>>> r.json()
{'key': 'tractor.not_on_turn', 'values': {'expected': 'S', 'seat': 'E', 'trick': 3}}
>>> Reason.of(r.json()) == r, r["seat"]
(True, 'E')
>>> e = Refused("tractor.in_trick", trick=2, why=Refused("cards.too_many", card="SA", n=4, decks=3))
>>> str(e)
"tractor.in_trick (trick=2, why=cards.too_many (card='SA', decks=3, n=4))"
>>> e.reason.json()["values"]["why"]
{'key': 'cards.too_many', 'values': {'card': 'SA', 'decks': 3, 'n': 4}}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

KEY = re.compile(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+")


def _plain(value: Any) -> Any:
    """A value as a reason keeps it: plain data (cards as their codes), immutable."""
    if isinstance(value, Reason) or value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, Refused):
        return value.reason
    if hasattr(value, "names"):  # referee.cards.Cards
        return tuple(value.names())
    if hasattr(value, "code"):  # referee.cards.Card
        return value.code
    if isinstance(value, Mapping) and "key" in value and "values" in value:
        return Reason.of(value)
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return str(value)


def _json(value: Any) -> Any:
    if isinstance(value, Reason):
        return value.json()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


def _show(value: Any, said: Any = repr) -> str:
    """A value as ``repr`` (``said=repr``) or ``str`` of its reason writes it: a nested reason by ``said``."""
    if isinstance(value, Reason):
        return said(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_show(v, said) for v in value) + "]"
    return repr(value)


def cut(text: str, most: int = 40) -> str:
    """``text`` as a reason quotes what an input wrote: at most ``most`` characters, a longer one cut with ``…``
    (an input may be of any size; its error names it, not all of it).

    >>> cut("SA"), cut("S" * 50, 10)
    ('SA', 'SSSSSSSSS…')
    """
    return text if len(text) <= most else text[: most - 1] + "…"


class Reason:
    """A catalogue key (``reason.{key}``) and its values; immutable, compared by key and values."""

    __slots__ = ("key", "_values")

    def __init__(self, key: str, **values: Any) -> None:
        if not KEY.fullmatch(key):
            raise ValueError(f"a reason's key is dotted lower-case words, not {key!r}")
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "_values", tuple(sorted((k, _plain(v)) for k, v in values.items())))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Reason is immutable")

    @staticmethod
    def of(data: Mapping[str, Any]) -> Reason:
        """A reason from its JSON form (``{"key": ..., "values": {...}}``); ValueError when it is not one."""
        if not isinstance(data, Mapping) or not isinstance(data.get("key"), str) or not isinstance(data.get("values", {}), Mapping):
            raise ValueError(f"not a reason: {data!r}"[:200])
        return Reason(data["key"], **dict(data.get("values", {})))

    @property
    def values(self) -> dict[str, Any]:
        return dict(self._values)

    def __getitem__(self, name: str) -> Any:
        return dict(self._values)[name]

    def json(self) -> dict[str, Any]:
        return {"key": self.key, "values": {k: _json(v) for k, v in self._values}}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reason) and (self.key, self._values) == (other.key, other._values)

    def __hash__(self) -> int:
        return hash((self.key, self._values))

    def __repr__(self) -> str:
        return f"Reason({self.key!r}" + "".join(f", {k}={_show(v)}" for k, v in self._values) + ")"

    def __str__(self) -> str:
        return self.key + (" (" + ", ".join(f"{k}={_show(v, str)}" for k, v in self._values) + ")" if self._values else "")


class Refused(ValueError):
    """Something a rules engine does not allow (an input that cannot be, a play that is not legal), with its
    :class:`Reason`; ``str()`` is the reason's key and values (for a developer: a person reads it said by
    ``referee.catalogue.sentences``). ``Refused(reason)`` raises an existing reason again."""

    def __init__(self, key: str | Reason, **values: Any) -> None:
        self.reason = key if isinstance(key, Reason) else Reason(key, **values)
        super().__init__(self.reason)

    def __str__(self) -> str:
        return str(self.reason)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason!r})"


__all__ = ["Reason", "Refused", "cut"]
