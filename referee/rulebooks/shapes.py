"""Follow shapes written as a seed writes them: ``11223344``, ``1112222+散牌``, ``QQJJ 999*``.

A rulebook may rank the follows of a lead by a list copied from its seed (seed 003 6(3) C), so that
a reader can check the data against the seed line by line. A pattern names one card per symbol:
``1`` (the ace below the 2), ``2``..``9``, ``10`` or ``T``, ``J``, ``Q``, ``K``, ``A``; ``*`` or
``+散牌`` is a single of any rank. The symbols only stand for ranks: equal symbols are identical
cards, and ranks next to each other are adjacent. Ranks of two or more identical cards that are
adjacent make one connected block; a rank written once is a single. Spaces only help the eye.

A :class:`Shape` is its blocks, each the widths of its ranks in rising order of width (the seed
counts “1122333+散牌”或“1112233+散牌”或“1122233+散牌” as one choice, so the widths' order along the ranks
does not matter), and its number of singles.

>>> parse("QQJJ 999*")
Shape(blocks=((2, 2), (3,)), singles=1)
>>> parse("1112222+散牌") == parse("1111222 *"), parse("QQQ 999 7 7")
(True, Shape(blocks=((3,), (3,), (2,)), singles=0))
>>> parse("QQ?J")
Traceback (most recent call last):
...
referee.rulebooks.said.SaidError: 'QQ?J': '?' is no rank (1, 2..10 or T, J, Q, K, A) and no single (* or +散牌)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.rulebooks.said import Said, SaidError

_PLACE = {"1": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14} | {str(n): n for n in range(2, 10)}
_TOKEN = re.compile(r"\s+|10|\+散牌|[1-9TJQKA*]|.")


@dataclass(frozen=True)
class Shape:
    """Connected blocks (each its widths, sorted) and singles; blocks sorted biggest first."""

    blocks: tuple[tuple[int, ...], ...]
    singles: int
    text: str = field(default="", compare=False, repr=False)  # the pattern as the seed writes it

    @property
    def size(self) -> int:
        return sum(map(sum, self.blocks)) + self.singles

    @staticmethod
    def parse(pattern: str) -> Shape:
        return parse(pattern)


def parse(pattern: str) -> Shape:
    """The shape a pattern writes; ``ValueError`` naming the symbol it cannot read."""
    counts: Counter[int] = Counter()
    singles = 0
    for token in _TOKEN.findall(pattern.upper()):
        if token.isspace():
            continue
        if token in ("*", "+散牌"):
            singles += 1
        elif token in _PLACE:
            counts[_PLACE[token]] += 1
        else:
            raise SaidError(Said("rulebook.error.no_rank", pattern=repr(pattern), symbol=repr(token), single="+散牌"))
    blocks: list[tuple[int, ...]] = []
    run: list[int] = []
    for place in range(1, 16):
        width = counts.get(place, 0)
        if width >= 2:
            run.append(width)
            continue
        singles += width
        if run:
            blocks.append(tuple(sorted(run)))
            run = []
    blocks.sort(key=lambda b: (sum(b), len(b), b), reverse=True)
    return Shape(tuple(blocks), singles, pattern)


def tiers(lead: tuple[int, int], entries: Sequence[Sequence[str | Shape]]) -> tuple[tuple[Shape, ...], ...]:
    """A lead format's follow list (``[follow.listed]``): tiers in order, each a list of equal
    choices (patterns or shapes). ``ValueError`` when a pattern is unreadable, holds another number
    of cards than the lead, or is the lead's own format (always first) or a shape of an earlier entry.

    >>> tiers((4, 1), [["QQJJ"], ["QQQ*"]])[1][0]
    Shape(blocks=((3,),), singles=1)
    >>> tiers((4, 1), [["QQJJ"], ["QQ*"]])
    Traceback (most recent call last):
    ...
    referee.rulebooks.said.SaidError: listed 4x1: 'QQ*' holds 3 cards, the lead 4
    """
    width, length = lead
    seen = {Shape(((width,) * length,), 0)}
    out = []
    for tier in entries:
        if isinstance(tier, str) or not isinstance(tier, Sequence) or not tier:
            raise SaidError(Said("rulebook.error.listed_entry", lead=f"{width}x{length}", entry=repr(tier)))
        shapes = tuple(text if isinstance(text, Shape) else parse(str(text)) for text in tier)
        for shape in shapes:
            if shape.size != width * length:
                raise SaidError(Said("rulebook.error.listed_size", lead=f"{width}x{length}", pattern=repr(shape.text),
                                     size=shape.size, cards=width * length))
            if shape in seen:
                raise SaidError(Said("rulebook.error.listed_again", lead=f"{width}x{length}", pattern=repr(shape.text)))
        seen.update(shapes)
        out.append(shapes)
    return tuple(out)
