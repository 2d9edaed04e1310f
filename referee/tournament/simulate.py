"""``cardtable tournament simulate``: N entries in units of two or three, R rounds of random
results, through the same store as a real tournament (an SQLite file in memory).

>>> out = simulate("pair-swiss", 8, 3, 1)
>>> sorted(out), len(out["rounds"]), sorted(out["standings"][0])
(['entries', 'rounds', 'standings', 'system'], 3, ['rank', 'score', 'team', 'tiebreaks'])
"""

from __future__ import annotations

import random

from referee.tournament.core import TournamentError
from referee.tournament.entries import Entry
from referee.tournament.store import TournamentStore

T0 = 1_767_261_600.0  # the simulated clock's start; a second per change


def make_entries(n: int, rng: random.Random) -> list[Entry]:
    """``n`` entries in units of two or three (one unit per team), named 单位1, 单位2, ..."""
    if n < 2:
        raise TournamentError("simulate_few", n=n)
    sizes = []
    left = n
    while left:
        size = 2 if left in (2, 4) else 3 if left == 3 else rng.choice((2, 3))
        sizes.append(size)
        left -= size
    entries = []
    for u, size in enumerate(sizes, 1):
        for _ in range(size):
            i = len(entries) + 1
            entries.append(Entry(f"e{i:02d}", f"选手{i}", f"单位{u}", f"单位{u}", (f"选手{i}",)))
    return entries


def random_result(system: str, best_of: int, rng: random.Random) -> dict:
    """A random result of one table: four game scores, or a winner (with the games of a best of three), or a draw."""
    if system == "individual-tables":
        return {"scores": [rng.randrange(-40, 80) for _ in range(4)]}
    if system == "pair-swiss":
        return rng.choice(({"winner": 0}, {"winner": 1}, {"draw": True}))
    w = rng.randrange(2)
    if best_of == 1:
        return {"winner": w}
    games = [2, rng.randrange(2)] if w == 0 else [rng.randrange(2), 2]
    return {"winner": w, "games": games}


def simulate(system: str, n: int, rounds: int, seed: int | str) -> dict:
    rng = random.Random(f"{seed}:simulate")
    clock = iter(T0 + i for i in range(10**9))
    store = TournamentStore(":memory:", clock=lambda: next(clock))
    entries = make_entries(n, rng)
    options = {"rounds": rounds} if system != "knockout-best-of-three" else {}
    store.new(system, entries, name="simulation", seed=seed, options=options, id="sim", by="simulate")
    t = store.tournament
    for _ in range(min(rounds, t.total_rounds)):
        view = store.pair_next_round(by="simulate")
        best_of = t.rules.best_of(t, view["round"])
        for x in view["tables"]:
            store.record_result(view["round"], x["table"], random_result(system, best_of, rng), by="simulate")
    t = store.tournament
    key = "team" if system == "pair-swiss" else "entry"
    return {
        "system": system,
        "entries": [{"id": e.id, "unit": e.unit, "team": e.team} for e in t.entries],
        "rounds": [{"round": r.round,
                    "tables": [{"table": x.table, "entries": list(x.entries), "points": list(x.outcome.as_dict()["points"])}
                               for x in r.tables],
                    "byes": list(r.byes)} for r in t.rounds],
        "standings": [{"rank": row["rank"], key: row["id"], "score": row["score"], "tiebreaks": row["tiebreaks"]}
                      for row in store.standings()["rows"]],
    }
