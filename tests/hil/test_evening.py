"""A bad evening, the cases the other hil tests leave out, each with the real firmware in simavr, a real pty and a real
mosquitto: the table computer's wall clock set back an hour while a shot clock runs, the board reset mid-hand (with
the bridge there, and with its cable out), the broker restarted under a running bridge while seats press, the
bridge started before its port is there, and a repeated or damaged command on the line."""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from pathlib import Path

import pytest
import serial
from conftest import BridgeProcess
from simboard import GREEN, RED, pin
from test_board import BOARD_OUT, board_out, clock, once, presses, pressed_till_the_broker_stops, status, wait_until

from bus.protocol import encode, topic

pytestmark = pytest.mark.hil
TABLES = ["t1"]
HEALTH = json.loads((Path(__file__).resolve().parents[2] / "bus" / "schemas" / "health.json").read_text())["examples"][0]


def near(display: str, want: float, within: float = 0.5) -> bool:
    try:
        return abs(clock(display) - want) <= within
    except ValueError:
        return False


@pytest.mark.parametrize("step", [-3600.0, 3600.0])
def test_a_wall_clock_stepped_an_hour_leaves_the_board_linked_and_its_clocks_right(step, make_board, broker, listen,
                                                                                   caplog):
    """The table computer's clock stepped an hour (a late NTP step, someone setting it by hand) while N's shot clock
    runs; the table service counts on from its start (docs/deployment.md), so its ``at`` does not step. The bridge timed
    everything by the wall clock: set back, its beats to the board stopped for that hour (the board showed LoSt while
    board/status said online), a display sent again after a reset showed the clock as it was an hour's worth of
    seconds before, and a table service that hung was never said gone; set on, each new board/out showed every running
    clock run out, and beeped. It times spans by a monotonic clock now, takes a board/out just made as of now, and
    dates by the wall clock only what goes on the bus."""
    from bridge.run import Bridge

    board = make_board(board_id=7)
    back = [0.0]
    stop = threading.Event()
    bridge = Bridge("t1", str(board.link), broker.url("board-t1"), clock=lambda: time.time() - back[0], stop=stop)
    caplog.set_level(logging.INFO, logger="bridge")
    served = threading.Thread(target=bridge.serve, daemon=True)
    served.start()
    beating, service = threading.Event(), listen.service

    def healths() -> None:
        while not beating.wait(1.0):
            service.publish(topic("t1", "health"), encode("health", {**HEALTH, "at": time.time(), "problem": None}),
                            retain=True)

    try:
        assert wait_until(lambda: status(listen) == "online", 30)
        service.publish(topic("t1", "status"), encode("status", {"v": 1, "status": "online"}), retain=True)
        threading.Thread(target=healths, daemon=True).start()
        made = time.time()
        service.publish(BOARD_OUT, board_out({"N": {"clock": 100.0, "cards": 27, "light": "green"}}, at=made),
                        retain=True)
        assert wait_until(lambda: board.display("N").endswith("  27"), 30), board.display("N")
        back[0] = -step  # the wall clock stepped
        time.sleep(4.0)
        assert not board.display("N").endswith("Lo5t"), board.display("N")
        assert status(listen) == "online" and pin(board.state(), GREEN["N"])
        assert near(board.display("N"), 100.0 - (time.time() - made)), board.display("N")
        beeps, made = board.state()["beeps"], time.time()
        service.publish(BOARD_OUT, board_out({"N": {"clock": 80.0, "cards": 27, "light": "green"}}, at=made),
                        retain=True)
        assert wait_until(lambda: near(board.display("N"), 80.0 - (time.time() - made)), 5), board.display("N")
        assert board.state()["beeps"] == beeps
        board.reset()  # the displays go again, as the bridge reckons them now
        assert wait_until(lambda: board.display("N").endswith("  27"), 30), board.display("N")
        assert near(board.display("N"), 80.0 - (time.time() - made)), board.display("N")
        beating.set()  # the table service hangs: its health stops
        assert wait_until(lambda: board.display("N") == "rEF GonE", 10), board.display("N")
    finally:
        beating.set()
        stop.set()
        served.join(10)
        for name in ("status", "health"):  # the module's later tests have no table service
            service.publish(topic("t1", name), b"", retain=True)
    assert "board7 restarted at" in caplog.text


def test_a_board_reset_mid_hand_shows_the_clock_as_it_is_or_none(make_board, start_bridge, listen):
    """A power dip mid-hand: the board starts again knowing no clock. With its bridge there it is shown every seat again
    at once, the running clock as it is then (not as it was when board/out came); with its cable out it shows no clock
    at all (it does not know one) and LoSt, and the clock as it is once the cable is back."""
    board = make_board(board_id=8)
    bridge = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    made = time.time()
    listen.service.publish(BOARD_OUT, board_out({"E": {"clock": 90.0, "cards": 13, "light": "green"},
                                                 "W": {"cards": 13, "light": "red"}}, at=made), retain=True)
    assert wait_until(lambda: board.display("E").endswith("  13"), 30), board.display("E")
    time.sleep(2.0)
    board.reset()
    assert wait_until(lambda: board.display("E").endswith("  13") and board.display("W").endswith("  13"), 5), \
        board.display("E")
    assert near(board.display("E"), 90.0 - (time.time() - made)), board.display("E")
    lit = (lambda: (pin(board.state(), GREEN["E"]), pin(board.state(), RED["W"]), pin(board.state(), GREEN["W"])))
    assert wait_until(lambda: lit() == (True, True, False), 5), lit()

    board.unplug()
    board.reset()
    assert wait_until(lambda: board.display("E") == "    Lo5t", 0.5), board.display("E")  # no clock: it knows none
    assert not pin(board.state(), GREEN["E"])
    board.plug()
    assert wait_until(lambda: board.display("E").endswith("  13"), 30), board.display("E")
    assert near(board.display("E"), 90.0 - (time.time() - made)), board.display("E")
    assert len(re.findall(r"board8 restarted at", bridge.output())) == 2, bridge.output()


def test_presses_made_while_the_broker_restarts_under_a_running_bridge_arrive_once(make_board, fresh_broker, connect,
                                                                                    inbox, tmp_path):
    """The broker restarted (its host rebooted, mosquitto upgraded) while the bridge runs and seats press: the presses
    wait (on the board, then in the bridge) and come once the broker is back, each once, in order."""
    board = make_board(board_id=9)
    box, bridge = pressed_till_the_broker_stops(connect, inbox, fresh_broker, board, tmp_path / "bridge.log")
    try:
        for seat, button in (("E", "pass"), ("N", "bid1"), ("W", "confirm")):
            board.tap(seat, button)
            time.sleep(0.3)
        fresh_broker.restart()
        board.tap("S", "declare")
        assert wait_until(lambda: len(once(presses(box))) == 5, 40), bridge.output()
        time.sleep(1.0)
    finally:
        bridge.stop()
    got = once(presses(box))
    assert [(m["id"], m["seat"], m["button"]) for m in got] == [
        ("board9-1-000001", "S", "ready"), ("board9-1-000002", "E", "pass"), ("board9-1-000003", "N", "bid1"),
        ("board9-1-000004", "W", "confirm"), ("board9-1-000005", "S", "declare")]


def test_a_bridge_started_before_its_port_is_there_says_so_once(make_board, broker, listen, tmp_path):
    """The bridge's unit started before the USB adapter is plugged in (or with a mistyped --port), or the cable put back
    gave the board another name (``/dev/ttyUSB1``): it said nothing (its tries at opening the port were logged only with
    -v), board/status said ``lost``, and nobody read why. It says once an absence that it cannot open the port, why
    that may be (README: give ``--port`` by id), and that it waits for it; once the board is there it bridges it."""
    port = tmp_path / "ttyUSB0"  # the name the bridge is given: the board's node while it is plugged in
    bridge = BridgeProcess("t1", port, broker.url("board-t1"), tmp_path / "bridge.log")
    try:
        assert wait_until(lambda: status(listen) == "lost", 30), bridge.output()
        said = f"串口 {port} 打不开（No such file or directory）"
        assert wait_until(lambda: said in bridge.output(), 10), bridge.output()
        time.sleep(2.0)  # four more tries
        assert bridge.output().count(said) == 1, bridge.output()
        board = make_board(board_id=3)
        port.symlink_to(board.link)  # plugged in
        assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
        board.tap("N", "bid2")
        assert wait_until(lambda: [(m["seat"], m["button"]) for m in presses(listen)] == [("N", "bid2")], 30)
        board.unplug()  # the cable pulled: ttyUSB0 gone
        assert wait_until(lambda: status(listen) == "lost", 30), bridge.output()
        assert wait_until(lambda: bridge.output().count(said) == 2, 10), bridge.output()
        port.unlink()
        board.plug()  # put back, it comes as another node (ttyUSB1: board.link)
        time.sleep(2.0)
        assert status(listen) == "lost" and bridge.output().count(said) == 2, bridge.output()
        assert "/dev/serial/by-id/" in bridge.output()
        port.symlink_to(board.link)  # --port given by id: udev's name follows the adapter
        assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    finally:
        bridge.stop()


def test_a_repeated_command_acts_once_and_a_damaged_one_not_at_all(make_board):
    """Line noise on the host's side of the line, at the real firmware: a command frame repeated (the host's copy after
    a lost ack, or an echo) beeps once; one with a flipped bit is counted corrupt and does nothing; a press frame the
    host got twice is published once (the host's side: test_host)."""
    from bridge.frames import encode as frame
    from bridge.host import HostLink
    from bridge.messages import Buzzer, Display, Sync

    board = make_board(board_id=4)
    port = serial.Serial(str(board.link), 115200, timeout=0.05)
    link = HostLink()
    port.write(frame(Sync().frame()))
    deadline = time.monotonic() + 10
    while link.board is None and time.monotonic() < deadline:
        link.received(port.read(256), time.monotonic())
    assert link.board is not None
    beeps = board.state()["beeps"]
    buzz = frame(Buzzer(1, 50, 0).frame(5))
    port.write(buzz * 3)
    time.sleep(0.5)
    assert board.state()["beeps"] == beeps + 1
    flipped = bytearray(frame(Display(0, 425, 9, 0).frame(6)))
    flipped[5] ^= 0x04  # inside the clock: still no zero byte, the CRC does not match
    assert 0 not in flipped[:-1]
    port.write(bytes(flipped))
    time.sleep(0.7)
    link.received(port.read(4096), time.monotonic())
    assert board.display("S") == "    Lo5t" or board.display("S") == "        ", board.display("S")
    assert link.heartbeat.corrupt == 1, link.heartbeat
    port.write(frame(Display(0, 425, 9, 0).frame(6)))
    assert wait_until(lambda: board.display("S").startswith(" 42.5"), 5), board.display("S")
    port.close()
