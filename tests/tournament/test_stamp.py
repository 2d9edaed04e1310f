"""Every export is stamped with what it counts (the rounds complete, the tables entered of the round in play), when it
was made (the venue's local time) and the tournament log's last action number: a sheet printed before a correction
is told from one printed after it, in the CSV, the XLSX and the printed sheets, in both languages."""

from __future__ import annotations

import csv
import html
import io
import re
import time

import pytest
from openpyxl import load_workbook

from referee.tournament import Entry, TournamentStore

SEED_002_14_2 = "第2条：裁判组会对于申诉的表决取决于简单的少数服从多数，并于当天给予答复。"
SEED_000_4_5 = "5.各队的团体成绩由本队两对选手轮分积分累加而定。"
MADE = 1796047500.0  # 2026-11-30 14:05 UTC: 22:05 at a venue in China


@pytest.fixture
def beijing(monkeypatch):
    """The venue's zone (China's, no summer time), as the console's machine is set up there."""
    monkeypatch.setenv("TZ", "CST-8")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def stamps(store: TournamentStore, lang: str) -> list[str]:
    """The stamp as each export writes it: the CSV's last row, the last row of every XLSX sheet (the standings, one per
    round), the printed lines (under the title, under the standings)."""
    rows = list(csv.reader(io.StringIO(store.export("csv", lang=lang).decode("utf-8-sig"))))
    book = load_workbook(io.BytesIO(store.export("xlsx", lang=lang)))
    printed = re.findall(r"<p class=stamp>(.*?)</p>", html.unescape(store.export("html", lang=lang).decode()))
    assert rows[-2] == [] and len(printed) == 2 and len(book.worksheets) == 1 + len(store.tournament.rounds)
    return [rows[-1][0], *(list(s.iter_rows(values_only=True))[-1][0] for s in book.worksheets), *printed]


def test_a_correction_changes_the_stamp_of_every_sheet(tmp_path, beijing):
    """002 十四 第2条 (SEED_002_14_2): an appeal is answered the same day (并于当天给予答复), so a result is corrected
    while sheets are already printed; the standings add up the rounds' 轮分 (000 四5, SEED_000_4_5). Each sheet says
    the rounds it counts whole, the tables entered of round 2, the time it was made at the venue and the log's last
    action: the one printed after the correction says a later action."""
    assert "并于当天给予答复" in SEED_002_14_2 and "轮分积分累加" in SEED_000_4_5
    store = TournamentStore(tmp_path / "t.db", clock=lambda: MADE)
    store.new("pair-swiss", [Entry(f"e{i}", f"甲{i}、乙{i}", f"单位{i}", f"单位{i}", (f"甲{i}", f"乙{i}")) for i in range(8)],
              name="升级赛", seed=5, options={"rounds": 2, "team_pairs": 1})
    assert set(stamps(store, "zh")[:2]) | set(stamps(store, "en")[:1]) == {
        f"尚无完成的一轮；制表 2026-11-30 22:05；赛事记录至第 {store.last_seq()} 条",
        f"No round complete yet; made 2026-11-30 22:05; tournament log to action {store.last_seq()}"}
    for x in store.pair_next_round()["tables"]:
        store.record_result(1, x["table"], {"winner": 0})
    table = store.pair_next_round()["tables"][0]["table"]
    store.record_result(2, table, {"winner": 0})
    before = store.last_seq()
    assert set(stamps(store, "zh")) == {f"第 1 轮后（第 2 轮已录 1/4 桌）；制表 2026-11-30 22:05；赛事记录至第 {before} 条"}
    assert set(stamps(store, "en")) == {
        f"After round 1 (round 2: 1 of 4 tables entered); made 2026-11-30 22:05; tournament log to action {before}"}
    store.correct_result(2, table, {"winner": 1}, reason="申诉，裁判组当天答复")
    assert set(stamps(store, "zh")) == {f"第 1 轮后（第 2 轮已录 1/4 桌）；制表 2026-11-30 22:05；赛事记录至第 {before + 1} 条"}


def test_the_time_made_is_the_export_s_own_and_a_complete_round_has_no_round_in_play(tmp_path, beijing):
    """000 四5 (SEED_000_4_5): the standings after the last round count both rounds whole; the same log exported an
    hour later says the later time and the same action."""
    now = [MADE]
    store = TournamentStore(tmp_path / "t.db", clock=lambda: now[0])
    store.new("pair-swiss", [Entry(f"e{i}", f"甲{i}、乙{i}", f"单位{i}", f"单位{i}", (f"甲{i}", f"乙{i}")) for i in range(4)],
              name="升级赛", seed=5, options={"rounds": 2, "team_pairs": 1})
    for n in (1, 2):
        for x in store.pair_next_round()["tables"]:
            store.record_result(n, x["table"], {"winner": 0})
    now[0] = MADE + 3600
    assert set(stamps(store, "zh")) == {f"第 2 轮后；制表 2026-11-30 23:05；赛事记录至第 {store.last_seq()} 条"}
