"""Cutting a corner index out upright for the index classifier, at twice the canonical view's scale (``SCALE``),
straight from the camera frame: a 1280 x 960 camera gives about the canonical scale, so its patch is that
resolution enlarged; a 2560 x 1920 one gives the index's suit twice the pixels (about 8 px across, not 4).

A detection's offset (index -> card centre) gives the card's orientation: on an upright card the top-left index
sees the centre at ``INDEX_DIRECTION`` degrees; the bottom-right one, turned half round, the same.

>>> abs(round(card_angle((0.0, 0.0), (24.077, 29.484)), 1))
0.0
>>> round(card_angle((0.0, 0.0), (-29.484, 24.077)), 1)
90.0
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.geometry import CARD_H, CARD_W, INDEX_CENTRES

SCALE = 2  # patch px per canonical px
PATCH_W, PATCH_H = 20 * SCALE, 32 * SCALE
INDEX_DIRECTION = math.degrees(math.atan2((0.5 - INDEX_CENTRES[0][1]) * CARD_H, (0.5 - INDEX_CENTRES[0][0]) * CARD_W))


def card_angle(corner: tuple[float, float], centre: tuple[float, float]) -> float:
    """The card's angle (degrees, clockwise, y down) from one corner index and the centre it points at."""
    return (math.degrees(math.atan2(centre[1] - corner[1], centre[0] - corner[0])) - INDEX_DIRECTION + 180) % 360 - 180


def upright(corner: tuple[float, float], angle: float, size: tuple[int, int], scale: float) -> np.ndarray:
    """The 3x3 matrix taking the ``size`` (w, h) patch's px to the image's: centred on ``corner``, turned by
    ``angle`` degrees so the index stands upright, ``scale`` image px per patch px."""
    w, h = size
    a = math.radians(angle)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    return np.array([[c, -s, corner[0] - c * (w / 2 - 0.5) + s * (h / 2 - 0.5)],
                     [s, c, corner[1] - s * (w / 2 - 0.5) - c * (h / 2 - 0.5)], [0, 0, 1]])


def cut(image: np.ndarray, corner: tuple[float, float], angle: float, size: tuple[int, int] = (PATCH_W, PATCH_H),
        scale: float = 1.0) -> np.ndarray:
    """The ``size`` (w, h) patch around ``corner``, turned so the index stands upright (``scale``: image px per
    patch px)."""
    m = upright(corner, angle, size, scale)[:2].astype(np.float32)
    return cv2.warpAffine(image, m, size, flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def cut_through(frame: np.ndarray, frame_from_canon: np.ndarray, corner: tuple[float, float], angle: float,
                size: tuple[int, int] = (PATCH_W, PATCH_H), scale: float = 1 / SCALE) -> np.ndarray:
    """The patch :func:`cut` would give from the canonical view (``corner`` in its px, ``scale``: canonical px per
    patch px), read from ``frame`` itself through ``frame_from_canon`` (a homography), at the frame's own
    resolution."""
    return cv2.warpPerspective(frame, frame_from_canon @ upright(corner, angle, size, scale), size,
                               flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
