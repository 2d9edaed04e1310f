"""A forfeit stands until corrected, in every system: scores entered later do not erase it, a forfeit
over a result (or a result over a forfeit) is a correction, and players level on points rank by 小分 whoever
was absent.

000 四4: 每轮竞赛得分（轮分）：胜者2分，平局者各1分，负者0分，弃权0分；……弃权者-2.
002 十二 第2条: 比赛宣布开始5分钟后，一方两位选手仍未同时到赛场就位，则本轮比赛作弃权论处.
004 附件一 一、1: 最终比赛结果按照四轮比赛累计积分进行排名，如出现积分相同者，则计算小分进行排名，小分高者排名靠前
(an absence counts only where 小分 is level too: fewer rounds forfeited first)."""

from __future__ import annotations

import json

import pytest

from cardtable.cli import main
from referee.tournament.core import TournamentError
from referee.tournament.entries import Entry
from referee.tournament.store import TournamentStore
from referee.tournament.views import standings_view

SEED_000_4_4 = "每轮竞赛得分（轮分）：胜者2分，平局者各1分，负者0分，弃权0分；每轮竞赛级差：胜者2，平局者各0，负者-2，弃权者-2。"

UNITS = {"s1": "机械", "s2": "机械", "s3": "光电", "s4": "光电", "s5": "管理", "s6": "管理", "s7": "外语", "s8": "外语"}
GROUPS = [("s1", "s3", "s5", "s7"), ("s2", "s4", "s6", "s8")]


def test_players_level_on_points_rank_by_small_points_even_one_who_was_absent(hand_log):
    t = (hand_log("individual-tables", UNITS, options={"rounds": 2})
         .pair(1, GROUPS).add("forfeit", round=1, table="t01", entries=["s3"])
         .results(1, {"scores": [30, 0, 10, -5]}, {"scores": [10, 20, -20, -30]})
         .pair(2, GROUPS).results(2, {"scores": [0, 60, -10, -20]}, {"scores": [-30, 40, -25, -35]})).replay()
    # On 5 points: s3 (absent in round 1, 小分 60), s5 (0), s2 (-20), s6 (-45): 小分高者排名靠前.
    rows = [(r["id"], r["score"], r["tiebreaks"]) for r in standings_view(t)["rows"] if r["score"] == 5]
    assert rows == [("s3", 5, [60, 1]), ("s5", 5, [0, 0]), ("s2", 5, [-20, 0]), ("s6", 5, [-45, 0])]


def test_on_points_and_small_points_level_the_player_never_absent_ranks_first(hand_log):
    # 小分 level too: the seed says no more; fewer rounds forfeited first, before the lot.
    t = (hand_log("individual-tables", UNITS, options={"rounds": 2})
         .pair(1, GROUPS).add("forfeit", round=1, table="t01", entries=["s3"])
         .results(1, {"scores": [30, 0, 10, -5]}, {"scores": [10, 20, -20, -30]})
         .pair(2, GROUPS).results(2, {"scores": [-5, 0, -10, -20]}, {"scores": [-30, 40, -25, -35]})).replay()
    # On 5 points: s5 (3 + 2, 小分 10 - 10, played both rounds) and s3 (0 + 5, 小分 0, absent in round 1).
    rows = [(r["id"], r["score"], r["tiebreaks"], r["by_lot"]) for r in standings_view(t)["rows"] if r["id"] in ("s3", "s5")]
    assert rows == [("s5", 5, [0, 0], False), ("s3", 5, [0, 1], False)]


def _store(tmp_path, system_name: str, n: int, **options) -> TournamentStore:
    entries = [Entry(f"e{i:02d}", f"e{i:02d}", f"u{(i + 1) // 2}", f"u{(i + 1) // 2}", (f"p{i}a", f"p{i}b"))  # teams of two pairs
               for i in range(1, n + 1)]
    store = TournamentStore(tmp_path / f"{system_name}.db")
    store.new(system_name, entries, seed=3, options=options or None)
    store.pair_next_round()
    return store


@pytest.mark.parametrize("system_name, options, result", [("pair-swiss", {"rounds": 1}, {"winner": 1}),
                                                          ("knockout-best-of-three", {}, {"winner": 1, "games": [0, 2]})])
def test_two_sided_a_forfeit_and_a_result_are_each_changed_only_by_a_correction(tmp_path, system_name, options, result):
    store = _store(tmp_path, system_name, 4, **options)
    first, second = (x.entries for x in store.tournament.rounds[0].tables)
    store.forfeit(1, "t01", [first[0]])
    seq = store.last_seq()
    with pytest.raises(TournamentError, match=f"t01 桌已由 {first[0]} 弃权判定；弃权在更正之前一直有效") as exc:
        store.record_result(1, "t01", result)
    assert "stands until corrected" in exc.value.text("en") and store.last_seq() == seq
    store.record_result(1, "t02", {"winner": 0} | ({"games": [2, 0]} if "games" in result else {}))
    with pytest.raises(TournamentError, match="t02 桌已有成绩；请改用更正"):
        store.forfeit(1, "t02", [second[0]])
    with pytest.raises(TournamentError, match="t02 桌已有成绩"):
        store.late_arrival(1, second[0], 30)
    assert store.last_seq() == seq + 1
    # the corrections: t02's first entry was absent after all; at t01 they played, the second entry won
    store.forfeit(1, "t02", [second[0]], correct=True, reason="未到场")
    store.correct_result(1, "t01", result, reason="补赛")
    t01, t02 = store.tournament.rounds[0].tables
    won = 2 if system_name == "pair-swiss" else 1
    assert (t01.forfeits, t01.outcome.points) == ((), (0, won))
    assert (t02.forfeits, t02.outcome.points[0], t02.entered) == ((second[0],), 0, None)
    assert [a["kind"] for a in store.actions()[-2:]] == ["correct", "correct"]


def test_a_double_forfeit_joins_a_forfeit_and_no_one_wins(tmp_path):
    store = _store(tmp_path, "pair-swiss", 4, rounds=1)
    a, b = store.tournament.rounds[0].tables[0].entries
    store.forfeit(1, "t01", [a])
    store.forfeit(1, "t01", [b])  # the other side absent too (both late: the table reports round_forfeited)
    assert store.tournament.rounds[0].tables[0].outcome.points == (0, 0)


def _individual(tmp_path, capsys):
    form = tmp_path / "form.csv"
    form.write_text("单位,选手\n" + "".join(f"{u},{u}{i}号\n" for i, u in enumerate(["机电", "外语", "化工", "体育"] * 2)),
                    encoding="utf-8")
    db = str(tmp_path / "t.db")
    assert main(["tournament", "new", "--system", "individual-tables", "--entries", str(form), "--db", db, "--seed", "5"]) == 0
    assert main(["tournament", "pair", "--db", db]) == 0
    capsys.readouterr()
    assert main(["tournament", "show", "--db", db, "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    table = next(x for x in view["tables"] if "e06" in [e["id"] for e in x["entries"]])
    return db, table["table"], [e["id"] for e in table["entries"]]


def _refused(capsys, *argv) -> str:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    assert exc.value.code == 2
    return capsys.readouterr().err


def test_scores_entered_after_a_forfeit_leave_it_standing_on_the_command_line(tmp_path, capsys):
    db, table, seated = _individual(tmp_path, capsys)
    result = ["tournament", "result", "--db", db, "--round", "1", "--table", table]
    seat = seated.index("e06")
    others = [e for e in seated if e != "e06"]
    scores = dict(zip(others, [-10, 5, 7])) | {"e06": 40}
    line = lambda: ",".join(str(scores[e]) for e in seated)  # noqa: E731
    assert main(result + ["--forfeit", "e06"]) == 0
    before = TournamentStore(db).last_seq()
    err = _refused(capsys, *result, "--scores=" + line())
    assert "e06 已弃权" in err and "小分应为 0，而不是 40" in err
    assert TournamentStore(db).last_seq() == before
    scores["e06"] = 0
    assert main(result + ["--scores=" + line()]) == 0
    x = TournamentStore(db).tournament.rounds[0].table(table)
    assert x.forfeits == ("e06",) and (x.outcome.points[seat], x.outcome.scores[seat]) == (0, 0)
    assert [x.outcome.points[seated.index(e)] for e in others] == [2, 3, 5]
    err = _refused(capsys, *result, "--forfeit", others[0])
    assert "桌已有成绩；请改用更正" in err
    # the correction restates the table: two absent, the two others' scores
    scores[others[0]] = 0
    assert main(result + ["--correct", "--reason", "两人未到", "--scores", line(), "--forfeit", "e06", others[0]]) == 0
    x = TournamentStore(db).tournament.rounds[0].table(table)
    assert x.forfeits == tuple(sorted(["e06", others[0]])) and [x.outcome.points[seated.index(e)] for e in others] == [0, 3, 5]


def test_a_leading_minus_is_the_scores_not_an_option(tmp_path, capsys):
    db, table, _ = _individual(tmp_path, capsys)
    other = "t02" if table == "t01" else "t01"
    assert main(["tournament", "result", "--db", db, "--round", "1", "--table", other, "--scores", "-10,5,5,40"]) == 0
    x = TournamentStore(db).tournament.rounds[0].table(other)
    assert x.outcome.scores == (-10, 5, 5, 40) and x.outcome.points == (1, 2.5, 2.5, 5)
    base = ["tournament", "result", "--db", db, "--round", "1", "--table", table]
    assert "请给出 `--winner`、`--draw`、`--scores`、`--forfeit` 之一" in _refused(capsys, *base)


def test_nan_or_infinity_as_a_game_score_is_refused_in_words(tmp_path, capsys):
    db, table, _ = _individual(tmp_path, capsys)
    before = TournamentStore(db).last_seq()
    for bad in ("NaN,1,2,3", "1,Infinity,2,3", "1,2,-Infinity,3"):
        err = _refused(capsys, "tournament", "result", "--db", db, "--round", "1", "--table", table, "--scores", bad)
        assert "座的小分“nan”不是有限的数" in err or "座的小分“inf”不是有限的数" in err or "座的小分“-inf”不是有限的数" in err, err
    err = _refused(capsys, "--lang", "en", "tournament", "result", "--db", db, "--round", "1", "--table", table, "--scores", "NaN,1,2,3")
    assert "seat S's score 'nan' is not a finite number" in err, err
    with pytest.raises(TournamentError, match="有限的数"):
        TournamentStore(db).record_result(1, table, {"scores": [float("inf"), 1, 2, 3]})
    assert TournamentStore(db).last_seq() == before


def test_nan_in_the_points_option_is_refused_before_anything_is_registered(tmp_path):
    store = TournamentStore(tmp_path / "t.db")
    entries = [Entry(f"e{i}", f"e{i}", f"u{i}", f"u{i}", (f"e{i}",)) for i in range(4)]
    with pytest.raises(TournamentError, match="points"):
        store.new("individual-tables", entries, options={"points": [float("nan"), 3, 2, 1]})
    assert store.last_seq() == 0


def test_a_san_da_yi_tables_scores_and_its_absent_player_are_one_change_refused_whole(tmp_path, capsys):
    """004 附件一 一、1: 每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分 (among those who played: the absent
    seat scores 0 and takes no points). The console enters a table's 小分 with who was absent at once: a refusal
    (the absent seat scored) logs neither; accepted, it is one action, replayed the same, and the round payload
    (checked against the bus schema) and `cardtable tournament show` say who forfeited."""
    from bus.tournament import check

    db, table, seated = _individual(tmp_path, capsys)
    store = TournamentStore(db)
    before = store.last_seq()
    with pytest.raises(TournamentError, match="e06 已弃权.*小分应为 0，而不是 7"):
        store.record_result(1, table, {"scores": [7 if e == "e06" else 3 for e in seated]}, forfeits=["e06"])
    with pytest.raises(TournamentError, match="坐的是"):
        store.record_result(1, table, {"scores": [0, 0, 0, 0]}, forfeits=["e99"])
    with pytest.raises(TournamentError) as e:  # said "坐的是 …，不是 " and nothing, or "e, 0, 6" letter by letter
        store.forfeit(1, table, [])
    assert str(e.value) == f"第 1 轮 {table} 桌：没有指明是谁（坐的是 {'、'.join(seated)}）", str(e.value)
    with pytest.raises(TournamentError) as e:
        store.forfeit(1, table, "e99")
    assert str(e.value).endswith("不是 'e99'") and e.value.text("en").endswith("not 'e99'"), str(e.value)
    assert store.last_seq() == before and store.tournament.rounds[0].table(table).forfeits == ()
    scores = dict(zip([e for e in seated if e != "e06"], [30, -5, 12.5])) | {"e06": 0}
    view = store.record_result(1, table, {"scores": [scores[e] for e in seated]}, forfeits=["e06"])
    assert store.last_seq() == before + 1 and store.actions()[-1]["data"]["forfeits"] == ["e06"]
    x = next(x for x in check("round", view)["tables"] if x["table"] == table)
    assert x["forfeits"] == ["e06"] and x["result"]["points"] == [0 if e == "e06" else {30: 5, 12.5: 3, -5: 2}[scores[e]] for e in seated]
    assert TournamentStore(db).tournament == store.tournament  # replayed from the log: the same
    assert main(["tournament", "show", "--db", db]) == 0
    line = next(s for s in capsys.readouterr().out.splitlines() if s.startswith(table))
    assert [("（弃权）" in part) for part in line.split(" | ")] == [e == "e06" for e in seated]
    assert main(["tournament", "--lang", "en", "show", "--db", db]) == 0
    line = next(s for s in capsys.readouterr().out.splitlines() if s.startswith(table))
    assert [part for part in line.split(" | ") if "(forfeited)" in part] == [next(p for p in line.split(" | ") if " e06 " in p)]
    # a result over it is a correction, which restates the table: the forfeit goes unless named again
    with pytest.raises(TournamentError, match="已有成绩；请改用更正"):
        store.record_result(1, table, {"scores": [0, 0, 0, 0]})
    store.correct_result(1, table, {"scores": [40 if e == "e06" else scores[e] for e in seated]}, reason="到场了")
    assert store.round_view(1)["tables"][[x["table"] for x in view["tables"]].index(table)]["forfeits"] == []


def test_a_forfeit_beside_the_scores_is_a_first_entry_on_the_command_line(tmp_path, capsys):
    """The command line enters a San Da Yi table's 小分 with who was absent at once, as the console and
    ``record_result(..., forfeits=)`` do (004 says nothing of absence: the README's decision, the absent seat scores 0):
    one action; the absent seat scored is refused, the file byte for byte as it was."""
    db, table, seated = _individual(tmp_path, capsys)
    result = ["tournament", "result", "--db", db, "--round", "1", "--table", table, "--forfeit", "e06", "--scores"]
    line = lambda scores: ",".join(str(scores[e]) for e in seated)  # noqa: E731
    scores = dict(zip([e for e in seated if e != "e06"], [30, -5, 12.5])) | {"e06": 7}
    before = open(db, "rb").read()
    assert "e06 已弃权" in _refused(capsys, *result, line(scores))
    assert "e06 forfeited" in _refused(capsys, "--lang", "en", *result, line(scores))
    assert open(db, "rb").read() == before
    scores["e06"] = 0
    seq = TournamentStore(db).last_seq()
    assert main(result + [line(scores)]) == 0
    store = TournamentStore(db)
    assert store.last_seq() == seq + 1 and store.actions()[-1]["kind"] == "result"
    x = store.tournament.rounds[0].table(table)
    assert x.forfeits == ("e06",) and [x.outcome.points[seated.index(e)] for e in seated] == [
        0 if e == "e06" else {30: 5, 12.5: 3, -5: 2}[scores[e]] for e in seated]


@pytest.mark.parametrize("system_name, options", [("pair-swiss", {"rounds": 1}), ("knockout-best-of-three", {})])
def test_at_a_table_of_two_the_forfeit_is_the_result_and_nothing_is_entered_beside_it(tmp_path, capsys, system_name,
                                                                                      options):
    """000 四4: 胜者2分……弃权0分……弃权者-2; 002 十二 第2条: 本轮比赛作弃权论处 -- a forfeit decides a table of two, so
    a winner, a draw, games or levels given with it (a first entry or a correction, the command line or the API)
    are refused in words, never kept and overruled unseen (a winner given to the side that forfeited was)."""
    assert "弃权0分" in SEED_000_4_4
    store = _store(tmp_path, system_name, 4, **options)
    a, b = store.tournament.rounds[0].tables[0].entries
    db = str(store.path)
    store.close()
    before = open(db, "rb").read()
    for result in ({"winner": 0}, {"winner": 1}, {"draw": True}):
        for forfeits in ([a], [a, b]):
            with pytest.raises(TournamentError, match=f"t01 桌：两方对阵的桌，{'、'.join(sorted(forfeits))} 弃权就是本桌的成绩"):
                TournamentStore(db).record_result(1, "t01", result, forfeits=forfeits)
            with pytest.raises(TournamentError, match="不能同时再录胜负") as exc:
                TournamentStore(db).correct_result(1, "t01", result, forfeits=forfeits, reason="补录")
            assert "is its result" in exc.value.text("en")
    base = ["tournament", "result", "--db", db, "--round", "1", "--table", "t01", "--forfeit", a]
    assert "只录弃权" in _refused(capsys, *base, "--winner", "0")
    assert "enter the forfeit alone" in _refused(capsys, "--lang", "en", *base, "--draw")
    assert "只录弃权" in _refused(capsys, *base, "--winner", "1", "--correct", "--reason", "补录")
    for part in (["--levels", "A,9"], ["--games", "2-1"], ["--correct", "--reason", "补录", "--levels", "A,9"]):
        assert "`--games`、`--levels` 须与 `--winner` 或 `--draw` 一起给出" in _refused(capsys, *base, *part)
    assert open(db, "rb").read() == before
    assert main(base) == 0  # the forfeit alone: the other side wins
    assert TournamentStore(db).tournament.rounds[0].table("t01").outcome.points[0] == 0
