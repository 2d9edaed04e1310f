"""What a hostile user in the hall tried on the console (the s37 attacker audit), against the app served by uvicorn on a
real mosquitto: each address is the one a proxy on the same machine names (``X-Forwarded-For``, as uvicorn takes it).

- A login's work tells no name that exists from one that does not (counted, not timed: timing belongs in bench/).
- A stranger failing from many addresses cannot lock a user out of a device they logged in from; elsewhere the
  refusal says how long and what to do, and an organiser lifts it (``cardtable display user --unlock``).
- A login can be taken back: ``--passwd`` and ``--remove`` end the user's sessions at once.
- Free text a person reads (a tournament's name, a reason, an upload's file name, a user's name at the command line)
  holding a control character or a right-to-left override is refused in words, Chinese first, and changes nothing.
- No refusal is in English only, nor names a path of the server's.

These are the console's own rules, not a rulebook's: no seed article speaks of logins or of text."""

from __future__ import annotations

import csv
import hashlib
import io

import httpx
import pytest
from kit import ORGANISER, REFEREE, served

from cardtable import cli
from display.store import LOCK_AFTER, Store
from referee.tournament import Entry, TournamentStore
from referee.tournament.entries import TextError

TABLES = ["a1"]
EN = {"Accept-Language": "en"}


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("attacks")
    return tmp / "console.db", tmp / "hall.db"


@pytest.fixture(scope="module")
def server(broker, paths):
    with served(broker, *paths) as s:
        yield s


def from_(server, address: str = "127.0.0.1") -> httpx.Client:
    """A browser on the console's page at ``address``."""
    return httpx.Client(base_url=server.url, timeout=30, headers={"Origin": server.url, "X-Forwarded-For": address})


def log_in(client: httpx.Client, who) -> httpx.Response:
    return client.post("/api/login", json={"user": who[0], "password": who[1]})


def user_cli(db, *args: str) -> int:
    return cli.main(["display", "user", "--db", str(db), *args])


# ---------------------------------------------------------------- logins


def test_an_unknown_name_costs_the_same_password_check_as_a_known_one(monkeypatch):
    """An unknown name was hashed and then checked (two scrypt runs, ~80 ms against ~40 ms): one failed try told a
    name that exists. Both now run one check of the same cost."""
    store = Store.open(":memory:")
    store.add_user(*REFEREE, "referee", now=0.0)
    runs: list[dict] = []
    real = hashlib.scrypt
    monkeypatch.setattr(hashlib, "scrypt", lambda *a, **k: runs.append(k) or real(*a, **k))
    assert store.check_password(REFEREE[0], "wrong-guess") is None
    known, runs[:] = list(runs), []
    assert store.check_password("no-such-name", "wrong-guess") is None
    assert len(runs) == len(known) == 1
    assert {k: v for k, v in runs[0].items() if k != "salt"} == {k: v for k, v in known[0].items() if k != "salt"}


def test_a_stranger_failing_from_many_addresses_cannot_lock_the_referee_out(server, paths, capsys):
    """Fifty wrong guesses for li from ten addresses locked li out everywhere for 20 minutes, the real referee too.
    The name's lock now holds no address li has logged in from; a new one is told how long and what to do, and an
    organiser lifts the lock from the server."""
    with from_(server, "10.0.1.1") as own:  # the referee's own device, logged in before the attack
        assert log_in(own, REFEREE).status_code == 200
    for i in range(LOCK_AFTER["name"] // LOCK_AFTER["pair"]):  # under each address's own lock
        with from_(server, f"10.0.2.{i}") as c:
            assert {log_in(c, (REFEREE[0], f"guess-{i}-{j}")).status_code for j in range(LOCK_AFTER["pair"] - 1)} == {401}
            log_in(c, (REFEREE[0], f"guess-{i}-last"))
    with from_(server, "10.0.3.1") as new:
        refused = log_in(new, REFEREE)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 60
        said = refused.json()["detail"]
        assert said.startswith("登录失败次数过多：请 20 分钟后再试") and "--unlock" in said
        english = new.post("/api/login", json={"user": REFEREE[0], "password": REFEREE[1]}, headers=EN).json()["detail"]
        assert english.startswith("too many failed logins: try again in 20 min") and "--unlock" in english
    with from_(server, "10.0.1.1") as own:
        assert log_in(own, REFEREE).status_code == 200
    assert user_cli(paths[0], "--user", REFEREE[0], "--unlock") == 0
    assert capsys.readouterr().out.strip() == f"已解除 {REFEREE[0]} 的登录锁定（已清除 {LOCK_AFTER['name']} 次登录失败记录）"
    with from_(server, "10.0.3.1") as new:
        assert log_in(new, REFEREE).status_code == 200


def test_a_login_is_taken_back_at_once_by_a_new_password_or_removing_the_user(server, paths, monkeypatch, capsys):
    """A password seen over a shoulder, a phone left logged in: nothing ended a session but its 12 hours."""
    db = paths[0]
    monkeypatch.setenv("CARDTABLE_PASSWORD", "first-pass")
    assert user_cli(db, "--user", "zhao", "--role", "referee") == 0
    with from_(server, "10.0.5.1") as phone, from_(server, "10.0.5.2") as laptop:
        assert log_in(phone, ("zhao", "first-pass")).status_code == 200
        token = log_in(laptop, ("zhao", "first-pass")).cookies["cardtable_session"]
        monkeypatch.setenv("CARDTABLE_PASSWORD", "second-pass")
        assert user_cli(db, "--user", "zhao", "--passwd") == 0
        assert capsys.readouterr().out.strip().endswith("已为 zhao 设置新密码，其已登录的会话已全部退出")
        assert phone.get("/api/me").status_code == 401
        assert laptop.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
        assert log_in(phone, ("zhao", "first-pass")).status_code == 401
        assert log_in(phone, ("zhao", "second-pass")).status_code == 200
        assert user_cli(db, "--user", "zhao", "--remove", "--lang", "en") == 0
        assert capsys.readouterr().out.strip() == "removed the user zhao; their sessions are ended (their lines in the audit log stay)"
        assert phone.get("/api/me").status_code == 401
        assert log_in(phone, ("zhao", "second-pass")).status_code == 401
    assert user_cli(db, "--user", "zhao", "--remove") == 2  # refused: nothing changed, as every refusal
    assert capsys.readouterr().err.strip() == f"cardtable display user：错误：没有用户“zhao”；用户有 {REFEREE[0]}、{ORGANISER[0]}"


def test_a_user_name_with_a_terminals_escape_is_refused_at_the_command_line(paths, monkeypatch, capsys):
    """``--user $'wang\\u202e\\x1b[2J'`` was stored, and its escape echoed to the organiser's terminal."""
    monkeypatch.setenv("CARDTABLE_PASSWORD", "some-pass")
    assert user_cli(paths[0], "--user", "wang\u202e\x1b[2J", "--role", "organiser") == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and err.strip() == (
        "cardtable display user：错误：用户名“wang\\u202e\\x1b[2J”含有控制字符（例如换行、响铃、终端转义），什么也没有改动；请删去后再试")
    store = Store.open(paths[0])
    assert all("\x1b" not in name for name, _ in store.users())
    store.close()


# ---------------------------------------------------------------- free text


def test_no_tournament_yet_is_said_without_the_servers_path(server, paths):
    with from_(server) as c:
        assert log_in(c, ORGANISER).status_code == 200
        for lang, said in ((None, "还没有建立赛事"), ("en", "no tournament made yet")):
            r = c.post("/api/console/tournament/rounds", headers={"Accept-Language": lang} if lang else {})
            assert (r.status_code, r.json()["detail"]) == (404, said)
            assert str(paths[1]) not in r.text


def form(rows) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows([["单位", "对", "选手"], *rows])
    return out.getvalue().encode()


FORM = form([[u, p, f"{u}{p}甲、{u}{p}乙"] for u in ("数学系", "物理系", "化学系") for p in (1, 2)])


def test_an_upload_whose_file_name_a_reader_would_not_see_as_written_is_refused_in_words(server):
    """The file's name went into the audit log as sent: a right-to-left override, 2,000 characters; 20,000 got
    Starlette's English "Invalid multipart data."; now the upload not read, in the reader's language alone."""
    with from_(server) as c:
        assert log_in(c, ORGANISER).status_code == 200
        before = c.get("/api/console/entries").json()
        for name, status, said in (
                ("报名\u202exsl.csv", 422, "文件名“报名\\u202exsl.csv”含有看不见的格式字符（例如零宽空格、从右到左改写），会打乱它前后的文字，什么也没有改动；请删去后再试"),
                ("报" * 300 + ".csv", 422, "文件名有 304 个字，最多 255 个字：请改短后再导入"),
                ("报" * 30000 + ".csv", 400, "无法读取上传的内容，什么也没有改动；文件名太长（数千个字）时会这样：请改短文件名后再试")):
            r = c.post("/api/console/entries/import", files={"file": (name, FORM, "text/csv")})
            assert (r.status_code, r.json()["detail"]) == (status, said)
        r = c.post("/api/console/entries/import", files={"file": ("报" * 30000 + ".csv", FORM, "text/csv")}, headers=EN)
        assert r.json()["detail"] == ("the upload could not be read, nothing was changed; a file name thousands of characters "
                                      "long does this: shorten it and try again")
        assert c.get("/api/console/entries").json() == before
        assert not [e for e in c.get("/api/console/audit").json() if e["action"] == "import_entries"]
        assert c.post("/api/console/entries/import", files={"file": ("报名表.csv", FORM, "text/csv")}).status_code == 200


def test_a_body_nested_too_deep_and_an_unknown_address_are_said_in_the_readers_language(server):
    """JSON nested 5,000 or 100,000 levels deep was answered 无法读取请求的内容（`There was an error parsing the body`）
    with advice to shorten an uploaded file's name, which no JSON body has; an unknown API address and a method an
    address does not take were answered in English ({"detail":"Not Found"}). Each is now said in the reader's language
    alone, as what it is, and nothing is changed."""
    with from_(server) as c:
        assert log_in(c, ORGANISER).status_code == 200
        before = c.get("/api/console/audit").json()
        for depth in (5_000, 100_000):
            body = "[" * depth + "]" * depth
            for lang, said in ((None, "请求的内容无法按 JSON 读取（例如嵌套了几千层），什么也没有改动"),
                               ("en", "the request's content could not be read as JSON (nested thousands of levels deep, "
                                      "for one), nothing was changed")):
                r = c.post("/api/console/tournament/forfeits", content=body,
                           headers={"Content-Type": "application/json", **({"Accept-Language": lang} if lang else {})})
                assert (r.status_code, r.json()["detail"]) == (400, said), depth
        for lang, nothing, method in ((None, "这个地址上什么也没有：请检查是否写错", "这个地址不接受 DELETE 请求"),
                                      ("en", "there is nothing at this address: check it for a typo",
                                       "this address does not take a DELETE request")):
            headers = {"Accept-Language": lang} if lang else {}
            for r, status, said in ((c.get("/api/console/nothing", headers=headers), 404, nothing),
                                    (c.post("/api/console/nothing", json={}, headers=headers), 404, nothing),
                                    (c.delete("/api/console/audit", headers=headers), 405, method)):
                assert (r.status_code, r.headers["content-type"], r.json()["detail"]) == (status, "application/json", said)
        assert c.get("/api/console/audit").json() == before

def test_a_tournament_name_with_a_right_to_left_override_is_refused_and_nothing_made(server):
    """The name '赛季秋\u202e' turned the big screen's heading around, the system's name with it; an ESC in it reached the
    terminal of whoever ran ``tournament standings``."""
    with from_(server) as c:
        assert log_in(c, ORGANISER).status_code == 200
        assert c.post("/api/console/entries/import", files={"file": ("报名表.csv", FORM, "text/csv")}).status_code == 200
        for name, zh, en in (("秋\u202e季", "含有看不见的格式字符（例如零宽空格、从右到左改写），会打乱它前后的文字",
                              "holds an invisible format character (a zero-width space, a right-to-left override)"),
                             ("秋\x1b[31m季", "含有控制字符（例如换行、响铃、终端转义）", "holds a control character")):
            body = {"system": "pair-swiss", "name": name}
            assert c.post("/api/console/tournament", json=body).json()["detail"] == f"“名称”：{zh}"
            assert c.post("/api/console/tournament", json=body, headers=EN).json()["detail"].startswith(f"“name”: {en}")
            assert c.post("/api/console/tournament", json={**body, "name": "秋季赛", "seed": name}).status_code == 422
        assert c.get("/api/console/tournament").status_code == 404
        for path, body in (("results", {"round": 1, "table": "t01", "result": {"winner": 0}, "correct": True,
                                        "reason": "\x1b[31m红字\r假行\u202e"}),
                           ("forfeits", {"round": 1, "table": "t01", "entries": ["e01"], "reason": "弃\u202e权"}),
                           ("withdrawals", {"unit": "数学系", "reason": "退\x07赛"})):
            r = c.post(f"/api/console/tournament/{path}", json=body)
            assert r.status_code == 422 and r.json()["detail"].startswith("“原因”："), (path, r.text)
        made = c.post("/api/console/tournament", json={"system": "pair-swiss", "name": "秋季赛", "rounds": 1})
        assert made.status_code == 201, made.text


def test_the_tournaments_own_store_refuses_such_text_too(tmp_path):
    """``cardtable tournament new --name`` and ``result --reason`` reach the store without the console's schemas."""
    store = TournamentStore(tmp_path / "t.db")
    entries = [Entry(f"e{i}", f"队{i}", f"单位{i // 2}", f"单位{i // 2}", (f"甲{i}", f"乙{i}")) for i in range(4)]
    with pytest.raises(TextError) as refused:
        store.new("pair-swiss", entries, name="a\x1bb")
    assert str(refused.value) == "赛事名称“a\\x1bb”含有控制字符（例如换行、响铃、终端转义），什么也没有改动；请删去后再试"
    assert store.last_seq() == 0
    store.new("pair-swiss", entries, name="秋季赛", options={"rounds": 2})
    store.pair_next_round()
    table = store.round_view(1)["tables"][0]["table"]
    store.record_result(1, table, {"winner": 0, "levels": ["A", "5"]})
    seq = store.last_seq()
    with pytest.raises(TextError, match="原因"):
        store.correct_result(1, table, {"winner": 1, "levels": ["A", "5"]}, reason="\u202e误报")
    assert store.last_seq() == seq
