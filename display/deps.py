"""What every router shares: the app's context, the clock, the reader's language and the login as dependencies."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Request

from display.actions import line
from display.feed import Feed
from display.hub import Hub
from display.store import Store
from display.tournament import Tournaments
from referee.catalogue import LANGS, Refusal, Term

COOKIE = "cardtable_session"
LANG_COOKIE = "lang"  # the reader's choice of language on the pages' switch


class Denied(Refusal):
    """What the console refuses, said by the catalogue's ``error.*`` in the request's language (the app's error
    handler says it): ``HTTPException(404, Denied("no_table", table="t07"))``."""

    section = "error"


@dataclass
class Context:
    feed: Feed
    hub: Hub
    store: Store
    clock: Callable[[], float]
    tournament: Tournaments | None = None  # the tournament the console runs, when there is one
    secure_cookie: bool = False


def context(request: Request) -> Context:
    return request.app.state.ctx


Ctx = Annotated[Context, Depends(context)]


def language(request: Request) -> str:
    """The reader's language, one rule for every page, answer, refusal and export: the choice made on the pages'
    switch (its cookie, ``LANG_COOKIE``, written by ``static/i18n.js``), else the one of ours the browser's
    ``Accept-Language`` prefers, else Chinese.

    >>> from starlette.requests import Request
    >>> def of(*headers): return language(Request({"type": "http", "headers": [(k.encode(), v.encode()) for k, v in headers]}))
    >>> of(), of(("accept-language", "en-GB,en")), of(("accept-language", "zh-CN,en;q=0.8")), of(("accept-language", "fr"))
    ('zh', 'en', 'zh', 'zh')
    >>> of(("accept-language", "fr, zh;q=0.5, en;q=0.7")), of(("cookie", "lang=zh"), ("accept-language", "en"))
    ('en', 'zh')
    """
    chosen = request.cookies.get(LANG_COOKIE)
    return chosen if chosen in LANGS else _asked(request.headers.get("accept-language", ""))


def _asked(header: str) -> str:
    """The language of ours an ``Accept-Language`` header prefers (the highest ``q``, the first of equals); Chinese
    when it names neither."""
    best, lang = 0.0, "zh"
    for item in header.split(","):
        tag, _, params = item.partition(";")
        primary = tag.strip().lower().split("-")[0]
        try:
            q = float(params.strip()[2:]) if params.strip().startswith("q=") else 1.0
        except ValueError:
            continue
        if primary in LANGS and q > best:
            best, lang = q, primary
    return lang


Lang = Annotated[str, Depends(language)]


@dataclass(frozen=True)
class User:
    name: str
    role: str


def token_of(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return request.cookies.get(COOKIE)


def current_user(request: Request, ctx: Ctx) -> User:
    token = token_of(request)
    found = ctx.store.session(token, ctx.clock()) if token else None
    if found is None:
        raise HTTPException(401, Denied("not_logged_in"), headers={"WWW-Authenticate": "Bearer"})
    return User(*found)


def organiser(user: Annotated[User, Depends(current_user)]) -> User:
    if user.role != "organiser":
        raise HTTPException(403, Denied("needs_organiser", user=user.name, role=Term(f"role.{user.role}")))
    return user


Referee = Annotated[User, Depends(current_user)]  # a referee or an organiser
Organiser = Annotated[User, Depends(organiser)]


def record(ctx: Context, user: User, lang: str, action: str, detail: dict) -> str:
    """Put one change into the audit log; return its line in ``lang`` (the console confirms the action with it)."""
    ctx.store.audit(user.name, action, detail, ctx.clock())
    return line(lang, user.name, user.role, action, detail)
