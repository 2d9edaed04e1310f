"""The hall's players learn what the table made of each thing they do from its events: an event they miss leaves them
waiting for ever (a demo table gone quiet). Their reader's session lasts, so what the table publishes while the reader
is away (the broker restarting, a connection cut, the players' process started again) is queued for it by the broker,
and the table's retained state comes at every connection."""

from __future__ import annotations

import threading

from bus.mqtt import Connection
from bus.protocol import encode, topic
from hall.player import HallWatch, player_class
from referee.table.tables import new_table

TABLES = ["t1"]
BOOK = "classic-3deck"
WAIT_S = 30.0  # the longest a wait for what must come (generous: a loaded machine)


def players(broker, tmp_path):
    """The hall's players at t1 (Tractor), reading as the scoreboard, connected."""
    p = player_class(BOOK)("t1", BOOK, broker.url("scoreboard"), hands=1, seed=1, wait_s=10.0)
    p.scene_path, p.buttons, p.stop_event = tmp_path / "scene.jsonl", None, threading.Event()
    p.watch = HallWatch()
    p._connect()
    return p


def event(seq: int, seat: str) -> bytes:
    return encode("events", {"v": 1, "seq": seq, "kind": "passed", "at": 100.0 + seq, "data": {"seat": seat}})


def test_what_the_table_publishes_while_the_players_reader_is_away_reaches_them(broker, tmp_path):
    table = Connection(broker.url("table-t1")).connect()
    Connection(broker.url("scoreboard"), clean_start=True).connect().close(flush_timeout=0)  # no session of before
    try:
        state = new_table("t1", BOOK).state(100.0)
        table.publish(topic("t1", "state"), encode("state", state), qos=1, retain=True)
        p = players(broker, tmp_path)
        table.publish(topic("t1", "events"), event(1, "E"), qos=1)
        with p.watch._cond:
            assert p.watch._cond.wait_for(lambda: p.watch.state is not None and 1 in p.watch.named, WAIT_S)
        p.close()  # away: the players' process killed, or its connection cut
        table.publish(topic("t1", "events"), event(2, "N"), qos=1)
        table.flush(10)
        again = players(broker, tmp_path)  # as the players started again: a watch of their own
        with again.watch._cond:
            assert again.watch._cond.wait_for(lambda: again.watch.named.get(2) == {"N"}, WAIT_S), again.watch.named
            assert again.watch._cond.wait_for(lambda: again.watch.state is not None, WAIT_S)  # retained, on a lasting session
        assert again._conns["reader"].clean_start is False
        again.close()
    finally:
        table.close(flush_timeout=0)
