"""Two `cardtable tournament new` on one new file at once (two organisers' laptops on a shared folder, a command typed
twice): the second never removes, nor writes into, the file the first made. A refused `new` used to remove the file
whenever it had found none at its start: the other's file, made meanwhile (empty while SQLite was creating it, read
as "not a tournament"), went with it, after the other command had said it was made."""

from __future__ import annotations

import pytest

from cardtable.cli import main
from referee.tournament import Entry, TournamentStore
from referee.tournament import store as store_module

FORM = "单位,对,选手\n" + "".join(f"{u},{p},{u}甲{p}、{u}乙{p}\n" for u in ("机电", "外语", "化工", "体育") for p in (1, 2))


def new(tmp_path, db, system="pair-swiss"):
    form = tmp_path / "form.csv"
    form.write_text(FORM, encoding="utf-8")
    return ["tournament", "new", "--system", system, "--entries", str(form), "--db", str(db), "--rounds", "2"]


def test_the_other_commands_file_appearing_as_this_one_starts_is_left_as_it_is(tmp_path, monkeypatch, capsys):
    db = tmp_path / "hall.db"
    check = store_module.check_file

    def another_made_it(path):  # the other `new` has just created the file (empty, SQLite about to write it)
        if path == db and not db.exists():
            db.write_bytes(b"")
        return check(path)

    monkeypatch.setattr(store_module, "check_file", another_made_it)
    with pytest.raises(SystemExit):
        main(new(tmp_path, db))
    assert "不是赛事文件" in capsys.readouterr().err
    assert db.exists(), "the other command's file was removed"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_the_other_commands_tournament_made_meanwhile_is_kept_and_this_one_said_refused(tmp_path, monkeypatch, capsys):
    db = tmp_path / "hall.db"
    made = store_module.TournamentStore.new
    other: dict = {}

    def meanwhile(self, *args, **kwargs):  # while this command registers its field, the other one makes the file
        if not db.exists():
            first = TournamentStore(db)
            first.new("individual-tables", [Entry(f"p{i}", f"选手{i}", "机电", "机电", (f"选手{i}",)) for i in range(4)],
                      seed=1, by="李老师")
            first.close()
            other["bytes"] = db.read_bytes()
        return made(self, *args, **kwargs)

    monkeypatch.setattr(store_module.TournamentStore, "new", meanwhile)
    with pytest.raises(SystemExit):
        main(new(tmp_path, db))
    assert "hall.db 中已有赛事" in capsys.readouterr().err
    assert db.read_bytes() == other["bytes"] and TournamentStore(db).tournament.system == "individual-tables"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # its own file beside, removed
    monkeypatch.undo()
    db2 = tmp_path / "hall2.db"
    assert main(new(tmp_path, db2)) == 0  # alone, as ever: the file made, nothing beside it
    opened = TournamentStore(db2)
    assert opened.tournament.system == "pair-swiss"
    opened.close()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("hall2") or p.name.startswith(".")) == ["hall2.db"]
