"""Individual tables (seed 004) worked by hand: 5/3/2/1 by the table's ranking, ties sharing
their places' points, 小分 as the tie-break, a forfeit, the draw that spreads units, and a field
that is not a multiple of four refused."""

from __future__ import annotations

import pytest

from referee.tournament.core import TournamentError
from referee.tournament.entries import Entry
from referee.tournament.store import TournamentStore
from referee.tournament.views import standings_view

UNITS = {"s1": "机械", "s2": "机械", "s3": "光电", "s4": "光电", "s5": "管理", "s6": "管理", "s7": "外语", "s8": "外语"}


def test_round_points_ties_and_the_game_score_tie_break(hand_log):
    """004 一 1: 每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分，最终比赛结果按照四轮比赛累计积分进行排名，
    如出现积分相同者，则计算小分进行排名，小分高者排名靠前 -- and where the seed is silent (level on both): rounds
    forfeited, then the lot."""
    log = (hand_log("individual-tables", UNITS, options={"rounds": 2})
           .pair(1, [("s1", "s3", "s5", "s7"), ("s2", "s4", "s6", "s8")])
           .results(1, {"scores": [30, 10, 30, -5]}, {"scores": [12, 40, 0, 8]})
           .pair(2, [("s1", "s4", "s6", "s7"), ("s2", "s3", "s5", "s8")])
           .results(2, {"scores": [0, 20, 10, 5]}, {"scores": [15, -10, 3, 1]}))
    t = log.replay()
    assert t.rounds[0].tables[0].outcome.points == (4, 2, 4, 1)  # two first: (5 + 3) / 2 each
    # Round 2: s4 5, s6 3, s7 2, s1 1; s2 5, s5 3, s8 2, s3 1.
    # Totals: s4 10, s2 8, s5 7, s1 5, s6 4, s8 4, s3 3, s7 3. 小分: s4 60, s2 27, s5 33, s1 30,
    # s6 10, s8 9 (s6 first at 4), s3 0, s7 0: level on both, the lot (s3 first) decides.
    rows = standings_view(t)["rows"]
    assert [(r["id"], r["score"], r["tiebreaks"]) for r in rows] == [
        ("s4", 10, [60, 0]), ("s2", 8, [27, 0]), ("s5", 7, [33, 0]), ("s1", 5, [30, 0]), ("s6", 4, [10, 0]),
        ("s8", 4, [9, 0]), ("s3", 3, [0, 0]), ("s7", 3, [0, 0])]
    assert standings_view(t)["columns"] == ["小分", "弃权"]
    # ... unless the lot says otherwise
    lot = ["s7"] + [p for p in UNITS if p != "s7"]
    log.actions[0]["data"]["lot"] = lot
    assert [r["id"] for r in standings_view(log.replay())["rows"]][-2:] == ["s7", "s3"]


def test_the_standings_head_the_round_points_as_the_seed_does(hand_log):
    """004 一 1: 最终比赛结果按照四轮比赛累计积分进行排名 -- the total is the round points (积分), the 小分 beside it."""
    from referee.tournament.export import standing_rows

    t = hand_log("individual-tables", UNITS, options={"rounds": 1}).replay()
    assert standing_rows(t, "zh")[0][4:7] == ["积分", "小分", "弃权"] and standing_rows(t, "en")[0][4] == "Points"


def test_a_forfeit_scores_nothing_and_the_others_rank_among_themselves(hand_log):
    log = (hand_log("individual-tables", UNITS, options={"rounds": 1})
           .pair(1, [("s1", "s3", "s5", "s7"), ("s2", "s4", "s6", "s8")])
           .add("forfeit", round=1, table="t01", entries=["s3"]))
    assert log.replay().rounds[0].tables[0].outcome is None
    # The others' scores entered: s3's forfeit stands (0 and 0); s1, s5, s7 take 5, 3, 2 by their scores.
    x = log.results(1, {"scores": [30, 0, 10, -5]}).replay().rounds[0].tables[0]
    assert (x.outcome.points, x.outcome.scores) == ((5, 0, 3, 2), (30, 0, 10, -5))
    # A correction restates the table: s3 did play after all.
    x = log.add("correct", round=1, table="t01", result={"scores": [30, 99, 10, -5]}, reason="").replay().rounds[0].tables[0]
    assert (x.forfeits, x.outcome.points) == ((), (3, 5, 2, 1))


def test_the_draw_spreads_the_units_and_seats_four(tmp_path):
    entries = [Entry(e, e, u, u, (e,)) for e, u in UNITS.items()]
    store = TournamentStore(tmp_path / "t.db")
    store.new("individual-tables", entries, seed=11)
    for _ in range(4):
        view = store.pair_next_round()
        for x in view["tables"]:
            assert len(x["entries"]) == 4
            assert len({e["unit"] for e in x["entries"]}) == 4, x
            store.record_result(view["round"], x["table"], {"scores": [1, 2, 3, 4]})
    assert store.tournament.finished


def test_a_field_not_a_multiple_of_four_is_refused(tmp_path):
    entries = [Entry(f"e{i}", f"e{i}", f"u{i}", f"u{i}", (f"e{i}",)) for i in range(10)]
    store = TournamentStore(tmp_path / "t.db")
    with pytest.raises(TournamentError, match="现有 10 名选手，请增加 2 名或减少 2 名"):
        store.new("individual-tables", entries)
    assert store.last_seq() == 0
