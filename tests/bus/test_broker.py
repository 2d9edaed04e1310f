"""The broker and the MQTT wrapper against a real mosquitto: delivery, last will, the hall's ACL,
a broker restart with nothing lost, and refused credentials.

Where a test shows that something is *not* delivered it does not sleep: after the forbidden message
an allowed sentinel goes the same way; mosquitto handles one packet at a time and keeps each
client's outgoing messages in order, so once the sentinel arrived the forbidden message would have
arrived before it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from bus.broker import free_port
from bus.mqtt import Connection, ConnectionRefused
from bus.protocol import subscription, topic

CONSOLE, SCOREBOARD = "console", "scoreboard"  # as in conftest.py
WAIT_S = 30.0  # the longest a test waits for something that must happen (a loaded machine: generous)
BROKER_DOWN_S = 30.0  # how long the restart test keeps the broker away (a hall must ride out 30 s)

T1_STATE = topic("t1", "state")
T2_STATE = topic("t2", "state")
T1_STATUS = topic("t1", "status")
T2_STATUS = topic("t2", "status")
T1_COMMANDS = topic("t1", "commands")
T2_COMMANDS = topic("t2", "commands")
T1_OBSERVED = topic("t1", "observed")
T1_BOARD_IN = topic("t1", "board/in")
T1_BOARD_OUT = topic("t1", "board/out")
EVERYTHING = "cardtable/v1/#"
FORGED = b'{"v":1,"forged":true}'


def refused(conn: Connection) -> list[str]:
    """The reasons the broker gave (MQTT 5 PUBACKs) for the publishes it refused."""
    return [str(reason) for _, reason in conn.refused()]


def once(payloads: list[bytes]) -> list[bytes]:
    """The payloads in order of first arrival, each once."""
    return list(dict.fromkeys(payloads))


def listen(conn: Connection, topic_filter: str, handler) -> Connection:
    """Subscribe and wait for the SUBACK: from then on the broker routes to the subscription."""
    conn.subscribe(topic_filter, handler)
    assert conn.wait_subscribed(WAIT_S)
    return conn


def logged(broker, since: int, lines: list[str], times: int = 1) -> str:
    """mosquitto's log from ``since`` once each of ``lines`` is in it ``times`` times (it writes the log on its own
    time: what a client was answered may be on its way to the file)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        text = broker.log_path.read_bytes()[since:].decode()
        missing = [line for line in lines if text.count(line) < times]
        if not missing:
            return text
        assert time.monotonic() < deadline, (missing, text)
        time.sleep(0.02)


def test_qos1_round_trip(connect, inbox):
    service, console = inbox(), inbox()
    listen(connect("table-t1-camera"), T1_OBSERVED, service)  # the service's session for the camera's inputs
    listen(connect(CONSOLE), EVERYTHING, console)
    payload = json.dumps({"v": 1, "id": "o-1", "seat": "北", "cards": ["SA", "SA"], "confidence": 0.98,
                          "at": 12.5}, ensure_ascii=False).encode()
    camera = connect("camera-t1")
    camera.publish(T1_OBSERVED, payload)
    assert camera.flush(WAIT_S)
    service.wait_payload(T1_OBSERVED, payload)
    console.wait_payload(T1_OBSERVED, payload)
    assert not camera.refused()


SERVICE = """
import sys, time
from bus.mqtt import Connection
url, topic = sys.argv[1:3]
c = Connection(url, "table-t1-service", will=(topic, b"offline", True), birth=(topic, b"online", True))
c.connect()
c.flush(5)
print("up", flush=True)
time.sleep(60)
"""


def test_status_online_retained_and_will_offline_when_killed(broker, connect, inbox):
    watcher = inbox()
    listen(connect(CONSOLE), T1_STATUS, watcher)
    proc = subprocess.Popen([sys.executable, "-c", SERVICE, broker.url("table-t1"), T1_STATUS],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "up\n"
        watcher.wait_payload(T1_STATUS, b"online")
        late = inbox()  # a scoreboard that starts later gets the retained status
        late_conn = listen(connect(SCOREBOARD, clean_start=True), T1_STATUS, late)
        late.wait_payload(T1_STATUS, b"online")
        late_conn.close()
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(WAIT_S)
        proc.stdout.close()
    watcher.wait_payload(T1_STATUS, b"offline")
    later = inbox()
    listen(connect(SCOREBOARD, clean_start=True), T1_STATUS, later)
    later.wait_payload(T1_STATUS, b"offline")
    assert later.payloads() == [b"offline"]


def test_close_with_will_publishes_offline(connect, inbox):
    watcher = inbox()
    listen(connect(CONSOLE), T2_STATUS, watcher)
    service = connect("table-t2", will=(T2_STATUS, b"offline", True), birth=(T2_STATUS, b"online", True))
    watcher.wait_payload(T2_STATUS, b"online")
    service.close(send_will=True)
    watcher.wait_payload(T2_STATUS, b"offline")


def test_a_table_cannot_publish_to_another_table(connect, inbox):
    console = inbox()
    listen(connect(CONSOLE), EVERYTHING, console)
    t1 = connect("table-t1")
    t1.publish(T2_STATE, FORGED, retain=True)
    t1.publish(T1_STATE, b'{"v":1,"sentinel":1}', retain=True)
    assert t1.flush(WAIT_S)
    console.wait_payload(T1_STATE, b'{"v":1,"sentinel":1}')
    assert FORGED not in console.payloads()
    assert refused(t1) == ["Not authorized"]  # MQTT 5: the PUBACK says so
    t1.publish(T1_COMMANDS, FORGED)  # nor its own inputs
    assert t1.flush(WAIT_S)
    assert refused(t1) == ["Not authorized"] * 2


def test_a_table_cannot_read_another_table(connect, inbox):
    spy = inbox()
    t1 = connect("table-t1")
    t1.subscribe(subscription("#", "t2"), spy)  # mosquitto 2.0.11 grants it; nothing comes through
    listen(t1, T1_COMMANDS, spy)
    t2 = connect("table-t2")
    t2.publish(T2_STATE, b'{"v":1,"secret":true}')
    assert t2.flush(WAIT_S)  # acknowledged: mosquitto has routed it
    console = connect(CONSOLE)
    console.publish(T2_COMMANDS, b'{"v":1,"cmd":"start"}')  # readable only by t2
    console.publish(T1_COMMANDS, b'{"v":1,"sentinel":1}')
    assert console.flush(WAIT_S)
    spy.wait_payload(T1_COMMANDS, b'{"v":1,"sentinel":1}')
    assert spy.messages == [(T1_COMMANDS, b'{"v":1,"sentinel":1}')]


def test_the_scoreboard_only_reads(connect, inbox):
    board, console = inbox(), inbox()
    scoreboard = listen(connect(SCOREBOARD), "cardtable/v1/tables/#", board)
    listen(connect(CONSOLE), EVERYTHING, console)
    scoreboard.publish(T1_COMMANDS, FORGED)
    scoreboard.publish(T1_STATE, FORGED)
    assert scoreboard.flush(WAIT_S)  # acknowledged: refused before the tables publish below
    assert refused(scoreboard) == ["Not authorized"] * 2
    t1, t2 = connect("table-t1"), connect("table-t2")
    t1.publish(T1_STATE, b'{"v":1,"table":"t1"}')
    t2.publish(T2_STATE, b'{"v":1,"table":"t2"}')
    board.wait_payload(T1_STATE, b'{"v":1,"table":"t1"}')
    board.wait_payload(T2_STATE, b'{"v":1,"table":"t2"}')
    console.wait_payload(T1_STATE, b'{"v":1,"table":"t1"}')
    assert FORGED not in console.payloads() and FORGED not in board.payloads()


def test_the_console_publishes_commands_only(connect, inbox):
    t1_in, t2_in = inbox(), inbox()
    listen(connect("table-t1"), T1_COMMANDS, t1_in)
    listen(connect("table-t2"), T2_COMMANDS, t2_in)
    console = connect(CONSOLE)
    console.publish(T2_COMMANDS, b'{"v":1,"cmd":"start"}')
    console.publish(T1_COMMANDS, b'{"v":1,"cmd":"stop"}')
    t2_in.wait_payload(T2_COMMANDS, b'{"v":1,"cmd":"start"}')
    t1_in.wait_payload(T1_COMMANDS, b'{"v":1,"cmd":"stop"}')
    assert t1_in.messages == [(T1_COMMANDS, b'{"v":1,"cmd":"stop"}')]
    console.publish(T1_STATE, FORGED)
    assert console.flush(WAIT_S)
    assert refused(console) == ["Not authorized"]


def test_camera_and_board_bridge_write_only_their_inputs(connect, inbox):
    service, bridge = inbox(), inbox()
    t1, t1_board = connect("table-t1"), connect("table-t1-board")  # the service's sessions
    listen(t1_board, T1_BOARD_IN, service)
    listen(connect("table-t1-camera"), T1_OBSERVED, service)
    board = listen(connect("board-t1"), T1_BOARD_OUT, bridge)
    camera = connect("camera-t1")
    camera.publish(T1_BOARD_IN, FORGED)
    camera.publish(T1_OBSERVED, b'{"v":1,"id":"o1"}')
    board.publish(T1_OBSERVED, FORGED)
    board.publish(topic("t2", "board/in"), FORGED)
    board.publish(T1_BOARD_IN, b'{"v":1,"id":"b1","button":"ready"}')
    t1.publish(T1_BOARD_OUT, b'{"v":1,"clock":15}')
    service.wait_payload(T1_OBSERVED, b'{"v":1,"id":"o1"}')
    service.wait_payload(T1_BOARD_IN, b'{"v":1,"id":"b1","button":"ready"}')
    bridge.wait_payload(T1_BOARD_OUT, b'{"v":1,"clock":15}')
    assert camera.flush(WAIT_S) and board.flush(WAIT_S)
    assert FORGED not in service.payloads()
    assert refused(camera) == ["Not authorized"] and refused(board) == ["Not authorized"] * 2


@pytest.mark.parametrize("user, password", [("console", "wrong"), ("nobody", "x"), (None, None)])
def test_wrong_credentials_are_refused(broker, user, password):
    cred = "" if user is None else f"{user}:{password}@"
    conn = Connection(f"mqtt://{cred}{broker.host}:{broker.port}", f"intruder-{user}")
    with pytest.raises(ConnectionRefused) as e:
        conn.connect(timeout=WAIT_S)
    assert e.value.reason == "Not authorized"  # mosquitto 2.0.11 answers 0x87, not 0x86 (bad password)
    assert "is not let in (a wrong password, or no such user)" in e.value.text("en") and "未获准连接" in str(e.value)
    assert not conn.connected


def test_connect_gives_up_after_its_timeout():
    conn = Connection(f"mqtt://console:x@127.0.0.1:{free_port()}", "nobody-listens")
    started = time.monotonic()
    with pytest.raises(TimeoutError) as e:
        conn.connect(timeout=0.5)
    assert time.monotonic() - started < 10  # gave up (a loaded machine may take its time to stop the network thread)
    where = f"127.0.0.1:{conn.address.port}"
    assert e.value.text("en") == f"no MQTT connection to {where} as 'nobody-listens' within 0.5 s"
    assert str(e.value) == f"0.5 秒内没有连上消息服务器 {where}（客户端 'nobody-listens'）"


def test_a_free_port_is_none_a_connection_can_take_for_its_own_end(broker):
    """free_port let the system pick a port, from the range it takes connections' own ports from, and let it go: a
    connection made before the server listened there took it (Errno 98, a display's in a clean clone). It picks below
    that range now, and a server can listen there."""
    import socket

    from bus.broker import FREE_FROM, _connections_ports

    low, high = _connections_ports()
    with socket.create_connection((broker.host, broker.port)) as conn:  # where a connection's own end is
        assert low <= conn.getsockname()[1] <= high
    for port in {free_port() for _ in range(20)}:
        assert FREE_FROM <= port < low
        with socket.create_server((broker.host, port)):
            pass


def test_messages_queued_for_a_session_wait_for_a_late_handler(connect, inbox):
    """A restarted service may subscribe after connecting; what the broker kept for it is not lost."""
    listen(connect("table-t1"), T1_COMMANDS, lambda t, p: None).close()  # the session stays
    console = connect(CONSOLE)
    for i in range(3):
        console.publish(T1_COMMANDS, f'{{"v":1,"n":{i}}}'.encode())
    assert console.flush(WAIT_S)
    service = connect("table-t1")  # no handler yet: the queue arrives now
    late = inbox()
    service.subscribe(T1_COMMANDS, late)
    late.wait_payload(T1_COMMANDS, b'{"v":1,"n":2}')
    assert late.payloads() == [b'{"v":1,"n":0}', b'{"v":1,"n":1}', b'{"v":1,"n":2}']


def test_broker_restart_loses_nothing(fresh_broker, connect, inbox, until):
    """The broker goes away for BROKER_DOWN_S and comes back (SIGTERM, restart on the same port):
    a QoS 1 message published while it was down is kept by the client and delivered afterwards;
    a message queued by the broker for an absent persistent session, the session's subscription
    and a retained state survive the restart."""
    b = fresh_broker
    staying = inbox()  # connected throughout, reconnects by itself
    staying_conn = listen(connect(SCOREBOARD, on=b), "cardtable/v1/tables/t1/#", staying)
    service = connect("table-t1", on=b)  # a persistent session ...
    listen(service, T1_COMMANDS, lambda t, p: None)
    service.publish(T1_STATE, b'{"v":1,"hand":7}', retain=True)
    assert service.flush(WAIT_S)
    service.close()  # ... whose process stops
    console = connect(CONSOLE, on=b)
    console.publish(T1_COMMANDS, b'{"v":1,"id":"c1"}')  # queued by the broker for the service
    assert console.flush(WAIT_S)
    staying.wait_payload(T1_COMMANDS, b'{"v":1,"id":"c1"}')

    b.stop()
    assert until(lambda: not console.connected)  # its network thread saw the connection close
    console.publish(T1_COMMANDS, b'{"v":1,"id":"c2"}')  # the broker is away: kept by the client
    assert console.pending() == 1
    time.sleep(BROKER_DOWN_S)
    assert console.pending() == 1
    b.restart()

    assert console.wait_connected(WAIT_S) and console.flush(WAIT_S)
    staying.wait_payload(T1_COMMANDS, b'{"v":1,"id":"c2"}')
    returned = inbox()
    service = connect("table-t1", on=b, start=False)
    service.subscribe(T1_COMMANDS, returned)  # before connecting: the kept messages come at once
    service.connect()
    returned.wait_payload(T1_COMMANDS, b'{"v":1,"id":"c2"}')
    # Nothing lost, in order; QoS 1 is "at least once": when the broker stops before a PUBACK
    # reached it, it saved the message as unacknowledged and sends it again (DUP) after the restart.
    # The services apply an input once by its id.
    assert once(returned.payloads()) == [b'{"v":1,"id":"c1"}', b'{"v":1,"id":"c2"}']
    assert once(staying.payloads(T1_COMMANDS)) == [b'{"v":1,"id":"c1"}', b'{"v":1,"id":"c2"}']
    fresh = inbox()
    staying_conn.close()
    listen(connect(SCOREBOARD, on=b, clean_start=True), T1_STATE, fresh)
    fresh.wait_payload(T1_STATE, b'{"v":1,"hand":7}')


def test_no_user_can_take_over_another_users_session(broker, connect, inbox):
    """Every user asks for the table service's client id, with and without a clean start, while
    the service is away and while it is connected: the broker gives each its own name as client
    id, so the service stays connected and its session keeps every queued input."""
    service = connect("table-t1")  # the table's persistent session, queueing its inputs ...
    listen(service, T1_COMMANDS, lambda t, p: None)
    service.close()  # ... while its process is down
    console = connect(CONSOLE)
    queued = [f'{{"v":1,"id":"q{i}"}}'.encode() for i in range(5)]
    for payload in queued:
        console.publish(T1_COMMANDS, payload)
    assert console.flush(WAIT_S)
    console.close()
    others = sorted(set(broker.users) - {"table-t1"})
    log_start = broker.log_path.stat().st_size
    got = inbox()
    for user in others:
        for clean in (False, True):  # resume the session (take its queue), or wipe it
            intruder = connect(user, "table-t1", clean_start=clean)
            # where the session's queue would land (it comes right after the CONNACK); the retained messages of the
            # module's other tests (a table's status) are not of the session: not asked for
            intruder.subscribe("cardtable/v1/#", got, retained="never")
            assert intruder.wait_subscribed(WAIT_S)
            intruder.close()
    new_log = logged(broker, log_start, [f" as {user} (p5, c{clean}" for user in others for clean in (0, 1)])
    # each connected under its own name, never as the table's id
    assert " as table-t1 " not in new_log and "session taken over" not in new_log
    assert got.payloads() == []
    returned = inbox()
    service = connect("table-t1", start=False)
    service.subscribe(T1_COMMANDS, returned)
    service.connect()
    returned.wait_payload(T1_COMMANDS, queued[-1])
    assert once(returned.payloads()) == queued  # all five, in order
    log_start = broker.log_path.stat().st_size
    for user in others:  # and with the service connected, nobody knocks it off
        connect(user, "table-t1", clean_start=True).close()
    new_log = logged(broker, log_start, [f" as {user} (p5, c1" for user in others])
    assert "closing old connection" not in new_log and "Client table-t1 disconnected" not in new_log, new_log
    assert service.connected and service.connects == 1


def test_the_broker_takes_no_payload_over_the_contracts_limit(connect, inbox):
    """One faulty camera sending megabytes (the contract allows 256 KiB) filled the broker's memory for a
    service away, queued without a bound in bytes; now the broker refuses it and what fits still passes."""
    from bus.protocol import MAX_BYTES

    service = connect("table-t1-camera")  # the service's session for the camera's inputs
    got = inbox()
    service.subscribe(T1_OBSERVED, got)
    assert service.wait_subscribed(WAIT_S)
    camera = connect("camera-t1")
    camera.publish(T1_OBSERVED, b"x" * (MAX_BYTES + 1))
    camera.publish(T1_OBSERVED, b"y" * MAX_BYTES)
    camera.publish(T1_OBSERVED, b'{"v":1,"last":true}')
    got.wait_payload(T1_OBSERVED, b'{"v":1,"last":true}')
    # QoS 1 is at least once: a publish may come twice (a client that reconnects sends it again)
    assert sorted(set(len(p) for p in got.payloads())) == [19, MAX_BYTES]  # nothing over the limit came


def test_the_camera_reads_its_tables_state_and_nothing_else(connect, inbox):
    """The camera follows what its table holds as played (``vision.tracker.told``): it reads its own table's ``state``,
    no other topic, no other table's."""
    seen = inbox()
    listen(connect("camera-t1"), EVERYTHING, seen)
    t1, t2 = connect("table-t1"), connect("table-t2")
    t2.publish(T2_STATE, FORGED)
    t2.publish(T1_STATE, FORGED)  # refused: t2's service writes t2's topics only
    t1.publish(T1_STATUS, FORGED)
    t1.publish(T1_STATE, b'{"v":1,"seq":1}')
    t2.publish(T2_STATUS, b'{"v":1}')
    seen.wait_payload(T1_STATE, b'{"v":1,"seq":1}')
    assert t2.flush(WAIT_S) and FORGED not in seen.payloads()


def test_deliveries_say_which_message_is_the_retained_copy_and_acknowledge_as_ever(connect, until):
    """``deliveries=True`` hands each handler the message's Delivery (the display's feed ages the broker's retained copy
    of a health by its time, and takes a live one as news) without ``manual_ack``'s holding back: a message taken is
    acknowledged, so a session resumed gets only what came while it was away."""
    table = connect("table-t1")
    table.publish(T1_STATUS, b"online", retain=True)
    assert table.flush(WAIT_S)
    got: list[tuple[bytes, bool]] = []

    def watch() -> Connection:
        return listen(connect(CONSOLE, deliveries=True), T1_STATUS, lambda t, p, d: got.append((p, d.retain)))

    console = watch()
    assert until(lambda: got == [(b"online", True)]), got  # the retained copy, said so
    table.publish(T1_STATUS, b"paused", retain=True)
    assert until(lambda: got[1:] == [(b"paused", False)]), got  # published while subscribed: live
    console.close()
    table.publish(T1_STATUS, b"online", retain=True)
    assert table.flush(WAIT_S)
    got.clear()
    watch()
    assert until(lambda: (b"online", False) in got), got  # what came while away, from the resumed session
    time.sleep(1.0)  # nothing taken before is delivered again (unacknowledged, it would be)
    assert (b"paused", False) not in got, got
