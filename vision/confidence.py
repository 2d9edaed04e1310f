"""Confidence that means something: the classifier's raw belief in a read, mapped so that a read at or over
``SURE`` is one that held-out decks show wrong at most ``TARGET`` of the time; below, the read is flagged for a
person (``sanity``, and the table service's own threshold, which is the same number).

A calibration is fitted on reads of decks no model was trained on and no reported test uses (the calibration
families of ``bench/heldout``, ``bench/fit_confidence.py``), separately for cards seen by both corners (which vote)
and by one corner: sure begins at the lowest raw belief above which the reads it saw show, at 95%, that such
reads are wrong at most the target (``vouched``: at least 1,497 reads of a kind for 0.2%, 5,990 for 0.05%), so a
threshold is not put where the wrong share only just meets the target on the reads it happened to see (an
enrolment, whose budget cannot read that many, chooses by the share it saw, and a check vouches instead). It is
stored beside the index classifier it belongs to (``index.sure.json``, with that file's hash: a calibration of
another model is refused, and then nothing is sure). The mapping keeps the order of the raw
beliefs: [0, sure_at) -> [0, SURE), [sure_at, 1] -> [SURE, 1].

>>> c = Calibration({"2": 0.995, "1": None}, TARGET, "example")
>>> round(c.confidence(0.999, 2), 3), round(c.confidence(0.99, 2), 3), round(c.confidence(0.9999, 1), 3)
(0.98, 0.895, 0.899)
>>> fit([(0.99, True, 2)] * 1500 + [(0.5, False, 2)] * 9 + [(0.97, False, 1)] * 3, 0.002)
{'2': 0.99, '1': None}
>>> fit([(0.99, True, 2)] * 600, 0.002), fit([(0.99, True, 2)] * 600, 0.002, vouch=False)
({'2': None, '1': None}, {'2': 0.99, '1': None})
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

from referee.catalogue import Refusal
from vision import fingerprint
from vision.sanity import SURE
from vision.whole import whole

TARGET = 0.002  # a sure read is wrong at most this share of the time, out of the box
ENROLLED_TARGET = 0.0005  # and once the venue's deck is enrolled
LEVEL = 0.95  # how sure the reads a fit or a check counted must leave us that sure is wrong at most the target
DETAIL_SLACK = 0.05  # a frame this much coarser than the coarsest a deck's calibration was fitted on is still in it


class CalibrationError(Refusal):
    """A calibration file that cannot be used: damaged, or made for another classifier."""

    section = "vision.error"


@dataclass(frozen=True)
class Calibration:
    sure_at: dict[str, float | None]  # "2": both corners agree, "1": one corner (or two that disagree); None: never
    target: float
    fitted_on: str
    deck: fingerprint.Fingerprint | None = None  # a deck's calibration: what its reads look like (``fingerprint``)
    detail: float | None = None  # the least detail of the frames it was fitted on (``holds_at``; None: no bound)

    def confidence(self, raw: float, corners: int) -> float:
        """The calibrated confidence of a read whose raw belief is ``raw``, seen by ``corners`` corners."""
        t = self.sure_at.get("2" if corners >= 2 else "1")
        if t is None:
            return SURE * raw * (1 - 1e-3)
        if raw >= t:
            return SURE + (1 - SURE) * (raw - t) / max(1 - t, 1e-9)
        return SURE * raw / t

    def holds_at(self, detail: float | None) -> bool:
        """Does the calibration hold for a frame of this ``detail`` (``vision.canon.detail``: frame px per canonical
        px at the table's centre; None: not known, a frame without its markers)? A deck's calibration measured how
        often its reads were wrong on frames of a camera size; a coarser frame reads that deck worse (a spade as a
        club at 1920 x 1080 where 2560 x 1920 reads it right), so it holds only down to its least ``detail``, less
        ``DETAIL_SLACK``. One without that bound holds everywhere.

        >>> c = Calibration({"2": 0.99, "1": None}, ENROLLED_TARGET, "example", detail=1.8)
        >>> c.holds_at(2.4), c.holds_at(1.72), c.holds_at(1.6), c.holds_at(None)
        (True, True, False, False)
        >>> Calibration({"2": 0.99, "1": None}, ENROLLED_TARGET, "example").holds_at(1.0)
        True
        """
        return self.detail is None or (detail is not None and detail >= self.detail * (1 - DETAIL_SLACK))

    def marks_sure(self) -> bool:
        """Does it mark any read sure? One that does not (no threshold for either kind) sends every read to a person.

        >>> Calibration({"2": 0.99, "1": None}, TARGET, "example").marks_sure()
        True
        >>> Calibration({"2": None, "1": None}, TARGET, "example").marks_sure()
        False
        """
        return any(t is not None for t in self.sure_at.values())

    def for_deck(self) -> bool:
        """Is this one deck's calibration (its target the enrolled one), which holds for reads of that deck only?"""
        return self.target < TARGET

    def to_json(self, classifier: Path) -> str:
        deck = {"deck": self.deck.as_json()} if self.deck else {}
        detail = {"detail": self.detail} if self.detail is not None else {}
        return json.dumps({"sure_at": self.sure_at, "target": self.target, "fitted_on": self.fitted_on,
                           "classifier_sha256": digest(classifier)} | detail | deck, indent=1)

    def write(self, path: Path, classifier: Path) -> None:
        """Write it for ``classifier`` to ``path``, whole or not at all (``vision.whole``): a process killed or a disk
        full while it writes leaves the calibration there before."""
        text = self.to_json(classifier) + "\n"
        whole(path, lambda to: Path(to).write_text(text))


def digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def path_for(classifier: Path) -> Path:
    """Where the calibration of the index classifier ``classifier`` lies: ``index.onnx`` -> ``index.sure.json``."""
    return Path(classifier).with_suffix(".sure.json")


def load(classifier: Path, path: Path | None = None) -> Calibration | None:
    """The calibration of ``classifier`` at ``path`` (default: beside it), None when there is none beside it (raw
    beliefs are then used as they are: the classifier was never calibrated). A damaged file, one made for another
    classifier, a deck's calibration that marks reads sure without the deck's fingerprint, a damaged fingerprint, or
    a ``path`` given that does not exist is an error."""
    p = Path(path) if path else path_for(classifier)
    if not p.is_file():
        if path:
            raise CalibrationError("no_calibration", path=p)
        return None
    def number(value: object, name: str, low: float = -math.inf, high: float = math.inf) -> float:
        try:
            x = float(value)
        except (TypeError, ValueError):
            x = math.nan
        if not low < x < high:  # said with the value as written, not Python's English
            raise CalibrationError("bad_field", field=name, value=json.dumps(value, ensure_ascii=False))
        return x

    try:
        data = json.loads(p.read_text())
        sure_at = {k: (None if data["sure_at"][k] is None else number(data["sure_at"][k], f"sure_at.{k}")) for k in ("1", "2")}
        target, fitted, sha = number(data["target"], "target"), str(data["fitted_on"]), str(data["classifier_sha256"])
        detail = None if data.get("detail") is None else number(data["detail"], "detail", 0, 1e3)
    except (UnicodeDecodeError, json.JSONDecodeError):  # another command's file: not said in Python's English
        raise CalibrationError("damaged_calibration", path=p, error=CalibrationError("not_json")) from None
    except KeyError as e:  # said in words, not Python's English
        raise CalibrationError("damaged_calibration", path=p, error=CalibrationError("no_field", field=e.args[0])) from e
    except CalibrationError as e:
        raise CalibrationError("damaged_calibration", path=p, error=e) from None
    except (TypeError, AttributeError) as e:  # not an object where one is due
        raise CalibrationError("damaged_calibration", path=p, error=CalibrationError("not_object")) from e
    if sha != digest(classifier):
        raise CalibrationError("other_classifier", path=p, classifier=classifier)
    cal = Calibration(sure_at, target, fitted, detail=detail)
    if "deck" in data or (cal.for_deck() and cal.marks_sure()):
        if "deck" not in data:
            raise CalibrationError("no_fingerprint", path=p)
        try:
            cal = Calibration(sure_at, target, fitted, fingerprint.from_json(data["deck"]), detail)
        except fingerprint.FingerprintError as e:
            raise CalibrationError("damaged_fingerprint", path=p, error=e) from e
    return cal


def at_most(wrong: int, n: int, p: float) -> float:
    """The chance of ``wrong`` or fewer wrong reads in ``n`` when each is wrong with chance ``p`` (binomial)."""
    if p <= 0:
        return 1.0
    if p >= 1:
        return float(wrong >= n)
    return min(1.0, sum(math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p)
                                 + (n - i) * math.log1p(-p)) for i in range(min(wrong, n) + 1)))


def vouched(wrong: int, n: int, target: float, level: float = LEVEL) -> bool:
    """Do ``wrong`` wrong reads of ``n`` show, at ``level``, that such reads are wrong at most ``target`` of the
    time: would ``wrong`` or fewer be seen at most 1 - ``level`` of the time were they wrong ``target`` of it?

    >>> vouched(0, 5990, ENROLLED_TARGET), vouched(0, 5980, ENROLLED_TARGET), vouched(1, 9490, ENROLLED_TARGET)
    (True, False, True)
    """
    return n > 0 and wrong < target * n and at_most(wrong, n, target) <= 1 - level


def upper(wrong: int, n: int, level: float = LEVEL) -> float:
    """The share of wrong reads that ``wrong`` of ``n`` still allow at ``level`` (Clopper-Pearson, one-sided): the
    share at which ``wrong`` or fewer would be seen only 1 - ``level`` of the time.

    >>> round(upper(0, 5990), 6), round(upper(0, 2000), 5), round(upper(3, 10000), 5), upper(0, 0)
    (0.0005, 0.0015, 0.00078, 1.0)
    """
    if n == 0 or wrong >= n:
        return 1.0
    lo, hi = wrong / n, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if at_most(wrong, n, mid) > 1 - level else (lo, mid)
    return hi


def needed(target: float, level: float = LEVEL) -> int:
    """Reads of one kind a fit that vouches needs before it can mark any of them sure: none wrong vouches for
    ``target``.

    >>> needed(ENROLLED_TARGET), needed(TARGET)
    (5990, 1497)
    """
    return math.ceil(math.log(1 - level) / math.log1p(-target) - 1e-9)


def fit(reads: list[tuple[float, bool, int]], target: float = TARGET, vouch: bool = True) -> dict[str, float | None]:
    """For each kind of read (both corners: "2", one: "1"), the lowest raw belief above which the reads vouch
    (:func:`vouched`) that they are wrong at most ``target`` of the time; None when no such belief exists.
    ``reads``: (raw belief, right, corners). A kind needs :func:`needed` reads before any can be sure, more where
    some were wrong. ``vouch`` False: the lowest belief above which they were wrong at most ``target`` of the time,
    counting one wrong read more than seen (2,000 reads at 0.05%): an enrolment's fit within its budget, too few
    reads to vouch, which a check on fresh tables must vouch for instead (``bench/bench_enrol.py --verify``)."""
    out: dict[str, float | None] = {}
    for kind in ("2", "1"):
        mine = sorted(((raw, right) for raw, right, corners in reads if (corners >= 2) == (kind == "2")), reverse=True)
        best, wrong = None, 0
        for n, (raw, right) in enumerate(mine, 1):
            wrong += not right
            if n < len(mine) and mine[n][0] == raw:
                continue  # ties: all or none
            if vouched(wrong, n, target) if vouch else (wrong + 1) / n <= target:
                best = raw
        out[kind] = best
    return out
