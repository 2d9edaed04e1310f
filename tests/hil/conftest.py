"""Fixtures of the hardware-in-the-loop tests: the firmware and its simulator built once per
session (a missing tool fails the tests: run ``make setup``), simulated boards, and
``cardtable bridge run`` processes against the module's real mosquitto."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bus.protocol import topic

sys.path.insert(0, str(Path(__file__).resolve().parent))
from simboard import BuildError, SimBoard, build

CARDTABLE = [sys.executable, "-m", "cardtable"]  # the tree's command (the installed script is the same entry point)


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    try:
        return build(tmp_path_factory.mktemp("board-build"))
    except BuildError as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture
def make_board(built, tmp_path):
    """``make_board(board_id=1, at_start=())``: a simulated board at real time; closed after the test."""
    boards: list[SimBoard] = []

    def make(board_id: int = 1, at_start: tuple[str, ...] = ()) -> SimBoard:
        board = SimBoard(*built, tmp_path / f"tty-board{board_id}", board_id, at_start)
        boards.append(board)
        return board

    yield make
    for board in boards:
        board.close()


class BridgeProcess:
    """``cardtable bridge run`` as a child process."""

    def __init__(self, table: str, port: Path, url: str, log: Path):
        self.log = log
        with open(log, "ab") as out:
            self.proc = subprocess.Popen([*CARDTABLE, "bridge", "run", "--table", table, "--port", str(port),
                                          "--broker", url], stdout=out, stderr=subprocess.STDOUT)

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def listen(connect, inbox):
    """Table t1 as its service sees the board (board/in) and the console (board/status); ``.service`` is the
    service's session that publishes board/out."""
    box = inbox()
    table = connect("table-t1-board", clean_start=True)  # the service's session for the board's inputs
    table.subscribe(topic("t1", "board/in"), box)
    console = connect("console", clean_start=True)
    console.subscribe(topic("t1", "board/status"), box)
    assert table.wait_subscribed(30)
    assert console.wait_subscribed(30)
    box.service = connect("table-t1", clean_start=True)
    return box


@pytest.fixture
def start_bridge(broker, tmp_path):
    """``start_bridge(board, table="t1")``: bridge ``board`` to ``table`` as user board-T."""
    made: list[BridgeProcess] = []

    def start(board: SimBoard, table: str = "t1") -> BridgeProcess:
        bridge = BridgeProcess(table, board.link, broker.url(f"board-{table}"), tmp_path / f"bridge-{len(made)}.log")
        made.append(bridge)
        return bridge

    yield start
    for bridge in made:
        bridge.stop()
