"""From an image at the canonical scale to physical cards: where to look (card-white regions), the model's corner
index detections, and their grouping into cards.

Two corner indices of one card point at the same card centre from opposite sides, so they pair up; two identical
cards of different decks (a pair in a fan) point at different centres from the same side, so they never merge.

>>> a = Detection("SA", 0.99, (100.0, 100.0), (140.0, 150.0))
>>> b = Detection("SA", 0.97, (180.0, 200.0), (141.0, 151.0))
>>> c = Detection("SA", 0.98, (112.0, 104.0), (152.0, 154.0))
>>> [(k.name, len(k.corners)) for k in group([a, b, c])]
[('SA', 2), ('SA', 1)]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.geometry import CARD_W, PX
from vision.model import ALL_CARDS, STRIDE, UNREADABLE, Model
from vision.patch import card_angle

PEAK = 0.3  # heat above this is a corner index
PAIR_PX = 0.3 * CARD_W * PX  # two corners of one card predict centres this close (canonical px)
# Between a card's two indices, canonical px, for any deck of 57-63 x 88 mm cards whose indices sit 2-7 mm in and are
# 5-11 mm tall (71-96 mm), with room for the camera's and the detector's errors
SPAN_PX = (0.75 * 71 / 760 * PX, 1.08 * 96 / 760 * PX)
SPAN_SLACK = 0.2  # once the frame shows its deck, a card's two indices lie as far apart as its pairs' median, within this
ALIGN_PX = 7.0  # two corners of one card are point-symmetric within this (``symmetry``)
SAME_PX = 6.0  # one corner found twice
SHARED = 1e-3  # two corners whose beliefs give one card less than this together are of two cards
RIDGE, RIDGE_CELLS = 0.6, 3  # two heat peaks this close (cells of 4 px) on a ridge this high are one corner
# An index read with less than SECOND_LOOK is read again turned by TURNS degrees (the detector's orientation errs
# by a few) and the three views' beliefs combined: on 60 held-out frames 1.3 points more cards named right, on
# trained styles 0.7-0.9, at about half the cost of looking three times at every index (7 against 15 ms a frame).
SECOND_LOOK = 0.99
TURNS = (4.0, -4.0)
CENTRE_CELLS = 1  # a card's centre: what the heat peak's cell and its neighbours this near point at (``pointed``)
PAD = 16  # context around card-white areas (the index sits about 8 px inside the card's edge)


@dataclass(frozen=True)
class Detection:
    name: str
    confidence: float  # the class probability
    corner: tuple[float, float]  # the index centre, px of the image the model saw
    centre: tuple[float, float]  # the card centre it points at
    probs: np.ndarray | None = field(default=None, repr=False, compare=False)  # over ALL_CARDS
    feature: np.ndarray | None = field(default=None, repr=False, compare=False)  # what the classifier saw (Model.look)


@dataclass(frozen=True)
class Card:
    name: str
    confidence: float
    centre: tuple[float, float]
    corners: tuple[Detection, ...]
    conflict: bool = False  # corners of one card read as different cards


def median(channel: np.ndarray) -> float:
    """``np.median`` of a uint8 channel, from its histogram (a fraction of the time of sorting).

    >>> median(np.array([[3, 1], [250, 7]], np.uint8)), median(np.array([5, 9, 1], np.uint8))
    (5.0, 5.0)
    """
    below = np.cumsum(np.bincount(channel.ravel(), minlength=256))
    lo, hi = np.searchsorted(below, [(channel.size - 1) // 2 + 1, channel.size // 2 + 1])
    return (int(lo) + int(hi)) / 2


def white_mask(small: np.ndarray) -> np.ndarray:
    """Card-white pixels (bright and grey compared with the rest) of a small (1/4 size) BGR image, 0/1. Bright by
    the darkest channel: a card in a shadow on red felt is darker in its brightest channel than the felt is in red,
    yet far brighter in its darkest.

    >>> felt, card = (40, 40, 150), (130, 130, 134)   # red felt; a card in the shadow
    >>> small = np.full((8, 8, 3), felt, np.uint8); small[2:5, 2:6] = card
    >>> int(white_mask(small).sum())
    12
    """
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    s, bright, dark = hsv[..., 1], hsv[..., 2], small.min(2)  # value: the brightest channel
    return (((dark > median(dark) + 35) & (s < 90)) | ((bright > 150) & (s < 60))).astype(np.uint8)


def foreign_mask(small: np.ndarray, white: np.ndarray) -> np.ndarray:
    """Pixels that are neither felt nor card (a hand, a sleeve, a cup), 0/1: far from the felt's median colour in
    Lab (lightness counted half, as the light varies over the table) and not on or next to card-white."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    twice = 2 * lab.astype(np.int32) - [int(2 * median(lab[..., i])) for i in range(3)]  # whole numbers
    far = twice ** 2 @ np.array([1, 4, 4], np.int32) > (4 * 28) ** 2  # (dL / 2)^2 + da^2 + db^2 > 28^2, times 16
    return (far & (cv2.dilate(white, np.ones((5, 5), np.uint8)) == 0)).astype(np.uint8)


def regions(white: np.ndarray, exclude: list[tuple[float, float]] = (),
            min_px: int = 400) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1), multiples of 8, around card-white areas of an image whose :func:`white_mask` at 1/4
    size is ``white`` (``exclude``: marker centres)."""
    mask = white.copy()
    for x, y in exclude:
        cv2.circle(mask, (int(x / 4), int(y / 4)), 17, 0, -1)
    mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    h, w = white.shape[0] * 4, white.shape[1] * 4
    boxes = []
    for x, y, bw, bh, area in stats[1:]:
        if area * 16 < min_px:
            continue
        x0, y0 = max(0, x * 4 - PAD) // 8 * 8, max(0, y * 4 - PAD) // 8 * 8
        x1 = min(w // 8 * 8, -(-((x + bw) * 4 + PAD) // 8) * 8)
        y1 = min(h // 8 * 8, -(-((y + bh) * 4 + PAD) // 8) * 8)
        if x1 - x0 >= 16 and y1 - y0 >= 16:
            boxes.append((int(x0), int(y0), int(x1), int(y1)))
    return boxes


Cutter = Callable[[tuple[float, float], float], np.ndarray]  # (corner in the image's px, angle) -> upright patch


@dataclass(frozen=True)
class Peak:
    """A corner index the detector found: how strongly (its heat, up to 1), where, and the card centre it points at
    (px of the image the detector saw)."""
    strength: float
    corner: tuple[float, float]
    centre: tuple[float, float]


def found(model: Model, image: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> list[Peak]:
    """The corner indices the detector finds in ``boxes`` of ``image``."""
    out = []
    for x0, y0, x1, y1 in boxes:
        heat, off = model(np.ascontiguousarray(image[y0:y1, x0:x1]))
        for gy, gx in peaks(heat):
            px, py = x0 + gx * STRIDE + STRIDE / 2 - 0.5, y0 + gy * STRIDE + STRIDE / 2 - 0.5  # the cell's centre
            dy, dx = subcell(heat, gy, gx)
            ox, oy = pointed(heat, off, gy, gx)
            out.append(Peak(min(1.0, float(heat[gy, gx]) / 0.6), (px + dx * STRIDE, py + dy * STRIDE),
                            (px + ox, py + oy)))
    return out


def named(model: Model, corners: list[Peak], cutter: Cutter) -> list[Detection]:
    """``corners`` named by ``model``'s index classifier on each index cut out upright (``cutter``; the detector's
    offset gives the card's orientation), the unsure ones seen again (``TURNS``). One the classifier most likely
    finds ``UNREADABLE`` (mostly covered) is dropped: the card's other corner names it, or a person asked about a
    play of the wrong size, not a guess."""
    if not corners:
        return []
    angles = [card_angle(p.corner, p.centre) for p in corners]
    probs, features = model.look(np.stack([cutter(p.corner, a) for p, a in zip(corners, angles)]))
    unsure = np.nonzero(probs.max(1) < SECOND_LOOK)[0]
    if len(unsure):  # a second look, turned both ways; the views' beliefs combined (their geometric mean)
        more = model.classify(np.stack([cutter(corners[i].corner, angles[i] + turn) for i in unsure
                                        for turn in TURNS])).reshape(len(unsure), len(TURNS), -1)
        views = np.concatenate([probs[unsure][:, None], more], 1)
        joint = np.exp(np.log(np.maximum(views, 1e-9)).mean(1))
        probs[unsure] = joint / joint.sum(1, keepdims=True)
    out = []
    for peak, p, f in zip(corners, probs, features):
        if p.argmax() == UNREADABLE:  # covered too far to read: not a card
            continue
        k = int(p[:UNREADABLE].argmax())
        out.append(Detection(ALL_CARDS[k], belief(p, k) * peak.strength, peak.corner, peak.centre, p[:UNREADABLE], f))
    return dedupe(out)


def belief(p: np.ndarray, k: int) -> float:
    """The share of entry ``k`` in ``p``, as one less the others' share summed in float64: a belief that float32
    rounds to 1 keeps its order by how much doubt is left (calibration tells reads apart there).

    >>> p = np.array([1.0, 3e-9, 1e-12], np.float32)
    >>> float(p[0] / p.sum()) == 1.0, round(1 - belief(p, 0), 15)
    (True, 3.001e-09)
    """
    q = p.astype(np.float64)
    return 1.0 - float(np.delete(q, k).sum() / q.sum())


def peaks(heat: np.ndarray) -> list[tuple[int, int]]:
    """Cells (y, x) where ``heat`` peaks above ``PEAK``, strongest first; of two peaks at most ``RIDGE_CELLS`` apart
    joined by a ridge (heat along the way at least ``RIDGE`` of the weaker peak's), only the stronger: one index
    found twice, as a tall index can be.

    >>> heat = np.zeros((9, 5), np.float32)
    >>> heat[2:5, 2] = 0.73, 0.69, 0.74       # one index, two peaks on one ridge
    >>> heat[7, 2], heat[6, 2] = 0.8, 0.1     # another, past a valley
    >>> [(int(y), int(x)) for y, x in peaks(heat)]
    [(7, 2), (4, 2)]
    """
    local = (heat >= PEAK) & (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    kept: list[tuple[int, int]] = []
    for p in sorted(zip(*np.nonzero(local)), key=lambda p: -heat[p]):
        if not any(_ridge(heat, p, k) for k in kept):
            kept.append(p)
    return kept


def subcell(heat: np.ndarray, gy: int, gx: int) -> tuple[float, float]:
    """Where in its cell (in cells, each within half a cell of the centre) a heat peak lies: the top of a parabola
    through it and its two neighbours, down and across.

    >>> heat = np.array([[0, 0, 0], [0.2, 0.8, 0.6], [0, 0.2, 0]])
    >>> [round(v, 3) for v in subcell(heat, 1, 1)]
    [0.071, 0.25]
    """
    shift = []
    for before, after in ((heat[max(gy - 1, 0), gx], heat[min(gy + 1, heat.shape[0] - 1), gx]),
                          (heat[gy, max(gx - 1, 0)], heat[gy, min(gx + 1, heat.shape[1] - 1)])):
        curve = 2 * heat[gy, gx] - before - after
        shift.append(float(np.clip((after - before) / (2 * curve), -0.5, 0.5)) if curve > 0 else 0.0)
    return shift[0], shift[1]


def pointed(heat: np.ndarray, off: np.ndarray, gy: int, gx: int) -> tuple[float, float]:
    """Where the card's centre lies from the centre of cell (gy, gx), px: what the peak cell and its neighbours
    within ``CENTRE_CELLS`` point at, weighted by their heat (one cell's offset alone errs more).

    >>> heat = np.array([[0, 0, 0], [0.2, 0.8, 0.2], [0, 0, 0]], np.float32)
    >>> off = np.zeros((2, 3, 3), np.float32); off[0] = [[0, 0, 0], [44, 40, 36], [0, 0, 0]]
    >>> pointed(heat, off, 1, 1)   # the left cell points 4 px further from 4 px further left: the same place
    (40.0, 0.0)
    """
    k = CENTRE_CELLS
    y0, y1, x0, x1 = max(gy - k, 0), min(gy + k + 1, heat.shape[0]), max(gx - k, 0), min(gx + k + 1, heat.shape[1])
    w = heat[y0:y1, x0:x1].astype(np.float64)
    ys, xs = np.mgrid[y0 - gy:y1 - gy, x0 - gx:x1 - gx] * STRIDE
    return (float((w * (off[0, y0:y1, x0:x1] + xs)).sum() / w.sum()),
            float((w * (off[1, y0:y1, x0:x1] + ys)).sum() / w.sum()))


def _ridge(heat: np.ndarray, p: tuple[int, int], q: tuple[int, int]) -> bool:
    if max(abs(p[0] - q[0]), abs(p[1] - q[1])) > RIDGE_CELLS:
        return False
    ys, xs = (np.rint(np.linspace(a, b, 2 * RIDGE_CELLS + 1)).astype(int) for a, b in zip(p, q))
    return bool(heat[ys, xs].min() >= RIDGE * min(heat[p], heat[q]))


def dedupe(dets: list[Detection]) -> list[Detection]:
    """One detection per corner (boxes may overlap; a corner may peak twice)."""
    kept: list[Detection] = []
    for d in sorted(dets, key=lambda d: -d.confidence):
        if not any(math.dist(d.corner, k.corner) < SAME_PX for k in kept):
            kept.append(d)
    return kept


def _opposite(a: Detection, b: Detection) -> bool:
    va = (a.centre[0] - a.corner[0], a.centre[1] - a.corner[1])
    vb = (b.centre[0] - b.corner[0], b.centre[1] - b.corner[1])
    return va[0] * vb[0] + va[1] * vb[1] < 0


@dataclass(frozen=True)
class Layout:
    """What the frame's own pairs show of its deck: how far apart a card's two indices lie (px), and how far
    (radians, signed) the detector's offsets turn from the line between them (0 for our art's geometry)."""
    span: float
    bias: float


def _turn(v: tuple[float, float], w: tuple[float, float]) -> float:
    """The signed angle from ``w`` to ``v``, radians in (-pi, pi]."""
    return math.remainder(math.atan2(v[1], v[0]) - math.atan2(w[1], w[0]), 2 * math.pi)


def symmetry(a: Detection, b: Detection, layout: Layout | None = None) -> float:
    """How far (px) two corners are from being a card's two indices, which lie point-symmetric about its centre
    whatever the deck's index position and card size: each corner's offset turns from the line between them by the
    same angle (a deck's own bias: 0 for our art); that angle, and their distance, are the frame's (``layout``) if
    it is known, else within ``ALIGN_PX`` of our art's. Where the offsets point (learned on our art) is not used.

    >>> a = Detection("SA", 0.9, (0.0, 0.0), (30.0, 40.0))     # points along (3, 4)
    >>> b = Detection("SA", 0.9, (60.0, 80.0), (40.0, 53.0))   # its opposite corner, pointing back
    >>> c = Detection("SA", 0.9, (90.0, 80.0), (60.0, 40.0))   # a card turned 11 degrees, further off
    >>> round(symmetry(a, b), 1), round(symmetry(a, c), 1), round(symmetry(a, b, Layout(100.0, 0.2)), 1)
    (0.3, 12.0, 9.9)
    """
    half = math.dist(a.corner, b.corner) / 2
    line = (b.corner[0] - a.corner[0], b.corner[1] - a.corner[1])
    ta = _turn((a.centre[0] - a.corner[0], a.centre[1] - a.corner[1]), line)
    tb = _turn((b.centre[0] - b.corner[0], b.centre[1] - b.corner[1]), (-line[0], -line[1]))
    skew = half * abs(math.sin((ta - tb) / 2))  # the two corners turn differently: two cards
    if layout is None:
        return skew + half * abs(math.sin((ta + tb) / 2))
    return skew + half * abs(math.sin((ta + tb) / 2 - layout.bias)) + abs(2 * half - layout.span) / 2


def _one_card(a: Detection, b: Detection, pair_px: float, layout: Layout | None) -> float | None:
    """How badly two corners make one card (px, lower is better), or None when they cannot: they must point at one
    centre (our art's geometry), or lie as far apart as a card's two indices can and be point-symmetric
    (:func:`symmetry`: any deck's geometry), or, named alike and so far apart, point at centres up to twice as far
    apart (the offsets of a card seen rarely, such as a joker, are less sure). The fit adds both measures (the
    centres' distance counting at most ``pair_px``): two identical cards stacked a little apart can fit one way
    as well as the other by either alone. Once the frame shows its deck (``layout``), corners whose distance is not
    its cards' (``SPAN_SLACK``) are never one card, and any others may be (the frame's own scale: a photo without
    markers is read at its own). Corners named differently are one card only if their beliefs
    share one (``SHARED``): two overlapping cards, each with one corner showing, may point at one centre."""
    if a.name != b.name and a.probs is not None and b.probs is not None and float((a.probs * b.probs).sum()) < SHARED:
        return None
    d, span = math.dist(a.centre, b.centre), math.dist(a.corner, b.corner)
    if layout is not None and abs(span - layout.span) > SPAN_SLACK * layout.span:
        return None  # not as far apart as this frame's cards' indices (a joker's tall index: 11% nearer)
    r = symmetry(a, b, layout) if layout is not None or SPAN_PX[0] <= span <= SPAN_PX[1] else None
    if d < pair_px or (r is not None and (r < ALIGN_PX or (a.name == b.name and d < 2 * pair_px))):
        return (ALIGN_PX if r is None else r) + min(d, pair_px)
    return None


def _pairs(dets: list[Detection], pair_px: float, layout: Layout | None) -> list[tuple[int, int]]:
    """Corners paired into cards, the best fits first (those that agree on the card before those that do not)."""
    fits = ((i, j, _one_card(a, b, pair_px, layout)) for i, a in enumerate(dets) for j, b in enumerate(dets)
            if i < j and _opposite(a, b))
    used: set[int] = set()
    out = []
    for _, _, i, j in sorted((dets[i].name != dets[j].name, fit, i, j) for i, j, fit in fits if fit is not None):
        if i not in used and j not in used:
            used |= {i, j}
            out.append((i, j))
    return out


def layout_of(dets: list[Detection], pairs: list[tuple[int, int]]) -> Layout | None:
    """The frame's deck, from its cards seen by both corners named alike (given three): the median distance
    between the two indices and the median turn of the offsets from the line between them."""
    alike = [(dets[i], dets[j]) for i, j in pairs if dets[i].name == dets[j].name]
    if len(alike) < 3:
        return None
    turns = [_turn((a.centre[0] - a.corner[0], a.centre[1] - a.corner[1]), (b.corner[0] - a.corner[0],
                                                                            b.corner[1] - a.corner[1]))
             for a, b in alike for a, b in ((a, b), (b, a))]
    return Layout(float(np.median([math.dist(a.corner, b.corner) for a, b in alike])), float(np.median(turns)))


def centre_from(d: Detection, layout: Layout | None) -> tuple[float, float]:
    """The centre of a card seen by one corner index: half the frame's index span from the index (``layout``: as
    the cards seen by both show it in this image), the way the detector's offset points less the frame's bias;
    without ``layout``, where the offset points.

    >>> d = Detection("SA", 0.9, (100.0, 100.0), (130.0, 140.0))
    >>> centre_from(d, Layout(80.0, 0.0)), centre_from(d, None)
    ((124.0, 132.0), (130.0, 140.0))
    """
    if layout is None:
        return d.centre
    a = math.atan2(d.centre[1] - d.corner[1], d.centre[0] - d.corner[0]) - layout.bias
    return d.corner[0] + math.cos(a) * layout.span / 2, d.corner[1] + math.sin(a) * layout.span / 2


def group(dets: list[Detection], pair_px: float = PAIR_PX) -> list[Card]:
    """Physical cards: corners that point at one centre from opposite sides are one card, named by both corners'
    beliefs together (the product of their class probabilities). Corners that agree on the card pair first, the
    nearest centres first: where two cards overlap, their four corners may point at centres all close together.
    Corners of one card read as two different cards are marked ``conflict`` (the play is then flagged); without
    probabilities the surer name wins. Corners whose beliefs share no card are two cards (``_one_card``). Where the
    frame shows its deck (``layout_of``: three cards seen by both corners), the corners are paired again with it
    (:func:`symmetry`), whatever the deck's index position and card size. A card's centre is the midpoint of
    its two indices (they lie symmetric about it), or, seen by one, :func:`centre_from` the frame's layout."""
    pairs = _pairs(dets, pair_px, None)
    layout = layout_of(dets, pairs)
    if layout is not None:  # again, by what the frame's own pairs show of its deck
        pairs = _pairs(dets, pair_px, layout)
        layout = layout_of(dets, pairs) or layout
    used = {k for p in pairs for k in p}
    cards: list[Card] = []
    for i, j in pairs:
        a, b = sorted((dets[i], dets[j]), key=lambda d: -d.confidence)
        centre = ((a.corner[0] + b.corner[0]) / 2, (a.corner[1] + b.corner[1]) / 2)  # the indices are symmetric
        if a.probs is not None and b.probs is not None:  # both corners vote: the product of their beliefs
            joint = a.probs.astype(np.float64) * b.probs
            k = int(joint.argmax())
            peak = max(d.confidence / max(float(d.probs.max()), 1e-6) for d in (a, b))  # the surer heat
            conf = belief(joint, k) * min(1.0, peak)
            cards.append(Card(ALL_CARDS[k], conf, centre, (a, b), conflict=a.name != b.name))
        elif a.name == b.name:
            cards.append(Card(a.name, 1 - (1 - a.confidence) * (1 - b.confidence), centre, (a, b)))
        else:
            cards.append(Card(a.name, a.confidence * (1 - b.confidence), centre, (a, b), conflict=True))
    for i, d in enumerate(dets):
        if i not in used:
            cards.append(Card(d.name, d.confidence, centre_from(d, layout), (d,)))
    return sorted(cards, key=lambda c: (-len(c.corners), c.centre))
