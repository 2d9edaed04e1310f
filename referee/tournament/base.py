"""What the three competition systems share: the interface, two-sided outcomes, ranking, prizes.

Each system answers: how many rounds (:meth:`rounds`), whether a field can be run at all
(:meth:`check`, before round 1: first that every entry is a pair of two players, or one player,
as the system plays, naming the form's rows of one that is not), the tables of a round
(:meth:`pair`), a table's outcome from what was entered, reported or forfeited (:meth:`outcome`),
whether a result entered by hand fits the table's forfeits (:meth:`check_entry`), who bids first
in each game of a round (the result slip's grid, :meth:`first_bidders`), what a bye scores (:meth:`bye`),
what a late arrival costs (:meth:`late_forfeits`, :meth:`late_byes`), how many rounds the entries still in can play
(:meth:`most_rounds`) and the standings (:meth:`standings`). An entry withdrawn (``Tournament.withdrawn``: its unit
withdrew, or it was disqualified) is in no draw made after it left, in every system; its results stand and its row
comes after every row still in (:func:`rank_rows`).

"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass

from referee.catalogue import Term
from referee.tournament.core import Outcome, Table, Tournament, TournamentError
from referee.tournament.exact import is_number
from referee.tournament.entries import where

LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def level_index(level: str) -> int:
    """A level as a number: 2 is 0, A is 12, past A (the game won) 13.

    >>> level_index("10"), level_index("A"), level_index("A+")
    (8, 12, 13)
    """
    if level == "A+":
        return len(LEVELS)
    if level not in LEVELS:
        raise TournamentError("not_a_level", level=level)
    return LEVELS.index(level)


@dataclass(frozen=True)
class Award:
    """A prize the standings payload's ``prize`` has no value for (closed in ``v1``), given once the last round is
    complete to every row still in, or to the first ``upto`` places only; ``unplaced``: only to a row without a placed
    prize (000 五: 未获名次的队给予鼓励奖)."""

    prize: str
    upto: int | None = None
    unplaced: bool = False


def awarded(awards: tuple[Award, ...], row: dict, finished: bool) -> list[str]:
    """The ``awards`` a standings row is given beside its placed prize, by their Chinese names: none before the
    competition is ``finished``, none to a row withdrawn. The one rule the command line, the exports and the
    scoreboard (``/api/tournaments/{id}/awards``) all say.

    >>> knockout = (Award("证书和奖品", upto=8), Award("纪念品"))
    >>> [awarded(knockout, {"rank": r, "prize": None}, True) for r in (8, 9)]
    [['证书和奖品', '纪念品'], ['纪念品']]
    >>> awarded((Award("鼓励奖", unplaced=True),), {"rank": 1, "prize": "一等奖"}, True)
    []
    >>> awarded(knockout, {"rank": 3, "prize": None, "withdrawn": True}, True), awarded(knockout, {"rank": 1, "prize": None}, False)
    ([], [])
    """
    if not finished or row.get("withdrawn"):
        return []
    return [a.prize for a in awards if not (a.unplaced and row["prize"]) and (a.upto is None or row["rank"] <= a.upto)]


def prizes(awards: tuple[Award, ...], row: dict, finished: bool) -> list[str]:
    """A standings row's prizes by their Chinese names: its placed one, then the ``awards`` it is given (:func:`awarded`).

    >>> prizes((Award("鼓励奖", unplaced=True),), {"rank": 1, "prize": "一等奖"}, True)
    ['一等奖']
    """
    return ([row["prize"]] if row["prize"] else []) + awarded(awards, row, finished)


class System:
    name = ""
    title = ""  # Chinese name
    columns: tuple[str, ...] = ()  # tie-break columns of the standings
    score_column = "总分"  # the standings' score by its Chinese name (catalogue column.*); seed 000 四: 团体总分高者名次列前
    result_column = "级差"  # what a table's result's scores are, by its Chinese name: two pairs' levels apart, seed 000 (pair Swiss: +2 / 0 / -2)
    defaults: dict = {}
    late_limit: float | None = None  # minutes late beyond which the entry forfeits the round
    first_to_level = False  # when the round clock ends a game on equal levels: a draw (seed 000/001), or won by the side first there
    rulebook = "classic-3deck"  # what its tables play unless the organiser names another (each system names its seed's)
    games: tuple[str, ...] = ("tractor", "guandan")  # the games its tables may play: two pairs face each other
    players = 2  # the players of an entry: a pair, or (individual events) one
    ranks = "entry"  # what a row of its standings is: an entry (a pair, a player), or a team of pairs (``team``)
    awards: tuple[Award, ...] = ()  # once finished, the prizes the payload's ``prize`` cannot carry (:func:`prizes`)
    fewer_first: tuple[str, ...] = ()  # tie-break columns where fewer ranks first (the individual's 弃权)
    ranking_article = ""  # the seed's article that orders its standings (the sheets say it with :meth:`ranked_by`)

    def ranked_by(self) -> tuple[str, ...]:
        """What the standings compare, first to last, by their Chinese names (the catalogue's ``column.*``): the
        score, the tie-break ``columns`` in their order, then the lot (:func:`rank_rows`)."""
        return (self.score_column, *self.columns, "抽签")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def options(self, given: dict | None) -> dict:
        """The defaults with ``given`` over them; each option keeps its default's shape (a whole
        number from 1, a list of as many finite numbers, or a word)."""
        opts = dict(self.defaults)
        for k, v in (given or {}).items():
            if k not in opts:
                raise TournamentError("unknown_option", system=Term(f"system.{self.name}"), option=k, known=sorted(opts))
            default = opts[k]
            if isinstance(default, list):
                ok = isinstance(v, list) and len(v) == len(default) and all(map(is_number, v))  # finite: no NaN, no infinity
            elif isinstance(default, int):
                ok = type(v) is int and v >= 1
            else:
                ok = isinstance(v, str)
            if not ok:
                raise TournamentError("option_shape", system=Term(f"system.{self.name}"), option=k, default=repr(default), value=repr(v))
            opts[k] = v
        return opts

    def rounds(self, t: Tournament) -> int:
        return int(t.options["rounds"])

    def best_of(self, t: Tournament, round_no: int) -> int:
        """Games a match of the round is played over (one, but in a best-of-three stage)."""
        return 1

    def rulebook_of(self, t: Tournament, round_no: int) -> str:
        """The rulebook the round's tables play unless the organiser names another: :attr:`rulebook`."""
        return self.rulebook

    def check(self, entries, options: dict) -> None:
        """The field's make-up: each entry has :attr:`players` players (a system adds its own checks)."""
        for e in entries:
            n = len(e.players)
            if n != self.players:
                at, players = where(e), list(e.players)
                if self.players == 1:
                    raise TournamentError("player_alone", where=at, n=n, players=players, system=Term(f"system.{self.name}"))
                if n == 1:
                    raise TournamentError("pair_alone", where=at, players=players)
                raise TournamentError("pair_players", where=at, n=n, players=players)

    def pair(self, t: Tournament, round_no: int) -> tuple[list[tuple[str, tuple[str, ...]]], list[str]]:
        raise NotImplementedError

    def outcome(self, t: Tournament, round_no: int, table: Table) -> Outcome | None:
        raise NotImplementedError

    def first_bidders(self, t: Tournament) -> tuple[tuple[str, str], ...]:
        """Per game of a round at a table, (seat, suit drawn) of the player who bids first; () where
        the result slip has no grid of games."""
        return ()

    def check_entry(self, t: Tournament, table: Table, result: dict | None, forfeits: tuple[str, ...]) -> None:
        """Refuse a result entered by hand beside the table's forfeits: at a table of two the forfeit is the result
        (000 四4: 胜者2分……弃权0分……弃权者-2; 002 十二 第2条: 本轮比赛作弃权论处), and a winner, a draw, games or levels
        given with it would be either said twice or overruled unseen. The individual tables override it."""
        if result is not None and forfeits:
            raise TournamentError("forfeit_with_result", table=table.table, entries=list(forfeits))
        if isinstance(result, dict):
            only_the_winner_past_a(result)

    def late_forfeits(self, t: Tournament, round_no: int, entry: str, minutes: float) -> dict[str, list[str]]:
        if self.late_limit is None:
            raise TournamentError("no_late_rule", system=Term(f"system.{self.name}"))
        if minutes <= self.late_limit:
            return {}
        return {x.table: [entry] for x in t.round(round_no).tables if entry in x.entries}

    def bye(self, t: Tournament, round_no: int, entry: str) -> tuple | None:
        """(round points, score) that a bye of the round gives the entry, as its standings count it; None where a bye
        scores nothing (it only sends the entry on)."""
        return None

    def late_byes(self, t: Tournament, round_no: int, entry: str, minutes: float) -> list[str]:
        """The byes of the round a late arrival loses with its own table (by default none)."""
        return []

    def most_rounds(self, t: Tournament, upto: int) -> int:
        """The most rounds, up to ``upto``, that the entries still in can play (by default all of them)."""
        return upto

    def check_rounds(self, t: Tournament, rounds: int) -> None:
        """Refuse a number of rounds the field cannot play from here (:meth:`most_rounds`)."""
        can = self.most_rounds(t, rounds)
        if can < rounds:
            raise TournamentError("rounds_cannot", rounds=rounds, can=can)

    def standings(self, t: Tournament) -> list[dict]:
        raise NotImplementedError

    def lot_closed(self, t: Tournament) -> TournamentError | None:
        """Why a lot drawn in the hall cannot replace the lot now, None when it can: by default the
        lot only breaks final ties, so it may come at any time."""
        return None

    def said(self, t: Tournament, table: Table) -> tuple[str, ...] | None:
        """A decided table's result as a person at the venue reads it, per entry, where the scores are not that (pair
        Swiss: the levels reached; the knockout 胜 / 负 of a single game or walkover; individual tables the places); None: the scores as they stand."""
        return None

    def follows(self, t: Tournament) -> None:
        """Raise when a change leaves a round paired that no longer follows from the results
        before it (a knockout); by default later rounds are paired again or stand as played."""


def only_the_winner_past_a(result: dict) -> None:
    """Refuse a result entered by hand with both sides past A: the first side past A wins the game, which ends there
    (000 附件2 第二条: 每局竞赛最先升级超过级牌A的一方为胜方; 002 规程 三2: 过“A”为胜), so no loser and no draw is at A+.
    (A loser past A beside a winner below it is refused as a winner below its loser, ``winner_levels``,
    ``knockout_winner_levels``.) Checked where a person enters it, not on replay: a table never reports it.

    >>> only_the_winner_past_a({"winner": 0, "levels": ["A+", "K"]})
    >>> only_the_winner_past_a({"draw": True, "levels": ["A+", "A+"]})
    Traceback (most recent call last):
    ...
    referee.tournament.core.TournamentError: 双方不会都打过 A：最先升级超过级牌A的一方即为胜方，该局结束（000 号规程附件2 第二条；002 号规程三2：过“A”为胜），负方或平局的级数不会是 A+，而这里是 A+ 和 A+
    """
    if result.get("levels") == ["A+", "A+"]:
        raise TournamentError("past_a_both", first="A+", second="A+")


@dataclass(frozen=True)
class Decision:
    """Who won a table of two: ``winner`` 0 or 1, None for a draw (or when both forfeit)."""

    winner: int | None
    forfeit: tuple[bool, bool] = (False, False)
    levels: tuple[str, str] | None = None  # the levels reached, for the real level difference
    games: tuple[int, int] | None = None  # games won (best of three)


def decision(table: Table) -> Decision | None:
    """A forfeit, else the result entered by hand; None when neither (the games reported decide)."""
    if table.forfeits:
        lost = tuple(e in table.forfeits for e in table.entries)
        return Decision(None if all(lost) else lost.index(False), lost)
    d = table.entered
    if d is None:
        return None
    unknown = set(d) - {"winner", "draw", "levels", "games"}
    if unknown:
        raise TournamentError("unknown_result_fields", fields=sorted(unknown))
    levels = d.get("levels")
    if levels is not None:
        if not (isinstance(levels, list) and len(levels) == 2):
            raise TournamentError("levels_list")
        [level_index(x) for x in levels]
        levels = tuple(levels)
    games = d.get("games")
    if games is not None:
        if not (isinstance(games, list) and len(games) == 2 and all(type(g) is int and 0 <= g <= 3 for g in games)):
            raise TournamentError("games_counts")
        games = tuple(games)
    if d.get("draw") is True and d.get("winner") is None:
        return Decision(None, levels=levels, games=games)
    w = d.get("winner")
    if d.get("draw") is True and w is not None:
        raise TournamentError("result_winner_and_draw", winner=w)
    if "draw" in d and d["draw"] is not False or type(w) is not int or w not in (0, 1):  # shown as written (JSON), no repr
        raise TournamentError("result_needs_winner", result=json.dumps(d, ensure_ascii=False))
    return Decision(w, levels=levels, games=games)


def totals(t: Tournament) -> tuple[dict[str, float], dict[str, float]]:
    """Each entry's round points and scores summed over its decided tables."""
    points = {e.id: 0 for e in t.entries}
    scores = {e.id: 0 for e in t.entries}
    for r in t.rounds:
        for x in r.tables:
            if x.outcome is not None:
                for i, e in enumerate(x.entries):
                    points[e] += x.outcome.points[i]
                    scores[e] += x.outcome.scores[i]
    return points, scores


def rank_rows(items: list[tuple[tuple, dict]], lot: list[str], withdrawn: Collection[str] = ()) -> list[dict]:
    """Rows sorted by key (larger first), then by the lot; ranks 1, 2, 3, ...; ``by_lot`` marks a
    row whose place the lot decided (its key equals another row's). The rows whose ``id`` is ``withdrawn`` come after
    every row still in, ranked on among themselves and marked ``withdrawn`` (their results stand; the sheets write 退赛).

    >>> [(r["rank"], r["id"], r["by_lot"]) for r in rank_rows([((2,), {"id": "a", "lot": "a"}),
    ...     ((3,), {"id": "b", "lot": "b"}), ((2,), {"id": "c", "lot": "c"})], ["c", "b", "a"])]
    [(1, 'b', False), (2, 'c', True), (3, 'a', True)]
    >>> [(r["rank"], r["id"], r.get("withdrawn")) for r in rank_rows([((2,), {"id": "a", "lot": "a"}),
    ...     ((3,), {"id": "b", "lot": "b"}), ((1,), {"id": "c", "lot": "c"})], ["c", "b", "a"], withdrawn={"b"})]
    [(1, 'a', None), (2, 'c', None), (3, 'b', True)]
    """
    still = [kv for kv in items if kv[1]["id"] not in withdrawn]
    gone = [kv for kv in items if kv[1]["id"] in withdrawn]
    rows = _ranked(still, lot)
    return rows + [row | {"rank": row["rank"] + len(rows), "withdrawn": True} for row in _ranked(gone, lot)]


def _ranked(items: list[tuple[tuple, dict]], lot: list[str]) -> list[dict]:
    order = sorted(items, key=lambda kv: (tuple(-k for k in kv[0]), lot.index(kv[1]["lot"])))
    keys = [k for k, _ in order]
    rows = []
    for i, (key, row) in enumerate(order, 1):
        row = {k: v for k, v in row.items() if k != "lot"}
        rows.append({"rank": i} | row | {"by_lot": keys.count(key) > 1})
    return rows


def prize_of(rank: int, prizes: list[int]) -> str | None:
    """一等奖 for the first ``prizes[0]`` ranks, then 二等奖, 三等奖.

    >>> [prize_of(r, [1, 3, 5]) for r in (1, 2, 4, 5, 9, 10)]
    ['一等奖', '二等奖', '二等奖', '三等奖', '三等奖', None]
    """
    upto = 0
    for name, count in zip(("一等奖", "二等奖", "三等奖"), prizes):
        upto += count
        if rank <= upto:
            return name
    return None
