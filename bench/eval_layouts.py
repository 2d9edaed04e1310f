"""How a classifier reads the training patches of drawn decks, by the deck's index layout (plain script):

    .venv/bin/python bench/eval_layouts.py                                   # the shipped index.onnx
    .venv/bin/python bench/eval_layouts.py --index models/candidate/gpu.onnx --patches 300

For the drawn decks of seeds ``--first`` .. ``--first + 199`` (``vision/train/synth/decks.py``: training's own decks,
so a diagnosis, not a held-out figure), ten whose rank stands beside the suit and ten whose rank stands above it,
``--patches`` index patches each way, as training makes them: straight from the art (``index.patch_sample``) and cut
from rendered frames, jittered as the detector errs (``index.frame_patches``, ``index.jittered``). Prints, for the
patches taught by the card's name, the share read right and the share called ``UNREADABLE``: a classifier that saw
only ranks above their suits takes a rank with nothing under it for an index whose suit is covered.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.model import UNREADABLE, Model  # noqa: E402
from vision.train.index import frame_patches, jittered, patch_sample  # noqa: E402
from vision.train.synth import decks  # noqa: E402


def patches(styles: list[str], source: str, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng, nprng = random.Random(seed), np.random.default_rng(seed)
    xs, ys = [], []
    while len(xs) < n:
        if source == "art":
            p, k, *_ = patch_sample(rng, nprng, styles)
            xs.append(p), ys.append(k)
        else:
            for p, k, *_ in frame_patches(rng, styles):
                xs.append(jittered(p, rng, nprng)), ys.append(k)
    return np.stack(xs[:n]), np.array(ys[:n])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", type=Path, help="the index classifier (default: the shipped one)")
    ap.add_argument("--first", type=int, default=100, help="the first deck seed (default 100)")
    ap.add_argument("--patches", type=int, default=300, help="patches per layout and source (default 300)")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    model = Model(index_path=args.index) if args.index else Model()
    names = decks.names(args.first, 200)
    print(f"{'layout':8} {'source':6} {'named':>6} {'right':>7} {'UNREADABLE':>11}")
    for beside in (True, False):
        styles = [s for s in names if decks.design(s).beside == beside][:10]
        for source in ("art", "frame"):
            x, y = patches(styles, source, args.patches, args.seed)
            top = model.classify(x).argmax(1)
            named = y != UNREADABLE
            right, unreadable = np.mean(top[named] == y[named]), np.mean(top[named] == UNREADABLE)
            print(f"{'beside' if beside else 'above':8} {source:6} {named.sum():6d} {right:7.1%} {unreadable:11.1%}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
