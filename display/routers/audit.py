"""The audit log: every change made from the console, who made it and when."""

from __future__ import annotations

from fastapi import APIRouter, Query

from display.deps import Ctx, Referee
from display.schemas import AuditEntry, Problem

router = APIRouter(prefix="/api/console", tags=["console: audit"])


@router.get("/audit", responses={401: {"model": Problem}}, summary="The newest changes first")
def audit(user: Referee, ctx: Ctx, limit: int = Query(200, ge=1, le=5000)) -> list[AuditEntry]:
    return [AuditEntry(**e) for e in ctx.store.audit_log(limit)]
