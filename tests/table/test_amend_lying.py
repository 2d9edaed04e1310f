"""An amendment of a play a person confirmed from cards lying on the table (``laid_out_of_turn``, ``laid_taken_back``):
the flag was raised by the play before it, another seat's, so an amendment sent to the entry that raised the flag
changed that seat's play instead (``amend.as_amended``); the confirm holds the play it confirmed and plays the amended
cards. Checked on the real service too, killed with SIGKILL just after the flag was raised and started again."""

import time
import uuid

from test_laid_out_of_turn import _flag, _shown_early

from bus.protocol import encode, topic
from referee.table.amend import as_amended
from referee.table.tables import new_table

TABLES = ["k1"]
WAIT_S = 30.0


def rebuilt(d):
    """The table as the service rebuilds it for an amendment: the driver's log replayed as amended."""
    t, plays = new_table("t1", d.log[0][1].get("rulebook", "classic-3deck")), []
    for kind, payload, at, seq in as_amended(d.log):
        t, out = t.apply(kind, payload, at, seq)
        plays += [(o.payload["seq"], o.payload["data"]["seat"], o.payload["data"]["cards"]) for o in out
                  if o.name == "events" and o.payload["kind"] == "play_accepted"]
    return t, plays


def test_an_amended_play_confirmed_from_cards_laid_out_of_turn_is_that_seats_play_not_the_one_before():
    """001 二十二: 凡不按规定的出牌顺序，过早地将牌亮在桌上…越序出牌. N's S4, shown before E, is asked at N's turn (the flag
    raised by E's play, f13) and confirmed; the referee then amends N's play (the confirm's seq) to S6. Before, E's S5 became
    S6 and N's S4 stood."""
    d = _shown_early()
    d.send("observed", {"seat": "E", "cards": ["S5"], "confidence": 0.99})
    e_seq, ask = d.seq, _flag(d, "laid_out_of_turn")
    assert ask.flag == f"f{e_seq}"
    d.send("commands", {"command": "confirm", "flag": ask.flag})
    told = d.payloads("events", "play_accepted")[-1]
    d.send("commands", {"command": "amend", "entry": told["seq"], "cards": ["S6"]})
    table, plays = rebuilt(d)
    assert plays[-2:] == [(e_seq, "E", ["S5"]), (told["seq"], "N", ["S6"])] and not table.flags


def test_killed_just_after_a_throw_is_taken_back_the_restarted_service_asks_the_same_and_amends_the_same(
        broker, connect, tmp_path, table_watch, service_process):
    """``cardtable table run`` killed with SIGKILL right after the play that took a throw back and asked E about its
    follow (001 十九: 甩牌不成立): started again it shows the same table (the same flag, clocks paused, the follows lying),
    publishes nothing new of its own (what it publishes again is the same events, same seq and payload: at least once),
    asks nothing twice, and a correction and an amendment after it judge as they would have."""
    db = tmp_path / "k1.db"
    watch = table_watch("k1", broker, WAIT_S)
    service = service_process(broker, "k1", "classic-3deck", db, tmp_path / "service.log", WAIT_S, trust_senders=True)
    conns = {"commands": connect("console"), "observed": connect("camera-k1"), "board/in": connect("board-k1")}
    at, seq = [time.time()], [0]

    def send(name, payload):
        at[0] += 1.0 if name != "board/in" or payload.get("button") != "ready" else 6.0
        payload = {"v": 1, "id": f"x-{uuid.uuid4().hex[:10]}", **payload} | ({} if name == "commands" else {"at": at[0]})
        conns[name].publish(topic("k1", name), encode(name, payload))
        seq[0] += 1
        return watch.state(seq[0])

    try:
        service.start()
        watch.wait("status", lambda s: s["status"] == "online")
        send("commands", {"command": "assign", "rulebook": "classic-3deck", "players": {s: s * 2 for s in "SENW"}})
        send("commands", {"command": "start_round"})
        for s in "SENW":
            send("board/in", {"seat": s, "button": "ready"})
        send("observed", {"seat": "S", "cards": ["H2"], "confidence": 0.99})
        send("board/in", {"seat": "E", "button": "declare"})
        send("board/in", {"seat": "S", "button": "ready"})
        for s, cards in (("S", ["SA", "SK"]), ("E", ["S3", "S4"]), ("N", ["S5", "S6"])):
            send("observed", {"seat": s, "cards": cards, "confidence": 0.99})
        before = send("observed", {"seat": "W", "cards": ["SA", "S7"], "confidence": 0.99})
        service.kill()  # at once: its outputs may not be noted as acknowledged (published again)
        (ask,) = before["flags"]
        assert (ask["kind"], ask["seat"], before["paused"], before["turn"]) == ("laid_taken_back", "E", True, "E")
        told = {(e["seq"], e["kind"]): e for e in watch.of("events")}
        count = len(watch.of("state"))
        service.start()
        after = watch.wait("state", lambda s: len(watch.of("state")) > count)
        assert after == before
        again = [e for e in watch.of("events") if e["seq"] == seq[0]]
        assert all(told.get((e["seq"], e["kind"])) == e for e in watch.of("events"))  # the same events, if any again
        assert [e["data"]["flag"] for e in again if e["kind"] == "flag_raised"] in ([], [ask["flag"]] * (len(again) // 4 + 1))
        send("commands", {"command": "correct", "flag": ask["flag"], "cards": ["S3"]})
        n_ask = watch.state(seq[0])["flags"][0]
        assert (n_ask["kind"], n_ask["seat"]) == ("laid_taken_back", "N")
        e_told = watch.wait("events", lambda e: e["kind"] == "play_accepted" and e["data"]["seat"] == "E" and e["seq"] == seq[0])
        amended = send("commands", {"command": "amend", "entry": e_told["seq"], "cards": ["S9"]})
        plays = {p["seat"]: p["cards"] for p in amended["current_trick"]["plays"]}
        assert plays == {"S": ["SK"], "E": ["S9"]} and amended["flags"][0]["flag"] == n_ask["flag"]
        service.kill()
        count = len(watch.of("state"))
        service.start()
        assert watch.wait("state", lambda s: len(watch.of("state")) > count) == amended
        assert service.stop() == 0
    finally:
        service.reap()
        watch.close()


def test_an_amendment_naming_the_confirm_of_a_flag_that_played_nothing_is_refused_in_words():
    """001 二十二: 凡不按规定的出牌顺序，过早地将牌亮在桌上…越序出牌. N's S4 confirmed out of turn is no play (its cards lie
    there, asked at N's turn): an amendment naming that confirm is refused (table.not_a_play) and changes nothing, as one
    naming any entry that is no play. Before, it was accepted (``amended``) and changed nothing."""
    d = _shown_early()
    confirm = d.seq
    d.send("commands", {"command": "amend", "entry": confirm, "cards": ["S6"]})
    rows = list(as_amended(d.log))
    t = new_table("t1", "classic-3deck")
    for row in rows[:-1]:
        t, _ = t.apply(*row)
    after, out = t.apply(*rows[-1])
    assert [(o.payload["kind"], o.payload["data"].get("why")) for o in out if o.name == "events"] == [
        ("rejected", {"key": "table.not_a_play", "values": {"entry": confirm}})]
    assert after.state(d.at) | {"seq": t.seq} == t.state(d.at) and after.lying == t.lying != ()  # N's S4 lies there
