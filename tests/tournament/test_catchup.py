"""A tournament file put back from a backup lacks the games the tables reported after it: the tournament service takes
each table event once, and the broker keeps none. ``cardtable table events`` tells again what a table's log
published (the same events, at the same seq, as the live service published them: checked against what a real table
service on a real mosquitto sent), and ``cardtable tournament catch-up`` records from them what the file lacks, as the
service would have: a game recorded already changes nothing, a correction by an amendment corrects. What is not the
latest round's, or not a table's event, is refused in words and changes nothing."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import uuid

import pytest
from full import small_files
from published import table_result
from rounds import END, PLAYERS, RULEBOOK, amend, judged, round_rows, seated, write_log

from bus.protocol import encode, topic
from cardtable.cli import main
from referee.table.service import TableService
from referee.tournament import Entry, TournamentStore
from referee.tournament.service import TournamentService

TABLES = ["t01", "t02"]  # the broker's tables (its users)
UNITS = {"a1": "机电", "b1": "外语", "c1": "化工", "d1": "体育"}


def tournament(path) -> TournamentStore:
    """Four one-pair units, round 1 paired (tables t01, t02)."""
    store = TournamentStore(path)
    store.new("pair-swiss", [Entry(e, e, u, u, (f"{e}甲", f"{e}乙")) for e, u in UNITS.items()], seed=1,
              options={"rounds": 2, "team_pairs": 1}, id="zk2010")
    store.pair_next_round()
    return store


def told(tmp_path, table: str, rows: list[tuple] | None = None, db=None) -> str:
    """``cardtable table events`` of ``table``'s log (``rows`` written as one, or the log at ``db``): the file."""
    if db is None:
        db = tmp_path / f"{table}.db"
        write_log(db, table, rows)
    out = tmp_path / f"{table}-{uuid.uuid4().hex[:6]}.jsonl"
    assert main(["table", "events", str(db), "--out", str(out)]) == 0
    return str(out)


def catch_up(capsys, db, *files: str, lang: str = "zh", dry: bool = False) -> str:
    """What ``cardtable tournament catch-up`` printed."""
    capsys.readouterr()
    assert main(["tournament", "catch-up", "--db", str(db), *files, "--lang", lang, *(["--dry-run"] if dry else [])]) == 0
    return capsys.readouterr().out


def test_a_backup_put_back_catches_up_with_the_games_and_corrections_the_table_reported(
        broker, connect, inbox, tmp_path, table_watch, capsys):
    """The break's backup is made with round 1 paired; then t01 plays its round (the real table service on its log,
    the real tournament service recording it), and a referee's amendment after it changes the round's result (a
    revoke proven: 001 十八 steps S/N down; the service corrects its result). The backup put back has no result at t01; caught up from the table's log, it has
    the live file's, corrected; caught up again, or the live file itself, nothing changes."""
    store = tournament(tmp_path / "tournament.db")
    backup = tmp_path / "backup.db"
    store.backup(backup)  # at the break: the round paired, nothing reported
    rows = round_rows("t01", seated(store, "t01"))
    db = tmp_path / "t01.db"
    write_log(db, "t01", rows)
    box = inbox()
    reader = connect("scoreboard-2", clean_start=True)
    reader.subscribe("cardtable/v1/tournament/#", box)
    assert reader.wait_subscribed(30)
    live = TournamentService(store, broker.url("tournament"), client_id=f"tournament-{uuid.uuid4().hex[:6]}",
                             poll_s=0.05).start()
    watch = table_watch("t01", broker)
    service = TableService("t01", RULEBOOK, broker.url("table-t01"), db, clock=lambda: END + 60, trust_senders=True).start()
    try:
        before = table_result(box, "zk2010", "t01", lambda r: r is not None)
        assert before["points"] == [2, 0]
        plays = [r for r in rows if r[0] == "observed" and len(r[1]["cards"]) == 1]
        levels = judged("t01", rows)[0]["levels"]
        a, b = next((a, b) for a, b in itertools.combinations(plays, 2)
                    if a[1]["seat"] == b[1]["seat"] and a[1]["cards"] != b[1]["cards"]
                    and (now := judged("t01", amend(amend(rows, a[3], b[1]["cards"]), b[3], a[1]["cards"])))
                    and now[0]["levels"]["SN"] < levels["SN"])
        console = connect("console")
        mark = len(box.messages)
        for entry, cards in ((a[3], b[1]["cards"]), (b[3], a[1]["cards"])):
            console.publish(topic("t01", "commands"), encode("commands", {
                "v": 1, "id": f"k-{uuid.uuid4().hex[:8]}", "command": "amend", "entry": entry, "cards": cards}))
        corrected = table_result(box, "zk2010", "t01", lambda r: r is not None and r["points"] != before["points"], mark)
        watch.stopped(service.stop)
        published = [e for e in watch.of("events") if e["kind"] != "rejected"]
        file = told(tmp_path, "t01", db=db)
        lines = [json.loads(line) for line in open(file, encoding="utf-8")]
        assert [x["payload"] for x in lines if x["topic"] == topic("t01", "events")] == published  # told as it was said
        assert {x["topic"] for x in lines} == {topic("t01", "events"), topic("t01", "state")}

        assert TournamentStore(backup).round_view(1)["tables"][0]["result"] is None  # the backup lacks the game
        out = catch_up(capsys, backup, file)
        kinds = [e["kind"] for e in published]
        assert out.startswith("t01：记入 #") and kinds.count("rejudged") == 2 and "rejudged" in out, out
        caught = TournamentStore(backup)
        assert caught.round_view(1)["tables"][0]["result"] == store.round_view(1)["tables"][0]["result"] == corrected
        assert [x["kind"] for x in caught.actions()].count("game") == 1  # one game, corrected: never a second result
        seq = caught.last_seq()
        assert "已有 #" in catch_up(capsys, backup, file) and "记入 #" not in catch_up(capsys, backup, file).replace("未能记入", "")
        assert caught.last_seq() == seq
        seq = store.last_seq()
        assert "记入 #" not in catch_up(capsys, tmp_path / "tournament.db", file, lang="en").replace("not recorded", "")
        assert store.last_seq() == seq  # the live file had every game: nothing changes there either
    finally:
        service.stop()
        live.stop()
        watch.close()
        store.close()


def test_only_the_latest_rounds_tables_as_seated_by_its_draw_are_caught_up(tmp_path, capsys):
    """A table's events carry no round: only the tables of the latest round, from the last time the round's own
    players were seated there, are caught up; a table whose last seating is not the round's (an earlier round's
    players, strangers) or that is not in the round is said and left alone. ``--dry-run`` says what it would record
    and changes nothing."""
    store = tournament(tmp_path / "tournament.db")
    ours = told(tmp_path, "t02", round_rows("t02", seated(store, "t02")))
    strangers = told(tmp_path, "t01", round_rows("t01"))  # seated with players of no entry of the round
    elsewhere = told(tmp_path, "t07", round_rows("t07"))
    seq = store.last_seq()
    out = catch_up(capsys, tmp_path / "tournament.db", strangers, elsewhere, ours, dry=True)
    assert out.splitlines()[0].startswith("t01：未补记：最后入座的选手（S 王芳、E 李强、N 张伟、W 刘洋）不是第 1 轮这张桌的")
    assert out.splitlines()[1].startswith("t07：未补记：") and "t07" in out.splitlines()[1]
    assert out.splitlines()[2].startswith("t02：记入 #") and "round_over" in out.splitlines()[2]
    assert out.splitlines()[3] == "（试运行：赛事文件没有改动）"
    assert store.last_seq() == seq
    out = catch_up(capsys, tmp_path / "tournament.db", strangers, ours, lang="en")
    assert out.splitlines()[0].startswith("t01: not caught up: the players seated last (S 王芳, E 李强, N 张伟, W 刘洋) are "
                                          "not round 1's at this table"), out
    assert out.splitlines()[1].startswith("t02: recorded #")
    assert store.round_view(1)["tables"][1]["table"] == "t02" and store.round_view(1)["tables"][1]["result"] is not None
    assert store.round_view(1)["tables"][0]["result"] is None


def test_a_file_that_is_not_a_tables_events_is_refused_in_words_and_nothing_is_recorded(tmp_path, capsys):
    """A line that is not JSON, not a table's event or state, or an event the contract refuses: refused, naming the
    file and line, before anything is recorded (the good file given with it is not taken either)."""
    store = tournament(tmp_path / "tournament.db")
    good = told(tmp_path, "t02", round_rows("t02", seated(store, "t02")))
    first = open(good, encoding="utf-8").readline()
    seq = store.last_seq()
    for bad, why in (("{not json", "（不是 JSON）"),
                     (json.dumps({"topic": topic("t02", "commands"), "payload": {}}), "既不是牌桌的事件，也不是它的状态"),
                     (json.dumps({"topic": topic("t02", "events"), "payload": {"v": 1, "seq": 0}}), "（缺少字段 `kind`）"),
                     ("[]", "不是由主题和内容组成的对象")):
        path = tmp_path / "bad.jsonl"
        path.write_text(first + bad + "\n", encoding="utf-8")
        with pytest.raises(SystemExit) as exit_:
            main(["tournament", "catch-up", "--db", str(tmp_path / "tournament.db"), good, str(path)])
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and f"{path} 第 2 行不是" in err and why in err and "什么也没有记入" in err, err
    with pytest.raises(SystemExit):
        main(["tournament", "catch-up", "--db", str(tmp_path / "tournament.db"), str(tmp_path / "nowhere.jsonl")])
    assert "nowhere.jsonl：无法读取" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # another command's file, a database: Python's decoding error was said in English
        main(["tournament", "catch-up", "--db", str(tmp_path / "tournament.db"), good, str(tmp_path / "tournament.db")])
    assert f"{tmp_path / 'tournament.db'}：无法读取（不是 `UTF-8` 文本），什么也没有记入" in capsys.readouterr().err
    assert store.last_seq() == seq


def test_table_events_refuses_a_file_that_is_not_a_log_and_never_writes_over_a_file(tmp_path, capsys):
    """``cardtable table events`` on a file that is no table's log says so (nothing written); ``--out`` naming a file
    that exists (an earlier table's, say) is refused and the file is left as it was; a disk that fills up leaves no
    half file (a catch-up from one would miss games without a word)."""
    text = tmp_path / "notes.db"
    text.write_text("not a log", encoding="utf-8")
    out = tmp_path / "t01.jsonl"
    assert main(["table", "events", str(text), "--out", str(out)]) == 2
    assert "不能当作事件日志读取" in capsys.readouterr().err and not out.exists()
    assert main(["table", "events", str(tmp_path / "nowhere.db")]) == 2
    assert "没有事件日志" in capsys.readouterr().err
    write_log(tmp_path / "t01.db", "t01", round_rows("t01"))
    out.write_text("an earlier table's events\n", encoding="utf-8")
    assert main(["table", "events", str(tmp_path / "t01.db"), "--out", str(out)]) == 2
    assert "无法写入" in capsys.readouterr().err and out.read_text(encoding="utf-8") == "an earlier table's events\n"
    full = tmp_path / "full.jsonl"  # a USB stick that fills up: nothing is left, not half a file
    write_log(tmp_path / "t02.db", "t02", round_rows("t02", PLAYERS, PLAYERS, PLAYERS))  # three rounds: 110 KB told
    done = subprocess.run([sys.executable, "-m", "cardtable", "table", "events", str(tmp_path / "t02.db"), "--out", str(full)],
                          capture_output=True, text=True, preexec_fn=small_files(40_000), timeout=60)
    assert done.returncode == 2 and "无法写入" in done.stderr, done.stderr
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith("full.jsonl")]
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")]
    assert main(["table", "events", str(tmp_path / "t01.db")]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert json.loads(printed[0]) == {"topic": topic("t01", "events"), "payload": json.loads(printed[0])["payload"]}
    assert json.loads(printed[0])["payload"]["kind"] == "assigned" and len(printed) > 100


def test_a_backup_made_before_the_round_was_paired_catches_up_round_by_round(tmp_path, capsys):
    """The backup was made during round 1; the hall then paired round 2 and both tables played it. Caught up, the
    backup gets round 1's games from where round 1's players sat (not round 2's, the tables' latest); paired again
    it draws the same round 2 as the hall did; caught up again, it gets round 2's games (from round 2's seating on)."""
    hall = tournament(tmp_path / "tournament.db")
    backup = tmp_path / "backup.db"
    hall.backup(backup)
    first = {x: seated(hall, x) for x in ("t01", "t02")}
    catch_up(capsys, tmp_path / "tournament.db", *(told(tmp_path, x, round_rows(x, first[x])) for x in first))
    hall.pair_next_round()  # the hall's round 2, from round 1 as its tables played it
    second = {x: seated(hall, x) for x in ("t01", "t02")}
    assert second != first
    both = []
    for x in ("t01", "t02"):
        (tmp_path / f"{x}.db").unlink()
        both.append(told(tmp_path, x, round_rows(x, first[x], second[x])))
    catch_up(capsys, tmp_path / "tournament.db", *both)
    hall_view = hall.round_view(2)
    assert all(x["result"] is not None for x in hall_view["tables"])

    out = catch_up(capsys, backup, *both).splitlines()  # the backup: round 1 is the latest it has
    assert [line.split("：")[0] for line in out] == ["t01", "t02"] and all("：记入 #" in line for line in out), out
    restored = TournamentStore(backup)
    try:
        assert restored.round_view(1)["tables"] == hall.round_view(1)["tables"]
        assert restored.pair_next_round()["tables"] == [{**x, "result": None} for x in hall_view["tables"]]
        again = catch_up(capsys, backup, *both).splitlines()
        assert len(again) == 2 and all("：记入 #" in line and "已有" not in line for line in again), again  # round 2's only
        assert restored.round_view(2)["tables"] == hall_view["tables"]
    finally:
        restored.close()
