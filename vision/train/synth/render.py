"""Render a scene: the table seen from above (`render_table`) and the photo-like camera frame (`render_frame`),
each with the truth: every card's name, centre, seat and how much of each corner index is visible.

>>> import random
>>> from vision.train.synth.scene import random_scene
>>> frame = render_frame(random_scene(random.Random(3), ["sans"]), random_camera(random.Random(3)))
>>> frame.image.shape, frame.image.dtype.name
((960, 1280, 3), 'uint8')
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache, lru_cache

import cv2
import numpy as np

from vision.geometry import card_corners, card_point, seat_of
from vision.train.synth import decks
from vision.train.synth.decks import layout
from vision.train.synth.scene import Scene, committed_face

TABLE_LO, TABLE_HI = -0.07, 1.07  # the table top around the marker square
MARKER = 0.079  # printed marker side (black part), 6 cm
TOP_PX = 800  # px per unit of the top-down render behind a 960 px high camera frame (more for larger frames)


@dataclass(frozen=True)
class CardTruth:
    name: str
    centre: tuple[float, float]
    angle: float
    seat: str
    indices: tuple[tuple[float, float, float], ...]  # (x, y, visible fraction) of both corner indices
    halves: tuple[float, ...] = ()  # of each index, the visible fraction of its less visible half (rank or suit)


@dataclass(frozen=True)
class Camera:
    tilt: float = 0.0  # degrees from straight down
    tilt_dir: float = 0.0  # direction of the tilt, degrees
    roll: float = 0.0  # rotation about the optical axis, degrees
    fill: float = 0.92  # the table's height as a share of the frame's
    shift: tuple[float, float] = (0.0, 0.0)  # offset of the table in the frame, share of its size
    size: tuple[int, int] = (1280, 960)
    light: float = 0.2  # strength of the light gradient
    shadow: float = 0.0  # darkness of one cast shadow (0: none)
    blur: float = 0.5  # Gaussian sigma, px
    noise: float = 3.0  # sensor noise sigma, grey levels
    jpeg: int = 90  # JPEG quality (0: none)
    seed: int = 0


@dataclass(frozen=True)
class Frame:
    image: np.ndarray  # BGR uint8
    truth: tuple[CardTruth, ...]
    homography: np.ndarray  # table coordinates -> image pixels


def random_camera(rng: random.Random, size: tuple[int, int] = (1280, 960)) -> Camera:
    return Camera(tilt=rng.uniform(0, 25), tilt_dir=rng.uniform(0, 360), roll=rng.uniform(0, 360),
                  fill=rng.uniform(0.8, 0.97), shift=(rng.uniform(-0.04, 0.04), rng.uniform(-0.03, 0.03)),
                  size=size, light=rng.uniform(0, 0.45), shadow=rng.choice([0, 0, rng.uniform(0.1, 0.4)]),
                  blur=rng.uniform(0.0, 1.2), noise=rng.uniform(0, 6), jpeg=rng.choice([0, rng.randint(45, 95)]),
                  seed=rng.randrange(1 << 30))


def art(style: str, name: str) -> np.ndarray:
    """A card's face, BGRA: a committed style's (``scene.ART``, or a folder's absolute path) or a drawn deck's
    (``decks``)."""
    return decks.face(style, name) if decks.is_deck(style) else committed_face(style, name)


@lru_cache(maxsize=2048)
def art_at(style: str, name: str, width: int) -> np.ndarray:
    a = art(style, name)
    return cv2.resize(a, (width, round(width * a.shape[0] / a.shape[1])), interpolation=cv2.INTER_AREA)


@cache
def shadow_at(width: int) -> np.ndarray:
    """A soft dark card-shaped shadow."""
    a = art_at("sans", "SA", width).copy()
    a[:, :, :3] = 0
    a[:, :, 3] = cv2.GaussianBlur(a[:, :, 3], (0, 0), 1.5) // 4
    return a


@cache
def marker_art(marker_id: int) -> np.ndarray:
    aruco = cv2.aruco
    img = aruco.generateImageMarker(aruco.getPredefinedDictionary(aruco.DICT_4X4_50), marker_id, 60)
    img = cv2.copyMakeBorder(img, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=255)
    return cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)


def paste(canvas: np.ndarray, rgba: np.ndarray, quad: np.ndarray) -> None:
    """Draw ``rgba`` onto ``canvas`` (in place) with its corners at ``quad`` (TL, TR, BR, BL, canvas px)."""
    h, w = rgba.shape[:2]
    m = cv2.getAffineTransform(np.float32([[0, 0], [w, 0], [w, h]]), np.float32(quad[:3]))
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 1, [canvas.shape[1], canvas.shape[0]])
    if x1 <= x0 or y1 <= y0:
        return
    m[:, 2] -= (x0, y0)
    patch = cv2.warpAffine(rgba, m, (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    alpha = patch[:, :, 3:4].astype(np.float32) / 255
    region = canvas[y0:y1, x0:x1]
    region[:] = (region * (1 - alpha) + patch[:, :, :3] * alpha).astype(np.uint8)


def felt(size: int, colour: tuple[int, int, int], rng: np.random.Generator) -> np.ndarray:
    low = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
    grain = rng.standard_normal((size, size), np.float32)
    img = np.float32(colour) * (1 + 0.08 * low + 0.035 * grain)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def render_table(scene: Scene, px: float = TOP_PX) -> tuple[np.ndarray, tuple[CardTruth, ...]]:
    """The table top (``TABLE_LO``..``TABLE_HI`` in both axes) seen from straight above at ``px`` px per unit."""
    rng = np.random.default_rng(scene.seed)
    glare_rng = np.random.default_rng(scene.seed + 1)  # its own stream: scenes without glare render as before
    size = int(round((TABLE_HI - TABLE_LO) * px))
    img = felt(size, scene.felt, rng)

    def to_px(pts) -> np.ndarray:
        return (np.asarray(pts, dtype=np.float64) - TABLE_LO) * px

    for marker_id, (mx, my) in enumerate([(0, 0), (1, 0), (1, 1), (0, 1)]):
        side = MARKER * 84 / 60
        paste(img, marker_art(marker_id), to_px(card_corners(mx, my, 0.0, side, side)))
    quads = []
    for c in scene.cards:
        size_wh = layout(c.style).size
        quad = to_px(card_corners(c.x, c.y, c.angle, *size_wh))
        quads.append(quad)
        card_w = max(8, int(round(size_wh[0] * px)))
        paste(img, shadow_at(card_w), quad + px * 0.004)
        paste(img, art_at(c.style, c.name, card_w), quad)
        if scene.glare and glare_rng.random() < scene.glare:
            add_glare(img, quad, glare_rng)
    covered = np.zeros((size, size), np.uint8)
    for h in scene.hands:
        draw_hand(img, covered, h, to_px)
    truth = []
    for c, quad in reversed(list(zip(scene.cards, quads))):
        lay = layout(c.style)
        idx = tuple((*card_point(c.x, c.y, c.angle, fx, fy, *lay.size), visible(covered, to_px(index_quad(c, i))))
                    for i, (fx, fy) in enumerate(lay.centres()))
        halves = tuple(min(visible(covered, to_px(index_quad(c, i, half))) for half in (-1, 1)) for i in range(2))
        truth.append(CardTruth(c.name, (c.x, c.y), c.angle, seat_of((c.x, c.y)), idx, halves))
        cv2.fillConvexPoly(covered, np.int32(np.round(quad)), 255)
    return img, tuple(reversed(truth))


def index_quad(c, i: int, half: int = 0) -> np.ndarray:
    """Corner index ``i`` of card ``c`` (table coordinates); ``half`` -1 or 1: only its rank's or its suit's half
    (upper and lower, or left and right where the style sets the rank beside the suit)."""
    lay = layout(c.style)
    (fx, fy), (iw, ih) = lay.centres()[i], lay.box
    lo, hi = (-1, 0) if half < 0 else (0, 1) if half > 0 else (-1, 1)
    corners = ((lo, -1), (hi, -1), (hi, 1), (lo, 1)) if lay.beside else ((-1, lo), (1, lo), (1, hi), (-1, hi))
    return np.array([card_point(c.x, c.y, c.angle, fx + dx * iw / 2, fy + dy * ih / 2, *lay.size)
                     for dx, dy in corners])


def add_glare(img: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> None:
    """A glossy card's reflection of a lamp: a soft bright patch on part of the card (in place)."""
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 1, img.shape[1::-1])
    if x1 - x0 < 4 or y1 - y0 < 4:
        return
    h, w = y1 - y0, x1 - x0
    card = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(card, np.int32(np.round(quad - (x0, y0))), 255)
    spot = np.zeros((h, w), np.float32)
    centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
    axes = (max(2, int(rng.uniform(0.2, 0.7) * w)), max(2, int(rng.uniform(0.1, 0.4) * h)))
    cv2.ellipse(spot, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), max(axes) * 0.35) * (card > 0) * rng.uniform(0.3, 0.85)
    region = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(region + (255 - region) * spot[..., None], 0, 255).astype(np.uint8)


def visible(covered: np.ndarray, quad: np.ndarray) -> float:
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 1, covered.shape[::-1])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.int32(np.round(quad - (x0, y0))), 1)
    total = int(mask.sum())
    return 0.0 if total == 0 else float((mask & (covered[y0:y1, x0:x1] == 0)).sum()) / total


def draw_hand(img: np.ndarray, covered: np.ndarray, hand, to_px) -> None:
    (bx, by), (tx, ty) = to_px([hand.base, hand.tip])
    width = max(3, int(hand.width * (to_px([[1, 0]])[0][0] - to_px([[0, 0]])[0][0])))
    for target, value in ((img, hand.colour), (covered, 255)):
        cv2.line(target, (int(bx), int(by)), (int(tx), int(ty)), value, width)
        cv2.circle(target, (int(tx), int(ty)), int(width * 0.75), value, -1)
    for k in range(4):  # fingers
        a = math.atan2(ty - by, tx - bx) + (k - 1.5) * 0.35
        fx, fy = tx + width * 1.1 * math.cos(a), ty + width * 1.1 * math.sin(a)
        for target, value in ((img, hand.colour), (covered, 255)):
            cv2.line(target, (int(tx), int(ty)), (int(fx), int(fy)), value, max(2, width // 5))


def camera_homography(cam: Camera) -> np.ndarray:
    """Table coordinates -> frame pixels for a pinhole camera looking at the table's centre."""
    t, d, r = (math.radians(v) for v in (cam.tilt, cam.tilt_dir, cam.roll))
    axis = np.array([math.cos(d), math.sin(d), 0.0])
    tilt, _ = cv2.Rodrigues(axis * t)
    roll, _ = cv2.Rodrigues(np.array([0, 0, r]))
    rot = roll @ tilt  # world -> camera
    centre = -1.6 * rot.T @ np.array([0, 0, 1.0])
    h = np.column_stack([rot[:, 0], rot[:, 1], -rot @ centre]) @ np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]])
    corners = np.array([[TABLE_LO, TABLE_LO], [TABLE_HI, TABLE_LO], [TABLE_HI, TABLE_HI], [TABLE_LO, TABLE_HI]])
    proj = cv2.perspectiveTransform(corners[None], h)[0]
    lo, hi = proj.min(0), proj.max(0)
    w, hgt = cam.size
    scale = min(cam.fill * hgt / (hi[1] - lo[1]), 0.98 * w / (hi[0] - lo[0]))
    mid = (lo + hi) / 2
    half = scale * (hi - lo) / 2  # keep the whole table (and its markers) in the frame
    cx = min(max(w / 2 + cam.shift[0] * w, half[0] + 2), w - half[0] - 2)
    cy = min(max(hgt / 2 + cam.shift[1] * hgt, half[1] + 2), hgt - half[1] - 2)
    fit = np.array([[scale, 0, cx - scale * mid[0]], [0, scale, cy - scale * mid[1]], [0, 0, 1]])
    out = fit @ h
    return out / out[2, 2]


def render_frame(scene: Scene, cam: Camera) -> Frame:
    """The camera's picture of the scene: table warped by the camera's homography over a room background,
    then light, shadow, blur, noise and JPEG."""
    px = TOP_PX * max(1.0, cam.size[1] / 960)
    top, truth = render_table(scene, px)
    to_top = np.array([[px, 0, -TABLE_LO * px], [0, px, -TABLE_LO * px], [0, 0, 1]])
    hom = camera_homography(cam)
    w, h = cam.size
    rng = np.random.default_rng(cam.seed)
    warp = hom @ np.linalg.inv(to_top)
    room = cv2.resize(rng.uniform(20, 120, (4, 4, 3)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img = cv2.warpPerspective(top, warp, (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    mask = cv2.warpPerspective(np.full(top.shape[:2], 255, np.uint8), warp, (w, h)) > 127
    out = room  # the table where the camera sees it, the room elsewhere
    np.copyto(out, img, where=mask[..., None])
    yy, xx = (v.astype(np.float32) for v in np.ogrid[0:h, 0:w])
    a = rng.uniform(0, 2 * math.pi)
    grad = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
    light = 1 + cam.light * grad * 2
    if cam.shadow > 0:
        pts = (rng.uniform(0, 1, (5, 2)) * (w, h)).astype(np.int32)
        sh = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(sh, cv2.convexHull(pts), 1.0)
        light *= 1 - cam.shadow * cv2.GaussianBlur(sh, (0, 0), 25)
    out *= light[..., None]
    if cam.blur > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), cam.blur)
    if cam.noise > 0:
        noise = rng.standard_normal(out.shape, np.float32)
        noise *= cam.noise
        out += noise
    img = np.clip(out, 0, 255).astype(np.uint8)
    if cam.jpeg:
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, cam.jpeg])[1], cv2.IMREAD_COLOR)
    return Frame(img, truth, hom)
