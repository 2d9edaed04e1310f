"""What every table's reducer shares, whatever the game: inputs in, a new table and its outputs out.

A reducer is an immutable :class:`Reducer`; :meth:`Reducer.apply` takes one input (already
validated by ``protocol.decode``) with its time and log ``seq`` and returns the new table and what
to publish. Everything is a pure function of the inputs and their times: no clock is read.

Shared here: the outputs (``events``, ``violations``), the console's commands (``assign`` within
one game family, ``start_round``, ``stop_round``, ``last_hand``, ``confirm``/``dismiss``/``correct``
of a flag), the board's ``confirm``, ``referee`` and arrival ``ready``, late arrival (below), an
unsure read or a play out of turn raised as a flag that pauses the table, cards the camera sent already that lie in front
of a seat (shown out of turn; a Tractor follow taken back) asked about when the seat's turn comes (``_lying_asked``), the
shot clock paused
while a flag is open or while the table's camera or board is down (a ``presence`` entry: ``_presence_entry``),
and the parts of ``state`` and ``board/out`` that do not depend on the game.

Time rules by itself (``_tick``), before each input is applied and at each ``clock`` entry (what
the service logs when a deadline passes with no input, so that a replay rules exactly as the
running table did): whatever a deadline passed by the input's time decides is ruled first.

Late arrival is ruled per side, as time passes (``[clock] late_bands``): a side is late until its
second player is ready, so the later partner's time decides, and each band applies the moment its
minute passes, for a side still not seated too. A side has one ``late_arrival`` violation, published
again (the same ``flag``) each time a later band applies to it; a ``ready`` within
:data:`GRACE_MIN` of the start is on time. A side whose lateness forfeits the round loses it at once
(``game_won`` for the other side, ``by: "late"``); when both do, ``round_forfeited`` names both.

A game's reducer (``tractor.TractorTable`` for Tractor, ``climbing.ClimbingTable`` for Guandan and San Da
Yi) adds its fields and the hooks below (``_round_started``, ``_all_ready``, ``_seen``,
``_game_button``, ``_counted``, ``_out_of_turn_rule``, and the state's parts), and may let its own
clocks rule (``_tick``, calling this one's first).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from functools import cache, lru_cache

from referee.cards import Cards, Decks
from referee.catalogue import say
from referee.catalogue.kinds import name as kind_name
from referee.catalogue.sentences import Sentences
from referee.reasons import Reason, Refused
from referee.rulebooks import ClimbingRulebook, TractorRulebook, load
from referee.seats import SEATS, TEAMS
from referee.table.clock import (
    ClockLimits,
    ClockRecord,
    LatePenalty,
    RoundClock,
    ShotClock,
    late_penalty,
    limits,
    minutes_late,
    minutes_told,
)

# The flags whose play a person's ``confirm`` applies: a read the model was unsure of, a play of more cards than the
# seat holds (Tractor: a misread or a real 多牌, which the hand judge then rules ``wrong_card_count``), cards shown out
# of turn, or a follow taken back, that lie there still when the seat's turn comes (``Reducer._lying_asked``).
LYING_ASKED = ("laid_out_of_turn", "laid_taken_back")
CONFIRMED_PLAYS = ("unsure", "too_many") + LYING_ASKED
# The flags whose pickup (a ``removed`` read) a person's ``confirm`` applies, as if the camera had been sure.
CONFIRMED_PICKUPS = ("unsure_pickup",)
REFEREE_ONLY = ("referee_called", "stalled", "idle")  # flags a seat's own ``confirm`` button cannot answer: a referee must come
CLOCK = "clock"  # the log's entry for time passing with no input (logged by the service when a deadline passes)
# The log's entry for a device's presence changing (logged by the service from ``camera/status`` and
# ``board/status``): ``{"v": 1, "device": "camera" | "board", "status": "online" | "lost" | "offline"}``, with the
# camera's ``reason`` of a ``lost`` and an ``online`` board's ``boot`` (logged also when only the boot changed).
PRESENCE = "presence"
DEVICES = ("camera", "board")
DOWN = frozenset({"lost", "offline"})  # a camera that sees no table, a board that does not answer, or stopped
# The events a presence entry makes (``Reducer._presence_entry``): no seat's doing.
PRESENCE_EVENTS = frozenset(f"{device}_{what}" for device in DEVICES for what in ("lost", "offline", "back")) | {"board_restarted"}
UNTOLD = 255  # board/out ``cards`` of a seat whose count the rules keep from the players: its display shows none (bus/PROTOCOL.md)
CONFIDENT = 0.9  # a recognition below this is flagged for a person to confirm
GRACE_MIN = 1.0  # a seat ready within a minute of the round's start is on time (pressing takes a moment)
# A turn this long past the seat's allowed time with no play seen (``UNTIMED_STALL_S`` from its start where the book
# times nothing): the camera may have missed a play it cannot read, and nothing else would tell (``stalled``; decided,
# no seed says: a person looks, nobody is penalised).
STALLED_S = 60.0
UNTIMED_STALL_S = 120.0
# The same bounds watch a seat the table waits on where no shot clock runs (``Reducer._awaited``: a Tractor draw, a dealer
# not taking the kitty, a bidder, a tribute): an ``idle`` flag (decided, no seed says it: a person looks, nobody is penalised).


@dataclass(frozen=True)
class Output:
    """One message to publish: a protocol topic name and its payload."""

    name: str
    payload: dict


@dataclass(frozen=True)
class Lying:
    """Cards the camera sent already (it sends a card once) that lie face up in front of ``seat``, not played, in the
    hand and trick ``where``: shown out of turn, confirmed so (``laid_out_of_turn``), or taken back with a Tractor throw
    (a follow: ``laid_taken_back``; the thrower's others): ``kind`` is the flag that asks about them at the seat's turn,
    None once asked, or never (the thrower's: its turn in that trick is over)."""

    seat: str
    where: tuple[int, int]
    cards: tuple[str, ...]
    kind: str | None = "laid_out_of_turn"


@dataclass(frozen=True)
class Flag:
    """Something a person must look at, and why; ``pending`` is the play to apply once confirmed."""

    flag: str
    seat: str
    kind: str
    at: float
    cards: tuple[str, ...] = ()
    why: Reason | None = None
    pending: dict | None = None
    violation: dict | None = None  # the violation published with the flag, confirmed or dismissed later
    # the ways its play can be read (Tractor: a captive lead's structures, each its units' cards; Guandan: the readings
    # of a wildcard play on the table, lead or follow, its cards as each reads them), one of which a ``dismiss`` names
    # (``reading``: its number, 1 the first): the referee's word on what its player said (001 十五, 002 二);
    # ``choice_words``: each in words, where its cards alone do not tell them apart (Guandan: 到 7 的顺子, 到 8 的顺子)
    choices: tuple[tuple[tuple[str, ...], ...], ...] = ()
    choice_words: tuple[Reason, ...] = ()

    @property
    def text(self) -> str:
        """Why, in the words of the logs (English, card codes): ``state``'s ``text`` for readers without the
        catalogue."""
        return plain(self.why)[:200] if self.why is not None else ""

    def json(self) -> dict:
        """The flag as ``state`` lists it."""
        out = {"flag": self.flag, "seat": self.seat, "kind": self.kind, "at": self.at, "cards": list(self.cards), "text": self.text}
        out |= {"choices": [[list(unit) for unit in r] for r in self.choices]} if self.choices else {}
        out |= {"choice_words": [w.json() for w in self.choice_words]} if self.choice_words else {}
        return out | ({"why": self.why.json()} if self.why is not None else {})


def plain(why: Reason) -> str:
    """A reason in the words of the logs and of the messages' ``text`` and ``reason`` fields: English, card codes
    and seat letters (a person reads it said by ``Sentences`` in their language, from its ``why``)."""
    return Sentences("en", codes=True).reason(why)


@dataclass(frozen=True)
class Reducer:
    table: str
    rulebook: str
    players: tuple[tuple[str, str | None], ...] = tuple((s, None) for s in SEATS)
    phase: str = "idle"
    hand_no: int = 0
    dealer: str | None = None
    clock: ShotClock | None = None
    record: ClockRecord = ClockRecord()
    round_start: float | None = None
    ready: tuple[str, ...] = ()  # the seats at the table, in the order they arrived
    late: tuple[tuple[str, LatePenalty, str], ...] = ()  # (side, its lateness as ruled so far, its violation's flag)
    flags: tuple[Flag, ...] = ()
    waiting: tuple[dict, ...] = ()  # the camera's reads that came while a flag was open, judged once none is
    last_hand: bool = False
    seq: int = 0
    at: float = 0.0
    flag_count: int = 0
    # What each seat's display says of its latest violation, until the seat plays or passes next.
    notices: tuple[tuple[str, str], ...] = ()
    presence: tuple[tuple[str, str], ...] = ()  # (device, its presence as last logged: ``PRESENCE``), in DEVICES order
    boot: int | None = None  # the board's boot as last logged (an ``online`` presence's ``boot``): ``_booted``
    # Lateness counts from ``late_from`` (the round's start, later by each time the board was down meanwhile: no seat
    # could press ``ready``), and not at all since ``late_stopped`` while the board is down in the arriving phase.
    late_from: float | None = None
    late_stopped: float | None = None
    stalled: tuple[str, float] | None = None  # the seat and start of the turn (or wait) flagged (once a turn)
    # The wait of the seat the table waits on where no shot clock runs (``_awaited``): never ruled, it only tells when
    # to ask a person (``idle``); its ``action`` is the phase word of what is awaited.
    watch: ShotClock | None = None
    # Cards lying face up in front of a seat that the camera will not send again, asked about at the seat's turn
    # (``_lying_asked``), until it picks them up (``_picked_up``), a person's word plays them, or a new hand is dealt.
    lying: tuple[Lying, ...] = ()
    # The seqs of a person's ``confirm`` and ``correct`` whose cards the table took (played or picked up): the only
    # commands an ``amend`` may name (the confirm of an ``out_of_turn``, an ``idle``... took none: nothing to amend).
    took: frozenset[int] = frozenset()
    _events: tuple[Output, ...] = field(default=(), repr=False, compare=False)
    # While a ``clock`` entry that the service held (it could not hear the table) is applied: a turn it
    # gives up starts the next seat's clock at the entry, when the table can show it, not at the deadline.
    _held: bool = field(default=False, repr=False, compare=False)

    def _with(self, **changes: object) -> Reducer:
        """A copy with ``changes``, as ``dataclasses.replace`` makes it but without calling
        ``__init__`` (several times per input, it was a quarter of the table's time)."""
        names = _field_names(type(self))
        if not changes.keys() <= names:
            raise TypeError(f"{type(self).__name__} has no field {sorted(changes.keys() - names)[0]!r}")
        new = object.__new__(type(self))
        state = new.__dict__
        for name in names:
            state[name] = changes[name] if name in changes else self.__dict__[name]
        return new

    # -- what it is --------------------------------------------------------------------------------
    @property
    def rules(self) -> TractorRulebook | ClimbingRulebook:
        return load(self.rulebook)

    @property
    def limits(self) -> ClockLimits:
        return _limits(self.rulebook)

    def round_clock(self) -> RoundClock | None:
        return _round_clock(self.rulebook, self.round_start) if self.round_start is not None else None

    # -- inputs ----------------------------------------------------------------------------------------
    def apply(self, name: str, payload: dict, at: float, seq: int) -> tuple[Reducer, list[Output]]:
        """The table after one input (already validated by ``protocol.decode``), and what to publish.
        A ``clock`` entry is no input: time rules up to ``at`` and nothing else happens (``held``: late,
        see ``_held``). While a device is :attr:`down`, no clock runs: one started meanwhile is paused at once."""
        held = name == CLOCK and bool(payload.get("held"))
        ticked = self._with(seq=seq, at=max(self.at, at), _events=(), _held=held)._by_time()  # what time ruled stands
        handler = {"commands": "_command", "board/in": "_button", "observed": "_observed", "removed": "_removed",
                   CLOCK: "_clock_entry", PRESENCE: "_presence_entry"}[name]  # by name: a game's own overrides them
        try:
            t = getattr(ticked, handler)(payload)
        except ValueError as exc:  # Reject, and any rule the engines refuse: the input changes nothing
            t = ticked._rejected(name, payload, exc)
        t = t._watched()
        if t.presence and t.down:  # (most tables have every device up: the cheap test first)
            t = t._pause_clocks()
        if (t.flags or t.waiting) and t.phase == "round_over":  # however the round ended (its game, its clock, fouls, a stop)
            t = t._flags_closed()
        return t._with(_events=(), _held=False), list(t._events)

    def _rejected(self, name: str, payload: dict, exc: ValueError) -> Reducer:
        """The ``rejected`` event of an input (``name``, ``payload``) refused with ``exc``: its reason in words."""
        why = exc.reason if isinstance(exc, Refused) else None
        data = {"topic": name, "id": payload.get("id"), "reason": (plain(why) if why else str(exc)) or "refused"}
        return self._event("rejected", data | ({"why": why.json()} if why else {}))

    def _by_time(self) -> Reducer:
        """Everything time decides up to ``self.at``: the rules' clocks (:meth:`_tick`), then a turn gone quiet
        (:meth:`_stall`). The one way time rules: an input, the service's ``clock`` entry and a ``state`` alike."""
        return self._tick()._watched()._stall()

    def _tick(self) -> Reducer:
        """What time decided up to ``self.at``: here late arrival; a game adds its clocks."""
        return self._lateness() if self.phase == "arriving" else self

    def _clock_entry(self, p: dict) -> Reducer:
        return self

    def _awaited(self) -> tuple[str, str, float] | None:
        """The seat the table waits on where no shot clock runs, what for (a phase word) and the seconds it is allowed
        (``math.inf``: the book sets none); None where a clock watches the turn or nobody in particular must act."""
        return None

    def _watched(self) -> Reducer:
        """The :attr:`watch` of what the table now awaits (:meth:`_awaited`), started when the wait began, paused while
        the table is on hold; a wait that ended answers its ``idle`` flag (the seat acted)."""
        awaited = self._awaited() if self.phase not in ("idle", "round_over") else None
        w = self.watch
        if awaited is not None and w is not None and (w.seat, w.action) == awaited[:2]:
            return self
        t, watch = self._idle_answered(), None
        if awaited is not None:
            seat, what, allowed = awaited
            watch = ShotClock(seat, what, allowed, self.at, self.at, self.limits.rule("play"), last=self.at)
        t = t._with(watch=watch)
        return t._pause_clocks() if t.on_hold else t._resume_clock()

    def _idle_answered(self, seat: str | None = None) -> Reducer:
        """The ``idle`` flags (``seat``'s, or every one) answered by the act they waited for: dismissed, said."""
        t = self
        for flag in (f for f in self.flags if f.kind == "idle" and seat in (None, f.seat)):
            t = t._with(flags=tuple(f for f in t.flags if f is not flag))._event("flag_resolved", {"flag": flag.flag, "how": "dismiss"})
        return t

    def _stall_at(self) -> float | None:
        """When the seat on turn will have gone :data:`STALLED_S` past its allowed time (:data:`UNTIMED_STALL_S` past
        its turn's start where the book times nothing) with no play seen; None while no clock runs, or once its turn
        was flagged. Where no shot clock runs, the same of the :attr:`watch`."""
        c = self.clock or self.watch
        if c is None or c.running_since is None or self.stalled == (c.seat, c.started) or self.phase in ("idle", "round_over"):
            return None
        wait = UNTIMED_STALL_S if math.isinf(c.allowed) else c.allowed + STALLED_S
        return c.running_since + (wait - c.counted)

    def _idle_why(self, watch: ShotClock) -> Reason:
        """Why the :attr:`watch` of a wait gone on too long is flagged (``idle``); a game may say what it awaits."""
        return Reason("table.idle", seat=watch.seat, seconds=round(watch.used(self.at)), phase=watch.action)

    def _stall(self) -> Reducer:
        """The seat on turn long past its time with no play seen: a flag, no violation (the camera may have missed a
        card it cannot read; the seat may be thinking). A person ``correct``s it into the play they see on the table
        (not timed: nobody saw when it came) or dismisses it (the turn's clock runs on, and its overrun is ruled
        when the play comes)."""
        at = self._stall_at()
        if at is None or self.at < at:
            return self
        c = self.clock or self.watch
        t = self._with(stalled=(c.seat, c.started))
        if c is self.watch:  # nothing to correct: the act awaited is no play (a button, a tribute); it answers the flag
            return t._flag(c.seat, "idle", Cards(), self._idle_why(c), None)
        why = Reason("table.stalled", seat=c.seat, seconds=round(c.used(self.at)))
        pending = {"id": None, "seat": c.seat, "cards": [], "confidence": 1.0}
        return t._flag(c.seat, "stalled", Cards(), why, pending)

    @property
    def down(self) -> tuple[str, ...]:
        """The devices that said last that they are down: a camera that sees no table, a board that does not answer
        (``lost``), or either stopped (``offline``)."""
        return tuple(d for d, status in self.presence if status in DOWN)

    def presence_of(self, device: str) -> str | None:
        """The device's presence as last logged; None: it never said."""
        return dict(self.presence).get(device)

    @property
    def on_hold(self) -> bool:
        """Whether the table waits: a flag is open, a device is :attr:`down` while the seats play (their clocks stand
        still), or the board is down while they arrive (late arrival stands still)."""
        if self.flags:
            return True
        if self.phase == "arriving":
            return self.late_stopped is not None
        return bool(self.down) and self.phase not in ("idle", "round_over")

    def _presence_entry(self, p: dict) -> Reducer:
        """A device's presence changed (a ``presence`` entry). Decided (no seed speaks of cameras or boards): while
        the camera sees no table, or the board does not answer, every shot clock stops, since a play no camera sees,
        or a pass no button can say, would be ruled late, or a turn given up, on a guess; late arrival
        (``_late_held``) waits while the board is down, since no seat can press ``ready``. The round's own time runs
        on (the venue's schedule). The clocks run again, with the seconds they had left, once every device is back
        (unless a flag holds them). A board's new boot says it restarted (``_booted``)."""
        device, status = p["device"], p["status"]
        was = self.presence_of(device)
        t = self._booted(p["boot"]) if "boot" in p else self
        if status == was:
            return t
        now = dict(self.presence) | {device: status}
        t = t._with(presence=tuple((d, now[d]) for d in DEVICES if d in now))._late_held(device, status in DOWN)
        if status in DOWN:  # its clocks paused by ``apply``, as for every input while a device is down
            data = {"status": status} | ({"reason": p["reason"]} if "reason" in p else {})
            return t._down_event(device, data)
        if was not in DOWN:
            return t
        t, data = t._resume_clock(), {"held": True} if t.down else {}  # held: the other device is down still
        return t._event("camera_back", data) if device == "camera" else t._event("board_back", data)

    def _booted(self, boot: int) -> Reducer:
        """The board answers in boot ``boot`` (its counter goes up at every reset). Decided (no seed speaks of boards):
        a boot other than the last one logged says the board restarted since, so a press made meanwhile (a ``ready``,
        a pass, a call) may be lost: ``board_restarted`` asks a person to check, and rules nothing. The first boot a
        table hears is no restart; a boot said again (its retained status, a board back with the same boot) is none.
        (A board also begins a boot after 65,535 presses, losing none: the table cannot tell, and says it too.)"""
        if boot == self.boot:
            return self
        t = self._with(boot=boot)
        return t if self.boot is None else t._event("board_restarted", {"boot": boot})

    def _late_held(self, device: str, down: bool) -> Reducer:
        """Late arrival waits while the board is down (no seat can press ``ready``): it counts again from where it
        stopped when the board answers."""
        if device != "board":
            return self
        if down:
            return self._with(late_stopped=self.at) if self.phase == "arriving" and self.late_stopped is None else self
        if self.late_stopped is None:
            return self
        return self._with(late_from=self.late_from + (self.at - self.late_stopped), late_stopped=None)

    def _down_event(self, device: str, data: dict) -> Reducer:
        if device == "board":
            return self._event("board_offline", data) if data["status"] == "offline" else self._event("board_lost", data)
        return self._event("camera_offline", data) if data["status"] == "offline" else self._event("camera_lost", data)

    def rules_by(self, at: float) -> bool:
        """Whether time alone rules something by ``at`` (the service then logs a ``clock`` entry)."""
        return bool(self._with(at=max(self.at, at), _events=())._by_time()._events)

    def _event(self, kind: str, data: dict) -> Reducer:
        out = Output("events", {"v": 1, "seq": max(self.seq, 1), "kind": kind, "at": self.at, "data": data})
        t = self._with(_events=self._events + (out,))
        if kind in _TURN_TAKEN and any(s == data.get("seat") for s, _ in t.notices):
            t = t._with(notices=tuple((s, m) for s, m in t.notices if s != data["seat"]))
        return t

    def _violation(self, seat: str, kind: str, article: str, penalty: dict, evidence: dict, status: str, flag: str | None = None) -> tuple[Reducer, dict]:
        t = self
        if flag is None:
            t = t._with(flag_count=t.flag_count + 1)
            flag = f"v{t.flag_count}"
        v = {
            "v": 1, "seq": max(t.seq, 1), "flag": flag, "at": t.at, "seat": seat, "kind": kind,
            "rule": {"book": t.rulebook, "article": article[:64]}, "penalty": penalty, "evidence": evidence, "status": status,
        }  # fmt: skip
        notice = (seat, notice_text(kind, penalty, status))
        notices = tuple(n for n in t.notices if n[0] != seat) + ((notice,) if status != "dismissed" else ())
        return t._with(_events=t._events + (Output("violations", v),), notices=notices), v

    def _ruled(self, seat: str, kind: str, article: str, why: Reason, evidence: dict, penalty: dict | None = None) -> tuple[Reducer, dict]:
        """A violation the engine proved, confirmed at once, with its reason in ``evidence.why`` (said in the
        reader's language); without a ``penalty`` of its own it costs what the rulebook says, when the hand is
        settled (the penalty's ``text``: 按规程处罚)."""
        penalty = penalty or {"text": say("zh", "penalty.by_rules")}
        return self._violation(seat, kind, article, penalty, evidence | {"why": why.json()}, "confirmed")

    # -- commands --------------------------------------------------------------------------------------
    def _command(self, p: dict) -> Reducer:
        command = p["command"]
        if command == "assign":
            if self.phase not in ("idle", "round_over"):
                raise Reject("table.assign_between_rounds")
            mine, theirs = load(self.rulebook).game, load(p["rulebook"]).game
            if mine != theirs:
                raise Reject("table.other_game", rulebook=p["rulebook"], game=theirs, table_game=mine)
            t = self._with(rulebook=p["rulebook"], players=tuple((s, p["players"][s]) for s in SEATS))
            return t._event("assigned", {"players": p["players"], "rulebook": p["rulebook"]})
        if command == "start_round":
            if self.phase not in ("idle", "round_over"):
                raise Reject("table.round_running", phase=self.phase)
            t = self._with(phase="arriving", round_start=self.at, ready=(), late=(), hand_no=0, record=ClockRecord(), last_hand=False,
                           late_from=self.at, late_stopped=self.at if "board" in self.down else None, notices=(),
                           lying=())  # a round stopped mid-trick: its hands are gone, and its hand and trick numbers come again
            return t._round_started()._event("round_started", {"rulebook": self.rulebook})
        if command in ("stop_round", "last_hand") and self.phase in ("idle", "round_over"):  # no round: nothing to stop, no hand to announce
            raise Reject("table.no_round_to_stop" if command == "stop_round" else "table.last_hand_no_round", phase=self.phase)
        if command == "stop_round":
            return self._with(phase="round_over", clock=None)._event("round_stopped", {})
        if command == "amend":  # the play itself was amended before this replay (see ``amend.py``)
            if "invalid" in p:
                raise Reject(p["invalid"])
            if p.get("of") and p["entry"] not in self.took:  # a person's command that played no cards (``took``)
                raise Reject("table.not_a_play", entry=p["entry"])
            return self._event("amended", {"entry": p["entry"], "cards": p["cards"]})
        if command == "last_hand":  # 001 三: 自宣布之时起手中正在打的这副牌打完结束比赛: announced once, while a round is on
            if self.last_hand:
                raise Reject("table.last_hand_twice")
            return self._with(last_hand=True)._event("last_hand", {"hand": self.hand_no})
        if command in ("foul", "report", "open_hand"):
            if command == "foul" and "cards" in p and p["kind"] in self.rules.fouls.kinds and not self.rules.names_cards(p["kind"]):
                raise Reject("table.foul_takes_no_cards", kind=p["kind"], rulebook=self.rulebook)
            return self._ruling(command, p)
        flag = self._find_flag(p["flag"])
        if command == "correct" and p.get("cards"):  # four ♠5 of three decks: no seat holds them (a CardError: rejected)
            Decks(self.rules.deal.decks).check(Cards.parse(p["cards"]))
        # no play to correct (a pickup is none): it dismissed the violation in passing
        if command == "correct" and (flag.pending is None or flag.kind in CONFIRMED_PICKUPS):
            raise Reject("table.nothing_to_correct", flag=flag.flag, kind=flag.kind)
        if "reading" in p and (command != "dismiss" or not flag.choices):
            raise Reject("table.reading_not_asked", flag=flag.flag, kind=flag.kind)
        if command == "dismiss" and flag.choices and not 1 <= p.get("reading", 0) <= len(flag.choices):
            raise Reject("table.reading_needed", flag=flag.flag, n=len(flag.choices))
        if command != "correct" and flag.choices:  # its play is read with the answer: the reading named (``reading``, 1:
            # the first) or none (None), each game's table reading its own choices by the number
            flag = replace(flag, pending=flag.pending | {"reading": p["reading"] if command == "dismiss" else None})
        return self._resolve(flag, command, p.get("cards"))

    def _round_started(self) -> Reducer:
        return self

    def _ruling(self, command: str, p: dict) -> Reducer:
        """The referee's word on what no camera sees (a foul, the dealer's 报到 or 摊打), where the game has it."""
        raise Reject("table.no_ruling", command=command, game=load(self.rulebook).game, rulebook=self.rulebook)

    def _find_flag(self, flag_id: str) -> Flag:
        for f in self.flags:
            if f.flag == flag_id:
                return f
        raise Reject("table.no_open_flag", flag=flag_id)

    def _resolve(self, flag: Flag, how: str, cards: list[str] | None = None) -> Reducer:
        played = Cards.parse(flag.cards if cards is None else cards)
        if how == "confirm" and flag.kind in LYING_ASKED and not self._could_be_play(flag.seat, played):
            raise Reject("table.lying_not_the_play", seat=flag.seat, cards=played)
        t = self._with(flags=tuple(f for f in self.flags if f.flag != flag.flag))
        t = t._event("flag_resolved", {"flag": flag.flag, "how": how})
        if flag.violation is not None:
            t = t._violation_of(flag, "confirmed" if how == "confirm" else "dismissed")
            if how == "confirm":
                t = t._counted(flag)
        if how == "confirm" and flag.kind == "out_of_turn" and t.turn() is not None:  # in play (not a tribute): they lie there
            t = t._with(lying=t.lying + (Lying(flag.seat, t._trick_at(), flag.cards),))._lying_asked()
        pending = dict(flag.pending) if flag.pending else None
        if cards is not None and pending is not None:  # a correct's cards, or a confirm's as amended (``amend.as_amended``)
            pending["cards"] = cards
        if how == "correct" and flag.kind == "stalled":  # the play a person saw, the camera did not: when it came is
            t = t._with(clock=None)._waiting_dropped(Reject("table.play_entered", seat=flag.seat), flag.seat)  # unknown: untimed
        if pending is not None and (how == "correct" or how == "confirm" and flag.kind in CONFIRMED_PLAYS + CONFIRMED_PICKUPS):
            t = t._with(took=t.took | {self.seq})  # what an amend of this command changes
        if pending is not None and how == "confirm" and flag.kind in CONFIRMED_PICKUPS:
            t = t._picked_up(pending | {"confidence": 1.0})
        elif pending is not None and (how == "correct" or (how == "confirm" and flag.kind in CONFIRMED_PLAYS) or flag.choices):
            pending["confidence"] = 1.0
            if how == "confirm" and flag.kind == "too_many":
                pending["counted"] = True  # the referee saw it: the seat played more cards than a hand holds (多牌)
            if flag.kind in LYING_ASKED:  # played: they lie there no more
                t = t._with(lying=t._lifted(flag.seat, Cards.parse(pending["cards"]))[0])
            t = t._read(pending)  # before the reads that waited behind it
        return t._resume_clock()._judge_waiting()

    def _judge_waiting(self) -> Reducer:
        """The reads that came while a flag was open, in order, once none is: the players played on while the
        referee walked over, and the camera sends a play once (until one raises a flag again)."""
        t = self
        while t.waiting and not t.flags and t.phase not in ("idle", "round_over"):
            p, rest = t.waiting[0], t.waiting[1:]
            t = t._with(waiting=rest)
            try:
                t = Reducer._button(t, p) if "button" in p else t._read(p)  # judged now (a climbing game's pass waits too)
            except ValueError as exc:  # a Reject, any rule the engines refuse: said for that read, as when it came
                t = t._rejected(_topic(p), p, exc)
        return t

    def _flags_closed(self, ended: str = "round") -> Reducer:
        """The round ended (:meth:`apply`, however it ended) with flags open: each is dismissed, said (``flag_resolved``
        with ``round_ended``), its violation dismissed and its play never applied: a read of a round over is no play of
        the next, and a new round does not start paused on the old one's flags. ``ended="game"``: the same for a game a
        ruling ended while flags were open (San Da Yi: a second foul, 报到 不打), said ``game_ended``, before the next."""
        why = Reject("table.game_ended_unjudged" if ended == "game" else "table.round_ended_unjudged")
        t = self._waiting_dropped(why)  # reads of a round (a game) over: no play of the next
        for flag in self.flags:
            t = t._with(flags=tuple(f for f in t.flags if f.flag != flag.flag))
            t = t._event("flag_resolved", {"flag": flag.flag, "how": "dismiss", f"{ended}_ended": True})
            if flag.violation is not None:
                t = t._violation_of(flag, "dismissed")
        return t

    def _waiting_dropped(self, why: Reject, seat: str | None = None) -> Reducer:
        """The waiting reads (``seat``'s, or every one) thrown away, each said ``rejected`` with ``why`` (it was said in
        English only, with no reason a display could say in its language)."""
        t, kept = self, []
        for p in self.waiting:
            if seat is None or p["seat"] == seat:
                t = t._rejected(_topic(p), p, why)
            else:
                kept.append(p)
        return t._with(waiting=tuple(kept))

    def _violation_of(self, flag: Flag, status: str) -> Reducer:
        """The violation published with ``flag``, published again as ``status`` (confirmed or dismissed)."""
        v = flag.violation
        t, _ = self._violation(flag.seat, v["kind"], v["rule"]["article"], v["penalty"], v["evidence"], status, flag.flag)
        return t

    def _counted(self, flag: Flag) -> Reducer:
        """A flagged violation was confirmed: what it costs under the game."""
        return self

    # -- buttons ---------------------------------------------------------------------------------------
    def _button(self, p: dict) -> Reducer:
        seat, button = p["seat"], p["button"]
        if button == "confirm":
            mine = [f for f in self.flags if f.seat == seat and f.kind not in REFEREE_ONLY and not f.choices]  # a referee
            # answers a flag with choices (what a seat said aloud)
            if not mine:
                raise Reject("table.no_flag_for", seat=seat)
            return self._resolve(mine[0], "confirm")
        if self.phase == "arriving" and button == "ready":
            return self._arrive(seat)
        if button == "referee":
            return self._referee_called(seat)
        return self._game_button(seat, button)

    def _referee_called(self, seat: str) -> Reducer:
        """A seat called the referee: told, and where the book says play stops (``[clock] call_holds``) a flag that
        holds the table until a person answers it (one per seat at a time: pressing again adds nothing)."""
        t = self._event("referee_called", {"seat": seat})
        if not self.rules.clock.call_holds or self.phase in ("idle", "round_over"):
            return t
        if any(f.kind == "referee_called" and f.seat == seat for f in self.flags):
            return t
        return t._flag(seat, "referee_called", Cards(), Reason("table.referee_called", seat=seat), None)

    def _game_button(self, seat: str, button: str) -> Reducer:
        raise self._meaningless(seat, button)

    def _meaningless(self, seat: str, button: str) -> Reject:
        return Reject("table.button_meaningless", seat=seat, button=button, phase=self.phase)

    def _arrive(self, seat: str) -> Reducer:
        """``seat`` is at the table (its side's lateness was ruled by time, up to now, before this)."""
        if seat in self.ready:
            raise Reject("table.already_seated", seat=seat)
        minutes = minutes_late(self.late_from, self.late_stopped if self.late_stopped is not None else self.at)
        t = self._with(ready=self.ready + (seat,))._event("ready", {"seat": seat, "minutes_late": minutes_told(minutes) if minutes > GRACE_MIN else 0.0})
        if len(t.ready) == 4 and t.phase == "arriving":
            t = t._all_ready()
        return t

    def _lateness(self) -> Reducer:
        """Each side not yet seated, late as of now: the band it has reached, ruled when it is a new
        one (one violation per side, published again with the later band); sides whose lateness
        forfeits the round lose it. Nothing while the board is down (:attr:`late_stopped`)."""
        if self.late_stopped is not None:
            return self
        minutes = minutes_late(self.late_from, self.at)
        late = late_penalty(self.rules, minutes if minutes > GRACE_MIN else 0.0)
        t = self
        for team in TEAMS:
            absent = [s for s in team if s not in t.ready]
            ruled = next((x for x in t.late if x[0] == team), None)
            if not absent or late.kind == "none" or (ruled and ruled[1].key == late.key):
                continue
            penalty = {"warning": late.kind == "warning", "points": late.points, "text": late.kind}
            penalty |= {"forfeit": {"forfeit_hand": "hand", "forfeit_round": "round"}[late.kind]} if late.kind.startswith("forfeit") else {}
            evidence = {"seconds": round(minutes * 60, 3), "limit": round(60 * max(late.band[0], GRACE_MIN), 3), "seats": absent}
            article = late.rule.article if late.rule else "late"
            t, v = t._violation(absent[0], "late_arrival", article, penalty, evidence, "confirmed", ruled[2] if ruled else None)
            t = t._with(late=tuple(x for x in t.late if x[0] != team) + ((team, late, v["flag"]),))
        forfeits = [team for team, lp, _ in t.late if lp.kind == "forfeit_round"]
        return t._round_lost(forfeits, "late", {"minutes": minutes_told(minutes)}) if forfeits else t

    def _round_lost(self, teams: list[str], by: str, more: dict | None = None) -> Reducer:
        """``teams`` lose the round at once (``by``: ``late``, with the ``minutes`` late, or ``fouls``):
        one side (``game_won`` for the other), or both (``round_forfeited``: nobody wins it)."""
        t = self._with(phase="round_over", clock=None)
        if len(teams) == 2:
            return t._event("round_forfeited", {"teams": list(teams), "by": by} | (more or {}))
        (team,) = teams
        return t._event("game_won", {"team": next(x for x in TEAMS if x != team), "by": by, "loser": team} | (more or {}))

    def _late_deadline(self) -> float | None:
        """While a side is not seated: the next minute at which a later late band applies."""
        if self.phase != "arriving" or self.late_from is None or self.late_stopped is not None or all(s in self.ready for s in SEATS):
            return None
        bounds = (self.late_from + 60 * max(b.above, GRACE_MIN) for b in self.limits.late_bands)
        return min((d for d in bounds if d >= self.at), default=None)

    def _all_ready(self) -> Reducer:
        raise NotImplementedError

    # -- what the camera saw ---------------------------------------------------------------------------
    def _observed(self, p: dict) -> Reducer:
        seat, cards = p["seat"], Cards.parse(p["cards"])  # a CardError is a reason too: rejected
        t = self._idle_answered(self._shown_answers(seat))  # the seat the table waited on shows its cards (a tribute, its kitty)
        if t.flags or t.waiting:  # judged once the referee resolved every flag, in the order they came
            t = t._with(waiting=t.waiting + (p,))
            return t._event("play_waits", {"seat": seat, "cards": cards.names(), "flag": t.flags[0].flag if t.flags else None})
        return t._resume_clock()._read(p)

    def _shown_answers(self, seat: str) -> str | None:
        """Whose ``idle`` flag cards ``seat`` shows answer: its own (None: every one, a game's wait on all seats)."""
        return seat

    def _read(self, p: dict) -> Reducer:
        """A read judged now: unsure, flagged; else what the cards are at this table (:meth:`_seen`)."""
        seat, cards = p["seat"], Cards.parse(p["cards"])
        if p.get("confidence", 1.0) < CONFIDENT:
            return self._flag(seat, "unsure", cards, Reason("table.unsure", confidence=round(p["confidence"], 2)), p)
        return self._seen(seat, cards, p)

    def _removed(self, p: dict) -> Reducer:
        """Cards face up in front of ``seat`` left the table: ignored while a flag is open (the trick may be complete
        once the referee confirms its last play; the referee is there), else judged now (:meth:`_picked_up`); but the
        cards a flag asks about as the seat's play, lying there (``laid_*``: :meth:`_lying_asked`), all picked up in a
        sure read, answer it: they are not its play, dismissed, said, and the table waits for its new play."""
        cards = Cards.parse(p["cards"])  # a CardError is a reason too: rejected
        ask = next((f for f in self.flags if f.kind in LYING_ASKED and f.seat == p["seat"]), None)
        if ask is not None and p["confidence"] >= CONFIDENT and cards.contains(Cards.parse(ask.cards)):
            t = self._with(lying=self._lifted(ask.seat, cards)[0])
            return t._event("picked_up", {"seat": ask.seat, "cards": cards.names()})._resolve(ask, "dismiss")
        return self if self.flags else self._picked_up(p)

    def _picked_up(self, p: dict) -> Reducer:
        """A pickup judged now: normal once its trick is complete; before every seat has played, an early pickup
        (牌一经触桌，不得收回), flagged for the referee. An unsure read of an early pickup is flagged ``unsure_pickup``
        with no violation: it may be a play read or laid wrongly and taken back, which the table would otherwise hold
        as played with nobody told; a person confirms it (judged again as sure) or dismisses it. An unsure read of
        anything else (a trick's cards cleared, cards that never lay there) changes nothing and is not flagged. Of a sure
        read, the cards lying there (:attr:`lying`: not played) are simply taken back, and only the others are judged so."""
        seat, cards = p["seat"], Cards.parse(p["cards"])
        lying, rest = self._lifted(seat, cards) if p["confidence"] >= CONFIDENT else (self.lying, cards)
        t = self._with(lying=lying)
        where = self._pickup(seat, rest) if len(rest) else "cleared"
        if where == "untracked":  # a game whose reducer does not follow what lies on the table
            return t
        if p["confidence"] < CONFIDENT:
            if where != "early":
                return self
            why = Reason("table.unsure_pickup", seat=seat, cards=cards, confidence=round(p["confidence"], 2))
            return self._flag(seat, "unsure_pickup", cards, why, p)
        if where == "cleared":
            return t._event("picked_up", {"seat": seat, "cards": cards.names()})
        if where != "early":
            raise Reject("table.not_on_table", seat=seat, cards=rest)
        return t._flag(seat, "early_pickup", rest, Reason("table.early_pickup", seat=seat, cards=rest),
                       None, "牌一经触桌，不得收回（一圈未完即收牌）", {})

    def _lifted(self, seat: str, cards: Cards) -> tuple[tuple[Lying, ...], Cards]:
        """:attr:`lying` once ``seat`` picked up ``cards``, and those of them that did not lie there: the cards it left
        there still lie there (asked about at its turn, where not asked yet)."""
        out, left = [], cards.names()
        for x in self.lying:
            kept = list(x.cards)
            for c in x.cards if x.seat == seat else ():
                if c in left:  # each card lifted once (three decks: a card may lie twice)
                    left.remove(c)
                    kept.remove(c)
            out += [replace(x, cards=tuple(kept))] if kept else []
        return tuple(out), Cards.parse(left)

    def _pickup(self, seat: str, cards: Cards) -> str:
        """Where ``seat``'s picked-up ``cards`` lay: ``cleared`` (a complete trick), ``early`` (a
        trick not every seat has played to), ``nowhere``, or ``untracked`` (the game's reducer does
        not follow what lies on the table)."""
        return "untracked"

    def _seen(self, seat: str, cards: Cards, p: dict) -> Reducer:
        raise NotImplementedError

    def _flag(self, seat: str, kind: str, cards: Cards, why: Reason, pending: dict | None, article: str = "", penalty: dict | None = None,
              choices: tuple[tuple[tuple[str, ...], ...], ...] = (), choice_words: tuple[Reason, ...] = ()) -> Reducer:
        """Raise a flag for a person. Its id is the log entry that raised it (``f{seq}``, ``f{seq}-2`` for a second of
        one entry): an amendment rebuilds the table from the log, and the console's ``confirm`` and ``dismiss`` in it
        must name the same flags again (a running count renumbered them, and a stale ``confirm`` landed on another)."""
        t = self._with(flag_count=self.flag_count + 1)
        raised = 1 + sum(o.name == "events" and o.payload["kind"] == "flag_raised" for o in self._events)
        flag_id = f"f{self.seq}" if raised == 1 else f"f{self.seq}-{raised}"
        violation = None
        if article:
            evidence = {"cards": cards.names(), "hand": t.hand_no, "trick": t._trick_no()}
            t, violation = t._violation(seat, kind, article, penalty or {}, evidence, "flagged", flag_id)
        flag = Flag(flag_id, seat, kind, t.at, tuple(cards.names()), why, pending, violation, choices, choice_words)
        t = t._with(flags=t.flags + (flag,))._pause_clocks()
        data = {"flag": flag_id, "seat": seat, "kind": kind, "cards": cards.names(), "text": flag.text, "why": why.json()}
        return t._event("flag_raised", data | {k: v for k, v in flag.json().items() if k in ("choices", "choice_words")})

    def _pause_clocks(self) -> Reducer:
        return self._each_clock(ShotClock.paused)

    def _resume_clock(self) -> Reducer:
        return self if self.flags or self.down else self._each_clock(ShotClock.resumed)

    def _each_clock(self, how) -> Reducer:
        """The shot clock and the :attr:`watch` as ``how`` leaves them at ``self.at`` (paused, resumed): the same table
        where neither changed."""
        clock, watch = (how(c, self.at) if c is not None else None for c in (self.clock, self.watch))
        return self._with(clock=clock, watch=watch) if clock is not self.clock or watch is not self.watch else self

    def _out_of_turn(self, seat: str, cards: Cards, expected: str | None) -> Reducer:
        """Cards face up from a seat not on turn, flagged for the referee (never played): 越序出牌
        when they could be that seat's next play, else 暴露张 (shown or dropped face up)."""
        if not self._could_be_play(seat, cards):
            return self._exposed(seat, cards, Reason("table.shown_off_turn", seat=seat, n=len(cards), expected=expected), None)
        article, penalty = self._out_of_turn_rule(cards)
        return self._flag(seat, "out_of_turn", cards, Reason("table.out_of_turn", seat=seat, expected=expected), None, article, penalty)

    def _exposed(self, seat: str, cards: Cards, why: Reason, pending: dict | None, article: str = "暴露张") -> Reducer:
        """暴露张: cards face up that are no play (the book's ``exposed_card`` penalty, per card where
        it says so), flagged for the referee, citing ``article``; ``pending`` lets the referee correct it into a play."""
        entry = self.rules.penalty("exposed_card")
        penalty = {"points": entry.points_for(len(cards))} if entry else {}
        return self._flag(seat, "exposed_card", cards, why, pending, article, penalty)

    def _could_be_play(self, seat: str, cards: Cards) -> bool:
        """Whether these cards, shown by a seat not on turn or lying in front of the seat on turn, could be its next play
        (by their count)."""
        return True

    def _out_of_turn_rule(self, cards: Cards) -> tuple[str, dict]:
        """The article and penalty of ``cards`` played out of turn under the book."""
        return "越序出牌", {}

    def _lying_asked(self) -> Reducer:
        """The seat on turn has cards lying in front of it that the camera sent already (:attr:`lying`): shown out of turn
        (001 二十二: 过早地将牌亮在桌上; 003 13: 牌一经触桌，不得收回), or its follow of a Tractor throw taken back (001 十九:
        甩牌不成立). The camera sends a card once, so it never reads them again, nor a play made of some of them, and the
        seat's clock would run on a play that lies there (an overrun, a turn given up, ``stalled``). Asked at once, the
        clocks paused, no violation (``laid_out_of_turn``, ``laid_taken_back``): confirmed, they are its play (refused
        where their count cannot be: :meth:`_resolve`); corrected, the cards it plays; dismissed, the table waits for a
        new read. Asked whatever their count (decided: a play of some of them is never read either, and waiting means a
        clock the seat cannot beat), in the trick they lie in, once: its turn asks about all it has lying there (a
        Guandan seat that sits out that turn, 002 十一 3, is not asked); not where a read of the seat waits behind a flag
        (the camera saw its new play). A game calls it as each turn starts (``tractor._turn_over``,
        ``climbing._start_clock``)."""
        seat = self.turn()
        if not any(x.seat == seat and x.kind for x in self.lying):
            return self
        here = [x for x in self.lying if x.seat == seat and x.kind and x.where == self._trick_at()]
        t = self._with(lying=self._asked(seat))
        if not here or any(p["seat"] == seat for p in self.waiting):
            return t
        cards, back = Cards.parse([c for x in here for c in x.cards]), here[-1].kind == "laid_taken_back"
        if not self._lying_playable(seat, cards):
            return t
        pending = {"id": None, "seat": seat, "cards": cards.names(), "confidence": 1.0}
        why = Reason("table.laid_taken_back" if back else "table.laid_out_of_turn", seat=seat, cards=cards)
        return t._flag(seat, "laid_taken_back" if back else "laid_out_of_turn", cards, why, pending)

    def _lying_playable(self, seat: str, cards: Cards) -> bool:
        """Whether cards lying in front of ``seat`` may be its play now, so its turn asks about them (:meth:`_lying_asked`);
        a game whose rules refuse them then says no (the seat plays other cards, which are seen)."""
        return True

    def _asked(self, seat: str) -> tuple[Lying, ...]:
        """:attr:`lying` once ``seat``'s turn asked about its cards there: they lie there still, never asked again."""
        return tuple(replace(x, kind=None) if x.seat == seat else x for x in self.lying)

    def _trick_at(self) -> tuple[int, int]:
        """The hand and trick in play (cards shown before a hand's first lead are its first trick's)."""
        return self.hand_no, self._trick_no() or 1

    # -- outputs ---------------------------------------------------------------------------------------
    def _trick_no(self) -> int:
        return 0

    def turn(self) -> str | None:
        return None

    def cards_left(self) -> dict[str, int]:
        return dict.fromkeys(SEATS, 0)

    def _told(self, n: int) -> int:
        """A seat's ``n`` cards left as its display shows them (``board/out``): every count, unless the game's book
        keeps some from the players (:data:`UNTOLD`)."""
        return n

    def _teams(self) -> list[dict]:
        raise NotImplementedError

    def _trump(self) -> dict | None:
        return None

    def _current_trick(self) -> dict | None:
        return None

    def _clocks(self, at: float) -> dict:
        """Each seat's clock in ``state``: the running shot clock's seat shows its seconds left."""
        clocks = {s: {"left": None, "running": False} for s in SEATS}
        if self.clock is not None and self.clock.limit != float("inf"):
            clocks[self.clock.seat] = {"left": round(self.clock.left(max(at, self.clock.last)), 3), "running": self.clock.running}
        return clocks

    def state(self, at: float) -> dict:
        t = self._view(at)
        rc = t.round_clock()
        timed = rc is not None and rc.timed
        return {
            "v": 1, "seq": t.seq, "at": at, "rulebook": t.rulebook, "phase": t.phase,
            "paused": t.on_hold, "players": dict(t.players), "teams": t._teams(),
            "dealer": t.dealer, "trump": t._trump(),
            "hand": t.hand_no, "trick": t._trick_no(), "turn": t.turn(), "current_trick": t._current_trick(),
            "cards": t.cards_left(), "clocks": t._clocks(at),
            "round": {"started_at": t.round_start, "left": round(rc.left(at), 3) if timed else None,
                      "notice": bool(timed and rc.notice_due(at)), "last_hand": t.last_hand or bool(timed and rc.last_hand(at))},
            "flags": [f.json() for f in t.flags],
        }  # fmt: skip

    def _view(self, at: float) -> Reducer:
        """The table as ``state`` shows it at ``at`` (with what time decided since the last input)."""
        return self._with(at=max(self.at, at))._by_time()

    def board(self, at: float, state: dict | None = None) -> dict:
        """The ``board/out`` payload (from ``state`` when the caller has it already)."""
        state = state or self.state(at)
        flagged = {f.seat for f in self.flags}
        notices = dict(self.notices)
        seats = {}
        for s in SEATS:
            on_turn = state["turn"] == s
            light = "amber" if s in flagged else "red" if s in notices else "green" if on_turn else "off"
            seats[s] = {"clock": state["clocks"][s]["left"], "on_turn": on_turn, "cards": self._told(state["cards"][s]), "light": light}
            if s in notices:
                seats[s]["message"] = notices[s]
        return {"v": 1, "at": at, "paused": self.on_hold, "seats": seats}

    def next_deadline(self, after: float | None = None) -> float | None:
        """The next moment (after ``after``, when given) at which time changes the table: a running
        clock runs out, a late band applies, the round's notice or its end comes."""
        found = [d for d in self._deadlines() if d is not None and (after is None or d > after)]
        return min(found, default=None)

    def _deadlines(self) -> list[float | None]:
        rc = self.round_clock()
        timed = rc is not None and rc.timed and self.phase not in ("idle", "round_over")
        coming = [rc.notice_at, rc.ends_at] if timed else []
        return [self.clock.deadline() if self.clock is not None else None, self._late_deadline(), self._stall_at()] + \
            [d for d in coming if d >= self.at]


# Events by which a seat takes its turn: its display's violation notice has been seen by then.
_TURN_TAKEN = frozenset({"play_accepted", "passed"})


def notice_text(kind: str, penalty: dict, status: str) -> str:
    """The seat display's words for a violation (Chinese, the catalogue's ``board.*``; the display has 32 characters).

    >>> notice_text("overtime", {"warning": True, "points": 0}, "confirmed")
    '超时 警告'
    >>> notice_text("out_of_turn", {"points": 20}, "flagged")
    '越序出牌 罚20分 待裁判确认'
    >>> notice_text("wrong_card_count", {}, "confirmed")
    '牌数不符'
    """
    words = [kind_name(kind, "board")]
    if penalty.get("warning"):
        words.append(say("zh", "board.warning"))
    elif penalty.get("points"):
        words.append(say("zh", "board.points", n=penalty["points"]))
    if penalty.get("forfeit"):
        words.append(say("zh", f"board.forfeit_{penalty['forfeit']}"))
    if status == "flagged":
        words.append(say("zh", "board.flagged"))
    return " ".join(words)[:32]


@cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(cls))


def _topic(p: dict) -> str:
    """The input topic of a waiting input: a camera's read, or a climbing game's ``pass`` button."""
    return "board/in" if "button" in p else "observed"


@cache
def _limits(rulebook: str) -> ClockLimits:
    return limits(load(rulebook))


@lru_cache(maxsize=64)
def _round_clock(rulebook: str, start: float) -> RoundClock:
    return RoundClock.of(load(rulebook), start)


class Reject(Refused):
    """An input that changes nothing (a reason ``table.*``); answered with a ``rejected`` event."""


__all__ = ["CLOCK", "DEVICES", "DOWN", "PRESENCE", "PRESENCE_EVENTS", "CONFIDENT", "GRACE_MIN", "Flag", "Lying", "Output", "Reducer"]
