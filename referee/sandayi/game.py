"""One game (局) of San Da Yi as an immutable state fed events.

附件一 二: 每人发25张牌，留8张底牌，决定庄家后，8张底牌发给庄家 … 庄家先出牌，然后按逆时针顺序依次出牌，
轮到某个玩家时，其可以选择“不出”或出比上一个玩家大的牌，首先出完所有手牌的玩家获胜。

Phases: ``bidding`` (:meth:`Game.bid`) → ``kitty`` (the dealer takes it: :meth:`Game.take_kitty`)
→ ``declaring`` (报到 :meth:`Game.report`, 摊打 :meth:`Game.open_hand`; the dealer's first lead
ends it) → ``playing`` (:meth:`Game.play`, :meth:`Game.pass_`) → ``over``. Fouls
(:meth:`Game.foul`) may be recorded in any phase before ``over``. Every event returns a new
state; a refused event raises :class:`GameError` and changes nothing.

A camera referee never sees the hands, only what is played face up: :meth:`Game.start_unseen`
follows a game from that evidence alone, knowing each seat's card count and checking every card
shown against the decks; what needs a hand (:meth:`hand`, :attr:`can_report`) is then unknown.

>>> u = Game.start_unseen(load("usst-2016"), "S").bid("S", 3).take_kitty("S")
>>> u.count("S"), u.play("S", Cards.parse("S3 S3")).count("S")
(33, 31)
>>> u.play("S", Cards.parse("S3 S3 S3"))
Traceback (most recent call last):
...
referee.sandayi.game.GameError: sandayi.cards_of (seat='S', why=cards.too_many (card='S3', decks=2, n=3))

A lead may be any combination; a follow must beat the play on the table (the lowest reading of
its cards that beats it is recorded). Passing is for followers only. Once the three others have
passed, the last player to play leads again. The game ends when a player runs out: the dealer
alone wins, or any of the three wins for the allies.

>>> rules = load("usst-2016")
>>> g = Game.start(rules, *deal_cards(rules, Decks(2).full(), "S"), first_bidder="S")
>>> g.hand("S")
Cards('BJ SA SQ ST S8 S6 S4 S2 HK HJ H9 H7 H5 H3 DA DQ DT D8 D6 D4 D2 CK CJ C9 C7')
>>> g = g.bid("S", 1).bid("E", 2).bid("N", "pass").bid("W", "pass")
>>> g.phase, g.dealer, g.turn
('kitty', 'E', 'E')
>>> g = g.take_kitty("E").play("E", Cards.parse("SA DA"))
>>> g.play("N", Cards.parse("SK DK"))
Traceback (most recent call last):
...
referee.sandayi.game.GameError: sandayi.does_not_beat (cards=['SK', 'DK'], seat='N', table_cards=['SA', 'DA'], table_type='pair', type='pair')
>>> g = g.pass_("N").pass_("W").pass_("S")
>>> g.turn, g.leading
('E', True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.cards import CardError, Cards, Decks
from referee.climbing.combos import Reading, beats, lowest_beating, power_of, readings
from referee.reasons import Refused
from referee.rulebooks import SandayiRulebook, load  # noqa: F401 (load: doctests)
from referee.sandayi.bidding import Bidding, BidError
from referee.sandayi.bombs import bomb_allowed, counts_as_bomb
from referee.sandayi.scoring import Result, game_scores
from referee.sandayi.seats import SEATS, check_seat, next_seat, seats_from

PHASES = ("bidding", "kitty", "declaring", "playing", "over")


class GameError(Refused):
    """An event the rules do not allow now; the game state is unchanged."""


@dataclass(frozen=True)
class Play:
    """A play on the table: who played, the cards, and what they count as."""

    seat: str
    cards: Cards
    reading: Reading


@dataclass(frozen=True)
class Foul:
    """A foul the referee recorded (三 打牌犯规规定): the player and the kind (``[fouls] kinds``)."""

    seat: str
    kind: str


def deal_cards(rules: SandayiRulebook, cards: Iterable[Any], first_bidder: str) -> tuple[dict[str, Cards], Cards]:
    """Deal a shuffled pack: 从首先叫牌者开始逆时针依次发牌, one card at a time, ``hand_size`` each;
    the rest is the kitty (底牌). Returns (hands by seat, kitty)."""
    pack = list(Cards.parse(cards) if isinstance(cards, str) else cards)
    size, kitty = rules.deal.hand_size, rules.deal.kitty
    if len(pack) != 4 * size + kitty:
        raise GameError("sandayi.pack_size", decks=rules.deal.decks, size=4 * size + kitty, n=len(pack))
    order = seats_from(first_bidder)
    hands = {s: Cards(pack[i : 4 * size : 4]) for i, s in enumerate(order)}
    return {s: hands[s] for s in SEATS}, Cards(pack[4 * size :])


def shown(rules: SandayiRulebook, cards: Cards) -> list[str]:
    """Cards as a player reads them, as a reason's value (see :func:`show`)."""
    return show(rules, cards).split()


def show(rules: SandayiRulebook, cards: Cards) -> str:
    """Cards as a player reads them: by rank, highest first (jokers, 2, A, K … 3), then by suit.

    >>> show(load("usst-2016"), Cards.parse("S3 H4 D5 C6 S7 BJ S2"))
    'BJ S2 S7 C6 D5 H4 S3'
    """
    return " ".join(c.code for c in sorted(cards, key=lambda c: (-power_of(rules, c), "SHDC".find(c.suit or ""))))


@dataclass(frozen=True)
class Game:
    """The state of one game. Build it with :meth:`start`; feed it events."""

    rules: SandayiRulebook
    hands: tuple[Cards, ...]  # in seat order S E N W; () when unseen (only the counts are known)
    kitty: Cards
    bidding: Bidding
    phase: str = "bidding"
    turn: str | None = None  # who acts next: bids, takes the kitty, plays or passes
    reported: str | None = None  # 报到: None, "play" (打) or "no_play" (不打)
    hand_open: bool = False  # 摊打
    last: Play | None = None  # the play to beat; None when the player to act leads
    passes: int = 0
    bombs: tuple[int, ...] = (0, 0, 0, 0)  # bombs played, in seat order
    fouls: tuple[Foul, ...] = ()
    history: tuple[tuple[str, Play | None], ...] = ()  # plays and passes (None) in order
    announced: frozenset[str] = frozenset()  # players who reported their count (报牌)
    winner: str | None = None  # "dealer" | "allies"
    ended_by: str | None = None  # "out" | "report" | "fouls"
    offender: str | None = None  # the player ruled the loser for fouls
    counts: tuple[int, ...] = ()  # cards each seat holds, in seat order
    played: Cards = Cards()  # every card played face up so far

    def __post_init__(self) -> None:
        if not self.counts:
            object.__setattr__(self, "counts", tuple(len(h) for h in self.hands) or (self.rules.deal.hand_size,) * 4)

    # -- building ------------------------------------------------------------------------

    @staticmethod
    def start(rules: SandayiRulebook, hands: Mapping[str, Any], kitty: Any, first_bidder: str) -> Game:
        """A game dealt ``hands`` (seat → cards) and ``kitty``, with ``first_bidder`` to bid."""
        if first_bidder not in SEATS:
            raise GameError("seats.unknown", text=str(first_bidder))
        if sorted(hands) != sorted(SEATS):
            raise GameError("sandayi.hands_seats", text=" ".join(map(str, sorted(hands))))
        try:
            parsed = tuple(_cards(hands[s]) for s in SEATS)
            kitty = _cards(kitty)
            Decks(rules.deal.decks).check(Cards.join((*parsed, kitty)))
        except CardError as exc:
            raise GameError(exc.reason) from None
        size = rules.deal.hand_size
        for seat, hand in zip(SEATS, parsed):
            if len(hand) != size:
                raise GameError("sandayi.dealt_size", seat=seat, n=len(hand), size=size)
        if len(kitty) != rules.deal.kitty:
            raise GameError("sandayi.kitty_size", n=len(kitty), size=rules.deal.kitty)
        return Game(rules, parsed, kitty, Bidding(rules, first_bidder), turn=first_bidder)

    @staticmethod
    def start_unseen(rules: SandayiRulebook, first_bidder: str) -> Game:
        """A game followed from the evidence only (the hands unseen): each seat is dealt
        ``hand_size`` cards, the dealer gets the ``kitty``; every play is checked against the
        count it holds and, with every card shown before it, against the decks."""
        if first_bidder not in SEATS:
            raise GameError("seats.unknown", text=str(first_bidder))
        return Game(rules, (), Cards(), Bidding(rules, first_bidder), turn=first_bidder)

    # -- what the table shows ------------------------------------------------------------

    @property
    def seen(self) -> bool:
        """Are the hands known (a game dealt by :meth:`start`), not only their counts?"""
        return bool(self.hands)

    def hand(self, seat: str) -> Cards:
        if not self.seen:
            raise GameError("sandayi.hand_unseen", seat=seat, n=self.count(seat))
        return self.hands[SEATS.index(check_seat(seat))]

    def count(self, seat: str) -> int:
        """Cards ``seat`` holds now."""
        return self.counts[SEATS.index(check_seat(seat))]

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def dealer(self) -> str | None:
        return self.bidding.dealer

    @property
    def bid_value(self) -> int | None:
        """The dealer's bid: the base score (None while bidding)."""
        return self.bidding.high if self.bidding.done else None

    @property
    def first_bid_three(self) -> bool:
        return self.bidding.first_bid_three

    def side(self, seat: str) -> str:
        """``"dealer"`` or ``"allies"`` (the three, 同盟)."""
        if self.dealer is None:
            raise GameError("sandayi.no_dealer_yet")
        return "dealer" if check_seat(seat) == self.dealer else "allies"

    @property
    def leading(self) -> bool:
        """Does the player to act lead (nothing to beat)?"""
        return self.phase in ("declaring", "playing") and self.last is None

    def bombs_played(self, seat: str) -> int:
        return self.bombs[SEATS.index(check_seat(seat))]

    def bomb_allowed(self, seat: str) -> bool:
        """May ``seat`` play one more bomb (炸弹限制)?"""
        if not self.bidding.done:
            return False
        return bomb_allowed(self.rules, self.bidding.bomb_category(seat), self.bombs_played(seat))

    def foul_count(self, seat: str) -> int:
        return sum(f.seat == check_seat(seat) for f in self.fouls)

    @property
    def can_report(self) -> bool:
        """May the dealer report (报到) now: 庄家手中有4个王或7张以上(包含7张)的炸弹, after taking the kitty
        and before the first lead?"""
        if self.phase != "declaring" or self.reported is not None or not self.seen:
            return False
        s = self.rules.scoring
        hand = self.hand(self.dealer)
        counts = Counter()
        jokers = 0
        for card, n in hand.counts().items():
            if card.is_joker:
                jokers += n
            else:
                counts[card.rank] += n
        return jokers >= s.report_jokers or max(counts.values(), default=0) >= s.report_bomb

    def count_answer(self, seat: str) -> int | None:
        """What ``seat`` must answer when asked its count: the number of cards when it holds
        ``[deal] told_at`` or fewer, else None (“不报”)."""
        n = self.count(seat)
        return n if self.rules.deal.tells(n) else None

    @property
    def result(self) -> Result | None:
        """How the game ended (None before the end)."""
        if not self.over:
            return None
        return Result(
            dealer=self.dealer,
            bid=self.bid_value,
            dealer_won=self.winner == "dealer",
            first_bid_three=self.first_bid_three,
            open_hand=self.hand_open,
            report=self.reported,
            offender=self.offender,
        )

    @property
    def scores(self) -> dict[str, int] | None:
        """Each seat's game score once the game is over (None before)."""
        return None if self.result is None else game_scores(self.rules, self.result)

    # -- events ---------------------------------------------------------------------------

    def _live(self, seat: str) -> None:
        if seat not in SEATS:
            raise GameError("seats.unknown", text=str(seat))
        if self.over:
            raise GameError("sandayi.game_over", seat=seat, side=self.winner)

    def _end(self, winner: str, ended_by: str, offender: str | None = None) -> Game:
        return replace(self, phase="over", turn=None, winner=winner, ended_by=ended_by, offender=offender)

    def _rule_fouls(self) -> Game:
        """三: 同一副牌内，任何一名选手被记过2次及以上犯规，作输者处理 (once the sides are known)."""
        if self.over or not self.bidding.done:
            return self
        limit = self.rules.fouls.limit
        counts: Counter[str] = Counter()
        for f in self.fouls:  # the first player to reach the limit
            counts[f.seat] += 1
            if counts[f.seat] >= limit:
                return self._end("allies" if f.seat == self.dealer else "dealer", "fouls", f.seat)
        return self

    def bid(self, seat: str, value: int | str) -> Game:
        """``seat`` bids ``value`` (1, 2, 3) or says ``"pass"``."""
        self._live(seat)
        if self.phase != "bidding":
            raise GameError("sandayi.bidding_over", seat=seat, dealer=self.dealer)
        try:
            bidding = self.bidding.bid(seat, value)
        except BidError as exc:
            raise GameError(exc.reason) from None
        if not bidding.done:
            return replace(self, bidding=bidding, turn=bidding.turn)
        return replace(self, bidding=bidding, phase="kitty", turn=bidding.dealer)._rule_fouls()

    def take_kitty(self, seat: str) -> Game:
        """The dealer takes the kitty (8张底牌发给庄家，其他选手无法看到底牌)."""
        self._live(seat)
        if self.phase != "kitty":
            raise GameError("sandayi.kitty_when", seat=seat, phase=self.phase)
        if seat != self.dealer:
            raise GameError("sandayi.kitty_dealer", seat=seat, dealer=self.dealer)
        hands = list(self.hands)
        i = SEATS.index(seat)
        if self.seen:
            hands[i] = hands[i] + self.kitty
        counts = self.counts[:i] + (self.counts[i] + self.rules.deal.kitty,) + self.counts[i + 1 :]
        return replace(self, hands=tuple(hands), counts=counts, phase="declaring")

    def report(self, seat: str, play: bool) -> Game:
        """报到: the dealer shows four jokers or a bomb of seven or more, then plays on (``play``: 打,
        a win scores double, a loss scores 0 for all) or not (不打: the dealer wins at once). Unseen, the
        hand is not known: the referee who enters the report has seen the jokers or the bomb."""
        self._live(seat)
        if seat != self.dealer or self.phase != "declaring":
            raise GameError("sandayi.report_who", seat=seat)
        if self.reported is not None:
            raise GameError("sandayi.report_again", seat=seat)
        if self.seen and not self.can_report:  # unseen (a table): the referee who reports it saw the hand
            s = self.rules.scoring
            raise GameError("sandayi.report_needs", seat=seat, jokers=s.report_jokers, bomb=s.report_bomb)
        if not play:
            return replace(self, reported="no_play")._end("dealer", "report")
        return replace(self, reported="play")

    def open_hand(self, seat: str) -> Game:
        """摊打: the dealer plays with the hand face up (scores ×2), only after 头撂."""
        self._live(seat)
        if seat != self.dealer or self.phase != "declaring":
            raise GameError("sandayi.open_who", seat=seat)
        if self.hand_open:
            raise GameError("sandayi.open_again", seat=seat)
        if self.rules.scoring.open_hand_needs_first_bid_three and not self.first_bid_three:
            raise GameError("sandayi.open_needs", seat=seat)
        return replace(self, hand_open=True)

    def _check_turn(self, seat: str) -> None:
        self._live(seat)
        if self.phase in ("bidding", "kitty"):
            raise GameError("sandayi.play_when", seat=seat, phase=self.phase)
        if seat != self.turn:
            raise GameError("sandayi.not_on_turn", seat=seat, turn=self.turn)

    def play(self, seat: str, cards: Any, reading: Reading | None = None) -> Game:
        """``seat`` plays ``cards``. A lead counts as ``reading`` where the cards read several ways
        (default: the lowest, as in every climbing game here); a follow must beat the play on the table."""
        self._check_turn(seat)
        try:
            cards = _cards(cards)
        except CardError as exc:
            raise GameError("sandayi.cards_of", seat=seat, why=exc) from None
        if not len(cards):
            raise GameError("sandayi.empty_play", seat=seat)
        i = SEATS.index(seat)
        if self.seen and not self.hand(seat).contains(cards):
            raise GameError("sandayi.not_in_hand", seat=seat, cards=shown(self.rules, cards))
        if len(cards) > self.counts[i]:
            if self.count_answer(seat) is None:  # the count is the players' secret (三（一）3): the refusal does not tell it
                raise GameError("sandayi.holds_fewer_untold", seat=seat, n=len(cards))
            raise GameError("sandayi.holds_fewer", seat=seat, held=self.counts[i], n=len(cards))
        try:
            Decks(self.rules.deal.decks).check(cards, seen=self.played)
        except CardError as exc:
            raise GameError("sandayi.cards_of", seat=seat, why=exc) from None
        found = readings(self.rules, cards)
        if not found:
            raise GameError("sandayi.no_combination", seat=seat, cards=shown(self.rules, cards), rulebook=self.rules.id)
        if reading is not None and reading not in found:
            raise GameError("sandayi.not_read_as", seat=seat, cards=shown(self.rules, cards), type=reading.type)
        if self.last is None:
            chosen = reading or found[0]
        else:
            prev = self.last
            if reading is not None:
                chosen = reading if beats(self.rules, reading, prev.reading) else None
            else:
                chosen = lowest_beating(self.rules, cards, prev.reading)
            if chosen is None:
                raise GameError("sandayi.does_not_beat", seat=seat, cards=shown(self.rules, cards), type=(reading or found[-1]).type,
                                table_cards=shown(self.rules, prev.cards), table_type=prev.reading.type)
        bombs = self.bombs
        if counts_as_bomb(self.rules, chosen):
            category = self.bidding.bomb_category(seat)
            if not bomb_allowed(self.rules, category, bombs[i]):
                if category in ("pass", "not_asked"):
                    raise GameError("sandayi.bomb_limit_pass" if category == "pass" else "sandayi.bomb_limit_not_asked", seat=seat, n=bombs[i])
                raise GameError("sandayi.bomb_limit_bid", seat=seat, bid=category, n=bombs[i])
            bombs = bombs[:i] + (bombs[i] + 1,) + bombs[i + 1 :]
        hands = self.hands[:i] + (self.hands[i] - cards,) + self.hands[i + 1 :] if self.seen else ()
        counts = self.counts[:i] + (self.counts[i] - len(cards),) + self.counts[i + 1 :]
        done = Play(seat, cards, chosen)
        after = replace(
            self, hands=hands, counts=counts, played=self.played + cards, bombs=bombs, phase="playing", last=done,
            passes=0, turn=next_seat(seat), history=self.history + ((seat, done),),
        )  # fmt: skip
        if not counts[i]:
            return after._end(self.side(seat), "out")
        return after

    def pass_(self, seat: str) -> Game:
        """``seat`` does not play (不出: 敲一下台子). A leader cannot pass."""
        self._check_turn(seat)
        if self.last is None:
            raise GameError("table.leader_cannot_pass", seat=seat)
        after = replace(self, turn=next_seat(seat), passes=self.passes + 1, history=self.history + ((seat, None),))
        if after.turn == self.last.seat:  # the three others passed: the last player leads again
            after = replace(after, last=None, passes=0)
        return after

    def foul(self, seat: str, kind: str) -> Game:
        """The referee records a foul (三 打牌犯规规定); the limit rules the offender the loser."""
        self._live(seat)
        kinds = self.rules.fouls.kinds
        if kind not in kinds:
            raise GameError("sandayi.unknown_foul", kind=kind, kinds=list(kinds))
        return replace(self, fouls=self.fouls + (Foul(seat, kind),))._rule_fouls()

    def announce_count(self, seat: str) -> Game:
        """``seat`` reports its count (报牌). 三 (一)1: 出牌后手中牌数在10张以内（含10张），需主动报牌一次，
        其他时间不能自动报牌，否则属于犯规 — the report is due once, right after the play that brings the seat to
        ``[deal] told_at`` cards or fewer (出牌后), before the next player plays or passes; a report at any other time
        (above it, a second one, or late: after another's play or pass, or after the seat's next play) is recorded as
        a foul (decided: the seed's time is the play's, 出牌后, not any moment after it)."""
        self._live(seat)
        if self._report_due(seat):
            return replace(self, announced=self.announced | {seat})
        return self.foul(seat, "count_report")

    def _report_due(self, seat: str) -> bool:
        """Whether the last play or pass is ``seat``'s play that took its count from above ``told_at`` to it or fewer."""
        if self.phase != "playing" or not self.history or seat in self.announced:
            return False
        who, play = self.history[-1]
        left, tells = self.count(seat), self.rules.deal.tells
        return who == seat and play is not None and tells(left) and not tells(left + len(play.cards))

    def ask_count(self, seat: str) -> Game:
        """``seat`` asks another player's count. 三 (一)2: 只有轮到自己出牌时，才可以询问其他选手的牌数 —
        asking out of turn is recorded as a foul. The answer is :meth:`count_answer`."""
        self._live(seat)
        if self.phase in ("declaring", "playing") and seat == self.turn:
            return self
        return self.foul(seat, "ask_out_of_turn")

    def apply(self, event: Event) -> Game:
        """Feed one :class:`Event` (for replaying a logged game)."""
        handlers = {
            "bid": lambda: self.bid(event.seat, event.value),
            "take_kitty": lambda: self.take_kitty(event.seat),
            "report": lambda: self.report(event.seat, bool(event.value)),
            "open_hand": lambda: self.open_hand(event.seat),
            "play": lambda: self.play(event.seat, event.value),
            "pass": lambda: self.pass_(event.seat),
            "foul": lambda: self.foul(event.seat, event.value),
            "announce_count": lambda: self.announce_count(event.seat),
            "ask_count": lambda: self.ask_count(event.seat),
        }
        if event.kind not in handlers:
            raise GameError("sandayi.unknown_event", text=repr(event.kind), known=", ".join(handlers))
        return handlers[event.kind]()


@dataclass(frozen=True)
class Event:
    """One event of a game: ``kind`` (bid, take_kitty, report, open_hand, play, pass, foul,
    announce_count, ask_count), the seat, and the value (the bid, 打 for a report, the cards, the foul).

    >>> rules = load("usst-2016")
    >>> g = replay(Game.start(rules, *deal_cards(rules, Decks(2).full(), "N"), "N"),
    ...            [Event("bid", "N", 3), Event("take_kitty", "N"), Event("open_hand", "N")])
    >>> g.first_bid_three, g.hand_open, len(g.hand("N"))
    (True, True, 33)
    """

    kind: str
    seat: str
    value: Any = None


def replay(game: Game, events: Iterable[Event]) -> Game:
    """The game after feeding ``events`` in order."""
    for event in events:
        game = game.apply(event)
    return game


def _cards(value: Any) -> Cards:
    return value if isinstance(value, Cards) else Cards.parse(value)


__all__ = ["PHASES", "Event", "Foul", "Game", "GameError", "Play", "deal_cards", "replay", "show"]
