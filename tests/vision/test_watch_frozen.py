"""`cardtable vision watch` of a camera that stops seeing without saying so, against a real mosquitto: a source
frozen on one picture (bit for bit the same frames, while a still table's frames differ by the sensor's noise), a
named pipe whose writer stops mid-frame without closing it, and a stream that sends one header line a megabyte long.
``camera/status`` must say ``lost`` within a bound and ``online`` again once real frames come."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time

from bus.protocol import decode, topic
from mjpeg import Stream, noisy
from vision.presence import FROZEN_AFTER_S, LOST_AFTER_S
from vision.watch import OPEN_S, STALL_S, TELL_EVERY_S
from vision_frames import frame

TABLES = ["t1"]
LONGEST_LINE = 2000  # characters: a journal's line a person can still read


def _said(box) -> list[dict]:
    """The camera's statuses from its first ``online`` (the last test's ``offline``, retained, comes first)."""
    said = [decode("camera/status", p) for p in box.payloads(topic("t1", "camera/status"))]
    return said[next((i for i, s in enumerate(said) if s["status"] == "online"), len(said)):]


def _last(box) -> str | None:
    said = _said(box)
    return said[-1]["status"] if said else None


@contextlib.contextmanager
def _watching(source: str, broker, out: dict):
    """``vision watch`` of ``source`` (5 frames a second): its stdout lines as they come; stopped as systemd stops it
    (SIGTERM), its exit status, stdout and stderr then in ``out``."""
    watching = subprocess.Popen([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                                 source, "--broker", broker.url("camera-t1"), "--fps", "5"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(watching.stdout), daemon=True)
    reader.start()
    try:
        yield lines, watching
    finally:
        watching.send_signal(signal.SIGTERM)
        try:
            out["rc"], out["err"] = watching.wait(timeout=60), watching.stderr.read()
        finally:
            watching.kill()
        reader.join(timeout=10)
        out["lines"] = lines


def _subscribed(connect, inbox):
    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "camera/status"), box)
    assert console.wait_subscribed(30)
    return box


def test_a_frozen_camera_is_lost_within_bounds_and_online_again_once_its_picture_moves(broker, connect, inbox, until):
    """A camera or encoder stuck sends the very same frame over and over: the watch said ``online`` for ever, a
    table watched by nothing. A still table's frames differ by the sensor's noise and stay ``online``; frames bit for
    bit alike for ``FROZEN_AFTER_S`` are said (one line) and ``lost`` (``frames``, since the last frame that
    differed); once the picture moves again, ``online``."""
    box = _subscribed(connect, inbox)
    camera, out = Stream(frame([]).image), {}
    try:
        with _watching(camera.url, broker, out) as (lines, _):
            assert box.wait_for(lambda t, p: _last(box) == "online", timeout=120)
            time.sleep(FROZEN_AFTER_S + 2)  # a still table: its frames differ only by noise
            assert [s["status"] for s in _said(box)][-1:] == ["online"] and len(_said(box)) == 1, _said(box)
            frozen_at, frozen_wall = time.monotonic(), time.time()
            camera.frozen = True
            assert box.wait_for(lambda t, p: _last(box) == "lost", timeout=FROZEN_AFTER_S + 10)
            took = time.monotonic() - frozen_at
            assert until(lambda: any("一模一样" in line for line in lines), timeout=5), lines
            moved_at = time.time()
            camera.frozen = False
            assert box.wait_for(lambda t, p: _last(box) == "online", timeout=20)
    finally:
        camera.stop()
    online, lost, again = _said(box)[:3]
    assert FROZEN_AFTER_S < took < FROZEN_AFTER_S + 1 / camera.fps + 2 * TELL_EVERY_S + 2, took
    assert (lost["reason"], again["status"]) == ("frames", "online") and again["at"] > moved_at
    assert frozen_wall - 1 < lost["since"] < frozen_wall + 1, lost  # the last frame that differed
    said = "".join(out["lines"])
    assert said.count("一模一样") == 1 and said.index("一模一样") < said.index("画面又动了"), said
    assert out["rc"] == 0 and "Traceback" not in out["err"], out["err"]


def _writer(path: str, jpegs: list[bytes], stall: threading.Event, go_on: threading.Event, stop: threading.Event):
    """Another program writing a camera's MJPEG into the named pipe ``path`` (10 frames a second): once ``stall`` is
    set it writes half a frame and stops, holding the pipe open, while ``go_on`` is not set; a reader gone meanwhile
    (a broken pipe) is waited for again, as the program's unit starts it again."""
    n, half = 0, False
    while not stop.is_set():
        try:
            with open(path, "wb") as pipe:  # blocks until the watch opens it
                while not stop.is_set():
                    if stall.is_set() and not go_on.is_set():
                        if not half:
                            pipe.write(jpegs[0][: len(jpegs[0]) // 2])
                            pipe.flush()
                            half = True
                        time.sleep(0.1)
                        continue
                    pipe.write(jpegs[n % len(jpegs)])
                    pipe.flush()
                    n, half = n + 1, False
                    time.sleep(0.1)
        except BrokenPipeError:
            continue


def test_a_named_pipe_whose_writer_stops_mid_frame_is_lost_and_watched_again_when_it_writes(
        broker, connect, inbox, tmp_path):
    """A camera's video written into a named pipe by another program (``ffmpeg``, ``libcamera-vid``) was refused as
    no video file. Now it is a live source; its writer stopping mid-frame without closing the pipe blocked FFmpeg's
    read in the system for ever (FFmpeg reads a file with no bound of its own): the watch never tried it again and a
    SIGTERM waited with it (systemd's SIGKILL then, 90 s on). Now ``lost`` (``frames``) within the bound, the pipe
    opened again, never ``online`` meanwhile (not even for the frame FFmpeg held since), ``online`` again once the
    writer writes, and a SIGTERM as it sticks again ends the watch within the read's bound, ``offline`` by its own
    message."""
    path = str(tmp_path / "camera.mjpg")
    os.mkfifo(path)
    stall, go_on, stop = threading.Event(), threading.Event(), threading.Event()
    threading.Thread(target=_writer, args=(path, noisy(frame([]).image), stall, go_on, stop), daemon=True).start()
    box, out = _subscribed(connect, inbox), {}
    try:
        with _watching(path, broker, out) as (lines, _):
            assert box.wait_for(lambda t, p: _last(box) == "online", timeout=120), (lines, _said(box))
            stalled = time.monotonic()
            stall.set()
            assert box.wait_for(lambda t, p: _last(box) == "lost", timeout=LOST_AFTER_S + 5)
            took = time.monotonic() - stalled
            time.sleep(2 * STALL_S + 2)  # the held frame read, the read given up, the pipe opened again
            assert [s["status"] for s in _said(box)] == ["online", "lost"], _said(box)
            go_on.set()
            assert box.wait_for(lambda t, p: _last(box) == "online", timeout=2 * OPEN_S + 15), (lines, _said(box))
            go_on.clear()  # stuck again, and the watch stopped a moment later (systemd's SIGTERM), mid-read
            time.sleep(1)
            stopping = time.monotonic()
        stopped = time.monotonic() - stopping
    finally:
        stop.set()
        go_on.set()
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))  # a writer waiting for a reader sees it is stopped
    assert took < LOST_AFTER_S + 2 * TELL_EVERY_S + 2, took
    assert stopped < STALL_S + 5 and out["rc"] == 0 and "Traceback" not in out["err"], (stopped, out["err"])
    said = _said(box)
    assert [s["status"] for s in said][:3] == ["online", "lost", "online"] and said[-1]["status"] == "offline", said
    assert said[1]["reason"] == "frames" and "at" in said[-1]
    assert "断了" in "".join(out["lines"]), out["lines"]


def test_a_stream_that_sends_a_megabyte_long_header_line_is_lost_and_none_of_it_is_logged(broker, connect, inbox):
    """A broken or hostile camera sends, in place of a frame, one header line a megabyte long: the watch says ``lost``
    within the bound, and nothing it or OpenCV writes (stdout, stderr: the journal) carries the line: none of its
    lines is longer than ``LONGEST_LINE``."""
    box = _subscribed(connect, inbox)
    camera, out = Stream(frame([]).image), {}
    try:
        with _watching(camera.url, broker, out):
            assert box.wait_for(lambda t, p: _last(box) == "online", timeout=120)
            junked = time.monotonic()
            camera.junk = b"--frame\r\nContent-Type: image/jpeg\r\nX-Junk: " + b"A" * 1_000_000 + b"\r\n\r\n"
            assert box.wait_for(lambda t, p: _last(box) == "lost", timeout=LOST_AFTER_S + 10)
            took = time.monotonic() - junked
            time.sleep(OPEN_S + STALL_S)  # opened again: the junk sent again, the stream given up again
    finally:
        camera.stop()
    assert took < LOST_AFTER_S + 1 / camera.fps + 2 * TELL_EVERY_S + 2, took
    longest = max(map(len, out["lines"] + out["err"].splitlines()))
    assert longest < LONGEST_LINE and "AAAAAAAAAA" not in out["err"] + "".join(out["lines"]), longest
    assert out["rc"] == 0 and "Traceback" not in out["err"], out["err"][:LONGEST_LINE]
