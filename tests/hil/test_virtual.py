"""``cardtable bridge virtual`` (the board in software on a pty) with ``cardtable bridge run`` and
a real mosquitto: a typed press reaches ``board/in``, ``board/out`` reaches its display line."""

from __future__ import annotations

import json
import subprocess
import threading
import time

from conftest import CARDTABLE, BridgeProcess

from bus.protocol import decode, encode, topic

TABLES = ["t1"]


class Lines:
    """The output lines of a process, collected on a thread."""

    def __init__(self, stream):
        self.lines: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [line for line in self.lines if text in line]
            if found:
                return found[-1]
            time.sleep(0.05)
        raise AssertionError(f"no line with {text!r} in {self.lines[-5:]}")


def test_the_virtual_board_through_the_bridge(broker, connect, inbox, tmp_path):
    box = inbox()
    table = connect("table-t1-board", clean_start=True)  # the service's session for the board's inputs
    table.subscribe(topic("t1", "board/in"), box)
    table.wait_subscribed(5)
    link = tmp_path / "vtty"
    virtual = subprocess.Popen([*CARDTABLE, "bridge", "virtual", "--link", str(link), "--board-id", "9"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    out = Lines(virtual.stdout)
    bridge = None
    try:
        out.wait_for("virtual board9")
        bridge = BridgeProcess("t1", link, broker.url("board-t1"), tmp_path / "bridge.log")
        out.wait_for("S[         off]", timeout=10)  # the host is there: no LoSt
        virtual.stdin.write("E pass\nX nothing\n")
        virtual.stdin.flush()
        _, payload = box.wait_for(lambda t, p: True, timeout=10)
        message = decode("board/in", payload)
        assert (message["id"], message["seat"], message["button"]) == ("board9-1-000001", "E", "pass")
        assert abs(message["at"] - time.time()) < 2
        out.wait_for("? type a seat")
        seats = {s: {"clock": None, "on_turn": False, "cards": 20, "light": "off"} for s in "SENW"}
        seats["W"] = {"clock": None, "on_turn": True, "cards": 17, "light": "green"}
        service = connect("table-t1", clean_start=True)  # the service's session that publishes its outputs
        service.publish(topic("t1", "board/out"), encode("board/out", {"v": 1, "at": time.time(), "paused": True,
                                                                       "seats": seats}), retain=True)
        out.wait_for("W[      17 green]")
        bridge.stop()
        out.wait_for("W[    LoSt green] link lost")
    finally:
        if bridge is not None:
            bridge.stop()
        virtual.terminate()
        virtual.wait(5)
    assert not link.exists()
    assert json.loads(payload)["v"] == 1


def test_a_flood_of_presses_wraps_the_dropped_count_as_the_firmware_does():
    """A stuck or hostile button: the queue fills, the rest are dropped and counted in a u16 that
    wraps (firmware/link.c), and the board goes on (it used to die of a struct.error past 65,535)."""
    from bridge.virtual import EVENT_SLOTS, VirtualBoard

    board = VirtualBoard(1)
    kept = [board.press("S", "ready", ms) for ms in range(70_000)]
    assert sum(kept) == EVENT_SLOTS and board.dropped == (70_000 - EVENT_SLOTS) % 65_536
    assert board.take(70_000)  # the heartbeat that carries the count is framed
