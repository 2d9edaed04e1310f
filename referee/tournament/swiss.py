"""Pair Swiss (积分编排, seed 000): the pairing of one round, and the check of a setup before round 1.

Hard rules (seed 000 四2: 同单位对手和赛过的对手不编排再赛): never two pairs of one unit, never a
rematch, at most one bye per pair, and every round after this one must still be possible to pair
(proved, :mod:`referee.tournament.schedule`). Among the pairings that keep them, the cheapest (sum
of squared score differences, see :mod:`referee.tournament.matching`), at random among equals. An
odd field gives the bye to the lowest-ranked pair without one (the next one up when the rest could
not be paired without it). When no cheap pairing can be proved to keep the rounds left, the first
round of a schedule of all of them is played. A field is registered only when a schedule of all its
rounds is found (:func:`check_setup`); else the refusal says why and how many rounds can be played.

>>> import random
>>> units = {"A": "u1", "B": "u2", "C": "u3", "D": "u4", "E": "u5", "F": "u6"}
>>> met = {frozenset("AC"), frozenset("BD"), frozenset("EF")}
>>> tables, bye = pair_round(units, met, set(), {p: 1 for p in units}, list(units), 4, random.Random(7))
>>> bye is None and not any(t in met for t in tables) and len(tables) == 3
True
>>> check_setup({"A": "u1", "B": "u1", "C": "u1", "D": "u2"}, 2)
Traceback (most recent call last):
...
referee.tournament.swiss.SetupError: u1 有 4 对中的 3 对：多于其他单位一轮能对阵的对数；请调整报名
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from referee.catalogue import Refusal, Term
from referee.tournament.matching import Edge, Graph, cost, min_cost_pairing
from referee.tournament.schedule import BYE, completable, search, shortfall

SETUP_BUDGET = 100_000  # matchings the registration's search may try per round count
EXHAUSTIVE_UP_TO = 14  # pairs: when the cheapest pairing blocks later rounds, try every pairing


class SetupError(Refusal):
    """A field that cannot be paired for all its rounds; refused before round 1."""


class PairingError(Refusal):
    """A round that cannot be paired under the hard rules."""


def allowed(units: dict[str, str], met: set[Edge], had_bye: set[str], odd: bool) -> Graph:
    """The tables the hard rules allow; with an odd field the :data:`BYE` node, met by pairs without a bye."""
    by_unit: dict[str, list[str]] = {}
    for p, u in units.items():
        by_unit.setdefault(u, []).append(p)
    same = {Edge(e) for members in by_unit.values() for e in itertools.combinations(members, 2)}
    byes = {Edge((p, BYE)) for p in had_bye} if odd else set()
    return Graph(frozenset(units) | ({BYE} if odd else frozenset()), frozenset(same | set(met) | byes))


def check_setup(units: dict[str, str], rounds: int) -> None:
    """Raise :class:`SetupError` when no schedule of ``rounds`` rounds is found for the field: why, and the
    most rounds that can be played (a schedule of them found)."""
    problem = _problem(units, rounds)
    if problem is None:
        return
    can = next((r for r in range(rounds - 1, 0, -1) if _problem(units, r) is None), 0)
    if can:
        raise SetupError("swiss_can", reason=problem, can=can)
    raise SetupError("swiss_cannot", reason=problem)


def _problem(units: dict[str, str], rounds: int) -> Refusal | None:
    """Why ``rounds`` rounds cannot be paired, or None when a schedule of them was found."""
    n = len(units)
    if n < 2:
        return SetupError("swiss_few", n=n)
    if rounds < 1:
        return SetupError("swiss_rounds")
    odd = n % 2 == 1
    if odd and rounds > n:
        return SetupError("swiss_odd", n=n, rounds=rounds)
    size = Counter(units.values())
    unit, biggest = max(sorted(size.items()), key=lambda kv: kv[1])
    if biggest > n - biggest + odd:
        return SetupError("swiss_unit", unit=unit, n=n, biggest=biggest)
    need = rounds - odd
    for p in sorted(units):
        others = n - size[units[p]]
        if others < need:
            return SetupError("swiss_pair_others", pair=p, unit=units[p], others=others, rounds=rounds, need=need)
    short = shortfall(units, rounds)
    if short is not None:
        def named(us):
            return [Term("sheet.bye") if u == BYE else u for u in us]

        return SetupError("swiss_short", short=named(short.short), pairs=short.pairs, others=named(short.others),
                          their_pairs=short.their_pairs, rounds=rounds, need=short.need, give=short.give)
    graph = allowed(units, set(), set(), odd)
    found = search(graph, rounds, SETUP_BUDGET, spell=False)
    if found.proved:
        return None
    if found.exhausted:
        return SetupError("swiss_schedule", rounds=rounds)
    return SetupError("swiss_unproved", rounds=rounds)


def pair_round(units: dict[str, str], met: set[Edge], had_bye: set[str], scores: dict[str, float],
               ranking: list[str], rounds_left: int, rng: random.Random) -> tuple[list[Edge], str | None]:
    """The tables of the next round and the pair with the bye (None for an even field).

    ``ranking`` is the pairs best first (for the bye); ``rounds_left`` counts this round."""
    odd = len(units) % 2 == 1
    graph = allowed(units, met, had_bye, odd)
    candidates = [p for p in reversed(ranking) if p not in had_bye] if odd else [None]
    for bye in candidates:
        nodes = frozenset(units) - {bye}

        def keeps_rest(tables: list[Edge], bye=bye) -> bool:
            return completable(graph.without(tables + ([Edge((bye, BYE))] if bye else [])), rounds_left - 1)

        tables = _cheapest(nodes, scores, graph, rng, keeps_rest)
        if tables is not None:
            return tables, bye
    found = search(graph, rounds_left, spell=True, seed=f"{rng.random()}")
    if not found.proved:
        raise PairingError("swiss_pairing", rounds=rounds_left)
    first = found.rounds[0]
    bye = next((p for e in first if BYE in e for p in e if p != BYE), None)
    return [e for e in first if BYE not in e], bye


def _cheapest(nodes: frozenset[str], scores: dict[str, float], allowed: Graph, rng: random.Random, ok) -> list[Edge] | None:
    best = min_cost_pairing(nodes, scores, allowed, rng)
    if best is None or ok(best):
        return best
    if len(nodes) <= EXHAUSTIVE_UP_TO:
        every = [list(m) for m in _all_pairings(sorted(nodes), allowed)]
        rng.shuffle(every)
        every.sort(key=lambda m: cost(m, scores))
        return next((m for m in every if ok(m)), None)
    tries = [min_cost_pairing(nodes, scores, allowed.without([e]), rng) for e in sorted(best, key=sorted)]
    tries = sorted((t for t in tries if t is not None), key=lambda m: cost(m, scores))
    return next((m for m in tries if ok(m)), None)


def _all_pairings(nodes: list[str], allowed: Graph):
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        if Edge((first, other)) in allowed:
            for m in _all_pairings(rest[:i] + rest[i + 1 :], allowed):
                yield [Edge((first, other))] + m
