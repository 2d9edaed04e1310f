"""The firmware's serial line under abuse: seconds of garbage (random bytes, cut frames, frames
with a wrong CRC, frames of unknown types) leave it answering, with every bad frame counted and
none acted on, no reset, and the presses made meanwhile kept; and a bouncing contact is one press."""

from __future__ import annotations

import random
import time

import pytest
import serial
from bridge.frames import Frame, encode
from bridge.host import HostLink
from bridge.messages import Display
from bridge.seats import SeatView

pytestmark = pytest.mark.hil
GARBAGE_S = 4.0
LINE_BYTES_PER_S = 11520  # 115200 baud, 8N1


def garbage(rng: random.Random, size: int) -> bytes:
    """Line noise: random runs, zeros, frames cut short, with a flipped bit, of unknown types."""
    out = bytearray()
    while len(out) < size:
        kind = rng.randrange(5)
        valid = encode(Display(rng.randrange(4), rng.randrange(600), 9, True).frame(rng.randrange(65536)))
        if kind == 0:
            out += rng.randbytes(rng.randrange(1, 80))
        elif kind == 1:
            out += valid[: rng.randrange(1, len(valid) - 1)]  # cut short: runs into the next frame
        elif kind == 2:
            flipped = bytearray(valid)
            at = rng.randrange(1, len(valid) - 1)
            flipped[at] ^= 1 << rng.randrange(8)
            out += bytes(flipped) if 0 not in flipped[:-1] else b"\0"
        elif kind == 3:
            out += encode(Frame(rng.choice([0x00, 0x05, 0x23, 0x7F, 0xFF]), 1, rng.randbytes(3)))  # unknown type
        else:
            out += b"\0" * rng.randrange(1, 4)
    return bytes(out)


def host_session(port: serial.Serial, link: HostLink, seconds: float) -> list:
    """Be the host for ``seconds``; the presses received (acknowledged at once: no broker here)."""
    presses = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        link.received(port.read(max(1, port.in_waiting)), time.time())
        step = link.take(time.time())
        for press in step.publish:
            link.published(press.id)
        presses += step.publish
        port.write(step.write)
    return presses


def test_seconds_of_garbage_leave_the_firmware_answering(make_board):
    board = make_board(board_id=4)
    port = serial.Serial(str(board.link), 115200, timeout=0.01)
    rng = random.Random(6)
    sent, pressed_in_garbage = 0, False
    while board.state()["ms"] < 50:  # a key already down when the firmware starts is no press (PROTOCOL.md "Resets")
        time.sleep(0.01)
    start = time.monotonic()
    board.tap("N", "confirm")
    while time.monotonic() - start < GARBAGE_S:  # at the line's own rate, so it lasts as long
        chunk = garbage(rng, LINE_BYTES_PER_S // 20)
        port.write(chunk)
        sent += len(chunk)
        if sent > LINE_BYTES_PER_S * 2 and not pressed_in_garbage:
            board.tap("W", "bid3")
            pressed_in_garbage = True
        time.sleep(0.05)
    while board.state()["rx"] < sent:  # the last garbage reached the UART
        time.sleep(0.05)
    port.reset_input_buffer()

    link = HostLink()
    link.opened()
    presses = host_session(port, link, 1.5)
    assert link.board is not None and (link.board.board_id, link.board.boot) == (4, 1)  # answered, no reset
    assert [(p.seat, p.button) for p in presses] == [(2, 2), (3, 6)]  # N confirm, W bid3
    beat = link.heartbeat
    assert beat.corrupt > 100 and beat.unknown > 10, beat
    assert link.counters.corrupt == link.counters.unknown == 0  # the board's own frames all arrived whole

    link.show({"E": SeatView("E", 42.0, time.time(), False, 13, "green")})
    host_session(port, link, 0.5)
    assert board.display("E") == " 42.0  13"


def test_a_bouncing_contact_is_one_press(make_board):
    board = make_board()
    port = serial.Serial(str(board.link), 115200, timeout=0.01)
    link = HostLink()
    link.opened()
    host_session(port, link, 0.5)
    for _ in range(3):  # three presses, each bouncing for 15 ms on closing and on opening
        board.bounce("S", "pass", changes=7, every_us=2500)  # closes, opens, ..., closed
        time.sleep(0.08)
        board.bounce("S", "pass", changes=7, every_us=2500)  # opens, closes, ..., open
        time.sleep(0.08)
    presses = host_session(port, link, 0.8)
    assert [(p.seat, p.button) for p in presses] == [(0, 1)] * 3
