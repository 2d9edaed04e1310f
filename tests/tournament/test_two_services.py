"""Two ``cardtable tournament serve`` of one broker (real processes, real mosquitto). Every tournament service is the one
broker user ``tournament``, one client id: the broker ends the older's connection when another connects, and before,
each took it back at once, for ever, the events going to either between. Now the outcome is the one a table's camera
has (``bus/PROTOCOL.md``, "One sender per table"): on one machine the second is refused at its start, in words, the
first serving on; one of another machine (no lock file of this one holds it back) takes the service over, and the older
says so and ends with status 3, which the hall's unit does not restart into the same fight."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from bus import lock
from bus.mqtt import TAKEN_OVER_EXIT, TAKEN_WITHIN_S, Connection
from referee.tournament import Entry, TournamentStore
from test_service import UNITS, WAIT_S, result_of, send

TABLES = ["t01", "t02", "t03", "t04"]


def made(path) -> list[str]:
    """A pair-swiss tournament at ``path``, round 1 paired: its tables."""
    store = TournamentStore(path)
    store.new("pair-swiss", [Entry(p, p, u, u, (f"{p}甲", f"{p}乙")) for p, u in UNITS.items()],
              name="拖拉机赛", seed=1, options={"rounds": 2}, id="twice")
    tables = [x["table"] for x in store.pair_next_round()["tables"]]
    store.close()
    return tables


def serve(broker, db, *more: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cardtable", "tournament", "serve", "--db", str(db), "--broker",
                             broker.url("tournament"), *more], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})


def games(path) -> list[str]:
    store = TournamentStore(path)
    try:
        return [a["data"]["event"] for a in store.actions() if a["kind"] == "game"]
    finally:
        store.close()


def listening(connect, inbox):
    """The rounds published from now on: a service's round tells that it serves. Not the one the broker kept from a
    service before (the test before's): the service that published it may not have connected yet, and taken for the
    older, it connected after the "newer" and, the newest, rightly took the connection over (seen as the newer giving
    way, the older keeping it)."""
    box = inbox()
    reader = connect("scoreboard", clean_start=True)
    reader.subscribe("cardtable/v1/tournament/twice/round", box, retained="never")
    assert reader.wait_subscribed(WAIT_S)
    return box


def test_a_second_service_on_this_machine_is_refused_and_the_first_serves_on(broker, connect, inbox, tmp_path):
    tables = made(tmp_path / "t.db")
    Connection(broker.url("tournament"), clean_start=True).connect().close(flush_timeout=0)
    box = listening(connect, inbox)
    first = serve(broker, tmp_path / "t.db")
    try:
        box.wait_for(lambda t, p: p and json.loads(p)["round"] == 1, WAIT_S)
        fights = broker.log_tail(400).count("Client tournament already connected")
        second = serve(broker, tmp_path / "t.db")
        _, err = second.communicate(timeout=WAIT_S)
        assert second.returncode == 2, err
        assert "本机已有另一个 `cardtable tournament serve` 在为消息服务器" in err and "这里不启动" in err, err
        assert f"{first.pid} {tmp_path / 't.db'}" in err, err  # the holder named: its process and file
        second = serve(broker, tmp_path / "t.db", "--lang", "en")
        _, err = second.communicate(timeout=WAIT_S)
        assert second.returncode == 2 and "another `cardtable tournament serve` on this machine" in err, err
        send(connect, tables[0], 40, "game_won", {"team": "SN"})
        box.wait_for(lambda t, p: p and result_of(json.loads(p), tables[0]) is not None, WAIT_S)  # the first serves on
        assert first.poll() is None
        assert broker.log_tail(400).count("Client tournament already connected") == fights  # never connected
        first.terminate()
        assert first.wait(WAIT_S) == 0
        assert not lock.path("tournament", "service", broker.url("tournament")).exists()  # let go: no file piles up
    finally:
        first.terminate()
        first.wait(WAIT_S)
    assert games(tmp_path / "t.db") == [f"{tables[0]}:40:game_won"]


def test_a_service_of_another_machine_takes_over_and_the_older_ends_with_status_3(broker, connect, inbox, tmp_path):
    """The other machine's service is a connection of the user ``tournament`` with the service's settings (its own lock
    file, on its own machine, holds nothing back here). The module's broker: the session and the round of the service
    of the test before are there."""
    made(tmp_path / "t.db")
    box = listening(connect, inbox)
    older = serve(broker, tmp_path / "t.db")
    newer = None
    try:
        box.wait_for(lambda t, p: p and json.loads(p)["round"] == 1, WAIT_S)
        newer = Connection(broker.url("tournament"), "tournament", manual_ack=True, yields=True).connect()
        _, err = older.communicate(timeout=WAIT_S)
        assert older.returncode == TAKEN_OVER_EXIT, err
        time.sleep(2 * TAKEN_WITHIN_S)  # no fight: nobody takes the connection back
        assert newer.connected and newer.taken is None and newer.connects <= 2
    finally:
        older.kill()
        older.wait()
        if newer is not None:
            newer.close()
    assert "赛事服务已由别处（另一台机器）的 `cardtable tournament serve` 接管：消息服务器" in err and "退出码 3" in err, err
