"""Train the corner-index classifier (torch, the ``train`` extra; the runtime never imports this module).

The detector (``vision/train/detector.py``) finds corner indices and the way to their card's centre, which gives the card's
orientation; the index is then cut out upright at twice the canonical scale (``vision.patch``, 40 x 64 px) and this
small network names it. Its training patches are drawn straight from the card art of the training styles: the card's
corner on felt or on another card, the next card of a fan or a row over its far side, turned by up to 12 degrees
(the detector's orientation error), shifted, scaled, blurred, noisy, JPEG-compressed; and cut from rendered camera
frames. Half of them are seen as a 1280 x 960 camera sees them (half the patch's resolution, enlarged back), half
as a 2560 x 1920 one does. Indices in those frames with their rank or their suit mostly covered (by a card or a
hand) are taught as a 55th class, ``UNREADABLE``: the pipeline drops an index it finds so, rather than guess. Those
named but partly covered, rare in frames and most of what is misread, are drawn more often than they occur.
"""

from __future__ import annotations

import copy
import itertools
import math
import random
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.canon import Pyramid, canon_homography, level
from vision.geometry import PX
from vision.model import ALL_CARDS, UNREADABLE
from vision.patch import PATCH_H, PATCH_W, SCALE, card_angle, cut, cut_through
from vision.train.detector import SEEN
from vision.train.fit import Stream, fit, onnx_weights
from vision.train.synth.decks import COMMITTED, Rotation, layout
from vision.train.synth.render import art, random_camera, render_frame
from vision.train.synth.scene import FELTS, TRAIN_STYLES, random_scene
from vision.whole import whole


class IndexClassifier(nn.Module):
    """Input N x 3 x 64 x 40 BGR in 0..1; output probabilities over the 54 cards and ``UNREADABLE`` (``classes``
    55; 54 for a classifier of before that class). The first convolution (6 x 6, stride 2) brings the patch to the
    canonical scale's 32 x 20. ``width`` scales every layer's channels (1.0: 24, 24, 48, 48, 96). ``norm`` False: no
    batch norm, as the exported model has it folded into its convolutions (:func:`from_onnx`, to train a shipped
    model further)."""

    def __init__(self, width: float = 1.0, norm: bool = True, classes: int = UNREADABLE + 1) -> None:
        super().__init__()

        def conv(cin, cout, k=3, stride=1, pad=1):
            if not norm:
                return nn.Sequential(nn.Conv2d(cin, cout, k, stride, pad), nn.ReLU(inplace=True))
            return nn.Sequential(nn.Conv2d(cin, cout, k, stride, pad, bias=False), nn.BatchNorm2d(cout),
                                 nn.ReLU(inplace=True))

        a, b, c = (round(n * width) for n in (24, 48, 96))
        self.body = nn.Sequential(conv(3, a, 3 * SCALE, SCALE, SCALE), conv(a, a), nn.MaxPool2d(2),
                                  conv(a, b), conv(b, b), nn.MaxPool2d(2),
                                  conv(b, c), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(c, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.body(x))


def from_onnx(path: Path) -> IndexClassifier:
    """The classifier an ``index.onnx`` holds (its convolutions with batch norm folded in), to train further. One of
    the earlier design, which read 32 x 20 patches at the canonical scale, becomes this design exactly: its first
    3 x 3 convolution on the patch's 2 x 2 averages is a 6 x 6 one of stride 2 on the patch. Of several joined
    into one (``vision.train.join``), the first."""
    graph, weights = onnx_weights(path)
    convs = [n for n in graph.node if n.op_type == "Conv"]
    gemms = [n for n in graph.node if n.op_type == "Gemm"]
    gemm = gemms[0] if gemms else None
    if gemms and len(convs) == 5 * len(gemms):  # one classifier, or the first of those joined
        convs = convs[:5]
    if len(convs) != 5 or gemm is None or any(a.name == "transB" and a.i != 1 for a in gemm.attribute):
        raise ValueError(f"{path}: not an index classifier of this design")
    net = IndexClassifier(weights[convs[0].input[1]].shape[0] / 24, norm=False,
                          classes=weights[gemm.input[2]].shape[0])
    layers = [m for m in net.body.modules() if isinstance(m, nn.Conv2d)]
    for layer, node in zip(layers, convs):
        layer.weight.data, layer.bias.data = weights[node.input[1]], weights[node.input[2]]
    first = layers[0].weight.data
    if first.shape[-1] == 3:  # the earlier design
        layers[0].weight.data = first.repeat_interleave(SCALE, 2).repeat_interleave(SCALE, 3) / SCALE ** 2
    net.fc.weight.data, net.fc.bias.data = weights[gemm.input[1]], weights[gemm.input[2]]
    return net


def with_unreadable(net: IndexClassifier) -> IndexClassifier:
    """A classifier of the 54 cards given the ``UNREADABLE`` class, to train further. The class starts as a constant
    logit of 0: below the card's at nearly every readable index (there the likeliest card's logit is about 19, its
    lowest 1.5 in 288 indices), above the other cards' (about -21)."""
    if net.fc.out_features > UNREADABLE:
        return net
    fc = nn.Linear(net.fc.in_features, UNREADABLE + 1)
    with torch.no_grad():
        fc.weight.zero_()
        fc.weight[:UNREADABLE] = net.fc.weight
        fc.bias[:UNREADABLE] = net.fc.bias
        fc.bias[UNREADABLE] = 0.0
    net.fc = fc
    return net


def widened(net: IndexClassifier, width: float, seed: int = 0, noise: float = 0.0) -> IndexClassifier:
    """``net`` (a classifier of :func:`from_onnx`, without batch norm) with every layer's channels made ``width``
    times the base (24, 48, 96) and reading exactly as before (Net2WiderNet): a new channel copies the incoming
    weights of an old one, drawn at random, and the layer after it reads each copy at its share of the old weight.
    ``noise`` (a share of each layer's weight spread) is added to the copies' incoming weights, so that training can
    tell them apart; the reads then move a little.

    >>> import torch
    >>> net = IndexClassifier(1.0, norm=False)
    >>> wide = widened(net, 1.5)
    >>> [m.out_channels for m in wide.body.modules() if isinstance(m, nn.Conv2d)], wide.fc.in_features
    ([36, 36, 72, 72, 144], 144)
    >>> x = torch.rand(2, 3, 64, 40)
    >>> bool(torch.allclose(net(x), wide(x), atol=1e-5))
    True
    """
    old = [m for m in net.body.modules() if isinstance(m, nn.Conv2d)]
    if any(isinstance(m, nn.BatchNorm2d) for m in net.modules()):
        raise ValueError("widen a classifier without batch norm (one read by from_onnx)")
    wide = IndexClassifier(width, norm=False, classes=net.fc.out_features)
    new = [m for m in wide.body.modules() if isinstance(m, nn.Conv2d)]
    if any(b.out_channels < a.out_channels for a, b in zip(old, new)):
        raise ValueError(f"width {width} is narrower than the classifier's own")
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        take = torch.arange(3)  # which old input channel each new one is
        for a, b in zip([*old, net.fc], [*new, wide.fc]):
            weight = a.weight[:, take] / torch.bincount(take, minlength=a.weight.shape[1])[take].view(
                1, -1, *([1] * (a.weight.dim() - 2)))
            if b is wide.fc:
                b.weight.copy_(weight)
                b.bias.copy_(a.bias)
                break
            n, m = a.out_channels, b.out_channels
            out = torch.cat([torch.arange(n), torch.randint(0, n, (m - n,), generator=gen)])
            b.weight.copy_(weight[out])
            b.bias.copy_(a.bias[out])
            if noise:
                b.weight[n:] += torch.randn(b.weight[n:].shape, generator=gen) * noise * a.weight.std()
            take = out
    return wide


class Exported(nn.Module):
    def __init__(self, net: IndexClassifier) -> None:
        super().__init__()
        self.net = net

    def forward(self, x):
        return torch.softmax(self.net(x), 1)


# Where the top-left corner of the card over the sampled one lies (ranges in card fractions): the next card of a fan
# or row over the far side (3 in 7), below it (2 in 7), or over the index itself, from the right or from below (a
# card lying close; taught by how much of the index still shows, as indices in frames are)
FAR, BELOW = ((0.27, 0.9), (-0.2, 0.3)), ((-0.3, 0.4), (0.4, 0.9))
OVER = (FAR, FAR, FAR, BELOW, BELOW, ((0.04, 0.2), (-0.5, 0.15)), ((-0.6, 0.15), (0.12, 0.3)))


def patch_sample(rng: random.Random, nprng: np.random.Generator, styles: list[str],
                 shrink: float | None = None) -> tuple[np.ndarray, int, str]:
    """One upright index patch (PATCH_H x PATCH_W x 3 uint8), its class and its art style; seen as a camera of
    ``shrink`` (:func:`camera_like`), or half the time as a 1280 x 960 one and half as a 2560 x 1920 one."""
    k = rng.randrange(len(ALL_CARDS))
    style = rng.choice(styles)
    card = art(style, ALL_CARDS[k])
    h, w = card.shape[:2]
    lay = layout(style)
    ix, iy = lay.index
    pad = 50  # the canvas holds the card's top-left corner and what lies around it, at art resolution
    felt = np.array(rng.choice(FELTS), np.float32) * rng.uniform(0.7, 1.3)
    canvas = np.empty((160, 140, 3), np.float32)
    canvas[:] = felt
    canvas += nprng.normal(0, 6, canvas.shape[:2])[..., None]
    if rng.random() < 0.3:  # lying on another card
        under = art(rng.choice(styles), rng.choice(ALL_CARDS))
        dx, dy = rng.randint(-40, 10), rng.randint(-40, 10)
        blend(canvas, under, pad + dx, pad + dy)
    blend(canvas, card, pad, pad)
    if rng.random() < 0.7:  # the next card of a fan or row over the far side, or below it, or over the index itself
        over = art(rng.choice(styles), rng.choice(ALL_CARDS))
        m = cv2.getRotationMatrix2D((0, 0), rng.uniform(-20, 20), 1.0)
        corner = rng.choice(OVER)
        m[:, 2] = (pad + w * rng.uniform(*corner[0]), pad + h * rng.uniform(*corner[1]))
        layer = cv2.warpAffine(over, m, (canvas.shape[1], canvas.shape[0]))
        blend(canvas, layer, 0, 0)
        k = taught(k, *index_shown(card, layer[pad:, pad:, 3] >= 128, lay))
        near = min(math.dist(m @ (fx * over.shape[1], fy * over.shape[0], 1), (pad + ix * w, pad + iy * h))
                   for fx, fy in lay.centres())  # the over card's own index (taken as of this card's layout)
        if k is None or (k == UNREADABLE and near < CLEAR_PX * w / (lay.size[0] * PX)):
            return patch_sample(rng, nprng, styles, shrink)
    canvas = np.clip(canvas, 0, 255).astype(np.uint8)
    # the patch: patch px -> art px, centred on the index centre, turned and jittered
    art_per_px = w / (lay.size[0] * PX * SCALE) * rng.uniform(0.9, 1.1)
    angle = rng.gauss(0, 6)
    cx = pad + ix * w + rng.gauss(0, 1.2) * SCALE * art_per_px
    cy = pad + iy * h + rng.gauss(0, 1.2) * SCALE * art_per_px
    src = cv2.GaussianBlur(canvas, (0, 0), art_per_px * 0.45)
    patch = cut(src, (cx, cy), angle, scale=art_per_px)
    coarse = rng.random() < 0.5
    return camera_like(patch, rng, nprng, shrink if shrink else 1 / SCALE if coarse else 1.0), k, style


def index_shown(card: np.ndarray, covered: np.ndarray, lay=COMMITTED) -> tuple[float, float]:
    """How much of a card art's (RGBA) top-left index (where ``lay`` puts it) shows where ``covered`` (a mask from
    the art's top-left corner) is False: the share of its ink in all, and of the ink of its less visible half (rank
    and suit: above and below, or side by side). Ink, not the index's box: a card lying just under a whole suit sign
    covers part of the box but none of the sign. Ink is what lies far from the card's stock colour (the box's
    median)."""
    (ix, iy), (iw, ih) = lay.index, lay.box
    h, w = card.shape[:2]
    x0, xm, y0, ym = (max(0, round(v)) for v in ((ix - iw / 2) * w, ix * w, (iy - ih / 2) * h, iy * h))
    rows, cols = slice(y0, 2 * ym - y0), slice(x0, 2 * xm - x0)  # two halves of equal size
    box = card[rows, cols]
    rgb = box[:, :, :3].astype(np.int16)
    ink = (np.abs(rgb - np.median(rgb.reshape(-1, 3), 0)).sum(2) > 90) & (box[:, :, 3] > 128)
    shown = ink & ~covered[rows, cols]
    cut_at = xm - x0 if lay.beside else ym - y0
    parts = [(slice(None), slice(0, cut_at)), (slice(None), slice(cut_at, None))] if lay.beside else \
        [(slice(0, cut_at), slice(None)), (slice(cut_at, None), slice(None))]
    halves = [shown[part].sum() / max(ink[part].sum(), 1) for part in parts]
    return float(shown.sum() / max(ink.sum(), 1)), float(min(halves))


def camera_like(patch: np.ndarray, rng: random.Random, nprng: np.random.Generator, shrink: float) -> np.ndarray:
    """Blur, light, noise and JPEG as a camera gives them, at its resolution: ``shrink`` camera px per patch px (1 a
    2560 x 1920 camera, 1 / SCALE a 1280 x 960 one: :func:`shrink_of`; below 1 the patch is made that coarse and
    enlarged back, as the pipeline's cut enlarges it)."""
    full = patch.shape[1], patch.shape[0]
    patch = patch.astype(np.float32)
    coarse = shrink < 1
    if coarse:
        patch = cv2.resize(patch, (round(full[0] * shrink), round(full[1] * shrink)), interpolation=cv2.INTER_AREA)
    sigma = rng.uniform(0, 1.1)
    if sigma > 0.2:
        patch = cv2.GaussianBlur(patch, (0, 0), sigma)
    patch = patch * rng.uniform(0.6, 1.3) + rng.uniform(-25, 25) + np.float32([rng.gauss(0, 6) for _ in range(3)])
    patch += nprng.normal(0, rng.uniform(0, 6), patch.shape)
    patch = np.clip(patch, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        patch = cv2.imdecode(cv2.imencode(".jpg", patch, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(40, 95)])[1], cv2.IMREAD_COLOR)
    return cv2.resize(patch, full, interpolation=cv2.INTER_LINEAR) if coarse else patch


def blend(canvas: np.ndarray, rgba: np.ndarray, x: int, y: int) -> None:
    h, w = rgba.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, canvas.shape[1]), min(y + h, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    part = rgba[y0 - y:y1 - y, x0 - x:x1 - x].astype(np.float32)
    a = part[:, :, 3:4] / 255
    canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - a) + part[:, :, :3] * a


BIG = (40 * SCALE, 56 * SCALE)  # patches kept from rendered frames, cut larger so that jitter can be applied later
CAMERAS = ((1280, 960), (2560, 1920))


def shrink_of(camera: tuple[int, int]) -> float:
    """Camera px per patch px at the table's centre for a camera of that size (the table fills its height), as
    :func:`camera_like` takes it: 1 at 2560 x 1920 and finer, 1 / SCALE at 1280 x 960.

    >>> shrink_of((2560, 1920)), shrink_of((1280, 960)), shrink_of((1920, 1080)), shrink_of((4000, 3000))
    (1.0, 0.5, 0.5625, 1.0)
    """
    return min(1.0, camera[1] / 1920)


def own_camera(camera: tuple[int, int] | None) -> tuple[int, int] | None:
    """The camera every patch of an enrolment at a venue camera of that size is seen as: the venue's when it lies
    between the two of ``CAMERAS`` (coarser than 2560 x 1920, finer than 1280 x 960), else none (their mix). Measured
    (``models/README.md``, "An enrolment trained at the venue's camera"): at 1920 x 1080 the venue's own camera
    helped; at 2560 x 1920 it lost a read on coarser frames and drew a fifth fewer batches; at 1280 x 960 it helped
    the deck itself but another deck lost 1.4 points more.

    >>> own_camera((1920, 1080)), own_camera((1600, 1200)), own_camera((2560, 1920)), own_camera((1280, 960))
    ((1920, 1080), (1600, 1200), None, None)
    >>> own_camera(None)
    """
    return camera if camera and 1 / SCALE < shrink_of(camera) < 1 else None


# An index at least SEEN visible (the detector's targets) is taught by its name; one showing more than COVERED[0],
# but of its rank or suit half no more than COVERED[1], as UNREADABLE; one in between (such as one with a strip of
# its margin covered) is not taught
COVERED = (0.05, 0.6)
CLEAR_PX = 8.0  # ... unless a seen index lies this close (canonical px; an index is about 8 px tall)
PARTLY = (0.97, 0.9)  # a named index showing less than this, in all or of its less visible half, is partly covered
# Of the frame patches in a batch: which pool each of eight in turn is drawn from
DRAWS = ("unreadable", "partly", "named", "named", "unreadable", "named", "named", "named")
POOL_SHARE = {"named": 1.0, "unreadable": 0.5, "partly": 0.25}  # of ``pool_patches``, the most each pool keeps


def taught(k: int, vis: float, half: float) -> int | None:
    """The class an index of card ``k`` is taught as, by how much of it shows (``vis``) and of its less visible half
    (``half``): ``k`` when at least ``SEEN`` visible, ``UNREADABLE`` when ``COVERED``, else none (not taught).

    >>> taught(7, 0.9, 0.8), taught(7, 0.7, 0.4), taught(7, 0.7, 0.7), taught(7, 0.0, 0.0)
    (7, 54, None, None)
    """
    return k if vis >= SEEN else UNREADABLE if vis >= COVERED[0] and half <= COVERED[1] else None


def frame_patches(rng: random.Random, styles: list[str],
                  cameras: tuple[tuple[int, int], ...] = CAMERAS) -> list[tuple[np.ndarray, int, str, str]]:
    """Upright index patches (BIG) cut from one rendered camera frame (of one of ``cameras``' sizes) as the pipeline
    cuts them, with the true homography, their class, their ``kind`` and the frame's art style: every index at least
    ``SEEN`` visible with its card's class, every one with its rank or suit half ``COVERED`` (by a card or a hand)
    as ``UNREADABLE``."""
    scene = random_scene(rng, styles, decks=rng.choice([1, 2, 3]), max_cards=rng.choice([4, 8]),
                         glare=rng.choice([0.0, 0.0, 0.3]))
    frame = render_frame(scene, random_camera(rng, rng.choice(cameras)))
    style = scene.cards[0].style if scene.cards else ""
    zoom = rng.uniform(0.9, 1.1)
    to_canon = canon_homography(frame.homography, zoom)
    fine, fine_to_canon = level(Pyramid(frame.image), to_canon, 1.5 * SCALE)
    fine_from_canon = np.linalg.inv(fine_to_canon)
    to_canon = to_canon @ frame.homography  # table -> canonical px
    seen, covered = [], []
    for card in frame.truth:
        centre = tuple(cv2.perspectiveTransform(np.array([[card.centre]], np.float64), to_canon)[0, 0])
        for (x, y, vis), half in zip(card.indices, card.halves):
            k = taught(ALL_CARDS.index(card.name), vis, half)
            if k is not None:
                p = tuple(cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), to_canon)[0, 0])
                (covered if k == UNREADABLE else seen).append((p, card_angle(p, centre), k, kind(k, vis, half)))
    covered = [c for c in covered if all(math.dist(c[0], s[0]) > CLEAR_PX for s in seen)]
    return [(cut_through(fine, fine_from_canon, p, angle, BIG, 1 / (SCALE * zoom)), k, why, style)
            for p, angle, k, why in seen + covered]


def kind(k: int, vis: float, half: float) -> str:
    """Which pool a frame patch taught as ``k`` goes to: ``unreadable``, ``partly`` (named, but less than ``PARTLY``
    of it or of its less visible half shows: 1 in 80 of the named indices in frames, and most of the indices misread
    in the held-out sets) or ``named``.

    >>> kind(54, 0.5, 0.3), kind(7, 0.9, 0.95), kind(7, 1.0, 0.8), kind(7, 1.0, 1.0)
    ('unreadable', 'partly', 'partly', 'named')
    """
    return "unreadable" if k == UNREADABLE else "partly" if vis < PARTLY[0] or half < PARTLY[1] else "named"


def jittered(big: np.ndarray, rng: random.Random, nprng: np.random.Generator) -> np.ndarray:
    """A PATCH_H x PATCH_W patch from a BIG one: turned, shifted and scaled as the detector errs, light, noise, JPEG."""
    patch = cut(big, ((BIG[0] - 1) / 2 + rng.gauss(0, 1.2) * SCALE, (BIG[1] - 1) / 2 + rng.gauss(0, 1.2) * SCALE),
                rng.gauss(0, 6), scale=rng.uniform(0.92, 1.08)).astype(np.float32)
    patch = patch * rng.uniform(0.7, 1.25) + rng.uniform(-20, 20)
    patch += nprng.normal(0, rng.uniform(0, 4), patch.shape)
    patch = np.clip(patch, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        patch = cv2.imdecode(cv2.imencode(".jpg", patch, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(50, 95)])[1], cv2.IMREAD_COLOR)
    return patch


def patch_batches(seed: int, *, size: int = 96, styles: list[str] = TRAIN_STYLES, pool_patches: int = 3000,
                  own: str | None = None, camera: tuple[int, int] | None = None):
    """Endless batches (N x 64 x 40 x 3 uint8 patches, classes): half drawn from the art, half from pools of
    patches cut from rendered frames (a fresh frame every other batch), by ``kind``: of eight, two ``UNREADABLE``,
    one partly covered and five named (``DRAWS``). With ``own`` (a style) a third tensor says which patches are of
    it. With ``camera`` (w, h: which one :func:`train` decides, :func:`own_camera`), every patch is seen as that
    camera sees it (frames of its size, the art at its ``shrink_of``); else as a 1280 x 960 or a 2560 x 1920 camera
    does, half and half."""
    rng, nprng = random.Random(seed), np.random.default_rng(seed)
    cameras, shrink = ((camera,), shrink_of(camera)) if camera else (CAMERAS, None)
    now = Rotation(styles, rng, every=8)
    pools: dict[str, list] = {name: [] for name in POOL_SHARE}
    while len(pools["named"]) < 100 or len(pools["unreadable"]) < 20 or len(pools["partly"]) < 2:
        add(pools, frame_patches(rng, now(), cameras), pool_patches)
    for n in itertools.count():
        batch_styles = now()
        if n % 2 == 0:
            add(pools, frame_patches(rng, batch_styles, cameras), pool_patches)
        drawn = [patch_sample(rng, nprng, batch_styles, shrink) for _ in range(size // 2)]
        kept = [rng.choice(pools[DRAWS[i % len(DRAWS)]]) for i in range(size - size // 2)]
        xs, ys, of = zip(*(drawn + [(jittered(big, rng, nprng), k, style) for big, k, _, style in kept]))
        batch = torch.from_numpy(np.stack(xs)), torch.tensor(ys)
        yield (*batch, torch.tensor([s == own for s in of])) if own else batch


def add(pools: dict[str, list], patches: list, most: int) -> None:
    """Add ``patches`` to their pools (by their kind), the oldest dropped beyond ``most`` times the pool's share."""
    for name, pool in pools.items():
        pool += [p for p in patches if p[2] == name]
        del pool[:max(0, len(pool) - int(most * POOL_SHARE[name]))]


def loss_fn(net: IndexClassifier, batch) -> tuple[torch.Tensor, dict]:
    x, y = batch
    logits = net(x.permute(0, 3, 1, 2).float() / 255)
    return F.cross_entropy(logits, y), {"acc": (logits.argmax(1) == y).float().mean().detach()}


def anchored(teacher: IndexClassifier):
    """The loss of an enrolment: the enrolled deck's patches by their names, every other patch by the beliefs
    ``teacher`` (the classifier enrolment starts from) gives it (distillation), so that what the classifier learns of
    the venue's deck does not move what it reads on other decks."""
    teacher.eval()
    for p in teacher.parameters():
        p.requires_grad_(False)

    def loss(net: IndexClassifier, batch) -> tuple[torch.Tensor, dict]:
        x, y, own = batch
        x = x.permute(0, 3, 1, 2).float() / 255
        logits = net(x)
        named = F.cross_entropy(logits[own], y[own], reduction="sum") if own.any() else logits.sum() * 0
        other = ~own
        if other.any():
            with torch.no_grad():
                target = F.softmax(teacher(x[other]), 1)
            kept = F.kl_div(F.log_softmax(logits[other], 1), target, reduction="sum")
        else:
            kept = logits.sum() * 0
        acc = (logits[own].argmax(1) == y[own]).float().mean().detach() if own.any() else torch.tensor(0.0)
        return (named + kept) / len(y), {"own_acc": acc, "kept": (kept / max(int(other.sum()), 1)).detach()}

    return loss


def export(net: IndexClassifier, path: Path) -> None:
    """Write ``net`` (on the CPU, in eval mode: ``vision.train.fit`` calls this) as ONNX to ``path``."""
    whole(path, lambda to: torch.onnx.export(
        Exported(net), torch.zeros(1, 3, PATCH_H, PATCH_W), to, input_names=["patch"], output_names=["probs"],
        dynamic_axes={"patch": {0: "n"}, "probs": {0: "n"}}, opset_version=17, dynamo=False))


def train(out: Path, *, seed: int = 2026, steps: int | None = None, minutes: float | None = None,
          batch_size: int = 96, width: float | None = None, workers: int = 0, device: str = "cpu", threads: int = 1,
          styles: list[str] = TRAIN_STYLES, start: Path | None = None, lr: float = 3e-3,
          checkpoint: Path | None = None, until: float | None = None, own: str | None = None,
          camera: tuple[int, int] | None = None, log=print) -> dict:
    """Train from scratch, or further from the model in ``start`` (an ``index.onnx``; ``width`` None keeps its own, a
    greater one widens it as it reads, :func:`widened`);
    ``own``: a venue's deck (one of ``styles``) enrolled, every other style held to what ``start`` reads
    (:func:`anchored`); ``camera``: the venue camera's size, every patch seen as it sees them (:func:`own_camera`)."""
    torch.set_num_threads(threads)
    camera = own_camera(camera)
    torch.manual_seed(seed)
    net = with_unreadable(from_onnx(start)) if start else IndexClassifier(width or 1.0)
    if start and width and width != net.fc.in_features / 96:
        net = widened(net, width, seed, noise=0.01)
    stream = Stream(partial(patch_batches, size=batch_size, styles=styles, own=own, camera=camera), seed)
    loss = anchored(copy.deepcopy(net)) if own else loss_fn
    run = fit(net, loss, stream, lambda net: export(net, out), steps=steps, minutes=minutes,
              workers=workers, device=device, lr=lr, checkpoint=checkpoint, until=until, log=log)
    return {"seed": seed, "batch": batch_size, "width": net.fc.in_features / 96, "styles": len(styles),
            "from": str(start) if start else None, "lr": lr, **({"camera": list(camera)} if camera else {}), **run}
