"""The live streams on a bad evening: one visitor's script opening them by the thousand. Each page holds a socket, so
such a script took every connection the process could open (its open-file limit, 1,024 for a service), and the
console and the big screens were refused at the door (measured: ``/api/hall`` unanswered for 20 s while 1,100
streams were open). Now at most ``STREAMS_PER_CLIENT`` from one address and fewer than the limit in all; what is
refused is a 503 in words, and a page refused (or closed by a proxy's error) opens its stream again by itself."""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import subprocess
import sys
import time

import httpx
import pytest
from kit import ARGS, CHROMIUM, served

from bus.broker import free_port
from display.hub import FILES_KEPT, STREAMS_PER_CLIENT


def open_stream(port: int, source: str = "127.0.0.1") -> tuple[socket.socket, str, str]:
    """A stream asked for from ``source`` (any 127.x address reaches the server): the socket, its status line, and
    its body when it was refused."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: hall\r\nAccept-Language: zh\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        assert chunk, "closed before it answered"
        head += chunk
    status = head.split(b"\r\n", 1)[0].decode()
    if not status.endswith("200 OK"):  # a refusal: its body too
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
        while len(head.split(b"\r\n\r\n", 1)[1]) < length:
            head += s.recv(4096)
    return s, status, head.decode(errors="replace")


def drip(s: socket.socket, every: float = 0.5, limit: float = 60) -> float:
    """Send ``s`` a byte every ``every`` seconds until the server closes it; the seconds it took (``limit`` if not)."""
    started = time.monotonic()
    s.settimeout(every)
    while time.monotonic() - started < limit:
        try:
            s.sendall(b"x")
            if s.recv(1) == b"":
                break
        except TimeoutError:
            continue
        except (BrokenPipeError, ConnectionResetError):
            break
    return time.monotonic() - started


@contextlib.contextmanager
def display_serve(broker, tmp_path, *more: str):
    """``cardtable display serve`` as a real process under an open-file limit of 1,024 (a service's), answering; its
    port. Skipped where this process may not open the 1,100 sockets the tests open."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1500:
        pytest.skip(f"this process may open {hard} files; the test opens 1,100 sockets")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1500) if hard == resource.RLIM_INFINITY else hard, hard))
    port = free_port()
    creds = broker.write_credentials(tmp_path / "credentials", ["scoreboard", "console"])
    display = subprocess.Popen(
        [sys.executable, "-m", "cardtable", "display", "serve", "--db", str(tmp_path / "c.db"), "--port", str(port),
         "--broker", broker.address, "--credentials", str(creds), *more],
        env={**os.environ, "CARDTABLE_LANG": "zh"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024)))
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/hall", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "display serve did not start"
                time.sleep(0.2)
        yield port
    finally:
        display.terminate()
        display.wait(30)


def test_one_address_gets_32_live_pages_and_the_others_are_still_served(broker, tmp_path):
    with served(broker, tmp_path / "c.db") as server:
        mine = [open_stream(server.port) for _ in range(STREAMS_PER_CLIENT)]
        assert {status for _, status, _ in mine} == {"HTTP/1.1 200 OK"}
        s, status, text = open_stream(server.port)
        assert status == "HTTP/1.1 503 Service Unavailable" and "retry-after: 10" in text.lower()
        assert "来自 127.0.0.1 的实时页面已有 32 个，已到上限" in text
        s.close()
        other, status, _ = open_stream(server.port, "127.0.0.2")  # another visitor is served
        assert status == "HTTP/1.1 200 OK"
        assert httpx.get(server.url + "/api/hall", timeout=10).status_code == 200
        mine.pop()[0].close()  # a page closed: its place is free again
        deadline = time.monotonic() + 10
        while True:
            s, status, _ = open_stream(server.port)
            s.close()
            if status == "HTTP/1.1 200 OK":
                break
            assert time.monotonic() < deadline, "a closed page's place was not freed"
            time.sleep(0.2)
        for s in [s for s, _, _ in mine] + [other]:
            s.close()


def test_a_thousand_streams_leave_the_console_its_door(broker, tmp_path):
    """``cardtable display serve`` under an open-file limit of 1,024 (hard), 1,100 streams asked for from 35
    addresses: the first ``1024 - FILES_KEPT`` are served, the rest refused in words, and the console still
    answers."""
    opened = []
    with display_serve(broker, tmp_path) as port:
        try:
            statuses = []
            for i in range(1100):
                s, status, text = open_stream(port, f"127.0.{1 + i // STREAMS_PER_CLIENT}.1")
                statuses.append(status)
                if status.endswith("200 OK"):
                    opened.append(s)
                else:
                    assert "全场已有 768 个实时页面，已到上限" in text, text
                    s.close()
            assert statuses.count("HTTP/1.1 200 OK") == 1024 - FILES_KEPT
            r = httpx.post(f"http://127.0.0.1:{port}/api/login", json={"user": "nobody", "password": "wrong-pass"},
                           headers={"Origin": f"http://127.0.0.1:{port}"}, timeout=10)
            assert r.status_code == 401  # the console's door answers
            assert httpx.get(f"http://127.0.0.1:{port}/api/hall", timeout=10).status_code == 200
        finally:
            for s in opened:
                s.close()


def test_a_page_refused_its_stream_opens_it_again_by_itself(broker, tmp_path):
    """An EventSource closed by an HTTP error (here the 503 above; a proxy's 502 while the display restarts does the
    same) is never opened again by the browser: the big screen and the console stayed without their live stream
    until someone reloaded them."""
    from playwright.sync_api import sync_playwright

    with served(broker, tmp_path / "c.db") as server, sync_playwright() as p:
        taken = [open_stream(server.port) for _ in range(STREAMS_PER_CLIENT)]
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            pages = [browser.new_page() for _ in range(2)]
            for pg, path in zip(pages, ("/big", "/console")):
                pg.goto(server.url + path)
            time.sleep(2)
            assert [pg.evaluate("document.body.dataset.live") for pg in pages] == [None, None]  # refused
            for s, _, _ in taken:
                s.close()
            for pg in pages:
                pg.wait_for_selector("body[data-live='1']", state="attached", timeout=30_000)
        finally:
            browser.close()


def test_connections_that_send_no_request_are_closed_and_the_console_answers(broker, tmp_path):
    """A script opens 1,100 connections and sends nothing on them (and one sends its request's head a byte every half
    second): each held a socket for ever (uvicorn times out only between requests), so with 1,024 files the display
    could accept no one else. ``cardtable display serve`` closes a connection whose request head is not in within
    ``--head-timeout`` (10 s by default, 2 here): every one of them is closed, the console answers, and a live page
    opened before them keeps its stream. A request whose head came at once but whose body comes a byte at a time (400
    bytes would take 200 s) is closed too, ``--body-timeout`` after its head (60 s by default, 3 here)."""
    idle: list[socket.socket] = []
    with display_serve(broker, tmp_path, "--head-timeout", "2", "--body-timeout", "3") as port:
        try:
            page, status, _ = open_stream(port)
            assert status == "HTTP/1.1 200 OK"
            slow = socket.create_connection(("127.0.0.1", port), timeout=30)
            body = socket.create_connection(("127.0.0.1", port), timeout=30)  # a head at once, its body a byte at a time
            body.sendall(b"POST /api/login HTTP/1.1\r\nHost: hall\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 400\r\n\r\n")
            for i in range(1100):
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(f"127.0.{1 + i // 32}.2", 0)))
            started = time.monotonic()
            head = b"GET /api/hall HTTP/1.1\r\nHost: hall\r\n\r\n"
            slow.settimeout(0.5)
            sent, closed_after = 0, None
            while sent < len(head):  # a byte every half second: the whole head would take 19 s
                try:
                    slow.sendall(head[sent:sent + 1])
                    sent += 1
                    if slow.recv(1) == b"":
                        closed_after = time.monotonic() - started
                        break
                except TimeoutError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    closed_after = time.monotonic() - started
                    break
            assert closed_after is not None and closed_after < 10, f"the slow head was not cut off ({sent} bytes sent)"
            assert drip(body) < 10, "the slow body was not cut off"
            assert httpx.get(f"http://127.0.0.1:{port}/api/hall", timeout=20).status_code == 200  # the door answers
            for s in idle:  # every idle connection was closed by the display (accepted, then cut at its deadline)
                s.settimeout(30)
                assert s.recv(1) == b""
            assert time.monotonic() - started < 60
            page.settimeout(0.2)
            try:
                assert page.recv(4096) != b"", "the live page's stream was closed"
            except TimeoutError:
                pass  # nothing to send just now: still open
            page.close()
            slow.close()
            body.close()
        finally:
            for s in idle:
                s.close()
