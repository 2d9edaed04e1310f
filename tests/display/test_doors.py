"""The console's doors over HTTP, with real logins, against the app served by uvicorn on a real
mosquitto (and ``cardtable display serve`` as a process where its memory is measured): failed
logins locked out and audited, bodies refused before they are read, no server path in an upload's
refusal, changes only from the console's own pages, and the headers that keep pages out of frames."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import pytest
from kit import ORGANISER, OWN_USERS, REFEREE, Server, make_db, served, state
from sheets import sheet

from bus.broker import free_port
from display.app import Settings, create_app
from display.guard import BODY_LIMIT
from display.store import LOCK_AFTER, LOCK_WINDOW_S

TABLES = ["d1"]
ROOT = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def clock():
    return Clock()


@pytest.fixture(scope="module")
def server(broker, tmp_path_factory, clock):
    db = make_db(tmp_path_factory.mktemp("doors") / "console.db")
    app = create_app(Settings(broker.url("scoreboard"), broker.url("console"), db, clock=clock))
    with Server(app) as s:
        yield s


def browser(server, **headers) -> httpx.Client:
    """A client that sends what a browser on the console's page sends (its Origin)."""
    return httpx.Client(base_url=server.url, timeout=10, headers={"Origin": server.url, **headers})


def log_in(client: httpx.Client, who) -> httpx.Response:
    return client.post("/api/login", json={"user": who[0], "password": who[1]})


def audit(server, clock) -> list[dict]:
    with browser(server) as c:
        assert log_in(c, ORGANISER).status_code == 200
        return c.get("/api/console/audit").json()


def test_failed_logins_lock_the_name_and_are_audited(server, clock):
    with browser(server) as c:
        tries = [log_in(c, (REFEREE[0], f"guess-{i}")) for i in range(30)]  # an attack measured once: 300 in 12.8 s
        assert [r.status_code for r in tries[:LOCK_AFTER["pair"] - 1]] == [401] * (LOCK_AFTER["pair"] - 1)
        assert {r.status_code for r in tries[LOCK_AFTER["pair"] - 1:]} == {429}
        right = log_in(c, REFEREE)  # then the right password: refused while locked, not even checked
        assert right.status_code == 429 and "cardtable_session" not in right.cookies
        assert int(right.headers["retry-after"]) > LOCK_WINDOW_S - 60
        assert "登录失败次数过多" in right.json()["detail"]
        assert c.get("/api/me").status_code == 401
    entries = audit(server, clock)  # another user (and the same address) logs in as ever
    failed = [e for e in entries if e["action"] == "login_failed" and e["user"] == REFEREE[0]]
    locked = [e for e in entries if e["action"] == "login_locked" and e["user"] == REFEREE[0]]
    assert len(failed) == LOCK_AFTER["pair"] and len(locked) == 1  # a locked try is refused before any check
    assert failed[0]["detail"] == {"name": REFEREE[0], "client": "127.0.0.1"}
    assert failed[0]["text"] == f"以 {REFEREE[0]} 登录失败（来自 127.0.0.1）"
    clock.now += LOCK_WINDOW_S + 1  # the lock ends by itself
    with browser(server) as c:
        assert log_in(c, REFEREE).status_code == 200


def test_an_address_that_tries_many_names_is_locked_for_all(server, clock):
    clock.now += LOCK_WINDOW_S + 1
    with browser(server) as c:
        codes = [log_in(c, (f"ghost{i}", "x")).status_code for i in range(LOCK_AFTER["client"])]
        assert codes == [401] * (LOCK_AFTER["client"] - 1) + [429]
        assert log_in(c, ORGANISER).status_code == 429  # a real user from that address waits too
    clock.now += LOCK_WINDOW_S + 1
    with browser(server) as c:
        assert log_in(c, ORGANISER).status_code == 200


def test_guesses_sent_together_get_no_more_checks_than_the_lock_allows(server, clock):
    """Forty logins at once for one name from one address, the right password among them: each was let past the
    lock before any failure was written (a check takes tens of ms), so about forty passwords were checked and the
    right one logged in. Now each try counts before its check: at most ``LOCK_AFTER["pair"]`` are checked."""
    from concurrent.futures import ThreadPoolExecutor

    clock.now += LOCK_WINDOW_S + 1
    who = "burst"
    with browser(server) as c:
        assert log_in(c, ORGANISER).status_code == 200
        assert c.post("/api/users", json={"user": who, "password": "burst-pass", "role": "referee"}).status_code == 201
    guesses = [f"guess-{i}" for i in range(39)] + ["burst-pass"]

    def one(password: str) -> int:
        with browser(server) as c:
            return log_in(c, (who, password)).status_code

    with ThreadPoolExecutor(len(guesses)) as pool:
        codes = list(pool.map(one, guesses))
    assert codes.count(401) < LOCK_AFTER["pair"] and codes.count(429) >= len(guesses) - LOCK_AFTER["pair"], codes
    failed = [e for e in audit(server, clock) if e["action"] == "login_failed" and e["detail"]["name"] == who]
    assert len(failed) <= LOCK_AFTER["pair"]
    if codes[-1] != 200:  # the right one, unless it was among the tries checked: refused while locked
        with browser(server) as c:
            assert log_in(c, (who, "burst-pass")).status_code == 429


def test_a_form_being_read_holds_up_no_other_request(broker, tmp_path):
    """An .xlsx form was read on the event loop: for the seconds a big one took (minutes for the 2 MiB allowed),
    every page's stream, the scoreboard and the console's own requests waited. Read on a thread of its own now."""
    head = '<c t="inlineStr"><is><t>单位</t></is></c><c t="inlineStr"><is><t>选手</t></is></c>'
    form = sheet(1, head + "<c/>" * 1_500_000)  # the header, then empty cells: a few seconds of reading
    with served(broker, tmp_path / "c.db", tmp_path / "hall.db", OWN_USERS) as s, browser(s) as c:
        assert log_in(c, ORGANISER).status_code == 200
        got = {}
        upload = threading.Thread(target=lambda: got.update(r=c.post("/api/console/entries/import", timeout=120,
                                                                      files={"file": ("报名表.xlsx", form)})))
        began_upload = time.monotonic()
        upload.start()
        waits = []
        with httpx.Client(base_url=s.url, timeout=120) as hall:
            while upload.is_alive():
                began = time.monotonic()
                assert hall.get("/api/hall").status_code == 200
                waits.append(time.monotonic() - began)
                time.sleep(0.05)
        upload.join()
        took = time.monotonic() - began_upload
    assert got["r"].status_code == 422 and got["r"].json()["detail"] == "报名表中没有参赛者"
    # on the event loop one request waited the whole reading; a loaded machine slows both alike
    assert len(waits) > 3 and max(waits) < took / 3, (took, waits)


def raw(server, head: str, body: bytes = b"") -> tuple[int, float]:
    """Send a request's head (and maybe part of its body) on a socket; (status, seconds to the answer)."""
    host, port = server.url.removeprefix("http://").split(":")
    began = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=30) as s:
        s.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        answer = s.recv(4096).decode(errors="replace")
    return int(answer.split(" ", 2)[1]), time.monotonic() - began


def test_a_change_without_a_login_is_refused_before_its_body_is_read(server):
    head = (f"POST /api/console/tables/d1/commands HTTP/1.1\nHost: {server.url[7:]}\nOrigin: {server.url}\n"
            f"Content-Type: application/json\nContent-Length: {BODY_LIMIT}\n")
    status, seconds = raw(server, head)  # the body never comes: the answer does not wait for it
    assert status == 401 and seconds < 20  # an answer that waited for the body would never come (the socket gives up at 30 s)
    big = head.replace(f"Content-Length: {BODY_LIMIT}", f"Content-Length: {64 * 1024 * 1024}")
    assert raw(server, big)[0] == 413
    chunked = head.replace(f"Content-Length: {BODY_LIMIT}", "Transfer-Encoding: chunked")
    assert raw(server, chunked, b"10\r\n0123456789abcdef\r\n")[0] == 411


def rss_kib(pid: int) -> int:
    return int(next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                    if line.startswith("VmRSS:")).split()[1])


def test_large_bodies_do_not_reach_the_displays_memory(broker, tmp_path):
    """64 MB POSTs without a login, as measured once (373 -> 748 MB; four at once 949 MB), at ``display serve``."""
    port, url = free_port(), None
    credentials = broker.write_credentials(tmp_path / "credentials", ["scoreboard-2", "console-2"])
    proc = subprocess.Popen([sys.executable, "-m", "cardtable", "display", "serve", "--db", str(tmp_path / "c.db"),
                             "--port", str(port), "--broker", broker.address, "--credentials", str(credentials),
                             "--scoreboard-user", "scoreboard-2", "--console-user", "console-2"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(url + "/api/hall", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        before = rss_kib(proc.pid)
        junk = b"x" * (64 * 1024 * 1024)
        for path in ("/api/console/tables/d1/commands", "/api/login", "/api/console/entries/import") * 2:
            try:
                r = httpx.post(url + path, content=junk, headers={"Origin": url, "Content-Type": "application/json"},
                               timeout=30)
                assert r.status_code == 413
            except httpx.HTTPError:
                pass  # the server answered and closed while the body was still going: refused all the same
        assert rss_kib(proc.pid) - before < 20 * 1024, (before, rss_kib(proc.pid))
    finally:
        proc.terminate()
        proc.wait(10)


def test_an_upload_refusal_names_no_server_path(server, clock):
    with browser(server) as c:
        assert log_in(c, ORGANISER).status_code == 200
        for name, data in (("报名表.xlsx", b"PK\x03\x04 not really a zip"), ("报名表.csv", b"\xff\xfe\x00bad"),
                           ("报名表.xlsx", b"")):
            r = c.post("/api/console/entries/import", files={"file": (name, data, "application/octet-stream")})
            detail = r.json()["detail"]
            assert r.status_code == 422 and "报名表" in detail, detail
            assert tempfile.gettempdir() not in detail and "/tmp" not in detail and str(ROOT) not in detail, detail


def test_changes_come_only_from_the_consoles_own_pages(server, table, inbox, clock):
    commands = inbox()
    table("d1").listeners.append(commands)
    table("d1").publish("state", state(seq=1))
    body = {"command": "last_hand"}
    with browser(server) as page:
        assert log_in(page, ORGANISER).status_code == 200
        deadline = time.monotonic() + 30
        while page.get("/api/tables/d1").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        cookie = page.cookies
        evil = httpx.Client(base_url=server.url, cookies=cookie, headers={"Origin": "http://evil.example"})
        bare = httpx.Client(base_url=server.url, cookies=cookie)  # a browser that sends no Origin: refused too
        framed = httpx.Client(base_url=server.url, cookies=cookie, headers={"Referer": "http://evil.example/x"})
        for client in (evil, bare, framed):
            r = client.post("/api/console/tables/d1/commands", json=body)
            assert r.status_code == 403 and "不是从控制台自己的页面发出的" in r.json()["detail"], r.text
            client.close()
        with httpx.Client(base_url=server.url, headers={"Origin": "http://evil.example"}) as other:
            assert log_in(other, ORGANISER).status_code == 403  # no login forced from another site either
        sent = page.post("/api/console/tables/d1/commands", json=body)  # from the console's page: done
        assert sent.status_code == 200
        token = log_in(httpx.Client(base_url=server.url, headers={"Origin": server.url}), ORGANISER).cookies["cardtable_session"]
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as script:  # no cookie: no CSRF
        scripted = script.post("/api/console/tables/d1/commands", json=body)
        assert scripted.status_code == 200
    ids = {sent.json()["id"], scripted.json()["id"]}
    commands.wait_for(lambda t, p: json.loads(p)["id"] in ids and len({json.loads(x)["id"] for x in commands.payloads()}) == 2)
    assert {json.loads(p)["id"] for p in commands.payloads()} == ids  # the refused ones never reached the table


@pytest.mark.parametrize("path", ["/", "/console", "/api/hall", "/static/app.js", "/api/login"])
def test_every_answer_keeps_the_page_out_of_frames_and_types_as_said(server, path):
    r = httpx.get(server.url + path, timeout=10)
    csp = dict(d.strip().split(" ", 1) for d in r.headers["content-security-policy"].split(";"))
    assert csp["frame-ancestors"] == "'none'" and csp["script-src"] == "'self'" and csp["default-src"] == "'self'"
    assert r.headers["x-frame-options"] == "DENY" and r.headers["x-content-type-options"] == "nosniff"
