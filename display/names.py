"""User names that read alike. A console user is known by name in the audit log and at the console, so a new name
that a reader cannot tell from a user's already there (a Cyrillic а in "li", a full-width ｌｉ, "Li" beside "li") is
refused, and so is one that mixes Latin letters with Cyrillic or Greek ones (no real name does: it is how a look-alike
is made). Chinese names, and names that mix Chinese with Latin letters or digits, stay allowed. By ``unicodedata``
alone: compatibility forms folded (NFKC), case folded, then the Cyrillic and Greek letters that look like a Latin one
(and the digits 0 and 1, like o and l) read as that letter (:data:`LOOKALIKE`).

>>> skeleton("li") == skeleton("l\\N{CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I}") == skeleton("ＬＩ"), skeleton("l1") == skeleton("ll")
(True, True)
>>> skeleton("王老师") == skeleton("王老帅")
False
>>> mixed("li\\N{CYRILLIC SMALL LETTER A}"), mixed("王A老师"), mixed("\\N{GREEK SMALL LETTER ALPHA}\\N{GREEK SMALL LETTER BETA}")
(3, None, None)
"""

from __future__ import annotations

import unicodedata

# A letter of another script that reads as a Latin letter, by its Unicode name (after case folding: a capital's
# small letter stands for both, e.g. Cyrillic В, small в, reads as B); and the digits that read as letters.
_READ_AS = {
    "CYRILLIC SMALL LETTER": {"A": "a", "VE": "b", "ES": "c", "KOMI DE": "d", "IE": "e", "SHHA": "h", "EN": "h",
                              "BYELORUSSIAN-UKRAINIAN I": "i", "JE": "j", "KA": "k", "PALOCHKA": "l", "EM": "m", "O": "o",
                              "ER": "p", "QA": "q", "DZE": "s", "TE": "t", "WE": "w", "HA": "x", "U": "y", "STRAIGHT U": "y"},
    "GREEK SMALL LETTER": {"ALPHA": "a", "BETA": "b", "EPSILON": "e", "ETA": "h", "IOTA": "i", "KAPPA": "k", "MU": "m",
                           "NU": "v", "OMICRON": "o", "RHO": "p", "TAU": "t", "UPSILON": "u", "CHI": "x", "ZETA": "z"},
    "LATIN SMALL LETTER": {"DOTLESS I": "i"},
    "DIGIT": {"ZERO": "o", "ONE": "l"},
}
LOOKALIKE = str.maketrans({unicodedata.lookup(f"{kind} {name}"): latin
                           for kind, letters in _READ_AS.items() for name, latin in letters.items()})
SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")  # the scripts whose letters are each other's look-alikes


def skeleton(name: str) -> str:
    """What ``name`` reads as: two names of one skeleton cannot be told apart by a reader."""
    return unicodedata.normalize("NFKC", name).casefold().translate(LOOKALIKE)


def _script(char: str) -> str | None:
    """The script of a letter among :data:`SCRIPTS` (by its Unicode name's first word), else None."""
    if not unicodedata.category(char).startswith("L"):
        return None
    first = unicodedata.name(char, "").split(" ", 1)[0]
    return first if first in SCRIPTS else None


def mixed(name: str) -> int | None:
    """The place (from 1) of the first character of ``name`` that is a letter of a second script among
    :data:`SCRIPTS`; None when its letters are of one of them at most."""
    seen = None
    for n, char in enumerate(unicodedata.normalize("NFKC", name), 1):
        script = _script(char)
        if script and seen and script != seen:
            return n
        seen = seen or script
    return None


def alike(name: str, others) -> str | None:
    """The first of ``others`` that reads as ``name`` and is not ``name`` itself, else None."""
    mine = skeleton(name)
    return next((o for o in others if o != name and skeleton(o) == mine), None)


__all__ = ["LOOKALIKE", "SCRIPTS", "alike", "mixed", "skeleton"]
