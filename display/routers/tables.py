"""Console actions on the tables: commands (start/stop a round, the last-hand notice, seating), the
referee's rulings, flagged reads with the camera's frame beside them. Every action goes into the audit log."""

from __future__ import annotations

import base64

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path
from fastapi.responses import Response

from display.deps import Ctx, Organiser, Referee
from display.flags import frame_for
from display.schemas import (
    Assign,
    FlagAction,
    FlagView,
    FrameInfo,
    Id,
    PlayAmend,
    Problem,
    Ruling,
    Sent,
    TableCommand,
)

router = APIRouter(prefix="/api/console", tags=["console: tables"])
ERRORS = {401: {"model": Problem}, 403: {"model": Problem}, 404: {"model": Problem}, 409: {"model": Problem}}


def _known(ctx: Ctx, table: str):
    view = ctx.feed.hall.tables.get(table)
    if view is None:
        raise HTTPException(404, f"no table {table} on the broker")
    return view


def send(ctx: Ctx, user: str, table: str, command: str, **fields) -> Sent:
    cid = ctx.feed.command(table, command, **fields)
    ctx.store.audit(user, command, {"table": table, "id": cid, **fields}, ctx.clock())
    return Sent(table=table, id=cid, command=command)


@router.post("/tables/{table}/commands", responses=ERRORS, summary="start_round, stop_round or last_hand at one table")
def command(table: Id, body: TableCommand, user: Referee, ctx: Ctx) -> Sent:
    if body.command != "last_hand" and user.role != "organiser":
        raise HTTPException(403, f"{user.name} is a referee; {body.command} needs an organiser")
    _known(ctx, table)
    return send(ctx, user.name, table, body.command)


@router.post("/tables/{table}/rulings", responses=ERRORS,
             summary="The referee's ruling on what no camera sees: a foul, the dealer's 报到 or 摊打")
def ruling(table: Id, body: Ruling, user: Referee, ctx: Ctx) -> Sent:
    _known(ctx, table)
    return send(ctx, user.name, table, body.ruling, **body.model_dump(exclude={"ruling"}))


@router.post("/last-hand", responses=ERRORS, summary="Announce the last hand at every table of the hall")
def last_hand(user: Referee, ctx: Ctx) -> list[Sent]:
    tables = sorted(ctx.feed.hall.tables)
    if not tables:
        raise HTTPException(409, "no table on the broker yet")
    return [send(ctx, user.name, t, "last_hand") for t in tables]


@router.post("/tables/{table}/assign", responses=ERRORS, summary="Seat four players and choose the rulebook")
def assign(table: Id, body: Assign, user: Organiser, ctx: Ctx) -> Sent:
    if sorted(body.players) != sorted("SENW") or len(set(body.players.values())) != 4:
        raise HTTPException(422, "players: four different names, one per seat S E N W")
    _known(ctx, table)
    return send(ctx, user.name, table, "assign", players=dict(body.players), rulebook=body.rulebook)


@router.get("/flags", responses=ERRORS, summary="Every open flag of every table, with its kept frame")
def flags(user: Referee, ctx: Ctx) -> list[FlagView]:
    out = []
    for table, view in sorted(ctx.feed.hall.tables.items()):
        for f in (view.state or {}).get("flags", []):
            frame = frame_for(f, ctx.feed.frames(table))
            info = None if frame is None else FrameInfo(
                table=table, id=frame["id"], seat=frame["seat"], at=frame["at"], reason=frame["reason"],
                url=f"/api/console/frames/{table}/{frame['id']}")
            out.append(FlagView(table=table, flag=f["flag"], seat=f["seat"], kind=f["kind"], at=f["at"],
                                cards=f.get("cards", []), text=f.get("text", ""), frame=info))
    return out


@router.post("/tables/{table}/flags/{flag}", responses=ERRORS, summary="Confirm, dismiss or correct an open flag")
def resolve(table: Id, flag: str, body: FlagAction, user: Referee, ctx: Ctx) -> Sent:
    if (body.how == "correct") != (body.cards is not None):
        raise HTTPException(422, "cards: required with correct, and only with correct")
    view = _known(ctx, table)
    if not any(f["flag"] == flag for f in (view.state or {}).get("flags", [])):
        raise HTTPException(409, f"no open flag {flag} at table {table}")
    fields = {"flag": flag} | ({"cards": body.cards} if body.cards is not None else {})
    return send(ctx, user.name, table, body.how, **fields)


@router.post("/tables/{table}/plays/{entry}", responses=ERRORS,
             summary="Amend an accepted play (a dispute): the table judges everything after it again")
def amend(table: Id, entry: Annotated[int, Path(ge=1, le=2**53)], body: PlayAmend, user: Referee, ctx: Ctx) -> Sent:
    _known(ctx, table)
    return send(ctx, user.name, table, "amend", entry=entry, cards=body.cards)


@router.get("/frames/{table}/{frame}", response_class=Response, summary="A kept camera frame as JPEG",
            responses={**ERRORS, 200: {"content": {"image/jpeg": {}}}})
def frame(table: Id, frame: str, user: Referee, ctx: Ctx) -> Response:
    for f in ctx.feed.frames(table):
        if f["id"] == frame:
            return Response(base64.b64decode(f["jpeg"]), media_type="image/jpeg")
    raise HTTPException(404, f"no frame {frame} kept for table {table}")
