"""Enrolling a deck from photos of it laid out on the table: the 54 faces in rows, in the order ``ORDER`` (rows of
``COLUMNS``, from the table's north edge southwards, each row west to east), in 1-4 frames of the table's camera
(the cards continue from one frame to the next). Every card is found as a card-white shape on the darker felt (in
the table's top-down view when the four markers show, so the camera's tilt is undone), named by its place in the
order and cut out flat at the frame's own resolution; ``read_back`` then reads the frames with the enrolled model
and ``pictures`` draws, on each frame, what it read at every laid card.

>>> len(ORDER), ORDER[:3], ORDER[-2:]
(54, ('S2', 'S3', 'S4'), ('BJ', 'LJ'))
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from referee.catalogue import say
from vision.calibrate import Calibration, NotCalibrated, calibrate
from vision.detect import white_mask
from vision.geometry import CARD_H, CARD_W
from vision.model import ALL_CARDS
from vision.train.deck import DeckError

ORDER = ALL_CARDS
COLUMNS = 9
CARD_SHAPE = (0.55, 0.8)  # width over height of anything taken for a card: bridge (0.65) and poker (0.72) cards
ERODE = 3  # px at half the view's size
MARKER_REACH = 0.06  # table units from a marker's centre to the edge of its white surround (and a little more)
TOP_PX = 1440  # px per table unit of the top-down view the cards are found in (about 2 px per mm)


@dataclass(frozen=True)
class Laid:
    """One laid card: its name, the frame it is in, its corners in that frame (top left, top right, bottom right,
    bottom left of the upright card, px) and its face cut out flat (BGR)."""
    card: str
    frame: int
    corners: np.ndarray
    face: np.ndarray

    @property
    def centre(self) -> tuple[float, float]:
        x, y = self.corners.mean(0)
        return float(x), float(y)

    def __repr__(self) -> str:
        x, y = self.centre
        return f"Laid({self.card!r}, frame={self.frame}, centre=({x:.0f}, {y:.0f}))"


def order_text(lang: str) -> str:
    """The order to lay the deck in, as ``cardtable vision deck --order`` prints it, in the command line's language."""
    rows = [" ".join(ORDER[i:i + COLUMNS]) for i in range(0, len(ORDER), COLUMNS)]
    return "\n".join([say(lang, "vision.deck_order", cards=len(ORDER), columns=COLUMNS), *rows])


def card_quads(image: np.ndarray) -> tuple[list[np.ndarray], Calibration | None]:
    """The cards lying in ``image``, each as its corners in the image (upright card: top left, top right, bottom
    right, bottom left), in the order they were laid; and the table's calibration when the markers show."""
    try:
        calibration = calibrate(image)
    except NotCalibrated:
        calibration = None
    if calibration is not None:  # find them in the top-down view of the marker square
        lo, hi = -0.05, 1.05
        size = round((hi - lo) * TOP_PX)
        to_view = np.array([[TOP_PX, 0, -lo * TOP_PX], [0, TOP_PX, -lo * TOP_PX], [0, 0, 1]]) @ np.linalg.inv(
            calibration.homography)
        view = cv2.warpPerspective(image, to_view, (size, size), flags=cv2.INTER_AREA)
        for mx, my in ((0, 0), (1, 0), (1, 1), (0, 1)):  # the markers' white surrounds are no card
            x0, y0 = round((mx - lo - MARKER_REACH) * TOP_PX), round((my - lo - MARKER_REACH) * TOP_PX)
            side = round(2 * MARKER_REACH * TOP_PX)
            view[max(0, y0):y0 + side, max(0, x0):x0 + side] = 0
        expected = CARD_W * CARD_H * TOP_PX ** 2
    else:
        to_view, view, expected = np.eye(3), image, None
    quads = shapes(view, expected)
    back = np.linalg.inv(to_view)
    return [cv2.perspectiveTransform(q[None].astype(np.float64), back)[0] for q in reading_order(quads)], calibration


def shapes(view: np.ndarray, expected: float | None) -> list[np.ndarray]:
    """Card-white shapes of a card's proportions in ``view`` (corners as ``card_quads``), about ``expected`` px in
    area (when not known: the median of what is found)."""
    small = cv2.resize(view, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    white = cv2.morphologyEx(white_mask(small), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    outlines, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    white = cv2.drawContours(np.zeros_like(white), outlines, -1, 1, -1)  # filled: a court's framed picture too
    # shrunk by ERODE px, so that cards laid nearly touching come apart, then grown back
    white = cv2.erode(white, np.ones((2 * ERODE + 1, 2 * ERODE + 1), np.uint8))
    contours, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for c in contours:
        (cx, cy), (w, h), angle = cv2.minAreaRect(c)
        if min(w, h) < 8 or cv2.contourArea(cv2.convexHull(c)) < 0.9 * w * h:  # (ink at its edge leaves notches)
            continue
        w, h = w + 2 * ERODE, h + 2 * ERODE
        if not CARD_SHAPE[0] <= min(w, h) / max(w, h) <= CARD_SHAPE[1]:
            continue
        found.append((cv2.boxPoints(((cx, cy), (w, h), angle)) * 2, 4 * w * h))
    if not found:
        return []
    typical = expected or float(np.median([a for _, a in found]))
    return [upright(q) for q, a in found if 0.55 * typical <= a <= 1.6 * typical]


def upright(box: np.ndarray) -> np.ndarray:
    """A rectangle's corners ordered as an upright card's (portrait, its top edge the upper of its short edges)."""
    box = np.asarray(box, np.float64)
    centre = box.mean(0)
    box = box[np.argsort(np.arctan2(box[:, 1] - centre[1], box[:, 0] - centre[0]))]  # clockwise from the left
    for k in range(4):
        c = np.roll(box, -k, 0)
        short_top = np.linalg.norm(c[1] - c[0]) <= np.linalg.norm(c[3] - c[0])
        if short_top and (c[0][1] + c[1][1]) <= (c[2][1] + c[3][1]):
            return c
    return box


def reading_order(quads: list[np.ndarray]) -> list[np.ndarray]:
    """``quads`` in rows from the top down, each row left to right: a new row begins where a card's centre lies more
    than half a card's height below the row's first."""
    if not quads:
        return []
    height = float(np.median([np.linalg.norm(q[3] - q[0]) for q in quads]))
    rest = sorted(quads, key=lambda q: q.mean(0)[1])
    rows: list[list[np.ndarray]] = []
    for q in rest:
        if rows and q.mean(0)[1] - rows[-1][0].mean(0)[1] < height / 2:
            rows[-1].append(q)
        else:
            rows.append([q])
    return [q for row in rows for q in sorted(row, key=lambda q: q.mean(0)[0])]


def flat(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card at ``corners`` cut out flat and upright at the frame's own resolution (BGR)."""
    w = (np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])) / 2
    h = (np.linalg.norm(corners[3] - corners[0]) + np.linalg.norm(corners[2] - corners[1])) / 2
    size = (max(8, round(w)), max(8, round(h)))
    target = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(np.float32(corners), target), size,
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def photos_detail(frames: list[np.ndarray]) -> float | None:
    """The least detail (``vision.canon.detail``) of the photos that show the table's markers (None: none does):
    the venue camera's, at which the enrolment's confidence is fitted (``vision.train.sure.at_detail``)."""
    found = []
    for frame in frames:
        try:
            found.append(calibrate(frame).detail)
        except NotCalibrated:
            continue
    return min(found, default=None)


def laid_out(frames: list[np.ndarray]) -> list[Laid]:
    """Every card of ``frames`` (1-4 photos of the deck laid out in ``ORDER``), named by its place. Raises
    :class:`DeckError` when the frames do not hold exactly one deck, saying what each frame held."""
    if not 1 <= len(frames) <= 4:
        raise DeckError("photos", n=len(frames))
    per_frame = [card_quads(f)[0] for f in frames]
    counts = [len(q) for q in per_frame]
    if sum(counts) != len(ORDER):
        raise DeckError("count", found=sum(counts), want=len(ORDER),
                        photos=[DeckError("per_photo", photo=i + 1, n=n) for i, n in enumerate(counts)])
    names = iter(ORDER)
    return [Laid(next(names), i, q, flat(frames[i], q)) for i, quads in enumerate(per_frame) for q in quads]


def read_back(frames: list[np.ndarray], laid: list[Laid], model) -> tuple[list, dict[str, str | None], list]:
    """Read ``frames`` back with ``model``: the readings, for every laid card not read right what was read at it
    (None: nothing), and every read of a calibrated frame judged (``sure.judged``: right when it names the laid card
    it lies on), to fit the enrolled classifier's confidence on."""
    from vision.read import read_frame
    from vision.train.sure import judged

    readings = [read_frame(image, model) for image in frames]
    wrong: dict[str, str | None] = {}
    reads = []
    for i, reading in enumerate(readings):
        mine = [c for c in laid if c.frame == i]
        for card in mine:
            near = _near(card, reading)
            if not any(c.name == card.card for c in near):
                wrong[card.card] = near[0].name if near else None
        if reading.calibrated:
            truth = [(c.card, "laid", tuple(reading.calibration.to_table(np.array([c.centre]))[0])) for c in mine]
            reads += judged(truth, [(c.name, "laid", c.centre, c.raw, 1 if c.conflict else c.corners)
                                    for c in reading.cards])
    return readings, wrong, reads


def _near(card: Laid, reading) -> list:
    """The cards of ``reading`` near the laid ``card``'s centre, nearest first."""
    centre = np.array([card.centre])
    at = reading.calibration.to_table(centre)[0] if reading.calibrated else centre[0]
    reach = CARD_W * 0.45 if reading.calibrated else np.linalg.norm(card.corners[1] - card.corners[0]) * 0.45
    return [c for *_, c in sorted((float(np.linalg.norm(np.subtract(c.centre, at))), k, c)
                                 for k, c in enumerate(reading.cards)
                                 if np.linalg.norm(np.subtract(c.centre, at)) < reach)]


def pictures(frames: list[np.ndarray], laid: list[Laid], readings: list, sure) -> list[np.ndarray]:
    """Each frame with, at every laid card, its name: green when read so and ``sure(card read)``, orange when read
    so but unsure, red with what was read (or nothing) otherwise."""
    out = []
    for i, (image, reading) in enumerate(zip(frames, readings)):
        picture = image.copy()
        scale = max(0.4, image.shape[1] / 2400)
        for card in (c for c in laid if c.frame == i):
            near = _near(card, reading)
            named = [c for c in near if c.name == card.card]
            if named:
                colour, text = ((0, 200, 0) if sure(named[0]) else (0, 165, 255)), card.card
            else:
                colour, text = (0, 0, 255), f"{card.card}:{near[0].name if near else '-'}"
            cv2.polylines(picture, [np.int32(np.round(card.corners))], True, colour, max(1, round(2 * scale)))
            x, y = card.centre
            for ink, width in (((0, 0, 0), 6), (colour, 2.5)):  # outlined in black, readable on any card
                cv2.putText(picture, text, (round(x - 30 * scale), round(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.9 * scale,
                            ink, max(1, round(width * scale)))
        out.append(picture)
    return out
