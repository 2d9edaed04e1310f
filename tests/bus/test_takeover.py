"""A user's connection taken over by another program of the same user (``bus.mqtt``'s ``yields``), against a real
mosquitto: two senders of one table on two machines (two processes here) are one client id, and the broker gives the
connection to the newer. Before, the older reconnected at once and took it back, ten times a second for ever, both
publishing in between (every play read twice). Now the older yields: it stops reconnecting and publishing, and says
why; the newer keeps the connection. A broker restarting is no takeover."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

import pytest

from bus.mqtt import TAKEN_OVER_EXIT, TAKEN_WITHIN_S, Connection, TakenOver
from bus.protocol import topic

TABLES = ["t1"]
OBSERVED = topic("t1", "observed")
WAIT_S = 30.0

# The older sender, a process of its own as on another machine: the product's connection, publishing until it is
# told to stop publishing (TakenOver), which it prints in both languages.
OLDER = """
import sys, time
from bus.mqtt import TAKEN_OVER_EXIT, Connection, TakenOver
conn, n = Connection(sys.argv[1], yields=True).connect(), 0
while True:
    try:
        conn.publish(sys.argv[2], b"older %d" % n)
    except TakenOver as e:
        print(e.text("zh"), e.text("en"), sep="\\n", flush=True)
        conn.close()
        sys.exit(TAKEN_OVER_EXIT)
    n += 1
    time.sleep(0.05)
"""


def test_the_older_of_two_senders_of_one_user_yields_and_the_newer_keeps_the_connection(broker, connect, inbox):
    box = inbox()
    console = connect("console", clean_start=True)
    console.subscribe(OBSERVED, box)
    assert console.wait_subscribed(WAIT_S)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    older = subprocess.Popen([sys.executable, "-c", OLDER, broker.url("camera-t1"), OBSERVED], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    newer = None
    try:
        box.wait_for(lambda t, p: p.startswith(b"older"), WAIT_S)
        newer = Connection(broker.url("camera-t1"), yields=True).connect()  # the camera's own settings
        out, err = older.communicate(timeout=WAIT_S)
        assert older.returncode == TAKEN_OVER_EXIT, err
        heard = len(box.messages)
        time.sleep(2 * TAKEN_WITHIN_S)  # no fight: nobody takes the connection back
        assert newer.connected and newer.taken is None and newer.connects <= 2  # ended once, by the older's try
        newer.publish(OBSERVED, b"newer")
        box.wait_payload(OBSERVED, b"newer")
        assert not [p for p in box.payloads()[heard:] if p.startswith(b"older")]  # nothing more from the older
    finally:
        older.kill()
        older.wait()
        if newer is not None:
            newer.close()
    assert "消息服务器" in out and "连着两次关掉了用户 'camera-t1'" in out and "这里不再重连，也不再发布" in out, out
    assert "another program connected as the same user" in out and "no reconnecting here" in out, out
    assert broker.log_tail(60).count("Client camera-t1 already connected") <= 3  # took over, back, over: no more


def test_a_broker_restarting_twice_in_a_row_is_no_takeover(fresh_broker):
    """Restarted, the broker closes every connection, and again soon after the client came back: but each time the
    client's tries failed while it was away, which another client's takeover never makes them."""
    conn = Connection(fresh_broker.url("camera-t1"), yields=True, reconnect_delay_s=(0.05, 0.5)).connect()
    try:
        for _ in range(2):
            fresh_broker.stop()
            time.sleep(0.5)  # away for a moment: a try or two refused
            fresh_broker.restart()
            assert conn.wait_connected(WAIT_S)
        assert conn.taken is None
        conn.publish(OBSERVED, b"still here")
        assert conn.flush(WAIT_S)
    finally:
        conn.close()


@pytest.mark.parametrize("down", ["restart", "kill"])
def test_a_broker_back_before_each_try_twice_within_the_window_is_no_takeover(fresh_broker, down):
    """Restarted (SIGTERM) or killed and started again (a unit's restart) twice within ``TAKEN_WITHIN_S``, the broker
    back each time before the client's next try: two closes in a row with no try failed, as a takeover makes them on
    mosquitto 2.0.11. Before, the camera took it for one and ended for good. But the broker that took a session over
    runs on and answers at once; one going down answers nothing."""
    delay = 2.0  # the broker is back before the client's next try (a loaded machine starts it slowly)
    conn = Connection(fresh_broker.url("camera-t1"), yields=True, reconnect_delay_s=(delay, delay)).connect()
    try:
        for _ in range(2):
            begun = time.monotonic()  # the second time: right after the client reconnected, well within the window
            if down == "kill":
                fresh_broker.kill()
            fresh_broker.restart()
            assert time.monotonic() - begun < delay  # back before the try: no try failed
            assert conn.wait_connected(WAIT_S), conn.taken
        assert conn.taken is None and conn.connects == 3
        conn.publish(OBSERVED, b"still here")
        assert conn.flush(WAIT_S)
    finally:
        conn.close()


def test_a_broker_that_says_session_taken_over_is_yielded_to_at_once():
    """mosquitto 2.0.15 on says it (DISCONNECT, reason 0x8E), before closing: the connection yields at the first word,
    without taking it back even once. The mosquitto here (2.0.11) never says it, so a listener of the test's own
    answers the CONNECT and then says it, as that broker would, and counts the connections it is offered."""
    server = socket.create_server(("127.0.0.1", 0))
    tries: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:  # closed: the test is over
                return
            tries.append(conn)
            conn.recv(4096)  # the CONNECT
            conn.sendall(bytes([0x20, 3, 0, 0, 0]))  # CONNACK: no session present, success, no properties
            time.sleep(0.2)
            conn.sendall(bytes([0xE0, 2, 0x8E, 0]))  # DISCONNECT: session taken over, no properties

    threading.Thread(target=serve, daemon=True).start()
    conn = Connection(f"mqtt://camera-t1:pw@127.0.0.1:{server.getsockname()[1]}", yields=True,
                      reconnect_delay_s=(0.05, 0.5)).connect()
    try:
        deadline = time.monotonic() + WAIT_S
        while conn.taken is None and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(1.0)  # it would have tried again by now, after 0.05 s
        assert conn.taken is not None and conn.taken.key == "broker.taken_over_said" and len(tries) == 1
        assert "已被另一个用同一用户连上的程序接管" in conn.taken.text("zh")
        with pytest.raises(TakenOver):
            conn.publish(OBSERVED, b"late")
    finally:
        conn.close()
        server.close()
        for t in tries:
            t.close()
