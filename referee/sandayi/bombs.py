"""Bomb limits (炸弹限制): how many bombs a player may play in one game, by what they bid.

附件一 二 炸弹限制: 庄家——没有限制；未轮到叫牌的选手——没有限制；叫2分的选手——限制当局最多打2次
“炸弹”；叫1分的选手——限制当局最多打1次“炸弹”；轮到叫牌且选择“不叫”的选手——限制当局最多打1次
“炸弹”。 The limits are the rulebook's ``[bomb_limits]``; a bid of 3 always makes its bidder the
dealer (no limit), and the four-joker bomb counts where ``joker_bomb`` says so.

>>> rules = load("usst-2016")
>>> bomb_allowed(rules, 1, 0), bomb_allowed(rules, 1, 1), bomb_allowed(rules, 2, 1)
(True, False, True)
>>> bomb_allowed(rules, "pass", 1), bomb_allowed(rules, "not_asked", 9), bomb_allowed(rules, "dealer", 5)
(False, True, True)
>>> bomb_allowed(rules, 4, 0)
Traceback (most recent call last):
...
referee.sandayi.bombs.BombLimitError: sandayi.bomb_bid (bids=[1, 2, 3], value='4')
>>> bomb_allowed(rules, 2, -1)
Traceback (most recent call last):
...
referee.sandayi.bombs.BombLimitError: sandayi.bombs_played (value='-1')
"""

from __future__ import annotations

from referee.climbing.combos import Reading
from referee.reasons import Refused, cut
from referee.rulebooks import SandayiRulebook, load  # noqa: F401 (load: doctests)
from referee.sandayi.bidding import bid_values

CATEGORIES = ("pass", "dealer", "not_asked")


class BombLimitError(Refused):
    """A bid or bomb count that :func:`bomb_allowed` cannot judge."""


def _key(rules: SandayiRulebook, bid: object) -> str:
    values = bid_values(rules)
    if isinstance(bid, str) and bid in CATEGORIES:
        return bid
    if isinstance(bid, int) and not isinstance(bid, bool) and bid in values:
        return "dealer" if bid == values[-1] else f"bid_{bid}"  # the top bid always deals
    raise BombLimitError("sandayi.bomb_bid", value=cut(repr(bid)), bids=tuple(values))


def bomb_limit(rules: SandayiRulebook, bid: int | str) -> int | None:
    """The most bombs a player who bid ``bid`` may play in one game; None: no limit.

    >>> [bomb_limit(load("usst-2016"), b) for b in (1, 2, 3, "pass", "dealer", "not_asked")]
    [1, 2, None, 1, None, None]
    """
    key = _key(rules, bid)
    limit = getattr(rules.bomb_limits, "pass_" if key == "pass" else key)
    return None if limit == "unlimited" else limit


def bomb_allowed(rules: SandayiRulebook, bid: int | str, bombs_played: int) -> bool:
    """May a player who bid ``bid`` (1, 2, 3, ``"pass"``, ``"dealer"`` or ``"not_asked"``) play one
    more bomb, having played ``bombs_played`` this game?"""
    limit = bomb_limit(rules, bid)
    if isinstance(bombs_played, bool) or not isinstance(bombs_played, int) or bombs_played < 0:
        raise BombLimitError("sandayi.bombs_played", value=cut(repr(bombs_played)))
    return limit is None or bombs_played < limit


def counts_as_bomb(rules: SandayiRulebook, reading: Reading) -> bool:
    """Does playing ``reading`` use up one of the player's bombs?

    >>> rules = load("usst-2016")
    >>> counts_as_bomb(rules, Reading("joker_bomb", 15, 4)), counts_as_bomb(rules, Reading("pair", 15, 2))
    (True, False)
    """
    if reading.type == "joker_bomb":
        return bool(rules.bomb_limits.joker_bomb)
    return reading.is_bomb


__all__ = ["BombLimitError", "bomb_allowed", "bomb_limit", "counts_as_bomb"]
