"""Bomb limits (附件一 二 炸弹限制) — the judge's ``bomb_allowed`` op.

扑克牌“三打一”比赛中，选手所允许出的炸弹次数，根据叫分结果有一定的限制：庄家——没有限制；
未轮到叫牌的选手——没有限制；叫2分的选手——限制当局最多打2次“炸弹”；叫1分的选手——限制当局最多打1次
“炸弹”；轮到叫牌且选择“不叫”的选手——限制当局最多打1次“炸弹”。
"""

import json
from pathlib import Path

import pytest
import said

from referee.climbing.combos import Reading
from referee.sandayi.bombs import (
    BombLimitError,
    bomb_allowed,
    bomb_limit,
    counts_as_bomb,
)

CONFORMANCE = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "sandayi.jsonl"


@pytest.mark.parametrize(
    "bid, played, allowed",
    [
        ("dealer", 0, True), ("dealer", 7, True),        # 庄家——没有限制
        ("not_asked", 0, True), ("not_asked", 5, True),  # 未轮到叫牌的选手——没有限制
        (2, 0, True), (2, 1, True), (2, 2, False), (2, 3, False),  # 叫2分——最多2次
        (1, 0, True), (1, 1, False),                     # 叫1分——最多1次
        ("pass", 0, True), ("pass", 1, False),           # 选择“不叫”——最多1次
        (3, 4, True),                                    # 3 always makes its bidder the dealer
    ],
)  # fmt: skip
def test_bomb_limits_by_bid(rules, bid, played, allowed):
    assert bomb_allowed(rules, bid, played) is allowed


def test_limits_are_the_rulebook_data(rules):
    assert [bomb_limit(rules, b) for b in (1, 2, "pass", "dealer", "not_asked")] == [1, 2, 1, None, None]
    assert rules.bomb_limits.bid_2 == 2


@pytest.mark.parametrize("bid", [0, 4, "1", "Pass", None, True, 2.0, "landlord"])
def test_bad_bid_values_raise(rules, bid):
    with said.raises(BombLimitError, 'unknown bid .*: use 1, 2, 3, "pass", "dealer" or "not_asked"'):
        bomb_allowed(rules, bid, 0)


@pytest.mark.parametrize("played", [-1, 1.5, "1", None, True])
def test_bad_counts_raise(rules, played):
    with said.raises(BombLimitError, "bombs_played must be a whole number"):
        bomb_allowed(rules, "dealer", played)


def test_the_four_joker_bomb_counts_as_a_bomb(rules):
    """天王炸弹：四张王牌 — it is a bomb, and uses up one of the player's bombs."""
    assert counts_as_bomb(rules, Reading("joker_bomb", 15, 4))
    assert counts_as_bomb(rules, Reading("bomb", 0, 4))
    assert not counts_as_bomb(rules, Reading("pair", 15, 2))
    assert not counts_as_bomb(rules, Reading("airplane", 5, 10))


def test_public_conformance_cases(rules):
    cases = [json.loads(line) for line in CONFORMANCE.read_text(encoding="utf-8").splitlines() if line.strip()]
    cases = [c for c in cases if c["op"] == "bomb_allowed"]
    assert cases, "the public sample has bomb_allowed cases"
    for c in cases:
        assert bomb_allowed(rules, c["bid"], c["bombs_played"]) is c["expect"], c["id"]
