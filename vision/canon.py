"""The canonical top-down view: a frame warped so the table's marker square is ``PX`` px a side; at run time only
its 1/4-size version (where the cards are) and the boxes around the cards are warped."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.geometry import CANON, canon_from_table

HALVE_ABOVE = 1000  # px: wider frames are halved before the 1/4-size view is sampled from them


def canon_homography(table_to_image: np.ndarray, zoom: float = 1.0) -> np.ndarray:
    """Frame pixels -> canonical pixels (``zoom`` scales about the view's centre, for training)."""
    z = np.array([[zoom, 0, CANON / 2 * (1 - zoom)], [0, zoom, CANON / 2 * (1 - zoom)], [0, 0, 1]])
    return z @ canon_from_table() @ np.linalg.inv(table_to_image)


def canon_view(image: np.ndarray, table_to_image: np.ndarray, zoom: float = 1.0) -> np.ndarray:
    return cv2.warpPerspective(image, canon_homography(table_to_image, zoom), (CANON, CANON), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


class Pyramid:
    """A frame and its halvings (pixel areas averaged), each made once, when first asked for."""

    def __init__(self, image: np.ndarray) -> None:
        self._levels = [image]

    def __getitem__(self, k: int) -> np.ndarray:
        while len(self._levels) <= k:
            h, w = self._levels[-1].shape[:2]
            self._levels.append(cv2.resize(self._levels[-1], (w // 2, h // 2), interpolation=cv2.INTER_AREA))
        return self._levels[k]


def halving(k: int) -> np.ndarray:
    """Pixels of a frame halved ``k`` times -> the frame's pixels."""
    s = 2 ** k
    return np.array([[s, 0, (s - 1) / 2], [0, s, (s - 1) / 2], [0, 0, 1]], np.float64)


def canon_small(frame: Pyramid, to_canon: np.ndarray) -> np.ndarray:
    """The canonical view at 1/4 size (``CANON // 4`` px a side) straight from the frame, much as the whole view's
    4 x 4 averages: the frame halved until it is at most ``HALVE_ABOVE`` px wide, then each pixel samples it where
    the centre of its 4 x 4 block of the view lies."""
    k = 0
    while frame[0].shape[1] / 2 ** k > HALVE_ABOVE:
        k += 1
    side = CANON // 4
    small_to_canon = np.array([[4, 0, 1.5], [0, 4, 1.5], [0, 0, 1]])
    return cv2.warpPerspective(frame[k], np.linalg.inv(halving(k)) @ np.linalg.inv(to_canon) @ small_to_canon,
                               (side, side), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def detail(to_canon: np.ndarray) -> float:
    """Frame px per canonical px at the table's centre (``to_canon``: frame px -> canonical px), the square root of
    the homography's local area scale there: about 1 for a 1280 x 960 camera, 2 for a 2560 x 1920 one.

    >>> round(detail(np.diag([0.5, 0.5, 1.0])), 3)
    2.0
    """
    x = y = CANON / 2
    pts = cv2.perspectiveTransform(np.array([[[x, y], [x + 1, y], [x, y + 1]]], np.float64), np.linalg.inv(to_canon))[0]
    (ax, ay), (bx, by) = pts[1] - pts[0], pts[2] - pts[0]
    return math.sqrt(abs(ax * by - ay * bx))


def level(frame: Pyramid, to_canon: np.ndarray, most: float) -> tuple[np.ndarray, np.ndarray]:
    """The frame halved until it has at most ``most`` px per canonical px at the table's centre (linear sampling
    of a finer image would alias), and the homography from it to the canonical view.

    >>> image, h = level(Pyramid(np.zeros((1920, 2560, 3), np.uint8)), np.diag([0.4, 0.4, 1.0]), 1.5)
    >>> image.shape, h.round(2).tolist()
    ((960, 1280, 3), [[0.8, 0.0, 0.2], [0.0, 0.8, 0.2], [0.0, 0.0, 1.0]])
    """
    k = 0
    while detail(to_canon @ halving(k)) > most and min(frame[0].shape[:2]) >> (k + 1) >= 32:
        k += 1
    return frame[k], to_canon @ halving(k)


def canon_boxes(image: np.ndarray, to_canon: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> np.ndarray:
    """The canonical view warped only inside ``boxes`` (x0, y0, x1, y1), black elsewhere: there the pixels of the
    whole view, for a fraction of the work."""
    view = np.zeros((CANON, CANON, 3), np.uint8)
    for x0, y0, x1, y1 in boxes:
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(CANON, x1), min(CANON, y1)
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]])
        view[y0:y1, x0:x1] = cv2.warpPerspective(image, shift @ to_canon, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                                 borderMode=cv2.BORDER_REPLICATE)
    return view
