"""Card art read out of npm packages (by ``make_art`` only; unpack each with ``npm pack NAME@VERSION`` and ``tar xzf``
into one folder, NPM_DIR). Every package's licence is recorded in ``art/README.md`` and copied beside its style.

- ``letele``: ``@letele/playing-cards`` 0.1.0 (CC0-1.0), React components turned into SVG (:func:`letele_svgs`).
- ``casino``: ``react-casino`` 0.2.6 (MIT), PNG faces (:func:`casino_pngs`).
- ``poker-cards``: ``poker-cards`` 0.1.1 (MIT), SVG faces from its own renderer (:func:`poker_cards_svgs`).
- suit outlines (:func:`suit_sets`): those of ``poker-cards``, ``@adamfratino/playing-cards`` 0.1.1 (MIT, which
  also draws its ranks as outlines: :func:`fratino_ranks`) and ``playing-card`` 1.1.0 (ISC), so that generated
  faces carry suit artwork of real card designs, not only font glyphs.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

RANKS = "23456789TJQKA"
# npm package -> the folder ``npm pack`` + ``tar`` make of it, as found under NPM_DIR
PACKAGES = {"@letele/playing-cards@0.1.0": "letele*", "react-casino@0.2.6": "react-casino*",
            "poker-cards@0.1.1": "poker-cards*", "@adamfratino/playing-cards@0.1.1": "adamfratino*",
            "playing-card@1.1.0": "playing-card-*"}


def package(npm_dir: Path, name: str) -> Path:
    """The unpacked ``package`` folder of ``name`` (a key of PACKAGES) under ``npm_dir``."""
    found = sorted(npm_dir.glob(f"{PACKAGES[name]}/package"))
    if not found:
        raise FileNotFoundError(f"{name} is not unpacked under {npm_dir} (npm pack {name}; tar xzf ...)")
    return found[0]


def node(script: str, cwd: Path | None = None) -> dict:
    return json.loads(subprocess.run(["node", "--input-type=module", "-"], input=script, capture_output=True,
                                     text=True, check=True, cwd=cwd).stdout)


def letele_svgs(npm_dir: Path) -> dict[str, str]:
    """The SVG text of every card of @letele/playing-cards, by running its React components with a tiny createElement."""
    src = (package(npm_dir, "@letele/playing-cards@0.1.0") / "dist/index.esm.js").read_text()
    shim = ("const _extends=Object.assign;const kebab=k=>k==='className'?'class':k==='xlinkHref'?'xlink:href':"
            "k==='xmlnsXlink'?'xmlns:xlink':/^(viewBox|preserveAspectRatio|patternUnits|gradientUnits|gradientTransform)$/"
            ".test(k)?k:k.replace(/[A-Z]/g,m=>'-'+m.toLowerCase());const React={createElement:(t,p,...c)=>{let a='';"
            "for(const [k,v] of Object.entries(p||{})){if(v==null)continue;a+=' '+kebab(k)+'=\"'+String(v)"
            ".replace(/\"/g,'&quot;')+'\"';}return '<'+t+a+'>'+c.flat().filter(x=>x!=null&&x!==false).join('')+'</'+t+'>';}};")
    body = re.sub(r"^import .*$", "", src, flags=re.MULTILINE)
    exports = re.search(r"export \{(.*?)\};", body, re.DOTALL)
    pairs = [x.strip().split(" as ") for x in exports.group(1).split(",")]
    body = body[: exports.start()] + "console.log(JSON.stringify({" + ",".join(f"'{b}':{a}({{}})" for a, b in pairs) + "}));"
    raw = node(shim + body)
    names = {"J1": "BJ", "J2": "LJ"}
    for s in "SHDC":
        for r in RANKS:
            names[s + ("10" if r == "T" else r.lower() if r in "JQKA" else r)] = s + r
    return {names[k]: v for k, v in raw.items() if k in names}


def casino_pngs(npm_dir: Path) -> dict[str, Path]:
    """react-casino's 52 PNG faces by our card name (it has no jokers)."""
    folder = package(npm_dir, "react-casino@0.2.6") / "src/assets/png/cards"
    return {s + r: folder / f"{r}{s}.png" for s in "SHDC" for r in RANKS}


def poker_cards_svgs(npm_dir: Path) -> dict[str, str]:
    """poker-cards' 52 faces as SVG text (its renderer, run by node), by our card name (it has no jokers)."""
    names = [s + r for s in "SHDC" for r in RANKS]
    script = ("import {renderCard} from './dist/index.js';"
              f"console.log(JSON.stringify(Object.fromEntries({json.dumps(names)}.map(n=>[n,renderCard({{cid:n[1]+n[0]}})]))));")
    return node(script, cwd=package(npm_dir, "poker-cards@0.1.1"))


def _fratino(npm_dir: Path) -> dict[str, str]:
    src = (package(npm_dir, "@adamfratino/playing-cards@0.1.1") / "src/cards.ts").read_text()
    return dict(re.findall(r"^  (\w+): `(.*?)`", src, re.MULTILINE | re.DOTALL))


def fratino_ranks(npm_dir: Path) -> dict[str, str]:
    """@adamfratino/playing-cards' ranks drawn as outlines (SVG elements in its 40 x 50 card, x 4-18, y 4-26)."""
    raw = _fratino(npm_dir)
    return {r: raw["10" if r == "T" else r] for r in RANKS}


def suit_sets(npm_dir: Path) -> dict[str, tuple[str, dict[str, str]]]:
    """Suit outlines of three packages: set name -> (SVG viewBox around the outline, suit letter -> SVG elements)."""
    pc = (package(npm_dir, "poker-cards@0.1.1") / "dist/index.js").read_text()
    paths = re.findall(r'"(m[^"]*)"', pc[pc.index("SUIT_PATHS = ["):pc.index("RANK_PATHS")])
    fr = _fratino(npm_dir)
    mt = (package(npm_dir, "playing-card@1.1.0") / "src/suits.js").read_text()
    mt_paths = dict(re.findall(r"export const (\w+) =\s*'([^']*)'", mt))
    return {
        "poker-cards": ("-520 -520 1040 1040", {s: f"<path d='{d}'/>" for s, d in zip("SHDC", paths)}),
        "fratino": ("22.8 29.5 13 16.3", {s[0].upper(): fr[s] for s in ("spades", "hearts", "diamonds", "clubs")}),
        "playing-card": ("40 30 430 445", {s[0].upper(): f"<path d='{mt_paths[s]}'/>"
                                           for s in ("spade", "heart", "diamond", "club")}),
    }
