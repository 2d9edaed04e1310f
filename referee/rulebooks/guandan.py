"""The Guandan (掼蛋) rulebook's schema: the hand, the tribute, the levels, the stages and the
match, read by ``referee/guandan`` (README.md "## Guandan"; the book's file cites each article)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from referee.cards import Card
from referee.rulebooks.book import Rank
from referee.rulebooks.climbing import ClimbingRulebook
from referee.rulebooks.settings import check, setting

Place = Literal[2, 3, 4]
Leader = Literal["payer", "first", "first_next"]
FoulKind = Literal["signalling", "cards_below_table", "count_misreport", "tribute_breach"]


@dataclass(frozen=True)
class Play:
    take_the_lead: Literal["partner", "next"] = setting(
        "who leads when everyone passes after a player's last cards: `partner` (接风: the partner opposite, when "
        "it still holds cards) or `next` (the next seat still holding cards)")
    early_end: bool = setting(
        "the hand ends as soon as partners take first and second (the other two are both last: a double down); "
        "`false`: play on until three have played out")
    sit_out: tuple[Literal["out_of_turn", "exposed_card", "impossible"], ...] = setting(
        "the confirmed violations whose offender sits out its next turn (each also counts a foul): a pass, or "
        "when it would lead, the next seat holding cards leads; `impossible`: a play the rules refuse (错牌), "
        "which the seat does not play again that turn; `[]`: none")


@dataclass(frozen=True)
class Announce:
    cards: int = setting(
        "at this many cards or fewer a seat's count is shown on the table (the duty to announce it, 报数); the "
        "hand records, once per seat, after which turn and at what time it was first shown")


@dataclass(frozen=True)
class Tribute:
    exclude_wildcard: bool = setting("the heart level card is never the tribute, and a payer may keep it above the card it pays")
    return_below: Rank = setting("the return card ranks below this rank in `[ranks] order`; a level card (above A) and a joker never do")
    refuse_with: Card = setting("the payers refuse when they show `refuse_count` of this card between them")
    refuse_count: int = setting("how many `refuse_with` cards refuse (at a double down the two payers' cards count together)")
    double_down: Literal["both", "last"] = setting(
        "`both`: at a double down both losers pay (the first takes the bigger tribute, its partner the other); "
        "`last`: only the last pays")
    equal: Literal["clockwise"] = setting(
        "`clockwise`: equal tributes at a double down go to each payer's 上家 (the first's 下家 pays the first), "
        "and each receiver returns to its 下家")
    lead_paid: Leader = setting("who leads after a tribute: `payer` (at a double down the payer of the bigger tribute), `first`, or `first_next` (the first's 下家)")
    lead_refused: Leader = setting("who leads after a refused tribute (as `lead_paid`)")
    lead_equal: Leader = setting("who leads after equal double tributes (as `lead_paid`)")

    def __post_init__(self) -> None:
        check(self.refuse_count >= 1, "refuse_count", self.refuse_count, "one_or_more")


@dataclass(frozen=True)
class Levels:
    places: Mapping[Place, int] = setting(
        "levels the first's team goes up, by the place its partner finished (`{2 = 3, 3 = 2, 4 = 1}`); only "
        "the first's team goes up, and levels never go down")
    pass_partner_places: tuple[Place, ...] = setting(
        "at a `must_play` level, the team passes it only when the partner finished in one of these places (not last)")

    def __post_init__(self) -> None:
        check(set(self.places) == {2, 3, 4}, "places", {str(k): v for k, v in self.places.items()}, "places")


@dataclass(frozen=True)
class Stage:
    start: Rank = setting("the level both teams start from")
    passes: Rank = setting("the game is won by going past this level")
    must_play: bool = setting(
        "`true`: levels stop at `passes`, and the game is won only in a hand played at it, by a team at it "
        "that takes first with its partner in `pass_partner_places`; `false`: going past it at any hand wins")
    best_of: int = setting("games in a match (`3`: the first to win two)")

    def __post_init__(self) -> None:
        check(self.best_of >= 1 and self.best_of % 2 == 1, "best_of", self.best_of, "best_of")


@dataclass(frozen=True)
class Match:
    minutes: float = setting("the match's time limit; when time is called a hand not yet drawn is not played, a drawn one is finished")
    stage: str = setting("the `[stages.NAME]` a table's match is played under (a book for another stage `extends` this one)")
    time_up_tie: Literal["first_to_reach"] = setting(
        "`first_to_reach`: at time, games standing at 1:1 play the deciding game out without a limit; else the "
        "game in play goes to the higher level, at equal levels to the team that reached it first; if that leaves "
        "the games level (1:1) the deciding game is played out, else the team with more games wins")


@dataclass(frozen=True)
class Fouls:
    kinds: Mapping[FoulKind, str] = setting(
        "the fouls the referee records from the console (no camera sees them), each with the article it cites; "
        "each counts to the side (`[clock] fouls_lose_round`)")
    warned_first: tuple[FoulKind, ...] = setting(
        "kinds whose first by a player in the round is a warning, not a foul (its `violations` penalty `warning`)", ())
    taken_back: tuple[FoulKind, ...] = setting(
        "kinds recorded against a seat that has played out whose cards are taken back: the hand goes back to before "
        "the play that emptied its hand, that seat on turn holding those cards, the turns after it taken back too; a "
        "hand already scored only until the next one is drawn, and not one that decided the game", ())

    def __post_init__(self) -> None:
        check(set(self.warned_first) <= set(self.kinds), "warned_first", self.warned_first, "foul_kinds")
        check(set(self.taken_back) <= set(self.kinds), "taken_back", self.taken_back, "foul_kinds")


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class GuandanRulebook(ClimbingRulebook):
    """A Guandan rulebook (``game = "guandan"``)."""

    game: Literal["guandan"] = setting("the game it configures")
    play: Play = setting("`[play]`")
    announce: Announce = setting("`[announce]`")
    tribute: Tribute = setting("`[tribute]`")
    levels: Levels = setting("`[levels]`")
    stages: Mapping[str, Stage] = setting("`[stages.NAME]`: one table per stage of the tournament, chosen when a game starts")
    match: Match = setting("`[match]`")
    fouls: Fouls = setting("`[fouls]`")

    def __post_init__(self) -> None:
        super().__post_init__()
        check(self.match.stage in self.stages, "match.stage", self.match.stage, "stage", stages=", ".join(self.stages))
        # 规程 三 2: 每场比赛时间定为1小时 is one time, written twice: the table's round clock and the match's limit
        hour = 60 * self.match.minutes
        check(self.clock.round_s == hour, "clock.round_s", self.clock.round_s,
              "round_s", hour=f"{hour:g}", minutes=f"{self.match.minutes:g}")


__all__ = ["Announce", "Fouls", "GuandanRulebook", "Levels", "Match", "Play", "Stage", "Tribute"]
