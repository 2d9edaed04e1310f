"""The tables' timelines kept across a restart (``display/kept.py``): the broker keeps no events, so a display killed
(SIGKILL) lost every table's hand. A real ``display serve`` on a real mosquitto, a real table service, Chromium; a
damaged or newer file set aside in words, never a display that cannot start; the file bounded by what the pages show."""

from __future__ import annotations

import base64
import json
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing, contextmanager
from pathlib import Path

import httpx
import pytest
from kit import ARGS, CHROMIUM, ORGANISER, LiveTable, Server, make_db, settings, state

from bus.broker import free_port
from bus.protocol import encode, schema, topic
from display.app import create_app
from display.kept import SNAPSHOT_AFTER, VERSION, kept_path, open_kept
from display.view import VIOLATIONS_KEPT

ROOT = Path(__file__).resolve().parents[2]
MISSED = "显示服务停止期间，本桌的事件没有收到：这里缺了一段"
VIOLATION = schema("violations")["examples"][0]
FRAME = schema("frames")["examples"][0]


@contextmanager
def serving(broker, tmp_path: Path, until, files_up_to: int | None = None):
    """``display serve`` on ``tmp_path``'s console file, once it answers: the process (its output in ``out.log``) and its
    address. ``files_up_to``: no file it writes grows past so many bytes (``RLIMIT_FSIZE``, a disk full), until the
    test raises the limit."""
    port = free_port()
    credentials = broker.write_credentials(tmp_path / "credentials", ["scoreboard", "console"])
    log = (tmp_path / "out.log").open("ab")
    proc = subprocess.Popen([sys.executable, "-m", "cardtable", "display", "serve", "--db", str(tmp_path / "console.db"),
                             "--port", str(port), "--broker", broker.address, "--credentials", str(credentials)],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, preexec_fn=files_up_to and (
                                lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (files_up_to, resource.RLIM_INFINITY))))
    url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert proc.poll() is None, (tmp_path / "out.log").read_text()
        try:
            return httpx.get(url + "/api/hall", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        assert until(up, 30)
        yield proc, url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        log.close()


def timeline(url: str, table: str) -> list[dict]:
    return httpx.get(f"{url}/api/tables/{table}", timeout=10).json()["timeline"]


def frame(url: str, table: str, frame: str) -> bytes | None:
    """The JPEG of a frame the console keeps, as a referee sees it; None when it has none of that id."""
    with httpx.Client(base_url=url, headers={"Origin": url}, timeout=10) as client:
        assert client.post("/api/login", json={"user": ORGANISER[0], "password": ORGANISER[1]}).status_code == 200
        answer = client.get(f"/api/console/frames/{table}/{frame}")
        return answer.content if answer.status_code == 200 else None


def caught_up(url: str, table: LiveTable) -> bool:
    """Whether the display has heard all the table said: its state of the table's last entry (sent after its events)."""
    answer = httpx.get(f"{url}/api/tables/{table.name}", timeout=10)
    return answer.status_code == 200 and (answer.json()["state"] or {}).get("seq") == table.service.seq


@pytest.mark.browser
def test_a_display_killed_and_started_again_shows_the_same_timeline(broker, tmp_path, until):
    """A hand under way, the display killed (SIGKILL) and started again: the table's page shows the same timeline, line
    for line, and nothing missing. Killed again while the table went on: its broker session (``display.feed``) kept
    what the table said meanwhile, and the page shows it. Stopped (its session ended) while the table went on: the page
    says where events were missed, after a reload too, and goes on from there. A camera's frame kept for the console (its flags)
    is back too."""
    from playwright.sync_api import sync_playwright

    make_db(tmp_path / "console.db")
    table = LiveTable(broker, "t1", tmp_path / "t1.db")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = browser.new_context(locale="zh-CN").new_page()

        def lines() -> list[str]:
            pg.goto(url + "/tables/t1")
            pg.wait_for_selector("body[data-live='1']", state="attached")
            pg.wait_for_selector("#timeline li", state="attached")
            return pg.locator("#timeline li").all_inner_texts()

        with serving(broker, tmp_path, until) as (proc, url):
            table.to_first_lead()
            camera = table.conns["observed"]
            camera.publish(topic("t1", "frames"), encode("frames", FRAME | {"at": time.time()}), qos=1)
            assert camera.flush(10) and until(lambda: frame(url, "t1", FRAME["id"]), 30)
            assert until(lambda: caught_up(url, table), 30)
            before = timeline(url, "t1")
            shown = lines()
            assert len(shown) == len(before) and MISSED not in shown
        with serving(broker, tmp_path, until) as (proc, url):  # killed (SIGKILL) and started again
            assert until(lambda: caught_up(url, table), 30) and timeline(url, "t1") == before  # nothing missed: no gap
            assert lines() == shown
            assert frame(url, "t1", FRAME["id"]) == base64.b64decode(FRAME["jpeg"])
        table.send("board/in", seat="S", button="referee")  # the table goes on while the display is down (killed)
        with serving(broker, tmp_path, until) as (proc, url):  # its broker session kept what the table said meanwhile
            assert until(lambda: caught_up(url, table), 30) and timeline(url, "t1")[:-1] == before
            before, shown = timeline(url, "t1"), lines()
            assert before[-1]["kind"] != "missed" and MISSED not in shown
            proc.send_signal(signal.SIGTERM)  # stopped: it ends its session, the broker keeps nothing for it
            assert proc.wait(30) == 0
        table.send("commands", command="last_hand")  # the table goes on while the display is down
        with serving(broker, tmp_path, until) as (proc, url):
            assert until(lambda: caught_up(url, table), 30) and timeline(url, "t1")[-1]["kind"] == "missed"
            assert timeline(url, "t1")[:-1] == before
            now = lines()
            assert now[0].endswith(MISSED) and now[1:] == shown  # newest first: the gap above what came before it
            table.send("board/in", seat="E", button="referee")
            assert until(lambda: caught_up(url, table), 30) and len(timeline(url, "t1")) > len(before) + 1
            after = lines()  # a reload: still said, where it was
            assert after[-len(shown) - 1:] == [now[0], *shown] and len(after) > len(now)
        browser.close()
    table.close()


def test_a_damaged_timelines_file_is_set_aside_in_words_and_the_display_starts(broker, table, tmp_path, until):
    """A timelines file that is not SQLite (a disk's damage, a copy cut short): the display starts on a new one and
    says which file was set aside where, its bytes kept; the next start finds the new file good (no loop)."""
    make_db(tmp_path / "console.db")
    path = kept_path(tmp_path / "console.db")
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 3000)
    with serving(broker, tmp_path, until) as (proc, url):
        table("t2").publish("events", {"v": 1, "seq": 5, "kind": "round_started", "at": time.time(), "data": {}})
        table("t2").publish("state", state(seq=5, at=time.time()))
        assert until(lambda: timeline(url, "t2") if httpx.get(f"{url}/api/tables/t2").status_code == 200 else [], 30)
    said = (tmp_path / "out.log").read_text()
    aside = next(tmp_path.glob("console.db.timelines.set-aside-*"))
    assert f"显示服务保存的时间线文件 {path} 读不回来（文件已损坏：" in said and f"已移到 {aside}；换用新文件" in said
    assert aside.read_bytes() == b"SQLite format 3\x00" + b"\xff" * 3000
    with serving(broker, tmp_path, until) as (proc, url):
        assert until(lambda: httpx.get(f"{url}/api/tables/t2").status_code == 200, 30)
        assert [e["seq"] for e in timeline(url, "t2")] == [5]
    assert len(list(tmp_path.glob("console.db.timelines.set-aside-*"))) == 1 and "读不回来" not in \
        (tmp_path / "out.log").read_text().replace(said, "", 1)


@pytest.mark.parametrize("damage, words", [
    ("PRAGMA user_version = 99", f"它是更新版本的 `cardtable` 写的（格式第 99 版，本机的只认到第 {VERSION} 版）"),
    ("INSERT INTO since (tbl, leaf, payload) VALUES ('t1', 'events', '{\"seq\": \"7\"}')", "其中的记录与写入时不同"),
    ("CREATE TABLE actions (seq INTEGER)", "它不是时间线文件（里面有别的表：actions、frames、since、views）"),
])
def test_a_newer_or_changed_timelines_file_is_set_aside_in_words(tmp_path, caplog, damage, words):
    """A file a newer ``cardtable`` wrote (a display rolled back), a row not as written, another program's tables: set
    aside in words, never read as the hall's timelines nor a display that cannot start; the file's bytes are kept."""
    path = tmp_path / "console.db.timelines"
    kept, _ = open_kept(path)
    kept.close()
    with closing(sqlite3.connect(path)) as db:
        db.execute(damage)
        db.commit()
    kept, read = open_kept(path)
    assert read == ({}, {}) and kept is not None
    kept.close()
    assert words in caplog.text and "已移到" in caplog.text
    assert len(list(tmp_path.glob("console.db.timelines.set-aside-*"))) == 1


def test_the_timelines_file_keeps_what_the_pages_show_and_no_more(broker, table, tmp_path, until):
    """Hands of many plays, a stuck button's refusals by the hundred, violations: the file holds one snapshot and at
    most ``SNAPSHOT_AFTER`` rows per table, the hand in play and the one before, and reads back as the display shows
    the table."""
    path = tmp_path / "timelines"
    t = table("t2")
    seq = 0

    def event(kind: str, **data) -> None:
        nonlocal seq
        seq += 1
        t.publish("events", {"v": 1, "seq": seq, "kind": kind, "at": time.time(), "data": data})

    with Server(create_app(settings(broker, make_db(tmp_path / "c.db"), timelines=path))) as server:
        event("round_started")
        for hand in (1, 2, 3):
            event("hand_started", hand=hand, level="2", dealer="S")
            for trick in range(1, 101):
                event("play_accepted", hand=hand, trick=trick, seat="SENW"[trick % 4], cards=["S9"])
        for n in range(300):  # a stuck button: one line with a count
            event("rejected", topic="board/in", id=f"b-{n}", reason="S: button ready means nothing in phase playing")
        for n in range(2 * VIOLATIONS_KEPT):
            t.publish("violations", VIOLATION | {"seq": seq, "at": time.time(), "flag": f"v{n}"})
        t.publish("state", state(seq=seq, at=time.time()))
        shown = lambda: httpx.get(f"{server.url}/api/tables/t2", timeout=10).json()  # noqa: E731
        assert until(lambda: (shown()["state"] or {}).get("seq") == seq and len(shown()["violations"]) == VIOLATIONS_KEPT, 30)
        with closing(sqlite3.connect(path)) as db:
            rows = db.execute("SELECT COUNT(*) FROM since WHERE tbl = 't2'").fetchone()[0]
            snapshot = json.loads(db.execute("SELECT kept FROM views WHERE tbl = 't2'").fetchone()[0])
        assert rows <= SNAPSHOT_AFTER
        assert {e["data"].get("hand") for e in snapshot["timeline"] if e["kind"] != "rejected"} <= {2, 3}
        kept, (views, _) = open_kept(path)
        kept.close()
        now = shown()
        assert [e["seq"] for e in views["t2"].timeline] == [e["seq"] for e in now["timeline"]]
        assert list(views["t2"].timeline) == now["timeline"] and list(views["t2"].violations) == now["violations"]
        assert views["t2"].timeline[0]["data"]["hand"] == 2 and now["timeline"][-1]["repeats"] == 300


def test_a_write_that_fails_is_said_and_made_whole_once_it_can_write(broker, table, tmp_path, until):
    """The disk full under the timelines file (no file may grow: ``RLIMIT_FSIZE``): the pages go on, the failure is said
    once in the display's log; once it can write again that is said, and what it could not write is written whole (a
    snapshot): killed then, the display shows the whole timeline again."""
    make_db(tmp_path / "console.db")
    t, seq = table("t2"), 0

    def event(kind: str, **data) -> None:
        nonlocal seq
        seq += 1
        t.publish("events", {"v": 1, "seq": seq, "kind": kind, "at": time.time(), "data": data})

    with serving(broker, tmp_path, until, files_up_to=(tmp_path / "console.db").stat().st_size + 400_000) as (proc, url):
        event("round_started")
        event("hand_started", hand=1, level="2", dealer="S")
        written = lambda: (tmp_path / "out.log").read_text()  # noqa: E731
        for trick in range(1, 1000):
            event("play_accepted", hand=1, trick=trick, seat="SENW"[trick % 4], cards=["S9"])
            if trick % 50 == 0 and "写不进时间线文件" in written():
                break
        assert until(lambda: len(timeline(url, "t2")) == seq, 30)
        assert written().count("写不进时间线文件") == 1 and "又能写入了" not in written()
        assert "（读写出错（磁盘或 U 盘可能有故障））" in written()  # SQLite's error, in words (a file that cannot grow)
        resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        event("play_accepted", hand=1, trick=1000, seat="S", cards=["S9"])
        assert until(lambda: "时间线文件" in written() and "又能写入了，各桌的时间线已补上" in written(), 30)
        t.publish("state", state(seq=seq, at=time.time()))
        assert until(lambda: len(timeline(url, "t2")) == seq, 30)
        before = timeline(url, "t2")
    with serving(broker, tmp_path, until) as (proc, url):
        assert until(lambda: (httpx.get(f"{url}/api/tables/t2").json().get("state") or {}).get("seq") == seq, 30)
        assert timeline(url, "t2") == before and len(before) == seq
