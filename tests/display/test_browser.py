"""The scoreboard and the console in the system Chromium (Playwright), against the app served by
uvicorn and a real mosquitto: plays, results, a table going offline, the language switch, the
console's login and a correction the real table service recomputes, screenshots at both sizes."""

from __future__ import annotations

import base64
import json
import sqlite3
import time
from contextlib import closing

import cv2
import numpy as np
import pytest
from kit import (ORGANISER, OWN_USERS, LiveTable, Relay, Server, console_of, damaged_tournament, login, make_db, round_, served,
                 shot, small_tournament, standings, state, until)

from bus.protocol import encode, schema, topic
from display.app import Settings, create_app
from referee.tournament import TournamentStore
from referee.tournament.service import TournamentService

pytestmark = pytest.mark.browser
TABLES = ["b1", "b2", "b3", "b4", "b5", "b6"]
WAIT_MS = 30_000  # the longest a page may take to show what the broker delivered (a loaded machine)


def test_a_play_reaches_the_tile(page, table):
    """How soon: bench/bench_display.py measures it (a timed test fails on a loaded machine, not on a slow page)."""
    b1 = table("b1")
    b1.publish("status", {"v": 1, "status": "online", "at": time.time()})
    b1.publish("state", state(seq=10))
    pg = page("/")
    pg.wait_for_selector("#tile-b1[data-seq='10']")
    assert pg.inner_text("#tile-b1 .seat.N .who") == "北 张伟"
    assert pg.locator("#tile-b1 .seat.E svg.card[data-card=S9]").count() == 2
    trick = {"leader": "S", "plays": [{"seat": "S", "cards": ["S5", "S5"]}, {"seat": "E", "cards": ["S9", "S9"]},
                                      {"seat": "N", "cards": ["SA", "SK"]}]}
    b1.publish("state", state(seq=11, current_trick=trick, turn="W", cards={"S": 26, "E": 26, "N": 26, "W": 28}))
    pg.wait_for_selector("#tile-b1 .seat.N svg.card[data-card=SA]", timeout=WAIT_MS)
    assert pg.inner_text("#tile-b1 .seat.N .count") == "26 张"
    assert "turn" in pg.get_attribute("#tile-b1 .seat.W", "class")


def test_the_table_page_shows_the_hand_timeline(page, table):
    b1 = table("b1")
    b1.publish("state", state(seq=20))
    pg = page("/tables/b1")
    b1.publish("events", {"v": 1, "seq": 21, "kind": "hand_started", "at": time.time(), "data": {"hand": 3, "level": "7", "dealer": "S"}})
    b1.publish("events", {"v": 1, "seq": 22, "kind": "play_accepted", "at": time.time(),
                          "data": {"hand": 3, "trick": 1, "seat": "S", "cards": ["BJ", "BJ"]}})
    pg.wait_for_selector("#timeline li[data-seq='22'] svg.card[data-card=BJ]", timeout=WAIT_MS)
    assert "第 3 盘第 1 圈：南 王芳 出 大王 大王" in pg.inner_text("#timeline li[data-seq='22']")  # said by the server
    assert "第 3 盘开始摸牌，打 7，庄家 南 王芳" in pg.inner_text("#timeline li[data-seq='21']")
    b1.publish("violations", {"v": 1, "seq": 23, "flag": "v1", "at": time.time(), "seat": "W", "kind": "overtime",
                              "rule": {"book": "classic-3deck", "article": "二十三"}, "penalty": {"warning": True, "text": "第一次超时：警告"},
                              "evidence": {"seconds": 12.4, "limit": 10}, "status": "confirmed"})
    pg.wait_for_selector("#allviolations li[data-flag=v1]", timeout=WAIT_MS)
    assert pg.inner_text("#tile-b1 ul.viol") == "西 刘洋 超时（已确认）：警告"
    assert pg.inner_text("#allviolations li[data-flag=v1]") == "西 刘洋 超时（已确认）：警告；用时 12.4 秒，限时 10 秒 依据规程 二十三"
    b1.publish("violations", {"v": 1, "seq": 24, "flag": "v2", "at": time.time(), "seat": "E", "kind": "revoke",
                              "rule": {"book": "classic-3deck", "article": "十九"}, "penalty": {"text": "E did not follow spades"},
                              "evidence": {"hand": 3, "trick": 1, "cards": ["H2"]}, "status": "confirmed"})
    pg.wait_for_selector("#allviolations li[data-flag=v2]", timeout=WAIT_MS)
    # the tile: each violation's brief line, newest first; the page's list: the whole sentence (an engine's English
    # reason is not shown on a Chinese page: the rulebook's penalty instead)
    assert pg.inner_text("#tile-b1 ul.viol").split("\n") == ["东 李强 藏张（已确认）：按规程处罚", "西 刘洋 超时（已确认）：警告"]
    assert pg.inner_text("#allviolations li[data-flag=v2]") == "东 李强 藏张（已确认），第 3 盘第 1 圈：按规程处罚；牌 ♥2 依据规程 十九"


def test_a_timeline_keeps_each_event_once_and_both_of_one_entry(page, table):
    """classic-3deck 二 迟到判罚: 16－20分钟，首盘自动放弃，对手自动升级 -- both sides that late: the one entry that
    starts the round says ``hand_forfeited`` twice, one per side, and the timeline shows both (it showed one). A
    restarted service publishes the entry's events again (QoS 1): shown once, and the round is not begun anew. Both
    ways a page gets events: the server's timeline when it opens, and each event as it comes."""
    b5 = table("b5")
    b5.publish("state", state(seq=40))
    now = time.time()
    started = {"v": 1, "seq": 41, "kind": "round_started", "at": now, "data": {}}
    late = [{"v": 1, "seq": 42, "kind": "hand_forfeited", "at": now,
             "data": {"hand": 1, "team": team, "by": "late", "levels": 1}} for team in ("SN", "EW")]
    for event in (started, *late, started, *late):  # the second time: published again after a restart
        b5.publish("events", event)
    pg = page("/tables/b5")
    pg.wait_for_selector("#timeline li[data-seq='42']", timeout=WAIT_MS)
    for event in (started, *late):  # again, to the open page
        b5.publish("events", event)
    b5.publish("events", {"v": 1, "seq": 43, "kind": "hand_started", "at": now, "data": {"hand": 2, "level": "3", "dealer": "E"}})
    pg.wait_for_selector("#timeline li[data-seq='43']", timeout=WAIT_MS)
    assert pg.locator("#timeline li[data-seq='41']").count() == 1
    assert pg.locator("#timeline li[data-seq='42'] .said").all_inner_texts() == [  # the newest first
        "第 1 盘 东西 迟到弃权，对方升 1 级", "第 1 盘 南北 迟到弃权，对方升 1 级"]


def test_a_stuck_button_is_one_line_with_a_count_and_the_hand_stays(page, table):
    """A stuck button at the table: the service refuses its presses ten a second (each in words, each its own entry),
    and a timeline that kept each one pushed the hand's plays out of the console within two minutes (1,200 kept): a
    play disputed then could no longer be corrected from it. The same refusal one after another is one line with a
    count, on the server's timeline (a page that opens) and on an open page; published again, it is not counted again."""
    b6 = table("b6")
    b6.publish("state", state(seq=60))
    now = time.time()
    b6.publish("events", {"v": 1, "seq": 61, "kind": "play_accepted", "at": now,
                          "data": {"hand": 2, "trick": 1, "seat": "S", "cards": ["BJ", "BJ"]}})
    why = {"key": "table.button_meaningless", "values": {"seat": "E", "button": "ready", "phase": "playing"}}

    def refused(seq: int) -> dict:
        return {"v": 1, "seq": seq, "kind": "rejected", "at": now,
                "data": {"topic": "board/in", "id": f"board2-1-{seq:06d}", "reason": "E: button ready means nothing in phase playing", "why": why}}

    for seq in range(62, 1562):  # 1,500 presses of a stuck button, more than a timeline keeps
        b6.publish("events", refused(seq))
    b6.publish("events", refused(100))  # one of them again (QoS 1)
    b6.publish("events", {"v": 1, "seq": 1562, "kind": "passed", "at": now, "data": {"hand": 2, "trick": 1, "seat": "E"}})
    pg = page("/tables/b6")
    pg.wait_for_selector("#timeline li[data-seq='1562']", timeout=WAIT_MS)
    for seq in range(1563, 1573):  # and on the open page
        b6.publish("events", refused(seq))
    pg.wait_for_selector("#timeline li[data-seq='1563'] .repeats", timeout=WAIT_MS)
    until(pg, "document.querySelector(\"#timeline li[data-seq='1563'] .repeats\").textContent === '×10'")
    assert pg.inner_text("#timeline li[data-seq='62'] .repeats") == "×1500"
    assert "东 李强 的“准备”键在出牌阶段没有意义" in pg.inner_text("#timeline li[data-seq='62']")
    assert pg.locator("#timeline li").count() == 4  # the play, the refusals, the pass, the refusals since
    assert "大王 大王" in pg.inner_text("#timeline li[data-seq='61']")  # the hand's play is still there


def test_standings_and_pairings_follow_the_results(page, tournament):
    entries = [{"id": "e1", "name": "数学系一队", "unit": "数学系"}, {"id": "e2", "name": "物理系", "unit": "物理系"}]
    rows = [{"rank": 1, "id": "e2", "name": "物理系", "unit": "物理系", "score": 0, "tiebreaks": [0, 0], "prize": None},
            {"rank": 2, "id": "e1", "name": "数学系一队", "unit": "数学系", "score": 0, "tiebreaks": [0, 0], "prize": None}]
    tournament.publish("autumn", "round", round_(tables=[{"table": "b1", "entries": entries, "result": None}]))
    tournament.publish("autumn", "standings", standings(rows=rows))
    pg = page("/")
    pg.wait_for_selector("#standings tr[data-entry=e2]")
    assert pg.locator("#standings thead th").all_inner_texts() == ["名次", "队", "总分", "对手分", "级差", "奖项"]
    assert "数学系一队" in pg.inner_text("#pairings tr[data-table=b1]")
    # the result comes: the tournament publishes the round and the standings again
    tournament.publish("autumn", "round", round_(tables=[{"table": "b1", "entries": entries, "result": {"points": [2, 0], "scores": [3, 1]}}]))
    rows = [{"rank": 1, "id": "e1", "name": "数学系一队", "unit": "数学系", "score": 2, "tiebreaks": [0, 2], "prize": "一等奖"},
            {"rank": 2, "id": "e2", "name": "物理系", "unit": "物理系", "score": 0, "tiebreaks": [2, -2], "prize": "二等奖"}]
    tournament.publish("autumn", "standings", standings(rows=rows))
    pg.wait_for_selector("#standings tbody tr:first-child[data-entry=e1]", timeout=WAIT_MS)
    assert pg.locator("#standings tbody tr").first.inner_text().split("\t") == ["1", "数学系一队 数学系", "2", "0", "2", "一等奖"]
    assert "prize" in pg.get_attribute("#standings tr[data-entry=e1]", "class")
    assert pg.inner_text("#pairings tr[data-table=b1] td.num") == "3 : 1"
    # places shared by three (004 附件一: 第一名积5分，第二名积3分，第三名积2分) give thirds: exact on the wire ("10/3"),
    # a mixed number on the screen (3又1/3; in English 3 1/3)
    tournament.publish("autumn", "round", round_(tables=[{"table": "b1", "entries": entries, "result": {"points": [2, 0], "scores": ["25/2", 1]}}]))
    rows[0] |= {"score": "10/3", "tiebreaks": ["-5/2", 2]}
    tournament.publish("autumn", "standings", standings(rows=rows))
    until(pg, "document.querySelector('#standings tbody tr td.score').textContent === '3又1/3'")
    assert pg.locator("#standings tbody tr").first.inner_text().split("\t") == ["1", "数学系一队 数学系", "3又1/3", "-2又1/2", "2", "一等奖"]
    assert pg.inner_text("#pairings tr[data-table=b1] td.num") == "12又1/2 : 1"
    pg.click("#lang")
    assert pg.locator("#standings tbody tr").first.inner_text().split("\t")[2:4] == ["3 1/3", "-2 1/2"]


def test_a_knockouts_standings_head_its_score_as_matches_won(page, tournament):
    # 002 三2: 第一阶段：采取单局淘汰制决出前16名 — the place is the bracket's; the score is the matches won (胜场),
    # so 5th may have won more than 2nd: headed 胜场, not as a total that ranks.
    rows = [{"rank": 2, "id": "e2", "name": "物理系", "unit": "物理系", "score": 2, "tiebreaks": [], "prize": None},
            {"rank": 5, "id": "e5", "name": "化学系", "unit": "化学系", "score": 3, "tiebreaks": [], "prize": None}]
    tournament.publish("autumn", "standings", standings(rows=rows) | {"system": "knockout-best-of-three", "columns": []})
    pg = page("/")
    pg.wait_for_selector("#standings tr[data-entry=e5]")
    assert pg.locator("#standings thead th").all_inner_texts() == ["名次", "队", "胜场", "奖项"]
    pg.click("#lang")
    until(pg, "document.querySelector('#standings thead th:nth-child(3)').textContent === 'Matches won'")


def test_a_place_decided_by_lot_is_marked_on_the_big_screen(page, tournament):
    # 000 四5: 若级差仍相同，则抽签决定名次 — the two rows level on everything carry the mark, and the legend says why.
    rows = [{"rank": 1, "id": "e1", "name": "数学系", "unit": "数学系", "score": 4, "tiebreaks": [6, 2], "prize": None, "by_lot": False},
            {"rank": 2, "id": "e2", "name": "物理系", "unit": "物理系", "score": 2, "tiebreaks": [4, 0], "prize": None, "by_lot": True},
            {"rank": 3, "id": "e3", "name": "化学系", "unit": "化学系", "score": 2, "tiebreaks": [4, 0], "prize": None, "by_lot": True}]
    tournament.publish("autumn", "standings", standings(rows=rows))
    pg = page("/big")
    pg.wait_for_selector("#standings tr[data-entry=e3]")
    assert [pg.inner_text(f"#standings tr[data-entry={e}] td:first-child") for e in ("e1", "e2", "e3")] == ["1", "2※", "3※"]
    assert pg.inner_text("#standings .legend") == "※ 名次由抽签决定（总分及各项比较都相同）"
    pg.click("#lang")
    pg.wait_for_selector("#standings .legend:has-text('place decided by lot')")
    tournament.publish("autumn", "standings", standings(rows=[dict(r, by_lot=False) for r in rows]))
    pg.wait_for_selector("#standings .legend", state="detached")
    assert "※" not in pg.inner_text("#standings")


def test_a_table_that_goes_offline_shows_it(page, broker, tmp_path):
    live = LiveTable(broker, "b2", tmp_path / "b2.db")
    try:
        pg = page("/")
        pg.wait_for_selector("#tile-b2[data-status=online]")
        live.service.conn.close(send_will=True)  # the connection is lost: the broker sends the last will
        pg.wait_for_selector("#tile-b2[data-status=offline]", timeout=WAIT_MS)
        assert pg.inner_text("#tile-b2 .badge") == "离线"
    finally:
        live.close()


def test_chinese_first_and_the_english_switch(page, table):
    table("b1").publish("state", state(seq=30))
    pg = page("/")
    assert pg.inner_text("h1") == "赛场实况" and pg.inner_text("#lang") == "English"
    pg.click("#lang")
    assert pg.inner_text("h1") == "Hall live"
    assert pg.inner_text("#wall h2") == "Tables live"
    assert pg.inner_text("#tile-b1 .seat.N .who") == "N 张伟"
    assert "hand 3 · trick 12" in pg.inner_text("#tile-b1 header")
    pg.goto(pg.url.rsplit("/", 1)[0] + "/tables/b1")  # the choice is kept for the next page
    pg.wait_for_selector("#tile-b1")
    assert pg.inner_text("#timeline h2") == "This hand and the last"
    pg.click("#lang")
    assert pg.inner_text("#timeline h2") == "本盘与上一盘"


def test_the_referee_rules_san_da_yi_fouls_from_the_console(page, broker, tmp_path):
    """三: the referee's fouls reach a real San Da Yi table; at two the offender is ruled the loser and the next game
    is dealt. The board shows each foul by its name."""
    live = LiveTable(broker, "b4", tmp_path / "b4.db", rulebook="usst-2016")
    try:
        live.seated()
        for seat, button in (("S", "bid1"), ("E", "pass"), ("N", "pass"), ("W", "pass")):  # S is the dealer
            live.send("board/in", seat=seat, button=button)
        board = page("/")
        board.wait_for_selector("#tile-b4 .ht:has-text('第 1 局')")
        console = page("/console")
        login(console)
        console.fill("#ruling-form input[name=table]", "b4")
        console.select_option("#ruling-form select[name=seat]", "E")
        assert "犯规：交谈" in console.inner_text("#ruling-form select[name=what]")
        for kind, name in (("talking", "交谈"), ("peeking", "偷看他人的牌")):
            console.select_option("#ruling-form select[name=what]", f"foul:{kind}")
            console.click("#ruling-form button")
            board.wait_for_selector(f"#tile-b4 .viol:has-text('{name}')", timeout=WAIT_MS)
        board.wait_for_selector("#tile-b4 .ht:has-text('第 2 局')", timeout=WAIT_MS)  # E ruled the loser
        console.wait_for_selector("#c-audit tbody tr[data-action=foul]:has-text('组织者 wang 判 b4 桌 东 李强 犯规：偷看他人的牌')")
        assert console.inner_text("#result .line") == "组织者 wang 判 b4 桌 东 李强 犯规：偷看他人的牌"
    finally:
        live.close()


def test_the_console_shows_a_forged_audit_row_as_such_and_says_when_a_panel_cannot_be_read(page, table, console_db):
    """The audit log is sealed (``display.store``): an "add user" slipped into the console's file by hand reads, in
    red, as not what was written, never as the change it claims. A damaged draft is said, with a button that clears
    it. And when the audit log cannot be read (here its table gone from the file), the panel says so; it showed an
    empty list, which reads as "nothing waiting". A login ended takes the page back to the login form, saying so."""
    console = page("/console")
    login(console)
    console.wait_for_selector("#c-audit tbody tr[data-action=login]")
    with closing(sqlite3.connect(console_db)) as db:
        forged = db.execute("INSERT INTO audit (at, name, action, detail) VALUES (?, 'wang', 'add_user', ?)",
                            (time.time(), json.dumps({"user": "mallory", "role": "organiser"}))).lastrowid
        db.commit()
    console.reload()
    console.wait_for_selector(f"#c-audit tbody tr.error[data-action=damaged]:has-text('审计记录第 {forged} 条与写入时不同')")
    assert "mallory" not in console.inner_text("#c-audit")
    # the draft of the registration damaged: said, with the way to clear it (the list showed "报名 (0)")
    with closing(sqlite3.connect(console_db)) as db:
        db.execute("INSERT INTO draft (row) VALUES (?)", (json.dumps({"unit": "数学系", "players": "王芳、张伟"}),))
        db.execute("INSERT INTO draft (row) VALUES (x'ff')")
        db.commit()
    console.reload()
    console.wait_for_selector("#c-tournament .body .error:has-text('已损坏：draft 2 与写入时不同')")
    assert not console.locator("#c-tournament ol.entries").count()
    console.click("#t-clear")
    console.wait_for_selector("#c-tournament h3:text-is('报名 (0)')")
    console.wait_for_selector("#c-audit tbody tr[data-action=clear_entries]")
    with closing(sqlite3.connect(console_db)) as db:  # the audit log unreadable (its table gone from the file)
        db.execute("ALTER TABLE audit RENAME TO audit_away")
        db.commit()
    console.reload()
    console.wait_for_selector("#c-audit tbody tr.error:has-text('未能读取，请刷新页面：')", timeout=WAIT_MS)
    assert console.locator("#c-audit tbody tr").count() == 1
    with closing(sqlite3.connect(console_db)) as db:
        db.execute("ALTER TABLE audit_away RENAME TO audit")
        db.execute("DELETE FROM sessions")  # the login ended: back to the login form, saying so (test_browser_overnight)
        db.commit()
    flag = {"flag": "f1", "seat": "E", "kind": "unsure", "at": time.time(), "cards": ["S9"], "text": "unsure read (0.71)"}
    t = table("b1")
    try:
        t.publish("state", state(seq=7, paused=True, flags=[flag]))  # the flags change: the console asks for them
        console.wait_for_selector("#login:not([hidden])", timeout=WAIT_MS)
        assert console.inner_text("#login-error").startswith("登录已失效") and console.locator("#desk[hidden]").count() == 1
    finally:
        t.publish("state", state(seq=8))  # the flag gone again, for the tests after this one


def test_a_damaged_tournament_is_said_and_not_taken_for_none(browser, broker, tmp_path):
    """The tournament's file damaged (a result changed on disk): the console's panel took the failure for "no
    tournament yet" and offered the registration forms, to make a new one. Now it says what and what to do."""
    with served(broker, tmp_path / "c.db", damaged_tournament(tmp_path / "hall.db"), OWN_USERS) as server, \
            console_of(browser, server) as console:
        console.wait_for_selector("#c-tournament .body .error:has-text('已损坏（第 3 条记录与写入时不同（它的封印对不上））')")
        assert "docs/deployment.zh.md" in console.inner_text("#c-tournament") and not console.locator("#t-new").count()


def test_a_tournament_nobody_publishes_is_said_on_the_console(browser, broker, tmp_path):
    """The tournament made half a minute ago and no tournament service running: the console's panel says so (and
    goes on checking every 15 s, with nothing published to redraw it on)."""
    hall = small_tournament(tmp_path / "hall.db", clock=lambda: time.time() - 30)
    with served(broker, tmp_path / "c.db", hall, OWN_USERS) as server, console_of(browser, server) as console:
        console.wait_for_selector("#t-unpublished:has-text('赛事服务（cardtable tournament serve）已有 1 分钟没有发布')")
        # the command in a code font, not between the catalogue's backticks
        assert console.inner_text("#t-unpublished code") == "cardtable tournament serve"
        assert "`" not in console.inner_text("#t-unpublished")
        assert console.is_visible("#t-pair")  # the panel is there, the warning above it


def jpeg() -> str:
    img = np.full((120, 160, 3), (40, 120, 40), np.uint8)
    cv2.putText(img, "S5?", (20, 70), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (255, 255, 255), 3)
    return base64.b64encode(cv2.imencode(".jpg", img)[1].tobytes()).decode()


def test_console_login_a_correction_and_its_recomputation(page, broker, connect, tmp_path):
    live = LiveTable(broker, "b3", tmp_path / "b3.db")
    try:
        live.to_first_lead()
        board = page("/")
        board.wait_for_selector("#tile-b3 .info:has-text('♥')")
        at = time.time()
        camera = connect("camera-b3", clean_start=True)
        camera.publish(topic("b3", "frames"), encode("frames", {"v": 1, "id": "cam-b3-1", "seat": "S", "at": at,
                                                               "reason": "unsure read (0.60)", "jpeg": jpeg()}), qos=1)
        assert camera.flush(5)
        live.send("observed", seat="S", cards=["S5"], confidence=0.6)  # the camera is unsure: the table waits
        number = live.flag()[1:]
        board.wait_for_selector("#tile-b3.has-flags .flags:has-text('识别存疑')")

        console = page("/console")
        console.wait_for_selector("#login-form")
        console.fill("input[name=user]", ORGANISER[0])
        console.fill("input[name=password]", "wrong")
        console.click("#login-form button")
        console.wait_for_selector("#login-error:has-text('用户名或密码错误')")
        console.fill("input[name=password]", ORGANISER[1])
        console.click("#login-form button")
        console.wait_for_selector("#desk:not([hidden])")
        assert console.inner_text("#me") == "wang（组织者）"
        card = console.wait_for_selector(".flag-card[data-table=b3]")
        until(console, "document.querySelector('.flag-card[data-table=b3] img')?.naturalWidth === 160")
        assert card.query_selector("svg.card[data-card=S5]")  # the read, with the kept frame beside it
        assert "南 王芳 的出牌 ♠5 识别存疑，请裁判确认" in card.inner_text()
        # corrected from the flag's card: the picker of S's possible cards, S5 out, SK in
        card.query_selector("button[data-how=correct]").click()
        console.click("#c-picker .chosen button.pick[data-card=S5]")
        console.click("#c-picker .choices button.pick[data-card=SK]")
        console.click("#pick-ok")
        # the table service applies the corrected play: the trick and the counts are recomputed
        board.wait_for_selector("#tile-b3 .seat.S svg.card[data-card=SK]", timeout=WAIT_MS)
        assert not board.locator("#tile-b3 .seat.S svg.card[data-card=S5]").count()
        assert board.inner_text("#tile-b3 .seat.S .count") == "38 张"
        assert "has-flags" not in board.get_attribute("#tile-b3", "class")
        console.wait_for_selector("#c-flags .empty")
        assert console.inner_text("#result .line") == f"组织者 wang 将 b3 桌第 {number} 号标记更正为 ♠K"  # confirmed in one line
        assert console.is_hidden("#undo")  # a resolved flag stays resolved
        console.wait_for_selector(f"#c-audit tbody tr[data-action=correct]:has-text('组织者 wang 将 b3 桌第 {number} 号标记更正为 ♠K')")
    finally:
        live.close()


def test_screenshots_at_both_sizes_and_a_phone(page, table, tournament):
    for i, name in enumerate(TABLES):
        t = table(name)
        t.publish("status", {"v": 1, "status": "offline" if name == "b2" else "online", "at": time.time()})
        t.publish("state", state(seq=100 + i))
    rows = [{"rank": i + 1, "id": f"e{i}", "name": f"第{i + 1}队", "unit": "某学院", "score": 10 - i, "tiebreaks": [20 - i, 3 - i],
             "prize": ("一等奖", "二等奖", "三等奖")[i] if i < 3 else None} for i in range(8)]
    tournament.publish("autumn", "standings", standings(rows=rows, rnd=2))
    for width, height in ((1920, 1080), (1280, 720)):
        pg = page("/", width, height)
        pg.wait_for_selector("#tile-b4")
        shot(pg, f"scoreboard-{width}x{height}.png")
        big = page("/big", width, height)
        big.wait_for_selector("#standings:not([hidden]) tr[data-entry=e0]")
        font = big.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        assert font >= 16  # readable from the back of the hall
        shot(big, f"big-standings-{width}x{height}.png")
        big.evaluate("document.fonts.ready")  # a tile measured before its fonts came is taller: fit() would page it again
        big.evaluate("rotate()")
        assert big.is_visible("#pairings") and not big.is_visible("#standings")
        big.evaluate("rotate()")
        big.wait_for_selector("#wall:not([hidden]) #tile-b1")
        visible = big.locator("#wall .tile:not([hidden])")
        cols = big.evaluate("getComputedStyle(document.querySelector('#wall .tiles')).gridTemplateColumns.split(' ').length")
        assert min(cols, len(TABLES)) <= visible.count() <= len(TABLES)  # a row at least; fewer rows when tiles are taller
        for k in range(visible.count()):  # every tile shown is whole on the screen
            box = visible.nth(k).bounding_box()
            assert box["y"] + box["height"] <= height and box["x"] + box["width"] <= width
        shot(big, f"big-tables-{width}x{height}.png")
    phone = page("/", 390, 844)
    phone.wait_for_selector("#tile-b4")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "scoreboard-phone-390x844.png")


def test_console_runs_the_tournament_and_the_scoreboard_follows(page, broker, hall_db, tmp_path):
    """Import the form, make the tournament, pair round 1, enter a result, correct it: the tournament
    service (on the same file) publishes, and the scoreboard's standings follow each change."""
    service = TournamentService(TournamentStore(hall_db), broker.url("tournament"), client_id="tournament-test", poll_s=0.1).start()
    try:
        console = page("/console")
        login(console)
        # a refusal reads in the page's language: no entries yet
        for button, reason in (("新建赛事", "还没有报名"), ("New tournament", "no entries registered yet")):
            console.wait_for_selector(f"#t-new button:has-text('{button}')")  # the forms drawn in this language
            console.fill("#t-new input[name=name]", "秋季教工升级赛")
            console.click("#t-new button")
            console.wait_for_selector(f"#result.error:has-text('{reason}')")
            console.click("#lang")
        console.wait_for_selector("#t-new button:has-text('新建赛事')")  # back to Chinese
        # an entry typed in: its team is shown with its unit (a team is its unit and its name)
        for field, value in (("unit", "数学系"), ("team", "一队"), ("pair", "1"), ("players", "王　芳、李强")):
            console.fill(f"#t-entry input[name={field}]", value)
        console.click("#t-entry button")
        console.wait_for_selector(".entries li:text-is('数学系 · 一队 · 王芳、李强')")
        form = tmp_path / "报名表.xlsx"
        form.write_bytes(xlsx_form())
        console.set_input_files("#t-import input[type=file]", str(form))
        console.once("dialog", lambda d: d.accept())  # the import replaces the entry typed in: confirmed first
        console.click("#t-import button")
        console.wait_for_selector(".entries li:nth-child(6)")
        console.select_option("#t-new select[name=system]", "pair-swiss")
        console.fill("#t-new input[name=name]", "秋季教工升级赛")
        console.fill("#t-new input[name=id]", "spring")
        console.fill("#t-new input[name=rounds]", "3")
        console.click("#t-new button")
        console.wait_for_selector("#t-pair")
        # 002 一4 分组抽签: the lot drawn in the hall replaces the seeded one before round 1 is paired; the form names each
        # entry by its name and unit (no internal id), with the number it drew typed beside it
        fields = console.locator("#t-lot input[data-entry]")
        seeded = {x.get_attribute("data-entry"): int(x.input_value()) for x in fields.all()}
        assert sorted(seeded.values()) == list(range(1, 7)) and not any(e in console.inner_text("#t-lot") for e in seeded)
        assert "数学系1甲、数学系1乙 数学系" in console.inner_text("#t-lot")
        hall = {e: 7 - k for e, k in seeded.items()}
        first = next(iter(seeded))
        field = f"#t-lot input[data-entry='{first}']"
        # a redraw between selecting the field's text and typing over it (as fill does): the selection survives, so
        # the typing replaces the text rather than landing before or after it
        console.focus(field)
        console.evaluate("document.activeElement.select()")
        console.evaluate("tournamentPanel()")
        console.keyboard.insert_text(str(hall[first]))
        assert console.input_value(field) == str(hall[first])
        console.evaluate("document.activeElement.setSelectionRange(0, 0)")
        console.evaluate("tournamentPanel()")
        console.keyboard.insert_text("1")
        assert console.input_value(field) == f"1{hall[first]}"
        # numbers that are not 1 to 6 each once: said, and nothing sent
        console.click("#t-lot button")
        console.wait_for_selector("#result.error:has-text('抽签号应为 1 到 6，每个号填一次')")
        for e, k in hall.items():
            console.fill(f"#t-lot input[data-entry='{e}']", str(k))
        # the panel is drawn again whenever the tournament publishes (its round and standings, any moment):
        # what the organiser has typed and not sent survives it, and so does the field's focus
        console.focus(field)
        console.evaluate("tournamentPanel()")
        assert console.input_value(field) == str(hall[first])
        assert console.evaluate("document.activeElement.dataset.entry") == first
        console.click("#t-lot button")
        console.wait_for_selector(f"#t-lot input[data-entry='{first}'][value='{hall[first]}']")
        lot_line = console.inner_text("#result .line")  # the entries in the lot's order, as the hall knows them
        assert lot_line.startswith("组织者 wang 录入现场抽签：1号 ") and "、6号 " in lot_line and not any(e in lot_line for e in seeded)
        console.click("#t-pair")
        console.wait_for_selector("#t-round[data-round='1'] tr[data-table=t01]")
        assert not console.is_visible("#t-lot")  # paired: the lot is fixed
        numbers = console.locator("#t-round .lot").all_inner_texts()
        assert len(numbers) == 6 and sorted(numbers) == [f"{i}号" for i in range(1, 7)]
        board = page("/")
        board.wait_for_selector("#pairings tr[data-table=t03]")
        row = console.locator("#t-round tr[data-table=t01]")
        # the teams (each named after its unit), after the lot number: a pair is named by its team, as the standings name it
        first, second = (row.locator("label .entry").nth(i).inner_text().split()[1] for i in (0, 1))
        row.locator("input[type=radio]").nth(0).check()
        row.locator("button[data-result=record]").click()
        board.wait_for_selector("#pairings tr[data-table=t01] td.num:text-is('胜 : 负')", timeout=WAIT_MS)  # as read (a23c32f): no levels entered
        # the standings are a message of their own, which may arrive after the pairings
        board.wait_for_selector("#standings tbody tr:first-child td.score:text-is('2')", timeout=WAIT_MS)
        top = board.locator("#standings tbody tr").first
        assert top.locator("td.score").inner_text() == "2"
        winner_unit = top.locator("td").nth(1).inner_text()
        assert first == winner_unit
        # a dispute: the other pair won; the standings are computed again
        row = console.locator("#t-round tr[data-table=t01]")
        row.locator("input[type=radio]").nth(1).check()
        row.locator("button[data-result=correct]").click()  # no reason yet: asked for, nothing sent (b6627d3 refuses none)
        console.wait_for_selector("#result .line:has-text('请写明更正结果的原因')")
        assert not console.locator("#c-audit tbody tr[data-action=correct_result]").count()
        row.locator("input[name=reason]").fill("记分错误")
        row.locator("button[data-result=correct]").click()
        board.wait_for_selector("#pairings tr[data-table=t01] td.num:text-is('负 : 胜')", timeout=WAIT_MS)
        until(board, f"document.querySelector('#standings tbody tr td:nth-child(2)').textContent !== {json.dumps(winner_unit)}")
        assert second == board.locator("#standings tbody tr").first.locator("td").nth(1).inner_text()
        assert console.inner_text("#result .line") == "组织者 wang 更正第 1 轮 t01 桌成绩：本桌第二方胜（原因：记分错误）"
        assert console.is_visible("#undo")  # a correction of a result entered by hand can be corrected back
        console.wait_for_selector("#c-audit tbody tr[data-action=correct_result]")
        assert "更正第 1 轮 t01 桌成绩：本桌第二方胜（原因：记分错误）" in console.inner_text("#c-audit tbody tr[data-action=correct_result]")
        assert not console.locator("#t-unpublished").count()  # the service publishes: nothing said
        console.set_viewport_size({"width": 1280, "height": 2000})
        shot(console, "console-tournament.png")
    finally:
        service.stop()


def xlsx_form() -> bytes:
    import io

    from openpyxl import Workbook

    wb = Workbook()
    wb.active.append(["单位", "对", "选手"])
    for unit in ("数学系", "物理系", "化学系"):
        for p in (1, 2):
            wb.active.append([unit, str(p), f"{unit}{p}甲、{unit}{p}乙"])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_the_consoles_banner_shows_exactly_while_its_commands_are_refused_as_cut_off(browser, fresh_broker, tmp_path):
    """The console's commands go out on its own broker connection and are refused while it is down (the display cut
    off: they would wait in memory, said done); its banner followed the scoreboard's connection instead. The two
    differ when one drops alone, or a second program with the console's broker user takes its one connection: the
    banner said nothing while every command was refused, or said they were cut off while they went. Now the
    console's banner shows exactly while a command is refused as cut off, the scoreboard's while what it shows is
    not live: two pages of one display, each connection cut in turn."""
    from bus.mqtt import Connection

    t1 = Connection(fresh_broker.url("table-t1"), clean_start=True).connect()
    t1.publish(topic("t1", "state"), encode("state", state()), retain=True)
    assert t1.flush(10)
    t1.close()
    with Relay(fresh_broker) as board_link, Relay(fresh_broker) as console_link, \
            Server(create_app(Settings(board_link.url("scoreboard"), console_link.url("console"),
                                       make_db(tmp_path / "c.db")))) as server, console_of(browser, server) as console:
        board = console.context.new_page()
        board.goto(server.url + "/")
        last_hand = "#c-tables tr[data-table=t1] button[data-cmd=last_hand]"
        console.wait_for_selector(last_hand)

        def refused() -> bool:  # a command, and whether it was refused as cut off (its line, said in the page)
            console.click(last_hand)
            # 处理中…… is said at once (15b6f8fb): the answer is the line that follows it
            until(console, "!['', '处理中……'].includes(document.querySelector('#result .line').textContent)")
            line = console.inner_text("#result .line")
            console.evaluate("document.querySelector('#result .line').textContent = ''")
            return "显示服务与消息服务器的连接中断" in line

        assert console.is_hidden("#banner") and board.is_hidden("#banner") and not refused()
        console_link.cut()  # the console's connection alone
        console.wait_for_selector("#banner:not([hidden])", timeout=WAIT_MS)
        assert console.inner_text("#banner") == "显示服务与消息服务器的连接中断：操作发不到牌桌，请等此提示消失后再试"
        assert refused() and board.is_hidden("#banner")  # the scoreboard is live: its page says nothing
        console_link.mend()
        console.wait_for_selector("#banner[hidden]", state="attached", timeout=WAIT_MS)
        assert not refused()
        assert console.is_hidden("#stale")
        board_link.cut()  # the scoreboard's connection alone: the console's commands still go, its tables are not live
        board.wait_for_selector("#banner:not([hidden])", timeout=WAIT_MS)
        assert board.inner_text("#banner") == "与消息服务器的连接中断，数据可能不是最新"
        # the console said nothing while its tables and flags were no longer live (the known gap): now it says so
        console.wait_for_selector("#stale:not([hidden])", timeout=WAIT_MS)
        assert console.inner_text("#stale") == ("显示服务收不到牌桌的实时数据：下面的牌桌和待裁判标记可能不是最新的，请到场核对；"
                                                "操作仍能发到牌桌")
        time.sleep(1)  # more than the display looks at its connections (display.feed.WATCH_S)
        assert console.is_hidden("#banner") and not refused()
        board_link.mend()
        board.wait_for_selector("#banner[hidden]", state="attached", timeout=WAIT_MS)
        console.wait_for_selector("#stale[hidden]", state="attached", timeout=WAIT_MS)
        fresh_broker.stop()  # the whole broker: both
        console.wait_for_selector("#banner:not([hidden])", timeout=WAIT_MS)
        board.wait_for_selector("#banner:not([hidden])", timeout=WAIT_MS)
        assert refused() and console.is_hidden("#stale")  # one banner: nothing goes, nothing comes


def test_an_offline_tables_seat_clock_is_not_shown_on_the_scoreboard(page, table):
    """A table gone (its last will: offline) runs no clock; the tile kept counting its turn's seconds down to 0 as if
    the table were live, then kept its last second frozen, a clock that still looked live beside 离线. Now an offline
    tile shows no seat clock, and shows it again counting once the table is back; nor its seat on turn lit (a player
    waited for, at a table that waits for no one)."""
    b3 = table("b3")
    b3.publish("status", {"v": 1, "status": "online", "at": time.time()})
    b3.publish("health", {**schema("health")["examples"][0], "at": time.time(), "every": 60.0})  # refereeing, not stalled
    b3.publish("state", state(seq=30, at=time.time(), clocks={**state()["clocks"], "N": {"left": 60.0, "running": True}}))
    pg = page("/")
    pg.wait_for_selector("#tile-b3[data-seq='30'] .seat.N.turn .clk[data-running=true]")
    until(pg, "parseInt(document.querySelector('#tile-b3 .seat.N .clk').textContent) < 60")  # live: it counts
    b3.publish("status", {"v": 1, "status": "offline"})
    pg.wait_for_selector("#tile-b3[data-status=offline]", timeout=WAIT_MS)
    assert pg.locator("#tile-b3 .clk").count() == 0 and pg.inner_text("#tile-b3 .badge") == "离线"
    assert pg.locator("#tile-b3 .seat.turn").count() == 0
    time.sleep(1.5)
    assert pg.locator("#tile-b3 .clk").count() == 0  # nor drawn again by the page's tick
    b3.publish("status", {"v": 1, "status": "online", "at": time.time()})
    pg.wait_for_selector("#tile-b3[data-status=online] .seat.N.turn .clk[data-running=true]", timeout=WAIT_MS)
    b3.publish("status", {"v": 1, "status": "offline"})  # gone again: its round clock is none of the next tests'


def test_a_page_opened_late_counts_a_quiet_tables_clocks_from_when_the_table_made_its_state(page, table):
    """The demo's t05 said nothing for minutes (the camera never read a card): a page opened then counted that table's
    round clock down from the moment the page opened, showing minutes too many (84:51 where 80:50 was right), and more
    after each reload."""
    b4 = table("b4")
    b4.publish("status", {"v": 1, "status": "online", "at": time.time()})
    b4.publish("health", {**schema("health")["examples"][0], "at": time.time(), "every": 60.0})  # refereeing, not stalled
    made = time.time() - 300.0  # five minutes ago: the table's last input
    b4.publish("state", state(seq=40, at=made, round={"started_at": made - 600.0, "left": 3000.0, "notice": False,
                                                      "last_hand": False}))
    pg = page("/")
    pg.wait_for_selector("#tile-b4[data-seq='40']")
    until(pg, "/本轮剩余/.test(document.querySelector('#roundclock').textContent)")
    shown = pg.inner_text("#roundclock b")
    minutes, seconds = map(int, shown.split(":"))
    assert 2690 <= minutes * 60 + seconds <= 2700, shown  # 3000 s at the state, 300 s ago: not 50:00


def test_the_console_offers_to_start_a_round_only_at_a_table_between_rounds(page, table):
    """A round is started at a table before it and after one (the reducer refuses ``start_round`` in any other phase:
    ``table.round_running``); the console offered 开始本轮 beside tables in play too, a button that could only be
    refused."""
    b5 = table("b5")
    console = page("/console")
    login(console)
    row, start = "#c-tables tr[data-table=b5]", "#c-tables tr[data-table=b5] button[data-cmd=start_round]"
    for seq, phase, said, offered in ((50, "idle", "空闲", True), (51, "playing", "出牌", False), (52, "arriving", "入座", False),
                                      (53, "round_over", "本轮结束", True)):
        b5.publish("state", state(seq=seq, phase=phase))
        console.wait_for_selector(f"{row}:has-text('{said}')", timeout=WAIT_MS)
        assert console.locator(start).count() == int(offered), phase
        assert console.locator(f"{row} button[data-cmd=stop_round]").count() == 1  # stopping stays offered
    b5.publish("state", state(seq=54))  # back in play, as the tests before left it
