"""Pair Swiss (seed 000): pairs of a unit's team meet pairs of other units; the team ranks.

A team is its unit and its name (``Entry.team_id``: two units' teams called 一队 are two teams) and
is ``team_pairs`` pairs of two players (三2: 运动员4名（2对）; 四5: 由本队两对选手轮分积分累加):
another make-up is refused before round 1, naming the form's rows.

Round points 2 / 1 / 0 (a forfeit 0); 级差 +2 / 0 / -2 per pair-round as the seed writes it (a
forfeit -2), or with ``level_diff: "real"`` the levels reached apart (2 is 0, A is 12, past A
13). A bye counts as a win (2 points, 级差 +2) and adds nothing to 对手分. A team's score is the
sum of its pairs'; it ranks by score, then 对手分 (the final scores of every opponent its pairs
met: the opponent pair's, or with ``opponent_score: "team"`` the opponent's team's), then 级差,
then the lot drawn at registration. Prizes 1 / 3 / 5 once the last round is complete, every other team still in
the 鼓励奖 (五; the sheets and the scoreboard write it, the payload's ``prize`` stays null).
"""

from __future__ import annotations

import json
from collections import defaultdict

from referee.catalogue import Term
from referee.tournament.base import Award, Decision, System, decision, level_index, prize_of, rank_rows
from referee.tournament.core import Outcome, Table, Tournament, TournamentError, table_name
from referee.tournament.exact import exact, wire
from referee.tournament.entries import where
from referee.tournament.matching import Edge
from referee.tournament.schedule import completable
from referee.tournament.swiss import SETUP_BUDGET, SetupError, allowed, check_setup, pair_round


class PairSwiss(System):
    name = "pair-swiss"
    title = "积分编排赛"
    columns = ("对手分", "级差")
    defaults = {"rounds": 6, "points": [2, 1, 0], "level_step": [2, 0, -2], "level_diff": "seed",
                "opponent_score": "pair", "prizes": [1, 3, 5], "team_pairs": 2}
    late_limit = 20.0  # seed 000 第十三条: 21 minutes and more, the whole team forfeits the round
    ranking_article = "000 四5"  # 团体总分高者名次列前；若总分相同，则比较对手分……若级差仍相同，则抽签决定名次
    ranks = "team"  # seed 000 四5: 各队的团体成绩由本队两对选手轮分积分累加而定
    awards = (Award("鼓励奖", unplaced=True),)  # seed 000 五: 本届竞赛决出一等奖1名，二等奖3名，三等奖5名。未获名次的队给予鼓励奖。
    rulebook = "zhongkai-2010"  # seed 000 四1: 竞赛采用…《三副牌拖拉机竞赛规则》进行 -- its 附件2, the book of that seed

    def check(self, entries, options: dict) -> None:
        if options["level_diff"] not in ("seed", "real") or options["opponent_score"] not in ("pair", "team"):
            raise TournamentError("pair_swiss_options")
        super().check(entries, options)
        teams = team_pairs(entries)
        for e in entries:
            pairs = teams[e.team_id]
            if len(pairs) != options["team_pairs"] == 2:  # the seed's 2 pairs
                raise TournamentError("team_pairs", team=e.team_id, n=len(pairs), need=2, where=[where(p) for p in pairs])
            if len(pairs) != options["team_pairs"]:  # another size, the option's: never said as the seed's 2
                raise TournamentError("team_pairs_option", team=e.team_id, n=len(pairs), need=options["team_pairs"],
                                      where=[where(p) for p in pairs])
        try:
            check_setup({e.id: e.unit for e in entries}, int(options["rounds"]))
        except SetupError as exc:
            raise TournamentError("pair_swiss_cannot", reason=exc) from None

    def check_entry(self, t: Tournament, table: Table, result: dict | None, forfeits: tuple[str, ...]) -> None:
        """A round is one game (四3: 如果在1小时30分钟内赛完一局，则结束该轮竞赛): games won are refused, not kept unused."""
        super().check_entry(t, table, result, forfeits)
        if isinstance(result, dict) and "games" in result:
            raise TournamentError("pair_swiss_games", table=table.table, games=json.dumps(result["games"]))

    def late_forfeits(self, t: Tournament, round_no: int, entry: str, minutes: float) -> dict[str, list[str]]:
        """Past 20 minutes the whole team forfeits the round: every pair of the entry's team."""
        if minutes <= self.late_limit:
            return {}
        team = _team(t, entry)
        return {x.table: sorted(team & set(x.entries)) for x in t.round(round_no).tables if team & set(x.entries)}

    def late_byes(self, t: Tournament, round_no: int, entry: str, minutes: float) -> list[str]:
        """第十三条 21分钟以上判全队该轮弃权: the whole team's round, a teammate's bye too."""
        if minutes <= self.late_limit:
            return []
        return sorted(_team(t, entry) & set(t.round(round_no).byes))

    def bye(self, t: Tournament, round_no: int, entry: str) -> tuple:
        """A bye counts as a win (2 points, 级差 +2); one lost with the whole team's round (第十三条) as a forfeit
        (四4: 弃权0分……弃权者-2)."""
        lost = entry in t.round(round_no).bye_forfeits
        return exact(t.options["points"][2 if lost else 0]), exact(t.options["level_step"][2 if lost else 0])

    def most_rounds(self, t: Tournament, upto: int) -> int:
        """The most rounds, up to ``upto``, whose rounds after those paired can all be paired by the pairs still
        in (a schedule found, as at registration); never fewer than the rounds paired."""
        units = {e.id: e.unit for e in t.entries if e.id not in t.withdrawn}
        met = {Edge(x.entries) for r in t.rounds for x in r.tables}
        had_bye = {b for r in t.rounds for b in r.byes}
        graph = allowed(units, met, had_bye, len(units) % 2 == 1)
        for rounds in range(upto, len(t.rounds), -1):
            if len(units) >= 2 and completable(graph, rounds - len(t.rounds), SETUP_BUDGET):
                return rounds
        return len(t.rounds)

    def lot_closed(self, t: Tournament) -> TournamentError | None:
        """四2: 第1轮采用电脑抽签编排对手, and equal pairs are paired in lot order after it; 四5's lot for
        the final ties (若级差仍相同，则抽签决定名次) may be drawn once the last round is complete."""
        if t.rounds and not t.finished:
            return TournamentError("lot_paired_ties", system=Term(f"system.{self.name}"), rounds=len(t.rounds))
        return None

    # -- pairing ----------------------------------------------------------------------------------
    def pair(self, t: Tournament, round_no: int):
        stats = pair_stats(t)
        met = {Edge(x.entries) for r in t.rounds for x in r.tables}
        had_bye = {b for r in t.rounds for b in r.byes}
        order = [p for p in pair_order(t, stats) if p not in t.withdrawn]  # a withdrawn pair: no table, no bye
        scores = {p: stats[p]["score"] for p in order}
        tables, bye = pair_round({p: t.entry(p).unit for p in order}, met, had_bye, scores, order,
                                 self.rounds(t) - round_no + 1, t.rng(f"pair:{round_no}"))
        seats = [tuple(sorted(e, key=order.index)) for e in tables]
        seats.sort(key=lambda s: (order.index(s[0]), order.index(s[1])))
        return [(table_name(i), s) for i, s in enumerate(seats, 1)], [bye] if bye else []

    # -- results ----------------------------------------------------------------------------------
    def outcome(self, t: Tournament, round_no: int, table: Table) -> Outcome | None:
        d = decision(table)
        if d is None and table.games:
            d = Decision(table.games[-1], levels=table.levels if len(table.levels) == 2 else None)
        if d is None:
            return None
        win, draw, loss = t.options["points"]
        step_win, step_draw, step_loss = t.options["level_step"]
        if any(d.forfeit):
            points = tuple(loss if f else win for f in d.forfeit)
            return Outcome(points, tuple(step_loss if f else step_win for f in d.forfeit))
        if d.winner is None:
            points, steps = (draw, draw), (step_draw, step_draw)
        else:
            points = (win, loss) if d.winner == 0 else (loss, win)
            steps = (step_win, step_loss) if d.winner == 0 else (step_loss, step_win)
        if d.levels is not None:  # shown as the result (:meth:`said`), so never against it, whichever 级差 counts
            a, b = (level_index(x) for x in d.levels)
            _check_levels(d.winner, d.levels, a, b)
        if t.options["level_diff"] == "real":
            if d.levels is None:
                raise TournamentError("pair_swiss_levels")
            steps = (a - b, b - a)
        return Outcome(points, steps)

    def said(self, t: Tournament, table: Table) -> tuple[str, ...] | None:
        """The levels each side reached ("A+": past A), as the tables play a match to (seed 000 附件2 第八条 1: 由级牌2起庄……
        根据防家得分计算升级数; 第二十一条 3: 以升级率先过级牌A一方为获胜者); the 级差 of 四4 stays the standings' tie-break; where no level is known (a result entered
        without them, a forfeit), ``won``, ``drawn``, ``lost``."""
        if table.outcome is None:
            return None
        d = decision(table)
        if d is not None and any(d.forfeit):
            return tuple("lost" if f else "won" for f in d.forfeit)
        levels = d.levels if d is not None else table.levels
        if levels:
            return tuple(levels)
        points = table.outcome.points
        return tuple("won" if p > q else "lost" if p < q else "drawn" for p, q in zip(points, reversed(points)))

    # -- standings --------------------------------------------------------------------------------
    def standings(self, t: Tournament) -> list[dict]:
        stats = pair_stats(t)
        teams = {team: [e.id for e in pairs] for team, pairs in team_pairs(t.entries).items()}
        team_of = {e.id: e.team_id for e in t.entries}
        team_score = {team: sum(stats[p]["score"] for p in ids) for team, ids in teams.items()}
        opponent = (lambda p: stats[p]["score"]) if t.options["opponent_score"] == "pair" else (lambda p: team_score[team_of[p]])
        items, gone = [], set()
        for team, ids in teams.items():
            opp = sum(opponent(o) for p in ids for o in stats[p]["opponents"])
            level = sum(stats[p]["level"] for p in ids)
            unit = t.entry(ids[0]).unit
            first = min(ids, key=t.lot.index)
            row = {"id": team, "name": t.entry(ids[0]).team, "unit": unit, "score": wire(team_score[team]),
                   "tiebreaks": [wire(opp), wire(level)], "prize": None, "lot": first}
            items.append(((team_score[team], opp, level), row))
            if set(ids) <= set(t.withdrawn):
                gone.add(team)
        # a withdrawn team: its results stand (its opponents' 对手分 counts them), listed after every team
        # still in, marked, never a prize
        rows = rank_rows(items, list(t.lot), gone)
        for row in rows:
            row["prize"] = prize_of(row["rank"], t.options["prizes"]) if t.finished and not row.get("withdrawn") else None
        return rows


def _check_levels(winner: int | None, levels: tuple[str, str], a: int, b: int) -> None:
    """The levels reached agree with the result (seed 000 四4, 平局者各0): the winner reached the
    higher level, a draw the same level.

    >>> _check_levels(1, ("9", "J"), 7, 9)
    >>> _check_levels(0, ("9", "J"), 7, 9)
    Traceback (most recent call last):
    ...
    referee.tournament.core.TournamentError: 胜方打到的级数（9）应高于负方（J）；级数相同是平局
    """
    if winner is None and a != b:
        raise TournamentError("draw_levels", first=levels[0], second=levels[1])
    if winner is not None and (a, b)[winner] <= (a, b)[1 - winner]:
        raise TournamentError("winner_levels", winner=levels[winner], loser=levels[1 - winner])


def team_pairs(entries) -> dict[str, list]:
    """The entries of each team (by ``team_id``), in the form's order."""
    teams: dict[str, list] = defaultdict(list)
    for e in entries:
        teams[e.team_id].append(e)
    return dict(teams)


def _team(t: Tournament, entry: str) -> set[str]:
    """The entry ids of the entry's team."""
    return {e.id for e in team_pairs(t.entries)[t.entry(entry).team_id]}


def pair_stats(t: Tournament) -> dict[str, dict]:
    """Per pair: round points, 级差, the opponents met (completed tables only), byes counting as wins
    (a bye the team's late arrival forfeited, as a forfeit)."""
    stats = {e.id: {"score": 0, "level": 0, "opponents": []} for e in t.entries}
    for r in t.rounds:
        for b in r.byes:
            points, level = t.rules.bye(t, r.round, b)
            stats[b]["score"] += points
            stats[b]["level"] += level
        for x in r.tables:
            if x.outcome is None:
                continue
            for i, p in enumerate(x.entries):
                stats[p]["score"] += x.outcome.points[i]
                stats[p]["level"] += x.outcome.scores[i]
                stats[p]["opponents"].append(x.entries[1 - i])
    return stats


def pair_order(t: Tournament, stats: dict[str, dict]) -> list[str]:
    """The pairs best first: score, their own 对手分, 级差, the lot."""
    def key(p: str):
        s = stats[p]
        return (-s["score"], -sum(stats[o]["score"] for o in s["opponents"]), -s["level"], t.lot.index(p))

    return sorted((e.id for e in t.entries), key=key)


__all__ = ["PairSwiss", "pair_stats", "pair_order", "team_pairs"]
