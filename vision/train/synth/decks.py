"""Decks drawn from a seed, so that training sees far more designs than the committed art: style ``deck:N`` is deck
number N, drawn here on demand (Pillow and the system's fonts; training only, never at run time).

Each deck picks, from its own seeded random numbers: a rank font (any upright face with the digits and the court
letters among the font files of ``FONT_PACKAGES``, weights from thin to black, sometimes thickened or thinned
further), suit signs from one of several independent sources (a font's glyphs, shapes drawn here by one of several
procedures with their own proportions, or the pips of a committed training style), the index layout (rank above the suit or beside
it, its rank 4-9 mm tall, the whole index at most 17 mm, 2-7 mm in from the edges, "10" or "T"), the card's proportions (poker 63 x 88 mm or
bridge 57 x 88 mm), its corners, stock (white to cream) and inks, court and joker art, and the print (slightly
blurred, the inks misregistered). The faces are drawn at the art's scale (``H`` = 224 px for 88 mm) and returned
with their ``Layout``: where the index lies, which the renderer's truth needs.

No font file of a held-out style (``HELD_OUT_FONTS``) and none outside ``FONT_PACKAGES`` is ever used, so held-out
decks built from other fonts (``bench/``) stay unseen. The fonts are needed only to train (Debian packages, listed
in ``models/README.md``); decks whose fonts are missing are drawn with the fonts that are there. On a machine where
the packages cannot be installed (a lent GPU), ``CARDTABLE_TRAIN_FONTS`` names a folder holding their files at their
paths (``/usr/share/fonts/...`` under it): the same files in the same order, so ``deck:N`` is drawn the same there.

>>> lay = layout("deck:7")
>>> 0.0 < lay.index[0] < 0.3 and 0.0 < lay.index[1] < 0.3 and lay.size[1] == CARD_H
True
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import CARD_H, CARD_W, INDEX_CENTRES, INDEX_SIZE
from vision.train.synth.scene import TRAIN_STYLES, committed_face

PREFIX = "deck:"
H = 224  # px, the art's height: 88 mm
PX_MM = H / 88.0
FONT_PACKAGES = (  # none of the packages whose fonts bench/'s held-out decks reserve (bench/heldout/)
    "fonts-noto-core", "fonts-noto-mono", "fonts-urw-base35", "fonts-liberation2", "fonts-freefont-ttf",
    "fonts-roboto-unhinted", "fonts-open-sans", "fonts-lato", "fonts-crosextra-caladea", "fonts-linuxlibertine",
    "fonts-hack", "fonts-dosis", "fonts-quicksand", "fonts-paratype", "fonts-bebas-neue", "fonts-comic-neue",
    "fonts-play", "fonts-gfs-didot", "fonts-adf-baskervald", "fonts-adf-gillius", "fonts-ipafont-gothic",
    "fonts-croscore", "fonts-dejavu-core", "fonts-wqy-microhei")
FONTS_FOLDER = "CARDTABLE_TRAIN_FONTS"  # instead of the packages: a folder holding their files at their own paths
HELD_OUT_FONTS = ("DejaVuSansMono", "DejaVuMathTeXGyre", "D050000L")  # file names starting so: held-out styles
SLANTED = ("italic", "oblique", "ita.", "-it.", "bdit", "boit", "slanted", "cursive")
SUITS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED = "HD"


@dataclass(frozen=True)
class Layout:
    """Where a style's card and index lie: the card's size (table units), its top-left index's centre and box (card
    fractions; the other index is its half turn), and whether the rank stands beside the suit (else above it)."""
    size: tuple[float, float] = (CARD_W, CARD_H)
    index: tuple[float, float] = INDEX_CENTRES[0]
    box: tuple[float, float] = INDEX_SIZE
    beside: bool = False

    def centres(self) -> tuple[tuple[float, float], tuple[float, float]]:
        return self.index, (1 - self.index[0], 1 - self.index[1])


COMMITTED = Layout()  # every committed art style


def is_deck(style: str) -> bool:
    return style.startswith(PREFIX)


def names(first: int, count: int) -> list[str]:
    """>>> names(3, 2)
    ['deck:3', 'deck:4']"""
    return [f"{PREFIX}{i}" for i in range(first, first + count)]


# ---- fonts -----------------------------------------------------------------------------------------------------

@cache
def font_files() -> tuple[str, ...]:
    """The upright font files of ``FONT_PACKAGES`` installed here (none of ``HELD_OUT_FONTS``), sorted."""
    if root := os.environ.get(FONTS_FOLDER):
        if not Path(root).is_dir():
            raise FileNotFoundError(f"{FONTS_FOLDER}={root}: no such folder (it holds the font packages' files)")
        out = [str(p) for p in Path(root).rglob("*")]
    else:
        out = subprocess.run(["dpkg", "-L", *FONT_PACKAGES], capture_output=True, text=True).stdout.split()
    files = {p for p in out if p.lower().endswith((".ttf", ".otf")) and Path(p).is_file()}
    return tuple(sorted(p for p in files if not Path(p).name.startswith(HELD_OUT_FONTS)
                        and not any(s in Path(p).name.lower() for s in SLANTED)))


def _covers(path: str, text: str) -> bool:
    """Whether the font draws every character of ``text`` (not its missing-glyph box, not nothing)."""
    from PIL import ImageFont

    try:
        font = ImageFont.truetype(path, 48)
    except OSError:
        return False
    missing = {bytes(font.getmask(c)) for c in ("\U0010fffd", "\ue83a")}
    for c in text:
        mask = font.getmask(c)
        if mask.size[0] == 0 or bytes(mask) in missing or max(bytes(mask), default=0) < 128:
            return False
    return True


@cache
def rank_fonts() -> tuple[str, ...]:
    return tuple(p for p in font_files() if _covers(p, "0123456789AJQKTOER"))


@cache
def suit_fonts() -> tuple[str, ...]:
    return tuple(p for p in font_files() if _covers(p, "".join(SUITS.values())))


def text_mask(font_path: str, text: str, cap_px: float, bold: int = 0) -> np.ndarray:
    """``text`` in the font, its capitals ``cap_px`` tall, as a tight float mask (0..1); ``bold`` px of stroke
    added (negative: thinned by erosion)."""
    from PIL import Image, ImageDraw, ImageFont

    probe = ImageFont.truetype(font_path, 200)
    top, bottom = probe.getbbox("H")[1], probe.getbbox("H")[3]
    size = max(6, round(200 * cap_px / max(bottom - top, 1)))
    font = ImageFont.truetype(font_path, size)
    x0, y0, x1, y1 = font.getbbox(text, stroke_width=max(bold, 0))
    img = Image.new("L", (x1 - x0 + 4, y1 - y0 + 4), 0)
    ImageDraw.Draw(img).text((2 - x0, 2 - y0), text, fill=255, font=font, stroke_width=max(bold, 0), stroke_fill=255)
    mask = np.asarray(img, np.float32) / 255
    if bold < 0:
        mask = cv2.erode(mask, np.ones((1 - bold, 1 - bold), np.uint8))
    return tight(mask)


def tight(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask > 0.05)
    if not len(xs):
        return np.ones((2, 2), np.float32)
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


# ---- suit signs ------------------------------------------------------------------------------------------------
S = 256  # px of the unit square the procedures draw in


def _poly(points, size=S) -> np.ndarray:
    m = np.zeros((size, size), np.uint8)
    cv2.fillPoly(m, [np.int32(np.round(np.asarray(points) * 16))], 255, cv2.LINE_AA, shift=4)
    return m


def _circle(m: np.ndarray, c, r) -> None:
    cv2.circle(m, (round(c[0] * 16), round(c[1] * 16)), round(r * 16), 255, -1, cv2.LINE_AA, shift=4)


def heart_lobes(rng: random.Random) -> np.ndarray:
    """Two round lobes and the tangent lines to a point."""
    r, sep, tip = rng.uniform(0.2, 0.27) * S, rng.uniform(0.36, 0.5), rng.uniform(0.85, 0.97) * S
    cy = r + S * 0.04
    lc, rc = (S / 2 - sep * S / 2 + r * 0.1, cy), (S / 2 + sep * S / 2 - r * 0.1, cy)
    m = np.zeros((S, S), np.uint8)
    for c in (lc, rc):
        _circle(m, c, r)
    side = r * rng.uniform(0.92, 1.0)
    pts = [(lc[0] - side, cy + r * 0.15), (S / 2, tip), (rc[0] + side, cy + r * 0.15), (rc[0], cy), (lc[0], cy)]
    return np.maximum(m, _poly(pts))


def heart_curve(rng: random.Random) -> np.ndarray:
    """The classic parametric heart, its harmonics perturbed."""
    a, b, c, d = 13 + rng.uniform(-2, 2), 5 + rng.uniform(-1.5, 1.5), 2 + rng.uniform(-1, 1), 1 + rng.uniform(-.5, .5)
    p = rng.uniform(2.6, 3.4)
    t = np.linspace(0, 2 * math.pi, 240)
    x = 16 * np.sign(np.sin(t)) * np.abs(np.sin(t)) ** p
    y = -(a * np.cos(t) - b * np.cos(2 * t) - c * np.cos(3 * t) - d * np.cos(4 * t))
    return _fit(np.stack([x, y], 1))


def heart_bezier(rng: random.Random) -> np.ndarray:
    """A heart of two cubic Bezier halves, control points free within a heart's range."""
    dip, tip = rng.uniform(0.18, 0.32), rng.uniform(0.9, 1.0)
    c1, c2 = (rng.uniform(0.0, 0.2), rng.uniform(-0.15, 0.1)), (rng.uniform(-0.05, 0.1), rng.uniform(0.4, 0.7))
    half = _bezier((0.5, dip), (0.5 - 0.5 * c1[0] - 0.1, c1[1]), (c2[0], c2[1]), (0.5, tip))
    return _fit(np.concatenate([half, np.stack([1 - half[::-1, 0], half[::-1, 1]], 1)]))


def _bezier(p0, p1, p2, p3, n=80) -> np.ndarray:
    t = np.linspace(0, 1, n)[:, None]
    p0, p1, p2, p3 = (np.array(p, float) for p in (p0, p1, p2, p3))
    return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3


def heart_blocky(rng: random.Random) -> np.ndarray:
    """A heart as a coarse polygon, as a cheap print or a pixel font draws it."""
    fine = heart_lobes(rng)
    cs, _ = cv2.findContours(fine, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    poly = cv2.approxPolyDP(max(cs, key=cv2.contourArea), rng.uniform(4, 10), True).reshape(-1, 2) / S
    return _poly(poly * S)


HEARTS = (heart_lobes, heart_curve, heart_bezier, heart_blocky)


def diamond(rng: random.Random) -> np.ndarray:
    """A rhombus with straight, hollow or bulging sides (a superellipse) and its own width."""
    p, w = rng.choice([1.0, rng.uniform(0.55, 0.95), rng.uniform(1.05, 1.4)]), rng.uniform(0.55, 0.85)
    t = np.linspace(0, 2 * math.pi, 240)
    x = w * np.sign(np.cos(t)) * np.abs(np.cos(t)) ** (2 / p)
    y = np.sign(np.sin(t)) * np.abs(np.sin(t)) ** (2 / p)
    return _fit(np.stack([x, y], 1))


def stem(rng: random.Random, m: np.ndarray, top: float) -> np.ndarray:
    """A spade's or club's stem from ``top`` (fraction of the height) to the foot: a flared triangle, a trapezoid or
    a curved foot."""
    foot, neck = rng.uniform(0.22, 0.42) * S, rng.uniform(0.03, 0.08) * S
    kind = rng.randrange(3)
    bottom = S * 0.99
    if kind == 0:
        pts = [(S / 2 - neck, top * S), (S / 2 + neck, top * S), (S / 2 + foot, bottom), (S / 2 - foot, bottom)]
    elif kind == 1:
        pts = [(S / 2 - neck, top * S), (S / 2 + neck, top * S), (S / 2 + neck * 1.6, bottom - neck * 2),
               (S / 2 + foot, bottom), (S / 2 - foot, bottom), (S / 2 - neck * 1.6, bottom - neck * 2)]
    else:
        t = np.linspace(0, 1, 30)
        right = np.stack([S / 2 + neck + (foot - neck) * t ** 2.2, top * S + (bottom - top * S) * t], 1)
        pts = np.concatenate([right, np.stack([S - right[::-1, 0], right[::-1, 1]], 1)])
    return np.maximum(m, _poly(pts))


def spade(rng: random.Random, heart: np.ndarray) -> np.ndarray:
    """The deck's heart upside down, squeezed into the upper part, on a stem."""
    h = rng.uniform(0.7, 0.82)
    m = np.zeros((S, S), np.uint8)
    m[:round(S * h)] = cv2.resize(cv2.flip(heart, 0), (S, round(S * h)), interpolation=cv2.INTER_AREA)
    return stem(rng, m, h - 0.12)


def club(rng: random.Random) -> np.ndarray:
    """Three leaves (circles, ellipses or a trefoil curve) on a stem."""
    m = np.zeros((S, S), np.uint8)
    kind = rng.randrange(3)
    r, spread, rise = rng.uniform(0.19, 0.25), rng.uniform(0.24, 0.3), rng.uniform(0.2, 0.27)
    centre = (0.5, 0.5)
    leaves = [(0.5, centre[1] - rise), (0.5 - spread, centre[1] + 0.06), (0.5 + spread, centre[1] + 0.06)]
    if kind == 0:
        for cx, cy in leaves:
            _circle(m, (cx * S, cy * S), r * S)
        _circle(m, (0.5 * S, 0.52 * S), r * 0.6 * S)
    elif kind == 1:
        for (cx, cy), ang in zip(leaves, (90, 20, 160)):
            cv2.ellipse(m, (round(cx * S), round(cy * S)), (round(r * S * 1.15), round(r * S * 0.85)), ang, 0, 360,
                        255, -1, cv2.LINE_AA)
        _circle(m, (0.5 * S, 0.52 * S), r * 0.6 * S)
    else:
        a = rng.uniform(0.55, 0.85)
        t = np.linspace(0, 2 * math.pi, 300)
        rad = 1 + a * np.cos(3 * (t + math.pi / 2))
        pts = np.stack([rad * np.cos(t), -rad * np.sin(t) * -1], 1)
        m = np.maximum(m, cv2.resize(_fit(pts), (S, S)))
        m = np.roll(m, -round(S * 0.08), 0)
    return stem(rng, m, 0.6)


def _fit(pts: np.ndarray) -> np.ndarray:
    """A closed outline (any units) filled into the S x S square, its box fitted to the square's inner 96%."""
    pts = pts - pts.min(0)
    pts = pts / pts.max(0) * S * 0.96 + S * 0.02
    return _poly(pts)


def drawn_suits(rng: random.Random) -> dict[str, np.ndarray]:
    """The four suits drawn by this module's procedures: one heart procedure for the deck's hearts and spades."""
    heart = HEARTS[rng.randrange(len(HEARTS))](rng)
    return {"H": tight(heart / 255.0), "S": tight(spade(rng, heart) / 255.0), "D": tight(diamond(rng) / 255.0),
            "C": tight(club(rng) / 255.0)}


def glyph_suits(font: str) -> dict[str, np.ndarray]:
    return {s: text_mask(font, g, 120) for s, g in SUITS.items()}


@cache
def art_pips() -> tuple[dict[str, np.ndarray], ...]:
    """The middle pip of the three of each suit of every committed training style: suit artwork of other designs
    (the npm decks' outlines among them)."""
    sets = []
    for style in TRAIN_STYLES:
        pips = {}
        for s in SUITS:
            a = committed_face(style, f"{s}3")
            ink = ink_mask(a)
            n, lab, stats, cents = cv2.connectedComponentsWithStats(np.uint8(ink > 0.5))
            if n < 2:
                break
            mid = np.array([a.shape[1] / 2, a.shape[0] / 2])
            small = [i for i in range(1, n) if 10 <= stats[i, 3] < a.shape[0] / 4 and 8 <= stats[i, 2] < a.shape[1] / 3]
            if not small:  # (a frame's outline has its centre at the card's too)
                break
            best = min(small, key=lambda i: np.hypot(*(cents[i] - mid)))
            x, y, w, h = stats[best, :4]
            pips[s] = tight(ink[y:y + h, x:x + w] * (lab[y:y + h, x:x + w] == best))
        if len(pips) == 4:
            sets.append(pips)
    return tuple(sets)


def ink_mask(rgba: np.ndarray) -> np.ndarray:
    """How far each pixel of a face is from its stock colour (0..1)."""
    rgb = rgba[:, :, :3].astype(np.float32)
    stock = np.median(rgb[rgba[:, :, 3] > 200].reshape(-1, 3), 0)
    return np.clip((np.abs(rgb - stock).sum(2) - 60) / 120, 0, 1) * (rgba[:, :, 3] > 128)


# ---- the deck's design ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Design:
    rank_font: str
    bold: int  # px of stroke at the art's scale times SUPER (negative: thinned)
    suits: str  # "glyph:<font>", "drawn:<procedure seed>", "pips:<n>"
    suit_aspect: float
    ten: str
    beside: bool
    cap_mm: float  # the rank's capital height: 4-9 mm above the suit, 5-11 mm (jumbo) beside it
    suit_ratio: float  # the index's suit height over the rank's
    gap: float  # between rank and suit, in rank heights
    inset: tuple[float, float]  # mm from the left and top edges to the index's box
    width_mm: float
    radius_mm: float
    stock: tuple[int, int, int]  # BGR
    red: tuple[int, int, int]
    black: tuple[int, int, int]
    border: int  # 0 none, 1 a thin grey line, 2 an inner frame in the black ink
    misregister: tuple[float, float]
    blur: float
    court: int
    seed: int


SUPER = 2  # faces are drawn at twice the art's scale, then reduced


@lru_cache(maxsize=4096)
def design(style: str) -> Design:
    n = int(style[len(PREFIX):])
    rng = random.Random(f"deck-{n}")
    fonts = rank_fonts() or font_files()
    beside = rng.random() < 0.25
    # the index sizes: 5-11 mm tall beside the suit, the whole index (rank, gap, suit) at most 17 mm tall or
    # wide (a rank about as wide as it is tall); above it, 4-9 mm ranks
    cap = rng.uniform(5, 11) if beside else rng.uniform(4, 9)
    suit_ratio, gap = rng.uniform(0.55, 1.0), rng.uniform(0.05, 0.25)
    cap = min(cap, 17 / (1 + gap + suit_ratio))
    kind = rng.choices(["glyph", "drawn", "pips"], [0.45, 0.35, 0.2])[0]
    glyphs = suit_fonts()
    if kind == "glyph" and glyphs:
        suits = f"glyph:{rng.choice(glyphs)}"
    elif kind == "pips" and art_pips():
        suits = f"pips:{rng.randrange(len(art_pips()))}"
    else:
        suits = f"drawn:{rng.randrange(1 << 30)}"
    cream = rng.random() < 0.35
    base = rng.randint(238, 255)
    stock = (base - rng.randint(12, 40), base - rng.randint(2, 14), base) if cream else (base, base, base)
    red = (rng.randint(0, 60), rng.randint(0, 40), rng.randint(150, 235))
    dark = rng.randint(0, 45)
    black = (dark + rng.choice([0, 0, rng.randint(0, 60)]), dark, dark)
    return Design(rank_font=rng.choice(fonts), bold=rng.choice([0, 0, 0, 1, 2, -1]), suits=suits,
                  suit_aspect=rng.uniform(0.8, 1.2), ten="T" if rng.random() < 0.15 else "10", beside=beside,
                  cap_mm=cap, suit_ratio=suit_ratio, gap=gap, inset=(rng.uniform(2, 7), rng.uniform(2, 7)),
                  width_mm=rng.choice([63.0, 63.0, 57.0]) + rng.uniform(-0.6, 0.6), radius_mm=rng.uniform(2.0, 4.0),
                  stock=stock, red=red, black=black, border=rng.choices([0, 1, 2], [0.55, 0.35, 0.1])[0],
                  misregister=(rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6)), blur=rng.uniform(0, 0.45),
                  court=rng.randrange(3), seed=rng.randrange(1 << 30))


@lru_cache(maxsize=64)
def suit_masks(style: str) -> dict[str, np.ndarray]:
    d = design(style)
    kind, _, arg = d.suits.partition(":")
    if kind == "glyph":
        masks = glyph_suits(arg)
    elif kind == "pips":
        masks = art_pips()[int(arg)]
    else:
        masks = drawn_suits(random.Random(int(arg)))
    return {s: cv2.resize(m, (max(2, round(m.shape[1] * d.suit_aspect)), m.shape[0]), interpolation=cv2.INTER_AREA)
            for s, m in masks.items()}


def sized(mask: np.ndarray, height: float) -> np.ndarray:
    h = max(2, round(height))
    w = max(1, round(mask.shape[1] * h / mask.shape[0]))
    return cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA if h < mask.shape[0] else cv2.INTER_LINEAR)


def index_mask(style: str, card: str) -> np.ndarray:
    """The card's corner index at SUPER times the art's scale (a float mask), and nothing else."""
    d = design(style)
    cap = d.cap_mm * PX_MM * SUPER
    if card in ("BJ", "LJ"):
        letters = [text_mask(d.rank_font, ch, min(max(cap * 0.55, 2.5 * PX_MM * SUPER), 4.5 * PX_MM * SUPER), d.bold)
                   for ch in "JOKER"]
        width = max(m.shape[1] for m in letters)
        rows = [np.pad(m, ((0, round(cap * 0.12)), ((width - m.shape[1]) // 2, width - m.shape[1] - (width - m.shape[1]) // 2)))
                for m in letters]
        return np.concatenate(rows, 0)
    rank = text_mask(d.rank_font, d.ten if card[1] == "T" else card[1], cap, d.bold)
    if card[1] == "T" and d.ten == "10" and rank.shape[1] > cap * 1.1:  # decks squeeze "10" into the index's width
        rank = cv2.resize(rank, (round(rank.shape[1] * 0.8), rank.shape[0]), interpolation=cv2.INTER_AREA)
    suit = sized(suit_masks(style)[card[0]], cap * d.suit_ratio)
    gap = round(cap * d.gap)
    if d.beside:
        h = max(rank.shape[0], suit.shape[0])
        out = np.zeros((h, rank.shape[1] + gap + suit.shape[1]), np.float32)
        out[(h - rank.shape[0]) // 2:][:rank.shape[0], :rank.shape[1]] = rank
        out[(h - suit.shape[0]) // 2:][:suit.shape[0], rank.shape[1] + gap:] = suit
        return out
    w = max(rank.shape[1], suit.shape[1])
    out = np.zeros((rank.shape[0] + gap + suit.shape[0], w), np.float32)
    out[:rank.shape[0], (w - rank.shape[1]) // 2:][:, :rank.shape[1]] = rank
    out[rank.shape[0] + gap:, (w - suit.shape[1]) // 2:][:, :suit.shape[1]] = suit
    return out


def width_px(d: Design) -> int:
    return round(d.width_mm * PX_MM)


LAYOUT_FILE = "layout.json"  # beside an enrolled deck's faces (``vision.train.deck``): where its index lies


@lru_cache(maxsize=4096)
def layout(style: str) -> Layout:
    """Where a style's index lies: a drawn deck's (the box of its drawn king of spades, ten of hearts and joker), an
    enrolled deck's (its ``LAYOUT_FILE``), or the committed art's."""
    if not is_deck(style):
        saved = Path(style) / LAYOUT_FILE
        if not (saved.is_absolute() and saved.is_file()):
            return COMMITTED
        spec = json.loads(saved.read_text())
        return Layout(tuple(spec["size"]), tuple(spec["index"]), tuple(spec["box"]), bool(spec["beside"]))
    d = design(style)
    w = d.width_mm * PX_MM * SUPER
    hs = [index_mask(style, c).shape for c in ("SK", "HT", "BJ")]
    bw, bh = max(s[1] for s in hs), max(s[0] for s in hs)
    x0, y0 = d.inset[0] * PX_MM * SUPER, d.inset[1] * PX_MM * SUPER
    fw, fh = w, H * SUPER
    return Layout(size=(CARD_W * d.width_mm / 63.5, CARD_H), index=((x0 + bw / 2) / fw, (y0 + bh / 2) / fh),
                  box=(bw / fw * 1.1, bh / fh * 1.1), beside=d.beside)


PIPS = {  # pip centres in fractions of the pip area, the usual layouts
    "A": [(.5, .5)], "2": [(.5, 0), (.5, 1)], "3": [(.5, 0), (.5, .5), (.5, 1)],
    "4": [(0, 0), (1, 0), (0, 1), (1, 1)], "5": [(0, 0), (1, 0), (.5, .5), (0, 1), (1, 1)],
    "6": [(0, 0), (1, 0), (0, .5), (1, .5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (.5, .25), (0, .5), (1, .5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (.5, .25), (0, .5), (1, .5), (.5, .75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (.5, .5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "T": [(0, 0), (1, 0), (.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (.5, 5 / 6), (0, 1), (1, 1)],
}


def stamp(layer: np.ndarray, mask: np.ndarray, x: float, y: float, flip: bool = False) -> None:
    """Add ``mask`` into ``layer`` centred at (x, y) (in place), turned half round when ``flip``."""
    if flip:
        mask = mask[::-1, ::-1]
    h, w = mask.shape
    x0, y0 = round(x - w / 2), round(y - h / 2)
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + w, layer.shape[1]), min(y0 + h, layer.shape[0])
    if xb > xa and yb > ya:
        part = layer[ya:yb, xa:xb]
        np.maximum(part, mask[ya - y0:yb - y0, xa - x0:xb - x0], out=part)


@lru_cache(maxsize=54 * 24)
def face(style: str, card: str) -> np.ndarray:
    """The face of ``card`` in deck ``style``: BGRA uint8, ``H`` px tall, as wide as the deck's card."""
    d = design(style)
    lay = layout(style)
    rng = random.Random(f"{d.seed}-{card}")
    W, Hs = width_px(d) * SUPER, H * SUPER
    ink = np.zeros((Hs, W), np.float32)  # the card's colour ink (red, or black for black cards)
    other = np.zeros((Hs, W), np.float32)  # court art's second ink
    idx = index_mask(style, card)
    (cx, cy), (cx2, cy2) = lay.centres()
    stamp(ink, idx, cx * W, cy * Hs)
    stamp(ink, idx, cx2 * W, cy2 * Hs, flip=True)
    # the centre: pips within the area the indices leave free
    left, right, top = 0.27 * W, 0.73 * W, 0.17 * Hs
    if (lay.index[0] + lay.box[0] / 2) * W > left:  # a wide index: the pips below it
        top = max(top, (lay.index[1] + lay.box[1] / 2) * Hs + 0.02 * Hs)
    bottom = Hs - top
    colour_is_red = card[0] in RED or card == "BJ"
    if card in ("BJ", "LJ"):
        star = _poly(np.array([(0.5 + 0.5 * math.cos(a) * (1 if k % 2 == 0 else 0.42),
                                0.5 + 0.5 * math.sin(a) * (1 if k % 2 == 0 else 0.42))
                               for k, a in enumerate(np.linspace(-math.pi / 2, 1.5 * math.pi, 11)[:-1])]) * S) / 255.0
        stamp(ink, sized(star, (right - left) * 0.9), W / 2, Hs / 2)
        if card == "BJ":
            stamp(other, sized(star, (right - left) * 0.4), W / 2, Hs / 2)
    elif card[1] in "JQK":
        court(ink, other, d, card, (left, top, right, bottom), rng, suit_masks(style)[card[0]])
    else:
        pip = suit_masks(style)[card[0]]
        size = min(0.3 * Hs if card[1] == "A" else 0.125 * Hs * (0.9, 1.0, 1.1)[d.court], (right - left) * 0.45)
        m = sized(pip, size)
        for fx, fy in PIPS[card[1]]:
            stamp(ink, m, left + fx * (right - left) if card[1] != "A" else W / 2,
                  top + fy * (bottom - top) if card[1] != "A" else Hs / 2, flip=fy > 0.55)
    colour = np.float32(d.red if colour_is_red else d.black)
    second = np.float32(d.black if colour_is_red else d.red)
    img = np.empty((Hs, W, 3), np.float32)
    img[:] = np.float32(d.stock)
    dx, dy = (v * SUPER for v in d.misregister)
    other = cv2.warpAffine(other, np.float32([[1, 0, dx], [0, 1, dy]]), (W, Hs))
    img = img * (1 - other[..., None]) + second * other[..., None]
    img = img * (1 - ink[..., None]) + colour * ink[..., None]
    if d.border == 1:
        cv2.rectangle(img, (SUPER, SUPER), (W - 1 - SUPER, Hs - 1 - SUPER), (150, 150, 150), SUPER)
    elif d.border == 2:
        inset = round(1.5 * PX_MM * SUPER)
        cv2.rectangle(img, (inset, inset), (W - 1 - inset, Hs - 1 - inset), tuple(float(v) for v in d.black), 2)
    small = cv2.resize(img, (width_px(d), H), interpolation=cv2.INTER_AREA)
    if d.blur > 0.05:
        small = cv2.GaussianBlur(small, (0, 0), d.blur)
    alpha = np.zeros((Hs, W), np.uint8)
    r = round(d.radius_mm * PX_MM * SUPER)
    cv2.rectangle(alpha, (r, 0), (W - 1 - r, Hs - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (W - 1, Hs - 1 - r), 255, -1)
    for x, y in ((r, r), (W - 1 - r, r), (r, Hs - 1 - r), (W - 1 - r, Hs - 1 - r)):
        cv2.circle(alpha, (x, y), r, 255, -1, cv2.LINE_AA)
    alpha = cv2.resize(alpha, (width_px(d), H), interpolation=cv2.INTER_AREA)
    return np.dstack([np.clip(small, 0, 255).astype(np.uint8), alpha])


def court(ink: np.ndarray, other: np.ndarray, d: Design, card: str, box: tuple[float, float, float, float],
          rng: random.Random, pip: np.ndarray) -> None:
    """A court card's centre: a frame holding a figure of random shapes in both inks, and the rank and suit again."""
    left, top, right, bottom = box
    W = right - left
    thick = max(2, round(W * 0.012))
    frame = np.zeros_like(ink)
    cv2.rectangle(frame, (round(left), round(top)), (round(right), round(bottom)), 1.0, thick)
    np.maximum(ink, frame, out=ink)
    for _ in range(rng.randint(6, 14)):
        layer = ink if rng.random() < 0.5 else other
        c = (round(rng.uniform(left, right)), round(rng.uniform(top, (top + bottom) / 2)))
        axes = (round(rng.uniform(0.05, 0.25) * W), round(rng.uniform(0.03, 0.15) * W))
        part = np.zeros_like(ink)
        cv2.ellipse(part, c, axes, rng.uniform(0, 180), 0, 360, 1.0, -1 if rng.random() < 0.6 else thick)
        part[:, :round(left) + thick] = 0
        part[:, round(right) - thick:] = 0
        part[:round(top) + thick] = 0
        part[round((top + bottom) / 2):] = 0
        np.maximum(layer, part, out=layer)
        mirrored = part[::-1, ::-1]
        np.maximum(layer, mirrored, out=layer)
    if d.court != 1:  # a large rank letter and suit in the figure
        letter = text_mask(d.rank_font, card[1], W * 0.22)
        stamp(ink, letter, left + W * 0.2, top + W * 0.2)
        stamp(ink, sized(pip, W * 0.16), left + W * 0.2, top + W * 0.45)


class Rotation:
    """The styles a data worker draws from now: every committed style of ``styles`` and ``active`` of its drawn decks
    at a time (one replaced every ``every`` calls), so that a drawn deck's faces, once drawn, serve many samples;
    the drawn decks take about ``share`` of the draws. Without drawn decks, ``styles`` as they are.

    >>> rot = Rotation([*(f"style-{i}" for i in range(20)), *names(0, 50)], random.Random(1), active=4)
    >>> now = rot()
    >>> len(set(now)), round(sum(is_deck(s) for s in now) / len(now), 1)
    (24, 0.6)
    """

    def __init__(self, styles: list[str], rng: random.Random, share: float = 0.6, active: int = 12,
                 every: int = 3) -> None:
        self.committed = [s for s in styles if not is_deck(s)]
        self.decks = [s for s in styles if is_deck(s)]
        self.rng, self.every, self.calls = rng, every, 0
        self.active = rng.sample(self.decks, min(active, len(self.decks)))
        self.copies = math.ceil(share / (1 - share) * max(len(self.committed), 1) / max(len(self.active), 1))

    def __call__(self) -> list[str]:
        if not self.decks:
            return self.committed
        self.calls += 1
        if self.calls % self.every == 0:
            self.active[self.rng.randrange(len(self.active))] = self.rng.choice(self.decks)
        return self.committed + self.active * self.copies if self.committed else list(self.active)
