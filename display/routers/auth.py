"""Logins: a session cookie (HttpOnly, SameSite=Strict) or the same token as a Bearer header.

Too many failed logins lock (``display.store.LOCK_AFTER`` in ``LOCK_WINDOW_S``): a name from one
address, one address, or one name from everywhere but the addresses it has logged in from (so that a stranger
failing from many addresses cannot lock the referee out of their own device); while locked, a login is refused (429,
with ``Retry-After``, saying how long and that an organiser can lift it: ``cardtable display user --unlock``) before
its password is even checked. Each try counts as failed before its password is checked
(``Store.login_try``), so guesses sent together get no more checks than the lock allows. Every failed login and
every lock goes into the audit log with the name tried and the address it came from."""

from __future__ import annotations

import logging
import math

from fastapi import APIRouter, HTTPException, Request, Response

from display.deps import COOKIE, Ctx, Denied, Organiser, Referee, token_of
from display.schemas import Login, Me, NewUser, Problem
from display.store import SESSION_S, UserError

router = APIRouter(prefix="/api", tags=["login"])
log = logging.getLogger(__name__)


@router.post("/login", responses={401: {"model": Problem}, 429: {"model": Problem}}, summary="Log in; sets the session cookie")
def login(body: Login, request: Request, response: Response, ctx: Ctx) -> Me:
    client, now = request.client.host if request.client else "?", ctx.clock()
    until = ctx.store.login_try(body.user, client, now)
    if until is None:
        role = ctx.store.check_password(body.user, body.password)
        if role is None:
            log.warning("failed login as %r from %s", body.user, client)
            ctx.store.audit(body.user, "login_failed", {"name": body.user, "client": client}, now)
            until = ctx.store.login_locked(body.user, client, now)  # this try, counted already, may lock
            if until is None:
                raise HTTPException(401, Denied("wrong_login"))
            minutes = math.ceil((until - now) / 60)
            log.warning("logins as %r from %s locked for %d min", body.user, client, minutes)
            ctx.store.audit(body.user, "login_locked", {"name": body.user, "client": client, "minutes": minutes}, now)
    if until is not None:
        wait = math.ceil(until - now)
        raise HTTPException(429, Denied("too_many_logins", minutes=math.ceil(wait / 60)),
                            headers={"Retry-After": str(wait)})
    ctx.store.login_succeeded(body.user, client)
    token = ctx.store.new_session(body.user, ctx.clock())
    response.set_cookie(COOKIE, token, max_age=int(SESSION_S), httponly=True, samesite="strict",
                        secure=ctx.secure_cookie, path="/")
    ctx.store.audit(body.user, "login", {}, ctx.clock())
    return Me(user=body.user, role=role)


@router.post("/logout", status_code=204, responses={401: {"model": Problem}})
def logout(request: Request, response: Response, user: Referee, ctx: Ctx) -> None:
    ctx.store.end_session(token_of(request))
    response.delete_cookie(COOKIE, path="/")
    ctx.store.audit(user.name, "logout", {}, ctx.clock())


@router.get("/me", responses={401: {"model": Problem}})
def me(user: Referee) -> Me:
    return Me(user=user.name, role=user.role)


@router.get("/users", responses={401: {"model": Problem}, 403: {"model": Problem}})
def users(user: Organiser, ctx: Ctx) -> list[Me]:
    return [Me(user=n, role=r) for n, r in ctx.store.users()]


@router.post("/users", status_code=201, responses={401: {"model": Problem}, 403: {"model": Problem}, 409: {"model": Problem}})
def add_user(body: NewUser, user: Organiser, ctx: Ctx) -> Me:
    try:
        ctx.store.add_user(body.user, body.password, body.role, ctx.clock())
    except UserError as exc:
        raise HTTPException(409, exc) from None
    ctx.store.audit(user.name, "add_user", {"user": body.user, "role": body.role}, ctx.clock())
    return Me(user=body.user, role=body.role)
