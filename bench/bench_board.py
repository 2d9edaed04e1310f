"""Benchmark of the table board: press-to-broker latency with the real firmware at
real time.

Run from the repository root:  .venv/bin/python bench/bench_board.py  [--presses N] [--seed S]

Everything is real: the firmware (``firmware-bridge/firmware``) built with avr-gcc and run by
``firmware-bridge/harness/board_sim`` (simavr, paced to the wall clock) on a pseudo-terminal;
``cardtable bridge run`` as its own process on that pty; a mosquitto from
``bus.broker.Broker`` with the hall's ACL for table ``bench``; the table service's view
(user ``table-bench``, subscribed to ``board/in``) in this process.

Latency: from the moment the simulator closes a button's contact (``press`` answers its
CLOCK_MONOTONIC time) to the ``board/in`` message arriving at the subscriber: the firmware's scan
and debounce (1-2 ms), the frame on the 115200-baud line, the bridge, the broker. Presses go one
at a time (hold 30 ms, random seats and buttons, 20-60 ms apart). Median and p99; target p99
under 20 ms. Baseline, in the same run: a bare MQTT round trip (QoS 1, publish -> receive
through the same broker), the part of the path the board does not add; one before each press,
so both meet the same load and the broker's autosaves (every 5 s).
First, before the bridge starts, a third of that many presses are read by a host in this
process (``bridge.host.HostLink`` on the pty): press -> button frame, the firmware and the line
alone. Exits 1 on FAIL.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import serial

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "hil"))

from bridge.host import HostLink
from simboard import BUTTONS, SEATS, SimBoard, build

from bus.broker import Broker, table_acl
from bus.mqtt import Connection
from bus.protocol import decode, topic

TABLE = "bench"
TARGET_P99_MS = 20.0
CARDTABLE = Path(sys.executable).parent / "cardtable"


class Arrivals:
    """board/in payloads with their CLOCK_MONOTONIC arrival time, in order."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.items: list[tuple[int, bytes]] = []

    def __call__(self, _topic: str, payload: bytes) -> None:
        now = time.monotonic_ns()
        with self._cond:
            self.items.append((now, payload))
            self._cond.notify_all()

    def wait(self, count: int, timeout: float = 5.0) -> tuple[int, bytes]:
        with self._cond:
            if not self._cond.wait_for(lambda: len(self.items) >= count, timeout):
                raise SystemExit(f"FAIL: message {count} did not arrive within {timeout} s")
            return self.items[count - 1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def row(name: str, values: list[float], base: float) -> str:
    median, p99 = statistics.median(values), percentile(values, 99)
    return f"{name:<38} {len(values):>5} {median:>8.2f} {p99:>8.2f} {max(values):>8.2f} {median / base:>7.1f}"


def frame_latencies(board: SimBoard, presses: int, rng: random.Random) -> list[float]:
    """Press -> the button frame read by a host in this process (HostLink on the pty): the
    firmware and the line alone, no bridge process, no broker."""
    port = serial.Serial(str(board.link), 115200, timeout=0.02)
    link = HostLink()
    link.opened()
    deadline = time.monotonic() + 5
    while link.board is None and time.monotonic() < deadline:
        link.received(port.read(max(1, port.in_waiting)), time.time())
        port.write(link.take(time.time()).write)
    times = []
    for _ in range(presses):
        seat, button = rng.choice(SEATS), rng.choice(BUTTONS)
        closed = board.press(seat, button)
        got: list = []
        while not got:
            data = port.read(max(1, port.in_waiting))
            now = time.monotonic_ns()
            link.received(data, time.time())
            got = link.take(time.time()).publish
        for press in got:
            link.published(press.id)
        port.write(link.take(time.time()).write)
        times.append((now - closed) / 1e6)
        time.sleep(max(0.0, 0.03 - (time.monotonic_ns() - closed) / 1e9))
        board.release(seat, button)
        time.sleep(rng.uniform(0.02, 0.06))
    port.close()
    return times


def measure(board: SimBoard, broker: Broker, rounds: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """``rounds`` times: one MQTT round trip (the baseline), then one press; both one at a time,
    interleaved, so both meet the same load and the broker's autosaves."""
    box = Arrivals()
    service = Connection(broker.url(f"table-{TABLE}-board"), clean_start=True)  # the service's session for board/in
    service.subscribe(topic(TABLE, "board/in"), box)
    service.connect()
    service.wait_subscribed(5)
    sender = Connection(broker.url("pinger"), clean_start=True).connect()  # the bridge is board-{TABLE}
    time.sleep(2.0)  # the bridge connects and synchronises with the board
    pings, presses = [], []
    for n in range(1, rounds + 1):
        start = time.monotonic_ns()
        sender.publish(topic(TABLE, "board/in"), b'{"ping": %d}' % n)
        arrived, _ = box.wait(2 * n - 1)
        pings.append((arrived - start) / 1e6)
        seat, button = rng.choice(SEATS), rng.choice(BUTTONS)
        closed = board.press(seat, button)
        arrived, payload = box.wait(2 * n)
        message = decode("board/in", payload)
        if (message["seat"], message["button"]) != (seat, button):
            raise SystemExit(f"FAIL: pressed {seat} {button}, got {message}")
        presses.append((arrived - closed) / 1e6)
        time.sleep(max(0.0, 0.03 - (time.monotonic_ns() - closed) / 1e9))
        board.release(seat, button)
        time.sleep(rng.uniform(0.02, 0.06))
    sender.close()
    service.close()
    return pings, presses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="bench-board-") as tmp:
        work = Path(tmp)
        elf, sim = build(work / "build")
        users, acl = table_acl([TABLE])
        users["pinger"] = secrets.token_urlsafe(18)  # the baseline's sender: a board's rights, its own user
        acl += f"\nuser pinger\ntopic write {topic(TABLE, 'board/in')}\n"
        broker = Broker.start(work / "broker", users, acl)
        board = SimBoard(elf, sim, work / "tty-board", board_id=1)
        frames = frame_latencies(board, args.presses // 3, rng)
        bridge = subprocess.Popen([str(CARDTABLE), "bridge", "run", "--table", TABLE, "--port", str(board.link),
                                   "--broker", broker.url(f"board-{TABLE}")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            pings, presses = measure(board, broker, args.presses, rng)
        finally:
            bridge.terminate()
            bridge.wait(10)
            board.close()
            broker.stop()
    base = statistics.median(pings)
    print(f"{'ms':<38} {'n':>5} {'median':>8} {'p99':>8} {'max':>8} {'x base':>7}")
    print(row("baseline: MQTT round trip (QoS 1)", pings, base))
    print(row("press -> frame at a host on the pty", frames, base))
    print(row("press -> board/in at the broker's client", presses, base))
    p99 = percentile(presses, 99)
    verdict = "PASS" if p99 < TARGET_P99_MS else "FAIL"
    print(f"{verdict}: press -> broker p99 {p99:.2f} ms (target < {TARGET_P99_MS:.0f} ms)")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
