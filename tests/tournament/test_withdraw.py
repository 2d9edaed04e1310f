"""A unit withdraws (退赛): its pairs leave the draw (no table, no bye), its results stand, prizes skip
it; and a late arrival past 20 minutes forfeits the whole team's round, a teammate's bye included
(seed 000 第十三条: 21分钟以上判全队该轮弃权). The organiser can change the number of rounds."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

from cardtable.cli import main
from referee.tournament import Entry, TournamentError, TournamentStore
from referee.tournament.pairswiss import pair_stats
from referee.tournament.simulate import random_result

SEED_000_13 = "迟到：5分钟之内警告，记违例一次；6~10分钟，首盘扣20分；11~15分钟，首盘扣30分；16~20分钟，首盘自动放弃，对手自动升级；21分钟以上判全队该轮弃权。"
SEED_000_5 = "本届竞赛决出一等奖1名，二等奖3名，三等奖5名。"


def field(sizes: dict[str, int], alone: bool = False) -> list[Entry]:
    """Units of the given numbers of pairs, one team each (``alone``: each pair a team of its own, team_pairs 1)."""
    return [Entry(f"{u}{k}", f"{u}{k}", u, f"{u}{k}" if alone else u, (f"{u}{k}a", f"{u}{k}b"))
            for u, n in sizes.items() for k in range(1, n + 1)]


def play_round(store: TournamentStore, rng: random.Random) -> dict:
    view = store.pair_next_round()
    for x in view["tables"]:
        if x["result"] is None:
            store.record_result(view["round"], x["table"], random_result("pair-swiss", 1, rng))
    return view


def test_late_past_twenty_minutes_forfeits_the_whole_teams_round_a_teammates_bye_included(hand_log):
    assert "21分钟以上判全队该轮弃权" in SEED_000_13
    units = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", "c1": "C", "c2": "C", "d1": "D", "d2": "D", "e1": "E"}
    log = (hand_log("pair-swiss", units, options={"rounds": 3})
           .pair(1, [("a1", "b1"), ("b2", "c1"), ("c2", "d1"), ("d2", "e1")], byes=("a2",)))
    t = log.add("late", round=1, entry="a1", minutes=20).replay()  # 16~20 minutes: the table's penalty only
    assert pair_stats(t)["a2"]["score"] == 2 and t.rounds[0].bye_forfeits == ()
    t = log.add("late", round=1, entry="a1", minutes=21).replay()
    stats = pair_stats(t)
    assert t.rounds[0].table("t01").outcome.points == (0, 2)  # a1 forfeits its table
    assert t.rounds[0].bye_forfeits == ("a2",)
    assert (stats["a2"]["score"], stats["a2"]["level"]) == (0, -2)  # 弃权0分, 弃权者-2, not the bye's win
    from referee.tournament.views import round_view

    assert round_view(t, 1)["byes_forfeited"] == ["a2"]
    tables, byes = t.rules.pair(t, 2)
    assert "a2" not in byes  # the bye was had, even if lost


def test_a_unit_withdraws_its_pairs_leave_the_draw_its_results_stand_and_prizes_skip_it(tmp_path, capsys):
    assert "一等奖1名" in SEED_000_5
    rng = random.Random(3)
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", field({"甲": 2, "乙": 2, "丙": 2, "丁": 2, "戊": 2}), seed=5,
              options={"rounds": 4, "prizes": [1, 1, 1]})
    play_round(store, rng)
    before = pair_stats(store.tournament)
    path = str(store.path)
    assert main(["tournament", "withdraw", "--db", path, "--unit", "丙", "--reason", "全队因公出差", "--by", "王老师"]) == 0
    capsys.readouterr()
    action = store.actions()[-1]
    assert (action["kind"], action["by"], action["data"]) == ("leave", "王老师", {"unit": "丙", "entries": ["丙1", "丙2"], "reason": "全队因公出差"})
    for _ in range(3):
        view = play_round(store, rng)
        seated = [e["id"] for x in view["tables"] for e in x["entries"]] + view["byes"]
        assert sorted(seated) == sorted(e.id for e in store.tournament.entries if e.unit != "丙")
    t = store.tournament
    assert t.finished
    after = pair_stats(t)
    assert after["丙1"] == before["丙1"] and after["丙2"] == before["丙2"]  # their round-1 results stand
    rows = store.standings()["rows"]
    assert rows[-1]["id"] == "丙" and rows[-1]["withdrawn"] and rows[-1]["prize"] is None and rows[-1]["rank"] == 5
    assert [r["prize"] for r in rows[:3]] == ["一等奖", "二等奖", "三等奖"] and not any(r.get("withdrawn") for r in rows[:4])
    # the command line, the CSV: 退赛 in place of the rank
    assert main(["tournament", "standings", "--db", path]) == 0
    assert capsys.readouterr().out.splitlines()[-2].split("\t")[:2] == ["退赛", "丙"]  # the last row, the ranking order under it
    assert main(["tournament", "export", "--db", path, "--format", "csv"]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out.lstrip("\ufeff"))))
    assert ["退赛", "丙"] == next(r for r in table if r[1:2] == ["丙"])[:2]
    assert main(["tournament", "standings", "--db", path, "--lang", "en"]) == 0
    assert capsys.readouterr().out.splitlines()[-2].startswith("withdrawn\t丙")


def test_a_unit_that_withdraws_in_the_middle_of_a_round_forfeits_the_tables_it_has_not_finished(tmp_path):
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", field({"甲": 2, "乙": 2, "丙": 2, "丁": 2}), seed=2, options={"rounds": 3})
    view = store.pair_next_round()
    own = [x for x in view["tables"] if any(e["unit"] == "丙" for e in x["entries"])]
    store.record_result(1, own[0]["table"], {"draw": True})
    store.withdraw_unit("丙", by="王老师", reason="退赛")
    r = store.tournament.round(1)
    assert r.table(own[0]["table"]).outcome.points == (1, 1)  # played: stands
    x = r.table(own[1]["table"])
    assert x.forfeits == tuple(e["id"] for e in own[1]["entries"] if e["unit"] == "丙")
    assert x.outcome.points[[e["unit"] for e in own[1]["entries"]].index("丙")] == 0
    for y in view["tables"]:
        if store.tournament.round(1).table(y["table"]).outcome is None:
            store.record_result(1, y["table"], {"winner": 0})
    assert all(e["unit"] != "丙" for x in store.pair_next_round()["tables"] for e in x["entries"])


def test_an_odd_field_after_a_withdrawal_gives_no_bye_to_a_withdrawn_pair(tmp_path):
    rng = random.Random(9)
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", field({"甲": 3, "乙": 2, "丙": 2, "丁": 2, "戊": 1}, alone=True), seed=4,
              options={"rounds": 5, "team_pairs": 1})
    play_round(store, rng)
    store.withdraw_unit("戊", reason="退赛")
    for _ in range(4):
        view = play_round(store, rng)
        assert view["byes"] and "戊1" not in view["byes"]
        assert all(e["id"] != "戊1" for x in view["tables"] for e in x["entries"])


def test_rounds_that_can_no_longer_be_paired_are_said_and_the_organiser_changes_the_count(tmp_path, capsys):
    # Four units of two pairs, 6 rounds: every pair meets all six others. After 丁 withdraws each pair
    # has four opponents left for five rounds.
    rng = random.Random(1)
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", field({"甲": 2, "乙": 2, "丙": 2, "丁": 2}), seed=1, options={"rounds": 6})
    play_round(store, rng)
    path = str(store.path)
    assert main(["tournament", "withdraw", "--db", path, "--unit", "丁", "--reason", "退赛"]) == 0
    out = capsys.readouterr().out
    can = store.tournament.rules.most_rounds(store.tournament, 6)
    assert can < 6 and f"最多能排 {can} 轮（`cardtable tournament rounds --set {can}`）" in out
    with pytest.raises(TournamentError, match=f"排不出共 6 轮的对阵；最多能排 {can} 轮"):
        store.set_rounds(6)
    with pytest.raises(TournamentError, match="不少于已编排的 1 轮"):
        store.set_rounds(0)
    assert main(["tournament", "rounds", "--db", path, "--set", str(can)]) == 0
    assert capsys.readouterr().out.strip() == f"共 {can} 轮（已编排 1 轮）"
    while not store.tournament.finished:
        play_round(store, rng)
    assert len(store.tournament.rounds) == can and store.standings()["rows"][0]["prize"] == "一等奖"


def test_bad_withdrawals_are_refused_and_change_nothing(tmp_path):
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", field({"甲": 2, "乙": 2, "丙": 2}), seed=1, options={"rounds": 2})
    seq = store.last_seq()
    with pytest.raises(TournamentError, match="没有单位“庚”；参赛单位：丙、乙、甲"):
        store.withdraw_unit("庚", reason="退赛")
    store.withdraw_unit("甲", reason="退赛")
    with pytest.raises(TournamentError, match="甲 已经退赛"):
        store.withdraw_unit("甲", reason="退赛")
    assert store.last_seq() == seq + 1
    with pytest.raises(TournamentError, match="没有参赛编号 庚1"):
        store.withdraw_entry("庚1", reason="退赛")
    with pytest.raises(TournamentError, match="甲1 已经退赛"):
        store.withdraw_entry("甲1", reason="退赛")
    assert store.last_seq() == seq + 1
    assert json.loads(json.dumps(store.round_view()))["round"] == 0


def test_a_withdrawal_without_a_reason_is_refused_in_words_and_changes_nothing(tmp_path, capsys):
    """004 三 取消其比赛资格 / 000 第十四条 重则判取消参赛资格: who withdrew or was disqualified, and why, is kept in the log
    (README: the log keeps the unit, its entries, the reason); none given, or blank, is said and nothing changes."""
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", field({"甲": 2, "乙": 2, "丙": 2}), seed=1, options={"rounds": 2})
    seq, path = store.last_seq(), str(store.path)
    for who, why in ((["--unit", "甲"], ["--reason", ""]), (["--entry", "乙1"], ["--reason", " \u3000"])):  # none: argparse's (test_cli_standings_said)
        with pytest.raises(SystemExit) as exc:
            main(["tournament", "withdraw", "--db", path, "--lang", "en"] + who + why)
        assert exc.value.code == 2 and f"say why {who[1]} withdraws or is disqualified" in capsys.readouterr().err
    with pytest.raises(TournamentError, match="请说明 甲 退赛或被取消比赛资格的原因"):
        store.withdraw_unit("甲", reason="")
    assert store.last_seq() == seq and not store.tournament.withdrawn
    assert main(["tournament", "withdraw", "--db", path, "--entry", "乙1", "--reason", "取消比赛资格"]) == 0
    assert store.actions()[-1]["data"]["reason"] == "取消比赛资格"


def test_a_correction_without_a_reason_is_refused_in_words_and_changes_nothing(tmp_path, capsys):
    """002 十四 第2条: 裁判组会对于申诉的表决……并于当天给予答复 -- a result corrected (a dispute answered) says why, as the
    README asks (a correction, console: a reason given); none, or blank, on the command line or through the store
    (a forfeit over a result is a correction) is said and changes nothing."""
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", field({"甲": 2, "乙": 2}), seed=1, options={"rounds": 2})
    x = store.pair_next_round()["tables"][0]["table"]
    store.record_result(1, x, {"winner": 0})
    seq, path = store.last_seq(), str(store.path)
    for why in ([], ["--reason", "  "]):
        with pytest.raises(SystemExit) as exc:
            main(["tournament", "result", "--db", path, "--round", "1", "--table", x, "--winner", "1", "--correct", "--lang", "en"] + why)
        assert exc.value.code == 2 and f"say why round 1 table {x}'s result is corrected" in capsys.readouterr().err
    with pytest.raises(TournamentError, match=f"请说明更正第 1 轮 {x} 桌成绩的原因"):
        store.forfeit(1, x, [store.round_view(1)["tables"][0]["entries"][0]["id"]], correct=True)
    assert store.last_seq() == seq
    assert main(["tournament", "result", "--db", path, "--round", "1", "--table", x, "--winner", "1", "--correct", "--reason", "记分卡填反"]) == 0
