"""Calibration from the four markers on every frame, under tilt and rotation; a clear error without them."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from vision_frames import frame, play
from vision.calibrate import NotCalibrated, calibrate, find_markers, unmoved
from vision.geometry import seat_of
from vision.train.synth.render import Camera

POINTS = np.array([[0.5, 0.5], [0.1, 0.9], [0.9, 0.15], [0.02, 0.02], [0.98, 0.6]])


@pytest.mark.parametrize("tilt,tilt_dir,roll", [(0, 0, 0), (12, 45, 90), (25, 0, 200), (25, 135, 33), (20, 270, 315)])
def test_table_coordinates_under_tilt(tilt, tilt_dir, roll):
    f = frame(play("S", ["SA"]), camera=Camera(tilt=tilt, tilt_dir=tilt_dir, roll=roll, fill=0.85, seed=2))
    cal = calibrate(f.image)
    image_pts = cv2.perspectiveTransform(POINTS[None], f.homography)[0]
    assert np.abs(cal.to_table(image_pts) - POINTS).max() < 0.003  # about 2 mm on the table
    assert sorted(cal.markers) == [0, 1, 2, 3]


def test_seat_by_triangle():
    assert [seat_of(p) for p in [(0.5, 0.55), (0.55, 0.5), (0.5, 0.45), (0.45, 0.5)]] == ["S", "E", "N", "W"]


def test_a_frame_without_markers_is_not_calibrated():
    image = np.full((960, 1280, 3), (40, 110, 40), np.uint8)
    with pytest.raises(NotCalibrated) as e:
        calibrate(image)
    assert "id 0, 1, 2, 3 missing" in e.value.text("en") and "DICT_4X4_50" in e.value.text("en")
    assert "缺 0、1、2、3 号" in str(e.value) and "找到：无" in str(e.value)


def test_a_covered_marker_is_named():
    f = frame(play("S", ["SA"]))
    image = f.image.copy()
    x, y = cv2.perspectiveTransform(np.array([[[1.0, 1.0]]]), f.homography)[0, 0]
    cv2.circle(image, (int(x), int(y)), 60, (90, 130, 180), -1)  # a hand over marker 2
    with pytest.raises(NotCalibrated) as e:
        calibrate(image)
    assert "id 2 missing" in e.value.text("en") and "found 0, 1, 3)" in e.value.text("en")
    assert "缺 2 号" in str(e.value) and "找到：0、1、3" in str(e.value)


def test_a_covered_marker_is_told_from_a_camera_moved():
    """An arm over one marker: the table is where the last calibration has it (``vision watch`` then says its camera
    sees the table). The camera moved a little (12 px, a bump) with the same marker covered: it is not."""
    f = frame(play("S", ["SA"]))
    cal = calibrate(f.image)
    covered = f.image.copy()
    x, y = cv2.perspectiveTransform(np.array([[[1.0, 1.0]]]), f.homography)[0, 0]
    cv2.circle(covered, (int(x), int(y)), 60, (90, 130, 180), -1)
    found = find_markers(covered)
    assert sorted(found) == [0, 1, 3] and unmoved(cal, found)
    bumped = cv2.warpAffine(covered, np.float32([[1, 0, 12], [0, 1, 0]]), (covered.shape[1], covered.shape[0]))
    moved = find_markers(bumped)
    assert sorted(moved) == [0, 1, 3] and not unmoved(cal, moved)
    two = covered.copy()
    x, y = cv2.perspectiveTransform(np.array([[[0.0, 0.0]]]), f.homography)[0, 0]
    cv2.circle(two, (int(x), int(y)), 60, (90, 130, 180), -1)
    assert not unmoved(cal, find_markers(two))  # two covered: not judged unmoved


def test_calibrate_writes_the_picture(tmp_path):
    import subprocess
    import sys

    f = frame(play("W", ["C3", "C4"]))
    src, out = tmp_path / "frame.png", tmp_path / "zones.png"
    cv2.imwrite(str(src), f.image)
    done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "calibrate", "--source", str(src),
                           "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "：标记 [0, 1, 2, 3]，各座位的牌数 " in done.stdout
    detail = re.search(r"画面 1280x960：桌面中心每个标准像素对应 ([0-9.]+) 个摄像机像素", done.stdout)
    assert detail and 0.8 <= float(detail[1]) <= 1.2 and "2560x1920 的摄像机约为 2" in done.stdout
    picture = cv2.imread(str(out))
    assert picture.shape == f.image.shape and not np.array_equal(picture, f.image)
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 90, np.uint8))
    done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "calibrate", "--source", str(blank),
                           "--out", str(tmp_path / "none.png")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "cardtable vision calibrate：错误：未标定：" in done.stderr and not (tmp_path / "none.png").exists()


def test_calibrate_says_how_finely_the_camera_sees(tmp_path):
    import subprocess
    import sys
    from dataclasses import replace

    from vision_frames import CAMERA

    def calibrated(camera):
        """`vision calibrate` on a frame of one card taken by ``camera``: the run and the detail it printed."""
        src = tmp_path / "frame.png"
        cv2.imwrite(str(src), frame(play("W", ["C3"]), camera=camera).image)
        done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "calibrate", "--source", str(src),
                               "--out", str(tmp_path / "zones.png"), "--lang", "en"], capture_output=True, text=True,
                              timeout=120)
        w, h = camera.size
        return done, re.search(rf"frame {w}x{h}: ([0-9.]+) camera px per canonical px", done.stdout)

    done, detail = calibrated(replace(CAMERA, size=(2560, 1920)))
    assert done.returncode == 0, done.stderr
    assert detail and 1.6 <= float(detail[1]) <= 2.4 and "far worse" not in done.stdout
    assert "even a deck enrolled" not in done.stdout and "seldom vouch" not in done.stdout
    # a 1920 x 1080 camera whose frame the table fills only in part
    done, detail = calibrated(replace(CAMERA, size=(1920, 1080), fill=0.7))
    assert done.returncode == 0 and detail and float(detail[1]) < 1.05, done.stdout + done.stderr
    assert "far worse" in done.stdout and "under 1.05 even a deck enrolled at this camera is read worse" in done.stdout
    assert "seldom vouch" not in done.stdout  # the worse of the two is said
    # the same camera filled by the table: fine enough for an enrolled deck to read well, too coarse for its sure
    # reads to be vouched for as a rule
    done, detail = calibrated(replace(CAMERA, size=(1920, 1080), fill=0.97))
    assert done.returncode == 0 and detail and 1.05 <= float(detail[1]) < 1.6, done.stdout + done.stderr
    assert "under 1.6 an enrolled deck is read well, but fresh tables seldom vouch for its sure reads" in done.stdout
    assert "even a deck enrolled" not in done.stdout
    done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "watch", "--table", "t1", "--source", "0",
                           "--broker", "mqtt://x:y@127.0.0.1:1", "--size", "2560by1920"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "不是画面尺寸 `WxH`（宽、高都至少 32）：'2560by1920'" in done.stderr


def test_calibrate_says_when_no_read_can_ever_be_sure(tmp_path):
    """Out of the box the shipped calibration marks nothing sure, and a deck's that fresh tables did not vouch for
    marks nothing sure either: a venue setting up its camera is told that every play will go to a person, and what
    to do; under a calibration that marks reads sure (the hall's) it is not."""
    import subprocess
    import sys
    from dataclasses import replace

    from vision import confidence
    from vision.model import DEFAULT_INDEX, DEFAULT_MODEL
    from vision_frames import CAMERA

    src = tmp_path / "frame.png"
    cv2.imwrite(str(src), frame(play("W", ["C3"]), camera=replace(CAMERA, size=(2560, 1920))).image)
    unvouched = tmp_path / "deck.sure.json"
    unvouched.write_text(confidence.Calibration({"2": None, "1": None}, confidence.ENROLLED_TARGET, "test; NOT vouched")
                         .to_json(DEFAULT_INDEX))

    def said(*more):
        done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "calibrate", "--source", str(src),
                               "--out", str(tmp_path / "zones.png"), *more], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    shipped = said("--lang", "en")
    assert "no read is marked sure: out of the box" in shipped and "enrol the venue's deck" in shipped
    assert "没有读数会被确认：开箱即用时" in said()
    deck = said("--sure", str(unvouched), "--lang", "en")
    assert "this deck's confidence calibration marks nothing sure" in deck and "out of the box" not in deck
    hall = said("--sure", str(DEFAULT_MODEL.with_name("hall.sure.json")), "--lang", "en")
    assert "no read is marked sure" not in hall
