"""A seat the table waits on where no shot clock runs is watched as a turn is (``idle``): a dealer who never takes the
kitty, a bidder, a payer of tribute left the table silent for ever while it looked healthy, since the ``stalled``
flag watched only a running shot clock. Decided, no seed says it: no penalty, a person looks; the act awaited answers
the flag. Under 001 the bound is the book's own: the dealer's 5 s pause and the kitty's 60 s (八〈4〉 当庄家示意摸牌结束，
应停顿5秒钟才能拿底牌; 二十三 庄家留底牌和首引不得超过60秒钟), then :data:`STALLED_S` as for any timed turn; the 60 s itself
still starts when the kitty is taken. Elsewhere the act is untimed: :data:`UNTIMED_STALL_S` from the wait's start."""

import pytest
from climbing_kit import GD, SDY, Table_

from referee.catalogue.sentences import Sentences
from referee.table.reducer import STALLED_S, UNTIMED_STALL_S
from referee.table.scenario import _Drive
from referee.table.tables import new_table

TRACTOR_BOUNDS = {"classic-3deck": 5 + 60 + STALLED_S, "zhongkai-2010": UNTIMED_STALL_S, "shaoguan-2023": UNTIMED_STALL_S,
                  "shaoguan-2023-nokitty": UNTIMED_STALL_S}


def _drawn(book: str) -> _Drive:
    d = _Drive(new_table("t1", book), "tractor", 3)
    d.send("commands", {"command": "start_round"}, 0.0)
    for s in "SENW":
        d.do_ready(0.0, s)
    d.do_draw(10.0)
    return d


def _events(d: _Drive, kind: str) -> list[dict]:
    return [o.payload for o in d.outputs if o.name == "events" and o.payload["kind"] == kind]


@pytest.mark.parametrize("book", sorted(TRACTOR_BOUNDS))
def test_a_dealer_who_does_not_take_the_kitty_is_flagged_for_a_person_and_taking_it_answers(book):
    """001 八〈4〉: 当庄家示意摸牌结束，应停顿5秒钟才能拿底牌; 001 二十三: 庄家留底牌和首引不得超过60秒钟 -- the dealer's wait
    for the kitty was timed by nothing: a dealer who never took it left every Tractor table silent."""
    d = _drawn(book)
    dealer = d.table._dealer_to_be()
    due = 10.0 + TRACTOR_BOUNDS[book]
    assert d.table.next_deadline(after=10.0) == due  # the service logs a clock entry then: the table asks by itself
    d.do_wait(due - 0.1)
    assert not d.table.flags
    d.do_wait(due)
    (flag,) = d.table.flags
    assert (flag.kind, flag.seat, flag.violation, flag.pending) == ("idle", dealer, None, None) and d.table.on_hold
    for lang, ask in (("zh", "：请裁判到场查看（不罚）"), ("en", ": a referee should look (no penalty)")):  # said with its why
        assert Sentences(lang).flag(flag.json()).startswith(Sentences(lang).reason(flag.why) + ask)
    assert not [o for o in d.outputs if o.name == "violations"]  # never a penalty from it
    d.send("board/in", {"seat": dealer, "button": "confirm"}, due + 1.0)  # the seat cannot answer it: a referee looks
    assert d.table.flags == (flag,)
    d.do_wait(due + 900.0)
    assert len(d.table.flags) == 1  # one flag a wait
    d.do_kitty(due + 901.0)  # the act awaited answers it
    assert not d.table.flags and _events(d, "flag_resolved")[-1]["data"] == {"flag": flag.flag, "how": "dismiss"}
    assert d.table.phase == "kitty" and d.table.watch is None


def test_the_kitty_clock_still_starts_when_the_kitty_is_taken():
    """001 二十三: 庄家留底牌和首引不得超过60秒钟 -- the watch adds no clock: a dealer who takes the kitty 100 s after the
    draw (no flag yet) still has its whole 60 s for the kitty and first lead (clock-c-kitty-first-lead-60-in-time)."""
    d = _drawn("classic-3deck")
    d.do_kitty(110.0)
    assert not d.table.flags and d.table.clock.left(110.0) == 60.0
    d.do_play(170.0)
    assert not [o for o in d.outputs if o.name == "violations"] and not d.table.flags


def test_a_dealer_who_does_not_turn_up_the_kitty_is_flagged():
    """001 六: 直至最后留底 6 张 -- the hand played out, the dealer turns up its kitty; nothing timed that wait."""
    d = _drawn("classic-3deck")
    d.do_kitty(16.0)
    while d.table.phase in ("kitty", "playing"):
        d.do_play(20.0)
    assert d.table.phase == "hand_over" and not d.table.flags
    d.do_wait(20.0 + UNTIMED_STALL_S)
    (flag,) = d.table.flags
    assert (flag.kind, flag.seat) == ("idle", d.table.dealer)
    d.show(d.table.dealer, d.kitty, 20.0 + UNTIMED_STALL_S + 5)
    assert _events(d, "hand_scored") and not d.table.flags


def test_a_bidder_and_a_dealer_not_taking_the_kitty_are_flagged_under_san_da_yi():
    """004 二 叫分: 每人只能叫一次分 -- the seed sets no clock: each bidder's wait, and the dealer's for the kitty, are watched
    as its untimed turns are (UNTIMED_STALL_S); a bid answers the flag."""
    d = Table_(SDY, at=0.0)
    d.start()
    first = d.state()["turn"]
    d.send("clock", {}, dt=UNTIMED_STALL_S - 0.5)
    assert not d.table.flags
    d.send("clock", {}, dt=0.5)
    (flag,) = d.table.flags
    assert (flag.kind, flag.seat) == ("idle", first)
    d.press(first, "bid3", dt=30.0)  # 3: the dealer at once
    assert not d.table.flags and d.table.phase == "kitty" and d.state()["turn"] == first
    d.send("clock", {}, dt=UNTIMED_STALL_S)
    assert [(f.kind, f.seat) for f in d.table.flags] == [("idle", first)]
    d.press(first, "ready")
    assert not d.table.flags and d.table.phase == "playing"


def test_a_payer_of_tribute_and_a_receiver_past_its_return_are_flagged_under_guandan():
    """002 十二 第3条: 贡牌后，还牌人必须在20秒内还牌，否则记犯规1次 -- the tribute has no clock, and the return card's rules
    once (one foul, the card still due): both waits are watched, the return STALLED_S past its 20 s."""
    d = _Drive(new_table("t1", GD), "guandan", 1)
    d.send("commands", {"command": "start_round"}, 0.0)
    for s in "SENW":
        d.do_ready(0.0, s)
    d.do_draw(2.0, "S")
    d.do_play_out(3.0)
    d.do_draw(10.0)
    payer = d.table.turn()
    assert d.table.tribute is not None and not d.table.returns and d.table.clock is None
    assert d.table.next_deadline(after=10.0) == 10.0 + UNTIMED_STALL_S
    d.do_wait(10.0 + UNTIMED_STALL_S)
    assert [(f.kind, f.seat) for f in d.table.flags] == [("idle", payer)]
    d.do_tribute(200.0)  # paying answers it; the return clocks start
    assert not d.table.flags and d.table.returns
    receiver = d.table.turn()
    d.do_wait(200.0 + 20.0 + STALLED_S)
    fouls = [o.payload["seat"] for o in d.outputs if o.name == "violations" and o.payload["kind"] == "overtime"]
    assert receiver in fouls and [(f.kind, f.seat) for f in d.table.flags] == [("idle", receiver)]
    d.do_return(300.0)
    assert not d.table.flags and d.table.phase == "playing"
