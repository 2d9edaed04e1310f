"""Server-Sent Events: the hall's changes to every open page, on the app's event loop.

``Hub.publish(change)`` runs on the loop (the feed hands changes over with
``loop.call_soon_threadsafe``); each page has a bounded queue, and a page that cannot keep up is
disconnected (its browser reconnects and starts again from a snapshot). ``Hub.close`` ends every stream, and any
opened after it, at once: the server stopping (``display.app.Server``) waits for each response to end, and a live
page's never does by itself. The open pages are
counted: at most ``STREAMS_PER_CLIENT`` from one address and ``most`` in all (``streams_most``:
under the process's open-file limit), so that one visitor's script opening streams by the
thousand cannot take the connections the console and the big screens need (``full``).

>>> sse("state", {"table": "t1"})
'event: state\\ndata: {"table":"t1"}\\n\\n'
"""

from __future__ import annotations

import asyncio
import json
import resource
import threading
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

QUEUE = 4096  # changes waiting for one page before it is dropped
KEEPALIVE_S = 15.0  # the longest a page's stream stays silent (a page hearing nothing for two is cut off: app.js)
STREAMS_PER_CLIENT = 32  # live pages from one address (a big screen, a phone, a console: one or two each)
STREAMS_MOST = 2000  # live pages in all (a hall with more runs several displays behind a proxy)
FILES_KEPT = 256  # open files left to everything else (the console's requests, the databases, the broker)


def streams_most() -> int:
    """How many live pages this process can serve: ``STREAMS_MOST``, fewer where its open-file limit is lower (each
    page holds a socket)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return STREAMS_MOST if soft == resource.RLIM_INFINITY else max(16, min(STREAMS_MOST, soft - FILES_KEPT))


def sse(event: str, data: object) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"


@dataclass(eq=False)
class Listener:
    """One open page. ``timeline_of``: the table whose hand events it wants (events of other tables
    are left out)."""

    timeline_of: str | None
    client: str = ""
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(QUEUE))
    dropped: bool = False

    def wants(self, change: dict) -> bool:
        return change["type"] != "event" or change.get("table") == self.timeline_of


class Hub:
    """The open pages. ``most``: how many in all (``streams_most()`` by default).

    >>> hub = Hub(most=40)
    >>> pages = [hub.add(None, "10.0.0.9") for _ in range(STREAMS_PER_CLIENT)]
    >>> hub.full("10.0.0.9"), hub.full("10.0.0.7")
    ('client', None)
    >>> hub.remove(pages[0]); hub.full("10.0.0.9") is None
    True
    >>> others = [hub.add(None, f"10.0.1.{i}") for i in range(9)]; hub.full("10.0.0.5")
    'hall'
    """

    def __init__(self, most: int | None = None) -> None:
        self.listeners: set[Listener] = set()
        self.most = streams_most() if most is None else most
        self._of = Counter()  # open pages per address
        self.closed = False  # the server is stopping: every stream ends

    def __repr__(self) -> str:
        return f"<Hub pages={len(self.listeners)}>"

    def full(self, client: str) -> str | None:
        """Why one more page of ``client`` is refused now: ``"client"`` (it has ``STREAMS_PER_CLIENT``), ``"hall"``
        (``most`` are open); None when it is served."""
        if len(self.listeners) >= self.most:
            return "hall"
        return "client" if self._of[client] >= STREAMS_PER_CLIENT else None

    def handoff(self, loop: asyncio.AbstractEventLoop) -> Callable[[dict], None]:
        """A function for another thread: changes handed to it are published on ``loop`` in order;
        a burst of them wakes the loop once."""
        lock, pending = threading.Lock(), deque()

        def drain() -> None:
            with lock:
                changes = list(pending)
                pending.clear()
            for change in changes:
                self.publish(change)

        def hand(change: dict) -> None:
            with lock:
                pending.append(change)
                if len(pending) > 1:
                    return  # a drain is on its way
            loop.call_soon_threadsafe(drain)

        return hand

    def add(self, timeline_of: str | None, client: str = "") -> Listener:
        listener = Listener(timeline_of, client)
        self.listeners.add(listener)
        self._of[client] += 1
        if self.closed:
            self._end(listener)
        return listener

    def close(self) -> None:
        """End every page's stream (after what it was sent), and any opened from now on: the server is stopping.

        >>> hub = Hub(most=4); page = hub.add(None); hub.close(); late = hub.add(None)
        >>> page.queue.get_nowait() is None, late.queue.get_nowait() is None
        (True, True)
        """
        self.closed = True
        for listener in list(self.listeners):
            self._end(listener)

    @staticmethod
    def _end(listener: Listener) -> None:
        """``listener``'s stream ends: nothing more is put for it, and it reads the end after what waits (or instead
        of it, when its queue is full)."""
        listener.dropped = True
        if listener.queue.full():
            listener.queue.get_nowait()
        listener.queue.put_nowait(None)

    def remove(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.discard(listener)
            self._of[listener.client] -= 1
            if not self._of[listener.client]:
                del self._of[listener.client]

    def publish(self, change: dict) -> None:
        text = None
        for listener in list(self.listeners):
            if listener.dropped or not listener.wants(change):
                continue
            text = text or sse(change["type"], change)
            try:
                listener.queue.put_nowait(text)
            except asyncio.QueueFull:  # it cannot keep up: its stream ends, the page starts again from a snapshot
                while not listener.queue.empty():
                    listener.queue.get_nowait()
                self._end(listener)

    async def stream(self, listener: Listener, first: str):
        """The SSE text of one page: its snapshot, then every change, an ``alive`` event after ``KEEPALIVE_S`` s of
        nothing."""
        try:
            yield first
            while True:
                try:
                    text = await asyncio.wait_for(listener.queue.get(), KEEPALIVE_S)
                except TimeoutError:
                    yield sse("alive", {})  # an event, not a comment: a page sees it, and takes a silent stream for cut
                    continue
                batch = [text]  # and whatever else is waiting: one write for a burst of changes
                while text is not None and not listener.queue.empty():
                    text = listener.queue.get_nowait()
                    batch.append(text)
                if batch[-1] is None:
                    return
                yield "".join(batch)
        finally:
            self.remove(listener)


__all__ = ["STREAMS_PER_CLIENT", "Hub", "Listener", "sse", "streams_most"]
