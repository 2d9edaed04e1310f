"""What the held-out figures count (``bench/eval_vision.py``'s ``Tally``), on readings made by hand: recall over the
cards with an index in view, precision over the reads, sure but wrong, seat exact and doubles."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vision.read import Reading, SeenCard

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
eval_vision = pytest.importorskip("eval_vision")


def reading(*cards: tuple[str, str | None, float]) -> Reading:
    return Reading(True, tuple(SeenCard(name, conf, (0.5, 0.5), seat) for name, seat, conf in cards))


def test_the_tally_counts_what_the_model_card_says():
    t = eval_vision.Tally()
    truth = [("SA", "S", True), ("SA", "S", True), ("HK", "S", False), ("D7", "E", True), ("C9", "N", True)]
    t.add(truth, reading(("SA", "S", 0.99), ("SA", "S", 0.95), ("HK", "S", 0.5),  # S exact (HK barely in view)
                         ("D7", "E", 0.99), ("D7", "E", 0.97),                      # E: D7 read twice
                         ("C8", "N", 0.99),                                         # N: C9 read as C8, sure
                         ("S2", None, 0.4)))                                        # off every seat
    f = t.figures()
    assert (f["cards"], f["reads"]) == (4, 7)
    assert f["recall"] == 3 / 4 and f["precision"] == 4 / 6  # the seatless read counts in no seat's precision
    assert (f["wrong_n"], f["sure_wrong_n"], f["doubles"]) == (3, 2, 1)  # the extra D7 (sure), C8 (sure), S2
    assert f["sure_wrong"] == 2 / 7 and f["seat_exact"] == 1 / 3
    assert f["flagged_right"] == 1 / 4  # HK at 0.5 of the 4 reads explained


def test_an_uncalibrated_frame_misses_every_card():
    t = eval_vision.Tally()
    t.add([("SA", "S", True)], Reading(False, (SeenCard("SA", 0.99, (100.0, 80.0), None),), problem="no markers"))
    f = t.figures()
    assert (f["recall"], f["uncalibrated"], f["seat_exact"]) == (0.0, 1, 0.0)
