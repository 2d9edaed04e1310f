"""A bridge that stops working must not look online: the real firmware in simavr, ``cardtable bridge run`` on its
pseudo-terminal, a real mosquitto. Its loop blocked for ever on a log nobody reads (the bridge's output a pipe that
stopped being read: the journal stuck, a terminal paused with Ctrl-S), and the bridge stopped whole (SIGSTOP)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest
from conftest import CARDTABLE
from journal import Journal
from test_board import BOARD_STATUS, once, presses, status, wait_until

from bridge.run import HUNG_S
from cardtable.watchdog import KEEPALIVE_S

pytestmark = pytest.mark.hil
TABLES = ["t1"]


def test_a_bridge_whose_loop_hangs_is_offline_and_its_presses_come_after_its_restart(make_board, broker, listen,
                                                                                     start_bridge):
    """The bridge's output stopped being read; the cable jiggled (the board silent a moment), and the bridge's loop
    blocked on the line saying so. paho's thread kept the connection alive, so ``board/status`` said ``online`` for as
    long as it hung (15 s and more, measured): a press made meanwhile never reached ``board/in`` and the table's clocks
    ran on. Now the bridge's watchdog ends it within ``HUNG_S`` (status 1), the broker says ``offline`` (its will), and
    the bridge started again (as the hall's unit does) has the press, which the board held."""
    board = make_board(board_id=4)
    journal = Journal()
    proc = subprocess.Popen([*CARDTABLE, "bridge", "run", "--table", "t1", "--port", str(board.link), "--broker",
                             broker.url("board-t1")], stdout=journal.write_end, stderr=journal.write_end)
    try:
        assert wait_until(lambda: status(listen) == "online", 30), journal.text
        journal.stuck()
        said = len(listen.payloads(BOARD_STATUS))
        board.unplug()  # a jiggled cable: the board silent, which the bridge's loop logs
        time.sleep(2.0)
        board.plug()
        board.tap("S", "pass")
        hung = time.monotonic()
        assert wait_until(lambda: proc.poll() is not None, HUNG_S + 10), status(listen)
        assert proc.returncode == 1
        assert wait_until(lambda: status(listen) == "offline", 5), listen.payloads(BOARD_STATUS)
        assert time.monotonic() - hung < HUNG_S + 10
        assert [json.loads(p)["status"] for p in listen.payloads(BOARD_STATUS)[said:]] == ["offline"]
        assert presses(listen) == []
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        journal.close()
    again = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), again.output()
    assert wait_until(lambda: len(presses(listen)) >= 1, 30), again.output()
    assert [(m["seat"], m["button"]) for m in once(presses(listen))] == [("S", "pass")]


def test_a_bridge_stopped_whole_is_offline_within_its_keepalive_and_back_when_it_goes_on(make_board, start_bridge,
                                                                                         listen):
    """A bridge stopped whole (SIGSTOP; a frozen machine) was ``online`` for 47 s (measured: 1.5 times paho's 30 s
    keepalive, and the broker's check) while no press went through. The bridge's keepalive is ``KEEPALIVE_S`` now: the
    broker publishes its will 1.5 times that after it last heard the bridge (mosquitto 2.0.11 checks keepalives
    coarsely: 9 to 12 s measured). Let go on (SIGCONT) it reconnects and says the board ``online``
    again: its watchdog does not take a stop of the whole process for its loop's hang."""
    board = make_board(board_id=6)
    bridge = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    os.kill(bridge.proc.pid, signal.SIGSTOP)
    stopped = time.monotonic()
    try:
        assert wait_until(lambda: status(listen) == "offline", 1.5 * KEEPALIVE_S + 8), listen.payloads(BOARD_STATUS)
        print(f"offline {time.monotonic() - stopped:.1f} s after SIGSTOP")
    finally:
        os.kill(bridge.proc.pid, signal.SIGCONT)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    time.sleep(HUNG_S + 1)
    assert bridge.proc.poll() is None, bridge.output()
    assert status(listen) == "online"
    board.tap("N", "bid2")
    assert wait_until(lambda: presses(listen), 30), bridge.output()
    assert [(m["seat"], m["button"]) for m in once(presses(listen))] == [("N", "bid2")]
