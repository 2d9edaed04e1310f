"""Around the hands: declaring trumps, settling a hand with its penalties, the game from 2 to past A.

>>> rules = load("zhongkai-2010")
>>> d = Declaring(rules, "2").declare("S", Cards.parse("H2"), at=1.0)
>>> d = d.declare("E", Cards.parse("S2 S2"), at=2.0)
>>> d.standing
Declaration(seat='E', suit='S', count=2)
>>> d.declare("S", Cards.parse("D2 D2"), at=3.0)
Traceback (most recent call last):
...
referee.tractor.game.DeclareError: tractor.overturn_more (n=2, seat='S')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.cards import RANKS, Cards, Decks
from referee.reasons import Reason, Refused
from referee.rulebooks import TractorRulebook, load  # noqa: F401 (load: doctests)
from referee.rulebooks.book import on_grid
from referee.tractor.hand import SEATS, Ruling, next_seat, partner
from referee.tractor.scoring import Outcome, outcome


class DeclareError(Refused):
    """A declaration the rulebook does not allow (a reason ``tractor.*``); the declaring state is unchanged."""


@dataclass(frozen=True)
class Declaration:
    seat: str
    suit: str
    count: int


@dataclass(frozen=True)
class Declaring:
    """Trump declaration while the cards are drawn (揭牌, 加固, 反揭), as a value fed events with times."""

    rules: TractorRulebook
    level: str
    first_hand: bool = True
    standing: Declaration | None = None
    draw_done_at: float | None = None
    ended_by: str | None = None  # the seat that signalled the draw's end: its first drawer (000 第十条 2, 001 六)
    closed: bool = False

    def declare(self, seat: str, cards: Cards, at: float) -> Declaring:
        rule = self.rules.declare
        if self.closed:
            raise DeclareError("tractor.declare_closed", seat=seat)
        distinct = cards.distinct()
        if len(distinct) != 1 or distinct[0].rank != self.level:
            raise DeclareError("tractor.declare_level", seat=seat, level=self.level)
        suit, count = distinct[0].suit, len(cards)
        s = self.standing
        reinforcing = s is not None and s.seat == seat and s.suit == suit
        # more copies than the decks hold (with those of the standing declaration, still shown): a misread (a CardError)
        Decks(self.rules.deal.decks).check(cards, seen=Cards([distinct[0]] * s.count) if s is not None and s.suit == suit else None)
        if s is None:
            if count < rule.first:
                raise DeclareError("tractor.declare_first", seat=seat, n=rule.first)
            return replace(self, standing=Declaration(seat, suit, count))
        if reinforcing:
            if not rule.reinforce:
                raise DeclareError("tractor.no_reinforce", seat=seat, rulebook=self.rules.id)
            return replace(self, standing=Declaration(seat, suit, s.count + count))
        if s.seat == seat and not rule.self_overturn:
            raise DeclareError("tractor.own_overturn", seat=seat)
        if count <= s.count:
            raise DeclareError("tractor.overturn_more", seat=seat, n=s.count)
        if suit == s.suit and rule.overturn_same_suit == "first_hand" and not self.first_hand:
            raise DeclareError("tractor.overturn_suit", seat=seat)
        return replace(self, standing=Declaration(seat, suit, count))

    def draw_done(self, at: float, seat: str) -> Declaring:
        """The draw is over, as ``seat`` signalled it (000 第十条 2: 当盘第一位抓牌者示意抓牌完毕)."""
        return replace(self, draw_done_at=at, ended_by=seat)

    def kitty_taken(self, at: float) -> tuple[Declaring, Reason | None]:
        """Close declaring; a warning (its reason) when the dealer did not wait the rulebook's window."""
        warning = None
        # to the microsecond: a kitty taken 5 s after the draw as written (3.2 s, 8.2 s) waited the window
        if self.draw_done_at is not None and on_grid(at - self.draw_done_at) < self.rules.declare.window_s:
            warning = Reason("tractor.kitty_early", seconds=round(at - self.draw_done_at, 1), window=self.rules.declare.window_s)
        return replace(self, closed=True), warning

    def result(self, dealer: str | None, first_drawer: str) -> tuple[str, str | None]:
        """(dealer, trump suit). No declaration: the first drawer deals (first hand) and the dealer
        names the suit (None here: the dealer's choice)."""
        if self.standing is not None:
            return (dealer or self.standing.seat), self.standing.suit
        return (dealer or first_drawer), None


@dataclass(frozen=True)
class Penalty:
    """A violation to settle: its kind (a key of the rulebook's ``[penalties]``) and the offender."""

    kind: str
    seat: str
    cards: int = 1
    points: int = 0  # points moved besides the entry's: a short kitty's discarded point cards (seed 003 12(4))


@dataclass(frozen=True)
class Settlement:
    defender_points: int
    outcome: Outcome | None  # None: the hand is replayed
    notes: tuple[Reason, ...] = ()  # each penalty as it was settled (``referee.reasons``)


def side_of(seat: str, dealer: str) -> str:
    return "dealer" if seat in (dealer, partner(dealer)) else "defenders"


def settle(rules: TractorRulebook, dealer: str, defender_points: int, penalties: list[Penalty] = ()) -> Settlement:
    """Apply the rulebook's penalties to a hand: points move to the non-offending side, level
    awards and lost deals go to it; awards against both sides replay the hand where the book says so."""
    points, notes, awards = defender_points, [], {}
    for p in penalties:
        rule = rules.penalties.get(p.kind)
        if rule is None:
            raise ValueError(f"{rules.id} has no penalty {p.kind!r}")
        offender = side_of(p.seat, dealer)
        other = "defenders" if offender == "dealer" else "dealer"
        if rule.points or p.points:
            amount = rule.points_for(p.cards) + p.points
            points += amount if offender == "dealer" else -amount
            notes.append(Reason("tractor.note_points", kind=_kind(p.kind), seat=p.seat, n=amount, side=other))
        if rule.levels or rule.deal or rule.forfeit_hand:
            levels = rule.levels_against(offender)
            awards.setdefault(other, []).append((levels, p.kind, rule.both_sides))
            notes.append(Reason("tractor.note_awarded", kind=_kind(p.kind), seat=p.seat, side=other, levels=levels))
    if len(awards) == 2 and any(b == "replay" for a in awards.values() for _, _, b in a):
        return Settlement(points, None, tuple(notes) + (Reason("tractor.note_replay"),))
    normal = outcome(rules, points)
    if awards:
        side = next(iter(awards))
        levels = sum(lv for lv, _, _ in awards[side])
        if normal.side == side:
            levels = max(levels, normal.levels)
        return Settlement(points, Outcome(side, levels), tuple(notes))
    return Settlement(points, normal, tuple(notes))


# Which penalty of the rulebook each kind of ruling of the hand judge calls for, where the book has no entry of the
# ruling's own name (classic-3deck prices ``illegal_lead`` itself: 001 十九 甩错牌 20 points, 按藏张处理 only 跟错牌、垫错牌、错将吃).
RULING_PENALTY = {
    "revoke": "revoke",
    "illegal_lead": "revoke",  # 出错牌: seed 000 第十八条 treats wrong plays as revokes
    "failed_throw": "failed_throw",
    "wrong_card_count": "wrong_card_count",
    "misburied_kitty": "misburied_kitty",  # seed 003 12(4): 多埋或少埋底牌
}


def _kind(penalty: str) -> str:
    """The violation kind of a rulebook's penalty: its late bands (``late_10_min``) are late arrival."""
    return "late_arrival" if penalty.startswith("late_") else penalty


def penalties_of(rules: TractorRulebook, rulings: list[Ruling]) -> list[Penalty]:
    """The penalties the rulings of a hand call for, under this rulebook. A side's wrong card counts are one offence:
    a seat out of cards and its partner holding them (or showing them late in two lots) cost the side once, the cards
    counted once (seed 000 第十九条: 如果只有某家牌张数目不符，则判无错方自动升一级; 003 12(3): 同是一方出现以上情况……以
    20分/张进行加分/扣分).

    >>> short = Ruling("wrong_card_count", "E", 38, Reason("tractor.out_of_cards", n=37, size=39), count=2)
    >>> held = Ruling("wrong_card_count", "W", 39, Reason("tractor.held_too_many", n=41, size=39), ("ST", "S5"), count=2, points=15)
    >>> penalties_of(load("shaoguan-2023"), [short, held])
    [Penalty(kind='wrong_card_count', seat='E', cards=2, points=15)]
    >>> penalties_of(load("shaoguan-2023"), [short, replace(held, seat="N")])  # opponents: 互不扣分 (:func:`_quits`)
    []
    """
    out: list[Penalty] = []
    sides: dict[str, tuple[int, int, int]] = {}  # team -> (its place in out, cards short, cards too many)
    explained = in_kitty(rulings)
    for r in rulings:
        kind = r.kind if r.kind in rules.penalties else RULING_PENALTY.get(r.kind)
        if kind not in rules.penalties or r in explained:
            continue
        # points besides the entry's: a short kitty's discarded cards (seed 003 12(4): 若丢弃的是分牌，所丢弃分数再加到
        # 对方所得分数), a seat's held-back cards (003 12(1)); per card: a wrong count's cards too many or too few
        more = sum(e.points for e in explained) if r.kind == "misburied_kitty" else 0
        p = Penalty(kind, r.seat, r.count or max(1, len(r.cards)), r.points + more)
        if kind != "wrong_card_count":
            out.append(p)
            continue
        short = r.detail.key == "tractor.out_of_cards"
        at, few, many = sides.get(Game.team(r.seat), (len(out), 0, 0))
        few, many = few + p.cards * short, many + p.cards * (not short)
        if at == len(out):
            out.append(p)
        else:
            out[at] = replace(out[at], cards=max(few, many), points=out[at].points + p.points)
        sides[Game.team(r.seat)] = (at, few, many)
    return _quits(rules, out, sides)


def _quits(rules: TractorRulebook, out: list[Penalty], sides: dict[str, tuple[int, int, int]]) -> list[Penalty]:
    """``out`` without the sides' wrong card counts where one side is short by as many cards as the other holds too many,
    in a book whose ``[wrong_count] opponents_even`` is ``quits`` (seed 003 12(3): 对手之间双方都有多牌少牌现象，且多和少的
    张数一样，则由少牌方抽掉多牌方手上的牌作为补充，互不扣分): no points either way, the held cards' points neither."""
    if rules.wrong_count.opponents_even != "quits" or len(sides) != 2:
        return out
    (a, few_a, many_a), (b, few_b, many_b) = sides.values()
    n = few_a + few_b
    if {(few_a, many_a), (few_b, many_b)} != {(n, 0), (0, n)}:
        return out
    return [p for i, p in enumerate(out) if i not in (a, b)]


def in_kitty(rulings: list[Ruling] | tuple[Ruling, ...]) -> tuple[Ruling, ...]:
    """The dealer's wrong card counts its misburied kitty explains: out of cards short by as many as the kitty has too
    many (多埋), or holding back as many as it has too few (少埋). One fault, priced as the kitty (seed 003 12(4): 若打牌时
    发现庄家多埋或少埋底牌，则对方在所得分数的基础上加160分。若多牌时庄家从底牌里抽回多埋的张数，底牌少牌时则庄家丢弃少埋的
    张数，但若丢弃的是分牌，所丢弃分数再加到对方所得分数): cards held back are the cards it discards, their points added."""
    kitty = next((r for r in rulings if r.kind == "misburied_kitty"), None)
    if kitty is None:
        return ()
    over = kitty.detail["n"] - kitty.detail["size"]
    short = ("tractor.out_of_cards", "tractor.played_too_few")
    return tuple(r for r in rulings if r.kind == "wrong_card_count" and r.seat == kitty.seat
                 and r.count == (over if r.detail.key in short else -over))


def level_ranks(rules: TractorRulebook) -> list[str]:
    """The levels a side climbs, from the start level to A (permanent ranks are skipped)."""
    ranks = [r for r in RANKS if r not in rules.deal.permanent_ranks]
    return ranks[ranks.index(rules.deal.start_level) :]


@dataclass(frozen=True)
class Game:
    """A game (局): both teams' levels, the dealer, and the winner once a team passes A."""

    rules: TractorRulebook
    levels: tuple[tuple[str, int], ...]  # (team, index into level_ranks)
    dealer: str | None = None
    winner: str | None = None

    @staticmethod
    def start(rules: TractorRulebook) -> Game:
        return Game(rules, (("SN", 0), ("EW", 0)))

    @staticmethod
    def team(seat: str) -> str:
        return "SN" if seat in "SN" else "EW"

    def level_of(self, team: str) -> str:
        return level_ranks(self.rules)[min(dict(self.levels)[team], len(level_ranks(self.rules)) - 1)]

    def hand_level(self) -> str:
        """The rank played this hand: the dealer's team's level (the first hand: the start level)."""
        return self.level_of(self.team(self.dealer)) if self.dealer else self.rules.deal.start_level

    def after(self, dealer: str, result: Outcome) -> Game:
        """The game after a hand dealt by ``dealer`` ended with ``result``."""
        if self.winner:
            raise ValueError("the game is over")
        side_team = self.team(dealer) if result.side == "dealer" else self.team(next_seat(dealer))
        levels = dict(self.levels)
        levels[side_team] += result.levels
        top = len(level_ranks(self.rules))
        winner = side_team if levels[side_team] >= top else None
        on = self.rules.dealer.on_hold if result.side == "dealer" else self.rules.dealer.on_take_over
        new_dealer = partner(dealer) if on == "partner" else next_seat(dealer)
        return Game(self.rules, tuple(levels.items()), new_dealer, winner)


__all__ = ["Declaring", "Declaration", "DeclareError", "Penalty", "Settlement", "settle", "penalties_of", "in_kitty", "Game", "level_ranks", "SEATS"]
