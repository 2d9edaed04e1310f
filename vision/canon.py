"""The canonical top-down view: a frame warped so the table's marker square is ``PX`` px a side; at run time only
its 1/4-size version (where the cards are) and the boxes around the cards are warped."""

from __future__ import annotations

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


def canon_small(image: np.ndarray, to_canon: np.ndarray) -> np.ndarray:
    """The canonical view at 1/4 size (``CANON // 4`` px a side) straight from the frame, much as the whole view's
    4 x 4 averages: frames wider than ``HALVE_ABOVE`` px are halved first (pixel areas averaged), then each pixel
    samples the frame where the centre of its 4 x 4 block of the view lies."""
    scale = 2 if image.shape[1] > HALVE_ABOVE else 1
    h, w = image.shape[:2]
    level = image if scale == 1 else cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    side = CANON // 4
    small_to_canon = np.array([[4, 0, 1.5], [0, 4, 1.5], [0, 0, 1]])
    frame_to_level = np.array([[1 / scale, 0, 0.5 / scale - 0.5], [0, 1 / scale, 0.5 / scale - 0.5], [0, 0, 1]])
    return cv2.warpPerspective(level, frame_to_level @ np.linalg.inv(to_canon) @ small_to_canon, (side, side),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


def canon_boxes(image: np.ndarray, to_canon: np.ndarray, boxes: list[tuple[int, int, int, int]],
                margin: int) -> np.ndarray:
    """The canonical view warped only inside ``boxes`` (x0, y0, x1, y1) grown by ``margin`` px, black elsewhere:
    there the pixels of the whole view, for a fraction of the work."""
    view = np.zeros((CANON, CANON, 3), np.uint8)
    for x0, y0, x1, y1 in boxes:
        x0, y0, x1, y1 = max(0, x0 - margin), max(0, y0 - margin), min(CANON, x1 + margin), min(CANON, y1 + margin)
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]])
        view[y0:y1, x0:x1] = cv2.warpPerspective(image, shift @ to_canon, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                                 borderMode=cv2.BORDER_REPLICATE)
    return view
