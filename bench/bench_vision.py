"""Frames per second of `cardtable vision read` end to end (decoded 1280x960 BGR frame -> JSON text) and peak
memory; baseline in the same run: the calibration alone (finding the four markers). Plain script:

    .venv/bin/python bench/bench_vision.py            # about a minute; --frames N --repeat N --seed N
    .venv/bin/python bench/bench_vision.py --camera 2560x1920     # a finer camera's frames (target 15 frames/s)
    .venv/bin/python bench/bench_vision.py --sure models/hall.sure.json   # also read under a deck's calibration
                                                  # (its fingerprint looked up for every card: vision/fingerprint.py)
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.calibrate import calibrate  # noqa: E402
from vision.options import frame_size  # noqa: E402
from vision.model import DEFAULT_MODEL, Model  # noqa: E402
from vision.read import read_frame  # noqa: E402
from vision.train.synth.render import random_camera, render_frame  # noqa: E402
from vision.train.synth.scene import HELD_OUT_STYLE, random_scene  # noqa: E402

TARGET_FPS = 20.0  # at 1280 x 960 and smaller frames
TARGET_FPS_FINE = 15.0  # at larger frames, up to 2560 x 1920


def timed(fn, frames, repeat):
    times = []
    for _ in range(repeat):
        for f in frames:
            t0 = time.perf_counter()
            fn(f)
            times.append(time.perf_counter() - t0)
    return times


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=40)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--camera", type=frame_size, default=(1280, 960), metavar="WxH", help="frame size (1280x960)")
    p.add_argument("--sure", type=Path, default=None, metavar="FILE",
                   help="also read with this deck's calibration (its fingerprint checked on every card)")
    p.add_argument("--model", type=Path, default=None, metavar="ONNX",
                   help="the detector, index.onnx beside it (default models/cards.onnx): a candidate's speed")
    a = p.parse_args(argv)
    rng = random.Random(a.seed)
    frames = [render_frame(random_scene(rng, [HELD_OUT_STYLE], max_cards=6), random_camera(rng, a.camera)).image
              for _ in range(a.frames)]
    model = Model(a.model or DEFAULT_MODEL)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    read_frame(frames[0], model)  # warm up
    base = timed(calibrate, frames, a.repeat)
    if a.sure:  # the two reads of each frame one after the other, so that the machine's load weighs on both alike
        deck = Model(a.model or DEFAULT_MODEL, sure=a.sure)
        read_frame(frames[0], deck)
        full, gated = [], []
        for _ in range(a.repeat):
            for f in frames:
                full += timed(lambda f: read_frame(f, model).to_json(), [f], 1)
                gated += timed(lambda f: read_frame(f, deck).to_json(), [f], 1)
        rows = [("baseline: calibrate (markers)", base), ("read: frame -> JSON", full),
                ("read, a deck's calibration", gated)]
        print(f"with {a.sure}: {statistics.median(gated) / statistics.median(full):.3f} x the read's median time")
    else:
        full = timed(lambda f: read_frame(f, model).to_json(), frames, a.repeat)
        rows = [("baseline: calibrate (markers)", base), ("read: frame -> JSON", full)]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cards = statistics.mean(len(read_frame(f, model).cards) for f in frames)
    print(f"{a.frames} frames {a.camera[0]}x{a.camera[1]} x {a.repeat}, {cards:.1f} cards per frame, held-out style, "
          "2 onnxruntime threads")
    print(f"{'':32} {'fps':>7} {'median ms':>10} {'p90 ms':>8} {'x base':>7}")
    med_base = statistics.median(base)
    for name, t in rows:
        med = statistics.median(t)
        p90 = sorted(t)[int(0.9 * len(t))]
        print(f"{name:32} {len(t) / sum(t):7.1f} {med * 1000:10.1f} {p90 * 1000:8.1f} {med / med_base:7.2f}")
    print(f"peak memory (max RSS): {peak:.0f} MiB (frames and art loaded: {rss_before:.0f} MiB)")
    fps = min(len(t) / sum(t) for _, t in rows[1:])  # the slower read
    target = TARGET_FPS if a.camera[0] * a.camera[1] <= 1280 * 960 else TARGET_FPS_FINE
    ok = fps >= target
    print(f"{'PASS' if ok else 'FAIL'}: read at {fps:.1f} frames/s (target {target:g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
