"""One frame -> the contract of ``shared/table-layout.md``: every physical card once, its name, confidence, centre
(table coordinates when calibrated, else pixels) and seat (by triangle; ``null`` when not calibrated)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from vision.calibrate import Calibration, NotCalibrated, calibrate
from vision.canon import Pyramid, canon_boxes, canon_homography, canon_small, level
from vision.confidence import Calibration as Confidence
from vision.detect import Card, detections, foreign_mask, group, regions, white_mask
from vision.geometry import CANON, MARGIN, PX, SEATS, from_canon, seat_of, to_canon
from vision.model import Model
from vision.patch import SCALE, cut_through

NEVER_SURE = Confidence({"2": None, "1": None}, 0.0, "a card unlike the calibrated deck's")
BUSY_PX = 40  # foreign pixels (at 1/4 size, ~1 cm2 each) in a seat's play zone that mean a hand is over it
EDGE = 0.12  # the strip along each edge where arms rest is not part of the play zone


@dataclass(frozen=True)
class SeenCard:
    name: str
    confidence: float
    centre: tuple[float, float]
    seat: str | None
    conflict: bool = False
    raw: float | None = None  # the classifier's own belief, before calibration (``vision.confidence``)
    corners: int = 1  # corner indices that named it
    foreign: bool = False  # it does not look like the deck the calibration is for (``vision.fingerprint``)
    looks: tuple = field(default=(), repr=False, compare=False)  # what the classifier saw in its corners (Model.look)

    def as_json(self) -> dict:
        return {"card": self.name, "confidence": round(self.confidence, 3),
                "center": [round(self.centre[0], 3), round(self.centre[1], 3)], "seat": self.seat}


@dataclass(frozen=True)
class Reading:
    calibrated: bool
    cards: tuple[SeenCard, ...]
    calibration: Calibration | None = None
    problem: NotCalibrated | None = None  # why the frame is not calibrated
    busy: dict[str, bool] | None = None  # seats with a hand (or anything else) over their play zone

    def seats(self) -> dict[str, list[str]]:
        return {s: [c.name for c in self.cards if c.seat == s] for s in SEATS}

    def as_json(self) -> dict:
        return {"calibrated": self.calibrated, "cards": [c.as_json() for c in self.cards], "seats": self.seats()}

    def to_json(self) -> str:
        return json.dumps(self.as_json(), ensure_ascii=False)


def _order(c: SeenCard) -> tuple:
    return (SEATS.index(c.seat) if c.seat else 0, round(c.centre[0], 3), round(c.centre[1], 3))


def _seen(model: Model, cards: list[Card], places: list[tuple[tuple[float, float], str | None]]) -> tuple[SeenCard, ...]:
    """One frame's cards as read (``places``: each one's centre and seat), their confidence calibrated when the model
    has a calibration (a card whose corners disagree counts as seen by one). Under a deck's calibration, a card that
    is not that deck's (``Fingerprint.unlike``: it, or the frame, looks unlike the deck) is never sure: its confidence
    is what a calibration that marks nothing sure gives it (``foreign``)."""
    calibration = getattr(model, "calibration", None)
    deck = calibration.deck if calibration else None
    looks = [tuple(d.feature for d in c.corners) for c in cards]
    foreign = deck.unlike([(c.name, lk) for c, lk in zip(cards, looks)]) if deck else [False] * len(cards)
    out = []
    for c, (centre, seat), lk, far in zip(cards, places, looks, foreign):
        corners = 1 if c.conflict else len(c.corners)
        conf = c.confidence if calibration is None else (NEVER_SURE if far else calibration).confidence(c.confidence,
                                                                                                       corners)
        out.append(SeenCard(c.name, conf, centre, seat, c.conflict, c.confidence, corners, far, lk))
    return tuple(out)


def read_frame(image: np.ndarray, model: Model, calibration: Calibration | None = None) -> Reading:
    """Read one decoded BGR frame. Calibrates on the frame itself unless ``calibration`` is given; a frame without
    the four markers is read in its own pixels (``calibrated`` false, ``problem`` says why)."""
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 32:
        raise ValueError(f"not a colour image: {None if image is None else image.shape}")
    problem = None
    if calibration is None:
        try:
            calibration = calibrate(image)
        except NotCalibrated as e:
            problem = e
    if calibration is None:
        h, w = image.shape[:2]
        crop = image[: h // 8 * 8, : w // 8 * 8]
        # without the table, nothing says the background is darker than the cards: search the whole frame
        cards = group(detections(model, crop, [(0, 0, crop.shape[1], crop.shape[0])]))
        seen = _seen(model, cards, [(c.centre, None) for c in cards])
        return Reading(False, tuple(sorted(seen, key=_order)), None, problem)
    to_canon_h = canon_homography(calibration.homography)
    frame = Pyramid(image)
    small = canon_small(frame, to_canon_h)
    white = white_mask(small)
    boxes = regions(white, [to_canon(p) for p in ((0, 0), (1, 0), (1, 1), (0, 1))])
    # the detector reads the view at the canonical scale, from a frame halved while it has more than 1.5 px per
    # canonical px; the index cuts read the frame itself at up to 1.5 px per patch px (halved, were it finer)
    coarse, coarse_to_canon = level(frame, to_canon_h, 1.5)
    view = canon_boxes(coarse, coarse_to_canon, boxes)  # the detector reads only there
    fine, fine_to_canon = level(frame, to_canon_h, 1.5 * SCALE)
    fine_from_canon = np.linalg.inv(fine_to_canon)
    cards: list[Card] = group(detections(model, view, boxes,
                                         lambda corner, angle: cut_through(fine, fine_from_canon, corner, angle)))
    over = foreign_mask(small, white)
    busy = {s: int((over & zone).sum()) >= BUSY_PX for s, zone in play_zones().items()}
    centres = [from_canon(c.centre) for c in cards]
    seen = _seen(model, cards, [(centre, seat_of(centre)) for centre in centres])
    return Reading(True, tuple(sorted(seen, key=_order)), calibration, busy=busy)


@cache
def play_zones() -> dict[str, np.ndarray]:
    """Each seat's triangle at 1/4 of the canonical view, less the strip along the edge where arms rest."""
    n = CANON // 4
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float32) * 4 + 1.5
    x, y = (xs - MARGIN) / PX, (ys - MARGIN) / PX
    dist = {"S": 1 - y, "E": 1 - x, "N": y, "W": x}
    inside = (x >= 0) & (x <= 1) & (y >= 0) & (y <= 1)
    return {s: (inside & (dist[s] <= np.minimum.reduce([dist[o] for o in SEATS])) & (dist[s] > EDGE)).astype(np.uint8)
            for s in SEATS}
