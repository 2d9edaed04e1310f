"""The HTML pages and the words they show. Each page is a shell that its script fills from the live stream;
its words come from the catalogue (``referee/catalogue``): written in the reader's language when it is served
(``deps.language``: the switch's choice, kept in a cookie, else the browser's), and served whole to the script as
``/catalogue.js`` so the switch changes the language without a reload. No script or style is written into a
page (a strict Content-Security-Policy holds)."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from bus.firmware import SHIPPED
from display.deps import Lang, language
from display.schemas import Id
from display.view import dealt
from referee.catalogue import LANGS, entries, say
from referee.rulebooks import load, names
from referee.tournament.export import ranking_of
from referee.tournament.systems import SYSTEMS

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(__file__).resolve().parents[1] / "templates")
# What the pages' scripts read of the catalogue; the sentences of events, violations, flags and actions come
# said already, from the server.
PAGE_SECTIONS = ("ui", "word", "seat", "team", "phase", "kind", "status", "column", "system", "role", "suit", "card", "game", "bid",
                 "said", "prize")


def _page(request: Request, lang: str, name: str, status_code: int = 200, **context) -> HTMLResponse:
    return templates.TemplateResponse(request, name, status_code=status_code,
                                      context={"lang": lang, "t": lambda key, **v: say(lang, f"ui.{key}", **v),
                                               "catalogue_tag": catalogue()[1], "games": games(),
                                               "scores": scores(), "rows": rows(), "told": told(),
                                               **context})


@cache
def catalogue() -> tuple[str, str]:
    """The script of the pages' words and its version (a digest: the page asks for it by version, so a browser
    keeps it as long as it likes)."""
    words = {lang: {k: v for k, v in entries(lang).items() if k.split(".", 1)[0] in PAGE_SECTIONS} for lang in LANGS}
    text = f"const CATALOGUE = {json.dumps(words, ensure_ascii=False, separators=(',', ':'))};\n"
    return text, hashlib.sha256(text.encode()).hexdigest()[:12]


@router.get("/catalogue.js")
def catalogue_js() -> Response:
    text, _ = catalogue()
    return Response(text, media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "public, max-age=86400"})


@router.get("/", response_class=HTMLResponse)
def scoreboard(request: Request, lang: Lang):
    return _page(request, lang, "scoreboard.html", page="scoreboard", ranking=rankings())


@router.get("/big", response_class=HTMLResponse)
def big(request: Request, lang: Lang):
    return _page(request, lang, "scoreboard.html", page="big", ranking=rankings())


@router.get("/tables/{table}", response_class=HTMLResponse)
def table(request: Request, table: Id, lang: Lang):
    return _page(request, lang, "table.html", page="table", table=table)


@router.get("/console", response_class=HTMLResponse)
def console(request: Request, lang: Lang):
    return _page(request, lang, "console.html", page="console", rulings=rulings(), firmware=SHIPPED)


def missing(request: Request) -> HTMLResponse:
    """The page for an address a browser asked for that is none of ours (a link mistyped, an old bookmark): a 404 that
    says so in the reader's language under the pages' header and its links, where FastAPI's answer was a line of JSON
    in English (``{"detail":"Not Found"}``)."""
    return _page(request, language(request), "missing.html", status_code=404, page="missing")


@cache
def games() -> dict[str, str]:
    """Each rulebook's game, by its name: a tile says what a table's game has (Guandan: no trump suit)."""
    return {book: load(book).game for book in sorted(names())}


@cache
def told() -> dict[str, int]:
    """Each climbing book's ``[deal] told_at``, where it has one: a tile tells a seat's cards left only at that many or
    fewer (报牌: above it the count is the players' secret, and players see the hall's screens too)."""
    return {book: at for book in sorted(names()) if (at := getattr(dealt(book), "told_at", 0))}


def scores() -> dict[str, str]:
    """Each tournament system's standings score, by the system's name: the column's Chinese name (the catalogue's
    ``column.*``), as the sheets head it (``System.score_column``: the knockout's is the matches won, 胜场)."""
    return {name: x.score_column for name, x in SYSTEMS.items()}


@cache
def rankings() -> dict[str, dict[str, str]]:
    """What orders each tournament system's standings, in each language, by the system's name: the sheets' own line
    (``export.ranking_of``: 排名依据：总分 → 对手分 → 级差 → 抽签（000 四5）), said under the scoreboard's standings."""
    return {name: {lang: ranking_of(name, lang) for lang in LANGS} for name in SYSTEMS}


def rows() -> dict[str, str]:
    """What a row of each tournament system's standings is, by the system's name, the heading of its name column:
    ``player`` where an entry is one player (individual tables: 选手), else ``team`` (队: pair Swiss's teams of pairs,
    000 四5 各队的团体成绩; the knockout's pairs, 002 一2 以各院（系）、部门、单位工会小组为单位组队参赛)."""
    return {name: "player" if x.players == 1 else "team" for name, x in SYSTEMS.items()}


@cache
def fouls() -> tuple[str, ...]:
    """The foul kinds the referee may rule (``[fouls] kinds`` of every rulebook, in book order: :func:`rulings`);
    the table checks a ruling against its own rulebook."""
    return tuple(dict.fromkeys(kind for book in rulings().values() for kind in book["fouls"]))


GAME_RULINGS = {"sandayi": ("report", "open_hand")}  # besides fouls, the rulings a game takes (bus/PROTOCOL.md, commands)


@cache
def rulings() -> dict[str, dict]:
    """What the console's ruling form offers at a table, by its rulebook: the book's fouls (``[fouls] kinds``), those of
    them that name their cards (``cards``: an entry with ``card_points``) and the game's other rulings (San Da Yi's 报到
    and 摊打); a table refuses any other. Read once: the rulebooks do not change while serving."""
    books = {name: load(name) for name in sorted(names())}
    return {name: {"fouls": list(b.fouls.kinds), "rulings": list(GAME_RULINGS.get(b.game, ())),
                   "cards": [k for k in b.fouls.kinds if b.names_cards(k)]} for name, b in books.items()}
