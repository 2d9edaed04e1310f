"""``cardtable hall`` on a bad evening, as the organiser's technician meets it, with the real processes: the broker
killed (its config damaged meanwhile, its port then taken), a part that cannot be started again (its log cannot be
opened), the disk under the run directory nearly full, another program answering on the hall's port, SIGTERM while
the hall starts. Each is said in words (Chinese; English when asked), the hall recovers where it can and goes on, and
it never says it is ready while it is not."""

from __future__ import annotations

import http.server
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from bus.broker import free_port
from bus.mqtt import Connection
from hall.procs import MARK, Child, hall_processes
from hall import supervisor
from hall.supervisor import BROKER_AGAIN_S, LOW_DISK_B, HallError, Options, Supervisor, pick_port

CLI = [sys.executable, "-m", "cardtable"]
ENV = {k: v for k, v in os.environ.items() if k not in ("CARDTABLE_LANG", MARK)}


def lines(out: io.StringIO) -> list[str]:
    return [line.split(" ", 1)[1] for line in out.getvalue().splitlines()]  # without the time of day


def killed(hall: Supervisor) -> None:
    os.kill(hall.broker.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while hall.broker.running:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_broker_killed_is_said_and_started_again_on_its_port_its_files_mended(tmp_path, monkeypatch):
    """mosquitto killed: every table lost the bus and nothing was said on the hall's screen, nor was it started
    again (the hall watched its children only): the whole hall stopped refereeing while looking as before. Now it is
    said and started again on its port, its files written again (a damaged config would not start); a broker that
    cannot start (its port taken) says why and is tried again."""
    monkeypatch.setenv(MARK, "")
    out = io.StringIO()
    hall = Supervisor(Options(tables=1, port=free_port(), dir=tmp_path / "hall"), out=out)
    hall.dir.mkdir()
    hall.start_broker()
    port = hall.broker.port
    client = Connection(hall.broker.url("console"), clean_start=True).connect()
    try:
        killed(hall)
        (hall.broker.workdir / "mosquitto.conf").write_text("listener this is not a port\n")
        hall._check()
        assert hall.broker.running and hall.broker.port == port
        assert client.wait_connected(30)  # the clients find it where it was
        assert lines(out) == [f"消息服务器（`mosquitto`）停了：各桌都连不上它，都不能裁判；在端口 {port} 上重新启动它",
                              f"消息服务器在端口 {port} 上重新运行，各桌重新连上它"]
        client.close()
        hall.lang = "en"
        killed(hall)
        with socket.create_server(("127.0.0.1", port)):  # another program took the port meanwhile
            now = time.monotonic()
            hall._check_broker(now)
            hall._check_broker(now + BROKER_AGAIN_S)  # the same reason again: not said again
            assert not hall.broker.running
        hall._check_broker(now + BROKER_AGAIN_S)  # not due yet
        assert not hall.broker.running
        hall._check_broker(now + 2 * BROKER_AGAIN_S)
        assert hall.broker.running and hall.broker.port == port
        said = lines(out)[2:]
        assert said[0] == f"the broker (mosquitto) stopped: no table can reach it, none is refereeing; starting it again on port {port}"
        assert said[1].startswith(f"the broker cannot start; trying again in {BROKER_AGAIN_S:g} s: mosquitto exited with ")
        assert "Address already in use" in out.getvalue()  # mosquitto's own words, from its log
        assert said[-1] == f"the broker runs again on port {port}; the tables connect to it again"
        assert sum("the broker cannot start" in line for line in said) == 1
    finally:
        hall.broker.stop()


def test_a_part_that_cannot_be_started_again_is_said_and_the_hall_goes_on(tmp_path, monkeypatch):
    """A part whose log cannot be opened any more (a disk gone read-only or out of inodes; here its log is a folder
    now): the OSError of its restart ended the whole hall, every table with it. Now it is said, once while the same
    reason lasts, and tried again every 5 s; once it can be, it runs again."""
    monkeypatch.setenv("CARDTABLE_LANG", "zh")
    log = tmp_path / "camera.log"
    child = Child("t01/camera", [sys.executable, "-c", "raise SystemExit(3)"], log)
    child.start(tmp_path)
    child.proc.wait(30)
    now = time.monotonic()
    assert child.check(tmp_path, now) == "t01/camera 退出了（3），0.5 秒后重启"
    log.unlink()
    log.mkdir()
    assert child.check(tmp_path, now + 1) == "t01/camera 无法重启（是一个文件夹），5 秒后再试；其他进程照常运行"
    assert child.check(tmp_path, now + 2) is None and child.starts == 1  # not due
    assert child.check(tmp_path, now + 7) is None and child.starts == 1  # due, the same reason: not said again
    log.rmdir()
    assert child.check(tmp_path, now + 13) is None and child.starts == 2
    child.proc.wait(30)


def test_a_part_refused_or_taken_over_is_not_started_again_as_the_units_do(tmp_path, monkeypatch):
    """A table's service whose log will not do exits 2 (a person decides, docs/recovery.md); a camera another one of its
    table took over exits 3: the hall's units do not start them again (RestartPreventExitStatus), the demo's supervisor
    did, every 5 s for ever, each start refused again (or pushing the other camera off). Now it says so once, with its
    last words, and leaves it; a failure of another status is started again as before."""
    monkeypatch.setenv("CARDTABLE_LANG", "zh")
    hall = Supervisor(Options(tables=1, port=free_port(), dir=tmp_path / "hall"), out=io.StringIO())
    hall.dir.mkdir()
    parts = {c.name: c.final for c in hall._table_children(hall.tables[0], 1, lambda user: "mqtt://x", [])}
    for fd in hall._fifos:
        os.close(fd)
    assert parts == {"t01/service": (2, 3), "t01/board": (), "t01/bridge": (3,), "t01/camera": (3,), "t01/players": ()}
    refused = Child("t01/service", [sys.executable, "-c", "print('日志不对'); raise SystemExit(2)"], tmp_path / "s.log",
                    final=(2, 3))
    failed = Child("t01/camera", [sys.executable, "-c", "raise SystemExit(1)"], tmp_path / "c.log", final=(3,))
    for child in (refused, failed):
        child.start(tmp_path)
        child.proc.wait(30)
    now = time.monotonic()
    assert refused.check(tmp_path, now) == "t01/service 退出了（2），不再重启。它最后说：日志不对"
    assert failed.check(tmp_path, now) == "t01/camera 退出了（1），0.5 秒后重启"
    for later in (1, 60, 3600):
        assert refused.check(tmp_path, now + later) is None and refused.starts == 1
    assert failed.check(tmp_path, now + 1) is None and failed.starts == 2
    failed.proc.wait(30)


def test_a_disk_nearly_full_is_said_once_and_again_when_it_has_room(tmp_path):
    """A disk filling under the run directory was not said: the tables' services, which must log every input to
    referee, stopped one by one, their last words lost with the log they could not write. Now the hall says it once
    while it lasts, before it is full, and says when it has room again (a real small file system: tmpfs)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(disk)], capture_output=True).returncode:
        pytest.skip("mounting a tmpfs needs root")
    try:
        out = io.StringIO()
        hall = Supervisor(Options(tables=1, port=free_port(), dir=disk), out=out)
        hall.dir = disk
        for _ in range(3):
            hall._check_disk()
        subprocess.run(["mount", "-o", f"remount,size={2 * LOW_DISK_B}", str(disk)], check=True)
        hall._check_disk()
        hall._check_disk()
        assert lines(out) == [f"运行目录 {disk} 所在的磁盘只剩 8 `MiB`：磁盘一满，各桌就无法记录，停止裁判，日志也写不下；请腾出空间",
                              f"运行目录 {disk} 所在的磁盘又有空间了（128 `MiB`）"]
    finally:
        subprocess.run(["umount", str(disk)], check=True)


class Answers(http.server.BaseHTTPRequestHandler):
    """Another program on the hall's port: it answers every request, and knows none of the hall's passwords."""

    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"another hall's scoreboard")

    def do_POST(self):
        self.send_response(401)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_another_program_answering_on_the_halls_port_is_said_not_taken_for_the_console(tmp_path, monkeypatch):
    """Two halls started at once both found port 8000 free; the second's display could not have it, yet the second
    hall took the first's page for its own and printed it as its scoreboard and console, with a password that did not
    log in there. Now the console must know the hall's referee: another program answering is said, and the hall
    stops."""
    monkeypatch.setenv(MARK, "")
    hall = Supervisor(Options(tables=1, port=free_port(), dir=tmp_path / "hall", see="oracle"),
                      out=io.StringIO())
    other = http.server.ThreadingHTTPServer(("127.0.0.1", hall.port), Answers)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        with pytest.raises(HallError) as caught:
            hall.start()
        assert caught.value.key == "hall.error.port_answered"
        assert str(caught.value) == (f"端口 {hall.port} 上回答的不是这个赛场的控制台（回答 401；另一个赛场或程序占用了它，这个赛场的"
                                     "控制台启动不了）：请用 `--port` 换一个")
        assert "记分牌" not in hall.out.getvalue()
    finally:
        hall.stop()
        other.shutdown()
        other.server_close()
    assert hall_processes(hall.dir) == []


def test_sigterm_while_the_hall_starts_stops_everything_at_once(tmp_path):
    """SIGTERM (a technician's ``kill``, systemd stopping it) while the hall was starting was kept until the hall was
    ready: it went on starting, printed its scoreboard and console, paired and started a round, and only then
    stopped. Now it stops what it started, at once, and says nothing is running."""
    run_dir = tmp_path / "hall"
    proc = subprocess.Popen([*CLI, "hall", "--tables", "1", "--see", "oracle", "--port", str(free_port()), "--dir", str(run_dir)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
    try:
        deadline = time.monotonic() + 60
        while not (run_dir / "logs").exists():  # its parts are starting
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, output
    said = [line.split(" ", 1)[1] for line in output.splitlines()]
    assert said == ["停止所有进程……", "已停止"], output  # no scoreboard, no round started
    assert hall_processes(run_dir) == []


def test_a_second_hall_is_refused_and_ctrl_c_stops_the_tables_before_the_broker(tmp_path, monkeypatch):
    """A hall run as at a terminal. A second ``make demo`` while it runs found port 8000 taken and quietly started a
    second whole hall on another port, on the same two cores: now it is refused in words, naming the hall that runs
    (a port taken by another program still gets a free one). Then Ctrl-C, which the terminal sends to its whole
    foreground process group: mosquitto, started in the hall's group, got it too and ended first, so no table could
    tell the bus it went offline (each waited its flush out for the broker that was gone: the stop took eight
    seconds). Now the broker runs in a session of its own and is stopped last, after every table said goodbye."""
    run_dir, port = tmp_path / "hall", free_port()
    proc = subprocess.Popen([*CLI, "hall", "--tables", "1", "--see", "oracle", "--port", str(port), "--dir",
                             str(run_dir)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV,
                            start_new_session=True)  # the group leader, as a shell makes a command in a terminal
    said: list[str] = []
    threading.Thread(target=lambda: said.extend(proc.stdout), daemon=True).start()
    try:
        deadline = time.monotonic() + 90
        while not any("记分牌：" in line for line in said):
            assert time.monotonic() < deadline and proc.poll() is None, "".join(said)
            time.sleep(0.2)
        monkeypatch.setattr(supervisor, "DEFAULT_PORT", port)  # the first hall has the demo's port
        with pytest.raises(HallError) as caught:
            Supervisor(Options(tables=1, dir=tmp_path / "second"))
        assert str(caught.value) == (f"这台机器上已有一个赛场在运行（记分牌 http://127.0.0.1:{port}/，运行目录 {run_dir}）："
                                     "请先在它的终端按 `Ctrl-C` 结束它；确要同时再开一个，请用 `--port` 给它另一个端口")
        assert caught.value.text("en").startswith(f"a hall is already running on this machine (scoreboard "
                                                  f"http://127.0.0.1:{port}/, run directory {run_dir}): end it first")
        assert not (tmp_path / "second").exists()
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
        assert proc.wait(60) == 0, "".join(said)
    finally:
        if proc.poll() is None:
            proc.kill()
    log = (run_dir / "broker" / "mosquitto.log").read_text()
    ended = log.rindex("terminating")
    assert "Client table-t01 disconnected." in log[:ended], log[-3000:]
    assert hall_processes(run_dir) == []


def test_the_demos_port_taken_by_another_program_gives_the_hall_another(monkeypatch):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setattr(supervisor, "DEFAULT_PORT", taken.getsockname()[1])
        assert pick_port(None) not in (None, supervisor.DEFAULT_PORT)
