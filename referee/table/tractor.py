"""A Tractor table's referee as a pure reducer: inputs in, a new table and its outputs out.

The service (``referee.table.service``) logs every input before it calls :meth:`TractorTable.apply`
and rebuilds a table by replaying the log, so everything here is a pure function of the
inputs and their times: no clock is read, nothing is random.

The flow of a Tractor table, from the inputs of ``bus/PROTOCOL.md``:
``assign`` -> ``start_round`` -> each seat's ``ready`` (late arrival is measured) -> the draw
(a seat that shows level cards declares or overturns; any seat's ``declare`` button ends the
draw) -> the dealer's ``ready`` (the kitty is taken; with no declaration the dealer names the
trump suit by showing one card of it; in a first hand any seat's, as its first drawer: 000 第八条 2) -> plays, one ``observed`` per seat in turn -> the dealer
turns up the kitty (a book without one: none) -> the hand is scored once every card was seen (else it waits for cards
held back, or the dealer's ``ready``: :meth:`TractorTable._played_out`) and the next one is dealt. A seat on turn with
no card to play presses ``pass`` (少牌) and a seat showing cards once every seat has played out held them back (多牌; the dealer's, shown before
its kitty, when they cannot be one, asked when they could be either): a ``wrong_card_count`` flag, priced once
confirmed as the hand charges it (a side's wrong counts are one offence); confirmed, a seat out of cards sits out the
tricks left (the book's ``[wrong_count]``).

Never a guess: a read below ``reducer.CONFIDENT``, a play out of turn or one the hand cannot hold
raises a flag, which pauses the table until a person confirms, corrects or dismisses it; so does a captive led where
its structure must be said aloud (001 十五), which no input carries (:meth:`TractorTable._captive_asked`).

>>> t = TractorTable("t1", "classic-3deck")
>>> t, out = t.apply("commands", {"v": 1, "id": "c1", "command": "start_round"}, at=0.0, seq=1)
>>> t.phase, out[0].payload["kind"]
('arriving', 'round_started')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from referee.cards import CardError, Cards, Decks
from referee.catalogue import say
from referee.reasons import Reason
from referee.rulebooks.book import PenaltyEntry
from referee.seats import SEATS
from referee.table.clock import ShotClock
from referee.table.reducer import Flag, Lying, Reducer, Reject
from referee.tractor.game import RULING_PENALTY, Declaring, DeclareError, Game, Penalty, in_kitty, penalties_of, settle, side_of
from referee.tractor.hand import HandError, HandJudge, Ruling
from referee.tractor.leads import judge_lead
from referee.tractor.scoring import Outcome
from referee.tractor.trumps import Trumps
from referee.tractor.units import readings

# The time a draw is allowed before the table asks a person (``idle``, never a penalty; decided, no seed times the draw):
# the shuffle and cut, then each card drawn one at a time in turn (000 第九条 1: 每家每次只能抓一张牌): 3 decks 372 s, 4
# decks 476 s (492 s with no kitty), flagged a minute later (reducer.STALLED_S). A healthy draw of 156 cards takes
# minutes: a bound of 120 s would call a referee to most tables whose draw showed no declaration for two minutes.
SHUFFLE_S = 60.0
DRAW_S_PER_CARD = 2.0


@dataclass(frozen=True)
class TractorTable(Reducer):
    """A Tractor table (see the module's docstring)."""

    game: Game | None = None
    declaring: Declaring | None = None
    trump: str | None = None
    judge: HandJudge | None = None
    penalties: tuple[Penalty, ...] = ()
    counted: tuple[dict, ...] = ()  # the hand's confirmed wrong card counts, as last published (``_said_again``)

    # -- what it is --------------------------------------------------------------------------------
    @property
    def trumps(self) -> Trumps | None:
        if self.trump is None or self.game is None:
            return None
        return Trumps(self.rules, self.game.hand_level(), self.trump)

    def turn(self) -> str | None:
        if self.phase == "kitty":
            return self.dealer
        if self.phase == "playing" and self.judge is not None:
            return self.judge.expected_seat()
        return None

    def cards_left(self) -> dict[str, int]:
        """Cards left in each seat's hand (none in the hand of a seat out of cards, ``HandJudge.sit_out``)."""
        size = self.rules.deal.hand_size if self.game else 0
        shown, out = (dict(self.judge.shown), self.judge.out) if self.judge else ({}, ())
        return {s: 0 if s in out else max(size - shown.get(s, 0), 0) for s in SEATS}

    # -- the round and the buttons ---------------------------------------------------------------------
    def _round_started(self) -> TractorTable:
        return self._with(game=Game.start(self.rules), penalties=())  # a stopped round's points are its own

    def _counted(self, flag: Flag) -> TractorTable:
        if flag.kind == "wrong_card_count":  # ruled by the hand judge, settled with the hand
            return self._with(judge=self._judged(flag)) if flag.cards else self._sat_out(flag.seat)
        kind = flag.kind if flag.kind in self.rules.penalties else RULING_PENALTY.get(flag.kind)  # as the hand's rulings
        if kind in self.rules.penalties:
            return self._with(penalties=self.penalties + (Penalty(kind, flag.seat, max(1, len(flag.cards))),))
        return self

    def _ruling(self, command: str, p: dict) -> TractorTable:
        """From the console: the referee's word on a violation no camera sees (the book's ``[fouls] kinds``: 暗示,
        让庄, 多摸牌...), during a hand: confirmed at once, citing its article, and costing its ``[penalties]`` entry
        when the hand is settled; an entry with ``card_points`` (000 第十八条) the named cards' points besides."""
        if command != "foul":
            return super()._ruling(command, p)
        if self.phase not in ("dealing", "kitty", "playing", "hand_over"):
            raise Reject("table.no_game", command=command, phase=self.phase)
        seat, kind, kinds = p["seat"], p["kind"], self.rules.fouls.kinds
        if kind not in kinds:
            raise Reject("table.unknown_foul", kind=kind, kinds=list(kinds))
        entry, evidence = self.rules.penalties[kind], {"hand": self.hand_no}
        cards = self._corrected(seat, kind, p.get("cards")) if entry.card_points else Cards()
        if entry.card_points:  # 000 第十八条: 如其中含有分数牌，则该分数为非错方赢取
            why = Reason("table.foul_card_points", cards=cards, n=cards.points, points=entry.points)
            evidence |= {"cards": cards.names(), "why": why.json()}
        offender = side_of(seat, self.dealer) if self.dealer else "defenders"  # no dealer yet: as the book's levels
        t, _ = self._violation(seat, kind, kinds[kind], _priced(entry, points=cards.points, offender=offender),
                               evidence, "confirmed")
        return t._with(penalties=t.penalties + (Penalty(kind, seat, points=cards.points),))

    def _corrected(self, seat: str, kind: str, names: list[str] | None) -> Cards:
        """The cards a foul whose entry has ``card_points`` names (000 第十八条: the wrong play corrected): cards
        ``seat`` could have played this hand, no more copies of one than the decks hold with those the other seats
        played and the kitty turned up; none named, or others, refused in words."""
        if not names:
            raise Reject("table.foul_needs_cards", kind=kind)
        cards = Cards.parse(names)  # a CardError is a reason too: rejected
        plays = [c for trick in self.judge.tricks for s, c in trick.plays if s != seat] if self.judge else []
        kitty = [self.judge.kitty] if self.judge and self.judge.kitty is not None else []
        try:
            return Decks(self.rules.deal.decks).check(cards, seen=Cards.join(plays + kitty))
        except CardError as exc:
            raise Reject("table.foul_cards_not_held", seat=seat, why=exc.reason) from exc

    def _game_button(self, seat: str, button: str) -> TractorTable:
        if self.phase == "playing" and button == "pass":
            return self._out_of_cards(seat)
        if self.phase == "hand_over" and button == "ready" and seat == self.dealer and self._kitty_up():
            t = self._idle_answered(seat)  # the wait for this very act, flagged (idle), is answered by it
            if not t.flags:  # its kitty turned up, or none to turn up: the dealer says the hand is over with cards not seen
                return t._score()
        if self.phase == "dealing" and button == "declare":
            return self._with(declaring=self.declaring.draw_done(self.at, seat))._event("draw_done", {"seat": seat})
        if self.phase == "dealing" and button == "ready" and seat == (self._dealer_to_be() or seat):
            if self.declaring.draw_done_at is None:
                raise Reject("tractor.draw_not_ended", seat=seat)
            return self._take_kitty(seat)
        raise self._meaningless(seat, button)

    def _all_ready(self) -> TractorTable:
        """Every seat is here: the first hand is dealt with the sides' late points to settle (二, 第十三条:
        首盘扣20分 / 30分), unless a side's lateness forfeits it (首盘自动放弃，对手自动升级): then it is
        not played, the opponents go up a level and deal the next hand, as when the late side's later
        player had dealt and lost the deal (its 下家 deals: ``[dealer] on_take_over``). When both sides
        forfeit it, both go up and the later side's 下家 deals; points of a side whose first hand is
        not played are not taken from any hand."""
        last = {team: max(team, key=self.ready.index) for team, _, _ in self.late}  # each late side's later player
        forfeits = sorted((t for t, lp, _ in self.late if lp.kind == "forfeit_hand"), key=lambda t: self.ready.index(last[t]))
        if not forfeits:
            points = tuple(lp.penalty(last[t]) for t, lp, _ in self.late if lp.kind == "points")
            return self._with(penalties=self.penalties + points)._deal()
        t, game = self._with(hand_no=1), self.game
        for team in forfeits:
            game = game.after(last[team], Outcome("defenders", 1))
            t = t._event("hand_forfeited", {"hand": 1, "team": team, "by": "late", "levels": 1})
        t = t._with(game=game)
        t = t._event("levels_changed", {"levels": {team: game.level_of(team) for team, _ in game.levels}, "dealer": game.dealer})
        return t._deal()

    def _awaited(self) -> tuple[str, str, float] | None:
        """The draw (untimed; each card seen starts its wait again, :meth:`_seen`), waiting on the seat that signals its
        end where the table knows it, the dealer (001 六: 庄家先摸第一张牌……庄家示意摸牌结束), and in a first hand on the
        seat that would deal by the cards declared, else South (nobody in particular: the flag's seat is only where it
        shows). Then the dealer taking the kitty (allowed its pause and, where the book times it, the kitty's own clock:
        001 八〈4〉 应停顿5秒钟才能拿底牌 and 二十三 庄家留底牌和首引不得超过60秒钟, 65 s in all; the 60 s itself starts when
        it takes the kitty); a first hand where nobody declared has none yet: its first drawer deals (000 第八条 2: 无人
        揭牌，则由该盘摸第一张牌的运动员做庄), which the table knows only as the seat that signalled the draw's end (000
        第十条 2: 当盘第一位抓牌者示意抓牌完毕), waited on, though any seat's ``ready`` takes the kitty (the card that chose
        the first drawer is not read). Last, the dealer turning its kitty up once the hand is played out (untimed)."""
        if self.phase == "dealing" and self.declaring.draw_done_at is None:
            d = self.rules.deal
            return self._dealer_to_be() or SEATS[0], "dealing", SHUFFLE_S + DRAW_S_PER_CARD * (54 * d.decks - d.kitty)
        if self.phase == "dealing":
            kitty = self.limits.limit("kitty_and_first_lead")
            seat = self._dealer_to_be() or self.declaring.ended_by
            return seat, "kitty", self.rules.declare.window_s + kitty if kitty else math.inf
        if self.phase == "hand_over":
            return self.dealer, "hand_over", math.inf
        return None

    def _idle_why(self, watch: ShotClock) -> Reason:
        """A draw that never ends, and a first hand whose draw ended with nobody declaring and nobody taking the kitty,
        are said as such; a person comes (no penalty)."""
        seconds = round(watch.used(self.at))
        if watch.action == "dealing":
            return Reason("tractor.idle_draw", seconds=seconds)
        if self.phase == "dealing" and self._dealer_to_be() is None:
            return Reason("tractor.idle_no_declaration", seat=watch.seat, seconds=seconds)
        return super()._idle_why(watch)

    def _dealer_to_be(self) -> str | None:
        if self.game and self.game.dealer:
            return self.game.dealer
        s = self.declaring.standing if self.declaring else None
        return s.seat if s else None

    def _deal(self) -> TractorTable:
        game = self.game
        t = self._with(phase="dealing", hand_no=self.hand_no + 1, declaring=Declaring(self.rules, game.hand_level(), first_hand=game.dealer is None),
                    trump=None, dealer=game.dealer, judge=None, clock=None, counted=(), lying=())  # fmt: skip
        return t._event("hand_started", {"hand": t.hand_no, "level": game.hand_level(), "dealer": game.dealer})

    def _take_kitty(self, seat: str) -> TractorTable:
        declaring, warning = self.declaring.kitty_taken(self.at)
        dealer = self._dealer_to_be() or seat
        trump = declaring.standing.suit if declaring.standing else None
        t = self._with(declaring=declaring, dealer=dealer, trump=trump, phase="kitty")
        t = t._with(clock=t.record.start(t.limits, dealer, "kitty_and_first_lead", t.at))
        t = t._event("kitty_taken", {"dealer": dealer, "trump": trump})
        if warning:
            seconds = round(self.at - self.declaring.draw_done_at, 3)
            evidence = {"seconds": seconds, "limit": self.rules.declare.window_s}
            t, _ = t._ruled(dealer, "kitty_window", self.rules.declare.window_article, warning, evidence, {"warning": True})
        return t

    # -- what the camera saw ---------------------------------------------------------------------------
    def _drawing(self) -> bool:
        return self.phase == "dealing" and self.declaring.draw_done_at is None

    def _shown_answers(self, seat: str) -> str | None:
        """Cards any seat shows during the draw (a declaration) are the draw going on: they answer its ``idle`` flag,
        whichever seat it names (:meth:`_awaited`)."""
        return None if self._drawing() else seat

    def _seen(self, seat: str, cards: Cards, p: dict) -> TractorTable:
        if self.phase == "dealing":
            try:
                declaring = self.declaring.declare(seat, cards, self.at)
            except CardError as exc:  # more copies than the decks hold: a misread, for a person to correct
                return self._flag(seat, "impossible", cards, exc.reason, p)
            except DeclareError as exc:  # no declaration: rejected, or 暴露张 for a person where the book counts the draw's
                if not self.rules.declare.exposed_in_draw:  # (001 二十: 在抓牌和打牌过程中; 000 第十五条: 在打牌过程中)
                    raise
                return self._exposed(seat, cards, exc.reason, p, self.rules.declare.exposed_article)
            watch = None if self._drawing() else self.watch  # a card seen: the draw's wait starts again
            return self._with(declaring=declaring, watch=watch)._event("declared", {"seat": seat, "cards": cards.names()})
        if self.phase == "kitty" and seat == self.dealer and self.trump is None:
            if len(cards) != 1 or cards.distinct()[0].is_joker:
                raise Reject("tractor.name_trump", seat=seat)
            return self._with(trump=cards.distinct()[0].suit)._event("trump_named", {"seat": seat, "suit": cards.distinct()[0].suit})
        if self.phase == "kitty" and self.trump is not None:
            if seat != self.dealer:
                return self._out_of_turn(seat, cards, self.dealer)
            t = self._with(phase="playing", judge=HandJudge.start(self.trumps, self.dealer))
            return t._play(seat, cards, p)
        if self.phase == "playing":
            return self._play(seat, cards, p)
        if self.phase == "hand_over" and seat == self.dealer:
            return self._dealer_shown(cards, p)
        if self.phase == "hand_over":  # every seat is out, by the cards seen: these are cards it held back (多牌)
            return self._held_back(seat, cards, p)
        raise Reject("table.shown_in_phase", seat=seat, phase=self.phase)

    def _trick_no(self) -> int:
        if not self.judge:
            return 0
        tricks = self.judge.tricks
        return len(tricks) + (1 if not tricks or tricks[-1].complete else 0)

    def _play(self, seat: str, cards: Cards, p: dict) -> TractorTable:
        judge = self.judge
        expected = judge.expected_seat()
        if seat != expected:
            return self._out_of_turn(seat, cards, expected)
        trick = judge.tricks[-1] if judge.tricks and not judge.tricks[-1].complete else None
        if trick is not None and len(cards) != len(trick.plays[0][1]):
            size = len(trick.plays[0][1])
            return self._exposed(seat, cards, Reason("tractor.follow_size", trick=trick.number, seat=seat, n=len(cards), size=size), p)
        held = dict(judge.shown).get(seat, 0) + len(cards)
        if held > self.rules.deal.hand_size and not p.get("counted"):  # a misread, a duplicate, or a real 多牌: a person says
            return self._flag(seat, "too_many", cards, Reason("tractor.played_too_many", n=held, size=self.rules.deal.hand_size), p)
        declared = None
        if trick is None and "reading" in p:  # the referee's word on a captive lead (:meth:`_captive_asked`)
            if p["reading"] is None:
                return self._wrong_lead(seat, cards, p)
            declared = [u.cards for u in readings(self.trumps, cards)[p["reading"] - 1]]  # the flag's choices, in order
        elif trick is None and self._captive(cards):
            return self._captive_asked(seat, cards, p)
        try:
            judge = judge.play(seat, cards, declared)
        except HandError as exc:
            return self._flag(seat, "impossible", cards, exc.reason, p)
        t = self._with(judge=judge)
        trick = judge.tricks[-1]
        t = t._event("play_accepted", {"hand": t.hand_no, "trick": trick.number, "seat": seat, "cards": cards.names()})
        t = t._clock_after(seat)._rulings_after(self.judge)
        if any(r.kind == "failed_throw" and r.trick == trick.number for r in judge.rulings[len(self.judge.rulings):]):
            return t._throw_taken_back()
        return t._turn_over(trick.complete)

    def _captive(self, cards: Cards) -> bool:
        """A lead that is a captive (001 十五: 同一花色的“三条”加一“对子”……相连的俘虏也不能出（如44433）), where the book lets
        one be led only with its structure said (``[combos] captive = "declared"``)."""
        if self.rules.combos.captive != "declared":
            return False
        why = judge_lead(self.trumps, cards).reason
        return why is not None and why.key == "tractor.captive"

    def _captive_asked(self, seat: str, cards: Cards, p: dict) -> TractorTable:
        """A captive led (:meth:`_captive`) may stand only as a throw whose structure its leader said aloud (001 十五: 除非当
        “甩牌”出牌，要说明“甩牌”的结构（三条加一对或拖拉机加一单张）), which no camera or board hears. Never guessed: an
        ``illegal_lead`` flag (甩错牌, flagged, charged nothing yet) asks the referee, the lead not played yet, its readings
        the flag's ``choices``. Dismissed naming one (``reading``): the leader said it, and it is led as that structure
        (followers follow it; it fails as any throw fails). Confirmed: it did not (:meth:`_wrong_lead`)."""
        entry = self.rules.penalty("illegal_lead")
        penalty = _priced(entry) if entry else {"text": say("zh", "penalty.by_rules")}
        choices = tuple(tuple(tuple(u.cards.names()) for u in r) for r in readings(self.trumps, cards))
        why = Reason("tractor.captive_said", cards=cards, readings_cards=choices)
        return self._flag(seat, "illegal_lead", cards, why, p, "甩错牌", penalty, choices)

    def _wrong_lead(self, seat: str, cards: Cards, p: dict) -> TractorTable:
        """The referee confirmed that the leader of a captive did not say its structure: 甩错牌, charged by the flag's
        violation (the book's ``illegal_lead``, :meth:`_counted`), and the throw does not stand (001 十九: 甩错牌一旦成，一次
        扣罚20分，且甩牌不成立，当甩错的牌或牌张组合为多种时，由甩错者的下家指定出其中的一种最小的单张或组合), taken back
        as a failed throw is (:meth:`_throw_taken_back`): led by the smallest unit of its lowest reading (the 下家's choice
        reaches no input, so the smallest stands: decided), its other cards back in the hand, lying there until picked up.
        The follows the others laid while the flag was open (waiting) follow no lead that stands: they lie there too, each
        seat asked about them at its turn (``laid_taken_back``), as the follows of a failed throw are."""
        forced = min(readings(self.trumps, cards)[0], key=lambda u: (len(u), u.top)).cards
        where, follows = self._trick_at(), [q for q in self.waiting if "button" not in q and q["seat"] != seat]
        lying = (Lying(seat, where, tuple((cards - forced).names()), None),)
        lying += tuple(Lying(q["seat"], where, tuple(Cards.parse(q["cards"]).names()), "laid_taken_back") for q in follows)
        t = self._with(lying=self.lying + lying, waiting=tuple(q for q in self.waiting if q not in follows))
        t = t._play(seat, forced, {k: v for k, v in p.items() if k != "reading"} | {"cards": forced.names()})
        if t.judge is self.judge:  # not played (flagged): nothing was taken back
            return t
        data = {"hand": t.hand_no, "trick": t.judge.tricks[-1].number, "seat": seat, "cards": forced.names(),
                "back_cards": (cards - forced).names()}
        return t._event("throw_taken_back", data)

    def _throw_taken_back(self) -> TractorTable:
        """A throw ruled failed by a play of its own trick, before the next lead, does not stand (``HandJudge.throw_taken_back``):
        its trick is led again by the unit the ruling forces, the lowest (001 十九 lets the thrower's 下家 choose among the
        ruling's ``choices``; no input carries that choice, so the lowest stands: decided), and the seats that followed it
        follow that anew. The cards taken back lie there (``lying``), sent by the camera already (it sends a card once a
        trick): lifted from the table (``removed``), they are picked up, and since a new follow made of some of them would
        never be read, each follower is asked at its turn (``laid_taken_back``; the thrower's turn is over)."""
        was, judge = self.judge.tricks[-1], self.judge.throw_taken_back()
        trick = judge.tricks[-1]
        kept = dict(trick.plays)
        back = tuple((s, c - kept.get(s, Cards())) for s, c in was.plays)
        data = {"hand": self.hand_no, "trick": trick.number, "seat": trick.leader, "cards": trick.plays[0][1].names(),
                "back_cards": Cards.join(c for _, c in back).names()}
        t = self._with(judge=judge)
        lying = tuple(Lying(s, t._trick_at(), tuple(c.names()), None if s == trick.leader else "laid_taken_back") for s, c in back)
        return t._with(lying=t.lying + lying)._event("throw_taken_back", data)._turn_over(False)

    def _turn_over(self, won: bool) -> TractorTable:
        """After a play, or a seat out of cards: the trick won, where that completed it; then the hand played out, or
        the next seat's clock (asked at once where cards the camera sent already lie in front of it: ``_lying_asked``)."""
        judge, t = self.judge, self
        trick = judge.tricks[-1] if judge.tricks else None
        if won:
            t = t._event("trick_won", {"hand": t.hand_no, "trick": trick.number, "seat": trick.winner, "points": trick.points})
        if sum(t.cards_left().values()) == 0:
            return t._with(phase="hand_over", clock=None)._event("hand_played", {"hand": t.hand_no})._played_out()
        if t.phase == "playing":
            action = "lead" if trick is None or trick.complete else "follow"
            t = t._with(clock=t.record.start(t.limits, judge.expected_seat(), action, t.at))._lying_asked()
        return t

    def _played_out(self) -> TractorTable:
        """A hand played out is scored once its kitty is turned up (a book with none, ``[deal] kitty = 0``: 003 不留底牌打法
        1: 庄家不留底牌, 10: 每盘牌最后一轮大牌方……按手中牌的分数牌总分进行加分, at once), every card of the decks was seen and no
        flag is open. Until then a seat out of cards left cards in a hand, shown as held back (多牌) and confirmed first:
        a wrong count the hand is ruled by (000 第十九条: 如发现竞赛双方均出现牌张数目不符情况，则重新该盘竞赛; 003 12(3):
        对手之间双方都有多牌少牌现象……互不扣分), never guessed away by scoring first (cards shown after it fell into the next
        hand's draw). Where some never are (fallen under the table), the dealer's ``ready`` scores it as seen
        (:meth:`_game_button`)."""
        if self.phase != "hand_over" or self.flags or not self._kitty_up() or not self.judge.all_seen():
            return self
        return self._score()

    def _kitty_up(self) -> bool:
        return self.judge.kitty is not None or not self.rules.deal.kitty

    def _resolve(self, flag: Flag, how: str, cards: list[str] | None = None) -> TractorTable:
        """A flag answered; the hand scored where that showed every card, its kitty turned up. A wrong card count
        holding the dealer's cards as its kitty (:meth:`_dealer_shown`) dismissed: they are not held back, so they are
        its kitty, turned up as shown (first, before the reads that waited behind the flag)."""
        t = self
        if how == "dismiss" and flag.kind == "wrong_card_count" and flag.pending is not None:
            t = t._with(waiting=(flag.pending,) + t.waiting)
        return super(TractorTable, t)._resolve(flag, how, cards)._played_out()

    # -- a wrong card count (多牌, 少牌) ------------------------------------------------------------------
    def _dealer_shown(self, cards: Cards, p: dict) -> TractorTable:
        """The dealer's ``cards``, shown once the hand is played out: its kitty turned up (``HandJudge.show_kitty``:
        refused, or ruled misburied, when not of the book's size), or cards it held back (多牌), flagged as any seat's.
        Held back, where they cannot be a kitty: the book has none (003 不留底牌打法 1: 庄家不留底牌), it was turned up, they are more than a
        kitty, or of another size once a seat was out of cards (the cards it lacked are in a hand). Its kitty, where they
        cannot be held back: the dealer was confirmed out of cards itself (it holds no card of its hand), or fewer cards
        than these are unseen besides a whole kitty (:meth:`_spare`), or a person said so (``p["kitty"]``). Either, where
        the cards a seat out lacked could be these, or, where the book prices a misburied kitty, fewer than a kitty and
        than the cards unseen (a kitty buried short, or cards the dealer kept out of it: 003 留底 12(4)): a
        ``wrong_card_count`` flag holding them, never a guess (confirmed: held back; dismissed: its kitty)."""
        k, out = self.rules.deal.kitty, self.judge.out
        if not k or self.judge.kitty is not None or not (self.dealer in out or len(cards) == k or (len(cards) < k and not out)):
            return self._held_back(self.dealer, cards, p)
        kitty = p | {"kitty": True}  # the read, as a person's answer says it is the kitty
        if not p.get("kitty") and self.dealer not in out and len(cards) <= self._spare():
            return self._held_back(self.dealer, cards, p, Reason("tractor.kitty_or_held", n=len(cards), spare=self._spare()), kitty)
        if not p.get("kitty") and self.dealer not in out and len(cards) < min(k, k + self._spare()) and self.rules.penalty("misburied_kitty"):
            return self._held_back(self.dealer, cards, p, Reason("tractor.kitty_short_or_held", n=len(cards), size=k), kitty)
        try:  # turned up (a misburied one ruled at once); scored where every card was seen (:meth:`_played_out`)
            return self._with(judge=self.judge.show_kitty(cards))._rulings_after(self.judge)._played_out()
        except HandError as exc:  # more copies than the decks with the cards seen: a misread, for a person
            if exc.reason.key != "tractor.in_kitty":  # (refused, it was refused for ever: the hand never scored)
                raise
            return self._flag(self.dealer, "impossible", cards, exc.reason, kitty)

    def _held_back(self, seat: str, cards: Cards, p: dict, why: Reason | None = None, pending: dict | None = None) -> TractorTable:
        """``cards`` ``seat`` shows once every seat has played out, as cards it held back (多牌): a wrong count flagged
        (:meth:`_wrong_count`, ``why`` the judge's unless said). Cards it cannot have held, more copies than the decks hold
        with the cards seen (a misread, a trick's cards read again), are an ``impossible`` flag for a person to correct:
        a wrong count of them could never be confirmed (``HandJudge.held_back`` refuses them, ``tractor.in_held_back``)."""
        try:
            self.judge.held_back(seat, cards)
        except HandError as exc:
            return self._flag(seat, "impossible", cards, exc.reason, p)
        return self._wrong_count(seat, cards, why or self.judge.held_why(seat, cards), pending)

    def _spare(self) -> int:
        """The cards of the decks not seen besides a whole kitty: those a seat out of cards lacked and nobody showed."""
        deal = self.rules.deal
        return 54 * deal.decks - len(self.judge.played) - deal.kitty

    def _out_of_cards(self, seat: str) -> TractorTable:
        """The seat on turn says (its ``pass`` button: Tractor has no pass) that it holds no card to play, while fewer
        than a hand's cards were seen from it (少牌). Flagged for the referee, never ruled on a guess: a card may have
        been misread, or the seat mistaken (a hand made up as the book says, 003 12(3): 由少牌方抽掉多牌方手上的牌作为
        补充, is dismissed). One flag at a time: pressing again while it is open adds nothing."""
        turn = self.judge.expected_seat()
        if seat != turn:
            raise Reject("table.pass_not_on_turn", seat=seat, turn=turn)
        if any(f.kind == "wrong_card_count" and f.seat == seat and not f.cards for f in self.flags):
            return self
        n, size = dict(self.judge.shown)[seat], self.rules.deal.hand_size
        return self._wrong_count(seat, Cards(), Reason("tractor.pass_pressed", n=n, size=size, short=size - n))

    def _wrong_count(self, seat: str, cards: Cards, why: Reason, pending: dict | None = None) -> TractorTable:
        """The flag for a wrong card count, with its violation citing the book's ``[wrong_count]`` article, priced only
        once confirmed (:meth:`_violation_of`): until the referee has counted the seat's cards the table knows no count
        (a ``pass`` pressed by mistake priced every card not seen, 1020 points under 003). ``pending``: the dealer's
        read of cards that may be its kitty, turned up if the flag is dismissed (:meth:`_resolve`)."""
        penalty = {"text": say("zh", "penalty.by_rules")}
        return self._flag(seat, "wrong_card_count", cards, why, pending, self.rules.wrong_count.article, penalty)

    def _judged(self, flag: Flag) -> HandJudge:
        """The hand judge once ``flag``, a wrong card count, is confirmed: the seat held its cards back, or is out."""
        return self.judge.held_back(flag.seat, Cards.parse(flag.cards)) if flag.cards else self.judge.sit_out(flag.seat)

    def _violation_of(self, flag: Flag, status: str) -> TractorTable:
        """A confirmed wrong card count is published as the hand charges it (:meth:`_counted_as`), with the judge's reason."""
        if flag.kind != "wrong_card_count" or status != "confirmed":
            return super()._violation_of(flag, status)
        v = flag.violation
        return self._counted_as(self._judged(flag).rulings, v["rule"]["article"], v["evidence"], flag.flag)

    def _counted_as(self, rulings: tuple[Ruling, ...], article: str, evidence: dict, flag: str | None = None) -> TractorTable:
        """Publishes the last of ``rulings``, a confirmed wrong card count, as the hand charges it (:meth:`_charged`); where
        that makes the hand a replay, or quits (003 12(3): 互不扣分), the hand's wrong counts published before it are
        published again, replayed or quits (:meth:`_said_again`)."""
        r = rulings[-1]
        penalty, why = self._charged(rulings)
        t, v = self._violation(r.seat, r.kind, article, penalty, evidence | {"why": why.json()}, "confirmed", flag)
        again = {"tractor.replayed": _replayed, "tractor.quits": _quits}.get(why.key)
        t = t._said_again(again) if again else t
        return t._with(counted=t.counted + (v,))

    def _said_again(self, again: Callable[[Reason], Reason], seat: str | None = None) -> TractorTable:
        """Each wrong card count the hand published with what it costs (``seat``'s, where given) is published again (the
        same ``flag``), costing nothing, its reason as ``again`` says it: the hand is replayed (:func:`_replayed`; 000 第十九条:
        如发现竞赛双方均出现牌张数目不符情况，则重新该盘竞赛; 001 二十一: 如双方均错，则重新该局比赛), quits with the other side's
        (:func:`_quits`; 003 12(3): 对手之间……互不扣分), or it was the dealer's
        misburied kitty, priced as that (:func:`_in_misburied`, ``in_kitty``; 003 留底 12(4)). Before, a side's first
        still said the other side went up a level, and a dealer's 少牌 from burying too many cost 20 more."""
        t, said = self, []
        for v in self.counted:
            was = Reason.of(v["evidence"]["why"])
            if again(was).key != was.key and seat in (None, v["seat"]):
                evidence = v["evidence"] | {"why": again(was).json()}
                t, v = t._violation(v["seat"], v["kind"], v["rule"]["article"], {}, evidence, "confirmed", v["flag"])
            said.append(v)
        return t._with(counted=tuple(said))

    def _charged(self, rulings: tuple[Ruling, ...]) -> tuple[dict, Reason]:
        """What the last of ``rulings``, a wrong card count, adds to what its side is charged, as its violation says it,
        and why. A side's wrong counts are one offence (``penalties_of``; seed 000 第十九条: 如果只有某家牌张数目不符，则判
        无错方自动升一级; 003 12(3): 同是一方出现以上情况……以20分/张进行加分/扣分): a later one costs only the cards
        and points it adds (often nothing), said as counted with the side's first. One that makes the hand a replay
        (both sides at fault, 000 第十九条: 双方均出现…则重新该盘竞赛) costs nothing: the replayed hand charges no ruling."""
        r, entry = rulings[-1], self.rules.penalties["wrong_card_count"]
        charged = list(self.penalties) + penalties_of(self.rules, list(rulings))
        if settle(self.rules, self.dealer, 0, charged).outcome is None:
            return {}, _replayed(r.detail)
        if r in in_kitty(rulings):
            return {}, _in_misburied(r.detail)

        def side(rs: tuple[Ruling, ...]) -> Penalty | None:
            return next((p for p in penalties_of(self.rules, list(rs)) if p.kind == r.kind and Game.team(p.seat) == Game.team(r.seat)), None)

        before, now = side(rulings[:-1]), side(rulings)
        if now is None:  # as many cards short on one side as too many on the other: neither pays (``penalties_of``)
            return {}, _quits(r.detail)
        if before is None:
            return _priced(entry, now.cards, now.points), r.detail
        more = entry.points_for(now.cards) + now.points - entry.points_for(before.cards) - before.points
        return ({"points": more} if more else {}), Reason("tractor.counted_with", why=r.detail, seat=before.seat)

    def _sat_out(self, seat: str) -> TractorTable:
        """Confirmed: ``seat`` is out of cards (``HandJudge.sit_out``); its turn's clock stops unruled (no seat is
        timed for a card it does not hold), a ``stalled`` flag of the turn is answered with it, and play goes on."""
        t = self._with(judge=self.judge.sit_out(seat), clock=None)
        for flag in (f for f in self.flags if f.kind == "stalled" and f.seat == seat):
            t = t._with(flags=tuple(f for f in t.flags if f is not flag))._event("flag_resolved", {"flag": flag.flag, "how": "dismiss"})
        was = self.judge.tricks[-1] if self.judge.tricks else None
        t = t._turn_over(was is not None and not was.complete and t.judge.tricks[-1].complete)
        return t._pause_clocks() if t.flags else t

    def _rulings_after(self, before: HandJudge) -> TractorTable:
        """Publishes what the hand judge ruled since ``before``, each a confirmed violation (a wrong card count priced
        as the hand charges it, :meth:`_counted_as`)."""
        t, rulings = self, self.judge.rulings
        for i in range(len(before.rulings), len(rulings)):
            r = rulings[i]
            evidence = {"cards": list(r.cards), "hand": t.hand_no, "trick": r.trick}
            if r.kind == "wrong_card_count":
                t = t._counted_as(rulings[: i + 1], self.rules.wrong_count.article, evidence)
            else:
                t, _ = t._ruled(r.seat, r.kind, _ARTICLES.get(r.kind, r.kind), r.detail, evidence)
            if r.kind == "misburied_kitty" and in_kitty(rulings[: i + 1]):
                t = t._said_again(_in_misburied, r.seat)
        return t

    def _out_of_turn_rule(self, cards: Cards) -> tuple[str, dict]:
        entry = self.rules.penalties.get("out_of_turn")
        return "越序出牌", {"points": entry.points_for(len(cards)) if entry else 0}

    def _pickup(self, seat: str, cards: Cards) -> str:
        if self.phase in ("dealing", "kitty", "hand_over"):  # cards shown to declare, the kitty turned up: back to a
            return "untracked"  # hand, no trick's cards
        tricks = self.judge.tricks[-2:] if self.judge else ()
        if tricks and dict(tricks[-1].plays).get(seat, Cards()).contains(cards):
            return "cleared" if tricks[-1].complete else "early"
        if len(tricks) == 2 and not tricks[-1].complete and dict(tricks[0].plays).get(seat, Cards()).contains(cards):
            return "cleared"  # the last trick's cards, picked up as (or just after) the next is led
        return "nowhere"

    def _could_be_play(self, seat: str, cards: Cards) -> bool:
        trick = self.judge.tricks[-1] if self.judge and self.judge.tricks else None
        if trick is None or trick.complete:
            return True  # any lead
        return seat not in dict(trick.plays) and len(cards) == len(trick.plays[0][1])

    def _clock_after(self, seat: str) -> TractorTable:
        if self.clock is None:
            return self
        record, verdict = self.record.stop(self.limits, self.clock, self.at)
        t = self._with(record=record, clock=None)
        if verdict is None or verdict.outcome == "none":
            return t
        o = verdict.overrun
        penalty = {"warning": verdict.outcome == "warning", "points": verdict.points, "text": str(verdict)[:200]}
        t, _ = t._violation(seat, "overtime", verdict.rule.article, penalty, {"seconds": round(o.used, 3), "limit": o.limit}, "confirmed")
        if verdict.penalty is not None:
            t = t._with(penalties=t.penalties + (verdict.penalty,))
        return t

    def _score(self) -> TractorTable:
        judge = (self.judge if self.judge.kitty is not None else self.judge.show_kitty(Cards())).finish()
        penalties = list(self.penalties) + penalties_of(self.rules, list(judge.rulings))
        s = settle(self.rules, self.dealer, judge.defender_points(), penalties)
        t = self._with(judge=judge)._rulings_after(self.judge)
        # a trick whose winner at the table revoked counts for the best other play (the book's
        # revoke cannot_win, seed 003 17); who led the next trick stays as it was played
        moved = [Reason("tractor.note_cannot_win", trick=tr.number, seat=tr.winner, other=to, n=tr.points) for tr, to in judge.reassigned()]
        notes = [n.json() for n in moved + list(s.notes)]
        data = {"hand": t.hand_no, "defenders": "EW" if self.dealer in "SN" else "SN",  # the side that defended it
                "defender_points": judge.defender_points(), "settled_points": s.defender_points, "notes": notes}
        if s.outcome is None:  # replayed: what was ruled besides the offences that void the hand still counts
            t = t._said_again(_replayed)._event("hand_scored", data | {"replay": True})
            return t._with(penalties=tuple(p for p in self.penalties if not getattr(self.rules.penalty(p.kind), "both_sides", None)))._deal()
        t = t._event("hand_scored", data | {"side": s.outcome.side, "levels": s.outcome.levels})
        game = t.game.after(self.dealer, s.outcome)
        t = t._with(game=game, penalties=(), record=t.record.next_hand(t.limits))
        t = t._event("levels_changed", {"levels": {team: game.level_of(team) for team, _ in game.levels}, "dealer": game.dealer})
        if game.winner:
            return t._with(phase="round_over")._event("game_won", {"team": game.winner, "by": "levels"})
        round_clock = self.round_clock()
        if self.last_hand or (round_clock and round_clock.timed and round_clock.last_hand(self.at)):
            return t._with(phase="round_over")._event("round_over", {"hands": t.hand_no})
        return t._deal()

    # -- outputs ---------------------------------------------------------------------------------------
    def _teams(self) -> list[dict]:
        teams = []
        for name, seats in (("SN", ["S", "N"]), ("EW", ["E", "W"])):
            level = self.game.level_of(name) if self.game else None
            defending = self.judge is not None and side_of(seats[0], self.dealer) == "defenders"
            teams.append({"name": name, "seats": seats, "level": level, "points": self.judge.defender_points() if defending else 0})
        return teams

    def _trump(self) -> dict | None:
        return {"suit": self.trump, "rank": self.game.hand_level()} if self.trump and self.game else None

    def _current_trick(self) -> dict | None:
        if not (self.judge and self.judge.tricks):
            return None
        last = self.judge.tricks[-1]
        return {"leader": last.leader, "plays": [{"seat": s, "cards": c.names()} for s, c in last.plays]}


def _replayed(why: Reason) -> Reason:
    return Reason("tractor.replayed", why=why)


def _quits(why: Reason) -> Reason:
    """003 12(3): 对手之间双方都有多牌少牌现象，且多和少的张数一样……互不扣分 (a count the misburied kitty explains stays so)."""
    return why if why.key in ("tractor.quits", "tractor.in_misburied") else Reason("tractor.quits", why=why)


def _in_misburied(why: Reason) -> Reason:
    return Reason("tractor.in_misburied", why=why)


_ARTICLES = {"revoke": "藏张", "failed_throw": "甩错牌", "illegal_lead": "出错牌", "misburied_kitty": "多埋少埋底牌"}


def _priced(entry: PenaltyEntry, cards: int = 1, points: int = 0, offender: str = "defenders") -> dict:
    """What a ``[penalties]`` entry costs ``offender``'s side, as a violation's ``penalty`` says it (its points for
    ``cards`` cards, and ``points`` moved besides)."""
    said = (("warning", entry.warning), ("points", entry.points_for(cards) + points),
            ("levels", entry.levels_against(offender) if entry.levels else 0), ("deal", entry.deal))
    return {k: v for k, v in said if v}

__all__ = ["TractorTable"]
