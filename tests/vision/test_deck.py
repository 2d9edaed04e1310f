"""Enrolling a venue's deck: its faces are checked all at once (nothing written on a bad set), kept as art, and the
classifier is trained further on them into a model folder of the venue's own."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.model import ALL_CARDS, UNREADABLE, Model, ModelError
from vision.patch import PATCH_H, PATCH_W
from vision.train import tries
from vision.train.deck import DeckError, H, W, read_faces
from vision.train.synth.render import art

CLI = [sys.executable, "-m", "cardtable", "vision", "deck"]


def scanned_deck(folder: Path, style: str = "mono") -> Path:
    """The 54 faces of an art style as a venue would scan them: on white, bigger, JPEG."""
    folder.mkdir(parents=True)
    for card in ALL_CARDS:
        a = art(style, card).astype(np.float32)
        face = a[:, :, :3] * a[:, :, 3:] / 255 + 255 * (1 - a[:, :, 3:] / 255)
        face = cv2.resize(face.astype(np.uint8), (500, 700), interpolation=cv2.INTER_CUBIC)
        cv2.imwrite(str(folder / f"{card}.jpg"), face, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return folder


def photographed(card: str, style: str = "mono") -> np.ndarray:
    """A photo of one card alone on a dark table cloth, a little turned and seen a little from the side."""
    a = art(style, card).astype(np.float32)
    face = (a[:, :, :3] * a[:, :, 3:] / 255 + 255 * (1 - a[:, :, 3:] / 255)).astype(np.uint8)
    face = cv2.resize(face, (400, 560), interpolation=cv2.INTER_CUBIC)
    corners = np.float32([[0, 0], [400, 0], [400, 560], [0, 560]])
    seen = np.float32([[230, 150], [640, 190], [600, 790], [170, 740]])  # turned and foreshortened
    photo = np.full((960, 800, 3), (40, 70, 30), np.uint8)
    photo += np.random.default_rng(1).integers(0, 12, photo.shape, dtype=np.uint8)
    warped = cv2.warpPerspective(face, cv2.getPerspectiveTransform(corners, seen), (800, 960))
    inside = cv2.warpPerspective(np.full((560, 400), 255, np.uint8), cv2.getPerspectiveTransform(corners, seen),
                                 (800, 960))
    photo[inside > 128] = warped[inside > 128]
    return photo


def test_faces_become_art(tmp_path):
    scans = scanned_deck(tmp_path / "scans")
    (scans / "HQ.jpg").unlink()
    cv2.imwrite(str(scans / "HQ.png"), photographed("HQ"))  # a photo, not a scan: the card is found in it
    faces = read_faces(scans)
    assert sorted(faces) == sorted(ALL_CARDS)
    assert all(f.shape == (H, W, 4) and f[0, 0, 3] == 0 and f[H // 2, W // 2, 3] == 255 for f in faces.values())
    # the index survives the trip: the scan's top-left corner is the art's
    original = art("mono", "HQ")[8:40, 4:30, :3].astype(int)
    assert np.abs(faces["HQ"][8:40, 4:30, :3].astype(int) - original).mean() < 12


def test_every_problem_is_named_at_once_and_nothing_is_written(tmp_path):
    scans = scanned_deck(tmp_path / "scans")
    (scans / "SA.jpg").unlink()
    (scans / "ZZ.png").write_bytes((scans / "HK.jpg").read_bytes())
    (scans / "D7.jpg").write_bytes(b"not a jpeg")
    cv2.imwrite(str(scans / "C2.jpg"), np.full((300, 600, 3), 255, np.uint8))  # lying on its side, uncropped
    cv2.imwrite(str(scans / "H5.png"), np.full((700, 500, 3), 255, np.uint8))  # a second H5
    with pytest.raises(DeckError) as e:
        read_faces(scans)
    for part in ("no face for SA", "not a card: ZZ", "D7.jpg: not an image", "C2.jpg: 600x300 px is not a card",
                 "H5: two images"):
        assert part in e.value.text("en")
    for part in ("缺少牌面：SA", "不是牌名：ZZ", "D7.jpg：不是图片", "C2.jpg：600x300 像素不是牌的形状", "H5：有两张图片"):
        assert part in str(e.value)
    out = tmp_path / "venue"
    done = subprocess.run([*CLI, "--faces", str(scans), "--out", str(out), "--steps", "1"], capture_output=True,
                          text=True)
    assert done.returncode == 2 and f"{scans}：" in done.stderr and "缺少牌面：SA" in done.stderr and not out.exists()
    done = subprocess.run([*CLI, "--lang", "en", "--faces", str(scans), "--out", str(out), "--steps", "1"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and f"{scans}: the faces are not a deck: no face for SA" in done.stderr, done.stderr
    for photo, said in (("nowhere.png", "--layout：nowhere.png：没有这个文件"), ("D7.jpg", "--layout：D7.jpg：不是图片，或已损坏")):
        done = subprocess.run([*CLI, "--layout", photo, "--out", str(out), "--steps", "1"], capture_output=True,
                              text=True, cwd=scans)
        assert done.returncode == 2 and said in done.stderr and not out.exists(), done.stderr
    assert not out.exists()


def test_out_may_not_be_the_shipped_models_folder(tmp_path):
    done = subprocess.run([*CLI, "--faces", str(tmp_path), "--out", "models"], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 2 and "`--out` 必须是单独的文件夹，不能是起点模型所在的文件夹" in done.stderr
    done = subprocess.run([*CLI, "--faces", str(tmp_path), "--out", "models", "--lang", "en"], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 2 and "`--out` must be a folder of its own" in done.stderr


def test_an_enrolment_into_a_folder_held_is_refused_before_it_trains_and_leaves_no_lock_of_its_own(tmp_path):
    """Another enrolment into the folder (its lock file, which names it) or a `vision sure` checking the venue's
    confidence: refused before any minutes are spent, the other's lock file left to it. A run refused for a `vision
    sure` left its own `<out>.enrolling.lock` behind (its lock, a flock of its own, was removed only once it trained)."""
    from bus.lock import hold_file

    scans, out = scanned_deck(tmp_path / "scans"), tmp_path / "venue"
    lock = tmp_path / "venue.enrolling.lock"
    run = [*CLI, "--faces", str(scans), "--out", str(out), "--steps", "2", "--lang", "en"]
    held = hold_file(lock, "another enrolment")
    done = subprocess.run(run, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and f"another enrolment into {out} is running" in done.stderr, done.stderr
    assert lock.read_text() == f"{os.getpid()} another enrolment\n" and not out.exists()
    held.release()
    out.mkdir()
    for name in ("index.base.json", "index.sure.json"):  # a venue's folder enrolled before (its contents not read)
        (out / name).write_text("{}")
    with tries.hold(out / "index.sure.json"):
        done = subprocess.run(run, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "is fitting or checking" in done.stderr, done.stderr
    assert sorted(tmp_path.iterdir()) == [tmp_path / "scans", out] and sorted(p.name for p in out.iterdir()) == [
        "index.base.json", "index.sure.json"]


def test_enrolment_trains_a_model_folder_of_the_venues_own(tmp_path):
    pytest.importorskip("torch")
    out = tmp_path / "venue"
    done = subprocess.run([*CLI, "--faces", str(scanned_deck(tmp_path / "scans")), "--out", str(out), "--steps",
                           "2", "--workers", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"--model {out / 'cards.onnx'}" in done.stdout
    assert sorted(p.stem for p in (out / "deck").glob("*.png")) == sorted(ALL_CARDS)
    model = Model(out / "cards.onnx")  # the classifier beside it is the venue's
    assert model.index_path == out / "index.onnx"
    probs = model.classify(np.zeros((2, PATCH_H, PATCH_W, 3), np.uint8))
    assert probs.shape == (2, UNREADABLE + 1) and np.allclose(probs.sum(1), 1, atol=1e-4)


def test_an_enrolment_killed_or_refused_leaves_the_venues_folder_as_it_was(tmp_path):
    """An enrolment builds its folder beside ``--out`` and moves it there only once it is whole: a run killed while it
    trains leaves the venue's folder of before whole, and the camera still reads with it (never a classifier without
    its calibration, whose raw beliefs would pass for sure); a run that finishes replaces it; an ``--out`` that holds
    anything else is refused and left as it was."""
    import time

    pytest.importorskip("torch")
    scans = scanned_deck(tmp_path / "scans")
    out, building = tmp_path / "venue", tmp_path / "venue.enrolling"
    run = [*CLI, "--faces", str(scans), "--out", str(out), "--workers", "0", "--sure-frames", "2", "--sure-workers", "0",
           "--lang", "en"]
    done = subprocess.run([*run, "--steps", "2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr

    def files(folder: Path) -> dict:
        return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}

    before = files(out)
    assert Path("index.sure.json") in before and not building.exists()
    killed = subprocess.Popen([*run, "--steps", "100000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while not (building / "index.base.json").is_file() and time.time() < deadline:  # its folder is being built
        time.sleep(0.1)
    time.sleep(2)
    done = subprocess.run([*run, "--steps", "2"], capture_output=True, text=True, timeout=120)  # started twice
    assert done.returncode == 2 and f"another enrolment into {out} is running" in done.stderr, done.stderr
    assert (building / "index.base.json").is_file()  # the first run's folder is left to it
    killed.kill()
    killed.wait()
    assert (building / "index.base.json").is_file() and files(out) == before
    assert Model(out / "cards.onnx").calibration is not None
    with tries.hold(out / "index.sure.json"):  # a `vision sure` checking the venue's confidence now: not replaced
        done = subprocess.run([*run, "--steps", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "is fitting or checking" in done.stderr and files(out) == before, done.stderr
    tries.record(out / "index.sure.json", {"camera": "2560x1920", "vouched": False})  # a check of its confidence
    done = subprocess.run([*run, "--steps", "2", "--seed", "7"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert tries.tries_before(out / "index.sure.json", "2560x1920") == (1, 0)  # enrolled again: the try still counts
    assert not building.exists() and not (tmp_path / "venue.replaced").exists()  # and the killed run's lock let go:
    assert not (tmp_path / "venue.enrolling.lock").exists()
    assert files(out)[Path("index.onnx")] != before[Path("index.onnx")] and Model(out / "cards.onnx").calibration
    copied = tmp_path / "copied"  # a venue's folder copied without its calibration: refused, not read raw
    shutil.copytree(out, copied)
    (copied / "index.sure.json").unlink()
    with pytest.raises(ModelError) as e:
        Model(copied / "cards.onnx")
    assert f"{copied / 'index.sure.json'} 没有置信度校准" in str(e.value)
    mine = tmp_path / "photos"
    mine.mkdir()
    (mine / "keep.txt").write_text("mine")
    done = subprocess.run([*CLI, "--faces", str(scans), "--out", str(mine), "--steps", "1", "--lang", "en"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and f"`--out` {mine} holds something other than a venue's folder" in done.stderr
    assert files(mine) == {Path("keep.txt"): b"mine"} and not (tmp_path / "photos.enrolling").exists()
    done = subprocess.run([*CLI, "--faces", str(scans), "--out", ".", "--steps", "1", "--lang", "en"], cwd=mine,
                          capture_output=True, text=True, timeout=120)  # `--out .`: the folder it is run in
    assert done.returncode == 2 and f"`--out` {mine} holds something other" in done.stderr, done.stderr
