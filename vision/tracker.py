"""The play tracker over a live stream (pure: state in, state and plays out; time is the frame's ``at``).

A seat's new cards are emitted once its view (the cards and where they lie) has been still for ``settle_s`` with
nothing over the seat (a hand or sleeve: ``busy``). Only cards not yet emitted this trick are emitted, so a hand
passing over a play never emits it twice. A seat whose area has been empty (and uncovered) for ``settle_s`` after
its play has picked its cards up: a :class:`Removal` waits in ``removals`` for the caller (:func:`drain`; the table
service's ``removed`` input, an early pickup when the trick was not complete). Only a wholly empty area counts, so
a corner the model misses never reads as a pickup. A table empty for ``settle_s`` ends the trick: its cards have
left the table; empty for ``hand_gap_s`` ends the hand. Every play is checked by :mod:`vision.sanity`.

>>> from vision.read import SeenCard
>>> t = Tracker(settle_s=0.5)
>>> sa = SeenCard("SA", 0.99, (0.5, 0.8), "S")
>>> t, plays = step(t, [sa], {}, at=0.0)
>>> t, plays = step(t, [sa], {}, at=0.6)
>>> plays
(Play(seat='S', cards=('SA',), confidence=0.99, at=0.6, reasons=()),)
>>> t, plays = step(t, [sa], {}, at=1.5)
>>> plays
()
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace

from vision.geometry import SEATS
from vision.read import SeenCard
from vision.sanity import FLAGGED_CONFIDENCE, check

MOVE = 0.012  # a card that moved more than this (table units, ~9 mm) is not still


@dataclass(frozen=True)
class Play:
    seat: str
    cards: tuple[str, ...]
    confidence: float
    at: float
    reasons: tuple[str, ...] = ()  # why a person must look (empty: none)


@dataclass(frozen=True)
class Removal:
    """A seat's played cards left the table (picked up) at ``at``."""

    seat: str
    cards: tuple[str, ...]
    at: float


@dataclass(frozen=True)
class SeatState:
    anchor: tuple[SeenCard, ...] = ()  # the view that has been still since ``since``
    since: float | None = None
    emitted: tuple[str, ...] = ()  # cards of this seat emitted this trick


@dataclass(frozen=True)
class Tracker:
    settle_s: float = 0.8
    hand_gap_s: float = 30.0
    decks: int = 3
    seats: dict = field(default_factory=lambda: {s: SeatState() for s in SEATS})
    lead_size: int | None = None  # cards in the first play of this trick
    left: tuple[str, ...] = ()  # cards of this hand's earlier tricks
    empty_since: float | None = None
    removals: tuple[Removal, ...] = ()  # seen, not yet taken by the caller (``drain``)


def same_view(a: tuple[SeenCard, ...], b: tuple[SeenCard, ...]) -> bool:
    """The same cards, each within ``MOVE`` of where it was."""
    if sorted(c.name for c in a) != sorted(c.name for c in b):
        return False
    free = list(b)
    for c in a:
        match = next((o for o in free if o.name == c.name and math.dist(o.centre, c.centre) <= MOVE), None)
        if match is None:
            return False
        free.remove(match)
    return True


def step(t: Tracker, cards: list[SeenCard], busy: dict[str, bool], at: float) -> tuple[Tracker, tuple[Play, ...]]:
    """One calibrated reading (``cards`` with seats, ``busy`` seats with something over them) at time ``at``."""
    plays = []
    seats = dict(t.seats)
    on_table = Counter(c.name for c in cards)
    lead_size, left = t.lead_size, Counter(t.left)
    removals, gone_now = list(t.removals), []
    for seat in SEATS:
        view = tuple(c for c in cards if c.seat == seat)
        s = seats[seat]
        if busy.get(seat) or not same_view(view, s.anchor) or s.since is None:
            seats[seat] = replace(s, anchor=view, since=None if busy.get(seat) else at)
            continue
        if not view and s.emitted and at - s.since >= t.settle_s:  # picked up
            removals.append(Removal(seat, tuple(sorted(s.emitted)), at))
            gone_now += s.emitted
            seats[seat] = replace(s, emitted=())
            continue
        new = Counter(c.name for c in view) - Counter(s.emitted)
        if not new or at - s.since < t.settle_s:
            continue
        fresh = tuple(sorted(new.elements()))
        picked = _pick(view, new)
        conf = min(c.confidence for c in picked)
        reasons = check(fresh, [c.confidence for c in picked], lead_size=lead_size, on_table=on_table, left=left,
                        decks=t.decks, conflicts=tuple(c.name for c in picked if c.conflict))
        if s.emitted:
            reasons += ("cards added after the seat's play",)
        plays.append(Play(seat, fresh, round(min(conf, FLAGGED_CONFIDENCE) if reasons else conf, 3), at, reasons))
        lead_size = lead_size if lead_size is not None else len(fresh)
        seats[seat] = replace(s, emitted=s.emitted + fresh)
    empty = not cards and not any(busy.values())
    empty_since = (t.empty_since if t.empty_since is not None else at) if empty else None
    out = replace(t, seats=seats, lead_size=lead_size, empty_since=empty_since, removals=tuple(removals),
                  left=t.left + tuple(gone_now))
    if empty_since is not None and at - empty_since >= t.settle_s and (lead_size is not None or gone_now):
        gone = tuple(c for s in seats.values() for c in s.emitted)
        out = replace(out, seats={k: replace(s, emitted=()) for k, s in seats.items()}, lead_size=None,
                      left=out.left + gone)
    if empty_since is not None and at - empty_since >= t.hand_gap_s and out.left:
        out = replace(out, left=())
    return out, tuple(plays)


def drain(t: Tracker) -> tuple[Tracker, tuple[Removal, ...]]:
    """The removals seen so far, and the tracker without them."""
    return replace(t, removals=()), t.removals


def _pick(view: tuple[SeenCard, ...], new: Counter) -> list[SeenCard]:
    """The seen cards that make up the new ones (the least sure copies, to be careful)."""
    need, out = Counter(new), []
    for c in sorted(view, key=lambda c: c.confidence):
        if need[c.name] > 0:
            need[c.name] -= 1
            out.append(c)
    return out
