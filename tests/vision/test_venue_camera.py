"""An enrolment at a venue camera between 1280 x 960 and 2560 x 1920 trains its classifier on patches seen as that
camera sees them: frames rendered at its size and the art made as coarse as it makes an index, not half at
1280 x 960 and half at 2560 x 1920 as the shipped classifier's training (and an enrolment at another camera) does
(``vision.train.index.patch_batches``)."""

import random

import cv2
import numpy as np
import pytest

pytest.importorskip("torch")

from vision.train import index  # noqa: E402
from vision.train.synth.scene import TRAIN_STYLES  # noqa: E402


def sharpness(patches) -> float:
    return float(np.mean([cv2.Laplacian(cv2.cvtColor(p, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var() for p in patches]))


def test_frame_patches_come_from_frames_of_the_camera_given():
    def cut(camera):
        rng = random.Random(5)
        return [p for p, *_ in index.frame_patches(rng, TRAIN_STYLES[:3], cameras=(camera,))]

    fine, coarse = cut((2560, 1920)), cut((1280, 960))
    assert len(fine) == len(coarse) > 0  # the same scene: only the camera differs
    assert sharpness(coarse) < 0.7 * sharpness(fine)


def test_art_patches_are_as_coarse_as_the_camera_makes_them():
    def drawn(shrink):
        rng, nprng = random.Random(3), np.random.default_rng(3)
        return [index.patch_sample(rng, nprng, TRAIN_STYLES[:3], shrink)[0] for _ in range(40)]

    assert sharpness(drawn(index.shrink_of((1920, 1080)))) < 0.8 * sharpness(drawn(1.0))


def test_a_venue_camera_batch_marks_the_deck_patches():
    batches = index.patch_batches(7, size=16, styles=[*TRAIN_STYLES[:2], "sans", "sans"], own="sans",
                                  camera=(1920, 1080), pool_patches=200)
    x, y, own = next(batches)
    assert x.shape == (16, index.PATCH_H, index.PATCH_W, 3) and str(own.dtype) == "torch.bool"
    assert 0 < int(own.sum()) < 16
