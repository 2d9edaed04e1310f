"""`cardtable vision read`: the contract of shared/table-layout.md on rendered frames with known truth; clear
errors for an unreadable image and a frame without markers."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision_frames import CAMERA, frame, model, play, visible_per_seat
from vision.read import read_frame
from vision.train.synth.render import render_frame
from vision.train.synth.scene import Scene

TRICK = (play("S", ["SA", "SA", "HK"], "row", 1) + play("E", ["D7", "D8"], "row", 2)
         + play("N", ["BJ", "LJ", "C2"], "row", 3) + play("W", ["ST"], "row", 4))


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardtable", "vision", *args], capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="module")
def trick_png(tmp_path_factory):
    path = tmp_path_factory.mktemp("read") / "trick.png"
    cv2.imwrite(str(path), frame(TRICK).image)
    return path


def test_read_prints_the_contract(trick_png):
    done = cli("read", str(trick_png))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"calibrated", "cards", "seats"} and out["calibrated"] is True
    assert {k: sorted(v) for k, v in out["seats"].items()} == {
        "S": ["HK", "SA", "SA"], "E": ["D7", "D8"], "N": ["BJ", "C2", "LJ"], "W": ["ST"]}
    for card in out["cards"]:
        assert set(card) == {"card", "confidence", "center", "seat"}
        assert 0 <= card["confidence"] <= 1 and len(card["center"]) == 2
    truth = [(c.name, c.seat, c.centre) for c in frame(TRICK).truth]
    for card in out["cards"]:  # centres in table coordinates, near the true centre of a card of that name
        assert min(np.hypot(*np.subtract(card["center"], centre)) for name, seat, centre in truth
                   if name == card["card"] and seat == card["seat"]) < 0.015  # about a centimetre


@pytest.mark.parametrize("camera", [(1280, 960), (2560, 1920)])
@pytest.mark.parametrize("seed", range(4))
def test_random_tables_match_the_truth(seed, camera):
    import random

    from vision.train.synth.render import random_camera
    from vision.train.synth.scene import random_scene

    from vision_frames import STYLES
    from vision.train.synth.render import render_frame

    rng = random.Random(1000 + seed)
    # the 65 styles these seeds were first drawn from: the styles added later would otherwise redraw every frame (on
    # 2026-11-26 they turned seed 2 into a heavily blurred fan that the old and the new classifier both misread)
    first = [s for s in STYLES if s not in ("casino", "poker-cards", "fratino")][:65]
    f = render_frame(random_scene(rng, first, hand_chance=0.0, max_cards=6), random_camera(rng, camera))
    reading = read_frame(f.image, model())
    want = visible_per_seat(f)
    got = {s: Counter(v) for s, v in reading.seats().items()}
    missed = sum((want[s] - got[s]).total() for s in want)
    extra = sum((got[s] - want[s]).total() for s in want)
    total = sum(c.total() for c in want.values())
    assert missed + extra <= max(2, total // 5), (want, got)  # styles trained on: mostly right


def test_a_finer_camera_reads_the_trick_in_table_coordinates():
    """A 2560 x 1920 camera: the index cut from the frame at its own resolution, the rest as for 1280 x 960."""
    f = frame(TRICK, camera=replace(CAMERA, size=(2560, 1920)))
    reading = read_frame(f.image, model())
    assert {k: sorted(v) for k, v in reading.seats().items()} == {
        "S": ["HK", "SA", "SA"], "E": ["D7", "D8"], "N": ["BJ", "C2", "LJ"], "W": ["ST"]}
    truth = [(c.name, c.centre) for c in f.truth]
    for card in reading.cards:
        assert min(np.hypot(*np.subtract(card.centre, centre)) for name, centre in truth if name == card.name) < 0.015


def test_unreadable_image_is_a_clear_error(tmp_path):
    bad = tmp_path / "photo.jpg"
    bad.write_bytes(b"not a jpeg at all")
    done = cli("read", str(bad))
    assert done.returncode == 2 and done.stdout == ""
    assert f"无法把 {bad} 读成图片（不是 `PNG`、`JPEG` 等图片文件，或已损坏）" in done.stderr
    done = cli("read", str(tmp_path / "missing.png"), "--lang", "en")
    assert done.returncode == 2 and f"no such image: {tmp_path / 'missing.png'}" in done.stderr


def test_a_frame_without_markers_is_read_in_pixels(tmp_path):
    f = frame(play("S", ["SA", "HK"], "row", 1))
    image = f.image.copy()
    for p in [(0, 0), (1, 0), (1, 1), (0, 1)]:
        x, y = cv2.perspectiveTransform(np.array([[p]], float), f.homography)[0, 0]
        cv2.circle(image, (int(x), int(y)), 70, (40, 110, 40), -1)  # felt over every marker
    path = tmp_path / "nomarkers.png"
    cv2.imwrite(str(path), image)
    done = cli("read", str(path))
    assert done.returncode == 2
    assert "未标定，牌的中心是像素坐标：" in done.stderr and "找不到桌角标记：缺 0、1、2、3 号" in done.stderr
    out = json.loads(done.stdout)
    assert out["calibrated"] is False
    assert all(c["seat"] is None for c in out["cards"])
    assert all(c["center"][0] > 1 for c in out["cards"])  # pixels, not table coordinates


def test_a_play_in_a_shadow_on_red_felt_is_read():
    """A shadow over one seat's play on red felt: its cards are darker in every channel than the felt is in red, but
    still far brighter in their darkest channel, and still found."""
    cards = play("S", ["SA", "H7", "D9", "C3", "HQ"], "row", 6)
    f = render_frame(Scene(tuple(cards), (), (40, 40, 120), seed=11), CAMERA)
    centres = cv2.perspectiveTransform(np.array([[c.centre for c in f.truth]], np.float64), f.homography)[0]
    shade = np.zeros(f.image.shape[:2], np.float32)
    for x, y in centres:
        cv2.circle(shade, (int(x), int(y)), 120, 1.0, -1)
    image = f.image * (1 - 0.45 * cv2.GaussianBlur(shade, (0, 0), 15))[..., None]
    reading = read_frame(image.astype(np.uint8), model())
    assert Counter(reading.seats()["S"]) == visible_per_seat(f)["S"] == Counter(["SA", "H7", "D9", "C3", "HQ"])


def test_a_card_lies_where_its_index_and_the_cells_around_it_point(monkeypatch):
    """The centre of a card seen by one corner comes from the offsets of the heat peak's cell and its neighbours
    (``detect.pointed``): nearer the true centre than the peak cell's offset alone, on held-out frames. Measured over
    every card read (those seen by both corners, placed at their indices' midpoint, are the same either way)."""
    import random

    from vision import detect
    from vision.train.synth.render import random_camera
    from vision.train.synth.scene import HELD_OUT_STYLE, random_scene

    rng = random.Random(77)
    frames = [render_frame(random_scene(rng, [HELD_OUT_STYLE], hand_chance=0.0), random_camera(rng, (2560, 1920)))
              for _ in range(10)]
    mean_error = {}
    for cells in (0, 1):
        monkeypatch.setattr(detect, "CENTRE_CELLS", cells)
        errors = []
        for f in frames:
            for card in read_frame(f.image, model()).cards:
                near = [np.hypot(*np.subtract(card.centre, t.centre)) for t in f.truth if t.name == card.name]
                if near and min(near) < 0.02:  # the card it is (a misread one aside)
                    errors.append(min(near))
        mean_error[cells] = float(np.mean(errors))
    assert len(errors) > 100
    assert mean_error[1] < 0.9 * mean_error[0], mean_error  # 10 frames: 0.00179 against 0.00213 (about 1.4 mm against 1.7)
