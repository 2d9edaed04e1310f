"""Calibration from the four ArUco markers (``DICT_4X4_50``, ids 0..3 at the table corners), done on every frame.

The markers' centres are table coordinates (0,0), (1,0), (1,1), (0,1); their image positions give the homography
table -> image. A frame without all four markers is not calibrated (:class:`NotCalibrated` says which are missing);
:func:`unmoved` tells one marker covered (an arm) from a camera moved.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from referee.catalogue import Refusal, Term
from vision.canon import canon_homography, detail

TABLE_POINTS = {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (1.0, 1.0), 3: (0.0, 1.0)}
MOVED = 0.2  # a marker whose centre moved more than this share of its side: the camera moved
MIN_SIDE = 32  # px: a frame narrower or lower than this shows no table (an empty frame, a broken file or camera)
MAX_PIXELS = 50_000_000  # a frame larger is no table camera's (8K is 33 MP; a phone's 48 MP photo fits): read in its pixels, without the markers,
# it took gigabytes and minutes (12000 x 9000: 7 GB, 54 s), which a hostile or broken file or stream must not cost


class NotCalibrated(Refusal):
    """The frame does not show the four table markers."""

    section = "vision.error"


class UnusableFrame(Refusal, ValueError):
    """Not a frame to read: not a colour picture, under ``MIN_SIDE`` px on a side, or over ``MAX_PIXELS``."""

    section = "vision.error"


def usable(image: np.ndarray | None) -> bool:
    """Whether ``image`` is a frame to read: a colour (BGR) picture of at least ``MIN_SIDE`` px a side, of
    ``MAX_PIXELS`` at most.

    >>> usable(np.zeros((960, 1280, 3), np.uint8)), usable(np.zeros((0, 0, 3), np.uint8)), usable(None)
    (True, False, False)
    """
    return (image is not None and image.ndim == 3 and image.shape[2] == 3 and min(image.shape[:2]) >= MIN_SIDE
            and image.shape[0] * image.shape[1] <= MAX_PIXELS)


def check_frame(image: np.ndarray | None) -> None:
    """:class:`UnusableFrame`, saying its size, unless ``image`` is ``usable``."""
    if not usable(image):
        height, width = (0, 0) if image is None else image.shape[:2]
        raise UnusableFrame("frame", width=width, height=height, least=MIN_SIDE, most=f"{MAX_PIXELS / 1e6:g}")


@dataclass(frozen=True)
class Calibration:
    homography: np.ndarray  # table coordinates -> image pixels
    markers: dict[int, tuple[float, float]]  # marker id -> centre in the image

    def to_table(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), np.linalg.inv(self.homography)).reshape(-1, 2)

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), self.homography).reshape(-1, 2)

    @property
    def detail(self) -> float:
        """How finely this frame sees the table: its px per canonical px at the table's centre (``vision.canon.detail``),
        which a confidence calibration holds down to (``vision.confidence.Calibration.holds_at``)."""
        return detail(canon_homography(self.homography))

    def __repr__(self) -> str:
        return f"Calibration(markers={ {k: tuple(round(v, 1) for v in p) for k, p in sorted(self.markers.items())} })"


@cache
def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax, params.adaptiveThreshWinSizeStep = 7, 27, 10
    params.minDistanceToBorder = 0  # else a marker whose dark surround reaches the frame's edge is dropped
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The table markers found: id -> its four corners in the image (ids outside 0..3 are ignored). Frames wider
    than 1000 px are searched at half size first (4x fewer pixels), then at full size if a marker is missing."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found: dict[int, np.ndarray] = {}
    for scale in ((2, 1) if gray.shape[1] > 1000 else (1,)):
        small = cv2.resize(gray, (gray.shape[1] // scale, gray.shape[0] // scale), interpolation=cv2.INTER_AREA) if scale > 1 else gray
        corners, ids, _ = _detector().detectMarkers(small)
        for c, i in zip(corners, [] if ids is None else ids.ravel()):
            if int(i) in TABLE_POINTS and int(i) not in found:
                found[int(i)] = (c.reshape(4, 2) + 0.5) * scale - 0.5
        if len(found) == len(TABLE_POINTS):
            break
    if found:  # corners to sub-pixel precision on the full frame
        ids = sorted(found)
        pts = np.concatenate([found[i] for i in ids]).astype(np.float32).reshape(-1, 1, 2)
        pts = cv2.cornerSubPix(gray, pts, (3, 3), (-1, -1), (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 0.05))
        found = {i: pts[4 * k:4 * k + 4].reshape(4, 2).astype(np.float64) for k, i in enumerate(ids)}
    return found


def marker_centre(corners: np.ndarray) -> tuple[float, float]:
    """Where the diagonals cross: the centre of the printed square under any perspective.

    >>> marker_centre(np.array([[0, 0], [4, 0], [4, 4], [0, 4]], float))
    (2.0, 2.0)
    """
    (x1, y1), (x2, y2), (x3, y3), (x4, y4) = corners
    d = (x1 - x3) * (y2 - y4) - (y1 - y3) * (x2 - x4)
    if abs(d) < 1e-9:
        return tuple(float(v) for v in corners.mean(0))
    a, b = x1 * y3 - y1 * x3, x2 * y4 - y2 * x4
    return (float((a * (x2 - x4) - (x1 - x3) * b) / d), float((a * (y2 - y4) - (y1 - y3) * b) / d))


def unmoved(cal: Calibration, markers: dict[int, np.ndarray]) -> bool:
    """Whether a frame's ``markers`` (``find_markers``), all four or not, show the table where ``cal`` has it: three
    or more found, each centre within :data:`MOVED` of its side from where ``cal`` has it. One marker covered (an arm
    on a corner) is not the camera moved; with two covered the camera is not judged unmoved.

    >>> cal = Calibration(np.eye(3), {0: (10.0, 10.0), 1: (110.0, 10.0), 2: (110.0, 110.0), 3: (10.0, 110.0)})
    >>> def square(x, y, side=20.0):
    ...     return np.array([[x - side / 2, y - side / 2], [x + side / 2, y - side / 2], [x + side / 2, y + side / 2],
    ...                      [x - side / 2, y + side / 2]])
    >>> unmoved(cal, {0: square(10, 10), 1: square(111, 10), 3: square(10, 112)})  # 2 covered, 1-2 px of noise
    True
    >>> unmoved(cal, {0: square(16, 10), 1: square(116, 10), 3: square(16, 110)})  # all moved 6 px: bumped
    False
    >>> unmoved(cal, {0: square(10, 10), 1: square(110, 10)})  # two covered: not judged
    False
    """
    if len(markers) < 3:
        return False
    for i, corners in markers.items():
        side = float(np.mean([np.linalg.norm(corners[k] - corners[(k + 1) % 4]) for k in range(4)]))
        x, y = marker_centre(corners)
        if i not in cal.markers or np.hypot(x - cal.markers[i][0], y - cal.markers[i][1]) > MOVED * side:
            return False
    return True


def calibrate(image: np.ndarray, markers: dict[int, np.ndarray] | None = None) -> Calibration:
    """The frame's calibration from its four markers (``markers``: those ``find_markers`` found in it already);
    :class:`UnusableFrame` for a frame that is not ``usable``."""
    check_frame(image)
    markers = find_markers(image) if markers is None else markers
    missing = sorted(set(TABLE_POINTS) - set(markers))
    if missing:
        raise NotCalibrated("markers", missing=missing, found=sorted(markers) or Term("vision.none"))
    centres = {i: marker_centre(c) for i, c in markers.items()}
    src = np.float32([TABLE_POINTS[i] for i in range(4)])
    dst = np.float32([centres[i] for i in range(4)])
    return Calibration(cv2.getPerspectiveTransform(src, dst).astype(np.float64), centres)
