"""Each export says, under the standings, what ranks them first to last (排名依据：总分 → 对手分 → 级差 → 抽签（000 四5）):
read from the system's own order (``System.ranked_by``: its score, its tie-break columns as the standings carry them,
the lot), in the sheet's language; and a bad 小分 or export format is refused in words, quoted short."""

from __future__ import annotations

import csv
import io

import pytest
from openpyxl import load_workbook

from referee.catalogue import section
from referee.tournament import Entry, TournamentError, TournamentStore
from referee.tournament.systems import system

SEED_000_4_5 = ("团体总分高者名次列前；若总分相同，则比较对手分，对手分高者名次列前；若对手分相同，则比较竞赛级差，级差高者名次列前；"
                "若级差仍相同，则抽签决定名次")
SEED_004_1_1 = "最终比赛结果按照四轮比赛累计积分进行排名，如出现积分相同者，则计算小分进行排名，小分高者排名靠前。"
WORDS = {
    ("pair-swiss", "zh"): "排名依据：总分 → 对手分 → 级差 → 抽签（000 四5）",
    ("pair-swiss", "en"): "Ranked by: Total → Opp. score → Level diff → Lot (seed 000 四5)",
    ("individual-tables", "zh"): "排名依据：积分 → 小分 → 弃权（少者在前） → 抽签（004 附件一 一、1）",
    ("individual-tables", "en"): "Ranked by: Points → Game score → Forfeits (fewer first) → Lot (seed 004 附件一 一、1)",
    ("knockout-best-of-three", "zh"): "排名依据：淘汰赛位次（002 四2）",
    ("knockout-best-of-three", "en"): "Ranked by: Place in the bracket (seed 002 四2)",
}


def made(tmp_path, name: str) -> TournamentStore:
    store = TournamentStore(tmp_path / f"{name}.db")
    if name == "pair-swiss":
        entries = [Entry(f"p{i}", f"甲{i}/乙{i}", unit, unit, (f"甲{i}", f"乙{i}"))
                   for i, unit in enumerate(["机电学院", "机电学院", "工会", "工会"])]
        store.new(name, entries, name="升级", seed=1, options={"rounds": 1})
    elif name == "individual-tables":
        store.new(name, [Entry(f"e{i}", f"选手{i}", f"单位{i % 2}", f"单位{i % 2}", (f"选手{i}",)) for i in range(4)], name="三打一", seed=1)
    else:
        store.new(name, [Entry(f"k{i}", f"甲{i}/乙{i}", f"单位{i}", f"单位{i}", (f"甲{i}", f"乙{i}")) for i in range(4)], name="掼蛋", seed=1)
    store.pair_next_round()
    return store


@pytest.mark.parametrize("name", ["pair-swiss", "individual-tables", "knockout-best-of-three"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_export_says_the_ranking_order_from_the_systems_own(tmp_path, name, lang):
    assert "比较对手分" in SEED_000_4_5 and "计算小分进行排名" in SEED_004_1_1
    rules = system(name)
    assert rules.ranked_by()[1:len(rules.columns) + 1] == rules.columns or not rules.columns  # the standings' columns, in order
    words = WORDS[name, lang]
    columns = section(lang, "column")
    assert all(columns[c] in words for c in rules.ranked_by())  # each compared, named as the standings head it
    store = made(tmp_path, name)
    rows = list(csv.reader(io.StringIO(store.export("csv", lang=lang).decode("utf-8-sig"))))
    assert [words] in rows
    sheet = load_workbook(io.BytesIO(store.export("xlsx", lang=lang))).worksheets[0]
    assert words in [c.value for row in sheet.iter_rows() for c in row]
    assert f"<p class=ranking>{words}</p>" in store.export("html", lang=lang).decode()


def test_the_order_follows_the_systems_columns_not_a_fixed_list(tmp_path, monkeypatch):
    """Another tie-break order configured (级差 before 对手分) is said so: the words are read, not written out."""
    store = made(tmp_path, "pair-swiss")
    monkeypatch.setattr(type(system("pair-swiss")), "columns", ("级差", "对手分"))
    rows = list(csv.reader(io.StringIO(store.export("csv").decode("utf-8-sig"))))
    assert ["排名依据：总分 → 级差 → 对手分 → 抽签（000 四5）"] in rows


@pytest.mark.parametrize(("scores", "zh", "en"), [
    ([30, -5, "二十", 0], "北座的小分“二十”不是有限的数：应为整数或小数，绝对值不超过 100000",
     "seat N's score '二十' is not a finite number: a whole or decimal number, at most 100000 either way"),
    ([30, 100001, 1, 0], "东座的小分 100001 超出范围：绝对值不超过 100000",
     "seat E's score 100001 is out of range: at most 100000 either way"),
    ([30, "", 1, 0], "东座的小分没有填：应为整数或小数", "seat E's score is blank: type a whole or decimal number"),
    ([30, -5, 0], "小分应有四个，南、东、北、西每座一个，而这里有 3 个", "the scores are four, one per seat (S, E, N, W), not 3"),
    (["x" * 500, 1, 2, 3], "南座的小分“" + "x" * 39 + "…”不是有限的数", "seat S's score '" + "x" * 39 + "…' is not a finite number"),
])
def test_a_bad_small_score_is_refused_naming_its_seat_in_words(tmp_path, scores, zh, en):
    """004 一、1: each seat's 小分 of the round; a wrong one names the seat and what it is, not Python's list."""
    store = made(tmp_path, "individual-tables")
    before = store.last_seq()
    with pytest.raises(TournamentError) as exc:
        store.record_result(1, "t01", {"scores": scores})
    assert exc.value.text("zh").startswith(zh) and exc.value.text("en").startswith(en)
    assert "[" not in exc.value.text("zh")
    assert store.last_seq() == before


def test_an_unknown_export_format_is_quoted_short(tmp_path):
    store = made(tmp_path, "individual-tables")
    with pytest.raises(TournamentError) as exc:
        store.export("p" * 5000)
    assert "p" * 39 + "…" in exc.value.text("zh") and "p" * 41 not in exc.value.text("zh")
