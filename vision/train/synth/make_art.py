"""Build the committed card art (run by hand, never at run time or in CI): `python -m vision.train.synth.make_art NPM_DIR
[--missing]` (``--missing``: only the styles not drawn yet). NPM_DIR holds the npm packages of ``npm_art.PACKAGES``,
each unpacked by ``npm pack`` and ``tar xzf`` into a folder named after its tarball.

Rasterises with the system Chromium (Playwright) into ``vision/train/synth/art/<style>/<CARD>.png``, 160x224 px (5:7):
- ``letele``, ``casino``, ``poker-cards``: the faces of three npm decks (``npm_art``); ``fratino``: our layout with
  the outline ranks and suits of a fourth. Their jokers get a vertical ``JOKER`` corner index here.
- ``sans``, ``serif``, ``mono``: faces drawn here with the DejaVu fonts (Debian ``fonts-dejavu``); ``dingbats``: the
  same layout with DejaVu Math TeX Gyre for the ranks and URW's D050000L (Zapf Dingbats) for the suits;
  ``liberation``, ``nimbus-roman``, ``freeserif``, ``bookman``, ``gothic``, ``c059``: the same layout with the fonts
  of Debian ``fonts-liberation2``, ``fonts-freefont-ttf`` and ``fonts-urw-base35`` (installed by hand to make art).
Jokers in every style: ``BJ`` (big joker) in colour, ``LJ`` (little joker) in black, as Chinese decks print them.
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path

from vision.train.synth import npm_art
from vision.train.synth.scene import GENERATED_STYLES, OUTLINED_FROM, SQUEEZED_FROM

ART = Path(__file__).parent / "art"
W, H = 160, 224
RANKS = "23456789TJQKA"
SUITS = {"S": ("&#9824;", False), "H": ("&#9829;", True), "D": ("&#9830;", True), "C": ("&#9827;", False)}
# (font family, weight, red, black, background, index size px, border)
STYLES = {
    "sans": ("DejaVu Sans", "bold", "#d40000", "#111", "#fdfdfb", 30, "1px solid #999"),
    "serif": ("DejaVu Serif", "bold", "#a5101e", "#1a1a2a", "#f6f1e4", 27, "2px solid #445"),
    "mono": ("DejaVu Sans Mono", "bold", "#e0301e", "#000", "#ffffff", 28, "1px solid #bbb"),
    "liberation": ("Liberation Sans", "bold", "#c8102e", "#101010", "#fbfbf8", 31, "1px solid #888"),
    "nimbus-roman": ("Nimbus Roman", "bold", "#b3001b", "#000", "#fffdf6", 30, "1px solid #777"),
    "freeserif": ("FreeSerif", "normal", "#d1001f", "#202020", "#f9f9f9", 32, "2px solid #999"),
    "bookman": ("URW Bookman", "bold", "#a00018", "#151515", "#f4efe2", 26, "1px solid #665"),
    "gothic": ("URW Gothic", "bold", "#e4002b", "#000", "#ffffff", 29, "1px solid #aaa"),
    "c059": ("C059", "bold", "#be1e2d", "#0b0b0b", "#fcfaf2", 28, "2px solid #556"),
    # the second held-out style: the two installed families with suit glyphs that no training style uses
    "dingbats": ("DejaVu Math TeX Gyre", "bold", "#c8102e", "#111", "#fffef8", 29, "1px solid #999", "D050000L", 0.8,
                 (3, 4), 1.0),
}
# Decks drawn by others (``npm_art``), each with the font its added jokers' index is set in
DECKS = {"letele": "DejaVu Sans", "casino": "Liberation Serif", "poker-cards": "Nimbus Sans Narrow",
         "fratino": "FreeSans"}
OUTLINE_SETS = ("poker-cards", "fratino", "playing-card")  # suit outlines of npm packages (``npm_art.suit_sets``)
SUIT_SETS: dict[str, tuple[str, dict[str, str]]] = {}  # filled from NPM_DIR by ``main``
# Generated styles (``gen-00``..): seeded random combinations of a rank font, a suit font (the suit glyphs differ by
# font), the suit's size relative to the rank (0.5-1.0: decks differ), weight, colours, stock and where the index
# sits, so that the classifier learns suits of any shape and size. From ``gen-32`` on (a second seeded batch) the
# suit is also squeezed or stretched sideways (0.55-1.15: decks draw narrow and wide pips alike). Never DejaVu Sans
# Mono (the held-out font). From ``gen-56`` on (a third batch) the suit is no font's glyph but the outline of one of
# three npm decks (OUTLINE_SETS), as wide as 0.55-1.15 times the outline.
RANK_FONTS = ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Condensed", "Liberation Sans", "Liberation Serif",
              "Liberation Mono", "Nimbus Sans", "Nimbus Sans Narrow", "Nimbus Roman", "Nimbus Mono PS", "FreeSans",
              "FreeSerif", "FreeMono", "URW Bookman", "URW Gothic", "C059", "P052", "WenQuanYi Micro Hei"]
SUIT_FONTS = ["DejaVu Sans", "DejaVu Serif", "FreeSans", "FreeSerif", "FreeMono", "Standard Symbols PS",
              "WenQuanYi Micro Hei", "Liberation Sans", "Nimbus Sans", "C059"]


def generated_styles(seed: int = 5) -> dict[str, tuple]:
    """>>> styles = generated_styles()
    >>> sorted(styles)[:2], len(styles), styles["gen-31"][-1], 0.55 <= styles["gen-32"][-1] <= 1.15
    (['gen-00', 'gen-01'], 80, 1.0, True)
    >>> styles["gen-56"][7], styles["gen-55"][7].startswith("svg:")
    ('svg:poker-cards', False)
    """
    import random

    batches = [random.Random(seed), random.Random(seed + 1), random.Random(seed + 2)]
    out = {}
    for i, name in enumerate(GENERATED_STYLES):
        rng = batches[(i >= SQUEEZED_FROM) + (i >= OUTLINED_FROM)]
        red = "#%02x%02x%02x" % (rng.randint(150, 235), rng.randint(0, 40), rng.randint(0, 50))
        black = "#%02x%02x%02x" % ((rng.randint(0, 40),) * 3)
        bg = "#%02x%02x%02x" % (rng.randint(238, 255), rng.randint(232, 255), rng.randint(215, 250))
        border = f"{rng.choice([0, 1, 1, 2])}px solid #{rng.choice(['999', '777', '556', 'bbb', '445'])}"
        out[name] = (rng.choice(RANK_FONTS), rng.choice(["bold", "bold", "normal"]), red, black, bg,
                     rng.randint(24, 33), border,
                     rng.choice(SUIT_FONTS if i < OUTLINED_FROM else [f"svg:{n}" for n in OUTLINE_SETS]),
                     round(rng.uniform(0.5, 1.0), 2), (rng.randint(2, 7), rng.randint(2, 8)),
                     1.0 if i < SQUEEZED_FROM else round(rng.uniform(0.55, 1.15), 2))
    return out


GENERATED = generated_styles()
PIPS = {  # pip centres in card fractions, the usual layouts
    "A": [(.5, .5)], "2": [(.5, .2), (.5, .8)], "3": [(.5, .2), (.5, .5), (.5, .8)],
    "4": [(.32, .2), (.68, .2), (.32, .8), (.68, .8)],
    "5": [(.32, .2), (.68, .2), (.5, .5), (.32, .8), (.68, .8)],
    "6": [(.32, .2), (.68, .2), (.32, .5), (.68, .5), (.32, .8), (.68, .8)],
    "7": [(.32, .2), (.68, .2), (.5, .35), (.32, .5), (.68, .5), (.32, .8), (.68, .8)],
    "8": [(.32, .2), (.68, .2), (.5, .35), (.32, .5), (.68, .5), (.5, .65), (.32, .8), (.68, .8)],
    "9": [(.32, .2), (.68, .2), (.32, .4), (.68, .4), (.5, .5), (.32, .6), (.68, .6), (.32, .8), (.68, .8)],
    "T": [(.32, .2), (.68, .2), (.5, .3), (.32, .4), (.68, .4), (.32, .6), (.68, .6), (.5, .7), (.32, .8), (.68, .8)],
}


def index_html(text: str, colour: str, font: str, weight: str, size: int, vertical: bool,
               at: tuple[int, int] = (3, 4)) -> str:
    """The two corner indices (top left, and bottom right turned half round), ``at`` px from the card's edges."""
    body = "<br>".join(text) if vertical else text
    lh = 0.9 if vertical else 1.0
    box = (f"position:absolute;text-align:center;color:{colour};font-family:&quot;{font}&quot;;font-weight:{weight};"
           f"font-size:{size if not vertical else size * 0.55:.0f}px;line-height:{lh};width:{size * 0.95:.0f}px")
    return (f"<div style='{box};left:{at[0]}px;top:{at[1]}px'>{body}</div>"
            f"<div style='{box};right:{at[0]}px;bottom:{at[1]}px;transform:rotate(180deg)'>{body}</div>")


def face_html(card: str, style: str) -> str:
    font, weight, red, black, bg, size, border, *more = STYLES.get(style) or GENERATED[style]
    suit_font, suit_scale, at, aspect = more or (font, 0.8, (3, 4), 1.0)
    pip_font = f"font-family:&quot;{suit_font}&quot;;" if more else ""
    squeeze = f"scaleX({aspect})" if aspect != 1.0 else ""
    if card in ("BJ", "LJ"):
        return joker_face(card, font, weight, red, black, bg, border, size, at)
    suit, rank = card[0], card[1]
    glyph, is_red = SUITS[suit]
    colour = red if is_red else black
    label = "10" if rank == "T" else rank
    sz = size * (0.8 if label == "10" else 1)
    shape = f";display:inline-block;transform:{squeeze}" if squeeze else ""
    suit_span = f"<span style='font-size:{size * suit_scale:.0f}px;font-family:&quot;{suit_font}&quot;{shape}'>{glyph}</span>"
    if suit_font.startswith("svg:"):  # a package's suit outline, not a font glyph
        suit_span = suit_svg(suit, suit_font[4:], size * suit_scale * 0.75, aspect, "display:inline-block")
    ix = index_html(f"{label}<br>{suit_span}", colour, font, weight, round(sz), False, at)
    if rank in "JQK":
        centre = (f"<div style='position:absolute;left:34px;top:40px;width:90px;height:142px;border:2px solid {colour};"
                  f"text-align:center;font-family:&quot;{font}&quot;;font-size:70px;line-height:140px;color:{colour}'>{rank}</div>")
    elif suit_font.startswith("svg:"):
        pip = 54 if rank == "A" else 21
        centre = "".join(suit_svg(suit, suit_font[4:], pip, aspect, f"position:absolute;left:{x * W - pip * aspect / 2:.0f}px;"
                                  f"top:{y * H - pip / 2:.0f}px;{_transform('rotate(180deg)' if y > .55 else '')}")
                         for x, y in PIPS[rank])
    else:
        pip = 72 if rank == "A" else 28
        centre = "".join(
            f"<div style='position:absolute;left:{x * W - pip * .45:.0f}px;top:{y * H - pip * .62:.0f}px;"
            f"font-size:{pip}px;color:{colour};line-height:1;{pip_font}{_transform('rotate(180deg)' if y > .55 else '', squeeze)}'>{glyph}</div>"
            for x, y in PIPS[rank])
    return card_div(bg, border, ix + centre)


def joker_face(card: str, font: str, weight: str, red: str, black: str, bg: str, border: str, size: int,
               at: tuple[int, int]) -> str:
    colour = red if card == "BJ" else black
    inner = index_html("JOKER", colour, font, weight, size, True, at) + (
        f"<div style='position:absolute;left:0;right:0;top:60px;text-align:center;font-size:80px;color:{colour}'>"
        f"{'&#9733;' if card == 'BJ' else '&#9734;'}</div>")
    return card_div(bg, border, inner)


def suit_svg(suit: str, outline_set: str, height: float, aspect: float, css: str) -> str:
    """Suit ``suit`` drawn with the outline of ``outline_set`` (``npm_art.suit_sets``), ``height`` px tall and
    ``aspect`` times as wide as the outline; it takes the colour of the text around it."""
    box, shapes = SUIT_SETS[outline_set]
    return (f"<svg viewBox='{box}' preserveAspectRatio='none' style='width:{height * aspect * _ratio(box):.1f}px;"
            f"height:{height:.1f}px;fill:currentColor;{css}'>{shapes[suit]}</svg>")


def _ratio(box: str) -> float:
    _, _, w, h = (float(v) for v in box.split())
    return w / h


def _transform(*parts: str) -> str:
    """A CSS transform of the non-empty ``parts`` ('' when none)."""
    kept = " ".join(p for p in parts if p)
    return f"transform:{kept};" if kept else ""


def card_div(bg: str, border: str, inner: str) -> str:
    return (f"<div style='position:relative;box-sizing:border-box;width:{W}px;height:{H}px;background:{bg};"
            f"border:{border};border-radius:9px;overflow:hidden'>{inner}</div>")


def letele_html(card: str, svg: str) -> str:
    img = _img(f"data:image/svg+xml;base64,{base64.b64encode(svg.encode()).decode()}")
    if card in ("BJ", "LJ"):
        img += index_html("JOKER", "#e00000" if card == "BJ" else "#000", DECKS["letele"], "bold", 26, True)
    return f"<div style='position:relative;width:{W}px;height:{H}px'>{img}</div>"


def _img(src: str) -> str:
    return f"<img style='position:absolute;left:0;top:0;width:{W}px;height:{H}px' src='{src}'>"


def deck_html(style: str, card: str, face: str | None) -> str:
    """A face of an npm deck with no jokers of its own (``face``: its image as a data URL; None for a joker, which
    gets a plain face and the vertical ``JOKER`` index in the style's joker font)."""
    if face is None:
        return joker_face(card, DECKS[style], "bold", "#d7261e", "#111", "#fff", "1px solid #666", 28, (4, 5))
    return f"<div style='position:relative;width:{W}px;height:{H}px'>{_img(face)}</div>"


def fratino_html(card: str, ranks: dict[str, str], suits: dict[str, str]) -> str:
    """A face with @adamfratino/playing-cards' outline ranks and suits (its own card is 40 x 50 units with no pips;
    the layout here is ours)."""
    if card in ("BJ", "LJ"):
        return joker_face(card, DECKS["fratino"], "bold", "#d32f2f", "#000", "#fff", "1px solid #888", 28, (4, 5))
    suit, rank = card[0], card[1]
    colour = "#d32f2f" if suit in "HD" else "#000"

    def mark(x: float, y: float, scale: float) -> str:  # the suit centred at (x, y) px
        return f"<g transform='translate({x:.1f} {y:.1f}) scale({scale}) translate(-29.3 -37.7)'>{suits[suit]}</g>"

    index = (f"<g transform='translate(4 5) scale(1.3) translate(-4 -4)'>{ranks[rank]}</g>" + mark(15, 42, 1.05))
    if rank in "JQK":
        centre = (f"<rect x='34' y='40' width='92' height='144' fill='none' stroke='{colour}' stroke-width='2'/>"
                  f"<g transform='translate(80 112) scale(3.6) translate(-11 -15)'>{ranks[rank]}</g>")
    else:
        centre = "".join(mark(x * W, y * H, 4.2 if rank == "A" else 1.8) for x, y in PIPS[rank])
    return card_div("#fff", "1px solid #888", f"<svg width='{W}' height='{H}' style='position:absolute;left:0;top:0' "
                    f"fill='{colour}'>{index}<g transform='rotate(180 {W / 2} {H / 2})'>{index}</g>{centre}</svg>")


def cards() -> list[str]:
    return [s + r for s in "SHDC" for r in RANKS] + ["BJ", "LJ"]


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    npm_dir, missing = Path(argv[0]), argv[1:] == ["--missing"]
    SUIT_SETS.update(npm_art.suit_sets(npm_dir))
    ranks = npm_art.fratino_ranks(npm_dir)

    def b64(kind: str, data: bytes) -> str:
        return f"data:{kind};base64,{base64.b64encode(data).decode()}"

    decks = {
        "letele": lambda: [(c, letele_html(c, svg)) for c, svg in npm_art.letele_svgs(npm_dir).items()],
        "casino": lambda: [(c, deck_html("casino", c, b64("image/png", f.read_bytes()) if f else None))
                           for c, f in {**npm_art.casino_pngs(npm_dir), "BJ": None, "LJ": None}.items()],
        "poker-cards": lambda: [(c, deck_html("poker-cards", c, b64("image/svg+xml", svg.encode()) if svg else None))
                                for c, svg in {**npm_art.poker_cards_svgs(npm_dir), "BJ": None, "LJ": None}.items()],
        "fratino": lambda: [(c, fratino_html(c, ranks, SUIT_SETS["fratino"][1])) for c in cards()],
    }

    def todo(style: str) -> bool:
        return not (missing and (ART / style).exists())

    jobs = [(style, c, face_html(c, style)) for style in [*STYLES, *GENERATED] if todo(style) for c in cards()]
    jobs += [(style, c, html) for style, faces in decks.items() if todo(style) for c, html in faces()]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": W, "height": H})
        for style, card, html in jobs:
            (ART / style).mkdir(parents=True, exist_ok=True)
            page.set_content(f"<html><body style='margin:0;background:transparent'>{html}</body></html>")
            page.wait_for_timeout(20)
            page.screenshot(path=str(ART / style / f"{card}.png"), omit_background=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
