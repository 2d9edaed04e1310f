"""One hand of Guandan as the referee follows it: turns, readings, 接风, finish order, card counts.

The hand is an immutable value fed events (:meth:`Hand.play`, :meth:`Hand.pass_`); each returns a
new hand, and one that cannot be (out of turn, a play that is no combination or does not beat
the table, more cards than the seat holds) raises :class:`HandError` and changes nothing.

* Play goes S -> E -> N -> W, skipping seats that have played out (七①: 选手依次轮流压牌).
* A lead is recorded with its lowest reading unless the leader declared one (二: x4567 相当于
  34567（或45678须出牌时说明）); a follow stands when some reading beats the table, and its lowest
  such reading is recorded (七①: 后一家打出的牌必须比前一家打出的牌大). With the book's
  ``[combos] wild_reading = "asked"`` a play holding the wildcard, lead or follow, keeps the readings its
  seat could have stated (:attr:`Turn.could`; a follow's: those that beat the play before it): where the
  next play would be judged otherwise under another (:meth:`Hand.depends`), the table asks what was said
  and the hand takes the answer (:meth:`Hand.read_as`).
* When the others all pass, the last player leads anew (七②); when that player has played out,
  its partner takes the lead (三: 无人压牌，则由对门借风出牌).
* The hand ends when three have played out, or early when partners take first and second
  (七②: 如果对家两人争得上游或二游则提前结束).
* A seat whose 越序出牌 or 暴露张 the referee confirmed sits out its next turn (十一 2, 3: 停止一轮出牌，
  由下家出牌): when it comes, it is a pass, or, when that seat would lead, the lead goes to the next seat
  holding cards (:meth:`Hand.sit_out`).
* The referee always knows how many cards each seat holds; at ten or fewer the table shows the
  count (九 3: 手中牌10张以下(包括10张牌)，第一次必须主动报数), and when it was shown is recorded.
* A tribute is checked against what its payer plays later (evidence, as in the Tractor judge):
  a card larger than the tribute, other than the heart level card and the card it got back,
  proves the tribute was not the largest card.

>>> gd = load("sanjiang-2012")
>>> h = Hand.start(gd, "5", leader="S")
>>> h = h.play("S", Cards.parse("S3 D3")).play("E", Cards.parse("S7 C7"))
>>> h.table.seat, h.table.reading, h.turn
('E', Reading('pair', 5, 2), 'N')
>>> h.play("N", Cards.parse("S6 S6"))  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
referee.guandan.hand.HandError: guandan.does_not_beat (cards=['S6', 'S6'], other='E',
    readings=[guandan.reading (rank='6', type='pair')], seat='N', table_cards=['S7', 'C7'],
    table_reading=guandan.reading (rank='7', type='pair'))
>>> h = h.pass_("N").pass_("W").pass_("S")
>>> h.turn, h.table is None, h.count("E")
('E', True, 25)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from referee.cards import Card, CardError, Cards, Decks
from referee.climbing.combos import (
    RANK_OF_VALUE,
    VALUE,
    Reading,
    beats,
    power_of,
    readings,
)
from referee.guandan.levels import HandResult
from referee.guandan.rulings import Ruling
from referee.guandan.tribute import Exchange, wildcard
from referee.reasons import Reason, Refused
from referee.rulebooks import GuandanRulebook, load  # noqa: F401 (load: doctests)
from referee.seats import SEATS, next_seat, partner

SEQUENCES = ("straight", "pair_straight", "triple_straight", "straight_flush", "airplane")
Declared = Reading | str | tuple


class HandError(Refused):
    """An event that cannot be part of this hand (a reason ``guandan.*``); the hand is left unchanged."""


def describe(rules: GuandanRulebook, level: str, reading: Reading) -> Reason:
    """A reading as a reason's value: ``pair 7``, ``straight to 8``, ``bomb of 5 Q``, ``single 5`` (the level card).

    >>> gd = load("sanjiang-2012")
    >>> [describe(gd, "5", r) for r in readings(gd, Cards.parse("S4 S4 S4 H5 H5"), "5")]
    [Reason('guandan.reading', rank='4', type='full_house'), Reason('guandan.reading_bomb', rank='4', size=5)]
    """
    if reading.type == "joker_bomb":
        return Reason("guandan.reading_type", type=reading.type)
    if reading.type in SEQUENCES:
        return Reason("guandan.reading_to", type=reading.type, rank=RANK_OF_VALUE[reading.rank])
    order = rules.ranks.order
    names = {power_of(rules, Card.parse("S" + r), level): r for r in order}
    names |= {power_of(rules, Card.parse(j), level): j for j in ("LJ", "BJ")}
    name = names.get(reading.rank, str(reading.rank))
    if reading.type == "bomb":
        return Reason("guandan.reading_bomb", size=reading.size, rank=name)
    return Reason("guandan.reading", type=reading.type, rank=name)


def as_read(rules: GuandanRulebook, level: str, cards: Cards, reading: Reading) -> tuple[str, ...]:
    """The cards in the order ``reading`` reads them: in a sequence each wildcard where it stands (x4567 as 34567:
    ``H9 S4 S5 S6 S7``, as 45678: ``S4 S5 S6 S7 H9``); any other play as its cards are written.

    >>> gd = load("sanjiang-2012")
    >>> as_read(gd, "9", Cards.parse("S4 S5 S6 S7 H9"), Reading("straight", 7, 5))
    ('H9', 'S4', 'S5', 'S6', 'S7')
    """
    width = {"pair_straight": 2, "triple_straight": 3}.get(reading.type, 1)
    wild = wildcard(rules, level)
    if reading.type not in ("straight", "straight_flush", "pair_straight", "triple_straight") or wild is None:
        return tuple(cards.names())
    spare = [c for c in cards if c == wild]
    out: list[Card] = []
    for v in range(reading.rank - reading.size // width + 1, reading.rank + 1):
        have = [c for c in cards if c != wild and VALUE[c.rank] in (v, v + 13)][:width]
        out += have + [spare.pop() for _ in range(width - len(have))]
    return tuple(c.code for c in out)


@dataclass(frozen=True)
class Turn:
    """One turn: a play (``cards`` with the ``reading`` recorded) or a pass (``cards`` None), ``sat_out`` when
    the seat had to sit it out (十一); ``could``: a play's readings its seat could have stated (二: 须出牌时说明; a
    follow's: those that beat the play before it, 七①), lowest first, while the hand has not heard which
    (:meth:`Hand.read_as`), else ()."""

    number: int
    seat: str
    cards: Cards | None
    reading: Reading | None = None
    lead: bool = False
    at: float | None = None
    sat_out: bool = False
    could: tuple[Reading, ...] = ()

    def __str__(self) -> str:
        return f"{self.seat} {'sits out' if self.sat_out else 'passes' if self.cards is None else self.cards}"


@dataclass(frozen=True)
class Announcement:
    """The table showed a seat's card count (九 3): how many cards, after which turn, and when."""

    seat: str
    cards: int
    turn: int
    at: float | None


@dataclass(frozen=True)
class Hand:
    rules: GuandanRulebook
    level: str
    leader: str
    exchanges: tuple[Exchange, ...] = ()
    turns: tuple[Turn, ...] = ()
    turn: str | None = None  # the seat to play; None once the hand is over
    table: Turn | None = None  # the play to beat; None when a lead is due
    passes: int = 0  # passes since the table play
    counts: tuple[int, ...] = ()  # cards held, in SEATS order
    finish: tuple[str, ...] = ()  # seats in the order they played out (all four once three have)
    over: bool = False
    announced: tuple[Announcement, ...] = ()
    rulings: tuple[Ruling, ...] = ()
    played: Cards = field(default_factory=Cards)
    sitting_out: frozenset[str] = frozenset()  # seats that sit out their next turn (十一)

    @staticmethod
    def start(rules: GuandanRulebook, level: str, leader: str, exchanges: tuple[Exchange, ...] = ()) -> Hand:
        """A hand at ``level`` led by ``leader`` (the first hand: who drew the turned card, 七; later:
        :attr:`TributePhase.leader`), after the tribute ``exchanges``."""
        if leader not in SEATS:
            raise HandError("seats.unknown", text=str(leader))
        if level not in rules.ranks.order:
            raise HandError("cards.unknown_level", text=str(level))
        for x in exchanges:
            if x.giver not in SEATS or x.receiver not in SEATS or x.giver == x.receiver:
                raise HandError("guandan.no_such_tribute", giver=x.giver, receiver=x.receiver)
        size = rules.deal.hand_size
        return Hand(rules, level, leader, tuple(exchanges), turn=leader, counts=(size,) * 4)

    # -- what is known --------------------------------------------------------------
    def count(self, seat: str) -> int:
        """Cards ``seat`` holds now."""
        if seat not in SEATS:
            raise HandError("seats.unknown", text=str(seat))
        return self.counts[SEATS.index(seat)]

    def active(self) -> tuple[str, ...]:
        """Seats still holding cards."""
        return tuple(s for s, n in zip(SEATS, self.counts) if n > 0)

    def shown_counts(self) -> dict[str, int]:
        """The counts the table shows: every seat at the announcement threshold or below (九 3)."""
        limit = self.rules.announce.cards
        return {s: n for s, n in zip(SEATS, self.counts) if n <= limit}

    def known_hand(self, seat: str) -> Cards:
        """Every card ``seat`` has played this hand: what it is known to have held."""
        return Cards.join(t.cards for t in self.turns if t.seat == seat and t.cards is not None)

    def result(self) -> HandResult:
        """The first and where its partner finished (for :func:`levels_won`), once the hand is over."""
        if not self.over:
            raise HandError("guandan.hand_not_over")
        first = self.finish[0]
        return HandResult(first, self.finish.index(partner(first)) + 1)

    # -- events -----------------------------------------------------------------------
    def play(self, seat: str, cards: Cards, declared: Declared | None = None, at: float | None = None) -> Hand:
        """``seat`` plays ``cards``; a ``declared`` reading (a :class:`Reading`, a type, or (type,
        rank) with the rank a letter or the reading's number) says what they stand for. Played on a table whose
        reading would decide it (:meth:`depends`) without the question asked (a bot, a mirror), none was said: the
        play on the table stands as its lowest reading (:meth:`read_as`)."""
        number = len(self.turns) + 1
        self._check_turn(seat)
        if self.table is not None and self.table.could and self.depends(seat, cards):
            return self.read_as(None).play(seat, cards, declared, at)
        if not len(cards):
            raise HandError("guandan.empty_play", seat=seat)
        held = self.count(seat)
        if len(cards) > held:
            if not self.rules.deal.tells(held):  # the count is the players' secret (九 3): the refusal does not tell it
                raise HandError("guandan.holds_fewer_untold", seat=seat, n=len(cards), cards=cards)
            raise HandError("guandan.holds_fewer", seat=seat, held=held, n=len(cards), cards=cards)
        try:
            played = Decks(self.rules.deal.decks).check(self.played + cards)
        except CardError as exc:
            raise HandError("guandan.in_turn", turn_no=number, seat=seat, cards=cards, why=exc) from exc
        options = readings(self.rules, cards, self.level)
        if not options:
            wild = wildcard(self.rules, self.level)
            if wild is not None and cards.count(wild) and any(c.is_joker for c in cards) and len(cards) > 1:
                raise HandError("guandan.wild_joker", seat=seat, cards=cards, wild_card=wild)
            raise HandError("guandan.no_combination", seat=seat, cards=cards)
        chosen = self._pick(seat, cards, options, declared)
        turn = Turn(number, seat, cards, chosen, self.table is None, at, could=self._could(cards, options, declared))
        counts = list(self.counts)
        counts[SEATS.index(seat)] -= len(cards)
        hand = replace(self, turns=self.turns + (turn,), table=turn, passes=0, counts=tuple(counts), played=played)
        left = counts[SEATS.index(seat)]
        if left == 0:
            hand = hand._played_out(seat)
        elif left <= self.rules.announce.cards and seat not in {a.seat for a in self.announced}:
            hand = replace(hand, announced=hand.announced + (Announcement(seat, left, number, at),))
        hand = hand._prove_tribute(seat)
        if not hand.over:
            hand = replace(hand, turn=hand._next_active(seat))
        return hand._sit_out_due()

    def depends(self, seat: str, cards: Cards) -> tuple[Reading, ...]:
        """The readings of the play on the table, lead or follow, when ``seat``'s ``cards``, the next play, would be
        judged otherwise under one than under another (beating one and not another, or recorded as another reading),
        else (): the readings its seat could have stated (二: x4567，相当于34567（或45678须出牌时说明）), which no input
        carries. A seat that passes leaves the play on the table, and its readings, to the next (七①).

        >>> h = Hand.start(load("sanjiang-2012"), "9", leader="S").play("S", Cards.parse("H9 S4 S5 S6 C7"))
        >>> h.table.reading, h.depends("E", Cards.parse("D4 D5 D6 D7 C8"))  # beats 34567, not 45678
        (Reading('straight', 7, 5), (Reading('straight', 7, 5), Reading('straight', 8, 5)))
        >>> h.depends("E", Cards.parse("D5 D6 D7 D8 C9"))  # beats both readings
        ()
        >>> h = Hand.start(load("sanjiang-2012"), "9", leader="S").play("S", Cards.parse("S3 S4 S5 S6 C7"))
        >>> h = h.play("E", Cards.parse("H9 D5 D6 D7 C8"))  # a follow: x5678 beats 34567 as 45678 or as 56789
        >>> h.table.could, h.depends("N", Cards.parse("C5 C6 C7 C8 S9"))  # N's 56789 beats 45678, not 56789
        ((Reading('straight', 8, 5), Reading('straight', 9, 5)), (Reading('straight', 8, 5), Reading('straight', 9, 5)))
        """
        on = self.table
        options = readings(self.rules, cards, self.level) if on is not None and on.could else ()
        judged = set()
        for r in on.could if options else ():
            try:
                judged.add(replace(self, table=replace(on, reading=r))._pick(seat, cards, options, None))
            except HandError:
                judged.add(None)
        return on.could if len(judged) > 1 else ()

    def read_as(self, reading: Reading | None) -> Hand:
        """The hand with the play on the table, lead or follow, read as ``reading``, the one its seat stated (二:
        须出牌时说明), or None: none was stated, and its lowest reading stands (002 prices nothing for not saying).
        Before the next play.

        >>> h = Hand.start(load("sanjiang-2012"), "9", leader="S").play("S", Cards.parse("H9 S4 S5 S6 C7"))
        >>> stated = h.read_as(h.table.could[1])
        >>> stated.table.reading, stated.table.could, stated.turns[-1] is stated.table
        (Reading('straight', 8, 5), (), True)
        """
        on = self.table
        if on is None or not on.could or (reading is not None and reading not in on.could):
            raise HandError("guandan.no_reading_asked", reading=describe(self.rules, self.level, reading) if reading else "-")
        stated = replace(on, reading=reading or on.could[0], could=())
        return replace(self, table=stated, turns=tuple(stated if t.number == on.number else t for t in self.turns))

    def pass_(self, seat: str, at: float | None = None) -> Hand:
        """``seat`` passes (七①: 如没有可以弃权)."""
        self._check_turn(seat)
        if self.table is None:
            raise HandError("table.leader_cannot_pass", seat=seat)
        return self._pass(Turn(len(self.turns) + 1, seat, None, at=at))._sit_out_due()

    def sit_out(self, seat: str) -> Hand:
        """``seat`` sits out its next turn (十一 2, 3: a confirmed 越序出牌 or 暴露张 停止一轮出牌，由下家出牌):
        a pass when it follows; when it would lead, the next seat holding cards leads instead. At once when
        it is on turn now; nothing for a seat that has played out.

        >>> h = Hand.start(load("sanjiang-2012"), "2", leader="S").sit_out("N").play("S", Cards.parse("S3"))
        >>> h = h.play("E", Cards.parse("S5"))
        >>> h.turn, str(h.turns[-1])
        ('W', 'N sits out')
        >>> h.pass_("W").pass_("S").turn  # N's pass was the first of the three that end the trick
        'E'
        """
        if seat not in SEATS:
            raise HandError("seats.unknown", text=str(seat))
        if self.over or seat in self.finish:
            return self
        return replace(self, sitting_out=self.sitting_out | {seat})._sit_out_due()

    def taken_back(self, seat: str) -> Hand:
        """The hand with the play that emptied ``seat``'s hand taken back (九 3: 如报错牌张或故意隐瞒，则已出完的牌必须
        收回重出（对方选手可以打牌压）): as it stood before that play, the same trick on the table, ``seat`` on turn to
        lead or follow as it was, holding those cards again. The turns after it are taken back with it: they answered
        a play that is no longer on the table, and the opponents answer it anew when it is played again. Replayed
        from the start with the readings recorded; the tribute's rulings stand, and a sit-out served in a turn taken
        back is due again. Nothing for a seat still holding cards.

        >>> h = Hand.start(load("sanjiang-2012"), "2", leader="S")
        >>> h = replace(h, counts=(2, 27, 27, 27)).play("S", Cards.parse("S5 H5")).pass_("E").pass_("N").pass_("W")
        >>> h.finish, h.turn
        (('S',), 'N')
        >>> back = h.taken_back("S")
        >>> back.finish, back.turn, back.count("S"), len(back.turns)
        ((), 'S', 2, 0)
        """
        if self.count(seat) or seat not in self.finish:
            return self
        going = next(t for t in reversed(self.turns) if t.seat == seat and t.cards is not None)
        hand = replace(self, turns=(), turn=self.leader, table=None, passes=0, finish=(), over=False, announced=(),
                       played=Cards(), sitting_out=frozenset(),
                       counts=tuple(n + sum(len(t.cards) for t in self.turns if t.seat == s and t.cards is not None)
                                    for s, n in zip(SEATS, self.counts)))  # fmt: skip
        for t in self.turns[:going.number - 1]:
            if t.sat_out:
                hand = replace(hand, sitting_out=hand.sitting_out | {t.seat})._sit_out_due()
            elif t.cards is None:
                hand = hand.pass_(t.seat, at=t.at)
            else:
                hand = hand.play(t.seat, t.cards, None if t.could else t.reading, at=t.at)
        again = {t.seat for t in self.turns[going.number - 1:] if t.sat_out}
        return replace(hand, rulings=self.rulings, sitting_out=hand.sitting_out | self.sitting_out | again)

    # -- helpers ------------------------------------------------------------------------
    def _pass(self, turn: Turn) -> Hand:
        passes = self.passes + 1
        hand = replace(self, turns=self.turns + (turn,), passes=passes)
        last = self.table.seat
        if passes >= len([s for s in self.active() if s != last]):
            return replace(hand, table=None, passes=0, turn=self._taker(last))
        return replace(hand, turn=self._next_active(turn.seat))

    def _sit_out_due(self) -> Hand:
        """The turns of seats that must sit out, while the turn is theirs."""
        hand = self
        while not hand.over and hand.turn in hand.sitting_out:
            seat = hand.turn
            turn = Turn(len(hand.turns) + 1, seat, None, sat_out=True)
            hand = replace(hand, sitting_out=hand.sitting_out - {seat})
            if hand.table is None:  # 由下家出牌: the lead passes on
                hand = replace(hand, turns=hand.turns + (turn,), turn=hand._next_active(seat))
            else:
                hand = hand._pass(turn)
        return hand

    def _check_turn(self, seat: str) -> None:
        if seat not in SEATS:
            raise HandError("seats.unknown", text=str(seat))
        if self.over:
            raise HandError("guandan.hand_over", seat=seat)
        if seat in self.finish:
            raise HandError("guandan.played_out", seat=seat, place=self.finish.index(seat) + 1)
        if seat != self.turn:
            raise HandError("guandan.out_of_turn", seat=seat, turn=self.turn)

    def _next_active(self, seat: str) -> str:
        s = next_seat(seat)
        while self.count(s) == 0:
            s = next_seat(s)
        return s

    def _taker(self, last: str) -> str:
        """Who leads when everyone passed after ``last``'s play."""
        if self.count(last) > 0:
            return last
        rule = self.rules.play.take_the_lead
        if rule == "partner" and self.count(partner(last)) > 0:
            return partner(last)
        return self._next_active(last)

    def _played_out(self, seat: str) -> Hand:
        finish = self.finish + (seat,)
        early = self.rules.play.early_end and len(finish) == 2 and finish[1] == partner(finish[0])
        if len(finish) == 3:
            finish += tuple(s for s in SEATS if s not in finish)
        over = early or len(finish) == 4
        return replace(self, finish=finish, over=over, turn=None if over else self.turn)

    def _pick(self, seat: str, cards: Cards, options: tuple[Reading, ...], declared: Declared | None) -> Reading:
        def words() -> list[Reason]:
            return [describe(self.rules, self.level, r) for r in options]

        fits = list(options) if declared is None else [r for r in options if self._matches(r, declared)]
        if not fits:
            raise HandError("guandan.not_read_as", seat=seat, cards=cards, declared=self._say(declared), readings=words())
        if self.table is None:
            return fits[0]
        prev = self.table.reading
        for r in fits:
            if beats(self.rules, r, prev):
                return r
        said = words() if declared is None else [describe(self.rules, self.level, fits[0])]
        on = describe(self.rules, self.level, prev)
        raise HandError("guandan.does_not_beat", seat=seat, cards=cards, readings=said, table_cards=self.table.cards,
                        table_reading=on, other=self.table.seat)

    def _could(self, cards: Cards, options: tuple[Reading, ...], declared: Declared | None) -> tuple[Reading, ...]:
        """A play's readings its seat could have stated, where the book asks (``[combos] wild_reading``) and it holds
        the wildcard (二: 红心x可作为万能牌配用…须出牌时说明): a lead's every reading; a follow's, those that beat the
        play before it (七①: 后一家打出的牌必须比前一家打出的牌大), under each reading that play may still have; ()
        when one stands or it was declared."""
        wild = wildcard(self.rules, self.level)
        if declared is not None or self.rules.combos.wild_reading != "asked" or wild is None or not cards.count(wild):
            return ()
        if self.table is not None:
            before = self.table.could or (self.table.reading,)
            options = tuple(r for r in options if all(beats(self.rules, r, b) for b in before))
        return options if len(options) > 1 else ()

    def _say(self, declared: Declared) -> Reason:
        if isinstance(declared, Reading):
            return describe(self.rules, self.level, declared)
        if isinstance(declared, tuple):
            return Reason("guandan.reading", type=str(declared[0]), rank=" ".join(map(str, declared[1:])))
        return Reason("guandan.reading_type", type=str(declared))

    def _matches(self, r: Reading, declared: Declared) -> bool:
        if isinstance(declared, Reading):
            return r == declared
        if isinstance(declared, str):
            return r.type == declared
        if not (isinstance(declared, tuple) and len(declared) == 2):
            raise HandError("guandan.declared_form", text=repr(declared))
        kind, rank = declared
        if r.type != kind:
            return False
        if isinstance(rank, int):
            return r.rank == rank
        rank = "T" if str(rank) == "10" else str(rank).upper()
        if kind in SEQUENCES:
            return r.rank == VALUE.get(rank)
        try:
            card = Card.parse(rank if rank in ("LJ", "BJ") else "S" + rank)
        except CardError:
            return False
        return r.rank == power_of(self.rules, card, self.level)

    def _prove_tribute(self, seat: str) -> Hand:
        """A payer's plays prove its tribute was not its largest card: a larger card (not the heart
        level card, and not the card it got back) among them."""
        found = []
        ruled = {r.seat for r in self.rulings if r.kind == "tribute_not_largest"}
        wild = Card.parse("H" + self.level) if self.rules.ranks.wildcard == "heart_level" else None
        if not self.rules.tribute.exclude_wildcard:
            wild = None
        for x in self.exchanges:
            if x.giver != seat or seat in ruled:
                continue
            held = self.known_hand(seat)
            if x.returned is not None and held.count(x.returned):
                held = held - Cards([x.returned])
            paid = power_of(self.rules, x.tribute, self.level)
            larger = [c for c in held.distinct() if c != wild and power_of(self.rules, c, self.level) > paid]
            if not larger:
                continue
            evidence = tuple(
                (t.number, str(t.cards)) for t in self.turns
                if t.seat == seat and t.cards is not None and any(t.cards.count(c) for c in larger)
            )  # fmt: skip
            detail = Reason("guandan.tribute_proven", seat=seat, card=x.tribute, receiver=x.receiver, held_cards=larger)
            found.append(Ruling("tribute_not_largest", seat, detail, evidence))
        return replace(self, rulings=self.rulings + tuple(found)) if found else self


__all__ = ["Announcement", "Hand", "HandError", "Turn", "as_read", "describe"]
