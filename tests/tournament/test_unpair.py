"""A round paired by mistake, before any result, is undone and paired anew (``unpair``): the organiser pressed
"pair" before entering the hall's lot, or before a unit's withdrawal; a round under way is changed by corrections
only."""

from __future__ import annotations

import pytest

from cardtable.cli import main
from referee.tournament import Entry, TournamentError, TournamentStore

SEED_002_1_4 = "抽签：各工会组长于 11月30日下午3：40在行政楼5322参加分组抽签。"
SEED_000_4_2 = "第2轮起按同分或近分原则由电脑随机编排对手（同单位对手和赛过的对手不编排再赛）。"


def pairs(n: int, per_unit: int = 1) -> list[Entry]:
    return [Entry(f"e{i:02d}", f"甲{i}、乙{i}", f"单位{(i - 1) // per_unit}", f"单位{(i - 1) // per_unit}",
                  (f"甲{i}", f"乙{i}")) for i in range(1, n + 1)]


def test_a_knockout_paired_before_the_halls_lot_is_undone_and_drawn_by_that_lot(tmp_path):
    """002 一4: the bracket is the lot drawn in the hall (分组抽签); paired first by mistake, the lot is refused until
    the pairing is undone, and the round drawn again follows the hall's lot (byes to lot numbers 1 and 2)."""
    assert "参加分组抽签" in SEED_002_1_4
    store = TournamentStore(tmp_path / "k.db")
    store.new("knockout-best-of-three", pairs(6), seed=1)
    store.pair_next_round()
    hall = ["e06", "e05", "e04", "e03", "e02", "e01"]
    with pytest.raises(TournamentError):
        store.draw_lot(hall)
    view = store.unpair_round(1, by="裁判长", reason="先编排后抽签")
    assert view["round"] == 0 and store.tournament.rounds == ()
    store.draw_lot(hall)
    view = store.pair_next_round()
    assert sorted(view["byes"]) == ["e05", "e06"]
    assert TournamentStore(tmp_path / "k.db").tournament.rounds == store.tournament.rounds  # the log replays so
    assert [a["kind"] for a in store.actions()][-4:] == ["pair", "unpair", "lot", "pair"]


def test_a_pair_swiss_round_paired_before_a_withdrawal_is_paired_again_without_walkovers(tmp_path):
    """000 四2: a round is paired among the pairs that play it; a unit withdrawn after round 2 was paired (no result
    yet) would hand its two opponents a win each, so the organiser undoes the pairing, and the round drawn again
    seats nobody of that unit and still meets no unit twice nor anyone already met."""
    assert "同单位对手和赛过的对手不编排再赛" in SEED_000_4_2
    store = TournamentStore(tmp_path / "s.db")
    store.new("pair-swiss", pairs(12, per_unit=2), seed=4)
    view = store.pair_next_round()
    for x in view["tables"]:
        store.record_result(1, x["table"], {"winner": 0})
    store.pair_next_round()
    store.withdraw_unit("单位5", reason="有事")  # entered after the pairing: its tables become walkovers
    assert any(x["forfeits"] for x in store.round_view()["tables"])
    store.unpair_round(2, reason="退赛后重排")  # only the withdrawal's forfeits: no result, may be undone
    view = store.pair_next_round()
    t = store.tournament
    met = {frozenset(x.entries) for x in t.rounds[0].tables}
    for x in view["tables"]:
        a, b = (t.entry(e["id"]) for e in x["entries"])
        assert "单位5" not in (a.unit, b.unit) and a.unit != b.unit and frozenset((a.id, b.id)) not in met
        assert x["forfeits"] == [] and x["result"] is None
    assert len(view["tables"]) == 5 and view["byes"] == []


def test_a_round_under_way_or_an_earlier_one_is_refused_and_nothing_changes(tmp_path):
    store = TournamentStore(tmp_path / "s.db")
    store.new("pair-swiss", pairs(8, per_unit=2), seed=2)
    view = store.pair_next_round()
    store.record_result(1, view["tables"][1]["table"], {"winner": 1})
    seq = store.last_seq()
    with pytest.raises(TournamentError) as got:
        store.unpair_round(1)
    assert view["tables"][1]["table"] in str(got.value) and "更正" in str(got.value)
    assert "under way" in got.value.text("en")
    for x in view["tables"]:
        if x["result"] is None and x["table"] != view["tables"][1]["table"]:
            store.record_result(1, x["table"], {"winner": 0})
    store.pair_next_round()
    seq = store.last_seq()
    with pytest.raises(TournamentError, match="最近编排的一轮（第 2 轮），而不是第 1 轮"):
        store.unpair_round(1)
    with pytest.raises(TournamentError):
        store.unpair_round(3)
    assert store.last_seq() == seq


def test_the_command_line_undoes_it_and_says_so_in_both_languages(tmp_path, capsys):
    db = tmp_path / "t.db"
    store = TournamentStore(db)
    store.new("knockout-best-of-three", pairs(4), seed=3)
    store.pair_next_round()
    assert main(["tournament", "unpair", "--db", str(db), "--round", "1", "--reason", "编错", "--by", "王老师"]) == 0
    assert "已撤销第 1 轮的编排（原因：编错）" in capsys.readouterr().out
    assert TournamentStore(db).actions()[-1]["by"] == "王老师"
    store = TournamentStore(db)
    store.pair_next_round()
    seq = store.last_seq()
    for reason in (["--reason", ""], ["--reason", " "]):  # none at all: argparse refuses it (test_cli_standings_said); the READMEs: undone with a reason, which the log keeps
        with pytest.raises(SystemExit) as exc:
            main(["tournament", "unpair", "--db", str(db), "--round", "1", "--lang", "en"] + reason)
        assert exc.value.code == 2 and "say why round 1's pairing is undone" in capsys.readouterr().err
    with pytest.raises(TournamentError, match="请说明撤销第 1 轮编排的原因"):
        store.unpair_round(1)
    assert store.last_seq() == seq
    assert main(["tournament", "unpair", "--db", str(db), "--round", "1", "--lang", "en", "--reason", "lot"]) == 0
    assert "round 1's pairing undone (reason: lot)" in capsys.readouterr().out


def test_the_standings_say_after_the_rounds_complete_not_after_a_round_only_paired(tmp_path, capsys):
    """000 四5: 各队的团体成绩由本队两对选手轮分积分累加而定 -- the standings printed right after round 2 is paired
    add up round 1's 轮分 only, and say so (they said 第 2 轮后)."""
    db = tmp_path / "t.db"
    store = TournamentStore(db)
    store.new("pair-swiss", pairs(8, per_unit=2), name="拖拉机赛", seed=2)
    for x in store.pair_next_round()["tables"]:
        store.record_result(1, x["table"], {"winner": 0})
    store.pair_next_round()
    assert main(["tournament", "standings", "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "拖拉机赛 · 积分编排赛，第 1 轮后"
