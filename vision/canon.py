"""The canonical top-down view: a frame warped so the table's marker square is ``PX`` px a side."""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import CANON, canon_from_table


def canon_homography(table_to_image: np.ndarray, zoom: float = 1.0) -> np.ndarray:
    """Frame pixels -> canonical pixels (``zoom`` scales about the view's centre, for training)."""
    z = np.array([[zoom, 0, CANON / 2 * (1 - zoom)], [0, zoom, CANON / 2 * (1 - zoom)], [0, 0, 1]])
    return z @ canon_from_table() @ np.linalg.inv(table_to_image)


def canon_view(image: np.ndarray, table_to_image: np.ndarray, zoom: float = 1.0) -> np.ndarray:
    return cv2.warpPerspective(image, canon_homography(table_to_image, zoom), (CANON, CANON), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
