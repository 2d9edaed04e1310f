"""A pair that never comes to its table, as the table service rules it and the tournament service records it:
000 第十三条: 16~20分钟…首盘自动放弃；21分钟以上判全队该轮弃权 -- the team's other pair loses its round too."""

from __future__ import annotations

from referee.seats import SEATS
from referee.table.deadlines import RULE_LAG_S
from referee.table.tables import new_table
from referee.tournament import Entry
from referee.tournament.recorder import Recorder
from referee.tournament.store import TournamentStore


def absent_pair_events(rulebook: str) -> list[dict]:
    """A table's events when E and W never press ready: the service logs a clock entry RULE_LAG_S after each
    deadline (``deadlines.py``), as it does when a deadline passes with no input."""
    table, seq, out, at = new_table("t01", rulebook), 0, [], 1000.0

    def send(name: str, payload: dict, when: float) -> None:
        nonlocal table, seq
        seq += 1
        payload = {"v": 1, "id": f"m{seq}", **payload} | ({} if name in ("commands", "clock") else {"at": when})
        table, o = table.apply(name, payload, when, seq)
        out.extend(o)

    send("commands", {"command": "assign", "rulebook": rulebook, "players": {s: s * 2 for s in SEATS}}, at)
    send("commands", {"command": "start_round"}, at)
    for seat in ("S", "N"):
        send("board/in", {"seat": seat, "button": "ready"}, at + 5)
    while (deadline := table.next_deadline()) is not None and table.phase != "round_over":
        send("clock", {}, deadline + RULE_LAG_S)
    return [o.payload for o in out if o.name == "events"]


def test_a_pair_absent_past_20_minutes_forfeits_its_whole_teams_round(tmp_path):
    for rulebook in ("classic-3deck", "zhongkai-2010"):
        events = absent_pair_events(rulebook)
        lost = next(e for e in events if e["kind"] == "game_won")
        assert lost["data"]["by"] == "late" and lost["data"]["minutes"] > 20  # ruled RULE_LAG_S past the 20th minute
        store = TournamentStore(tmp_path / f"{rulebook}.db")
        entries = [Entry(f"e{i}", f"e{i}", u, u, (f"p{i}a", f"p{i}b")) for i, u in enumerate("AABB", 1)]  # two teams of two pairs
        store.new("pair-swiss", entries, seed=3, options={"rounds": 1})
        tables = store.pair_next_round()["tables"]
        t01 = next(x for x in tables if x["table"] == "t01")
        late = t01["entries"][1]["id"]  # the second entry sits E/W: absent
        team = {e.id for e in entries if e.unit == next(x.unit for x in entries if x.id == late)}
        Recorder(store).event("t01", lost)
        view = store.round_view()
        forfeited = {e for x in view["tables"] for e in x["forfeits"]}
        assert forfeited == team, (rulebook, view["tables"])  # both pairs of the late pair's team
        store.close()


def test_a_late_team_over_a_result_at_its_other_table_is_refused_until_that_table_is_corrected(tmp_path):
    """第十三条: 21分钟以上判全队该轮弃权 -- the team's other table too; a result entered there already is changed only by a
    correction (with its reason), never in passing: the lateness is refused in words and changes nothing."""
    import pytest

    from referee.tournament.core import TournamentError

    store = TournamentStore(tmp_path / "t.db")
    entries = [Entry(f"e{i}", f"e{i}", u, u, (f"p{i}a", f"p{i}b")) for i, u in enumerate("AABB", 1)]
    store.new("pair-swiss", entries, seed=3, options={"rounds": 1})
    tables = {x["table"]: [e["id"] for e in x["entries"]] for x in store.pair_next_round()["tables"]}
    late = "e1"
    own = next(t for t, es in tables.items() if late in es)
    other = next(t for t, es in tables.items() if late not in es)
    store.record_result(1, other, {"winner": 0})
    before = store.round_view()
    with pytest.raises(TournamentError, match=f"第 1 轮 {other} 桌已有成绩"):
        store.late_arrival(1, late, 25)
    assert store.round_view() == before
    teammate = next(e for e in tables[other] if e != late and e in ("e1", "e2"))
    store.forfeit(1, other, [teammate], correct=True, reason="全队迟到")
    view = store.late_arrival(1, late, 25)
    assert {t: x["forfeits"] for t, x in ((x["table"], x) for x in view["tables"])} == {own: [late], other: [teammate]}
    store.close()


def test_a_report_recorded_in_an_earlier_round_is_noted_for_the_organiser_not_recorded_nor_dropped(tmp_path):
    """A game told as ``t01:5:game_won`` after round 1 recorded one by that name: round 1's message sent again (the
    tournament service started again after round 2 was paired), or the table on a new log (recovery.md: its entries
    numbered from 1 again) and round 2's game. Nothing tells them apart: recorded, the first would put round 1's game
    in round 2; dropped, the second would be lost without a word. Noted at the table for the organiser, in words."""
    store = TournamentStore(tmp_path / "t.db")
    entries = [Entry(f"e{i}", f"e{i}", u, u, (f"p{i}a", f"p{i}b")) for i, u in enumerate("ABCD", 1)]
    store.new("pair-swiss", entries, seed=3, options={"rounds": 2, "team_pairs": 1})
    recorder = Recorder(store)
    won = {"v": 1, "seq": 5, "kind": "game_won", "at": 1.0, "data": {"team": "SN", "by": "levels"}}
    store.pair_next_round()
    for table in ("t01", "t02"):
        recorder.event(table, won)
        recorder.event(table, won)  # sent again (QoS 1): once
    assert all(x.outcome is not None for x in store.tournament.rounds[0].tables)
    store.pair_next_round()
    recorder.event("t01", won)
    r2 = store.tournament.rounds[1]
    assert r2.tables[0].outcome is None and sum(a["kind"] == "game" for a in store.actions()) == 2
    (note,) = r2.unrecorded
    assert note.table == "t01" and note.reason["zh"].startswith("牌桌报告 `t01:5:game_won` 在第 1 轮已记过")
    assert "enter it by hand" in note.reason["en"]
    store.close()
