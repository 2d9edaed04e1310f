"""The SSE fan-out: who gets which change, bursts in one write, a page that cannot keep up is let go."""

from __future__ import annotations

import asyncio
import threading

from display import hub as hub_module
from display.hub import Hub


def change(kind: str, table: str = "t1", seq: int = 1) -> dict:
    return {"type": kind, "table": table, "data": {"seq": seq}}


def test_hand_events_only_to_the_page_of_their_table_and_a_burst_in_one_write():
    async def run():
        hub = Hub()
        wall, page = hub.add(None), hub.add("t1")
        streams = [hub.stream(wall, "first"), hub.stream(page, "first")]
        assert [await s.__anext__() for s in streams] == ["first", "first"]
        for c in (change("state"), change("event"), change("event", "t2"), change("state", "t2", 2)):
            hub.publish(c)
        wall_text, page_text = [await s.__anext__() for s in streams]
        assert wall_text.count("event: state") == 2 and "event: event" not in wall_text
        assert page_text.count("event: event") == 1 and '"table":"t2","data":{"seq":1}' not in page_text
        for s in streams:
            await s.aclose()
        assert hub.listeners == set()

    asyncio.run(run())


def test_a_page_that_cannot_keep_up_is_let_go(monkeypatch):
    monkeypatch.setattr(hub_module, "QUEUE", 3)

    async def run():
        hub = Hub()
        slow, fine = hub.add(None), hub.add(None)
        slow_stream, fine_stream = hub.stream(slow, "first"), hub.stream(fine, "first")
        await slow_stream.__anext__()
        await fine_stream.__anext__()
        for seq in range(3):
            hub.publish(change("state", seq=seq))
        assert "seq\":2" in await fine_stream.__anext__()
        hub.publish(change("state", seq=3))  # the slow page's fourth: over its queue
        assert slow.dropped
        assert [t async for t in slow_stream] == []  # its stream ends; the browser reconnects to a snapshot
        assert slow not in hub.listeners and fine in hub.listeners
        await fine_stream.aclose()

    asyncio.run(run())


def test_changes_handed_over_from_another_thread_arrive_in_order():
    async def run():
        hub = Hub()
        page = hub.add(None)
        stream = hub.stream(page, "first")
        await stream.__anext__()
        hand = hub.handoff(asyncio.get_running_loop())
        feeder = threading.Thread(target=lambda: [hand(change("state", seq=n)) for n in range(500)])
        feeder.start()
        text = ""
        while text.count("event: state") < 500:
            text += await asyncio.wait_for(stream.__anext__(), 5)
        feeder.join()
        seqs = [int(part.split('"seq":')[1].split("}")[0]) for part in text.split("event: state")[1:]]
        assert seqs == list(range(500))
        await stream.aclose()

    asyncio.run(run())
