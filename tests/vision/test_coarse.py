"""A deck's calibration holds at the camera it was fitted at, and no coarser (``Calibration.holds_at``): a read
marked sure must be wrong at most 0.05% of the time once the deck is enrolled, and the hall's calibration, fitted on
2560 x 1920 frames, let 0.12% of its sure reads be wrong on 1920 x 1080 frames of the same decks (5 of 4,035; a
spade read as a club). A frame that shows the table coarser than the frames a calibration was fitted on marks nothing
sure, its plays are flagged saying why, and the command line says so in words."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache

import cv2
import numpy as np
import pytest

from referee.catalogue import said
from referee.catalogue.sentences import Sentences
from vision import confidence
from vision.canon import canon_homography, detail
from vision.model import DEFAULT_INDEX, DEFAULT_MODEL, Model, ModelError
from vision.read import read_frame
from vision.sanity import SURE
from vision.tracker import Tracker, step
from vision.train import sure
from vision.train.synth.render import random_camera, render_frame

HALL = DEFAULT_MODEL.with_name("hall.sure.json")
HALL_DECKS = ["letele", "sans", "serif"]


@cache
def hall_model() -> Model:
    return Model(sure=HALL)


@cache
def shots():
    """One table of the hall's decks (one no fit or check draws), photographed at 2560 x 1920 and at 1920 x 1080."""
    rng = sure.drawn("coarse test", 1, 0)
    scene = sure.table(rng, HALL_DECKS)
    fine, coarse = (render_frame(scene, random_camera(rng, size)) for size in ((2560, 1920), (1920, 1080)))
    return fine, read_frame(fine.image, hall_model()), coarse, read_frame(coarse.image, hall_model())


def test_the_hall_calibration_records_the_least_detail_it_was_fitted_at():
    cal = hall_model().calibration
    assert cal.detail is not None and 1.2 < cal.detail < 1.4 and "2560x1920" in cal.fitted_on


def test_a_frame_as_fine_as_the_fit_keeps_its_sure_reads_and_a_coarser_one_marks_none_sure():
    fine, at_fine, coarse, at_coarse = shots()
    for shot, reading in ((fine, at_fine), (coarse, at_coarse)):  # the detail the markers give is the frame's own
        assert reading.detail == pytest.approx(detail(canon_homography(shot.homography)), rel=0.02)
        assert reading.calibration.detail == pytest.approx(reading.detail)  # the markers' own calibration says it
    assert not at_fine.coarse and sum(c.confidence >= SURE for c in at_fine.cards) >= 20
    assert at_coarse.coarse and at_coarse.detail < hall_model().calibration.detail * (1 - confidence.DETAIL_SLACK)
    assert len(at_coarse.cards) >= 20 and all(c.coarse and c.confidence < SURE for c in at_coarse.cards)
    truth = {c.name for c in coarse.truth}
    assert sum(c.name in truth for c in at_coarse.cards) >= 0.8 * len(at_coarse.cards)  # still read, only not sure
    assert not any(c.coarse for c in at_fine.cards)


def test_a_calibration_without_the_bound_holds_at_every_detail():
    _, _, _, at_coarse = shots()
    assert Model().calibration.detail is None  # out of the box: fitted on frames of every camera size
    unbound = confidence.Calibration(hall_model().calibration.sure_at, confidence.ENROLLED_TARGET, "test")
    assert unbound.holds_at(at_coarse.detail) and unbound.holds_at(0.1)


def test_a_play_read_in_a_coarse_frame_is_flagged_saying_why():
    _, _, _, at_coarse = shots()
    seat = max("SENW", key=lambda s: sum(c.seat == s for c in at_coarse.cards))
    cards = [c for c in at_coarse.cards if c.seat == seat]
    t = Tracker(settle_s=0.5)
    for at in (0.0, 0.6):
        t, plays = step(t, cards, {}, at)
    (play,) = plays
    (why,) = [r for r in play.reasons if r.key == "vision.coarse"]
    assert play.confidence < SURE
    assert Sentences("zh").reason(why) == "摄像机看桌面比校准置信度时粗：它读到的牌都没有把握"
    assert Sentences("en").reason(why).startswith("the camera sees the table coarser")
    fine = [c for c in shots()[1].cards if c.seat == seat]
    t = Tracker(settle_s=0.5)
    for at in (0.0, 0.6):
        t, plays = step(t, fine, {}, at)
    assert not any(r.key == "vision.coarse" for r in plays[0].reasons)


def test_the_command_line_reads_a_coarse_frame_and_says_why_nothing_is_sure(tmp_path):
    fine, _, coarse, _ = shots()
    for shot, name in ((fine, "fine.png"), (coarse, "coarse.png")):
        cv2.imwrite(str(tmp_path / name), shot.image)
    for lang, words in (("zh", "比置信度校准时的"), ("en", "coarser than the")):
        done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "read", str(tmp_path / "coarse.png"),
                               "--sure", str(HALL), "--lang", lang], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and words in done.stderr, done.stderr
        cards = json.loads(done.stdout)["cards"]
        assert cards and all(c["confidence"] < SURE for c in cards)
    done = subprocess.run([sys.executable, "-m", "cardtable", "vision", "read", str(tmp_path / "fine.png"),
                           "--sure", str(HALL)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr and any(c["confidence"] >= SURE
                                                             for c in json.loads(done.stdout)["cards"])


def test_a_damaged_bound_is_refused_in_words_and_a_file_of_before_has_none(tmp_path):
    data = json.loads(HALL.read_text())
    for bad in ("fine", -1.3, 0, None):
        path = tmp_path / "bad.sure.json"
        path.write_text(json.dumps(data | {"detail": bad}))
        if bad is None:  # written before the bound: no bound, read as before
            assert Model(sure=path).calibration.detail is None
            continue
        with pytest.raises(ModelError) as e:
            Model(sure=path)
        assert "置信度校准" in said(e.value, "zh") and "已损坏" in said(e.value, "zh") and str(bad) in said(e.value, "zh")


def test_reads_for_a_fit_carry_their_frame_detail():
    looked: list = []
    sure.reads(DEFAULT_MODEL, DEFAULT_INDEX, ["serif"], (1280, 960), seed=5, frames=2, workers=0, looks=looked)
    details = {d for *_, d in looked}
    assert len(details) == 2 and all(0.6 < d < 1.1 for d in details)  # a 1280 x 960 camera: about 1
    fake = np.zeros(144)
    cal = sure.calibration([(0.99, True, 2)] * 3, "test", looked=[("SA", True, 0, (fake,), None, False, 1.5),
                                                                   ("SA", True, 1, (fake,), None, False, 1.25)])
    assert cal.detail == 1.25 and cal.sure_at == {"2": None, "1": None}


def test_calibrating_a_camera_coarser_than_the_decks_calibration_says_so(tmp_path):
    """At set-up (``vision calibrate``) a venue learns its camera's detail, and that the deck's calibration does
    not hold there, with the detail to fit one at (``vision sure --detail``)."""
    fine, _, coarse, at_coarse = shots()
    for shot, name in ((fine, "fine.png"), (coarse, "coarse.png")):
        cv2.imwrite(str(tmp_path / name), shot.image)
    cli = [sys.executable, "-m", "cardtable", "vision", "calibrate", "--sure", str(HALL), "--lang", "en"]
    runs = {name: subprocess.run([*cli, "--source", str(tmp_path / name), "--out", str(tmp_path / f"out-{name}")],
                                 capture_output=True, text=True, timeout=120) for name in ("fine.png", "coarse.png")}
    assert all(done.returncode == 0 for done in runs.values()), runs
    said_coarse = runs["coarse.png"].stdout
    assert f"{at_coarse.detail:.2f} camera px per canonical px" in said_coarse and "coarser than the" in said_coarse
    assert f"--detail {at_coarse.detail:.2f}" in said_coarse and "coarser than the" not in runs["fine.png"].stdout
