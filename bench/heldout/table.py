"""Held-out tables and their camera frames, composed and drawn by code of their own: plays laid at the seats of
``shared/table-layout.md`` as players leave them (rows, fans, cascades, piles; pairs from several decks of one
design), hands over them, felt, the four markers, a camera up to 25 degrees off straight down, light, glare, blur,
noise and JPEG. Each frame comes with its truth: every card's name, centre, seat and how much of each corner
index's ink shows.

>>> import random
>>> from bench.heldout.decks import FAMILIES
>>> shot = frame(random.Random(1), FAMILIES["carlito-beside"], (1280, 960))
>>> shot.image.shape, all(t.seat == seat_of(t.centre) for t in shot.truth)
((960, 1280, 3), True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from bench.heldout.decks import RES, Family, face, index_box

UNIT_MM = 760.0  # one table unit (marker centre to marker centre), mm
TOP = (-0.085, 1.085)  # the table top around the marker square, table units
MARKER = 0.079  # printed marker side, table units (6 cm)
SEATS = "SENW"
FACING = {"S": 0.0, "E": -90.0, "N": 180.0, "W": 90.0}  # card upright for that player, degrees clockwise on the image
FELTS = ((45, 105, 35), (110, 70, 25), (35, 35, 110), (65, 70, 70), (40, 70, 110), (90, 120, 40))
SKINS = ((105, 150, 200), (80, 120, 170), (60, 90, 140), (140, 170, 215), (45, 45, 45), (150, 70, 40))


@dataclass(frozen=True)
class Laid:
    card: str
    x: float
    y: float
    angle: float  # degrees clockwise on the image (y down); 0: upright for the player at S


@dataclass(frozen=True)
class Truth:
    card: str
    centre: tuple[float, float]  # table units
    seat: str
    seen: tuple[float, float]  # the visible share of each corner index's ink box


@dataclass(frozen=True)
class Shot:
    image: np.ndarray
    truth: tuple[Truth, ...]
    homography: np.ndarray  # table units -> image px


def seat_of(p: tuple[float, float]) -> str:
    """The seat whose triangle holds ``p``: the nearest edge (y=1 S, x=1 E, y=0 N, x=0 W).

    >>> seat_of((0.5, 0.8)), seat_of((0.9, 0.4)), seat_of((0.4, 0.1)), seat_of((0.1, 0.6))
    ('S', 'E', 'N', 'W')
    """
    x, y = p
    return min(zip((1 - y, 1 - x, y, x), SEATS))[1]


def _on_card(f: Family, c: Laid, u: float, v: float) -> tuple[float, float]:
    """The table point at (u, v) mm from the card's top-left corner."""
    a = math.radians(c.angle)
    dx, dy = (u - f.size[0] / 2) / UNIT_MM, (v - f.size[1] / 2) / UNIT_MM
    return c.x + dx * math.cos(a) - dy * math.sin(a), c.y + dx * math.sin(a) + dy * math.cos(a)


def _play(rng: random.Random, f: Family, seat: str, cards: list[str]) -> list[Laid]:
    w, h = f.size[0] / UNIT_MM, f.size[1] / UNIT_MM
    depth, across = rng.uniform(0.17, 0.31), rng.uniform(0.36, 0.64)
    cx, cy = {"S": (across, 1 - depth), "E": (1 - depth, across), "N": (across, depth), "W": (depth, across)}[seat]
    face_to = FACING[seat] + rng.uniform(-30, 30)
    a = math.radians(face_to)
    right, down = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
    kind = rng.choices(["row", "fan", "cascade", "pile"], [0.45, 0.3, 0.1, 0.15])[0]
    n, out = len(cards), []
    if kind in ("row", "cascade"):
        step = rng.uniform(0.28, 0.7) * (w if kind == "row" else h * 0.6)
        axis = right if kind == "row" else down
        for i, card in enumerate(cards):
            t = (i - (n - 1) / 2) * step
            out.append(Laid(card, cx + t * axis[0], cy + t * axis[1], face_to + rng.uniform(-3, 3)))
    elif kind == "fan":
        spread, radius = rng.uniform(7, 18), h * rng.uniform(0.6, 1.0)
        px, py = cx + radius * down[0], cy + radius * down[1]
        for i, card in enumerate(cards):
            ang = face_to + (i - (n - 1) / 2) * spread
            r = math.radians(ang)
            out.append(Laid(card, px + radius * math.sin(r), py - radius * math.cos(r), ang))
    else:
        for card in cards:
            out.append(Laid(card, cx + rng.uniform(-0.035, 0.035), cy + rng.uniform(-0.035, 0.035),
                            face_to + rng.uniform(-35, 35)))
    return out


def compose(rng: random.Random, f: Family, most: int = 8) -> tuple[list[Laid], list[tuple]]:
    """A table mid-trick: each seat's play (0..``most`` cards, pairs of one card from two decks at times) and now
    and then a hand over it (``(base, tip, width, colour)`` in table units)."""
    decks = rng.randint(2, 4)
    pool = [c for c in f.cards for _ in range(decks)]
    rng.shuffle(pool)
    laid: list[Laid] = []
    for seat in SEATS:
        if rng.random() < 0.15:
            continue
        cards = [pool.pop() for _ in range(rng.randint(1, most))]
        if len(cards) >= 2 and rng.random() < 0.35:
            cards[1] = cards[0]
        laid += _play(rng, f, seat, cards)
    hands = []
    if laid and rng.random() < 0.3:
        c = rng.choice(laid)
        edge = rng.choice(SEATS)
        t = rng.uniform(0.15, 0.85)
        base = {"S": (t, 1.2), "E": (1.2, t), "N": (t, -0.2), "W": (-0.2, t)}[edge]
        hands.append((base, (c.x + rng.uniform(-0.06, 0.06), c.y + rng.uniform(-0.06, 0.06)), rng.uniform(0.06, 0.1),
                      rng.choice(SKINS)))
    return laid, hands


def _felt(rng: np.random.Generator, n: int, colour) -> np.ndarray:
    blotch = cv2.resize(rng.normal(0, 1, (9, 9, 3)).astype(np.float32), (n, n), interpolation=cv2.INTER_LINEAR)
    weave = np.sin(np.arange(n, dtype=np.float32) * rng.uniform(1.5, 2.5))[:, None] * np.float32(0.015)
    fibre = rng.normal(0, 0.04, (n, n, 1)).astype(np.float32)
    return np.clip(np.float32(colour) * (1 + 0.05 * blotch + weave[..., None] + fibre), 0, 255)


def _put(top: np.ndarray, rgba: np.ndarray, m: np.ndarray, shadow: float) -> np.ndarray:
    """Blend ``rgba`` into ``top`` through the affine ``m`` (its px -> top px); returns the coverage mask (0..1)."""
    h, w = top.shape[:2]
    quad = cv2.transform(np.float32([[[0, 0], [rgba.shape[1], 0], [rgba.shape[1], rgba.shape[0]], [0, rgba.shape[0]]]]), m)[0]
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int) - 6, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 6, (w, h))
    if x1 <= x0 or y1 <= y0:
        return np.zeros((0, 0), np.float32), (0, 0)
    mm = m.copy()
    mm[:, 2] -= (x0, y0)
    part = cv2.warpAffine(rgba, mm, (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=0).astype(np.float32)
    alpha = part[..., 3:] / 255
    region = top[y0:y1, x0:x1]
    if shadow:
        soft = cv2.GaussianBlur(alpha[..., 0], (0, 0), 2.5)
        soft = np.roll(soft, (2, 2), (0, 1))[..., None]
        region *= 1 - shadow * soft
    region[:] = region * (1 - alpha) + part[..., :3] * alpha
    return alpha[..., 0], (x0, y0)


def draw_table(rng: random.Random, f: Family, laid: list[Laid], hands: list[tuple], px: float):
    """The table top from straight above at ``px`` px per unit, and each card's truth."""
    g = np.random.default_rng(rng.randrange(1 << 30))
    n = int(round((TOP[1] - TOP[0]) * px))
    top = _felt(g, n, rng.choice(FELTS))

    def to_px(p):
        return ((p[0] - TOP[0]) * px, (p[1] - TOP[0]) * px)

    for i, (mx, my) in enumerate(((0, 0), (1, 0), (1, 1), (0, 1))):
        mark = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), i, 120)
        paper = cv2.cvtColor(cv2.copyMakeBorder(mark, 30, 30, 30, 30, cv2.BORDER_CONSTANT, value=248),
                             cv2.COLOR_GRAY2BGRA)
        side = MARKER * 180 / 120 * px
        x, y = to_px((mx, my))
        s = side / paper.shape[0]
        _put(top, paper, np.float32([[s, 0, x - side / 2], [0, s, y - side / 2]]), 0.0)
    scale = px / UNIT_MM / RES  # table px per face px
    covers = []
    for c in laid:
        art = face(f, c.card)
        small = cv2.resize(art, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else art
        k = scale * art.shape[1] / small.shape[1]
        a = math.radians(c.angle)
        cx, cy = to_px((c.x, c.y))
        hw, hh = small.shape[1] / 2, small.shape[0] / 2
        m = np.float32([[k * math.cos(a), -k * math.sin(a), 0], [k * math.sin(a), k * math.cos(a), 0]])
        m[:, 2] = (cx, cy) - m[:, :2] @ (hw, hh)
        covers.append(_put(top, small, m, 0.35))
    seen_mask = np.zeros((n, n), np.uint8)
    for (base, tip, width, colour) in hands:
        b, t = to_px(base), to_px(tip)
        for target, value in ((top, colour), (seen_mask, 255)):
            cv2.line(target, tuple(map(int, b)), tuple(map(int, t)), value, int(width * px))
            cv2.ellipse(target, tuple(map(int, t)), (int(width * px * 0.7), int(width * px * 0.55)),
                        math.degrees(math.atan2(t[1] - b[1], t[0] - b[0])), 0, 360, value, -1)
    truth = []
    for c, (alpha, (x0, y0)) in reversed(list(zip(laid, covers))):
        seen = []
        for turn in (False, True):
            u0, v0, u1, v1 = index_box(f, c.card)
            if turn:
                u0, v0, u1, v1 = f.size[0] - u1, f.size[1] - v1, f.size[0] - u0, f.size[1] - v0
            quad = np.float32([to_px(_on_card(f, c, u, v)) for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))])
            box = np.zeros((n, n), np.uint8)
            cv2.fillConvexPoly(box, np.int32(np.round(quad)), 1)
            total = int(box.sum())
            seen.append(float((box & (seen_mask == 0)).sum()) / total if total else 0.0)
        truth.append(Truth(c.card, (c.x, c.y), seat_of((c.x, c.y)), (seen[0], seen[1])))
        if alpha.size:
            part = seen_mask[y0:y0 + alpha.shape[0], x0:x0 + alpha.shape[1]]
            part[alpha[:part.shape[0], :part.shape[1]] > 0.5] = 255
    return top, tuple(reversed(truth))


def camera(rng: random.Random, size: tuple[int, int]) -> np.ndarray:
    """A camera's homography (table units -> image px): a pinhole 1.5-1.9 units above the table, tilted up to 25
    degrees any way, turned any way about its axis, the table filling 78-95% of the frame's height."""
    tilt, azimuth, roll = math.radians(rng.uniform(0, 25)), rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
    dist = rng.uniform(1.5, 1.9)
    eye = np.array([0.5 + dist * math.sin(tilt) * math.cos(azimuth), 0.5 + dist * math.sin(tilt) * math.sin(azimuth),
                    -dist * math.cos(tilt)])
    forward = (np.array([0.5, 0.5, 0.0]) - eye) / dist
    side = np.cross(forward, [math.cos(roll), math.sin(roll), 0.0])
    side /= np.linalg.norm(side)
    up = np.cross(forward, side)
    corners = np.float32([[TOP[0], TOP[0]], [TOP[1], TOP[0]], [TOP[1], TOP[1]], [TOP[0], TOP[1]]])
    seen = []
    for x, y in corners:
        d = np.array([x, y, 0.0]) - eye
        seen.append((d @ side / (d @ forward), d @ up / (d @ forward)))
    seen = np.float32(seen)
    w, h = size
    lo, hi = seen.min(0), seen.max(0)
    k = min(rng.uniform(0.78, 0.95) * h / (hi[1] - lo[1]), 0.97 * w / (hi[0] - lo[0]))
    room = (w - k * (hi[0] - lo[0]), h - k * (hi[1] - lo[1]))
    off = (rng.uniform(0.2, 0.8) * room[0] - k * lo[0], rng.uniform(0.2, 0.8) * room[1] - k * lo[1])
    return cv2.getPerspectiveTransform(corners, seen * k + np.float32(off))


def frame(rng: random.Random, f: Family, size: tuple[int, int], most: int = 8) -> Shot:
    """One camera frame of a random held-out table in family ``f``."""
    laid, hands = compose(rng, f, most)
    hom = camera(rng, size)
    area = abs(cv2.contourArea(cv2.perspectiveTransform(np.float32([[[0, 0], [1, 0], [1, 1], [0, 1]]]), hom)))
    px = max(400.0, 1.3 * math.sqrt(area))
    top, truth = draw_table(rng, f, laid, hands, px)
    from_top = hom @ np.array([[1 / px, 0, TOP[0]], [0, 1 / px, TOP[0]], [0, 0, 1]])
    w, h = size
    g = np.random.default_rng(rng.randrange(1 << 30))
    wall = cv2.resize(g.uniform(25, 110, (3, 4, 3)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img = cv2.warpPerspective(top, from_top, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                              borderValue=(-1, -1, -1))
    img = np.where(img < 0, wall, img)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a, r = rng.uniform(0, 2 * math.pi), math.hypot(w, h) / 2
    light = 1 + rng.uniform(0, 0.35) * ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / r
    light *= 1 - rng.uniform(0, 0.25) * (((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / r ** 2)
    if rng.random() < 0.3:  # a soft cast shadow
        c = (rng.uniform(0, w), rng.uniform(0, h))
        blob = np.exp(-(((xx - c[0]) / (0.25 * w)) ** 2 + ((yy - c[1]) / (0.2 * h)) ** 2))
        light *= 1 - rng.uniform(0.15, 0.4) * blob
    img = img * light[..., None] * np.float32([rng.uniform(0.9, 1.08) for _ in range(3)])
    if f.gloss and truth:  # glare on glossy stock over one play
        t = rng.choice(truth)
        c = cv2.perspectiveTransform(np.float32([[t.centre]]), hom)[0, 0]
        spot = np.exp(-(((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (0.03 * w) ** 2))
        img += (f.gloss * rng.uniform(60, 140) * spot)[..., None]
    sigma = rng.uniform(0.2, 1.2)  # px of the camera's own: a finer camera is as sharp per pixel
    if sigma > 0.1:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img += g.normal(0, rng.uniform(1, 5), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    quality = rng.randint(55, 95)
    out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    return Shot(out, truth, hom)
