"""A revoking play cannot win its trick (the ``revoke`` penalty's ``cannot_win``).

Seed 003 (留底牌打法) 17: 在比赛过程中或该盘牌结束后发现对方没有按照规则出牌（如没有跟拖拉机，或没规则跟牌的），
按20分/张进行扣分，并且出错的牌只能跟出，不能作大牌计。
Seed 000 第十八条: 藏张一旦成立……同时该藏张方式自动降为最低最小级别牌种组合（以该藏张作为引牌时只能以单张方式出牌）。

The trick's points (and the last trick's kitty) go to the best of the other plays; the order of
play stays as it was played: whoever took the trick at the table led the next.
"""

from dataclasses import replace

import pytest

from referee.cards import Cards
from referee.judge import answer
from referee.tractor.hand import HandJudge, Ruling
from referee.tractor.trumps import Trumps
from referee.reasons import Reason


def C(s):
    return Cards.parse(s)


# S (dealer) leads SK; E, a defender, ruffs with the trump H3 while it still holds a spade (it leads
# S3 in trick 2, which proves the revoke); N and W follow spades. Trick 1 holds SK + S5 = 15 points.
RUFF_REVOKE = [
    [("S", "SK"), ("E", "H3"), ("N", "S4"), ("W", "S5")],
    [("E", "S3"), ("N", "S8"), ("W", "S9"), ("S", "S6")],
]


def case(rulebook, tricks, level="7", kitty=None):
    c = {"id": "cw", "game": "tractor", "op": "hand", "rulebook": rulebook, "level": level, "trump": "H", "dealer": "S",
         "tricks": [[[s, c.split()] for s, c in trick] for trick in tricks]}
    if kitty is not None:
        c["kitty"] = kitty.split()
    return c


def run(t, tricks):
    j = HandJudge.start(t, "S")
    for trick in tricks:
        for seat, cards in trick:
            j = j.play(seat, C(cards))
    return j


@pytest.mark.parametrize("rulebook", ["shaoguan-2023", "zhongkai-2010"])
def test_a_revoking_ruff_does_not_win_the_points_of_its_trick(rulebook):
    # 003 17: 出错的牌只能跟出，不能作大牌计; 000 第十八条: 该藏张方式自动降为最低最小级别牌种组合
    out = answer(case(rulebook, RUFF_REVOKE))["result"]
    assert out["revokes"] == [["E", 1]]
    assert out["defender_points"] == 0  # SK (S, the dealer) takes trick 1's 15 points, not E's H3


def test_the_book_without_the_sentence_keeps_the_ruff_winning():
    # 003 不留底牌打法 17 says only 按20分/张进行扣分: no 不能作大牌计, and its revoke has no cannot_win
    out = answer(case("shaoguan-2023-nokitty", RUFF_REVOKE))["result"]
    assert out["revokes"] == [["E", 1]] and out["defender_points"] == 15


def test_the_order_of_play_stays_as_played():
    # the revoke is proven in trick 2, which E led because its H3 took trick 1 at the table
    t = Trumps.of("shaoguan-2023", "7", "H")
    j = run(t, RUFF_REVOKE[:1])
    assert j.expected_seat() == "E" and j.trick_points() == 15  # nothing is proven yet: E's ruff counts
    j = run(t, RUFF_REVOKE)
    first = j.tricks[0]
    assert first.winner == "E" and j.scorer(first) == "S"
    assert [(tr.number, s) for tr, s in j.reassigned()] == [(1, "S")]
    assert j.trick_points() == 0


def test_the_best_other_play_takes_the_trick_for_the_other_side():
    # 003 17: only the revoking cards lose their rank. N (the dealer's partner) ruffs E's SK with H3 while
    # holding a spade (N leads S3 in trick 2); E's SK, the best of the rest, takes the 15 points for the defenders
    tricks = [
        [("S", "S4"), ("E", "SK"), ("N", "H3"), ("W", "S5")],
        [("N", "S3"), ("W", "S9"), ("S", "S6"), ("E", "S8")],
    ]
    out = answer(case("shaoguan-2023", tricks))["result"]
    assert out["revokes"] == [["N", 1]] and out["defender_points"] == 15


def test_a_revoke_that_would_not_win_changes_nothing():
    # 000 第十八条 as in the conformance case th-revoke-proven-later: E's D3 did not win trick 1
    tricks = [
        [("S", "SA"), ("E", "D3"), ("N", "S4"), ("W", "ST")],
        [("S", "C2"), ("E", "S9"), ("N", "C3"), ("W", "C4")],
    ]
    j = run(Trumps.of("zhongkai-2010", "7", "H"), tricks)
    assert [(r.seat, r.trick) for r in j.rulings if r.kind == "revoke"] == [("E", 1)]
    assert j.reassigned() == () and j.trick_points() == 0


def test_a_revoking_play_in_the_last_trick_does_not_capture_the_kitty():
    # 003 14 (抠底) with 17: the kitty goes with the last trick, so a revoking winner captures nothing.
    # No card follows the last trick, so the camera cannot prove a revoke there by itself; the ruling
    # is given here as a judge holding it (a person's finding, 该盘牌结束后发现) would.
    t = Trumps.of("shaoguan-2023", "7", "H")
    last = [[("S", "SK SK"), ("E", "H3 H3"), ("N", "S4 S4"), ("W", "S5 S6")]]
    j = run(t, last).show_kitty(C("ST ST D2 D3 D4 D6 D7 D8")).finish()
    assert j.defender_points() == 20 + 5 + 20 * 2  # E's trump pair takes the trick and the kitty (×2)
    revoke = Ruling("revoke", "E", 1, Reason("tractor.follow_all_held", held_cards=["S7", "S7"], suit="S"))
    j = replace(j, rulings=j.rulings + (revoke,))
    assert j.scorer(j.tricks[0]) == "S" and j.capture() is None and j.defender_points() == 0
