"""Is this our deck: what the corner indices of one deck look like to the index classifier, so that a camera whose
confidence is calibrated for that deck (a venue's enrolled deck, the simulated hall's decks: ``vision.confidence``)
keeps every read of another deck flagged for a person. A deck's calibration trusts the classifier's beliefs as far
as that deck's reads earned it; the classifier reads a deck it never saw as surely, and wrongly (a spade as a club),
so the calibration alone would mark those reads sure.

A look is what the classifier saw in one corner index (``Model.look``: its penultimate layer, as a unit vector). A
deck's fingerprint holds, for each card, up to ``CENTRES`` looks of that card's index on the deck (the centres of
its right reads' looks, by cosine k-means). A read is as far from the deck as the nearest of the card's centres to
the nearest of its corners (1 - cosine: a corner partly covered looks off, the card's other corner still like the
deck). The reach is the distance within which ``KEEP`` of the deck's own right reads lay, on tables whose looks the
centres were not taken from (``fit``). A read farther away is not of the deck. Nor is a read by both corners whose
corners lie farther apart or nearer, against the other cards of its frame (``relative``: over the frame's median),
than the deck's own did (``Fingerprint.apart``: where ``KEEP`` of them lay, ``APART_SLACK`` wider): how far apart a
card's two indices lie is its size less its indices' insets, a thing of the printed deck that the classifier's look
does not see, and measured against the frame itself it needs no table size. Nor is any read of a frame where many
look unlike it (``Fingerprint.unlike``: another deck on the table, whose reads that happen to look like the deck's
are not to be trusted either): its confidence stays under ``sanity.SURE`` and its play is flagged, saying why
(``sanity``).

Chosen by measurement (``models/README.md``, "Is this our deck"): on the held-out calibration families read under
the hall's calibration, the penultimate layer's cosine distance kept more foreign reads flagged than its
Mahalanobis distance, earlier layers, their pooled statistics, the logits or the patch's own pixels; the nearest
centre more than the nearest of all looks less than 2 points; projecting the looks on fewer dimensions let many
more through. The corners' span catches a card whose size or insets differ by a few millimetres from the deck's
however alike its indices look (the hall's decks' two indices lie 77-83 mm apart, ``cabin-deep``'s, 7 mm in, 69-76).

>>> rng = np.random.default_rng(1)
>>> spade, heart = np.eye(8)[0] * 5, np.eye(8)[1] * 5
>>> ours = [("SA", (spade + rng.normal(0, 1, 8),)) for _ in range(300)] + [("HK", (heart + rng.normal(0, 1, 8),))
...                                                                        for _ in range(300)]
>>> apart = 1 + 0.01 * rng.standard_normal(400)  # the deck's reads by both corners: their span over the frame's
>>> f = fit(ours[:200] + ours[300:500], ours[200:300] + ours[500:], "example", keep=0.99, centres=4, apart=apart)
>>> f.ours("SA", [spade]), f.ours("SA", [heart]), f.ours("HK", [spade, heart]), f.ours("C3", [spade])
(True, False, True, False)
>>> f.apart, relative([100.0, 101.0, 92.0, None]), relative([100.0, None])
((0.9631, 1.033), [1.0, 1.01, 0.92, None], [None, None])
>>> f.unlike([("SA", [spade])] * 7 + [("SA", [heart])] * 2)
[False, False, False, False, False, False, False, True, True]
>>> f.unlike([("SA", [spade])] * 6 + [("SA", [heart])] * 3)
[True, True, True, True, True, True, True, True, True]
>>> f.unlike([("SA", [spade])] * 4, [100.0, 101.0, 92.0, None])  # one card 8% shorter than the others
[False, False, True, False]
>>> from_json(f.as_json()) == f
True
"""

from __future__ import annotations

import base64
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

LOOK = "penultimate, cosine"  # what a look is and how looks compare; a fingerprint of others is refused
KEEP = 0.995  # the share of the deck's own right reads (tables the centres were not taken from) within the reach
CENTRES = 32  # looks kept per card
# A frame where at least this share of the reads, and this many, look unlike the deck shows another deck: none of
# its reads is taken for the deck's (a card or two of another deck among the deck's own leave the others sure)
FRAME_SHARE, FRAME_LEAST = 0.3, 3
APART_SLACK = 0.01  # the deck's spans (over their frame's) are widened by this on either side
APART_LEAST = 50  # reads by both corners a fit needs to keep where the deck's spans lie (fewer: not checked)
FRAME_SPANS = 3  # reads by both corners a frame needs for a median to measure them against
Looks = tuple[str, Sequence[np.ndarray]]  # a read: the card it names, the looks of the corners that named it


def relative(spans: Sequence[float | None]) -> list[float | None]:
    """One frame's reads' spans (how far apart each one's two corners lie; None: named by one corner) over the
    frame's median span; None for a read without one, or all when the frame has fewer than ``FRAME_SPANS``."""
    known = [s for s in spans if s is not None]
    if len(known) < FRAME_SPANS:
        return [None] * len(spans)
    mid = float(np.median(known))
    return [None if s is None else round(s / mid, 6) for s in spans]


class FingerprintError(ValueError):
    """A fingerprint that cannot be used (said by ``confidence.CalibrationError``)."""


@dataclass(frozen=True)
class Fingerprint:
    centres: Mapping[str, np.ndarray] = field(repr=False, compare=False)  # card -> K x F unit looks (float16)
    reach: float  # reads of the deck lie this near (``KEEP`` of them)
    fitted_on: str
    size: int  # numbers in a look
    apart: tuple[float, float] | None = None  # its spans over their frame's lie here (``relative``; None: unchecked)

    def distance(self, card: str, looks: Iterable[np.ndarray | None]) -> float:
        """How far a read of ``card`` with these corners' looks is from the deck's looks of it (its nearest
        corner); 2 (the farthest) for a card the deck's tables never showed, or no look."""
        mine = self.centres.get(card)
        nearest = 2.0
        for look in looks:
            if mine is not None and look is not None:
                v = np.asarray(look, np.float32)
                nearest = min(nearest, 1.0 - float((mine @ v).max()) / max(float(np.linalg.norm(v)), 1e-9))
        return nearest

    def ours(self, card: str, looks: Iterable[np.ndarray | None]) -> bool:
        """Does a read of ``card`` with these looks look like the deck's?"""
        return self.distance(card, looks) <= self.reach

    def unlike(self, reads: Sequence[Looks], spans: Sequence[float | None] | None = None) -> list[bool]:
        """Which of one frame's reads are not the deck's: each that looks unlike it, each whose corners lie farther
        apart or nearer than the deck's against the frame's (``spans``: each read's, any unit, None: one corner),
        and every one where the frame shows another deck (``FRAME_SHARE``, ``FRAME_LEAST``)."""
        ratios = relative(spans) if spans is not None and self.apart else [None] * len(reads)
        far = [not self.ours(card, looks) or (r is not None and not self.apart[0] <= r <= self.apart[1])
               for (card, looks), r in zip(reads, ratios, strict=True)]
        if sum(far) >= max(FRAME_LEAST, FRAME_SHARE * len(far)):
            return [True] * len(far)
        return far

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Fingerprint) and (self.reach, self.fitted_on, self.size, self.apart) == (
            other.reach, other.fitted_on, other.size, other.apart) and self.centres.keys() == other.centres.keys()
            and all(np.array_equal(v, other.centres[k]) for k, v in self.centres.items()))

    __hash__ = None  # type: ignore[assignment]

    def as_json(self) -> dict:
        apart = {"apart": list(self.apart)} if self.apart else {}
        return {"look": LOOK, "size": self.size, "reach": self.reach, "fitted_on": self.fitted_on} | apart | {
            "centres": {card: base64.b64encode(c.astype("<f2").tobytes()).decode()
                        for card, c in sorted(self.centres.items())}}


def from_json(data: object) -> Fingerprint:
    """The fingerprint a calibration file holds; FingerprintError, saying what is wrong, when it is not one."""
    if not isinstance(data, dict):
        raise FingerprintError("not an object")
    if data.get("look") != LOOK:
        raise FingerprintError(f"made of looks {data.get('look')!r}, this code compares {LOOK!r}")
    try:
        size, reach, fitted_on = int(data["size"]), float(data["reach"]), str(data["fitted_on"])
        raw = {str(card): base64.b64decode(text, validate=True) for card, text in dict(data["centres"]).items()}
    except (KeyError, TypeError, ValueError) as e:
        raise FingerprintError(f"{type(e).__name__}: {e}") from e
    if size < 1 or not raw or not (0 <= reach < 2):
        raise FingerprintError(f"size {size}, {len(raw)} cards, reach {reach}")
    apart = data.get("apart")  # none in a fingerprint of before
    if apart is not None:
        if not (isinstance(apart, list) and len(apart) == 2 and all(isinstance(v, (int, float)) for v in apart)
                and 0 < apart[0] <= 1 <= apart[1] < 2):
            raise FingerprintError(f"apart {apart!r}: not a low and a high share round 1")
        apart = (float(apart[0]), float(apart[1]))
    centres = {}
    for card, blob in raw.items():
        if not blob or len(blob) % (2 * size):
            raise FingerprintError(f"{card}: {len(blob)} bytes are not looks of {size} numbers")
        c = np.frombuffer(blob, "<f2").reshape(-1, size).astype(np.float32)
        if not np.isfinite(c).all() or np.abs(np.linalg.norm(c, axis=1) - 1).max() > 0.01:
            raise FingerprintError(f"{card}: looks that are not unit vectors")
        centres[card] = c
    return Fingerprint(centres, reach, fitted_on, size, apart)


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-9)


def _centres(looks: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Up to ``k`` unit looks that stand for ``looks`` (cosine k-means, 20 rounds)."""
    if len(looks) <= k:
        return looks
    c = looks[rng.choice(len(looks), k, replace=False)]
    for _ in range(20):
        nearest = (looks @ c.T).argmax(1)
        c = np.stack([_unit(looks[nearest == j].mean(0)) if (nearest == j).any() else c[j] for j in range(k)])
    return c


def fit(reads: Iterable[Looks], held: Iterable[Looks], fitted_on: str, keep: float = KEEP,
        centres: int = CENTRES, apart: Iterable[float] = ()) -> Fingerprint:
    """The fingerprint of a deck: each card's centres from the looks of its right reads ``reads``, the reach from
    its right reads ``held`` (other tables of the deck): the distance ``keep`` of them lie within; from ``apart``
    (its right reads by both corners: their spans, ``relative`` to their frames') where ``keep`` of them lie,
    ``APART_SLACK`` wider, when there are ``APART_LEAST`` of them."""
    by_card: dict[str, list[np.ndarray]] = defaultdict(list)
    for card, looks in reads:
        by_card[card] += [np.asarray(look, np.float64) for look in looks if look is not None]
    if not by_card:
        raise FingerprintError("no read of the deck to fit on")
    rng = np.random.default_rng(0)
    kept = {card: _centres(_unit(np.stack(v)), centres, rng).astype("<f2").astype(np.float32)
            for card, v in sorted(by_card.items())}
    size = next(iter(kept.values())).shape[1]
    partial = Fingerprint(kept, 2.0, fitted_on, size)
    far = sorted(partial.distance(card, looks) for card, looks in held)
    if not far:
        raise FingerprintError("no read of the deck to fit the reach on")
    reach = max(0.0, far[min(len(far) - 1, math.ceil(keep * len(far)) - 1)])  # float16 centres: a cosine may pass 1
    if reach >= 2:
        raise FingerprintError(f"{sum(d >= 2 for d in far)} of {len(far)} reads of other tables name cards the "
                               f"reads fitted on never showed")
    looks = sum(len(v) for v in by_card.values())
    ratios = np.array(list(apart), np.float64)
    within = None
    if len(ratios) >= APART_LEAST:
        lo, hi = np.quantile(ratios, [(1 - keep) / 2, (1 + keep) / 2])
        within = (round(min(1.0, float(lo)) - APART_SLACK, 4), round(max(1.0, float(hi)) + APART_SLACK, 4))
    return Fingerprint(kept, float(f"{reach:.6g}"), f"{fitted_on}: {len(kept)} cards, {looks} looks, reach from "
                                                    f"{len(far)} reads of other tables, spans from {len(ratios)} "
                                                    f"reads by both corners", size, within)
