"""A flag is named by the log entry that raised it, so that a table rebuilt from its log for an amendment finds the
console's ``confirm`` and ``dismiss`` naming the same flags (with a running count, an amendment that changed how many
flags came first renumbered the rest: a stale ``dismiss`` found none and the rebuilt table waited for ever, a stale
``confirm`` landed on a penalty no person saw); and an amendment may name a flagged play by the seq its
``play_accepted`` was told at (the referee's ``confirm``)."""

from climbing_kit import GD, Table_

from referee.table.amend import as_amended
from referee.table.tables import new_table


def rebuilt(d: Table_):
    """A fresh table given the driver's log as amended, as the service rebuilds it for an amendment."""
    t, out = new_table("t1", GD), []
    for kind, payload, at, seq in as_amended(d.log):
        t, o = t.apply(kind, payload, at, seq)
        out += o
    return t, [o.payload for o in out if o.name == "events"]


def test_flags_are_named_by_their_entry_and_a_rebuilt_table_resolves_the_same_ones():
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    d.show("E", ["S5"], confidence=0.6)  # unsure: flagged by this entry
    flag = d.state()["flags"][0]["flag"]
    assert flag == f"f{d.seq}"
    d.send("commands", {"command": "confirm", "flag": flag})
    told = d.events("play_accepted")[-1]
    assert told["data"]["cards"] == ["S5"] and told["seq"] == d.seq  # told at the confirm's seq
    d.show("N", ["S7"])
    d.show("W", ["S9"], confidence=0.6)
    d.send("commands", {"command": "dismiss", "flag": d.state()["flags"][0]["flag"]})
    d.show("W", ["S9"])
    # The referee amends E's play, naming the seq its play_accepted was told at: the confirm plays the amended cards
    d.send("commands", {"command": "amend", "entry": told["seq"], "cards": ["S6"]})
    assert d.events("amended")[-1]["data"]["entry"] == told["seq"]
    table, events = rebuilt(d)
    rejected = [e["data"]["reason"] for e in events if e["kind"] == "rejected"]
    assert not table.flags and rejected == []  # the same flag raised again, confirmed by the same command
    assert [e["seq"] for e in events if e["kind"] == "play_accepted" and e["data"]["seat"] == "E"] == [told["seq"]]
    plays = [(e["data"]["seat"], e["data"]["cards"]) for e in events if e["kind"] == "play_accepted"]
    assert plays == [("S", ["S3"]), ("E", ["S6"]), ("N", ["S7"]), ("W", ["S9"])]


def test_an_amendment_that_adds_a_flag_before_them_leaves_the_later_commands_on_their_own_flags():
    """E's play amended into more cards than a play (暴露张 when it is not E's turn? here: a play the rules refuse):
    the rebuilt table raises a flag where none was, and N's later unsure read keeps its own id: the console's
    ``confirm`` of N's read confirms N's read, not the new flag's penalty."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S7", "C7"])
    d.show("E", ["S9", "C9"])
    e_entry = d.seq
    d.show("N", ["SQ", "CQ"], confidence=0.6)
    n_flag = d.state()["flags"][0]["flag"]
    d.send("commands", {"command": "confirm", "flag": n_flag})
    d.send("commands", {"command": "amend", "entry": e_entry, "cards": ["S3", "C3"]})  # E's pair does not beat S's
    table, events = rebuilt(d)
    impossible = [f for f in table.flags if f.kind == "impossible"]
    assert [f.flag for f in impossible] == [f"f{e_entry}"] and n_flag != f"f{e_entry}"
    assert not [e for e in events if e["kind"] == "flag_resolved" and e["data"]["flag"] == f"f{e_entry}"]


def test_a_flag_with_no_play_cannot_be_corrected_and_its_violation_stands_open():
    """An out-of-turn flag holds no play: ``correct`` dismissed its violation in passing, as if a person had said it was
    wrong. Refused in words now; the flag waits for a confirm or a dismiss."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    d.show("N", ["S5"])  # before E
    flag = d.state()["flags"][0]["flag"]
    out = d.send("commands", {"command": "correct", "flag": flag, "cards": ["S6"]})
    assert out[0].payload["kind"] == "rejected" and out[0].payload["data"]["why"]["key"] == "table.nothing_to_correct"
    assert d.state()["flags"][0]["flag"] == flag and [v["status"] for v in d.violations("out_of_turn")] == ["flagged"]
