"""Pair Swiss as a person at the venue reads it (seed 000): the command line, the CSV and the printed sheets say who
withdrew and mark a pair withdrawn 退赛 (not 弃权) where it sits; a table's result is the levels each side reached
(级差 stays the standings' tie-break); once the last round is complete every team still in without a placed prize gets
the 鼓励奖, a team withdrawn none. Chinese first, English with ``--lang en``."""

from __future__ import annotations

import csv
import io

from cardtable.cli import main
from referee.tournament import Entry, TournamentStore
from referee.tournament.export import export

SEED_000_5 = "本届竞赛决出一等奖1名，二等奖3名，三等奖5名。未获名次的队给予鼓励奖。"  # 000 五、名次及奖励
SEED_000_4_4 = "每轮竞赛得分（轮分）：胜者2分，平局者各1分，负者0分，弃权0分；每轮竞赛级差：胜者2，平局者各0，负者-2，弃权者-2。"
SEED_000_8_1 = "起庄：各家参赛运动员均由级牌2起庄，此后依次为3、4、5、6、7、8、9、10、J、Q、K和A，根据防家得分计算升级数。"
SEED_000_14 = "重则判取消参赛资格"  # 000 第十四条


def field(units: int) -> list[Entry]:
    """``units`` teams of two pairs each (000 三2: 运动员4名（2对）)."""
    return [Entry(f"u{u:02d}p{p}", f"甲{u}{p}、乙{u}{p}", f"单位{u:02d}", f"单位{u:02d}", (f"甲{u}{p}", f"乙{u}{p}"))
            for u in range(1, units + 1) for p in (1, 2)]


def run(capsys, *argv: str) -> str:
    assert main(["tournament", *argv]) == 0
    return capsys.readouterr().out


def test_a_pair_disqualified_mid_round_is_named_and_marked_withdrawn_not_forfeited(tmp_path, capsys):
    """000 第十四条: 重则判取消参赛资格 -- a pair disqualified while round 1 is played: `withdraw` names it (name and
    team, English too); its table, forfeited by it, says 退赛 after its name in `show`, the CSV's note and the
    printed sheets (弃权 is for a pair that did not come), and its team, its other pair still in, stays ranked."""
    assert "取消参赛资格" in SEED_000_14
    db = str(tmp_path / "t.db")
    store = TournamentStore(db)
    store.new("pair-swiss", field(4), name="秋季赛", seed=5, options={"rounds": 2})
    store.pair_next_round()
    t = store.tournament
    x = t.round(1).tables[0]
    gone, other = t.entry(x.entries[0]), t.round(1).tables[1]
    store.forfeit(1, other.table, [other.entries[1]])  # a pair that did not come: 弃权
    lot = t.lot.index(gone.id) + 1
    out = run(capsys, "withdraw", "--db", db, "--entry", gone.id, "--reason", "暗示，取消参赛资格")
    assert out.splitlines()[-1] == f"{lot}号 {gone.name}（{gone.unit}，编号 {gone.id}）退赛"
    named = [line for line in out.splitlines() if line.startswith(x.table)]
    assert named and f"{gone.id} {gone.name} ({gone.unit}) （退赛）" in named[0] and "弃权" not in named[0]
    shown = run(capsys, "show", "--db", db)
    assert f"{gone.name} ({gone.unit}) （退赛）" in shown and f"{t.entry(other.entries[1]).name} ({t.entry(other.entries[1]).unit}) （弃权）" in shown
    rows = list(csv.reader(io.StringIO(export(store.tournament, "csv").decode("utf-8-sig"))))
    assert [r[-1] for r in rows if r[:2] == ["1", x.table]] == ["退赛", ""]
    assert [r[-1] for r in rows if r[:2] == ["1", other.table]] == ["", "弃权"]
    html = export(store.tournament, "html").decode()
    assert f"{gone.name}（{gone.unit}） （退赛）" in html and f"{gone.name} （退赛）" in html  # the pairing sheet and the slip
    standings = run(capsys, "standings", "--db", db)
    assert "退赛" not in standings  # its team plays on with its other pair: ranked
    # English: who withdrew, and the mark
    other_gone = t.entry(other.entries[0])
    two = TournamentStore(tmp_path / "u.db")
    two.new("pair-swiss", field(4), seed=5, options={"rounds": 2})
    two.pair_next_round()
    out = run(capsys, "--lang", "en", "withdraw", "--db", str(tmp_path / "u.db"), "--unit", other_gone.unit, "--reason", "gone")
    team = [e for e in two.tournament.entries if e.unit == other_gone.unit]
    assert out.splitlines()[-2:] == [f"No. {two.tournament.lot.index(e.id) + 1} {e.name} ({e.unit}, entry {e.id}) withdrew" for e in team]
    assert "(withdrawn)" in out and "(forfeited)" not in out


def test_a_pair_swiss_result_is_the_levels_reached_and_the_level_difference_stays_a_tie_break(tmp_path, capsys):
    """000 第八条 1 (SEED_000_8_1): 由级牌2起庄……根据防家得分计算升级数 -- a table's result is the levels each side
    reached (K : 9; past A: 过A); entered without levels, who won (胜 : 负, 平 : 平); a forfeit 胜 : 负. 四4
    (SEED_000_4_4) 级差 胜者2……负者-2 is still the standings' tie-break, and the CSV's figure that adds up to it."""
    assert "由级牌2起庄" in SEED_000_8_1 and "级差：胜者2" in SEED_000_4_4
    db = str(tmp_path / "t.db")
    store = TournamentStore(db)
    store.new("pair-swiss", field(4), seed=9, options={"rounds": 2})
    store.pair_next_round()
    t1, t2, t3, t4 = store.tournament.round(1).tables
    store.record_result(1, t1.table, {"winner": 0, "levels": ["K", "9"]})
    store.record_game(1, t2.table, 1, ["10", "A+"])
    store.record_result(1, t3.table, {"draw": True})
    store.forfeit(1, t4.table, [t4.entries[0]])
    shown = run(capsys, "show", "--db", db).splitlines()
    said = {line.split()[0]: line.rsplit("成绩 ", 1)[-1] for line in shown if "成绩" in line}
    assert said == {t1.table: "K : 9", t2.table: "10 : 过A", t3.table: "平 : 平", t4.table: "负 : 胜"}
    english = run(capsys, "--lang", "en", "show", "--db", db)
    assert "10 : past A" in english and "drawn : drawn" in english and "lost : won" in english
    assert "<td>K</td>" in export(store.tournament, "html").decode()  # the result slip: the level reached
    rows = list(csv.reader(io.StringIO(export(store.tournament, "csv").decode("utf-8-sig"))))
    assert [r[7] for r in rows if r[:2] == ["1", t1.table]] == ["2", "-2"]  # 级差, as 四4 counts it
    standing = {r["id"]: r for r in store.standings()["rows"]}
    assert standing[store.tournament.entry(t1.entries[0]).team_id]["tiebreaks"][1] >= -2  # a tie-break figure still


def test_teams_without_a_placed_prize_get_the_encouragement_award_and_the_withdrawn_none(tmp_path, capsys):
    """000 五 (SEED_000_5): 本届竞赛决出一等奖1名，二等奖3名，三等奖5名。未获名次的队给予鼓励奖。 -- 12 teams, one
    withdrawn: once the last round is complete, 1 一等奖, 3 二等奖, 5 三等奖, the 2 other teams still in 鼓励奖 (English:
    Encouragement award), the withdrawn team no prize; before the end no prize at all."""
    assert "未获名次的队给予鼓励奖" in SEED_000_5
    db = str(tmp_path / "t.db")
    store = TournamentStore(db)
    store.new("pair-swiss", field(12), seed=4, options={"rounds": 2})
    store.withdraw_unit("单位07", reason="退赛")
    for n in (1, 2):
        store.pair_next_round()
        for x in store.tournament.round(n).tables:
            store.record_result(n, x.table, {"winner": 0})
        if n == 1:
            assert not any(r[-1] for r in _standings(run(capsys, "standings", "--db", db))[1:])
    rows = _standings(run(capsys, "standings", "--db", db))
    assert [r[-1] for r in rows[1:]] == ["一等奖"] + ["二等奖"] * 3 + ["三等奖"] * 5 + ["鼓励奖"] * 2 + [""]
    assert rows[-1][:3] == ["退赛", "单位07", "单位07"]
    assert [r["prize"] for r in store.standings()["rows"]][-3:] == [None] * 3  # the payload's prizes stay the three (v1)
    english = _standings(run(capsys, "--lang", "en", "standings", "--db", db))
    assert [r[-1] for r in english[1:]] == (["First prize"] + ["Second prize"] * 3 + ["Third prize"] * 5
                                            + ["Encouragement award"] * 2 + [""])
    sheet = list(csv.reader(io.StringIO(export(store.tournament, "csv", lang="en").decode("utf-8-sig"))))
    assert [r[-1] for r in sheet if r and r[0] in ("10", "11", "withdrawn")] == ["Encouragement award"] * 2 + [""]


def _standings(out: str) -> list[list[str]]:
    """The standings' rows as printed (the header first), without the lot's legend under them."""
    return [line.split("\t") for line in out.splitlines()[1:] if "\t" in line]
