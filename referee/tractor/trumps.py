"""Trumps and grades: which suit each card plays in, and where it stands in that suit.

Every card gets a *suit class* (``T`` for trumps, else its suit letter) and a
*position* in that class. Positions order the cards (higher beats lower) and
define adjacency for tractors: two ranks are adjacent when their positions differ
by one, and where the book joins only one printed suit (``[combos] tractor_suits``)
when their cards are of one suit. Cards of equal grade share a position, which is
why the off-suit level cards never form a tractor with each other.

Trumps, low to high (seed 000 第五条): the trump suit A..2 without the level rank,
then any permanent ranks (the off-suit ones, then the trump-suit one), then the
off-suit level cards, the trump-suit level card, the little and the big joker.

>>> t = Trumps.of("zhongkai-2010", "7", "H")
>>> [t.position(Card.parse(c)) for c in ("HA", "S7", "D7", "H7", "LJ", "BJ")]
[11, 12, 12, 13, 14, 15]
>>> t.suit_of(Card.parse("S7")), t.suit_of(Card.parse("S8"))
('T', 'S')
>>> t.position(Card.parse("S6")) + 1 == t.position(Card.parse("S8"))
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.cards import ALL_CARDS, RANKS, SUITS, Card, Cards, parse_rank, parse_suit
from referee.rulebooks import TractorRulebook, load

TRUMP = "T"


@dataclass(frozen=True)
class Trumps:
    """The trump order of one hand: rulebook, level rank and trump suit (None: no trump suit)."""

    rules: TractorRulebook
    level: str
    suit: str | None
    _table: dict[Card, tuple[str, int, int | None]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    @staticmethod
    def of(rulebook: str | TractorRulebook, level: str, suit: str | None) -> Trumps:
        rules = load(rulebook) if isinstance(rulebook, str) else rulebook
        return Trumps(rules, level, suit)

    def __post_init__(self) -> None:
        object.__setattr__(self, "level", parse_rank(self.level, level=True))
        if self.suit is not None:  # read as cards are: h, H and ♥ alike
            object.__setattr__(self, "suit", parse_suit(self.suit, trump=True))
        object.__setattr__(self, "_table", self._build())

    def _build(self) -> dict[Card, tuple[str, int, int | None]]:
        permanent = [r for r in self.rules.deal.permanent_ranks if r != self.level]
        plain = [r for r in RANKS if r != self.level and r not in permanent]
        low_ace = self.rules.combos.low_ace and plain[0] == "2" and plain[-1] == "A"
        table: dict[Card, tuple[str, int, int | None]] = {}
        for s in SUITS:
            klass = TRUMP if s == self.suit else s
            for i, r in enumerate(plain):
                low = -1 if low_ace and r == "A" else None
                table[Card.parse(s + r)] = (klass, i, low)
        top = len(plain)
        for rank in permanent + [self.level]:
            for s in SUITS:
                table[Card.parse(s + rank)] = (TRUMP, top + (s == self.suit), None)
            top += 1 if self.suit is None else 2
        table[Card.parse("LJ")] = (TRUMP, top, None)
        table[Card.parse("BJ")] = (TRUMP, top + 1, None)
        assert len(table) == len(ALL_CARDS)
        return table

    def joins(self, lower: Card, upper: Card) -> bool:
        """Whether cards at two adjacent positions may stand in one tractor (``[combos] tractor_suits``).

        >>> t = Trumps.of("zhongkai-2010", "7", "H")
        >>> t.joins(Card.parse("HA"), Card.parse("S7")), Trumps.of("shaoguan-2023", "7", "H").joins(Card.parse("HA"), Card.parse("S7"))
        (True, False)
        >>> Trumps.of("shaoguan-2023", "7", "H").joins(Card.parse("LJ"), Card.parse("BJ"))
        True
        """
        return self.rules.combos.tractor_suits == "class" or lower.suit == upper.suit

    def suit_of(self, card: Card) -> str:
        """``T`` for a trump, else the card's suit letter."""
        return self._table[card][0]

    def position(self, card: Card) -> int:
        return self._table[card][1]

    def low_position(self, card: Card) -> int | None:
        """The ace's second place below the 2 where the rulebook allows AA22."""
        return self._table[card][2]

    def is_trump(self, card: Card) -> bool:
        return self._table[card][0] == TRUMP

    def suits_in(self, cards: Cards) -> set[str]:
        return {self._table[c][0] for c in cards.distinct()}

    def of_suit(self, cards: Cards, suit: str) -> Cards:
        """The cards of one suit class."""
        return Cards(c for c in cards if self._table[c][0] == suit)

    def sort_key(self, card: Card) -> tuple[int, int]:
        """Trumps above side suits, then by position."""
        klass, pos, _ = self._table[card]
        return (klass == TRUMP, pos)
