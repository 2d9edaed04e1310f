"""A venue's own deck: its 54 faces, scanned or photographed, become an art style the classifier is trained on.

The shipped classifier reads a printed deck design it has never seen far worse than the decks it was trained on
(``models/README.md``: 64-78% of the cards of three unseen designs, against 96-97% once trained on them), so a venue
enrols its deck before play: ``cardtable vision deck --faces DIR --out VENUE_DIR``, then every camera runs with
``--model VENUE_DIR/cards.onnx`` (the classifier ``index.onnx`` beside it).

The faces are one image per card named by the card (``SA.png``, ``HT.jpg``, ... ``BJ.png``, ``LJ.png``: the names
of ``shared/conformance/README.md``), upright: each either cropped to the card's edges (a scan) or a photo of the
card alone on a darker surface, which is found and warped flat. This module only reads and checks
them; training is ``vision.train.index`` (torch).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from referee.catalogue import Refusal
from vision.geometry import CARD_H, CARD_W
from vision.model import ALL_CARDS
from vision.train.synth.decks import LAYOUT_FILE, Layout, ink_mask

W, H = 160, 224  # the art's size (vision/train/synth/art/README.md)
RADIUS = 9  # px: the art's rounded corners
SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")
SHAPE_SLACK = 0.15  # a face's aspect ratio may differ from a card's by this much (a scan's margin, a lens)


class DeckError(Refusal):
    """Faces that cannot be a deck: nothing is written."""

    section = "vision.error"


def read_faces(folder: Path) -> dict[str, np.ndarray]:
    """The 54 faces in ``folder``, each as the art is kept: W x H BGRA with rounded corners.

    Raises :class:`DeckError` naming every missing, doubled, unreadable or misshapen face at once."""
    if not folder.is_dir():
        raise DeckError("no_folder")  # the command's line names it (`--faces DIR`)
    found: dict[str, list[Path]] = {}
    for path in folder.iterdir():
        if path.suffix.lower() in SUFFIXES:
            found.setdefault(path.stem.upper(), []).append(path)
    problems = []
    missing = [c for c in ALL_CARDS if c not in found]
    if missing:
        problems.append(DeckError("no_face", cards=" ".join(missing)))
    unknown = sorted(set(found) - set(ALL_CARDS))
    if unknown:
        problems.append(DeckError("not_card", names=" ".join(unknown)))
    problems += [DeckError("two_images", card=c, files=[p.name for p in found[c]]) for c in ALL_CARDS
                 if len(found.get(c, ())) > 1]
    images = {}
    for card in ALL_CARDS:
        if len(found.get(card, ())) != 1:
            continue
        image = cv2.imread(str(found[card][0]), cv2.IMREAD_COLOR)
        if image is None:
            problems.append(DeckError("not_image", file=found[card][0].name))
            continue
        image = card_in(image)
        h, w = image.shape[:2]
        if abs((w / h) / (CARD_W / CARD_H) - 1) > SHAPE_SLACK:
            problems.append(DeckError("shape", file=found[card][0].name, width=w, height=h))
            continue
        images[card] = image
    if problems:
        raise DeckError("not_deck", problems=problems)
    width = art_width(list(images.values()))
    return {card: face_art(image, width) for card, image in images.items()}


def card_in(image: np.ndarray) -> np.ndarray:
    """The card in a photo of it alone on a darker surface, warped flat and upright (portrait, the way it was
    photographed); the image itself when no such card shows (a scan already cropped to the card)."""
    h, w = image.shape[:2]
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return image
    outline = max(contours, key=cv2.contourArea)
    quad = cv2.approxPolyDP(cv2.convexHull(outline), 0.02 * cv2.arcLength(outline, True), True).reshape(-1, 2)
    area = cv2.contourArea(outline)
    if len(quad) != 4 or not 0.2 * w * h < area < 0.95 * w * h:
        return image  # no card on a background: taken as cropped already
    quad = quad.astype(np.float32)
    top_left = int(np.argmin(quad.sum(1)))  # corners clockwise from the one nearest the image's top left
    quad = np.roll(quad, -top_left, 0)
    (ax, ay), (bx, by) = quad[1] - quad[0], quad[3] - quad[0]
    if ax * by - ay * bx < 0:  # counter-clockwise on the screen: turn the order round
        quad = quad[[0, 3, 2, 1]]
    width = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    height = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    size = (round(width), round(height))
    flat = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad, flat), size)


def face_art(image: np.ndarray, width: int = W) -> np.ndarray:
    """A card's image (BGR, cropped to its edges) as art: ``width`` x H BGRA, outside the rounded corners
    transparent.

    >>> art = face_art(np.full((350, 250, 3), 255, np.uint8))
    >>> art.shape, int(art[0, 0, 3]), int(art[H // 2, W // 2, 3])
    ((224, 160, 4), 0, 255)
    """
    face = cv2.resize(image, (width, H), interpolation=cv2.INTER_AREA)
    alpha = np.zeros((H, width), np.uint8)
    right = width - 1 - RADIUS
    cv2.rectangle(alpha, (RADIUS, 0), (right, H - 1), 255, -1)
    cv2.rectangle(alpha, (0, RADIUS), (width - 1, H - 1 - RADIUS), 255, -1)
    for x, y in ((RADIUS, RADIUS), (right, RADIUS), (RADIUS, H - 1 - RADIUS), (right, H - 1 - RADIUS)):
        cv2.circle(alpha, (x, y), RADIUS, 255, -1, cv2.LINE_AA)
    return np.dstack([face, alpha])


def art_width(images: list[np.ndarray]) -> int:
    """The art's width for a deck's face images (BGR, cropped to the card): ``W`` for a poker card's shape, the
    deck's own (their median) for a card clearly narrower or wider, such as a bridge card (57 x 88 mm).

    >>> art_width([np.zeros((880, 630, 3))] * 3), art_width([np.zeros((880, 570, 3))] * 3)
    (160, 145)
    """
    aspect = float(np.median([i.shape[1] / i.shape[0] for i in images]))
    return W if abs(aspect / (W / H) - 1) < 0.04 else round(H * aspect)


def index_layout(faces: dict[str, np.ndarray]) -> Layout:
    """Where this deck's corner index lies, found on its faces (BGRA art), as the ``Layout`` the renderer and the
    classifier's training use for the deck: on each face the ink mark nearest the top-left corner (the rank) and
    the marks close to it (the suit, a ten's second digit); the median box over the faces."""
    named = [f for c, f in faces.items() if c not in ("BJ", "LJ")]
    h, w = named[0].shape[:2]
    boxes = [b for b in (index_box(f) for f in named) if b is not None]
    if len(boxes) < len(named) // 2:
        raise DeckError("no_index")
    x0, y0, x1, y1 = np.median(np.array(boxes, float), 0)
    return Layout(size=(CARD_H * w / h, CARD_H), index=((x0 + x1) / 2 / w, (y0 + y1) / 2 / h),
                  box=((x1 - x0) * 1.1 / w, (y1 - y0) * 1.1 / h), beside=(x1 - x0) > 1.2 * (y1 - y0))


def index_box(face: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1, px) of a face's top-left index: the ink mark nearest the corner and every mark
    within 0.4 of its height of what is joined so far; none when no mark is there."""
    h, w = face.shape[:2]
    edge = round(0.03 * w)  # the cut's own edge (a strip of cloth) is no ink
    ink = np.zeros((h, w), np.uint8)
    ink[edge:round(h * 0.45), edge:round(w * 0.5)] = ink_mask(face)[edge:round(h * 0.45), edge:round(w * 0.5)] > 0.5
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink)
    marks = [tuple(int(v) for v in stats[i, :4]) for i in range(1, n)  # not a frame or picture, nor a speck
             if stats[i, 2] < 0.4 * w and stats[i, 3] < 0.3 * h and stats[i, 4] >= 0.001 * w * h]
    if not marks:
        return None
    x, y, bw, bh = min(marks, key=lambda m: m[0] + m[1])
    x0, y0, x1, y1 = x, y, x + bw, y + bh
    reach = 0.4 * bh
    grown = True
    while grown:
        grown = False
        for mx, my, mw, mh in marks:
            inside = x0 <= mx and y0 <= my and mx + mw <= x1 and my + mh <= y1
            if not inside and mx <= x1 + reach and my <= y1 + reach and mx + mw >= x0 - reach and my + mh >= y0 - reach:
                x0, y0, x1, y1 = min(x0, mx), min(y0, my), max(x1, mx + mw), max(y1, my + mh)
                grown = True
    return x0, y0, x1, y1


def write_style(faces: dict[str, np.ndarray], folder: Path) -> Path:
    """Write ``faces`` as an art style (``folder/<CARD>.png``) with the layout of its index (``layout.json``); the
    folder's absolute path is the style's name."""
    folder.mkdir(parents=True, exist_ok=True)
    for card, art in faces.items():
        if not cv2.imwrite(str(folder / f"{card}.png"), art):
            raise DeckError("cannot_write", path=f"{folder / card}.png")
    lay = index_layout(faces)
    (folder / LAYOUT_FILE).write_text(json.dumps({"size": [float(v) for v in lay.size],
                                                  "index": [float(v) for v in lay.index],
                                                  "box": [float(v) for v in lay.box], "beside": bool(lay.beside)}))
    return folder.resolve()
