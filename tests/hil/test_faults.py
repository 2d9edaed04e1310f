"""A bad evening for the table board, with the real firmware in simavr, ``cardtable bridge run`` on its
pseudo-terminal and a real mosquitto: a second bridge started on the same board, presses the board must drop (its
queue full while the broker is away), a clock that comes at zero (a repeated or late ``board/out``, the displays
sent again after the board's reset)."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import struct
import time
import tty

import pytest
from bus.firmware import SHIPPED
from conftest import BridgeProcess
from simboard import BUTTONS, RED, SEATS, pin
from test_board import BOARD_OUT, BOARD_STATUS, board_out, clock, once, presses, status, wait_until

pytestmark = pytest.mark.hil
TABLES = ["t1"]
EVENT_SLOTS = 32  # firmware/board.h: presses the board keeps until the host has them at the broker


def statuses(inbox) -> list[str]:
    return [json.loads(p)["status"] for p in inbox.payloads(BOARD_STATUS)]


def test_a_second_bridge_on_the_same_board_says_so_and_ends(make_board, start_bridge, listen):
    """Two bridges opened one board's port: each bridge of a table is the user ``board-T``, so the broker gave the
    connection to the newest and they took it from each other for ever; the board's bytes went half to each. The
    status flapped online, lost, offline, and not one press of six reached ``board/in``. Now the port is held
    exclusively, taken before the broker connection: the second says so in words and ends (1), the first goes on."""
    board = make_board(board_id=7)
    first = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), first.output()
    second = start_bridge(board)
    assert wait_until(lambda: second.proc.poll() is not None, 30), second.output()
    assert second.proc.returncode == 1
    assert f"cardtable bridge run：错误：串口 {board.link} 已被另一个程序占用" in second.output()
    for seat in SEATS:
        board.tap(seat, "pass")
    assert wait_until(lambda: len(once(presses(listen))) == 4, 30), first.output()
    assert [(m["seat"], m["button"]) for m in once(presses(listen))] == [(seat, "pass") for seat in SEATS]
    assert statuses(listen)[-1] == "online" and "offline" not in statuses(listen), statuses(listen)


def test_presses_the_board_drops_with_its_queue_full_are_said(make_board, fresh_broker, tmp_path):
    """A press waits on the board until the broker has it (PROTOCOL.md: a queue of 32; when it is full a new press is
    dropped, counted in the heartbeat, and the board beeps three times). With the broker away for 35 presses the last
    three were lost and the bridge, which had their count in every heartbeat, said nothing."""
    board = make_board(board_id=5)
    bridge = BridgeProcess("t1", board.link, fresh_broker.url("board-t1"), tmp_path / "bridge.log")
    try:
        assert wait_until(lambda: "'status': 'online'" in bridge.output(), 30), bridge.output()
        fresh_broker.stop()
        for n in range(EVENT_SLOTS + 3):
            board.tap(SEATS[n % 4], BUTTONS[n // 4 % 8], hold_s=0.03)
            time.sleep(0.03)
        assert wait_until(lambda: "3 since the bridge started" in bridge.output(), 30), bridge.output()
        assert bridge.output().count("t1: the board's queue of presses was full: ") <= 3  # said as the count grows
        assert board.state()["beeps"] >= 3
    finally:
        bridge.stop()


def test_a_clock_that_comes_at_zero_beeps_no_more(make_board, start_bridge, listen):
    """PROTOCOL.md: a running clock reaching zero beeps once (600 ms). The board beeped for every display command at
    zero: each later ``board/out`` (any seat's change sends every seat's display), one read an hour late, and every
    display sent again after the board's reset beeped again for a clock long run out. A clock counting down to zero
    still beeps once. The reset is mid-game: the board comes back showing the clocks as they are now."""
    board = make_board(board_id=3)
    bridge = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    service = listen.service
    service.publish(BOARD_OUT, board_out({"N": {"clock": 0.5, "cards": 30}, "E": {"clock": 60.0, "cards": 9}}),
                    retain=True)
    assert wait_until(lambda: board.display("N") == "  0.0  30", 30), board.display("N")
    assert wait_until(lambda: board.state()["beeps"] == 1, 30)  # reached zero on the board: once
    service.publish(BOARD_OUT, board_out({"N": {"clock": 0.0, "cards": 30}, "E": {"clock": 59.0, "cards": 9},
                                          "S": {"cards": 8}}), retain=True)
    service.publish(BOARD_OUT, board_out({"W": {"clock": 30.0, "cards": 7}}, at=time.time() - 3600), retain=True)
    bridge.stop()  # its next bridge reads the retained copy, made an hour before (one just made is as of now: at is
    bridge = start_bridge(board)  # the service's clock, which counts on from its start while the computer's steps)
    assert wait_until(lambda: board.display("W") == "  0.0   7", 30), board.display("W")  # an hour late: run out
    time.sleep(1.0)
    assert board.state()["beeps"] == 1

    made = time.time()
    service.publish(BOARD_OUT, board_out({"N": {"clock": 0.0, "cards": 30}, "E": {"clock": 40.0, "cards": 9}},
                                         at=made), retain=True)
    assert wait_until(lambda: board.display("E").endswith("   9") and board.display("W") == "       0", 30)
    board.reset()  # the reset button, a power dip: the board starts again (boot 2), its displays blank
    assert wait_until(lambda: json.loads(listen.payloads(BOARD_STATUS)[-1]).get("boot") == 2, 30), bridge.output()
    assert wait_until(lambda: board.display("N") == "  0.0  30", 30), board.display("N")
    east, seen = board.display("E"), time.time()
    assert 40.0 - (seen - made) - 0.5 <= float(east[:-4]) <= 40.0, east
    time.sleep(1.0)
    assert board.state()["beeps"] == 1, board.state()["beeps"]


def test_a_button_held_down_is_said_stuck_and_let_go(make_board, start_bridge, listen):
    """A stuck button gave one press and then nothing: the board sends a press when a key goes down, and nobody was
    told that the seat's button no longer works. The board now says the keys held down ``STUCK_MS`` (5 s) or more in
    its heartbeat (PROTOCOL.md, protocol 2) and the bridge says each, and when it is let go. The bridge's log was
    all that said it: no ``board/status`` field can (bus protocol v1 is closed) and no press of it comes, so the table
    service sees nothing. Now the seat's own display says it, ``StUc`` in place of its cards, until it is let go
    (firmware 2.1.0): the player or the referee at the table sees it, where it can be mended."""
    board = make_board(board_id=8)
    bridge = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    listen.service.publish(BOARD_OUT, board_out({s: {"cards": 12} for s in SEATS}), retain=True)
    assert wait_until(lambda: board.display("W") == "      12", 30), board.display("W")
    board.press("W", "pass")
    time.sleep(3.0)
    assert "held down" not in bridge.output()  # a long press is no stuck button
    assert board.display("W") == "      12"
    said = "t1: the pass button of seat W has been held down 5 s or more (stuck?)"
    assert wait_until(lambda: said in bridge.output(), 30), bridge.output()
    assert wait_until(lambda: board.display("W") == "    5tUc", 5), board.display("W")
    assert [board.display(s) for s in "SEN"] == ["      12"] * 3
    board.release("W", "pass")
    assert wait_until(lambda: "t1: the pass button of seat W is let go" in bridge.output(), 30), bridge.output()
    assert wait_until(lambda: board.display("W") == "      12", 5), board.display("W")
    assert bridge.output().count(said) == 1
    assert [(m["seat"], m["button"]) for m in once(presses(listen))] == [("W", "pass")]


def test_a_board_reset_is_said_with_its_time(make_board, start_bridge, listen):
    """Presses made while the board restarts, and those waiting in its RAM, are lost (README: the auto-reset of a
    Nano), and nobody was told. The board's hello now says how long ago its boot began and whether a reset began it
    (not its press numbers running out), and the bridge says when the board restarted."""
    board = make_board(board_id=9)
    bridge = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    assert "board9 restarted" not in bridge.output()
    reset_at = time.time()
    board.reset()
    said = re.compile(r"t1: board9 restarted at (\d\d:\d\d:\d\d) \(boot 2\): presses made while it restarted may be "
                      r"lost, and of the 0 waiting on it those not yet at the broker")
    assert wait_until(lambda: said.search(bridge.output()), 30), bridge.output()
    when = said.search(bridge.output()).group(1)
    assert when in {time.strftime("%H:%M:%S", time.localtime(reset_at + d)) for d in (-1, 0, 1)}, (when, reset_at)


def test_a_board_of_the_old_protocol_is_refused_in_words(broker, tmp_path):
    """PROTOCOL.md "Versions": the display's clock became a u32 (protocol 2): a board still on protocol 1 would read
    every display command wrong. Its frames (a right CRC, version 1) were counted as unknown and the board never came
    online, unsaid; now the bridge says in words which versions the two speak, and ends (1)."""
    from bridge.frames import cobs_encode, crc16

    def v1_heartbeat(ms: int) -> bytes:  # firmware 1.1.1's heartbeat: board ms, queued, link up, corrupt, unknown, dropped
        raw = bytes([1, 0x02, 0, 0]) + struct.pack("<IBBHHH", ms, 0, 0, 0, 0, 0)
        return cobs_encode(raw + crc16(raw).to_bytes(2, "big")) + b"\0"

    master, slave = os.openpty()
    tty.setraw(slave)
    link = tmp_path / "old-board"
    link.symlink_to(os.ttyname(slave))
    bridge = BridgeProcess("t1", link, broker.url("board-t1"), tmp_path / "bridge.log")
    try:
        for n in range(60):
            if bridge.proc.poll() is not None:
                break
            os.write(master, v1_heartbeat(500 * n))
            while select.select([master], [], [], 0)[0]:
                os.read(master, 4096)  # the bridge's syncs, which the old board cannot read
            time.sleep(0.5)
        assert bridge.proc.wait(10) == 1, bridge.output()
    finally:
        bridge.stop()
        os.close(master)
        os.close(slave)
    assert f"cardtable bridge run：错误：串口 {link} 上的显示板说串口协议第 1 版，本桥接说第 2 版" in bridge.output()


OLD_FIRMWARE = f"的固件是 2.0.0，比本桥接配套的 {SHIPPED} 旧"  # bridge.firmware_old, board 2.0.0


def test_a_board_of_an_older_firmware_is_bridged_and_said_once(broker, listen, tmp_path, monkeypatch):
    """A board still on firmware 2.0.0 (a venue that never flashed it) speaks protocol 2 and was bridged without a
    word: nobody learnt that it still sends a key held through a power dip as a second press and shows no ``StUc``.
    The bridge now says once, in words, what it lacks and how to flash it, and bridges it as it is. The board is the
    virtual board (the firmware's side in Python) saying 2.0.0, restarted once: the same board, not said again."""
    from bridge.virtual import VirtualBoard

    monkeypatch.setattr("bridge.virtual.FIRMWARE", (2, 0, 0))
    master, slave = os.openpty()
    tty.setraw(slave)
    link = tmp_path / "old-board"
    link.symlink_to(os.ttyname(slave))
    boards = [VirtualBoard(board_id=4, boot=1)]
    bridge = BridgeProcess("t1", link, broker.url("board-t1"), tmp_path / "bridge.log")

    def serve(until) -> bool:  # the board's side of the line, for as long as until() is false (30 s at most)
        start, deadline = time.monotonic(), time.monotonic() + 30
        while not until() and time.monotonic() < deadline:
            now_ms = int((time.monotonic() - start) * 1000)
            while select.select([master], [], [], 0.01)[0]:
                boards[-1].received(os.read(master, 4096), now_ms)
            os.write(master, boards[-1].take(now_ms))
        return until()

    try:
        assert serve(lambda: OLD_FIRMWARE in bridge.output()), bridge.output()
        assert serve(lambda: status(listen) == "online"), listen.payloads(BOARD_STATUS)
        assert json.loads(listen.payloads(BOARD_STATUS)[-1])["firmware"] == "2.0.0"
        boards.append(VirtualBoard(board_id=4, boot=2))  # a reset: its clock starts again, its hello says boot 2
        assert serve(lambda: "board4 restarted" in bridge.output()), bridge.output()
    finally:
        bridge.stop()
        os.close(master)
        os.close(slave)
    said = [line for line in bridge.output().splitlines() if OLD_FIRMWARE in line]
    assert len(said) == 1, said
    assert "卡住（按住五秒以上）的键在座位显示屏上显示 `StUc`" in said[0]
    assert f"`make -C firmware-bridge/firmware flash PORT={link}`" in said[0]


def test_a_board_of_the_shipped_firmware_is_not_said_old(make_board, start_bridge, listen):
    """The real firmware built from firmware/board.h is the one the bridge knows as shipped (bus.firmware.FIRMWARE):
    board/status says it, and the bridge says nothing of an older one."""
    board = make_board(board_id=3)
    bridge = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    assert json.loads(listen.payloads(BOARD_STATUS)[-1])["firmware"] == SHIPPED
    board.tap("S", "ready")
    assert wait_until(lambda: len(presses(listen)) == 1, 30), bridge.output()
    assert "的固件是" not in bridge.output()


def test_a_button_held_through_a_reset_is_not_pressed_again(make_board, start_bridge, listen):
    """A power dip while a player holds a button: the board started again with the key down, took it for a key going
    down, and sent a second press (a new boot's id, so the table service took it as a second ``pass``, a second bid).
    A key already down when the board starts is no press (PROTOCOL.md "Resets": presses made while the board
    restarts are lost); it is a press again once let go and pressed."""
    board = make_board(board_id=6)
    bridge = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    board.press("N", "bid2")
    assert wait_until(lambda: len(presses(listen)) == 1, 30), bridge.output()
    board.reset()
    assert wait_until(lambda: json.loads(listen.payloads(BOARD_STATUS)[-1]).get("boot") == 2, 30), bridge.output()
    time.sleep(1.0)
    board.release("N", "bid2")
    board.tap("N", "bid3")
    assert wait_until(lambda: len(once(presses(listen))) >= 2, 30), bridge.output()
    time.sleep(1.0)
    assert [(m["id"], m["button"]) for m in once(presses(listen))] == [("board6-1-000001", "bid2"),
                                                                        ("board6-2-000001", "bid3")]


def test_a_flood_of_board_out_leaves_every_light_and_beep_its_turn(make_board, start_bridge, listen):
    """The table service sending ``board/out`` 100 times a second (every one a new clock: a service gone wrong, a
    replayed queue): the bridge sent every seat's display before any light or beep, one command at a time, and each
    new ``board/out`` made every display new again, so W's red light (a violation shown) and its two beeps never
    reached the board while the flood lasted. Each command now waits its turn behind those sent before it."""
    board = make_board(board_id=11)
    bridge = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    service = listen.service
    began = time.time()
    lit = beeped = None
    sent = 0
    while time.time() - began < 4.0:
        left = 30.0 - (time.time() - began)
        service.publish(BOARD_OUT, board_out({s: {"clock": left, "cards": 9, "light": "red" if s == "W" else "off"}
                                              for s in SEATS}))
        sent += 1
        if sent % 10 == 0:
            state = board.state()
            if lit is None and pin(state, RED["W"]):
                lit = time.time() - began
            if beeped is None and state["beeps"] >= 2:
                beeped = time.time() - began
        time.sleep(max(0.0, began + sent / 100 - time.time()))
    assert lit is not None and lit < 1.0 and beeped is not None and beeped < 1.5, (lit, beeped, bridge.output())


def test_presses_waiting_on_the_board_are_paced_as_they_were_made(make_board, start_bridge, listen):
    """The bridge killed -9 and started again while a seat presses at a person's pace (3 a second): the board keeps
    the presses (PROTOCOL.md: until the broker has them) and replays them at once to the new bridge, which took them
    for a burst over the seat's pace (``bridge.run.PACE``: 10 a second, bursts of 20) and dropped 4 of 24 unsaid to
    the table. A press is now paced by when it was made, not when it reached the bridge."""
    board = make_board(board_id=12)
    bridge = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    bridge.stop(signal.SIGKILL)
    for n in range(24):
        board.tap("S", BUTTONS[n % 8], hold_s=0.03)
        time.sleep(0.3)
    bridge = start_bridge(board)
    assert wait_until(lambda: len(once(presses(listen))) == 24, 30), (len(once(presses(listen))), bridge.output())
    assert "over 10 a second" not in bridge.output()


def test_a_board_at_another_speed_is_said(broker, tmp_path):
    """A baud mismatch (a board flashed for 57,600 baud, another device on the port): every frame the bridge reads is
    corrupt; it said nothing, and ``board/status`` said only ``lost``. Now its log says that bytes come and none is a
    frame, once."""
    import random

    master, slave = os.openpty()
    tty.setraw(slave)
    link = tmp_path / "fast-board"
    link.symlink_to(os.ttyname(slave))
    bridge = BridgeProcess("t1", link, broker.url("board-t1"), tmp_path / "bridge.log")
    rng = random.Random(3)
    said = re.compile(r"t1: \d+ frames from \S+ and none whole: is it the board, at 115200 baud\?")
    try:
        for _ in range(40):
            os.write(master, bytes(rng.randrange(1, 256) if rng.random() < 0.9 else 0 for _ in range(200)))
            while select.select([master], [], [], 0)[0]:
                os.read(master, 4096)
            if said.search(bridge.output()):
                break
            time.sleep(0.25)
        time.sleep(1.0)
        assert len(said.findall(bridge.output())) == 1, bridge.output()
    finally:
        bridge.stop()
        os.close(master)
        os.close(slave)


def test_a_board_that_hears_nothing_is_lost_and_shows_the_clock_as_it_is_when_it_hears_again(make_board, start_bridge,
                                                                                             listen):
    """The line from the bridge to the board broken (a damaged cable or plug), the board's own bytes still coming:
    the board showed ``LoSt`` and took no command, while ``board/status`` said ``online`` (the board talked), so the
    table's clocks ran on as if its displays showed them. Its heartbeats say it hears nothing (``link up`` 0): the
    bridge now says ``lost`` and says why in its log. And the display the bridge sent again and again meanwhile went
    byte for byte, its clock as it was when first sent: once the line was mended the board showed a running clock
    seconds behind the table's. A display of a running clock now goes again as the clock is then."""
    board = make_board(board_id=13)
    bridge = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    listen.service.publish(BOARD_OUT, board_out({"S": {"clock": 50.0, "cards": 9}}, paused=True), retain=True)
    assert wait_until(lambda: board.display("S") == " 50.0   9", 30), board.display("S")
    board.deaf(True)
    assert wait_until(lambda: board.display("S") == " 50.0Lo5t", 30), board.display("S")
    assert wait_until(lambda: status(listen) == "lost", 30), (statuses(listen), bridge.output())
    assert wait_until(lambda: "上的显示板收不到本桥接发出的任何消息" in bridge.output(), 30), bridge.output()
    made = time.time()
    listen.service.publish(BOARD_OUT, board_out({"S": {"clock": 50.0, "cards": 9}}, at=made), retain=True)
    time.sleep(6.0)  # S's display goes first (the seats in turn), again and again into the broken line
    board.deaf(False)
    assert wait_until(lambda: board.display("S").endswith("   9"), 30), board.display("S")
    shown, now = clock(board.display("S")), time.time()
    assert abs(shown - (50.0 - (now - made))) <= 1.5, (shown, 50.0 - (now - made))
    assert wait_until(lambda: status(listen) == "online", 30), (statuses(listen), bridge.output())
    assert wait_until(lambda: "上的显示板又收到本桥接的消息了" in bridge.output(), 30), bridge.output()


def test_a_violation_shown_while_the_board_was_away_beeps_no_more_once_it_is_back(make_board, start_bridge, listen):
    """A seat's light turned red (a violation shown) while the board's cable was out: its two beeps waited in the
    bridge and sounded when the cable went back, minutes after, for nothing the table could tell (a beep the moment
    it is back). A beep not sounded within ``BEEP_LATE_S`` (3 s) of its cause is now dropped; the red light says it."""
    board = make_board(board_id=14)
    bridge = start_bridge(board)
    assert wait_until(lambda: status(listen) == "online", 30), bridge.output()
    board.unplug()
    assert wait_until(lambda: status(listen) == "lost", 30), bridge.output()
    listen.service.publish(BOARD_OUT, board_out({"W": {"cards": 7, "light": "red"}}), retain=True)
    time.sleep(5.0)  # the cable out for longer than a beep may wait
    board.plug()
    assert wait_until(lambda: pin(board.state(), RED["W"]), 30), bridge.output()
    time.sleep(1.0)  # a beep sent with the light would have sounded by now
    assert board.state()["beeps"] == 0
    listen.service.publish(BOARD_OUT, board_out({"E": {"cards": 7, "light": "red"}}), retain=True)
    assert wait_until(lambda: board.state()["beeps"] == 2, 30), board.state()  # one shown now beeps


def test_a_board_that_hears_nothing_when_its_bridge_starts_is_said(make_board, start_bridge, listen):
    """The board's receive line broken before the bridge started: it answered no sync, and the bridge waited for its
    hello without a word (``board/status`` ``lost``, nothing said why). Its heartbeats say it hears nothing: said."""
    board = make_board(board_id=15)
    board.deaf(True)
    bridge = start_bridge(board)
    assert wait_until(lambda: "上的显示板收不到本桥接发出的任何消息" in bridge.output(), 30), bridge.output()
    assert wait_until(lambda: status(listen) == "lost", 30), statuses(listen)
    board.deaf(False)
    assert wait_until(lambda: status(listen) == "online", 30), (statuses(listen), bridge.output())
    assert wait_until(lambda: "上的显示板又收到本桥接的消息了" in bridge.output(), 30), bridge.output()
