"""The Tractor (拖拉机/升级) rulebook's schema: every section a frozen dataclass of typed settings,
read by ``referee/tractor`` (README.md documents each setting; each book's file cites its articles).

>>> Format.parse("4x1"), Format.parse("4 x 1")
(Format(width=4, length=1), Format(width=4, length=1))
>>> Format.parse("bomb")
Traceback (most recent call last):
...
referee.rulebooks.said.SaidError: a format is WIDTHxLENGTH, as "4x1" (a bomb) or "2x2" (a two-pair tractor)
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, NamedTuple

from referee.rulebooks.book import Book, PenaltyEntry, Rank
from referee.rulebooks.settings import Said, SaidError, check, fault, setting
from referee.rulebooks.shapes import Shape, tiers


class Format(NamedTuple):
    """A unit's format: ``width`` identical cards at each of ``length`` adjacent ranks (``4x1``: a bomb)."""

    width: int
    length: int

    ALLOWED = "format"

    @staticmethod
    def parse(text: str) -> "Format":
        width, x, length = text.replace(" ", "").partition("x")
        if not (x and width.isdigit() and length.isdigit() and int(width) >= 1 and int(length) >= 1):
            raise SaidError(Said("rulebook.error.format"))
        return Format(int(width), int(length))

    def __str__(self) -> str:
        return f"{self.width}x{self.length}"


Width = Literal[2, 3, 4]
Measure = Literal["tractor", "width", "length", "size", "fit", "compact", "pairs"]


@dataclass(frozen=True)
class Deal:
    decks: int = setting("decks shuffled together (54 cards each)")
    hand_size: int = setting("cards each player holds after the draw")
    kitty: int = setting("cards set aside for the dealer (0: no kitty, the hand is scored when its last trick is won)")
    start_level: Rank = setting("the level both teams start from")
    permanent_ranks: tuple[Rank, ...] = setting(
        'ranks that are always trumps besides the jokers and the level rank (`["2"]`: 常主 2); they rank '
        "below the level cards, the trump-suit one above the others, and no team plays them as a level")

    def __post_init__(self) -> None:
        check(self.decks >= 1, "decks", self.decks, "one_or_more")
        check(self.hand_size >= 1, "hand_size", self.hand_size, "one_or_more")
        cards = 54 * self.decks - 4 * self.hand_size
        check(self.kitty == cards, "kitty", self.kitty, "kitty", cards=cards, decks=self.decks, hand_size=self.hand_size)


@dataclass(frozen=True)
class Combos:
    widths: tuple[Width, ...] = setting(
        "identical cards a unit may have at each rank: 2 pair, 3 triple, 4 bomb; tractors are two or more "
        "adjacent ranks of one width")
    tractor_suits: Literal["class", "one"] = setting(
        "which adjacent ranks join into a tractor: `class` any of one suit class, trumps of several suits too "
        "(a pair of the trump suit's A and a pair of an off-suit level card); `one` only cards of one printed "
        "suit, the two jokers counting as one suit")
    low_ace: bool = setting("the ace may also sit below the 2 in a tractor (AA22, the lowest), while 2 is neither the level nor a permanent rank")
    throws: bool = setting("several units of one suit may be led at once (甩牌)")
    captive: Literal["declared", "chosen_after", "illegal"] = setting(
        "a throw that reads two ways (俘虏, 44433): `declared` the leader must declare the structure; "
        "`chosen_after` the leader's 上家 chooses it after the trick (default: the lowest reading); `illegal`")
    throw_check: Literal["units", "strict"] = setting(
        "a throw stands unless another hand holds a unit of the same kind that beats one of its units: `units`; "
        "`strict` also every smaller unit split out of a thrown unit")
    outranks: tuple[tuple[Format, Format], ...] = setting(
        '`[["WxN", "WxN"], ...]`: a format of width W and length N that beats another of the same size whatever '
        "the grades (`4x1` bomb over `2x2` two-pair tractor)")

    def __post_init__(self) -> None:
        for better, worse in self.outranks:
            check(better.width * better.length == worse.width * worse.length, "outranks", [str(better), str(worse)], "outranks")


@dataclass(frozen=True)
class Follow:
    components: Literal["units", "connected"] = setting(
        "`units`: uniform units carved out of the lead's units; `connected`: blocks of adjacent ranks of two "
        "or more identical cards, up to the lead's number of cards")
    order: tuple[Measure, ...] = setting(
        "how components rank, most significant first: `tractor` (two ranks or more), `width`, `length`, `size` "
        "(cards), `fit` (cards that fit the lead's width), `compact` (fewer ranks), `pairs` (against a lead of pairs, the "
        "pairs its cards hold: a bomb two, a triple one; none against a wider lead)")
    outranked_frees_choice: bool = setting(
        "once a play in the trick has a format that outranks the lead's (a bomb on a two-pair tractor), that "
        "format ranks as the lead's own", False)
    carve: Literal["ranks", "cards"] = setting(
        "with `units`: how long a narrower unit carved out of a lead unit may be: `ranks` at most the lead "
        "unit's ranks (seed 001: 444333 is met by a two-pair tractor and two singles), `cards` as many ranks as "
        "the lead unit's cards hold, and its cards left take further units (seed 000: 999TTT is met by 334455 "
        "before 3344, and 3344 with a pair before two singles)", "ranks")
    listed: Mapping[Format, tuple[tuple[Shape, ...], ...]] = setting(
        "`[follow.listed]`: lead formats (`4x2 = [...]`) whose follows the seed lists in order: one entry per "
        "line of the list (先于), each a list of equal choices (或), every pattern written as the seed writes it "
        "(below). A follower must meet the lead's own format, else the first entry it can place, else the "
        "general order above; a shape the list does not name ranks after every entry", {})

    def __post_init__(self) -> None:
        for lead, entries in self.listed.items():
            tiers(lead, entries)


@dataclass(frozen=True)
class FailedThrow:
    penalty: str = setting("the `[penalties]` entry applied")
    forced: Literal["lowest", "next_chooses"] = setting(
        "`lowest`: the thrower plays the smallest failing unit (fewest cards, then lowest); `next_chooses`: the "
        "thrower's 下家 chooses among the failing units (default the lowest)")


@dataclass(frozen=True)
class KittyCapture:
    multiplier: Literal["table", "cards"] = setting(
        "`table` (the `single`, `pair`, `triple`, `pair_tractor`, `triple_tractor` rows; a throw: `throw`) or "
        "`cards` (the number of cards in the winning play)")
    trumps_only: bool = setting("the defenders capture only when the last trick is won with trumps")
    source: Literal["kitty", "last_trick"] = setting(
        "`kitty`: the buried cards' points; `last_trick`: no kitty, the last trick's points are multiplied instead", "kitty")
    single: int = setting("with `table`: the multiplier of a single", 1)
    pair: int = setting("with `table`: of a pair", 1)
    triple: int = setting("with `table`: of a triple (and a bomb)", 1)
    pair_tractor: tuple[int, int] = setting("with `table`: `[base, per extra pair]` of a pair tractor", (1, 0))
    triple_tractor: tuple[int, int] = setting("with `table`: `[base, per extra triple]` of a triple tractor", (1, 0))
    throw: Literal["sum_of_two_highest"] = setting("with `table`: a throw counts its two highest units' multipliers added", "sum_of_two_highest")


Band = tuple[int, int]


@dataclass(frozen=True)
class Levels:
    take_over: int = setting("defender points from which the defenders take over the deal")
    defenders: tuple[Band, ...] = setting(
        "`[[lower bound, levels], ...]`, rising from `take_over`: the defenders go up by the band they reach "
        "(0 levels: they only take over the deal)")
    defenders_step: int = setting("one more level for the defenders per this many points beyond the last band")
    dealer: tuple[Band, ...] = setting(
        "`[[lower bound, levels], ...]`, falling below `take_over`: the dealer's side goes up by the first band "
        "whose lower bound the points reach")
    dealer_step: int = setting("one more level for the dealer's side per this many points (or part of them) below the last band")

    def __post_init__(self) -> None:
        bounds = [b for b, _ in self.defenders]
        check(bool(bounds) and bounds[0] == self.take_over and bounds == sorted(set(bounds)), "defenders",
              self.defenders, "defenders", take_over=self.take_over)
        bounds = [b for b, _ in self.dealer]
        check(bool(bounds) and bounds[0] < self.take_over and bounds == sorted(set(bounds), reverse=True), "dealer",
              self.dealer, "dealer", take_over=self.take_over)
        check(self.defenders_step > 0, "defenders_step", self.defenders_step, "one_or_more")
        check(self.dealer_step > 0, "dealer_step", self.dealer_step, "one_or_more")


@dataclass(frozen=True)
class Dealer:
    on_hold: Literal["partner", "next"] = setting("who deals next when the dealer's side goes up: `partner`, or `next` (the dealer's 下家)")
    on_take_over: Literal["partner", "next"] = setting("who deals next when the defenders take over: `next` (the dealer's 下家), or `partner`")
    no_declaration: Literal["first_drawer"] = setting("when nobody declared: `first_drawer` deals the first hand and names the trump suit")


@dataclass(frozen=True)
class Declare:
    first: int = setting("level cards needed to declare")
    overturn: Literal["more"] = setting("`more`: an overturn shows more identical level cards than the standing declaration")
    overturn_same_suit: Literal["always", "first_hand"] = setting(
        "an overturn may keep the standing suit `always`, or only in the `first_hand` (after it an overturn must change the suit)")
    reinforce: bool = setting("the declarer may add cards of the same suit")
    self_overturn: bool = setting("one may overturn oneself")
    exposed_in_draw: bool = setting(
        "the draw's exposures count (暴露张): cards shown face up before the kitty is taken that are no declaration the "
        "book allows (another rank, an overturn refused) are an `exposed_card` flag for a person (a misread or a "
        "declaration mistaken), costing the `exposed_card` entry of `[penalties]` once confirmed; `false`: refused, "
        "nothing recorded (the book's exposures count in play only)")
    window_s: float = setting(
        "seconds the dealer waits after the draw before taking the kitty (taking it sooner is warned); overturns "
        "count until the kitty is taken. 0: no wait (a seed that sets none)")
    window_article: str = setting(
        "the article the early kitty's warning cites (its number and words, at most 64 characters, as a violation's "
        "`rule.article`); required with `window_s`", "")
    exposed_article: str = setting(
        "the article the draw's `exposed_card` flag cites (at most 64 characters); required with `exposed_in_draw`", "")

    def __post_init__(self) -> None:
        check(self.first >= 1, "first", self.first, "one_or_more")
        check(self.window_s >= 0, "window_s", self.window_s, "zero_or_more")
        check(not self.window_s or self.window_article.strip(), "window_article", self.window_article,
              "window_article")
        check(len(self.window_article) <= 64, "window_article", self.window_article, "at_most_64")
        check(not self.exposed_in_draw or self.exposed_article.strip(), "exposed_article", self.exposed_article,
              "exposed_article")
        check(len(self.exposed_article) <= 64, "exposed_article", self.exposed_article, "at_most_64")


def _check_article(where: str, article: str) -> None:
    """An article a violation quotes: not empty, at most 64 characters (as a violation's ``rule.article`` allows)."""
    check(0 < len(article.strip()) and len(article) <= 64, where, article, "article")


@dataclass(frozen=True)
class Fouls:
    kinds: Mapping[str, str] = setting(
        "the violations the referee records from the console (no camera sees them: 暗示, 让庄, 多摸牌, 查牌...), "
        "each a `[penalties]` entry (what it costs, settled with the hand), with the article it cites (at most 64 "
        "characters)", {})

    def __post_init__(self) -> None:
        for kind, article in self.kinds.items():
            _check_article(f"kinds.{kind}", article)


@dataclass(frozen=True)
class WrongCount:
    article: str = setting(
        "the article a seat's wrong card count (多牌/少牌, once play has begun) cites, at most 64 characters; what it "
        "costs is the `wrong_card_count` entry of `[penalties]`")
    held_points: Literal["offender", "nobody"] = setting(
        "the point cards a seat still holds when every other seat is out (多牌): `offender` they count against its "
        "side, with its penalty; `nobody` they are laid aside, won by neither side")
    opponents_even: Literal["each", "quits"] = setting(
        "one side short of cards (少牌) and the other holding as many too many (多牌), both confirmed: `each` each side "
        "pays its own; `quits` neither pays, nor the points of the cards held (互不扣分)", "each")

    def __post_init__(self) -> None:
        _check_article("article", self.article)


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class TractorRulebook(Book):
    """A Tractor rulebook (``game = "tractor"``)."""

    game: Literal["tractor"] = setting("the game it configures")
    deal: Deal = setting("`[deal]`")
    combos: Combos = setting("`[combos]`")
    follow: Follow = setting("`[follow]`")
    failed_throw: FailedThrow = setting("`[failed_throw]`")
    kitty_capture: KittyCapture = setting("`[kitty_capture]`")
    levels: Levels = setting("`[levels]`")
    dealer: Dealer = setting("`[dealer]`")
    declare: Declare = setting("`[declare]`")
    penalties: Mapping[str, PenaltyEntry] = setting("`[penalties]`: one entry per violation, by name", {})
    fouls: Fouls = setting("`[fouls]`")
    wrong_count: WrongCount = setting("`[wrong_count]`")

    def penalty(self, name: str) -> PenaltyEntry | None:
        own = self.clock.penalties.get(name)
        return self.penalties.get(name) if own is None else own

    def __post_init__(self) -> None:
        super().__post_init__()
        freed = {worse for _, worse in self.combos.outranks} if self.follow.outranked_frees_choice else set()
        for lead in self.follow.listed:
            if lead in freed:
                raise fault("listed_freed", lead=lead)
        if self.combos.throws:
            check(self.failed_throw.penalty in self.penalties, "[failed_throw] penalty", self.failed_throw.penalty,
                  "penalty_entry", entries=", ".join(self.penalties))
        for kind in self.fouls.kinds:
            check(kind in self.penalties, "[fouls] kinds", kind, "penalty_entry", entries=", ".join(self.penalties))
        for name, entry in self.penalties.items():  # only the console's foul names the cards concerned
            check(not entry.card_points or name in self.fouls.kinds, f"[penalties] {name} card_points", True,
                  "fouls_kind", kinds=", ".join(self.fouls.kinds))
        check(not self.declare.exposed_in_draw or "exposed_card" in self.penalties, "[declare] exposed_in_draw", True,
              "exposed_entry")
        check("wrong_card_count" in self.penalties, "[wrong_count]", self.wrong_count.article,
              "wrong_count_entry")


__all__ = ["Combos", "Deal", "Dealer", "Declare", "FailedThrow", "Follow", "Fouls", "Format", "KittyCapture", "Levels", "TractorRulebook", "WrongCount"]
