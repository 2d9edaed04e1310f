"""Knockout, best of three (seed 002, Guandan): single games until 16 remain, then best of three.

The bracket has as many slots as the next power of two; the first entries of the lot have an
empty slot beside them (a bye), the rest meet in lot order, and every round halves it. Rounds of
more than 16 slots are single games (stage 1); from 16 on, best of three (stage 2). An empty slot
also comes from a double forfeit (seed 002 十二 第2条: neither pair goes on) and from a pair withdrawn (退赛;
disqualified, 十 第3条 取消比赛资格) before the round was paired: whoever would have met it goes on by walkover,
listed with the round's byes; it plays no play-off and is listed after every pair still in, whose places after
the one it left close up (:func:`closed_up`).

Places 1 to 8 are played off (四2: 前八名): the losers of a round of a bracket whose places run
from ``first`` play a bracket of their own for the places from ``first`` plus the slots left, as
long as that is 8 or better; so the quarter-final losers play for 5th to 8th beside the
semi-finals and the last round holds the final (t01), 3rd place (t02), 5th (t03) and 7th (t04).
A play-off bracket is made of the round's losers by result in bracket order, seated like the
field (byes to the first). The losers of a round share the place after the slots left (e.g.
quarter-final losers 5th until their play-off); both pairs of a double forfeit share the last
place of those who reached that round and play no play-off; a place no pair won stays empty.

Each table's result is a winner, in stage 2 with the games won (a game is won by passing 8;
when the round clock ends the match, the game in play goes to the pair ahead in levels, the first there when level,
and the pair then ahead in games wins; at 1:1 a deciding game is played out, 三2: 根据级差（级高方为胜，同级时先到胜，
第二阶段如1:1平局继续打完）确定胜方).
At a table the pair with the bigger lot number sits S/N (十三 第2条: 大号(指抽签号)选手坐南北位).

>>> plan(40)
(2, 16)
>>> plan(16), plan(12), plan(5)
((0, 16), (0, 16), (0, 8))
>>> slots(["a", "b", "c"], 4), slots(["a"], 4)
(['a', None, 'b', 'c'], ['a', None, None, None])
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from referee.catalogue import Term
from referee.tournament.base import Award, Decision, System, decision, level_index, totals
from referee.tournament.core import Outcome, Table, Tournament, TournamentError, table_name
from referee.tournament.exact import wire

STAGE2_FROM = 16
PLACES = 8  # seed 002 四2: 获得本届比赛前八名的选手分别颁发证书和奖品


def plan(n: int) -> tuple[int, int]:
    """(stage-1 rounds, stage-2 bracket size) for ``n`` entries."""
    size = _bracket(n)
    if size <= STAGE2_FROM:
        return 0, size
    return (size // STAGE2_FROM).bit_length() - 1, STAGE2_FROM


def _bracket(n: int) -> int:
    size = 2
    while size < n:
        size *= 2
    return size


def slots(entries: list[str], size: int) -> list[str | None]:
    """``entries`` in ``size`` slots: the first have an empty slot beside them, the rest meet in order."""
    free = size - len(entries)
    out: list[str | None] = []
    for i, e in enumerate(entries):
        out += [e, None] if i < free else [e]
    return out + [None] * (size - len(out))


class Knockout(System):
    name = "knockout-best-of-three"
    title = "淘汰赛（三局两胜）"
    columns = ()
    score_column = "胜场"  # its standings' score is the matches won: the place is the bracket's, not the most won
    result_column = "胜局"  # a table's scores are the games each pair won (三2: 三局两胜; a single game 1 : 0)
    defaults = {"stage2_from": STAGE2_FROM}
    late_limit = 5.0  # seed 002 十二 第2条: five minutes after the start the pair forfeits the round
    first_to_level = True  # seed 002 三2: 根据级差（级高方为胜，同级时先到胜……）确定胜方
    rulebook = "sanjiang-2012"  # seed 002 is Guandan's (掼蛋比赛)
    # 四 录取名次及奖励 1: 凡参加比赛的选手均有纪念品; 2: 获得本届比赛前八名的选手分别颁发证书和奖品
    awards = (Award("证书和奖品", upto=PLACES), Award("纪念品"))
    ranking_article = "002 四2"  # 前八名 played off; the places are the bracket's, shared where no play-off decides

    def ranked_by(self) -> tuple[str, ...]:
        """The place reached in the bracket alone: shared places stay shared (never drawn), 胜场 only lists them."""
        return ("淘汰位次",)

    stage_two_rulebook = "sanjiang-2012-stage-two"  # 规程 三 2: 第二阶段：采取三局两胜制，每局过“8”即胜，但是“8”不必打

    def rounds(self, t: Tournament) -> int:
        return _bracket(len(t.entries)).bit_length() - 1

    def best_of(self, t: Tournament, round_no: int) -> int:
        return 1 if round_no <= plan(len(t.entries))[0] else 3

    def rulebook_of(self, t: Tournament, round_no: int) -> str:
        """Stage one's book for its single games, the second stage's for its best of three (规程 三 2)."""
        return self.rulebook if self.best_of(t, round_no) == 1 else self.stage_two_rulebook

    def check(self, entries, options: dict) -> None:
        super().check(entries, options)  # pairs: 同一场比赛中组成的对手，为固定搭档 (十三 第1条)
        if options["stage2_from"] != STAGE2_FROM:
            raise TournamentError("stage_two", stage=STAGE2_FROM)
        if len(entries) < 2:
            raise TournamentError("knockout_few", n=len(entries))

    def pair(self, t: Tournament, round_no: int):
        rounds = walk(t)[0]
        if len(rounds) < round_no:
            raise TournamentError("knockout_order", before=round_no - 1, round=round_no)
        tables, byes = rounds[round_no - 1]
        return [(table_name(i), x) for i, x in enumerate(tables, 1)], list(byes)

    def lot_closed(self, t: Tournament) -> TournamentError | None:
        """The bracket, byes and seats are the lot's: it is fixed once round 1 is paired."""
        return TournamentError("lot_paired", system=Term(f"system.{self.name}"), rounds=len(t.rounds)) if t.rounds else None

    def follows(self, t: Tournament) -> None:
        """Every round paired still follows from the results before it: a change that would
        change who meets whom in a round under way is refused, naming its tables played."""
        rounds = walk(t)[0]
        for r in t.rounds:
            tables, byes = rounds[r.round - 1] if r.round <= len(rounds) else ([], [])
            if {frozenset(x.entries) for x in r.tables} != set(map(frozenset, tables)) or set(r.byes) != set(byes):
                played = [f"{x.table} {'/'.join(x.entries)}" for x in r.tables if x.outcome is not None or x.games or x.forfeits]
                raise TournamentError("knockout_played_on", round=r.round, tables=played)

    def outcome(self, t: Tournament, round_no: int, table: Table) -> Outcome | None:
        best_of = self.best_of(t, round_no)
        need = best_of // 2 + 1
        d = decision(table)
        if d is None:
            wins = tuple(sum(1 for g in table.games if g == i) for i in (0, 1))
            ahead = table.clock and table.games[-1] is not None and wins[0] != wins[1]  # 三2: the clock ended it
            if max(wins) < need and not ahead:
                return None
            d = Decision(wins.index(max(wins)), games=wins)
        if d.winner is None:
            if any(d.forfeit):
                return Outcome((0, 0), (0, 0))
            raise TournamentError("knockout_winner")
        if d.levels is not None:  # 三2: 级高方为胜，同级时先到胜 -- the match's last game: the winner is never below
            won, lost = (level_index(d.levels[i]) for i in (d.winner, 1 - d.winner))
            if won < lost:
                raise TournamentError("knockout_winner_levels", winner=d.levels[d.winner], loser=d.levels[1 - d.winner])
        games = d.games or tuple(need if i == d.winner else 0 for i in (0, 1))
        won, lost = games[d.winner], games[1 - d.winner]
        if won == lost == 0:  # 三2: 级高方为胜 -- the game the clock ended is the winner's, as a table reports it
            raise TournamentError("knockout_clock_game", enter=json.dumps([int(i == d.winner) for i in (0, 1)]))
        if won == lost == 1 and best_of > 1:  # 三2: 第二阶段如1:1平局继续打完 (only 1:1; 2:2 is no best of three)
            raise TournamentError("knockout_play_on", games=f"{won}:{lost}")
        if not lost < won <= need:
            raise TournamentError("knockout_games", best_of=best_of, need=need, games=repr(list(games)))
        return Outcome(tuple(1 if i == d.winner else 0 for i in (0, 1)), games)

    def said(self, t: Tournament, table: Table) -> tuple[str, ...] | None:
        """胜 / 负, as the seed decides a single game (三2: 根据级差（级高方为胜……）确定胜方) or a walkover; a double forfeit
        (十二 第2条, neither goes on) 负 both. A match of games played (三2: 三局两胜) reads as its games won (2 : 1):
        None, its scores. The table is not decided again: its outcome and forfeits (a walkover's 2 : 0 is no match
        played) say which."""
        if table.outcome is None:
            return None
        best_of = next((self.best_of(t, r.round) for r in t.rounds if table in r.tables), 1)
        if best_of > 1 and not table.forfeits:  # 1 : 0 too, the clock's end of a match (三2)
            return None
        return tuple("won" if p else "lost" for p in table.outcome.points)

    def standings(self, t: Tournament) -> list[dict]:
        _, places, left = walk(t)
        won, _ = totals(t)
        out = set(t.withdrawn)  # after every pair still in, whatever place they had reached
        order = sorted(t.entries, key=lambda e: (e.id in out, places[e.id], -won[e.id], t.lot.index(e.id)))
        ranks = closed_up(places, left, [e.id for e in order if e.id not in out], [e.id for e in order if e.id in out])
        return [{"rank": ranks[e.id], "id": e.id, "name": e.name, "unit": e.unit, "score": wire(won[e.id]),
                 "tiebreaks": [], "prize": None, "by_lot": False} | ({"withdrawn": True} if e.id in out else {})
                for e in order]


def closed_up(places: dict[str, int], left: dict[str, range], still: list[str], gone: list[str]) -> dict[str, int]:
    """The ranks of the pairs ``still`` in, from their bracket places with the places the pairs ``gone`` (withdrawn,
    best place first) left empty closed up, and those of the pairs gone after them, one by one. A place is empty when no
    pair still in holds it or shares it (four quarter-final losers share 5th: 5 to 8); each pair gone closes the last
    empty place of the bracket it ``left`` (its walkover leaves one of those places nobody's), or else of the places it
    held (shared with the other losers of a round not played off, or its own), so the places after it move up. A place
    a double forfeit left empty stays so (no champion, 十二 第2条).

    A semi-finalist withdrawn: its opponent goes on by walkover, 4th is nobody's; the 5th-place play-off's winner is 4th:

    >>> closed_up({"a": 1, "b": 2, "c": 3, "d": 5, "e": 6, "w": 1}, {"w": range(1, 5)}, ["a", "b", "c", "d", "e"], ["w"])
    {'a': 1, 'b': 2, 'c': 3, 'd': 4, 'e': 5, 'w': 6}

    Two quarter-final losers withdrawn from the play-off for 5th to 8th, and the losers of the round of 16 sharing 9th:

    >>> closed_up({"a": 5, "b": 7, "c": 9, "d": 9, "v": 5, "w": 5}, {"v": range(5, 9), "w": range(5, 9)},
    ...           ["a", "b", "c", "d"], ["v", "w"])
    {'a': 5, 'b': 6, 'c': 7, 'd': 7, 'v': 9, 'w': 10}
    """
    covered = {p for e in still for p in range(places[e], places[e] + sum(places[x] == places[e] for x in still))}
    empty = [p for p in range(1, max(covered, default=0)) if p not in covered]
    closed = []
    held = {e: left.get(e) or range(places[e], places[e] + sum(places[x] == places[e] for x in still + gone)) for e in gone}
    for e in sorted(gone, key=lambda e: len(held[e])):  # the narrowest first
        last = next((p for p in reversed(empty) if p in held[e] and p not in closed), None)
        if last is not None:
            closed.append(last)
    ranks = {e: places[e] - sum(p < places[e] for p in closed) for e in still}
    end = max((ranks[e] + sum(ranks[x] == ranks[e] for x in still) - 1 for e in still), default=0)
    return ranks | {e: end + i for i, e in enumerate(gone, 1)}


@dataclass(frozen=True)
class Bracket:
    """Slots (None: empty) playing for the places from ``first``."""

    first: int
    slots: tuple[str | None, ...]


def _decided(t: Tournament, round_no: int, pair: tuple[str, str]) -> tuple[str, ...] | None:
    """The table's winner then loser, both entries when both forfeited (nobody goes on), None
    while undecided (or not played)."""
    if len(t.rounds) < round_no:
        return None
    for x in t.rounds[round_no - 1].tables:
        if set(x.entries) == set(pair):
            if x.outcome is None:
                return None
            if 1 not in x.outcome.points:
                return ()
            w = x.outcome.points.index(1)
            return x.entries[w], x.entries[1 - w]
    return None


def _in(t: Tournament, entry: str | None, round_no: int) -> str | None:
    """The entry in its slot of the round, or None (an empty slot: its opponent goes on by walkover) for an entry
    withdrawn before the round was paired: a round paired already keeps it as it was paired."""
    if entry not in t.withdrawn:
        return entry
    if round_no <= len(t.rounds):
        r = t.rounds[round_no - 1]
        if entry in r.byes or any(entry in x.entries for x in r.tables):
            return entry
    return None


def walk(t: Tournament) -> tuple[list[tuple[list[tuple[str, ...]], list[str]]], dict[str, int], dict[str, range]]:
    """The tables (seated by the lot) and byes of every round that can be paired from the results
    so far, each entry's place as far as it is known (1 for those still in), and the places of the bracket each pair
    withdrawn left (its walkover leaves one of them nobody's)."""
    number = {e: i for i, e in enumerate(t.lot, 1)}
    place = {e: 1 for e in t.lot}
    brackets = [Bracket(1, tuple(slots(list(t.lot), _bracket(len(t.lot)))))]
    rounds: list = []
    left: dict[str, range] = {}
    while len(brackets[0].slots) > 1:
        kept = [Bracket(b.first, tuple(_in(t, s, len(rounds) + 1) for s in b.slots)) for b in brackets]
        for b, k in zip(brackets, kept):  # a pair withdrawn leaves the bracket: one of its places will be nobody's
            left |= {s: range(b.first, b.first + len(b.slots)) for s, gone in zip(b.slots, k.slots) if s and not gone}
        brackets = kept
        tables, byes = [], []
        for b in brackets:
            for a, c in zip(b.slots[::2], b.slots[1::2]):
                if a and c:
                    tables.append(tuple(sorted((a, c), key=number.get, reverse=True)))
                elif a or c:
                    byes.append(a or c)
        rounds.append((tables, byes))
        no, done, after = len(rounds), True, []
        for b in brackets:
            half = len(b.slots) // 2
            reached = sum(1 for s in b.slots if s)
            ahead: list[str | None] = []
            losers: list[str] = []
            for a, c in zip(b.slots[::2], b.slots[1::2]):
                if not (a and c):
                    ahead.append(a or c)
                    continue
                result = _decided(t, no, (a, c))
                if result is None:
                    done = False
                    ahead.append(None)
                elif not result:  # a double forfeit: neither goes on, both share the round's last place
                    ahead.append(None)
                    place[a] = place[c] = b.first + reached - 1
                else:
                    ahead.append(result[0])
                    losers.append(result[1])
                    place[result[1]] = b.first + half
            after.append(Bracket(b.first, tuple(ahead)))
            if losers and half > 1 and b.first + half <= PLACES:
                after.append(Bracket(b.first + half, tuple(slots(losers, half))))
        if not done:
            return rounds, place, left
        brackets = sorted(after, key=lambda b: b.first)
    return rounds, place, left
