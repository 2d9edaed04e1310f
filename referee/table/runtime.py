"""A table's referee as a pure reducer: inputs in, a new table and its outputs out.

The service (``referee.table.service``) logs every input before it calls :meth:`Table.apply`
and rebuilds a table by replaying the log, so everything here is a pure function of the
inputs and their times: no clock is read, nothing is random.

The flow of a Tractor table, from the inputs of ``referee/PROTOCOL.md``:
``assign`` -> ``start_round`` -> each seat's ``ready`` (late arrival is measured) -> the draw
(a seat that shows level cards declares or overturns; any seat's ``declare`` button ends the
draw) -> the dealer's ``ready`` (the kitty is taken; with no declaration the dealer names the
trump suit by showing one card of it) -> plays, one ``observed`` per seat in turn -> the dealer
turns up the kitty -> the hand is scored and the next one is dealt.

Never a guess: a read below :data:`CONFIDENT`, a play out of turn or one the hand cannot hold
raises a flag, which pauses the table until a person confirms, corrects or dismisses it.

>>> t = Table.new("t1", "classic-3deck")
>>> t, out = t.apply("commands", {"v": 1, "id": "c1", "command": "start_round"}, at=0.0, seq=1)
>>> t.phase, out[0].payload["kind"]
('arriving', 'round_started')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache

from referee.cards import CardError, Cards
from referee.rulebooks import Rulebook, load
from referee.seats import SEATS
from referee.table.clock import ClockRecord, ClockLimits, RoundClock, ShotClock, late_penalty, limits, minutes_late
from referee.tractor.game import Declaring, DeclareError, Game, Penalty, penalties_of, settle, side_of
from referee.tractor.hand import HandError, HandJudge
from referee.tractor.trumps import Trumps

CONFIDENT = 0.9  # a recognition below this is flagged for a person to confirm
GRACE_MIN = 1.0  # a seat ready within a minute of the round's start is on time (pressing takes a moment)


@dataclass(frozen=True)
class Output:
    """One message to publish: a protocol topic name and its payload."""

    name: str
    payload: dict


@dataclass(frozen=True)
class Flag:
    """Something a person must look at; ``pending`` is the play to apply once confirmed."""

    flag: str
    seat: str
    kind: str
    at: float
    cards: tuple[str, ...] = ()
    text: str = ""
    pending: dict | None = None
    violation: dict | None = None  # the violation published with the flag, confirmed or dismissed later


@dataclass(frozen=True)
class Table:
    table: str
    rulebook: str
    players: tuple[tuple[str, str | None], ...] = tuple((s, None) for s in SEATS)
    phase: str = "idle"
    game: Game | None = None
    hand_no: int = 0
    dealer: str | None = None
    declaring: Declaring | None = None
    trump: str | None = None
    judge: HandJudge | None = None
    penalties: tuple[Penalty, ...] = ()
    clock: ShotClock | None = None
    record: ClockRecord = ClockRecord()
    round_start: float | None = None
    ready: frozenset[str] = frozenset()
    flags: tuple[Flag, ...] = ()
    last_hand: bool = False
    seq: int = 0
    at: float = 0.0
    flag_count: int = 0
    _events: tuple[Output, ...] = field(default=(), repr=False, compare=False)

    @staticmethod
    def new(table: str, rulebook: str) -> Table:
        load(rulebook)
        return Table(table, rulebook)

    # -- what it is --------------------------------------------------------------------------------
    @property
    def rules(self) -> Rulebook:
        return load(self.rulebook)

    @property
    def limits(self) -> ClockLimits:
        return _limits(self.rulebook)

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
        """Cards left in each seat's hand."""
        size = self.rules.deal.hand_size if self.game else 0
        shown = dict(self.judge.shown) if self.judge else {}
        return {s: max(size - shown.get(s, 0), 0) for s in SEATS}

    # -- inputs ----------------------------------------------------------------------------------------
    def apply(self, name: str, payload: dict, at: float, seq: int) -> tuple[Table, list[Output]]:
        """The table after one input (already validated by ``protocol.decode``), and what to publish."""
        t = replace(self, seq=seq, at=max(self.at, at), _events=())
        handler = {"commands": Table._command, "board/in": Table._button, "observed": Table._observed}[name]
        try:
            t = handler(t, payload)
        except ValueError as exc:  # _Reject, and any rule the engines refuse: nothing changes
            t = replace(self, seq=seq, at=max(self.at, at), _events=())
            t = t._event("rejected", {"topic": name, "id": payload.get("id"), "reason": str(exc)})
        return replace(t, _events=()), list(t._events)

    def _event(self, kind: str, data: dict) -> Table:
        out = Output("events", {"v": 1, "seq": max(self.seq, 1), "kind": kind, "at": self.at, "data": data})
        return replace(self, _events=self._events + (out,))

    def _violation(self, seat: str, kind: str, article: str, penalty: dict, evidence: dict, status: str, flag: str | None = None) -> tuple[Table, dict]:
        t = self
        if flag is None:
            t = replace(t, flag_count=t.flag_count + 1)
            flag = f"v{t.flag_count}"
        v = {
            "v": 1, "seq": max(t.seq, 1), "flag": flag, "at": t.at, "seat": seat, "kind": kind,
            "rule": {"book": t.rulebook, "article": article[:64]}, "penalty": penalty, "evidence": evidence, "status": status,
        }  # fmt: skip
        return replace(t, _events=t._events + (Output("violations", v),)), v

    # -- commands --------------------------------------------------------------------------------------
    def _command(self, p: dict) -> Table:
        command = p["command"]
        if command == "assign":
            if self.phase not in ("idle", "round_over"):
                raise _Reject("players and rulebook are assigned between rounds")
            if not isinstance(load(p["rulebook"]), Rulebook):
                raise _Reject(f"{p['rulebook']}: the table service runs Tractor rulebooks so far")
            t = replace(self, rulebook=p["rulebook"], players=tuple((s, p["players"][s]) for s in SEATS))
            return t._event("assigned", {"players": p["players"], "rulebook": p["rulebook"]})
        if command == "start_round":
            if self.phase not in ("idle", "round_over"):
                raise _Reject(f"a round is already running (phase {self.phase})")
            t = replace(self, phase="arriving", round_start=self.at, ready=frozenset(), game=Game.start(self.rules), hand_no=0, record=ClockRecord(), last_hand=False)
            return t._event("round_started", {"rulebook": self.rulebook})
        if command == "stop_round":
            return replace(self, phase="round_over", clock=None)._event("round_stopped", {})
        if command == "last_hand":
            return replace(self, last_hand=True)._event("last_hand", {"hand": self.hand_no})
        flag = self._find_flag(p["flag"])
        return self._resolve(flag, command, p.get("cards"))

    def _find_flag(self, flag_id: str) -> Flag:
        for f in self.flags:
            if f.flag == flag_id:
                return f
        raise _Reject(f"no open flag {flag_id}")

    def _resolve(self, flag: Flag, how: str, cards: list[str] | None = None) -> Table:
        t = replace(self, flags=tuple(f for f in self.flags if f.flag != flag.flag))
        t = t._event("flag_resolved", {"flag": flag.flag, "how": how})
        if flag.violation is not None:
            status = "confirmed" if how == "confirm" else "dismissed"
            t, _ = t._violation(flag.seat, flag.violation["kind"], flag.violation["rule"]["article"],
                                flag.violation["penalty"], flag.violation["evidence"], status, flag.flag)
            if status == "confirmed" and flag.kind in self.rules.penalties:
                t = replace(t, penalties=t.penalties + (Penalty(flag.kind, flag.seat, max(1, len(flag.cards))),))
        pending = dict(flag.pending) if flag.pending else None
        if how == "correct" and pending is not None:
            pending["cards"] = cards
        if pending is not None and (how == "correct" or (how == "confirm" and flag.kind == "unsure")):
            pending["confidence"] = 1.0
            t = t._observed(pending)
        return t._resume_clock()

    # -- buttons ---------------------------------------------------------------------------------------
    def _button(self, p: dict) -> Table:
        seat, button = p["seat"], p["button"]
        if button == "confirm":
            mine = [f for f in self.flags if f.seat == seat]
            if not mine:
                raise _Reject(f"{seat}: no flag waits for {seat}'s confirmation")
            return self._resolve(mine[0], "confirm")
        if self.phase == "arriving" and button == "ready":
            return self._arrive(seat)
        if self.phase == "dealing" and button == "declare":
            return replace(self, declaring=self.declaring.draw_done(self.at))._event("draw_done", {"seat": seat})
        if self.phase == "dealing" and button == "ready" and seat == (self._dealer_to_be() or seat):
            if self.declaring.draw_done_at is None:
                raise _Reject(f"{seat}: end the draw (the declare button) before taking the kitty")
            return self._take_kitty(seat)
        if button == "referee":
            return self._event("referee_called", {"seat": seat})
        raise _Reject(f"{seat}: button {button} means nothing in phase {self.phase}")

    def _arrive(self, seat: str) -> Table:
        if seat in self.ready:
            raise _Reject(f"{seat} is already at the table")
        minutes = minutes_late(self.round_start, self.at)
        late = late_penalty(self.rules, minutes if minutes > GRACE_MIN else 0.0)
        t = replace(self, ready=self.ready | {seat})._event("ready", {"seat": seat, "minutes_late": round(late.minutes, 2)})
        if late.kind != "none":
            penalty = {"warning": late.kind == "warning", "points": late.points, "text": late.kind}
            if late.kind == "forfeit_hand":
                penalty["forfeit"] = "hand"
            if late.kind == "forfeit_round":
                penalty["forfeit"] = "round"
            article = late.rule.article if late.rule else "late"
            t, _ = t._violation(seat, "late_arrival", article, penalty, {"seconds": max(late.minutes * 60, 0)}, "confirmed")
            lp = late.penalty(seat)
            if lp is not None:
                t = replace(t, penalties=t.penalties + (lp,))
        if len(t.ready) == 4:
            t = t._deal()
        return t

    def _dealer_to_be(self) -> str | None:
        if self.game and self.game.dealer:
            return self.game.dealer
        s = self.declaring.standing if self.declaring else None
        return s.seat if s else None

    def _deal(self) -> Table:
        game = self.game
        t = replace(self, phase="dealing", hand_no=self.hand_no + 1, declaring=Declaring(self.rules, game.hand_level(), first_hand=self.hand_no == 0),
                    trump=None, dealer=game.dealer, judge=None, clock=None)  # fmt: skip
        return t._event("hand_started", {"hand": t.hand_no, "level": game.hand_level(), "dealer": game.dealer})

    def _take_kitty(self, seat: str) -> Table:
        declaring, warning = self.declaring.kitty_taken(self.at)
        dealer = self._dealer_to_be() or seat
        trump = declaring.standing.suit if declaring.standing else None
        t = replace(self, declaring=declaring, dealer=dealer, trump=trump, phase="kitty")
        t = replace(t, clock=t.record.start(t.limits, dealer, "kitty_and_first_lead", t.at))
        t = t._event("kitty_taken", {"dealer": dealer, "trump": trump})
        if warning:
            seconds = round(self.at - self.declaring.draw_done_at, 3)
            evidence = {"seconds": seconds, "limit": self.rules.declare.window_s}
            t, _ = t._violation(dealer, "kitty_window", "declare window", {"warning": True, "text": warning[:200]}, evidence, "confirmed")
        return t

    # -- what the camera saw ---------------------------------------------------------------------------
    def _observed(self, p: dict) -> Table:
        seat = p["seat"]
        try:
            cards = Cards.parse(p["cards"])
        except CardError as exc:
            raise _Reject(str(exc)) from None
        if self.flags:
            raise _Reject(f"the table waits for flag {self.flags[0].flag}")
        if p.get("confidence", 1.0) < CONFIDENT:
            return self._flag(seat, "unsure", cards, f"unsure read ({p['confidence']:.2f}): please confirm", p)
        if self.phase == "dealing":
            try:
                declaring = self.declaring.declare(seat, cards, self.at)
            except DeclareError as exc:
                raise _Reject(str(exc)) from None
            return replace(self, declaring=declaring)._event("declared", {"seat": seat, "cards": cards.names()})
        if self.phase == "kitty" and seat == self.dealer and self.trump is None:
            if len(cards) != 1 or cards.distinct()[0].is_joker:
                raise _Reject(f"{seat}: name the trump suit by showing one card of it")
            return replace(self, trump=cards.distinct()[0].suit)._event("trump_named", {"seat": seat, "suit": cards.distinct()[0].suit})
        if self.phase == "kitty" and self.trump is not None:
            if seat != self.dealer:
                return self._out_of_turn(seat, cards, self.dealer)
            t = replace(self, phase="playing", judge=HandJudge.start(self.trumps, self.dealer))
            return t._play(seat, cards, p)
        if self.phase == "playing":
            return self._play(seat, cards, p)
        if self.phase == "hand_over" and seat == self.dealer:
            return self._score(cards)
        raise _Reject(f"{seat}: cards shown in phase {self.phase}")

    def _flag(self, seat: str, kind: str, cards: Cards, text: str, pending: dict | None, article: str = "", penalty: dict | None = None) -> Table:
        t = replace(self, flag_count=self.flag_count + 1)
        flag_id = f"f{t.flag_count}"
        violation = None
        if article:
            evidence = {"cards": cards.names(), "hand": t.hand_no, "trick": t._trick_no()}
            t, violation = t._violation(seat, kind, article, penalty or {}, evidence, "flagged", flag_id)
        flag = Flag(flag_id, seat, kind, t.at, tuple(cards.names()), text, pending, violation)
        clock = t.clock.paused(t.at) if t.clock and t.clock.running else t.clock
        t = replace(t, flags=t.flags + (flag,), clock=clock)
        return t._event("flag_raised", {"flag": flag_id, "seat": seat, "kind": kind, "text": text})

    def _resume_clock(self) -> Table:
        if self.flags or self.clock is None or self.clock.running:
            return self
        return replace(self, clock=self.clock.resumed(self.at))

    def _trick_no(self) -> int:
        if not self.judge:
            return 0
        tricks = self.judge.tricks
        return len(tricks) + (1 if not tricks or len(tricks[-1].plays) == 4 else 0)

    def _play(self, seat: str, cards: Cards, p: dict) -> Table:
        judge = self.judge
        expected = judge.expected_seat()
        if seat != expected:
            return self._out_of_turn(seat, cards, expected)
        try:
            judge = judge.play(seat, cards)
        except HandError as exc:
            return self._flag(seat, "impossible", cards, str(exc), p)
        t = replace(self, judge=judge)
        trick = judge.tricks[-1]
        t = t._event("play_accepted", {"hand": t.hand_no, "trick": trick.number, "seat": seat, "cards": cards.names()})
        t = t._clock_after(seat)
        for r in judge.rulings[len(self.judge.rulings):]:
            t, _ = t._violation(r.seat, r.kind, _ARTICLES.get(r.kind, r.kind), {"text": r.detail[:200]},
                                {"cards": list(r.cards), "hand": t.hand_no, "trick": r.trick}, "confirmed")  # fmt: skip
        if len(trick.plays) == 4:
            t = t._event("trick_won", {"hand": t.hand_no, "trick": trick.number, "seat": trick.winner, "points": trick.points})
        if sum(t.cards_left().values()) == 0:
            t = replace(t, phase="hand_over", clock=None)._event("hand_played", {"hand": t.hand_no})
        elif t.phase == "playing":
            action = "lead" if len(judge.tricks[-1].plays) == 4 else "follow"
            t = replace(t, clock=t.record.start(t.limits, judge.expected_seat(), action, t.at))
        return t

    def _out_of_turn(self, seat: str, cards: Cards, expected: str) -> Table:
        """越序出牌: flagged for the referee; the cards are not played."""
        penalty = {"points": self.rules.penalties.get("out_of_turn", {}).get("points", 0)}
        return self._flag(seat, "out_of_turn", cards, f"{seat} played before {expected}", None, "越序出牌", penalty)

    def _clock_after(self, seat: str) -> Table:
        if self.clock is None:
            return self
        record, verdict = self.record.stop(self.limits, self.clock, self.at)
        t = replace(self, record=record, clock=None)
        if verdict is None or verdict.outcome == "none":
            return t
        o = verdict.overrun
        penalty = {"warning": verdict.outcome == "warning", "points": verdict.points, "text": str(verdict)[:200]}
        t, _ = t._violation(seat, "overtime", verdict.rule.article, penalty, {"seconds": round(o.used, 3), "limit": o.limit}, "confirmed")
        if verdict.penalty is not None:
            t = replace(t, penalties=t.penalties + (verdict.penalty,))
        return t

    def _score(self, kitty: Cards) -> Table:
        try:
            judge = self.judge.show_kitty(kitty).finish()
        except HandError as exc:
            raise _Reject(str(exc)) from None
        penalties = list(self.penalties) + penalties_of(self.rules, list(judge.rulings))
        s = settle(self.rules, self.dealer, judge.defender_points(), penalties)
        t = replace(self, judge=judge)
        data = {"hand": t.hand_no, "defender_points": judge.defender_points(), "settled_points": s.defender_points, "notes": list(s.notes)}
        if s.outcome is None:
            t = t._event("hand_scored", data | {"replay": True})
            return replace(t, penalties=())._deal()
        t = t._event("hand_scored", data | {"side": s.outcome.side, "levels": s.outcome.levels})
        game = t.game.after(self.dealer, s.outcome)
        t = replace(t, game=game, penalties=(), record=t.record.next_hand(t.limits))
        t = t._event("levels_changed", {"levels": {team: game.level_of(team) for team, _ in game.levels}, "dealer": game.dealer})
        if game.winner:
            return replace(t, phase="round_over")._event("game_won", {"team": game.winner})
        round_clock = RoundClock.of(self.rules, self.round_start) if self.round_start is not None else None
        if self.last_hand or (round_clock and round_clock.timed and round_clock.last_hand(self.at)):
            return replace(t, phase="round_over")._event("round_over", {"hands": t.hand_no})
        return t._deal()

    # -- outputs ---------------------------------------------------------------------------------------
    def state(self, at: float) -> dict:
        game = self.game
        teams = []
        for name, seats in (("SN", ["S", "N"]), ("EW", ["E", "W"])):
            level = game.level_of(name) if game else None
            defending = self.judge is not None and side_of(seats[0], self.dealer) == "defenders"
            teams.append({"name": name, "seats": seats, "level": level, "points": self.judge.defender_points() if defending else 0})
        trick = None
        if self.judge and self.judge.tricks:
            last = self.judge.tricks[-1]
            trick = {"leader": last.leader, "plays": [{"seat": s, "cards": c.names()} for s, c in last.plays]}
        turn = self.turn()
        clocks = {s: {"left": None, "running": False} for s in SEATS}
        if self.clock is not None and self.clock.limit != float("inf"):
            clocks[self.clock.seat] = {"left": round(self.clock.left(max(at, self.clock.last)), 3), "running": self.clock.running}
        rc = RoundClock.of(self.rules, self.round_start) if self.round_start is not None else None
        timed = rc is not None and rc.timed
        return {
            "v": 1, "seq": self.seq, "at": at, "rulebook": self.rulebook, "phase": self.phase,
            "paused": bool(self.flags), "players": dict(self.players), "teams": teams,
            "dealer": self.dealer, "trump": {"suit": self.trump, "rank": game.hand_level()} if self.trump and game else None,
            "hand": self.hand_no, "trick": self._trick_no(), "turn": turn, "current_trick": trick,
            "cards": self.cards_left(), "clocks": clocks,
            "round": {"started_at": self.round_start, "left": round(rc.left(at), 3) if timed else None,
                      "notice": bool(timed and rc.notice_due(at)), "last_hand": self.last_hand or bool(timed and rc.last_hand(at))},
            "flags": [{"flag": f.flag, "seat": f.seat, "kind": f.kind, "at": f.at, "cards": list(f.cards), "text": f.text[:200]} for f in self.flags],
        }  # fmt: skip

    def board(self, at: float, state: dict | None = None) -> dict:
        """The ``board/out`` payload (from ``state`` when the caller has it already)."""
        state = state or self.state(at)
        flagged = {f.seat for f in self.flags}
        seats = {}
        for s in SEATS:
            on_turn = state["turn"] == s
            light = "amber" if s in flagged else "green" if on_turn else "off"
            seats[s] = {"clock": state["clocks"][s]["left"], "on_turn": on_turn, "cards": state["cards"][s], "light": light}
        return {"v": 1, "at": at, "paused": bool(self.flags), "seats": seats}

    def next_deadline(self) -> float | None:
        return self.clock.deadline() if self.clock is not None else None


@cache
def _limits(rulebook: str) -> ClockLimits:
    return limits(load(rulebook))


class _Reject(ValueError):
    """An input that changes nothing; answered with a ``rejected`` event."""


_ARTICLES = {"revoke": "藏张", "failed_throw": "甩错牌", "illegal_lead": "出错牌", "wrong_card_count": "牌张数目不符"}

__all__ = ["Table", "Output", "Flag", "CONFIDENT", "GRACE_MIN"]
