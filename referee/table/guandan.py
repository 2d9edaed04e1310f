"""A Guandan table (``sanjiang-2012``, seed 002) as a pure reducer over the climbing table.

The flow, from the inputs of ``bus/PROTOCOL.md``: ``assign`` -> ``start_round`` (the round is
the match, its clock the book's hour) -> each seat's ``ready`` (十二 第2条: more than 5 minutes
late forfeits the round) -> the draw (phase ``dealing``), ended by a ``ready``: in a game's first
hand the seat that drew the turned-up card presses it and leads (七); in later hands the tribute
follows (still ``dealing``, with ``turn`` the seat to pay or return): each payer's tribute and
each receiver's return card are ``observed`` from that seat, big jokers shown by the payers refuse
it (四); the return card has its 20 s clock (十二 第3条: one foul when late; the card is still due) ->
plays (``observed``) and passes (the ``pass`` button) in turn; 10 s each and one 30 s long think
per player per hand; an overrun gives up the turn (视作放弃本次出牌权): a follower's is a pass, a
leader's passes the lead to the next seat holding cards -> the hand ends
(three out, or partners first and second) -> ``hand_scored``, ``levels_changed``, and
``game_won`` once a team passes the stage's level (the book's ``[match] stage``, 规程 三 2: stage one a single
game past A, A must be played; stage two best of three, each game past 8, a new game with no tribute).

The round ends with the match (``game_won`` naming it), with three fouls by one side (十 第3条: ``game_won``
for the other side, ``by: "fouls"``), or when time is up (``round_over`` with the levels): a hand
not yet drawn is not played, a drawn one is finished, and the higher level wins (规程 三 2); in stage two
games at 1:1 are played out instead (``played_out``). A flag open at the hour on an undrawn hand (a call made in time)
holds the result (``result_waits``) until the referee has answered it, fouls recorded meanwhile still counting.
A play holding the wildcard that reads several ways (二: x4567，相当于34567（或45678须出牌时说明）, the book's
``[combos] wild_reading``), a lead or a follow (a follow's readings: those that beat the play before it), stands as its
lowest reading; where the next play would be judged otherwise under another, the referee is asked which its seat said
(a ``play_reading`` flag with ``choices``, :meth:`GuandanTable._reading_asked`),
nothing charged.
A misreported count (九 3) by a seat that has played out takes back the play that emptied its hand (``hand_reopened``,
:meth:`GuandanTable._taken_back`), a hand already scored too while the next is not drawn.

>>> t = GuandanTable("t1", "sanjiang-2012")
>>> t, out = t.apply("commands", {"v": 1, "id": "c1", "command": "start_round"}, at=0.0, seq=1)
>>> t.phase, t.match.game.hand_level()
('arriving', '2')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from referee.cards import Cards
from referee.reasons import Reason
from referee.guandan.hand import Hand, as_read, describe
from referee.guandan.levels import Match, levels_won
from referee.guandan.tribute import TributePhase
from referee.seats import SEATS, TEAMS
from referee.table.climbing import ClimbingTable
from referee.table.clock import Foul, ShotClock
from referee.table.reducer import Flag, Reject

OUT_OF_TURN = "十一 3: 上家没有出牌，下家就出牌，称为越序出牌…停止一轮出牌，由下家出牌，并视情节轻重记犯规一次"
EXPOSED = "十一 2: 不管是有意或无意把别的牌带下来(暴露张)，则停止一轮出牌，由下家出牌，并视情节轻重记犯规一次"
WRONG_PLAY = "十一 1: 任何一方所出的牌，一旦被对方看到…不得收回，如是错牌则停止一轮出牌，由下家出牌，并视情节轻重记犯规一次"
TRIBUTE_RULE = "四: 进贡和还牌时如出现违规…正常判为重新给牌，视情节轻重记犯规一次"


@dataclass(frozen=True)
class GuandanTable(ClimbingTable):
    match: Match | None = None
    hand: Hand | None = None
    tribute: TributePhase | None = None
    after: tuple[str, ...] = ()  # the finish order of the game's last hand: who pays tribute next
    returns: tuple[ShotClock, ...] = ()  # the receivers' return-card clocks
    warned: tuple[tuple[str, str], ...] = ()  # (seat, kind) of the round's warnings (九 3: 第一次警告)
    waits: bool = False  # time is up and the round's end waits for the referee (``_result_waits``)
    scored: GuandanTable | None = None  # the table as the last hand ended, before it was scored (``_taken_back``)

    # -- the engine --------------------------------------------------------------------------------
    def _engine(self) -> Hand:
        return self.hand

    def _engine_leading(self) -> bool:
        return self.hand.table is None

    def _engine_play(self, seat: str, cards: Cards) -> Hand:
        return self.hand.play(seat, cards, at=self.at)

    def _engine_pass(self, seat: str) -> Hand:
        return self.hand.pass_(seat, at=self.at)

    def _engine_lead_passes(self, seat: str) -> Hand:
        return self.hand.sit_out(seat)

    def _with_engine(self, hand: Hand) -> GuandanTable:
        t = self._with(hand=hand)
        for r in hand.rulings[len(self.hand.rulings):]:  # a tribute proven not the largest by a later play
            t, _ = t._ruled(r.seat, r.kind, TRIBUTE_RULE, r.detail, {"hand": t.hand_no, "trick": t.trick_no, "turns": [n for n, _ in r.evidence]})
        return t

    # -- a wildcard play's reading (二) -------------------------------------------------------------
    def _play(self, seat: str, cards: Cards, p: dict) -> GuandanTable:
        """A play, where the play on the table (a lead or a follow holding the wildcard, read its lowest way so far)
        would judge it otherwise under another reading: asked about first (:meth:`_reading_asked`); a play that carries
        the referee's answer (``reading``: the reading stated, 1 the first, or None: none) reads the play on the table
        so and is judged against it."""
        if "reading" in p and self.phase == "playing" and self.hand.table is not None and self.hand.table.could:
            could = self.hand.table.could
            t = self._with(hand=self.hand.read_as(could[p["reading"] - 1] if p["reading"] else None))
            return super(GuandanTable, t)._play(seat, cards, {k: v for k, v in p.items() if k != "reading"})
        if self.phase == "playing" and seat == self.hand.turn and (could := self.hand.depends(seat, cards)):
            return self._reading_asked(seat, cards, p, could)
        return super()._play(seat, cards, p)

    def _reading_asked(self, seat: str, cards: Cards, p: dict, could: tuple) -> GuandanTable:
        """二: x4567，相当于34567（或45678须出牌时说明） (the book's ``[combos] wild_reading = "asked"``): the seat of the
        play on the table, a lead or a follow holding the wildcard, may have said which reading it plays, aloud, which
        no input carries; the play stands as its lowest meanwhile (:meth:`Hand.depends`: asked only when it matters).
        The next play, ``cards`` (after passes too: compared with the play on the table, 七①), would be judged
        otherwise under another reading (beaten under one, not under another, or read as another): never guessed, a
        ``play_reading`` flag asks the referee, ``cards`` not played yet, the readings of the play on the table its
        ``choices`` (each its cards as that reading reads them, ``choice_words`` its words). Dismissed naming one: its
        seat stated it, the play is that reading and ``cards`` are judged against it (a play that does not beat it is
        flagged as any, 十一 1). Confirmed: none was stated, and the lowest stands (decided: 002 prices nothing for not
        saying). Nothing is ever charged."""
        on = self.hand.table
        words = tuple(describe(self.rules, self.hand.level, r) for r in could)
        choices = tuple((as_read(self.rules, self.hand.level, on.cards, r),) for r in could)
        why = Reason("guandan.play_reading_asked", other=on.seat, table_cards=on.cards, readings=list(words),
                     lowest=words[0])
        return self._flag(seat, "play_reading", cards, why, p, choices=choices, choice_words=words)

    # -- the round ---------------------------------------------------------------------------------
    def _round_started(self) -> GuandanTable:
        t = super()._round_started()
        return t._with(match=Match.start(self.rules, self.rules.match.stage, self.at), hand=None, tribute=None, after=(), returns=(),
                       warned=(), waits=False, scored=None)

    def _all_ready(self) -> GuandanTable:
        return self._deal()

    def _deal(self) -> GuandanTable:
        t = self._with(phase="dealing", hand_no=self.hand_no + 1, hand=None, tribute=None, returns=(), clock=None,
                    leader=None, plays=(), trick_no=0, record=self.record.next_hand(self.limits), lying=())  # fmt: skip
        return t._event("hand_started", {"hand": t.hand_no, "level": t.match.game.hand_level(), "dealer": None})

    def _game_button(self, seat: str, button: str) -> GuandanTable:
        if self.phase == "playing" and button == "pass":
            return self._pass(seat)
        if self.phase == "dealing" and button == "ready" and self.hand is None and self.tribute is None:
            if self._undrawn_stops():  # the round's end waits for the referee (_result_waits): no hand is drawn after it
                raise Reject("guandan.time_up", seat=seat)
            t = self._event("draw_done", {"seat": seat})
            if not self.after:  # a game's first hand: the seat that drew the turned-up card leads (七)
                return t._play_starts(seat, ())
            return t._with(tribute=TributePhase.start(self.rules, self.match.game.hand_level(), self.after))
        raise self._meaningless(seat, button)

    def _play_starts(self, leader: str, exchanges: tuple) -> GuandanTable:
        hand = Hand.start(self.rules, self.match.game.hand_level(), leader, exchanges)
        t = self._with(phase="playing", hand=hand, tribute=None, returns=())
        return t._start_clock(self.at)._event("play_started", {"hand": t.hand_no, "leader": leader})

    # -- the tribute -------------------------------------------------------------------------------
    def _tribute_turn(self) -> str | None:
        p = self.tribute
        unpaid = [s for s in p.payers if s not in dict(p.paid) and s not in dict(p.shown)]
        if unpaid:
            return unpaid[0]
        returned = dict(p.returned)
        return next((x.receiver for x in p.exchanges if x.receiver not in returned), None)

    def _tribute_seen(self, seat: str, cards: Cards) -> GuandanTable:
        p = self.tribute
        refuse = p.rules.tribute.refuse_with
        if seat in p.payers and seat not in dict(p.paid) and all(c == refuse for c in cards) and (
            len(cards) > 1 or (p.double and seat not in dict(p.shown) and not p.paid)
        ):  # big jokers shown: the refusal (at a double down one each counts together)
            p = p.refuse(seat, cards)
            t = self._with(tribute=p)._event("tribute_shown", {"seat": seat, "cards": cards.names()})
            if p.refused:
                return t._event("tribute_refused", {"seats": [s for s, _ in p.shown]})._play_starts(p.leader, ())
            return t
        paying = seat in p.payers and seat not in dict(p.paid)
        if not paying and not (seat in {x.receiver for x in p.exchanges} and seat not in dict(p.returned)):
            return self._out_of_turn(seat, cards, self._tribute_turn())  # one card or several: a person looks
        if len(cards) != 1:
            raise Reject("guandan.one_card", seat=seat, n=len(cards))
        card = cards.distinct()[0]
        if paying:
            if p.shown:  # the other payer showed one big joker and this one pays: that joker was its tribute
                (other, joker), = p.shown
                p = replace(p, shown=()).pay(other, joker.distinct()[0])
            return self._paid(seat, p.pay(seat, card))
        return self._returned(seat, p.return_(seat, card))

    def _rulings(self, before: TributePhase, after: TributePhase) -> GuandanTable:
        t = self
        for r in after.rulings[len(before.rulings):]:  # an illegal card: given again (重新给牌)
            t, _ = t._ruled(r.seat, r.kind, TRIBUTE_RULE, r.detail, {"hand": t.hand_no})
        return t

    def _paid(self, seat: str, p: TributePhase) -> GuandanTable:
        t = self._with(tribute=p)._rulings(self.tribute, p)
        if len(p.paid) == len(self.tribute.paid):
            return t
        t = t._event("tribute_paid", {"seat": seat, "card": dict(p.paid)[seat].code})
        if p.exchanges:  # every tribute paid: each receiver's return clock starts
            t = t._event("tribute_given", {"exchanges": [{"from": x.giver, "to": x.receiver, "card": x.tribute.code} for x in p.exchanges]})
            t = t._with(returns=tuple(t.record.start(t.limits, x.receiver, "return", t.at) for x in p.exchanges))
        return t

    def _returned(self, seat: str, p: TributePhase) -> GuandanTable:
        t = self._with(tribute=p)._rulings(self.tribute, p)
        if len(p.returned) == len(self.tribute.returned):
            return t
        to = next(x.giver for x in p.exchanges if x.receiver == seat)
        t = t._with(returns=tuple(c for c in t.returns if c.seat != seat))
        t = t._event("card_returned", {"seat": seat, "to": to, "card": dict(p.returned)[seat].code})
        return t._play_starts(p.leader, p.exchanges) if p.done else t

    def _awaited(self) -> tuple[str, str, float] | None:
        """A payer's tribute (untimed: the seed times only the return card) and a receiver's return card (its 20 s:
        watched once its clock was ruled, 十二 第3条 否则记犯规1次, the card still due)."""
        turn = self._tribute_turn() if self.phase == "dealing" and self.tribute is not None else None
        if turn is None:
            return None
        returning = any(c.seat == turn for c in self.returns)
        return turn, "tribute", (self.limits.limit("return") or math.inf) if returning else math.inf

    # -- what the camera saw -----------------------------------------------------------------------
    def _seen(self, seat: str, cards: Cards, p: dict) -> GuandanTable:
        if self.phase == "dealing" and self.tribute is not None:
            return self._tribute_seen(seat, cards)
        if self.phase == "playing":
            return self._play(seat, cards, p)
        raise Reject("table.shown_in_phase", seat=seat, phase=self.phase)

    def _out_of_turn_rule(self, cards: Cards) -> tuple[str, dict]:
        """In play 越序出牌 (十一 3: the offender sits out a turn); in the tribute cards from a seat not due (one or several) are a breach
        of 进贡和还牌 (四: 正常判为重新给牌: given again when due, no turn to sit out), a foul either way once confirmed."""
        if self.phase == "dealing" and self.tribute is not None:
            return TRIBUTE_RULE, {"foul": True, "text": "进贡还牌违规：重新给牌，犯规一次（裁判确认）"}
        return OUT_OF_TURN, {"foul": True, "text": "越序出牌：停止一轮出牌，犯规一次（裁判确认）"}

    def _exposed(self, seat: str, cards: Cards, why: Reason, pending: dict | None, article: str = EXPOSED) -> GuandanTable:
        return self._flag(seat, "exposed_card", cards, why, pending, article, {"foul": True, "text": "暴露张：停止一轮出牌，犯规一次（裁判确认）"})

    def _impossible(self, seat: str, cards: Cards, why, p: dict) -> GuandanTable:
        """十一 1: 如是错牌则停止一轮出牌，由下家出牌: a play the rules refuse is flagged with that penalty; the referee
        corrects a misread (the cards were others), dismisses what was no play, or confirms the wrong play."""
        if "impossible" not in self.rules.play.sit_out:
            return super()._impossible(seat, cards, why, p)
        return self._flag(seat, "impossible", cards, why, p, WRONG_PLAY, {"foul": True, "text": "出错牌：停止一轮出牌，犯规一次（裁判确认）"})

    def _counted(self, flag: Flag) -> GuandanTable:
        """A confirmed 越序出牌, 暴露张 or 错牌 (十一 1-3, the book's ``[play] sit_out``): a foul, and the offender sits
        out its next turn. A wrong play was on turn: its turn passes now (``passed`` with ``sat_out``), the next seat's
        clock starts; an offender not on turn (the table takes no play while a flag is open) passes when its turn
        comes (:meth:`_next_turn`)."""
        if flag.kind not in self.rules.play.sit_out:
            return self
        t = self._foul(Foul(flag.seat, flag.kind))
        if t.phase != "playing":
            return t
        on_turn = t.hand.turn == flag.seat
        t = t._with_engine(t.hand.sit_out(flag.seat))
        return t._next_turn(flag.seat) if on_turn else t

    def _ruling(self, command: str, p: dict) -> GuandanTable:
        """From the console: the referee's foul (the book's ``[fouls] kinds``, 九 and 四: what no camera sees), any
        time in the round, and after the hour while its end waits for a call made in time (:meth:`_result_waits`: the
        evidence's ``called_at``); each counts to the side, three lose the round (十 第3条), a ``warned_first`` kind's
        first by a player is a warning (九 3: 第一次警告，第二次则记犯规一次)."""
        if command != "foul":
            return super()._ruling(command, p)
        if self.match is None or self.phase in ("idle", "arriving", "round_over"):
            raise Reject("table.no_game", command=command, phase=self.phase)
        seat, kind, kinds = p["seat"], p["kind"], self.rules.fouls.kinds
        if kind not in kinds:
            raise Reject("table.unknown_foul", kind=kind, kinds=list(kinds))
        called = [f.at for f in self.flags if f.kind == "referee_called"]
        evidence = {"hand": self.hand_no} | ({"called_at": called[0]} if self.waits and called else {})  # ruled as of the call
        t, why = self._taken_back(seat) if kind in self.rules.fouls.taken_back else (self, None)
        evidence |= {"hand": t.hand_no} | ({"why": why.json()} if why is not None else {})  # a hand taken up again: its number
        if kind in self.rules.fouls.warned_first and (seat, kind) not in self.warned:
            t, _ = t._with(warned=t.warned + ((seat, kind),))._violation(seat, kind, kinds[kind], {"warning": True}, evidence, "confirmed")
            return t._reopened(self, seat)
        t, _ = t._violation(seat, kind, kinds[kind], {"foul": True}, evidence, "confirmed")
        return t._reopened(self, seat)._foul(Foul(seat, kind))

    def _taken_back(self, seat: str) -> tuple[GuandanTable, Reason | None]:
        """九 3: 如报错牌张或故意隐瞒，则已出完的牌必须收回重出（对方选手可以打牌压） (the book's ``[fouls] taken_back``): a
        seat that has played out takes back the play that emptied its hand (:meth:`Hand.taken_back`): the hand goes back
        to before it, in the same trick, that seat on turn to lead or follow as it was, and the opponents may beat the
        cards when they are played again (a going-out play left unbeaten gives the partner the lead, 接风). A hand the
        seat ended, already scored, is taken up again (its levels back) while the next one is not drawn: the cards of a
        hand drawn again are gone, and a game decided by it was reported to the tournament; then the cards stay, and the
        reason says why. A seat holding cards: nothing changes (the warning or the foul only). Returns the table and the
        reason for the violation's ``evidence``; the events follow the violation (:meth:`_reopened`)."""
        if self.phase == "playing":
            return (self, None) if self.hand.count(seat) else (self._with(hand=self.hand.taken_back(seat)), _going_out(self.hand, seat))
        last = self.scored
        if self.phase != "dealing" or last is None or last.hand.count(seat):
            return self, None
        if self.hand is not None or self.tribute is not None or len(self.match.games) != len(last.match.games):
            return self, Reason("guandan.cards_stay", seat=seat, hand=last.hand_no)
        t = self._with(phase="playing", waits=False, scored=None, after=last.after, record=last.record, hand_no=last.hand_no,
                       match=last.match, hand=last.hand.taken_back(seat))  # fmt: skip
        return t, _going_out(last.hand, seat)

    def _reopened(self, before: GuandanTable, seat: str) -> GuandanTable:
        """After :meth:`_taken_back` changed the hand: ``hand_reopened``, the trick as it stands again (its leader and
        plays), the levels as they were before the hand was scored (``levels_changed``) and the clock of the seat on turn."""
        if self.hand is before.hand:
            return self
        turns = self.hand.turns
        leads = [i for i, x in enumerate(turns) if x.lead and x.cards is not None]
        since = turns[leads[-1]:] if leads else ()
        plays = tuple({x.seat: (x.seat, tuple(x.cards.names())) for x in since if x.cards is not None}.values())
        t = self._with(leader=since[0].seat if since else None, plays=plays, trick_no=len(leads), clock=None, given_up=0)
        cards = _going_out(before.hand or before.scored.hand, seat)["cards"]
        t = t._event("hand_reopened", {"hand": t.hand_no, "seat": seat, "cards": list(cards),
                                        "trick": t.trick_no + (t.hand.table is None)})  # the trick they are played in again
        if before.phase != "playing":
            game = t.match.game
            t = t._event("levels_changed", {"levels": dict(game.levels), "level": game.hand_level(), "before": dict(before.match.game.levels)})
        t = t._start_clock(t.at)
        return t._pause_clocks() if t.flags else t

    def _next_turn(self, seat: str) -> GuandanTable:
        t = self
        sat_out = []
        for turn in reversed(self.hand.turns):  # the turns the engine passed after this one: seats sitting out
            if not turn.sat_out:
                break
            sat_out.insert(0, turn.seat)
        for s in sat_out:
            t = t._event("passed", {"hand": t.hand_no, "trick": t.trick_no, "seat": s, "sat_out": True})
        return super(GuandanTable, t)._next_turn(seat)

    # -- time --------------------------------------------------------------------------------------
    def _tick(self) -> GuandanTable:
        t = super()._tick()
        while t.phase == "dealing" and t.returns and not t.flags:
            due = [c for c in t.returns if c.deadline() is not None]
            late = min(due, key=lambda c: c.deadline(), default=None)
            if late is None or late.deadline() >= t.at:
                break
            record, verdict = t.record.stop(t.limits, late, t.at)  # 十二 第3条: one foul, and the card is still due
            t = t._with(record=record, returns=tuple(c.spent() if c is late else c for c in t.returns))
            t = t._clock_violation(verdict)
        if t.phase == "dealing" and t.hand is None and t.tribute is None and t._undrawn_stops():
            return t._round_ends("time") if not t.flags else t._result_waits()  # 未抓完牌牌桌停止打牌
        return t

    def _result_waits(self) -> GuandanTable:
        """Time is up with an undrawn hand while a flag is open (a call, 十 第1条 举报人举手报告裁判员, made in time): the
        match's end waits for the referee, who may still record the foul called (three lose the round, 十 第3条), and
        the round ends on time once no flag is open (:meth:`_resolve`). Said once: ``result_waits``."""
        if self.waits:
            return self
        return self._with(waits=True)._event("result_waits", {"by": "time", "flag": self.flags[0].flag})

    def _resolve(self, flag: Flag, how: str, cards: list[str] | None = None) -> GuandanTable:
        return super()._resolve(flag, how, cards)._tick()  # the round's end that waited for it, when it was the last

    def _pause_clocks(self) -> GuandanTable:
        t = super()._pause_clocks()
        return t._with(returns=tuple(c.paused(t.at) for c in t.returns))

    def _resume_clock(self) -> GuandanTable:
        t = super()._resume_clock()
        return t if t.flags or t.down else t._with(returns=tuple(c.resumed(t.at) for c in t.returns))

    def _deadlines(self) -> list[float | None]:
        return super()._deadlines() + [c.deadline() for c in self.returns if self.phase == "dealing"]

    # -- the end of a hand and of the round --------------------------------------------------------
    def _hand_over(self) -> GuandanTable:
        result = self.hand.result()
        game = self.match.game
        match = self.match.after(result)
        t = self._with(match=match, clock=None, phase="hand_over", scored=self._with(scored=None))
        t = t._event("hand_scored", {"hand": t.hand_no, "finish": list(self.hand.finish), "first": result.first,
                                     "partner_place": result.partner_place, "team": result.team,
                                     "levels": levels_won(self.rules, result.partner_place)})  # fmt: skip
        played = game.after(result)
        t = t._event("levels_changed", {"levels": dict(played.levels), "level": played.hand_level(), "before": dict(game.levels)})
        if len(match.games) > len(self.match.games):
            t = t._game_won(match)
            if match.winner:
                return t
            t = t._with(after=())  # a new game: no tribute (stage two)
        else:
            t = t._with(after=self.hand.finish)
        if t._ends_now():
            return t._round_ends("last_hand" if t.last_hand else "time")
        return t._deal()

    def _ends_now(self) -> bool:
        """The round ends after this hand: the hour is up, or the last hand was announced (not while a deciding
        game is played out: 规程 三 2, 第二阶段如1:1平局继续打完)."""
        return (self.last_hand and not self.match.unlimited) or self._time_is_up()

    def _game_won(self, match: Match) -> GuandanTable:
        games = match.won
        t = self._event("game_won", {"team": match.games[-1], "by": "levels", "passed": match.game.stage.passes, "games": games,
                                     "match": match.winner})
        return t._with(phase="round_over", clock=None) if match.winner else t

    def _time_is_up(self) -> bool:
        rc = self.round_clock()
        return bool(rc and rc.timed and rc.over(self.at)) and not self.match.unlimited

    def _undrawn_stops(self) -> bool:
        """Time is up on a hand whose cards are not all drawn, and the book stops such a hand (``round_cut =
        "undrawn"``, 规程 三 2: 未抓完牌牌桌停止打牌); with ``"none"`` it is played out, the round ending after it."""
        rc = self.round_clock()
        return bool(rc and rc.timed and rc.stops(self.at, drawn=False)) and not self.match.unlimited

    def _round_ends(self, by: str) -> GuandanTable:
        """Time is called (or the announced last hand is over): the round ends on the levels (规程 三 2:
        级高方为胜), equal levels a draw as the tournament reads ``round_over``; ``ahead`` also names the
        side ahead by seed 002's tie-break (同级时先到胜: the first to reach the level), or null. In a match of
        several games (stage two) the table decides it (:meth:`Match.time_up`: ``match`` and ``games``, the game in
        play to the team ahead), or, games left at 1:1, plays the deciding game out (:meth:`_played_out`)."""
        decided = None
        if self.match.game.stage.best_of > 1:
            decided = self.match.time_up()
            if decided.unlimited:
                return self._played_out(decided)
        game = self.match.game
        match = self.match if decided is None else replace(self.match, games=decided.games, winner=decided.winner)  # its levels kept
        t = self._with(match=match, phase="round_over", clock=None, returns=())
        ahead = game.ahead() if game.hands else None
        more = {} if decided is None else {"games": decided.won, "match": decided.winner}
        return t._event("round_over", {"hands": t.hand_no, "by": by, "levels": dict(game.levels), "ahead": ahead} | more)

    def _round_lost(self, teams: list[str], by: str, more: dict | None = None) -> GuandanTable:
        """A side's third foul or its lateness loses the round (十 第3条: 本轮判负): in a match of several games, the
        match (``match``), whatever its games."""
        if len(teams) == 1 and self.match is not None and self.match.game.stage.best_of > 1:
            more = (more or {}) | {"match": next(x for x in TEAMS if x != teams[0])}
        return super()._round_lost(teams, by, more)

    def _played_out(self, match: Match) -> GuandanTable:
        """Time is called in a match of several games left level at 1:1 (规程 三 2: 第二阶段如1:1平局继续打完): the
        deciding game is played out, with no time limit. Where the game in play decided it (1:0 before, the other
        team ahead), that game is won on time (``game_won`` by ``time``) and the deciding game starts; a hand not
        yet drawn is drawn again as its first. ``match``: the match as time left it (:meth:`Match.time_up`)."""
        t = self._with(match=match)._event("played_out", {"games": match.won})
        if len(match.games) == len(self.match.games):
            return t if t.phase == "dealing" else t._deal()
        t = t._event("game_won", {"team": match.games[-1], "by": "time", "games": match.won, "match": None})
        return t._with(after=())._deal()

    # -- outputs -----------------------------------------------------------------------------------
    def turn(self) -> str | None:
        if self.phase == "dealing" and self.tribute is not None:
            return self._tribute_turn()
        return super().turn()

    def cards_left(self) -> dict[str, int]:
        if self.hand is not None:
            return {s: self.hand.count(s) for s in SEATS}
        size = self.rules.deal.hand_size if self.phase == "dealing" else 0
        return dict.fromkeys(SEATS, size)

    def state(self, at: float) -> dict:
        """The table's ``state``; in a match of several games (规程 三 2, stage two: 三局两胜) with ``best_of``, the games
        the match is played over, beside each side's ``games``."""
        n = self.match.game.stage.best_of if self.match else 1
        return super().state(at) | ({"best_of": n} if n > 1 else {})

    def _teams(self) -> list[dict]:
        """Each side's level and, in a match of several games (规程 三 2, stage two: 三局两胜), its games won (``games``)."""
        levels = dict(self.match.game.levels) if self.match else {}
        won = self.match.won if self.match and self.match.game.stage.best_of > 1 else None
        return [{"name": n, "seats": list(n), "level": levels.get(n), "points": 0} | ({"games": won[n]} if won else {}) for n in TEAMS]

    def _trump(self) -> dict | None:
        """The level rank (参谋) of the hand in play; no trump suit."""
        return {"suit": None, "rank": self.match.game.hand_level()} if self.match and self.hand_no else None

    def _clocks(self, at: float) -> dict:
        clocks = super()._clocks(at)
        for c in self.returns if self.phase == "dealing" else ():
            clocks[c.seat] = {"left": round(c.left(max(at, c.last)), 3), "running": c.running}
        return clocks


def _going_out(hand: Hand, seat: str) -> Reason:
    """Why the violation's cards go back: the play that emptied ``seat``'s hand, taken back (九 3)."""
    going = next(x for x in reversed(hand.turns) if x.seat == seat and x.cards is not None)
    return Reason("guandan.taken_back", seat=seat, cards=going.cards)


__all__ = ["GuandanTable"]
