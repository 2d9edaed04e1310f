"""The HTML pages. Each is a shell that the page's script fills from the live stream; Chinese is
written in, English comes from the language switch (kept in a cookie, or ``?lang=en``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from display.schemas import Id
from referee.rulebooks import load, names
from referee.table.kinds import names as kind_names

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(__file__).resolve().parents[1] / "templates")


def _page(request: Request, name: str, **context) -> HTMLResponse:
    lang = request.query_params.get("lang") or request.cookies.get("lang") or "zh"
    kinds = {"zh": kind_names("zh"), "en": kind_names("en")}  # flag and violation names: referee/table/kinds.py
    return templates.TemplateResponse(request, name, {"lang": "en" if lang == "en" else "zh", "kinds": kinds,
                                                      **context})


@router.get("/", response_class=HTMLResponse)
def scoreboard(request: Request):
    return _page(request, "scoreboard.html", page="scoreboard")


@router.get("/big", response_class=HTMLResponse)
def big(request: Request):
    return _page(request, "scoreboard.html", page="big")


@router.get("/tables/{table}", response_class=HTMLResponse)
def table(request: Request, table: Id):
    return _page(request, "table.html", page="table", table=table)


@router.get("/console", response_class=HTMLResponse)
def console(request: Request):
    return _page(request, "console.html", page="console", fouls=fouls())


@cache
def fouls() -> tuple[str, ...]:
    """The foul kinds the referee may rule (``[fouls] kinds`` of every rulebook that has them, in book order);
    the table checks a ruling against its own rulebook. Read once: the rulebooks do not change while serving."""
    kinds: dict[str, None] = {}
    for book in sorted(names()):
        rulebook = load(book)
        kinds.update(dict.fromkeys(getattr(rulebook, "sections", {}).get("fouls", {}).get("kinds", [])))
    return tuple(kinds)
