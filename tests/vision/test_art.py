"""The training art: every style has all 54 faces, and the held-out styles' fonts are never trained on."""

from vision.model import ALL_CARDS
from vision.train.synth import make_art
from vision.train.synth.render import art
from vision.train.synth.scene import ART
from vision.train.synth.scene import HELD_OUT_STYLES, TRAIN_STYLES


def test_every_training_style_has_every_card():
    for style in TRAIN_STYLES:
        for card in ALL_CARDS:
            assert art(style, card).shape == (224, 160, 4), (style, card)


def fonts_of(style: str) -> set[str]:
    """The rank font, and the suit font where the style names its own (a deck from npm: the font of its jokers)."""
    if style in make_art.DECKS:
        return {make_art.DECKS[style]}
    spec = make_art.STYLES.get(style) or make_art.GENERATED[style]
    return {spec[0], *spec[7:8]}


def test_held_out_fonts_are_in_no_training_style():
    for held_out in HELD_OUT_STYLES:
        assert held_out not in TRAIN_STYLES and all(art(held_out, c).shape == (224, 160, 4) for c in ALL_CARDS)
        for style in TRAIN_STYLES:
            assert not fonts_of(held_out) & fonts_of(style), (held_out, style)


def test_generated_styles_are_the_committed_ones():
    assert make_art.generated_styles() == make_art.GENERATED
    assert sorted(p.name for p in ART.glob("gen-*")) == sorted(make_art.GENERATED)  # no stray or missing folder
    assert all((ART / s / "SA.png").is_file() for s in make_art.GENERATED)
