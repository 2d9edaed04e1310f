"""Levels won by a hand, the game (局) from 2 to past A or 8, and the match (场): seed 002 规则 三, 规程 三 2.

Only the first's team (上游方) goes up: 3, 2 or 1 levels as the partner finished second, third
or last (``[levels] places``). Each hand is played at the level of the team that took first in
the hand before (the first hand at the stage's start level). The stages (``[stages.*]``) differ:

* stage one (``must_play``): levels stop at A (A不能升过去), and the game is won only in a hand
  played at A, by the team at A taking first with the partner not last (否则需再打A);
* stage two: a game is won by going past 8, which need not be played (8不必打), best of three.

A team never falls back (永不退级): levels here only go up.

>>> gd = load("sanjiang-2012")
>>> [levels_won(gd, p) for p in (2, 3, 4)]
[3, 2, 1]
>>> g = Game.start(gd, "two")
>>> for first, place in [("S", 3), ("S", 2), ("E", 4)]:
...     g = g.after(HandResult(first, place))
>>> g.level_of("SN"), g.level_of("EW"), g.hand_level(), g.winner
('7', '3', '3', None)
>>> g.after(HandResult("N", 2)).winner      # 7 + 3 = T: past 8
'SN'
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.reasons import Refused
from referee.rulebooks import GuandanRulebook, load  # noqa: F401 (load: doctests)
from referee.seats import TEAMS, team_of


class GameError(Refused):
    """A result that cannot be recorded (the game or match is over, an unknown stage or place; a reason ``guandan.*``)."""


def levels_won(rules: GuandanRulebook, partner_place: int) -> int:
    """Levels the first's team goes up when the first's partner finished in ``partner_place``
    (2, 3 or 4; 三: 如上游的对门为二游，则上游方升3级；如为三游，则升2级；如为四游(下游)，则升1级).
    Raises :class:`GameError` (a ValueError) for any other place.

    >>> levels_won(load("sanjiang-2012"), 1)
    Traceback (most recent call last):
    ...
    referee.guandan.levels.GameError: guandan.partner_place (place='1', places=[2, 3, 4])
    """
    places = rules.levels.places
    if isinstance(partner_place, bool) or not isinstance(partner_place, int) or partner_place not in places:
        raise GameError("guandan.partner_place", places=sorted(places), place=str(partner_place))
    return places[partner_place]


@dataclass(frozen=True)
class HandResult:
    """What a hand decides for the levels: the first (上游) and where its partner finished."""

    first: str
    partner_place: int

    @property
    def team(self) -> str:
        return team_of(self.first)


@dataclass(frozen=True)
class Stage:
    name: str
    start: str
    passes: str
    must_play: bool
    best_of: int


def stage(rules: GuandanRulebook, name: str) -> Stage:
    """The stage ``name`` of the rulebook's ``[stages]``."""
    if name not in rules.stages:
        raise GameError("guandan.no_stage", rulebook=rules.id, text=str(name), known=", ".join(rules.stages))
    s = rules.stages[name]
    return Stage(name, s.start, s.passes, s.must_play, s.best_of)


@dataclass(frozen=True)
class Game:
    """One game (局): both teams' levels, whose level the next hand is played at, and the winner."""

    rules: GuandanRulebook
    stage: Stage
    levels: tuple[tuple[str, str], ...]  # (team, level rank)
    reached: tuple[tuple[str, int], ...]  # (team, hands played when it reached its level)
    hands: int = 0
    playing: str | None = None  # the team whose level the next hand is played at
    winner: str | None = None

    @staticmethod
    def start(rules: GuandanRulebook, stage_name: str) -> Game:
        s = stage(rules, stage_name)
        return Game(rules, s, tuple((t, s.start) for t in TEAMS), tuple((t, 0) for t in TEAMS))

    def level_of(self, team: str) -> str:
        if team not in TEAMS:
            raise GameError("guandan.unknown_team", text=str(team))
        return dict(self.levels)[team]

    def hand_level(self) -> str:
        """The level of the next hand: that of the team that took first in the last hand."""
        return self.level_of(self.playing) if self.playing else self.stage.start

    def after(self, result: HandResult) -> Game:
        """The game after a hand: the first's team goes up (stopping at a must-play level) or wins."""
        if self.winner:
            raise GameError("guandan.game_over", team=self.winner)
        rules, s = self.rules, self.stage
        team, won = result.team, levels_won(rules, result.partner_place)
        order = rules.ranks.order
        now, goal = order.index(self.level_of(team)), order.index(s.passes)
        winner = None
        if s.must_play:
            passing = result.partner_place in rules.levels.pass_partner_places
            if now == goal and self.hand_level() == s.passes and passing:
                winner = team
            new = min(now + won, goal)
        else:
            new = now + won
            if new > goal:
                winner = team
            new = min(new, len(order) - 1)
        levels = dict(self.levels)
        reached = dict(self.reached)
        if new != now:
            levels[team], reached[team] = order[new], self.hands + 1
        return replace(
            self, levels=tuple(levels.items()), reached=tuple(reached.items()),
            hands=self.hands + 1, playing=team, winner=winner,
        )  # fmt: skip

    def ahead(self) -> str | None:
        """The team ahead when time is up: the higher level, at equal levels the first to reach it
        (``[match] time_up_tie = "first_to_reach"``, 规程 三 2: 级高方为胜，同级时先到胜); None while
        nothing separates them."""
        if self.winner:
            return self.winner
        order = self.rules.ranks.order
        (a, la), (b, lb) = self.levels
        if la != lb:
            return a if order.index(la) > order.index(lb) else b
        ra, rb = dict(self.reached)[a], dict(self.reached)[b]
        return None if ra == rb else (a if ra < rb else b)


def at_time_up(cards_drawn: bool) -> str:
    """What the table does when the referee calls time (规程 三 2: 未抓完牌牌桌停止打牌（抓完牌打完本副）):
    ``"stop"`` at once, or ``"finish_hand"`` when the cards were all drawn."""
    return "finish_hand" if cards_drawn else "stop"


@dataclass(frozen=True)
class Match:
    """A match (场) of one stage: its games, the one in play, and the time (passed in, in seconds)."""

    rules: GuandanRulebook
    started_at: float
    game: Game
    games: tuple[str, ...] = ()  # the winner of each finished game
    winner: str | None = None
    unlimited: bool = False  # time is up with the games level: the deciding game is played out

    @staticmethod
    def start(rules: GuandanRulebook, stage_name: str, at: float) -> Match:
        return Match(rules, at, Game.start(rules, stage_name))

    @property
    def won(self) -> dict[str, int]:
        """Games won by each team so far."""
        return {x: self.games.count(x) for x in TEAMS}

    def is_time_up(self, now: float) -> bool:
        return not self.unlimited and now - self.started_at >= 60 * self.rules.match.minutes

    def _won(self, team: str | None) -> Match:
        games = self.games + ((team,) if team else ())
        need = self.game.stage.best_of // 2 + 1
        winner = next((t for t in TEAMS if games.count(t) >= need), None)
        game = self.game if winner else Game.start(self.rules, self.game.stage.name)  # a match won keeps its last levels
        return replace(self, games=games, winner=winner, game=game)

    def after(self, result: HandResult) -> Match:
        """The match after a hand of its current game."""
        if self.winner:
            raise GameError("guandan.match_over", team=self.winner)
        game = self.game.after(result)
        if game.winner is None:
            return replace(self, game=game)
        return replace(self, game=game)._won(game.winner)

    def time_up(self) -> Match:
        """Time is called (and the hand in play finished, see :func:`at_time_up`). Games standing level at 1:1 (the
        deciding game in play): it is played out without a limit (规程 三 2: 第二阶段如1:1平局继续打完). Else the game in
        play goes to the team ahead (级高方为胜，同级时先到胜); if that leaves the games level (1:1), the deciding game is
        played out, else the team with more games wins."""
        if self.winner or self.unlimited:
            return self
        if self.games and self.games.count(TEAMS[0]) == self.games.count(TEAMS[1]):
            return replace(self, unlimited=True)
        team = self.game.ahead() if self.game.hands else None
        decided = self._won(team) if team else self
        a, b = (decided.games.count(t) for t in TEAMS)
        if decided.winner or a != b:
            return replace(decided, winner=decided.winner or TEAMS[a < b])
        return replace(decided, unlimited=True)


__all__ = ["Game", "GameError", "HandResult", "Match", "Stage", "at_time_up", "levels_won", "stage"]
