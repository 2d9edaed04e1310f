"""The display's HTTP connections: uvicorn's h11 protocol with a deadline for each request's head and body.

uvicorn times out a connection only between requests (keep-alive) and only while nothing arrives: a client that
connects and sends nothing, or sends its request's head a byte at a time (slowloris), holds a socket for ever, and a
script of a few lines held every socket the process could open, shutting out the console and the big screens. Here a
connection must send a whole request head within ``head_s`` of opening (or of its last answer), and a request's whole
body within ``body_s`` of its head; else it is closed. A request once received has no deadline: a live page's stream
lasts as long as the page.

>>> Deadline.within(2.5).head_s, Deadline.head_s, Deadline.within(2.5, 30).body_s, Deadline.body_s
(2.5, 10.0, 30.0, 60.0)
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_S = 10.0  # seconds a connection has to send a request's head (nginx's client_header_timeout is 60; a page takes ms)
BODY_S = 60.0  # seconds for a whole body after its head: the largest (a 2 MiB registration form) at 35 KiB/s
WAITING = (h11.IDLE, h11.SEND_BODY)  # what the client still owes: a head, or the rest of a body


class Deadline(H11Protocol):
    """:class:`H11Protocol` closing a connection whose request head is not in within ``head_s``, or whose body is not
    in within ``body_s`` of its head."""

    head_s = HEAD_S
    body_s = BODY_S
    _timer: asyncio.TimerHandle | None = None
    _owed: object = None  # the h11 state the armed deadline waits out (IDLE: a head, SEND_BODY: a body)

    @classmethod
    def within(cls, head: float, body: float | None = None) -> type[Deadline]:
        """This protocol with a deadline of ``head`` seconds for a head and ``body`` for a body (``uvicorn.run(...,
        http=...)`` takes a class)."""
        return type(cls.__name__, (cls,), {"head_s": float(head), "body_s": float(body or cls.body_s)})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's head, on a kept-alive connection (or the rest of a body not read)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        """The deadline for what the client owes now: kept while it owes the same thing, a new one when that changes."""
        owed = self.conn.their_state
        if owed is self._owed and self._timer is not None:
            return
        self._disarm()
        if owed in WAITING:
            self._owed = owed
            self._timer = self.loop.call_later(self.head_s if owed is h11.IDLE else self.body_s, self._late)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._owed = None, None

    def _late(self) -> None:
        self._timer = None
        if self.conn.their_state is self._owed and not self.transport.is_closing():
            self.transport.close()
        self._owed = None
