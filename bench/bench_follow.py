"""Benchmark of the follow check (``follow_ruling``) and of judging a whole hand (``HandJudge``).

Run from the repository root:  .venv/bin/python bench/bench_follow.py  [--seed N] [--leads N] [--hands N]

For each rulebook (classic-3deck: 3 decks; shaoguan-2023: 4 decks) and each lead shape, random
deals are searched for a hand that holds a unit of that shape (``referee.tractor.bots.units_in``);
of the leads found in a deal, the one whose followers hold the most cards of the led suit is
taken (a long holding is what makes the follow check expensive). Each of the three followers
then follows in turn, with the earlier follows as ``before``; two checks are timed per follower:
the legal follow built by ``legal_follow`` and a random play of the led suit (mostly illegal,
which also builds the explanation). Inputs are fresh ``Cards`` objects, as a judge would parse them.

The baseline, measured in the same run, is the time to parse a single-card follow
(``Cards.parse`` of hand, lead and play) plus ``Trumps.of``; the ``x base`` columns are the
median and p99 divided by the baseline median. Targets: p99 under 5 ms per
follow check with 3 decks, under 20 ms with 4 decks. The whole-hand row has no target.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.cards import RANKS, SUITS, Cards  # noqa: E402
from referee.tractor.bots import deal, legal_follow, random_lead, random_throw, units_in  # noqa: E402
from referee.tractor.follow import follow_ruling  # noqa: E402
from referee.tractor.hand import SEATS, HandJudge, next_seat  # noqa: E402
from referee.tractor.leads import judge_lead  # noqa: E402
from referee.tractor.tricks import trick_winner  # noqa: E402
from referee.tractor.trumps import Trumps  # noqa: E402

BOOKS = {
    # book: (target p99 in ms, shapes)
    "classic-3deck": (
        5.0,
        [
            ("single", (1, 1)),
            ("pair", (2, 1)),
            ("triple", (3, 1)),
            ("pair tractor x2", (2, 2)),
            ("pair tractor x3", (2, 3)),
            ("triple tractor x2", (3, 2)),
            ("throw", "throw"),
        ],
    ),
    "shaoguan-2023": (
        20.0,
        [
            ("single", (1, 1)),
            ("pair", (2, 1)),
            ("triple", (3, 1)),
            ("pair tractor x2", (2, 2)),
            ("pair tractor x3", (2, 3)),
            ("triple tractor x2", (3, 2)),
            ("bomb", (4, 1)),
            ("bomb tractor x2", (4, 2)),
        ],
    ),
}
SEARCH_LIMIT_S = 40.0  # per rulebook: stop searching deals for rare shapes after this long


def fresh(cards: Cards) -> Cards:
    """A new Cards object with no cached state, as if just parsed."""
    return Cards.parse(cards.names())


def random_trumps(book: str, rng: random.Random) -> Trumps:
    return Trumps.of(book, rng.choice(RANKS), rng.choice(SUITS))


def followers(leader: str) -> list[str]:
    out = [next_seat(leader)]
    while len(out) < 3:
        out.append(next_seat(out[-1]))
    return out


def build_throw(t: Trumps, held: Cards, rng: random.Random) -> Cards | None:
    """Several units of one suit class (at most 12 cards), legal as a lead; whether it stands does not matter."""
    units = units_in(t, held)
    rng.shuffle(units)
    chosen = Cards()
    for unit in units:
        if held.contains(chosen + unit.cards) and len(chosen) + len(unit) <= 12:
            chosen = chosen + unit.cards
    if not chosen:
        return None
    ruling = judge_lead(t, chosen)
    return chosen if ruling.legal and len(ruling.structure) >= 2 else None


def find_leads(book: str, shapes: list, want: int, rng: random.Random) -> tuple[dict, int]:
    """Search random deals: per shape, up to ``want`` (trumps, hands, leader, lead) samples."""
    rules = Trumps.of(book, "2", "S").rules
    found: dict = {name: [] for name, _ in shapes}
    deals = 0
    start = time.perf_counter()
    while any(len(v) < want for v in found.values()) and time.perf_counter() - start < SEARCH_LIMIT_S:
        deals += 1
        t = random_trumps(book, rng)
        hands, _ = deal(rules.deal.decks, rules.deal.kitty, rng)
        # cheap pre-check: per seat, suit class and width, how many distinct cards reach that width
        reach = {
            s: Counter((t.suit_of(c), w) for c, n in h.counts().items() for w in (1, 2, 3, 4) if n >= w)
            for s, h in hands.items()
        }
        split: dict = {}  # seat -> suit class -> cards, computed when first needed

        def held(seat: str, suit: str) -> Cards:
            if seat not in split:
                split[seat] = {k: t.of_suit(hands[seat], k) for k in t.suits_in(hands[seat])}
            return split[seat].get(suit, Cards())

        for name, shape in shapes:
            if len(found[name]) >= want:
                continue
            width, length = (1, 2) if shape == "throw" else shape
            best, best_score = None, -1
            for seat in SEATS:
                for suit in sorted({k for k, w in reach[seat] if reach[seat][(k, width)] >= length}):
                    score = max(len(held(f, suit)) for f in followers(seat))
                    if score <= best_score:
                        continue
                    if shape == "throw":
                        lead = build_throw(t, held(seat, suit), rng)
                    else:
                        units = [u for u in units_in(t, held(seat, suit)) if u.kind == shape]
                        lead = rng.choice(units).cards if units else None
                    if lead is not None:
                        best, best_score = (t, hands, seat, lead), score
            if best is not None:
                found[name].append(best)
    return found, deals


def time_follows(samples: list, rng: random.Random, given: bool = False) -> list[float]:
    """Milliseconds per ``follow_ruling`` call, for every follower of every sample lead.

    ``given``: pass the lead's structure in (as HandJudge does, once per trick) instead of
    letting ``follow_ruling`` read it from the lead on every call."""
    times = []
    for t, hands, leader, lead in samples:
        hands = dict(hands)
        hands[leader] = hands[leader] - lead
        structure = judge_lead(t, lead).structure
        suit = structure[0].suit
        before: list[Cards] = []
        for seat in followers(leader):
            hand = hands[seat]
            legal = legal_follow(t, hand, lead, rng, before)
            held = list(t.of_suit(hand, suit))
            if len(held) >= len(lead):
                other = Cards(rng.sample(held, len(lead)))
            else:
                other = Cards(held) + Cards(rng.sample(list(hand - Cards(held)), len(lead) - len(held)))
            for play in (legal, other):
                h, l, p, b = fresh(hand), fresh(lead), fresh(play), [fresh(x) for x in before]
                a = time.perf_counter()
                follow_ruling(t, h, l, p, b, structure if given else None)
                times.append((time.perf_counter() - a) * 1000)
            hands[seat] = hand - legal
            before.append(legal)
    return times


def baseline(book: str, rng: random.Random, reps: int = 3000) -> list[float]:
    """Parse a single-card follow (hand, lead, play) and build the trumps: the floor of any check."""
    rules = Trumps.of(book, "2", "S").rules
    cases = []
    for _ in range(50):
        hands, _ = deal(rules.deal.decks, rules.deal.kitty, rng)
        hand = hands["E"].names()
        cases.append((hand, [rng.choice(hands["S"].names())], [rng.choice(hand)], rng.choice(RANKS), rng.choice(SUITS)))
    times = []
    for i in range(reps):
        hand, lead, play, level, suit = cases[i % len(cases)]
        a = time.perf_counter()
        Cards.parse(hand), Cards.parse(lead), Cards.parse(play)
        Trumps.of(book, level, suit)
        times.append((time.perf_counter() - a) * 1000)
    return times


def play_hand(book: str, rng: random.Random) -> tuple[Trumps, str, list[tuple[str, Cards]], Cards]:
    """A whole hand played by the random players: the plays in order and the kitty."""
    t = random_trumps(book, rng)
    rules = t.rules
    hands, kitty = deal(rules.deal.decks, rules.deal.kitty, rng)
    dealer = rng.choice(SEATS)
    events = []
    leader = dealer
    while hands[leader]:
        lead = None
        if rng.random() < 0.3:
            lead = random_throw(t, hands[leader], {s: h for s, h in hands.items() if s != leader}, rng)
        lead = lead or random_lead(t, hands[leader], rng)
        events.append((leader, lead))
        hands[leader] = hands[leader] - lead
        before: list[Cards] = []
        for seat in followers(leader):
            play = legal_follow(t, hands[seat], lead, rng, before)
            events.append((seat, play))
            hands[seat] = hands[seat] - play
            before.append(play)
        plays = [c for _, c in events[-4:]]
        leader = events[-4 + trick_winner(t, plays, judge_lead(t, lead).structure)][0]
    return t, dealer, events, kitty


def time_hands(book: str, n: int, rng: random.Random) -> list[float]:
    times = []
    for _ in range(n):
        t, dealer, events, kitty = play_hand(book, rng)
        events = [(s, fresh(c)) for s, c in events]
        a = time.perf_counter()
        j = HandJudge.start(t, dealer)
        for seat, cards in events:
            j = j.play(seat, cards)
        if t.rules.deal.kitty:
            j = j.show_kitty(kitty)
        j.finish()
        times.append((time.perf_counter() - a) * 1000)
    return times


def p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.99 * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--leads", type=int, default=100, help="sample leads per shape (3 followers x 2 checks each)")
    ap.add_argument("--hands", type=int, default=8, help="whole hands judged per rulebook")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    began = time.perf_counter()
    header = f"{'decks':>5}  {'book':<14} {'what':<24} {'n':>5} {'median ms':>10} {'p99 ms':>9} {'x base':>7} {'p99 x':>7} {'target':>7}  result"
    rows, notes = [], []
    for book, (target, shapes) in BOOKS.items():
        decks = Trumps.of(book, "2", "S").rules.deal.decks
        base = baseline(book, rng)
        base_med = statistics.median(base)
        rows.append(f"{decks:>5}  {book:<14} {'baseline (parse)':<24} {len(base):>5} {base_med:>10.3f} {p99(base):>9.3f} {1:>7.1f} {p99(base) / base_med:>7.1f} {'':>7}  -")
        found, deals = find_leads(book, shapes, args.leads, rng)
        runs = [(name, found[name], False) for name, _ in shapes]
        runs += [(name + ", struct. given", found[name], True) for name, shape in shapes if shape == "throw"]
        for name, samples, given in runs:
            times = time_follows(samples, rng, given)
            if not times:
                rows.append(f"{decks:>5}  {book:<14} {name:<24} {0:>5} {'(none found in ' + str(deals) + ' deals)':>35}")
                continue
            med, top = statistics.median(times), p99(times)
            verdict = "PASS" if top < target else "FAIL"
            rows.append(
                f"{decks:>5}  {book:<14} {name:<24} {len(times):>5} {med:>10.3f} {top:>9.3f} {med / base_med:>7.1f} {top / base_med:>7.1f} {target:>7.1f}  {verdict}"
            )
        hands = time_hands(book, args.hands, rng)
        med, top = statistics.median(hands), p99(hands)
        rows.append(f"{decks:>5}  {book:<14} {'whole hand (judge)':<24} {len(hands):>5} {med:>10.1f} {top:>9.1f} {med / base_med:>7.0f} {top / base_med:>7.0f} {'':>7}  -")
        notes.append(f"{book}: {deals} random deals searched for the leads")
    print(header)
    print("-" * len(header))
    for row in rows:
        print(row)
    print()
    for note in notes:
        print(note)
    print(f"n = follow checks timed (whole hand: hands judged); {time.perf_counter() - began:.0f} s in all")


if __name__ == "__main__":
    main()
