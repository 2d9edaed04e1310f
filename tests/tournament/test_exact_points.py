"""Shared places are exact (seed 004 附件一, 一、1): 每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分，
最终比赛结果按照四轮比赛累计积分进行排名，如出现积分相同者，则计算小分进行排名，小分高者排名靠前.

Three players level first share (5 + 3 + 2) / 3 = 10/3 each. Summed as floats, 1 + 10/3 + 10/3 + 10/3 is
11.000000000000002 and beat a plain 11 whatever the 小分; kept as fractions both are 11 and the 小分 decides.
The payloads carry "10/3", people read 3又1/3 (3 1/3 in English), the XLSX keeps a number shown as a fraction."""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
import sqlite3
from fractions import Fraction

from openpyxl import load_workbook

from bus.tournament import check
from cardtable.cli import main
from referee.tournament.export import export
from referee.tournament.matching import Graph, cost, min_cost_pairing
from referee.tournament.store import TournamentStore
from referee.tournament.views import encode, round_view, standings_view

UNITS = {"s1": "机械", "s2": "机械", "s3": "光电", "s4": "光电", "s5": "管理", "s6": "管理", "s7": "外语", "s8": "外语"}
GROUPS = [("s1", "s3", "s5", "s7"), ("s2", "s4", "s6", "s8")]


def thirds(hand_log):
    """s1: last in round 1, then three times first with two others (10/3): 11. s2: 5, 3, 2, 1: 11.
    小分: s1 -50 + 10 + 10 + 10 = -20, s2 50 + 10 + 0 - 40 = 20."""
    return (hand_log("individual-tables", UNITS, lot=["s1", "s3", "s5", "s7", "s2", "s4", "s6", "s8"])
            .pair(1, GROUPS).results(1, {"scores": [-50, 10, 20, 20]}, {"scores": [50, 0, -10, -40]})
            .pair(2, GROUPS).results(2, {"scores": [10, 10, 10, -30]}, {"scores": [10, 50, -10, -50]})
            .pair(3, GROUPS).results(3, {"scores": [10, 10, 10, -30]}, {"scores": [0, 50, 10, -60]})
            .pair(4, GROUPS).results(4, {"scores": [10, 10, 10, -30]}, {"scores": [-40, 50, 10, -20]}))


def test_level_on_points_after_shared_thirds_the_game_score_decides(hand_log):
    t = thirds(hand_log).replay()
    assert 1 + 10 / 3 + 10 / 3 + 10 / 3 == 11.000000000000002  # what floats made of it
    assert t.rounds[1].tables[0].outcome.points == (Fraction(10, 3),) * 3 + (1,)
    rows = {r["id"]: r for r in standings_view(t)["rows"]}
    assert (rows["s1"]["score"], rows["s1"]["tiebreaks"]) == (11, [-20, 0])
    assert (rows["s2"]["score"], rows["s2"]["tiebreaks"]) == (11, [20, 0])
    assert rows["s2"]["rank"] < rows["s1"]["rank"]  # 小分高者排名靠前 (the lot has s1 first)


def test_the_payloads_carry_exact_fractions_that_the_schemas_accept(hand_log):
    log = thirds(hand_log)
    t = log.replay()
    view = round_view(t, 2)
    assert view["tables"][0]["result"] == {"points": ["10/3", "10/3", "10/3", 1], "scores": [10, 10, 10, -30]}
    check("round", view)
    check("standings", standings_view(t))
    assert _upto(log, 2).rounds[-1].round == 2
    rows = {r["id"]: r for r in standings_view(_upto(log, 2))["rows"]}
    assert rows["s3"]["score"] == "16/3"  # 2 + 10/3
    assert json.loads(encode(standings_view(t))) == standings_view(t)


def _upto(log, round_no):
    from referee.tournament.actions import replay

    return replay([a for a in log.actions if a["kind"] == "new" or a["data"]["round"] <= round_no])


def test_exports_and_the_command_line_write_fractions_as_people_do(hand_log, tmp_path, capsys):
    log = thirds(hand_log)
    t = _upto(log, 2)
    rows = list(csv.reader(io.StringIO(export(t, "csv").decode("utf-8-sig"))))
    assert ["2", "t01", "南", str(t.lot.index("s1") + 1), "s1", "机械", "3又1/3", "10", ""] in rows  # by lot number
    assert any(len(r) > 4 and r[2] == "s3" and r[4] == "5又1/3" for r in rows)  # the standings: 2 + 10/3
    assert "5 1/3" in export(t, "csv", lang="en").decode("utf-8-sig")
    html = export(t, "html", round_no=2).decode()
    assert "<td>3又1/3</td>" in html and "3.33" not in html
    ws = load_workbook(io.BytesIO(export(t, "xlsx"))).worksheets[2]  # the standings, round 1, round 2
    cell = next(r[6] for r in ws.iter_rows() if r[4].value == "s1")
    assert abs(cell.value - 10 / 3) < 1e-12 and cell.number_format == "# ??/??"
    # the command line reads the same log
    db = tmp_path / "t.db"
    TournamentStore(db).close()
    with sqlite3.connect(db) as c:
        c.executemany("INSERT INTO actions (seq, kind, data, by, at) VALUES (?, ?, ?, ?, ?)",
                      [(a["seq"], a["kind"], json.dumps(a["data"]), a["by"], a["at"]) for a in log.actions])
    assert main(["tournament", "standings", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    lines = {line.split("\t")[2]: line.split("\t") for line in out[2:-1]}  # the rows, the ranking order under them
    assert lines["s2"][4:7] == lines["s1"][4:5] + ["20", "0"] and lines["s1"][4:7] == ["11", "-20", "0"]
    assert int(lines["s2"][0]) < int(lines["s1"][0])
    assert main(["tournament", "show", "--db", str(db), "--round", "2"]) == 0
    assert "3又1/3 3又1/3 3又1/3 1" in capsys.readouterr().out
    assert main(["--lang", "en", "tournament", "show", "--db", str(db), "--round", "2"]) == 0
    assert "3 1/3 3 1/3 3 1/3 1" in capsys.readouterr().out


def test_the_swiss_pairing_is_cheapest_with_thirds_and_quarters():
    """The matching's weights were the squared differences x4, rounded: right for halves only. With
    thirds and twelfths (scores of fractions) the blossom pairing must still be the cheapest."""
    rng = random.Random(7)
    for _ in range(200):
        nodes = list("ABCDEFGH")
        scores = {n: Fraction(rng.randrange(0, 60), 12) for n in nodes}
        graph = Graph(frozenset(nodes), frozenset(frozenset(e) for e in itertools.combinations(nodes, 2) if rng.random() < 0.2))
        found = min_cost_pairing(nodes, scores, graph, random.Random(1), quick=False)
        every = [m for m in _matchings(nodes) if all(frozenset(e) in graph for e in m)]
        if not every:
            assert found is None
            continue
        assert cost(found, scores) == min(cost(m, scores) for m in every)


def _matchings(nodes):
    if not nodes:
        yield []
        return
    a, rest = nodes[0], nodes[1:]
    for b in rest:
        for m in _matchings([n for n in rest if n != b]):
            yield [(a, b)] + m


def test_pair_swiss_points_entered_as_decimals_stay_as_written(hand_log):
    """000 四4: 每轮竞赛得分（轮分）：胜者2分，平局者各1分，负者0分 -- a venue's own points (here a draw worth 0.1)
    are read as the decimals written: three draws make 3/10, not 0.30000000000000004, and 对手分 adds them exactly."""
    units = {"a1": "甲", "b1": "乙", "c1": "丙", "d1": "丁"}
    t = (hand_log("pair-swiss", units, options={"rounds": 3, "points": [1, 0.1, 0]})
         .pair(1, [("a1", "b1"), ("c1", "d1")]).results(1, {"draw": True}, {"winner": 0})
         .pair(2, [("a1", "c1"), ("b1", "d1")]).results(2, {"draw": True}, {"winner": 0})
         .pair(3, [("a1", "d1"), ("b1", "c1")]).results(3, {"draw": True}, {"winner": 1})).replay()
    assert 0.1 + 0.1 + 0.1 == 0.30000000000000004
    rows = {r["id"]: r for r in standings_view(t)["rows"]}
    # a1 drew three times; its opponents b1 (0.1 + 1 + 0), c1 (1 + 0.1 + 1), d1 (0 + 0 + 0.1): 3.3
    assert rows["甲"]["score"] == "3/10" and rows["甲"]["tiebreaks"][0] == "33/10"
    check("standings", standings_view(t))
