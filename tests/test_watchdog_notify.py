"""The services' sign of life to their supervisor (``cardtable.watchdog.notify``, ``beat``): systemd's notify
protocol over a real unix datagram socket, by path and by abstract name, as a unit's ``WatchdogSec=`` and the hall's
``Pings`` hear it. Without it a hang that holds the GIL (its own watchdog stopped with it) was never ended."""

from __future__ import annotations

import socket
import time

from cardtable import watchdog
from cardtable.watchdog import NOTIFY, PING_S, Watchdog, beat, notify


def heard(sock: socket.socket) -> list[bytes]:
    sock.setblocking(False)
    got = []
    while True:
        try:
            got.append(sock.recv(4096))
        except BlockingIOError:
            return got


def test_notify_reaches_a_socket_by_path_and_by_abstract_name(tmp_path, monkeypatch):
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as by_path, \
            socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as abstract:
        by_path.bind(str(tmp_path / "notify"))
        abstract.bind(f"\0cardtable-test-{time.monotonic_ns()}")
        monkeypatch.setenv(NOTIFY, str(tmp_path / "notify"))
        assert notify("WATCHDOG=1")
        monkeypatch.setenv(NOTIFY, "@" + abstract.getsockname()[1:].decode())
        assert notify("READY=1")
        assert heard(by_path) == [b"WATCHDOG=1"] and heard(abstract) == [b"READY=1"]


def test_no_supervisor_or_one_gone_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv(NOTIFY, raising=False)
    assert not notify("WATCHDOG=1")
    monkeypatch.setenv(NOTIFY, str(tmp_path / "gone"))
    assert not notify("WATCHDOG=1")  # not there: no error, the service goes on
    monkeypatch.setenv(NOTIFY, "relative")
    assert not notify("WATCHDOG=1")


def test_each_turn_of_the_loop_says_it_lives_at_most_every_ping_s(tmp_path, monkeypatch):
    """Once a second at most, whatever the loop's pace (a camera turns at every frame)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "notify"))
        monkeypatch.setenv(NOTIFY, str(tmp_path / "notify"))
        monkeypatch.setattr(watchdog, "_beaten", None)
        dog = Watchdog(60, lambda stood: None)
        with dog:  # starting is a turn
            dog.turn()
            dog.turn()
            assert heard(sock) == [b"READY=1\nWATCHDOG=1"]  # the first: started
            time.sleep(PING_S)
            beat()
            assert heard(sock) == [b"WATCHDOG=1"]
