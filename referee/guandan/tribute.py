"""Tribute (进贡), refusing it (抗贡), the return card (还牌) and who leads: seed 002 规则 四.

Before every hand but the first, the last player of the previous hand (下游) pays the first
(上游) its largest card, the heart level card (逢人配) excepted; the first returns one card
below 10, and the payer leads. Two big jokers refuse the tribute, and the first leads. At a
double down (双下) both losers pay: the first takes the bigger tribute and returns to its
payer, who leads; equal tributes go clockwise (each payer to its 上家), the returns go to each
receiver's 下家, and the first's 下家 leads. Settings: ``[tribute]`` of the rulebook.

>>> gd = load("sanjiang-2012")
>>> hand = Cards.parse("H5 S5 SA SK D3 C4")
>>> is_legal_tribute(gd, "5", hand, Card.parse("S5")), is_legal_tribute(gd, "5", hand, Card.parse("H5"))
(True, False)
>>> is_legal_return(gd, "5", Card.parse("S9")), is_legal_return(gd, "5", Card.parse("ST"))
(True, False)

A double down: S first, N second, so E and W pay; W's big joker is the bigger tribute.

>>> p = TributePhase.start(gd, "5", ("S", "N"))
>>> p.payers
('E', 'W')
>>> p = p.pay("E", Card.parse("SA")).pay("W", Card.parse("BJ"))
>>> [(x.giver, x.receiver, str(x.tribute)) for x in p.exchanges]
[('E', 'N', 'SA'), ('W', 'S', 'BJ')]
>>> p = p.return_("S", Card.parse("D3")).return_("N", Card.parse("CT"))
>>> p.rulings[0].detail
Reason('guandan.return_too_high', below_rank='T', card='CT', giver='E', seat='N')
>>> p = p.return_("N", Card.parse("C4"))
>>> p.done, p.leader
(True, 'W')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from referee.cards import Card, Cards
from referee.climbing.combos import power_of
from referee.guandan.rulings import Ruling
from referee.reasons import Reason, Refused
from referee.rulebooks import GuandanRulebook, load  # noqa: F401 (load: doctests)
from referee.seats import SEATS, next_seat, partner, prev_seat



class TributeError(Refused):
    """A tribute event that cannot be (a seat that does not pay, a card not in the hand, a return
    before the tribute; a reason ``guandan.*``); the tribute phase is left unchanged."""


def _level(rules: GuandanRulebook, level: str) -> str:
    if level not in rules.ranks.order:
        raise TributeError("cards.unknown_level", text=str(level))
    return level


def wildcard(rules: GuandanRulebook, level: str) -> Card | None:
    """The heart level card (逢人配), where the rulebook has one."""
    return Card.parse("H" + _level(rules, level)) if rules.ranks.wildcard == "heart_level" else None


def legal_tributes(rules: GuandanRulebook, level: str, hand: Cards) -> list[Card]:
    """The cards of the hand that may be paid: those as large as its largest card, the heart level
    card excepted (四: 进贡的牌必须是自己手中最大的牌，“逢人配”除外). A hand of nothing but heart
    level cards (never a whole hand) pays one of them.

    >>> legal_tributes(load("sanjiang-2012"), "7", Cards.parse("H7 SA HA DK"))
    [Card('SA'), Card('HA')]
    """
    wild = wildcard(rules, level) if rules.tribute.exclude_wildcard else None
    pool = [c for c in hand.distinct() if c != wild] or hand.distinct()
    if not pool:
        return []
    top = max(power_of(rules, c, level) for c in pool)
    return [c for c in pool if power_of(rules, c, level) == top]


def is_legal_tribute(rules: GuandanRulebook, level: str, hand: Cards, card: Card) -> bool:
    """Is ``card`` a legal tribute from ``hand`` (the whole hand before paying)? Any card of the
    largest power is; the heart level card is not. Raises :class:`TributeError` (a ValueError)
    when the card is not in the hand."""
    if not hand.count(card):
        raise TributeError("guandan.not_in_hand", card=card, hand_cards=hand)
    return card in legal_tributes(rules, level, hand)


def is_legal_return(rules: GuandanRulebook, level: str, card: Card) -> bool:
    """Is ``card`` a legal return card (四: 还牌：必须小于10)? Only a card ranked below the
    rulebook's ``return_below``; a level card ranks above A and a joker above all, so neither is."""
    below = rules.tribute.return_below
    if card.is_joker or card.rank == _level(rules, level):
        return False
    order = rules.ranks.order
    return order.index(card.rank) < order.index(below)


def payers(rules: GuandanRulebook, finish: Sequence[str]) -> tuple[str, ...]:
    """Who pays after a hand with this finish order (first seat first; two seats when the hand ended
    early, three or four otherwise). At a double down both losers, the first's 下家 first.

    >>> gd = load("sanjiang-2012")
    >>> payers(gd, ("E", "S", "W")), payers(gd, ("E", "W"))
    (('N',), ('N', 'S'))
    """
    finish = tuple(finish)
    if len(finish) < 2 or len(set(finish)) != len(finish) or not set(finish) <= set(SEATS):
        raise TributeError("guandan.finish_order", text=" ".join(map(str, finish)))
    first = finish[0]
    double = finish[1] == partner(first)
    if double and rules.tribute.double_down == "both":
        return (next_seat(first), prev_seat(first))
    if len(finish) < 3:
        raise TributeError("guandan.last_unknown", seats=finish)
    last = finish[3] if len(finish) == 4 else next(s for s in SEATS if s not in finish)
    return (last,)


def refuses(rules: GuandanRulebook, shown: Cards) -> bool:
    """Do the cards the payers showed together refuse the tribute (四: 下游者抓到两个大王，则不用进贡;
    双下时，如二人各抓到一个“大王”或一方抓到两个“大王”，则都不用进贡)?"""
    card = rules.tribute.refuse_with
    return shown.count(card) >= rules.tribute.refuse_count


def receivers(rules: GuandanRulebook, level: str, first: str, paid: Mapping[str, Card]) -> dict[str, str]:
    """Payer -> receiver once every tribute is paid. One payer pays the first. Two: the first takes
    the bigger (四: 上游者拿大牌) and its partner the other; equal tributes go clockwise, each payer
    to its 上家 (四: 如双方进贡的牌一样大小，则按照顺时针方向进贡)."""
    if len(paid) == 1:
        return {next(iter(paid)): first}
    (a, ca), (b, cb) = paid.items()
    pa, pb = power_of(rules, ca, level), power_of(rules, cb, level)
    if pa == pb:
        return {a: prev_seat(a), b: prev_seat(b)}  # [tribute] equal = "clockwise": the first's 下家 pays the first, its 上家 the partner
    big, small = (a, b) if pa > pb else (b, a)
    return {big: first, small: partner(first)}


@dataclass(frozen=True)
class Exchange:
    """One tribute: who paid whom which card, and the card returned (None until it is)."""

    giver: str
    receiver: str
    tribute: Card
    returned: Card | None = None


@dataclass(frozen=True)
class TributePhase:
    """The tribute before a hand, as a value fed events: payers show big jokers (:meth:`refuse`),
    pay (:meth:`pay`), receivers return (:meth:`return_`). An illegal card is a ruling and is given
    again (四: 正常判为重新给牌); an event that cannot be raises :class:`TributeError`."""

    rules: GuandanRulebook
    level: str
    first: str
    payers: tuple[str, ...]
    shown: tuple[tuple[str, Cards], ...] = ()
    paid: tuple[tuple[str, Card], ...] = ()
    returned: tuple[tuple[str, Card], ...] = ()  # (receiver, card)
    rulings: tuple[Ruling, ...] = ()

    @staticmethod
    def start(rules: GuandanRulebook, level: str, finish: Sequence[str]) -> TributePhase:
        """The tribute after a hand that finished in this order (see :func:`payers`)."""
        _level(rules, level)
        paying = payers(rules, finish)
        return TributePhase(rules, level, next(iter(finish)), paying)

    # -- what is known ------------------------------------------------------------
    @property
    def refused(self) -> bool:
        return refuses(self.rules, Cards.join(c for _, c in self.shown))

    @property
    def double(self) -> bool:
        return len(self.payers) == 2

    def _receivers(self) -> dict[str, str]:
        if len(self.paid) < len(self.payers):
            return {}
        return receivers(self.rules, self.level, self.first, dict(self.paid))

    @property
    def exchanges(self) -> tuple[Exchange, ...]:
        """The tributes, in seat order from S, once every payer has paid; () before."""
        back = dict(self.returned)
        to = self._receivers()
        return tuple(
            Exchange(g, to[g], card, back.get(to[g])) for g, card in sorted(self.paid, key=lambda p: SEATS.index(p[0]))
        ) if to else ()

    @property
    def done(self) -> bool:
        return self.refused or (len(self.paid) == len(self.payers) and len(self.returned) == len(self.payers))

    @property
    def leader(self) -> str | None:
        """Who leads the hand, once the tribute is done (None before)."""
        if not self.done:
            return None
        if self.refused:
            rule = self.rules.tribute.lead_refused
        elif self.double and len({power_of(self.rules, c, self.level) for _, c in self.paid}) == 1:
            rule = self.rules.tribute.lead_equal
        else:
            rule = self.rules.tribute.lead_paid
        if rule == "first":
            return self.first
        if rule == "first_next":
            return next_seat(self.first)
        return next(g for g, r in self._receivers().items() if r == self.first)  # "payer"

    # -- events ---------------------------------------------------------------------
    def refuse(self, seat: str, cards: Cards) -> TributePhase:
        """A payer shows big jokers to refuse the tribute; at a double down the two payers' cards count together."""
        card = self.rules.tribute.refuse_with
        if seat not in self.payers:
            raise TributeError("guandan.refuse_no_tribute", seat=seat)
        if seat in dict(self.paid) or seat in dict(self.shown):
            raise TributeError("guandan.already_paid" if seat in dict(self.paid) else "guandan.already_shown", seat=seat)
        if not len(cards) or any(c != card for c in cards):
            raise TributeError("guandan.refuse_with", seat=seat, card=card, cards=cards)
        return replace(self, shown=self.shown + ((seat, cards),))

    def pay(self, seat: str, card: Card, hand: Cards | None = None) -> TributePhase:
        """``seat`` pays ``card``; with its ``hand`` (before paying) known, the card is checked against it."""
        if self.refused:
            raise TributeError("guandan.refused", seat=seat, cards=Cards.join(c for _, c in self.shown))
        if seat not in self.payers:
            raise TributeError("guandan.not_a_payer", seat=seat, payers=self.payers)
        if seat in dict(self.paid):
            raise TributeError("guandan.paid_already", seat=seat, card=dict(self.paid)[seat])
        wild = wildcard(self.rules, self.level)
        why = None
        if hand is not None:
            if not is_legal_tribute(self.rules, self.level, hand, card):
                top = legal_tributes(self.rules, self.level, hand)
                why = Reason("guandan.tribute_not_top", seat=seat, card=card, top_cards=top)
        elif card == wild and self.rules.tribute.exclude_wildcard:
            why = Reason("guandan.tribute_wild", seat=seat, card=card)
        if why:
            return replace(self, rulings=self.rulings + (Ruling("illegal_tribute", seat, why),))
        return replace(self, paid=self.paid + ((seat, card),))

    def return_(self, seat: str, card: Card) -> TributePhase:
        """The receiver ``seat`` returns ``card`` to its payer."""
        to = self._receivers()
        if not to:
            raise TributeError("guandan.return_early", seat=seat)
        givers = {r: g for g, r in to.items()}
        if seat not in givers:
            raise TributeError("guandan.not_a_receiver", seat=seat, seats=sorted(givers, key=SEATS.index))
        if seat in dict(self.returned):
            raise TributeError("guandan.returned_already", seat=seat, card=dict(self.returned)[seat])
        if not is_legal_return(self.rules, self.level, card):
            below = self.rules.tribute.return_below
            why = Reason("guandan.return_too_high", seat=seat, card=card, giver=givers[seat], below_rank=below)
            return replace(self, rulings=self.rulings + (Ruling("illegal_return", seat, why),))
        return replace(self, returned=self.returned + ((seat, card),))


__all__ = [
    "Exchange",
    "TributeError",
    "TributePhase",
    "is_legal_return",
    "is_legal_tribute",
    "legal_tributes",
    "payers",
    "receivers",
    "refuses",
    "wildcard",
]  # fmt: skip
