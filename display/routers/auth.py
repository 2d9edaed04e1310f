"""Logins: a session cookie (HttpOnly, SameSite=Strict) or the same token as a Bearer header."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response

from display.deps import COOKIE, Ctx, Denied, Organiser, Referee, token_of
from display.schemas import Login, Me, NewUser, Problem
from display.store import SESSION_S, UserError

router = APIRouter(prefix="/api", tags=["login"])


@router.post("/login", responses={401: {"model": Problem}}, summary="Log in; sets the session cookie")
def login(body: Login, response: Response, ctx: Ctx) -> Me:
    role = ctx.store.check_password(body.user, body.password)
    if role is None:
        raise HTTPException(401, Denied("wrong_login"))
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
