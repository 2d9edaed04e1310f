"""``cardtable tournament simulate``: N entries in units (pair-swiss: units of one or two teams of
two pairs; otherwise of two or three pairs or players), R rounds of random results, through the same store as a real tournament (an SQLite file in memory).

>>> out = simulate("pair-swiss", 8, 3, 1)
>>> sorted(out), len(out["rounds"]), sorted(out["standings"][0])
(['entries', 'rounds', 'standings', 'system'], 3, ['rank', 'score', 'team', 'tiebreaks'])
"""

from __future__ import annotations

import random

from referee.tournament.core import TournamentError
from referee.tournament.entries import Entry
from referee.tournament.store import TournamentStore
from referee.tournament.systems import system as system_of

T0 = 1_767_261_600.0  # the simulated clock's start; a second per change


def make_entries(system_name: str, n: int, rng: random.Random) -> list[Entry]:
    """``n`` entries of ``system_name``'s make-up (pairs or players; pair-swiss: teams of
    ``team_pairs`` pairs, in a field of 12 or more one or two teams a unit), units named 单位1, ...

    >>> [e.team_id for e in make_entries("pair-swiss", 12, random.Random(5))][::2]
    ['单位1·一队', '单位1·二队', '单位2·一队', '单位2·二队', '单位3', '单位4']
    """
    rules = system_of(system_name)
    if n < 2:
        raise TournamentError("simulate_few", n=n)
    team = rules.defaults.get("team_pairs", 0)
    sizes = []
    left = n
    while left > 0:
        choices = (team, 2 * team) if team and n >= 6 * team else (team,) if team else (2, 3)
        size = min(left, rng.choice([c for c in choices if left - c != 1] or choices))
        sizes.append(size)
        left -= size
    entries = []
    for u, size in enumerate(sizes, 1):
        for k in range(size):
            i = len(entries) + 1
            name = f"单位{u}" if not team or size == team else "一二三四"[k // team] + "队"
            players = (f"选手{i}",) if rules.players == 1 else (f"选手{i}甲", f"选手{i}乙")
            entries.append(Entry(f"e{i:02d}", "、".join(players), f"单位{u}", name, players))
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
    entries = make_entries(system, n, rng)
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
