"""Enrolling a deck from photos of it laid out on the table: how long it takes, and what it buys (plain script).

    .venv/bin/python bench/bench_enrol.py                  # mono laid out in one 2560x1920 photo, 10-minute budget
    options: --style dingbats --photos 2 --camera 1920x1080 --budget 10 --eval 40 --eval-seed 99
             --others dingbats,deck:100000 --keep DIR (the venue's folder kept there) --detail 1.05
             --venue DIR (measure a folder enrolled before: 3 and 4)

1. Renders the deck ``--style`` (an art style the models never trained on) laid out in the printed order
   (``cardtable vision deck --order``) over ``--photos`` photos at ``--camera`` size, with the table's markers.
2. Runs ``cardtable vision deck --layout PHOTOS --out DIR`` as its own process, as a venue would, and times it end
   to end by the wall clock (finding the faces, training, the check picture); its progress lines are shown.
3. Reads ``--verify`` tables of the enrolled deck drawn as the enrolment's confidence fit draws them (at the detail
   its calibration records, ``vision sure --detail``) but never among them (``bench/eval_sure.py``) with the
   enrolled model and its calibration: the reads marked sure, how many of them are wrong and the share they could
   still be wrong at (95%; the calibration aims at 0.05%), the share of right reads marked sure and of all reads
   flagged.
4. Reads ``--eval`` random tables (as ``eval_vision.py``) of the enrolled deck, and of each of ``--others``, at
   2560 x 1920, 1920 x 1080 and the venue's camera (``--camera``), with the shipped models, with the enrolled
   classifier alone and with the enrolled models as a venue reads with them (a card unlike the deck named by the
   classifier the enrolment started from, ``Model.base``): recall and precision (name and seat), and the reads no
   card at their seat explains yet marked sure (confidence >= 0.9), as a share of the reads. ``--detail``: the same
   tables at the venue's camera only, under cameras that show the table at least that fine (``sure.at_detail``: a
   venue camera mounted as asked).
PASS when the enrolment took at most 10 minutes, the fresh sure reads vouch for 0.05% (their 95% bound at most
that: 5,990 sure reads without a wrong one at least), and no other deck lost more than 1 point of recall or
precision as the venue reads it; exit 1 otherwise. The figures are for this
machine: a busy one trains fewer steps and reads fewer tables for the confidence in the same budget.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from bench.eval_sure import verify  # noqa: E402
from vision.options import frame_size  # noqa: E402
from vision import confidence  # noqa: E402
from vision.model import Model  # noqa: E402
from vision.read import read_frame  # noqa: E402
from vision.sanity import SURE  # noqa: E402
from vision.train.enrol import COLUMNS, ORDER  # noqa: E402
from vision.train.sure import at_detail  # noqa: E402
from vision.train.synth.render import Camera, random_camera, render_frame  # noqa: E402
from vision.train.synth.scene import PlacedCard, Scene, random_scene  # noqa: E402

LIMIT_MIN = 10.0


def layout_photos(style: str, photos: int, camera: tuple[int, int], seed: int = 1) -> list:
    """The deck laid out as the order says, split over ``photos`` photos (rows of COLUMNS, a little askew)."""
    rng = random.Random(seed)
    per = -(-len(ORDER) // photos)
    frames = []
    for p in range(photos):
        part = ORDER[p * per:(p + 1) * per]
        cards = tuple(PlacedCard(c, style, 0.12 + (i % COLUMNS) * 0.095 + rng.uniform(-0.003, 0.003),
                                 0.12 + (i // COLUMNS) * 0.13, rng.uniform(-2, 2)) for i, c in enumerate(part))
        cam = Camera(tilt=rng.uniform(5, 15), tilt_dir=rng.uniform(0, 360), roll=rng.uniform(-5, 5), size=camera,
                     blur=0.5, noise=3, jpeg=90, seed=seed + p)
        frames.append(render_frame(Scene(cards, (), (40, 110, 40), seed=seed + p), cam).image)
    return frames


def measure(models: list[Model], style: str, n: int, camera: tuple[int, int], seed: int = 99,
            detail: float | None = None) -> list[tuple[float, float, float]]:
    """Recall, precision and the sure-but-wrong share of reads over ``n`` random tables of ``style``, per model;
    ``detail``: the same tables, each under a camera mounted to show the table at that detail
    (``sure.at_detail``)."""
    rng = random.Random(seed)
    tally = [[0] * 5 for _ in models]  # need, found, read, right, sure-wrong
    for i in range(n):
        scene, cam = random_scene(rng, [style]), random_camera(rng, camera)
        if detail is not None:
            cam = at_detail(cam, detail, random.Random(f"detail:{seed}:{i}"))
        f = render_frame(scene, cam)
        for model, t in zip(models, tally):
            reading = read_frame(f.image, model)
            for seat in "SENW":
                on = Counter(c.name for c in f.truth if c.seat == seat)
                seen = Counter(c.name for c in f.truth if c.seat == seat and max(v for *_, v in c.indices) >= 0.85)
                reads = sorted((c for c in reading.cards if c.seat == seat), key=lambda c: -c.confidence)
                got = Counter(c.name for c in reads)
                t[0], t[1], t[2], t[3] = t[0] + seen.total(), t[1] + (seen & got).total(), t[2] + got.total(), \
                    t[3] + (on & got).total()
                extra = got - on  # of several reads of one name, the surest are the extra ones
                for c in reads:
                    if extra[c.name]:
                        extra[c.name] -= 1
                        t[4] += c.confidence >= SURE
    return [(found / max(need, 1), right / max(read, 1), wrong / max(read, 1))
            for need, found, read, right, wrong in tally]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--style", default="mono")
    p.add_argument("--photos", type=int, default=1)
    p.add_argument("--camera", type=frame_size, default=(2560, 1920))
    p.add_argument("--budget", type=float, default=LIMIT_MIN)
    p.add_argument("--eval", type=int, default=40, metavar="N", help="tables per deck measured (0: none)")
    p.add_argument("--eval-seed", type=int, default=99, metavar="S",
                   help="the seed of those tables (another than 99: tables no run before has looked at)")
    p.add_argument("--verify", type=int, default=250, metavar="N",
                   help="fresh tables of the enrolled deck read to check its calibration (0: none)")
    p.add_argument("--detail", type=float, default=None, metavar="D",
                   help="read those tables under cameras that show the table at this detail or up to 1.3 times "
                        "finer (vision.canon.detail; a venue's camera mounted as `vision calibrate` asks: 1.05)")
    p.add_argument("--others", default="dingbats,deck:100000,deck:100001")
    p.add_argument("--keep", type=Path, default=None, metavar="DIR", help="keep the venue's folder there")
    p.add_argument("--venue", type=Path, default=None, metavar="DIR",
                   help="measure this venue's folder, enrolled before, instead of enrolling (steps 3 and 4)")
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out, took = (a.venue, 0.0) if a.venue else enrolled(a, Path(tmp))
        if out is None:
            return 1
        ok = took <= LIMIT_MIN
        if a.verify:
            # at the detail the enrolment fitted its confidence at (its photos', the venue camera's)
            fitted = confidence.load(out / "index.onnx").detail
            fig = verify(out / "cards.onnx", [str((out / "deck").resolve())], a.camera, a.verify, seed=99,
                         detail=fitted)
            for kind, name in (("2", "both corners"), ("1", "one corner"), ("all", "all")):
                f = fig[kind]
                print(f"fresh reads of the enrolled deck, {name}: {f['reads']}, {f['sure']} sure, {f['sure_wrong']} of "
                      f"them wrong ({f['sure_wrong_share']:.3%}, at most {f['bound']:.3%} at 95%), {f['right_sure']:.2%}"
                      f" of the right reads sure, {f['flagged']:.2%} of the reads flagged")
            ok = ok and fig["all"]["bound"] <= confidence.ENROLLED_TARGET
        if a.eval:
            models = [Model(), Model(out / "cards.onnx", with_base=False), Model(out / "cards.onnx")]
            if models[2].base is None:
                print(f"FAIL: {out} records no base classifier (Model.base)")
                return 1
            print(f"{'recall / precision / sure-wrong':>72}")
            print(f"{'deck':16} {'camera':10} {'shipped':>28} {'enrolled alone':>28} {'enrolled, its base':>28}")
            for style in [a.style, *a.others.split(",")]:
                cams = [a.camera] if a.detail else dict.fromkeys(((2560, 1920), (1920, 1080), a.camera))
                for cam in cams:  # and the venue's own camera; at a detail, that one alone
                    shipped, alone, venue = measure(models, style, a.eval, cam, a.eval_seed, a.detail)
                    figures = (" ".join(f"{v:8.2%}" for v in fig) for fig in (shipped, alone, venue))
                    print(f"{style:16} {cam[0]}x{cam[1]:<5} " + " ".join(f"{f:>28}" for f in figures))
                    if style != a.style and (shipped[0] - venue[0] > 0.01 or shipped[1] - venue[1] > 0.01):
                        ok = False
        print("PASS" if ok else "FAIL")
    return 0 if ok else 1


def enrolled(a: argparse.Namespace, tmp: Path) -> tuple[Path | None, float]:
    """Steps 1 and 2: the venue's folder (None: the enrolment failed, said why) and the minutes it took."""
    shots = []
    for i, image in enumerate(layout_photos(a.style, a.photos, a.camera)):
        shots.append(tmp / f"layout-{i + 1}.jpg")
        cv2.imwrite(str(shots[-1]), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    out = a.keep or tmp / "venue"
    t0 = time.time()
    cmd = [sys.executable, "-m", "cardtable", "vision", "deck", "--layout", *map(str, shots), "--out", str(out),
           "--budget", str(a.budget)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    took = (time.time() - t0) / 60
    print(done.stdout + done.stderr)
    if done.returncode != 0:
        print(f"FAIL: the enrolment failed (exit {done.returncode})")
        return None, took
    print(f"enrolment of {a.style!r} from {a.photos} photo(s) of {a.camera[0]}x{a.camera[1]}: {took:.1f} minutes "
          f"(limit {LIMIT_MIN:.0f}); load average {Path('/proc/loadavg').read_text().split()[0]}")
    return out, took


if __name__ == "__main__":
    sys.exit(main())
