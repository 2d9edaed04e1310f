"""Rounds and round points (附件一 一 赛制); the final standing is the tournament's (tests/tournament/test_individual.py).

1、本次比赛采用积分制的方法进行，每天进行2轮比赛，共计4轮，每轮比赛第一名积5分，第二名积3分，第三名积2分，
第四名积1分，最终比赛结果按照四轮比赛累计积分进行排名，如出现积分相同者，则计算小分进行排名，小分高者排名靠前。
3、本次比赛采取记分制，每轮进行8局比赛。
"""

import random
from fractions import Fraction

import pytest

from referee.sandayi.bots import play_game
from referee.sandayi.round import (
    RoundError,
    RoundResult,
    round_points,
    round_results,
    table_totals,
)
from referee.sandayi.seats import first_bidder


def game(dealer, amount):
    """A plain game: the dealer wins (amount > 0) or loses 3 bases, one from or to each of the others."""
    return {p: 3 * amount if p == dealer else -amount for p in ("ann", "bo", "cy", "di")}


def test_round_points_five_three_two_one(rules):
    """每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分"""
    pts = round_points(rules, {"ann": 12, "bo": -2, "cy": 4, "di": -14})
    assert pts == {"ann": 5, "bo": 2, "cy": 3, "di": 1}


def test_tied_players_share_the_points_of_their_places(rules):
    """Ties after 8 games (the seed is silent): the tied places' points are split."""
    assert round_points(rules, {"ann": 6, "bo": 6, "cy": -6, "di": -6}) == {"ann": 4, "bo": 4, "cy": Fraction(3, 2), "di": Fraction(3, 2)}
    assert round_points(rules, {"ann": 9, "bo": -3, "cy": -3, "di": -3}) == {"ann": 5, "bo": 2, "cy": 2, "di": 2}
    assert round_points(rules, {"ann": 0, "bo": 0, "cy": 0, "di": 0}) == {p: Fraction(11, 4) for p in ("ann", "bo", "cy", "di")}


def test_a_round_is_eight_games_summed(rules):
    """每轮进行8局比赛 — the game scores (小分) of the 8 games add up."""
    games = [game("ann", 1), game("bo", 2), game("cy", -1), game("di", 1), game("ann", -2), game("bo", 1), game("cy", 3), game("di", -1)]
    # ann: 3-2+1-1-6-1-3+1; bo: -1+6+1-1+2+3-3+1; cy: -1-2-3-1+2-1+9+1; di: -1-2+1+3+2-1-3-3
    assert table_totals(games) == {"ann": -8, "bo": 8, "cy": 4, "di": -4}
    r = round_results(rules, games)
    assert r == {"bo": RoundResult(5, 8), "cy": RoundResult(3, 4), "di": RoundResult(2, -4), "ann": RoundResult(1, -8)}
    with pytest.raises(RoundError, match="a round has 8 games, not 7"):
        round_results(rules, games[:7])
    with pytest.raises(RoundError, match="game 2 names"):
        table_totals([game("ann", 1), {"ann": 3, "bo": -1, "cy": -1, "ed": -1}])


def test_a_round_of_eight_whole_games_at_one_table(rules):
    """一 4/5: seats by lot in 黑红梅方 order; the first bidder turns with each game."""
    seated = {"S": "ann", "E": "bo", "N": "cy", "W": "di"}
    rng = random.Random(8)
    games = []
    for n in range(1, 9):
        g = play_game(rules, rng, first_bidder(rules, n))
        assert g.bidding.first == "SENW"[(n - 1) % 4]
        games.append({seated[s]: v for s, v in g.scores.items()})
    r = round_results(rules, games)
    assert sum(x.game_score for x in r.values()) == 0
    assert sum(x.points for x in r.values()) == 11
    best = max(r, key=lambda p: r[p].game_score)
    assert r[best].points >= 3
