"""What the climbing games' tables share (Guandan 掼蛋, San Da Yi 三打一): plays and passes in turn,
the trick on the table, the shot clock that lets time rule, fouls that lose a round.

A play is the ``observed`` of the seat on turn; the ``pass`` button is its pass. The game's engine
(``referee.guandan.hand.Hand``, ``referee.sandayi.game.Game``, both fed evidence only: counts and
the cards shown) judges each; a play it refuses is flagged for a person, a seat out of turn too.

Time rules by itself (``[clock]`` of the book, ``referee/table/clock.py``): before each input is
applied, and at the service's ``clock`` entries, every shot clock whose deadline passed is ruled on
(:meth:`ClimbingTable._tick`): with ``overrun = "pass"`` the turn is given up (seed 002 十二 第3条:
视作放弃本次出牌权), a follower's as a pass and a leader's by the lead going to the next seat, whose
clock starts at the deadline; any other outcome (a foul, a penalty) is ruled once per turn. When every
seat holding cards has given up its turn in a row with no play or pass, nobody is playing (the table
is left, or nothing reaches the referee): a ``no_play`` flag stops the clocks until a person resolves
it, rather than passing turns for ever. ``state`` shows the table as time has left it at its ``at``.
Fouls by one side reaching ``fouls_lose_round`` lose it the round.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import Cards
from referee.reasons import Reason, Refused
from referee.seats import SEATS
from referee.table.clock import ClockVerdict, Foul, FoulCount, ShotClock
from referee.table.reducer import UNTOLD, Reducer, Reject


@dataclass(frozen=True)
class ClimbingTable(Reducer):
    """A climbing game's table; the game's module adds its engine (the ``_engine_*`` hooks)."""

    leader: str | None = None  # who led the trick on the table
    plays: tuple[tuple[str, tuple[str, ...]], ...] = ()  # each seat's latest play since that lead
    trick_no: int = 0  # leads in this hand
    fouls: FoulCount = FoulCount()
    given_up: int = 0  # turns given up by the clock in a row, no play or pass between

    # -- the engine (the game's module) -----------------------------------------------------------
    def _engine(self):
        raise NotImplementedError

    def _engine_turn(self) -> str | None:
        return self._engine().turn

    def _engine_leading(self) -> bool:
        raise NotImplementedError

    def _engine_play(self, seat: str, cards: Cards):
        raise NotImplementedError

    def _engine_pass(self, seat: str):
        raise NotImplementedError

    def _engine_lead_passes(self, seat: str):
        """The engine with the lead given up by ``seat``: the next seat holding cards leads."""
        raise NotImplementedError

    def _with_engine(self, engine) -> ClimbingTable:
        raise NotImplementedError

    def _hand_over(self) -> ClimbingTable:
        raise NotImplementedError

    # -- what it is --------------------------------------------------------------------------------
    def turn(self) -> str | None:
        return self._engine_turn() if self.phase == "playing" else None

    def _trick_no(self) -> int:
        return self.trick_no

    def _current_trick(self) -> dict | None:
        if self.leader is None:
            return None
        return {"leader": self.leader, "plays": [{"seat": s, "cards": list(c)} for s, c in self.plays]}

    def _told(self, n: int) -> int:
        """Above the book's ``[deal] told_at`` a seat's count is the players' secret (报牌: seeds 002 九 3, 004 三（一）3):
        its display shows none."""
        return n if self.rules.deal.tells(n) else UNTOLD

    def _clocks(self, at: float) -> dict:
        clocks = super()._clocks(at)
        if self.limits.long_think_s > 0 and self.phase == "playing":
            for s in SEATS:
                clocks[s]["long_think"] = self.record.long_think_left(self.limits, s)
        return clocks

    def _round_started(self) -> ClimbingTable:
        return self._with(fouls=FoulCount.of(self.limits), clock=None, dealer=None, leader=None, plays=(), trick_no=0, given_up=0)

    # -- plays and passes --------------------------------------------------------------------------
    def _play(self, seat: str, cards: Cards, p: dict) -> ClimbingTable:
        expected = self._engine_turn()
        if seat != expected:
            return self._out_of_turn(seat, cards, expected)
        leading = self._engine_leading()
        try:
            engine = self._engine_play(seat, cards)
        except Refused as exc:  # HandError, GameError: not a combination, does not beat, too many cards
            return self._impossible(seat, cards, exc.reason, p)
        t = self._with_engine(engine)
        if leading:
            t = t._with(leader=seat, plays=(), trick_no=t.trick_no + 1)
        t = t._with(plays=tuple(x for x in t.plays if x[0] != seat) + ((seat, tuple(cards.names())),))
        t = t._event("play_accepted", {"hand": t.hand_no, "trick": t.trick_no, "seat": seat, "cards": cards.names()})
        return t._next_turn(seat)

    def _impossible(self, seat: str, cards: Cards, why, p: dict) -> ClimbingTable:
        """A play on turn the rules refuse: flagged for the referee (a misread, corrected, or a wrong play)."""
        return self._flag(seat, "impossible", cards, why, p)

    def _button(self, p: dict) -> ClimbingTable:
        """A ``pass`` pressed while a flag is open waits, in order, with the camera's reads that came meanwhile (the
        players play on while the referee walks over): refused then, the next seat's play behind it was judged out of
        turn once the flag was answered."""
        if p["button"] != "pass" or self.phase != "playing" or not (self.flags or self.waiting):
            return super()._button(p)
        t = self._with(waiting=self.waiting + (p,))
        return t._event("pass_waits", {"seat": p["seat"], "flag": t.flags[0].flag if t.flags else None})

    def _pass(self, seat: str) -> ClimbingTable:
        """The ``pass`` button of ``seat``."""
        if seat != self._engine_turn():
            raise Reject("table.pass_not_on_turn", seat=seat, turn=self._engine_turn())
        if self._engine_leading():
            raise Reject("table.leader_cannot_pass", seat=seat)
        return self._passed(seat)._next_turn(seat)

    def _passed(self, seat: str, forfeit: bool = False) -> ClimbingTable:
        """``seat`` passes; ``forfeit``: its turn is given up by the clock, as a lead too (the next seat leads)."""
        engine = self._engine_lead_passes(seat) if forfeit and self._engine_leading() else self._engine_pass(seat)
        t = self._with_engine(engine)
        return t._event("passed", {"hand": t.hand_no, "trick": t.trick_no, "seat": seat} | ({"forfeit": True} if forfeit else {}))

    def _next_turn(self, seat: str) -> ClimbingTable:
        """After ``seat``'s play or pass: its clock stops (a long think noted), the next one starts."""
        t = self._with(given_up=0)
        if t.clock is not None:
            record, _ = t.record.stop(t.limits, t.clock, t.at)  # an overrun was ruled by _tick already
            t = t._with(record=record, clock=None)
        if t._engine().over:
            return t._with(clock=None)._hand_over()
        return t._start_clock(t.at)

    def _start_clock(self, at: float) -> ClimbingTable:
        action = "lead" if self._engine_leading() else "follow"
        return self._with(clock=self.record.start(self.limits, self._engine_turn(), action, at))._lying_asked()

    def _could_be_play(self, seat: str, cards: Cards) -> bool:
        """Cards from a seat not on turn could be its play when it holds that many (else 暴露张)."""
        return len(cards) <= self.cards_left()[seat]

    def _lying_playable(self, seat: str, cards: Cards) -> bool:
        """Cards lying in front of the seat on turn that the rules refuse as its play now (they do not beat the play on
        the table: 002 七 ① 后一家打出的牌必须比前一家打出的牌大) are not asked about: the seat plays other cards or
        passes, which the camera and the board see."""
        try:
            self._engine_play(seat, cards)
        except Refused:
            return False
        return True

    # -- time --------------------------------------------------------------------------------------
    def _tick(self) -> ClimbingTable:
        t = super()._tick()
        while t.phase == "playing" and t.clock is not None and not t.flags:
            deadline = t.clock.deadline()
            if deadline is None or deadline >= t.at:
                break
            t = t._overrun(t.clock, deadline)
        return t

    def _overrun(self, clock: ShotClock, deadline: float) -> ClimbingTable:
        """``clock`` ran out at ``deadline``. ``pass``: the turn is given up, a follower's as a pass, a
        leader's by the lead going to the next seat holding cards, whose clock starts at the deadline
        (at this ruling when the service held it: nobody at the table could see the turn pass).
        Any other outcome is ruled once: the seat keeps its turn, its clock spent (no second ruling)."""
        record, verdict = self.record.stop(self.limits, clock, self.at)
        t = self._with(record=record, clock=None)
        if verdict.outcome == "pass":  # before the violation, which the seat's display then shows
            t = t._passed(clock.seat, forfeit=True)
        t = t._clock_violation(verdict)
        if t.phase != "playing":
            return t
        if verdict.outcome != "pass":
            return t._with(clock=clock.spent())
        t = t._with(given_up=t.given_up + 1)
        if t.given_up < sum(1 for n in t.cards_left().values() if n):
            return t._start_clock(t.at if t._held else deadline)  # a pass never ends a hand
        # every seat holding cards gave up its turn and nobody played: no one is at the table, or nothing reaches it
        seat = t._engine_turn()
        return t._with(given_up=0)._start_clock(t.at)._flag(seat, "no_play", Cards(), Reason("table.no_play", seat=seat), None)

    def _clock_violation(self, verdict: ClockVerdict) -> ClimbingTable:
        o = verdict.overrun
        penalty = {"pass": {"forfeit": "turn"}, "foul": {"foul": True}}.get(verdict.outcome, {})
        penalty = penalty | {"text": str(verdict)[:200]}
        evidence = {"seconds": round(o.used, 3), "limit": o.limit, "hand": self.hand_no, "trick": self.trick_no, "action": o.action}
        t, _ = self._violation(o.seat, "overtime", verdict.rule.article, penalty, evidence, "confirmed")
        return t._foul(verdict.foul)

    def _foul(self, foul: Foul | None) -> ClimbingTable:
        """Count a foul to its side; the side that reaches the book's limit loses the round."""
        if foul is None:
            return self
        fouls = self.fouls.add(foul)
        t = self._with(fouls=fouls)._event("foul_counted", {"seat": foul.seat, "team": foul.team, "kind": foul.kind,
                                                               "fouls": fouls.count(foul.team), "limit": fouls.limit})
        if fouls.loser is not None and self.fouls.loser is None:
            return t._round_lost([fouls.loser], "fouls")
        return t


__all__ = ["ClimbingTable"]
