"""Individual tables (seed 004, San Da Yi): four rounds, tables of four drawn by lot.

Each round the players are drawn into tables of four, spread so that no two players of one unit
share a table where the units allow it (the players of each unit dealt round the tables in turn,
units and players in a random order), and seated by the suit drawn at the table: ♠ ♥ ♣ ♦ sit
S E N W (黑红梅方, counter-clockwise). A table's result is the four players' game scores over
the round's eight games (小分); round points 5 / 3 / 2 / 1 by that ranking (players level
share the points of their places equally, kept exact: three first take 10/3 each). A player who
forfeits gets 0 and 0 whatever their seat's score (which must be 0 when entered); the others rank
among themselves. A player withdrawn (退赛; disqualified, 三 情节严重者取消比赛资格) is drawn no more; where the
players still in are not a multiple of four, the withdrawn hold the empty seats, forfeited. Standings: total, then
小分 (一、1: 如出现积分相同者，则计算小分进行排名，小分高者排名靠前), then rounds forfeited (fewer first), then the lot
drawn at registration; the withdrawn after every player still in.

>>> spread_counts = lambda tables, unit: [sum(unit[p] == u for p in t) for t in tables for u in set(unit.values())]
>>> import random
>>> unit = {f"p{i}": f"u{i % 3}" for i in range(12)}
>>> max(spread_counts(draw(sorted(unit), unit, random.Random(3)), unit))
2
>>> points_by_rank([30, 10, 30, -5], [5, 3, 2, 1])
(4, 2, 4, 1)
>>> [str(p) for p in points_by_rank([7, 7, 7, 2], [5, 3, 2, 1])]
['10/3', '10/3', '10/3', '1']
"""

from __future__ import annotations

import random
from collections import defaultdict

from referee.catalogue import Term
from referee.reasons import cut
from referee.tournament.base import System, rank_rows, totals
from referee.tournament.core import Outcome, Table, Tournament, TournamentError, table_name
from referee.tournament.exact import Fraction, exact, is_number, wire


def draw(players: list[str], unit: dict[str, str], rng: random.Random, fill: tuple[str, ...] = ()) -> list[list[str]]:
    """Tables of four, each unit's players spread over as many tables as possible, in seat order. Where ``players``
    are not a multiple of four (some withdrew), the tables short of a player take one of ``fill`` each (a seat nobody
    of the field plays: the withdrawn, who forfeit it), in order, seated by the draw like the others.

    >>> tables = draw([f"p{i}" for i in range(7)], {f"p{i}": "u" for i in range(7)}, random.Random(1), fill=("w1", "w2"))
    >>> sorted("".join(p[0] for p in sorted(x)) for x in tables)
    ['pppp', 'pppw']
    """
    count = -(-len(players) // 4)
    groups = defaultdict(list)
    for p in players:
        groups[unit[p]].append(p)
    units = sorted(groups)
    rng.shuffle(units)
    units.sort(key=lambda u: -len(groups[u]))  # the biggest first, so that each spreads fully
    dealt = []
    for u in units:
        members = list(groups[u])
        rng.shuffle(members)
        dealt.extend(members)
    tables = [dealt[i::count] for i in range(count)]
    gaps = iter(fill)
    tables = [x + [next(gaps) for _ in range(4 - len(x))] for x in tables]
    rng.shuffle(tables)
    for t in tables:
        rng.shuffle(t)  # the suits drawn at the table: seats S E N W
    return tables


def points_by_rank(scores: list, points: list) -> tuple[int | Fraction, ...]:
    """Round points by the ranking of ``scores`` (higher first); ties share their places' points exactly."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    out = [0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = exact(Fraction(sum(map(exact, points[i : j + 1])), j - i + 1))
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return tuple(out)


SCORE_LIMIT = 100000  # a round's 小分 beyond it is a typing slip (and would leave the payloads' exact numbers)


def seat_scores(result: dict) -> tuple[int | Fraction, ...]:
    """The four seats' 小分 of a result entered by hand, exact; refused unless four finite numbers within
    ``SCORE_LIMIT`` either way, a refusal naming the seat (S E N W) whose value is wrong and what it was, cut to 40
    characters (was: the whole list in Python's form, 而不是 [30, -5, 'abc', 0]).

    >>> seat_scores({"scores": [30, -5, 12.5, 0]})
    (30, -5, Fraction(25, 2), 0)
    >>> seat_scores({"scores": [30, -5, "abc", 0]})
    Traceback (most recent call last):
    ...
    referee.tournament.core.TournamentError: 北座的小分“abc”不是有限的数：应为整数或小数，绝对值不超过 100000
    >>> seat_scores({"scores": [30, -5, 0]})
    Traceback (most recent call last):
    ...
    referee.tournament.core.TournamentError: 小分应有四个，南、东、北、西每座一个，而这里有 3 个
    """
    if set(result) != {"scores"}:
        raise TournamentError("individual_result")
    scores = result["scores"]
    if not isinstance(scores, list) or len(scores) != 4:
        raise TournamentError("individual_scores", n=len(scores) if isinstance(scores, list) else 1)
    for s, x in zip("SENW", scores):
        if x == "":  # a seat left blank in the console's form
            raise TournamentError("individual_score_blank", seat=Term(f"seat.{s}"))
        if not is_number(x):
            raise TournamentError("individual_score_text", seat=Term(f"seat.{s}"), value=cut(str(x)), limit=SCORE_LIMIT)
        if abs(x) > SCORE_LIMIT:
            raise TournamentError("individual_score_limit", seat=Term(f"seat.{s}"), value=cut(str(x)), limit=SCORE_LIMIT)
    return tuple(map(exact, scores))


class IndividualTables(System):
    name = "individual-tables"
    title = "个人赛（四人一桌）"
    columns = ("小分", "弃权")
    score_column = "积分"  # 一、1: 最终比赛结果按照四轮比赛累计积分进行排名 (the round points, not the 小分)
    result_column = "小分"  # a table's scores are its players' game scores (一、1)
    defaults = {"rounds": 4, "points": [5, 3, 2, 1], "games": 8}  # 一、3: 每轮进行8局比赛
    fewer_first = ("弃权",)  # rounds forfeited: fewer first (004 is silent on absence; decided)
    ranking_article = "004 附件一 一、1"  # 最终比赛结果按照四轮比赛累计积分进行排名，如出现积分相同者，则计算小分进行排名
    players = 1  # 本次比赛采取个人赛形式
    rulebook = "usst-2016"  # the seats by suit drawn and the first bidder's turn (一、4 and 一、5)
    games = ("sandayi",)  # four players, each for themselves (三打一)

    def first_bidders(self, t: Tournament) -> tuple[tuple[str, str], ...]:
        """一、5: 每局比赛均按照黑红梅方的顺序依次作为首先叫牌者: game 1 the player who drew ♠ (at S), game 2 ♥
        (E), game 3 ♣ (N), game 4 ♦ (W), game 5 ♠ again, ...

        >>> IndividualTables().first_bidders(None)[:5]
        (('S', 'S'), ('E', 'H'), ('N', 'C'), ('W', 'D'), ('S', 'S'))
        """
        from referee.rulebooks import load
        from referee.sandayi.seats import seat_of_suit

        rules = load(self.rulebook)
        games = self.defaults["games"] if t is None else t.options["games"]
        order = rules.round.first_bidder_suits
        return tuple((seat_of_suit(rules, order[g % len(order)]), order[g % len(order)]) for g in range(games))

    def check(self, entries, options: dict) -> None:
        super().check(entries, options)
        n = len(entries)
        if n < 4 or n % 4:
            more = -n % 4
            if n < 4:
                raise TournamentError("individual_few", n=n)
            raise TournamentError("individual_fours", n=n, more=more, fewer=4 - more)

    def pair(self, t: Tournament, round_no: int):
        """Every player still in, drawn; the withdrawn (in the lot's order) hold the seats the draw leaves empty, since
        a table plays four: one seat at each of a few tables, forfeited (``actions``), the others ranked among
        themselves."""
        unit = {e.id: e.unit for e in t.entries}
        playing = [e.id for e in t.entries if e.id not in t.withdrawn]
        empty = tuple(e for e in t.lot if e in t.withdrawn)
        tables = draw(playing, unit, t.rng(f"pair:{round_no}"), empty)
        return [(table_name(i), tuple(x)) for i, x in enumerate(tables, 1)], []

    def check_entry(self, t: Tournament, table: Table, result: dict | None, forfeits: tuple[str, ...]) -> None:
        """A forfeit stands: the seat of a player who forfeits scores 0."""
        if result is None:
            return
        scores = seat_scores(result)
        for e, s in zip(table.entries, scores):
            if e in forfeits and s != 0 and e in t.withdrawn:  # said 退赛, not as one who did not come (弃权)
                raise TournamentError("individual_withdrawn_score", entry=e, table=table.table, score=wire(s))
            if e in forfeits and s != 0:
                raise TournamentError("individual_absent_score", entry=e, table=table.table, score=wire(s))

    def outcome(self, t: Tournament, round_no: int, table: Table) -> Outcome | None:
        absent = [e in table.forfeits for e in table.entries]
        if table.entered is None:
            return Outcome((0,) * 4, (0,) * 4) if all(absent) else None
        scores = seat_scores(table.entered)
        present = [i for i in range(4) if not absent[i]]
        ranked = points_by_rank([scores[i] for i in present], t.options["points"])
        points, small = [0] * 4, [0] * 4
        for k, i in enumerate(present):
            points[i], small[i] = ranked[k], scores[i]
        return Outcome(tuple(points), tuple(small))

    def said(self, t: Tournament, table: Table) -> tuple[str, ...] | None:
        """Each seat's place at the table, as the seed names them (一、1: 每轮比赛第一名积5分，第二名积3分，第三名积2分，
        第四名积1分): ``place1`` to ``place4``, ``tied1`` to ``tied3`` for a place shared (its points shared), ``forfeited``
        for a seat whose player forfeits (弃权, no place); not the 小分, which rank the places and stay the tie-break."""
        if table.outcome is None:
            return None
        scores = table.outcome.scores
        present = [e not in table.forfeits for e in table.entries]
        played = [s for s, p in zip(scores, present) if p]

        def place(s) -> str:
            above, level = sum(x > s for x in played), sum(x == s for x in played)
            return f"{'tied' if level > 1 else 'place'}{above + 1}"

        return tuple(place(s) if p else "forfeited" for s, p in zip(scores, present))

    def standings(self, t: Tournament) -> list[dict]:
        total, small = totals(t)
        absent = {e.id: 0 for e in t.entries}
        for r in t.rounds:
            for x in r.tables:
                for e in x.forfeits:
                    absent[e] += 1
        items = [((total[e.id], small[e.id], -absent[e.id]),
                  {"id": e.id, "name": e.name, "unit": e.unit, "score": wire(total[e.id]),
                   "tiebreaks": [wire(small[e.id]), absent[e.id]], "prize": None, "lot": e.id}) for e in t.entries]
        return rank_rows(items, list(t.lot), t.withdrawn)
