"""Four bots play real hands at a table, through the broker (``cardtable table simulate``).

:class:`Simulator` plays Tractor; ``simulate_climbing`` has its Guandan and San Da Yi players
(``simulators.simulator_class`` picks by the rulebook's game).

The simulator is the table's people and hardware at once: it shuffles and draws the cards, lets
the bots declare trumps, bury the kitty and play legal cards, and publishes exactly what the
camera (``observed``) and the board's buttons (``board/in``) would, and the console's commands
(``assign``, ``start_round``, ``confirm``). It knows whose turn it is only from the table's
retained ``state``, and sends one input at a time: each waits until a ``state`` shows it applied
(its log entry's ``seq``), so inputs on different connections cannot overtake each other.

Times are simulated: each input's ``at`` is a clock that moves on by what the action would take
(half a second per card drawn, a few seconds per play), without sleeping unless ``speed`` asks
for it. Some plays are slow on purpose (past the rulebook's shot clock, e.g. 12 s for a 10 s
follow) and some reads are unsure (confidence 0.6): the table flags them and waits, and the
simulator confirms, from the console when it has one, else with the seat's ``confirm`` button.

The flow follows ``referee/table/tractor.py``: ``assign``, ``start_round``, each seat's
``ready``; the draw, with a seat showing level cards to declare, overturn or reinforce; a ``declare`` press
ends the draw; the dealer's ``ready`` takes the kitty (with no declaration the dealer then shows
one card of the suit it names); the plays; the dealer turns up the kitty (where the book has one); ``hand_scored``.
Deterministic for a seed (the message ids aside).
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from bus.mqtt import Connection
from bus.protocol import decode, encode, topic
from referee.cards import SUITS, Cards, Decks
from referee.catalogue import say, word
from referee.catalogue.sentences import Sentences
from referee.rulebooks import load
from referee.seats import SEATS, next_seat
from referee.table.clock import limits
from referee.tractor.bots import bid, legal_follow, random_lead, random_throw
from referee.tractor.game import Declaring
from referee.tractor.trumps import Trumps

log = logging.getLogger(__name__)

PLAYERS = {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"}
SECONDS_PER_CARD = 0.5  # simulated time one drawn card takes
THROW_CHANCE = 0.2  # how often a leader tries a throw
SLOW_CHANCE = 0.04  # how often a play goes past its shot clock
UNSURE_CHANCE = 0.03  # how often the camera is unsure of a play
UNSURE_CONFIDENCE = 0.6
SLOW_BY_S = 2.0  # a slow play takes the limit and this much more (12 s for a 10 s follow)
WAIT_S = 10.0  # the longest the simulator waits for the table to apply one input
REMEMBERED = 4096  # log entries whose events and violations a watch remembers, to take each once


class SimulationError(RuntimeError):
    """The table did not do what the simulator expected (or did not answer in time)."""


@dataclass
class Summary:
    """What a simulation did: hands scored, inputs sent, and what the table ruled."""

    hands: int = 0
    inputs: int = 0
    plays: int = 0
    slow: int = 0
    unsure: int = 0
    confirms: int = 0
    events: list[dict] = field(default_factory=list)
    violations: list[dict] = field(default_factory=list)

    def kinds(self) -> Counter:
        return Counter(e["kind"] for e in self.events)


class Watch:
    """The table's retained ``state`` (the newest by ``seq``), its ``events`` and ``violations``.
    ``received`` counts the events taken; ``events`` may keep only the latest of them.

    Each event and violation is taken once. A restarted service publishes again the outputs of the
    entries in flight when it stopped (at least once: the same ``seq``, the same payload), and bots
    that took a play twice would lose step with the table (the soak's San Da Yi players did).

    >>> w = Watch()
    >>> east, north = (encode("events", {"v": 1, "seq": 7, "kind": "passed", "at": 1.0, "data": {"seat": s}})
    ...                for s in "EN")  # two of one kind in one entry: both taken
    >>> for raw in (east, north, east, north):  # the service restarted: entry 7 published again
    ...     w.on_events("", raw)
    >>> w.received, [(e["seq"], e["data"]["seat"]) for e in w.events]
    (2, [(7, 'E'), (7, 'N')])
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.state: dict | None = None
        self.events: list[dict] = []
        self.violations: list[dict] = []
        self.received = 0
        self._taken: dict[int, set[str]] = {}  # seq -> its events and violations taken (in seq order)

    def on_state(self, _topic: str, raw: bytes) -> None:
        state = decode("state", raw)
        with self._cond:
            if self.state is None or state["seq"] >= self.state["seq"]:
                self.state = state
            self._cond.notify_all()

    def on_events(self, _topic: str, raw: bytes) -> None:
        event = decode("events", raw)
        with self._cond:
            if self._first("events", event):
                self.events.append(event)
                self.received += 1
            self._cond.notify_all()

    def _first(self, name: str, payload: dict) -> bool:
        """Is this the first time this event or violation came? (Under ``_cond``.)"""
        taken = self._taken.setdefault(payload["seq"], set())
        key = name + json.dumps(payload, sort_keys=True)
        if key in taken:
            return False
        taken.add(key)
        while len(self._taken) > REMEMBERED:
            del self._taken[next(iter(self._taken))]
        return True

    def since(self, count: int) -> tuple[list[dict], int]:
        """The events received after the first ``count`` (of all received), in order, and how many
        have been received now."""
        with self._cond:
            return self.events[max(0, count - self.received + len(self.events)):], self.received

    def latest(self, kind: str, **data: Any) -> int | None:
        """How many events had been received up to the latest ``kind`` event with ``data``, or None."""
        with self._cond:
            kept = self.received - len(self.events)
            return next((kept + i + 1 for i in range(len(self.events) - 1, -1, -1) if self.events[i]["kind"] == kind
                         and all(self.events[i]["data"].get(k) == v for k, v in data.items())), None)

    def on_violations(self, _topic: str, raw: bytes) -> None:
        violation = decode("violations", raw)
        with self._cond:
            if self._first("violations", violation):
                self.violations.append(violation)
            self._cond.notify_all()

    def wait(self, predicate: Callable[[], bool], timeout: float, what: str) -> None:
        with self._cond:
            if not self._cond.wait_for(predicate, timeout):
                raise SimulationError(f"waited {timeout:g} s for {what}; the latest state: {self.state}")


class Simulator:
    """Tractor bots at one table. ``run()`` plays ``hands`` hands; see the module's docstring.

    ``broker`` is the URL of a user that reads the table's outputs (the console or the
    scoreboard); it also sends whatever has no URL of its own: ``camera`` (``observed``),
    ``board`` (``board/in``) and ``console`` (``commands``). With a ``console`` the unsure
    reads are confirmed by a console command, else by the seat's ``confirm`` button.
    """

    DEALT = "dealing"  # the phase a hand starts in
    # The reader's session: clean (a run of its own, nothing queued from an earlier one), or lasting, so that what the
    # table publishes while the reader is away (the broker restarting, a connection cut) is queued for it, not lost.
    lasting_reader = False

    def __init__(
        self,
        table: str,
        rulebook: str,
        broker: str,
        *,
        hands: int = 1,
        seed: int = 0,
        speed: float = 0.0,
        camera: str | None = None,
        board: str | None = None,
        console: str | None = None,
        start_at: float | None = None,
        slow_chance: float = SLOW_CHANCE,
        unsure_chance: float = UNSURE_CHANCE,
        wait_s: float = WAIT_S,
        out: TextIO | None = None,
        lang: str = "zh",
        before_send: Callable[[int, str, dict], None] | None = None,
    ):
        topic(table, "state")  # checks the table id
        self.table, self.rulebook, self.rules = table, rulebook, load(rulebook)
        self.urls = {"reader": broker, "camera": camera, "board": board, "console": console}
        self.hands, self.speed, self.wait_s = hands, speed, wait_s
        self.rng = random.Random(seed)
        self.slow_chance, self.unsure_chance = slow_chance, unsure_chance
        self.start_at = start_at
        self.out, self.lang = out, lang
        self.before_send = before_send  # (input number, topic name, payload): a hook for tests
        self.limits = limits(self.rules)
        self.summary = Summary()
        self.watch = Watch()
        self._run = f"{table}-{seed}-{uuid.uuid4().hex[:8]}"
        self._count = 0
        self._conns: dict[str, Connection] = {}
        self._expected = 0  # the log seq the table's state must reach
        self._at = 0.0
        self._real = 0.0  # time.monotonic() when self._at was last set (for ``speed``)
        # The hand in play (only the simulator knows the hidden cards).
        self._hand_cards: dict[str, Cards] = {}
        self._buried = Cards()

    # -- connections -----------------------------------------------------------------------------

    def _connect(self) -> None:
        reader = Connection(self.urls["reader"], clean_start=not self.lasting_reader)
        reader.subscribe(topic(self.table, "state"), self.watch.on_state, retained="always")  # a lasting session too
        reader.subscribe(topic(self.table, "events"), self.watch.on_events)
        reader.subscribe(topic(self.table, "violations"), self.watch.on_violations)
        self._conns["reader"] = reader.connect()
        if not reader.wait_subscribed(self.wait_s):
            raise SimulationError("the broker did not acknowledge the subscriptions")
        for role in ("camera", "board", "console"):  # one connection per user: the broker binds it to the user
            url = self.urls[role]
            if url:
                same = [c for r, c in self._conns.items() if self.urls[r] == url]
                self._conns[role] = same[0] if same else Connection(url, clean_start=True).connect()

    def close(self) -> None:
        for conn in set(self._conns.values()):
            conn.close()
        self._conns.clear()

    def _conn(self, role: str) -> Connection:
        return self._conns.get(role) or self._conns["reader"]

    # -- sending ---------------------------------------------------------------------------------

    def _next_id(self, role: str) -> str:
        self._count += 1
        return f"sim-{role}-{self._run}-{self._count:06d}"

    def _advance(self, seconds: float) -> float:
        """Move the simulated clock on; with ``speed`` also let real time pass (speed x faster)."""
        self._at = round(self._at + seconds, 3)
        if self.speed > 0:
            due = self._real + seconds / self.speed
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            self._real = max(due, time.monotonic() - 1.0)
        return self._at

    def _send(self, name: str, payload: dict) -> dict:
        """Publish one input and wait until the table's state shows it applied; return that state."""
        role = {"observed": "camera", "board/in": "board", "commands": "console"}[name]
        payload = {"v": 1, "id": self._next_id(role), **payload}
        if self.before_send is not None:
            self.before_send(self.summary.inputs + 1, name, payload)
        self._conn(role).publish(topic(self.table, name), encode(name, payload), qos=1)
        self.summary.inputs += 1
        self._expected += 1
        expected = self._expected
        self.watch.wait(lambda: self.watch.state is not None and self.watch.state["seq"] >= expected,
                        self.wait_s, f"the table to apply {name} {payload['id']} (seq {expected})")
        return self.watch.state

    def observed(self, seat: str, cards: Cards, confidence: float = 0.97) -> dict:
        return self._send("observed", {"seat": seat, "cards": cards.names(), "confidence": confidence, "at": self._at})

    def press(self, seat: str, button: str) -> dict:
        return self._send("board/in", {"seat": seat, "button": button, "at": self._at})

    def command(self, command: str, **fields: Any) -> dict:
        return self._send("commands", {"command": command, **fields})

    # -- the run ---------------------------------------------------------------------------------

    def run(self) -> Summary:
        """Play ``hands`` hands (counted by the table's ``hand_scored`` events); return the summary."""
        try:
            self._connect()
            self.watch.wait(lambda: self.watch.state is not None, self.wait_s,
                            f"the retained state of table {self.table} (is its service running?)")
            state = self.watch.state
            self._expected = state["seq"]
            self._at = self.start_at if self.start_at is not None else max(time.time(), state["at"])
            self._at = max(self._at, state["at"])
            self._real = time.monotonic()
            while self.summary.hands < self.hands:
                state = self._to_dealing(self.watch.state)
                self._play_hand(state)
        finally:
            with self.watch._cond:
                self.summary.events = list(self.watch.events)
                self.summary.violations = list(self.watch.violations)
            self.close()
        return self.summary

    def _say(self, key: str, **values: Any) -> None:
        """One line of progress (the catalogue's ``simulate.*``)."""
        if self.out is not None:
            print(say(self.lang, f"simulate.{key}", **values), file=self.out, flush=True)

    def _seat(self, seat: str | None) -> str:
        return Sentences(self.lang).seat(seat)

    def _to_dealing(self, state: dict) -> dict:
        """From wherever the table is, to the start of a draw: a new round when needed."""
        state = self._resolve_flags(state)
        if self._foreign(state):
            # A hand this simulator did not deal (a previous run): its cards are unknown.
            self._advance(1.0)
            state = self.command("stop_round")
        if state["phase"] in ("idle", "round_over"):
            self._advance(1.0)
            if state["rulebook"] != self.rulebook or any(p is None for p in state["players"].values()):
                self.command("assign", players=dict(PLAYERS), rulebook=self.rulebook)
            state = self.command("start_round")
            self._say("round_started", table=self.table, rulebook=self.rulebook)
        if state["phase"] == "arriving":
            for seat in SEATS:
                self._advance(self.rng.uniform(1.0, 20.0))
                state = self.press(seat, "ready")
                if state["phase"] != "arriving":
                    break
        if not self._dealt(state):
            raise SimulationError(f"expected the table to deal, but it is in phase {state['phase']}")
        return state

    def _dealt(self, state: dict) -> bool:
        """Is the table at the start of a hand, for these players to deal?"""
        return state["phase"] == self.DEALT

    def _foreign(self, state: dict) -> bool:
        """Is a hand in play that this simulator did not deal (its cards unknown)?"""
        return state["phase"] in ("kitty", "playing", "hand_over", "bidding")

    def _level(self, state: dict) -> str:
        if state["trump"] and state["trump"]["rank"]:
            return state["trump"]["rank"]
        if state["dealer"]:
            return next(t["level"] for t in state["teams"] if state["dealer"] in t["seats"])
        return self.rules.deal.start_level

    # -- one hand --------------------------------------------------------------------------------

    def _play_hand(self, state: dict) -> None:
        hand_no, dealer = state["hand"], state["dealer"]
        level = self._level(state)
        first_hand = dealer is None
        deck = list(Decks(self.rules.deal.decks).full())
        self.rng.shuffle(deck)
        first = dealer or self.rng.choice(SEATS)
        kitty_n = self.rules.deal.kitty
        drawn: dict[str, list] = {s: [] for s in SEATS}
        declaring = Declaring(self.rules, level, first_hand=first_hand)
        seat = first
        for card in deck[: len(deck) - kitty_n]:
            self._advance(SECONDS_PER_CARD)
            drawn[seat].append(card)
            if card.rank == level:
                declaring = self._declare_round(declaring, drawn, seat)
            seat = next_seat(seat)
        hands = {s: Cards(c) for s, c in drawn.items()}
        kitty = Cards(deck[len(deck) - kitty_n :])
        standing = declaring.standing
        self._advance(1.0)
        self.press(standing.seat if standing else first, "declare")  # the draw is over
        dealer = dealer or (standing.seat if standing else first)
        self._advance(self.rules.declare.window_s + 1.0)  # the overturn window passes
        state = self.press(dealer, "ready")  # the dealer takes the kitty
        if state["phase"] != "kitty" or state["dealer"] != dealer:
            raise SimulationError(f"expected {dealer} to take the kitty, the table says {state}")
        full = hands[dealer] + kitty
        if state["trump"] is None:  # nobody declared: the dealer names the suit by showing a card
            suit = _most_held_suit(full, level)
            card = min((c for c in full if c.suit == suit and c.rank != level), key=lambda c: c.code)
            self._advance(self.rng.uniform(2.0, 6.0))
            state = self.observed(dealer, Cards([card]))
            state = self._resolve_flags(state)
            if state["trump"] is None:
                raise SimulationError(f"{dealer} named {suit} trumps, the table says {state}")
        trumps = Trumps.of(self.rules, state["trump"]["rank"], state["trump"]["suit"])
        order = sorted(full, key=lambda c: (trumps.is_trump(c), c.points > 0, trumps.position(c)))
        self._buried = Cards(order[:kitty_n])
        hands[dealer] = full - self._buried
        self._hand_cards = hands
        self._say("tractor_hand", hand=hand_no, dealer=self._seat(dealer), suit=word(self.lang, f"suit.{trumps.suit or 'none'}"),
                  level=trumps.level)
        after = self._expected
        self._plays(trumps, state)
        # The hand is played: the dealer turns up the kitty, the table scores the hand (a book without one: with the
        # last trick; a camera message holds one card or more).
        if self._buried:
            self._advance(self.rng.uniform(3.0, 8.0))
            self._resolve_flags(self.observed(dealer, self._buried))

        def scored() -> dict | None:
            return next((e for e in self.watch.events if e["seq"] > after and e["kind"] == "hand_scored"
                         and e["data"].get("hand") == hand_no), None)

        self.watch.wait(lambda: scored() is not None, self.wait_s, f"hand {hand_no} to be scored")
        found = scored()
        self.summary.hands += 1
        data = found["data"]
        self._say("tractor_scored", hand=data.get("hand"), points=data.get("settled_points"), result=Sentences(self.lang).result(data))

    def _declare_round(self, declaring: Declaring, drawn: dict[str, list], drawer: str) -> Declaring:
        """The drawer, then the others, may declare, overturn or reinforce (``bots.bid``), shown to the camera."""
        order = [SEATS[(SEATS.index(drawer) + i) % 4] for i in range(4)]
        changed = True
        while changed:
            changed = False
            for seat in order:
                after, shown = bid(declaring, seat, Cards(drawn[seat]), self._at)
                if after is None:
                    continue
                self._advance(self.rng.uniform(0.5, 1.5))
                state = self._resolve_flags(self.observed(seat, shown))
                if state["phase"] != "dealing":
                    raise SimulationError(f"{seat} declared in phase {state['phase']}")
                declaring, changed = after, True
        return declaring

    def _think(self, action: str) -> tuple[float, bool]:
        limit = self.limits.limit(action) if self.limits.timed else None
        if self.rng.random() < self.slow_chance:
            return (limit + SLOW_BY_S if limit is not None else 12.0), True
        upper = 4.0 if action != "kitty_and_first_lead" else 40.0
        lower = 0.8 if action != "kitty_and_first_lead" else 15.0
        if limit is not None:
            upper = min(upper, limit * 0.8)
        return round(self.rng.uniform(lower, upper), 2), False

    def _plays(self, trumps: Trumps, state: dict) -> None:
        hands, hand = self._hand_cards, state["hand"]
        while True:
            state = self._resolve_flags(state)
            if state["phase"] == "hand_over" or not any(hands.values()):  # no kitty: the next hand is dealt at once
                return
            if state["phase"] not in ("kitty", "playing"):
                raise SimulationError(f"expected plays, the table is in phase {state['phase']}")
            seat = state["turn"]
            trick = state["current_trick"]
            leading = trick is None or len(trick["plays"]) in (0, 4)
            if leading:
                cards = self._lead(trumps, hands, seat)
                action = "kitty_and_first_lead" if state["phase"] == "kitty" else "lead"
            else:
                plays = [Cards.parse(p["cards"]) for p in trick["plays"]]
                cards = legal_follow(trumps, hands[seat], plays[0], self.rng, plays[1:])
                action = "follow"
            seconds, slow = self._think(action)
            unsure = self.rng.random() < self.unsure_chance
            self._advance(seconds)
            before = state["cards"][seat]
            confidence = UNSURE_CONFIDENCE if unsure else round(self.rng.uniform(0.93, 0.995), 3)
            state = self.observed(seat, cards, confidence)
            self.summary.slow += slow
            self.summary.unsure += unsure
            state = self._resolve_flags(state)
            if state["hand"] == hand and state["cards"][seat] != before - len(cards):  # (no kitty: the last ends it)
                raise SimulationError(f"{seat} played {cards}, the table did not take it: {state}")
            hands[seat] = hands[seat] - cards
            self.summary.plays += 1

    def _lead(self, trumps: Trumps, hands: dict[str, Cards], seat: str) -> Cards:
        others = {s: h for s, h in hands.items() if s != seat}
        throw = random_throw(trumps, hands[seat], others, self.rng) if self.rng.random() < THROW_CHANCE else None
        return throw or random_lead(trumps, hands[seat], self.rng)

    def _resolve_flags(self, state: dict) -> dict:
        """A flagged read or violation waits for a person: the simulator's referee confirms it."""
        while state["flags"]:
            flag = state["flags"][0]
            self._advance(self.rng.uniform(2.0, 5.0))
            if "console" in self._conns:
                state = self.command("confirm", flag=flag["flag"])
            else:
                state = self.press(flag["seat"], "confirm")
            self.summary.confirms += 1
            if any(f["flag"] == flag["flag"] for f in state["flags"]):
                raise SimulationError(f"flag {flag['flag']} stays open after confirm: {state}")
        return state


def _most_held_suit(hand: Cards, level: str) -> str:
    counts = Counter(c.suit for c in hand if not c.is_joker and c.rank != level)
    return max(SUITS, key=lambda s: (counts[s], -SUITS.index(s)))


__all__ = ["PLAYERS", "SimulationError", "Simulator", "Summary", "Watch"]
