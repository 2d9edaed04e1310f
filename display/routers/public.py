"""The scoreboard's data, public and read only: the hall as JSON and its live stream (SSE)."""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import StreamingResponse

from display.deps import Ctx, Denied
from display import hub
from display.hub import STREAMS_PER_CLIENT, sse
from display.schemas import Id, Named, Problem, Round, Standings
from display.tournament import entries_named
from referee.tournament.views import awards_given, results_said

router = APIRouter(prefix="/api", tags=["scoreboard"])
NOT_FOUND = {404: {"model": Problem}}


@router.get("/hall", summary="Every table, the tournaments' rounds and standings, as the hall sees them now")
def hall(ctx: Ctx) -> dict:
    return ctx.feed.hall.snapshot(now=time.monotonic())


@router.get("/tables", summary="The tables seen on the broker, in order")
def tables(ctx: Ctx) -> list[str]:
    return sorted(ctx.feed.hall.tables)


@router.get("/tables/{table}", responses=NOT_FOUND,
            summary="One table: state, status, health and whether it referees (live), whether its camera and board see it "
                    "(devices), last violations, the hand's timeline")
def table(table: Id, ctx: Ctx) -> dict:
    view = ctx.feed.hall.tables.get(table)
    if view is None:
        raise HTTPException(404, Denied("no_table", table=table))
    return view.as_json(timeline=True, now=time.monotonic())


def _published(kept: dict, missing: Denied, tournament: str) -> dict:
    if tournament not in kept:
        raise HTTPException(404, missing)
    return kept[tournament]


@router.get("/tournaments/{tournament}/standings", responses=NOT_FOUND, summary="The standings last published")
def standings(tournament: Id, ctx: Ctx) -> Standings:
    return Standings.model_validate(_published(ctx.feed.hall.standings, Denied("no_standings_published", tournament=tournament), tournament))


@router.get("/tournaments/{tournament}/round", responses=NOT_FOUND, summary="The round's pairings last published")
def round_(tournament: Id, ctx: Ctx) -> Round:
    return Round.model_validate(_published(ctx.feed.hall.rounds, Denied("no_round_published", tournament=tournament), tournament))


@router.get("/tournaments/{tournament}/entries", responses=NOT_FOUND,
            summary="The entries of the tournament this display runs, as the hall knows them (lot number, name, unit, "
                    "the team a pair plays for where the standings rank teams)")
def entries(tournament: Id, ctx: Ctx) -> list[Named]:
    """What names a round's entry that the page has by id alone: a pair Swiss pair's bye (its standings' rows are
    teams, and a pair with the bye is at no table of the round), and whether it withdrew (退赛: a pair, where its team
    plays on). 404 unless this display runs that tournament."""
    with _running(tournament, ctx, Denied("no_entries", tournament=tournament)) as t:
        return [Named(**x) for x in entries_named(t)]


@router.get("/tournaments/{tournament}/results", responses=NOT_FOUND,
            summary="The decided tables of a round (default: the latest) whose result reads otherwise than its scores: "
                    "pair Swiss's levels each side reached (A+: past A), or won, drawn, lost where none is known; "
                    "a knockout's single game or walkover won, lost; a San Da Yi table's places")
def results(tournament: Id, ctx: Ctx, round: Annotated[int | None, Query(ge=1, le=1000)] = None) -> dict[str, list[str]]:
    """What the round payload (``v1``, closed) cannot carry; 404 unless this display runs that tournament, or no
    such round."""
    with _running(tournament, ctx, Denied("no_entries", tournament=tournament)) as t:
        if round is not None and round > len(t.rounds):
            raise HTTPException(404, Denied("no_round_published", tournament=tournament))
        return results_said(t, round)


@router.get("/tournaments/{tournament}/awards", responses=NOT_FOUND,
            summary="Once the last round is complete, the awards each standings row gets beside its placed prize, by row "
                    "id (pair Swiss: 鼓励奖; the knockout: 证书和奖品, 纪念品); {} before")
def awards(tournament: Id, ctx: Ctx) -> dict[str, list[str]]:
    """What the standings payload's ``prize`` (closed in ``v1``) cannot carry, as the sheets write it
    (``referee.tournament.views.awards_given``); 404 unless this display runs that tournament: the scoreboard then
    shows the payload's placed prizes alone."""
    with _running(tournament, ctx, Denied("no_awards", tournament=tournament)) as t:
        return awards_given(t)


@contextmanager
def _running(tournament: str, ctx: Ctx, missing: Denied):
    """The tournament this display runs, when it is ``tournament``; else a 404 that says ``missing``."""
    absent = HTTPException(404, missing)
    if ctx.tournament is None or not ctx.tournament.exists():
        raise absent
    with ctx.tournament.using() as store:
        t = store.tournament
        if t.id != tournament:
            raise absent
        yield t


@router.get("/stream", summary="Server-Sent Events: a snapshot, then every change",
            response_class=StreamingResponse, responses={200: {"content": {"text/event-stream": {}}},
                                                          503: {"model": Problem, "description": "too many live pages"}})
async def stream(request: Request, ctx: Ctx,
                 table: Annotated[Id | None, Query(description="also send this table's hand events")] = None):
    client = request.client.host if request.client else ""
    why = ctx.hub.full(client)
    if why is not None:  # the page tries again by itself (app.js, console.js)
        said = (Denied("streams_client", client=client, most=STREAMS_PER_CLIENT) if why == "client"
                else Denied("streams_hall", most=ctx.hub.most))
        raise HTTPException(503, said, headers={"Retry-After": "10"})
    listener = ctx.hub.add(table, client)  # registered before the snapshot is taken: nothing is missed
    snapshot = ctx.feed.hall.snapshot(timeline_of=table, now=time.monotonic(), wall=ctx.clock())
    first = sse("snapshot", {**snapshot, "alive": hub.KEEPALIVE_S})  # how long the stream stays silent at most
    return StreamingResponse(ctx.hub.stream(listener, first), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
