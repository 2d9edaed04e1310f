"""``cardtable hall player``: the four people at one table of the hall.

The table's bots (the simulators of ``referee.table.simulate`` and ``simulate_climbing``) play as
ever, but what they do reaches the table as it would in a real hall: cards are put down on the
physical table (``scene.jsonl``, which the camera watches: ``hall camera``), never published by
the players; buttons are pressed on the table's board (a line ``SEAT BUTTON`` into the virtual
board's input, which its bridge publishes as ``board/in``). The players learn what the table made
of it only from the table's ``state`` and ``events``, like the people at a table looking at its
displays: an input counts as taken in when the table's log has an entry for it, one that no person
(the hall's organiser or referee: ``assign``, ``start_round``, ``last_hand``, ``flag_resolved``, ...)
made and whose events name the seat (an entry of another seat's presses, a pickup, a poisoned input
is no answer). A press the table does not answer is pressed again, as people do. The climbing
games' players follow the table (``simulate_climbing``: the mirror moves by the table's word on each
turn). A flagged read waits for the hall's referee; a new round waits for the hall.

Cards in front of a seat: a play stays until the same seat plays again (its earlier cards go to
the pile first); cards only shown (a declaration, the trump suit named, a tribute or return card,
the kitty turned up) are taken back once the table took them in; a new hand starts from a table
empty for ``HAND_GAP_S`` (the shuffle and the deal, which the bots do quickly), so the camera knows
that the cards of the last hand are back in play.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from bus.protocol import decode, encode, topic
from cardtable.logs import setup_logging
from hall import scene
from referee.cards import Cards
from referee.rulebooks import load
from referee.table.reducer import PRESENCE_EVENTS
from referee.table.simulate import SimulationError, Watch
from referee.table.simulators import simulator_class

log = logging.getLogger(__name__)

# Entries the players did not make: people's, the camera's pickups (a cleared trick), and the camera's and the
# board's presence (one restarted: the shot clocks stopped, then running again).
PERSON_EVENTS = frozenset({"assigned", "round_started", "round_stopped", "last_hand", "flag_resolved",
                           "picked_up"}) | PRESENCE_EVENTS
LAY_S = 0.4  # seconds (bots' time) a hand stays over the cards just put down
CLEAR_S = 0.4  # real seconds the table stays empty after the cards are picked up (> the camera's settle)
HAND_GAP_S = 2.5  # real seconds the table is empty between two hands (> the camera's hand gap)
RULED_WAIT_S = (5.0, 45.0)  # a wait this long is one the rules time (a slow play, the declaring window): real
STALL_LOG_S = 30.0  # real seconds without the table taking an input before the player says so
IDLE = ("idle", "round_over")


class HallWatch(Watch):
    """The simulator's watch, also noting the log entries that people made (by their events), the
    plays that wait while a flag is open (``play_waits``: judged once it is resolved), inputs refused
    that no seat made (poisoned), and the seats each entry's events name."""

    def __init__(self) -> None:
        super().__init__()
        self.people: set[int] = set()
        self.named: dict[int, set[str]] = {}
        self.refused: dict[int, str] = {}  # entry -> the button its refusal names

    def on_events(self, _topic: str, raw: bytes) -> None:
        event = decode("events", raw)
        with self._cond:
            if not self._first("events", event):  # published again by a restarted service
                self._cond.notify_all()
                return
            seats = named(event)
            answered = event["kind"] == "rejected" and event["seq"] in self.named  # an input refused unlogged (a probe):
            # answered at the latest entry's seq, which is not its own entry (it made the player's play a person's)
            if event["kind"] in PERSON_EVENTS or event["kind"] == "play_waits" or (event["kind"] == "rejected" and not seats and not answered):
                self.people.add(event["seq"])
            self.named.setdefault(event["seq"], set()).update(seats)
            why = event["data"].get("why") if event["kind"] == "rejected" else None
            if isinstance(why, dict) and isinstance((why.get("values") or {}).get("button"), str):
                self.refused[event["seq"]] = why["values"]["button"]
            while len(self.named) > 2000:
                del self.named[min(self.named)]
            while len(self.refused) > 2000:
                del self.refused[min(self.refused)]
            self.events.append(event)
            del self.events[:-2000]
            self.received += 1
            self._cond.notify_all()

    def seq(self) -> int:
        return self.state["seq"] if self.state else 0

    def moved_past(self, base: int, seat: str | None = None, button: str | None = None) -> bool:
        """Did the log get an entry after ``base`` that answers a player: one no person made, with
        events (an entry without any, as a pickup that the climbing games do not follow, answers
        nobody), and with ``seat`` events that name it or no seat (not the camera reading a
        neighbour's cards again, nor a flood of another seat's presses); for a press of ``button``
        (``""`` for cards put down), not a refusal of another button of the seat (a flood of its
        own stuck button: the board drops the press when its queue is full, and the player presses
        again).

        >>> w = HallWatch()
        >>> refused = {"topic": "board/in", "id": "b-9", "reason": "S: ready means nothing now",
        ...            "why": {"key": "table.button_meaningless", "values": {"seat": "S", "button": "ready"}}}
        >>> for seq, kind, data in ((11, "rejected", refused),
        ...                         (12, "passed", {"seat": "E"}), (13, "play_accepted", {"seat": "N"})):
        ...     w.on_events("", encode("events", {"v": 1, "seq": seq, "kind": kind, "at": 1.0, "data": data}))
        >>> w.state = {"seq": 13}
        >>> w.moved_past(10, "N"), w.moved_past(10, "W"), w.moved_past(11, "E"), w.moved_past(12, "E")
        (True, False, True, False)
        >>> w.moved_past(10, "S", "ready"), w.moved_past(10, "S", "bid1"), w.moved_past(10, "S", "")
        (True, False, False)
        >>> w.state = {"seq": 14}  # entry 14 has no event: a pickup
        >>> w.moved_past(13, "W"), w.moved_past(13)
        (False, False)
        >>> probe = {"topic": "commands", "id": "probe-1", "reason": "unknown command"}  # refused, not logged: entry 13's seq
        >>> w.on_events("", encode("events", {"v": 1, "seq": 13, "kind": "rejected", "at": 2.0, "data": probe}))
        >>> w.moved_past(12, "N")  # entry 13 is still N's play, not a person's
        True
        """
        return any(q not in self.people and q in self.named and (seat is None or seat in self.named[q] or not self.named[q])
                   and (button is None or self.refused.get(q, button) == button) for q in range(base + 1, self.seq() + 1))


def named(event: dict) -> set[str]:
    """The seats an event names as acting: its seat or seats, or a refused input's seat. Not a dealer or a
    leader it names: the kitty turned up at a hand's end is answered by the score and the next hand's dealer.

    >>> named({"kind": "hand_started", "data": {"hand": 2, "level": "4", "dealer": "S"}})
    set()
    """
    data = event["data"]
    why = data.get("why") if isinstance(data.get("why"), dict) else {}
    found = [data.get("seat")] + list(data.get("seats") or [])
    return {s for s in found + [(why.get("values") or {}).get("seat")] if isinstance(s, str)}


def gap_left(since: float, now: float) -> float:
    """What is left of the table's ``HAND_GAP_S`` empty between hands, emptied at ``since`` (both on the wall clock);
    a clock stepped back meanwhile (``now`` before ``since``: the machine's clock set right) leaves the whole gap,
    not the step on top of it (the bots sat an hour before the next hand for a clock set back an hour).

    >>> gap_left(100.0, 101.0), gap_left(100.0, 110.0), gap_left(3700.0, 100.0)
    (1.5, 0.0, 2.5)
    """
    return min(HAND_GAP_S, max(0.0, since + HAND_GAP_S - now))


class PlayerMixin:
    """What makes a simulator the people at a hall table (see the module's docstring)."""

    scene_path: Path
    buttons: Path | None
    stop_event: threading.Event

    # The players wait for the table's events on each thing they do: one missed while their reader reconnects (after
    # the broker's outage, with a clean session) would leave them waiting for ever. Their reader's session lasts: the
    # broker queues what the table publishes meanwhile (and sends the retained state at every connection).
    lasting_reader = True

    _arriving = False  # pressing ready: quick at any speed
    _quick_think = False  # the Tractor bot's next think is not a slow one

    def _advance(self, seconds: float) -> float:
        """The hall runs on the wall clock, as a real hall: the bots think ``speed`` times faster,
        but a wait that the rules time (a slow play past the shot clock, the declaring window) takes
        its real length, so the table's clocks rule on it as on people."""
        low, high = RULED_WAIT_S
        ruled = low <= seconds <= high and not self._arriving and not self._quick_think
        self._quick_think = False
        self.stop_event.wait(max(0.0, seconds if ruled else seconds / self.speed))
        self._at = round(time.time(), 3)
        return self._at

    def _think(self, action: str) -> tuple[float, bool]:
        seconds, slow = super()._think(action)
        self._quick_think = not slow
        return seconds, slow

    def _connect(self) -> None:
        super()._connect()
        self._table = scene.latest(self.scene_path) or scene.Table()
        self._shown_hand = None

    # -- what the people do ----------------------------------------------------------------------

    def run(self):
        self._at = time.time()
        return super().run()

    def _change(self, table: scene.Table) -> None:
        """The table changes now (the wall clock: the camera sees it at this moment)."""
        self._at = round(time.time(), 3)
        table = replace(table, at=self._at)
        self._table = table
        scene.append(self.scene_path, table)

    def observed(self, seat: str, cards: Cards, confidence: float = 1.0) -> dict:
        state = self.watch.state
        if state["hand"] != self._shown_hand:  # a new hand starts from a table empty for a while
            self._shown_hand = state["hand"]
            self._clear()
            self.stop_event.wait(gap_left(self._table.at, time.time()))
        plays = state["phase"] == "playing" or (state["phase"] == "kitty" and state["trump"] is not None)
        if not plays or self._starts_trick(state):
            self._clear()
        base = self.watch.seq()
        self._change(self._table.laid(seat, cards.names(), self._at))
        self._advance(LAY_S)
        self._change(self._table.withdrawn(self._at))
        state = self._applied(base, f"{seat} putting down {cards}", seat, button="")
        if not plays:  # only shown: taken back
            self._clear()
        self.summary.inputs += 1
        return state

    def _starts_trick(self, state: dict) -> bool:
        """A Tractor lead takes the last trick off the table; in the climbing games each play is
        put on the pile before the next (so the camera sees one play at a time)."""
        if load(self.rulebook).game != "tractor":
            return True
        trick = state["current_trick"]
        return trick is None or len(trick["plays"]) in (0, 4)

    def _clear(self) -> None:
        """Everything face up is picked up, and the table stays empty until the camera saw it so."""
        if not self._table.empty:
            self._change(self._table.cleared(self._at))
            self.stop_event.wait(CLEAR_S)
            self._at = round(time.time(), 3)

    def press(self, seat: str, button: str) -> dict:
        base = self.watch.seq()

        def push() -> None:
            if self.buttons is not None:
                with open(self.buttons, "w") as f:  # the virtual board's input (a FIFO)
                    f.write(f"{seat} {button}\n")
            else:
                payload = {"v": 1, "id": self._next_id("board"), "seat": seat, "button": button, "at": self._at}
                self._conn("board").publish(topic(self.table, "board/in"), encode("board/in", payload), qos=1)
            self.summary.inputs += 1

        push()
        return self._applied(base, f"{seat} pressing {button}", seat, again=push, button=button)

    def command(self, command: str, **fields: Any) -> dict:
        base = self.watch.seq()
        payload = {"v": 1, "id": self._next_id("console"), "command": command, **fields}
        self._conn("console").publish(topic(self.table, "commands"), encode("commands", payload), qos=1)
        self.watch.wait(lambda: self.watch.seq() > base, self.wait_s, f"the table to apply {command}")
        return self.watch.state

    def _applied(self, base: int, what: str, seat: str | None = None, again: Callable[[], None] | None = None,
                 button: str | None = None) -> dict:
        """Wait (as long as it takes: the camera or the table may be restarting) until the table
        took the input in; ``again`` does it once more after each ``STALL_LOG_S`` without an answer."""
        waited_s = 0.0
        while not self.stop_event.is_set():
            with self.watch._cond:
                if self.watch._cond.wait_for(lambda: self.watch.moved_past(base, seat, button), STALL_LOG_S):
                    self._expected = self.watch.seq()  # the simulators look for events after it
                    return self.watch.state
            waited_s += STALL_LOG_S
            with self.watch._cond:
                seq, w = self.watch.seq(), self.watch
                seen = {q: "person" if q in w.people else sorted(w.named[q]) if q in w.named else "no events"
                        for q in range(max(base + 1, seq - 9), seq + 1)}
            log.warning("%s: %g s and the table has not taken %s in yet%s (its state at entry %d; after entry %d, "
                        "the seats each entry's events name: %s)", self.table, waited_s, what,
                        ": again" if again else "", seq, base, seen)
            if again is not None:
                again()
        raise SystemExit(0)

    def _resolve_flags(self, state: dict) -> dict:
        """A flag waits for the hall's referee, who looks at the table and rules at the console."""
        while state["flags"] and not self.stop_event.is_set():
            self.watch.wait(lambda: not self.watch.state["flags"] or self.stop_event.is_set(), 10**6, "the referee")
            state = self.watch.state
            self.summary.confirms += 1
        return state

    def _to_dealing(self, state: dict) -> dict:
        """Wait for the hall to start a round (it seats the players); a hand that these players did
        not deal (they were restarted) is stopped, as the referee would."""
        state = self._resolve_flags(state)
        if self._foreign(state) and self.urls["console"]:
            log.warning("%s: a hand is in play that these players did not deal: the round is stopped", self.table)
            state = self.command("stop_round")
        while state["phase"] in IDLE or (self._foreign(state) and not self.urls["console"]):
            self.watch.wait(lambda: self.watch.state["phase"] not in IDLE or self.stop_event.is_set(), 10**6,
                            "the hall to start a round")
            if self.stop_event.is_set():
                raise SystemExit(0)
            state = self.watch.state
        self._arriving = True
        try:
            return super()._to_dealing(state)  # the seats' ready buttons, then the draw
        finally:
            self._arriving = False


def player_class(rulebook: str) -> type:
    base = simulator_class(rulebook)
    return type(f"Hall{base.__name__}", (PlayerMixin, base), {"follows_table": True})


def main(table: str, rulebook: str, scene_path: Path, buttons: Path | None, seed: int, speed: float,
         slow: float) -> int:
    """``cardtable hall player``: until SIGTERM. Broker URLs from the environment (``HALL_READER``
    (scoreboard), ``HALL_CONSOLE``, and ``HALL_BOARD`` when there is no virtual board)."""
    import signal

    setup_logging()
    stop = threading.Event()
    cls = player_class(rulebook)
    player = cls(table, rulebook, os.environ["HALL_READER"], hands=10**9, seed=seed, speed=speed,
                 board=os.environ.get("HALL_BOARD"), console=os.environ.get("HALL_CONSOLE"),
                 slow_chance=slow, unsure_chance=0.0, wait_s=60.0)
    player.scene_path, player.buttons, player.stop_event = scene_path, buttons, stop
    player.watch = HallWatch()

    def on_signal(*_: object) -> None:  # the players run in this (main) thread: any wait ends here
        threading.Thread(target=stop.set, daemon=True).start()  # a handler must take no lock
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        player.run()
    except SystemExit:
        return 0
    except (SimulationError, OSError, TimeoutError, ValueError) as exc:
        if stop.is_set():
            return 0
        log.error("%s: the players stopped: %s", table, exc)
        return 1
    return 0
