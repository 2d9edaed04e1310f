"""A camera that stops working must not look watched: the real ``cardtable vision watch`` of an MJPEG camera over
HTTP, a real mosquitto. Its loop blocked for ever on a log nobody reads (its output a pipe that stopped being read:
the journal stuck, a terminal paused with Ctrl-S), and the watch stopped whole (SIGSTOP) and let go on (SIGCONT)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from journal import Journal
from mjpeg import Stream
from test_watch import covered
from vision_frames import frame, play

from bus.protocol import decode, topic
from cardtable.watchdog import KEEPALIVE_S
from vision.watch import HUNG_S

TABLES = ["t1"]
SOUTH = play("S", ["HQ", "HQ"], "row", 31)
EAST = play("E", ["H3", "H4"], "row", 32)


def _subscribed(connect, inbox):
    box = inbox()
    console = connect("console")
    console.subscribe(topic("t1", "camera/status"), box)
    console.subscribe(topic("t1", "observed"), box)
    assert console.wait_subscribed(30)
    return box


def _statuses(box) -> list[str]:
    return [decode("camera/status", p)["status"] for p in box.payloads(topic("t1", "camera/status"))]


def _plays(box) -> list[tuple[str, list[str]]]:
    return [(o["seat"], o["cards"]) for o in map(lambda p: decode("observed", p), box.payloads(topic("t1", "observed")))]


def _watch(camera: Stream, broker, out: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source",
                             camera.url, "--broker", broker.url("camera-t1"), "--fps", "5"], stdout=out, stderr=out)


def test_a_watch_whose_loop_hangs_is_offline_within_its_bound(broker, connect, inbox):
    """The watch's output stopped being read. The camera saw the table again (a cloth taken off two markers): the
    thread that says ``camera/status`` said ``online`` and blocked on the line saying so; a play was made: the loop
    published it and blocked on its line. paho's thread kept the connection alive: ``camera/status`` said ``online``
    for ever while no play was seen (the next play never came) and the table's clocks ran on. Now the watch's
    watchdog ends it once its loop has not turned for ``HUNG_S`` (status 1, no goodbye): the broker says ``offline``,
    its will, and the machine's unit starts it again."""
    box = _subscribed(connect, inbox)
    camera, journal = Stream(frame([]).image), Journal()
    watching = _watch(camera, broker, journal.write_end)
    try:
        assert box.wait_for(lambda t, p: _statuses(box)[-1:] == ["online"], timeout=120), journal.text
        camera.show(covered(covered(frame([]).image, 0), 2))  # two markers under a cloth: lost, said in its log
        assert box.wait_for(lambda t, p: _statuses(box)[-1:] == ["lost"], timeout=30), journal.text
        journal.stuck()
        camera.show(frame([]).image)  # the cloth taken off: online, and the line saying so blocks
        assert box.wait_for(lambda t, p: _statuses(box)[-1:] == ["online"], timeout=30)
        camera.show(frame(SOUTH).image)  # a play: published, and the line saying so blocks the loop
        assert box.wait_for(lambda t, p: _plays(box) == [("S", ["HQ", "HQ"])], timeout=30)
        hung, said = time.monotonic(), len(_statuses(box))
        camera.show(frame(SOUTH + EAST).image)  # the next play, seen by nothing
        try:
            watching.wait(timeout=HUNG_S + 10)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the hung watch still runs, camera/status {_statuses(box)}") from None
        assert watching.returncode == 1
        assert box.wait_for(lambda t, p: _statuses(box)[-1:] == ["offline"], timeout=5), _statuses(box)
        took = time.monotonic() - hung
    finally:
        if watching.poll() is None:
            watching.kill()
        watching.wait()
        camera.stop()
        journal.close()
    assert _statuses(box)[said:] == ["offline"] and _plays(box) == [("S", ["HQ", "HQ"])], (_statuses(box), _plays(box))
    assert HUNG_S - 1 < took < HUNG_S + 10, took
    print(f"offline {took:.1f} s after the loop hung")


def test_a_watch_stopped_whole_is_offline_within_its_keepalive_and_watches_again_when_it_goes_on(broker, connect,
                                                                                                 inbox):
    """A watch stopped whole (SIGSTOP; a frozen machine) was ``online`` for 45 s (1.5 times paho's 30 s keepalive)
    while no play was seen. Its keepalive is ``KEEPALIVE_S`` now: the broker says it ``offline``, its will, 1.5 times
    that after it last heard it (mosquitto checks coarsely). Let go on (SIGCONT), it connects again, says ``online``
    and reads the next play: its watchdog does not take a stop of the whole process for its loop's hang."""
    box = _subscribed(connect, inbox)
    camera, journal = Stream(frame([]).image), Journal()  # read all along
    watching = _watch(camera, broker, journal.write_end)
    try:
        assert box.wait_for(lambda t, p: _statuses(box)[-1:] == ["online"], timeout=120), journal.text
        os.kill(watching.pid, signal.SIGSTOP)
        stopped = time.monotonic()
        try:
            assert box.wait_for(lambda t, p: _statuses(box)[-1:] == ["offline"], timeout=1.5 * KEEPALIVE_S + 8)
            print(f"offline {time.monotonic() - stopped:.1f} s after SIGSTOP")
        finally:
            os.kill(watching.pid, signal.SIGCONT)
        assert box.wait_for(lambda t, p: _statuses(box)[-1:] == ["online"], timeout=30), journal.text
        camera.show(frame(SOUTH).image)
        assert box.wait_for(lambda t, p: _plays(box) == [("S", ["HQ", "HQ"])], timeout=30), journal.text
        assert watching.poll() is None and _statuses(box)[-1:] == ["online"], journal.text
    finally:
        watching.send_signal(signal.SIGTERM)
        try:
            watching.wait(timeout=60)
        finally:
            watching.kill()
            camera.stop()
            journal.close()
    assert watching.returncode == 0 and b"Traceback" not in journal.text, journal.text
