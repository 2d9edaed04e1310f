"""Cards in the canonical notation of ``shared/conformance/README.md``.

A card is a suit letter and a rank (``SA``, ``HT``), or a joker (``BJ``, ``LJ``).
Parsing also accepts ``10`` for ``T``, the suit symbols and 大王/小王; output is
always canonical.

>>> Card.parse("♥10")
Card('HT')
>>> Cards.parse(["SA", "大王", "sa"])
Cards('BJ SA SA')
>>> Decks(3).check(Cards.parse(["SA"] * 4))
Traceback (most recent call last):
...
referee.cards.CardError: cards.too_many (card='SA', decks=3, n=4)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Iterator

from referee.reasons import Refused, cut

SUITS = "SHDC"
RANKS = "23456789TJQKA"
JOKERS = ("BJ", "LJ")
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
JOKER_NAMES = {"大王": "BJ", "小王": "LJ"}
POINTS = {"5": 5, "T": 10, "K": 10}


class CardError(Refused):
    """A card that does not exist, or more copies than the decks hold (a reason ``cards.*``)."""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card. Instances are interned: ``Card.parse`` returns the same object each time (make
    cards with it, never with ``Card(...)``).

    >>> Card.parse("LJ").is_joker, Card.parse("S5").points
    (True, 5)
    >>> import copy, pickle
    >>> c = Card.parse("HT")
    >>> copy.deepcopy(c) is c, pickle.loads(pickle.dumps(c)) is c, {c: 1}[Card.parse("♥10")]
    (True, True, 1)
    """

    code: str

    @property
    def suit(self) -> str | None:
        """The suit letter, or None for a joker."""
        return None if self.code in JOKERS else self.code[0]

    @property
    def rank(self) -> str:
        """The rank letter; ``B`` or ``L`` for the jokers."""
        return self.code[0] if self.code in JOKERS else self.code[1]

    @property
    def is_joker(self) -> bool:
        return self.code in JOKERS

    @property
    def points(self) -> int:
        """5 for a five, 10 for a ten or a king, else 0."""
        return 0 if self.is_joker else POINTS.get(self.code[1], 0)

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card; raise :class:`CardError` naming it when it is unknown."""
        try:
            return _BY_NAME[text]
        except (KeyError, TypeError):
            pass
        raw = str(text).strip()
        name = JOKER_NAMES.get(raw, raw.upper())
        if name and name[0] in SUIT_SYMBOLS:
            name = SUIT_SYMBOLS[name[0]] + name[1:]
        if name.endswith("10"):
            name = name[:-2] + "T"
        card = _BY_NAME.get(name)
        if card is None:
            raise CardError("cards.unknown", text=cut(str(text)))
        return card

    # One object per card (``ALL_CARDS``), so equality and hashing are the object's identity (as
    # fast as Python has: cards are counted in every multiset the referee builds). Copies and
    # pickles come back as the same object.
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict) -> Card:
        return self

    def __reduce__(self) -> tuple:
        return (Card.parse, (self.code,))

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


def parse_rank(text: str | int, level: bool = False) -> str:
    """A rank letter from ``10``, ``T``, ``j``, ...; :class:`CardError` otherwise (``level``: a level rank).

    >>> parse_rank(10), parse_rank("q"), parse_rank(" 7 ")
    ('T', 'Q', '7')
    """
    raw = str(text).strip().upper()
    rank = "T" if raw == "10" else raw
    if len(rank) != 1 or rank not in RANKS:
        raise CardError("cards.unknown_level" if level else "cards.unknown_rank", text=cut(str(text)))
    return rank


def parse_suit(text: str, trump: bool = False) -> str:
    """A suit letter from ``H``, ``h`` or ``♥`` (as cards are read); :class:`CardError` otherwise (``trump``: a
    trump suit).

    >>> parse_suit("h"), parse_suit("♠")
    ('H', 'S')
    """
    raw = str(text).strip()
    suit = SUIT_SYMBOLS.get(raw, raw.upper())
    if len(suit) != 1 or suit not in SUITS:
        raise CardError("cards.unknown_trump" if trump else "cards.unknown_suit", text=cut(str(text)))
    return suit


ALL_CARDS: tuple[Card, ...] = tuple(Card(s + r) for s in SUITS for r in RANKS) + tuple(
    Card(j) for j in JOKERS
)
_BY_NAME: dict[str, Card] = {c.code: c for c in ALL_CARDS}


class Cards:
    """An immutable multiset of cards, printed sorted (jokers, then S H D C, high to low).

    >>> hand = Cards.parse("S5 S5 SK")
    >>> hand.count(Card.parse("S5")), len(hand), hand.points
    (2, 3, 20)
    >>> hand - Cards.parse("S5")
    Cards('SK S5')
    >>> hand - Cards.parse("SA")
    Traceback (most recent call last):
    ...
    referee.cards.CardError: cards.not_among (card='SA')
    """

    __slots__ = ("_counts", "_sorted")

    def __init__(self, cards: Iterable[Card] = ()):
        self._counts: Counter[Card] = Counter(cards)
        self._sorted: tuple[Card, ...] | None = None

    @classmethod
    def _of(cls, counts: Counter[Card]) -> Cards:
        out = cls.__new__(cls)
        out._counts, out._sorted = counts, None
        return out

    @staticmethod
    def parse(cards: str | Iterable[str | Card]) -> Cards:
        """Read a list of card names (or one space-separated string)."""
        if isinstance(cards, str):
            cards = cards.split()
        return Cards(c if isinstance(c, Card) else Card.parse(c) for c in cards)

    @staticmethod
    def join(groups: Iterable[Cards]) -> Cards:
        """All the cards of several multisets together.

        >>> Cards.join([Cards.parse("SA"), Cards.parse("SA BJ")])
        Cards('BJ SA SA')
        """
        counts: Counter[Card] = Counter()
        for group in groups:
            counts.update(group._counts)
        return Cards._of(counts)

    def count(self, card: Card) -> int:
        return self._counts.get(card, 0)

    def counts(self) -> dict[Card, int]:
        """A copy of the multiplicities."""
        return dict(self._counts)

    def distinct(self) -> list[Card]:
        return sorted((c for c, n in self._counts.items() if n > 0), key=_CANON_INDEX.__getitem__)

    @property
    def points(self) -> int:
        return sum(c.points * n for c, n in self._counts.items())

    def contains(self, other: Cards) -> bool:
        return all(self.count(c) >= n for c, n in other._counts.items())

    def __add__(self, other: Cards) -> Cards:
        return Cards.join((self, other))

    def __sub__(self, other: Cards) -> Cards:
        left = Counter(self._counts)
        for card, n in other._counts.items():
            if left[card] < n:
                raise CardError("cards.not_among", card=card)
            left[card] -= n
        return Cards._of(+left)

    def __iter__(self) -> Iterator[Card]:
        if self._sorted is None:
            order = sorted(self._counts, key=_ORDER_INDEX.__getitem__)
            self._sorted = tuple(c for c in order for _ in range(self._counts[c]))
        return iter(self._sorted)

    def __len__(self) -> int:
        return sum(self._counts.values())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cards) and +self._counts == +other._counts

    def __hash__(self) -> int:
        return hash(tuple(self))

    def names(self) -> list[str]:
        """Canonical names, sorted."""
        return [c.code for c in self]

    def __str__(self) -> str:
        return " ".join(self.names())

    def __repr__(self) -> str:
        return f"Cards({str(self)!r})"


# Display order: jokers, then each suit from A down to 2.
ALL_ORDER: tuple[Card, ...] = tuple(Card.parse(j) for j in JOKERS) + tuple(
    Card.parse(s + r) for s in SUITS for r in reversed(RANKS)
)
_ORDER_INDEX = {c: i for i, c in enumerate(ALL_ORDER)}
_CANON_INDEX = {c: i for i, c in enumerate(ALL_CARDS)}


@dataclass(frozen=True)
class Decks:
    """N shuffled-together decks of 54 cards.

    >>> len(Decks(3).full())
    162
    """

    n: int

    def full(self) -> Cards:
        return Cards([c for c in ALL_CARDS for _ in range(self.n)])

    def check(self, cards: Cards, seen: Cards | None = None) -> Cards:
        """Return ``cards`` unchanged, or raise naming a card with too many copies (counting the
        ``seen`` ones too: only the cards of ``cards`` are looked at).

        >>> Decks(2).check(Cards.parse("SA"), seen=Cards.parse("SA SA"))
        Traceback (most recent call last):
        ...
        referee.cards.CardError: cards.too_many (card='SA', decks=2, n=3)
        """
        for card in cards.distinct():
            n = cards.count(card) + (seen.count(card) if seen is not None else 0)
            if n > self.n:
                raise CardError("cards.too_many", card=card, n=n, decks=self.n)
        return cards
