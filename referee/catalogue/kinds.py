"""Every flag and violation kind and its names. The names are in the catalogue (``referee/catalogue``): ``kind.*``
in each language, following the rulebooks' own words (``shared/seeds``: 暴露张, 牌张数目不符, 甩错牌, 拿底牌
before the declare window ends), and ``board.*`` where the seat board's short Chinese differs (its line holds
32 characters). A new kind is one line in each catalogue file.

>>> name("kitty_window", "zh"), name("kitty_window", "en"), name("wrong_card_count", "board")
('拿底过早', 'kitty taken early', '牌数不符')
>>> name("peeking", "zh"), name("peeking", "board"), name("no_such_kind", "en")
('偷看他人的牌', '偷看', 'no_such_kind')
>>> "overtime" in KINDS
True
"""

from __future__ import annotations

from referee.catalogue import entries, word

KINDS: tuple[str, ...] = tuple(k.split(".", 1)[1] for k in entries("zh") if k.startswith("kind."))


def name(kind: str, lang: str) -> str:
    """The name of ``kind`` in ``lang`` ("zh", "en" or "board"); an unknown kind is its own name."""
    if lang == "board":
        return word("zh", f"board.{kind}", word("zh", f"kind.{kind}"))
    return word(lang, f"kind.{kind}")


def names(lang: str) -> dict[str, str]:
    """Every kind's name in ``lang``."""
    return {kind: name(kind, lang) for kind in KINDS}
