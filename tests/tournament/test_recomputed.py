"""Whole events of the seeds' three systems, played through the store with byes, a forfeit, a withdrawal mid-event and
ties that go down the tie-breaks, and their standings, places and prizes recomputed here from the seeds' articles and
the results the store recorded (each table's entries, the result entered and who forfeited it, the byes, who withdrew,
the lot): never from the package's points, outcomes or ranking.

000 (pair-swiss, Tractor) 四4: 每轮竞赛得分（轮分）：胜者2分，平局者各1分，负者0分，弃权0分；每轮竞赛级差：胜者2，平局者各0，
负者-2，弃权者-2。四5: 各队的团体成绩由本队两对选手轮分积分累加而定。团体总分高者名次列前；若总分相同，则比较对手分，对手分高者名次
列前；若对手分相同，则比较竞赛级差，级差高者名次列前；若级差仍相同，则抽签决定名次。五: 本届竞赛决出一等奖1名，二等奖3名，三等奖5名。
未获名次的队给予鼓励奖。Where it is silent (referee/tournament/README.md, "Decisions"): a bye is a win (2, +2) and adds
nothing to 对手分; 对手分 is the opponent pair's final score; a team's lot is its first pair's; a team withdrawn is
listed after every team still in, with no prize.

002 (knockout-best-of-three, Guandan) 三2: 第一阶段：采取单局淘汰制决出前16名……第二阶段：采取三局两胜制. 四1: 凡参加比赛的选手
均有纪念品。四2: 获得本届比赛前八名的选手分别颁发证书和奖品。Decided (knockout.py): places 1 to 8 are played off; a place is
1 plus, for every round lost, the slots that round's bracket sends on (the losers share it, and play on only while
it is 8 or better); a walkover (a bye) is no loss; the pairs still in rank by place as a competition ranks (level
places share a rank, the next rank counts them), the withdrawn after them by place, matches won, lot.

004 (individual-tables, San Da Yi) 附件一 一、1: 每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分，最终比赛结果按照四轮
比赛累计积分进行排名，如出现积分相同者，则计算小分进行排名，小分高者排名靠前。Decided: players level at a table share their
places' points; a player who forfeits scores 0 and 0 and the others rank among themselves; then rounds forfeited
(fewer first), then the lot; the withdrawn after every player still in, holding the seats the draw leaves empty.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from referee.tournament import TournamentError, TournamentStore
from referee.tournament.base import prizes
from referee.tournament.simulate import make_entries

SEEDS = range(20)


def play(system: str, n: int, seed: int, result, withdraw_after: int, options: dict) -> TournamentStore:
    """A whole event: each round's first table forfeited by its first entry, after round ``withdraw_after`` the entry
    ranked last withdrawn (the knockout: the first still on); ``result(rng, absent)`` gives each other table's
    result, the seats numbered ``absent`` (individual tables: the withdrawn, forfeited) scoring 0."""
    rng = random.Random(f"{seed}:recomputed")
    store = TournamentStore(":memory:")
    store.new(system, make_entries(system, n, rng), seed=seed, options=options)
    while not store.tournament.finished:
        try:
            view = store.pair_next_round()
        except TournamentError:  # the field left cannot play every round: the organiser lowers them
            store.set_rounds(len(store.tournament.rounds))
            break
        no = view["round"]
        for x in store.tournament.round(no).tables:
            first = [x.entries[0]] if x.table == "t01" else []
            absent = [i for i, e in enumerate(x.entries) if e in x.forfeits or e in first]
            if system == "individual-tables":  # the others' scores with it
                store.record_result(no, x.table, result(rng, absent), forfeits=first)
            elif first:
                store.forfeit(no, x.table, first)
            elif not x.forfeits:
                store.record_result(no, x.table, result(rng, absent))
        if no == withdraw_after:
            still = [r["id"] for r in store.standings()["rows"] if not r.get("withdrawn")]
            entry = still[-1] if system != "knockout-best-of-three" else still[0]  # the knockout: a pair still on
            if system == "pair-swiss":
                entry = next(e.id for e in store.tournament.entries if e.team_id == entry)
            store.withdraw_entry(entry, reason="退赛")
    assert store.tournament.finished
    return store


def exact(v) -> Fraction:
    """A payload's number ("10/3" a string) as the fraction it is."""
    return Fraction(str(v))


def ranked(keys: dict[str, tuple], lot: list[str], withdrawn: set[str]) -> list[tuple[str, int, bool]]:
    """(id, rank, by_lot): larger keys first, then the lot; the withdrawn after every one still in."""
    out = []
    for group in ([k for k in keys if k not in withdrawn], [k for k in keys if k in withdrawn]):
        order = sorted(group, key=lambda k: (tuple(-v for v in keys[k]), lot.index(k)))
        out += [(k, len(out) + i, sum(keys[o] == keys[k] for o in group) > 1) for i, k in enumerate(order, 1)]
    return out


# -- 000: pair-swiss ----------------------------------------------------------------------------------------------

LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "A+")  # 附件2 第二条; A+: past A


def swiss_result(rng, absent):
    return rng.choice(({"winner": 0}, {"winner": 1}, {"draw": True}, {"draw": True}, {"draw": True}))


def swiss_levels_result(rng, absent):
    """A result with the levels reached (``level_diff`` real): the winner's higher, a draw's equal."""
    low, high = sorted(rng.sample(range(len(LEVELS)), 2))
    won = rng.choice((0, 1, None))
    levels = [LEVELS[high if i == won else low] for i in (0, 1)]
    return {"draw": True, "levels": levels} if won is None else {"winner": won, "levels": levels}


def swiss_recomputed(t) -> list[tuple]:
    score = {e.id: Fraction(0) for e in t.entries}
    level = dict(score)
    met = {e.id: [] for e in t.entries}
    for r in t.rounds:
        for b in r.byes:  # a bye: a win
            score[b] += 2
            level[b] += 2
        for x in r.tables:
            gone = [e in x.forfeits for e in x.entries]
            if any(gone):
                points = [0 if g else 2 for g in gone]
            elif x.entered.get("draw"):
                points = [1, 1]
            else:
                points = [2 if i == x.entered["winner"] else 0 for i in (0, 1)]
            real = t.options["level_diff"] == "real" and not any(gone)  # the levels reached apart, else 四4's steps
            steps = [LEVELS.index(x.entered["levels"][i]) - LEVELS.index(x.entered["levels"][1 - i]) for i in (0, 1)] \
                if real else [{2: 2, 1: 0, 0: -2}[p] for p in points]
            for i, e in enumerate(x.entries):
                score[e] += points[i]
                level[e] += steps[i]
                met[e].append(x.entries[1 - i])
    teams: dict[str, list[str]] = {}
    for e in t.entries:
        teams.setdefault(e.team_id, []).append(e.id)
    keys = {team: (sum(score[p] for p in ps), sum(score[o] for p in ps for o in met[p]), sum(level[p] for p in ps))
            for team, ps in teams.items()}
    lot = sorted(teams, key=lambda team: min(t.lot.index(p) for p in teams[team]))
    gone = {team for team, ps in teams.items() if set(ps) <= set(t.withdrawn)}
    prize = ["一等奖"] + ["二等奖"] * 3 + ["三等奖"] * 5
    return [(team, rank, by_lot, keys[team][0], list(keys[team][1:]),
             [] if team in gone else [prize[rank - 1] if rank <= 9 else "鼓励奖"])
            for team, rank, by_lot in ranked(keys, lot, gone)]


# -- 002: knockout ------------------------------------------------------------------------------------------------

def knockout_result(rng, absent):
    return {"winner": rng.randrange(2)}  # in the best of three, 2 : 0


def knockout_recomputed(t) -> list[tuple]:
    size = 1 << (len(t.entries) - 1).bit_length()
    place = {e.id: 1 for e in t.entries}
    won = {e.id: 0 for e in t.entries}
    for k, r in enumerate(t.rounds, 1):
        for x in r.tables:
            gone = [e in x.forfeits for e in x.entries]
            w = gone.index(False) if any(gone) else x.entered["winner"]
            won[x.entries[w]] += 1
            place[x.entries[1 - w]] += size >> k
    out = []
    still = [e for e in place if e not in t.withdrawn]
    for e in sorted(still, key=lambda e: (place[e], -won[e], t.lot.index(e))):
        rank = 1 + sum(place[o] < place[e] for o in still)
        out.append((e, rank, False, won[e], [], (["证书和奖品"] if rank <= 8 else []) + ["纪念品"]))
    gone = sorted(t.withdrawn, key=lambda e: (place[e], -won[e], t.lot.index(e)))
    end = max(r + sum(o[1] == r for o in out) - 1 for _, r, *_ in out)
    return out + [(e, end + i, False, won[e], [], []) for i, e in enumerate(gone, 1)]


# -- 004: individual tables ---------------------------------------------------------------------------------------

def individual_result(rng, absent):
    return {"scores": [0 if i in absent else rng.choice((0, 10, 20)) for i in range(4)]}


def individual_recomputed(t) -> list[tuple]:
    points = {e.id: Fraction(0) for e in t.entries}
    small = dict(points)
    absent = {e.id: 0 for e in t.entries}
    for r in t.rounds:
        for x in r.tables:
            here = [(s, e) for s, e in zip((x.entered or {"scores": [0] * 4})["scores"], x.entries) if e not in x.forfeits]
            for e in x.forfeits:
                absent[e] += 1
            for s, e in here:
                above, level = sum(o > s for o, _ in here), sum(o == s for o, _ in here)
                points[e] += Fraction(sum((5, 3, 2, 1)[above:above + level]), level)
                small[e] += Fraction(str(s))
    keys = {e: (points[e], small[e], -absent[e]) for e in points}
    return [(e, rank, by_lot, points[e], [small[e], absent[e]], [])
            for e, rank, by_lot in ranked(keys, list(t.lot), set(t.withdrawn))]


def tournament_rows(store) -> list[tuple]:
    t = store.tournament
    return [(r["id"], r["rank"], r["by_lot"], exact(r["score"]), [exact(v) for v in r["tiebreaks"]],
             prizes(t.rules.awards, r, t.finished)) for r in store.standings()["rows"]]


EVENTS = {  # system, entries, a table's result, the recomputation, the round after which one withdraws, options
    "pair-swiss": ("pair-swiss", 16, swiss_result, swiss_recomputed, 2, {}),
    "pair-swiss real levels": ("pair-swiss", 16, swiss_levels_result, swiss_recomputed, 3, {"level_diff": "real"}),
    "knockout-best-of-three": ("knockout-best-of-three", 19, knockout_result, knockout_recomputed, 2, {}),
    "individual-tables": ("individual-tables", 12, individual_result, individual_recomputed, 2, {}),
}
# The tie-breaks some standings reached, rows level on the score (the index of the tie-break that parted them, or
# "lot"). Under 四4's steps a table's 级差 is twice its points less 2 (胜 2/+2, 平 1/0, 负 and 弃权 0/-2, a bye 2/+2),
# so 级差 parts no two teams level on the score that count as many tables: the real levels reach it, and the lot.
REACHED = {"pair-swiss": {0, "lot"}, "pair-swiss real levels": {0, 1}, "knockout-best-of-three": {"lot"},
           "individual-tables": {0, 1, "lot"}}


def parted(rows: list[tuple]) -> set:
    """How rows level on the score were told apart: the tie-break's index, or "lot" (the knockout: shared)."""
    out = set()
    for a, b in zip(rows, rows[1:]):
        if a[3] == b[3]:
            out.add(next((i for i, (p, q) in enumerate(zip(a[4], b[4])) if p != q), "lot"))
    return out


@pytest.mark.parametrize("event", EVENTS)
def test_standings_places_and_prizes_equal_the_seeds_articles_recomputed(event):
    system, n, result, recomputed, withdraw_after, options = EVENTS[event]
    reached = set()
    for seed in SEEDS:
        store = play(system, n, seed, result, withdraw_after, options)
        t = store.tournament
        assert t.withdrawn and any(x.forfeits for r in t.rounds for x in r.tables)
        assert any(r.byes for r in t.rounds) or system == "individual-tables"  # there: the withdrawn's seat, forfeited
        rows = tournament_rows(store)
        assert rows == recomputed(t), (event, seed)
        reached |= parted(rows)
    assert reached == REACHED[event]
