"""A bye and a forfeit in the exports, and a late pair with the bye, in an odd pair-swiss field (teams of three pairs).

000 四4: 每轮竞赛得分（轮分）：胜者2分，平局者各1分，负者0分，弃权0分；每轮竞赛级差：胜者2，平局者各0，负者-2，弃权者-2。
000 第十三条: 迟到：……21分钟以上判全队该轮弃权。
No seed scores a bye (none says 轮空): the bye counts as a win (tournament README), and the exports write what the
standings count."""

from __future__ import annotations

import csv
import io

import pytest
from openpyxl import load_workbook

from referee.tournament import Entry, TournamentError, TournamentStore
from referee.tournament.pairswiss import pair_stats

SEED_000_4_4 = "每轮竞赛得分（轮分）：胜者2分，平局者各1分，负者0分，弃权0分；每轮竞赛级差：胜者2，平局者各0，负者-2，弃权者-2。"
SEED_000_13 = "迟到：5分钟之内警告，记违例一次；6~10分钟，首盘扣20分；11~15分钟，首盘扣30分；16~20分钟，首盘自动放弃，对手自动升级；21分钟以上判全队该轮弃权。"
UNITS = ("甲", "乙", "丙")


def odd_field(tmp_path) -> TournamentStore:
    """Nine pairs: three units of one team of three pairs (option ``team_pairs`` 3); round 1 paired, four tables and
    a bye."""
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", [Entry(f"{u}{k}", f"{u}{k}", u, u, (f"{u}{k}a", f"{u}{k}b")) for u in UNITS for k in (1, 2, 3)],
              seed=4, options={"rounds": 2, "team_pairs": 3})
    store.pair_next_round()
    return store


def team_of(store: TournamentStore, entry: str) -> list[str]:
    unit = store.tournament.entry(entry).unit
    return [e.id for e in store.tournament.entries if e.unit == unit]


def csv_rows(store: TournamentStore, lang: str = "zh") -> list[list[str]]:
    lines = list(csv.reader(io.StringIO(store.export("csv", lang=lang).decode("utf-8-sig"))))
    return lines[: lines.index([])]


def lot(store: TournamentStore, entry: str) -> str:
    """An entry's lot number (抽签号), as the export's rows name it."""
    return str(store.tournament.lot.index(entry) + 1)


def agree_with_standings(store: TournamentStore) -> None:
    """Each team's 轮分 and 成绩 (级差) summed over the export's rows are its standings' total and 级差."""
    rows = csv_rows(store)[1:]
    for row in store.standings()["rows"]:
        mine = [r for r in rows if store.tournament.entry(store.tournament.lot[int(r[3]) - 1]).team_id == row["id"] and r[6]]
        assert sum(int(r[6]) for r in mine) == row["score"] and sum(int(r[7]) for r in mine) == row["tiebreaks"][1], row


def test_a_byes_row_in_the_exports_has_the_points_and_level_difference_the_standings_count(tmp_path):
    assert "胜者2分" in SEED_000_4_4 and "胜者2" in SEED_000_4_4
    store = odd_field(tmp_path)
    for x in store.round_view(1)["tables"]:
        store.record_result(1, x["table"], {"winner": 0})
    (bye,) = store.round_view(1)["byes"]
    rows = csv_rows(store)
    assert rows[0] == ["轮次", "桌号", "座位", "抽签号", "选手", "单位", "轮分", "级差", "备注"]
    assert [r for r in rows if r[3] == lot(store, bye)] == [["1", "轮空", "", lot(store, bye), bye, store.tournament.entry(bye).unit, "2", "2", ""]]
    assert (pair_stats(store.tournament)[bye]["score"], pair_stats(store.tournament)[bye]["level"]) == (2, 2)
    agree_with_standings(store)
    sheet = [list(r) for r in load_workbook(io.BytesIO(store.export("xlsx")))["第1轮"].iter_rows(values_only=True)]
    assert [r[6:] for r in sheet if r[3] == int(lot(store, bye))] == [[2, 2, None]]  # numbers, as a table's


def test_a_forfeit_is_marked_in_the_exports_and_a_played_loss_is_not(tmp_path):
    assert "弃权0分" in SEED_000_4_4 and "弃权者-2" in SEED_000_4_4
    store = odd_field(tmp_path)
    tables = store.round_view(1)["tables"]
    absent = tables[0]["entries"][0]["id"]
    store.forfeit(1, tables[0]["table"], [absent])
    for x in tables[1:]:
        store.record_result(1, x["table"], {"winner": 1})
    for lang, mark in (("zh", "弃权"), ("en", "forfeit")):
        rows = csv_rows(store, lang)[1:]
        assert [(r[3], r[6], r[7]) for r in rows if r[8] == mark] == [(lot(store, absent), "0", "-2")], lang
        played_losses = [r for r in rows if r[6] == "0" and r[3] != lot(store, absent)]
        assert len(played_losses) == 3 and not any(r[8] for r in played_losses)  # lost at the table: no mark
    agree_with_standings(store)
    html = store.export("html").decode()
    assert html.count("（弃权）") == 2 and f"{absent} （弃权）" in html  # the pairing sheet and the slip (a23c32f marks both)
    assert f"{absent} (forfeited)" in store.export("html", lang="en").decode()


def test_a_late_pair_with_the_bye_is_its_teams_lateness(tmp_path):
    assert "21分钟以上判全队该轮弃权" in SEED_000_13
    store = odd_field(tmp_path)
    (bye,) = store.round_view(1)["byes"]
    view = store.late_arrival(1, bye, 25, by="裁判长")  # was refused: "has no table in round 1"
    team = set(team_of(store, bye))
    assert {e for x in view["tables"] for e in x["forfeits"]} == team - {bye}  # the teammates' tables are forfeited
    assert view["byes_forfeited"] == [bye]  # and the bye is lost with the team's round
    assert (pair_stats(store.tournament)[bye]["score"], pair_stats(store.tournament)[bye]["level"]) == (0, -2)
    row = next(r for r in csv_rows(store) if r[3] == lot(store, bye))
    assert row[6:] == ["0", "-2", "全队弃权"]
    assert next(r for r in csv_rows(store, "en") if r[3] == lot(store, bye))[8] == "whole team forfeits"
    assert "（全队弃权）" in store.export("html").decode()
    for x in store.round_view(1)["tables"]:
        if not x["forfeits"]:
            store.record_result(1, x["table"], {"winner": 0})
    agree_with_standings(store)


def test_a_late_pair_with_the_bye_is_refused_where_the_system_takes_no_bye_for_lateness(tmp_path):
    """Knockout (seed 002 十二 第2条: 本轮比赛作弃权论处): a bye is a walkover, not a round to forfeit."""
    store = TournamentStore(tmp_path / "k.db")
    store.new("knockout-best-of-three", [Entry(f"k{i}", f"k{i}", f"u{i}", f"u{i}", (f"k{i}a", f"k{i}b")) for i in range(1, 6)],
              seed=2)
    store.pair_next_round()
    bye = store.round_view(1)["byes"][0]
    seq = store.last_seq()
    with pytest.raises(TournamentError, match=f"{bye} 在第 1 轮没有牌桌"):
        store.late_arrival(1, bye, 25)
    assert store.last_seq() == seq


def test_a_bye_lost_to_the_teams_lateness_is_given_back_when_its_tables_are_corrected(tmp_path):
    assert "21分钟以上判全队该轮弃权" in SEED_000_13
    store = odd_field(tmp_path)
    (bye,) = store.round_view(1)["byes"]
    late = next(e for e in team_of(store, bye) if e != bye)
    view = store.late_arrival(1, late, 25)
    forfeited = [x["table"] for x in view["tables"] if x["forfeits"]]
    assert len(forfeited) == 2 and view["byes_forfeited"] == [bye]
    # the lateness was entered against the wrong team: the organiser restates its tables, one by one
    view = store.correct_result(1, forfeited[0], {"winner": 0}, reason="迟到录错")
    assert view["byes_forfeited"] == [bye]  # the team's other table still forfeited: its round still lost
    view = store.correct_result(1, forfeited[1], {"winner": 1}, reason="迟到录错")
    assert view["byes_forfeited"] == []
    assert (pair_stats(store.tournament)[bye]["score"], pair_stats(store.tournament)[bye]["level"]) == (2, 2)
    assert next(r for r in csv_rows(store) if r[3] == lot(store, bye))[6:] == ["2", "2", ""]
    for x in view["tables"]:
        if x["result"] is None:
            store.record_result(1, x["table"], {"winner": 0})
    agree_with_standings(store)
    assert store.pair_next_round()["round"] == 2
    assert bye not in store.round_view(2)["byes"]  # the bye given back is still the pair's one bye
