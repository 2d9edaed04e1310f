"""Guandan and San Da Yi through the whole path: the simulator's bots (camera, board, console) publish
to a real mosquitto, the table service judges and publishes, a console watches. Two Guandan hands
(the second with its tribute) and a San Da Yi game with the service in-process and the simulator
run as ``cardtable table simulate``; a Guandan table served by ``cardtable table run`` killed with
SIGKILL mid-hand and restarted to the same state; the logs through ``cardtable table replay``."""

from __future__ import annotations

import contextlib
import io
import itertools
import re
import signal
import time
from collections import Counter

import pytest

from cardtable import cli
from referee.table.log import EventLog
from referee.table.service import TableService
from referee.table.simulate import Simulator
from referee.table.simulators import simulator_class

TABLES = ["g1", "s1", "g2", "g3", "s2"]
CONSOLE = "console"
GD, SDY = "sanjiang-2012", "usst-2016"
WAIT_S = 30.0  # the longest a wait for what must come (generous: a loaded machine)


def simulate_in_process(broker, tmp_path_factory, table_watch, table, rulebook, hands, seed):
    db = tmp_path_factory.mktemp(table) / f"{table}.db"
    watch = table_watch(table, broker, WAIT_S)
    start = time.time()
    service = TableService(table, rulebook, broker.url(f"table-{table}"), db, clock=lambda: start, check_outputs=True,
                           trust_senders=True).start()
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            code = cli.main(["table", "simulate", "--table", table, "--rulebook", rulebook,
                             "--broker", broker.url(CONSOLE), "--camera", broker.url(f"camera-{table}"),
                             "--board", broker.url(f"board-{table}"), "--console", broker.url(CONSOLE),
                             "--hands", str(hands), "--seed", str(seed)])
    finally:
        service.stop()
        watch.conn.close(flush_timeout=0)
    return {"code": code, "out": out.getvalue(), "watch": watch, "db": db}


@pytest.fixture(scope="module")
def guandan(broker, tmp_path_factory, table_watch):
    return simulate_in_process(broker, tmp_path_factory, table_watch, "g1", GD, 2, 4)


@pytest.fixture(scope="module")
def sandayi(broker, tmp_path_factory, table_watch):
    return simulate_in_process(broker, tmp_path_factory, table_watch, "s1", SDY, 1, 1)


def test_simulated_guandan_hands_end_to_end(guandan):
    assert guandan["code"] == 0, guandan["out"]
    events = guandan["watch"].of("events")
    kinds = [e["kind"] for e in events]
    for kind in ("play_accepted", "passed", "hand_scored", "levels_changed", "play_started"):
        assert kind in kinds
    assert "rejected" not in kinds
    assert {"tribute_given", "tribute_refused"} & set(kinds) and "draw_done" in kinds
    scored = [e["data"] for e in events if e["kind"] == "hand_scored"]
    assert [s["hand"] for s in scored] == [1, 2]
    # Every card of hand 1 was played and accepted, and the state counted them down to the finish.
    plays = [e["data"] for e in events if e["kind"] == "play_accepted" and e["data"]["hand"] == 1]
    firsts = scored[0]["finish"][:2]
    assert all(sum(len(p["cards"]) for p in plays if p["seat"] == s) == 27 for s in firsts)
    states = [s for s in guandan["watch"].of("state") if s["hand"] == 1 and s["phase"] == "playing"]
    for seat in "SENW":
        counts = [s["cards"][seat] for s in states]
        assert counts[0] == 27 and all(a >= b for a, b in itertools.pairwise(counts))
    # Slow bots tripped the shot clock: a follower's turn passed, or a leader's foul; long thinks used.
    clock = [v for v in guandan["watch"].of("violations") if v["kind"] == "overtime"]
    assert clock and all(v["evidence"]["seconds"] > v["evidence"]["limit"] for v in clock)
    assert any(v["penalty"].get("forfeit") == "turn" for v in clock)
    assert any(s["clocks"][seat].get("long_think") is False for s in states for seat in "SENW")
    assert "第 2 盘结算：上游" in guandan["out"] and "共 2 盘" in guandan["out"]


def test_a_simulated_sandayi_game_end_to_end(sandayi):
    assert sandayi["code"] == 0, sandayi["out"]
    events = sandayi["watch"].of("events")
    kinds = [e["kind"] for e in events]
    for kind in ("bid", "dealer_chosen", "kitty_to_dealer", "play_accepted", "passed", "game_scored"):
        assert kind in kinds
    assert "rejected" not in kinds
    scored = next(e["data"] for e in events if e["kind"] == "game_scored")
    assert sum(scored["scores"].values()) == 0 and scored["totals"] == scored["scores"]
    dealer = scored["dealer"]
    played = {s: sum(len(e["data"]["cards"]) for e in events if e["kind"] == "play_accepted" and e["data"]["seat"] == s) for s in "SENW"}
    winner_seats = [s for s in "SENW" if played[s] == (33 if s == dealer else 25)]
    assert len(winner_seats) == 1 and (winner_seats == [dealer]) == (scored["winner"] == "dealer")
    final = sandayi["watch"].wait("state", lambda s: s["hand"] == 2)
    assert final["phase"] == "bidding" and final["turn"] == "E"  # game 2: 红 bids first (一 5)
    assert "第 1 局结算" in sandayi["out"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_replay_labels_the_climbing_events(guandan, sandayi, capsys, lang):
    assert cli.main(["table", "replay", str(guandan["db"]), "--lang", lang]) == 0
    out = capsys.readouterr().out
    plays = [e for e in guandan["watch"].of("events") if e["kind"] == "play_accepted"]
    passes = [e for e in guandan["watch"].of("events") if e["kind"] == "passed"]
    if lang == "zh":
        assert len(re.findall(r"[├└] 第 \d+ 盘第 \d+ 圈：", out)) == len(plays) + len(passes) and out.count("不出") >= len(passes)
        assert "第 1 盘结算：上游" in out and "超时（已确认）" in out
    else:
        assert len(re.findall(r"[├└] hand \d+ trick \d+: ", out)) == len(plays) + len(passes) and "hand 1 scored: first" in out
    assert "{" not in out
    assert cli.main(["table", "replay", str(sandayi["db"]), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert ("第 1 局结算" if lang == "zh" else "game 1 scored") in out
    assert ("庄家" if lang == "zh" else "dealer") in out


def test_players_following_the_table_take_its_word_on_a_play_it_did_not_take(broker, tmp_path, table_watch):
    """002 十二 第3条: 其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次出牌权; 十一 2: 越序出牌 ... 停止一轮出牌
    -- players that follow the table (the hall's): in the fourth trick, the seat on turn puts its cards down but they
    reach the table a second after its clock ran out (a camera away). The table gives the turn up, takes the cards as a
    play out of turn and flags it; the referee confirms it (a foul: the seat sits out its next turn). The players take
    the table's word (the cards stay in the seat's hand, the turn given up and the turn sat out are in their game) and
    play the hand to its end. Before, they moved their game by what they did and stopped at the next turn (the
    simulator's game says X is to play, the table says Y): the soak's Guandan table finished no hand."""
    watch = table_watch("g3", broker, WAIT_S)
    start = time.time()
    service = TableService("g3", GD, broker.url("table-g3"), tmp_path / "g3.db", clock=lambda: start,
                           trust_senders=True).start()
    late: dict = {}

    def hook(n: int, name: str, payload: dict) -> None:
        state = sim.watch.state
        if not late and name == "observed" and state["trick"] >= 4 and payload["seat"] == state["turn"]:
            payload["at"] = sim._at = round(state["at"] + state["clocks"][state["turn"]]["left"] + 1.0, 3)
            late.update(payload)

    following = type("Following", (simulator_class(GD),), {"follows_table": True})
    sim = following("g3", GD, broker.url(CONSOLE), camera=broker.url("camera-g3"), board=broker.url("board-g3"),
                    console=broker.url(CONSOLE), hands=1, seed=3, slow_chance=0.0, unsure_chance=0.0, before_send=hook)
    try:
        summary = sim.run()
    finally:
        service.stop()
        watch.conn.close(flush_timeout=0)
    assert summary.hands == 1 and late
    seat = late["seat"]
    events = watch.of("events")
    flag = next(e for e in events if e["kind"] == "flag_raised")
    given_up = next(e for e in events if e["kind"] == "passed" and e["data"].get("forfeit"))
    assert (flag["data"]["seat"], flag["data"]["kind"], flag["data"]["cards"], given_up["data"]["seat"]) == (
        seat, "out_of_turn", late["cards"], seat)
    assert [e["data"]["how"] for e in events if e["kind"] == "flag_resolved"] == ["confirm"]
    assert any(e["kind"] == "passed" and e["data"] == {**e["data"], "seat": seat, "sat_out": True} for e in events)
    assert [v["kind"] for v in watch.of("violations") if v["status"] == "confirmed"] == ["overtime", "out_of_turn"]
    after = [c for e in events if e["kind"] == "play_accepted" and e["data"]["seat"] == seat and e["seq"] > flag["seq"]
             for c in e["data"]["cards"]]
    last = [s for s in watch.of("state") if s["hand"] == 1][-1]
    assert not Counter(late["cards"]) - Counter(after) or last["cards"][seat] >= len(late["cards"])  # played later, or held


def test_kill_9_mid_guandan_hand_restarts_to_the_same_state(broker, tmp_path, table_watch, service_process):
    watch = table_watch("g2", broker, WAIT_S)
    service = service_process(broker, "g2", GD, tmp_path / "g2.db", tmp_path / "service.log", WAIT_S, trust_senders=True)
    service.start()
    done = {}

    def hook(n: int, name: str, payload: dict) -> None:
        if n == 40:  # mid-hand, between two inputs: the restarted service publishes the same state
            before = watch.wait("state", lambda s: s["seq"] == n - 1)
            assert before["phase"] == "playing" and 0 < sum(before["cards"].values()) < 108
            count = len(watch.of("state"))
            service.kill()
            watch.wait("status", lambda s: s["status"] == "offline")
            service.start()
            after = watch.wait("state", lambda s: len(watch.of("state")) > count)
            done["equal"] = after == before

    try:
        watch.wait("status", lambda s: s["status"] == "online")
        assert simulator_class(GD).__name__ == "GuandanSimulator" and simulator_class("classic-3deck") is Simulator
        sim = simulator_class(GD)("g2", GD, broker.url(CONSOLE), camera=broker.url("camera-g2"),
                                  board=broker.url("board-g2"), hands=1, seed=9, wait_s=20.0, before_send=hook)
        summary = sim.run()
        assert done == {"equal": True} and summary.hands == 1
        with EventLog.open(tmp_path / "g2.db") as log:
            assert [e.seq for e in log.entries()] == list(range(1, summary.inputs + 1))
        final = watch.wait("state", lambda s: s["seq"] == summary.inputs)
        assert final["hand"] == 2 and final["phase"] == "dealing"
    finally:
        if service.proc and service.proc.poll() is None:
            service.proc.send_signal(signal.SIGTERM)
            service.proc.wait(WAIT_S)
        watch.conn.close(flush_timeout=0)


def test_players_following_the_table_take_each_event_once_when_a_restart_publishes_it_again(
        broker, tmp_path, table_watch, service_process):
    """kill -9 before the service wrote down how far its outputs reached the broker: the restarted service
    publishes the events of the last entries again (at least once, the same seq and payload; bus/PROTOCOL.md). The
    players that follow the table (the hall's) take each once. Before, they took the last plays twice: in the soak a
    San Da Yi table's players stopped (sandayi.not_on_turn) after a kill_service, and the hall began the round again."""
    watch = table_watch("s2", broker, WAIT_S)
    db = tmp_path / "s2.db"
    service = service_process(broker, "s2", SDY, db, tmp_path / "service.log", WAIT_S, trust_senders=True)
    service.start()
    done: dict = {}

    def hook(n: int, name: str, payload: dict) -> None:
        plays = [e for e in watch.of("events") if e["kind"] == "play_accepted"]
        if done or len(plays) < 6:
            return
        service.kill()
        with EventLog.open(db) as log:  # what a kill before the outputs were noted as acknowledged leaves
            log.set_meta({"outputs_acked": str(plays[-3]["seq"] - 1)})
        count = len(watch.of("events"))
        service.start()
        watch.wait("events", lambda e: plays[-1] in watch.of("events")[count:])
        done["again"] = True

    following = type("Following", (simulator_class(SDY),), {"follows_table": True})
    try:
        watch.wait("status", lambda s: s["status"] == "online")
        sim = following("s2", SDY, broker.url(CONSOLE), camera=broker.url("camera-s2"), board=broker.url("board-s2"),
                        console=broker.url(CONSOLE), hands=1, seed=5, wait_s=20.0, before_send=hook)
        summary = sim.run()
        assert done == {"again": True} and summary.hands == 1
        kinds = Counter((e["seq"], e["kind"], repr(e["data"])) for e in sim.watch.events)
        assert max(kinds.values()) == 1  # each taken once, though three plays' events came twice
    finally:
        service.reap()
        watch.conn.close(flush_timeout=0)
