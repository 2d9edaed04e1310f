"""Individual tables (seed 004, San Da Yi): four rounds, tables of four drawn by lot.

Each round the players are drawn into tables of four, spread so that no two players of one unit
share a table where the units allow it (the players of each unit dealt round the tables in turn,
units and players in a random order), and seated by the suit drawn at the table: ♠ ♥ ♣ ♦ sit
S E N W (黑红梅方, counter-clockwise). A table's result is the four players' game scores over
the round's eight games (小分); round points 5 / 3 / 2 / 1 by that ranking (players level
share the points of their places equally). A player who forfeits gets 0 and 0; the others rank
among themselves. Standings: total, then 小分, then the lot drawn at registration.

>>> spread_counts = lambda tables, unit: [sum(unit[p] == u for p in t) for t in tables for u in set(unit.values())]
>>> import random
>>> unit = {f"p{i}": f"u{i % 3}" for i in range(12)}
>>> max(spread_counts(draw(sorted(unit), unit, random.Random(3)), unit))
2
>>> points_by_rank([30, 10, 30, -5], [5, 3, 2, 1])
(4, 2, 4, 1)
"""

from __future__ import annotations

import random
from collections import defaultdict

from referee.tournament.base import System, rank_rows, totals
from referee.tournament.core import Outcome, Table, Tournament, TournamentError, num, table_name


def draw(players: list[str], unit: dict[str, str], rng: random.Random) -> list[list[str]]:
    """Tables of four, each unit's players spread over as many tables as possible, in seat order."""
    count = len(players) // 4
    groups = defaultdict(list)
    for p in players:
        groups[unit[p]].append(p)
    units = sorted(groups)
    rng.shuffle(units)
    units.sort(key=lambda u: -len(groups[u]))  # the biggest first, so that each spreads fully
    dealt = []
    for u in units:
        members = list(groups[u])
        rng.shuffle(members)
        dealt.extend(members)
    tables = [dealt[i::count] for i in range(count)]
    rng.shuffle(tables)
    for t in tables:
        rng.shuffle(t)  # the suits drawn at the table: seats S E N W
    return tables


def points_by_rank(scores: list[float], points: list[float]) -> tuple:
    """Round points by the ranking of ``scores`` (higher first); ties share their places' points."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    out = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = sum(points[i : j + 1]) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return tuple(num(x) for x in out)


class IndividualTables(System):
    name = "individual-tables"
    title = "个人赛（四人一桌）"
    columns = ("小分",)
    defaults = {"rounds": 4, "points": [5, 3, 2, 1], "games": 8}

    def check(self, entries, options: dict) -> None:
        n = len(entries)
        if n < 4 or n % 4:
            more = -n % 4
            if n < 4:
                raise TournamentError("individual_few", n=n)
            raise TournamentError("individual_fours", n=n, more=more, fewer=4 - more)

    def pair(self, t: Tournament, round_no: int):
        unit = {e.id: e.unit for e in t.entries}
        tables = draw([e.id for e in t.entries], unit, t.rng(f"pair:{round_no}"))
        return [(table_name(i), tuple(x)) for i, x in enumerate(tables, 1)], []

    def outcome(self, t: Tournament, round_no: int, table: Table) -> Outcome | None:
        d = table.entered
        absent = [e in table.forfeits for e in table.entries]
        if d is None:
            if all(absent):
                return Outcome((0,) * 4, (0,) * 4)
            return None
        if set(d) != {"scores"}:
            raise TournamentError("individual_result")
        scores = d["scores"]
        if not (isinstance(scores, list) and len(scores) == 4 and all(type(s) in (int, float) for s in scores)):
            raise TournamentError("individual_scores", scores=repr(scores))
        present = [i for i in range(4) if not absent[i]]
        ranked = points_by_rank([scores[i] for i in present], t.options["points"])
        points, small = [0] * 4, [0] * 4
        for k, i in enumerate(present):
            points[i], small[i] = ranked[k], num(scores[i])
        return Outcome(tuple(points), tuple(small))

    def standings(self, t: Tournament) -> list[dict]:
        total, small = totals(t)
        items = [((total[e.id], small[e.id]), {"id": e.id, "name": e.name, "unit": e.unit, "score": num(total[e.id]),
                                               "tiebreaks": [num(small[e.id])], "prize": None, "lot": e.id}) for e in t.entries]
        return rank_rows(items, list(t.lot))
