"""The training art: every style has all 54 faces, and the held-out style's font is never trained on."""

from vision.synth import make_art
from vision.synth.render import ART, art
from vision.synth.scene import ALL_CARDS, HELD_OUT_STYLE, TRAIN_STYLES


def test_every_training_style_has_every_card():
    for style in TRAIN_STYLES:
        for card in ALL_CARDS:
            assert art(style, card).shape == (224, 160, 4), (style, card)


def test_held_out_font_is_in_no_training_style():
    held_out_font = make_art.STYLES[HELD_OUT_STYLE][0]
    assert HELD_OUT_STYLE not in TRAIN_STYLES
    for style in TRAIN_STYLES:
        spec = make_art.STYLES.get(style) or make_art.GENERATED.get(style)
        if spec is None:
            assert style == "letele"
            continue
        fonts = {spec[0], *(spec[7:8])}  # the rank font, and the suit font of a generated style
        assert held_out_font not in fonts, style


def test_generated_styles_are_the_committed_ones():
    assert make_art.generated_styles() == make_art.GENERATED
    assert sorted(p.name for p in ART.glob("gen-*")) == sorted(make_art.GENERATED)  # no stray or missing folder
    assert all((ART / s / "SA.png").is_file() for s in make_art.GENERATED)
