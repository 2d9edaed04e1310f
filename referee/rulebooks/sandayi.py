"""The San Da Yi (三打一) rulebook's schema: the bidding, the bomb limits, the scoring, the round
and the fouls, read by ``referee/sandayi`` (README.md "## San Da Yi"; the book's file cites each article)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from referee.rulebooks.book import Seat, Suit
from referee.rulebooks.climbing import ClimbingRulebook
from referee.rulebooks.settings import check, setting

Bid = Literal[1, 2, 3]
Limit = int | Literal["unlimited"]
FoulKind = Literal["count_report", "ask_out_of_turn", "wrong_answer", "talking", "spoken_pass", "hurrying", "peeking", "signalling"]


@dataclass(frozen=True)
class Bidding:
    bids: tuple[Bid, ...] = setting(
        "the bids, lowest first (`[1, 2, 3]`); the last is the top bid: it ends the bidding at once, and a first "
        "bidder's top bid is 头撂 (first-bid three)")
    first_may_pass: bool = setting("`false`: the first bidder must bid (最少叫1分), so there is always a dealer (无荒番局, no redeal)")

    def __post_init__(self) -> None:
        check(bool(self.bids) and list(self.bids) == sorted(set(self.bids)), "bids", self.bids, "bids")


@dataclass(frozen=True)
class BombLimits:
    dealer: Limit = setting("the most bombs the dealer may play in one game, or `\"unlimited\"`")
    not_asked: Limit = setting("the same for a player never asked to bid")
    bid_1: Limit = setting("the same for a player who bid 1")
    bid_2: Limit = setting("the same for a player who bid 2")
    pass_: Limit = setting("the same for a player asked who passed", key="pass")
    joker_bomb: bool = setting("the four-joker bomb (天王炸弹) uses up a bomb too")

    def __post_init__(self) -> None:
        for key in ("dealer", "not_asked", "bid_1", "bid_2", "pass_"):
            limit = getattr(self, key)
            check(limit == "unlimited" or limit >= 0, key.rstrip("_"), limit, "limit")


@dataclass(frozen=True)
class Scoring:
    base: int | Literal["bid"] = setting("the base score (底分): `\"bid\"` (the dealer's winning bid; the seed does not fix it) or a number")
    dealer_win: int = setting("bases the dealer wins in a plain game; each of the three pays a third (zero-sum)")
    dealer_loss: int = setting("bases the dealer loses in a plain game; each of the three receives a third")
    first_bid_three_win: int = setting("`dealer_win` after 头撂")
    first_bid_three_loss: int = setting("`dealer_loss` after 头撂")
    open_hand: int = setting("multiplier of a game played with the dealer's hand face up (摊打)")
    open_hand_needs_first_bid_three: bool = setting("摊打 only after 头撂")
    report_jokers: int = setting("the dealer may report (报到) holding this many jokers, after taking the kitty and before the first lead")
    report_bomb: int = setting("… or a bomb of at least this many cards")
    report_play_win: int = setting(
        "multiplier after reporting and playing on (打) when the dealer wins; reporting and not playing (不打) "
        "wins at once, scored as a plain win")
    report_play_loss: int = setting("multiplier after reporting and playing on when the dealer loses (0: all score 0)")


@dataclass(frozen=True)
class Round:
    seat_of_suit: Mapping[Suit, Seat] = setting("where the players who drew 黑 (S), 红 (H), 梅 (C), 方 (D) sit: `S E N W`, counter-clockwise")
    first_bidder_suits: tuple[Suit, ...] = setting("the first bidder of game 1, 2, 3, … of a round, by suit, in turn")
    games: int = setting("games per round at a table")
    rounds: int = setting("rounds in the tournament")
    points: tuple[int, int, int, int] = setting("round points by the place at the table after the round's games, by game score")
    ties: Literal["split"] = setting("`\"split\"`: players level on game score share the points of the places they fill (two tied first: 4 each)")
    tie_break: Literal["game_score"] = setting(
        "`\"game_score\"`: the final standing sorts by round points, then by game score (小分, every game score "
        "summed). Seed 004 is silent on players level on both: the tournament parts them by rounds forfeited (fewer "
        "first), then by the lot drawn at registration, marked ※ (`referee/tournament/individual.py`)")

    def __post_init__(self) -> None:
        seating = {k: v for k, v in self.seat_of_suit.items()}
        check(len(seating) == 4 and len(set(seating.values())) == 4, "seat_of_suit", seating, "seat_of_suit")
        check(bool(self.first_bidder_suits), "first_bidder_suits", self.first_bidder_suits, "one_suit_or_more")
        check(self.games >= 1, "games", self.games, "one_or_more")
        check(self.rounds >= 1, "rounds", self.rounds, "one_or_more")


@dataclass(frozen=True)
class Fouls:
    limit: int = setting("fouls by one player in one game that make that player the game's loser (作输者处理)")
    ally_ruling: Literal["offender", "side"] = setting(
        "an ally ruled the loser: `\"offender\"` pays the dealer's win alone and the other two score 0; `\"side\"` "
        "the three lose together. A dealer ruled the loser loses the game")
    kinds: tuple[FoulKind, ...] = setting("the fouls the referee can record")

    def __post_init__(self) -> None:
        check(self.limit >= 1, "limit", self.limit, "one_or_more")


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class SandayiRulebook(ClimbingRulebook):
    """A San Da Yi rulebook (``game = "sandayi"``)."""

    game: Literal["sandayi"] = setting("the game it configures")
    bidding: Bidding = setting("`[bidding]`")
    bomb_limits: BombLimits = setting("`[bomb_limits]`")
    scoring: Scoring = setting("`[scoring]`")
    round: Round = setting("`[round]`")
    fouls: Fouls = setting("`[fouls]`")

    def __post_init__(self) -> None:
        super().__post_init__()
        check(self.deal.told_at >= 1, "[deal] told_at", self.deal.told_at, "told_at", term="报牌")


__all__ = ["Bidding", "BombLimits", "Fouls", "Round", "SandayiRulebook", "Scoring"]
