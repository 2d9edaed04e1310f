"""1,000 simulated pair-swiss tournaments of 8 to 60 pairs, each round checked by an independent
validator: the hard rules (every pair once, never two pairs of one unit, no rematch, at most one
bye, the bye to the lowest-ranked pair that can take it), and for fields up to 12 pairs that the
pairing is the cheapest (sum of squared score differences) against brute force over every
pairing that keeps the rounds left possible. Fields of 13 to 24 pairs are compared with
networkx's blossom on the whole graph.

The tournaments run on the pure pairing (``swiss.pair_round``) with the validator's own
book-keeping: scores, pairs met and byes are computed here, not taken from the package.
"""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from referee.tournament.swiss import PairingError, SetupError, check_setup, pair_round

TOURNAMENTS = 1000
BRUTE_FORCE_UP_TO = 12


def field(rng: random.Random) -> dict[str, str]:
    n = rng.randint(8, 60)
    units, u = {}, 0
    while len(units) < n:
        u += 1
        for _ in range(min(rng.choice((2, 3)), n - len(units))):
            units[f"p{len(units) + 1:02d}"] = f"u{u}"
    return units


def matchings(nodes: list[str], ok) -> list[list[frozenset]]:
    """Every perfect matching of ``nodes`` whose edges satisfy ``ok`` (brute force)."""
    if not nodes:
        return [[]]
    first, rest = nodes[0], nodes[1:]
    out = []
    for i, other in enumerate(rest):
        if ok(first, other):
            for m in matchings(rest[:i] + rest[i + 1 :], ok):
                out.append([frozenset((first, other))] + m)
    return out


def schedule_exists(units, met, had_bye, rounds) -> bool:
    """Brute force: ``rounds`` more rounds can be paired under the hard rules (byes included)."""
    if rounds == 0:
        return True
    ids = sorted(units)
    candidates = [None] if len(ids) % 2 == 0 else [p for p in ids if p not in had_bye]
    for bye in candidates:
        rest = [p for p in ids if p != bye]
        for m in matchings(rest, lambda a, b: units[a] != units[b] and frozenset((a, b)) not in met):
            if schedule_exists(units, met | set(m), had_bye | ({bye} if bye else set()), rounds - 1):
                return True
    return False


def sq(tables, score) -> int:
    return sum((score[a] - score[b]) ** 2 for a, b in (tuple(t) for t in tables))


def play(units: dict[str, str], rounds: int, rng: random.Random) -> int:
    """Play one tournament, validating each round; returns the number of rounds checked by brute force."""
    score = {p: 0 for p in units}
    level = {p: 0 for p in units}
    opponents = {p: [] for p in units}
    met: set[frozenset] = set()
    had_bye: set[str] = set()
    lot = sorted(units)
    rng.shuffle(lot)
    brute = 0
    for k in range(1, rounds + 1):
        def rank_key(p):
            return (-score[p], -sum(score[o] for o in opponents[p]), -level[p], lot.index(p))

        ranking = sorted(units, key=rank_key)
        tables, bye = pair_round(units, met, had_bye, dict(score), ranking, rounds - k + 1, random.Random(rng.random()))
        seated = [p for t in tables for p in t] + ([bye] if bye else [])
        assert sorted(seated) == sorted(units), "every pair exactly once"
        for t in tables:
            a, b = tuple(t)
            assert units[a] != units[b], f"round {k}: {a} and {b} are of one unit"
            assert t not in met, f"round {k}: {a}-{b} is a rematch"
        assert (bye is None) == (len(units) % 2 == 0)
        if bye is not None:
            assert bye not in had_bye, f"round {k}: second bye for {bye}"
            for p in ranking[ranking.index(bye) + 1 :]:  # everyone ranked lower had a bye or cannot take it
                if p in had_bye:
                    continue
                if len(units) <= BRUTE_FORCE_UP_TO:
                    assert not _pairable_without(units, met, had_bye, p, rounds - k), f"round {k}: {p} could have had the bye"
                else:
                    assert not _has_matching(units, met, p), f"round {k}: {p} could have had the bye"
        if len(units) <= BRUTE_FORCE_UP_TO:
            brute += 1
            chosen = sq(tables, score)
            rest = [p for p in sorted(units) if p != bye]
            cheaper = [m for m in matchings(rest, lambda a, b: units[a] != units[b] and frozenset((a, b)) not in met)
                       if sq(m, score) < chosen]
            hb = had_bye | ({bye} if bye else set())
            assert not any(schedule_exists(units, met | set(m), hb, rounds - k) for m in cheaper), \
                f"round {k}: a cheaper pairing than {chosen} keeps the rounds left possible"
        elif len(units) <= 24:
            assert sq(tables, score) == _blossom_cost(units, met, score, bye)
        for t in tables:
            a, b = sorted(t)
            r = rng.choice((0, 1, 2))  # a wins, draw, b wins
            pa, pb = ((2, 0), (1, 1), (0, 2))[r]
            score[a] += pa
            score[b] += pb
            level[a] += pa * 2 - 2
            level[b] += pb * 2 - 2
            opponents[a].append(b)
            opponents[b].append(a)
            met.add(frozenset((a, b)))
        if bye:
            score[bye] += 2
            level[bye] += 2
            had_bye.add(bye)
    return brute


def _has_matching(units, met, without) -> bool:
    g = nx.Graph()
    ids = [p for p in units if p != without]
    g.add_nodes_from(ids)
    g.add_edges_from((a, b) for a, b in itertools.combinations(ids, 2) if units[a] != units[b] and frozenset((a, b)) not in met)
    return 2 * len(nx.max_weight_matching(g, maxcardinality=True)) == len(ids)


def _pairable_without(units, met, had_bye, p, rounds_after) -> bool:
    rest = [q for q in sorted(units) if q != p]
    return any(schedule_exists(units, met | set(m), had_bye | {p}, rounds_after)
               for m in matchings(rest, lambda a, b: units[a] != units[b] and frozenset((a, b)) not in met))


def _blossom_cost(units, met, score, bye) -> int:
    """The cheapest pairing of the whole graph by networkx (no look-ahead: wide fields never need one)."""
    ids = [p for p in units if p != bye]
    g = nx.Graph()
    top = 4 * (max(score.values()) + 1) ** 2
    for a, b in itertools.combinations(ids, 2):
        if units[a] != units[b] and frozenset((a, b)) not in met:
            g.add_edge(a, b, weight=top - (score[a] - score[b]) ** 2)
    m = nx.max_weight_matching(g, maxcardinality=True)
    return sq([frozenset(e) for e in m], score)


def test_a_thousand_simulated_swiss_tournaments_keep_the_rules():
    rng = random.Random(20261126)
    played = refused = brute = 0
    for _ in range(TOURNAMENTS):
        units = field(rng)
        rounds = rng.randint(3, 6)
        try:
            check_setup(units, rounds)
        except SetupError as exc:
            refused += 1
            assert exc.key in ("refusal.swiss_can", "refusal.swiss_cannot"), exc.key
            assert exc.values["reason"].key != "refusal.swiss_unproved", f"{sorted(units.values())}: {exc}"
            continue
        try:
            brute += play(units, rounds, rng)
        except PairingError as exc:
            pytest.fail(f"{len(units)} pairs, {rounds} rounds: accepted but a round could not be paired: {exc}")
        played += 1
    assert played > 900 and brute > 50, (played, refused, brute)
