"""The judge's clock op on a San Da Yi table, where seed 004 sets no time for a bid or the kitty.

附件一 二 叫分: 首先叫牌者开始叫分，且最少叫1分，其他选手可选择叫“2分”、“3分”或者“不叫” — and nothing in the seed
limits how long a bid may take. The table watches a long wait with an ``idle`` flag (decided: a person looks, nobody is
penalised) that the awaited act answers. The op answered a bid that came at or after that mark as refused ("the table
did not take it: it raised a flag"), though the table took it: the flag raised by the time passing and answered by the
bid in the same step is no refusal."""

from __future__ import annotations

from referee.table.scenario import clock_case

FOUR = [[0, "ready", s] for s in "SENW"]


def test_a_bid_at_or_after_the_idle_mark_is_taken_and_the_flag_listed():
    for t in (130, 131, 5000):
        answer = clock_case({"game": "sandayi", "rulebook": "usst-2016", "inputs": FOUR + [[10, "bid", "S", 1], [t, "bid", "E", 2]]})
        assert answer["rulings"] == [{"t": float(t), "event": "flag_raised", "seat": "E", "kind": "idle"}]
        assert (answer["phase"], answer["turn"]) == ("bidding", "N")  # E's 2 stands: N bids next


def test_the_kitty_after_a_long_bidding_pause_is_taken():
    """二 发牌: 决定庄家后，8张底牌发给庄家 — untimed too: the dealer takes it after 190 s, and leads."""
    answer = clock_case({"game": "sandayi", "rulebook": "usst-2016", "inputs": FOUR + [[10, "bid", "S", 3], [200, "kitty"]]})
    assert answer["rulings"] == [{"t": 200.0, "event": "flag_raised", "seat": "S", "kind": "idle"}]
    assert (answer["phase"], answer["turn"]) == ("playing", "S")


def test_a_flag_the_input_leaves_open_still_refuses_it():
    """A lead 289 s after the kitty: the table holds it for the referee (``stalled``), and the op says so."""
    case = {"game": "sandayi", "rulebook": "usst-2016", "inputs": FOUR + [[10, "bid", "S", 3], [11, "kitty"], [300, "play"]]}
    try:
        clock_case(case)
    except Exception as exc:  # ScenarioError, in words
        assert "flag" in str(exc)
    else:
        raise AssertionError("a play held for the referee was answered as taken")
