"""A table's report that arrives after the organisers changed the round under it, on a bad evening: the round
unpaired or paired again after a correction while its tables were already seated and playing, a table's result
entered by hand before the table reported its own, a table still playing after the last round was complete, a table's
amendment judging its game again after a person corrected its result. The
tournament service (real mosquitto) or its recorder records none of them over what stands: each is noted for the
organiser at the table (in both languages) and nothing of the results, the standings or the rounds changes."""

from __future__ import annotations

import time
import uuid

import pytest

from bus.mqtt import Connection
from bus.protocol import encode as encode_event
from bus.protocol import topic as table_topic
from referee.tournament import Entry, TournamentStore
from referee.tournament.recorder import Recorder
from referee.tournament.service import TournamentService

TABLES = ["t01", "t02", "t03", "t04"]
UNITS = {"a1": "机电", "a2": "机电", "b1": "外语", "b2": "外语", "c1": "化工", "c2": "化工", "d1": "体育", "d2": "体育"}


def field(path) -> TournamentStore:
    store = TournamentStore(path)
    store.new("pair-swiss", [Entry(p, p, u, u, (f"{p}甲", f"{p}乙")) for p, u in UNITS.items()], seed=1,
              options={"rounds": 2}, id="zk2010")
    store.pair_next_round()
    return store


class Tables:
    """The hall's tables as the tournament hears them: each seated (``assigned``) as the console seats a round's
    table (the first entry S/N), then reporting a game; ``say`` gives each event to the service or the recorder."""

    def __init__(self, say):
        self.say, self.seq = say, 100

    def event(self, table: str, kind: str, data: dict) -> None:
        self.seq += 1
        self.say(table, {"v": 1, "seq": self.seq, "kind": kind, "at": float(self.seq), "data": data})

    def seat(self, store: TournamentStore, round_no: int) -> None:
        t = store.tournament
        for x in t.round(round_no).tables:
            first, second = (t.entry(e).players for e in x.entries)
            self.event(x.table, "assigned", {"players": {"S": first[0], "N": first[1], "E": second[0], "W": second[1]},
                                             "rulebook": "zhongkai-2010"})

    def play(self, store: TournamentStore, round_no: int) -> None:
        self.seat(store, round_no)
        for x in store.tournament.round(round_no).tables:
            self.event(x.table, "game_won", {"team": "SN", "by": "levels"})


def results(store: TournamentStore) -> list:
    return [[(x["table"], x["entries"], x["result"]) for x in store.round_view(n)["tables"]]
            for n in range(1, len(store.tournament.rounds) + 1)]


def noted(store: TournamentStore, table: str) -> list[dict]:
    return [n.reason for n in store.tournament.rounds[-1].unrecorded if n.table == table]


@pytest.fixture
def service(broker, tmp_path):
    """The tournament service on the file, and the console's own store on it (as the console opens it)."""
    field(tmp_path / "t.db").close()
    store = TournamentStore(tmp_path / "t.db")
    Connection(broker.url("tournament"), clean_start=True).connect().close(flush_timeout=0)
    running = TournamentService(store, broker.url("tournament"), client_id=f"tournament-{uuid.uuid4().hex[:6]}",
                                poll_s=0.05).start()
    console = TournamentStore(tmp_path / "t.db")
    yield console
    running.stop()
    store.close()
    console.close()


def until(condition) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, "not handled by the service"
        time.sleep(0.05)


def test_a_game_of_a_round_unpaired_under_its_seated_tables_is_not_recorded_in_the_round_before(service, connect):
    """Round 2 was paired and its tables seated and started, then the pairing was undone (a mistake, 编排有误): t01's
    players, already playing round 2's pairing, report their game. Before, the service took it as t01's game of round 1
    (the latest round), found the sides by the one pair the two pairings share, and turned round 1's result at t01 over
    (and the standings with it). The pairs are fixed for the tournament (000 一 注1: 选手配对经确定后，不得擅自更改或替换),
    so players who are not the round's two pairs at the table are another pairing's game: not recorded, noted for the
    organiser at t01, nothing changed."""
    store = service

    def say(table, event):  # as the table publishes it
        conn = connect(f"table-{table}")
        conn.publish(table_topic(table, "events"), encode_event("events", event))
        assert conn.flush(30)
        conn.close()  # the table's user holds one connection at a time

    tables = Tables(say)
    tables.play(store, 1)
    until(lambda: store.tournament.rounds[0].complete)
    store.pair_next_round(by="王老师")
    tables.seat(store, 2)
    store.unpair_round(2, by="王老师", reason="编排有误：应先录入退赛")
    before, log = results(store), len(store.actions())
    tables.event("t01", "game_won", {"team": "EW", "by": "levels"})
    until(lambda: len(store.actions()) > log)  # recorded, or noted
    assert results(store) == before and [a["kind"] for a in store.actions()[log:]] == ["unrecorded"]
    (reason,) = noted(store, "t01")
    assert reason["zh"].startswith("第 1 轮 t01 桌坐的选手（S ") and "不是本轮在这张桌对阵的两对" in reason["zh"], reason
    assert "are not the round's two pairs at it" in reason["en"], reason


def test_a_game_of_a_pairing_redrawn_by_a_correction_is_not_recorded_for_the_new_pairing(tmp_path):
    """Round 2 was paired and seated, then a correction of round 1 paired it again (重排) before any result: a table
    still playing the pairing first announced reports its game. Before, it was recorded as a game of the new pairing's
    two pairs at that table. Now it is noted for the organiser, nothing recorded (000 一 注1)."""
    store = field(tmp_path / "t.db")
    recorder = Recorder(store)
    tables = Tables(recorder.event)
    tables.play(store, 1)
    store.pair_next_round()
    tables.seat(store, 2)
    announced = {x.table: x.entries for x in store.tournament.round(2).tables}
    store.correct_result(1, "t01", {"winner": 1}, by="裁判长", reason="记分错误")
    changed = [x.table for x in store.tournament.round(2).tables if x.entries != announced[x.table]]
    assert changed, "the correction pairs round 2 again"
    before, log = results(store), len(store.actions())
    tables.event(changed[0], "game_won", {"team": "SN", "by": "levels"})
    assert results(store) == before and [a["kind"] for a in store.actions()[log:]] == ["unrecorded"]
    assert "不是本轮在这张桌对阵的两对" in noted(store, changed[0])[0]["zh"]


def test_a_table_reporting_after_its_result_stands_changes_nothing_and_is_noted(tmp_path):
    """A table's result stands once recorded: entered by hand before the table reported (the README: a result entered
    by hand already is noted, not recorded), or the table's own game, when the same players report another game
    (a table played on after the last round was complete, or started on a new log numbered from 1 again). Before, each
    was logged as one more game of the round and the last game reported decided the table (000 附件2 第二十一条 3:
    以升级率先过级牌A一方为获胜者, one game a round): the final standings turned over after the prizes were shown.
    Now each is noted for the organiser (a correction changes a result), nothing else."""
    store = field(tmp_path / "t.db")
    tables = Tables(Recorder(store).event)
    tables.play(store, 1)
    store.pair_next_round()
    store.record_result(2, "t02", {"winner": 1}, by="裁判长")
    tables.play(store, 2)  # t02 reports its game too: the result entered stands
    assert store.tournament.finished
    final, standings = results(store), store.standings()["rows"]
    assert [(x[0], x[2]["points"]) for x in final[1]][:2] == [("t01", [2, 0]), ("t02", [0, 2])]
    log = len(store.actions())
    tables.event("t01", "game_won", {"team": "EW", "by": "levels"})  # played on after the last round
    assert results(store) == final and store.standings()["rows"] == standings
    assert [a["kind"] for a in store.actions()[log:]] == ["unrecorded"]
    for table in ("t01", "t02"):
        (reason,) = noted(store, table)
        assert f"第 2 轮 {table} 桌已有成绩" in reason["zh"] and "has a result already" in reason["en"], reason


def test_a_tables_amendment_after_a_person_corrected_its_result_is_noted_not_recorded_over_it(tmp_path):
    """The chief referee upheld an appeal and corrected t01 (the other pair wins); later the table's referee amends a
    misread play and the table's log judges the game again (``rejudged``), still S/N's win, the levels only changed.
    Before, the service corrected t01 back to S/N's win as the table judged it, over the appeal ruled by a person, which
    nobody at the table saw. Now the table's correction names the table as the table last changed it and is refused in
    words (table_changed, naming who changed it since), noted for the organiser at t01; the person's ruling stands."""
    store = field(tmp_path / "t.db")
    recorder = Recorder(store)
    tables = Tables(recorder.event)
    tables.seat(store, 1)
    won = {"seq": 91, "kind": "game_won", "data": {"team": "SN", "by": "levels"}}
    recorder.event("t01", {"v": 1, "at": 91.0, **won})
    store.correct_result(1, "t01", {"winner": 1}, by="裁判长", reason="申诉成立：对方犯规")
    ruled, log = results(store), len(store.actions())
    recorder.event("t01", {"v": 1, "seq": 120, "kind": "rejudged", "at": 120.0, "data": {
        "entry": 40, "was": [won | {"levels": {"SN": "A", "EW": "2"}}], "now": [won | {"levels": {"SN": "A", "EW": "3"}}]}})
    assert results(store) == ruled and [a["kind"] for a in store.actions()[log:]] == ["unrecorded"]
    (reason,) = noted(store, "t01")
    assert reason["zh"].startswith(f"第 1 轮 t01 桌在你看到之后已被 裁判长 改动（第 {log} 条记录）"), reason
