"""The audit log: every change made from the console, who made it and when, each in one line of the reader's
language (``display.actions``)."""

from __future__ import annotations

from fastapi import APIRouter, Query

from display.actions import line
from display.deps import Ctx, Lang, Referee
from display.schemas import AuditEntry, Problem

router = APIRouter(prefix="/api/console", tags=["console: audit"])


@router.get("/audit", responses={401: {"model": Problem}}, summary="The newest changes first")
def audit(user: Referee, ctx: Ctx, lang: Lang, limit: int = Query(200, ge=1, le=5000)) -> list[AuditEntry]:
    roles = dict(ctx.store.users())
    return [AuditEntry(**e, text=line(lang, e["user"], roles.get(e["user"], ""), e["action"], e["detail"]))
            for e in ctx.store.audit_log(limit)]
