"""`cardtable vision watch` from a video file, publishing to a real mosquitto as the table's camera user: plays as
`observed` (schema-checked), the frame of a flagged play on `frames` with the same id, ids unique and stable."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import subprocess
import sys
import threading
import time

import cv2
import pytest

from bus.protocol import decode, topic
from vision.model import DEFAULT_MODEL
from mjpeg import Stream
from vision.calibrate import find_markers
from vision.presence import LOST_AFTER_S
from vision.watch import OPEN_S, REOPEN_S, STALL_S, SourceError, kind, open_source, reopen
from vision_frames import CAMERA, frame, play, shipped_networks

TABLES = ["t1"]
FPS = 10


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    south = play("S", ["HQ", "HQ"], "row", 31)
    east = play("E", ["H3", "H4", "H5"], "row", 32)  # three cards to a lead of two: flagged
    states = [(0.0, []), (0.5, south), (2.0, south + east), (3.2, east), (4.4, [])]  # S picks up early, then E
    path = tmp_path_factory.mktemp("watch") / "table.mp4"
    images = [frame(cards).image for _, cards in states]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, (1280, 960))
    assert out.isOpened()
    for n in range(int(5.6 * FPS)):
        out.write(images[max(i for i, (t0, _) in enumerate(states) if t0 <= n / FPS)])
    out.release()
    return path


@pytest.fixture(scope="module")
def uncalibrated(tmp_path_factory):
    """The shipped networks without their confidence calibration, which makes every read of them unsure (they read
    unseen decks too badly to call any read sure): the watch's own logic is what is tested here, on trained art."""
    return shipped_networks(tmp_path_factory.mktemp("models"))


def test_watch_publishes_observed_and_kept_frames(broker, connect, inbox, video, uncalibrated):
    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "observed"), box)
    console.subscribe(topic("t1", "frames"), box)
    console.subscribe(topic("t1", "removed"), box)
    assert console.wait_subscribed(30)
    done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                           str(video), "--broker", broker.url("camera-t1"), "--fps", str(FPS), "--model", str(uncalibrated)],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    # The watch has exited: all it published is at the broker, on its way here. Wait for all of it (two plays, one
    # frame, two pick-ups), not for E's play only: what came after it on the other topics may still be coming.
    counts = {"observed": 2, "frames": 1, "removed": 2}
    box.wait_for(lambda t, p: all(len(box.payloads(topic("t1", name))) >= n for name, n in counts.items()), timeout=30)
    observed = [decode("observed", p) for p in box.payloads(topic("t1", "observed"))]
    frames = [decode("frames", p) for p in box.payloads(topic("t1", "frames"))]
    assert [(o["seat"], o["cards"]) for o in observed] == [("S", ["HQ", "HQ"]), ("E", ["H3", "H4", "H5"])]
    assert observed[0]["confidence"] >= 0.9 and observed[1]["confidence"] < 0.9
    assert len({o["id"] for o in observed}) == 2 and all(o["id"].startswith("cam-t1-") for o in observed)
    assert [(f["id"], f["seat"]) for f in frames] == [(observed[1]["id"], "E")]
    assert "出牌张数不对（3 张，首家出了 2 张）" in frames[0]["reason"] and len(frames[0]["jpeg"]) <= 240_000
    assert "已发送 2 次出牌" in done.stdout and "断了" not in done.stdout  # a file that ends is no camera dropped
    removed = [decode("removed", p) for p in box.payloads(topic("t1", "removed"))]
    assert [(r["seat"], r["cards"]) for r in removed] == [("S", ["HQ", "HQ"]), ("E", ["H3", "H4", "H5"])]
    assert removed[0]["at"] < removed[1]["at"] and len({r["id"] for r in removed + observed}) == 4
    assert all(r["confidence"] >= 0.9 for r in removed)  # the frames showed the table bare where they lay


def test_watch_without_a_source_is_a_clear_error(broker, tmp_path):
    done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                           str(tmp_path / "none.mp4"), "--broker", broker.url("camera-t1")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "没有这个视频文件" in done.stderr


def test_a_camera_coarser_than_the_decks_calibration_says_so_once_and_flags_every_play(broker, connect, inbox, video):
    """The hall's calibration holds from 2560 x 1920 frames' detail; this 1280 x 960 video is coarser: the watch
    says so when it begins, and every play goes to a person saying why, none as sure."""
    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "observed"), box)
    console.subscribe(topic("t1", "frames"), box)
    assert console.wait_subscribed(30)
    hall = DEFAULT_MODEL.with_name("hall.sure.json")
    done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                           str(video), "--broker", broker.url("camera-t1"), "--fps", str(FPS), "--sure", str(hall)],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("比置信度校准时的") == 1 and "没有读数会被确认：" not in done.stdout, done.stdout
    box.wait_for(lambda t, p: len(box.payloads(topic("t1", "frames"))) >= 2, timeout=30)
    observed = [decode("observed", p) for p in box.payloads(topic("t1", "observed"))]
    frames = [decode("frames", p) for p in box.payloads(topic("t1", "frames"))]
    assert len(observed) == 2 and all(o["confidence"] < 0.9 for o in observed)
    assert sorted(f["id"] for f in frames) == sorted(o["id"] for o in observed)
    assert all("摄像机看桌面比校准置信度时粗" in f["reason"] for f in frames)


def test_out_of_the_box_the_watch_says_no_read_will_be_sure_and_flags_every_play(broker, connect, inbox, video):
    """The shipped calibration marks nothing sure (the classifier reads decks it never saw too badly): the watch says
    so once when it begins, and every play goes to a person, none as sure, even of a deck it reads right."""
    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "observed"), box)
    assert console.wait_subscribed(30)
    done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                           str(video), "--broker", broker.url("camera-t1"), "--fps", str(FPS)],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("没有读数会被确认：开箱即用时") == 1, done.stdout
    box.wait_for(lambda t, p: len(box.payloads(topic("t1", "observed"))) >= 2, timeout=30)
    observed = [decode("observed", p) for p in box.payloads(topic("t1", "observed"))]
    assert [o["cards"] for o in observed] == [["HQ", "HQ"], ["H3", "H4", "H5"]]
    assert all(o["confidence"] < 0.9 for o in observed)


def test_a_usb_camera_is_live_by_its_index_or_its_device_path_and_unplugged_it_is_a_drop(video, tmp_path, monkeypatch):
    """A USB camera (V4L2) is live by its index or by its device's path (``/dev/video0``, or ``/dev/v4l/by-id/...``,
    which stays with the camera whatever index it gets when plugged back): a path was refused as no video file.
    Unplugged, its reads fail (the drop of a stream) and its path vanishes: each try to open it again is a source that
    does not open (None: tried again), never a refusal that ends the watch. A read waits at most ``STALL_S`` (V4L2's
    select timeout, 10 s by OpenCV's default)."""
    sources = ("0", os.devnull, "rtsp://cam/table", f"file://{video}", str(video))
    assert [kind(s) for s in sources] == ["camera", "camera", "stream", "file", "file"]  # /dev/null: a device
    assert kind("/dev/v4l/by-id/usb-absent-video-index0") == "camera"  # not plugged in yet: waited for
    with pytest.raises(SourceError) as e:
        kind(str(tmp_path / "video9"))
    assert e.value.key == "vision.error.no_video"  # said at the start: no such file or device
    with pytest.raises(SourceError) as e:
        open_source(os.devnull)  # a device, not a camera
    assert e.value.key == "vision.error.cannot_open"
    monkeypatch.delenv("OPENCV_VIDEOIO_V4L_SELECT_TIMEOUT", raising=False)
    for gone in (str(tmp_path / "video9"), "9"):  # a device's path vanished with it; an index with no device now
        dropped = time.monotonic()
        cap, began = reopen(gone, "camera", None, 0, dropped)
        assert cap is None and REOPEN_S[0] <= began - dropped < time.monotonic() - dropped < REOPEN_S[0] + 2
    assert os.environ["OPENCV_VIDEOIO_V4L_SELECT_TIMEOUT"] == "5"


def _statuses(box) -> list[dict]:
    """The camera's statuses from its first ``online`` (one kept from before, retained, comes first)."""
    said = [decode("camera/status", p) for p in box.payloads(topic("t1", "camera/status"))]
    return said[next((i for i, s in enumerate(said) if s["status"] == "online"), len(said)):]


@pytest.mark.parametrize("stop", ["stopped", "interrupted", "killed"])
def test_the_camera_says_whether_it_sees_the_table_and_offline_when_it_stops(broker, connect, inbox, stop):
    """``camera/status`` (retained): ``online`` while frames come; ``lost`` (no frame) once a live stream has given
    none for 5 s (a network camera gone down, tried again meanwhile); ``offline`` when the watch stops:
    its own message when stopped (SIGTERM, as systemd stops it) or interrupted (SIGINT, even where the shell that
    started it ignores SIGINT, as a non-interactive shell does for a job in the background), the broker's last will
    when the process is killed. A console connecting afterwards sees the last of them."""
    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "camera/status"), box)
    assert console.wait_subscribed(30)
    began, camera = time.time(), Stream(frame([]).image)
    watching = subprocess.Popen([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                                 camera.url, "--broker", broker.url("camera-t1"), "--fps", str(FPS)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        assert box.wait_for(lambda t, p: [s["status"] for s in _statuses(box)][-1:] == ["online"], timeout=120)
        camera.stop()
        assert box.wait_for(lambda t, p: [s["status"] for s in _statuses(box)][-1:] == ["lost"], timeout=60)
    finally:
        camera.stop()
        watching.send_signal({"stopped": signal.SIGTERM, "interrupted": signal.SIGINT, "killed": signal.SIGKILL}[stop])
        try:
            out, err = watching.communicate(timeout=60)
        finally:
            watching.kill()  # never left behind: it would take the camera user's session from the next one
    assert box.wait_for(lambda t, p: [s["status"] for s in _statuses(box)][-1:] == ["offline"], timeout=30), err
    online, lost, offline = _statuses(box)
    assert (online["status"], online["camera"], lost["reason"], lost["camera"]) == ("online", "cam-t1", "frames", "cam-t1")
    assert began < lost["since"] < online["at"] + 2 and lost["at"] - lost["since"] > 5
    assert ("at" in offline) == (stop != "killed") and offline["camera"] == "cam-t1"
    if stop != "killed":
        assert "摄像机已超过 5 秒没有画面" in out and "摄像机停止" in out, out
    late = inbox()
    again = connect("scoreboard", clean_start=True)
    again.subscribe(topic("t1", "camera/status"), late)
    assert late.wait_for(lambda t, p: decode("camera/status", p)["status"] == "offline", timeout=30)


def _since(box, began: float) -> list[dict]:
    """The camera's statuses published since ``began`` (one retained from before, or a last will, left out)."""
    said = [decode("camera/status", p) for p in box.payloads(topic("t1", "camera/status"))]
    return [s for s in said if s.get("at", 0) >= began]


def test_a_stream_that_never_answers_is_told_as_lost_and_given_up_after_the_open_bound(broker, connect, inbox, until):
    """A camera stream whose server takes the connection and says nothing held the watch in OpenCV's open for 30 s:
    meanwhile ``camera/status`` says lost (no frame), from a thread of its own, never online (it said online at once,
    with no frame yet), and the open is given up after ``OPEN_S`` and tried again, the watch still running (it
    ended, and its unit started it again, online and offline by turns), until SIGTERM: offline by its own message."""
    import socket

    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "camera/status"), box)
    assert console.wait_subscribed(30)
    began, silent, taken = time.time(), socket.create_server(("127.0.0.1", 0)), []

    def take() -> None:
        while True:
            try:
                taken.append((silent.accept(), time.monotonic()))
            except OSError:
                return

    threading.Thread(target=take, daemon=True).start()
    watching = subprocess.Popen([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                                 f"rtsp://127.0.0.1:{silent.getsockname()[1]}/table", "--broker",
                                 broker.url("camera-t1")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = _lines(watching)
        assert box.wait_for(lambda t, p: [s["status"] for s in _since(box, began)][-1:] == ["lost"], timeout=60)
        assert until(lambda: len(taken) >= 2, timeout=60)  # the first open given up, the stream tried again
        assert watching.poll() is None and any("还没有画面" in line for line in lines), lines
        assert taken[1][1] - taken[0][1] < OPEN_S + REOPEN_S[0] + 3  # the open given up, not OpenCV's 30 s
    finally:
        watching.send_signal(signal.SIGTERM)
        try:
            _, err = watching.communicate(timeout=60)
        finally:
            watching.kill()
            silent.close()
    assert watching.returncode == 0 and "无法打开视频源" not in err, err
    assert box.wait_for(lambda t, p: [s["status"] for s in _since(box, began)][-1:] == ["offline"], timeout=30)
    lost, offline = _since(box, began)
    assert lost["reason"] == "frames" and "since" not in lost and "at" in offline


def test_a_camera_not_there_at_the_start_is_waited_for_and_never_looks_watched_before_it_sees_the_table(
        broker, connect, inbox, until, uncalibrated):
    """A network camera still down (its port closed) when the watch starts: the watch ended in words, its unit started
    it again every few seconds, and each start said ``online`` at once with no frame. Now it says in words that the
    source gives no frame yet, says ``lost`` (no frame, never seen) and tries again; the camera up, it says so and
    ``online`` only once a frame showed the table's markers; a table showing no markers yet says nothing more."""
    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "camera/status"), box)
    assert console.wait_subscribed(30)
    began, camera = time.time(), Stream(frame([]).image)
    camera.stop()  # not plugged in yet
    with _watching(camera, broker, uncalibrated) as lines:
        assert box.wait_for(lambda t, p: [s["status"] for s in _since(box, began)][-1:] == ["lost"], timeout=60)
        assert until(lambda: any("视频源 " + camera.url + " 还没有画面" in line for line in lines), timeout=30), lines
        camera.show(covered(frame([]).image, 1))  # up, a marker under a cloth: frames, no table yet
        camera.start()
        assert until(lambda: any("有画面了" in line for line in lines), timeout=30), lines
        time.sleep(2)  # frames for a while: nothing known (then lost for want of the markers), never online
        assert "online" not in [s["status"] for s in _since(box, began)]
        camera.show(frame([]).image)
        assert box.wait_for(lambda t, p: [s["status"] for s in _since(box, began)][-1:] == ["online"], timeout=60)
        statuses = _since(box, began)
    assert [s["status"] for s in statuses][-2:-1] == ["lost"] and statuses[-1]["status"] == "online", statuses
    assert (statuses[0]["status"], statuses[0]["reason"], "since" in statuses[0]) == ("lost", "frames", False)
    said = "\n".join(lines)
    assert said.count("还没有画面") == 1 and "断了" not in said and said.index("还没有画面") < said.index("有画面了"), said


def covered(image, marker: int):
    """``image`` with table marker ``marker`` covered (a grey cloth over that corner)."""
    out = image.copy()
    x0, y0 = find_markers(image)[marker].min(0).astype(int) - 12
    x1, y1 = find_markers(image)[marker].max(0).astype(int) + 12
    out[max(y0, 0):y1, max(x0, 0):x1] = 128
    return out


def _lines(process) -> list[str]:
    """``process``'s stdout lines as they come (read by a thread of their own)."""
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True).start()
    return lines


@contextlib.contextmanager
def _watching(camera, broker, model):
    """``vision watch`` of ``camera`` (5 frames a second, ``model``): its stdout lines as they come; then stopped as
    systemd stops it (SIGTERM), and ``camera`` too."""
    watching = subprocess.Popen([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                                 camera.url, "--broker", broker.url("camera-t1"), "--fps", "5", "--model", str(model)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield _lines(watching)
    finally:
        watching.send_signal(signal.SIGTERM)
        try:
            watching.communicate(timeout=60)
        finally:
            watching.kill()
            camera.stop()


def test_a_stream_that_answers_nothing_is_given_up_within_the_bounds_and_read_again_when_back(
        broker, connect, inbox, until, uncalibrated):
    """A network camera's stream stalls, then the camera reboots: its server sends each new connection its headers
    and then nothing, then takes connections and answers nothing at all, then it is back. OpenCV's FFmpeg held each
    read and each try to open it 30 s, so the table was blind far longer than the tries' schedule (1 s, 2 s, then
    every 5 s) says. Now a read is given up after ``STALL_S``, a try to open after ``OPEN_S``; ``camera/status`` says
    lost (no frame) within ``LOST_AFTER_S`` and never online before frames come again; once the stream is back the
    watch reads it."""
    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "camera/status"), box)
    assert console.wait_subscribed(30)
    camera = Stream(frame([]).image)
    with _watching(camera, broker, uncalibrated) as lines:
        assert box.wait_for(lambda t, p: [s["status"] for s in _statuses(box)][-1:] == ["online"], timeout=120)
        stalled, stalled_at = time.monotonic(), time.time()
        camera.stalled = True  # no frame on its connection; a new one gets the headers, then nothing
        assert until(lambda: any(" 断了" in line for line in lines), timeout=STALL_S + 3), lines
        assert until(lambda: len(camera.taken) == 2, timeout=REOPEN_S[0] + 3)  # the stalled one's, the first try's
        camera.silent = True  # the next try's connection taken, not answered at all
        assert until(lambda: len(camera.held) == 3, timeout=2 * OPEN_S + 3)  # the first try cut, then the next
        back_at = time.time()
        camera.stalled = camera.silent = False
        assert until(lambda: any("又有画面了" in line for line in lines), timeout=REOPEN_S[2] + 10), lines
        assert box.wait_for(lambda t, p: [s["status"] for s in _statuses(box)][-1:] == ["online"], timeout=30)
    (_, dropped), (taken, cut), (again_at, _) = camera.held[:3]
    assert dropped - stalled < STALL_S + 2 and taken - dropped < REOPEN_S[0] + 1, camera.held
    assert all(closed - began < OPEN_S + 2 for began, closed in camera.held[1:3]), camera.held
    assert again_at - cut < 1, camera.held  # the next try at once: tries 2 s apart, a try cut at OPEN_S longer
    online, lost, again = _statuses(box)[:3]
    assert (lost["status"], lost["reason"], again["status"]) == ("lost", "frames", "online")
    assert lost["at"] - stalled_at < LOST_AFTER_S + 2 and again["at"] > back_at


def test_a_camera_that_drops_is_opened_again_and_reads_plays_only_once_its_markers_are_found(
        broker, connect, inbox, until, uncalibrated):
    """A network camera (MJPEG over HTTP) stalls, then goes down (its port closed: rebooting, unplugged) and comes
    back: the watch said nothing and stayed `lost` for good. It says the drop, tells `lost` (no frame), opens the
    stream again (1 s, 2 s, then every 5 s) and, once frames come, looks for the four markers as at its start: the
    camera came back with one marker covered, then moved (plugged back askew), and the play on the table is read
    only once all four markers are found, from the moved camera, at its right seat."""
    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "camera/status"), box)
    console.subscribe(topic("t1", "observed"), box)
    assert console.wait_subscribed(30)
    south = play("S", ["HQ", "HQ"], "row", 31)
    camera = Stream(frame([]).image)
    with _watching(camera, broker, uncalibrated) as lines:
        assert box.wait_for(lambda t, p: [s["status"] for s in _statuses(box)][-1:] == ["online"], timeout=120)
        camera.stalled = True  # the stream stalls: no frame, its connection held
        assert box.wait_for(lambda t, p: [s["status"] for s in _statuses(box)][-1:] == ["lost"], timeout=30)
        assert until(lambda: any("视频源 " + camera.url + " 断了" in line for line in lines), timeout=30), lines
        camera.stop()  # then it is down: every try to open it again is refused
        time.sleep(4)
        camera.show(covered(frame(south).image, 2))  # back, the play on the table, one marker under a cloth
        camera.start()
        assert until(lambda: any("又有画面了" in line for line in lines), timeout=30), lines
        time.sleep(4)  # frames for longer than the play takes to settle: still no play read without the markers
        assert box.payloads(topic("t1", "observed")) == [], lines
        moved = dataclasses.replace(CAMERA, tilt=6, roll=-10, shift=(0.03, -0.02), seed=6)
        camera.show(frame(south, camera=moved).image)  # the cloth taken away: the camera was plugged back askew
        box.wait_for(lambda t, p: len(box.payloads(topic("t1", "observed"))) >= 1, timeout=60)
        assert box.wait_for(lambda t, p: [s["status"] for s in _statuses(box)][-1:] == ["online"], timeout=30)
    observed = [decode("observed", p) for p in box.payloads(topic("t1", "observed"))]
    assert [(o["seat"], o["cards"]) for o in observed] == [("S", ["HQ", "HQ"])]
    statuses = _statuses(box)
    assert [s["status"] for s in statuses][:2] == ["online", "lost"] and statuses[1]["reason"] == "frames"
    said = "\n".join(lines)
    assert said.count("断了") == 1 and said.index("断了") < said.index("又有画面了") < said.index("等待桌角标记"), said


def test_a_camera_taken_over_from_another_machine_says_so_and_ends_for_good(broker, connect, inbox):
    """A camera of the table on another machine (no lock file of this one holds it back) connects as ``camera-T``: the
    broker gives it the table's connection. Before, this camera took it back at once, and the two took it from each
    other ten times a second for ever, each sending the plays it saw (every play read twice). Now this one yields: it
    says so in words, publishes nothing more (not ``offline``: the table is watched, by the other) and ends with
    status 3, which the hall's unit does not restart into the same fight; the other keeps the connection."""
    from bus.mqtt import TAKEN_OVER_EXIT, TAKEN_WITHIN_S, Connection
    from bus.protocol import encode

    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "camera/status"), box)
    assert console.wait_subscribed(30)
    camera = Stream(frame([]).image)
    watching = subprocess.Popen([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                                 camera.url, "--broker", broker.url("camera-t1"), "--fps", str(FPS)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    other = None
    try:
        assert box.wait_for(lambda t, p: [s["status"] for s in _statuses(box)][-1:] == ["online"], timeout=120)
        status = encode("camera/status", {"v": 1, "status": "online", "camera": "cam-t1-new"})
        other = Connection(broker.url("camera-t1"), yields=True, birth=(topic("t1", "camera/status"), status, True))
        other.connect()  # as another machine's camera
        out, err = watching.communicate(timeout=60)
        assert watching.returncode == TAKEN_OVER_EXIT, err
        heard = len(box.messages)
        time.sleep(2 * TAKEN_WITHIN_S)
        assert other.connected and other.taken is None and other.connects <= 2  # no fight
        assert box.messages[heard:] == []  # nothing more from it, no offline
    finally:
        camera.stop()
        watching.kill()
        if other is not None:
            other.close()
    assert "桌 t1 的摄像机已由别处（另一台机器）的摄像机接管：消息服务器" in err and "退出码 3" in err, err
    assert "摄像机停止" not in out, out
    assert decode("camera/status", box.payloads()[-1])["camera"] == "cam-t1-new"  # the table's camera: the other
