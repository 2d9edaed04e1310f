"""The held-out deck families (bench/heldout) are kept apart from training by construction: their code imports
nothing of ``vision`` (so nothing of the training renderer, its geometry or its art), their font files and families
are none that the training code names, and the test and calibration families share no font. Then what they draw:
families differ in the geometry the issue lists, frames come with a truth that matches the contract's seats."""

from __future__ import annotations

import ast
import doctest
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HELDOUT = ROOT / "bench" / "heldout"
TRAINING = ROOT / "vision" / "synth"

fonts = pytest.importorskip("bench.heldout.fonts")
if any(not Path(p).is_file() for p in {**fonts.TEST_FONTS, **fonts.CALIBRATION_FONTS}.values()):
    pytest.skip("held-out fonts not installed (make setup installs them)", allow_module_level=True)


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
    return names


def test_heldout_code_imports_nothing_of_vision():
    modules = sorted(HELDOUT.glob("*.py"))
    assert len(modules) >= 4
    for m in modules:
        bad = {n for n in _imports(m) if n == "vision" or n.startswith("vision.")}
        assert not bad, f"{m.name} imports {bad}"
    code = ("import sys, bench.heldout.table, bench.heldout.decks, bench.heldout.suits, bench.heldout.fonts; "
            "bad = [m for m in sys.modules if m == 'vision' or m.startswith('vision.')]; assert not bad, bad")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def _training_strings() -> set[str]:
    """Every string the training renderer's code holds (font families and files among them)."""
    out = set()
    for path in TRAINING.rglob("*.py"):
        out |= {n.value for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Constant)
                and isinstance(n.value, str)}
    return out


def _families(path: str) -> set[str]:
    from fontTools.ttLib import TTFont

    names = TTFont(path, lazy=True)["name"]
    return {str(r).strip().lower() for r in names.names if r.nameID in (1, 16) and str(r).strip()}


def _fc(*args: str) -> list[str]:
    done = subprocess.run(["fc-list", *args], capture_output=True, text=True)
    return done.stdout.splitlines() if done.returncode == 0 else []


def test_heldout_fonts_are_not_trainings():
    """No family, file or Debian package of the held-out fonts is named by the training code."""
    used = {**fonts.TEST_FONTS, **fonts.CALIBRATION_FONTS}
    strings = _training_strings()
    lowered = " | ".join(strings).lower()
    for path in used.values():
        assert path not in strings and Path(path).name not in lowered
        for family in _families(path):
            assert family not in lowered, f"training names the held-out family {family!r}"
    # the Debian font packages training draws from are none of ours, nor are their files
    packages = {s for s in strings if re.fullmatch(r"fonts-[a-z0-9.+-]+", s)}
    assert not packages & set(fonts.PACKAGES), packages & set(fonts.PACKAGES)
    listed = subprocess.run(["dpkg", "-L", *sorted(packages)], capture_output=True, text=True).stdout if packages else ""
    assert not set(listed.splitlines()) & set(used.values())
    # every training font fontconfig can find: its files are none of ours (installed ones only; names checked above)
    training_files = {line.split(":")[0] for s in strings if re.fullmatch(r"[A-Za-z][A-Za-z0-9 -]{2,40}", s)
                      for line in _fc(s, "file")}
    assert not training_files & set(used.values())
    # and the test families' fonts are not the calibration families'
    assert not set(fonts.TEST_FONTS.values()) & set(fonts.CALIBRATION_FONTS.values())
    assert not {f for p in fonts.TEST_FONTS.values() for f in _families(p)} & \
        {f for p in fonts.CALIBRATION_FONTS.values() for f in _families(p)}


def test_families_span_the_geometry_asked_for():
    from bench.heldout.decks import FAMILIES, calibration_families, index_box

    fams = list(FAMILIES.values())
    assert len(fams) >= 6
    assert {f.size for f in fams} == {(63.0, 88.0), (57.0, 88.0)}
    assert {f.beside for f in fams} == {True, False} and {f.ten for f in fams} == {"10", "T"}
    ranks = [f.index_mm for f in fams]  # the rank's height: standard to jumbo
    assert min(ranks) <= 6 and max(ranks) >= 10 and all(5 <= h <= 11 for h in ranks)
    assert all(index_box(f, "ST")[3] - index_box(f, "ST")[1] >= f.index_mm for f in fams)
    insets = [f.inset[0] for f in fams]
    assert min(insets) <= 2.5 and max(insets) >= 6.5
    assert len({f.font for f in fams}) == len(fams) and len({(f.suits, f.suit_params) for f in fams}) == len(fams)
    assert not {f.font for f in fams} & {f.font for f in calibration_families(12).values()}


def test_frames_have_a_truth_by_the_contract():
    from bench.heldout.decks import FAMILIES
    from bench.heldout.table import frame, seat_of

    shot = frame(random.Random(4), FAMILIES["oldstandard-corner"], (1280, 960))
    assert shot.image.shape == (960, 1280, 3) and shot.truth
    assert all(t.seat == seat_of(t.centre) and 0 <= min(t.seen) <= max(t.seen) <= 1 for t in shot.truth)
    import cv2

    found = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)).detectMarkers(shot.image)[1]
    assert sorted(int(i) for i in found.ravel()) == [0, 1, 2, 3]


def test_real_cards_are_cut_out_of_the_real_photos_whole():
    """Each cut is a card of the shared real photos (its labelled box's rank), found whole: its outline a card's
    proportions, inside its labelled box, its index (upper left) dark ink on the card's light stock."""
    import csv

    import cv2
    import numpy as np

    from bench.heldout import photos
    from bench.heldout.decks import PHOTO_FAMILIES, RES
    from bench.heldout.table import frame

    ranks = {"nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}
    with open(photos.PHOTOS / "labels.csv") as fh:
        rows = list(csv.DictReader(fh))
    for filename, row, card in photos.CUTS:
        label = [r for r in rows if r["filename"] == filename][row]
        assert ranks[label["class"]] == card[1], (filename, row, card)
        image = cv2.imread(str(photos.PHOTOS / filename))
        box = tuple(int(label[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
        q = photos.outline(image, box)
        sides = [float(np.linalg.norm(q[(k + 1) % 4] - q[k])) for k in range(4)]
        across, down = sorted((sides[0] + sides[2], sides[1] + sides[3]))
        assert 1.25 <= down / across <= 1.6, (filename, row, card)  # 88 / 63 = 1.40, seen at a slant
        assert box[0] - 6 <= q[:, 0].min() and q[:, 0].max() <= box[2] + 6 and box[1] - 6 <= q[:, 1].min()
        face = photos.face(filename, row, RES)
        x0, y0, x1, y1 = (round(v * RES) for v in photos.INDEX_MM)
        index = face[y0:y1, x0:x1, :3].min(2)
        stock = face[face.shape[0] // 3:, :, :3].max(2)
        assert index.min() < 0.6 * np.percentile(stock, 90), (filename, row, card)  # ink in the index box
    fam = PHOTO_FAMILIES["edje-first"]
    assert len(fam.cards) == 18 and all(c[1] in "9TJQKA" for c in fam.cards)
    shot = frame(random.Random(5), fam, (1280, 960))
    assert shot.truth and {t.card for t in shot.truth} <= set(fam.cards)


@pytest.mark.parametrize("name", ["fonts", "suits", "decks", "table", "photos"])
def test_doctests(name):
    module = __import__(f"bench.heldout.{name}", fromlist=[name])
    assert doctest.testmod(module).failed == 0
