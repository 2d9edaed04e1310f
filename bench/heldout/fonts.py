"""Font files of the held-out decks and their glyphs drawn as filled outlines, by our own code (fontTools reads the
outlines; curves are flattened here and filled with OpenCV): nothing of the training renderer's Chromium.

Every file comes from a Debian package that training never uses (``PACKAGES``; ``tests/vision/test_heldout.py``
checks the names and files against every font the training code names). Test families and calibration families
draw from two disjoint sets of files (``TEST_FONTS``, ``CALIBRATION_FONTS``), so calibrating on the one cannot tune
to the other.

>>> shape = glyphs(TEST_FONTS["spartan"], "10")
>>> len(shape.contours) >= 3, round(shape.width / shape.height, 2) > 0.5
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

# Debian package -> what the held-out decks take from it
PACKAGES = {
    "fonts-ebgaramond": "EB Garamond (old-style serif ranks)",
    "fonts-league-spartan": "League Spartan (geometric sans ranks)",
    "fonts-crosextra-carlito": "Carlito (humanist sans ranks)",
    "fonts-oldstandard": "Old Standard TT (didone ranks)",
    "fonts-cabin": "Cabin (sans ranks)",
    "fonts-go": "Go Mono (slab monospace ranks)",
    "fonts-comfortaa": "Comfortaa (rounded ranks)",
    "fonts-stix": "STIX General (suit glyphs)",
    "fonts-symbola": "Symbola (suit glyphs)",
    "fonts-oflb-asana-math": "Asana Math (suit glyphs)",
    "fonts-cantarell": "Cantarell (calibration ranks)",
    "fonts-junicode": "Junicode (calibration ranks)",
    "fonts-karla": "Karla (calibration ranks)",
    "fonts-cardo": "Cardo (calibration ranks)",
    "fonts-quattrocento": "Quattrocento (calibration ranks)",
}
_OT, _TT = "/usr/share/fonts/opentype", "/usr/share/fonts/truetype"
TEST_FONTS = {
    "garamond": f"{_OT}/ebgaramond/EBGaramond12-Bold.otf",
    "spartan": f"{_OT}/league-spartan/LeagueSpartan-Bold.otf",
    "carlito": f"{_TT}/crosextra/Carlito-Bold.ttf",
    "oldstandard": f"{_TT}/fonts-oldstandard/OldStandard-Bold.ttf",
    "cabin": f"{_OT}/cabin/Cabin-SemiBold.otf",
    "gomono": "/usr/share/fonts/fonts-go/Go-Mono-Bold.ttf",
    "comfortaa": f"{_TT}/comfortaa/Comfortaa-Bold.ttf",
    "stix": f"{_OT}/stix/STIXGeneral-Regular.otf",
    "symbola": f"{_TT}/ancient-scripts/Symbola_hint.ttf",
}
CALIBRATION_FONTS = {
    "cantarell": f"{_OT}/cantarell/Cantarell-Bold.otf",
    "junicode": f"{_OT}/junicode/JunicodeTwoBeta-Bold.otf",
    "karla": f"{_TT}/karla/Karla-Bold.otf",
    "cardo": f"{_TT}/cardo/Cardob101.ttf",
    "quattrocento": f"{_OT}/quattrocento/Quattrocento-Regular.otf",
    "asana": f"{_OT}/asana-math/Asana-Math.otf",
}
SUIT_CODES = {"S": 0x2660, "H": 0x2665, "D": 0x2666, "C": 0x2663}


class MissingFont(RuntimeError):
    """A held-out font file is not installed (``make setup`` installs the packages of ``PACKAGES``)."""


@dataclass(frozen=True)
class Shape:
    """Filled outlines in a unit where y grows downwards, the ink's box at (0, 0)-(width, height)."""
    contours: tuple[np.ndarray, ...]  # each (n, 2) float
    width: float
    height: float


def _flatten_pen(steps: int = 8):
    """A fontTools pen that turns a glyph's curves into polylines (``.contours``)."""
    from fontTools.pens.basePen import BasePen

    t = np.linspace(0, 1, steps + 1)[1:, None]

    class Flatten(BasePen):
        def __init__(self):
            super().__init__(None)
            self.contours, self.pts = [], []

        def _moveTo(self, p):  # noqa: N802 (the pen protocol's names)
            self.pts = [p]

        def _lineTo(self, p):  # noqa: N802
            self.pts.append(p)

        def _curveToOne(self, a, b, c):  # noqa: N802
            p0, a, b, c = (np.array(p, float) for p in (self.pts[-1], a, b, c))
            self.pts += [tuple(q) for q in (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * a + 3 * (1 - t) * t ** 2 * b
                         + t ** 3 * c]

        def _qCurveToOne(self, a, b):  # noqa: N802
            p0, a, b = (np.array(p, float) for p in (self.pts[-1], a, b))
            self.pts += [tuple(q) for q in (1 - t) ** 2 * p0 + 2 * (1 - t) * t * a + t ** 2 * b]

        def _closePath(self):  # noqa: N802
            if len(self.pts) > 2:
                self.contours.append(np.array(self.pts, float))
            self.pts = []

        _endPath = _closePath

    return Flatten()


@cache
def _font(path: str):
    from fontTools.ttLib import TTFont

    try:
        return TTFont(path, lazy=True)
    except FileNotFoundError as e:
        raise MissingFont(f"held-out font not installed: {path} (install the Debian packages of "
                          f"bench/heldout/fonts.py PACKAGES; `make setup` does)") from e


@cache
def glyphs(path: str, text: str, tracking: float = 0.04) -> Shape:
    """``text`` set in the font at ``path`` on one line (``tracking``: extra space between letters, in ems), as
    outlines scaled so that the ink is 1 unit tall."""
    from fontTools.pens.transformPen import TransformPen
    from fontTools.pens.recordingPen import DecomposingRecordingPen

    font = _font(path)
    gs, cmap, em = font.getGlyphSet(), font.getBestCmap(), font["head"].unitsPerEm
    x, contours = 0.0, []
    for ch in text:
        name = cmap.get(ord(ch))
        if name is None:
            raise MissingFont(f"{path} has no glyph for {ch!r}")
        rec = DecomposingRecordingPen(gs)
        gs[name].draw(rec)
        pen = _flatten_pen()
        rec.replay(TransformPen(pen, (1, 0, 0, -1, x, 0)))
        contours += pen.contours
        x += gs[name].width + tracking * em
    pts = np.concatenate(contours)
    lo, hi = pts.min(0), pts.max(0)
    h = float(hi[1] - lo[1])
    return Shape(tuple((c - lo) / h for c in contours), float(hi[0] - lo[0]) / h, 1.0)


def suit_glyph(path: str, suit: str) -> Shape:
    """The suit sign of ``suit`` (S, H, D, C) as the font at ``path`` draws it."""
    return glyphs(path, chr(SUIT_CODES[suit]), 0.0)


def fill(canvas: np.ndarray, shape: Shape, box: tuple[float, float, float, float], colour, angle: float = 0.0,
         bold: int = 0) -> None:
    """Fill ``shape`` into ``canvas`` (in place) stretched into ``box`` (x, y, w, h px), turned ``angle`` degrees
    about the box's centre; ``bold`` px of extra ink around it."""
    x, y, w, h = box
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    cx, cy = x + w / 2, y + h / 2
    polys = []
    for pts in shape.contours:
        px = pts[:, 0] / max(shape.width, 1e-6) * w - w / 2
        py = pts[:, 1] / shape.height * h - h / 2
        polys.append(np.round(np.stack([cx + c * px - s * py, cy + s * px + c * py], 1) * 16).astype(np.int32))
    cv2.fillPoly(canvas, polys, colour, cv2.LINE_AA, 4)
    if bold:
        cv2.polylines(canvas, polys, True, colour, bold, cv2.LINE_AA, 4)
