"""A referee's amendment made after the round reaches the tournament, end to end against a real mosquitto: the table
service (on a log of a whole Tractor round: one hand played out at the round's notice, S/N up to 3) publishes what
the amendment changed (``rejudged``), and the tournament service corrects the result it recorded from the table's
``round_over``, by the table and with the reason; where the table's log no longer ends the game it withdraws the
result for the organiser to enter (the next round waits for it). Amended back, the result is the table's again.
"""

from __future__ import annotations

import itertools
import uuid

import pytest

from bus.protocol import encode, topic
from published import table_result
from rounds import END, RULEBOOK, amend, judged, round_rows, seated, write_log
from referee.table.service import TableService
from referee.tournament import Entry, TournamentError, TournamentStore
from referee.tournament.service import TournamentService

TABLES = ["t01", "t02"]
UNITS = {"a1": "机电", "b1": "外语", "c1": "化工", "d1": "体育"}


@pytest.fixture
def hall(broker, connect, inbox, tmp_path, table_watch):
    """``hall(table)``: the table's log of a whole round, a pair-swiss tournament with its first round paired, the
    tournament service, then the table service on that log (it publishes the round's events: the result is
    recorded); returns what the test needs."""
    made: list = []

    def make(table: str) -> dict:
        store = TournamentStore(tmp_path / f"tournament-{table}.db")
        store.new("pair-swiss", [Entry(e, e, u, u, (f"{e}甲", f"{e}乙")) for e, u in UNITS.items()], seed=1,
                  options={"rounds": 2, "team_pairs": 1}, id="zk2010")  # four one-pair units
        store.pair_next_round()
        rows = round_rows(table, seated(store, table))  # the round's two pairs at the table
        db = tmp_path / f"{table}.db"
        write_log(db, table, rows)
        box = inbox()
        reader = connect("scoreboard-2", clean_start=True)  # the watch below is the scoreboard
        reader.subscribe("cardtable/v1/tournament/#", box)
        assert reader.wait_subscribed(30)
        tournament = TournamentService(store, broker.url("tournament"), client_id=f"tournament-{uuid.uuid4().hex[:6]}",
                                       poll_s=0.05).start()
        watch = table_watch(table, broker)
        service = TableService(table, RULEBOOK, broker.url(f"table-{table}"), db, clock=lambda: END + 60,
                               trust_senders=True).start()
        made.append((service, tournament, watch, store))
        console = connect("console")
        return {"rows": rows, "store": store, "box": box, "watch": watch, "service": service,
                "send": lambda entry, cards: console.publish(topic(table, "commands"), encode("commands", {
                    "v": 1, "id": f"k-{uuid.uuid4().hex[:8]}", "command": "amend", "entry": entry, "cards": cards}))}

    yield make
    for service, tournament, watch, store in made:
        service.stop()
        tournament.stop()
        watch.close()
        store.close()


def result(box, table: str, predicate, after: int = 0) -> dict | None:
    return table_result(box, "zk2010", table, predicate, after)


def test_an_amendment_after_the_round_corrects_the_recorded_result(hall):
    """Two of S's plays read the wrong way round (one card each, a trick apart): amended, the hand is judged again, S/N
    revoked (001 十八: 判自动下台) and do not go up; the tournament's result follows (a draw at equal levels, E/W's
    where they are higher), by the table, with the reason. Amended back, it is S/N's."""
    h = hall("t01")
    rows, store = h["rows"], h["store"]
    first = judged("t01", rows)
    assert [(r["kind"], r["levels"]) for r in first] == [("round_over", {"SN": "3", "EW": "2"})]
    assert result(h["box"], "t01", lambda r: r is not None)["points"] == [2, 0]  # S/N: the first entry
    # the first swap of two of one seat's single cards that keeps S/N from going up (the deal is seeded)
    plays = [r for r in rows if r[0] == "observed" and len(r[1]["cards"]) == 1]
    a, b = next((a, b) for a, b in itertools.combinations(plays, 2)
                if a[1]["seat"] == b[1]["seat"] and a[1]["cards"] != b[1]["cards"]
                and (now := judged("t01", amend(amend(rows, a[3], b[1]["cards"]), b[3], a[1]["cards"])))
                and now[0]["levels"]["SN"] < first[0]["levels"]["SN"])
    expected = judged("t01", amend(amend(rows, a[3], b[1]["cards"]), b[3], a[1]["cards"]))
    sn, ew = (expected[0]["levels"][side] for side in ("SN", "EW"))
    won = {"draw": True} if sn == ew else {"winner": 0 if sn > ew else 1}
    mark = len(h["box"].messages)
    h["send"](a[3], b[1]["cards"])
    h["send"](b[3], a[1]["cards"])
    h["watch"].wait("events", lambda e: e["kind"] == "rejudged" and e["data"]["now"] == expected)
    corrected = result(h["box"], "t01", lambda r: r is not None and r["points"] != [2, 0], mark)
    changes = [x for x in store.actions() if x["kind"] in ("correct", "retract")]
    assert changes and {x["by"] for x in changes} == {"table t01"}
    assert all(x["data"]["reason"].startswith("t01 桌第 ") for x in changes)
    last = changes[-1]
    assert last["kind"] == "correct" and {k: last["data"]["result"].get(k) for k in won} == won, last
    assert last["data"]["result"]["levels"] == [sn, ew]
    standings = {r["id"]: r["score"] for r in store.standings()["rows"]}
    second = store.round_view()["tables"][0]["entries"][1]["id"]
    assert standings[store.tournament.entry(second).team] == corrected["points"][1]
    # amended back (the console's undo): the result is the table's first judgement again
    mark = len(h["box"].messages)
    h["send"](b[3], b[1]["cards"])
    h["send"](a[3], a[1]["cards"])
    h["watch"].wait("events", lambda e: e["kind"] == "rejudged" and e["data"]["now"] == first)
    assert result(h["box"], "t01", lambda r: r is not None and r["points"] == [2, 0], mark)["points"] == [2, 0]
    assert [x["kind"] for x in store.actions()].count("game") == 1  # one game, corrected: never a second result


def test_a_game_the_log_no_longer_ends_is_withdrawn_for_the_organiser(hall):
    """The last play of the hand amended to cards S never held: the hand is not over in the table's log, so no round
    is: the tournament withdraws the table's result (by the table, saying why) and will not pair the next round
    before the organiser enters one. Amended back, the table's result stands again."""
    h = hall("t02")
    rows, store = h["rows"], h["store"]
    assert result(h["box"], "t02", lambda r: r is not None)["points"] == [2, 0]
    store.record_result(1, "t01", {"winner": 0, "levels": ["3", "2"]}, by="王老师")  # the round's other table
    last = [r for r in rows if r[0] == "observed"][-1]
    mark = len(h["box"].messages)
    h["send"](last[3], ["BJ"])
    event = h["watch"].wait("events", lambda e: e["kind"] == "rejudged")
    assert event["data"]["now"] == [] and [r["kind"] for r in event["data"]["was"]] == ["round_over"]
    assert result(h["box"], "t02", lambda r: r is None, mark) is None
    withdrawn = [x for x in store.actions() if x["kind"] == "retract"]
    assert len(withdrawn) == 1 and withdrawn[0]["by"] == "table t02" and "请组织者录入结果" in withdrawn[0]["data"]["reason"]
    with pytest.raises(TournamentError, match="t02"):
        store.pair_next_round()
    mark = len(h["box"].messages)
    h["send"](last[3], last[1]["cards"])
    h["watch"].wait("events", lambda e: e["kind"] == "rejudged" and e["data"]["was"] == [])
    assert result(h["box"], "t02", lambda r: r is not None, mark)["points"] == [2, 0]
    store.pair_next_round()  # the result is in again: round 2
