"""Corner detections grouped into physical cards: two corners of one card are one card; identical cards of
several decks stay distinct."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from vision_frames import frame, model, play, visible_per_seat
from vision.detect import Detection, group
from vision.geometry import PX
from vision.model import ALL_CARDS
from vision.read import read_frame


def corner(name, at, centre, conf=0.99):
    return Detection(name, conf, at, centre)


def test_two_corners_of_one_card_are_one_card():
    cards = group([corner("HK", (100, 100), (130, 142)), corner("HK", (160, 185), (131, 141))])
    assert [(c.name, len(c.corners)) for c in cards] == [("HK", 2)]
    assert cards[0].centre == (130.0, 142.5)  # the midpoint of the two indices, not of the centres they point at


def test_card_centres_on_rendered_tables_are_within_a_few_px(monkeypatch):
    """The centre decides the seat, by triangle: a card near the line between two seats is read at the wrong one
    if its centre errs. A card read by both corners lies midway between them, one read by a single corner as far
    from it as the frame's cards seen by both show (half their index span), the way its offset points. On these
    frames: 0.8 and 2.6 canonical px from the truth on average, where the centres the offsets point at (their mean
    for a pair) were 1.9 and 3.3 px off."""
    import math
    import random

    import vision.read
    from vision.geometry import to_canon
    from vision.train.synth.render import random_camera, render_frame
    from vision.train.synth.scene import random_scene

    grouped: list = []  # the pipeline's own cards (canonical px, with their corners), as read_frame groups them

    def group_and_keep(dets):
        grouped.extend(cards := group(dets))
        return cards

    monkeypatch.setattr(vision.read, "group", group_and_keep)
    errors: dict[int, list[float]] = {1: [], 2: []}
    for seed in range(3):
        rng = random.Random(2000 + seed)
        f = render_frame(random_scene(rng, ["sans", "gen-07"], hand_chance=0.0), random_camera(rng, (2560, 1920)))
        grouped.clear()
        read_frame(f.image, model())
        for card in grouped:
            truth = min(f.truth, key=lambda t: math.dist(to_canon(t.centre), card.centre))
            if truth.name == card.name:
                errors[len(card.corners)].append(math.dist(to_canon(truth.centre), card.centre))
    assert len(errors[1]) >= 10 and len(errors[2]) >= 5, errors
    assert np.mean(errors[2]) < 1.2 and np.mean(errors[1]) < 3.0, {k: float(np.mean(v)) for k, v in errors.items()}


def test_identical_cards_side_by_side_stay_distinct():
    # a fan of three SA from three decks: top-left corners 14 px apart, all pointing the same way
    dets = [corner("SA", (100 + 14 * i, 100), (130 + 14 * i, 142)) for i in range(3)]
    dets.append(corner("SA", (188, 184), (158, 142)))  # the top card's other corner
    cards = group(dets)
    assert sorted(len(c.corners) for c in cards) == [1, 1, 2]
    assert [c.name for c in cards] == ["SA"] * 3


def test_corners_read_differently_make_one_flagged_card():
    cards = group([corner("S6", (100, 100), (130, 142), 0.9), corner("S9", (160, 185), (131, 141), 0.6)])
    assert len(cards) == 1 and cards[0].conflict and cards[0].name == "S6" and cards[0].confidence < 0.9


def test_rendered_duplicate_decks():
    cards = (play("S", ["SA", "SA", "SA", "SK"], "fan", 7) + play("N", ["H5", "H5"], "row", 8)
             + play("E", ["D9", "D9", "D9", "D9"], "row", 9))
    f = frame(cards)
    reading = read_frame(f.image, model())
    assert {s: Counter(v) for s, v in reading.seats().items()} == visible_per_seat(f)
    assert Counter(reading.seats()["E"]) == Counter({"D9": 4})


def test_corners_that_agree_pair_first():
    """Two overlapping cards whose four corners point at centres all within a few px (seen on a held-out frame):
    the nearest centres alone would pair each card's corner with the other card's."""
    dets = [corner("CT", (501.5, 417.5), (538.2, 402.7)), corner("CT", (577.5, 397.5), (545.2, 410.4)),
            corner("DJ", (577.5, 381.5), (549.8, 407.5)), corner("DJ", (529.5, 441.5), (549.4, 414.6))]
    cards = group(dets)
    assert sorted((c.name, len(c.corners), c.conflict) for c in cards) == [("CT", 2, False), ("DJ", 2, False)]


def test_corners_named_differently_pair_only_when_they_point_at_one_centre():
    """A joker's lone corner and the next card's, as far apart as one card's indices but pointing 27 px apart (seen
    on a held-out frame): two cards, not one card of a conflict."""
    dets = [corner("H2", (341.5, 565.5), (373.3, 584.1)), corner("LJ", (377.5, 641.5), (387.5, 607.6))]
    assert sorted((c.name, len(c.corners)) for c in group(dets)) == [("H2", 1), ("LJ", 1)]
    alike = [corner("LJ", (341.5, 565.5), (373.3, 584.1)), corner("LJ", (377.5, 641.5), (387.5, 607.6))]
    assert [(c.name, len(c.corners)) for c in group(alike)] == [("LJ", 2)]


def believing(name, at, centre, beliefs):
    """A corner with the classifier's probabilities (``beliefs``: card -> probability, the rest spread evenly)."""
    probs = np.full(len(ALL_CARDS), (1 - sum(beliefs.values())) / (len(ALL_CARDS) - len(beliefs)))
    for card, p in beliefs.items():
        probs[ALL_CARDS.index(card)] = p
    return Detection(name, beliefs[name], at, centre, probs)


def test_corners_whose_beliefs_share_no_card_are_two_cards():
    """Two overlapping cards, each showing one corner, pointing at one centre (seen on a held-out frame: HA and C6,
    which the product of beliefs had made one card, CA): two cards. A corner misread with some belief left for the
    other corner's card stays one card, of a conflict, named by both."""
    sure_ha = believing("HA", (100, 100), (130, 142), {"HA": 0.999})
    sure_c6 = believing("C6", (160, 185), (131, 141), {"C6": 0.999})
    assert sorted((c.name, len(c.corners)) for c in group([sure_ha, sure_c6])) == [("C6", 1), ("HA", 1)]
    unsure_cq = believing("CQ", (160, 185), (131, 141), {"CQ": 0.8, "SQ": 0.19})
    sure_sq = believing("SQ", (100, 100), (130, 142), {"SQ": 0.99})
    cards = group([sure_sq, unsure_cq])
    assert [(c.name, len(c.corners), c.conflict) for c in cards] == [("SQ", 2, True)]


def test_one_card_one_read_whatever_the_decks_geometry():
    """Corners of one card are joined on decks whose index sits 2-7 mm in, 5-11 mm tall (jumbo), beside or over its
    suit, on poker and bridge cards, in rows, fans, cascades and piles with pairs from several decks (the held-out
    families of ``bench/heldout``), where the detector's offsets (learned on our art) point at our art's centre:
    turned by the card's orientation, as long as our art's index-to-centre line scaled by 0.75-1.3 and 2.5 degrees
    astray. Every card seen by both corners is one card, and no two cards' corners are joined."""
    heldout = pytest.importorskip("bench.heldout.table")
    from bench.heldout.decks import FAMILIES, index_box

    ours = (0.4 * 63.5 * PX / 760, 0.35 * 88.9 * PX / 760)  # our art's index -> centre, canonical px
    rng = random.Random(7)
    both = joined = wrong = alike = 0
    for k in range(63):
        fam = list(FAMILIES.values())[k % len(FAMILIES)]
        laid, _ = heldout.compose(rng, fam)
        _, truth = heldout.draw_table(rng, fam, laid, [], 300)
        zoom, dets, owner = rng.uniform(0.75, 1.3), [], {}
        for n, (c, t) in enumerate(zip(laid, truth)):
            u0, v0, u1, v1 = index_box(fam, c.card)
            for turned, seen in zip((False, True), t.seen):
                if seen < 0.85:
                    continue
                u, v = ((u0 + u1) / 2, (v0 + v1) / 2) if not turned else (fam.size[0] - (u0 + u1) / 2,
                                                                           fam.size[1] - (v0 + v1) / 2)
                x, y = heldout._on_card(fam, c, u, v)
                px, py = x * PX + 44 + rng.gauss(0, 0.7), y * PX + 44 + rng.gauss(0, 0.7)
                a = math.radians(c.angle + 180 * turned + rng.gauss(0, 2.5))
                ox, oy = ours[0] * zoom, ours[1] * zoom
                d = believing(c.card, (px, py), (px + ox * math.cos(a) - oy * math.sin(a),
                                                 py + ox * math.sin(a) + oy * math.cos(a)), {c.card: 0.98})
                dets.append(d)
                owner[id(d)] = n
        alike += sum(v - 1 for v in Counter((t.seat, t.card) for t in truth).values())
        both += sum(min(t.seen) >= 0.85 for t in truth)
        for card in group(dets):
            owners = {owner[id(d)] for d in card.corners}
            joined += len(card.corners) == 2 and len(owners) == 1
            wrong += len(owners) > 1
    assert both > 150 and alike > 20
    assert (joined, wrong) == (both, 0)


def test_a_read_says_where_its_corner_indices_lie():
    """``SeenCard.indices``: the corner indices that named the card, in the frame's table coordinates (what the
    real-photo figure matches against a card's visible box, when the card's centre lies under the card over it)."""
    from vision.train.synth.render import random_camera, render_frame
    from vision.train.synth.scene import random_scene

    rng = random.Random(2031)
    f = render_frame(random_scene(rng, ["sans", "gen-07"], hand_chance=0.0), random_camera(rng, (2560, 1920)))
    checked = Counter()
    for c in read_frame(f.image, model()).cards:
        assert 1 <= len(c.indices) <= 2 and (c.conflict or len(c.indices) == c.corners)
        truth = min(f.truth, key=lambda t: math.dist(t.centre, c.centre))
        if truth.name != c.name:
            continue
        for at in c.indices:
            assert min(math.dist(at, (x, y)) for x, y, _ in truth.indices) < 0.01, (c, at, truth.indices)
        checked[len(c.indices)] += 1
    assert checked[1] >= 3 and checked[2] >= 3, checked
