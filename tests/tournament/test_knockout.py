"""Knockout, best of three (seed 002) worked by hand: byes by the lot, the single games of stage
1, best of three in stage 2, the play-offs that rank places 1 to 8, a forfeit."""

from __future__ import annotations

import pytest

from referee.tournament.core import TournamentError
from referee.tournament.knockout import plan
from referee.tournament.views import standings_view

FIRST = {"winner": 0, "games": [2, 1]}


def entries(n):
    return {f"k{i:02d}": f"u{i}" for i in range(1, n + 1)}


def test_plans():
    assert [plan(n) for n in (2, 3, 8, 9, 16, 17, 32, 33, 64)] == [
        (0, 2), (0, 4), (0, 8), (0, 16), (0, 16), (1, 16), (1, 16), (2, 16), (2, 16)]


def test_eight_entries_ranked_one_to_eight_by_the_play_offs(hand_log):
    lot = [f"k{i:02d}" for i in (3, 7, 1, 5, 8, 2, 6, 4)]  # L0 .. L7
    L = lot
    log = hand_log("knockout-best-of-three", entries(8), lot=lot)
    t = log.replay()
    assert t.total_rounds == 3
    tables, byes = t.rules.pair(t, 1)
    assert [e for _, e in tables] == [(L[0], L[1]), (L[2], L[3]), (L[4], L[5]), (L[6], L[7])] and byes == []
    log.pair(1, [e for _, e in tables]).results(1, FIRST, FIRST, FIRST, FIRST)
    t = log.replay()
    # Semi-finals of the winners, and of the quarter-final losers for places 5 to 8.
    tables, _ = t.rules.pair(t, 2)
    assert [e for _, e in tables] == [(L[0], L[2]), (L[4], L[6]), (L[1], L[3]), (L[5], L[7])]
    log.pair(2, [e for _, e in tables]).results(2, FIRST, FIRST, FIRST, FIRST)
    t = log.replay()
    # Final, 3rd place, 5th place, 7th place.
    tables, _ = t.rules.pair(t, 3)
    assert [e for _, e in tables] == [(L[0], L[4]), (L[2], L[6]), (L[1], L[5]), (L[3], L[7])]
    log.pair(3, [e for _, e in tables]).results(3, FIRST, {"winner": 1, "games": [1, 2]}, FIRST, FIRST)
    rows = standings_view(log.replay())["rows"]
    assert [(r["rank"], r["id"]) for r in rows] == [
        (1, L[0]), (2, L[4]), (3, L[6]), (4, L[2]), (5, L[1]), (6, L[5]), (7, L[3]), (8, L[7])]
    assert rows[0]["score"] == 3 and all(r["prize"] is None for r in rows)


def test_twenty_entries_single_games_then_sixteen(hand_log):
    n = entries(20)
    lot = list(n)
    log = hand_log("knockout-best-of-three", n, lot=lot)
    t = log.replay()
    assert t.total_rounds == 5
    tables, byes = t.rules.pair(t, 1)
    # 20 -> 16: 4 single games among the last 8 of the lot, 12 byes for the first 12.
    assert byes == lot[:12] and [e for _, e in tables] == [tuple(lot[i : i + 2]) for i in range(12, 20, 2)]
    log.pair(1, [e for _, e in tables], byes)
    with pytest.raises(TournamentError, match="1 局 1 胜制"):
        log.results(1, {"winner": 0, "games": [2, 1]}).replay()
    log.actions.pop()
    log.results(1, {"winner": 1}, {"winner": 0}, {"winner": 0}, {"winner": 0})
    t = log.replay()
    assert t.rounds[0].tables[0].outcome.scores == (0, 1)
    tables, byes = t.rules.pair(t, 2)
    alive = lot[:12] + [lot[13], lot[14], lot[16], lot[18]]
    assert byes == [] and [e for _, e in tables] == [tuple(alive[i : i + 2]) for i in range(0, 16, 2)]
    rows = standings_view(t)["rows"]
    assert {r["id"]: r["rank"] for r in rows}[lot[12]] == 17


def test_best_of_three_needs_two_games_and_a_forfeit_loses(hand_log):
    log = hand_log("knockout-best-of-three", entries(4)).pair(1, [("k01", "k02"), ("k03", "k04")])
    for bad in ({"winner": 0, "games": [2, 2]}, {"winner": 0, "games": [1, 0]}, {"draw": True}):
        with pytest.raises(TournamentError):
            log.results(1, bad).replay()
        log.actions.pop()
    t = log.add("forfeit", round=1, table="t02", entries=["k03"]).replay()
    assert t.rounds[0].tables[1].outcome.points == (0, 1)
    t = log.add("game", round=1, table="t01", winner=1, levels=None, event="t01:5:game_won").replay()
    assert t.rounds[0].tables[0].outcome is None  # one game of three
    t = log.add("game", round=1, table="t01", winner=1, levels=None, event="t01:9:game_won").replay()
    assert t.rounds[0].tables[0].outcome.scores == (0, 2)


def test_a_correction_changes_who_goes_on_and_a_late_pair_forfeits(hand_log):
    log = hand_log("knockout-best-of-three", entries(4)).pair(1, [("k01", "k02"), ("k03", "k04")]).results(1, FIRST, FIRST)
    t = log.replay()
    tables, _ = t.rules.pair(t, 2)
    assert [e for _, e in tables] == [("k01", "k03"), ("k02", "k04")]  # the final, and 3rd place
    log.pair(2, [e for _, e in tables])
    t = log.add("correct", round=1, table="t01", result={"winner": 1, "games": [1, 2]}).replay()
    assert [x.entries for x in t.rounds[1].tables] == [("k02", "k03"), ("k01", "k04")]
    # Seed 002: five minutes after the start a pair not at its table forfeits the round.
    t = log.add("late", round=2, entry="k04", minutes=4).replay()
    assert t.rounds[1].tables[1].outcome is None
    t = log.add("late", round=2, entry="k04", minutes=6).replay()
    assert t.rounds[1].tables[1].outcome.points == (1, 0)
    assert [r["rank"] for r in standings_view(t)["rows"] if r["id"] in ("k01", "k04")] == [3, 4]
