"""Pair Swiss (seed 000) worked by hand: team scores, 对手分, 级差, a tie broken by the lot, a
bye, forfeits, a late arrival, a correction, and the dead end a greedy pass runs into."""

from __future__ import annotations

import pytest

from referee.tournament.core import TournamentError
from referee.tournament.pairswiss import pair_stats
from referee.tournament.views import standings_view

W0, W1, DRAW = {"winner": 0}, {"winner": 1}, {"draw": True}
# Four teams of two pairs. Round 1: a1 beats c1, a2 beats d2, b1 beats c2, b2 beats d1.
# Round 2: a1-b1 and a2-b2 drawn, c1 beats d1, d2 beats c2.
# Pair scores: a1 a2 b1 b2 3, c1 d2 2, c2 d1 0; teams A 6, B 6, C 2, D 2.
# 对手分 (the opponent pairs' final scores): A: a1 met c1 2 + b1 3, a2 met d2 2 + b2 3 = 10;
# B: b1 met c2 0 + a1 3, b2 met d1 0 + a2 3 = 6; C: c1 met a1 3 + d1 0, c2 met b1 3 + d2 2 = 8;
# D: d1 met b2 3 + c1 2, d2 met a2 3 + c2 0 = 8. 级差: A and B 2+0 twice = 4; C: c1 -2+2, c2 -2-2 = -4;
# D: d1 -2-2, d2 -2+2 = -4. So A before B on 对手分; C and D level on everything: the lot decides.
UNITS = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", "c1": "C", "c2": "C", "d1": "D", "d2": "D"}


def two_rounds(hand_log, lot, **options):
    return (hand_log("pair-swiss", UNITS, lot=lot, options={"rounds": 2} | options)
            .pair(1, [("a1", "c1"), ("a2", "d2"), ("b1", "c2"), ("b2", "d1")]).results(1, W0, W0, W0, W0)
            .pair(2, [("a1", "b1"), ("a2", "b2"), ("c1", "d1"), ("c2", "d2")]).results(2, DRAW, DRAW, W0, W1))


def rows(t):
    return [(r["rank"], r["id"], r["score"], r["tiebreaks"], r["prize"]) for r in standings_view(t)["rows"]]


def test_team_scores_opponent_score_and_a_tie_broken_by_the_lot(hand_log):
    d_first = ["d1", "a1", "c1", "b1", "a2", "b2", "c2", "d2"]
    t = two_rounds(hand_log, d_first).replay()
    assert rows(t) == [(1, "A", 6, [10, 4], "一等奖"), (2, "B", 6, [6, 4], "二等奖"),
                       (3, "D", 2, [8, -4], "二等奖"), (4, "C", 2, [8, -4], "二等奖")]
    c_first = ["c2", "a1", "d1", "b1", "a2", "b2", "c1", "d2"]
    assert [r[1] for r in rows(two_rounds(hand_log, c_first).replay())] == ["A", "B", "C", "D"]
    assert standings_view(t)["columns"] == ["对手分", "级差"]


def test_opponent_score_of_the_teams_and_the_real_level_difference(hand_log):
    # With the opponents' team scores, A and B both meet teams worth 2 + 6 per pair: 16 each,
    # 级差 level: the lot puts B first.
    t = two_rounds(hand_log, ["b1", "a1", "c1", "d1", "a2", "b2", "c2", "d2"], opponent_score="team").replay()
    assert rows(t)[:2] == [(1, "B", 6, [16, 4], "一等奖"), (2, "A", 6, [16, 4], "二等奖")]
    real = (hand_log("pair-swiss", UNITS, options={"rounds": 1, "level_diff": "real"})
            .pair(1, [("a1", "c1"), ("a2", "d2"), ("b1", "c2"), ("b2", "d1")])
            .results(1, {"winner": 0, "levels": ["A+", "9"]}, {"draw": True, "levels": ["J", "J"]},
                     {"winner": 1, "levels": ["5", "A+"]}, {"winner": 0, "levels": ["A+", "2"]}))
    stats = pair_stats(real.replay())
    assert [stats[p]["level"] for p in ("a1", "c1", "a2", "b1", "c2", "b2", "d1")] == [6, -6, 0, -10, 10, 13, -13]


def test_the_bye_goes_to_the_lowest_ranked_pair_without_one_and_is_worth_a_win(hand_log):
    units = {f"p{i}": f"u{i}" for i in range(1, 6)}
    log = (hand_log("pair-swiss", units, options={"rounds": 3})
           .pair(1, [("p1", "p2"), ("p3", "p4")], byes=("p5",)).results(1, W0, DRAW))
    t = log.replay()
    stats = pair_stats(t)
    assert (stats["p5"]["score"], stats["p5"]["level"], stats["p5"]["opponents"]) == (2, 2, [])
    # After round 1: p5 2 (bye), p1 2, p3 1, p4 1, p2 0. The lowest without a bye is p2. The four
    # others: p1-p5 would leave p3-p4, a rematch; the cheapest is cost 1 + 1.
    tables, byes = t.rules.pair(t, 2)
    assert byes == ["p2"]
    assert sorted(sorted(e) for _, e in tables) in ([["p1", "p3"], ["p4", "p5"]], [["p1", "p4"], ["p3", "p5"]])


def test_forfeits_and_a_late_team(hand_log):
    log = (hand_log("pair-swiss", UNITS, options={"rounds": 2})
           .pair(1, [("a1", "c1"), ("a2", "d2"), ("b1", "c2"), ("b2", "d1")])
           .add("forfeit", round=1, table="t01", entries=["c1"])
           .add("forfeit", round=1, table="t02", entries=["a2", "d2"])
           .add("late", round=1, entry="b1", minutes=19.5))
    t = log.replay()
    r = t.rounds[0]
    assert [(x.outcome.points, x.outcome.scores) for x in r.tables[:2]] == [((2, 0), (2, -2)), ((0, 0), (-2, -2))]
    assert r.tables[2].outcome is None  # 19.5 minutes: the table's penalty, not a forfeit
    t = log.add("late", round=1, entry="b1", minutes=21).replay()
    # Over 20 minutes the whole team forfeits the round: b1 and b2 both lose.
    assert [x.outcome.points for x in t.rounds[0].tables[2:]] == [(0, 2), (0, 2)]


def test_a_correction_recomputes_the_standings_and_the_round_not_started(hand_log):
    log = (hand_log("pair-swiss", UNITS, options={"rounds": 3})
           .pair(1, [("a1", "c1"), ("a2", "d2"), ("b1", "c2"), ("b2", "d1")]).results(1, W0, W0, W0, W0))
    t = log.replay()
    tables, byes = t.rules.pair(t, 2)
    log.pair(2, [e for _, e in tables], byes)
    log.add("correct", round=1, table="t01", result=W1, reason="score sheet")
    log.add("correct", round=1, table="t02", result=W1, reason="score sheet")
    fixed = log.replay()
    assert pair_stats(fixed)["c1"]["score"] == 2 and pair_stats(fixed)["a1"]["score"] == 0
    before = hand_log("pair-swiss", UNITS, options={"rounds": 3}).pair(1, [("a1", "c1"), ("a2", "d2"), ("b1", "c2"), ("b2", "d1")])
    expected = before.results(1, W1, W1, W0, W0).replay()
    tables2, _ = expected.rules.pair(expected, 2)
    assert [x.entries for x in fixed.rounds[1].tables] == [e for _, e in tables2]
    assert {(x.round, x.because) for x in fixed.repaired} == {(2, "correct")}


def test_a_round_under_way_stays_as_played(hand_log):
    log = (hand_log("pair-swiss", UNITS, options={"rounds": 3})
           .pair(1, [("a1", "c1"), ("a2", "d2"), ("b1", "c2"), ("b2", "d1")]).results(1, W0, W0, W0, W0)
           .pair(2, [("a1", "b1"), ("a2", "b2"), ("c1", "d1"), ("c2", "d2")]).results(2, DRAW)
           .add("correct", round=1, table="t01", result=W1))
    t = log.replay()
    assert [x.entries for x in t.rounds[1].tables][0] == ("a1", "b1") and not t.repaired


def test_bad_results_are_refused(hand_log):
    log = hand_log("pair-swiss", UNITS, options={"rounds": 2}).pair(1, [("a1", "c1"), ("a2", "d2"), ("b1", "c2"), ("b2", "d1")])
    for bad in ({"winner": 2}, {"winner": True}, {"draw": True, "winner": 0}, {"score": 1}, {}):
        with pytest.raises(TournamentError):
            log.results(1, bad).replay()
        log.actions.pop()
    with pytest.raises(TournamentError, match="双方打到的级数"):
        hand_log("pair-swiss", UNITS, options={"rounds": 1, "level_diff": "real"}).pair(1, [("a1", "c1")]).results(1, W0).replay()


def test_the_dead_end_of_a_greedy_pass_is_paired(hand_log):
    # Six pairs of six units; round 1 A-C, B-D, E-F all drawn: everyone has 1 point. A greedy pass
    # in order takes A-B, C-D and is left with E-F, a rematch. The matching finds a pairing.
    units = {p: p for p in "ABCDEF"}
    t = (hand_log("pair-swiss", units, options={"rounds": 2})
         .pair(1, [("A", "C"), ("B", "D"), ("E", "F")]).results(1, DRAW, DRAW, DRAW).replay())
    met = {frozenset("AC"), frozenset("BD"), frozenset("EF")}

    def greedy(order):
        left, tables = list(order), []
        while left:
            a = left.pop(0)
            b = next((x for x in left if frozenset((a, b := x)) not in met), None)
            if b is None:
                return None
            left.remove(b)
            tables.append(frozenset((a, b)))
        return tables

    assert greedy("ABCDEF") is None
    tables, byes = t.rules.pair(t, 2)
    assert byes == [] and len(tables) == 3
    assert not {frozenset(e) for _, e in tables} & met
    assert sorted(p for _, e in tables for p in e) == list("ABCDEF")


def test_the_real_level_difference_checks_the_levels_against_the_result(hand_log):
    # Seed 000 四4: 每轮竞赛级差：胜者2，平局者各0，负者-2 — with the real levels, the winner reached the
    # higher level and a draw the same one; anything else is refused in words, and nothing changes.
    log = (hand_log("pair-swiss", UNITS, options={"rounds": 1, "level_diff": "real"})
           .pair(1, [("a1", "c1"), ("a2", "d2"), ("b1", "c2"), ("b2", "d1")]))
    for bad, words in (({"winner": 0, "levels": ["9", "J"]}, "胜方打到的级数（9）应高于负方（J）"),
                       ({"winner": 1, "levels": ["A+", "K"]}, "胜方打到的级数（K）应高于负方（A\\+）"),
                       ({"winner": 0, "levels": ["10", "10"]}, "级数相同是平局"),
                       ({"draw": True, "levels": ["J", "9"]}, "平局者各0.*J 和 9")):
        with pytest.raises(TournamentError, match=words) as exc:
            log.results(1, bad).replay()
        assert "equal levels" in exc.value.text("en")
        log.actions.pop()
    stats = pair_stats(log.results(1, {"winner": 1, "levels": ["9", "J"]}, {"draw": True, "levels": ["10", "10"]}).replay())
    assert (stats["c1"]["level"], stats["a2"]["level"]) == (2, 0)


def test_a_refused_level_changes_nothing_in_the_store(tmp_path):
    from referee.tournament import Entry, TournamentStore

    store = TournamentStore(tmp_path / "t.db")
    entries = [Entry(p, p, u, u, (f"{p}-1", f"{p}-2")) for p, u in UNITS.items()]
    store.new("pair-swiss", entries, seed=1, options={"rounds": 1, "level_diff": "real"})
    table = store.pair_next_round()["tables"][0]["table"]
    seq = store.last_seq()
    with pytest.raises(TournamentError, match="平局者各0"):
        store.record_result(1, table, {"draw": True, "levels": ["A", "K"]})
    assert store.last_seq() == seq and store.round_view(1)["tables"][0]["result"] is None


def test_games_won_are_refused_for_a_round_is_one_game(tmp_path, capsys):
    """000 四3: 如果在1小时30分钟内赛完一局，则结束该轮竞赛 -- games won (`--games 0-2` beside `--winner 0`) were kept
    unused and unseen; refused in words, first entry or correction, the file byte for byte as it was."""
    from cardtable.cli import main
    from referee.tournament import Entry, TournamentStore

    db = tmp_path / "t.db"
    store = TournamentStore(db)
    store.new("pair-swiss", [Entry(p, p, u, u, (f"{p}-1", f"{p}-2")) for p, u in UNITS.items()], seed=1, options={"rounds": 1})
    store.pair_next_round()
    store.close()
    before = db.read_bytes()
    with pytest.raises(TournamentError, match="每轮只赛一局.*而不是 \\[0, 2\\]") as exc:
        TournamentStore(db).record_result(1, "t01", {"winner": 0, "games": [0, 2]})
    assert "one game a round" in exc.value.text("en")
    with pytest.raises(TournamentError, match="000 号规程四3"):
        TournamentStore(db).correct_result(1, "t01", {"winner": 0, "games": [2, 0]}, reason="补录")
    with pytest.raises(SystemExit):
        main(["tournament", "result", "--db", str(db), "--round", "1", "--table", "t01", "--winner", "0", "--games", "2-1"])
    assert "t01 桌：积分编排赛每轮只赛一局" in capsys.readouterr().err
    assert db.read_bytes() == before
