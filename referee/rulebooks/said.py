"""A rulebook's errors as words in either language: a :class:`Said` is a catalogue key (``rulebook.error``,
``rulebook.allowed``) and its values, said in the reader's language; :class:`SaidError` carries one, its ``str()``
the English (what a log and the tests read), :meth:`SaidError.text` it in any language. A value is said as it is
(a key or a value of the file) unless it is a :class:`Said` (said in the same language) or an :class:`Either` (its
items joined by the language's ``or``).

>>> s = Said("rulebook.error.refused", setting="[deal] kitty", value="8", allowed=Said("rulebook.allowed.one_or_more"))
>>> s.text("en"), s.text("zh")
('[deal] kitty = 8: allowed 1 or more', '[deal] kitty = 8：应为 1 或更大')
>>> Said("rulebook.allowed.int").text("zh"), Either(['"a"', '"b"', '"c"']).text("zh")
('整数', '"a"、"b" 或 "c"')
"""

from __future__ import annotations

from typing import Any

from referee.catalogue import fill, has, word


class Said:
    """A catalogue key and its values; ``text(lang)`` says it."""

    __slots__ = ("key", "values")

    def __init__(self, key: str, **values: Any) -> None:
        self.key, self.values = key, values

    def text(self, lang: str) -> str:
        return fill(lang, self.key, {k: said(v, lang) for k, v in self.values.items()})

    def __repr__(self) -> str:
        return f"Said({self.key!r}, {self.values!r})"


class Either(tuple):
    """Items said ``a, b or c`` (Chinese ``a、b 或 c``)."""

    def text(self, lang: str) -> str:
        words = [said(w, lang) for w in self]
        if len(words) == 1:
            return words[0]
        return word(lang, "word.list", ", ").join(words[:-1]) + word(lang, "rulebook.allowed.or", " or ") + words[-1]


class Joined(Either):
    """Items said ``a, b, c`` (Chinese ``a、b、c``)."""

    def text(self, lang: str) -> str:
        return word(lang, "word.list", ", ").join(said(w, lang) for w in self)


def said(value: Any, lang: str) -> str:
    """``value`` in ``lang``: a :class:`Said` or :class:`Either` said, anything else as it is."""
    return value.text(lang) if isinstance(value, (Said, Either)) else str(value)


class SaidError(ValueError):
    """An error of a rulebook: its words (:class:`Said`, or a plain string: English only), ``str()`` in English."""

    def __init__(self, words: Said | str) -> None:
        self.words = words
        super().__init__(said(words, "en"))

    def text(self, lang: str) -> str:
        """The error in ``lang``."""
        return said(self.words, lang)


def words_of(exc: BaseException) -> Said | str:
    """An error's words: a :class:`SaidError`'s own, a rules engine's reason (``referee.reasons.Refused``) from the
    catalogue's ``reason`` section, any other error its message (English)."""
    if isinstance(exc, SaidError):
        return exc.words
    reason = getattr(exc, "reason", None)
    if reason is not None and has("en", f"reason.{reason.key}"):
        return Said(f"reason.{reason.key}", **reason.values)
    return str(exc)


__all__ = ["Either", "Joined", "Said", "SaidError", "said", "words_of"]
