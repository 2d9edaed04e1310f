"""The SQLite store: an append-only log with who and when, bad requests that change nothing,
table games logged once, replays equal to the live value, refused fields."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from referee.tournament import Entry, TournamentError, TournamentStore

UNITS = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", "c1": "C", "c2": "C"}


def entries():
    return [Entry(e, f"{e} 队员", u, u, (f"{e}甲", f"{e}乙")) for e, u in UNITS.items()]


@pytest.fixture
def store(tmp_path):
    clock = iter(range(1_767_261_600, 1_767_261_600 + 10_000))
    s = TournamentStore(tmp_path / "t.db", clock=lambda: float(next(clock)))
    s.new("pair-swiss", entries(), name="测试", seed=7, options={"rounds": 3}, id="zk", by="王老师")
    yield s
    s.close()


def test_every_change_is_logged_with_who_and_when(store):
    view = store.pair_next_round(by="王老师")
    store.record_result(1, "t01", {"winner": 0}, by="李裁判")
    store.correct_result(1, "t01", {"draw": True}, by="裁判长", reason="记错")
    log = store.actions()
    assert [(a["seq"], a["kind"], a["by"], a["at"]) for a in log] == [
        (1, "new", "王老师", 1_767_261_600.0), (2, "pair", "王老师", 1_767_261_601.0),
        (3, "result", "李裁判", 1_767_261_602.0), (4, "correct", "裁判长", 1_767_261_603.0)]
    assert log[3]["data"] == {"round": 1, "table": "t01", "result": {"draw": True}, "forfeits": [], "reason": "记错"}
    assert log[1]["data"]["draw"] == "7:pair:1" and log[1]["data"]["tables"] == [
        {"table": x["table"], "entries": [e["id"] for e in x["entries"]]} for x in view["tables"]]
    assert view["tables"][0]["result"] is None
    assert store.round_view()["tables"][0]["result"] == {"points": [1, 1], "scores": [0, 0]}
    assert store.round_view()["at"] == 1_767_261_603.0


def test_the_log_is_append_only(store, tmp_path):
    db = sqlite3.connect(tmp_path / "t.db")
    for sql in ("UPDATE actions SET by = 'x'", "DELETE FROM actions", "UPDATE seals SET chain = x'00'", "DELETE FROM seals"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(sql)
    db.close()


def test_a_file_made_before_seals_is_sealed_as_it_reads_and_then_kept_to_it(store, tmp_path):
    """A tournament's file written before its rows were sealed opens as it was, is sealed at that first opening, and
    from then on a row changed behind the store's back (a result's winner, by a disk error or by hand) is refused."""
    store.pair_next_round()
    store.record_result(1, "t01", {"winner": 0})
    store.close()
    with sqlite3.connect(tmp_path / "t.db") as db:
        db.execute("DROP TABLE seals")  # as the file was before seals
    again = TournamentStore(tmp_path / "t.db")
    assert again.round_view(1)["tables"][0]["result"] == {"points": [2, 0], "scores": [2, -2]}
    with sqlite3.connect(tmp_path / "t.db") as db:
        assert db.execute("SELECT count(*) FROM seals").fetchone() == (3,)
        db.execute("DROP TRIGGER actions_no_update")  # what a disk error does not ask for
        db.execute("""UPDATE actions SET data = replace(data, '"winner": 0', '"winner": 1') WHERE seq = 3""")
    with pytest.raises(TournamentError) as err:
        TournamentStore(tmp_path / "t.db").standings()
    assert err.value.key == "refusal.tournament_damaged" and err.value.values["error"].key == "refusal.damaged_seal"
    assert "（第 3 条记录与写入时不同（它的封印对不上））" in str(err.value)
    assert "(action 3 is not what was written (its seal differs))" in err.value.text("en")
    again.close()


@pytest.mark.parametrize("data, zh, en", [
    ("{not json", "第 2 条记录的内容不是 `JSON`", "action 2's data is not JSON"),
    ("[]", "第 2 条记录不是一条操作", "action 2 is not an action"),
    ('{"round": 1}', "第 2 条记录（`pair`）：内容不是这种操作会写的（`KeyError('tables')`）",
     "action 2 (pair): its data is not what such an action holds (KeyError('tables'))")])
def test_a_row_that_is_no_action_is_said_in_words(store, tmp_path, data, zh, en):
    """A row of a file from before seals (not sealed: it never replayed) whose data is not JSON, not an object, or not
    what its kind holds: said in the catalogue's words, in either language (before: Python's English inside the
    Chinese, ``action 2: Expecting property name...``, ``KeyError('tables')``); never "or locked"."""
    import re

    store.pair_next_round()
    with sqlite3.connect(tmp_path / "t.db") as db:
        db.execute("DROP TABLE seals")
        db.execute("DROP TRIGGER actions_no_update")  # what a disk error does not ask for
        db.execute("UPDATE actions SET data = ? WHERE seq = 2", (data,))
    with pytest.raises(TournamentError) as err:
        TournamentStore(tmp_path / "t.db").standings()
    assert err.value.key == "refusal.tournament_damaged"
    said_zh, said_en = str(err.value), err.value.text("en")
    assert f"已损坏（{zh}），未作任何改动" in said_zh and f"is damaged ({en}); nothing was changed" in said_en
    assert not re.findall(r"[A-Za-z]{3,}", re.sub(r"`[^`]*`", "", said_zh.replace(str(tmp_path / "t.db"), ""))), said_zh
    assert not re.search(r"[\u4e00-\u9fff]", said_en) and "锁" not in said_zh, said_en



def test_sqlites_own_words_are_only_quoted_and_a_lock_is_not_damage(tmp_path):
    """SQLite's error the catalogue has no words for (here a table missing) is quoted in backticks inside the reader's
    language, never the sentence itself; a lock (SQLITE_BUSY) is ``db_busy``, not damage: its advice is to try again,
    never to put a backup back."""
    import re

    from referee.tournament.store import file_error

    with pytest.raises(sqlite3.Error) as missing:
        sqlite3.connect(":memory:").execute("SELECT * FROM actions")
    said = file_error(tmp_path / "t.db", missing.value)
    assert said.key == "refusal.tournament_damaged"
    assert "已损坏（`SQLite` 报错：`no such table: actions`）" in str(said)
    assert not re.findall(r"[A-Za-z]{3,}", re.sub(r"`[^`]*`", "", str(said).replace(str(tmp_path / "t.db"), "")))
    assert "is damaged (SQLite says: no such table: actions)" in said.text("en")
    with closing(sqlite3.connect(tmp_path / "t.db", isolation_level=None)) as one, \
            closing(sqlite3.connect(tmp_path / "t.db", timeout=0)) as other:
        one.execute("BEGIN EXCLUSIVE")
        with pytest.raises(sqlite3.Error) as locked:
            other.execute("SELECT 1 FROM sqlite_master").fetchall()
    said = file_error(tmp_path / "t.db", locked.value)
    assert said.key == "refusal.db_busy" and "已损坏" not in str(said) and "备份" not in str(said), str(said)

def test_bad_requests_change_nothing(store):
    store.pair_next_round()
    before = store.last_seq()
    bad = [lambda: store.record_result(1, "t09", {"winner": 0}),
           lambda: store.record_result(2, "t01", {"winner": 0}),
           lambda: store.record_result(1, "t01", {"winner": 3}),
           lambda: store.record_result(1, "t01", {"scores": [1, 2]}),
           lambda: store.record_result(1, "t01", 5),
           lambda: store.record_result("1", "t01", {"winner": 0}),
           lambda: store.record_result(1, None, {"winner": 0}),
           lambda: store.correct_result(1, "t01", ["winner"]),
           lambda: store.forfeit(1, "t01", "a1"),
           lambda: store.late_arrival(1, "a1", float("nan")),
           lambda: store.record_game(1, "t01", True),
           lambda: store.forfeit(1, "t01", ["zz"]),
           lambda: store.late_arrival(1, "a1", -3),
           lambda: store.pair_next_round(),  # round 1 still waits for results
           lambda: store.new("pair-swiss", entries())]
    for call in bad:
        with pytest.raises(TournamentError):
            call()
    assert store.last_seq() == before
    store.record_result(1, "t01", {"winner": 0})
    with pytest.raises(TournamentError, match="已有成绩；请改用更正"):
        store.record_result(1, "t01", {"winner": 1})


def test_a_table_game_is_logged_once(store):
    store.pair_next_round()
    assert store.record_game(1, "t02", 1, ["9", "A+"], event="t02:40:game_won")
    assert not store.record_game(1, "t02", 1, ["9", "A+"], event="t02:40:game_won")
    assert [a["kind"] for a in store.actions()].count("game") == 1
    assert store.round_view()["tables"][1]["result"] == {"points": [0, 2], "scores": [-2, 2]}


def test_reports_not_recorded_are_noted_once_each_and_at_most_ten_a_table(store, tmp_path):
    """The service's notes for the organiser: once per report, for a table of the latest round only, ten a table each
    round (a table that reports for ever cannot grow the log without end), none changing a result; shown until the
    table's result is changed after them; the same after a reopening."""
    why = {"zh": "第 1 轮 t01 桌已有成绩；请改用更正", "en": "round 1 t01 has a result already; correct it instead"}
    with pytest.raises(TournamentError, match="还没有编排任何一轮"):
        store.note_unrecorded("t01", "t01:5:game_won", why, by="table t01")
    store.pair_next_round()
    with pytest.raises(TournamentError, match="t09"):
        store.note_unrecorded("t09", "t09:5:game_won", why, by="table t09")
    with pytest.raises(TournamentError):
        store.note_unrecorded("t01", "t01:5:game_won", {"zh": "只有中文"}, by="table t01")
    assert [store.note_unrecorded("t01", f"t01:{seq}:game_won", why, by="table t01") for seq in (5, 5, 6)] == [True, False, True]
    assert [store.note_unrecorded("t01", f"t01:{seq}:game_won", why, by="table t01") for seq in range(7, 17)] == [True] * 8 + [False] * 2
    assert store.note_unrecorded("t02", "t02:5:game_won", why, by="table t02")  # another table has ten of its own
    r = store.tournament.rounds[-1]
    assert len(r.unrecorded) == 11 and len(r.waiting()) == 11 and all(x.outcome is None for x in r.tables)
    store.record_result(1, "t01", {"winner": 0})
    assert [n.table for n in store.tournament.rounds[-1].waiting()] == ["t02"]
    again = TournamentStore(tmp_path / "t.db")
    assert again.tournament == store.tournament
    again.close()


def test_a_reopened_store_replays_to_the_same_tournament(store, tmp_path):
    for _ in range(3):
        view = store.pair_next_round()
        for i, x in enumerate(view["tables"]):
            store.record_result(view["round"], x["table"], [{"winner": 0}, {"winner": 1}, {"draw": True}][i % 3])
    store.correct_result(2, "t01", {"winner": 1}, reason="记分错误")
    again = TournamentStore(tmp_path / "t.db")
    assert again.tournament == store.tournament
    assert again.standings() == store.standings()
    assert again.standings()["rows"][0]["prize"] == "一等奖"


def test_an_impossible_field_is_refused_before_round_one(tmp_path):
    s = TournamentStore(tmp_path / "x.db")
    for options, message in (({"round": 3}, "unknown option"), ({"rounds": 2.5}, "option rounds"),
                             ({"points": [2, 0]}, "option points"), ({"level_diff": "exact"}, "`level_diff` is")):
        with pytest.raises(TournamentError) as refused:
            s.new("pair-swiss", entries(), options=options)
        assert message in refused.value.text("en") and refused.value.text("zh") == str(refused.value) != refused.value.text("en")
    # Three units of two pairs: each pair can meet four others, not five rounds' worth.
    with pytest.raises(TournamentError, match="a1（A）只能遇到其他单位的 4 对；5 轮需要 5 对"):
        s.new("pair-swiss", entries(), options={"rounds": 5})
    # One unit holding most of the field (teams of one pair each, so that the make-up is no matter).
    big = [Entry(f"p{i}", f"p{i}", "A" if i < 5 else f"U{i}", f"p{i}", (f"p{i}甲", f"p{i}乙")) for i in range(8)]
    with pytest.raises(TournamentError, match="A 有 8 对中的 5 对"):
        s.new("pair-swiss", big, options={"rounds": 2, "team_pairs": 1})
    # Every pair has five opponents of other units, yet no five rounds exist: units A and B of
    # three pairs, c and d alone. An A pair must meet c and d, so must every B pair: c and d would
    # play twelve games in five rounds.
    tight = [Entry(p, p, p[0], p, (f"{p}甲", f"{p}乙")) for p in ("a1", "a2", "a3", "b1", "b2", "b3", "c", "d")]
    with pytest.raises(TournamentError, match="至少要与 c、d 的 2 对打 12 场，而这 2 对 5 轮只能打 10 场；最多能排 4 轮"):
        s.new("pair-swiss", tight, options={"rounds": 5, "team_pairs": 1})
    assert s.last_seq() == 0
    s.new("pair-swiss", tight, options={"rounds": 4, "team_pairs": 1}, seed=3)  # four rounds can, and are played to the end
    for k in range(1, 5):
        for x in s.pair_next_round()["tables"]:
            s.record_result(k, x["table"], {"draw": True})
    assert s.tournament.finished
