"""Real printed cards for the held-out tables: faces cut out of the real photographs of
``shared/data/real-photos-edje`` (Apache 2.0; evaluation only, never trained on), so that a frame shows the print,
wear, light and lens of a real deck rather than anything drawn here.

``CUTS`` lists the cards cut out: a photo, the labelled box's place among that photo's rows of ``labels.csv`` and
the card's full name (the labels give the rank only; the suit was named by looking, in the session that chose the
cuts). Only cards whose box overlaps no other box, whose white outline the cut finds as a four-sided shape of a
card's proportions, and which are neither cropped by the photo's edge nor blurred by a moving hand were taken: 32
cuts of 18 cards (9 to A; no 9H, 9D, TD, AC, QH or KS lies free in the photos). ``face`` warps one upright to a
63 x 88 mm card at the resolution asked for; its index (rank over suit, a standard deck's) lies in ``INDEX_MM``.

The photos are small (a card about 120 x 170 px: 1.9 px per mm), so a face is as sharp as a 2560 x 1920 camera
sees a card and no sharper: at that size these frames are a little softer than the camera would give.

>>> len(CUTS), len({card for *_, card in CUTS})
(32, 18)
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

import cv2
import numpy as np

PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-photos-edje"
SIZE_MM = (63.0, 88.0)
INDEX_MM = (2.0, 2.5, 9.0, 17.0)  # the top-left index's ink box (x0, y0, x1, y1), mm: rank 2.5-10, suit 11-17
CUTS = (
    ("IMG_2383.JPG", 0, "HA"), ("IMG_2384.JPG", 0, "CK"), ("IMG_2391.JPG", 0, "S9"), ("IMG_2395.JPG", 0, "CT"),
    ("IMG_2403.JPG", 0, "HJ"), ("IMG_2433.JPG", 0, "SQ"), ("IMG_2435.JPG", 0, "C9"), ("IMG_2436.JPG", 0, "SJ"),
    ("IMG_2461.JPG", 0, "ST"), ("IMG_2476.JPG", 0, "SA"), ("IMG_2531.JPG", 0, "DJ"), ("IMG_2560.JPG", 0, "CT"),
    ("IMG_2560.JPG", 1, "SQ"), ("IMG_2560.JPG", 2, "DQ"), ("IMG_2560.JPG", 3, "CK"), ("IMG_2561.JPG", 1, "S9"),
    ("IMG_2561.JPG", 2, "DK"), ("IMG_2561.JPG", 3, "DA"), ("IMG_2564.JPG", 1, "DQ"), ("IMG_2564.JPG", 2, "HT"),
    ("IMG_2568.JPG", 0, "HK"), ("IMG_2583.JPG", 0, "C9"), ("IMG_2583.JPG", 2, "HJ"), ("IMG_2585.JPG", 2, "SJ"),
    ("IMG_2585.JPG", 3, "CT"), ("IMG_2592.JPG", 1, "CQ"), ("IMG_2594.JPG", 0, "DQ"), ("IMG_2594.JPG", 1, "CT"),
    ("cam_image4.jpg", 1, "CJ"), ("cam_image4.jpg", 3, "DJ"), ("cam_image45.jpg", 0, "SJ"),
    ("cam_image45.jpg", 2, "DK"),
)


class PhotoMissing(FileNotFoundError):
    """The real photographs are not where the shared data lies."""


@cache
def _rows(filename: str) -> list[tuple[int, int, int, int]]:
    labels = PHOTOS / "labels.csv"
    if not labels.is_file():
        raise PhotoMissing(f"the real photos' labels are missing: {labels}")
    with open(labels) as fh:
        return [tuple(int(r[k]) for k in ("xmin", "ymin", "xmax", "ymax")) for r in csv.DictReader(fh)
                if r["filename"] == filename]


def outline(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The four corners (image px, clockwise on the image) of the card's white outline inside ``box``: the largest
    bright shape there (Otsu on the darkest channel), simplified to four sides, each pushed out 1% from the centre
    (the simplification cuts the rounded corners)."""
    x0, y0, x1, y1 = box
    m = 4
    bx, by = max(0, x0 - m), max(0, y0 - m)
    crop = image[by:min(image.shape[0], y1 + m), bx:min(image.shape[1], x1 + m)]
    white = cv2.threshold(cv2.GaussianBlur(crop.min(2), (5, 5), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]
    white = cv2.morphologyEx(white, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    shapes, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not shapes:
        raise ValueError(f"no card outline in box {box}")
    hull = cv2.convexHull(max(shapes, key=cv2.contourArea))
    around = cv2.arcLength(hull, True)
    for eps in (0.01, 0.015, 0.02, 0.03, 0.04, 0.05):
        quad = cv2.approxPolyDP(hull, eps * around, True)
        if len(quad) == 4:
            break
    else:
        raise ValueError(f"no four-sided card outline in box {box}")
    q = quad[:, 0].astype(np.float32)
    centre = q.mean(0)
    q = q[np.argsort(np.arctan2(q[:, 1] - centre[1], q[:, 0] - centre[0]))]
    return centre + (q - centre) * 1.01 + np.float32([bx, by])


@cache
def face(filename: str, row: int, res: float) -> np.ndarray:
    """The card of ``row`` (its place among ``filename``'s labels) cut out upright at ``res`` px per mm, BGR, the long
    side down the face (``decks.face`` rounds its corners)."""
    image = cv2.imread(str(PHOTOS / filename))
    if image is None:
        raise PhotoMissing(f"a real photo is missing or unreadable: {PHOTOS / filename}")
    q = outline(image, _rows(filename)[row])
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, 1, 0)  # start the outline at a corner of a short side
    w, h = round(SIZE_MM[0] * res), round(SIZE_MM[1] * res)
    to = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return cv2.warpPerspective(image, to, (w, h), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
