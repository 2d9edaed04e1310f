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
from referee.catalogue import Refusal, Term

COOKIE = "cardtable_session"


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
    """The language refusals are written in: English when the request's ``Accept-Language`` starts with ``en``
    (the console sends the language its switch shows), else Chinese.

    >>> from starlette.requests import Request
    >>> [language(Request({"type": "http", "headers": h})) for h in ([], [(b"accept-language", b"en-GB,en")],
    ...                                                               [(b"accept-language", b"zh-CN,en;q=0.8")])]
    ['zh', 'en', 'zh']
    """
    return "en" if request.headers.get("accept-language", "").strip().lower().startswith("en") else "zh"


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
