"""The console's doors: one ASGI middleware in front of every route.

- Every response says how a browser may use it: ``Content-Security-Policy`` (scripts, styles,
  pictures and connections from this origin only; no page of ours inside another's frame:
  ``frame-ancestors 'none'``), ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: same-origin``.
- A request that changes something (POST, PUT, PATCH, DELETE) must come from our own pages when
  a browser sends it: its ``Origin`` (else its ``Referer``) names this host, or one given with
  ``--origin``; else 403. A page of another site can then not make a logged-in browser act
  (cross-site request forgery; the session cookie is ``SameSite=Strict`` as well). A request with
  neither header passes only without the session cookie: a script with a Bearer token.
- Its body is limited before any of it is read: by its ``Content-Length`` (``BODY_LIMIT``, the
  registration form's ``FORM_LIMIT``; 413), and a body of unknown length (chunked) is refused (411).
- But for the login itself, it is refused (401) without a live session before its body is read.
- Once read, a JSON body is read as the bus reads a payload (``bus.protocol``; :func:`strict_json`, a dependency of
  every route): a key given twice, or a number JSON has not (``NaN``, ``Infinity``, ``1e999``), is refused (422);
  Python's reader took the last of the keys and such numbers, so a body could mean one thing to a proxy or a log and
  another to the console.

The refusals are said in the request's language, as the app's other refusals.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from fastapi import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bus.protocol import PayloadError, loads
from display.deps import COOKIE, Denied, language, token_of

BODY_LIMIT = 256 * 1024  # the console's JSON bodies are a few hundred bytes; a whole registration is a few KiB
FORM_PATH = "/api/console/entries/import"
FORM_LIMIT = 2 * 1024 * 1024 + 64 * 1024  # the form (FORM_BYTES) and its multipart envelope
QUOTED_MOST = 40  # characters of a key or a number a refusal quotes
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
OPEN_DOORS = frozenset({"/api/login"})  # changes that need no session
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = [(b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin")]


class Guard:
    """The middleware (``app.add_middleware(Guard, origins=[...])``); see the module's docstring."""

    def __init__(self, app: ASGIApp, origins: Iterable[str] = ()):
        self.app = app
        self.origins = frozenset(urlsplit(o).netloc.lower() for o in origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = [(b"content-security-policy", CSP.encode()), *HEADERS]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *headers]}
            await send(message)

        refusal = self._refusal(Request(scope)) if scope["method"] in UNSAFE else None
        if refusal is None:
            await self.app(scope, receive, send_with_headers)
            return
        status, denied = refusal
        await _refuse(Request(scope), send_with_headers, status, denied)

    def _refusal(self, request: Request) -> tuple[int, Denied] | None:
        """(status, what is refused) when the request must not go further, else None."""
        own = {request.headers.get("host", "").lower(), *self.origins} - {""}  # a page naming no host is none of ours
        came = request.headers.get("origin") or request.headers.get("referer")
        if came is not None:
            if urlsplit(came).netloc.lower() not in own:
                return 403, Denied("cross_site", origin=came[:100])
        elif COOKIE in request.cookies:
            return 403, Denied("cross_site", origin="?")
        limit = FORM_LIMIT if request.url.path == FORM_PATH else BODY_LIMIT
        length = request.headers.get("content-length")
        if length is None and "transfer-encoding" in request.headers:
            return 411, Denied("body_length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            return 413, Denied("body_too_large", kib=limit // 1024)
        if request.url.path.startswith("/api/") and request.url.path not in OPEN_DOORS:
            ctx = request.app.state.ctx
            token = token_of(request)
            if not token or ctx.store.session(token, ctx.clock()) is None:
                return 401, Denied("not_logged_in")
        return None


async def strict_json(request: Request) -> None:
    """Refuse (422, in words) a change whose JSON body gives a key twice or a number JSON has not, read as the bus reads
    a payload (:func:`bus.protocol.loads`); FastAPI read the body (cached) and refused what is no JSON already. A form
    (the registration's upload) is no JSON: not looked at."""
    if request.method not in UNSAFE or "json" not in request.headers.get("content-type", "json"):
        return
    try:
        loads("body", (await request.body()).decode("utf-8"))
    except UnicodeDecodeError:  # FastAPI said so before this is called
        return
    except PayloadError as exc:  # anything else no JSON: FastAPI said so too
        if exc.why.key == "payload.twice":
            raise HTTPException(422, Denied("body_key_twice", name=exc.why["where"][0][:QUOTED_MOST])) from None
        if exc.why.key == "payload.number":
            raise HTTPException(422, Denied("body_not_number", value=exc.why["value"])) from None


async def _refuse(request: Request, send: Send, status: int, denied: Denied) -> None:
    body = json.dumps({"detail": denied.text(language(request))}, ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["BODY_LIMIT", "CSP", "FORM_LIMIT", "Guard", "strict_json"]
