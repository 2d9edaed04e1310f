"""The scores of one game (each player's game score, 小分 when summed).

The seed fixes the multiples but not the base score (底分): the dealer's winning bid is the
base. A plain game moves 3 bases: the dealer wins ``dealer_win`` × base, one third from each of
the three, or loses ``dealer_loss`` × base, one third to each (zero-sum). Then, from 附件一 二:

- 头撂 (the first bidder bid 3 at once): 庄家赢牌得4倍底分，庄家输牌扣3倍底分;
- 摊打 (open hand, only after 头撂): 本局输赢分数×2;
- 报到 then 打: 庄家赢牌则分数翻倍，如庄家输牌则本局所有选手得分为0; 报到 then 不打: 本局地主
  直接获胜 (a plain win);
- 三 fouls: 任何一名选手被记过2次及以上犯规，作输者处理 — a dealer ruled the loser loses the game;
  an ally ruled the loser pays the dealer's win alone (``[fouls] ally_ruling = "offender"``), or
  the three lose it together (``"side"``).

>>> rules = load("usst-2016")
>>> game_scores(rules, Result(dealer="N", bid=2, dealer_won=True))
{'S': -2, 'E': -2, 'N': 6, 'W': -2}
>>> game_scores(rules, Result(dealer="S", bid=3, dealer_won=True, first_bid_three=True, open_hand=True))
{'S': 24, 'E': -8, 'N': -8, 'W': -8}
>>> game_scores(rules, Result(dealer="S", bid=3, dealer_won=False, first_bid_three=True))
{'S': -9, 'E': 3, 'N': 3, 'W': 3}
>>> game_scores(rules, Result(dealer="E", bid=1, dealer_won=True, offender="W"))
{'S': 0, 'E': 3, 'N': 0, 'W': -3}
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from referee.rulebooks import SandayiRulebook, load  # noqa: F401 (load: doctests)
from referee.sandayi.seats import SEATS, check_seat

REPORTS = (None, "play", "no_play")


@dataclass(frozen=True)
class Result:
    """How a game ended: the dealer, the winning bid, who won, and what raises or voids the score.

    ``report``: None (no 报到), ``"play"`` (报到 then 打) or ``"no_play"`` (报到 then 不打: the dealer
    won at once). ``offender``: a player ruled the loser for fouls (the game's loser by that ruling).
    """

    dealer: str
    bid: int
    dealer_won: bool
    first_bid_three: bool = False
    open_hand: bool = False
    report: str | None = None
    offender: str | None = None

    def __post_init__(self) -> None:
        check_seat(self.dealer)
        if self.report not in REPORTS:
            raise ValueError(f"report is None, 'play' or 'no_play', not {self.report!r}")
        if self.offender is not None:
            check_seat(self.offender)
            if self.dealer_won == (self.offender == self.dealer):
                raise ValueError(f"{self.offender} was ruled the loser, so the dealer cannot have {'won' if self.dealer_won else 'lost'}")


def base(rules: SandayiRulebook, bid: int) -> int:
    """The base score (底分): the bid, or the fixed number ``[scoring] base`` names."""
    return bid if rules.scoring.base == "bid" else rules.scoring.base


def dealer_amount(rules: SandayiRulebook, result: Result) -> Fraction:
    """What the dealer wins (positive) or loses (negative) in the game."""
    s = rules.scoring
    top = rules.bidding.bids[-1]
    if result.bid not in rules.bidding.bids:
        raise ValueError(f"the dealer's bid is one of {list(rules.bidding.bids)}, not {result.bid!r}")
    if result.first_bid_three and result.bid != top:
        raise ValueError(f"a first-bid three (头撂) is a bid of {top}, not {result.bid}")
    if result.open_hand and s.open_hand_needs_first_bid_three and not result.first_bid_three:
        raise ValueError("an open hand (摊打) comes only after a first-bid three (头撂)")
    if result.dealer_won:
        factor = s.first_bid_three_win if result.first_bid_three else s.dealer_win
    else:
        factor = s.first_bid_three_loss if result.first_bid_three else s.dealer_loss
    amount = Fraction(factor * base(rules, result.bid))
    if result.open_hand:
        amount *= s.open_hand
    if result.report == "play":
        amount *= s.report_play_win if result.dealer_won else s.report_play_loss
    return amount if result.dealer_won else -amount


def _whole(x: Fraction) -> int | Fraction:
    return int(x) if x.denominator == 1 else x


def game_scores(rules: SandayiRulebook, result: Result) -> dict[str, int | Fraction]:
    """Each seat's score for the game (zero-sum), in seat order S E N W."""
    amount = dealer_amount(rules, result)
    allies = [s for s in SEATS if s != result.dealer]
    out: dict[str, Fraction] = {s: Fraction(0) for s in SEATS}
    out[result.dealer] = amount
    offender = result.offender
    if offender is not None and offender != result.dealer and rules.fouls.ally_ruling == "offender":
        out[offender] = -amount
    else:
        for s in allies:
            out[s] = -amount / 3
    return {s: _whole(v) for s, v in out.items()}


__all__ = ["Result", "base", "dealer_amount", "game_scores"]
