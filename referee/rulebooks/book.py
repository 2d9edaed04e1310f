"""What every rulebook has, whatever its game: who it is, the seed it configures, and its clocks.

A rulebook's class is its game's schema (:mod:`referee.rulebooks.tractor`,
:mod:`~referee.rulebooks.guandan`, :mod:`~referee.rulebooks.sandayi`): each section a frozen
dataclass of typed settings (:mod:`referee.rulebooks.settings`), read and checked when the file loads.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, get_args

from referee.catalogue import speaks
from referee.rulebooks.settings import Said, check, fault, named, setting, show

Rank = named(Literal["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"], "rank")
Suit = Literal["S", "H", "D", "C"]
Seat = Literal["S", "E", "N", "W"]


#: What a shot clock times: ``kitty_and_first_lead`` (from the dealer taking the kitty to its first
#: lead, one clock), ``lead`` / ``follow`` (a play that leads a trick or follows it), ``play`` (a play
#: in a climbing game that may pass), ``return`` (the return card after a tribute).
ACTIONS = ("kitty_and_first_lead", "lead", "follow", "play", "return")
LEADS = ("kitty_and_first_lead", "lead")
Outcome = Literal["none", "penalty", "pass", "foul"]
OUTCOMES: tuple[str, ...] = get_args(Outcome)


@dataclass(frozen=True)
class PenaltyEntry:
    """One entry of ``[penalties]`` (or ``[clock.penalties]``): what a violation of its name costs."""

    points: int = setting(
        "points moved to the non-offending side: added to the defenders' points when the dealer's side "
        "offends, taken from them otherwise (a late side: off its points in the first hand)", 0)
    per_card: bool = setting("`points` per card involved", False)
    levels: int = setting("levels the non-offending side goes up", 0)
    dealer_levels: int | None = setting(
        "levels the defenders go up when the dealer's side offends (left out: `levels`); 0 with `deal`: the dealer's "
        "side only steps down (自动下台), the defenders taking the deal", None)
    deal: bool = setting("the deal passes to the non-offending side", False)
    both_sides: Literal["replay"] | None = setting("`\"replay\"`: the hand is replayed when both sides offend", None)
    warning: bool = setting("a warning, nothing more", False)
    warnings: int = setting("warnings before `points` apply (the `clock` entry: per seat)", 0)
    forfeit_hand: bool = setting("the offending side forfeits the hand (the first hand, for lateness): the opponents go up a level", False)
    forfeit_round: bool = setting("the offending side forfeits the round", False)
    cannot_win: bool = setting(
        "(`revoke`) a play proven a revoke, even later in the hand, cannot win its trick: the trick's points "
        "(and the last trick's kitty) go to the best of the other plays; the order of play stays as played "
        "(who took the trick at the table led the next)", False)
    card_points: bool = setting(
        "(a Tractor console foul of `[fouls] kinds`) the referee names the cards concerned (seed 000 第十八条: the wrong "
        "play corrected in the trick), and their points (5, 10, K) move to the non-offending side besides `points` "
        "(如其中含有分数牌，则该分数为非错方赢取)", False)

    def points_for(self, cards: int) -> int:
        """The points moved for a violation involving ``cards`` cards (``per_card``: each of them).

        >>> PenaltyEntry(points=20, per_card=True).points_for(2), PenaltyEntry(points=40).points_for(2)
        (40, 40)
        """
        return self.points * (cards if self.per_card else 1)

    def levels_against(self, offender: str) -> int:
        """The levels the other side goes up when ``offender`` (``"dealer"`` or ``"defenders"``) offends; a forfeited
        hand is a level.

        >>> step_down = PenaltyEntry(levels=1, dealer_levels=0, deal=True)  # 001 十八: 判自动下台或别人自动升级
        >>> step_down.levels_against("dealer"), step_down.levels_against("defenders")
        (0, 1)
        """
        levels = self.levels if offender == "defenders" or self.dealer_levels is None else self.dealer_levels
        return levels or (1 if self.forfeit_hand else 0)


def on_grid(seconds: float) -> float:
    """A time or a span of time to the microsecond, as every clock compares it with a book's limits (the table's
    clocks, the Tractor kitty's window): a play written exactly at its limit is in time although two floats'
    difference may be a hair past it (32.2 - 22.2 is 10.000000000000004).

    >>> 32.2 - 22.2 > 10, on_grid(32.2 - 22.2) > 10
    (True, False)
    """
    return round(seconds, 6)


@dataclass(frozen=True)
class Clock:
    """``[clock]``: each play's shot clock, late arrival and the round clock, read by
    ``referee/table/clock.py`` (README "## Clocks"); a setting left out means none."""

    kitty_and_first_lead_s: float = setting("one clock from the dealer taking the kitty to its first lead (seed 001 二十三: 60)", 0.0)
    lead_s: float = setting("a play that leads a trick; left out: `play_s`", 0.0)
    follow_s: float = setting("a play that follows a trick (follows, discards and ruffs: 跟牌、垫牌、将吃); left out: `play_s`", 0.0)
    play_s: float = setting("a play in a climbing game (seed 002 十二 第3条: 10)", 0.0)
    return_s: float = setting("the return card after a tribute (还牌, seed 002: 20)", 0.0)
    long_think_s: float = setting(
        "each player's one long think per hand (长考, seed 002: 30): the seat's first play past its plain limit "
        "takes it, and that play may then last `long_think_s` in all; later plays of the hand have the plain "
        "limit. Not for the return card", 0.0)
    overrun: Outcome = setting(
        "what an overrun costs: `none` (logged with its evidence only), `penalty` (the `clock` penalty entry: "
        "`warnings` warnings per seat, then `points` each time, moved to the non-offending side by `settle`), "
        "`pass` (the turn is given up, climbing games only: a follower passes, a leader's lead goes to the next "
        "seat holding cards, as a seat that sits out; seed 002 十二 第3条 视作放弃本次出牌权), `foul` (a foul to "
        "the seat's side)", "none")
    overrun_lead: Outcome | None = setting(
        "the same for `lead` and `kitty_and_first_lead`; left out: `overrun`. `kitty_and_first_lead` is never `pass`", None)
    overrun_return: Outcome | None = setting("the same for the return card; left out: `overrun`. Never `pass`", None)
    warnings_per: Literal["round", "hand"] = setting(
        "`round` (each player's first overrun in a round is its warning: seed 001 二十三 第一次警告, read per "
        "player per round) or `hand`", "round")
    fouls_lose_round: int = setting(
        "fouls by one side (both players together, of any kind) that lose it the round (seed 002 十 第3条: 3); 0 never", 0)
    late_bands: tuple[tuple[float, str], ...] = setting(
        "`[[up to minutes, entry], ...]`, rising: a band holds lateness above the bound before it (0 for the "
        "first) up to its own, inclusive; `inf` closes the last. The entry is a penalty entry's name", ())
    round_s: float = setting("the round's length (seeds 000 and 001: 5400; seed 002: 3600, as `[match] minutes`); 0 untimed", 0.0)
    round_notice_s: float = setting(
        "the notice this long before the end (seed 000: 900, seed 001: 600, seed 002: 0, time is called at the "
        "hour). From the notice on the hand in play is the last: no hand starts after it", 0.0)
    round_cut: Literal["none", "undrawn"] = setting(
        "`none`: the last hand is always played out, even past the end (seeds 000, 001); `undrawn`: at the end "
        "a hand whose cards are not all drawn stops, a drawn one is played out (seed 002: "
        "未抓完牌牌桌停止打牌（抓完牌打完本副）; a Guandan book only: the other tables play out the hand in play)", "none")
    call_holds: bool = setting(
        "a seat's `referee` button stops play until a person answers: the call is a flag (`referee_called`) that "
        "holds the clocks and makes plays wait, as every flag, resolved by `confirm` or `dismiss` (seed 002 十 第1条: "
        "举报人举手报告裁判员。停止打牌); false: the call is told (`referee_called`) and play goes on", False)
    penalties: Mapping[str, PenaltyEntry] = setting(
        "`[clock.penalties]`: entries for books without a `[penalties]` section (climbing books); an entry is "
        "looked up here first, then in `[penalties]`", {})
    articles: Mapping[Literal["play", "return", "fouls", "late", "round"], str] = setting(
        "`[clock.articles]`: the article each ruling cites, quoted", {})

    def __post_init__(self) -> None:
        bounds = [upto for upto, _ in self.late_bands]
        check(all(b > 0 for b in bounds) and bounds == sorted(set(bounds)), "late_bands",
              [[b, key] for b, key in self.late_bands], "late_bands")
        check(0 <= self.round_notice_s and (not self.round_s or self.round_notice_s <= self.round_s), "round_notice_s",
              self.round_notice_s, "round_notice_s", round_s=f"{self.round_s:g}")

    def timed(self) -> Mapping[str, float]:
        """The limit of each action the book times (an action it does not time is left out)."""
        wanted = {"kitty_and_first_lead": self.kitty_and_first_lead_s, "lead": self.lead_s or self.play_s,
                  "follow": self.follow_s or self.play_s, "play": self.play_s, "return": self.return_s}
        return MappingProxyType({a: s for a, s in wanted.items() if s > 0})

    def outcome(self, action: str) -> str:
        """What an overrun of ``action`` costs."""
        if action in LEADS:
            return self.overrun_lead or self.overrun
        return (self.overrun_return or self.overrun) if action == "return" else self.overrun


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class Book:
    """A rulebook of any game: equal to another of the same ``id`` (the file's name)."""

    id: str = setting("the rulebook's name: its file's name without `.toml`")
    game: Literal["tractor", "guandan", "sandayi"] = setting("the game it configures")
    title: str = setting("its title, as the venue writes it")
    title_en: str = setting("its title in English (the English console names the book by it): no Chinese in it")
    seed: str = setting("the seed (the Chinese original in `shared/seeds/`) it configures")
    clock: Clock = setting("`[clock]`, below (## Clocks)", Clock())

    def titled(self, lang: str) -> str:
        """Its title in ``lang`` (``en``: English; any other: the venue's own).

        >>> from referee.rulebooks import load
        >>> book = load("usst-2016")
        >>> book.titled("zh"), book.titled("en")
        ('上海理工大学教职工“三打一”比赛规则（2016）', 'University of Shanghai for Science and Technology staff San Da Yi rules (2016)')
        """
        return self.title_en if lang == "en" else self.title

    def __post_init__(self) -> None:
        """The title in English, and the clock against the book: what it names exists, and a pass is a climbing
        game's follow."""
        check(bool(self.title_en.strip()) and speaks(self.title_en, "en"), "title_en", self.title_en, "title_en")
        c = self.clock
        for action in c.timed():
            outcome = c.outcome(action)
            key = "overrun_lead" if action in LEADS and c.overrun_lead else "overrun_return" if action == "return" and c.overrun_return else "overrun"
            if outcome == "pass" and (action in ("kitty_and_first_lead", "return") or self.game == "tractor"):
                raise fault("clock_pass", setting=f"[clock] {key}", value='"pass"', action=action, game=self.game,
                            allowed=", ".join(map(show, [o for o in OUTCOMES if o != "pass"])))
            if outcome == "penalty" and self.penalty("clock") is None:
                raise fault("refused", setting=f"[clock] {key}", value='"penalty"', allowed=Said("rulebook.allowed.clock_entry"))
        # only the Guandan table knows when a hand's cards are all drawn (its draw ends with the turned-up card, 七)
        check(c.round_cut == "none" or self.game == "guandan", "[clock] round_cut", c.round_cut,
              "round_cut", game=self.game)
        for key, entry in c.penalties.items():
            check(not entry.card_points, f"[clock.penalties] {key} card_points", True, "tractor_penalties")
        for upto, key in c.late_bands:
            if self.penalty(key) is None:
                raise fault("late_band", entry=show(key))

    def penalty(self, name: str) -> PenaltyEntry | None:
        """The penalty entry ``name``: the clock's own, else the book's (:class:`~referee.rulebooks.tractor.TractorRulebook`)."""
        return self.clock.penalties.get(name)

    def names_cards(self, kind: str) -> bool:
        """Whether the referee's foul ``kind`` names the cards concerned (its entry's ``card_points``: 000 第十八条)."""
        entry = self.penalty(kind)
        return entry is not None and entry.card_points

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.id!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Book) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)


__all__ = ["ACTIONS", "LEADS", "OUTCOMES", "Book", "Clock", "Outcome", "PenaltyEntry", "Rank", "Seat", "Suit"]
