"""Benchmark of the pair-swiss pairing: the time to pair one round of 200 pairs.

Run from the repository root:  .venv/bin/python bench/bench_tournament.py  [--pairs N] [--rounds N]
[--tournaments N] [--seed S]

For each of ``--tournaments`` fields of ``--pairs`` pairs in units of one or two teams of two
pairs (as ``cardtable tournament simulate`` makes them), ``--rounds`` rounds are paired and played with
random results. Timed per round: ``pair_round`` (the whole pairing: the bye, the cheapest
pairing, the look-ahead that the rounds left can still be paired) and, on the same round's
input, the blossom alone (``min_cost_pairing(quick=False)``: networkx on the score window, the
path taken when no greedy pass reaches the lower bound). The baseline, in the same run, is
networkx's ``max_weight_matching`` on the whole graph of allowed tables (every pair against every
pair it may meet), what a plain implementation would call; it is timed on the first
tournament's rounds only (it takes seconds). Also timed: ``TournamentStore.pair_next_round``
(replay, pairing, SQLite append) for the same field, and each ``record_result`` (the append and the checkpoint after
it that keeps the ``.db`` whole without its ``-wal``).

Also timed: the registration check (``check_setup``: a schedule of every round found, or the count
that rules it out) on ``--fields`` fields of 64 pairs in the hard zone, one unit of 26 to 32 pairs
and the rest in units of one to six (Dirac's condition answers the fields of small units at once).

Targets: a round of 200 pairs paired in under 1 s (the maximum of ``pair_round`` over
every round, the hard-zone fields' rounds too), and a result recorded in under 1 s; a 64-pair field checked at
registration in under 3 s. Prints PASS/FAIL and exits 1
on FAIL.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.tournament import TournamentStore  # noqa: E402
from referee.tournament.matching import Edge, Graph, min_cost_pairing  # noqa: E402
from referee.tournament.simulate import make_entries, random_result  # noqa: E402
from referee.tournament.swiss import SetupError, allowed, check_setup, pair_round  # noqa: E402

TARGET_S = 1.0
SETUP_TARGET_S = 3.0


def full_graph_blossom(units, met, scores) -> float:
    import networkx as nx

    g = nx.Graph()
    top = 4 * (max(scores.values()) + 1) ** 2
    for a, b in itertools.combinations(sorted(units), 2):
        if units[a] != units[b] and Edge((a, b)) not in met:
            g.add_edge(a, b, weight=top - (scores[a] - scores[b]) ** 2)
    t = time.perf_counter()
    nx.max_weight_matching(g, maxcardinality=True)
    return time.perf_counter() - t


def one_tournament(n: int, rounds: int, rng: random.Random, baseline: bool) -> list[tuple[int, float, float, float | None]]:
    entries = make_entries("pair-swiss", n, rng)
    units = {e.id: e.unit for e in entries}
    scores = {p: 0 for p in units}
    met: set = set()
    had_bye: set = set()
    out = []
    for k in range(1, rounds + 1):
        ranking = sorted(units, key=lambda p: (-scores[p], p))
        t = time.perf_counter()
        tables, bye = pair_round(units, met, had_bye, dict(scores), ranking, rounds - k + 1, random.Random(k))
        whole = time.perf_counter() - t
        nodes = [p for p in units if p != bye]
        graph = allowed({p: units[p] for p in nodes}, met, set(), False)
        t = time.perf_counter()
        min_cost_pairing(nodes, scores, graph, random.Random(k), quick=False)
        blossom = time.perf_counter() - t
        base = full_graph_blossom({p: units[p] for p in nodes}, met, scores) if baseline else None
        out.append((k, whole, blossom, base))
        for table in tables:
            a, b = sorted(table)
            r = random_result("pair-swiss", 1, rng)
            w = r.get("winner")
            scores[a] += 1 if w is None else 2 * (w == 0)
            scores[b] += 1 if w is None else 2 * (w == 1)
            met.add(table)
        if bye:
            scores[bye] += 2
            had_bye.add(bye)
    return out


def store_pairing(n: int, rounds: int, seed: int) -> tuple[list[float], list[float]]:
    """Seconds of each ``pair_next_round`` and of each ``record_result`` (the file checkpointed after it)."""
    rng = random.Random(seed)
    times, results = [], []
    with tempfile.TemporaryDirectory() as tmp:
        store = TournamentStore(Path(tmp) / "bench.db")
        store.new("pair-swiss", make_entries("pair-swiss", n, rng), seed=seed, options={"rounds": rounds})
        for k in range(1, rounds + 1):
            t = time.perf_counter()
            view = store.pair_next_round()
            times.append(time.perf_counter() - t)
            for x in view["tables"]:
                t = time.perf_counter()
                store.record_result(k, x["table"], random_result("pair-swiss", 1, rng))
                results.append(time.perf_counter() - t)
        store.close()
    return times, results


def setup_checks(fields: int, rng: random.Random) -> list[tuple[float, bool, float]]:
    """(seconds, accepted, worst pair_round seconds) of ``check_setup`` for 6 rounds on fields of 64 pairs with one
    big unit, and of pairing the 6 rounds of each accepted field (random results)."""
    out = []
    for _ in range(fields):
        units = {f"p{i:02d}": "big" for i in range(rng.randint(26, 32))}
        u = 0
        while len(units) < 64:
            u += 1
            for _ in range(min(rng.randint(1, 6), 64 - len(units))):
                units[f"p{len(units):02d}"] = f"u{u}"
        t = time.perf_counter()
        try:
            check_setup(units, 6)
            ok = True
        except SetupError:
            ok = False
        checked = time.perf_counter() - t
        out.append((checked, ok, max(hard_rounds(units, rng)) if ok else 0.0))
    return out


def hard_rounds(units: dict[str, str], rng: random.Random) -> list[float]:
    """Seconds of ``pair_round`` for each of 6 rounds of a field, played with random results."""
    scores, met, times = {p: 0 for p in units}, set(), []
    for k in range(1, 7):
        ranking = sorted(units, key=lambda p: (-scores[p], p))
        t = time.perf_counter()
        tables, _ = pair_round(units, met, set(), dict(scores), ranking, 7 - k, random.Random(k))
        times.append(time.perf_counter() - t)
        for table in tables:
            a, b = sorted(table)
            r = rng.randrange(3)
            scores[a] += (2, 1, 0)[r]
            scores[b] += (0, 1, 2)[r]
            met.add(table)
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--tournaments", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--fields", type=int, default=20, help="64-pair fields for the registration check")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    min_cost_pairing(["a", "b"], {"a": 0, "b": 0}, Graph(frozenset("ab")), random.Random(0), quick=False)  # import networkx
    rows = [r for i in range(args.tournaments) for r in one_tournament(args.pairs, args.rounds, rng, baseline=i == 0)]
    store, results = store_pairing(args.pairs, args.rounds, args.seed)
    print(f"pair-swiss, {args.pairs} pairs, {args.rounds} rounds, {args.tournaments} tournaments (seconds per round)")
    print(f"{'round':>5} {'pair_round med':>15} {'max':>8} {'blossom med':>12} {'full graph (base)':>18} {'x base':>7}")
    for k in range(1, args.rounds + 1):
        mine = [r for r in rows if r[0] == k]
        whole = [r[1] for r in mine]
        blossom = [r[2] for r in mine]
        base = [r[3] for r in mine if r[3] is not None]
        ratio = statistics.median(whole) / base[0] if base else float("nan")
        print(f"{k:>5} {statistics.median(whole):>15.4f} {max(whole):>8.4f} {statistics.median(blossom):>12.4f}"
              f" {base[0]:>18.3f} {ratio:>7.4f}")
    worst = max(r[1] for r in rows)
    worst_blossom = max(r[2] for r in rows)
    print(f"store.pair_next_round per round: median {statistics.median(store):.4f} s, max {max(store):.4f} s")
    print(f"store.record_result per result: median {statistics.median(results):.4f} s, max {max(results):.4f} s"
          f" (target < {TARGET_S} s)")
    setup = setup_checks(args.fields, random.Random(args.seed))
    setup_s = [s for s, _, _ in setup]
    hard_s = max(h for _, _, h in setup)
    print(f"check_setup, 64 pairs, one unit of 26-32, 6 rounds, {args.fields} fields: median {statistics.median(setup_s):.3f} s,"
          f" max {max(setup_s):.3f} s, {sum(ok for _, ok, _ in setup)} accepted; their pair_round: worst {hard_s:.3f} s")
    ok = worst < TARGET_S and worst_blossom < TARGET_S and max(setup_s) < SETUP_TARGET_S and hard_s < TARGET_S and max(results) < TARGET_S
    print(f"{'PASS' if ok else 'FAIL'}: worst pair_round {worst:.4f} s, worst blossom {worst_blossom:.4f} s (target < {TARGET_S} s),"
          f" worst check_setup {max(setup_s):.3f} s (target < {SETUP_TARGET_S} s), its worst pair_round {hard_s:.3f} s and"
          f" worst record_result {max(results):.4f} s (target < {TARGET_S} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
