"""Refusals that said the wrong thing: a round 0 (rounds count from 1), a result entered twice (the same one is
already recorded, not another), a lateness no event could last (over 24 hours). Each changes nothing and is said in
both languages."""

from __future__ import annotations

import pytest

from referee.tournament import Entry, TournamentError, TournamentStore

UNITS = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", "c1": "C", "c2": "C"}


@pytest.fixture
def store(tmp_path):
    s = TournamentStore(tmp_path / "t.db")
    s.new("pair-swiss", [Entry(e, e, u, u, (f"{e}甲", f"{e}乙")) for e, u in UNITS.items()], seed=7,
          options={"rounds": 3})
    s.pair_next_round()
    yield s
    s.close()


def refused(store, change) -> TournamentError:
    before = store.actions()
    with pytest.raises(TournamentError) as exc:
        change()
    assert store.actions() == before  # nothing changed
    return exc.value


def test_round_zero_is_said_as_rounds_counting_from_one(store):
    for no in (0, -1):
        exc = refused(store, lambda: store.record_result(no, "t01", {"winner": 0}))
        assert str(exc) == f"轮次从 1 算起，没有第 {no} 轮（已编排 1 轮）"
        assert exc.text("en") == f"rounds count from 1: there is no round {no} (rounds paired: 1)"
    exc = refused(store, lambda: store.record_result(2, "t01", {"winner": 0}))
    assert str(exc) == "第 2 轮尚未编排（已编排 1 轮）"  # a round to come is still said so


def test_the_same_result_twice_is_said_already_recorded_and_another_one_to_be_corrected(store):
    store.record_result(1, "t01", {"winner": 0})
    exc = refused(store, lambda: store.record_result(1, "t01", {"winner": 0}))
    assert str(exc) == "第 1 轮 t01 桌已记下同样的成绩，这次录入未作任何更改"
    assert exc.text("en") == "round 1 t01 has this same result recorded already: nothing changed"
    exc = refused(store, lambda: store.record_result(1, "t01", {"winner": 1}))
    assert str(exc) == "第 1 轮 t01 桌已有成绩；请改用更正"
    exc = refused(store, lambda: store.record_result(1, "t01", {"draw": True}))
    assert exc.key == "refusal.has_result"


def test_lateness_past_a_day_is_refused_in_words(store):
    entry = store.tournament.rounds[0].tables[1].entries[0]
    for minutes in (1e9, 1441, float("inf"), -1):
        exc = refused(store, lambda: store.late_arrival(1, entry, minutes))
        assert str(exc) == f"迟到分钟数应在 0 到 1440（24 小时）之间，而不是 {minutes:g}：比赛不会持续那么久"
        assert exc.text("en") == f"minutes late must be 0 to 1440 (24 hours), not {minutes:g}: no event lasts that long"
    store.late_arrival(1, entry, 1440)  # a whole day late is still taken: the team's round forfeited
    assert entry in store.tournament.rounds[0].tables[1].forfeits
