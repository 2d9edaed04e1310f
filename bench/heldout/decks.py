"""Held-out deck families: every ingredient chosen here, drawn here (rank fonts and suit signs of ``fonts`` and
``suits``, index layouts, card proportions, pips, courts, jokers, stock and print), sharing nothing with the
training art. ``FAMILIES`` are the reported test decks; ``calibration_families`` makes fresh ones from other fonts,
for fitting the confidence threshold apart from the test.

A face is drawn upright at ``RES`` px per mm, with its alpha (rounded corners); ``index_box`` is where the top-left
index's ink lies on the card (mm), the bottom-right one being the same turned half round about the card's centre.

>>> f = FAMILIES["garamond-bridge"]
>>> f.size, face(f, "HT").shape
((57.0, 88.0), (528, 342, 4))
>>> x0, y0, x1, y1 = index_box(f, "HT"); round(x0, 1), round(y0, 1), round(y1 - y0, 1)
(3.0, 3.0, 17.3)
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from bench.heldout import photos
from bench.heldout.fonts import CALIBRATION_FONTS, TEST_FONTS, fill, glyphs
from bench.heldout.suits import suit

RES = 6  # face px per mm
RANKS = "23456789TJQKA"
CARDS = tuple(s + r for s in "SHDC" for r in RANKS) + ("BJ", "LJ")
# Pip places on a grid of 3 columns by 7 rows (column, row), the classic layout of the number cards
PIPS = {2: [(1, 0), (1, 6)], 3: [(1, 0), (1, 3), (1, 6)], 4: [(0, 0), (2, 0), (0, 6), (2, 6)]}
PIPS[5] = PIPS[4] + [(1, 3)]
PIPS[6] = PIPS[4] + [(0, 3), (2, 3)]
PIPS[7] = PIPS[6] + [(1, 1.5)]
PIPS[8] = PIPS[7] + [(1, 4.5)]
PIPS[9] = [(c, r) for c in (0, 2) for r in (0, 2, 4, 6)] + [(1, 3)]
PIPS[10] = [(c, r) for c in (0, 2) for r in (0, 2, 4, 6)] + [(1, 1), (1, 5)]


@dataclass(frozen=True)
class Family:
    """One deck design: ``index_mm`` is the height of the index's rank (5-11 mm: standard to jumbo), its suit
    ``suit_scale`` of that, under it or beside it; ``inset`` the gap (mm) from the card's left and top edges to the
    index's ink."""
    name: str
    font: str  # the rank font's file
    suits: str  # a ``suits.suit`` procedure
    suit_params: tuple[float, float, float, float] = (0.5, 0.5, 0.5, 0.5)
    size: tuple[float, float] = (63.0, 88.0)  # mm
    index_mm: float = 8.0
    inset: tuple[float, float] = (3.0, 3.0)
    beside: bool = False  # the suit beside the rank, not under it
    ten: str = "10"  # or "T"
    suit_scale: float = 0.8  # the index's suit height over the rank's
    stock: tuple[int, int, int] = (250, 250, 250)  # BGR
    red: tuple[int, int, int] = (30, 20, 200)
    black: tuple[int, int, int] = (20, 20, 20)
    border: int = 0  # px of a printed border line (0: none)
    radius: float = 3.5  # mm, the corners' rounding
    pip_mm: float = 11.0
    court: str = "figure"  # or "letter"
    misregister: float = 0.0  # px the red ink is shifted
    ink_blur: float = 0.0  # px of print softness
    gloss: float = 0.0  # strength of glare on the cards in a frame (``table``)
    photos: tuple[tuple[str, int, str], ...] = ()  # cards cut out of real photographs (``photos.CUTS``): theirs only

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards a table of this design holds: a whole deck, or the cards its photographs show."""
        return tuple(sorted({card for *_, card in self.photos})) if self.photos else CARDS


FAMILIES = {f.name: f for f in (
    Family("garamond-bridge", TEST_FONTS["garamond"], "font:" + TEST_FONTS["stix"], size=(57.0, 88.0),
           index_mm=9.0, inset=(3.0, 3.0), stock=(224, 240, 246), red=(40, 30, 170), black=(40, 25, 25),
           court="figure", ink_blur=0.8),
    Family("spartan-jumbo", TEST_FONTS["spartan"], "lobes", (0.9, 0.3, 0.6, 0.2), index_mm=11.0, inset=(5.0, 4.5),
           suit_scale=0.75, court="letter", pip_mm=13.0, gloss=0.6),
    Family("carlito-beside", TEST_FONTS["carlito"], "curve", (0.8, 0.4, 0.5, 0.35), index_mm=6.0, inset=(2.5, 3.0),
           beside=True, ten="T", suit_scale=0.9, border=3, red=(20, 10, 225), misregister=2.0),
    Family("oldstandard-corner", TEST_FONTS["oldstandard"], "font:" + TEST_FONTS["symbola"], size=(57.0, 88.0),
           index_mm=5.0, inset=(2.0, 2.0), suit_scale=0.7, stock=(232, 244, 248), court="figure", radius=2.5),
    Family("cabin-deep", TEST_FONTS["cabin"], "lobes", (0.2, 0.9, 0.2, 0.8), index_mm=9.0, inset=(7.0, 6.5),
           ten="T", suit_scale=0.65, court="letter", ink_blur=1.2, black=(60, 30, 10), gloss=0.4),
    Family("gomono-slab", TEST_FONTS["gomono"], "curve", (0.2, 0.9, 0.9, 0.1), size=(57.0, 88.0), index_mm=7.0,
           inset=(4.0, 3.5), beside=True, suit_scale=0.85, border=2, court="figure", misregister=1.2),
    Family("comfortaa-round", TEST_FONTS["comfortaa"], "curve", (0.5, 0.1, 0.3, 0.6), index_mm=10.0,
           inset=(3.5, 5.0), suit_scale=0.95, stock=(215, 235, 245), red=(60, 60, 215), court="letter", radius=5.0),
)}


def _photographed(name: str, pick: int) -> Family:
    """A design of real printed cards: of each card photographed, its ``pick``-th cut (0 first, -1 last)."""
    cuts: dict[str, list] = {}
    for cut in photos.CUTS:
        cuts.setdefault(cut[2], []).append(cut)
    return Family(name, "", "", size=photos.SIZE_MM, radius=3.0, photos=tuple(c[pick] for c in cuts.values()))


# Real cards (``photos``): the first and the last cut of each of its 18 cards, two sets of prints and photos
PHOTO_FAMILIES = {f.name: f for f in (_photographed("edje-first", 0), _photographed("edje-last", -1))}


def calibration_families(n: int = 6, seed: int = 1) -> dict[str, Family]:
    """``n`` fresh families for calibrating confidence: ranks in ``CALIBRATION_FONTS`` (no test family's font),
    suits drawn by either procedure with random proportions or Asana Math's glyphs, and random geometry.

    >>> fams = calibration_families(3)
    >>> len(fams), all(f.font in CALIBRATION_FONTS.values() for f in fams.values())
    (3, True)
    """
    rng = random.Random(seed)
    ranks = [k for k in CALIBRATION_FONTS if k != "asana"]
    out = {}
    for i in range(n):
        procedure = rng.choice(["lobes", "curve", "font:" + CALIBRATION_FONTS["asana"]])
        f = Family(f"cal-{seed}-{i}", CALIBRATION_FONTS[ranks[i % len(ranks)]], procedure,
                   tuple(round(rng.random(), 2) for _ in range(4)), size=rng.choice([(63.0, 88.0), (57.0, 88.0)]),
                   index_mm=round(rng.uniform(5, 11), 1), inset=(round(rng.uniform(2, 7), 1), round(rng.uniform(2, 7), 1)),
                   beside=rng.random() < 0.3, ten=rng.choice(["10", "10", "T"]), suit_scale=round(rng.uniform(0.6, 1.0), 2),
                   stock=(rng.randint(215, 255), rng.randint(230, 255), rng.randint(240, 255)),
                   red=(rng.randint(10, 70), rng.randint(0, 50), rng.randint(160, 235)),
                   black=(rng.randint(0, 60),) * 3, border=rng.choice([0, 0, 2, 3]), radius=rng.uniform(2, 5),
                   court=rng.choice(["figure", "letter"]), misregister=rng.choice([0, 0, rng.uniform(0.5, 2)]),
                   ink_blur=rng.choice([0, rng.uniform(0.3, 1.2)]), gloss=rng.choice([0, rng.uniform(0.2, 0.6)]))
        out[f.name] = f
    return out


def _label(f: Family, rank: str) -> str:
    return f.ten if rank == "T" else rank


def _index_parts(f: Family, card: str) -> list[tuple[object, tuple[float, float, float, float]]]:
    """The top-left index's shapes and their boxes (x, y, w, h in mm, from the card's top-left corner)."""
    x, y = f.inset
    if card in ("BJ", "LJ"):
        letter_h = f.index_mm * 0.55
        parts = []
        for i, ch in enumerate("JOKER"):
            g = glyphs(f.font, ch)
            w = letter_h * g.width
            parts.append((g, (x + (letter_h * 0.9 - w) / 2 + letter_h * 0.2, y + i * letter_h * 1.2, w, letter_h)))
        return parts
    g = glyphs(f.font, _label(f, card[1]))
    s = suit(f.suits, card[0], f.suit_params)
    if f.beside:
        rank_h = f.index_mm
        suit_h = f.index_mm * f.suit_scale * 0.8
        rw = rank_h * g.width * (0.78 if len(_label(f, card[1])) == 2 else 1)
        return [(g, (x, y, rw, rank_h)), (s, (x + rw + rank_h * 0.12, y + (rank_h - suit_h) / 2, suit_h * s.width, suit_h))]
    rank_h = f.index_mm
    suit_h = rank_h * f.suit_scale
    rw = rank_h * g.width * (0.78 if len(_label(f, card[1])) == 2 else 1)
    sw = suit_h * s.width
    column = max(rw, sw)
    return [(g, (x + (column - rw) / 2, y, rw, rank_h)),
            (s, (x + (column - sw) / 2, y + rank_h * 1.12, sw, suit_h))]


def index_box(f: Family, card: str) -> tuple[float, float, float, float]:
    """The top-left index's ink box (x0, y0, x1, y1), mm from the card's top-left corner."""
    if f.photos:
        return photos.INDEX_MM
    boxes = [b for _, b in _index_parts(f, card)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[0] + b[2] for b in boxes),
            max(b[1] + b[3] for b in boxes))


def _ink(f: Family, card: str) -> tuple[int, int, int]:
    return f.red if card[0] in "HD" or card == "BJ" else f.black


def _court(img, f: Family, card: str, colour) -> None:
    w, h = img.shape[1] / RES, img.shape[0] / RES
    m = 11.0 + f.inset[0] * 0.5
    x0, y0, x1, y1 = (round(v * RES) for v in (m, m + 3, w - m, h - m - 3))
    cv2.rectangle(img, (x0, y0), (x1, y1), colour, max(2, RES // 2))
    g = glyphs(f.font, card[1])
    s = suit(f.suits, card[0], f.suit_params)
    if f.court == "letter":
        lh = (y1 - y0) * 0.42
        fill(img, g, (img.shape[1] / 2 - lh * g.width / 2, y0 + (y1 - y0) * 0.1, lh * g.width, lh), colour)
        sh = (y1 - y0) * 0.25
        fill(img, s, (img.shape[1] / 2 - sh * s.width / 2, y0 + (y1 - y0) * 0.62, sh * s.width, sh), colour)
        return
    half = np.zeros_like(img)
    half[:] = img
    cx, mid = (x0 + x1) // 2, (y0 + y1) // 2
    robe = (40, 160, 220) if card[1] == "K" else (170, 90, 40) if card[1] == "Q" else (60, 140, 60)
    cv2.ellipse(half, (cx, y0 + (mid - y0) // 3), ((x1 - x0) // 6, (mid - y0) // 5), 0, 0, 360, (150, 190, 235), -1)
    cv2.fillPoly(half, [np.array([(cx - (x1 - x0) // 3, mid), (cx + (x1 - x0) // 3, mid),
                                  (cx, y0 + (mid - y0) // 2)], np.int32)], robe)
    cv2.rectangle(half, (cx - (x1 - x0) // 5, y0 + 4), (cx + (x1 - x0) // 5, y0 + (mid - y0) // 8), (30, 200, 230), -1)
    sh = (mid - y0) * 0.3
    fill(half, s, (x0 + 6, mid - sh - 6, sh * s.width, sh), colour)
    img[y0:mid] = half[y0:mid]
    img[mid:y1 + 1] = cv2.rotate(half, cv2.ROTATE_180)[mid:y1 + 1]
    cv2.line(img, (x0, mid), (x1, mid), colour, 2)


def _centre(img, f: Family, card: str, colour) -> None:
    w, h = img.shape[1] / RES, img.shape[0] / RES
    if card in ("BJ", "LJ"):
        r = w * 0.3 * RES
        star = [(img.shape[1] / 2 + (r if k % 2 == 0 else r * 0.45) * np.sin(k * np.pi / 5),
                 img.shape[0] / 2 - (r if k % 2 == 0 else r * 0.45) * np.cos(k * np.pi / 5)) for k in range(10)]
        cv2.fillPoly(img, [np.int32(star)], colour if card == "BJ" else (40, 40, 40), cv2.LINE_AA)
        return
    rank = card[1]
    if rank in "JQK":
        _court(img, f, card, colour)
        return
    s = suit(f.suits, card[0], f.suit_params)
    if rank == "A":
        ph = f.pip_mm * 2.4
        fill(img, s, ((w - ph * s.width) / 2 * RES, (h - ph) / 2 * RES, ph * s.width * RES, ph * RES), colour)
        return
    n = 10 if rank == "T" else int(rank)
    clear = max(index_box(f, card)[3] + 1.5, h * 0.18)  # pips lie below the index
    ph = min(f.pip_mm, (h - 2 * clear) / 4.6)
    left, right = w * 0.3, w * 0.7
    top, bottom = clear + ph / 2, h - clear - ph / 2
    for c, r in PIPS[n]:
        cx, cy = left + (right - left) * c / 2, top + (bottom - top) * r / 6
        fill(img, s, ((cx - ph * s.width / 2) * RES, (cy - ph / 2) * RES, ph * s.width * RES, ph * RES), colour,
             180.0 if r > 3 else 0.0)


@cache
def face(f: Family, card: str) -> np.ndarray:
    """The face of ``card`` in family ``f``, BGRA, ``RES`` px per mm, upright."""
    if f.photos:
        return _rounded(f, photos.face(*next(c for c in f.photos if c[2] == card)[:2], RES))
    w, h = round(f.size[0] * RES), round(f.size[1] * RES)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = f.stock
    grain = np.random.default_rng(zlib.crc32(f"{f.name}/{card}".encode())).normal(0, 2.5, (h, w, 1))
    colour = _ink(f, card)
    _centre(img, f, card, colour)
    x0, y0, x1, y1 = (round(v * RES) for v in index_box(f, card))
    img[max(0, y0 - RES):y1 + RES, max(0, x0 - RES):x1 + RES] = f.stock  # the index stands clear of the art
    for shape, (x, y, bw, bh) in _index_parts(f, card):
        fill(img, shape, (x * RES, y * RES, bw * RES, bh * RES), colour)
    turned = cv2.rotate(img, cv2.ROTATE_180)
    half = np.zeros((h, w), np.uint8)
    x0, y0, x1, y1 = (round(v * RES) + d for v, d in zip(index_box(f, card), (-2, -2, 3, 3)))
    half[y0:y1, x0:x1] = 1
    img = np.where(cv2.rotate(half, cv2.ROTATE_180)[..., None] > 0, turned, img)
    if f.border:
        cv2.rectangle(img, (RES, RES), (w - 1 - RES, h - 1 - RES), (140, 140, 140), f.border)
    if f.misregister and colour == f.red:
        shift = np.float32([[1, 0, f.misregister], [0, 1, f.misregister * 0.5]])
        ink = cv2.warpAffine(img, shift, (w, h), borderMode=cv2.BORDER_REPLICATE)
        img = np.minimum(img, ink)
    if f.ink_blur:
        img = cv2.GaussianBlur(img, (0, 0), f.ink_blur)
    img = np.clip(img + grain, 0, 255).astype(np.uint8)
    return _rounded(f, img)


def _rounded(f: Family, img: np.ndarray) -> np.ndarray:
    """``img`` (BGR) with its alpha: the card's corners rounded by ``f.radius``."""
    h, w = img.shape[:2]
    alpha = np.zeros((h, w), np.uint8)
    r = round(f.radius * RES)
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return np.dstack([img, alpha])


def with_size(f: Family, size: tuple[float, float]) -> Family:
    """The same design on cards of another size (a bridge deck of a poker design)."""
    return replace(f, name=f"{f.name}@{size[0]:g}x{size[1]:g}", size=size)
