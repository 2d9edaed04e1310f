"""Whether the rounds left of a pair Swiss can all be paired: a schedule built, or a count that rules it out.

A schedule of ``r`` rounds is ``r`` edge-disjoint perfect matchings of the allowed graph
(:class:`~referee.tournament.matching.Graph`: the tables the hard rules allow; with an odd field a
node for the bye, met once by each pair). Three answers, each sound:

- Dirac's theorem, at once for dense graphs: a minimum degree of at least n/2 + r - 1 leaves a
  perfect matching after each of ``r`` rounds (each round lowers every degree by one).
- :func:`search` builds a schedule round by round: quick searches by the blossom algorithm with
  weights that use up first the tables of the pairs with the fewest opponents left, then in a small
  graph every perfect matching in turn (exact while its ``budget`` lasts). A schedule found is the proof.
- :func:`shortfall`, for a field before round 1 (every pair may meet every pair of another unit):
  Tutte's f-factor count over whole units. When the pairs of the units ``T`` have fewer than ``r``
  possible opponents outside the units ``S``, they must meet ``S`` at least the difference, summed;
  when that is more than the ``r * |S|`` tables ``S`` plays, no schedule exists.

Units of 4, 4 and 2 pairs: each pair of A and B has only the 4 pairs of the other big unit
outside C, so in 6 rounds the 8 of them must meet C's 2 pairs 16 times, and those play 12 tables.

>>> from referee.tournament.swiss import allowed
>>> units = {"a1": "A", "a2": "A", "a3": "A", "a4": "A", "b1": "B", "b2": "B", "b3": "B", "b4": "B", "c1": "C", "c2": "C"}
>>> shortfall(units, 6)
Shortfall(short=('A', 'B'), pairs=8, others=('C',), their_pairs=2, rounds=6, need=16, give=12)
>>> shortfall(units, 5) is None
True
>>> [len(m) for m in search(allowed(units, set(), set(), False), 5).rounds]
[5, 5, 5, 5, 5]
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from referee.tournament.matching import Edge, Graph

BYE = "__bye__"  # the graph node a pair meets when it has the bye
EXACT_UP_TO = 12  # nodes: every perfect matching is tried in turn (memoised), so a failure within budget is a proof
SEARCH_BUDGET = 20_000  # matchings tried before the search gives up (answers "unknown")
BLOSSOM_TRIES = 2  # blossom matchings tried per round in a quick search (different random tie-breaks)
DIVES = 6  # quick searches before the exhaustive one


def dirac(graph: Graph, rounds: int) -> bool:
    """Dirac's sufficient condition for ``rounds`` more rounds (see the module's docstring)."""
    return rounds <= 0 or (len(graph.nodes) % 2 == 0 and graph.min_degree() >= len(graph.nodes) / 2 + rounds - 1)


@dataclass(frozen=True)
class Found:
    """A search's answer: ``rounds`` the matchings found (None: none found), ``exhausted`` True when
    every possibility was tried (so None is a proof that no schedule exists). After a point where
    Dirac's condition holds the rounds are spelt out only when asked (``spell``)."""

    rounds: tuple[frozenset[Edge], ...] | None
    exhausted: bool = False

    @property
    def proved(self) -> bool:
        return self.rounds is not None


class _Spent(Exception):
    """The search's budget ran out."""


def search(graph: Graph, rounds: int, budget: int = SEARCH_BUDGET, spell: bool = True, seed: str = "schedule") -> Found:
    """A schedule of ``rounds`` rounds on ``graph`` (see :class:`Found`): first :data:`DIVES` quick
    searches by the blossom (a different random tie-break each), then in a small graph every
    perfect matching in turn, while the ``budget`` lasts."""
    if rounds <= 0:
        return Found(())
    if len(graph.nodes) % 2:
        return Found(None, True)
    state = {"budget": budget, "spell": spell, "memo": set()}
    edges = graph.edges()
    try:
        for dive in range(DIVES):
            state["rng"] = random.Random(f"{seed}:{dive}")
            found = _find(graph.nodes, edges, rounds, state, exact=False)
            if found is not None:
                return Found(tuple(found))
        if len(graph.nodes) > EXACT_UP_TO:
            return Found(None)
        found = _find(graph.nodes, edges, rounds, state, exact=True)
    except _Spent:
        return Found(None)
    return Found(None if found is None else tuple(found), found is None)


def completable(graph: Graph, rounds: int, budget: int = SEARCH_BUDGET) -> bool:
    """Whether a schedule of ``rounds`` rounds was proved (Dirac, or one found); False when unknown too."""
    return dirac(graph, rounds) or search(graph, rounds, budget, spell=False).proved


def _find(nodes: frozenset[str], edges: frozenset[Edge], rounds: int, state: dict, exact: bool) -> list[frozenset[Edge]] | None:
    if rounds == 0:
        return []
    degree = Counter(n for e in edges for n in e)
    if min(degree[n] for n in nodes) >= len(nodes) / 2 + rounds - 1:
        return _dirac_tail(nodes, edges, rounds) if state["spell"] else []
    key = (edges, rounds)
    if exact and key in state["memo"]:
        return None
    for m in _every_matching(nodes, edges, degree, state) if exact else _blossoms(nodes, edges, degree, state):
        rest = _find(nodes, edges - m, rounds - 1, state, exact)
        if rest is not None:
            return [m, *rest]
    if exact:
        state["memo"].add(key)
    return None


def _spend(state: dict) -> None:
    state["budget"] -= 1
    if state["budget"] < 0:
        raise _Spent


def _every_matching(nodes: frozenset[str], edges: frozenset[Edge], degree: Counter, state: dict):
    """Every perfect matching, the node with the fewest tables left first."""
    if not nodes:
        yield frozenset()
        return
    first = min(nodes, key=lambda n: (degree[n], n))
    for e in sorted((e for e in edges if first in e), key=sorted):
        _spend(state)
        rest = frozenset(f for f in edges if not f & e)
        for m in _every_matching(nodes - e, rest, Counter(n for f in rest for n in f), state):
            yield m | {e}


def _blossoms(nodes: frozenset[str], edges: frozenset[Edge], degree: Counter, state: dict):
    """Perfect matchings by the blossom algorithm that take first the tables of the pairs with the fewest
    opponents left (weight: the sum of how few each end has), ties broken at random, each try differently."""
    import networkx as nx

    top = max(degree[n] for n in nodes) + 1
    for _ in range(BLOSSOM_TRIES):
        _spend(state)
        rng = state["rng"]
        g = nx.Graph()
        g.add_nodes_from(sorted(nodes))
        for e in sorted(edges, key=sorted):
            a, b = sorted(e)
            g.add_edge(a, b, weight=((top - degree[a]) + (top - degree[b])) * 64 + rng.randrange(64))
        m = nx.max_weight_matching(g, maxcardinality=True)
        if 2 * len(m) == len(nodes):
            yield frozenset(Edge(e) for e in m)


def _dirac_tail(nodes: frozenset[str], edges: frozenset[Edge], rounds: int) -> list[frozenset[Edge]]:
    """The rounds left where Dirac's condition holds: any perfect matching each round keeps it."""
    import networkx as nx

    out = []
    for _ in range(rounds):
        g = nx.Graph()
        g.add_nodes_from(sorted(nodes))
        g.add_edges_from(sorted(tuple(sorted(e)) for e in edges))
        m = frozenset(Edge(e) for e in nx.max_weight_matching(g, maxcardinality=True))
        out.append(m)
        edges = edges - m
    return out


@dataclass(frozen=True)
class Shortfall:
    """Why no schedule exists: the ``pairs`` of the units ``short`` have too few opponents outside the units
    ``others`` (``their_pairs`` pairs; ``BYE`` stands for the bye): in ``rounds`` rounds they must meet them
    ``need`` times, and those play only ``give`` tables."""

    short: tuple[str, ...]
    pairs: int
    others: tuple[str, ...]
    their_pairs: int
    rounds: int
    need: int
    give: int


def shortfall(units: dict[str, str], rounds: int) -> Shortfall | None:
    """The whole units ``S`` and ``T`` that break Tutte's count for a field before round 1, or None (see the
    module's docstring). A knapsack over the units for each size of ``S``: a unit in ``S`` gives
    ``rounds`` tables per pair; a unit not in ``S`` whose pairs have ``d < rounds`` opponents outside ``S``
    and their own unit is in ``T`` and needs ``rounds - d`` per pair."""
    size = Counter(units.values())
    if len(units) % 2:
        size[BYE] = 1
    n = sum(size.values())
    names = list(size)  # the units in the order of the form
    worst = None
    for sigma in range(n + 1):
        # best[w] = (value, units in S) over the units seen, S of w pairs
        best: dict[int, tuple[int, tuple[str, ...]]] = {0: (0, ())}
        for u in names:
            k = size[u]
            gain = max(0, k * (rounds - (n - sigma - k)))
            nxt: dict[int, tuple[int, tuple[str, ...]]] = {}
            for w, (v, s) in best.items():
                for w2, v2, s2 in ((w, v + gain, s), (w + k, v - rounds * k, s + (u,))):
                    if w2 <= sigma and (w2 not in nxt or v2 > nxt[w2][0]):
                        nxt[w2] = (v2, s2)
            best = nxt
        if sigma in best and best[sigma][0] > 0 and (worst is None or best[sigma][0] > worst[0]):
            worst = (best[sigma][0], best[sigma][1], sigma)
    if worst is None:
        return None
    _, others, sigma = worst
    short = tuple(u for u in names if u not in others and n - sigma - size[u] < rounds)
    need = sum(size[u] * (rounds - (n - sigma - size[u])) for u in short)
    return Shortfall(short, sum(size[u] for u in short), others, sigma, rounds, need, rounds * sigma)


__all__ = ["BYE", "Found", "Shortfall", "completable", "dirac", "search", "shortfall"]
