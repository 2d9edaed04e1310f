"""What both climbing games' rulebooks (Guandan 掼蛋, San Da Yi 三打一) share: the deal, the rank
order and the combinations, read by ``referee/climbing/combos.py``. Each game's own sections are
its schema: :mod:`referee.rulebooks.guandan`, :mod:`referee.rulebooks.sandayi`."""

from dataclasses import dataclass
from typing import Literal

from referee.rulebooks.book import Book, Rank
from referee.rulebooks.settings import check, setting

Span = tuple[int, int]


@dataclass(frozen=True)
class Deal:
    decks: int = setting("decks shuffled together (54 cards each)")
    hand_size: int = setting("cards dealt to each of the four players")
    kitty: int = setting("cards left for the dealer (0: none)")
    told_at: int = setting(
        "a seat's cards left are told only at this many or fewer (报牌): there the seat reports them (San Da Yi: once, "
        "after the play that brings it there; a report at any other time is a foul) and answers a count question "
        "exactly, and the hall's pages and the seats' displays show them; above it the count is the players' secret. 0: always told", 0)

    def tells(self, n: int) -> bool:
        """Whether a seat's count of ``n`` cards left is told (报牌): at ``told_at`` or fewer, or always (0). The one
        rule of the count's secret: the table's refusals, a count question, the seats' displays and the hall's pages.

        >>> Deal(2, 27, 0, 10).tells(10), Deal(2, 27, 0, 10).tells(11), Deal(2, 27, 0).tells(27)
        (True, False, True)
        """
        return not self.told_at or n <= self.told_at

    def __post_init__(self) -> None:
        check(self.decks >= 1, "decks", self.decks, "one_or_more")
        check(self.told_at >= 0, "told_at", self.told_at, "zero_or_more")
        cards = 54 * self.decks - 4 * self.hand_size
        check(self.kitty == cards, "kitty", self.kitty, "kitty", cards=cards, decks=self.decks, hand_size=self.hand_size)


@dataclass(frozen=True)
class Ranks:
    order: tuple[Rank, ...] = setting("the ranks low to high, for sets (pairs, triples, bombs) and singles; the jokers are above")
    level_above_ace: bool = setting("the level rank sits above the ace (Guandan's 参谋)")
    wildcard: Literal["heart_level", "none"] = setting("`heart_level`: the heart level card stands for any card but a joker (逢人配); `none`")
    ace_low: bool = setting("the ace may also start a sequence below the 2 (A2345)")
    joker_pairs: bool = setting("two identical jokers are a pair (小王+大王 never is)")

    def __post_init__(self) -> None:
        check(len(set(self.order)) == len(self.order) == 13, "order", self.order, "order")


@dataclass(frozen=True)
class Combos:
    straight: Span | None = setting("`[least, most]` cards of a straight", None)
    pair_straight: Span | None = setting("`[least, most]` pairs of a pair straight (连对)", None)
    triple_straight: Span | None = setting("`[least, most]` triples of a triple straight (钢板)", None)
    airplane: Span | None = setting("`[least, most]` triples of an airplane with wings (飞机带翅膀)", None)
    bomb: Span | None = setting("`[least, most]` cards of one rank in a bomb", None)
    straight_flush: bool = setting("five of one suit in sequence are a straight flush (同花顺, 火箭)", False)
    straight_flush_beats_bombs_up_to: int = setting("a straight flush beats bombs of up to this many cards, and larger bombs beat it", 0)
    joker_bomb: bool = setting("the four jokers are a bomb above every play (天王炸弹)", True)
    full_house_joker_pair: bool = setting("a full house's pair may be two identical jokers", True)
    full_house_triple_only: bool = setting("full houses compare their triples only", True)
    wild_reading: Literal["asked", "lowest"] = setting(
        "a play holding the wildcard that reads several ways (x4567: 34567 or 45678), a lead or a follow (a "
        "follow's readings: those that beat the play before it): `asked` its seat may state one aloud, which no "
        "input carries, so when the next play would be judged otherwise under another reading the referee is asked "
        "which was stated (nothing is charged; none stated: the lowest); `lowest` always its lowest reading", "lowest")

    def __post_init__(self) -> None:
        for key in ("straight", "pair_straight", "triple_straight", "airplane", "bomb"):
            span = getattr(self, key)
            check(span is None or 1 <= span[0] <= span[1], key, span, "span")


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class ClimbingRulebook(Book):
    """A climbing game's rulebook: :class:`~referee.rulebooks.guandan.GuandanRulebook` or
    :class:`~referee.rulebooks.sandayi.SandayiRulebook`."""

    deal: Deal = setting("`[deal]`")
    ranks: Ranks = setting("`[ranks]`")
    combos: Combos = setting("`[combos]`")

    def __post_init__(self) -> None:
        super().__post_init__()
        check(self.combos.wild_reading == "lowest" or self.ranks.wildcard != "none", "combos.wild_reading",
              self.combos.wild_reading, "wild_reading")


__all__ = ["ClimbingRulebook", "Combos", "Deal", "Ranks"]
