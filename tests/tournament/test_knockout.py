"""Knockout, best of three (seed 002) worked by hand: byes by the lot, the single games of stage
1, best of three in stage 2, the play-offs that rank places 1 to 8, a forfeit."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rulebooks import load
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
    lot = [f"k{i:02d}" for i in (3, 7, 1, 5, 8, 2, 6, 4)]  # L0 .. L7, lot numbers 1 .. 8
    L = lot
    log = hand_log("knockout-best-of-three", entries(8), lot=lot)
    t = log.replay()
    assert t.total_rounds == 3
    tables, byes = t.rules.pair(t, 1)
    # 十三 第2条: 大号(指抽签号)选手坐南北位: the bigger lot number is the table's first entry (S/N).
    assert [e for _, e in tables] == [(L[1], L[0]), (L[3], L[2]), (L[5], L[4]), (L[7], L[6])] and byes == []
    log.pair(1, [e for _, e in tables]).results(1, FIRST, FIRST, FIRST, FIRST)
    t = log.replay()
    # Semi-finals of the winners, and of the quarter-final losers for places 5 to 8.
    tables, _ = t.rules.pair(t, 2)
    assert [e for _, e in tables] == [(L[3], L[1]), (L[7], L[5]), (L[2], L[0]), (L[6], L[4])]
    log.pair(2, [e for _, e in tables]).results(2, FIRST, FIRST, FIRST, FIRST)
    t = log.replay()
    # Final, 3rd place, 5th place, 7th place.
    tables, _ = t.rules.pair(t, 3)
    assert [e for _, e in tables] == [(L[7], L[3]), (L[5], L[1]), (L[6], L[2]), (L[4], L[0])]
    log.pair(3, [e for _, e in tables]).results(3, FIRST, {"winner": 1, "games": [1, 2]}, FIRST, FIRST)
    rows = standings_view(log.replay())["rows"]
    assert [(r["rank"], r["id"]) for r in rows] == [
        (1, L[7]), (2, L[3]), (3, L[1]), (4, L[5]), (5, L[6]), (6, L[2]), (7, L[4]), (8, L[0])]
    assert rows[0]["score"] == 3 and all(r["prize"] is None for r in rows)


def test_twenty_entries_single_games_then_sixteen(hand_log):
    n = entries(20)
    lot = list(n)
    log = hand_log("knockout-best-of-three", n, lot=lot)
    t = log.replay()
    assert t.total_rounds == 5
    tables, byes = t.rules.pair(t, 1)
    # 20 -> 16: 4 single games among the last 8 of the lot, 12 byes for the first 12.
    assert byes == lot[:12] and [e for _, e in tables] == [(lot[i + 1], lot[i]) for i in range(12, 20, 2)]
    log.pair(1, [e for _, e in tables], byes)
    with pytest.raises(TournamentError, match="1 局 1 胜制"):
        log.results(1, {"winner": 0, "games": [2, 1]}).replay()
    log.actions.pop()
    log.results(1, {"winner": 1}, {"winner": 0}, {"winner": 0}, {"winner": 0})
    t = log.replay()
    assert t.rounds[0].tables[0].outcome.scores == (0, 1)
    tables, byes = t.rules.pair(t, 2)
    alive = lot[:12] + [lot[12], lot[15], lot[17], lot[19]]
    assert byes == [] and [e for _, e in tables] == [tuple(sorted(alive[i : i + 2], key=lot.index, reverse=True))
                                                    for i in range(0, 16, 2)]
    rows = standings_view(t)["rows"]
    assert {r["id"]: r["rank"] for r in rows}[lot[13]] == 17


def test_each_round_is_played_under_its_stages_book(hand_log):
    # 规程 三 2: 第一阶段：采取单局淘汰制决出前16名…过“A”为胜，“A”必打；第二阶段：采取三局两胜制，每局过“8”即胜
    t = hand_log("knockout-best-of-three", entries(20)).replay()
    books = [load(t.rules.rulebook_of(t, r)) for r in range(1, t.total_rounds + 1)]
    assert [b.id for b in books] == ["sanjiang-2012"] + ["sanjiang-2012-stage-two"] * 4
    stages = [b.stages[b.match.stage] for b in books]
    assert [s.best_of for s in stages] == [t.rules.best_of(t, r) for r in range(1, t.total_rounds + 1)] == [1, 3, 3, 3, 3]
    assert [(s.passes, s.must_play) for s in stages[:2]] == [("A", True), ("8", False)]


def test_best_of_three_needs_two_games_and_a_forfeit_loses(hand_log):
    log = hand_log("knockout-best-of-three", entries(4)).pair(1, [("k01", "k02"), ("k03", "k04")])
    for bad in ({"winner": 0, "games": [2, 2]}, {"winner": 0, "games": [0, 1]}, {"winner": 0, "games": [1, 1]},
                {"winner": 0, "games": [3, 1]}, {"draw": True}):
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
    assert [e for _, e in tables] == [("k03", "k01"), ("k04", "k02")]  # the final, and 3rd place
    log.pair(2, [e for _, e in tables])
    t = log.add("correct", round=1, table="t01", result={"winner": 1, "games": [1, 2]}).replay()
    assert [x.entries for x in t.rounds[1].tables] == [("k03", "k02"), ("k04", "k01")]
    # Seed 002: five minutes after the start a pair not at its table forfeits the round.
    t = log.add("late", round=2, entry="k04", minutes=4).replay()
    assert t.rounds[1].tables[1].outcome is None
    t = log.add("late", round=2, entry="k04", minutes=6).replay()
    assert t.rounds[1].tables[1].outcome.points == (0, 1)
    assert [r["rank"] for r in standings_view(t)["rows"] if r["id"] in ("k01", "k04")] == [3, 4]


def play(log, round_no, pick=lambda table: FIRST):
    """Pair round ``round_no`` as the system does and enter ``pick(entries)`` at every table."""
    t = log.replay()
    tables, byes = t.rules.pair(t, round_no)
    log.pair(round_no, [e for _, e in tables], byes).results(round_no, *(pick(e) for _, e in tables))
    return tables, byes


def places(log):
    return {r["id"]: r["rank"] for r in standings_view(log.replay())["rows"]}


def test_a_double_forfeit_sends_neither_pair_on(hand_log):
    # 002 十二 第2条: 比赛宣布开始5分钟后，一方两位选手仍未同时到赛场就位，则本轮比赛作弃权论处 — when both
    # pairs forfeit, neither goes on: whoever would have met the winner goes on by walkover (a bye),
    # and the two share the last place of the round (8th of the quarter-finals), playing no play-off.
    L = [f"k{i:02d}" for i in range(1, 9)]
    log = hand_log("knockout-best-of-three", entries(8), lot=L)
    play(log, 1)
    log.actions.pop()
    log.add("forfeit", round=1, table="t04", entries=[L[7], L[6]])
    t = log.replay()
    assert t.rounds[0].tables[3].outcome.points == (0, 0)
    tables, byes = t.rules.pair(t, 2)
    # Semi-finals: L3 v L1 and L5 by walkover; 5th-8th: L4 v L2 and L0 by walkover.
    assert [e for _, e in tables] == [(L[3], L[1]), (L[4], L[2])] and byes == [L[5], L[0]]
    assert L[6] not in sum(tables, ()) + tuple(byes) and L[7] not in sum(tables, ()) + tuple(byes)
    play(log, 2)
    tables, byes = play(log, 3, lambda e: {"winner": 1, "games": [0, 2]} if e == (L[5], L[3]) else FIRST)
    # Final L5 v L3; 3rd place: L1 alone (L5's semi-final was a walkover); 5th: L4 v L0; 7th: L2 alone.
    assert [e for _, e in tables] == [(L[5], L[3]), (L[4], L[0])] and byes == [L[1], L[2]]
    assert places(log) == {L[3]: 1, L[5]: 2, L[1]: 3, L[4]: 5, L[0]: 6, L[2]: 7, L[6]: 8, L[7]: 8}


def test_a_double_forfeit_in_the_final_makes_no_champion(hand_log):
    log = hand_log("knockout-best-of-three", entries(2))
    log.pair(1, [("k02", "k01")]).add("late", round=1, entry="k01", minutes=6).add("late", round=1, entry="k02", minutes=9)
    assert places(log) == {"k01": 2, "k02": 2}
    assert log.replay().finished


@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_fields_of_five_to_eight_pairs_play_off_every_place(hand_log, n):
    # 002 四2: 获得本届比赛前八名的选手分别颁发证书和奖品 — every place up to 8 is played off, byes or not.
    log = hand_log("knockout-best-of-three", entries(n))
    for r in (1, 2, 3):
        play(log, r)
    t = log.replay()
    assert t.finished and sorted(places(log).values()) == list(range(1, n + 1))
    fifth = [x.entries for x in t.rounds[2].tables] + [x.entries for x in t.rounds[1].tables]
    assert n == 5 or any({places(log)[e] for e in pair} == {5, 6} for pair in fifth)


def test_seven_pairs_by_hand(hand_log):
    L = [f"k{i:02d}" for i in range(1, 8)]
    log = hand_log("knockout-best-of-three", entries(7), lot=L)
    tables, byes = play(log, 1)
    assert [e for _, e in tables] == [(L[2], L[1]), (L[4], L[3]), (L[6], L[5])] and byes == [L[0]]
    tables, byes = play(log, 2)
    # Semi-finals L2 v L0, L6 v L4; the quarter-final losers: L1 by walkover, L5 v L3.
    assert [e for _, e in tables] == [(L[2], L[0]), (L[6], L[4]), (L[5], L[3])] and byes == [L[1]]
    tables, byes = play(log, 3)
    assert [e for _, e in tables] == [(L[6], L[2]), (L[4], L[0]), (L[5], L[1])] and byes == [L[3]]
    assert places(log) == {L[6]: 1, L[2]: 2, L[4]: 3, L[0]: 4, L[5]: 5, L[1]: 6, L[3]: 7}


def test_a_correction_that_a_played_round_depends_on_is_refused(tmp_path):
    from referee.tournament import Entry, TournamentStore

    store = TournamentStore(tmp_path / "ko.db")
    store.new("knockout-best-of-three", [Entry(e, e, u, u, (f"{e}甲", f"{e}乙")) for e, u in entries(20).items()], seed=3)
    for x in store.pair_next_round()["tables"]:
        store.record_result(1, x["table"], {"winner": 0})
    store.pair_next_round()
    store.record_result(2, "t01", {"winner": 0, "games": [2, 1]})
    first = store.tournament.rounds[0].tables[0]
    seq, rows = store.last_seq(), store.standings()["rows"]
    with pytest.raises(TournamentError, match="会改变第 2 轮的对阵.*t01") as exc:
        store.correct_result(1, first.table, {"winner": 1}, reason="记错")
    assert "round 2" in exc.value.text("en")
    assert store.last_seq() == seq and store.standings()["rows"] == rows
    assert sum(r["rank"] == 1 for r in rows) == 15  # 16 went on, t01 of round 2 decided
    # A correction that leaves who goes on as it was is made: round 1's t01 by forfeit of the same loser
    # (a forfeit over a result is a correction).
    loser = first.entries[1]
    store.forfeit(1, first.table, [loser], correct=True, reason="未到场")
    store.correct_result(2, "t01", {"winner": 0, "games": [2, 0]}, reason="记分错误")
    assert store.last_seq() == seq + 2 and sum(r["rank"] == 1 for r in store.standings()["rows"]) == 15


def test_the_round_clock_at_one_nil_is_a_win_and_one_all_plays_on(hand_log):
    # 002 三2: 根据级差（级高方为胜，同级时先到胜，第二阶段如1:1平局继续打完）确定胜方.
    log = hand_log("knockout-best-of-three", entries(4)).pair(1, [("k02", "k01"), ("k04", "k03")])
    t = log.results(1, {"winner": 1, "games": [0, 1]}).replay()
    assert t.rounds[0].tables[0].outcome.points == (0, 1)
    log.actions.pop()
    with pytest.raises(TournamentError, match="1:1平局继续打完"):
        log.results(1, {"winner": 0, "games": [1, 1]}).replay()
    log.actions.pop()
    # From the table: a game won, then the clock ends the next one at a higher level for the other pair: 1:1.
    log.add("game", round=1, table="t01", winner=0, levels=None, event="t01:40:game_won")
    t = log.add("game", round=1, table="t01", winner=1, levels=["7", "9"], event="t01:80:round_over").replay()
    assert t.rounds[0].tables[0].outcome is None  # played on
    t = log.add("game", round=1, table="t01", winner=1, levels=None, event="t01:95:game_won").replay()
    assert t.rounds[0].tables[0].outcome.scores == (1, 2)
    # The clock ends the first game: 1:0 is a win; at equal levels (who got there first) a person decides.
    t = log.add("game", round=1, table="t02", winner=0, levels=["9", "6"], event="t02:70:round_over").replay()
    assert t.rounds[0].tables[1].outcome.scores == (1, 0)
    log = hand_log("knockout-best-of-three", entries(4)).pair(1, [("k02", "k01"), ("k04", "k03")])
    log.add("game", round=1, table="t01", winner=0, levels=None, event="t01:40:game_won")
    t = log.add("game", round=1, table="t01", winner=None, levels=["8", "8"], event="t01:80:round_over").replay()
    assert t.rounds[0].tables[0].outcome is None


def test_games_level_at_nought_or_past_a_best_of_three_are_said_as_what_they_are(hand_log):
    """002 三2: 裁判宣布比赛结束（时间到1小时）……根据级差（级高方为胜，同级时先到胜，第二阶段如1:1平局继续打完）确定胜方
    -- only 1:1 is played on. 0:0 with a winner (the clock ended the first game, the levels decided it) is refused with
    how to enter it: that game counts as the winner's (1:0, as a table reports it), never told to play on; 1:1 in a
    single game (stage 1) and 2:2 are no score of their match: said as its games, not the stage 2 1:1 rule."""
    log = hand_log("knockout-best-of-three", entries(4)).pair(1, [("k02", "k01"), ("k04", "k03")])
    for result, zh, en in (({"winner": 1, "games": [0, 0], "levels": ["5", "7"]}, "录为 [0, 1]", "enter [0, 1]"),
                           ({"winner": 0, "games": [2, 2]}, "2 胜制", "best of 3"),
                           ({"winner": 0, "games": [1, 1]}, "1:1平局继续打完", "at 1:1 in stage 2 play on")):
        with pytest.raises(TournamentError) as refused:
            log.results(1, result).replay()
        assert zh in str(refused.value) and en in refused.value.text("en")
        if result["games"] == [0, 0]:
            assert "继续打完" not in str(refused.value) and "级高方为胜" in str(refused.value)
        log.actions.pop()
    t = log.results(1, {"winner": 1, "games": [0, 1], "levels": ["5", "7"]}).replay()
    assert t.rounds[0].tables[0].outcome.scores == (0, 1)
    single = hand_log("knockout-best-of-three", entries(17)).pair(1, [("k17", "k16")], byes=tuple(entries(15)))
    for games, zh in (([1, 1], "1 局 1 胜制"), ([0, 0], "录为 [1, 0]")):
        with pytest.raises(TournamentError) as refused:
            single.results(1, {"winner": 0, "games": games}).replay()
        assert zh in str(refused.value) and "继续打完" not in str(refused.value)
        single.actions.pop()


def test_the_standings_score_is_headed_matches_won(hand_log):
    # 三2: 第一阶段：采取单局淘汰制决出前16名 — the place is the bracket's and the score the matches won (5th may have won
    # more than 2nd): the sheets head it 胜场 (Matches won), pair Swiss its 总分 (000 四: 团体总分高者名次列前).
    from referee.tournament.export import standing_rows

    log = hand_log("knockout-best-of-three", entries(4))
    t = log.replay()
    assert standing_rows(t, "zh")[0][4] == "胜场" and standing_rows(t, "en")[0][4] == "Matches won"
    assert standing_rows(hand_log("pair-swiss", entries(4)).replay(), "zh")[0][3] == "总分"


def test_the_lot_number_is_printed_with_the_seats(tmp_path):
    # 十三 第2条: 同一桌比赛，大号(指抽签号)选手坐南北位，小号坐东西位 — the sheets print the lot number by the seat.
    from referee.tournament import Entry, TournamentStore
    from referee.tournament.export import export

    store = TournamentStore(tmp_path / "ko.db")
    t = store.new("knockout-best-of-three", [Entry(e, f"{e}队", u, u, (f"{e}甲", f"{e}乙")) for e, u in entries(6).items()], seed=5)
    view = store.pair_next_round()
    number = {e: i for i, e in enumerate(t.lot, 1)}
    assert [[(e["id"], e["lot"]) for e in x["entries"]] for x in view["tables"]] == [
        [(e, number[e]) for e in sorted(x.entries, key=number.get, reverse=True)] for x in store.tournament.rounds[0].tables]
    first = view["tables"][0]["entries"]
    assert first[0]["lot"] > first[1]["lot"]
    html = export(store.tournament, "html").decode()
    assert f'{first[0]["lot"]}号 {first[0]["name"]}（{first[0]["unit"]}） / {first[1]["lot"]}号' in html
    assert "<th>抽签号</th>" in html and f'<td>南北</td><td>{first[0]["lot"]}</td><td>{first[0]["name"]}</td>' in html
    assert f'No. {first[0]["lot"]} {first[0]["name"]}' in export(store.tournament, "html", lang="en").decode()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(2, 40), picks=st.lists(st.sampled_from(["first", "second", "both", "one", "clock"]), min_size=64, max_size=64))
def test_any_field_and_any_results_make_a_whole_bracket(hand_log, n, picks):
    """Whatever the field and the results (forfeits, double forfeits, matches the clock ends): every round
    pairs, no pair plays twice in a round, the bigger lot number sits S/N, a pair out for good (a double
    forfeit, a place past 8th) never comes back, and the places up to 8 are held once each but for the
    pairs of a double forfeit; without one, places 1 to 8 (or the field) are all held."""
    log = hand_log("knockout-best-of-three", entries(n))
    pick = iter(picks * 4)
    doubled: set[str] = set()
    out: set[str] = set()
    for r in range(1, log.replay().total_rounds + 1):
        t = log.replay()
        tables, byes = t.rules.pair(t, r)
        seated = [e for _, x in tables for e in x] + byes
        assert len(seated) == len(set(seated)) and not set(seated) & out
        assert all(t.lot.index(x[0]) > t.lot.index(x[1]) for _, x in tables)
        log.pair(r, [x for _, x in tables], byes)
        for name, x in tables:
            how = next(pick)
            if how == "both":
                log.add("forfeit", round=r, table=name, entries=list(x))
                doubled |= set(x)
            elif how == "one":
                log.add("forfeit", round=r, table=name, entries=[x[1]])
            else:
                games = {"clock": [1, 0], "first": [2, 1], "second": [1, 2]}[how] if t.rules.best_of(t, r) == 3 else None
                winner = 1 if how == "second" else 0
                log.add("result", round=r, table=name, result={"winner": winner} | ({"games": games} if games else {}))
        out |= doubled | {e for e, p in places(log).items() if p > 8}  # no play-off past 8th
    t = log.replay()
    assert t.finished
    held = [p for e, p in places(log).items() if p <= 8 and e not in doubled]
    assert len(held) == len(set(held))
    if not doubled:
        assert sorted(places(log).values())[: min(n, 8)] == list(range(1, min(n, 8) + 1))
