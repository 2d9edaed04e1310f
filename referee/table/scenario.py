"""The judge's ``clock`` op: a real table driven through timed inputs, and the rulings its clocks make.

A case names a rulebook and its ``inputs``, each ``[t, action, ...]`` with ``t`` the seconds from the
round's start (``start_round`` is at 0) and the times in order. The table is the service's own reducer
(``tables.new_table``); the cards are dealt by a seeded shuffle (``seed``, default 0) and played by
the op, so a case says *when* each seat acts, never which cards (the rulings of the clock do not
depend on them). Actions (``seat`` where it says so; where it may be left out, the seat on turn):

``ready SEAT``
    the seat's ``ready`` button: it is at the table.
``draw [SEAT]``
    the draw ends. Tractor: the seat (default: the first from the dealer, or from S in the first hand,
    that holds a level card) shows a level card and presses ``declare``. Guandan: the seat presses
    ``ready`` (in a game's first hand it drew the turned-up card and leads; later the tribute follows).
``kitty``
    the dealer takes the kitty (Tractor: and names the trump suit when nobody declared; San Da Yi:
    after the bidding). Refused, saying so, a second time in a hand and before the draw or the bidding ended.
``bid SEAT VALUE``
    San Da Yi: the seat bids 1, 2 or 3, or ``"pass"``.
``play [SEAT]``, ``unsure [SEAT]``
    the seat on turn plays one card (a lead: its lowest card, a side suit's where it has one;
    Tractor follows its lowest card of the led suit, else its lowest side card; Guandan and San Da Yi
    follow with the lowest single that beats the table). ``unsure``: the camera reads it below the
    confidence the table trusts: the table pauses until ``confirm``.
``out_of_turn SEAT``
    the seat, not on turn, shows its lowest card: a flag for the referee (越序出牌; in Guandan a foul
    once confirmed, 十一 3). Tractor: from the kitty on, so a card shown before the dealer's first lead too.
``confirm``, ``dismiss``
    the referee confirms the open flag (an unsure play counts) or dismisses it.
``call SEAT``
    the seat presses its ``referee`` button (where the book stops play for it: a flag, ``[clock] call_holds``).
``pass [SEAT]``
    the seat on turn passes (Guandan, San Da Yi).
``play_out``
    the hand in play is played to its end at ``t`` (every play then): Tractor plays as ``play`` and the
    dealer shows the kitty; Guandan and San Da Yi: the leader leads its lowest single and the others
    pass, so the leader goes out first and (Guandan, 接风) its partner second. Refused where no hand is in play.
``tribute``
    Guandan: every payer pays its largest card (or the payers show their big jokers and refuse).
``return [SEAT]``
    Guandan: the receiver returns a card below 10 (no seat: every receiver still to return).
``last_hand``
    the console announces the last hand. Refused once the round is over, and when it is announced already.
``wait``
    time passes to ``t`` with no input: the ``clock`` entry the service logs when a deadline passes.

The answer: ``rulings``, every violation and every ruling event in order, each with its ``t``
(``{"t", "seat", "violation", "penalty"}``, the penalty in words: ``warning``, ``N points``,
``turn given up``, ``foul``, ``first hand forfeited``, ``round forfeited``, and ``status`` when the
violation waits for the referee or was dismissed; or ``{"t", "event", ...}``
for ``foul_counted`` (``seat``, ``fouls``), ``game_won`` (``team``, ``by``), ``round_forfeited``
(``teams``), ``hand_forfeited`` (``team``), ``round_over`` (``hands``) and ``flag_raised`` (``seat``,
``kind``: the table waits for a person)), and the table as it stands
after the last input: ``phase``, ``hand``, ``turn``, ``left`` (the seconds on the turn's clock, null
when none runs), ``notice`` (the round's closing notice is due) and ``levels`` (null in San Da Yi).

>>> case = {"game": "guandan", "rulebook": "sanjiang-2012", "inputs": [
...     [0, "ready", "S"], [0, "ready", "E"], [0, "ready", "N"], [0, "ready", "W"], [2, "draw", "N"], [45, "wait"]]}
>>> answer = clock_case(case)
>>> answer["rulings"]
[{'t': 45.0, 'seat': 'N', 'violation': 'overtime', 'penalty': 'turn given up'}]
>>> answer["turn"], answer["left"]
('W', 17.0)
"""

from __future__ import annotations

import inspect
import math
import random
from typing import Any

from referee.cards import Cards
from referee.climbing.combos import power_of
from referee.guandan.bots import deal as guandan_deal
from referee.guandan.tribute import is_legal_return, legal_tributes
from referee.reasons import Refused, cut
from referee.rulebooks import load, names
from referee.sandayi.bidding import check_bid
from referee.sandayi.bots import deal as sandayi_deal
from referee.seats import SEATS, seats_from
from referee.table.reducer import CLOCK, Output, Reducer
from referee.table.tables import new_table
from referee.tractor.bots import deal as tractor_deal

ACTIONS = ("ready", "draw", "kitty", "bid", "play", "unsure", "out_of_turn", "confirm", "dismiss", "call", "pass",
           "play_out", "tribute", "return", "last_hand", "wait")
UNSURE = 0.5  # the confidence of an ``unsure`` read (below ``reducer.CONFIDENT``)
IN_HAND = ("kitty", "playing", "hand_over")  # phases of a hand in play: play_out plays it to its end
EVENTS = {"foul_counted": ("seat", "fouls"), "game_won": ("team", "by"), "round_forfeited": ("teams",),
          "hand_forfeited": ("team",), "round_over": ("hands",), "flag_raised": ("seat", "kind")}


class ScenarioError(Refused):
    """A case that cannot be driven: a malformed input, or an action the table is not ready for (a reason, the
    catalogue's ``reason.clock.*``)."""


def check_seat(seat: object) -> str:
    """``seat`` when it is one of S E N W, else :class:`ScenarioError` in words."""
    if seat not in SEATS:
        raise ScenarioError("seats.unknown", text=cut(str(seat)))
    return str(seat)


def clock_case(case: dict[str, Any]) -> dict[str, Any]:
    """The answer to one ``clock`` case (see the module's docstring)."""
    rulebook, game = case.get("rulebook"), case.get("game")
    if not isinstance(rulebook, str):
        raise ScenarioError("clock.no_rulebook")
    if rulebook not in names():
        raise ScenarioError("clock.unknown_rulebook", rulebook=cut(rulebook), known=", ".join(sorted(names())))
    if load(rulebook).game != game:
        raise ScenarioError("clock.other_game", rulebook=rulebook, table_game=load(rulebook).game, game=game)
    inputs = case.get("inputs")
    if not isinstance(inputs, list) or not inputs:
        raise ScenarioError("clock.no_inputs")
    seed = case.get("seed", 0)
    if type(seed) is not int:
        raise ScenarioError("clock.seed", value=cut(repr(seed)))
    drive = _Drive(new_table("judge", rulebook), game, seed)
    drive.send("commands", {"command": "start_round"}, 0.0)
    last = 0.0
    for n, item in enumerate(inputs, 1):
        if not (isinstance(item, list) and len(item) >= 2 and type(item[0]) in (int, float) and isinstance(item[1], str)):
            raise ScenarioError("clock.not_input", n=n, value=cut(repr(item)))
        try:
            t = float(item[0])
        except OverflowError:  # a whole number beyond any float is no time either
            t = math.inf
        action, args = item[1], item[2:]
        if not math.isfinite(t):
            raise ScenarioError("clock.not_time", n=n, value=cut(repr(item[0])))
        if t < 0:  # the first input has no input before it to be before
            raise ScenarioError("clock.before_start", n=n, value=cut(repr(item[0])))
        if t < last:
            raise ScenarioError("clock.backwards", n=n, value=cut(repr(item[0])), last=last)
        if action not in ACTIONS:
            raise ScenarioError("clock.unknown_action", n=n, value=cut(repr(action)), known=" ".join(ACTIONS))
        last = t
        do = getattr(drive, "do_" + action)
        try:
            inspect.signature(do).bind(t, *args)
        except TypeError:
            raise ScenarioError("clock.arguments", n=n, action=action, value=cut(repr(args))) from None
        try:
            do(t, *args)
        except ValueError as exc:  # a seat that is none, a card the table refused: in the case's words
            raise ScenarioError("clock.input", n=n, action=action, t=t, why=exc) from None
    return drive.answer()


class _Drive:
    """The table, the cards the op dealt and keeps, and everything the table said."""

    def __init__(self, table: Reducer, game: str, seed: int):
        self.table, self.game, self.seed = table, game, seed
        self.rules = load(table.rulebook)
        self.at, self.seq = 0.0, 0
        self.outputs: list[Output] = []
        self.dealt = 0  # the hand whose cards are dealt
        self.hands: dict[str, Cards] = {}
        self.kitty = Cards()
        self.pending: tuple[str, Cards] | None = None  # an unsure play waiting for the referee
        self.kitty_hand: int | None = None  # the hand whose kitty the dealer took

    # -- sending ---------------------------------------------------------------------------------------
    def send(self, name: str, payload: dict, t: float) -> list[Output]:
        self.at, self.seq = t, self.seq + 1
        payload = {"v": 1, "id": f"j{self.seq}", **payload} | ({"at": t} if name not in ("commands", CLOCK) else {})
        self.table, out = self.table.apply(name, payload, t, self.seq)
        self.outputs += out
        return out

    def accepted(self, name: str, payload: dict, t: float) -> None:
        """Send an input of the op's own making: the table must take it. A flag left open refuses it; one that time
        raised on the way to ``t`` and the input answered (an ``idle`` wait: the bid, the kitty it waited for) does not."""
        out = self.send(name, payload, t)
        answered = {o.payload["data"].get("flag") for o in out if o.name == "events" and o.payload["kind"] == "flag_resolved"}
        for o in out:
            if o.name == "events" and o.payload["kind"] in ("rejected", "flag_raised"):
                data = o.payload["data"]
                if o.payload["kind"] == "flag_raised" and data.get("flag") in answered:
                    continue
                if o.payload["kind"] == "flag_raised":
                    raise ScenarioError("clock.flagged", kind=data.get("kind"))
                raise ScenarioError("clock.not_taken", why=data.get("why") or data.get("reason"))

    def press(self, seat: str, button: str, t: float) -> None:
        self.accepted("board/in", {"seat": seat, "button": button}, t)

    def show(self, seat: str, cards: Cards, t: float, confidence: float = 0.99) -> None:
        payload = {"seat": seat, "cards": cards.names(), "confidence": confidence}
        if confidence < 0.9:
            self.send("observed", payload, t)
        else:
            self.accepted("observed", payload, t)

    # -- what the table is at ------------------------------------------------------------------------------
    def now(self, t: float) -> Reducer:
        """The table as time leaves it at ``t``: what the next input meets (a turn given up, a round over)."""
        return self.table._view(t)

    def turn(self, t: float, seat: str | None = None) -> str:
        turn = self.now(t).turn()
        if turn is None:
            raise ScenarioError("clock.no_turn", phase=self.now(t).phase)
        if seat is not None and check_seat(seat) != turn:
            raise ScenarioError("clock.not_to_act", seat=seat, turn=turn)
        return turn

    def level(self) -> str:
        return self.table.match.game.hand_level() if self.game == "guandan" else self.table.game.hand_level()

    def deal(self) -> None:
        """The cards of the hand being dealt, once per hand."""
        if self.dealt == self.table.hand_no:
            return
        rng = random.Random(f"{self.seed}:{self.table.hand_no}")
        if self.game == "tractor":
            self.hands, self.kitty = tractor_deal(self.rules.deal.decks, self.rules.deal.kitty, rng)
        elif self.game == "guandan":
            self.hands, self.kitty = guandan_deal(self.rules, rng), Cards()
        else:
            self.hands, self.kitty = sandayi_deal(self.rules, rng, self.table.game.turn)
        self.dealt, self.kitty_hand = self.table.hand_no, None

    # -- the actions -----------------------------------------------------------------------------------
    def do_ready(self, t: float, seat: str) -> None:
        self.send("board/in", {"seat": check_seat(seat), "button": "ready"}, t)  # too late, it may be refused

    def do_draw(self, t: float, seat: str | None = None) -> None:
        if self.table.phase != "dealing":
            raise ScenarioError("clock.no_draw", phase=self.table.phase)
        self.deal()
        if self.game == "guandan":
            self.press(check_seat(seat or "S"), "ready", t)
            return
        if self.game != "tractor":
            raise ScenarioError("clock.sandayi_draw")
        level = self.level()
        holders = [s for s in seats_from(check_seat(seat) if seat else self.table.game.dealer or "S")
                   if any(c.rank == level and not c.is_joker for c in self.hands[s])]
        if seat is not None and seat not in holders[:1]:
            raise ScenarioError("clock.no_level_card", seat=seat, level=level)
        if holders:
            card = min((c for c in self.hands[holders[0]].distinct() if c.rank == level and not c.is_joker), key=str)
            self.show(holders[0], Cards([card]), t)
        self.press(holders[0] if holders else "S", "declare", t)

    def do_kitty(self, t: float) -> None:
        phase = self.now(t).phase
        if self.game == "guandan":
            raise ScenarioError("clock.no_kitty")
        if phase != ("dealing" if self.game == "tractor" else "kitty"):  # the phase decides; the hand only the words
            if self.kitty_hand == self.table.hand_no:
                raise ScenarioError("clock.kitty_taken", hand=self.table.hand_no, phase=phase)
            raise ScenarioError("clock.no_kitty_now", phase=phase)
        if self.game == "tractor" and self.table.declaring.draw_done_at is None:
            raise ScenarioError("clock.kitty_before_draw")
        self.kitty_hand = self.table.hand_no
        if self.game == "tractor":
            dealer = self.table._dealer_to_be() or "S"
            self.press(dealer, "ready", t)
            if self.table.trump is None:  # nobody declared: the dealer names the suit with a card of it
                self.show(dealer, Cards([min((c for c in self.hands[dealer] if not c.is_joker), key=str)]), t)
            return
        dealer = self.table.dealer
        self.press(dealer, "ready", t)
        self.hands[dealer] = self.hands[dealer] + self.kitty

    def do_bid(self, t: float, seat: str, value: int | str) -> None:
        if self.game != "sandayi":
            raise ScenarioError("clock.no_bid")
        if self.table.phase != "bidding":
            raise ScenarioError("clock.bid_over", phase=self.table.phase)
        value = check_bid(self.rules, value)  # a bid the book has, in its words: never a button named after it
        self.deal()
        self.turn(t, seat)
        self.press(seat, "pass" if value == "pass" else f"bid{value}", t)

    def do_play(self, t: float, seat: str | None = None) -> None:
        self._play(t, seat, 0.99)

    def do_unsure(self, t: float, seat: str | None = None) -> None:
        self._play(t, seat, UNSURE)

    def _play(self, t: float, seat: str | None, confidence: float) -> None:
        table = self.now(t)
        if table.phase not in ("kitty", "playing") or (self.game == "sandayi" and table.phase != "playing"):
            raise ScenarioError("clock.no_play", phase=table.phase)
        if table.flags:
            raise ScenarioError("clock.waits", flag=table.flags[0].flag)
        seat = self.turn(t, seat)
        cards = self.tractor_play(table, seat) if self.game == "tractor" else self.climbing_play(table, seat)
        if confidence < 0.9:
            self.pending = (seat, cards)
        else:
            self.hands[seat] = self.hands[seat] - cards
        self.show(seat, cards, t, confidence)

    def do_out_of_turn(self, t: float, seat: str) -> None:
        table = self.now(t)  # the kitty phase too: a card shown before the dealer's first lead is 越序引牌
        if table.phase not in ("kitty", "playing") or table.turn() in (None, check_seat(seat)):
            raise ScenarioError("clock.on_turn", seat=seat, phase=table.phase)
        self.send("observed", {"seat": seat, "cards": [str(min(self.hands[seat], key=str))], "confidence": 0.99}, t)

    def do_confirm(self, t: float) -> None:
        self.resolve("confirm", t)
        if self.pending is not None:
            seat, cards = self.pending
            self.hands[seat] = self.hands[seat] - cards
        self.pending = None

    def do_dismiss(self, t: float) -> None:
        self.resolve("dismiss", t)
        self.pending = None

    def resolve(self, how: str, t: float) -> None:
        if not self.table.flags:
            raise ScenarioError("clock.no_flag")
        self.accepted("commands", {"command": how, "flag": self.table.flags[0].flag}, t)

    def do_call(self, t: float, seat: str) -> None:
        self.send("board/in", {"seat": check_seat(seat), "button": "referee"}, t)

    def do_pass(self, t: float, seat: str | None = None) -> None:
        if self.game == "tractor" or self.now(t).phase != "playing":
            raise ScenarioError("clock.no_pass")
        self.press(self.turn(t, seat), "pass", t)

    def do_play_out(self, t: float) -> None:
        if (phase := self.now(t).phase) not in IN_HAND:  # no hand in play: said, as play says it
            raise ScenarioError("clock.no_play", phase=phase)
        hand = self.table.hand_no
        while (table := self.now(t)).hand_no == hand and table.phase in IN_HAND:
            if table.flags:  # a pass would wait for the referee as a play does, and the hand go no further
                raise ScenarioError("clock.waits", flag=table.flags[0].flag)
            if table.phase == "hand_over":  # Tractor: the dealer turns up the kitty
                self.show(table.dealer, self.kitty, t)
            elif self.game != "tractor" and not table._engine_leading():
                self.do_pass(t)
            else:
                self.do_play(t)

    def do_tribute(self, t: float) -> None:
        p = self.table.tribute if self.game == "guandan" else None
        if p is None or p.paid or p.shown:
            raise ScenarioError("clock.no_tribute")
        refuse = self.rules.tribute.refuse_with
        shown = {s: self.hands[s].count(refuse) for s in p.payers}
        if sum(shown.values()) >= self.rules.tribute.refuse_count:
            for seat, n in shown.items():
                if n:
                    self.show(seat, Cards([refuse] * n), t)
            return
        for payer in p.payers:
            self.show(payer, Cards([legal_tributes(self.rules, p.level, self.hands[payer])[0]]), t)
        for x in self.table.tribute.exchanges:
            self.hands[x.giver] -= Cards([x.tribute])
            self.hands[x.receiver] += Cards([x.tribute])

    def do_return(self, t: float, seat: str | None = None) -> None:
        p = self.table.tribute if self.game == "guandan" else None
        due = [x for x in (p.exchanges if p else ()) if x.receiver not in dict(p.returned)]
        if seat is not None:
            due = [x for x in due if x.receiver == check_seat(seat)]
        if not due:
            raise ScenarioError("clock.no_return_from", seat=seat) if seat else ScenarioError("clock.no_return")
        for x in due:
            card = min((c for c in self.hands[x.receiver].distinct() if is_legal_return(self.rules, p.level, c)),
                       key=lambda c: power_of(self.rules, c, p.level))
            self.show(x.receiver, Cards([card]), t)
            self.hands[x.receiver] -= Cards([card])
            self.hands[x.giver] += Cards([card])

    def do_last_hand(self, t: float) -> None:
        table = self.now(t)  # a round over (its last hand played, its time up) has no hand left to announce
        if table.phase in ("idle", "round_over"):
            raise ScenarioError("clock.no_round", phase=table.phase)
        if table.last_hand:
            raise ScenarioError("clock.last_hand_twice")
        self.accepted("commands", {"command": "last_hand"}, t)

    def do_wait(self, t: float) -> None:
        self.send(CLOCK, {}, t)

    # -- the op's plays ------------------------------------------------------------------------------------
    def tractor_play(self, table: Reducer, seat: str) -> Cards:
        trumps, hand = table.trumps, list(self.hands[seat])
        judge = table.judge
        trick = judge.tricks[-1] if judge and judge.tricks and not judge.tricks[-1].complete else None
        plain = [c for c in hand if not trumps.is_trump(c)]
        if trick is not None:
            led = [c for c in hand if trumps.suit_of(c) == trumps.suit_of(trick.plays[0][1].distinct()[0])]
            plain = led or plain
        return Cards([min(plain or hand, key=trumps.sort_key)])

    def climbing_play(self, table: Reducer, seat: str) -> Cards:
        engine, level = (table.hand, self.level()) if self.game == "guandan" else (table.game, None)
        for card in sorted(self.hands[seat].distinct(), key=lambda c: (power_of(self.rules, c, level), str(c))):
            try:
                engine.play(seat, Cards([card]))
            except ValueError:
                continue
            return Cards([card])
        raise ScenarioError("clock.no_single", seat=seat)

    # -- the answer ------------------------------------------------------------------------------------
    def answer(self) -> dict[str, Any]:
        state = self.table.state(self.at)
        turn = state["turn"]
        return {
            "rulings": [r for r in map(_ruling, self.outputs) if r is not None],
            "phase": state["phase"], "hand": state["hand"], "turn": turn,
            "left": state["clocks"][turn]["left"] if turn else None, "notice": state["round"]["notice"],
            "levels": {x["name"]: x["level"] for x in state["teams"]} if self.game != "sandayi" else None,
        }  # fmt: skip


def _ruling(o: Output) -> dict[str, Any] | None:
    p = o.payload
    if o.name == "violations":
        status = {"status": p["status"]} if p["status"] != "confirmed" else {}
        return {"t": round(p["at"], 3), "seat": p["seat"], "violation": p["kind"], "penalty": penalty_words(p["penalty"])} | status
    if o.name == "events" and p["kind"] in EVENTS:
        return {"t": round(p["at"], 3), "event": p["kind"]} | {k: p["data"].get(k) for k in EVENTS[p["kind"]]}
    return None


def penalty_words(p: dict) -> str:
    """A violation's penalty in the words of the ``clock`` op.

    >>> penalty_words({"warning": True, "points": 0}), penalty_words({"points": 20}), penalty_words({"forfeit": "turn"})
    ('warning', '20 points', 'turn given up')
    """
    forfeit = {"turn": "turn given up", "hand": "first hand forfeited", "round": "round forfeited"}
    if p.get("forfeit"):
        return forfeit[p["forfeit"]]
    if p.get("foul"):
        return "foul"
    if p.get("warning"):
        return "warning"
    return f"{p['points']} points" if p.get("points") else "none"


__all__ = ["ACTIONS", "ScenarioError", "clock_case", "penalty_words"]
