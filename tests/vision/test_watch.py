"""`cardtable vision watch` from a video file, publishing to a real mosquitto as the table's camera user: plays as
`observed` (schema-checked), the frame of a flagged play on `frames` with the same id, ids unique and stable."""

from __future__ import annotations

import dataclasses
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


def test_a_stream_that_never_answers_is_told_as_lost_while_the_camera_waits_for_it(broker, connect, inbox):
    """A camera stream whose server takes the connection and says nothing holds the watch in OpenCV's open (30 s):
    meanwhile ``camera/status`` says lost (no frame), from a thread of its own; killed, its last will says offline."""
    import socket
    import threading

    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "camera/status"), box)
    assert console.wait_subscribed(30)
    silent, taken = socket.create_server(("127.0.0.1", 0)), []
    threading.Thread(target=lambda: taken.append(silent.accept()), daemon=True).start()
    watching = subprocess.Popen([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                                 f"rtsp://127.0.0.1:{silent.getsockname()[1]}/table", "--broker",
                                 broker.url("camera-t1")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert box.wait_for(lambda t, p: [s["status"] for s in _statuses(box)][-1:] == ["lost"], timeout=60)
        assert taken and watching.poll() is None  # still waiting for the stream
    finally:
        watching.kill()
        watching.communicate()
        silent.close()
    assert box.wait_for(lambda t, p: [s["status"] for s in _statuses(box)][-1:] == ["offline"], timeout=30)
    online, lost, offline = _statuses(box)
    assert lost["reason"] == "frames" and "since" not in lost and "at" not in offline


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
    watching = subprocess.Popen([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                                 camera.url, "--broker", broker.url("camera-t1"), "--fps", "5", "--model",
                                 str(uncalibrated)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = _lines(watching)
    try:
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
    finally:
        watching.send_signal(signal.SIGTERM)
        try:
            watching.communicate(timeout=60)
        finally:
            watching.kill()
            camera.stop()
    observed = [decode("observed", p) for p in box.payloads(topic("t1", "observed"))]
    assert [(o["seat"], o["cards"]) for o in observed] == [("S", ["HQ", "HQ"])]
    statuses = _statuses(box)
    assert [s["status"] for s in statuses][:2] == ["online", "lost"] and statuses[1]["reason"] == "frames"
    said = "\n".join(lines)
    assert said.count("断了") == 1 and said.index("断了") < said.index("又有画面了") < said.index("等待桌角标记"), said
