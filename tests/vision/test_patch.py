"""Cutting an index out: straight from the camera frame through the homography, the patch is the one the canonical
view gives, at the frame's own resolution."""

import math

import cv2
import numpy as np

from vision.canon import Pyramid, canon_homography, level
from vision.patch import PATCH_H, PATCH_W, SCALE, cut, cut_through


def chequer(size: tuple[int, int], cell: int) -> np.ndarray:
    ys, xs = np.mgrid[0:size[1], 0:size[0]]
    return np.where(((xs // cell + ys // cell) % 2)[..., None] == 1, 230, 25).astype(np.uint8).repeat(3, 2)


def test_the_cut_through_the_frame_is_the_cut_of_the_canonical_view():
    table_to_frame = np.array([[700.0, 60.0, 250.0], [-40.0, 690.0, 130.0], [0.02, 0.05, 1.0]])
    frame = cv2.GaussianBlur(chequer((1280, 960), 9), (0, 0), 1.5)
    to_canon = canon_homography(table_to_frame)
    view = cv2.warpPerspective(frame, to_canon, (808, 808), flags=cv2.INTER_LINEAR)
    corner, angle = (400.0, 380.0), 30.0
    from_view = cut(view, corner, angle, scale=1 / SCALE).astype(int)
    from_frame = cut_through(frame, np.linalg.inv(to_canon), corner, angle).astype(int)
    assert from_frame.shape == (PATCH_H, PATCH_W, 3)
    assert np.abs(from_view - from_frame).mean() < 6  # the same picture (two resamplings against one)
    assert np.abs(from_view - cut(view, corner, angle + 90, scale=1 / SCALE)).mean() > 40  # and not any picture


def test_a_fine_frame_is_halved_until_it_is_no_finer_than_asked():
    to_canon = canon_homography(np.array([[2400.0, 0, 200], [0, 2400.0, 100], [0, 0, 1]]))  # 3.3 px per canonical px
    frame = Pyramid(chequer((2880, 2688), 16))
    image, h = level(frame, to_canon, 1.5 * SCALE)
    assert image.shape[:2] == (1344, 1440)
    scale = math.sqrt(abs(np.linalg.det(np.linalg.inv(h)[:2, :2])))
    assert 0.75 < scale <= 1.5 * SCALE
    assert level(frame, to_canon, 1.5 * SCALE)[0] is image  # one halving, made once
