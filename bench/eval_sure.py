"""How a deck's confidence calibration holds on tables of the deck it was not fitted on (plain script):

    .venv/bin/python bench/eval_sure.py --deck letele,sans,serif --sure models/hall.sure.json --frames 150
    .venv/bin/python bench/eval_sure.py --deck VENUE/deck --model VENUE/cards.onnx --camera 1920x1080

Draws ``--frames`` tables of the deck as the fit draws them (``vision/train/sure.py``), but for checking: the frames of
purpose "check", never among those of a fit (purpose "fit"), whatever the seeds. Reads them with the model's raw
beliefs and maps them through the calibration (``--sure``, default ``index.sure.json`` beside the classifier).
Prints per kind of read (both corners, one corner) and for all: reads, right reads, reads marked sure, the sure
ones that are wrong (count, and share of the sure reads: the figure the calibration aims at), the share they could
still be wrong at (95%, ``sure.upper``), and the share of the right reads marked sure and of all reads left
flagged for a person. A deck the calibration was not fitted for (``--deck dingbats``) shows what it does to reads
of another deck.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import confidence  # noqa: E402
from vision.cli import frame_size  # noqa: E402
from vision.model import DEFAULT_MODEL  # noqa: E402
from vision.sanity import SURE  # noqa: E402
from vision.train import sure  # noqa: E402


def verify(detector: Path, styles: list[str], camera: tuple[int, int], frames: int, seed: int,
           sure_path: Path | None = None, workers: int = 2) -> dict:
    """The calibration's figures on ``frames`` fresh tables, per kind ("2", "1") and for "all"."""
    classifier = detector.with_name("index.onnx")
    cal = confidence.load(classifier, sure_path)
    if cal is None:
        raise SystemExit(f"no calibration beside {classifier}")
    reads = sure.reads(detector, classifier, styles, camera, seed=seed, purpose="check", frames=frames,
                       workers=workers)
    out = {}
    for kind in ("2", "1", "all"):
        mine = [(raw, right, c) for raw, right, c in reads if kind == "all" or (c >= 2) == (kind == "2")]
        marked = [right for raw, right, c in mine if cal.confidence(raw, c) >= SURE]
        rights = sum(right for _, right, _ in mine)
        wrong = len(marked) - sum(marked)
        out[kind] = {"reads": len(mine), "right": rights, "sure": len(marked), "sure_wrong": wrong,
                     "sure_wrong_share": wrong / max(1, len(marked)), "bound": sure.upper(wrong, len(marked)),
                     "right_sure": sum(marked) / max(1, rights), "flagged": 1 - len(marked) / max(1, len(mine))}
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deck", required=True, help="art styles or an enrolled deck's folder, comma separated")
    p.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="the detector; index.onnx beside it")
    p.add_argument("--sure", type=Path, default=None, help="the calibration (default: beside the classifier)")
    p.add_argument("--camera", type=frame_size, default=(2560, 1920))
    p.add_argument("--frames", type=int, default=150)
    p.add_argument("--seed", type=int, default=99, help="of the check tables (default 99)")
    p.add_argument("--workers", type=int, default=2)
    a = p.parse_args(argv)
    styles = [str(Path(s).resolve()) if Path(s).is_dir() else s for s in a.deck.split(",")]
    t0 = time.time()
    fig = verify(a.model, styles, a.camera, a.frames, a.seed, a.sure, a.workers)
    print(f"{a.deck} at {a.camera[0]}x{a.camera[1]}, {a.frames} tables, seed {a.seed}, {time.time() - t0:.0f} s")
    print(f"{'reads':14} {'count':>7} {'right':>7} {'sure':>7} {'sure wrong':>11} {'of sure':>8} {'95% bound':>10} "
          f"{'right sure':>11} {'flagged':>8}")
    for kind, name in (("2", "both corners"), ("1", "one corner"), ("all", "all")):
        f = fig[kind]
        print(f"{name:14} {f['reads']:7} {f['right']:7} {f['sure']:7} {f['sure_wrong']:11} "
              f"{f['sure_wrong_share']:8.3%} {f['bound']:10.3%} {f['right_sure']:11.2%} {f['flagged']:8.2%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
