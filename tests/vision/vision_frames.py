"""Rendered frames with known truth for the vision tests (fixed seeds). They test the pipeline's logic, so they use
art styles the networks were trained on; accuracy on the held-out style is measured by bench/eval_vision.py."""

from __future__ import annotations

import random
import shutil
from collections import Counter
from functools import cache
from pathlib import Path

from vision.model import DEFAULT_MODEL, Model
from vision.train.synth.render import Camera, Frame, render_frame
from vision.train.synth.scene import TRAIN_STYLES, Hand, PlacedCard, Scene, seat_cards

STYLE = "sans"
STYLES = TRAIN_STYLES  # trained on by both networks
CAMERA = Camera(tilt=12, tilt_dir=30, roll=8, fill=0.92, blur=0.4, noise=2.0, jpeg=90, seed=5)


@cache
def model() -> Model:
    """The shipped networks with their raw beliefs: their calibration leaves no read sure (``test_confidence.py``),
    and what these tests check is the pipeline's logic on trained art."""
    return Model(calibrated=False)


def shipped_networks(folder: Path) -> Path:
    """The shipped detector and classifier copied into ``folder`` without their calibration (a folder a test may
    write a calibration, a base or a venue's files into); the detector's path."""
    for name in ("cards.onnx", "index.onnx"):
        shutil.copy(DEFAULT_MODEL.with_name(name), folder / name)
    return folder / "cards.onnx"


def play(seat: str, names: list[str], layout: str = "row", seed: int = 0,
         spot: tuple[float, float] | None = None) -> list[PlacedCard]:
    return seat_cards(seat, names, layout, STYLE, random.Random(seed), spot)


def frame(cards: list[PlacedCard], hands: tuple[Hand, ...] = (), camera: Camera = CAMERA) -> Frame:
    return render_frame(Scene(tuple(cards), hands, (40, 110, 40), seed=11), camera)


def visible_per_seat(f: Frame, seen: float = 0.85) -> dict[str, Counter]:
    """The cards with a corner index in view, per seat (what a read must find)."""
    out: dict[str, Counter] = {s: Counter() for s in "SENW"}
    for c in f.truth:
        if max(v for _, _, v in c.indices) >= seen:
            out[c.seat][c.name] += 1
    return out
