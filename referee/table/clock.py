"""The table's clocks as values: each play's shot clock, late arrival, and the round clock.

Pure: every function is given the time (``at``, ``now``: seconds on whatever single clock the
caller uses, such as the times in the event log); nothing here reads the wall clock or sleeps.
The limits and what an overrun costs are rulebook data, the ``[clock]`` section with the
``[penalties]`` entries it names (``referee/rulebooks/README.md``, "## Clocks"). Every ruling
carries its evidence (the seconds measured, the limit) and its :class:`Rule` (book and article).

>>> L = limits(load("classic-3deck"))
>>> L.limit("kitty_and_first_lead"), L.limit("lead"), L.limit("follow")
(60.0, 15.0, 10.0)
>>> c = ShotClock.start("E", "lead", 100.0, L)
>>> c.left(110.0), c.paused(110.0).resumed(150.0).left(151.0)
(5.0, 4.0)
>>> o = c.stop(117.5)
>>> o.seat, o.action, o.limit, o.used, o.over
('E', 'lead', 15.0, 17.5, 2.5)
>>> record, verdict = ClockRecord().judge(L, o)
>>> verdict.outcome, record.judge(L, o)[1].outcome, record.judge(L, o)[1].penalty
('warning', 'points', Penalty(kind='clock', seat='E', cards=1, points=0))
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from referee.rulebooks import Book, load  # noqa: F401 (load: doctests)
from referee.rulebooks.book import ACTIONS, LEADS, OUTCOMES, PenaltyEntry, on_grid  # noqa: F401 (the clock's words, typed by the schema)
from referee.seats import check_seat, team_of
from referee.tractor.game import Penalty

#: What an overrun costs (``OUTCOMES``, ``[clock] overrun``): ``none`` (logged only), ``penalty`` (the
#: ``clock`` penalty entry: warnings, then points), ``pass`` (the turn is given up: a follower passes, a
#: leader's lead goes to the next seat; climbing games only), ``foul`` (a foul to the side).
LATE_KINDS = ("none", "warning", "points", "forfeit_hand", "forfeit_round")


@dataclass(frozen=True)
class Rule:
    """Where a ruling comes from: the rulebook, its seed, and the article (quoted in the book)."""

    book: str
    seed: str
    article: str

    def __str__(self) -> str:
        return f"{self.book} ({self.seed}) {self.article}"


@dataclass(frozen=True)
class LateBand:
    """Lateness above ``above`` minutes and up to ``upto`` (inclusive) costs the ``key`` entry."""

    above: float
    upto: float
    key: str
    entry: PenaltyEntry


@dataclass(frozen=True)
class ClockLimits:
    """A rulebook's clocks, read once by :func:`limits`. ``seconds``: the limit of each timed
    action (an action not in it is untimed); ``outcomes``: what an overrun of each timed action
    costs."""

    book: str
    seed: str
    seconds: Mapping[str, float] = field(default_factory=dict)
    outcomes: Mapping[str, str] = field(default_factory=dict)
    long_think_s: float = 0
    warnings: int = 0
    points: int = 0
    warnings_per: str = "round"
    fouls_lose_round: int = 0
    late_bands: tuple[LateBand, ...] = ()
    round_s: float = 0
    round_notice_s: float = 0
    round_cut: str = "none"
    articles: Mapping[str, str] = field(default_factory=dict)

    @property
    def timed(self) -> bool:
        """Whether the book has a per-play clock at all."""
        return bool(self.seconds)

    def limit(self, action: str) -> float | None:
        """Seconds allowed for ``action``; None when the book does not time it."""
        if action not in ACTIONS:
            raise ValueError(f"unknown action {action!r}; actions are {' '.join(ACTIONS)}")
        return self.seconds.get(action)

    def outcome(self, action: str) -> str:
        self.limit(action)
        return self.outcomes.get(action, "none")

    def rule(self, topic: str) -> Rule:
        """The article for ``topic`` (``play``, ``return``, ``fouls``, ``late``, ``round``)."""
        return Rule(self.book, self.seed, self.articles.get(topic, f"[clock] ({topic})"))


def limits(rules: Book) -> ClockLimits:
    """The clocks of a rulebook (Tractor or climbing), checked when the book loaded.

    A book with no per-play clock gives limits with no timed action, so its clocks never overrun.
    """
    c = rules.clock
    seconds = c.timed()
    outcomes = {action: c.outcome(action) for action in seconds}
    clock = rules.penalty("clock") if "penalty" in outcomes.values() else None
    bands, above = [], 0.0
    for upto, key in c.late_bands:
        bands.append(LateBand(above, upto, key, rules.penalty(key)))
        above = upto
    return ClockLimits(
        book=rules.id,
        seed=rules.seed,
        seconds=seconds,
        outcomes=MappingProxyType(outcomes),
        long_think_s=c.long_think_s,
        warnings=clock.warnings if clock else 0,
        points=clock.points if clock else 0,
        warnings_per=c.warnings_per,
        fouls_lose_round=c.fouls_lose_round,
        late_bands=tuple(bands),
        round_s=c.round_s,
        round_notice_s=c.round_notice_s,
        round_cut=c.round_cut,
        articles=c.articles,
    )


# ---- the shot clock ----


@dataclass(frozen=True)
class Overrun:
    """A play that took longer than its limit: the evidence of a clock violation."""

    seat: str
    action: str
    limit: float  # seconds allowed for this play (the long think's, when this play took it)
    used: float  # seconds the seat's clock ran, pauses excluded
    rule: Rule
    long_think: bool = False  # this play took the seat's long think

    @property
    def over(self) -> float:
        """Seconds past the limit."""
        return self.used - self.limit


@dataclass(frozen=True)
class ShotClock:
    """One seat's clock for one action. It runs from ``start`` and stops counting while
    :meth:`paused` (a hand waiting for a person); the limit is inclusive: a play at exactly the
    limit is in time. With ``long_think_s`` above ``limit`` the seat may still take its long think:
    the play may then last ``long_think_s`` in all (:attr:`allowed`)."""

    seat: str
    action: str
    limit: float  # math.inf: untimed
    started: float
    running_since: float | None  # None while paused
    rule: Rule
    long_think_s: float = 0
    counted: float = 0  # seconds counted up to the last pause
    last: float = 0  # the latest time seen: time never runs back
    ruled: bool = False  # its overrun was ruled already: it has no deadline left

    @staticmethod
    def start(seat: str, action: str, at: float, limits: ClockLimits, *, long_think: bool = False) -> ShotClock:
        """The clock of ``seat`` starting ``action`` at ``at``. ``long_think``: the seat has its
        long think left (see :meth:`ClockRecord.start`, which knows)."""
        check_seat(seat)
        limit = limits.limit(action)
        topic = "return" if action == "return" else "play"
        think = limits.long_think_s if long_think and limit is not None and action != "return" else 0
        return ShotClock(seat, action, math.inf if limit is None else limit, at, at, limits.rule(topic), think, 0.0, at)

    def _check(self, t: float) -> None:
        if t < self.last:
            raise ValueError(f"time runs forward: {t} is before {self.last}")

    @property
    def running(self) -> bool:
        return self.running_since is not None

    @property
    def allowed(self) -> float:
        """Seconds this play may take: the limit, or the long think when the seat still has it."""
        return max(self.limit, self.long_think_s)

    def used(self, now: float) -> float:
        """Seconds counted so far (pauses excluded)."""
        self._check(now)
        return on_grid(self.counted + (now - self.running_since if self.running_since is not None else 0.0))

    def paused(self, at: float) -> ShotClock:
        """The clock stopped at ``at`` while the table waits for a person (no change when paused)."""
        if self.running_since is None:
            self._check(at)
            return self
        return replace(self, counted=self.used(at), running_since=None, last=at)

    def resumed(self, at: float) -> ShotClock:
        """The clock running again from ``at`` (no change when running)."""
        self._check(at)
        if self.running_since is not None:
            return self
        return replace(self, running_since=at, last=at)

    def left(self, now: float) -> float:
        """Seconds left (0 once out; ``math.inf`` untimed)."""
        return max(0.0, self.allowed - self.used(now))

    def overrun(self, now: float) -> float:
        """Seconds past the limit (0 while in time)."""
        return max(0.0, self.used(now) - self.allowed)

    def spent(self) -> ShotClock:
        """The clock once its overrun is ruled: it shows 0 and runs out no more (one ruling per play)."""
        return replace(self, ruled=True)

    def _ends(self) -> float | None:
        """When the clock runs out if it keeps running (on the grid); None while paused or untimed."""
        if self.running_since is None or math.isinf(self.allowed):
            return None
        return on_grid(self.running_since + (self.allowed - self.counted))

    def deadline(self) -> float | None:
        """When the clock runs out if it keeps running; None while paused, untimed or spent. A play
        after this time (not at it) is an overrun: a service may rule at the first moment past it."""
        return None if self.ruled else self._ends()

    def takes_long_think(self, now: float) -> bool:
        """Whether the play, stopped at ``now``, took the seat's long think (went past the plain limit)."""
        return self.long_think_s > self.limit and self.used(now) > self.limit

    def stop(self, at: float) -> Overrun | None:
        """The play made at ``at``: the overrun, with its evidence, or None when in time. A running clock overruns
        exactly when ``at`` is past its deadline, as a service that rules at the deadline compares them."""
        used, ends = self.used(at), self._ends()
        if (at <= ends) if ends is not None else (used <= self.allowed):
            return None
        return Overrun(self.seat, self.action, self.allowed, used, self.rule, self.takes_long_think(at))


# ---- what an overrun costs, and what the round remembers ----


@dataclass(frozen=True)
class Foul:
    """A foul counted to the seat's side (seed 002 十 第3条 counts fouls of any kind)."""

    seat: str
    kind: str  # "clock" for an overrun; any other kind the referee records
    rule: Rule | None = None
    evidence: Overrun | None = None

    @property
    def team(self) -> str:
        return team_of(self.seat)


@dataclass(frozen=True)
class ClockVerdict:
    """What an overrun costs: ``warning``, ``points`` (with the Tractor :class:`Penalty` to give
    ``settle``), ``pass`` (the turn is forfeited as a pass), ``foul`` or ``none`` (logged only)."""

    overrun: Overrun
    outcome: str
    points: int = 0
    penalty: Penalty | None = None
    warnings_used: int = 0  # the seat's warnings after this ruling

    @property
    def rule(self) -> Rule:
        return self.overrun.rule

    @property
    def foul(self) -> Foul | None:
        """The foul to add to the round's :class:`FoulCount`, when the verdict is one."""
        return Foul(self.overrun.seat, "clock", self.rule, self.overrun) if self.outcome == "foul" else None

    def __str__(self) -> str:
        o = self.overrun
        cost = {"warning": "a warning", "points": f"{self.points} points", "pass": "the turn passes",
                "foul": "a foul", "none": "no penalty"}[self.outcome]
        return f"{o.seat} {o.action}: {o.used:.1f} s of {o.limit:g} s ({o.over:.1f} s over): {cost} [{self.rule}]"


@dataclass(frozen=True)
class ClockRecord:
    """What clock rulings remember over a round: the warnings each seat has had, and the seats
    that took their long think in the hand in play. Start one per round; call :meth:`next_hand`
    between hands."""

    warnings: tuple[tuple[str, int], ...] = ()
    long_thinks: frozenset[str] = frozenset()

    def warnings_of(self, seat: str) -> int:
        return dict(self.warnings).get(seat, 0)

    def long_think_left(self, limits: ClockLimits, seat: str) -> bool:
        return limits.long_think_s > 0 and seat not in self.long_thinks

    def start(self, limits: ClockLimits, seat: str, action: str, at: float) -> ShotClock:
        """The seat's clock, with its long think when it has one left."""
        return ShotClock.start(seat, action, at, limits, long_think=self.long_think_left(limits, seat))

    def stop(self, limits: ClockLimits, clock: ShotClock, at: float) -> tuple[ClockRecord, ClockVerdict | None]:
        """The play at ``at`` ends ``clock``: note a long think taken, and judge an overrun."""
        record = self
        if clock.takes_long_think(at):
            record = replace(record, long_thinks=record.long_thinks | {clock.seat})
        overrun = clock.stop(at)
        if overrun is None:
            return record, None
        return record.judge(limits, overrun)

    def judge(self, limits: ClockLimits, overrun: Overrun) -> tuple[ClockRecord, ClockVerdict]:
        """What ``overrun`` costs under the book, and the record after it."""
        outcome = limits.outcome(overrun.action)
        if outcome != "penalty":
            return self, ClockVerdict(overrun, outcome)
        seat = overrun.seat
        given = self.warnings_of(seat)
        if given < limits.warnings:
            counts = dict(self.warnings) | {seat: given + 1}
            record = replace(self, warnings=tuple(sorted(counts.items())))
            return record, ClockVerdict(overrun, "warning", warnings_used=given + 1)
        return self, ClockVerdict(overrun, "points", limits.points, Penalty("clock", seat), warnings_used=given)

    def next_hand(self, limits: ClockLimits) -> ClockRecord:
        """The record for the next hand: long thinks come back; warnings too when counted per hand."""
        return ClockRecord(() if limits.warnings_per == "hand" else self.warnings, frozenset())


@dataclass(frozen=True)
class FoulCount:
    """Fouls by each side in a round; ``limit`` fouls by one side lose it the round (0: never)."""

    limit: int = 0
    rule: Rule | None = None
    fouls: tuple[Foul, ...] = ()

    @staticmethod
    def of(limits: ClockLimits) -> FoulCount:
        return FoulCount(limits.fouls_lose_round, limits.rule("fouls"))

    def add(self, foul: Foul | None) -> FoulCount:
        return self if foul is None else replace(self, fouls=self.fouls + (foul,))

    def count(self, team: str) -> int:
        return sum(1 for f in self.fouls if f.team == team)

    @property
    def loser(self) -> str | None:
        """The side that lost the round by fouls: the first to reach the limit."""
        if not self.limit:
            return None
        seen: dict[str, int] = {}
        for f in self.fouls:
            seen[f.team] = seen.get(f.team, 0) + 1
            if seen[f.team] >= self.limit:
                return f.team
        return None


# ---- late arrival ----


@dataclass(frozen=True)
class LatePenalty:
    """What arriving ``minutes`` late costs: ``kind`` is ``none``, ``warning``, ``points``,
    ``forfeit_hand`` (the first hand; the opponents go up a level) or ``forfeit_round``."""

    book: str
    minutes: float
    kind: str
    key: str | None = None  # the penalty entry of the band
    points: int = 0
    band: tuple[float, float] | None = None  # (above, up to) minutes
    rule: Rule | None = None

    def penalty(self, seat: str) -> Penalty | None:
        """The Tractor :class:`Penalty` for the first hand's ``settle`` (points or the hand forfeited)."""
        return Penalty(self.key, seat) if self.kind in ("points", "forfeit_hand") else None


def minutes_late(start: float, ready_at: float) -> float:
    """Minutes from the round's start to a seat's ``ready`` (negative: early)."""
    return on_grid(ready_at - start) / 60.0


def minutes_told(minutes: float) -> float:
    """Minutes late as the table publishes them: to the hundredth, never below (a ruling made a quarter second after
    the 20th minute is past 20, and a tournament that reads 20.0 would take it for on the limit).

    >>> minutes_told(20.0 + 0.25 / 60), minutes_told(20.0), minutes_told(3.456)
    (20.01, 20.0, 3.46)
    """
    return math.ceil(round(minutes * 100, 6)) / 100


def late_penalty(rules: Book, minutes_late: float) -> LatePenalty:
    """The book's penalty for arriving ``minutes_late`` (a real number) after the round's start.

    Each band of ``late_bands`` holds lateness above the bound before it (0 for the first) and
    up to its own, inclusive: under seed 001 二 5:00 is a warning and 5:00.1 costs 20 points
    ("6–10分钟": a started minute counts). On time (0 or less), or a book without bands: ``none``.
    """
    if math.isnan(minutes_late):
        raise ValueError("minutes late is not a number")
    lim = limits(rules)
    for band in lim.late_bands:
        if band.above < minutes_late <= band.upto:
            e = band.entry
            kind = next((k for k in ("forfeit_round", "forfeit_hand") if getattr(e, k)), None)
            kind = kind or ("points" if e.points else "warning" if e.warning else "none")
            band_of = (band.above, band.upto)
            return LatePenalty(lim.book, minutes_late, kind, band.key, e.points, band_of, lim.rule("late"))
    return LatePenalty(lim.book, minutes_late, "none")


# ---- the round clock ----


@dataclass(frozen=True)
class RoundClock:
    """A round's time: ``length_s`` from ``start`` (0: untimed), with a notice ``notice_s`` before
    the end. From the notice on, the hand in play is the last: no hand starts after it. ``cut``:
    ``none``, the last hand is always finished (seeds 000, 001); ``undrawn``, at the end a hand
    whose cards are not all drawn stops, a drawn one is finished (seed 002)."""

    start: float
    length_s: float
    notice_s: float = 0
    cut: str = "none"
    rule: Rule | None = None

    @staticmethod
    def of(rules: Book, start: float) -> RoundClock:
        lim = limits(rules)
        return RoundClock(start, lim.round_s, lim.round_notice_s, lim.round_cut, lim.rule("round"))

    @property
    def timed(self) -> bool:
        return self.length_s > 0

    @property
    def notice_at(self) -> float:
        return on_grid(self.start + self.length_s - self.notice_s) if self.timed else math.inf

    @property
    def ends_at(self) -> float:
        return on_grid(self.start + self.length_s) if self.timed else math.inf

    def notice_due(self, now: float) -> bool:
        """Whether the notice is due (or given): at ``notice_at`` and after."""
        return now >= self.notice_at

    def last_hand(self, now: float) -> bool:
        """Whether the hand in play at ``now`` is the round's last (none starts after it)."""
        return self.notice_due(now)

    def over(self, now: float) -> bool:
        """Whether the round's time is up."""
        return now >= self.ends_at

    def stops(self, now: float, drawn: bool) -> bool:
        """Whether the hand in play stops unplayed at ``now`` (``drawn``: all its cards were drawn)."""
        return self.cut == "undrawn" and self.over(now) and not drawn

    def left(self, now: float) -> float:
        """Seconds to the end (0 once up; ``math.inf`` untimed)."""
        return max(0.0, self.ends_at - now)


__all__ = [
    "ACTIONS",
    "LEADS",
    "OUTCOMES",
    "ClockLimits",
    "ClockRecord",
    "ClockVerdict",
    "Foul",
    "FoulCount",
    "LateBand",
    "LatePenalty",
    "Overrun",
    "RoundClock",
    "Rule",
    "ShotClock",
    "late_penalty",
    "limits",
    "minutes_late",
]
