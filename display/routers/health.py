"""The display's own health, as the console reads it: whether each of its two broker connections hears the broker,
and, where another display of the same broker user took one over (``display.feed``: it stays down until restarted),
why and what to do, in both languages. The public pages show such a display cut off from the broker (the hall's
``feed`` false), never why (the broker's address, its users)."""

from __future__ import annotations

from fastapi import APIRouter

from display.deps import Ctx, Referee
from display.schemas import DisplayHealth, Problem

router = APIRouter(prefix="/api/console", tags=["console: the display"])


@router.get("/health", responses={401: {"model": Problem}},
            summary="The display's connections to the broker, and why one is down for good (taken over)")
def health(user: Referee, ctx: Ctx) -> DisplayHealth:
    hall = ctx.feed.hall
    return DisplayHealth(feed=hall.feed, commands=hall.commands, taken=ctx.feed.taken)
