"""Benchmark of classifying climbing-game plays: ``readings(...)`` (every reading of a play).

Run from the repository root:  .venv/bin/python bench/bench_climbing.py  [--seed N] [--plays N] [--batches N]

For Guandan (sanjiang-2012, a random level per play) with 0, 1 and 2 wildcards (the heart level
card, 逢人配) and for San Da Yi (usst-2016, no wildcards), random LEGAL plays of every type the
rulebook has are built constructively (``tests/climbing/legal_plays.py``: a rank and copies for
sets, a window of places for sequences, a suit for straight flushes), in equal numbers per type
(types that cannot hold the wildcards are left out of that row: a single with two wildcards, the
joker bomb with any). Plays are kept as lists of card names, as the judge receives them.

Each batch times, over the same plays:
  * base:      ``Cards.parse`` of each play alone (the baseline, in the same run);
  * readings:  ``readings(rules, cards, level)`` on freshly parsed cards (the classification);
  * both:      parse and classify, what the judge's ``classify`` op does per play.
Rates are plays per second, the median over the batches. Target: readings at
20,000 plays/s or more for Guandan, every wildcard row; San Da Yi is shown without a target.
Two more tables break the readings rate down by play type (Guandan: all wildcard counts together).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "climbing"))

from legal_plays import Builder, kinds  # noqa: E402

from referee.cards import RANKS, Cards  # noqa: E402
from referee.climbing.combos import readings  # noqa: E402
from referee.rulebooks import load  # noqa: E402

TARGET = 20_000  # plays per second, Guandan


def build_play(rules, kind: str, wilds: int, rng: random.Random) -> tuple[list[str], str | None, str]:
    """One legal play of ``kind`` (names in random order, level, type); a random level for Guandan."""
    guandan = rules.ranks.wildcard == "heart_level"
    for _ in range(1000):
        level = rng.choice(RANKS) if guandan else None
        built = Builder(rules, level, rng).build(kind, wilds)
        if built is not None:
            names = list(built.cards.names())
            rng.shuffle(names)
            return names, level, built.type
    raise SystemExit(f"cannot build a {kind} with {wilds} wildcards")


def usable_kinds(rules, wilds: int) -> list[str]:
    """The types that can hold ``wilds`` wildcards."""
    ks = kinds(rules)
    if wilds:
        ks = [k for k in ks if k != "joker_bomb"]
    if wilds >= 2:
        ks = [k for k in ks if k != "single"]
    return ks


def time_batch(rules, plays) -> tuple[float, float, float]:
    """Plays per second: parse alone, readings alone, parse and readings."""
    t0 = time.perf_counter()
    for names, _, _ in plays:
        Cards.parse(names)
    t1 = time.perf_counter()
    parsed = [(Cards.parse(names), level) for names, level, _ in plays]
    t2 = time.perf_counter()
    for cards, level in parsed:
        readings(rules, cards, level)
    t3 = time.perf_counter()
    for names, level, _ in plays:
        readings(rules, Cards.parse(names), level)
    t4 = time.perf_counter()
    n = len(plays)
    return n / (t1 - t0), n / (t3 - t2), n / (t4 - t3)


def check_legal(rules, plays) -> None:
    for names, level, kind in plays:
        found = {r.type for r in readings(rules, Cards.parse(names), level)}
        if kind not in found:
            raise SystemExit(f"not classified as built: {kind} {names} level {level}: {sorted(found)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--plays", type=int, default=3000, help="plays per batch")
    ap.add_argument("--batches", type=int, default=9)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    start = time.perf_counter()

    rows = [("sanjiang-2012", w) for w in (0, 1, 2)] + [("usst-2016", 0)]
    print(f"plays per batch {args.plays}, batches {args.batches}, median plays/s (seed {args.seed})")
    head = f"{'rulebook':<14} {'wild':>4} {'types':>5} {'base parse/s':>13} {'readings/s':>11} {'both/s':>9} {'x base':>7}  result"
    print(head)
    print("-" * len(head))
    ok = True
    for book, wilds in rows:
        rules = load(book)
        ks = usable_kinds(rules, wilds)
        plays = [build_play(rules, ks[i % len(ks)], wilds, rng) for i in range(args.plays)]
        check_legal(rules, plays)
        rates = []
        for _ in range(args.batches):
            rng.shuffle(plays)
            rates.append(time_batch(rules, plays))
        base, read, both = (statistics.median(r[i] for r in rates) for i in range(3))
        if book == "sanjiang-2012":
            passed = read >= TARGET
            ok &= passed
            result = f"{'PASS' if passed else 'FAIL'} (>= {TARGET:,}/s)"
        else:
            result = "(no target)"
        print(
            f"{book:<14} {wilds:>4} {len(ks):>5} {base:>13,.0f} {read:>11,.0f} {both:>9,.0f} {base / read:>7.1f}  {result}"
        )

    for book, note in (("sanjiang-2012", "0-2 wildcards mixed, random levels"), ("usst-2016", "")):
        rules = load(book)
        print()
        print(f"{book} readings/s by play type{' (' + note + ')' if note else ''}")
        per_kind = max(300, args.plays // 6)
        for kind in kinds(rules):
            ws = [w for w in (0, 1, 2) if kind in usable_kinds(rules, w)] if note else [0]
            plays = [build_play(rules, kind, ws[i % len(ws)], rng) for i in range(per_kind)]
            rates = [time_batch(rules, plays)[1] for _ in range(args.batches)]
            print(f"  {kind:<16} {statistics.median(rates):>11,.0f}")

    print()
    print(
        f"{'PASS' if ok else 'FAIL'}: Guandan classification {'meets' if ok else 'misses'} {TARGET:,} plays/s"
        f" ({time.perf_counter() - start:.1f} s)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
