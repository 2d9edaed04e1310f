"""Registration forms as organisers send them, and teams as the notice makes them: a team is its
unit and its name, of two pairs of two (seed 000); every refusal names the row as the sheet
numbers it (the header is row 1). Real files: XLSX written by openpyxl (merged cells, a title
row), CSV in GBK bytes, a table's event log, a text file, an empty file."""

from __future__ import annotations

import csv
import io
import json
import os
import tracemalloc

import pytest
from openpyxl import Workbook
from sheets import sheet

from bus.tournament import check
from cardtable.cli import main
from referee.table.log import EventLog
from referee.tournament import EntryError, TournamentError, TournamentStore, load_entries
from referee.tournament.entries import read_entries

HEADER = ("单位", "队名", "对", "选手")
# Three units, each with a team called 一队; 机电学院 has a 二队 as well.
TEAMS = [HEADER,
         ("机电学院", "一队", "1", "王芳、李强"), ("机电学院", "一队", "2", "张伟、刘洋"),
         ("机电学院", "二队", "1", "陈静、杨帆"), ("机电学院", "二队", "2", "赵敏、黄磊"),
         ("外语学院", "一队", "1", "周杰、吴霞"), ("外语学院", "一队", "2", "徐亮、孙丽"),
         ("化工学院", "一队", "1", "郑雄、韦林"), ("化工学院", "一队", "2", "冯波、邓丽"),
         ("体育部", "", "1", "马超、朱红"), ("体育部", "", "2", "胡明、郭平")]


def xlsx(tmp_path, rows, merges=(), name="报名表.xlsx"):
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    for cells in merges:
        wb.active.merge_cells(cells)
    path = tmp_path / name
    wb.save(path)
    return path


def refused(path) -> str:
    with pytest.raises(EntryError) as exc:
        load_entries(path)
    return str(exc.value)


def new(tmp_path, system, path, **options):
    """The refusal of ``new`` for the form at ``path`` (None: the field is accepted)."""
    store = TournamentStore(tmp_path / f"{path.stem}-{system}.db")
    try:
        store.new(system, load_entries(path), seed=1, options=options or None)
    except TournamentError as exc:
        return exc
    finally:
        store.close()
    return None


# -- teams: a unit and a name --------------------------------------------------------------------
def test_a_team_is_its_unit_and_its_name(tmp_path):
    """000 一: 本届竞赛为团体赛，以部门工会为单位组队参赛; 四5: 各队的团体成绩由本队两对选手轮分积分累加
    而定 — three units' 一队 are three teams, each the sum of its own two pairs."""
    entries = load_entries(xlsx(tmp_path, TEAMS))
    team_of = {e.id: (e.unit, e.team) for e in entries}  # the form's own word, not the package's key
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", entries, seed=3, options={"rounds": 2, "opponent_score": "team"})
    score = {e.id: 0 for e in entries}
    met = {e.id: [] for e in entries}
    for k in (1, 2):
        view = store.pair_next_round()
        for i, x in enumerate(view["tables"]):
            a, b = (e["id"] for e in x["entries"])
            result = {"winner": i % 2} if i % 3 else {"draw": True}
            store.record_result(k, x["table"], result)
            pts = (1, 1) if "draw" in result else (2, 0) if result["winner"] == 0 else (0, 2)
            score[a] += pts[0]
            score[b] += pts[1]
            met[a].append(b)
            met[b].append(a)
    standings = check("standings", store.standings())
    team_score = {}
    for e, s in score.items():
        team_score[team_of[e]] = team_score.get(team_of[e], 0) + s
    opponent = {t: sum(team_score[team_of[o]] for e in team_of if team_of[e] == t for o in met[e]) for t in team_score}
    rows = {(r["unit"], r["name"]): r for r in standings["rows"]}
    assert len(standings["rows"]) == 5 and len({r["id"] for r in standings["rows"]}) == 5
    assert set(rows) == {("机电学院", "一队"), ("机电学院", "二队"), ("外语学院", "一队"), ("化工学院", "一队"), ("体育部", "体育部")}
    assert {k: r["score"] for k, r in rows.items()} == team_score
    assert {k: r["tiebreaks"][0] for k, r in rows.items()} == opponent  # 对手分 of the opponent *teams*
    assert rows["外语学院", "一队"]["id"] == "外语学院·一队" and rows["体育部", "体育部"]["id"] == "体育部"
    # The exports carry the team's name and unit: three 一队 rows told apart by their units.
    lines = list(csv.reader(io.StringIO(store.export("csv").decode("utf-8-sig"))))
    table = lines[lines.index([]) + 1:-3]  # the standings, before the ranking order's words and the stamp (test_stamp.py)
    assert sorted((r[1], r[2]) for r in table[1:]) == sorted((r["name"], r["unit"]) for r in standings["rows"])
    store.close()


def test_twenty_one_minutes_late_forfeits_the_whole_team_and_only_it(tmp_path):
    """000 第十三条: 21分钟以上判全队该轮弃权 — the team of the late pair, not another unit's 一队."""
    store = TournamentStore(tmp_path / "t.db")
    entries = load_entries(xlsx(tmp_path, TEAMS))
    store.new("pair-swiss", entries, seed=3, options={"rounds": 2})
    store.pair_next_round()
    view = store.late_arrival(1, "e01", 21, by="裁判长")
    lost = {e["id"] for x in view["tables"] if x["result"] for i, e in enumerate(x["entries"]) if x["result"]["points"][i] == 0}
    assert lost == {"e01", "e02"}  # 机电学院 一队; 外语学院 一队 (e05, e06) and 化工学院 一队 play on
    store.close()


# -- team make-up --------------------------------------------------------------------------------
def test_a_team_is_two_pairs_of_two_and_the_refusal_names_the_sheet_rows(tmp_path):
    """000 三2: 各参赛队可报领队（兼教练）1名，运动员4名（2对）; 四5: 由本队两对选手轮分积分累加."""
    good = TEAMS[:1] + TEAMS[5:]  # 外语 一队, 化工 一队, 体育部: three teams of two pairs of two
    assert new(tmp_path, "pair-swiss", xlsx(tmp_path, good, name="good.xlsx"), rounds=2) is None
    three = good + [("体育部", "", "3", "何刚、高华")]
    exc = new(tmp_path, "pair-swiss", xlsx(tmp_path, three, name="three.xlsx"), rounds=2)
    assert str(exc) == "体育部：第 6 行（e05）、第 7 行（e06）、第 8 行（e07），共 3 对；每队应为 2 对（000 号规程三2：运动员4名（2对））"
    assert exc.text("en") == "体育部: row 6 (e05), row 7 (e06), row 8 (e07), 3 pair(s); a team is 2 pairs (seed 000, 3.2: 4 players, 2 pairs)"
    # The option team_pairs sets another size: the refusal cites the option, not the seed's 2 pairs it overrides.
    for size in (1, 3):
        exc = new(tmp_path, "pair-swiss", xlsx(tmp_path, good, name=f"size{size}.xlsx"), rounds=2, team_pairs=size)
        assert str(exc) == f"外语学院·一队：第 2 行（e01）、第 3 行（e02），共 2 对；本赛事的选项 `team_pairs` 定为每队 {size} 对"
        assert exc.text("en").endswith(f"2 pair(s); this tournament's option `team_pairs` makes a team {size} pair(s)")
    one = good[:-1]
    assert str(new(tmp_path, "pair-swiss", xlsx(tmp_path, one, name="one.xlsx"), rounds=2)).startswith("体育部：第 6 行（e05），共 1 对")
    trio = good[:2] + [("外语学院", "一队", "2", "徐亮、孙丽、林涛")] + good[3:]
    assert str(new(tmp_path, "pair-swiss", xlsx(tmp_path, trio, name="trio.xlsx"), rounds=2)) == \
        "第 3 行（e02）：一对是 2 名选手，这里是 3 名：徐亮、孙丽、林涛"
    # One player a row and a pair column: row 5 holds a pair's only player.
    rows = [HEADER, ("外语学院", "", "1", "周杰"), ("外语学院", "", "1", "吴霞"), ("外语学院", "", "2", "徐亮"),
            ("外语学院", "", "2", "孙丽"), ("化工学院", "", "1", "郑雄"), ("化工学院", "", "2", "冯波"), ("化工学院", "", "2", "邓丽")]
    exc = new(tmp_path, "pair-swiss", xlsx(tmp_path, rows, name="rows.xlsx"), rounds=1)
    assert str(exc).startswith("第 6 行（e03）：一对是 2 名选手，这里只有 郑雄")
    # A form without the pair column, one player a row: every row would be a pair of one.
    bare = [("单位", "选手"), ("外语学院", "周杰"), ("外语学院", "吴霞")]
    exc = new(tmp_path, "pair-swiss", xlsx(tmp_path, bare, name="bare.xlsx"))
    assert str(exc) == "第 2 行（e01）：一对是 2 名选手，这里只有 周杰；每行填一名选手时，请用“对”列标明同一对的两行"
    assert "with one player a row, the pair column says which two rows are a pair" in exc.text("en")
    # The knockout plays pairs too (002 十三 第1条: 同一场比赛中组成的对手，为固定搭档); individual tables, players.
    assert "这里是 3 名" in str(new(tmp_path, "knockout-best-of-three", xlsx(tmp_path, trio, name="ko.xlsx")))
    assert new(tmp_path, "knockout-best-of-three", xlsx(tmp_path, three, name="ko3.xlsx")) is None  # no teams there
    solo = [("单位", "选手")] + [(f"单位{i % 3}", f"选手{i}") for i in range(7)] + [("单位9", "甲乙、丙丁")]
    exc = new(tmp_path, "individual-tables", xlsx(tmp_path, solo, name="solo.xlsx"))
    assert str(exc) == "第 9 行（e08）：个人赛（每桌四人）的参赛者是一名选手，这里是 2 名：甲乙、丙丁；请每行填一名选手"


def test_the_command_line_refuses_a_bad_team_in_both_languages_and_leaves_no_file(tmp_path, capsys):
    form = xlsx(tmp_path, TEAMS[:1] + TEAMS[5:] + [("体育部", "", "3", "何刚、高华")])
    db = tmp_path / "t.db"
    for lang, said in (("zh", "体育部：第 6 行（e05）、第 7 行（e06）、第 8 行（e07），共 3 对"), ("en", "体育部: row 6 (e05), row 7 (e06), row 8 (e07), 3 pair(s)")):
        with pytest.raises(SystemExit):
            main(["--lang", lang, "tournament", "new", "--system", "pair-swiss", "--entries", str(form), "--db", str(db)])
        assert said in capsys.readouterr().err
    assert not db.exists()


def test_row_numbers_are_the_sheets_under_a_title_row_and_past_blank_rows(tmp_path):
    rows = [("2010年教工拖拉机赛报名表",), HEADER, ("机电学院", "", "1", "王芳、李强"), (), ("", "", "2", "张伟、刘洋")]
    assert refused(xlsx(tmp_path, rows)) == "第 5 行：单位为空"
    text = "\n".join(",".join(r) for r in rows) + "\n"
    (tmp_path / "f.csv").write_text(text, encoding="utf-8")
    assert refused(tmp_path / "f.csv") == "第 5 行：单位为空"


# -- names as people type them -----------------------------------------------------------------
def test_names_aligned_with_spaces_are_one_name(tmp_path):
    rows = [HEADER, ("机电　学院", "", "1", "王　芳、李 强"), (" 机电学院 ", "", "2", " 张伟\n刘洋 "),
            ("外语学院", "", "1", "欧 阳 娜 娜，陈静"), ("外语学院", "", "2", "杨帆 赵敏")]
    entries = load_entries(xlsx(tmp_path, rows))
    assert [(e.unit, e.players) for e in entries] == [
        ("机电学院", ("王芳", "李强")), ("机电学院", ("张伟", "刘洋")), ("外语学院", ("欧阳娜娜", "陈静")), ("外语学院", ("杨帆", "赵敏"))]
    assert entries[0].team_id == entries[1].team_id == "机电学院"  # 机电　学院 is 机电学院
    unclear = [HEADER, ("机电学院", "", "1", "王芳、李强"), ("机电学院", "", "2", "王 芳芳")]
    assert refused(xlsx(tmp_path, unclear, name="u.xlsx")) == "第 3 行：“王 芳芳”分不清是几个人：人名之间请用“、”分隔"


def test_a_cell_the_tables_could_not_take_is_refused_with_its_row(tmp_path):
    """A name goes to a table's ``assign`` (the bus: 1-64 characters, no control character) and to every command's
    output: a form's cell with a terminal's escape (a CSV can hold one) or a name of 65 characters was taken, and the
    console could not seat that table on the evening. Refused at the form, naming the row."""
    escaped = tmp_path / "escaped.csv"
    escaped.write_text("单位,对,选手\n机电学院,1,王芳、李强\n机电学院,2,张伟、刘\x1b[2J洋\n", encoding="utf-8")
    assert refused(escaped) == "第 3 行：“刘\\x1b[2J洋”含有控制字符（例如换页、响铃、终端转义），请删去后再导入"
    long = [HEADER, ("机电学院", "", "1", "王芳、李强"), ("机电学院", "", "2", "张伟、" + "刘" * 65)]
    assert refused(xlsx(tmp_path, long, name="l.xlsx")) == f"第 3 行：“{'刘' * 20}…”有 65 个字，姓名、单位和队名最多 64 个字"
    unit = [HEADER, ("机" * 65, "", "1", "王芳、李强")]
    assert "有 65 个字" in refused(xlsx(tmp_path, unit, name="u.xlsx"))
    fits = [HEADER, ("机" * 64, "", "1", "王芳、" + "李" * 64)]
    assert load_entries(xlsx(tmp_path, fits, name="f.xlsx"))[0].players[1] == "李" * 64


def test_a_name_with_an_invisible_format_character_is_refused_with_its_row(tmp_path):
    """A zero-width space (pasted from a web page) or a right-to-left override makes a name that reads as another on
    the tables, the sheets and the audit log: refused at the form, naming the row and showing the character."""
    rows = [HEADER, ("机电学院", "", "1", "王芳、李强"), ("机电学院", "", "2", "张伟\u200b、刘洋")]
    assert refused(xlsx(tmp_path, rows)) == "第 3 行：“张伟\\u200b”含有看不见的格式字符（例如零宽空格、从右到左标记），会与别的名字看起来一样，请删去后再导入"
    unit = tmp_path / "unit.csv"
    unit.write_text("单位,对,选手\n机电\u202e学院,1,王芳、李强\n", encoding="utf-8")
    assert refused(unit).startswith("第 2 行：“机电\\u202e学院”含有看不见的格式字符")


def test_staff_of_one_name_in_two_units_are_two_people_in_one_unit_refused(tmp_path):
    rows = [HEADER, ("机电学院", "", "1", "王芳、李强"), ("外语学院", "", "1", "王芳、陈静")]
    assert [e.players[0] for e in load_entries(xlsx(tmp_path, rows))] == ["王芳", "王芳"]
    twice = rows + [("机电学院", "", "2", "张伟、王　芳")]
    assert refused(xlsx(tmp_path, twice, name="t.xlsx")).startswith("王芳（机电学院）报名了两次（第 2 行和第 4 行）")
    same_cell = rows + [("机电学院", "", "2", "张伟、张伟")]  # said "rows 5 and 5"
    with pytest.raises(EntryError) as exc:
        load_entries(xlsx(tmp_path, same_cell, name="s.xlsx"))
    assert str(exc.value).startswith("张伟（机电学院）在第 4 行写了两次；一对是两名不同的选手")
    assert exc.value.text("en").startswith("张伟 (机电学院) is written twice in row 4; a pair is two different players")


# -- files as they come -------------------------------------------------------------------------
def test_merged_cells_are_read_as_the_sheet_shows_them(tmp_path):
    rows = [HEADER,
            ("机电学院", "一队", "1", "王芳"), (None, None, None, "李强"), (None, None, "2", "张伟"), (None, None, None, "刘洋"),
            (None, "二队", "1", "陈静、杨帆"), (None, None, "2", "赵敏、黄磊")]
    # The unit over all six rows, each team over its rows, each pair's number over its two player rows.
    path = xlsx(tmp_path, rows, merges=("A2:A7", "B2:B5", "B6:B7", "C2:C3", "C4:C5"))
    entries = load_entries(path)
    assert [(e.unit, e.team, e.players, e.rows) for e in entries] == [
        ("机电学院", "一队", ("王芳", "李强"), (2, 3)), ("机电学院", "一队", ("张伟", "刘洋"), (4, 5)),
        ("机电学院", "二队", ("陈静", "杨帆"), (6,)), ("机电学院", "二队", ("赵敏", "黄磊"), (7,))]


FORM_TEXT = "单位,队名,对,选手\n机电学院,,1,王芳、李强\n机电学院,,2,张伟、刘洋\n外语学院,外语一队,1,陈静、杨帆\n"


def test_a_form_of_a_million_cells_is_read_cell_by_cell_and_what_lies_past_its_bounds_is_refused(tmp_path):
    """A few KB zipped can hold a million cells (written with no ``r``; or styled, empty, down thousands of rows): a
    full load held them all at once (hundreds of MB and seconds for each million, the display frozen meanwhile). Read
    cell by cell now, a few MB at most; a value past the form's bounds, or parts too big unpacked, refused in words."""
    head = '<c t="inlineStr"><is><t>单位</t></is></c><c t="inlineStr"><is><t>选手</t></is></c>'
    tracemalloc.start()
    try:
        with pytest.raises(EntryError, match="^报名表中没有参赛者$"):  # the header, then a million empty cells
            read_entries("报名表.xlsx", sheet(1, head + "<c/>" * 1_000_000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 32 << 20, f"{peak >> 20} MiB"
    for data, said in ((sheet(3000, "<c><v>1</v></c>"), "报名表.xlsx：第 2001 行第 1 列有内容，而报名表只读前 2000 行、前 32 列；"
                        "请删去报名以外的内容，或把报名表分成几个文件"),
                       (sheet(1, "<c><v>1</v></c>" * 33), "报名表.xlsx：第 1 行第 33 列有内容，"),
                       (sheet(10_000, "<c><v>1</v></c>" * 100), "报名表.xlsx：解压后超过 8 兆字节，不像是报名表；请只保留报名的工作表后另存"),
                       (sheet(2, head, "<mergeCells>" + '<mergeCell ref="A1:AF2000"/>' * 3 + "</mergeCells>"),
                        "报名表.xlsx：合并的单元格互相重叠，无法读取；请取消合并后再导入")):
        with pytest.raises(EntryError) as exc:
            read_entries("报名表.xlsx", data)
        assert str(exc.value).startswith(said)
    wide = sheet(1, "<c><v>1</v></c>" * 33)
    with pytest.raises(EntryError) as exc:
        read_entries("报名表.xlsx", wide)
    assert exc.value.text("en") == "报名表.xlsx: row 1, column 33 holds something, and a form is read up to row 2000 and column 32; " \
        "delete what is not the entries, or split the form into several files"


@pytest.mark.parametrize("encoding", ["gbk", "gb18030", "utf-8", "utf-8-sig"])
def test_a_csv_in_gbk_as_excel_saves_it_on_chinese_windows_or_in_utf8(tmp_path, encoding):
    path = tmp_path / "报名表.csv"
    path.write_bytes(FORM_TEXT.encode(encoding))
    assert [(e.unit, e.team, e.players) for e in load_entries(path)] == [
        ("机电学院", "机电学院", ("王芳", "李强")), ("机电学院", "机电学院", ("张伟", "刘洋")), ("外语学院", "外语一队", ("陈静", "杨帆"))]


def test_a_csv_in_another_encoding_is_refused_with_the_advice_to_save_as_utf8(tmp_path):
    advice = "不是 `UTF-8` 或 `GBK` 编码的文本；请在 `Excel` 中“另存为”“`CSV UTF-8`（逗号分隔）”"
    for name, data in (("utf16.csv", FORM_TEXT.encode("utf-16")),  # Excel's "Unicode text"
                       ("big5.csv", "單位,隊名,對,選手\n機電學院,,1,王芳、李強\n".encode("big5")),  # decodes as GB18030: no column reads right
                       ("latin.csv", "unité,joueurs\nMaths,Léa\n".encode("latin-1"))):
        (tmp_path / name).write_bytes(data)
        assert refused(tmp_path / name) == f"{tmp_path / name}：{advice}"


# -- --db and --out ------------------------------------------------------------------------------
def not_tournaments(tmp_path):
    (tmp_path / "notes.txt").write_text("王老师的笔记\n", encoding="utf-8")
    (tmp_path / "empty.db").write_bytes(b"")
    log = EventLog.open(tmp_path / "t01.sqlite")
    log.append("table_started", {"table": "t01"}, at=1.0)
    log.close()
    return {"notes.txt": "不是 `SQLite` 数据库", "empty.db": "空文件", "t01.sqlite": "另一种数据库，其中的表：events、meta、sqlite_sequence"}


def snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_db_that_is_not_a_tournament_is_refused_in_words_and_left_as_it_was(tmp_path, capsys):
    files = not_tournaments(tmp_path)
    form = xlsx(tmp_path, TEAMS)
    before = snapshot(tmp_path)
    for name, what in files.items():
        db = str(tmp_path / name)
        for argv in (["standings"], ["pair"], ["show", "--json"], ["export", "--format", "csv"],
                     ["result", "--round", "1", "--table", "t01", "--winner", "0"],
                     ["new", "--system", "pair-swiss", "--entries", str(form)]):
            with pytest.raises(SystemExit) as exc:
                main(["tournament", *argv, "--db", db])
            assert exc.value.code == 2
            err = capsys.readouterr().err
            assert f"{db} 不是赛事文件（{what}），未作任何改动" in err and "Traceback" not in err, (argv, err)
        with pytest.raises(SystemExit):
            main(["--lang", "en", "tournament", "standings", "--db", db])
        assert f"{db} is not a tournament file (" in capsys.readouterr().err
    assert snapshot(tmp_path) == before  # no byte changed, no file left beside them
    with pytest.raises(SystemExit):
        main(["tournament", "new", "--system", "pair-swiss", "--entries", str(form), "--db", str(tmp_path / "无" / "t.db")])
    assert f"{tmp_path / '无' / 't.db'}：没有文件夹 {tmp_path / '无'}，未建任何文件" in capsys.readouterr().err
    with pytest.raises(TournamentError, match="不是赛事文件"):
        TournamentStore(tmp_path / "t01.sqlite")
    assert snapshot(tmp_path) == before


def test_export_into_a_missing_folder_is_refused_and_writes_nothing(tmp_path, capsys):
    db = tmp_path / "t.db"
    store = TournamentStore(db)
    store.new("pair-swiss", load_entries(xlsx(tmp_path, TEAMS)), seed=1, options={"rounds": 2})
    store.close()
    before = snapshot(tmp_path)
    out = tmp_path / "没有的文件夹" / "排名.xlsx"
    for lang, said in (("zh", f"{out}：没有文件夹 {out.parent}，未写出任何文件"), ("en", f"{out}: there is no folder {out.parent}; nothing was written")):
        with pytest.raises(SystemExit):
            main(["--lang", lang, "tournament", "export", "--db", str(db), "--format", "xlsx", "--out", str(out)])
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err
    assert snapshot(tmp_path) == before and not out.parent.exists()
    assert main(["tournament", "export", "--db", str(db), "--format", "csv", "--out", str(tmp_path / "排名.csv")]) == 0
    assert (tmp_path / "排名.csv").read_bytes().startswith("\ufeff轮次".encode())
    assert oct((tmp_path / "排名.csv").stat().st_mode & 0o777) == oct(0o666 & ~current_umask())
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary file left


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_the_console_reads_a_gbk_form_too(tmp_path):
    from display.tournament import read_form

    entries = read_form("报名表.csv", FORM_TEXT.encode("gbk"))
    assert [e.players for e in entries] == [("王芳", "李强"), ("张伟", "刘洋"), ("陈静", "杨帆")]


def test_a_draft_keeps_the_rows_of_the_form_it_was_imported_from(tmp_path):
    from display.tournament import read_form, rows_of
    from referee.tournament.entries import entries_of

    path = xlsx(tmp_path, TEAMS[:1] + TEAMS[5:] + [("体育部", "", "3", "何刚、高华")])
    again = entries_of(json.loads(json.dumps(rows_of(read_form(path.name, path.read_bytes())))))  # as the console stores it
    assert [e.rows for e in again] == [(2,), (3,), (4,), (5,), (6,), (7,), (8,)]
    with pytest.raises(TournamentError, match="第 6 行（e05）、第 7 行（e06）、第 8 行（e07）"):
        TournamentStore(tmp_path / "c.db").new("pair-swiss", again)


def test_the_console_refuses_a_tournament_db_that_is_not_one_before_it_starts(tmp_path, capsys, monkeypatch):
    from bus.credentials import write_credentials

    files = not_tournaments(tmp_path)
    write_credentials(tmp_path / "credentials", {"scoreboard": "pw-scoreboard", "console": "pw-console"})
    monkeypatch.delenv("CARDTABLE_BROKER", raising=False)
    before = snapshot(tmp_path)
    for name, what in files.items():
        argv = ["display", "serve", "--db", str(tmp_path / "console.db"), "--broker", "mqtt://127.0.0.1:1",
                "--credentials", str(tmp_path / "credentials"), "--tournament-db", str(tmp_path / name)]
        assert main(argv) == 2
        assert f"{tmp_path / name} 不是赛事文件（{what}），未作任何改动" in capsys.readouterr().err
        assert main(["--lang", "en", *argv]) == 2
        assert "is not a tournament file" in capsys.readouterr().err
    assert snapshot(tmp_path) == before  # nor was the console's own file made
