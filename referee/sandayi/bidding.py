"""Bidding (叫分): who becomes the dealer, and what each player bid.

附件一 二 叫分: 首先叫牌者开始叫分，且最少叫1分，其他选手可选择叫“2分”、“3分”或者“不叫”，所叫的分数
必须比上一家高，叫分最高的选手成为庄家，无荒番局。 Each player speaks once, counter-clockwise from
the first bidder; the top bid (3) ends the bidding at once, and the players after it are never asked.
The first bidder may not pass, so there is always a dealer: no redeal.

>>> rules = load("usst-2016")
>>> b = Bidding(rules, "S").bid("S", 1).bid("E", "pass").bid("N", 2).bid("W", "pass")
>>> b.done, b.dealer, b.high
(True, 'N', 2)
>>> [b.bomb_category(s) for s in "SENW"]
[1, 'pass', 'dealer', 'pass']
>>> t = Bidding(rules, "E").bid("E", 3)
>>> t.done, t.dealer, t.first_bid_three, t.bomb_category("W")
(True, 'E', True, 'not_asked')
>>> Bidding(rules, "S").bid("S", 2).bid("E", 1)
Traceback (most recent call last):
...
referee.sandayi.bidding.BidError: sandayi.bid_higher (high=2, seat='E')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.reasons import Refused, cut
from referee.rulebooks import SandayiRulebook, load  # noqa: F401 (load: doctests)
from referee.sandayi.seats import check_seat, seats_from

PASS = "pass"


class BidError(Refused):
    """A bid the rules do not allow now; the bidding is unchanged."""


def bid_values(rules: SandayiRulebook) -> tuple[int, ...]:
    """The bids a player may make, lowest first (``[bidding] bids``)."""
    return tuple(rules.bidding.bids)


def check_bid(rules: SandayiRulebook, value: object) -> int | str:
    """``value`` when it is a bid of the rulebook or ``"pass"``; raise :class:`BidError` otherwise."""
    if value == PASS and isinstance(value, str):
        return PASS
    if isinstance(value, int) and not isinstance(value, bool) and value in bid_values(rules):
        return value
    raise BidError("sandayi.unknown_bid", text=cut(repr(value)), bids=list(bid_values(rules)))


@dataclass(frozen=True)
class Bidding:
    """The bids so far, from the first bidder on, as a value fed one bid at a time."""

    rules: SandayiRulebook
    first: str
    bids: tuple[tuple[str, int | str], ...] = ()

    def __post_init__(self) -> None:
        check_seat(self.first)

    @property
    def order(self) -> tuple[str, ...]:
        return seats_from(self.first)

    @property
    def high(self) -> int | None:
        """The highest bid so far (None before the first)."""
        values = [v for _, v in self.bids if v != PASS]
        return max(values) if values else None

    @property
    def done(self) -> bool:
        """Everyone has spoken, or someone bid the top bid."""
        return len(self.bids) == 4 or self.high == bid_values(self.rules)[-1]

    @property
    def turn(self) -> str | None:
        """Who bids next (None once the bidding is over)."""
        return None if self.done else self.order[len(self.bids)]

    @property
    def dealer(self) -> str | None:
        """The highest bidder once the bidding is over (None before)."""
        if not self.done:
            return None
        high = self.high
        return next(s for s, v in self.bids if v == high)

    @property
    def first_bid_three(self) -> bool:
        """头撂: 首先叫者选择“3分”，令其他三家都没有机会叫档。"""
        return bool(self.bids) and self.bids[0][1] == bid_values(self.rules)[-1]

    def asked(self, seat: str) -> bool:
        """Was ``seat`` asked to bid (its turn came)?"""
        return any(s == check_seat(seat) for s, _ in self.bids)

    def bid_of(self, seat: str) -> int | str | None:
        """What ``seat`` said: a bid, ``"pass"``, or None when it was not asked."""
        return next((v for s, v in self.bids if s == check_seat(seat)), None)

    def bomb_category(self, seat: str) -> int | str:
        """The ``bid`` argument of :func:`referee.sandayi.bombs.bomb_allowed` for ``seat``:
        ``"dealer"``, the bid it made (1 or 2), ``"pass"``, or ``"not_asked"``."""
        if not self.done:
            raise BidError("sandayi.bidding_not_over")
        if seat == self.dealer:
            return "dealer"
        said = self.bid_of(seat)
        return "not_asked" if said is None else said

    def bid(self, seat: str, value: int | str) -> Bidding:
        """The bidding after ``seat`` says ``value`` (a bid of the rulebook, or ``"pass"``)."""
        check_seat(seat)
        if self.done:
            raise BidError("sandayi.bidding_over", seat=seat, dealer=self.dealer)
        if seat != self.turn:
            raise BidError("sandayi.bid_turn", seat=seat, turn=self.turn)
        value = check_bid(self.rules, value)
        if value == PASS:
            if not self.bids and not self.rules.bidding.first_may_pass:
                low = bid_values(self.rules)[0]
                raise BidError("sandayi.first_bid", seat=seat, low=low)
        elif self.high is not None and value <= self.high:
            raise BidError("sandayi.bid_higher", seat=seat, high=self.high)
        return replace(self, bids=self.bids + ((seat, value),))


__all__ = ["PASS", "BidError", "Bidding", "bid_values", "check_bid"]
