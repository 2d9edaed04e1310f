"""Table geometry shared by the renderer and the pipeline: card size, corner indices, the canonical top-down view.

Table coordinates: (0,0) at marker 0 (N-W), (1,1) at marker 2 (S-E); one unit is the distance between marker
centres (about 76 cm on an 85 cm table). The canonical view is the table warped to ``CANON`` px square,
``PX`` px per unit, with ``MARGIN`` px around the unit square.

>>> to_canon((0.0, 0.0)), to_canon((1.0, 1.0))
((44.0, 44.0), (764.0, 764.0))
>>> seat_of((0.5, 0.9)), seat_of((0.95, 0.5)), seat_of((0.5, 0.1)), seat_of((0.02, 0.6))
('S', 'E', 'N', 'W')
"""

from __future__ import annotations

import math

import numpy as np

CARD_W, CARD_H = 0.0836, 0.117  # 63.5 x 88.9 mm on a 76 cm marker square
PX = 720
MARGIN = 44
CANON = PX + 2 * MARGIN  # 808, a multiple of 8
# Corner index centres in card fractions (x right, y down, card upright): top left and bottom right.
INDEX_CENTRES = ((0.10, 0.15), (0.90, 0.85))
INDEX_SIZE = (0.20, 0.30)  # the index box (rank over suit) in card fractions
SEATS = ("S", "E", "N", "W")


def to_canon(p: tuple[float, float]) -> tuple[float, float]:
    return (p[0] * PX + MARGIN, p[1] * PX + MARGIN)


def from_canon(p: tuple[float, float]) -> tuple[float, float]:
    return ((p[0] - MARGIN) / PX, (p[1] - MARGIN) / PX)


def canon_from_table() -> np.ndarray:
    """The 3x3 matrix taking table coordinates to canonical pixels."""
    return np.array([[PX, 0, MARGIN], [0, PX, MARGIN], [0, 0, 1]], dtype=np.float64)


def seat_of(p: tuple[float, float]) -> str:
    """The seat whose triangle holds ``p``: the nearest table edge (y=1 S, x=1 E, y=0 N, x=0 W)."""
    x, y = p
    dists = {"S": 1 - y, "E": 1 - x, "N": y, "W": x}
    return min(SEATS, key=lambda s: dists[s])


def card_corners(cx: float, cy: float, angle_deg: float, w: float = CARD_W, h: float = CARD_H) -> np.ndarray:
    """The four corners (top left, top right, bottom right, bottom left of the upright card) of a card centred at
    (cx, cy) turned by ``angle_deg`` (clockwise on the image, y down)."""
    a = math.radians(angle_deg)
    ux, uy = math.cos(a), math.sin(a)  # the card's x axis
    vx, vy = -math.sin(a), math.cos(a)  # its y axis (down)
    pts = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    return np.array([(cx + fx * w * ux + fy * h * vx, cy + fx * w * uy + fy * h * vy) for fx, fy in pts])


def card_point(cx: float, cy: float, angle_deg: float, fx: float, fy: float, w: float = CARD_W,
               h: float = CARD_H) -> tuple[float, float]:
    """The point at card fractions (fx, fy) of that card (``w`` x ``h``), in the card's coordinates' space."""
    a = math.radians(angle_deg)
    dx, dy = (fx - 0.5) * w, (fy - 0.5) * h
    return (cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a))
