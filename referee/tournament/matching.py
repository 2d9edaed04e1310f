"""Minimum-cost pairing under hard rules (whether the rounds left can still all be paired: :mod:`referee.tournament.schedule`).

A pairing is a perfect matching of the ``allowed`` graph (edges: pairs that may meet). Its cost is
the sum over tables of the squared difference of the two scores. First a greedy pass in score
order: when its cost is the :func:`lower_bound` (neighbours in score order, no rule), nothing is
cheaper and it is taken. Otherwise networkx's blossom algorithm (``max_weight_matching`` with
maximum cardinality) finds the cheapest, so a pairing never dead-ends the way a greedy pass can.
Fields above :data:`FULL_GRAPH_UP_TO` give the blossom the edges to the :data:`WINDOW` nearest
by score on each side (widened until a perfect matching exists). Among the cheapest the choice is
random (``rng``): the nodes are shuffled before they are sorted by score, and which cheapest
pairing either pass finds depends on that order.

>>> import random
>>> ring = Graph(frozenset("ABCDEF"), frozenset(map(Edge, ["AC", "AE", "AF", "BD", "BF", "CF", "DE"])))
>>> scores = {"A": 2, "B": 2, "C": 1, "D": 1, "E": 0, "F": 0}
>>> sorted(tuple(sorted(t)) for t in min_cost_pairing("ABCDEF", scores, ring, random.Random(1)))
[('A', 'B'), ('C', 'D'), ('E', 'F')]
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

FULL_GRAPH_UP_TO = 24  # pairs: up to here every allowed edge is in the graph (exact)
WINDOW = 6  # else: each pair's nearest neighbours by score, on each side
GREEDY_TRIES = 4  # greedy passes (random among equal scores) before the blossom algorithm

Edge = frozenset


@dataclass(frozen=True)
class Graph:
    """The tables allowed among ``nodes``: every two of them but the ``forbidden`` pairs (few: one
    unit's pairs, rematches), so that a field of hundreds is never spelt out edge by edge."""

    nodes: frozenset[str]
    forbidden: frozenset[Edge] = frozenset()

    def __contains__(self, edge: Edge) -> bool:
        return len(edge) == 2 and edge <= self.nodes and edge not in self.forbidden

    def without(self, edges: Iterable[Edge]) -> Graph:
        return Graph(self.nodes, self.forbidden | frozenset(edges))

    def min_degree(self) -> int:
        lost = Counter(n for e in self.forbidden if e <= self.nodes for n in e)
        return len(self.nodes) - 1 - max((lost[n] for n in self.nodes), default=0)

    def edges(self) -> frozenset[Edge]:
        return frozenset(e for e in map(Edge, itertools.combinations(sorted(self.nodes), 2)) if e not in self.forbidden)


def cost(tables: Iterable[Iterable[str]], scores: dict[str, float]) -> float:
    """The sum over the tables of the squared score difference."""
    total = 0
    for t in tables:
        a, b = tuple(t)
        total += (scores[a] - scores[b]) ** 2
    return total


def lower_bound(scores: list[float]) -> float:
    """The cost of the cheapest pairing with no hard rule: neighbours in score order (the squared
    difference is convex, so nothing pairs cheaper).

    >>> lower_bound([0, 2, 2, 3, 5, 5])
    5
    """
    s = sorted(scores)
    return sum((s[i + 1] - s[i]) ** 2 for i in range(0, len(s) - 1, 2))


def _greedy(order: list[str], allowed: Graph) -> list[Edge] | None:
    """Each unpaired node in score order with the next one it may meet; None when one is left over."""
    left = list(order)
    tables = []
    while left:
        first = left.pop(0)
        other = next((m for m in left if Edge((first, m)) in allowed), None)
        if other is None:
            return None
        left.remove(other)
        tables.append(Edge((first, other)))
    return tables


def min_cost_pairing(nodes: Iterable[str], scores: dict[str, float], allowed: Graph, rng: random.Random,
                     quick: bool = True) -> list[Edge] | None:
    """A cheapest perfect matching of ``nodes`` using ``allowed`` edges (random among the cheapest), or None.

    First a quick try: a greedy pass in score order (random among equal scores) whose cost is the
    :func:`lower_bound` is a cheapest pairing. Otherwise (or ``quick=False``) the blossom algorithm decides."""
    import networkx as nx

    nodes = sorted(nodes)  # a set's order changes with the process's hash seed: the draw must not
    if len(nodes) % 2:
        return None
    if not nodes:
        return []
    bound = lower_bound([scores[n] for n in nodes])
    for _ in range(GREEDY_TRIES if quick else 0):
        rng.shuffle(nodes)
        quick = _greedy(sorted(nodes, key=lambda n: scores[n]), allowed)
        if quick is not None and cost(quick, scores) == bound:
            return quick
    order = sorted(nodes, key=lambda n: scores[n])
    rank = {n: i for i, n in enumerate(order)}
    window = len(order) if len(order) <= FULL_GRAPH_UP_TO else WINDOW
    # weights are whole numbers: the differences in units of the scores' common denominator (exact
    # fractions: thirds and quarters as well as halves), squared; ``top`` keeps every weight positive
    unit = math.lcm(*(Fraction(scores[n]).denominator for n in nodes))
    top = int((max(scores[n] for n in nodes) - min(scores[n] for n in nodes)) * unit) ** 2 + 1
    while True:
        g = nx.Graph()
        g.add_nodes_from(order)
        for n in order:
            i = rank[n]
            for m in order[i + 1 : i + 1 + window]:
                if Edge((n, m)) in allowed:
                    g.add_edge(n, m, weight=top - int((scores[n] - scores[m]) * unit) ** 2)
        matching = nx.max_weight_matching(g, maxcardinality=True)
        if 2 * len(matching) == len(order):
            return [Edge(e) for e in matching]
        if window >= len(order):
            return None
        window *= 2
