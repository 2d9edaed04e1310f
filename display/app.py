"""The display's FastAPI app: the hall scoreboard and the organisers' console.

``create_app(settings)`` wires the routers to one :class:`display.deps.Context`; the app's
lifespan starts the MQTT feed and hands its changes to the pages' live stream. :class:`Server` serves it
(``cardtable display serve``): uvicorn's server, which ends the live streams the moment it starts to stop.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import uvicorn
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.params import Form
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from display import invalid
from display.deps import Context, Denied, language
from display.feed import SESSION_EXPIRY_S, Feed
from display.guard import Guard, strict_json
from display.hub import Hub
from display.kept import open_kept
from display.routers import audit, auth, health, pages, public, tables, tournament
from display.store import Damaged, Store
from display.tournament import Tournaments, TournamentError
from referee.catalogue import Refusal

log = logging.getLogger(__name__)
STATIC = Path(__file__).resolve().parent / "static"


@dataclass(frozen=True)
class Settings:
    broker_scoreboard: str  # mqtt://scoreboard:...@host:port, read only
    broker_console: str  # mqtt://console:...@host:port, writes commands, reads frames
    db: Path  # the console's users, sessions and audit log (SQLite)
    tournament_db: Path | None = None  # the tournament the console runs (referee.tournament's SQLite file)
    secure_cookie: bool = False  # set behind HTTPS
    clock: Callable[[], float] = time.time
    origins: tuple[str, ...] = ()  # where the console's pages are served from, when a proxy changes the Host (guard)
    timelines: Path | None = None  # the tables' timelines kept across a restart (display.kept); None: in memory only
    session_expiry_s: int = SESSION_EXPIRY_S  # how long the broker keeps the scoreboard's session after a cut (feed)


class Server(uvicorn.Server):
    """uvicorn's server for the display's ``app``: as it starts to stop (SIGTERM, Ctrl-C) it ends every page's live
    stream (``Hub.close``), so each response ends and its connection closes. uvicorn waits for open responses to end,
    and a live page's never does by itself: it cancelled them after its grace and logged each one as "Exception in
    ASGI application"."""

    def __init__(self, config: uvicorn.Config, app: FastAPI):
        super().__init__(config)
        self.app = app

    async def shutdown(self, sockets=None) -> None:
        ctx = getattr(self.app.state, "ctx", None)
        if ctx is not None:
            ctx.hub.close()
        await super().shutdown(sockets)


def create_app(settings: Settings) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        hub = Hub()
        loop = asyncio.get_running_loop()
        kept, (tables, frames) = open_kept(settings.timelines) if settings.timelines else (None, ({}, {}))
        feed = Feed(settings.broker_scoreboard, settings.broker_console, on_change=hub.handoff(loop), kept=kept,
                    tables=tables, frames=frames, session_expiry_s=settings.session_expiry_s)
        store = Store.open(settings.db)
        tournaments = Tournaments(settings.tournament_db, settings.clock) if settings.tournament_db else None
        if tournaments is not None:
            _settle(tournaments, store)
        app.state.ctx = Context(feed, hub, store, settings.clock, tournaments, settings.secure_cookie)
        await asyncio.to_thread(feed.start)
        try:
            yield
        finally:
            feed.stop()
            store.close()
            if kept is not None:
                kept.close()
            if tournaments is not None:
                tournaments.close()

    # No /docs nor /redoc: FastAPI's pages load their scripts from a CDN, which would run on the console's origin
    # (where the session cookie lives, and whence a change passes the guard). The schema stays at /openapi.json.
    app = FastAPI(title="cardtable display", version="1", docs_url=None, redoc_url=None,
                  description="The hall scoreboard and the organisers' console (live from MQTT).", lifespan=lifespan,
                  dependencies=[Depends(strict_json)])
    for r in (public, auth, tables, tournament, audit, health, pages):
        app.include_router(r.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(Damaged, _damaged)
    app.add_exception_handler(TournamentError, _damaged)  # one a router did not answer: the file damaged under it
    app.add_exception_handler(sqlite3.Error, _unwritable)
    app.add_middleware(Guard, origins=settings.origins)
    return app


def _settle(tournaments: Tournaments, store: Store) -> None:
    """The audit lines of the changes a console stopped before writing (killed between a change to the tournament's
    file and its line), made at start from the tournament's log; a file that cannot say (damaged, failing) is logged
    and they stay pending, settled before the next change."""
    with tournaments.using():
        try:
            tournaments.settle(store)
        except (Refusal, sqlite3.Error) as exc:
            log.error("audit lines left pending: %s", exc.text("en") if isinstance(exc, Refusal) else exc)


async def _invalid(request: Request, exc: RequestValidationError) -> Response:
    """A 422 whose ``detail`` says in one line of the request's language what was wrong with it, and where
    (the field named in our words: ``display.invalid``). A browser asking for a page whose
    address does not fit it (``/tables/一号桌``, an id of 40 letters) gets the page that says there is no page here,
    as for any address that is none of ours: it got this line of JSON."""
    if wants_page(request):
        return pages.missing(request)
    return JSONResponse({"detail": invalid.said(exc.errors(), language(request))}, status_code=422)


async def _http(request: Request, exc: StarletteHTTPException) -> Response:
    """A refusal (``referee.catalogue.Refusal``) is said in the request's language (``deps.language``); so are
    Starlette's and FastAPI's own answers, in English: an address with no route (404: a browser asking for a page gets
    the page that says so, a script JSON), a method the address does not take (405), and a body they could not read
    (400; their reason, in English, goes to the log)."""
    if exc.status_code == 404 and exc.detail == "Not Found" and wants_page(request):  # no route: a page, not JSON
        return pages.missing(request)
    refusal = exc.detail if isinstance(exc.detail, Refusal) else await _not_utf8(request, exc) or _theirs(request, exc)
    detail = refusal.text(language(request)) if isinstance(refusal, Refusal) else str(refusal)
    return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=getattr(exc, "headers", None))


async def _not_utf8(request: Request, exc: StarletteHTTPException) -> Refusal | None:
    """A JSON body FastAPI could not read because it is not UTF-8 (a script on a machine that writes GBK): said so, and
    from which byte, rather than as JSON nested too deep. None for any other answer."""
    if exc.status_code != 400 or "json" not in request.headers.get("content-type", ""):
        return None
    try:
        (await request.body()).decode("utf-8")
    except UnicodeDecodeError as bad:
        return Denied("body_not_utf8", byte=bad.start + 1)  # the first byte is byte 1
    except RuntimeError:  # the body not kept (FastAPI read none): nothing to tell of it
        return None
    return None


def _theirs(request: Request, exc: StarletteHTTPException) -> Refusal | str:
    """Starlette's or FastAPI's English answer as the catalogue says it. A body not read is an upload (a multipart
    form whose file's name runs to thousands of characters) only where the route reads a form, as FastAPI decides
    how to read it (``fastapi.routing.get_request_handler``: its body field a ``Form``, ``File`` too); elsewhere it
    is JSON it could not read (nested thousands of levels deep)."""
    if exc.status_code == 404:
        return Denied("no_address")
    if exc.status_code == 405:
        return Denied("wrong_method", method=request.method)
    if exc.status_code != 400:
        return str(exc.detail)
    log.warning("%s %s: the body was not read (%s)", request.method, request.url.path, str(exc.detail)[:200])
    field = getattr(request.scope.get("route"), "body_field", None)
    return Denied("upload_unreadable") if isinstance(getattr(field, "field_info", None), Form) else Denied("body_unreadable")


def wants_page(request: Request) -> bool:
    """A browser asking for a page (a link followed, an address typed), not a script asking the API."""
    html = "text/html" in request.headers.get("accept", "")
    return request.method == "GET" and html and not request.url.path.startswith(("/api/", "/static/"))


async def _damaged(request: Request, exc: Refusal) -> JSONResponse:
    """A refusal no route answered: the console's file or the tournament's holds something that is not what was
    written (a change a route refuses is its 409). A 500 that says so and what to do, in the request's language,
    never a bare one."""
    log.error("%s", exc.text("en"))
    return JSONResponse({"detail": exc.text(language(request))}, status_code=500)


async def _unwritable(request: Request, exc: sqlite3.Error) -> JSONResponse:
    """A file the console reads or writes failed under it (the disk full, a lock held past SQLite's timeout): a 500
    that says so, and that a change may have been made (a command sent to a table) without its line in the audit
    log."""
    said = Denied("console_file", error=exc)  # SQLite's error in words (referee.catalogue.said)
    log.error("%s %s: %s", request.method, request.url.path, said.text("en"))
    return JSONResponse({"detail": said.text(language(request))}, status_code=500)
