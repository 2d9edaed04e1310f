"""Ties the lot decides, shown as such (standings, exports, the command line), and the lot drawn
in the hall entered in place of the one drawn at registration."""

from __future__ import annotations

import csv
import io

import pytest
from openpyxl import load_workbook

from cardtable.cli import main
from referee.tournament import Entry, TournamentError, TournamentStore
from referee.tournament.export import export
from referee.tournament.views import standings_view

W0, W1, DRAW = {"winner": 0}, {"winner": 1}, {"draw": True}
UNITS = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", "c1": "C", "c2": "C", "d1": "D", "d2": "D"}


def level_c_and_d(hand_log):
    # The pair-swiss of test_pair_swiss: A 6 and B 6 apart on 对手分; C and D level on 2, 8, -4.
    return (hand_log("pair-swiss", UNITS, lot=["d1", "a1", "c1", "b1", "a2", "b2", "c2", "d2"], options={"rounds": 2})
            .pair(1, [("a1", "c1"), ("a2", "d2"), ("b1", "c2"), ("b2", "d1")]).results(1, W0, W0, W0, W0)
            .pair(2, [("a1", "b1"), ("a2", "b2"), ("c1", "d1"), ("c2", "d2")]).results(2, DRAW, DRAW, W0, W1))


def test_a_place_the_lot_decides_is_marked_on_the_standings_and_the_exports(hand_log):
    # 000 四5: 若总分相同，则比较对手分……若级差仍相同，则抽签决定名次 — the rows the lot ordered say so.
    t = level_c_and_d(hand_log).replay()
    assert [(r["rank"], r["id"], r["by_lot"]) for r in standings_view(t)["rows"]] == [
        (1, "A", False), (2, "B", False), (3, "D", True), (4, "C", True)]
    lines = list(csv.reader(io.StringIO(export(t, "csv").decode("utf-8-sig"))))
    legend = "※ 名次由抽签决定（总分及各项比较都相同）"
    ranked = "排名依据：总分 → 对手分 → 级差 → 抽签（000 四5）"  # what the lot comes after (test_ranking_order.py)
    assert [row[0] for row in lines[-8:-2]] == ["1", "2", "3※", "4※", legend, ranked]  # then the stamp (test_stamp.py)
    sheet = load_workbook(io.BytesIO(export(t, "xlsx"))).active
    assert [c.value for c in sheet["A"]][1:-2] == [1, 2, "3※", "4※", legend, ranked]
    html = export(t, "html").decode()
    assert "<td>3※</td>" in html and f"<p class=legend>{legend}</p>" in html
    english = export(t, "html", lang="en").decode()
    assert "<td>4※</td>" in english and "※ place decided by lot" in english


def test_no_mark_without_a_tie_nor_in_the_knockout(hand_log):
    t = (hand_log("pair-swiss", UNITS, options={"rounds": 1})
         .pair(1, [("a1", "c1"), ("a2", "d2"), ("b1", "c2"), ("b2", "d1")]).results(1, W0, W0, DRAW, W0).replay())
    assert not any(r["by_lot"] for r in standings_view(t)["rows"]) and "※" not in export(t, "csv").decode("utf-8-sig")
    ko = (hand_log("knockout-best-of-three", {"k1": "u", "k2": "u", "k3": "u", "k4": "u"})
          .pair(1, [("k2", "k1"), ("k4", "k3")]).results(1, W0, W0).replay())
    rows = standings_view(ko)["rows"]
    assert [r["rank"] for r in rows] == [1, 1, 3, 3] and not any(r["by_lot"] for r in rows)  # shared, not drawn


def entries(units, players=2):
    """Pairs (or, ``players=1``, single players) of the given units."""
    return [Entry(e, f"{e}队", u, u, (f"{e}甲", f"{e}乙")[:players]) for e, u in units.items()]


def test_the_lot_drawn_in_the_hall_replaces_the_seeded_one(tmp_path):
    # 002 一4: 抽签：各工会组长于 11月30日下午3：40在行政楼5322参加分组抽签 — the hall's lot is entered
    # before round 1; the bracket, its byes and seats follow it.
    store = TournamentStore(tmp_path / "ko.db")
    units = {f"k{i}": f"u{i}" for i in range(1, 6)}
    store.new("knockout-best-of-three", entries(units), seed=1)
    hall = ["k4", "k2", "k5", "k1", "k3"]
    seq = store.last_seq()
    for bad, words in ((["k4", "k2", "k5", "k1"], "缺少：k3"), (hall + ["k4"], "重复：k4"), (["k9"] + hall, "未知：k9"),
                       (["k9"] * 1000 + hall, "未知：k9；"), ("k4,k2", "列表")):  # an id named once, however often repeated
        with pytest.raises(TournamentError, match=words):
            store.draw_lot(bad, by="裁判长")
    assert store.last_seq() == seq
    assert store.draw_lot(hall, by="裁判长").lot == tuple(hall)
    assert store.actions()[-1]["kind"] == "lot" and store.actions()[-1]["by"] == "裁判长"
    view = store.pair_next_round()
    # Five in a bracket of 8: lot numbers 1-3 have byes, 5 (k3) sits S/N against 4 (k1).
    assert view["byes"] == ["k4", "k2", "k5"]
    assert [[(e["id"], e["lot"]) for e in x["entries"]] for x in view["tables"]] == [[("k3", 5), ("k1", 4)]]
    with pytest.raises(TournamentError, match="现场抽签只能在第 1 轮编排之前录入") as exc:
        store.draw_lot(list(reversed(hall)))
    assert "before round 1 is paired" in exc.value.text("en")


def test_a_lot_that_only_breaks_ties_may_come_later(tmp_path):
    # Individual tables pair by a draw of their own (004 一4: 每轮比赛前进行抽签决定桌次): the lot breaks the
    # final ties only, so the hall's may come once the tie is known.
    store = TournamentStore(tmp_path / "sdy.db")
    units = {f"s{i}": f"u{i % 2}" for i in range(1, 5)}
    store.new("individual-tables", entries(units, players=1), seed=2, options={"rounds": 1})
    store.pair_next_round()
    seats = store.round_view()["tables"][0]["entries"]
    store.record_result(1, "t01", {"scores": [10, 10, 0, -20]})
    level = [seats[0]["id"], seats[1]["id"]]
    rows = store.standings()["rows"]
    assert [r["by_lot"] for r in rows] == [True, True, False, False] and {r["id"] for r in rows[:2]} == set(level)
    for first in level:
        store.draw_lot([first] + [e for e in units if e != first])
        assert store.standings()["rows"][0]["id"] == first


def test_the_command_line_marks_a_place_the_lot_decided(capsys, tmp_path):
    store = TournamentStore(tmp_path / "sdy.db")
    store.new("individual-tables", entries({f"s{i}": f"u{i % 2}" for i in range(1, 5)}, players=1), seed=2, options={"rounds": 1})
    store.pair_next_round()
    store.record_result(1, "t01", {"scores": [10, 10, 0, -20]})
    capsys.readouterr()
    assert main(["tournament", "standings", "--db", str(tmp_path / "sdy.db")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines[2:-1]] == ["1※", "2※", "3", "4", "※ 名次由抽签决定（总分及各项比较都相同）"]
    assert main(["tournament", "standings", "--db", str(tmp_path / "sdy.db"), "--lang", "en"]) == 0
    assert capsys.readouterr().out.splitlines()[-2] == "※ place decided by lot (level on the total and every tie-break)"


def test_the_command_line_enters_and_prints_the_lot(capsys, tmp_path):
    form = tmp_path / "报名表.csv"
    form.write_text("单位,对,选手\n" + "".join(f"u{i},1,甲{i}、乙{i}\n" for i in range(1, 5)), encoding="utf-8")
    db = tmp_path / "t.db"
    assert main(["tournament", "new", "--system", "knockout-best-of-three", "--entries", str(form), "--db", str(db), "--seed", "4"]) == 0
    ids = [e.id for e in TournamentStore(db).tournament.entries]
    capsys.readouterr()
    order = list(reversed(ids))
    before = db.read_bytes()
    for by in ("", "  "):  # the log would say nobody drew it
        with pytest.raises(SystemExit):
            main(["tournament", "lot", "--db", str(db), "--order", ",".join(order), "--by", by])
        assert "操作人是空的：记录要写明每次改动是谁做的" in capsys.readouterr().err and db.read_bytes() == before
    assert main(["tournament", "lot", "--db", str(db), "--order", ", ".join(order), "--by", "组长"]) == 0  # spaced as typed
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "抽签号\t编号\t名称\t单位" and [line.split("\t")[:2] for line in out[1:]] == [[str(i), e] for i, e in enumerate(order, 1)]
    assert main(["tournament", "pair", "--db", str(db)]) == 0
    assert f"4号 {order[3]}" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["tournament", "lot", "--db", str(db), "--order", ",".join(ids)])
    assert "现场抽签只能在第 1 轮编排之前录入" in capsys.readouterr().err


def test_pair_swiss_takes_the_halls_lot_for_the_final_ties_once_the_last_round_is_complete(tmp_path):
    # 000 四5: 若级差仍相同，则抽签决定名次 — the lot for a tie may be drawn when the tie is known; while rounds
    # are being paired it orders the pairings (四2: 第1轮采用电脑抽签编排对手), so it is refused then.
    store = TournamentStore(tmp_path / "zk.db")
    store.new("pair-swiss", entries(UNITS), seed=9, options={"rounds": 1})
    view = store.pair_next_round()
    with pytest.raises(TournamentError, match="全部比赛结束后（抽签决定名次）录入"):
        store.draw_lot(list(UNITS))
    for x in view["tables"]:
        store.record_result(1, x["table"], DRAW)
    rows = store.standings()["rows"]
    assert all(r["by_lot"] for r in rows) and len({(r["score"], *r["tiebreaks"]) for r in rows}) == 1
    for first in ("c2", "b1"):
        store.draw_lot([first] + [e for e in UNITS if e != first], by="仲裁小组")
        assert store.standings()["rows"][0]["id"] == UNITS[first]
    assert [a["kind"] for a in store.actions()].count("lot") == 2
