"""The plays of the hand in play, as the console corrects them: a play found in the hall's timeline of a table
(its seat and cards, as amended since), and the cards a seat could have played: the rulebook's decks minus
every card seen played this hand (the corrected play's own cards aside).

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
    """The accepted play of ``entry`` in the timeline (the current hand), or None."""
    return _plays(timeline).get(entry)


def decks(rulebook: str) -> int:
    return load(rulebook).deal.decks


def choices(rulebook: str, timeline: Iterable[Mapping], exclude: int | None = None) -> list[tuple[str, int]]:
    """The cards still unseen, with how many of each, in display order (jokers, then each suit from A down):
    the decks minus the cards of every accepted play but ``exclude``."""
    seen = Counter(c for entry, p in _plays(timeline).items() if entry != exclude for c in p["cards"])
    n = decks(rulebook)
    return [(c.code, n - seen[c.code]) for c in ALL_ORDER if n - seen[c.code] > 0]


__all__ = ["choices", "decks", "play_of"]
