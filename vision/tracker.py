"""The play tracker over a live stream (pure: state in, state and plays out; time is the frame's ``at``).

A seat's new cards are emitted once its view (the cards and where they lie) has been still for ``settle_s`` with
nothing over the seat (a hand or sleeve: ``busy``), dated when that stillness began: the moment the cards came to
rest with the hand gone, which the table's shot clock times (not ``settle_s`` later, when the camera is sure). Only cards not yet emitted this trick are emitted, so a hand
passing over a play never emits it twice; a card lying where an emitted card lay is that card, whatever it reads
as now (a card read ``CA`` once and ``SA`` later is not a second card), unless, in a climbing game (``again``), a
hand was over the seat since: a card read as another, or lying otherwise (``STILL``), is then one the seat laid on
its earlier card (its seats play again onto their own cards; a Tractor card a hand straightened is that card), flagged (``vision.on_top``) where it may be that card (the same
face, or an earlier read that was unsure). A seat whose area has been empty (and uncovered) for ``settle_s``
after its play has picked its cards up: a :class:`Removal` waits in ``removals`` for the caller (:func:`drain`;
the table service's ``removed`` input, an early pickup when the trick was not complete). Only a wholly empty area
counts, so a corner the model misses never reads as a pickup; and a removal is sure only when at least
``CLEAR_FRAMES`` frames, every frame of that time, showed the seat's play zone bare (``bare``: no card-white
there), else it is flagged (``vision.hidden``: glare, a shadow or a hand not marked may hide cards no longer
read). A table empty
for ``settle_s`` ends the trick: its cards have left the table; empty for ``hand_gap_s`` ends the hand. Every play
is checked by :mod:`vision.sanity`, and two things it cannot see are flagged for a person: a card read again where
the same card of the seat was picked up a moment before, the trick not taken (``vision.returned``: glare or a dark
frame hid a seat's only card long enough to look picked up, and then it was sent again as a new play), and the
cards a camera that keeps no state finds on the table when it starts (``vision.restarted``: it does not know what
it sent before, so it cannot tell a play made while it was away from one it sent already). A climbing game's tracker
(:func:`for_game`) takes a seat's next play in the trick, laid by a hand, as a play of any size.

What the camera cannot see it takes from the table's published ``state`` (:func:`told`, :class:`Told`): the table
may take plays back (a Tractor throw that fails, 甩牌不成立; a Guandan going-out play, 九 3 收回重出) or never hold them
(cards shown out of turn), and only its state says so. The lead's size is the table's lead of the trick in play once
the state shows it (else the first play of the seat the table has on turn), a seat's new cards are added to a play
only where the table holds one of it, and cards picked up count as gone for good (``left``, ``vision.returned``) only
where the table held them as played: a seat whose count the state shows going up got those cards back into its hand.
A tracker told no state (none is published yet) judges every play it sent as played.

>>> from vision.read import SeenCard
>>> t, _ = step(Tracker(settle_s=0.5), [], {}, at=-0.1)  # the camera starts on an empty table
>>> sa = SeenCard("SA", 0.99, (0.5, 0.8), "S")
>>> t, plays = step(t, [sa], {}, at=0.0)
>>> t, plays = step(t, [sa], {}, at=0.6)
>>> plays
(Play(seat='S', cards=('SA',), confidence=0.99, at=0.0, reasons=()),)
>>> t, plays = step(t, [sa], {}, at=1.5)
>>> plays
()
>>> for at in (2.0, 2.2, 2.4, 2.6):  # picked up: the frames show the seat's zone bare
...     t, _ = step(t, [], {}, at, bare={"S": True})
>>> drain(t)[1]
(Removal(seat='S', cards=('SA',), at=2.6, reasons=()),)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace

from referee.reasons import Reason
from vision.geometry import SEATS
from vision.read import SeenCard
from vision.sanity import FLAGGED_CONFIDENCE, SURE, check

MOVE = 0.012  # a card that moved more than this (table units, ~9 mm) is not still
SAME_PLACE = 0.02  # a card this near (table units, ~15 mm) to one already emitted is that card
STILL = 0.005  # a card this near (~4 mm; centres are read within ~2 mm) to where it lay has not been moved
CLEAR_FRAMES = 3  # frames of a pickup's settle time that must show the seat's zone bare for it to be sure
RETURN_S = 10.0  # the same card read again where its seat picked it up this soon, in the same trick: ``vision.returned``


@dataclass(frozen=True)
class Play:
    seat: str
    cards: tuple[str, ...]
    confidence: float
    at: float  # when the cards came to rest, the hand gone (the table times the play by it): settle_s before it is sent
    reasons: tuple[Reason, ...] = ()  # why a person must look (empty: none; ``vision.sanity``)


@dataclass(frozen=True)
class Removal:
    """A seat's played cards left the table (picked up) at ``at``."""

    seat: str
    cards: tuple[str, ...]
    at: float
    reasons: tuple[Reason, ...] = ()  # why a person must look (empty: the frames showed the table bare there)


@dataclass(frozen=True)
class SeatState:
    anchor: tuple[SeenCard, ...] = ()  # the view that has been still since ``since``
    since: float | None = None
    emitted: tuple[SeenCard, ...] = ()  # cards of this seat emitted this trick, as they were read then
    gone: tuple[tuple[SeenCard, float], ...] = ()  # cards this seat picked up lately, and when (``RETURN_S``)
    covered: bool = False  # a hand was over the seat since its view last settled
    held: tuple[str, ...] = ()  # cards lying here that the table's state showed as the seat's play (:func:`told`)
    frames: int = 0  # frames of the still view
    bare: int = 0  # of them, those that showed the seat's zone bare


@dataclass(frozen=True)
class Told:
    """What the table's latest ``state`` says: its hand and trick numbers, the seat on turn, each seat's play in the
    trick in play (the leader's first) and each seat's count of cards (a count kept from the players is above any);
    and which state it is (its ``seq`` and ``at``: :func:`told` takes no state older than the last)."""

    seq: int
    at: float
    hand: int
    trick: int
    turn: str | None
    plays: tuple[tuple[str, tuple[str, ...]], ...]
    counts: tuple[int, ...]  # in ``SEATS`` order

    @classmethod
    def of(cls, state: dict) -> Told:
        trick = state.get("current_trick") or {}
        return cls(state["seq"], state["at"], state["hand"], state["trick"], state["turn"],
                   tuple((p["seat"], tuple(p["cards"])) for p in trick.get("plays", ())),
                   tuple(state["cards"][s] for s in SEATS))

    def play(self, seat: str) -> tuple[str, ...]:
        return dict(self.plays).get(seat, ())


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
    found: tuple[SeenCard, ...] | None = None  # the first reading's cards (None before it): there before the camera
    again: bool = False  # seats play again in one trick, of any size (the climbing games: ``for_game``)
    table: Told | None = None  # what the table's latest state says (:func:`told`); None: no state told yet


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


def step(t: Tracker, cards: list[SeenCard], busy: dict[str, bool], at: float,
         bare: dict[str, bool] | None = None) -> tuple[Tracker, tuple[Play, ...]]:
    """One calibrated reading (``cards`` with seats, ``busy`` seats with something over them, ``bare`` seats whose
    play zone shows no card-white: ``Reading.bare``; None or a seat left out: not known) at time ``at``."""
    plays = []
    found = t.found if t.found is not None else tuple(cards)
    seats = dict(t.seats)
    on_table = Counter(c.name for c in cards)
    lead_size, left = t.lead_size, Counter(t.left)
    removals, gone_now = list(t.removals), []
    trick = _shown(t)  # the trick in play as the table's state shows it
    for seat in SEATS:
        view = tuple(c for c in cards if c.seat == seat)
        s, shown = seats[seat], int(bool(bare and bare.get(seat)))
        if busy.get(seat) or not same_view(view, s.anchor) or s.since is None:
            seats[seat] = replace(s, anchor=view, since=None if busy.get(seat) else at, frames=1, bare=shown,
                                  covered=s.covered or bool(busy.get(seat)))
            continue
        s = seats[seat] = replace(s, frames=s.frames + 1, bare=s.bare + shown)
        if not view and s.emitted and at - s.since >= t.settle_s:  # picked up
            names = tuple(sorted(c.name for c in s.emitted))
            sure = s.bare == s.frames >= CLEAR_FRAMES  # every frame of it showed the table there
            removals.append(Removal(seat, names, at, () if sure else (Reason("vision.hidden", cards=names),)))
            played = _played(t, s)
            gone_now += [c.name for c in played]
            seats[seat] = replace(s, emitted=(), gone=s.gone + tuple((c, at) for c in played), covered=False, held=())
            continue
        if at - s.since < t.settle_s:
            continue
        laid = s.covered and t.again  # a hand was over the seat since its view last settled, in a game of plays again
        picked, under = _new(view, s.emitted, laid)  # matched only once the view has settled
        seats[seat] = s = replace(s, covered=False)
        if not picked:
            continue
        fresh = tuple(sorted(c.name for c in picked))
        conf = min(c.confidence for c in picked)
        lead = len(trick[0][1]) if trick else lead_size  # the table's lead of this trick, once its state shows it
        reasons = check(fresh, [c.confidence for c in picked if not c.foreign], lead_size=None if t.again else lead,
                        on_table=on_table, left=left,
                        decks=t.decks, conflicts=tuple(c.name for c in picked if c.conflict),
                        foreign=tuple(c.name for c in picked if c.foreign), coarse=any(c.coarse for c in picked))
        playing = seat in dict(trick) if trick else bool(s.emitted)  # the table holds a play of the seat
        if playing and not (t.again and laid):  # a climbing seat's next play is laid by a hand; cards that came
            reasons += (Reason("vision.added"),)  # with none seen are added to a play
        reasons += tuple(Reason("vision.on_top", card=c.name, under_card=e.name) for c, e in under)
        returned = sorted({c.name for c in picked for g, when in s.gone if at - when <= RETURN_S and g.name == c.name
                           and math.dist(g.centre, c.centre) <= SAME_PLACE})
        reasons += tuple(Reason("vision.returned", card=name) for name in returned)
        if any(f.name == c.name and math.dist(f.centre, c.centre) <= SAME_PLACE for c in picked for f in found):
            reasons += (Reason("vision.restarted"),)  # on the table when the camera started: sent before, or played meanwhile
        plays.append(Play(seat, fresh, round(min(conf, FLAGGED_CONFIDENCE) if reasons else conf, 3), s.since, reasons))
        if lead_size is None and (t.table is None or t.table.turn == seat):  # cards shown out of turn lead nothing
            lead_size = len(fresh)
        seats[seat] = replace(s, emitted=s.emitted + tuple(picked), gone=tuple(g for g in s.gone if at - g[1] <= RETURN_S))
    empty = not cards and not any(busy.values())
    empty_since = (t.empty_since if t.empty_since is not None else at) if empty else None
    out = replace(t, seats=seats, lead_size=lead_size, empty_since=empty_since, removals=tuple(removals),
                  left=t.left + tuple(gone_now), found=found)
    if empty_since is not None and at - empty_since >= t.settle_s and (lead_size is not None or gone_now):
        gone = tuple(c.name for s in seats.values() for c in _played(t, s))
        out = replace(out, seats={k: replace(s, emitted=(), gone=(), held=()) for k, s in seats.items()}, lead_size=None,
                      left=out.left + gone, found=())  # a trick taken: what its seats picked up may lie there again
    if empty_since is not None and at - empty_since >= t.hand_gap_s and out.left:
        out = replace(out, left=())
    return out, tuple(plays)


def told(t: Tracker, state: dict) -> Tracker:
    """The tracker once the table published ``state`` (its ``state`` payload, every one in the order published).
    A seat's play the state shows is held as played (:attr:`SeatState.held`); a seat whose count went up within the
    hand got back the cards of its play that the state no longer shows (a throw taken back, 001 十九 甩牌不成立; a
    going-out play taken back, 002 九 3 已出完的牌必须收回重出): lying there they are no longer held, and already
    picked up they are no longer counted as gone from the hand (``left``, ``gone``). A state older than the last told
    (a lower ``seq``, made no later: delivered again, to a camera that restarted before it acknowledged it) changes
    nothing; told again, a state changes nothing either. A lower ``seq`` made later is a table whose log went back (a
    backup put back, ``docs/recovery.md``): followed.

    >>> t = told(Tracker(), {"seq": 40, "at": 9.0, "hand": 1, "trick": 3, "turn": "E", "current_trick": {"leader": "S",
    ...     "plays": [{"seat": "S", "cards": ["SA", "SK"]}]}, "cards": {"S": 23, "E": 25, "N": 25, "W": 25}})
    >>> t.seats["S"].held, t.table.turn
    (('SA', 'SK'), 'E')
    >>> t = told(t, {"seq": 42, "at": 9.5, "hand": 1, "trick": 3, "turn": "E", "current_trick": {"leader": "S",
    ...     "plays": [{"seat": "S", "cards": ["SK"]}]}, "cards": {"S": 24, "E": 25, "N": 25, "W": 25}})
    >>> t.seats["S"].held
    ('SK',)
    """
    now, was = Told.of(state), t.table
    if was is not None and now.seq < was.seq and now.at <= was.at:  # told already
        return t
    seats, left = dict(t.seats), Counter(t.left)
    for i, seat in enumerate(SEATS):
        s, before = seats[seat], was.play(seat) if was is not None and was.hand == now.hand else ()
        if was is not None and was.hand == now.hand and now.counts[i] > was.counts[i]:  # cards back in the hand
            back = Counter(before) - Counter(now.play(seat))
            lifted = back - Counter(s.held)  # picked up already: counted as gone
            left -= lifted
            returned = _take([c for c, _ in s.gone], lifted)
            seats[seat] = replace(s, held=tuple((Counter(s.held) - back).elements()),
                                  gone=tuple(g for g in s.gone if not any(g[0] is c for c in returned)))
        else:  # a play it now holds
            same = was is not None and (was.hand, was.trick) == (now.hand, now.trick)
            seats[seat] = replace(s, held=s.held + tuple((Counter(now.play(seat)) - Counter(before if same else ())).elements()))
    return replace(t, seats=seats, table=now, left=tuple(left.elements()))


def for_game(game: str, **settings) -> Tracker:
    """A tracker for a table of ``game`` (a rulebook's ``game``): in the climbing games a seat plays again within a trick
    (掼蛋: 选手依次轮流压牌) and a play need not be the lead's size (a bomb, or a new lead after every other seat
    passed, on cards still lying there), so neither is flagged; a Tractor seat plays once a trick, as many cards as
    the lead.

    >>> for_game("guandan").again, for_game("tractor", decks=3).again
    (True, False)
    """
    return Tracker(again=game != "tractor", **settings)


def drain(t: Tracker) -> tuple[Tracker, tuple[Removal, ...]]:
    """The removals seen so far, and the tracker without them."""
    return replace(t, removals=()), t.removals


def _shown(t: Tracker) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The plays of the trick the camera sees as the table's state shows them (the leader's first), or () where it
    shows none of that trick yet: every play it shows is among the cards sent this trick from that seat."""
    plays = t.table.plays if t.table is not None else ()
    sent = {seat: Counter(c.name for c in s.emitted) for seat, s in t.seats.items()}
    return plays if plays and all(Counter(cards) <= sent[seat] for seat, cards in plays) else ()


def _played(t: Tracker, s: SeatState) -> list[SeenCard]:
    """The cards sent from seat ``s`` that the table held as played (every one where it told no state): the others
    went back into the hand (taken back, or shown out of turn) and may come again."""
    return list(s.emitted) if t.table is None else _take(s.emitted, Counter(s.held))


def _take(cards, names: Counter) -> list[SeenCard]:
    """The first of ``cards`` (``SeenCard``) with each name as many times as ``names`` counts it, at most."""
    names, out = Counter(names), []
    for c in cards:
        if names[c.name] > 0:
            names[c.name] -= 1
            out.append(c)
    return out


def _new(view: tuple[SeenCard, ...], emitted: tuple[SeenCard, ...],
         covered: bool = False) -> tuple[list[SeenCard], list[tuple[SeenCard, SeenCard]]]:
    """The cards of ``view`` not emitted yet, and of them those laid on an emitted card that they may be (each with
    that card). Emitted cards are matched first by place (the closest pairs first, within ``SAME_PLACE``, whatever
    a card reads as now), then by name (a card nudged since). Of several copies of a name the least sure are taken
    as the new ones, to be careful. After a hand over the seat (``covered``), a card at an emitted card's place
    that reads as another, or lies otherwise (``_moved``), was laid on it: new, and doubtful where it has that
    card's face (identical cards of several decks) or that card's read was unsure (it may be that card read right).

    >>> a, b = SeenCard("CA", 0.6, (0.50, 0.8), "S"), SeenCard("SA", 0.95, (0.53, 0.8), "S")
    >>> [c.name for c in _new((SeenCard("SA", 0.7, (0.50, 0.8), "S"), b), (a, b))[0]]  # CA read again as SA
    []
    >>> [c.name for c in _new((a, b, SeenCard("S4", 0.5, (0.515, 0.8), "S")), (a, b))[0]]  # one more, close by
    ['S4']
    >>> [c.name for c in _new((a, SeenCard("H9", 0.95, (0.535, 0.8), "S")), (a, b), covered=True)[0]]  # laid on SA
    ['H9']
    """
    pairs = sorted((math.dist(c.centre, e.centre), i, j) for i, c in enumerate(view) for j, e in enumerate(emitted))
    placed, taken, under = set(), set(), []
    for d, i, j in pairs:
        if d <= SAME_PLACE and i not in placed and j not in taken:
            placed.add(i)
            taken.add(j)
            c, e = view[i], emitted[j]
            if covered and (c.name != e.name or _moved(c, e)):
                under.append((c, e))
    left = [e for j, e in enumerate(emitted) if j not in taken]
    unmatched = [c for i, c in enumerate(view) if i not in placed]
    out = [c for c, _ in under]
    for c in sorted(unmatched, key=lambda c: -c.confidence):  # the surest copies match the nudged emitted cards
        same = next((e for e in left if e.name == c.name), None)
        if same is not None:
            left.remove(same)
        else:
            out.append(c)
    return sorted(out, key=lambda c: c.confidence), [(c, e) for c, e in under if c.name == e.name or e.confidence < SURE]


def _moved(c: SeenCard, e: SeenCard) -> bool:
    """Does ``c`` lie otherwise than ``e`` lay: its centre, or its corner indices where both were read by as many,
    more than ``STILL`` away?"""
    if math.dist(c.centre, e.centre) > STILL:
        return True
    return len(c.indices) == len(e.indices) > 0 and any(min(math.dist(p, q) for q in e.indices) > STILL for p in c.indices)
