"""A correction that pairs an announced round again says so: the round payload, the change's log entry
(who, when, which tables), the command line, table by table. Seed 000 四2: 第2轮起按同分或近分原则由
电脑随机编排对手 — the pairing follows the scores, so a corrected score can change an announced draw,
and nothing about the draw may change silently."""

from __future__ import annotations

import json

import pytest

from cardtable.cli import main
from referee.tournament import Entry, TournamentStore
from referee.tournament.actions import replay

SEED_000 = "第2轮起按同分或近分原则由电脑随机编排对手（同单位对手和赛过的对手不编排再赛）"
UNITS = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", "c1": "C", "c2": "C", "d1": "D", "d2": "D"}


def field() -> list[Entry]:
    return [Entry(e, f"{e}队员", u, u, (f"{e}甲", f"{e}乙")) for e, u in UNITS.items()]


@pytest.fixture
def store(tmp_path):
    clock = iter(range(1_767_261_600, 1_767_261_600 + 10_000))
    s = TournamentStore(tmp_path / "t.db", clock=lambda: float(next(clock)))
    s.new("pair-swiss", field(), name="测试", seed=11, options={"rounds": 3}, id="zk", by="王老师")
    view = s.pair_next_round(by="王老师")
    for x in view["tables"]:
        s.record_result(1, x["table"], {"winner": 0}, by="李裁判")
    s.pair_next_round(by="王老师")  # round 2 announced, not started
    yield s
    s.close()


def flip_round_one(store) -> tuple[dict, dict]:
    """Correct every table of round 1 the other way until round 2's draw changes; (round 2 before, after)."""
    before = store.round_view(2)
    for x in store.round_view(1)["tables"]:
        store.correct_result(1, x["table"], {"winner": 1}, by="裁判长", reason="记分卡填反")
        if store.round_view(2)["repaired"]:
            break
    return before, store.round_view(2)


def test_the_round_payload_and_the_log_say_which_tables_changed(store):
    assert "同分或近分" in SEED_000
    assert store.round_view(2)["repaired"] is None
    before, after = flip_round_one(store)
    repaired = after["repaired"]
    assert repaired["round"] == 2 and repaired["because"] == "correct"
    was = {x["table"]: [e["id"] for e in x["entries"]] for x in before["tables"]}
    now = {x["table"]: [e["id"] for e in x["entries"]] for x in after["tables"]}
    changed = sorted(n for n in now if now[n] != was[n])
    assert changed and [x["table"] for x in repaired["tables"]] == changed
    assert all(x["before"] == was[x["table"]] and x["after"] == now[x["table"]] for x in repaired["tables"])
    # the correction's log entry carries it, with who and when
    action = next(a for a in store.actions() if a["seq"] == repaired["seq"])
    assert action["kind"] == "correct" and action["by"] == "裁判长" and action["at"] > 0
    assert action["data"]["repaired"] == repaired
    assert replay(store.actions()) == store.tournament  # the replay pairs it again the same way
    # a change that leaves the draw as it is says nothing new
    seq = repaired["seq"]
    store.correct_result(1, "t01", store.tournament.round(1).table("t01").entered, by="裁判长", reason="记分错误")
    assert store.round_view(2)["repaired"]["seq"] == seq
    assert "repaired" not in store.actions()[-1]["data"]


def test_a_round_under_way_is_not_paired_again(store):
    store.record_result(2, "t01", {"draw": True})
    before = store.round_view(2)
    for x in store.round_view(1)["tables"]:
        store.correct_result(1, x["table"], {"winner": 1}, by="裁判长", reason="记分错误")
    assert store.round_view(2)["repaired"] is None
    assert [x["entries"] for x in store.round_view(2)["tables"]] == [x["entries"] for x in before["tables"]]


def test_the_command_line_says_so_table_by_table(store, capsys, tmp_path):
    path = str(store.path)
    store.close()
    capsys.readouterr()
    outs = []
    for table in ("t01", "t02", "t03", "t04"):
        assert main(["tournament", "result", "--db", path, "--round", "1", "--table", table, "--winner", "1",
                     "--correct", "--reason", "记分卡填反", "--by", "裁判长"]) == 0
        outs.append(capsys.readouterr().out)
        if "重新编排" in outs[-1]:
            break
    out = outs[-1]
    assert all("重新编排" not in o for o in outs[:-1])
    view = json.loads((main(["tournament", "show", "--db", path, "--round", "2", "--json"]), capsys.readouterr().out)[1])
    lines = out.splitlines()
    notice = lines.index("注意：第 2 轮已重新编排（此前一轮的成绩已更正），请重新公布对阵。变动的牌桌：")
    names = {e: f"{e}队员（{u}）" for e, u in UNITS.items()}
    expected = [f"{x['table']}：原为 {'、'.join(names[e] for e in x['before'])}，现为 {'、'.join(names[e] for e in x['after'])}"
                for x in view["repaired"]["tables"]]
    assert lines[notice + 1:] == expected and expected
    assert main(["tournament", "show", "--db", path, "--round", "2", "--lang", "en"]) == 0
