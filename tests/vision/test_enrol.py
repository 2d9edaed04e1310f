"""Enrolling a deck from photos of it laid out on the table: every face is found, named by its place in the printed
order and cut out flat; a frame without the whole deck is refused, saying what each photo held; the command trains
a model folder of the venue's own, fits its classifier's confidence on reads of the deck, and ends with the laid-out
deck read back, every card named on a picture."""

import json
import random
import subprocess
import sys
from functools import cache

import cv2
import numpy as np
import pytest

from vision import confidence
from vision.calibrate import calibrate
from vision.geometry import INDEX_CENTRES
from vision.model import DEFAULT_INDEX, Model
from vision.train.deck import DeckError, art_width, face_art, index_layout
from vision.train.enrol import COLUMNS, ORDER, laid_out, order_text
from vision.train.synth.render import Camera, art, render_frame
from vision.train.synth.scene import PlacedCard, Scene

CLI = [sys.executable, "-m", "cardtable", "vision", "deck"]
CAMERA = Camera(tilt=12, tilt_dir=30, roll=3, size=(2560, 1920), blur=0.6, noise=3, jpeg=90, seed=3)


def laid(cards, style: str = "sans", first_row: int = 0):
    """``cards`` laid out as the order says (rows of COLUMNS, north to south, west to east), a little askew."""
    rng = random.Random(1)
    out = []
    for i, card in enumerate(cards):
        row, col = divmod(i, COLUMNS)
        out.append(PlacedCard(card, style, 0.1 + col * 0.1 + rng.uniform(-0.003, 0.003), 0.1 + (first_row + row) * 0.135,
                              rng.uniform(-2, 2)))
    return out


def likeness(a: np.ndarray, b: np.ndarray) -> float:
    """The correlation of two images' grey levels."""
    a, b = (cv2.cvtColor(np.ascontiguousarray(x[:, :, :3]), cv2.COLOR_BGR2GRAY).astype(float).ravel() for x in (a, b))
    return float(np.corrcoef(a, b)[0, 1])


@cache
def photo(cards: tuple[str, ...], style: str = "sans"):
    return render_frame(Scene(tuple(laid(cards, style)), (), (40, 110, 40), seed=5), CAMERA)


def test_every_laid_card_is_found_named_and_cut_out_flat():
    frame = photo(ORDER)
    found = laid_out([frame.image])
    assert [c.card for c in found] == list(ORDER)
    truth = {c.name: c for c in frame.truth}
    for c in found:  # each where that card lies
        x, y = cv2.perspectiveTransform(np.array([[c.centre]]), np.linalg.inv(frame.homography))[0, 0]
        assert np.hypot(x - truth[c.card].centre[0], y - truth[c.card].centre[1]) < 0.01, c
    width = art_width([c.face for c in found])
    faces = {c.card: face_art(c.face, width) for c in found}
    assert width == 160 and all(f.shape == (224, 160, 4) for f in faces.values())
    corner = (slice(8, 64), slice(4, 40))  # the top-left index: each face's is most like its own card's art
    best = [max(ORDER, key=lambda k: likeness(face[corner], art("sans", k)[corner])) for face in faces.values()]
    assert sum(b == card for b, card in zip(best, faces)) >= 50
    lay = index_layout(faces)  # the index is found where this deck has it
    assert abs(lay.index[0] - INDEX_CENTRES[0][0]) < 0.04 and abs(lay.index[1] - INDEX_CENTRES[0][1]) < 0.06
    assert not lay.beside


def test_the_deck_may_be_spread_over_several_photos():
    first, rest = ORDER[:27], ORDER[27:]
    frames = [render_frame(Scene(tuple(laid(part)), (), (40, 110, 40), seed=5), CAMERA).image for part in (first, rest)]
    found = laid_out(frames)
    assert [c.card for c in found] == list(ORDER) and [c.frame for c in found] == [0] * 27 + [1] * 27


def test_a_photo_short_of_the_deck_is_refused_saying_what_it_held():
    with pytest.raises(DeckError) as e:
        laid_out([photo(ORDER[:53]).image])
    assert "found 53 cards (photo 1: 53), not 54" in e.value.text("en") and "找到 53 张牌（第 1 张照片 53 张），不是 54 张" in str(e.value)
    with pytest.raises(DeckError) as e:
        laid_out([photo(ORDER[:53]).image] * 5)
    assert "give 1 to 4" in e.value.text("en") and "应为 1 到 4 张" in str(e.value)
    assert "S2 S3 S4" in order_text("zh") and "BJ LJ" in order_text("en")


def test_enrolment_from_a_laid_out_deck_ends_with_the_deck_read_back(tmp_path):
    pytest.importorskip("torch")
    shot = tmp_path / "table.jpg"
    cv2.imwrite(str(shot), photo(ORDER).image)
    out = tmp_path / "venue"
    done = subprocess.run([*CLI, "--layout", str(shot), "--out", str(out), "--steps", "2", "--workers", "0",
                           "--sure-frames", "2", "--sure-workers", "0", "--lang", "en"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "training 100%" not in done.stdout or "minutes left" in done.stdout
    assert "check: the enrolled model reads" in done.stdout and f"--model {out / 'cards.onnx'}" in done.stdout
    assert "'camera'" not in done.stdout  # a 2560 x 1920 venue camera trains on both cameras' patches, as shipped
    told = next(line for line in done.stdout.splitlines() if line.startswith("the laid-out photos: "))
    assert float(told.split(": ")[1].split()[0]) >= 1.05 and "nearer" not in told  # fine enough: no advice
    right = int(done.stdout.split("model reads ")[1].split(" of")[0])
    assert right >= 50  # a trained style, two steps from the shipped classifier: nearly every card read back
    picture = cv2.imread(str(out / "check-1.png"))
    assert picture.shape == (1920, 2560, 3) and (out / "deck" / "layout.json").is_file()
    assert not np.array_equal(picture, photo(ORDER).image)  # the names are drawn on it
    # the enrolled classifier's confidence, fitted on reads of the deck: two tables and the laid-out photo are far
    # too few reads to vouch for 0.05%, so nothing is sure (the names drawn orange) until a longer fit
    sure = json.loads((out / "index.sure.json").read_text())
    assert sure["classifier_sha256"] == confidence.digest(out / "index.onnx") and sure["target"] == 0.0005
    assert sure["sure_at"] == {"2": None, "1": None} and "at 2560x1920" in sure["fitted_on"]
    assert "from the laid-out photos" in sure["fitted_on"] and "none can be marked sure" in done.stdout
    # its own reads cannot vouch for it: it says so, and the command it prints has fresh tables vouch for it as it is
    # or leave nothing sure (two fit tables here: too few to mark any read sure, so nothing to vouch for: exit 1)
    told = next(line for line in done.stdout.splitlines() if line.startswith("its confidence was chosen on the"))
    command = told.split("`")[1].split()
    assert command[:3] == ["cardtable", "vision", "sure"] and command[command.index("--camera") + 1] == "2560x1920"
    assert command[-1] == "--only-check" and command[command.index("--deck") + 1] == str(out / "deck")
    vouch = subprocess.run([sys.executable, "-m", *command, "--check", "2", "--workers", "0", "--lang", "en"],
                           capture_output=True, text=True, timeout=600)
    assert vouch.returncode == 1 and "not checked: the fit marks nothing sure" in vouch.stdout, vouch.stderr
    assert json.loads((out / "index.sure.json").read_text())["sure_at"] == {"2": None, "1": None}
    # its tables photographed at the laid-out photo's detail (or as near as a frame of its size allows): the
    # calibration holds at the venue's own camera
    taken = calibrate(photo(ORDER).image).detail
    assert Model(out / "cards.onnx").calibration.holds_at(taken) and sure["detail"] > 0.75 * taken
    model = Model(out / "cards.onnx")
    assert model.calibration.sure_at == sure["sure_at"]
    # the classifier it started from is kept with its calibration: it names the cards unlike the deck's
    assert (out / "base" / "index.onnx").read_bytes() == DEFAULT_INDEX.read_bytes()
    assert (out / "base" / "index.sure.json").read_text() == confidence.path_for(DEFAULT_INDEX).read_text()
    assert model.base.index_path == out / "base" / "index.onnx" and model.base.calibration.deck is None
    orange = np.all(picture == (0, 165, 255), axis=2).sum()
    green = np.all(picture == (0, 200, 0), axis=2).sum()
    assert orange > 1000 and green == 0


def test_an_enrolment_from_1920_x_1080_photos_trains_at_that_camera(tmp_path):
    """The laid-out photos' size is the venue camera's; one between 1280 x 960 and 2560 x 1920 is what the training's
    patches are all seen as (``vision.train.index.own_camera``), and the run says so."""
    pytest.importorskip("torch")
    shots = []
    for i, part in enumerate((ORDER[:27], ORDER[27:])):
        cam = Camera(tilt=8, tilt_dir=30, roll=2, fill=0.8, size=(1920, 1080), blur=0.5, noise=3, jpeg=90, seed=i)
        shots.append(tmp_path / f"table{i}.jpg")  # a camera a little too far: the table at 1.02 px per canonical px
        cv2.imwrite(str(shots[-1]), render_frame(Scene(tuple(laid(part)), (), (40, 110, 40), seed=i), cam).image)
    done = subprocess.run([*CLI, "--layout", *map(str, shots), "--out", str(tmp_path / "venue"), "--steps", "2",
                           "--workers", "0", "--sure-frames", "2", "--sure-workers", "0", "--lang", "en"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "'camera': [1920, 1080]" in done.stdout
    # photos that show the table this coarse: the venue is told to move its camera nearer before it plays
    told = next(line for line in done.stdout.splitlines() if line.startswith("the laid-out photos: "))
    assert float(told.split(": ")[1].split()[0]) < 1.05 and "move the camera nearer" in told
