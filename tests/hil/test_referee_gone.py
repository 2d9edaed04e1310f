"""A table nobody referees must not look refereed at the table: the real table service (``cardtable table run``), a
real mosquitto, ``cardtable bridge run`` and the real firmware in simavr. The service killed (SIGKILL: the broker
publishes its will, ``offline``) or stopped whole (SIGSTOP: its ``health`` stops); the board's clocks counted down
on their own, ran out and beeped, as if a ruling had been made."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest
from conftest import CARDTABLE
from simboard import GREEN, RED, pin
from test_board import clock, wait_until

from bus.protocol import encode, topic

pytestmark = pytest.mark.hil
TABLES = ["t1", "t2"]  # one a test: a table's log is its own (the broker keeps its witness)
BOUND_S = 10.0  # the board says the referee is gone within this of its death (3 healths of 2 s missed: 6 s and a bit)
GONE = "rEF GonE"


def start_service(broker, tmp_path, table: str) -> subprocess.Popen:
    with open(tmp_path / "service.log", "ab") as out:
        return subprocess.Popen([*CARDTABLE, "table", "run", "--table", table, "--rulebook", "sanjiang-2012",
                                 "--broker", broker.url(f"table-{table}"), "--db", str(tmp_path / f"{table}.db")],
                                stdout=out, stderr=subprocess.STDOUT)


def counting(board, seat: str = "S") -> bool:
    """The seat's display shows a clock, and it goes down."""
    first = board.display(seat)
    time.sleep(0.5)
    later = board.display(seat)
    try:
        return clock(later) < clock(first)
    except ValueError:
        return False


@pytest.fixture
def table(request, broker, connect, inbox, make_board, start_bridge, tmp_path):
    """A Guandan table in play: its service, the board and its bridge, players assigned, a round started, every seat
    ready on the board's buttons and S leading on its 30 s (counting down on S's display). Yields (board, service,
    bridge); the service killed after."""
    name = request.param
    board = make_board(board_id=5)
    bridge = start_bridge(board, name)
    service = start_service(broker, tmp_path, name)
    console, told = connect("console"), inbox()
    console.subscribe(topic(name, "status"), told)
    try:
        told.wait_for(lambda _t, p: b'"online"' in p, timeout=40)
        for command in ({"command": "assign", "players": {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"},
                         "rulebook": "sanjiang-2012"}, {"command": "start_round"}):
            console.publish(topic(name, "commands"), encode("commands", {"v": 1, "id": f"c-{time.time_ns()}",
                                                                        **command}), qos=1)
            time.sleep(1.0)  # one after the other: they come on one connection, but apply in the order logged
        for seat in "SENWS":  # every seat ready; S again: S leads
            board.tap(seat, "ready")
            time.sleep(0.5)
        assert wait_until(lambda: counting(board), 40), (board.display("S"), bridge.output())
        yield board, service, bridge
    finally:
        if service.poll() is None:
            service.send_signal(signal.SIGCONT)
            service.kill()
        service.wait()


@pytest.mark.parametrize("table", ["t1"], indirect=True)
def test_a_killed_table_service_stops_the_boards_clocks_and_says_so_and_its_restart_brings_them_back(
        table, broker, tmp_path):
    board, service, bridge = table
    beeps = board.state()["beeps"]
    service.kill()  # SIGKILL: no goodbye; the broker publishes its will
    killed = time.monotonic()
    assert wait_until(lambda: all(board.display(s) == GONE for s in "SENW"), BOUND_S + 5), \
        (board.display("S"), bridge.output())
    assert time.monotonic() - killed <= BOUND_S
    state = board.state()
    assert all(pin(state, GREEN[s]) and pin(state, RED[s]) for s in "SENW"), state  # amber: waiting for the referee
    time.sleep(3.0)
    assert all(board.display(s) == GONE for s in "SENW")  # no clock runs: none runs out, nothing beeps
    assert board.state()["beeps"] == beeps
    assert "裁判服务不在了" in bridge.output() and "offline" in bridge.output()  # said in the bridge's log, and why

    again = start_service(broker, tmp_path, "t1")
    try:
        assert wait_until(lambda: board.display("S") != GONE and counting(board), 40), board.display("S")
    finally:
        again.kill()
        again.wait()


@pytest.mark.parametrize("table", ["t2"], indirect=True)
def test_a_hung_table_service_stops_the_boards_clocks_within_the_bound_and_goes_on_when_it_does(table):
    board, service, bridge = table
    service.send_signal(signal.SIGSTOP)  # hung: its connection stands until the broker's keepalive, its health stops
    stopped = time.monotonic()
    assert wait_until(lambda: all(board.display(s) == GONE for s in "SENW"), BOUND_S + 5), board.display("S")
    assert time.monotonic() - stopped <= BOUND_S
    os.kill(service.pid, signal.SIGCONT)
    assert wait_until(lambda: board.display("S") != GONE and counting(board), 30), board.display("S")
