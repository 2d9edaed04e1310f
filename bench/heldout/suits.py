"""Suit signs of the held-out decks, drawn by procedures of our own (``lobes``: circles, wedges and stems; ``curve``:
the classic heart curve, a polar trefoil and concave diamonds), each with its family's proportions, or taken from a
held-out font's glyphs (``fonts.suit_glyph``). Shapes are drawn into a mask and traced back to outlines, so any
union of parts fills cleanly.

>>> s = suit("lobes", "C", (0.3, 0.5, 0.2, 0.6))
>>> 0.7 < s.width / s.height < 1.3, len(s.contours) >= 1
(True, True)
"""

from __future__ import annotations

import math
from functools import cache

import cv2
import numpy as np

from bench.heldout.fonts import Shape, suit_glyph

N = 480  # the mask's side


def _trace(mask: np.ndarray) -> Shape:
    contours, _ = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    pts = np.concatenate([c[:, 0] for c in contours]).astype(float)
    lo, hi = pts.min(0), pts.max(0) + 1
    h = float(hi[1] - lo[1])
    return Shape(tuple((c[:, 0].astype(float) - lo) / h for c in contours), float(hi[0] - lo[0]) / h, 1.0)


def _poly(mask, pts) -> None:
    cv2.fillPoly(mask, [np.round(np.array(pts) * N).astype(np.int32)], 255)


def _circle(mask, c, r) -> None:
    cv2.circle(mask, (round(c[0] * N), round(c[1] * N)), round(r * N), 255, -1)


def _lobes(suit: str, p: tuple[float, ...]) -> np.ndarray:
    """Hearts of two circles over a wedge; spades the same upside down on a stem; clubs three circles on a stem."""
    r, spread, stem, point = p  # lobe radius, how far apart the lobes are, stem width, how long the point is
    m = np.zeros((N, N), np.uint8)
    if suit == "D":
        w = 0.18 + 0.25 * spread
        _poly(m, [(0.5, 0.1), (0.5 + w, 0.5), (0.5, 0.9), (0.5 - w, 0.5)])
        return m
    if suit in "HS":
        d = r * (0.55 + 0.6 * spread)
        y = 0.32
        tip = y + r + 0.2 + 0.25 * point
        _circle(m, (0.5 - d, y), r)
        _circle(m, (0.5 + d, y), r)
        a = math.atan2(tip - y, d) + math.pi / 2  # the wedge meets the lobes on their outer sides
        _poly(m, [(0.5 - d - r * math.sin(a), y - r * math.cos(a) * 0.2), (0.5 + d + r * math.sin(a),
                                                                            y - r * math.cos(a) * 0.2), (0.5, tip)])
        if suit == "S":
            m = m[::-1].copy()
            base = 1 - y + 0.02
            _poly(m, [(0.5 - 0.025, base - 0.1), (0.5 + 0.025, base - 0.1), (0.5 + 0.06 + 0.1 * stem, 0.95),
                      (0.5 - 0.06 - 0.1 * stem, 0.95)])
        return m
    d = r * (0.85 + 0.25 * spread)  # clubs
    _circle(m, (0.5, 0.5 - d), r)
    _circle(m, (0.5 - d * 0.95, 0.5 + d * 0.35), r)
    _circle(m, (0.5 + d * 0.95, 0.5 + d * 0.35), r)
    _circle(m, (0.5, 0.5), r * 0.6)
    _poly(m, [(0.5 - 0.025, 0.55), (0.5 + 0.025, 0.55), (0.5 + 0.06 + 0.1 * stem, 0.5 + d + r + 0.1),
              (0.5 - 0.06 - 0.1 * stem, 0.5 + d + r + 0.1)])
    return m


def _curve(suit: str, p: tuple[float, ...]) -> np.ndarray:
    """The heart curve x = sin^3 t, y = (13 cos t - 5 cos 2t - 2 cos 3t - cos 4t) / 16 (its fullness ``p[0]``), a
    trefoil r = 1 + k |cos 1.5 t| for clubs, diamonds with concave sides."""
    full, waist, stem, bend = p
    m = np.zeros((N, N), np.uint8)
    t = np.linspace(0, 2 * math.pi, 400)
    if suit == "D":
        side = np.linspace(0, 1, 40)
        pts = []
        for (ax, ay), (bx, by) in (((0.5, 0.08), (0.85, 0.5)), ((0.85, 0.5), (0.5, 0.92)), ((0.5, 0.92), (0.15, 0.5)),
                                   ((0.15, 0.5), (0.5, 0.08))):
            mx, my = (ax + bx) / 2 + (0.5 - (ax + bx) / 2) * bend, (ay + by) / 2 + (0.5 - (ay + by) / 2) * bend
            pts += [((1 - s) ** 2 * ax + 2 * (1 - s) * s * mx + s ** 2 * bx,
                     (1 - s) ** 2 * ay + 2 * (1 - s) * s * my + s ** 2 * by) for s in side]
        xs = np.array(pts)
        xs[:, 0] = 0.5 + (xs[:, 0] - 0.5) * (0.75 + 0.4 * waist)
        _poly(m, xs)
        return m
    if suit in "HS":
        x = np.sin(t) ** 3 * (0.9 + 0.3 * full)
        y = -(13 * np.cos(t) - 5 * full * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) / 16
        pts = np.stack([0.5 + x * 0.38, 0.47 + y * 0.38], 1)
        if suit == "S":
            pts[:, 1] = 0.9 - pts[:, 1]
        _poly(m, pts)
        if suit == "S":
            u = np.linspace(0, 1, 30)
            left = np.stack([0.5 - stem * 0.05 - u ** 2 * stem * 0.3, 0.6 + u * 0.34], 1)
            _poly(m, np.concatenate([left, left[::-1] * (-1, 1) + (1, 0)]))
        return m
    r = 0.16 + 0.1 * np.abs(np.cos(1.5 * (t - math.pi / 2))) ** (0.5 + full)
    pts = np.stack([0.5 + r * np.cos(t) * 1.25, 0.45 - r * np.sin(t) * 1.25], 1)
    _poly(m, pts)
    u = np.linspace(0, 1, 30)
    left = np.stack([0.5 - stem * 0.05 - u ** 2 * stem * 0.25, 0.5 + u * 0.42], 1)
    _poly(m, np.concatenate([left, left[::-1] * (-1, 1) + (1, 0)]))
    return m


@cache
def suit(procedure: str, s: str, params: tuple[float, ...] = (0.5, 0.5, 0.5, 0.5)) -> Shape:
    """The sign of suit ``s`` drawn by ``procedure`` (``lobes``, ``curve``, or ``font:PATH`` for a font's glyph)
    with the family's ``params`` (four numbers in 0..1; ``lobes`` takes the lobe radius, their spread, the stem's
    width, the point's length)."""
    if procedure.startswith("font:"):
        return suit_glyph(procedure[5:], s)
    if procedure == "lobes":
        r, spread, stem, point = params
        return _trace(_lobes(s, (0.14 + 0.06 * r, spread, stem, point)))
    if procedure == "curve":
        return _trace(_curve(s, params))
    raise ValueError(f"unknown suit procedure {procedure!r}")
