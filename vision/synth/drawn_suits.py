"""Suit signs drawn from a few random numbers (``make_art``'s fourth batch of generated styles): a heart of two round
lobes over a point, a diamond with straight or hollow sides, a spade (a heart upside down) and a club (three round
leaves) on a stem that may flare. Each set varies the lobes' size and spread, the point's depth, the stem's width
and flare, so that the classifier learns what tells a club from a spade (three round leaves against one point) on
shapes no font or deck gave it, rather than the strokes of the few suit glyphs it saw.

>>> box, shapes = drawn_suits(random.Random(1))
>>> box, sorted(shapes)
('0 0 100 100', ['C', 'D', 'H', 'S'])
>>> shapes == drawn_suits(random.Random(1))[1], shapes["C"].count("<circle")
(True, 4)
"""

from __future__ import annotations

import math
import random


def _f(v: float) -> str:
    return f"{v:.1f}"


def _circle(x: float, y: float, r: float) -> str:
    return f"<circle cx='{_f(x)}' cy='{_f(y)}' r='{_f(r)}'/>"


def _polygon(points: list[tuple[float, float]]) -> str:
    return "<polygon points='" + " ".join(f"{_f(x)},{_f(y)}" for x, y in points) + "'/>"


def _heart(r: float, spread: float, lobe_y: float, tip: float, flip: bool) -> list[str]:
    """Two lobes of radius ``r`` at ``lobe_y``, ``spread`` from the middle, and the point at ``tip``; y in 0..100 with 0 at
    the top, all upside down if ``flip``."""
    def y(v: float) -> float:
        return 100 - v if flip else v
    side = math.radians(35)
    left = (50 - spread - r * math.cos(side), lobe_y + r * math.sin(side))
    right = (50 + spread + r * math.cos(side), lobe_y + r * math.sin(side))
    return [_circle(50 - spread, y(lobe_y), r), _circle(50 + spread, y(lobe_y), r),
            _polygon([(left[0], y(left[1])), (50, y(lobe_y)), (right[0], y(right[1])), (50, y(tip))])]


def _stem(top: float, width: float, flare: float) -> str:
    return _polygon([(50 - width, top), (50 + width, top), (50 + flare, 97), (50 - flare, 97)])


def drawn_suits(rng: random.Random) -> tuple[str, dict[str, str]]:
    """One set of four suit signs: (SVG viewBox, suit letter -> SVG elements), as ``npm_art.suit_sets`` gives."""
    r, spread = rng.uniform(19, 26), rng.uniform(0.6, 0.95)
    heart = _heart(r, r * spread, rng.uniform(26, 32), rng.uniform(88, 97), False)
    half, hollow = rng.uniform(28, 44), rng.uniform(-0.25, 0.3)  # sides hollow (> 0) or bulging (< 0)
    corners = [(50, 3), (50 + half, 50), (50, 97), (50 - half, 50)]
    path = "M50,3"
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1]):
        mx, my = (ax + bx) / 2, (ay + by) / 2  # each side bent towards the middle (or away) by ``hollow``
        path += f" Q{_f(mx + hollow * (50 - mx))},{_f(my + hollow * (50 - my))} {bx},{by}"
    diamond = f"<path d='{path} Z'/>"
    stem_w, flare = rng.uniform(2.5, 6), rng.uniform(7, 17)
    sr, sspread = rng.uniform(17, 23), rng.uniform(0.6, 0.95)
    spade = _heart(sr, sr * sspread, rng.uniform(36, 44), rng.uniform(90, 97), True) + [_stem(55, stem_w, flare)]
    cr = rng.uniform(15, 20)
    low, reach = rng.uniform(52, 60), rng.uniform(0.95, 1.3) * cr
    club = [_circle(50, low - rng.uniform(1.2, 1.6) * cr, cr), _circle(50 - reach, low, cr), _circle(50 + reach, low, cr),
            _circle(50, low - 0.3 * cr, 0.7 * cr), _stem(low, stem_w, flare)]
    return "0 0 100 100", {"H": "".join(heart), "D": diamond, "S": "".join(spade), "C": "".join(club)}
