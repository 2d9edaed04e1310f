"""What lies on the table: cards (name, art style, centre in table coordinates, angle), hands over them, the felt;
and layouts that place a seat's cards as players leave them (a row, a fan, a pile).

>>> import random
>>> cards = seat_cards("S", ["SA", "SA", "HT"], "row", "sans", random.Random(1))
>>> [c.name for c in cards], all(c.y > 0.5 for c in cards)
(['SA', 'SA', 'HT'], True)
"""

from __future__ import annotations

import errno
import math
import os
import random
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import CARD_H, CARD_W
from vision.model import ALL_CARDS

# Where a seat plays (the middle of its trick area) and the angle that turns a card upright to face that player.
PLAY_SPOT = {"S": (0.5, 0.74), "E": (0.74, 0.5), "N": (0.5, 0.26), "W": (0.26, 0.5)}
FACING = {"S": 0.0, "E": -90.0, "N": 180.0, "W": 90.0}
# Art styles the networks are trained on (vision/train/synth/art/README.md): four decks from npm packages, faces drawn
# with eight fonts, and 80 generated faces (random rank and suit fonts, suit sizes, colours; from gen-32 on the suit
# squeezed or stretched sideways; from gen-56 on the suit an npm deck's outline; `make_art.generated_styles`).
GENERATED_STYLES = tuple(f"gen-{i:02d}" for i in range(80))
SQUEEZED_FROM, OUTLINED_FROM = 32, 56
TRAIN_STYLES = ["letele", "casino", "poker-cards", "fratino", "sans", "serif", "liberation", "nimbus-roman", "freeserif", "bookman", "gothic", "c059",
                *GENERATED_STYLES]
HELD_OUT_STYLE = "mono"  # never used in training: the held-out test set
# A second one, drawn on 2026-11-26 before any model was measured on it (``mono`` had been looked at by then)
HELD_OUT_STYLES = (HELD_OUT_STYLE, "dingbats")
ART = Path(__file__).parent / "art"  # the committed styles' faces, one folder each (art/README.md)


@dataclass(frozen=True)
class PlacedCard:
    name: str
    style: str
    x: float
    y: float
    angle: float  # degrees, clockwise on the image


@dataclass(frozen=True)
class Hand:
    """A hand (or sleeve) over the table: an arm from the point ``base`` (at or beyond an edge) to ``tip``."""
    base: tuple[float, float]
    tip: tuple[float, float]
    width: float
    colour: tuple[int, int, int]  # BGR


@dataclass(frozen=True)
class Scene:
    cards: tuple[PlacedCard, ...]  # in the order they were laid (later ones on top)
    hands: tuple[Hand, ...] = ()
    felt: tuple[int, int, int] = (40, 110, 40)  # BGR
    seed: int = 0  # texture, light and noise
    glare: float = 0.0  # the chance that a card shows a lamp's reflection (a glossy deck)
    extra: dict = field(default_factory=dict, compare=False)


def seat_cards(seat: str, names: list[str], layout: str, style: str, rng: random.Random,
               spot: tuple[float, float] | None = None) -> list[PlacedCard]:
    """Place ``names`` in front of ``seat`` as a ``row``, ``fan`` or ``pile`` (overlapping, index corners visible
    for row and fan) near ``spot`` (default: the seat's usual play spot with some jitter)."""
    cx, cy = spot or (PLAY_SPOT[seat][0] + rng.uniform(-0.06, 0.06), PLAY_SPOT[seat][1] + rng.uniform(-0.05, 0.05))
    face = FACING[seat] + rng.uniform(-25, 25)
    a = math.radians(face)
    along = (math.cos(a), math.sin(a))
    n = len(names)
    out = []
    if layout == "row":
        step = CARD_W * rng.uniform(0.38, 0.75)
        for i, name in enumerate(names):
            t = (i - (n - 1) / 2) * step
            out.append(PlacedCard(name, style, cx + t * along[0], cy + t * along[1], face + rng.uniform(-4, 4)))
    elif layout == "fan":
        step = rng.uniform(8, 16)
        pivot = CARD_H * rng.uniform(0.7, 1.1)
        down = (-math.sin(a), math.cos(a))  # towards the player
        px, py = cx + pivot * down[0], cy + pivot * down[1]
        for i, name in enumerate(names):
            t = math.radians((i - (n - 1) / 2) * step)
            ang = face + math.degrees(t)
            r = math.radians(ang)
            out.append(PlacedCard(name, style, px + pivot * math.sin(r), py - pivot * math.cos(r), ang))
    elif layout == "pile":
        for name in names:
            out.append(PlacedCard(name, style, cx + rng.uniform(-0.03, 0.03), cy + rng.uniform(-0.03, 0.03),
                                  face + rng.uniform(-40, 40)))
    else:
        raise ValueError(f"unknown layout {layout!r} (row, fan or pile)")
    return out


def shoe(decks: int) -> list[str]:
    """Every card of ``decks`` decks (jokers included)."""
    return [c for c in ALL_CARDS for _ in range(decks)]


FELTS = ((40, 110, 40), (60, 130, 30), (120, 70, 20), (140, 90, 40), (40, 40, 120), (70, 70, 70), (30, 90, 90))
SKIN = ((120, 160, 210), (90, 130, 180), (70, 100, 150), (150, 180, 220))
SLEEVES = ((40, 40, 40), (150, 60, 30), (60, 60, 160), (200, 200, 200), (30, 120, 120))


def random_hand(rng: random.Random, near: tuple[float, float]) -> Hand:
    """A hand reaching from a random edge towards ``near``."""
    edge = rng.choice("SENW")
    t = rng.uniform(0.1, 0.9)
    base = {"S": (t, 1.15), "E": (1.15, t), "N": (t, -0.15), "W": (-0.15, t)}[edge]
    tip = (near[0] + rng.uniform(-0.08, 0.08), near[1] + rng.uniform(-0.08, 0.08))
    colour = rng.choice(SKIN) if rng.random() < 0.6 else rng.choice(SLEEVES)
    return Hand(base, tip, rng.uniform(0.06, 0.11), colour)


def random_scene(rng: random.Random, styles: list[str], *, decks: int = 3, max_cards: int = 8,
                 hand_chance: float = 0.25, empty_seat_chance: float = 0.2, glare: float = 0.0) -> Scene:
    """A random table in the middle of a trick: each seat has 0..max_cards cards in a row, fan or pile,
    drawn from ``decks`` shuffled decks (so identical cards occur), one art style per frame; ``glare``: the chance
    that a card shows a reflection."""
    pool = shoe(decks)
    rng.shuffle(pool)
    style = rng.choice(styles)
    cards: list[PlacedCard] = []
    for seat in "SENW":
        if rng.random() < empty_seat_chance:
            continue
        n = rng.randint(1, max_cards)
        names = [pool.pop() for _ in range(n)]
        if rng.random() < 0.3 and n >= 2:  # pairs and tractors: same card twice
            names[1] = names[0]
        layout = rng.choices(["row", "fan", "pile"], [0.5, 0.4, 0.1])[0]
        cards += seat_cards(seat, names, layout, style, rng)
    hands = tuple(random_hand(rng, (c.x, c.y)) for c in (rng.sample(cards, 1) if cards else ())
                  if rng.random() < hand_chance)
    return Scene(tuple(cards), hands, rng.choice(FELTS), rng.randrange(1 << 30), glare=glare)


@cache
def committed_face(style: str, name: str) -> np.ndarray:
    """A card's face in a committed style (``ART``, or a folder's absolute path), BGRA."""
    path = ART / style / f"{name}.png"
    if not path.is_file():  # a mistyped style: said by its errno in words, before OpenCV's own warning in English
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise FileNotFoundError(f"no art for {name} in style {style!r} under {ART}")
    return img
