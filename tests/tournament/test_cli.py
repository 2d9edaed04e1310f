"""``cardtable tournament`` end to end: a field from an XLSX or CSV form, pairing, results,
standings, the exports opened again (openpyxl, csv, the HTML's slips), the simulate JSON, a
refused field, bad input, and the same bytes under a Chinese and a German locale."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from contextlib import closing

import pytest
from openpyxl import Workbook, load_workbook

from cardtable.cli import main
from referee.tournament import TournamentStore

FORM = [("单位", "队名", "对", "选手"),
        ("机电学院", "", "1", "王芳、李强"), ("机电学院", "", "2", "张伟、刘洋"),
        ("外语学院", "外语一队", "1", "陈静、杨帆"), ("外语学院", "外语一队", "2", "赵敏、黄磊"),
        ("化工学院", "", "1", "周杰、吴霞"), ("化工学院", "", "2", "徐亮、孙丽"),
        ("体育部", "", "1", "郑雄、韦林"), ("体育部", "", "2", "冯波、邓丽")]


@pytest.fixture
def form_xlsx(tmp_path):
    wb = Workbook()
    for row in FORM:
        wb.active.append(row)
    path = tmp_path / "报名表.xlsx"
    wb.save(path)
    return path


def run(capsys, *argv) -> str:
    assert main(["tournament", *map(str, argv)]) == 0
    return capsys.readouterr().out


def play(capsys, db, rounds):
    for k in range(1, rounds + 1):
        run(capsys, "pair", "--db", db, "--by", "王老师")
        view = json.loads(run(capsys, "show", "--db", db, "--json"))
        assert view["round"] == k
        for i, x in enumerate(view["tables"]):
            how = ["--winner", "0"] if i % 3 == 0 else ["--winner", "1"] if i % 3 == 1 else ["--draw"]
            run(capsys, "result", "--db", db, "--round", k, "--table", x["table"], *how)


def test_a_whole_pair_swiss_from_an_xlsx_form(capsys, tmp_path, form_xlsx):
    db = tmp_path / "t.db"
    out = run(capsys, "new", "--system", "pair-swiss", "--entries", form_xlsx, "--db", db, "--rounds", 3, "--seed", 5,
              "--name", "拖拉机赛", "--id", "zk2010")
    # 8 entries (pairs) of 4 units: an entry is no 参赛单位 (000 一: 以部门工会为单位组队参赛; 三2: 运动员4名（2对）)
    assert out == "积分编排赛（pair-swiss）：8 个参赛方，3 轮，随机种子 5\n"
    play(capsys, db, 3)
    standings = json.loads(run(capsys, "standings", "--db", db, "--json"))
    assert [r["id"] for r in standings["rows"]] and {r["id"] for r in standings["rows"]} == {"机电学院", "外语学院·外语一队", "化工学院", "体育部"}
    assert standings["rows"][0]["prize"] == "一等奖"
    text = run(capsys, "standings", "--db", db)
    assert text.splitlines()[:2] == ["拖拉机赛 · 积分编排赛，第 3 轮后", "名次\t队名\t单位\t总分\t对手分\t级差\t奖项"]  # team rows (000 四5)
    english = run(capsys, "standings", "--db", db, "--lang", "en").splitlines()
    assert english[1] == "Rank\tTeam name\tUnit\tTotal\tOpp. score\tLevel diff\tPrize"
    prizes = {"一等奖": "First prize", "二等奖": "Second prize", "三等奖": "Third prize"}  # the prizes in English too
    assert english[2:-1] == [line.rsplit("\t", 1)[0] + "\t" + prizes[line.rsplit("\t", 1)[1]] for line in text.splitlines()[2:-1]]

    xlsx = tmp_path / "out.xlsx"
    run(capsys, "export", "--db", db, "--format", "xlsx", "--out", xlsx)
    wb = load_workbook(xlsx)
    assert wb.sheetnames == ["排名", "第1轮", "第2轮", "第3轮"]
    sheet = [list(r) for r in wb["排名"].iter_rows(values_only=True)]
    assert sheet[0] == ["名次", "队名", "单位", "总分", "对手分", "级差", "奖项"]
    assert [r[:4] + [r[6]] for r in sheet[1:-3]] == [  # then the ranking order's words, the stamp (test_stamp.py)
        [r["rank"], r["name"], r["unit"], r["score"], r["prize"]] for r in standings["rows"]]
    assert [r[4:6] for r in sheet[1:-3]] == [r["tiebreaks"] for r in standings["rows"]]
    round3 = json.loads(run(capsys, "show", "--db", db, "--json"))
    rows3 = [list(r) for r in wb["第3轮"].iter_rows(values_only=True)][1:-2]
    assert [(r[1], r[3], r[6]) for r in rows3 if r[1] != "轮空"] == [  # an entry by its lot number
        (x["table"], e["lot"], x["result"]["points"][i]) for x in round3["tables"] for i, e in enumerate(x["entries"])]

    data = export(capsys, db, "csv")
    lines = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert lines[0] == ["轮次", "桌号", "座位", "抽签号", "选手", "单位", "轮分", "级差", "备注"]
    rounds = lines[: lines.index([])]
    assert sum(1 for line in rounds if line[0] == "3") == 8  # eight at four tables
    html = export(capsys, db, "html").decode()
    assert html.count("<section class=slip>") == len(round3["tables"]) + 1  # a slip per table, and the standings
    assert "第3轮对阵表" in html and html.count("成绩单") == len(round3["tables"])
    en = export(capsys, db, "html", "--lang", "en").decode()
    assert "Round 3 pairings" in en


def export(capsys, db, fmt, *more) -> bytes:
    out = db.parent / f"export.{fmt}"
    run(capsys, "export", "--db", db, "--format", fmt, "--out", out, *more)
    return out.read_bytes()


def test_a_field_from_a_csv_and_bad_input(capsys, tmp_path):
    form = tmp_path / "form.csv"
    form.write_text("\n".join(",".join(r) for r in FORM) + "\n", encoding="utf-8-sig")
    db = tmp_path / "t.db"
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "new", "--system", "pair-swiss", "--entries", str(form), "--db", str(db), "--rounds", "7"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "无法进行积分编排：e01（机电学院）只能遇到其他单位的 6 对；7 轮需要 7 对" in err  # Chinese unless --lang en
    with pytest.raises(SystemExit):
        main(["tournament", "new", "--system", "pair-swiss", "--entries", str(form), "--db", str(db), "--rounds", "7",
              "--lang", "en"])
    assert "pair Swiss cannot be run: pair e01 (机电学院) can meet only 6 pairs of other units; 7 rounds need 7" in capsys.readouterr().err
    assert not db.exists()
    run(capsys, "new", "--system", "pair-swiss", "--entries", form, "--db", db, "--rounds", 2)
    run(capsys, "pair", "--db", db)
    for argv, message in ((["--round", "1", "--table", "t09", "--winner", "0"], "第 1 轮没有 t09 桌"),
                          (["--round", "1", "--table", "t01", "--scores", "1,x", "--lang", "en"], "numbers separated by commas"),
                          (["--round", "3", "--table", "t01", "--draw", "--lang", "en"], "round 3 is not paired")):
        with pytest.raises(SystemExit):
            main(["tournament", "result", "--db", str(db), *argv])
        assert message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["tournament", "pair", "--db", str(tmp_path / "none.db")])
    assert "没有这个赛事文件" in capsys.readouterr().err


def test_an_option_is_taken_as_typed_once_and_never_twice(capsys, tmp_path):
    """`--option level_diff=real` as a new organiser types it (the help once asked for `level_diff=\\"real\\"`, JSON, and
    the word alone was refused); an option given twice (`--option` twice, or `--rounds` beside `--option rounds=`) was
    one of the two dropped unsaid: refused in words, no file left."""
    form = tmp_path / "form.csv"
    form.write_text("\n".join(",".join(r) for r in FORM) + "\n", encoding="utf-8-sig")
    db = tmp_path / "t.db"
    new = ["tournament", "new", "--system", "pair-swiss", "--entries", str(form), "--db", str(db)]
    for extra, said in ((["--option", "level_diff=real", "--option", "level_diff=seed"], "选项 `level_diff` 给了两次"),
                        (["--rounds", "3", "--option", "rounds=4", "--lang", "en"], "the option `rounds` is given twice"),
                        (["--option", "level_diff=Real"], "`level_diff` 应为 `seed` 或 `real`"),
                        (["--option", "level_diff=re al"], "`--option level_diff=re al`：应为 `KEY=JSON`")):
        with pytest.raises(SystemExit):
            main(new + extra)
        assert said in capsys.readouterr().err and not db.exists()
    run(capsys, *new[1:], "--option", "level_diff=real", "--rounds", 2)
    assert TournamentStore(db).tournament.options["level_diff"] == "real"


def test_simulate_prints_the_issue_shape(capsys):
    out = json.loads(run(capsys, "simulate", "--system", "pair-swiss", "--entries", 12, "--rounds", 4, "--seed", 3, "--json"))
    assert list(out) == ["system", "entries", "rounds", "standings"]
    assert len(out["entries"]) == 12 and set(out["entries"][0]) == {"id", "unit", "team"}
    assert [r["round"] for r in out["rounds"]] == [1, 2, 3, 4] and not any(r["byes"] for r in out["rounds"])
    assert set(out["rounds"][0]["tables"][0]) == {"table", "entries", "points"}
    assert set(out["standings"][0]) == {"rank", "team", "score", "tiebreaks"}
    total = sum(p for r in out["rounds"] for x in r["tables"] for p in x["points"])
    assert sum(s["score"] for s in out["standings"]) == total
    for system, key in (("knockout-best-of-three", "entry"), ("individual-tables", "entry")):
        out = json.loads(run(capsys, "simulate", "--system", system, "--entries", 20, "--rounds", 4, "--seed", 3, "--json"))
        assert set(out["standings"][0]) == {"rank", key, "score", "tiebreaks"} and len(out["rounds"]) == 4


def test_broken_forms_are_refused_with_the_reason(tmp_path):
    from referee.tournament import EntryError, load_entries

    cases = {"a.xlsx": b"not a zip", "b.csv": "单位,选手\n,王芳\n".encode(), "c.csv": "名字\n王芳\n".encode(),
             "d.csv": b"\xff\xfe\x00", "e.txt": b"unit,players\n"}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(EntryError):
            load_entries(tmp_path / name)


def test_serve_publishes_the_retained_topics_until_sigterm(broker, connect, inbox, tmp_path, capsys):
    import signal
    import subprocess
    import sys

    db = tmp_path / "t.db"
    form = tmp_path / "form.csv"
    form.write_text("\n".join(",".join(r) for r in FORM) + "\n", encoding="utf-8")
    run(capsys, "new", "--system", "pair-swiss", "--entries", form, "--db", db, "--rounds", 2, "--id", "served")
    run(capsys, "pair", "--db", db)
    late = json.loads(run(capsys, "show", "--db", db, "--json"))["tables"][0]["entries"][0]["id"]
    run(capsys, "late", "--db", db, "--round", 1, "--entry", late, "--minutes", 25)
    proc = subprocess.Popen([sys.executable, "-m", "cardtable", "tournament", "serve", "--db", str(db),
                             "--broker", broker.url("tournament")], stderr=subprocess.PIPE, text=True)
    try:
        box = inbox()
        conn = connect("scoreboard", clean_start=True)
        conn.subscribe("cardtable/v1/tournament/served/#", box)
        _, raw = box.wait_for(lambda t, p: t.endswith("/round"), timeout=30)
        view = json.loads(raw)
        assert view["tables"][0]["result"] == {"points": [0, 2], "scores": [-2, 2]}  # 25 minutes late: a forfeit
        box.wait_for(lambda t, p: t.endswith("/standings"))
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        proc.stderr.close()


def test_a_damaged_tournament_file_is_refused_in_words_and_left_as_it_was(capsys, tmp_path):
    """A bad evening: the tournament's file damaged (a disk error, a copy cut short). Before, a page overwritten read
    as "no tournament yet" (and ``new`` would have made one over it), bytes damaged inside an action ended every
    command with a traceback, and one digit changed in a result (t01 won by the other side) was taken as the result.
    Now each command refuses it, says what SQLite or the action says, and writes nothing."""
    form = tmp_path / "form.csv"
    form.write_text("\n".join(",".join(r) for r in FORM) + "\n", encoding="utf-8-sig")
    good = tmp_path / "good.db"
    run(capsys, "new", "--system", "pair-swiss", "--entries", form, "--db", good, "--rounds", 2, "--seed", 1)
    play(capsys, good, 1)
    whole = tmp_path / "whole.db"  # the file as a copy of it is (its WAL written in)
    with closing(sqlite3.connect(good)) as src, closing(sqlite3.connect(whole)) as dst:
        src.backup(dst)
    page = 4096  # SQLite's page size here; page 2 holds the actions, page 4 their seals
    assert whole.stat().st_size == 4 * page
    won = b'{"result": {"winner": 0}, "round": 1, "table": "t01"}'
    assert whole.read_bytes().count(won) == 1

    def damaged(name: str, at: int, size: int, put: bytes | None = None) -> bytes:
        path = tmp_path / name
        raw = bytearray(whole.read_bytes())
        raw[at:at + size] = bytes(size) if put is None else put
        path.write_bytes(bytes(raw))
        return bytes(raw)

    digit = whole.read_bytes().index(won) + 22
    cases = {"page.db": (page + page // 2, 512, None, "文件已损坏（`SQLite` 的完整性检查：`On tree page 2"),  # a cell pointer gone
             "text.db": (2 * page - 192, 64, None, "条记录"),  # inside an action's JSON: SQLite finds nothing wrong
             "digit.db": (digit, 1, b"1", "（第 3 条记录与写入时不同（它的封印对不上））"),  # still reads
             "utf8.db": (digit, 1, b"\xff", "（第 3 条记录的文字不是 `UTF-8`）")}  # Python cannot read it
    for name, (at, size, put, said) in cases.items():
        before = damaged(name, at, size, put)
        for argv in (["standings"], ["pair"], ["show", "--round", "1"], ["export", "--format", "csv"],
                     ["new", "--system", "pair-swiss", "--entries", str(form), "--rounds", "2"]):
            with pytest.raises(SystemExit) as exc:
                main(["tournament", argv[0], "--db", str(tmp_path / name), *argv[1:]])
            assert exc.value.code == 2
            err = capsys.readouterr().err
            assert f"{name} 已损坏（" in err and said in err and "未作任何改动" in err, (argv, err)
            assert "Traceback" not in err
        assert (tmp_path / name).read_bytes() == before
    with pytest.raises(SystemExit):
        main(["tournament", "standings", "--db", str(tmp_path / "text.db"), "--lang", "en"])
    assert "text.db is damaged (action " in capsys.readouterr().err


def test_a_damaged_tournament_file_is_said_wholly_in_the_readers_language(capsys, tmp_path):
    """A byte changed in an action row (a result's winner: the row still reads, its seal differs): the Chinese said
    what was wrong in English inside it (``已损坏或被锁住（action 3: not what was written (its seal differs)）``) and
    said "or locked" of a file known to be damaged. Now every word of it is the reader's language: Chinese with no
    English word (but the file's name and what is in backticks), English with no Chinese character."""
    import re

    form = tmp_path / "form.csv"
    form.write_text("\n".join(",".join(r) for r in FORM) + "\n", encoding="utf-8-sig")
    db = tmp_path / "t.db"
    run(capsys, "new", "--system", "pair-swiss", "--entries", form, "--db", db, "--rounds", 2, "--seed", 1)
    play(capsys, db, 1)
    with closing(sqlite3.connect(db)) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = db.read_bytes()
    db.write_bytes(data.replace(b'"winner": 0', b'"winner": 1', 1))
    said = {}
    for lang in ("zh", "en"):
        with pytest.raises(SystemExit) as exc:
            main(["tournament", "standings", "--db", str(db), "--lang", lang])
        assert exc.value.code == 2
        said[lang] = capsys.readouterr().err.strip().splitlines()[-1]
    zh = said["zh"].split("：错误：", 1)[1].replace(str(db), "")
    assert re.match(r" 已损坏（第 \d+ 条记录与写入时不同（它的封印对不上））", zh) and "锁" not in zh, said["zh"]
    assert not re.findall(r"[A-Za-z]{3,}", re.sub(r"`[^`]*`", "", zh)), said["zh"]
    assert re.search(r"t\.db is damaged \(action \d+ is not what was written \(its seal differs\)\); nothing was changed",
                     said["en"]), said["en"]
    assert not re.search(r"[\u4e00-\u9fff]", said["en"]) and "locked" not in said["en"], said["en"]


def test_a_backup_is_a_checked_copy_never_over_a_file_nor_of_a_damaged_one(capsys, tmp_path, form_xlsx):
    """Back up at every break (docs/deployment.md): `cardtable tournament backup` copies the file whole while a service
    holds it open (SQLite's online backup), checks the copy as every command checks a file, and says what it holds; it
    never writes over a file, nor copies a damaged one, nor leaves a part behind."""
    db, out = tmp_path / "t.db", tmp_path / "备份" / "t-r1.db"
    run(capsys, "new", "--system", "pair-swiss", "--entries", form_xlsx, "--db", db, "--rounds", 2)
    play(capsys, db, 1)
    with pytest.raises(SystemExit):  # the folder is not there
        main(["tournament", "backup", "--db", str(db), "--out", str(out)])
    assert "没有文件夹" in capsys.readouterr().err
    out.parent.mkdir()
    from referee.tournament import TournamentStore

    open_by_service = TournamentStore(db)  # a service holds it open and writes after the copy
    said = run(capsys, "backup", "--db", db, "--out", out)
    assert said.strip() == f"已备份到 {out}：{open_by_service.last_seq()} 条记录，已编排 1/2 轮，核对无误（封印完好，可以重放）"
    copy = TournamentStore(out)
    assert copy.tournament == open_by_service.tournament and copy.standings() == open_by_service.standings()
    copy.close()
    open_by_service.pair_next_round()
    before = out.read_bytes()
    with pytest.raises(SystemExit):
        main(["tournament", "backup", "--db", str(db), "--out", str(out), "--lang", "en"])
    assert "exists: a backup never overwrites a file" in capsys.readouterr().err
    assert out.read_bytes() == before
    open_by_service.close()
    with closing(sqlite3.connect(db)) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = db.read_bytes()  # a result changed on disk: its seal differs
    assert data.count(b'"winner": 0') >= 1
    db.write_bytes(data.replace(b'"winner": 0', b'"winner": 1', 1))
    with pytest.raises(SystemExit):
        main(["tournament", "backup", "--db", str(db), "--out", str(tmp_path / "备份" / "bad.db")])
    assert "已损坏" in capsys.readouterr().err
    assert sorted(p.name for p in out.parent.iterdir()) == ["t-r1.db"]  # nothing else left behind


def test_a_backup_that_cannot_be_written_leaves_nothing_and_says_why(tmp_path):
    """A USB stick that fills up in the middle: the command runs under a file-size limit (40 KB) smaller than the
    tournament's file (80 KB), so SQLite's writes to the copy fail as on a full disk; the refusal says so, and neither
    the copy nor its part is left (the tournament's file is untouched)."""
    import subprocess
    import sys

    from full import small_files

    from referee.tournament import Entry, TournamentStore

    db, out = tmp_path / "t.db", tmp_path / "b.db"
    store = TournamentStore(db)
    store.new("pair-swiss", [Entry(f"e{i}", f"队{i}" * 10, f"单位{i // 2}" * 5, f"单位{i // 2}" * 5, (f"甲{i}" * 5, f"乙{i}" * 5))
                             for i in range(128)], seed=1, options={"rounds": 3}, id="big")
    for r in (1, 2):
        for x in store.pair_next_round()["tables"]:
            store.record_result(r, x["table"], {"winner": 0})
    store.close()
    before = db.read_bytes()
    assert len(before) > 60_000
    done = subprocess.run([sys.executable, "-m", "cardtable", "tournament", "backup", "--db", str(db), "--out", str(out)],
                          capture_output=True, text=True, preexec_fn=small_files(40_000), timeout=60)
    assert done.returncode == 2 and f"无法写入备份 {out}（" in done.stderr and "没有留下任何文件" in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.db"] and db.read_bytes() == before


def test_a_new_tournament_is_said_in_english_with_no_chinese(capsys, tmp_path, form_xlsx):
    """``--lang en``: the new sheet's line names the system in English; the system's own title is the venue's Chinese."""
    out = run(capsys, "new", "--system", "pair-swiss", "--entries", form_xlsx, "--db", tmp_path / "t.db", "--rounds", 3,
              "--seed", 5, "--lang", "en")
    assert out == "pair-swiss: 8 entries, 3 rounds, seed 5 (pair Swiss)\n"
