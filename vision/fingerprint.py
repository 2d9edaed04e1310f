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
centres were not taken from (``fit``). A read farther away is not of the deck, and neither is any read of a frame
where many look unlike it (``Fingerprint.unlike``: another deck on the table, whose reads that happen to look like
the deck's are not to be trusted either): its confidence stays under ``sanity.SURE`` and its play is flagged, saying
why (``sanity``).

Chosen by measurement (``models/README.md``, "Is this our deck"): on the held-out calibration families read under
the hall's calibration, the penultimate layer's cosine distance kept more foreign reads flagged than its
Mahalanobis distance, earlier layers, their pooled statistics, the logits or the patch's own pixels; the nearest
centre more than the nearest of all looks less than 2 points; projecting the looks on fewer dimensions let many
more through.

>>> rng = np.random.default_rng(1)
>>> spade, heart = np.eye(8)[0] * 5, np.eye(8)[1] * 5
>>> ours = [("SA", (spade + rng.normal(0, 1, 8),)) for _ in range(300)] + [("HK", (heart + rng.normal(0, 1, 8),))
...                                                                        for _ in range(300)]
>>> f = fit(ours[:200] + ours[300:500], ours[200:300] + ours[500:], "example", keep=0.99, centres=4)
>>> f.ours("SA", [spade]), f.ours("SA", [heart]), f.ours("HK", [spade, heart]), f.ours("C3", [spade])
(True, False, True, False)
>>> f.unlike([("SA", [spade])] * 7 + [("SA", [heart])] * 2), f.unlike([("SA", [spade])] * 6 + [("SA", [heart])] * 3)
([False, False, False, False, False, False, False, True, True], [True, True, True, True, True, True, True, True, True])
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
Looks = tuple[str, Sequence[np.ndarray]]  # a read: the card it names, the looks of the corners that named it


class FingerprintError(ValueError):
    """A fingerprint that cannot be used (said by ``confidence.CalibrationError``)."""


@dataclass(frozen=True)
class Fingerprint:
    centres: Mapping[str, np.ndarray] = field(repr=False, compare=False)  # card -> K x F unit looks (float16)
    reach: float  # reads of the deck lie this near (``KEEP`` of them)
    fitted_on: str
    size: int  # numbers in a look

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

    def unlike(self, reads: Sequence[Looks]) -> list[bool]:
        """Which of one frame's reads are not the deck's: each that looks unlike it, and every one where the frame
        shows another deck (``FRAME_SHARE``, ``FRAME_LEAST``)."""
        far = [not self.ours(card, looks) for card, looks in reads]
        if sum(far) >= max(FRAME_LEAST, FRAME_SHARE * len(far)):
            return [True] * len(far)
        return far

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Fingerprint) and (self.reach, self.fitted_on, self.size) == (
            other.reach, other.fitted_on, other.size) and self.centres.keys() == other.centres.keys()
            and all(np.array_equal(v, other.centres[k]) for k, v in self.centres.items()))

    __hash__ = None  # type: ignore[assignment]

    def as_json(self) -> dict:
        return {"look": LOOK, "size": self.size, "reach": self.reach, "fitted_on": self.fitted_on,
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
    centres = {}
    for card, blob in raw.items():
        if not blob or len(blob) % (2 * size):
            raise FingerprintError(f"{card}: {len(blob)} bytes are not looks of {size} numbers")
        c = np.frombuffer(blob, "<f2").reshape(-1, size).astype(np.float32)
        if not np.isfinite(c).all() or np.abs(np.linalg.norm(c, axis=1) - 1).max() > 0.01:
            raise FingerprintError(f"{card}: looks that are not unit vectors")
        centres[card] = c
    return Fingerprint(centres, reach, fitted_on, size)


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
        centres: int = CENTRES) -> Fingerprint:
    """The fingerprint of a deck: each card's centres from the looks of its right reads ``reads``, the reach from
    its right reads ``held`` (other tables of the deck): the distance ``keep`` of them lie within."""
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
    return Fingerprint(kept, float(f"{reach:.6g}"), f"{fitted_on}: {len(kept)} cards, {looks} looks, reach from "
                                                    f"{len(far)} reads of other tables", size)
