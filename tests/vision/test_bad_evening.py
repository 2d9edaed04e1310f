"""`cardtable vision` on a bad evening, as a venue's technician meets it: every wrong input, full disk, Ctrl-C and
second camera ends in words (Chinese, English with ``--lang en``), never a traceback, and changes nothing; a camera
that cannot watch its table says so and ends rather than look as if it watched."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from bus.protocol import decode, topic
from mjpeg import Stream
from vision_frames import frame, play, shipped_networks

TABLES = ["t1", "t2"]
VISION = [sys.executable, "-m", "cardtable", "vision"]


def run(*args: str, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([*VISION, *args], capture_output=True, text=True, timeout=240, **kwargs)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture(scope="module")
def table_png(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("table") / "table.png"
    cv2.imwrite(str(path), frame(play("S", ["HQ", "H7"], "row", 3)).image)
    return path


@pytest.fixture(scope="module")
def video(tmp_path_factory) -> Path:
    """Six seconds of a table with a play on it."""
    path = tmp_path_factory.mktemp("video") / "table.mp4"
    image = frame(play("S", ["HQ", "HQ"], "row", 31)).image
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 10, (1280, 960))
    for _ in range(60):
        out.write(image)
    out.release()
    return path


def _full_disk() -> None:
    """The child's disk holds 64 KB more at most (its writes fail past that, as on a full disk: EFBIG, not a kill)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64_000, 64_000))


def test_calibrate_writes_its_picture_whole_or_not_at_all(table_png, tmp_path):
    """The picture is written whole or not at all: a full disk leaves the one there before as it was (it was
    truncated), a folder given as ``--out`` is said (a traceback), and any name gets a PNG (``--out x.txt``: a
    traceback, no writer for ``.txt``)."""
    out = tmp_path / "calibration.png"
    out.write_bytes(b"yesterday's picture")
    done = run("calibrate", "--source", str(table_png), "--out", str(out), preexec_fn=_full_disk)
    assert out.read_bytes() == b"yesterday's picture" and sorted(tmp_path.iterdir()) == [out]
    assert done.returncode == 2 and f"无法写入 {out}" in done.stderr and "原有的文件不变" in done.stderr, done.stderr
    done = run("--lang", "en", "calibrate", "--source", str(table_png), "--out", str(tmp_path))
    assert done.returncode == 2 and f"cannot write {tmp_path}" in done.stderr and sorted(tmp_path.iterdir()) == [out]
    done = run("calibrate", "--source", str(table_png), "--out", str(tmp_path / "x.txt"))
    assert done.returncode == 0, done.stderr
    assert cv2.imread(str(tmp_path / "x.txt")).shape == (960, 1280, 3)


@pytest.mark.parametrize("shape", [(1, 1), (1, 3000), (20, 400), (9000, 12000)])
def test_a_frame_too_small_to_show_a_table_is_said_in_words(shape, tmp_path):
    """A 1 x 1 picture was 'not a colour image: (1, 1, 3)' in English; a 3000 x 1 one stopped `calibrate` with
    OpenCV's traceback, and a venue's laid-out deck photo `deck --layout`. A 12000 x 9000 one (108 MP, no camera's,
    a small file: a hostile picture) was read in its pixels for 54 s in 7 GB; it is refused at once."""
    path = tmp_path / "small.png"
    cv2.imwrite(str(path), np.full((*shape, 3), 90, np.uint8))
    size = f"{shape[1]}x{shape[0]}"
    done = run("read", str(path))
    assert done.returncode == 2 and f"不是能读的画面：{size} 像素（要彩色，每边至少 32 像素，总共至多 50 百万像素）" in done.stderr, \
        done.stderr
    done = run("--lang", "en", "read", str(path))
    assert done.returncode == 2 and f"not a frame to read: {size} pixels" in done.stderr, done.stderr
    done = run("calibrate", "--source", str(path), "--out", str(tmp_path / "c.png"))
    assert done.returncode == 2 and f"未标定：不是能读的画面：{size}" in done.stderr, done.stderr
    assert not (tmp_path / "c.png").exists()
    done = run("deck", "--layout", str(path), "--out", str(tmp_path / "venue"))  # a traceback before
    assert done.returncode == 2 and f"{path}：不是能读的画面：{size}" in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.png"]


def test_join_says_which_classifier_is_damaged(tmp_path):
    """A truncated classifier stopped `join` with protobuf's DecodeError and its traceback."""
    models = shipped_networks(tmp_path).parent
    damaged = tmp_path / "damaged.onnx"
    damaged.write_bytes((models / "index.onnx").read_bytes()[:10_000])
    done = run("join", str(models / "index.onnx"), str(damaged), "--out", str(tmp_path / "joined.onnx"))
    assert done.returncode == 2 and f"无法合并这几个分类器：{damaged} 不是 `ONNX` 模型文件，或已损坏" in done.stderr
    missing = tmp_path / "nosuch.onnx"  # a mistyped name was said as the system's error alone, naming no file
    done = run("join", str(models / "index.onnx"), str(missing), "--out", str(tmp_path / "joined.onnx"))
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        f"cardtable vision join：错误：无法合并这几个分类器：没有分类器文件 {missing}"], done.stderr
    assert not list(tmp_path.glob("joined*"))


def test_no_vision_command_writes_over_a_database(table_png, tmp_path):
    """`--out` mistyped as the console's file: `calibrate` and `join` replaced the database with their picture or model
    (as `tournament export` did), and `sure` would have after minutes of fitting. Each is refused in words, exit 2,
    before any work, and the database and its folder are as they were."""
    (tmp_path / "m").mkdir()
    models = shipped_networks(tmp_path / "m").parent
    db = tmp_path / "console.db"
    db.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 4)
    made = sorted(tmp_path.iterdir())
    runs = {"calibrate": ["calibrate", "--source", str(table_png), "--out", str(db)],
            "join": ["join", str(models / "index.onnx"), str(models / "index.onnx"), "--out", str(db)],
            "sure": ["sure", "--deck", "sans", "--model", str(models / "cards.onnx"), "--frames", "1", "--out", str(db)]}
    for name, args in runs.items():
        zh, en = run(*args), run("--lang", "en", *args)
        assert zh.returncode == en.returncode == 2, (name, zh.stderr, en.stderr)
        assert f"{db} 是数据库文件：赛事、控制台或牌桌的记录，不能被覆盖" in zh.stderr, (name, zh.stderr)
        assert f"{db} is a database file, a tournament's, the console's or a table's log: never written over" \
            in en.stderr, (name, en.stderr)
        assert db.read_bytes() == b"SQLite format 3\x00" + bytes(range(256)) * 4 and sorted(tmp_path.iterdir()) == made


def _statuses(box, table: str = "t1") -> list[str]:
    """The camera's statuses from its first ``online`` (one kept from before, retained, comes first)."""
    said = [decode("camera/status", p)["status"] for p in box.payloads(topic(table, "camera/status"))]
    return said[said.index("online"):] if "online" in said else said


def test_a_file_that_gives_no_frame_is_no_table_watched(broker, connect, inbox, tmp_path):
    """A file that opens but gives no frame (a damaged picture of the table given as the source) was watched to its
    end and the camera said '0 plays sent', exit 0: a table never seen, told as a watch that went well."""
    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "camera/status"), box)
    assert console.wait_subscribed(30)
    notes = tmp_path / "table.png"
    notes.write_text("the evening's notes, not a picture\n")
    done = run("watch", "--table", "t1", "--source", str(notes), "--broker", broker.url("camera-t1"))
    assert done.returncode == 1 and f"{notes} 一帧能读的画面都没有给出" in done.stderr, done.stderr
    assert "已发送" not in done.stdout
    assert box.wait_for(lambda t, p: _statuses(box)[-1:] == ["offline"], timeout=30)


def test_a_camera_whose_broker_refuses_its_messages_stops_in_words(broker, connect, inbox, video):
    """Table t2's camera started with t1's camera credentials: the broker refused every message (its ACL), the camera
    logged warnings, said '1 play sent' and exited 0, while t2 heard nothing of it."""
    box = inbox()
    console = connect("console")
    for name in ("camera/status", "observed", "frames", "removed"):
        console.subscribe(topic("t2", name), box)
    assert console.wait_subscribed(30)
    done = run("--lang", "en", "watch", "--table", "t2", "--source", str(video), "--broker", broker.url("camera-t1"))
    assert done.returncode == 1, done.stderr
    assert "the broker refuses what the camera of table t2 publishes (user camera-t1)" in done.stderr, done.stderr
    time.sleep(1)
    assert box.messages == []


def test_a_second_camera_on_a_table_is_refused_and_the_first_goes_on(broker, connect, inbox, video):
    """Two `vision watch` of one table took the table's camera connection from each other (the broker keeps one per
    user) several times a second, each sending the plays it saw: the table heard every play twice. The first here
    watches a network camera's stream of the bare table (it goes on); the second, a video with a play, is refused
    before it sends anything."""
    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "camera/status"), box)
    console.subscribe(topic("t1", "observed"), box)
    assert console.wait_subscribed(30)
    camera = Stream(frame([]).image)
    first = subprocess.Popen([*VISION, "watch", "--table", "t1", "--source", camera.url, "--broker",
                              broker.url("camera-t1")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert box.wait_for(lambda t, p: "online" in _statuses(box), timeout=120)
        second = run("watch", "--table", "t1", "--source", str(video), "--broker", broker.url("camera-t1"))
        assert second.returncode == 1, second.stderr
        assert f"桌 t1 已由本机另一个 `cardtable vision watch` 在看（进程号和视频源：{first.pid} {camera.url}" \
            in second.stderr, second.stderr
        time.sleep(1)
        assert first.poll() is None and "offline" not in _statuses(box) and box.payloads(topic("t1", "observed")) == []
    finally:
        first.send_signal(signal.SIGTERM)
        out, err = first.communicate(timeout=60)
        camera.stop()
    assert "camera-t1: disconnected" not in err.replace("disconnected: Normal disconnection", ""), err


def test_ctrl_c_in_an_enrolment_is_said_in_words_and_leaves_nothing(tmp_path):
    """Ctrl-C (SIGINT to the terminal's process group: the command and its data workers) while a deck is enrolled
    printed a KeyboardInterrupt traceback; it is said in words, exit 130, and the half-built folder is taken away.
    (Data workers: ``test_ctrl_c_while_data_workers_start_prints_no_traceback``.)"""
    pytest.importorskip("torch")
    from test_deck import scanned_deck

    scans, out = scanned_deck(tmp_path / "scans"), tmp_path / "venue"

    def terminal() -> None:  # a terminal's job: SIGINT as the shell leaves it, its own process group
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.setpgid(0, 0)

    enrolling = subprocess.Popen([*VISION, "deck", "--faces", str(scans), "--out", str(out), "--steps", "100000",
                                  "--workers", "0", "--sure-frames", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 preexec_fn=terminal)
    try:
        deadline = time.time() + 120
        while not (tmp_path / "venue.enrolling" / "index.base.json").is_file() and time.time() < deadline:
            time.sleep(0.1)
        time.sleep(2)
        os.killpg(enrolling.pid, signal.SIGINT)
        _, err = enrolling.communicate(timeout=120)
    finally:
        enrolling.kill()
    assert enrolling.returncode == 130 and "已停止（`Ctrl-C`）" in err and "Traceback" not in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scans"]


def _workers(pid: int) -> set[int]:
    """The worker processes (multiprocessing's) that ``pid`` started."""
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(c for c in map(int, (task / "children").read_text().split())
                         if "--multiprocessing-fork" in Path(f"/proc/{c}/cmdline").read_text(errors="replace"))
        except OSError:
            pass  # the thread or the child has ended
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("command", ["train", "sure"])
def test_ctrl_c_while_data_workers_start_prints_no_traceback(command, tmp_path):
    """Ctrl-C at the terminal (SIGINT to its process group) while the data workers of ``vision train`` (the training
    batches) or ``vision sure`` (the tables read, as an enrolment's) are starting: each worker, still importing,
    printed its KeyboardInterrupt traceback under the command's words. The workers ignore SIGINT; the command alone
    says it stopped (exit 130) and ends them."""
    pytest.importorskip("torch")
    shipped_networks(tmp_path)
    args = {"train": ["train", "--part", "index", "--steps", "100000", "--workers", "2", "--out", str(tmp_path / "out")],
            "sure": ["sure", "--deck", "sans", "--model", str(tmp_path / "cards.onnx"), "--camera", "1280x960",
                     "--frames", "1000", "--workers", "2", "--check", "0"]}[command]
    running = subprocess.Popen([*VISION, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: (signal.signal(signal.SIGINT, signal.SIG_DFL), os.setpgid(0, 0)))
    try:
        deadline = time.time() + 120
        while len(workers := _workers(running.pid)) < 2 and time.time() < deadline:
            time.sleep(0.02)
        assert len(workers) >= 2 and running.poll() is None
        time.sleep(0.3)  # started, still importing
        os.killpg(running.pid, signal.SIGINT)
        _, err = running.communicate(timeout=120)
    finally:
        running.kill()
    assert running.returncode == 130 and "已停止（`Ctrl-C`）" in err and "Traceback" not in err, err
    deadline = time.time() + 30
    while any(_running(w) for w in workers) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(_running(w) for w in workers)


def test_a_disk_filling_up_while_a_deck_is_enrolled_is_said_in_words(tmp_path):
    """A disk with room for the copied networks and the deck's art but not for the classifier trained on them (a
    3 MB filesystem): the enrolment stopped with OSError's traceback; it says so, exit 1, and leaves nothing."""
    pytest.importorskip("torch")
    from test_deck import scanned_deck

    scans, disk = scanned_deck(tmp_path / "scans"), tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3000k", "tmpfs", str(disk)], capture_output=True).returncode:
        pytest.skip("a small filesystem needs mount (root)")
    try:
        done = run("deck", "--faces", str(scans), "--out", str(disk / "venue"), "--steps", "1", "--workers", "0",
                   "--sure-frames", "1", "--sure-workers", "0")
        assert done.returncode == 2 and f"无法写入赛场的文件夹 {disk / 'venue'}" in done.stderr, done.stderr
        assert list(disk.iterdir()) == []
    finally:
        subprocess.run(["umount", str(disk)])


def test_an_enrolment_killed_before_is_said_and_started_from_the_beginning(tmp_path):
    """An enrolment killed (SIGKILL, a power cut) leaves its part beside the venue's folder (``venue.enrolling``); the
    next run removed it without a word, so a technician could not tell whether it went on from there or not. It says
    that it starts from the beginning (an enrolment does not resume), and the part is gone whatever it then does."""
    from test_deck import scanned_deck

    scans, part = scanned_deck(tmp_path / "scans"), tmp_path / "venue.enrolling"
    (part / "deck").mkdir(parents=True)
    (part / "index.onnx").write_bytes(b"half written")
    for lang, said in (("zh", f"上次录入没有做完（被中断或杀掉），留下了 {part}：录入不会接着上次做"),
                       ("en", f"did not finish (stopped or killed) and left {part}: an enrolment does not resume")):
        part.mkdir(exist_ok=True)
        done = run("--lang", lang, "deck", "--faces", str(scans), "--out", str(tmp_path / "venue"), "--steps", "1",
                   "--workers", "0", "--sure-frames", "1", "--sure-workers", "0")
        assert said in done.stdout, done.stdout + done.stderr
        assert not part.exists()
