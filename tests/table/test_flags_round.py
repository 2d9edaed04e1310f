"""A flag open when a round ends is closed with it: dismissed, said (``round_ended``), its play never applied. It
outlived the round: the next round started paused, every play of it was refused until someone resolved the old
flag, and confirming it played the old round's read into the new hand."""

from climbing_kit import GD, Table_

from referee.catalogue.sentences import Sentences


def test_a_flag_open_at_stop_round_is_dismissed_and_the_next_round_starts_clear():
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["HA"], confidence=0.6)  # unsure: flagged
    (flag,) = d.state()["flags"]
    d.send("commands", {"command": "stop_round"})
    closed = d.events("flag_resolved")[-1]["data"]
    assert closed == {"flag": flag["flag"], "how": "dismiss", "round_ended": True} and not d.state()["flags"]
    d.send("commands", {"command": "start_round"})
    for seat in "SENW":
        d.press(seat, "ready")
    d.press("S", "ready")
    assert not d.state()["paused"]
    d.show("S", ["D4"])
    assert d.events("play_accepted")[-1]["data"]["cards"] == ["D4"]  # round 2's own lead, not round 1's HA


def test_a_flagged_violation_open_when_the_round_is_lost_is_dismissed_with_it():
    """A side's third foul ends the round (十 第3条) with an out-of-turn flag open: the flag's violation is dismissed,
    its penalty never counted."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    d.show("N", ["S5"])  # before E: flagged, penalty foul
    assert d.violations()[-1]["status"] == "flagged"
    for seat in ("E", "W", "E"):
        d.send("commands", {"command": "foul", "seat": seat, "kind": "signalling"})
    assert d.table.phase == "round_over" and not d.state()["flags"]
    out_of_turn = [v for v in d.violations() if v["kind"] == "out_of_turn"]
    assert [v["status"] for v in out_of_turn] == ["flagged", "dismissed"]
    assert [e["data"]["team"] for e in d.events("foul_counted")] == ["EW", "EW", "EW"]  # N's never counted



def test_plays_made_while_the_referee_walks_over_are_judged_once_the_flag_is_resolved():
    """The table refused every read while a flag was open, and a camera sends a play once: N's card lay on the table
    and, the flag resolved, N's clock gave its turn up with a confirmed overtime. Now the reads wait (``play_waits``)
    and are judged in the order they came once the referee resolved the flag."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    d.show("E", ["S5"], confidence=0.6)  # unsure: flagged, the clocks wait
    d.show("N", ["S7"])  # played on meanwhile
    d.show("W", ["S9"])
    assert [e["data"]["seat"] for e in d.events("play_waits")] == ["N", "W"] and not d.events("rejected")
    flag = d.state()["flags"][0]["flag"]
    d.send("commands", {"command": "confirm", "flag": flag}, dt=40.0)  # the referee took 40 s to come
    plays = [(e["data"]["seat"], e["data"]["cards"]) for e in d.events("play_accepted")]
    assert plays == [("S", ["S3"]), ("E", ["S5"]), ("N", ["S7"]), ("W", ["S9"])]
    assert not d.violations("overtime") and d.state()["turn"] == "S"
    said = Sentences("zh", "guandan").event(d.events("play_waits")[0])
    assert "等裁判处理完标记后再判" in said


def test_a_waiting_read_that_raises_a_flag_holds_the_rest_behind_it():
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    d.show("E", ["S5"], confidence=0.6)
    d.show("N", ["S7"], confidence=0.6)  # unsure too: waits, then raises its own flag
    d.show("W", ["S9"])
    d.send("commands", {"command": "confirm", "flag": d.state()["flags"][0]["flag"]})
    (second,) = d.state()["flags"]
    assert second["seat"] == "N" and [e["data"]["seat"] for e in d.events("play_accepted")] == ["S", "E"]
    d.send("commands", {"command": "confirm", "flag": second["flag"]})
    assert [e["data"]["seat"] for e in d.events("play_accepted")] == ["S", "E", "N", "W"]
