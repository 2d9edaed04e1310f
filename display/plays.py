"""The plays of the hand in play and of the one before, as the console corrects them: a play found in the hall's
timeline of a table (its seat and cards, as amended since), and the cards a seat could have played: the
rulebook's decks minus every card seen played in that hand (the corrected play's own cards aside), and whether the
display saw every play of that hand (``whole``): else the counts are too high, and the console says so.

>>> timeline = [{"seq": 5, "kind": "hand_started", "data": {"hand": 1}},
...             {"seq": 9, "kind": "play_accepted", "data": {"hand": 1, "trick": 1, "seat": "S", "cards": ["SA", "SA"]}},
...             {"seq": 12, "kind": "play_accepted", "data": {"hand": 1, "trick": 1, "seat": "E", "cards": ["S3", "S4"]}},
...             {"seq": 14, "kind": "amended", "data": {"entry": 12, "cards": ["S3", "S5"]}}]
>>> play_of(timeline, 12)
{'entry': 12, 'seat': 'E', 'hand': 1, 'trick': 1, 'cards': ['S3', 'S5']}
>>> play_of(timeline, 13) is None
True
>>> left = dict(choices("classic-3deck", timeline, exclude=12)); left["SA"], left["S5"], left["S3"], left["BJ"]
(1, 3, 3, 3)

Once the next hand started, the hand before is still there, and its plays count only for its own:

>>> timeline += [{"seq": 20, "kind": "hand_started", "data": {"hand": 2}},
...              {"seq": 22, "kind": "play_accepted", "data": {"hand": 2, "trick": 1, "seat": "N", "cards": ["S5"]}}]
>>> play_of(timeline, 9)["cards"], dict(choices("classic-3deck", timeline, exclude=9))["S5"]
(['SA', 'SA'], 2)
>>> left = dict(choices("classic-3deck", timeline)); left["SA"], left["S5"]
(3, 2)
>>> whole(timeline, hand_of(timeline, 9)), whole(timeline, hand_of(timeline))
(True, True)

A gap in a hand (a ``missed`` line: the display was stopped, or cut off from the broker, while the table played
on) leaves that hand's plays made meanwhile uncounted; a hand whose start the display never saw, too:

>>> gapped = timeline[:2] + [{"seq": 10, "kind": "missed", "data": {"after": 9}}] + timeline[2:]
>>> whole(gapped, 1), whole(gapped, 2), whole(timeline[1:], 1)
(False, True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from referee.cards import ALL_ORDER
from referee.rulebooks import load


def _plays(timeline: Iterable[Mapping]) -> dict[int, dict]:
    """Every accepted play of the timeline by its entry (the ``seq`` of its input), amended as the table amended it."""
    plays: dict[int, dict] = {}
    for e in timeline:
        data = e.get("data") or {}
        if e.get("kind") == "play_accepted":
            plays[e["seq"]] = {"entry": e["seq"], "seat": data.get("seat"), "hand": data.get("hand"),
                               "trick": data.get("trick"), "cards": list(data.get("cards") or [])}
        elif e.get("kind") == "amended" and data.get("entry") in plays:
            plays[data["entry"]] = plays[data["entry"]] | {"cards": list(data.get("cards") or [])}
    return plays


def play_of(timeline: Iterable[Mapping], entry: int) -> dict | None:
    """The accepted play of ``entry`` in the timeline (the hand in play or the one before), or None."""
    return _plays(timeline).get(entry)


def hand_of(timeline: Iterable[Mapping], entry: int | None = None) -> object:
    """The hand of ``entry``'s play, else (None, or no such play) the hand in play."""
    timeline = list(timeline)
    return _hand(timeline, _plays(timeline), entry)


def whole(timeline: Iterable[Mapping], hand: object) -> bool:
    """Whether the timeline holds every play of ``hand``: its start is there, and no gap (a ``missed`` line) lies
    between it and the next hand's start."""
    started = False
    for e in timeline:
        if e.get("kind") == "hand_started":
            if started and (e.get("data") or {}).get("hand") != hand:
                return True
            started = started or (e.get("data") or {}).get("hand") == hand
        elif e.get("kind") == "missed" and started:
            return False
    return started


def _hand(timeline: list[Mapping], plays: Mapping[int, dict], entry: int | None) -> object:
    return plays[entry]["hand"] if entry in plays else _hand_in_play(timeline, plays)


def _hand_in_play(timeline: list[Mapping], plays: Mapping[int, dict]) -> object:
    started = [e.get("data", {}).get("hand") for e in timeline if e.get("kind") == "hand_started"]
    return started[-1] if started else next(reversed(plays.values()))["hand"] if plays else None


def decks(rulebook: str) -> int:
    return load(rulebook).deal.decks


def choices(rulebook: str, timeline: Iterable[Mapping], exclude: int | None = None) -> list[tuple[str, int]]:
    """The cards still unseen, with how many of each, in display order (jokers, then each suit from A down):
    the decks minus the cards of every accepted play of ``exclude``'s hand (else the hand in play) but ``exclude``."""
    timeline = list(timeline)
    plays = _plays(timeline)
    hand = _hand(timeline, plays, exclude)
    seen = Counter(c for entry, p in plays.items() if entry != exclude and p["hand"] == hand for c in p["cards"])
    n = decks(rulebook)
    return [(c.code, n - seen[c.code]) for c in ALL_ORDER if n - seen[c.code] > 0]


__all__ = ["choices", "decks", "hand_of", "play_of", "whole"]
