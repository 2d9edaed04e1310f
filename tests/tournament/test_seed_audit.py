"""An audit of the competition's rulings against the seeds' own words (s52): ties broken by the second and third
criterion or by none, odd fields, the last round when everyone has met, a withdrawn or forfeiting entry in its
opponents' tie-breaks, the lateness limits at their edge. Each test quotes the article it checks."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from referee.tournament import Entry, TournamentError, TournamentStore
from referee.tournament.pairswiss import pair_stats
from referee.tournament.views import standings_view
from test_withdraw import field
from test_withdraw import play_round as play

SEED_000_4_2 = "第1轮采用电脑抽签编排对手，第2轮起按同分或近分原则由电脑随机编排对手（同单位对手和赛过的对手不编排再赛）。"
SEED_000_4_4 = "每轮竞赛得分（轮分）：胜者2分，平局者各1分，负者0分，弃权0分；每轮竞赛级差：胜者2，平局者各0，负者-2，弃权者-2。"
SEED_000_4_5 = ("团体总分高者名次列前；若总分相同，则比较对手分，对手分高者名次列前；若对手分相同，则比较竞赛级差，级差高者名次列前；"
                "若级差仍相同，则抽签决定名次。")
SEED_000_5 = "本届竞赛决出一等奖1名，二等奖3名，三等奖5名。"
SEED_000_13 = "16~20分钟，首盘自动放弃，对手自动升级；21分钟以上判全队该轮弃权。"
SEED_002_12_2 = "比赛宣布开始5分钟后，一方两位选手仍未同时到赛场就位，则本轮比赛作弃权论处。"
SEED_002_3_2 = "第一阶段：采取单局淘汰制决出前16名"
SEED_004_1_1 = ("每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分，最终比赛结果按照四轮比赛累计积分进行排名，"
                "如出现积分相同者，则计算小分进行排名，小分高者排名靠前。")
SEED_004_1_4 = "每轮比赛前进行抽签决定桌次，并按照黑红梅方逆时针依次落座。"


def seed_says(n: int, words: str) -> None:
    """The quoted article is the seed's own text (a test never quotes words the seed does not have)."""
    from pathlib import Path

    seeds = Path(__file__).resolve().parents[3] / "shared" / "seeds"
    found = sorted(seeds.glob(f"{n:03d}_*.txt")) if seeds.is_dir() else []
    if found:
        text = found[0].read_text(encoding="utf-8")
        assert all(part in text for part in words.split("；") if part), words


def rows(t) -> list[tuple]:
    return [(r["rank"], r["id"], r["score"], r["tiebreaks"], r["prize"], r["by_lot"]) for r in standings_view(t)["rows"]]


TEAMS4 = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", "c1": "C", "c2": "C", "d1": "D", "d2": "D"}


def test_000_the_third_criterion_the_level_difference_breaks_a_tie_of_score_and_opponent_score(hand_log):
    """四5: 若对手分相同，则比较竞赛级差，级差高者名次列前. A and B: 2 points and 对手分 2 each; B's levels (real, A+ : 2
    and J : A+, 13 - 4) beat A's (A+ : 9 and 5 : A+, 6 - 10): B first though A comes first in the lot, and no place is
    the lot's."""
    seed_says(0, SEED_000_4_5)
    log = (hand_log("pair-swiss", TEAMS4, lot=["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"],
                    options={"rounds": 1, "level_diff": "real"})
           .pair(1, [("a1", "c1"), ("a2", "d1"), ("b1", "c2"), ("b2", "d2")])
           .results(1, {"winner": 0, "levels": ["A+", "9"]}, {"winner": 1, "levels": ["5", "A+"]},
                    {"winner": 0, "levels": ["A+", "2"]}, {"winner": 1, "levels": ["J", "A+"]}))
    got = rows(log.replay())
    assert got[:3] == [(1, "D", 4, [0, 14], "一等奖", False), (2, "B", 2, [2, 9], "二等奖", False),
                       (3, "A", 2, [2, -4], "二等奖", False)]


def test_000_under_the_seeds_level_steps_the_level_difference_follows_the_score_of_as_many_pair_rounds():
    """四4: 胜者2，平局者各0，负者-2 against 胜者2分，平局者各1分，负者0分: over n pair-rounds played (a bye a win, a
    forfeit a loss) a pair's 级差 is 2 x (score - n), so with the seed's steps 四5's third criterion can part only teams
    whose pairs played unequal numbers of tables (a pair withdrawn: its later rounds count 0 and 0, the chosen reading);
    it is the option ``level_diff: real`` that makes it part teams level on score otherwise. Checked over every
    win/draw/loss record of up to 6 rounds."""
    seed_says(0, SEED_000_4_4)
    for n in range(1, 7):
        for w, d in itertools.product(range(n + 1), repeat=2):
            if w + d <= n:
                score, level = 2 * w + d, 2 * w - 2 * (n - w - d)
                assert level == 2 * (score - n)


def test_000_a_tie_on_every_criterion_is_the_lots_even_for_the_first_prize(hand_log):
    """四5: 若级差仍相同，则抽签决定名次; 五: 一等奖1名. Two teams draw both tables: level on score, 对手分 and 级差; the lot
    gives the one first prize, marked as the lot's, and the other lot gives it to the other team."""
    seed_says(0, SEED_000_4_5)
    seed_says(0, SEED_000_5)
    units = {"a1": "A", "a2": "A", "b1": "B", "b2": "B"}
    for lot, first in ((["b2", "a1", "a2", "b1"], "B"), (["a2", "b1", "b2", "a1"], "A")):
        log = (hand_log("pair-swiss", units, lot=lot, options={"rounds": 1})
               .pair(1, [("a1", "b1"), ("a2", "b2")]).results(1, {"draw": True}, {"draw": True}))
        got = rows(log.replay())
        assert [(r[0], r[1], r[4], r[5]) for r in got] == [(1, first, "一等奖", True),
                                                            (2, "AB".replace(first, ""), "二等奖", True)]


def ids(table: dict) -> list[str]:
    return [e["id"] for e in table["entries"]]


@pytest.mark.parametrize("sizes,rounds", [({"甲": 2, "乙": 2, "丙": 2, "丁": 2}, 6), ({"甲": 2, "乙": 2, "丙": 2}, 4)])
@pytest.mark.parametrize("seed", [1, 2])
def test_000_the_last_round_pairs_the_only_opponents_left_when_everyone_else_has_been_met(tmp_path, sizes, rounds, seed):
    """四2: 同单位对手和赛过的对手不编排再赛. Four units of two pairs play six rounds (three units four): each pair has exactly
    as many pairs of other units as rounds, so by the last round each pair has one opponent left, and it is paired
    with it, whatever the results before."""
    seed_says(0, SEED_000_4_2)
    store = TournamentStore(tmp_path / "t.db")
    entries = field(sizes)
    store.new("pair-swiss", entries, seed=seed, options={"rounds": rounds})
    rng = random.Random(seed)
    met = Counter()
    for _ in range(rounds):
        view = play(store, rng)
        assert view["byes"] == []
        for x in view["tables"]:
            a, b = x["entries"]
            assert a["unit"] != b["unit"]  # never two pairs of one unit
            met[frozenset((a["id"], b["id"]))] += 1
    unit = {e.id: e.unit for e in entries}
    assert set(met.values()) == {1}
    assert set(met) == {frozenset(p) for p in itertools.combinations(unit, 2) if unit[p[0]] != unit[p[1]]}
    with pytest.raises(TournamentError):
        store.pair_next_round()


def test_000_an_odd_field_gives_every_pair_one_bye_and_worth_a_win_but_no_opponent_score(tmp_path):
    """四2 and 四4, with an odd field (``team_pairs`` 1: five pairs, five rounds): each pair has the bye once and meets
    the four others once; a bye is 2 points and 级差 +2 (decided: no seed scores a 轮空) and adds nothing to 对手分."""
    seed_says(0, SEED_000_4_2)
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", field({"甲": 1, "乙": 1, "丙": 1, "丁": 1, "戊": 1}, alone=True), seed=7,
              options={"rounds": 5, "team_pairs": 1})
    rng = random.Random(7)
    byes, met = Counter(), Counter()
    for _ in range(5):
        view = play(store, rng)
        byes.update(view["byes"])
        met.update(frozenset(e["id"] for e in x["entries"]) for x in view["tables"])
    assert sorted(byes.values()) == [1] * 5 and len(met) == 10 and set(met.values()) == {1}
    t = store.tournament
    stats = pair_stats(t)
    for p, s in stats.items():
        assert len(s["opponents"]) == 4  # the bye is nobody met
        row = next(r for r in standings_view(t)["rows"] if r["id"] == t.entry(p).team_id)
        assert row["tiebreaks"][0] == sum(stats[o]["score"] for o in s["opponents"])


def test_000_a_forfeit_counts_0_and_minus_2_and_the_absent_pair_stays_its_opponents_opponent(hand_log):
    """四4: 胜者2分……弃权0分；……胜者2……弃权者-2. The pair present wins (2, +2); the pair absent scores 0 and -2, and
    (decided, the seed silent) counts as met: its final score is in its opponent's 对手分 as any opponent's."""
    seed_says(0, SEED_000_4_4)
    log = (hand_log("pair-swiss", TEAMS4, options={"rounds": 2})
           .pair(1, [("a1", "c1"), ("a2", "d1"), ("b1", "c2"), ("b2", "d2")])
           .add("forfeit", round=1, table="t01", entries=["c1"]))
    for table in ("t02", "t03", "t04"):
        log.add("result", round=1, table=table, result={"winner": 0})
    log.pair(2, [("a1", "d1"), ("a2", "c1"), ("b1", "d2"), ("b2", "c2")])
    log.results(2, {"winner": 1}, {"winner": 1}, {"draw": True}, {"draw": True})
    t = log.replay()
    stats = pair_stats(t)
    assert (stats["c1"]["score"], stats["c1"]["level"]) == (2, 0)  # round 1: 0 and -2; round 2 won: 2 and +2
    assert (stats["a1"]["score"], stats["a1"]["level"]) == (2, 0)
    assert stats["a1"]["opponents"] == ["c1", "d1"]
    a = next(r for r in standings_view(t)["rows"] if r["id"] == "A")
    assert a["tiebreaks"][0] == stats["c1"]["score"] + stats["d1"]["score"] + stats["d1"]["score"] + stats["c1"]["score"]


def test_000_a_pair_withdrawn_stays_in_its_opponents_opponent_score_at_its_final_score(tmp_path):
    """四5 (对手分) with 第十四条 (取消参赛资格): a pair withdrawn after round 1 is paired no more; its result stands and its
    round-1 opponent's 对手分 counts its score as it ends (its later rounds 0 and 0, the chosen reading); its teammate
    plays on and the team stays ranked."""
    seed_says(0, SEED_000_4_5)
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", field({"甲": 2, "乙": 2, "丙": 2, "丁": 2}), seed=3, options={"rounds": 3})
    view = store.pair_next_round()
    for x in view["tables"]:
        store.record_result(1, x["table"], {"winner": 0})
    gone = "甲1"
    met = next(ids(x) for x in view["tables"] if gone in ids(x))
    opponent = met[1 - met.index(gone)]
    store.withdraw_entry(gone, reason="取消比赛资格")
    rng = random.Random(3)
    for _ in range(2):
        v = play(store, rng)
        assert all(gone not in ids(x) for x in v["tables"]) and gone not in v["byes"]
    t = store.tournament
    stats = pair_stats(t)
    assert len(stats[gone]["opponents"]) == 1 and stats[gone]["level"] in (2, -2)
    assert stats[gone]["score"] in (0, 2)  # round 1 only
    team = next(e.team_id for e in t.entries if e.id == opponent)
    row = next(r for r in standings_view(t)["rows"] if r["id"] == team)
    mates = [e.id for e in t.entries if e.team_id == team]
    assert row["tiebreaks"][0] == sum(stats[o]["score"] for p in mates for o in stats[p]["opponents"])
    assert gone in stats[opponent]["opponents"]
    assert not next(r for r in standings_view(t)["rows"] if r["id"] == "甲").get("withdrawn")


@pytest.mark.parametrize("minutes,forfeit", [(20, False), (20.5, True), (21, True)])
def test_000_late_past_the_twentieth_minute_is_the_whole_teams_round(hand_log, minutes, forfeit):
    """第十三条: 16~20分钟，首盘自动放弃……21分钟以上判全队该轮弃权. Read as the tables rule a started minute: 20 minutes is the
    first hand's band, anything past it (20.5: the 21st minute started) the team's round."""
    seed_says(0, SEED_000_13)
    t = (hand_log("pair-swiss", TEAMS4, options={"rounds": 1})
         .pair(1, [("a1", "c1"), ("a2", "d1"), ("b1", "c2"), ("b2", "d2")])
         .add("late", round=1, entry="a1", minutes=minutes)).replay()
    lost = {x.table: x.forfeits for x in t.rounds[0].tables if x.forfeits}
    assert lost == ({"t01": ("a1",), "t02": ("a2",)} if forfeit else {})


@pytest.mark.parametrize("minutes,forfeit", [(5, False), (5.5, True)])
def test_002_late_past_five_minutes_forfeits_the_pairs_round(hand_log, minutes, forfeit):
    """十二 第2条: 比赛宣布开始5分钟后，一方两位选手仍未同时到赛场就位，则本轮比赛作弃权论处."""
    seed_says(2, SEED_002_12_2)
    t = (hand_log("knockout-best-of-three", {f"k{i}": f"u{i}" for i in range(1, 5)})
         .pair(1, [("k2", "k1"), ("k4", "k3")]).add("late", round=1, entry="k1", minutes=minutes)).replay()
    x = t.rounds[0].tables[0]
    assert x.forfeits == (("k1",) if forfeit else ())
    assert (x.outcome is not None and x.outcome.points == (1, 0)) == forfeit


def test_002_losers_of_rounds_not_played_off_share_their_place_and_no_place_is_drawn(hand_log):
    """规程 三2 (第一阶段：采取单局淘汰制决出前16名) and 四2 (前八名): 20 pairs; the four losers of stage 1's single games
    share 17th, never by the lot (the knockout's ties are shared, not drawn)."""
    seed_says(2, SEED_002_3_2)
    units = {f"k{i:02d}": f"u{i}" for i in range(1, 21)}
    log = hand_log("knockout-best-of-three", units)
    t = log.replay()
    tables, byes = t.rules.pair(t, 1)
    t = log.pair(1, [e for _, e in tables], byes).results(1, *[{"winner": 0}] * len(tables)).replay()
    got = {r["id"]: (r["rank"], r["by_lot"]) for r in standings_view(t)["rows"]}
    losers = [e[1] for _, e in tables]
    assert {got[p] for p in losers} == {(17, False)}
    assert all(not by_lot for _, by_lot in got.values())


SAN = {"s1": "机械", "s2": "机械", "s3": "光电", "s4": "光电", "s5": "管理", "s6": "管理", "s7": "外语", "s8": "外语"}


def test_004_four_level_at_a_table_share_the_eleven_points_and_the_small_points_then_decide(hand_log):
    """一、1: 第一名积5分，第二名积3分，第三名积2分，第四名积1分 (four level share 5 + 3 + 2 + 1: 11/4 each, decided) and
    如出现积分相同者，则计算小分进行排名: over two rounds the 小分 part players level on points."""
    seed_says(4, SEED_004_1_1)
    t = (hand_log("individual-tables", SAN, options={"rounds": 1})
         .pair(1, [("s1", "s3", "s5", "s7"), ("s2", "s4", "s6", "s8")])
         .results(1, {"scores": [0, 0, 0, 0]}, {"scores": [9, 9, 9, 9]})).replay()
    got = rows(t)
    assert {r[2] for r in got} == {"11/4"}
    assert [r[1] for r in got[:4]] == ["s2", "s4", "s6", "s8"]  # the 小分 (9 against 0), never the lot
    assert all(r[5] for r in got)  # within each four, level on 小分 too: the lot's


def test_004_a_withdrawn_players_seat_leaves_the_three_others_five_three_two(tmp_path):
    """一、1 and 三 (情节严重者取消比赛资格): a player disqualified after round 1 holds, forfeited, the seat the draw leaves
    empty (a table plays four); the three others take 5, 3 and 2 by their 小分, and the one withdrawn is listed after
    everyone still in, its forfeits counted."""
    seed_says(4, SEED_004_1_1)
    seed_says(4, SEED_004_1_4)
    store = TournamentStore(tmp_path / "t.db")
    entries = [Entry(p, p, u, u, (p,)) for p, u in SAN.items()]
    store.new("individual-tables", entries, seed=11, options={"rounds": 2})
    view = store.pair_next_round()
    for x in view["tables"]:
        store.record_result(1, x["table"], {"scores": [40, 20, 0, -20]})
    store.withdraw_entry("s1", reason="取消比赛资格")
    view = store.pair_next_round()
    table = next(x for x in view["tables"] if "s1" in ids(x))
    assert table["forfeits"] == ["s1"]
    scores = [0 if e == "s1" else 10 * i for i, e in enumerate(ids(table), 1)]
    store.record_result(2, table["table"], {"scores": scores})
    t = store.tournament
    x = next(x for x in t.rounds[1].tables if "s1" in x.entries)
    assert sorted(x.outcome.points) == [0, 2, 3, 5]
    last = standings_view(t)["rows"][-1]
    assert (last["id"], last.get("withdrawn"), last["tiebreaks"][1]) == ("s1", True, 1)


SEED_000_ANNEX2_2 = "每局竞赛最先升级超过级牌A的一方为胜方，另一方为负方。"
SEED_002_3_2_A = "记级从打2开始，过“A”为胜"


@pytest.mark.parametrize("system_name,result", [
    ("pair-swiss", {"draw": True, "levels": ["A+", "A+"]}),
    ("pair-swiss", {"winner": 0, "levels": ["A+", "A+"]}),
    ("knockout-best-of-three", {"winner": 0, "levels": ["A+", "A+"]}),
    ("knockout-best-of-three", {"winner": 1, "games": [1, 2], "levels": ["A+", "A+"]}),
])
def test_both_sides_past_a_is_refused_in_a_result_entered_by_hand(tmp_path, system_name, result):
    """000 附件2 第二条: 每局竞赛最先升级超过级牌A的一方为胜方 (第二十一条 3: 以升级率先过级牌A一方为获胜者); 002 规程 三2: 过“A”为胜.
    The first side past A wins and the game ends, so both sides are never past A: a draw at A+ and A+ was taken (1 point
    each), the knockout's winner at A+ level with its loser was taken as 同级时先到胜, and pair Swiss refused a winner
    there saying 级数相同是平局 (a draw, which is no result either). Refused in words, first entry or correction, nothing
    changed; the winner past A stands."""
    seed_says(0, SEED_000_ANNEX2_2)
    seed_says(2, SEED_002_3_2_A)
    store = TournamentStore(tmp_path / "t.db")
    if system_name == "pair-swiss":
        store.new(system_name, field({"甲": 1, "乙": 1}, alone=True), seed=1, options={"rounds": 1, "team_pairs": 1})
    else:
        store.new(system_name, [Entry(f"k{i}", f"k{i}", f"u{i}", f"u{i}", (f"k{i}a", f"k{i}b")) for i in range(1, 3)], seed=1)
    store.pair_next_round()
    before = store.tournament.seq
    with pytest.raises(TournamentError, match="双方不会都打过 A") as refused:
        store.record_result(1, "t01", result)
    assert "the two sides cannot both be past A" in refused.value.text("en")
    assert store.tournament.seq == before
    store.record_result(1, "t01", {"winner": 0, "levels": ["A+", "K"]})
    with pytest.raises(TournamentError, match="双方不会都打过 A"):
        store.correct_result(1, "t01", result, reason="记分错误")
    assert store.tournament.rounds[0].tables[0].entered == {"winner": 0, "levels": ["A+", "K"]}


def test_004_an_absent_player_scores_nothing_and_the_two_level_above_the_third_share_five_and_three(hand_log):
    """一、1: 第一名积5分，第二名积3分，第三名积2分 (an absent player's 0 and 0: decided, 004 says nothing of absence; the
    three present rank among themselves, two level sharing first and second: 4 each) and 如出现积分相同者，则计算小分进行
    排名: the absence counts in the standings only where points and 小分 are both level (the 弃权 column)."""
    seed_says(4, SEED_004_1_1)
    t = (hand_log("individual-tables", SAN, options={"rounds": 1})
         .pair(1, [("s1", "s3", "s5", "s7"), ("s2", "s4", "s6", "s8")])
         .add("forfeit", round=1, table="t01", entries=["s7"])
         .results(1, {"scores": [20, 20, -10, 0]}, {"scores": [20, 20, -10, -30]})).replay()
    assert t.rounds[0].tables[0].outcome.points == (4, 4, 2, 0)
    got = {r["id"]: (r["score"], r["tiebreaks"]) for r in standings_view(t)["rows"]}
    assert got["s7"] == (0, [0, 1]) and got["s8"] == (1, [-30, 0]) and got["s1"] == (4, [20, 0])
