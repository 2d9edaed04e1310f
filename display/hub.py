"""Server-Sent Events: the hall's changes to every open page, on the app's event loop.

``Hub.publish(change)`` runs on the loop (the feed hands changes over with
``loop.call_soon_threadsafe``); each page has a bounded queue, and a page that cannot keep up is
disconnected (its browser reconnects and starts again from a snapshot).

>>> sse("state", {"table": "t1"})
'event: state\\ndata: {"table":"t1"}\\n\\n'
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

QUEUE = 4096  # changes waiting for one page before it is dropped
KEEPALIVE_S = 15.0


def sse(event: str, data: object) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"


@dataclass(eq=False)
class Listener:
    """One open page. ``timeline_of``: the table whose hand events it wants (events of other tables
    are left out)."""

    timeline_of: str | None
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(QUEUE))
    dropped: bool = False

    def wants(self, change: dict) -> bool:
        return change["type"] != "event" or change.get("table") == self.timeline_of


class Hub:
    def __init__(self) -> None:
        self.listeners: set[Listener] = set()

    def __repr__(self) -> str:
        return f"<Hub pages={len(self.listeners)}>"

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

    def add(self, timeline_of: str | None) -> Listener:
        listener = Listener(timeline_of)
        self.listeners.add(listener)
        return listener

    def remove(self, listener: Listener) -> None:
        self.listeners.discard(listener)

    def publish(self, change: dict) -> None:
        text = None
        for listener in list(self.listeners):
            if listener.dropped or not listener.wants(change):
                continue
            text = text or sse(change["type"], change)
            try:
                listener.queue.put_nowait(text)
            except asyncio.QueueFull:
                listener.dropped = True
                while not listener.queue.empty():
                    listener.queue.get_nowait()
                listener.queue.put_nowait(None)  # ends its stream

    async def stream(self, listener: Listener, first: str):
        """The SSE text of one page: its snapshot, then every change, keep-alives between."""
        try:
            yield first
            while True:
                try:
                    text = await asyncio.wait_for(listener.queue.get(), KEEPALIVE_S)
                except TimeoutError:
                    yield ": keep-alive\n\n"
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


__all__ = ["Hub", "Listener", "sse"]
