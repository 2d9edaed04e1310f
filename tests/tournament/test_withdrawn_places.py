"""The places of a standings with entries withdrawn (退赛, 取消比赛资格), in every system, one or two withdrawn at
different rounds, on the real store: the entries still in hold the places from 1 with no rank given twice and none
skipped (the places a withdrawn entry left close up: the next takes them), the withdrawn come after them, ranked on,
with no prize; the CSV, the XLSX, the printed HTML and ``cardtable tournament standings`` say the same."""

from __future__ import annotations

import csv
import io
import random

import pytest
from openpyxl import load_workbook

from cardtable.cli import main
from referee.tournament import TournamentStore
from test_disqualified import finish, pairs, players

SEED_000_5 = "本届竞赛决出一等奖1名，二等奖3名，三等奖5名。"  # 000 五、名次及奖励
SEED_002_4_2 = "获得本届比赛前八名的选手分别颁发证书和奖品。"  # 002 四、录取名次及奖励 2
SEED_002_10_3 = "如情节恶劣，则取消比赛资格"  # 002 十 第3条
SEED_004_1_1 = "最终比赛结果按照四轮比赛累计积分进行排名"  # 004 附件一 一、1


def played(path, system: str, field, withdraw: dict[int, int], seed: int, **options) -> TournamentStore:
    """A tournament played to its end; before round ``k`` of ``withdraw`` the entry still in at that place of the
    standings then withdraws (1: the leader)."""
    store = TournamentStore(path)
    store.new(system, field, seed=seed, options=options or None)
    rng = random.Random(seed)
    k = 0
    while not store.tournament.finished:
        k += 1
        if k in withdraw:
            still = [r for r in store.standings()["rows"] if not r.get("withdrawn")]
            who = still[withdraw[k] - 1]["id"]
            if store.tournament.system == "pair-swiss":
                store.withdraw_unit(store.tournament.entry(next(e.id for e in store.tournament.entries if e.team_id == who)).unit, reason="退赛")
            else:
                store.withdraw_entry(who, by="裁判长", reason="情节恶劣，取消比赛资格")
        store.pair_next_round()
        finish(store, rng)
    return store


def closed(rows: list[dict]) -> list[dict]:
    """The rows still in, checked: ranked from 1 by competition ranking (a shared place counts its rows); then the
    withdrawn, each a rank of its own after them, no prize."""
    still = [r for r in rows if not r.get("withdrawn")]
    gone = rows[len(still):]
    assert all(r.get("withdrawn") for r in gone) and gone  # after every row still in
    for r in still:
        assert r["rank"] == 1 + sum(x["rank"] < r["rank"] for x in still), (r, [x["rank"] for x in still])
    end = max(r["rank"] + sum(x["rank"] == r["rank"] for x in still) - 1 for r in still)
    assert [r["rank"] for r in gone] == list(range(end + 1, end + 1 + len(gone)))
    assert all(r["prize"] is None for r in gone)
    return still


def team_field() -> list:
    from referee.tournament import Entry

    return [Entry(f"{u}{k}", f"{u}{k}", u, u, (f"{u}{k}a", f"{u}{k}b")) for u in "甲乙丙丁戊己庚辛壬癸子丑" for k in (1, 2)]


@pytest.mark.parametrize("system, field, withdraw, options", [
    ("knockout-best-of-three", pairs(8), {2: 1}, {}),  # a quarter-final winner: its semi-final a walkover
    ("knockout-best-of-three", pairs(8), {2: 5}, {}),  # a quarter-final loser: no play-off for 5th to 8th
    ("knockout-best-of-three", pairs(8), {3: 1}, {}),  # a finalist: the final a walkover
    ("knockout-best-of-three", pairs(8), {2: 5, 3: 2}, {}),
    ("knockout-best-of-three", pairs(12), {1: 3, 3: 1}, {}),
    ("knockout-best-of-three", pairs(20), {2: 1, 3: 9}, {}),  # stage 1, then a loser of a round not played off
    ("individual-tables", players(16), {2: 1}, {}),
    ("individual-tables", players(16), {2: 1, 4: 3}, {}),
    ("pair-swiss", team_field(), {2: 1}, {"rounds": 4}),  # the leading team: no prize, the next team first
    ("pair-swiss", team_field(), {2: 1, 4: 2}, {"rounds": 4}),
])
def test_the_places_after_a_withdrawn_entry_close_up_in_every_system_and_sheet(tmp_path, capsys, system, field, withdraw, options):
    """000 五: 本届竞赛决出一等奖1名，二等奖3名，三等奖5名 (among the teams still in); 002 四2: 前八名 (the places
    played off; a pair disqualified, 十 第3条, leaves its place to the next); 004 一、1: 按照四轮比赛累计积分进行排名."""
    assert "一等奖1名" in SEED_000_5 and "前八名" in SEED_002_4_2 and "取消比赛资格" in SEED_002_10_3 and "排名" in SEED_004_1_1
    store = played(tmp_path / "t.db", system, field, withdraw, seed=7, **options)
    rows = store.standings()["rows"]
    still = closed(rows)
    if system == "pair-swiss":  # the prizes go to the first 1, 3 and 5 still in
        assert [r["prize"] for r in still[:9]] == ["一等奖"] + ["二等奖"] * 3 + ["三等奖"] * 5
        assert all(r["prize"] is None for r in still[9:])
    places = [("退赛" if r.get("withdrawn") else f'{r["rank"]}{"※" if r["by_lot"] else ""}', r["id"]) for r in rows]
    # the sheets name a team by its name, an entry by its lot number (抽签号)
    named = [(p, e if system == "pair-swiss" else str(store.tournament.lot.index(e) + 1)) for p, e in places]
    sheet = list(csv.reader(io.StringIO(store.export("csv").decode("utf-8-sig"))))
    standing = sheet[sheet.index([]) + 2:]  # after the results: a blank line and the heads
    assert [(row[0], row[1]) for row in standing[: len(rows)]] == named
    book = load_workbook(io.BytesIO(store.export("xlsx"))).worksheets[0]
    assert [(str(row[0]), str(row[1])) for row in book.iter_rows(min_row=2, values_only=True) if row[1]] == named
    html = store.export("html").decode()
    assert html.count("<td>退赛</td>") == len(rows) - len(still)
    assert main(["tournament", "standings", "--db", str(store.path)]) == 0
    printed = [line.split("\t")[:2] for line in capsys.readouterr().out.splitlines()[2:] if "\t" in line]
    assert [tuple(x) for x in printed] == named
