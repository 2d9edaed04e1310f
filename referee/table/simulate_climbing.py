"""Guandan and San Da Yi bots at a table, through the broker (``cardtable table simulate``).

The same simulator as Tractor's (:class:`referee.table.simulate.Simulator`: the connections, one
input at a time, the simulated clock, unsure reads confirmed), with the climbing games' hands. The
simulator deals and keeps every hand; a mirror of the game's engine with the hands known
(``guandan.hand.Hand``, ``sandayi.game.Game``) chooses the bots' plays (``guandan.bots``,
``sandayi.bots``) and says whose turn it is, and the table's ``state`` must agree at every turn.

What the camera and board publish: Guandan: the draw ended by a ``ready`` (in a game's first hand
from the seat that drew the turned-up card, which leads), each tribute and return card
``observed`` from its seat (big jokers shown refuse the tribute), plays ``observed``, passes by the
``pass`` button. San Da Yi: bids by the ``bid1``-``bid3``/``pass`` buttons, the dealer's ``ready``
for the kitty, plays and passes as in Guandan.

Slow bots (``slow_chance``): a Guandan seat with its long think left takes 12 s (in time: the long
think); one without it, or one timed out on purpose, says nothing until its clock is out: it gives
up its turn, a follower's as a pass, a leader's to the next seat, which leads (the mirror does the
same); a receiver late with the return card (past 20 s) is ruled a foul. San Da Yi has no clock.

On virtual time the table rules a silent seat only at the next input, so the simulator moves its
mirror by what the bots do. Players on the wall clock (the hall's, ``follows_table``) follow the
table as people do: the mirror moves only by the table's word on each turn (its events: a play
accepted, a pass, a turn given up by the clock or sat out), a seat acts when the table says it is on
turn and has answered the seat's last input, and a Guandan hand is led by the seat the table says.
A play the table did not take (its turn given up first) stays in the seat's hand; an input of no
player (a flooding board, a pickup) moves nothing.
"""

from __future__ import annotations

from referee.cards import Cards
from referee.catalogue.sentences import Sentences
from referee.guandan import bots as gd_bots
from referee.guandan.hand import Hand
from referee.guandan.tribute import TributePhase, is_legal_return, legal_tributes
from referee.sandayi import bots as sdy_bots
from referee.sandayi.game import Game
from referee.seats import SEATS, team_of
from referee.table.simulate import SECONDS_PER_CARD, SLOW_BY_S, UNSURE_CONFIDENCE, SimulationError, Simulator

LONG_THINK_PLAY_S = 12.0  # a slow play that a seat's long think covers


class ClimbingSimulator(Simulator):
    """Plays, passes and the hand's end, shared by the two climbing games."""

    def _foreign(self, state: dict) -> bool:
        return state["phase"] not in ("idle", "round_over", "arriving") and not self._mine

    _mine = False  # the table is at a hand this simulator dealt or is about to deal
    _silent = False  # the last seat let its clock run out: the table has not ruled on it yet
    _clock_from = 0.0  # when the clock of the seat on turn started (simulated time)
    _fouls: dict[str, int] = {}  # fouls each side took this round on purpose
    follows_table = False  # the mirror moves by the table's events, not by the bots' inputs (see the module)

    def _play_out(self, mirror, hands: dict[str, Cards], timed: bool, cursor: int = 0):
        """Play the hand to its end; the mirror after it, or None when the round ended first (fouls).
        ``cursor``: following the table, the count of events received when the hand's play started."""
        self._clock_from = self._at
        if self.follows_table:
            return self._follow(mirror, hands, timed, cursor)
        while not mirror.over:
            mirror = self._turn(mirror.turn, mirror, hands, timed)
            if self.watch.state["phase"] == "round_over" and not mirror.over:
                return None
        return mirror

    def _turn(self, seat: str, mirror, hands: dict[str, Cards], timed: bool):
        """One turn of ``seat`` (a play, a pass, or a silent overrun); the mirror after it."""
        state = self._resolve_flags(self.watch.state)
        if state["turn"] != seat and not self._silent:  # after a silent seat the table rules at the next input
            raise SimulationError(f"the simulator's game says {seat} is to play, the table says {state['turn']}: {state}")
        done = self._act(seat, mirror, hands, timed)
        self._silent = done is False
        if done is False:
            return mirror.sit_out(seat) if self._leading(mirror) else mirror.pass_(seat)
        if done is None:
            return mirror.pass_(seat)
        hands[seat] = hands[seat] - done
        return mirror.play(seat, done)

    def _act(self, seat: str, mirror, hands: dict[str, Cards], timed: bool) -> Cards | None | bool:
        """What ``seat`` does on its turn, at the table: the cards it put down, None for its ``pass``
        button, False for nothing at all until its clock ran out."""
        long_think = self.watch.state["clocks"][seat].get("long_think", False)
        slow = timed and self.rng.random() < self.slow_chance
        if slow and long_think and self.rng.random() < 0.5:
            think = LONG_THINK_PLAY_S
        elif slow:  # silent until the clock is out
            self._advance(self._clock_from + (30.0 if long_think else 10.0) + SLOW_BY_S - self._at)
            self._clock_from = self._at - SLOW_BY_S
            self.summary.slow += 1
            return False
        else:
            think = round(self.rng.uniform(0.8, 4.0), 2)
        self._advance(think)
        cards = self._choose(seat, mirror, hands)
        if cards is None:
            self.press(seat, "pass")
        else:
            unsure = self.rng.random() < self.unsure_chance
            confidence = UNSURE_CONFIDENCE if unsure else round(self.rng.uniform(0.93, 0.995), 3)
            self.summary.unsure += unsure
            self.observed(seat, cards, confidence)
            self.summary.plays += 1
        self._resolve_flags(self.watch.state)
        self._clock_from = self._at
        return cards

    def _follow(self, mirror, hands: dict[str, Cards], timed: bool, cursor: int):
        """The hand played following the table (see the module's docstring), from the ``cursor``-th event.
        A ``pass`` the table does not answer is pressed again; nothing at all from the table for
        ``wait_s`` is an error."""
        hand_no, answered, last, done, quiet = self.watch.state["hand"], True, 0, False, 0
        while True:
            events, cursor = self.watch.since(cursor)
            for event in events:
                last = max(last, event["seq"])
                mirror, turned = self._taken(mirror, hands, event, hand_no)
                answered = answered or turned
            state = self.watch.state
            if mirror.over:
                return mirror
            if state["phase"] == "round_over":
                return None
            if state["flags"]:
                self._resolve_flags(state)
                continue
            if answered and state["seq"] >= last and state["hand"] == hand_no and state["phase"] == "playing":
                if state["turn"] != mirror.turn:  # every turn of the table is in the mirror: the engines disagree
                    raise SimulationError(f"after the same turns the simulator's game says {mirror.turn} is to play, "
                                          f"the table says {state['turn']}: {state}")
                answered = False  # until the table's word on this turn
                done = self._act(mirror.turn, mirror, hands, timed)
                continue
            seq = state["seq"]
            with self.watch._cond:
                if self.watch._cond.wait_for(lambda: self.watch.received > cursor or self.watch.state["seq"] != seq,
                                             self.wait_s / 4):
                    quiet = 0
                    continue
            quiet += 1
            if quiet == 4:
                raise SimulationError(f"waited {self.wait_s:g} s for the table's word on {mirror.turn}'s turn: {state}")
            if done is None and not answered:  # a press the table did not take (a board dropped it): again
                self.press(mirror.turn, "pass")

    def _taken(self, mirror, hands: dict[str, Cards], event: dict, hand_no: int):
        """The mirror after one of the table's events of hand ``hand_no``, and whether it was its word
        on a turn: a play it accepted (the cards leave the seat's hand), a pass, a turn given up by the
        clock (a leader's lead goes to the next seat)."""
        data = event["data"]
        if data.get("hand") != hand_no or event["kind"] not in ("play_accepted", "passed"):
            return mirror, False
        seat = data["seat"]
        if event["kind"] == "play_accepted":
            cards = Cards.parse(data["cards"])
            hands[seat] = hands[seat] - cards
            return mirror.play(seat, cards), True
        return (mirror.sit_out(seat) if data.get("forfeit") and self._leading(mirror) else mirror.pass_(seat)), True

    def _may_foul(self, seat: str) -> bool:
        """Whether ``seat``'s side may take one more foul and keep the round (bots do not lose it so);
        counted as taken."""
        team = team_of(seat)
        limit = self.limits.fouls_lose_round
        if limit and self._fouls.get(team, 0) + 1 >= limit:
            return False
        self._fouls[team] = self._fouls.get(team, 0) + 1
        return True

    def _hand_result(self, kind: str, hand_no: int, after: int) -> dict:
        def found() -> dict | None:
            return next((e for e in self.watch.events if e["seq"] > after and e["kind"] == kind
                         and e["data"].get("hand") == hand_no), None)  # fmt: skip

        self.watch.wait(lambda: found() is not None, self.wait_s, f"hand {hand_no} to be scored")
        self.summary.hands += 1
        return found()["data"]

    def _start_hand(self, state: dict) -> None:
        if state["hand"] == 1 or "_fouls" not in vars(self):
            self._fouls = {}
        self._mine, self._silent = True, False


class GuandanSimulator(ClimbingSimulator):
    DEALT = "dealing"
    _after: tuple[str, ...] = ()  # the finish of this game's last hand: the tribute's payers

    def _foreign(self, state: dict) -> bool:
        return super()._foreign(state) or (state["phase"] == "dealing" and state["hand"] > 1 and not self._after)

    def _leading(self, mirror: Hand) -> bool:
        return mirror.table is None

    def _choose(self, seat: str, mirror: Hand, hands: dict[str, Cards]) -> Cards | None:
        chosen = gd_bots.random_play(self.rules, mirror.level, hands[seat], mirror.table.reading if mirror.table else None, self.rng)
        if chosen is not None and "console" not in self._conns and mirror.depends(seat, chosen[0]):
            return None  # a wildcard play's reading would be asked (002 二), which only the console answers: the bot passes
        return None if chosen is None else chosen[0]

    def _play_hand(self, state: dict) -> None:
        self._start_hand(state)
        hand_no, level = state["hand"], state["trump"]["rank"]
        hands = gd_bots.deal(self.rules, self.rng)
        self._advance(SECONDS_PER_CARD * sum(len(h) for h in hands.values()))
        if not self._after:
            leader = self.rng.choice(SEATS)  # who drew the turned-up card (七)
            self.press(leader, "ready")
            exchanges = ()
        else:
            self.press(self._after[0], "ready")
            leader, exchanges = self._tribute(level, hands)
        cursor = 0
        if self.follows_table:  # the table's word on who leads (another seat's press may have ended the draw)
            leader, cursor = self._play_started(hand_no)
        self._say("guandan_hand", hand=hand_no, level=level, leader=self._seat(leader))
        mirror = Hand.start(self.rules, level, leader, exchanges)
        after = self._expected
        mirror = self._play_out(mirror, hands, timed=True, cursor=cursor)
        if mirror is None:  # three fouls lost the round
            self._mine, self._after = False, ()
            return
        data = self._hand_result("hand_scored", hand_no, after)
        self._after = tuple(mirror.finish) if self.watch.state["phase"] == "dealing" and self.watch.state["hand"] == hand_no + 1 else ()
        self._mine = bool(self._after)
        said = Sentences(self.lang)
        self._say("guandan_scored", hand=hand_no, first=self._seat(data["first"]), team=said.team(data["team"]), levels=data["levels"])
        won = next((e["data"] for e in self.watch.events if e["seq"] > after and e["kind"] == "game_won"), None)
        if won is not None:
            self._say("guandan_won", team=said.team(won["team"]))

    def _taken(self, mirror: Hand, hands: dict[str, Cards], event: dict, hand_no: int) -> tuple[Hand, bool]:
        """Also 十一 2, 3 (越序出牌、暴露张：停止一轮出牌): a flag of the book's ``sit_out`` kinds that the referee
        confirms makes its seat sit out its next turn, as the table's engine does (whose passes of it,
        ``sat_out``, the mirror then makes itself)."""
        data = event["data"]
        raised = vars(self).setdefault("_raised", {})
        if event["kind"] == "flag_raised":
            raised[data["flag"]] = (data["seat"], data["kind"])
        elif event["kind"] == "flag_resolved" and data["how"] == "confirm" and data["flag"] in raised:
            seat, kind = raised.pop(data["flag"])
            return (mirror.sit_out(seat) if kind in self.rules.play.sit_out else mirror), False
        elif event["kind"] == "passed" and data.get("sat_out"):
            return mirror, False
        return super()._taken(mirror, hands, event, hand_no)

    def _play_started(self, hand_no: int) -> tuple[str, int]:
        """The leader of hand ``hand_no`` as the table started its play (after the hand's deal, not
        an earlier round's), and the count of events then."""
        def started() -> int | None:
            play, deal = (self.watch.latest(kind, hand=hand_no) for kind in ("play_started", "hand_started"))
            return play if play is not None and play > (deal or 0) else None

        self.watch.wait(lambda: started() is not None, self.wait_s, f"the play of hand {hand_no} to start")
        cursor = started()
        return self.watch.since(cursor - 1)[0][0]["data"]["leader"], cursor

    def _dealt(self, state: dict) -> bool:
        """Dealing, or (following the table) the first hand's draw already ended by another seat's ``ready``."""
        return super()._dealt(state) or (self.follows_table and state["phase"] == "playing" and state["trick"] == 0
                                         and not self._after)

    def _tribute(self, level: str, hands: dict[str, Cards]) -> tuple[str, tuple]:
        """The tribute as the payers and receivers do it, shown to the camera; (leader, exchanges)."""
        phase = TributePhase.start(self.rules, level, self._after)
        refuse = self.rules.tribute.refuse_with
        shown = {s: Cards([refuse] * hands[s].count(refuse)) for s in phase.payers}
        if sum(len(c) for c in shown.values()) >= self.rules.tribute.refuse_count:
            for seat, cards in shown.items():
                if len(cards):
                    self._advance(self.rng.uniform(1.0, 3.0))
                    self.observed(seat, cards)
                    phase = phase.refuse(seat, cards)
            return phase.leader, ()
        for seat in phase.payers:
            card = self.rng.choice(legal_tributes(self.rules, level, hands[seat]))
            self._advance(self.rng.uniform(1.0, 5.0))
            self.observed(seat, Cards([card]))
            phase = phase.pay(seat, card, hands[seat])
        for x in phase.exchanges:
            hands[x.giver] -= Cards([x.tribute])
            hands[x.receiver] += Cards([x.tribute])
        start = self._at
        for x in phase.exchanges:
            card = self.rng.choice([c for c in hands[x.receiver].distinct() if is_legal_return(self.rules, level, c)])
            late = self.rng.random() < self.slow_chance and self._may_foul(x.receiver)
            self._advance(max(start + 20.0 + SLOW_BY_S - self._at, 0.1) if late else self.rng.uniform(2.0, 8.0))
            self.summary.slow += late
            self.observed(x.receiver, Cards([card]))
            phase = phase.return_(x.receiver, card)
            hands[x.receiver] -= Cards([card])
            hands[x.giver] += Cards([card])
        state = self._resolve_flags(self.watch.state)
        if state["phase"] != "playing" or state["turn"] != phase.leader:
            raise SimulationError(f"after the tribute {phase.leader} leads; the table says {state}")
        return phase.leader, phase.exchanges


class SandayiSimulator(ClimbingSimulator):
    DEALT = "bidding"

    def _leading(self, mirror: Game) -> bool:
        return mirror.last is None

    def _choose(self, seat: str, mirror: Game, hands: dict[str, Cards]) -> Cards | None:
        prev = mirror.last.reading if mirror.last else None
        return sdy_bots.random_play(self.rules, hands[seat], prev, self.rng, bombs=mirror.bomb_allowed(seat))

    def _play_hand(self, state: dict) -> None:
        self._start_hand(state)
        hand_no, first = state["hand"], state["turn"]
        dealt, kitty = sdy_bots.deal(self.rules, self.rng, first)
        self._advance(SECONDS_PER_CARD * (sum(len(h) for h in dealt.values()) + len(kitty)))
        mirror = Game.start(self.rules, dealt, kitty, first)
        while mirror.phase == "bidding":
            seat, bid = mirror.turn, sdy_bots.random_bid(mirror, self.rng)
            self._advance(self.rng.uniform(1.0, 6.0))
            self.press(seat, "pass" if bid == "pass" else f"bid{bid}")
            mirror = mirror.bid(seat, bid)
        self._advance(self.rng.uniform(2.0, 5.0))
        self.press(mirror.dealer, "ready")
        mirror = mirror.take_kitty(mirror.dealer)
        hands = {s: mirror.hand(s) for s in SEATS}
        self._say("sandayi_game", hand=hand_no, dealer=self._seat(mirror.dealer), bid=mirror.bid_value)
        after = self._expected
        mirror = self._play_out(mirror, hands, timed=False, cursor=self.watch.received)
        data = self._hand_result("game_scored", hand_no, after)
        self._mine = self.watch.state["phase"] == "bidding"
        scores = " ".join(f"{self._seat(s)} {v:+g}" for s, v in data["scores"].items())
        self._say("sandayi_scored", hand=hand_no, scores=scores)


__all__ = ["GuandanSimulator", "SandayiSimulator"]
