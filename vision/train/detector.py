"""Train the corner-index detector from scratch on rendered frames (torch: the optional ``train`` extra; the
runtime never imports this module). ``cardtable vision train --seed N`` reproduces ``models/cards.onnx``.

The network sees the canonical top-down view (``vision.canon``) and answers, every 4 px: is a corner index
centred here (heat), which card it is (54 classes), and where that card's centre is (offset / 64 px).
Training tiles are cut from rendered camera frames warped back to the canonical view with the true homography
(slightly zoomed, as tables differ), around visible indices and at random; the held-out art style is never used.
"""

from __future__ import annotations

import math
import random
from functools import partial
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.canon import canon_homography, canon_view
from vision.geometry import CANON
from vision.model import ALL_CARDS
from vision.train.fit import Stream, fit, onnx_weights
from vision.train.synth.decks import Rotation
from vision.train.synth.render import random_camera, render_frame
from vision.train.synth.scene import TRAIN_STYLES, random_scene
from vision.whole import whole

TILE = 112
STRIDE = 4
OFFSET_SCALE = 64.0
SEEN, UNSURE = 0.85, 0.3  # an index at least this visible is a target; between UNSURE and SEEN it is ignored
# A tile is centred near a visible index; these are drawn more often than they occur, as the detector missed them
# most: a joker's (its long vertical ``JOKER``, 2 cards of 54: about 5% of the indices) and a crowded one, with
# another index within CROWD canonical px (cards stacked close along their length; about 6% of the indices).
JOKER_WEIGHT, CROWD_WEIGHT, CROWD = 4.0, 4.0, 16.0


def block(cin: int, cout: int, stride: int = 1, dilation: int = 1, norm: bool = True) -> nn.Sequential:
    if not norm:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation), nn.ReLU(inplace=True))
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class IndexNet(nn.Module):
    """Input: N x 3 x H x W BGR in 0..1 (H, W multiples of 8). Outputs at H/4 x W/4: heat (sigmoid),
    class probabilities (softmax over 54 cards), offset to the card centre (2, in units of 64 px). ``norm`` False: no
    batch norm, as the exported model has it folded into its convolutions (:func:`from_onnx`)."""

    def __init__(self, norm: bool = True) -> None:
        super().__init__()
        self.s2 = block(3, 16, 2, norm=norm)
        self.s4 = nn.Sequential(block(16, 32, 2, norm=norm), block(32, 32, norm=norm))
        self.s8 = nn.Sequential(*(block(*shape, norm=norm)
                                  for shape in ((32, 64, 2), (64, 64), (64, 64, 1, 2), (64, 64, 1, 3))))
        self.skip = nn.Conv2d(32, 64, 1)
        self.fuse = block(64, 48, norm=norm)
        self.head = nn.Conv2d(48, 1 + len(ALL_CARDS) + 2, 1)
        with torch.no_grad():
            self.head.bias[0] = -4.0  # few cells hold an index

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        s4 = self.s4(self.s2(x))
        s8 = self.s8(s4)
        y = self.fuse(F.relu(self.skip(s4) + F.interpolate(s8, scale_factor=2.0, mode="nearest")))
        out = self.head(y)
        return out[:, :1], out[:, 1:1 + len(ALL_CARDS)], out[:, 1 + len(ALL_CARDS):]


def from_onnx(path: Path) -> IndexNet:
    """The detector a ``cards.onnx`` holds (its convolutions with batch norm folded in), to train further."""
    graph, weights = onnx_weights(path)
    convs = [n for n in graph.node if n.op_type == "Conv"]
    net = IndexNet(norm=False)
    layers = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    if len(convs) != len(layers) or any(weights[n.input[1]].shape != m.weight.shape for n, m in zip(convs, layers)):
        raise ValueError(f"{path}: not a corner-index detector of this design")
    for layer, node in zip(layers, convs):
        layer.weight.data, layer.bias.data = weights[node.input[1]], weights[node.input[2]]
    return net


class Exported(nn.Module):
    def __init__(self, net: IndexNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor):
        heat, cls, off = self.net(x)
        return torch.sigmoid(heat), torch.softmax(cls, 1), off


def frame_sample(rng: random.Random, styles: list[str]) -> tuple[np.ndarray, list[tuple[float, float, int, float, float, float]]]:
    """One rendered frame in the canonical view and its indices: (x, y, class, visible, dx, dy) canonical px."""
    frame = render_frame(random_scene(rng, styles, decks=rng.choice([1, 2, 3, 4]), max_cards=rng.choice([4, 8, 12]),
                                      glare=rng.choice([0.0, 0.0, 0.3])), random_camera(rng))
    zoom = rng.uniform(0.88, 1.12)
    hom = frame.homography.copy()
    jitter = np.eye(3)
    jitter[:2, 2] = [rng.gauss(0, 1.0), rng.gauss(0, 1.0)]  # calibration error, frame px
    hom = jitter @ hom
    img = canon_view(frame.image, hom, zoom)
    to_canon = canon_homography(hom, zoom) @ frame.homography
    targets = []
    for card in frame.truth:
        c = apply(to_canon, card.centre)
        for x, y, vis in card.indices:
            p = apply(to_canon, (x, y))
            targets.append((p[0], p[1], ALL_CARDS.index(card.name), vis, c[0] - p[0], c[1] - p[1]))
    return img, targets


def apply(h: np.ndarray, p: tuple[float, float]) -> tuple[float, float]:
    v = h @ np.array([p[0], p[1], 1.0])
    return (v[0] / v[2], v[1] / v[2])


def focus_weights(targets: list) -> tuple[list, list[float]]:
    """The visible indices of a frame's ``targets`` and the weight of each when a tile's centre is drawn."""
    seen = [t for t in targets if t[3] >= SEEN]
    weights = []
    for t in seen:
        crowded = any(u is not t and u[3] >= UNSURE and math.dist(t[:2], u[:2]) < CROWD for u in targets)
        weights.append(1.0 + (JOKER_WEIGHT - 1) * (ALL_CARDS[t[2]] in ("BJ", "LJ")) + (CROWD_WEIGHT - 1) * crowded)
    return seen, weights


def tile_batch(pool: list, rng: random.Random, size: int) -> tuple[torch.Tensor, ...]:
    """``size`` tiles from ``pool``: frames as (image, targets, visible indices, their weights)."""
    g = TILE // STRIDE
    xs = np.zeros((size, 3, TILE, TILE), np.float32)
    heat = np.zeros((size, 1, g, g), np.float32)
    weight = np.ones((size, 1, g, g), np.float32)
    cls = np.full((size, g, g), -100, np.int64)
    off = np.zeros((size, 2, g, g), np.float32)
    offmask = np.zeros((size, 1, g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32) * STRIDE + STRIDE / 2 - 0.5
    for b in range(size):
        img, targets, seen, focus = rng.choice(pool)
        if seen and rng.random() < 0.75:
            t = rng.choices(seen, focus)[0]
            x0, y0 = int(t[0] + rng.uniform(-48, 48)) - TILE // 2, int(t[1] + rng.uniform(-48, 48)) - TILE // 2
        else:
            x0, y0 = rng.randrange(0, CANON - TILE), rng.randrange(0, CANON - TILE)
        x0, y0 = min(max(x0, 0), CANON - TILE), min(max(y0, 0), CANON - TILE)
        tile = img[y0:y0 + TILE, x0:x0 + TILE].astype(np.float32) / 255
        tile = tile * rng.uniform(0.75, 1.25) + rng.uniform(-0.1, 0.1)
        xs[b] = tile.transpose(2, 0, 1)
        for x, y, k, vis, dx, dy in targets:
            lx, ly = x - x0, y - y0
            if not (-12 <= lx < TILE + 12 and -12 <= ly < TILE + 12):
                continue
            d2 = ((xx - lx) ** 2 + (yy - ly) ** 2) / STRIDE ** 2
            if vis >= SEEN:
                heat[b, 0] = np.maximum(heat[b, 0], np.exp(-d2 / 2))
                gx, gy = int(lx // STRIDE), int(ly // STRIDE)
                if 0 <= gx < g and 0 <= gy < g:
                    heat[b, 0, gy, gx] = 1.0  # the cell that holds the index is its peak
                near = d2 <= 2.0
                cls[b][near] = k
                off[b, 0][near], off[b, 1][near] = dx / OFFSET_SCALE, dy / OFFSET_SCALE
                offmask[b, 0][near] = 1
            elif vis >= UNSURE:
                weight[b, 0][d2 <= 4.0] = 0
    rot = rng.randrange(4)  # the same quarter turn for the whole batch
    t = [torch.from_numpy(a) for a in (xs, heat, weight, cls, off, offmask)]
    if rot:
        t = [torch.rot90(a, rot, (-2, -1)) for a in t]
        c, s = round(math.cos(rot * math.pi / 2)), round(math.sin(rot * math.pi / 2))
        # rot90 turns the image counter-clockwise (as seen with y down): a vector (dx, dy) becomes (dy, -dx) per turn
        dx, dy = t[4][:, 0].clone(), t[4][:, 1].clone()
        t[4] = torch.stack([c * dx + s * dy, -s * dx + c * dy], 1)
    return tuple(x.contiguous() for x in t)


def loss_fn(net: IndexNet, batch) -> tuple[torch.Tensor, dict]:
    x, heat, weight, cls, off, offmask = batch
    h, c, o = net(x)
    p = torch.sigmoid(h).clamp(1e-4, 1 - 1e-4)
    pos = (heat > 0.99).float()
    neg = (1 - pos) * (1 - heat) ** 4
    focal = -(pos * (1 - p) ** 2 * torch.log(p) + neg * p ** 2 * torch.log(1 - p)) * weight
    npos = pos.sum().clamp(min=1)
    lh = focal.sum() / npos
    lc = F.cross_entropy(c, cls, ignore_index=-100, reduction="sum") / (cls >= 0).sum().clamp(min=1)
    lo = (F.l1_loss(o, off, reduction="none") * offmask).sum() / offmask.sum().clamp(min=1)
    return lh + lc + 2 * lo, {"heat": lh.detach(), "cls": lc.detach(), "off": lo.detach()}


def tile_batches(seed: int, *, batch: int = 32, pool_size: int = 60, styles: list[str] = TRAIN_STYLES):
    """Endless training batches: tiles cut from a pool of rendered frames, one fresh frame per batch."""
    rng = random.Random(seed)
    now = Rotation(styles, rng, every=1)

    def sample():
        img, targets = frame_sample(rng, now())
        return (img, targets, *focus_weights(targets))

    pool = [sample() for _ in range(max(1, pool_size // 4))]
    while True:
        new = sample()
        if len(pool) < pool_size:
            pool.append(new)
        else:
            pool[rng.randrange(pool_size)] = new
        yield tile_batch(pool, rng, batch)


def export(net: IndexNet, path: Path) -> None:
    """Write ``net`` (on the CPU, in eval mode: ``vision.train.fit`` calls this) as ONNX to ``path``."""
    dummy = torch.zeros(1, 3, 128, 128)
    whole(path, lambda to: torch.onnx.export(
        Exported(net), dummy, to, input_names=["image"], output_names=["heat", "cls", "offset"],
        dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "heat": {0: "n", 2: "h", 3: "w"}, "cls": {0: "n", 2: "h", 3: "w"},
                      "offset": {0: "n", 2: "h", 3: "w"}}, opset_version=17, dynamo=False))


def train(out: Path, *, seed: int = 2026, steps: int | None = None, minutes: float | None = None, batch: int = 32,
          workers: int = 0, device: str = "cpu", threads: int = 1, styles: list[str] = TRAIN_STYLES, lr: float = 3e-3,
          start: Path | None = None, checkpoint: Path | None = None, log=print) -> dict:
    """Train from scratch, or further from the detector in ``start`` (a ``cards.onnx``), and write the ONNX model to
    ``out``; returns the run's summary."""
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    stream = Stream(partial(tile_batches, batch=batch, styles=styles), seed)
    net = from_onnx(start) if start else IndexNet()
    run = fit(net, loss_fn, stream, lambda net: export(net, out), steps=steps, minutes=minutes,
              workers=workers, device=device, lr=lr, checkpoint=checkpoint, log=log)
    return {"seed": seed, "batch": batch, "tile": TILE, "styles": len(styles), "from": str(start) if start else None,
            "lr": lr, **run}
