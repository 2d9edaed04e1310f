"""Knockout, best of three (seed 002, Guandan): single games until 16 remain, then best of three.

Stage 1 (more than 16 entries): the first round brings the field down to a power of two, the
byes going to the first entries of the lot drawn at registration; then single-game rounds until
16 remain. Stage 2: a best-of-three knockout from 16 (fewer entries: byes by the lot up to the
next power of two), with play-offs so that places 1 to 8 are ranked: the quarter-final losers
play semi-finals for 5th to 8th beside the semi-finals; the last round holds the final (t01),
3rd place (t02), 5th (t03) and 7th (t04). Each table's result is a winner, in stage 2 with the
games won (a game is won by passing 8).

>>> plan(40)
(2, 16)
>>> plan(16), plan(12), plan(5)
((0, 16), (0, 16), (0, 8))
"""

from __future__ import annotations

from referee.tournament.base import Decision, System, decision, totals
from referee.tournament.core import Outcome, Table, Tournament, TournamentError, table_name

STAGE2_FROM = 16


def plan(n: int) -> tuple[int, int]:
    """(stage-1 rounds, stage-2 bracket size) for ``n`` entries."""
    if n <= STAGE2_FROM:
        size = 2
        while size < n:
            size *= 2
        return 0, size
    power = 1
    while power * 2 <= n:
        power *= 2
    rounds = (n > power) + (power // STAGE2_FROM).bit_length() - 1
    return rounds, STAGE2_FROM


class Knockout(System):
    name = "knockout-best-of-three"
    title = "淘汰赛（三局两胜）"
    columns = ()
    defaults = {"stage2_from": STAGE2_FROM}
    late_limit = 5.0  # seed 002 十二 第2条: five minutes after the start the pair forfeits the round

    def rounds(self, t: Tournament) -> int:
        stage1, size = plan(len(t.entries))
        return stage1 + size.bit_length() - 1

    def best_of(self, t: Tournament, round_no: int) -> int:
        return 1 if round_no <= plan(len(t.entries))[0] else 3

    def check(self, entries, options: dict) -> None:
        if options["stage2_from"] != STAGE2_FROM:
            raise TournamentError("stage_two", stage=STAGE2_FROM)
        if len(entries) < 2:
            raise TournamentError("knockout_few", n=len(entries))

    def pair(self, t: Tournament, round_no: int):
        rounds, _ = walk(t)
        if len(rounds) < round_no:
            raise TournamentError("knockout_order", before=round_no - 1, round=round_no)
        tables, byes = rounds[round_no - 1]
        return [(table_name(i), x) for i, x in enumerate(tables, 1)], list(byes)

    def outcome(self, t: Tournament, round_no: int, table: Table) -> Outcome | None:
        best_of = self.best_of(t, round_no)
        need = best_of // 2 + 1
        d = decision(table)
        if d is None:
            wins = [sum(1 for g in table.games if g == i) for i in (0, 1)]
            if max(wins) < need:
                return None
            d = Decision(wins.index(need), games=tuple(wins))
        if d.winner is None:
            if any(d.forfeit):
                return Outcome((0, 0), (0, 0))
            raise TournamentError("knockout_winner")
        games = d.games or tuple(need if i == d.winner else 0 for i in (0, 1))
        if games[d.winner] != need or games[1 - d.winner] >= need:
            raise TournamentError("knockout_games", best_of=best_of, need=need, games=repr(list(games)))
        return Outcome(tuple(1 if i == d.winner else 0 for i in (0, 1)), games)

    def standings(self, t: Tournament) -> list[dict]:
        _, places = walk(t)
        won, _ = totals(t)
        order = sorted(t.entries, key=lambda e: (places[e.id], -won[e.id], t.lot.index(e.id)))
        return [{"rank": places[e.id], "id": e.id, "name": e.name, "unit": e.unit, "score": won[e.id],
                 "tiebreaks": [], "prize": None} for e in order]


def _knock(alive: list[str], size: int) -> tuple[list[tuple[str, ...]], list[str]]:
    """A knockout round bringing ``alive`` down to ``size``: byes to the first, then pairs in order."""
    byes = 2 * size - len(alive)
    return [tuple(alive[i : i + 2]) for i in range(byes, len(alive), 2)], alive[:byes]


def _results(t: Tournament, round_no: int, tables: list[tuple[str, ...]]) -> list[tuple[str, str] | None]:
    """(winner, loser) of each table of round ``round_no``; None for a table not decided (or not played)."""
    played = {frozenset(x.entries): x for x in t.rounds[round_no - 1].tables} if len(t.rounds) >= round_no else {}
    out = []
    for pair in tables:
        x = played.get(frozenset(pair))
        if x is None or x.outcome is None:
            out.append(None)
            continue
        w = x.outcome.points.index(1) if 1 in x.outcome.points else 0  # both forfeited: the first goes on
        out.append((x.entries[w], x.entries[1 - w]))
    return out


def walk(t: Tournament) -> tuple[list[tuple[list[tuple[str, ...]], list[str]]], dict[str, int]]:
    """The tables and byes of every round that can be paired from the results so far, and each
    entry's place as far as it is known (1 for those still in)."""
    stage1, size = plan(len(t.entries))
    place = {e: 1 for e in t.lot}
    rounds: list = []
    main = list(t.lot)
    while len(main) > STAGE2_FROM:  # stage 1
        power = 1 << (len(main).bit_length() - 1)
        tables, byes = _knock(main, power if power < len(main) else power // 2)
        rounds.append((tables, byes))
        result = _results(t, len(rounds), tables)
        for decided in filter(None, result):
            place[decided[1]] = len(byes) + len(tables) + 1
        if None in result:
            return rounds, place
        main = byes + [w for w, _ in result]
    qf: list[str] = []
    sf: list[str] = []
    p58: list[tuple[str, str]] = []
    while len(main) > 1:  # stage 2
        tables, byes = _knock(main, size // 2 ** (len(rounds) - stage1 + 1))
        roles = ["main"] * len(tables)
        if len(main) == 4 and len(qf) == 4:
            tables, roles = tables + [tuple(qf[:2]), tuple(qf[2:])], roles + ["p58", "p58"]
        if len(main) == 2:
            for role, pair in (("third", sf), ("fifth", [w for w, _ in p58]), ("seventh", [l for _, l in p58])):
                if len(pair) == 2:
                    tables, roles = tables + [tuple(pair)], roles + [role]
        rounds.append((tables, byes))
        result = _results(t, len(rounds), tables)
        for decided, role in zip(result, roles):
            if decided is None:
                continue
            w, loser = decided
            if role == "main":
                place[loser] = len(byes) + roles.count("main") + 1
            else:
                first = {"p58": 5, "third": 3, "fifth": 5, "seventh": 7}[role]
                place[w], place[loser] = first, first + (2 if role == "p58" else 1)
        if None in result:
            return rounds, place
        after = byes + [w for (w, _), role in zip(result, roles) if role == "main"]
        losers = [l for (_, l), role in zip(result, roles) if role == "main"]
        qf, sf = (losers, sf) if len(main) == 8 else (qf, losers) if len(main) == 4 else (qf, sf)
        p58 = [r for r, role in zip(result, roles) if role == "p58"] or p58
        main = after
    return rounds, place
