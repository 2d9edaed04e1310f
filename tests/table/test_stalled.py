"""A turn long past its time with no play seen is shown to a person (``stalled``): the camera may have missed a card it
cannot read, and the table waited silently for ever (the demo's t05: a follower's clock at 0 for five minutes, no flag,
no violation, nothing on the console). Decided, no seed says it: no penalty on a guess, the referee looks. A play the
referee enters for it is not timed (nobody saw when it came); a seat still thinking is dismissed, and its overrun is
ruled when its play comes, as the book says (001 二十三: 如超过，召裁判，第一次警告，以后每次扣20分)."""

from climbing_kit import SDY, Table_

from referee.table.reducer import STALLED_S, UNTIMED_STALL_S
from referee.table.scenario import _Drive
from referee.table.tables import new_table


def _east_to_follow(book: str = "classic-3deck") -> _Drive:
    d = _Drive(new_table("t1", book), "tractor", 3)
    d.send("commands", {"command": "start_round"}, 0.0)
    for s in "SENW":
        d.do_ready(0.0, s)
    d.do_draw(10.0)
    d.do_kitty(16.0)
    d.do_play(20.0)  # the dealer leads; the next seat follows on a 10 s clock (001 二十三: 跟牌…不超过10秒钟)
    return d


def _kinds(d: _Drive, name: str, since: float) -> list[str]:
    return [o.payload["kind"] for o in d.outputs if o.name == name and o.payload["at"] >= since]


def test_a_follower_long_past_its_time_is_flagged_and_the_play_the_referee_enters_is_not_timed():
    d = _east_to_follow()
    seat = d.table.clock.seat
    deadline = d.table.next_deadline(after=30.0)
    assert deadline == 20.0 + 10.0 + STALLED_S  # the service logs a clock entry then: the table rules by itself
    d.do_wait(deadline - 0.5)
    assert not d.table.flags
    d.do_wait(deadline + 0.25)
    (flag,) = d.table.flags
    assert (flag.kind, flag.seat, flag.cards, flag.violation) == ("stalled", seat, (), None) and d.table.on_hold
    assert not d.table.clock.running
    d.send("board/in", {"seat": seat, "button": "confirm"}, deadline + 1.0)  # the seat cannot answer it: a referee looks
    assert d.table.flags == (flag,)
    d.do_wait(deadline + 600.0)  # nothing more while it waits: one flag a turn
    assert len(d.table.flags) == 1
    cards = d.tractor_play(d.table, seat)
    d.send("commands", {"command": "correct", "flag": flag.flag, "cards": cards.names()}, deadline + 601.0)
    accepted = [o.payload["data"] for o in d.outputs if o.name == "events" and o.payload["kind"] == "play_accepted"]
    assert (accepted[-1]["seat"], accepted[-1]["cards"]) == (seat, cards.names())
    assert "overtime" not in _kinds(d, "violations", 0.0) and d.table.clock.seat != seat and d.table.clock.running


def test_a_seat_still_thinking_is_dismissed_and_its_overrun_ruled_when_it_plays():
    d = _east_to_follow()
    seat = d.table.clock.seat
    d.do_wait(20.0 + 10.0 + STALLED_S + 1.0)
    (flag,) = d.table.flags
    d.send("commands", {"command": "dismiss", "flag": flag.flag}, 200.0)
    assert not d.table.flags and d.table.clock.running
    assert d.table.next_deadline(after=200.0) == 5400.0 - 600.0  # the round's notice (001 三): no stall again this turn
    d.do_play(210.0, seat)
    overtime = [o.payload for o in d.outputs if o.name == "violations" and o.payload["kind"] == "overtime"]
    assert [(v["seat"], v["penalty"]["warning"]) for v in overtime] == [(seat, True)]  # 第一次警告
    assert overtime[0]["evidence"]["seconds"] == 10.0 + STALLED_S + 1.0 + 10.0  # the time the flag held is not counted


def test_a_book_that_times_nothing_asks_a_person_after_two_minutes():
    """Seed 004 sets no time per play (usst-2016): a missed card there left the table waiting with no clock at all."""
    d = Table_(SDY)
    d.start()
    d.press("S", "bid3")
    d.press("S", "ready")  # S takes the kitty and leads, untimed
    assert d.table.next_deadline() == d.at + UNTIMED_STALL_S
    d.send("clock", {}, dt=UNTIMED_STALL_S + 0.5)
    assert [(f["kind"], f["seat"]) for f in d.state()["flags"]] == [("stalled", "S")]
    assert "S" in d.state()["flags"][0]["text"] and not d.violations()


def test_a_play_the_referee_entered_for_a_stalled_turn_can_be_amended():
    """A dispute over the play a referee entered: ``amend`` names its ``play_accepted`` (the ``correct``'s seq) and the
    rebuilt table plays the amended cards. The ``stalled`` flag holds no read (it was raised by whatever entry came
    next: a ``clock`` entry, another seat's read), so the amendment is of the cards the referee entered."""
    from referee.table.amend import as_amended

    d = Table_(SDY)
    d.start()
    d.press("S", "bid3")
    d.press("S", "ready")
    d.send("clock", {}, dt=UNTIMED_STALL_S + 0.5)  # the flag is raised by this clock entry
    (flag,) = d.state()["flags"]
    d.send("commands", {"command": "correct", "flag": flag["flag"], "cards": ["S3"]})
    told = d.events("play_accepted")[-1]
    assert told["data"]["cards"] == ["S3"] and told["seq"] == d.seq
    d.send("commands", {"command": "amend", "entry": told["seq"], "cards": ["S4"]})
    table, plays = new_table("t1", SDY), []
    for kind, payload, at, seq in as_amended(d.log):
        table, out = table.apply(kind, payload, at, seq)
        plays += [o.payload["data"]["cards"] for o in out if o.name == "events" and o.payload["kind"] == "play_accepted"]
    assert plays == [["S4"]] and not table.flags
