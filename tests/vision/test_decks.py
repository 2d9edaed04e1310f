"""Decks drawn from a seed (``vision.train.synth.decks``): each a design of its own, its index where its layout says,
bridge and poker cards, and never a font of a held-out style (training only: needs Pillow)."""

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PIL")

from vision.model import ALL_CARDS  # noqa: E402
from vision.train.synth import decks  # noqa: E402
from vision.train.synth.render import TABLE_LO, render_table  # noqa: E402
from vision.train.synth.scene import PlacedCard, Scene  # noqa: E402

STYLES = decks.names(900000, 24)


def test_faces_are_cards_of_their_decks_shape():
    for style in STYLES[:6]:
        lay = decks.layout(style)
        for card in ("SA", "HT", "DQ", "C7", "BJ", "LJ"):
            face = decks.face(style, card)
            assert face.shape == (224, decks.width_px(decks.design(style)), 4) and face.dtype == np.uint8
            assert face[0, 0, 3] == 0 and face[112, face.shape[1] // 2, 3] == 255  # rounded corners, solid card
        assert abs(face.shape[1] / 224 - lay.size[0] / lay.size[1]) < 0.01


def test_the_index_is_where_the_layout_says_on_every_card():
    for style in STYLES:
        lay = decks.layout(style)
        for card in random.Random(style).sample(ALL_CARDS, 8):
            face = decks.face(style, card)
            ink = decks.ink_mask(face)
            h, w = ink.shape
            for (fx, fy) in lay.centres():  # ink close to both index centres, none far outside the corner's box
                x, y = round(fx * w), round(fy * h)
                bw, bh = round(lay.box[0] * w / 2) + 2, round(lay.box[1] * h / 2) + 2
                assert ink[max(0, y - bh):y + bh, max(0, x - bw):x + bw].max() > 0.5, (style, card)


def test_decks_differ_and_cover_the_layouts_and_shapes_asked_for():
    designs = [decks.design(s) for s in decks.names(0, 300)]
    assert len({d.rank_font for d in designs}) > 60 and len({d.suits.split(":")[0] for d in designs}) == 3
    assert {d.beside for d in designs} == {True, False} and {d.ten for d in designs} == {"10", "T"}
    widths = [d.width_mm for d in designs]
    assert min(widths) < 58 and max(widths) > 62.5  # bridge and poker cards
    insets = [v for d in designs for v in d.inset]
    assert 2 <= min(insets) < 2.5 and 6.5 < max(insets) <= 7
    caps = [d.cap_mm for d in designs]
    assert min(caps) < 4.5 and max(caps) > 8
    beside = [d.cap_mm for d in designs if d.beside]  # the 5-11 mm indices, jumbo ones included
    assert 5 <= min(beside) < 5.5 and 9 < max(beside) <= 11
    wide = [d.cap_mm * (1 + d.gap + d.suit_ratio) for d in designs if d.beside]
    assert max(wide) <= 17 + 1e-9  # a jumbo rank and its suit side by side still fit the corner


def test_no_held_out_font_is_ever_drawn_with():
    files = decks.font_files()
    assert files and not any(Path(f).name.startswith(decks.HELD_OUT_FONTS) for f in files)
    assert set(decks.rank_fonts()) <= set(files) and set(decks.suit_fonts()) <= set(files)
    used = {decks.design(s).rank_font for s in decks.names(0, 300)}
    used |= {decks.design(s).suits[6:] for s in decks.names(0, 300) if decks.design(s).suits.startswith("glyph:")}
    assert used <= set(files)


def test_the_renderers_truth_puts_each_index_on_its_ink():
    style = next(s for s in STYLES if decks.design(s).width_mm < 60)  # a bridge deck
    cards = tuple(PlacedCard(c, style, 0.2 + 0.15 * i, 0.5, 30.0 * i) for i, c in enumerate(("S9", "HK", "DT", "BJ")))
    img, truth = render_table(Scene(cards, (), (40, 110, 40), seed=1), 800)
    grey = img.min(2)
    for t in truth:
        for x, y, vis in t.indices:
            px, py = round((x - TABLE_LO) * 800), round((y - TABLE_LO) * 800)
            assert vis == 1.0 and grey[py - 4:py + 5, px - 4:px + 5].min() < 120, t.name  # ink (not stock) there
