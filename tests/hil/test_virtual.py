"""``cardtable bridge virtual`` (the board in software on a pty) with ``cardtable bridge run`` and
a real mosquitto: a typed press reaches ``board/in``, ``board/out`` reaches its display line; its lines in Chinese,
in English when asked."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time

from bridge.virtual import VirtualBoard
from conftest import CARDTABLE, BridgeProcess

from bus.protocol import decode, encode, topic

TABLES = ["t1"]
ZH = {k: v for k, v in os.environ.items() if k != "CARDTABLE_LANG"}  # the command line's own language


class Lines:
    """The output lines of a process, collected on a thread."""

    def __init__(self, stream):
        self.lines: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [line for line in self.lines if text in line]
            if found:
                return found[-1]
            time.sleep(0.05)
        raise AssertionError(f"no line with {text!r} in {self.lines[-5:]}")


def board_in(connect, inbox):
    """What the table's service hears of its board (``board/in``), as it hears it."""
    box = inbox()
    table = connect("table-t1-board", clean_start=True)  # the service's session for the board's inputs
    table.subscribe(topic("t1", "board/in"), box)
    assert table.wait_subscribed(30)
    return box


def virtual_board(link, board_id: int) -> tuple[subprocess.Popen, Lines]:
    """``cardtable bridge virtual`` on a pty linked at ``link``, typed into, and its lines (Chinese)."""
    virtual = subprocess.Popen([*CARDTABLE, "bridge", "virtual", "--link", str(link), "--board-id", str(board_id)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, env=ZH)
    out = Lines(virtual.stdout)
    out.wait_for(f"虚拟显示板 {board_id} 号")
    return virtual, out


def test_the_virtual_board_through_the_bridge(broker, connect, inbox, tmp_path):
    box = board_in(connect, inbox)
    link = tmp_path / "vtty"
    virtual, out = virtual_board(link, 9)
    bridge = None
    try:
        bridge = BridgeProcess("t1", link, broker.url("board-t1"), tmp_path / "bridge.log")
        out.wait_for("S[         off]", timeout=30)  # the host is there: no LoSt
        pressed = time.time()
        virtual.stdin.write("E pass\nX nothing\n")
        virtual.stdin.flush()
        _, payload = box.wait_for(lambda t, p: True, timeout=30)
        message = decode("board/in", payload)
        assert (message["id"], message["seat"], message["button"]) == ("board9-1-000001", "E", "pass")
        assert pressed - 1 <= message["at"] <= time.time()  # dated on the host's clock when pressed, however late it came
        out.wait_for("? 请输入座位（S E N W）和按钮")
        seats = {s: {"clock": None, "on_turn": False, "cards": 20, "light": "off"} for s in "SENW"}
        seats["W"] = {"clock": None, "on_turn": True, "cards": 17, "light": "green"}
        service = connect("table-t1", clean_start=True)  # the service's session that publishes its outputs
        service.publish(topic("t1", "board/out"), encode("board/out", {"v": 1, "at": time.time(), "paused": True,
                                                                       "seats": seats}), retain=True)
        out.wait_for("W[      17 green]")
        bridge.stop()
        out.wait_for("W[    LoSt green] 连接断开")
    finally:
        if bridge is not None:
            bridge.stop()
        virtual.terminate()
        virtual.wait(5)
    assert not link.exists()
    assert json.loads(payload)["v"] == 1
    assert "的固件是" not in bridge.output()  # it says the shipped firmware: the hall's bridges say no board is old


def test_a_second_bridge_of_the_table_on_another_port_says_so_and_ends(broker, connect, inbox, tmp_path):
    """Two bridges of one table on two serial ports (a board moved to another USB socket, the old bridge still running):
    each port was locked, but both bridges are the table's user ``board-T``, so they took the table's broker connection
    from each other for ever. The table is held too now (a lock file per table and broker): the second says so, naming
    the first's process and port, and ends (1); the first goes on, its presses reach ``board/in``."""
    box = board_in(connect, inbox)
    link = tmp_path / "vtty"
    virtual, out = virtual_board(link, 4)
    other, other_end = os.openpty()  # another serial port, nothing on it
    first = None
    try:
        first = BridgeProcess("t1", link, broker.url("board-t1"), tmp_path / "bridge.log")
        out.wait_for("S[         off]", timeout=30)
        said = {}
        for lang in ("zh", "en"):
            second = subprocess.run([*CARDTABLE, "--lang", lang, "bridge", "run", "--table", "t1", "--port",
                                     os.ttyname(other_end), "--broker", broker.url("board-t1")],
                                    capture_output=True, text=True, timeout=60, env=ZH)
            assert second.returncode == 1, second.stderr
            said[lang] = second.stderr.strip().splitlines()[-1]
        assert said["zh"].startswith(f"cardtable bridge run：错误：桌 t1 已由本机另一个 `cardtable bridge run` 桥接（进程号和串口："
                                     f"{first.proc.pid} {link}；锁文件 "), said["zh"]
        assert said["en"].startswith("cardtable bridge run: error: table t1 is bridged already by another `cardtable bridge "
                                     f"run` on this machine (its process and port: {first.proc.pid} {link}; "), said
        virtual.stdin.write("N pass\n")
        virtual.stdin.flush()
        _, payload = box.wait_for(lambda t, p: True, timeout=30)
        assert (decode("board/in", payload)["seat"], first.proc.poll()) == ("N", None)
        assert "disconnected" not in first.output(), first.output()  # its connection was never taken
    finally:
        if first is not None:
            first.stop()
        virtual.terminate()
        virtual.wait(5)
        os.close(other)
        os.close(other_end)


def test_the_virtual_board_speaks_english_when_asked(tmp_path):
    link = tmp_path / "vtty"
    virtual = subprocess.Popen([*CARDTABLE, "--lang", "en", "bridge", "virtual", "--link", str(link)], env=ZH,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    out = Lines(virtual.stdout)
    try:
        assert out.wait_for("virtual board1 on /dev/").endswith(f"(link {link}); type e.g. 'N ready'")
        out.wait_for("W[    LoSt off] link lost")
        virtual.stdin.write("X nothing\n")
        virtual.stdin.flush()
        out.wait_for("? type a seat (S E N W) and a button (")
    finally:
        virtual.terminate()
        virtual.wait(5)
    assert not any("连接" in line or "请" in line for line in out.lines)


def test_a_link_in_no_folder_or_over_a_file_is_refused_and_changes_nothing(tmp_path, capsys):
    """`--link` in a mistyped folder was a traceback (os.symlink); over another command's file or a folder the link
    replaced it (a file) or was a traceback (a folder). Now refused in words, exit 2, nothing made or changed."""
    from cardtable import cli

    console, folder = tmp_path / "console.db", tmp_path / "runs"
    console.write_bytes(b"SQLite format 3\x00 the console")
    folder.mkdir()
    assert cli.main(["bridge", "virtual", "--link", str(tmp_path / "no" / "vtty")]) == 2
    assert f"`--link {tmp_path / 'no' / 'vtty'}`：没有文件夹 {tmp_path / 'no'}，未建任何文件" in capsys.readouterr().err
    for path in (console, folder):
        assert cli.main(["--lang", "en", "bridge", "virtual", "--link", str(path)]) == 2
        assert f"`--link {path}`: a file or folder that is not a symlink is there; nothing was changed" in \
            capsys.readouterr().err
    assert console.read_bytes() == b"SQLite format 3\x00 the console" and not any(folder.iterdir())
    assert sorted(tmp_path.iterdir()) == [console, folder]


def test_a_flood_of_presses_wraps_the_dropped_count_as_the_firmware_does():
    """A stuck or hostile button: the queue fills, the rest are dropped and counted in a u16 that
    wraps (firmware/link.c), and the board goes on (it used to die of a struct.error past 65,535)."""
    from bridge.virtual import EVENT_SLOTS, VirtualBoard

    board = VirtualBoard(1)
    kept = [board.press("S", "ready", ms) for ms in range(0, 70_000 * 40, 40)]  # as fast as the debounce lets it
    assert sum(kept) == EVENT_SLOTS and board.dropped == (70_000 - EVENT_SLOTS) % 65_536
    assert board.take(70_000 * 40)  # the heartbeat that carries the count is framed


def test_the_virtual_board_debounces_as_the_firmware_does():
    """A line typed in is a press; one of the same key sooner than the firmware's debounce allows (two lockouts:
    closed, then open) is a bouncing contact and nothing, so a flood typed in is a stuck button as a real board
    would see it. Another key is free at once."""
    from bridge.virtual import LOCKOUT_MS

    board = VirtualBoard(1)
    for ms, (seat, button) in ((0, ("S", "ready")), (1, ("E", "pass")), (2 * LOCKOUT_MS - 1, ("S", "ready")),
                                (2 * LOCKOUT_MS, ("S", "ready"))):
        assert board.press(seat, button, ms)
    assert [(e.seat, e.button, e.pressed_ms) for e in board._events] == [(0, 0, 0), (1, 1, 1), (0, 0, 2 * LOCKOUT_MS)]


def test_a_wrong_password_is_said_by_bridge_run_in_either_language(broker, tmp_path):
    """The broker refuses the board's connection: ``bridge run`` says so in words and ends (1), Chinese or English."""
    url = f"mqtt://board-t1:wrong@{broker.host}:{broker.port}"
    said = {}
    for lang in ("zh", "en"):
        done = subprocess.run([*CARDTABLE, "bridge", "run", "--table", "t1", "--port", str(tmp_path / "none"), "--broker",
                               url, "--lang", lang], capture_output=True, text=True, timeout=60, env=ZH)
        assert done.returncode == 1, done.stderr
        said[lang] = done.stderr.strip().splitlines()[-1]
    where = f"{broker.host}:{broker.port}"
    assert said["zh"] == f"cardtable bridge run：错误：消息服务器 {where} 拒绝了 'board-t1'：用户 'board-t1' 未获准连接（密码不对，或没有这个用户）"
    assert said["en"] == f"cardtable bridge run: error: {where} refused 'board-t1': user 'board-t1' is not let in (a wrong password, or no such user)"


def test_after_press_65535_the_virtual_board_says_a_new_boot_as_the_firmware_does():
    """Found by the soak: a flood the host takes as fast as it comes (each press acknowledged, so the queue never
    fills) drove the virtual board's press seq past 65,535, and it died framing press 65,536 (``ValueError``). As the
    firmware (1.1, firmware/link.c): after press 65,535 of a boot the next press starts a new boot, said in a hello
    once the last boot's presses are acknowledged, so no press id repeats."""
    from bridge.frames import Splitter, decode, encode
    from bridge.messages import Ack, Button, Hello, parse

    board = VirtualBoard(1, boot=7)
    board._next_seq = 0xFFFE  # as after 65,533 presses
    said = []

    def step(ms: int, ack: bool = True) -> None:
        for seq, m in (parse(decode(p)) for p in Splitter().feed(board.take(ms))):
            if isinstance(m, (Button, Hello)):
                said.append((seq, m.boot) if isinstance(m, Hello) else seq)
            if isinstance(m, Button) and ack:
                board.received(encode(Ack(Button.TYPE).frame(seq)), ms)  # the host has it: off the board's queue

    assert board.press("S", "pass", 0)
    step(0)
    assert board.press("S", "pass", 100) and board.press("E", "pass", 101)  # 65,535 and the next boot's first, together
    step(102, ack=False)
    assert said == [(0, 7), 0xFFFE, 0xFFFF]  # the new boot's press waits for the last one of boot 7
    step(400)  # sent again (250 ms) and acknowledged now
    step(401)
    assert said[3:] == [0xFFFF, (0, 8), 1] and board.boot == 8


def test_a_virtual_board_started_again_says_a_new_boot():
    """As the firmware's EEPROM counter: a board started again (the hall's, after a crash) says a new ``boot`` in its
    hello, so its presses' ids (``board{id}-{boot}-{seq}``) are new. It said boot 1 on every start, so after a restart
    each press repeated the id of one the table had logged, and the table dropped it as already logged."""
    import tempfile
    from pathlib import Path

    from bridge.frames import Splitter, decode as unframe
    from bridge.messages import Hello, parse

    link = Path(tempfile.mkdtemp()) / "vtty"
    boots = []
    for _ in range(2):
        virtual = subprocess.Popen([*CARDTABLE, "bridge", "virtual", "--link", str(link), "--board-id", "9"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, env=ZH)
        try:
            Lines(virtual.stdout).wait_for("虚拟显示板 9 号")
            fd = os.open(link, os.O_RDWR | os.O_NOCTTY)  # the line as the board set it (raw)
            splitter, deadline, hello = Splitter(), time.monotonic() + 30, None
            while hello is None and time.monotonic() < deadline:
                for piece in splitter.feed(os.read(fd, 4096)):
                    message = parse(unframe(piece))[1]
                    hello = message if isinstance(message, Hello) else hello
            os.close(fd)
            boots.append(hello.boot)
        finally:
            virtual.terminate()
            virtual.wait(5)
    assert boots == [1, 2]


def test_the_virtual_board_beeps_for_a_clock_reaching_zero_not_for_one_sent_at_zero():
    """As the firmware (1.1.1, ``clock_to`` in firmware/main.c): a running clock that reaches zero beeps once, counting
    down or by the host's word; a display command at zero (the same again, a ``board/out`` read late, every display
    sent again after a reset) does not. Both beeped for every command at zero."""
    from bridge.frames import encode
    from bridge.messages import Display

    board = VirtualBoard(1)
    for seq, ms, display in ((1, 0, Display(0, 2, 9, True)), (2, 300, Display(0, 0, 9, True)),
                             (3, 400, Display(1, 0, 9, True)), (4, 500, Display(2, 50, 9, True)),
                             (5, 600, Display(2, 0, 9, True))):
        board.received(encode(display.frame(seq)), ms)
        board.take(ms)
    assert board.beeps == 2  # S counted down to zero; N was told zero while counting; E came at zero
    assert board.clock_ds[:3] == [0, 0, 0] and board.running == [False] * 4


def test_a_bridge_of_the_table_taken_over_from_another_machine_says_so_and_ends_for_good(broker, connect, inbox,
                                                                                           tmp_path):
    """A bridge of the table on another machine (no lock file of this one holds it back) connects as ``board-T``: the
    broker gives it the table's connection. Before, this bridge took it back at once, and the two took it from each
    other ten times a second for ever, each sending its board's presses. Now this one yields: it says so in words,
    publishes nothing more (not ``offline``: the table's board is the other's, online) and ends with status 3, which
    the hall's unit does not restart into the same fight; the other keeps the connection."""
    from bus.mqtt import TAKEN_OVER_EXIT, TAKEN_WITHIN_S, Connection

    box = board_in(connect, inbox)
    console = connect("console", clean_start=True)
    console.subscribe(topic("t1", "board/status"), box)
    assert console.wait_subscribed(30)
    link = tmp_path / "vtty"
    virtual, out = virtual_board(link, 5)
    first, other = None, None
    try:
        first = BridgeProcess("t1", link, broker.url("board-t1"), tmp_path / "bridge.log")
        box.wait_for(lambda t, p: json.loads(p).get("board") == "board5", timeout=30)
        other = Connection(broker.url("board-t1"), clean_start=True, yields=True,  # as another machine's bridge
                           birth=(topic("t1", "board/status"), encode("board/status", {"v": 1, "status": "online",
                                                                                       "board": "board6"}), True))
        other.connect()
        assert first.proc.wait(30) == TAKEN_OVER_EXIT, first.output()
        heard = len(box.messages)
        virtual.stdin.write("N pass\n")  # its board's press: nobody bridges it now
        virtual.stdin.flush()
        time.sleep(2 * TAKEN_WITHIN_S)
        assert other.connected and other.taken is None and other.connects <= 2  # no fight
        assert box.messages[heard:] == []  # neither the press nor an offline
    finally:
        if first is not None:
            first.stop()
        if other is not None:
            other.close()
        virtual.terminate()
        virtual.wait(5)
    said = first.output()
    assert "桌 t1 的显示板已由别处（另一台机器）的桥接接管：消息服务器" in said and "退出码 3" in said, said
    late = inbox()
    again = connect("scoreboard", clean_start=True)
    again.subscribe(topic("t1", "board/status"), late)
    assert json.loads(late.wait_for(lambda t, p: True, timeout=30)[1])["board"] == "board6"  # the retained: the other
