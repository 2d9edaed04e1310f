"""The demo hall's simulated players hold no more broker rights than people at their table: they read their own
table and send it commands (the bots stop a hand they did not deal), and can neither command another table nor read
it. They were full console users: the players of t01 could seat and stop every table."""

from __future__ import annotations

import time

from bus.broker import Broker
from bus.mqtt import Connection
from bus.protocol import topic
from hall.plan import hall_tables
from hall.supervisor import Supervisor

WAIT_S = 30.0


def test_a_tables_players_cannot_command_or_read_another_table(tmp_path):
    hall = Supervisor.__new__(Supervisor)  # its users and ACL only: nothing started
    hall.tables = hall_tables(2)
    broker = Broker.start(tmp_path / "broker", *hall.users())
    try:
        seen: list[str] = []
        players = Connection(broker.url("players-t01"), clean_start=True)
        players.subscribe(topic("t02", "state"), lambda t, _: seen.append(t))
        players.subscribe(topic("t01", "state"), lambda t, _: seen.append(t))
        players.connect()
        assert players.wait_subscribed(WAIT_S)
        table = Connection(broker.url("table-t02"), clean_start=True).connect()
        table.publish(topic("t02", "state"), b'{"v":1}', retain=True)
        own = Connection(broker.url("table-t01"), clean_start=True).connect()
        own.publish(topic("t01", "state"), b'{"v":1}', retain=True)  # the sentinel: after t02's, in order
        for conn in (table, own):
            assert conn.flush(WAIT_S)
        players.publish(topic("t02", "commands"), b'{"v":1,"id":"x","command":"stop_round"}')
        players.publish(topic("t01", "commands"), b'{"v":1,"id":"y","command":"stop_round"}')
        assert players.flush(WAIT_S)
        assert [str(reason) for _, reason in players.refused()] == ["Not authorized"]  # t02's, not its own table's
        deadline = time.monotonic() + WAIT_S
        while topic("t01", "state") not in seen:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert seen == [topic("t01", "state")]
        for conn in (players, table, own):
            conn.close()
    finally:
        broker.stop()
