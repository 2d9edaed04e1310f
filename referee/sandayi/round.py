"""A round (轮) at one table (附件一 一 赛制).

一 3: 本次比赛采取记分制，每轮进行8局比赛。 一 1: 每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分，
最终比赛结果按照四轮比赛累计积分进行排名，如出现积分相同者，则计算小分进行排名，小分高者排名靠前。

A player's game score (小分) for a round is the sum of their scores in the round's 8 games;
the table's four players are ranked by it and earn the round points ``[round] points``.
Players level on game score share the points of the places they fill (``ties = "split"``):
two tied for first earn (5+3)/2 = 4 each. The final standing over the rounds is the tournament's
(``referee/tournament/individual.py``): round points, then game score, then rounds forfeited, then the lot.

>>> rules = load("usst-2016")
>>> games = [{"ann": 3, "bo": -1, "cy": -1, "di": -1}] * 6 + [{"ann": -6, "bo": 2, "cy": 2, "di": 2}] * 2
>>> r = round_results(rules, games)
>>> {p: (str(x.points), x.game_score) for p, x in r.items()}
{'ann': ('5', 6), 'bo': ('2', -2), 'cy': ('2', -2), 'di': ('2', -2)}
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from referee.rulebooks import SandayiRulebook, load  # noqa: F401 (load: doctests)


class RoundError(ValueError):
    """A round with the wrong number of games or players, or an inconsistent table."""


@dataclass(frozen=True)
class RoundResult:
    """One player's round: round points (a Fraction where a tie split them) and game score (小分)."""

    points: Fraction
    game_score: int | Fraction


def table_totals(games: Iterable[Mapping[Hashable, int]]) -> dict[Hashable, int | Fraction]:
    """Each player's game score summed over the games (every game names the same players)."""
    totals: dict[Hashable, int | Fraction] = {}
    players = None
    for n, game in enumerate(games, 1):
        if players is None:
            players = set(game)
            totals = {p: 0 for p in game}
        elif set(game) != players:
            raise RoundError(f"game {n} names {sorted(map(str, game))}, the table is {sorted(map(str, players))}")
        for p, score in game.items():
            totals[p] += score
    return totals


def round_points(rules: SandayiRulebook, totals: Mapping[Hashable, int | Fraction]) -> dict[Hashable, Fraction]:
    """The round points of a table's players from their game scores, best first gets ``points[0]``;
    players level on game score share the points of the places they fill (``[round] ties = "split"``)."""
    table = [Fraction(p) for p in rules.round.points]
    if len(totals) != len(table):
        raise RoundError(f"a table has {len(table)} players, not {len(totals)}")
    ordered = sorted(totals, key=lambda p: -totals[p])
    out: dict[Hashable, Fraction] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and totals[ordered[j]] == totals[ordered[i]]:
            j += 1
        share = sum(table[i:j]) / (j - i)
        for p in ordered[i:j]:
            out[p] = share
        i = j
    return {p: out[p] for p in totals}


def round_results(rules: SandayiRulebook, games: Sequence[Mapping[Hashable, int]]) -> dict[Hashable, RoundResult]:
    """A table's round from its game scores (each game: player → score), exactly ``[round] games``."""
    need = rules.round.games
    if len(games) != need:
        raise RoundError(f"a round has {need} games, not {len(games)}")
    totals = table_totals(games)
    points = round_points(rules, totals)
    return {p: RoundResult(points[p], totals[p]) for p in totals}


__all__ = ["RoundError", "RoundResult", "round_points", "round_results", "table_totals"]
