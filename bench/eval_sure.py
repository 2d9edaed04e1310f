"""How a deck's confidence calibration holds on tables of the deck it was not fitted on (plain script):

    .venv/bin/python bench/eval_sure.py --deck letele,sans,serif --sure models/hall.sure.json --frames 150
    .venv/bin/python bench/eval_sure.py --deck VENUE/deck --model VENUE/cards.onnx --camera 1920x1080
    .venv/bin/python bench/eval_sure.py --deck letele,sans,serif --sure models/hall.sure.json --foreign cabin-deep

Draws ``--frames`` tables of the deck as the fit draws them (``vision/train/sure.py``), but for checking: the frames of
purpose "check", never among those of a fit (purpose "fit"), whatever the seeds. Reads them with the model's raw
beliefs and maps them through the calibration (``--sure``, default ``index.sure.json`` beside the classifier).
Prints per kind of read (both corners, one corner) and for all: reads, right reads, reads marked sure, the sure
ones that are wrong (count, and share of the sure reads: the figure the calibration aims at), the share they could
still be wrong at (95%, ``confidence.upper``), and the share of the right reads marked sure and of all reads left
flagged for a person; a read is sure when the thresholds mark it so, it looks like the deck (the calibration's
fingerprint, ``vision.fingerprint``) and its frame is as fine as those the calibration was fitted on
(``Calibration.holds_at``): the reads the fingerprint or a coarse frame alone keep flagged ("unlike"), and the flagged
share and sure-but-wrong count by the thresholds alone, are shown beside. A deck the calibration was not fitted
for (``--deck dingbats``) shows what it does to reads of another deck; ``--foreign FAMILY`` lays a share of cards of
a held-out deck family (``bench/heldout``, its faces drawn by that code, laid by our renderer) among the deck's on
every table, and shows the reads of those cards on a row of their own.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import confidence  # noqa: E402
from vision.options import frame_size  # noqa: E402
from vision.model import DEFAULT_MODEL  # noqa: E402
from vision.train import sure  # noqa: E402


def verify(detector: Path, styles: list[str], camera: tuple[int, int], frames: int, seed: int,
           sure_path: Path | None = None, workers: int = 2, foreign: tuple[str, float] | None = None,
           detail: float | None = None) -> dict:
    """``sure.checked`` under the calibration at ``sure_path`` (default: beside the classifier)."""
    cal = confidence.load(detector.with_name("index.onnx"), sure_path)
    if cal is None:
        raise SystemExit(f"no calibration beside {detector.with_name('index.onnx')}")
    return sure.checked(detector, styles, camera, frames, seed, cal, workers=workers, foreign=foreign, detail=detail)


def foreign_style(name: str, folder: Path) -> str:
    """A held-out deck family (``bench/heldout``: a test or a calibration family) written as an art style, so that
    its cards can lie among the deck's on the renderer's tables."""
    from bench.heldout.decks import CARDS, FAMILIES, calibration_families, face
    from vision.train.deck import art_width, face_art, write_style

    family = (FAMILIES | calibration_families()).get(name)
    if family is None:
        raise SystemExit(f"no held-out family {name!r}")
    faces = {card: face(family, card)[..., :3] for card in CARDS}
    width = art_width(list(faces.values()))
    return str(write_style({card: face_art(f, width) for card, f in faces.items()}, folder / name))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deck", required=True, help="art styles or an enrolled deck's folder, comma separated")
    p.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="the detector; index.onnx beside it")
    p.add_argument("--sure", type=Path, default=None, help="the calibration (default: beside the classifier)")
    p.add_argument("--camera", type=frame_size, default=(2560, 1920))
    p.add_argument("--frames", type=int, default=150)
    p.add_argument("--detail", type=float, default=None,
                   help="the tables at this camera detail (`vision sure --detail`)")
    p.add_argument("--seed", type=int, default=99, help="of the check tables (default 99)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--foreign", default=None, metavar="FAMILY",
                   help="a held-out deck family (bench/heldout) whose cards lie among the deck's: a mixture")
    p.add_argument("--share", type=float, default=0.1, help="the share of a table's cards of --foreign (0.1)")
    a = p.parse_args(argv)
    styles = [str(Path(s).resolve()) if Path(s).is_dir() else s for s in a.deck.split(",")]
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        foreign = (foreign_style(a.foreign, Path(tmp)), a.share) if a.foreign else None
        fig = verify(a.model, styles, a.camera, a.frames, a.seed, a.sure, a.workers, foreign, a.detail)
    print(f"{a.deck} at {a.camera[0]}x{a.camera[1]}, {a.frames} tables, seed {a.seed}, {time.time() - t0:.0f} s"
          + (f", {a.share:.0%} of the cards of {a.foreign}" if a.foreign else ""))
    print(f"{'reads':14} {'count':>7} {'right':>7} {'sure':>7} {'sure wrong':>11} {'of sure':>8} {'95% bound':>10} "
          f"{'right sure':>11} {'flagged':>8} {'unlike':>7} {'flagged w/o':>11} {'sure wrong w/o':>15}")
    rows = (("2", "both corners"), ("1", "one corner"), ("all", "all"))
    for kind, name in rows + ((("foreign", a.foreign),) if a.foreign else ()):
        f = fig[kind]
        print(f"{name:14} {f['reads']:7} {f['right']:7} {f['sure']:7} {f['sure_wrong']:11} "
              f"{f['sure_wrong_share']:8.3%} {f['bound']:10.3%} {f['right_sure']:11.2%} {f['flagged']:8.2%} "
              f"{f['unlike']:7} {f['flagged_before']:11.2%} {f['sure_wrong_before']:15}")
    print("unlike: reads the thresholds mark sure that the deck's fingerprint (or a frame coarser than it was fitted "
          "on) keeps flagged; w/o: by the thresholds "
          "alone, without the fingerprint" + ("; the rows above the last are the deck's own cards' reads, the last "
                                             "the foreign cards'" if a.foreign else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
