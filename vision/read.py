"""One frame -> the contract of ``shared/table-layout.md``: every physical card once, its name, confidence, centre
(table coordinates when calibrated, else pixels) and seat (by triangle; ``null`` when not calibrated)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np

from vision.calibrate import Calibration, NotCalibrated, calibrate, check_frame
from vision.canon import Pyramid, canon_boxes, canon_homography, canon_small, detail, level
from vision.confidence import Calibration as Confidence
from vision.detect import Card, Cutter, Peak, foreign_mask, found, group, named, regions, white_mask
from vision.geometry import CANON, MARGIN, PX, SEATS, from_canon, seat_of, to_canon
from vision.model import Model
from vision.patch import SCALE, cut, cut_through

NEVER_SURE = Confidence({"2": None, "1": None}, 0.0, "a card unlike the calibrated deck's")
BUSY_PX = 40  # foreign pixels (at 1/4 size, ~1 cm2 each) in a seat's play zone that mean a hand is over it
BARE_PX = 20  # a seat's play zone with fewer card-white or foreign pixels (1/4 size; a card has 200-300) is bare
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
    span: float | None = None  # how far apart its two corner indices lie, px of the detector's view (None: one corner)
    looks: tuple = field(default=(), repr=False, compare=False)  # what the classifier saw in its corners (Model.look)
    coarse: bool = False  # read in a frame coarser than the calibration holds for (``Reading.coarse``): not sure
    indices: tuple = field(default=(), repr=False, compare=False)  # where its corner indices lie (as ``centre``)

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
    bare: dict[str, bool] | None = None  # seats whose play zone shows the felt only (no card-white, no hand)
    detail: float | None = None  # frame px per canonical px at the table's centre (``vision.canon.detail``)
    coarse: bool = False  # coarser than the model's calibration was fitted on: none of its reads is sure

    def seats(self) -> dict[str, list[str]]:
        return {s: [c.name for c in self.cards if c.seat == s] for s in SEATS}

    def as_json(self) -> dict:
        return {"calibrated": self.calibrated, "cards": [c.as_json() for c in self.cards], "seats": self.seats()}

    def to_json(self) -> str:
        return json.dumps(self.as_json(), ensure_ascii=False)


def _order(c: SeenCard) -> tuple:
    return (SEATS.index(c.seat) if c.seat else 0, round(c.centre[0], 3), round(c.centre[1], 3))


Place = Callable[[tuple[float, float]], tuple[tuple[float, float], str | None]]  # a card's centre -> (centre, seat)


def _read(model: Model, corners: list[Peak], cutter: Cutter, place: Place,
          fineness: float | None = None) -> tuple[SeenCard, ...]:
    """One frame's cards from the corner indices the detector found there (``corners``; ``cutter`` cuts them out),
    named by ``model``, placed by ``place``, their confidence calibrated when the model has a calibration (a card
    whose corners disagree counts as seen by one). Under a deck's calibration, a card that is not that deck's
    (``Fingerprint.unlike``: it, or the frame, looks unlike the deck) is ``foreign``. Where the model has a base
    (``Model.base``: the classifier it was trained from), the base reads the foreign cards' corner indices (every
    one of a frame that shows another deck) exactly as it reads out of the box, under its own calibration; without
    a base, or a base's calibration, a foreign read's confidence is what a calibration that marks nothing sure
    gives it. A frame coarser (``fineness``: its ``detail``) than a calibration holds for (``Confidence.holds_at``)
    is read as under one that marks nothing sure. The deck's own cards cost no more."""
    cards = group(named(model, corners, cutter))
    calibration = getattr(model, "calibration", None)
    own = calibration if _holds(model, fineness) else NEVER_SURE
    deck = calibration.deck if calibration else None
    looks = [(c.name, tuple(d.feature for d in c.corners)) for c in cards]
    foreign = deck.unlike(looks, [_span(c) for c in cards]) if deck else [False] * len(cards)
    base = getattr(model, "base", None)
    if base is None or not any(foreign):
        return _seen(cards, place, [NEVER_SURE if far else own for far in foreign], foreign)
    theirs = {d.corner for c, far in zip(cards, foreign) if far for d in c.corners}
    again = _read(base, corners if all(foreign) else [p for p in corners if p.corner in theirs], cutter, place,
                  fineness)
    mine = [c for c, far in zip(cards, foreign) if not far]
    unsure = base.calibration is None
    return _seen(mine, place, [own] * len(mine), [False] * len(mine)) + tuple(
        replace(c, foreign=True, confidence=NEVER_SURE.confidence(c.raw, c.corners) if unsure else c.confidence)
        for c in again)


def _span(card: Card) -> float | None:
    """How far apart the card's two corner indices lie, px (None: named by one, or by two that disagree)."""
    if len(card.corners) != 2 or card.conflict:
        return None
    (ax, ay), (bx, by) = (d.corner for d in card.corners)
    return float(np.hypot(ax - bx, ay - by))


def _seen(cards: list[Card], place: Place, calibrations: list[Confidence | None],
          foreign: list[bool]) -> tuple[SeenCard, ...]:
    """``cards`` as read, each one's confidence under its calibration (None: its raw belief)."""
    out = []
    for c, calibration, far in zip(cards, calibrations, foreign):
        corners = 1 if c.conflict else len(c.corners)
        conf = c.confidence if calibration is None else calibration.confidence(c.confidence, corners)
        out.append(SeenCard(c.name, conf, *place(c.centre), c.conflict, c.confidence, corners, far, _span(c),
                            tuple(d.feature for d in c.corners), indices=tuple(place(d.corner)[0] for d in c.corners)))
    return tuple(out)


def read_frame(image: np.ndarray, model: Model, calibration: Calibration | None = None) -> Reading:
    """Read one decoded BGR frame. Calibrates on the frame itself unless ``calibration`` is given; a frame without
    the four markers is read in its own pixels (``calibrated`` false, ``problem`` says why). A frame that shows the
    table coarser than the model's confidence was calibrated on is ``coarse``: none of its reads is sure. A frame
    that is not one (``vision.calibrate.usable``) is refused in words (``UnusableFrame``)."""
    check_frame(image)
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
        seen = _read(model, found(model, crop, [(0, 0, crop.shape[1], crop.shape[0])]),
                     lambda corner, angle: cut(crop, corner, angle, scale=1 / SCALE), lambda centre: (centre, None))
        coarse = not _holds(model, None)
        seen = tuple(replace(c, coarse=True) for c in seen) if coarse else seen
        return Reading(False, tuple(sorted(seen, key=_order)), None, problem, coarse=coarse)
    to_canon_h = canon_homography(calibration.homography)
    fineness = detail(to_canon_h)
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
    seen = _read(model, found(model, view, boxes),
                 lambda corner, angle: cut_through(fine, fine_from_canon, corner, angle),
                 lambda centre: (at := from_canon(centre), seat_of(at)), fineness)
    over = foreign_mask(small, white)
    busy = {s: int((over & zone).sum()) >= BUSY_PX for s, zone in play_zones().items()}
    bare = {s: int(((white | over) & zone).sum()) < BARE_PX for s, zone in play_zones().items()}
    coarse = not _holds(model, fineness)
    seen = tuple(replace(c, coarse=True) for c in seen) if coarse else seen
    return Reading(True, tuple(sorted(seen, key=_order)), calibration, busy=busy, bare=bare, detail=fineness,
                   coarse=coarse)


def _holds(model: Model, fineness: float | None) -> bool:
    """Does the model's calibration (if any) hold at a frame of this ``detail`` (None: not known)?"""
    calibration = getattr(model, "calibration", None)
    return calibration is None or calibration.holds_at(fineness)


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
