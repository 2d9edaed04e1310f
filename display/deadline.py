"""The display's HTTP connections: uvicorn's h11 protocol with a deadline for each request's head.

uvicorn times out a connection only between requests (keep-alive) and only while nothing arrives: a client that
connects and sends nothing, or sends its request's head a byte at a time (slowloris), holds a socket for ever, and a
script of a few lines held every socket the process could open, shutting out the console and the big screens. Here a
connection must send a whole request head within ``head_s`` of opening (or of its last answer); else it is closed.
A request once received has no deadline: a live page's stream lasts as long as the page.

>>> Deadline.within(2.5).head_s, Deadline.head_s
(2.5, 10.0)
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_S = 10.0  # seconds a connection has to send a request's head (nginx's client_header_timeout is 60; a page takes ms)


class Deadline(H11Protocol):
    """:class:`H11Protocol` closing a connection whose request head is not in within ``head_s``."""

    head_s = HEAD_S
    _head: asyncio.TimerHandle | None = None

    @classmethod
    def within(cls, seconds: float) -> type[Deadline]:
        """This protocol with a deadline of ``seconds`` (``uvicorn.run(..., http=...)`` takes a class)."""
        return type(cls.__name__, (cls,), {"head_s": float(seconds)})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the head is in (or the connection is done with)
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._head is None and self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._arm()  # the next request's head, on a kept-alive connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._head = self.loop.call_later(self.head_s, self._late)

    def _disarm(self) -> None:
        if self._head is not None:
            self._head.cancel()
            self._head = None

    def _late(self) -> None:
        self._head = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()
