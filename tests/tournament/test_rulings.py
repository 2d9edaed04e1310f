"""The rulings audit of the organisers' tournament (seeds 000, 002, 004): each rule's edges that the other tests leave
out, each case quoting the article it holds the code to. Pair Swiss: every tie-break level at once (000 四5), a bye in
the last round, a forfeit under the real level difference (四4), an odd number of units (四2), a withdrawn unit's past
results in its opponents' 对手分; the knockout of a field that is no power of two (002 三2, 四2); San Da Yi over its
four rounds (004 一1, 一4, 一5); what ends each tournament."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from referee.tournament import Entry, TournamentError, TournamentStore
from referee.tournament.exact import exact
from referee.tournament.knockout import walk
from referee.tournament.pairswiss import pair_stats
from referee.tournament.views import standings_view
from test_withdraw import field as pairs
from test_withdraw import play_round as play

W0, W1 = {"winner": 0}, {"winner": 1}


def lv(winner, a, b):
    return {"winner": winner, "levels": [a, b]} if winner is not None else {"draw": True, "levels": [a, b]}


def rows(t):
    return [(r["rank"], r["id"], r["score"], r["tiebreaks"], r["by_lot"]) for r in standings_view(t)["rows"]]


# -- pair Swiss (seed 000) --------------------------------------------------------------------------------------------

def test_every_tie_break_level_at_once(hand_log):
    """000 四5: 团体总分高者名次列前；若总分相同，则比较对手分，对手分高者名次列前；若对手分相同，则比较竞赛级差，级差高者名次
    列前；若级差仍相同，则抽签决定名次 -- one standings where each level decides a place (real levels, each pair a team).

    R1: e-c 8:8, f beats a Q:J, b beats h J:9, d-g J:J. R2: h beats a 10:9, f-b 8:8, c beats g J:9, e-d 8:8.
    R3: h-f 9:9, b beats e 10:9, g beats a Q:10, d beats c Q:J. Scores: b 5; d, f 4; c, g, h 3; e 2; a 0.
    对手分: d (g 3 + e 2 + c 3) = f (a 0 + b 5 + h 3) = 8; c (e 2 + g 3 + d 4) = h (b 5 + a 0 + f 4) = 9, g (d 4 + c 3 +
    a 0) = 7. 级差: d 0+0+1 = f 1+0+0 = 1: the lot; c 0+2-1 = 1 before h -2+1+0 = -1; both before g on 对手分."""
    log = (hand_log("pair-swiss", {p: p.upper() for p in "abcdefgh"},
                    options={"rounds": 3, "team_pairs": 1, "level_diff": "real"})
           .pair(1, [("e", "c"), ("a", "f"), ("h", "b"), ("d", "g")])
           .results(1, lv(None, "8", "8"), lv(1, "J", "Q"), lv(1, "9", "J"), lv(None, "J", "J"))
           .pair(2, [("h", "a"), ("f", "b"), ("g", "c"), ("e", "d")])
           .results(2, lv(0, "10", "9"), lv(None, "8", "8"), lv(1, "9", "J"), lv(None, "8", "8"))
           .pair(3, [("h", "f"), ("b", "e"), ("g", "a"), ("c", "d")])
           .results(3, lv(None, "9", "9"), lv(0, "10", "9"), lv(0, "Q", "10"), lv(1, "J", "Q")))
    assert rows(log.replay()) == [(1, "B", 5, [9, 3], False), (2, "D", 4, [8, 1], True), (3, "F", 4, [8, 1], True),
                                  (4, "C", 3, [9, 1], False), (5, "H", 3, [9, -1], False), (6, "G", 3, [7, 0], False),
                                  (7, "E", 2, [12, -1], False), (8, "A", 0, [10, -4], False)]
    assert [r["prize"] for r in standings_view(log.replay())["rows"]] == ["一等奖"] + ["二等奖"] * 3 + ["三等奖"] * 4
    log.actions[0]["data"]["lot"] = list("fabcdegh")  # 抽签决定名次: the lot decides D and F, and nothing else
    assert [r[1] for r in rows(log.replay())] == ["B", "F", "D", "C", "H", "G", "E", "A"]


def test_a_bye_in_the_last_round_is_a_win_and_the_prizes_follow_its_tables(tmp_path):
    """000 四4: 每轮竞赛得分（轮分）：胜者2分 -- the bye counts as a win (decided); 五: 本届竞赛决出一等奖1名，二等奖3名，
    三等奖5名 -- shown once the last round is complete: a bye in it is no table to wait for."""
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", pairs({u: 1 for u in "甲乙丙丁戊"}, alone=True), seed=3,
              options={"rounds": 5, "team_pairs": 1, "prizes": [1, 1, 1]})
    rng = random.Random(1)
    for _ in range(4):
        play(store, rng)
    before = pair_stats(store.tournament)
    (bye,) = store.pair_next_round()["byes"]
    before = before[bye]
    assert not store.tournament.finished
    store.record_result(5, "t01", W0)
    assert not store.tournament.finished and all(r["prize"] is None for r in store.standings()["rows"])
    store.record_result(5, "t02", {"draw": True})
    t = store.tournament
    assert t.finished
    after = pair_stats(t)[bye]
    assert (after["score"] - before["score"], after["level"] - before["level"]) == (2, 2)
    assert [r["prize"] for r in store.standings()["rows"]] == ["一等奖", "二等奖", "三等奖", None, None]
    assert sorted(b for r in t.rounds for b in r.byes) == sorted(e.id for e in t.entries)  # one bye each
    with pytest.raises(TournamentError):
        store.pair_next_round()  # 四2: 共赛6轮 -- here 5: the rounds set end it


def test_a_forfeit_under_the_real_level_difference_scores_the_seeds_values(hand_log):
    """000 四4: 胜者2分……弃权0分；每轮竞赛级差：胜者2……弃权者-2 -- a forfeit has no levels reached: its 级差 is the
    seed's -2 (and +2 for the side that came) even where the option counts the real levels; a walkover is read 胜/负."""
    log = (hand_log("pair-swiss", {p: p.upper() for p in "abcd"}, options={"rounds": 1, "team_pairs": 1, "level_diff": "real"})
           .pair(1, [("a", "b"), ("c", "d")]).add("forfeit", round=1, table="t01", entries=["b"])
           .add("result", round=1, table="t02", result=lv(1, "3", "A+")))
    t = log.replay()
    stats = pair_stats(t)
    assert [(stats[p]["score"], stats[p]["level"]) for p in "abcd"] == [(2, 2), (0, -2), (0, -12), (2, 12)]
    assert t.rules.said(t, t.round(1).table("t01")) == ("won", "lost")
    # and the absent pair's final score counts in its opponent's 对手分 as any opponent's (decided: 赛过的对手)
    assert rows(t)[:2] == [(1, "D", 2, [0, 12], False), (2, "A", 2, [0, 2], False)]


def test_levels_against_the_result_are_refused_whichever_level_difference_counts(tmp_path):
    """000 附件2 第二条: 每局竞赛最先升级超过级牌A的一方为胜方; 四4: 胜者2分，平局者各1分 -- the levels reached are
    the table's result as it is read (``said``: `9 : K`) under the seed's 级差 too: a winner at or below the loser's
    level, or a draw at two levels, is refused in words and the file is unchanged; levels that agree are taken."""
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", pairs({"甲": 1, "乙": 1}, alone=True), seed=1, options={"rounds": 1, "team_pairs": 1})
    store.pair_next_round()
    before = (tmp_path / "t.db").read_bytes()
    for result in (lv(0, "9", "K"), lv(1, "A+", "A+"), lv(None, "9", "10")):
        with pytest.raises(TournamentError) as refused:
            store.record_result(1, "t01", result)
        assert "级" in str(refused.value) and "level" in refused.value.text("en")
    assert (tmp_path / "t.db").read_bytes() == before and store.tournament.round(1).table("t01").outcome is None
    store.record_result(1, "t01", lv(1, "9", "K"))
    t = store.tournament
    assert t.rules.said(t, t.round(1).table("t01")) == ("9", "K") and t.round(1).table("t01").outcome.points == (0, 2)


def test_an_odd_number_of_units_meets_every_other_units_pair_once_and_no_more_rounds(tmp_path):
    """000 四2: 按报名人数采用积分编排法，共赛6轮……（同单位对手和赛过的对手不编排再赛） -- three units of two pairs:
    each pair has four opponents, so six rounds are refused with the four that can be played, and those four meet
    every pair of the other units once."""
    store = TournamentStore(tmp_path / "t.db")
    with pytest.raises(TournamentError) as refused:
        store.new("pair-swiss", pairs({"甲": 2, "乙": 2, "丙": 2}), seed=1)
    assert "4" in str(refused.value) and "4" in refused.value.text("en")
    assert not (tmp_path / "t.db").exists() or not store.actions()
    store.new("pair-swiss", pairs({"甲": 2, "乙": 2, "丙": 2}), seed=1, options={"rounds": 4})
    rng = random.Random(2)
    met = []
    for _ in range(4):
        view = play(store, rng)
        assert not view["byes"]
        met += [frozenset(e["id"] for e in x["entries"]) for x in view["tables"]]
    ids = [e.id for e in store.tournament.entries]
    assert sorted(map(sorted, met)) == sorted(sorted(p) for p in combinations(ids, 2) if p[0][0] != p[1][0])
    assert store.tournament.finished and len(store.standings()["rows"]) == 3


def test_a_withdrawn_units_past_results_count_in_its_opponents_tie_breaks(hand_log):
    """000 四5: 若总分相同，则比较对手分 -- a unit withdrawn after round 1 (退赛): its pairs' results stand, so their
    final scores still count in the 对手分 of the pairs that met them, pair's and team's alike (四5 各队的团体成绩)."""
    units = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", "c1": "C", "c2": "C", "d1": "D", "d2": "D"}
    log = (hand_log("pair-swiss", units, options={"rounds": 2})
           .pair(1, [("a1", "c1"), ("a2", "c2"), ("b1", "d1"), ("b2", "d2")]).results(1, W1, {"draw": True}, W0, W0)
           .add("leave", unit="C", entries=["c1", "c2"], reason="全队因公出差")
           .pair(2, [("a1", "b1"), ("a2", "d1"), ("b2", "d2")]))  # c's pairs leave the draw; d2 meets b2 again only here
    t = log.replay()
    # c1 2 (beat a1), c2 1 (drew a2): A's 对手分 3 now; c's pairs keep them after leaving
    assert {r["id"]: r["tiebreaks"][0] for r in standings_view(t)["rows"]}["A"] == 3
    t = log.results(2, W1, W0, W0).replay()
    stats = pair_stats(t)
    assert (stats["c1"]["score"], stats["c2"]["score"]) == (2, 1)
    by = {r["id"]: r for r in standings_view(t)["rows"]}
    assert by["A"]["tiebreaks"][0] == 2 + 1 + stats["b1"]["score"] + stats["d1"]["score"]
    assert by["C"]["withdrawn"] and by["C"]["rank"] == 4 and by["C"]["prize"] is None
    log.actions[0]["data"]["options"]["opponent_score"] = "team"  # the opponent's team's: C's 3 at both of A's tables
    by_team = {r["id"]: r["tiebreaks"][0] for r in standings_view(log.replay())["rows"]}
    assert by_team["A"] == 3 + 3 + by["B"]["score"] + by["D"]["score"]


def test_a_round_that_cannot_be_paired_after_a_withdrawal_says_how_many_rounds_can(tmp_path):
    """000 四2: 共赛6轮……（同单位对手和赛过的对手不编排再赛） -- a unit withdrawn leaves too few opponents for the rounds
    set: pairing the next round is refused naming how many rounds the pairs still in can play (it said only that no
    pairing keeps the rules), nothing written; set to that, the round pairs."""
    store = TournamentStore(tmp_path / "t.db")
    store.new("pair-swiss", pairs({"甲": 2, "乙": 2, "丙": 2, "丁": 2}), seed=1)
    play(store, random.Random(1))
    store.withdraw_unit("丁", reason="公务")
    t = store.tournament
    can = t.rules.most_rounds(t, 6)
    before = (tmp_path / "t.db").read_bytes()
    with pytest.raises(TournamentError) as refused:
        store.pair_next_round()
    assert can < 6 and f"最多能排 {can} 轮" in str(refused.value) and f"at most {can} rounds" in refused.value.text("en")
    assert (tmp_path / "t.db").read_bytes() == before
    store.set_rounds(can)
    assert store.pair_next_round()["round"] == 2


# -- the knockout (seed 002) ------------------------------------------------------------------------------------------

def test_a_field_of_three_plays_best_of_three_from_its_first_round_and_places_three(hand_log):
    """002 三2: 第一阶段：采取单局淘汰制决出前16名……第二阶段：采取三局两胜制 -- three pairs are fewer than 16: the
    bracket of four is best of three from the start; the first of the lot has the empty slot (a bye); 四2: 获得本届
    比赛前八名的选手分别颁发证书和奖品 -- all three are placed, the semi-final loser 3rd with no play-off to play."""
    log = hand_log("knockout-best-of-three", {"p1": "A", "p2": "B", "p3": "C"})
    t = log.replay()
    assert t.rules.pair(t, 1) == ([("t01", ("p3", "p2"))], ["p1"])  # 大号 (lot 3) sits S/N
    assert t.rules.best_of(t, 1) == 3 and t.total_rounds == 2
    with pytest.raises(TournamentError):  # 1:1 is played on (如1:1平局继续打完), never a result
        log.pair(1, [("p3", "p2")], byes=("p1",)).add("result", round=1, table="t01",
                                                         result={"winner": 0, "games": [1, 1]}).replay()
    log.actions.pop()
    log.results(1, {"winner": 1, "games": [1, 2]}).pair(2, [("p2", "p1")]).results(2, {"winner": 1, "games": [0, 2]})
    t = log.replay()
    assert t.finished and [(r["rank"], r["id"]) for r in standings_view(t)["rows"]] == [(1, "p1"), (2, "p2"), (3, "p3")]


def test_seventeen_pairs_play_one_single_game_then_sixteen_best_of_three(hand_log):
    """002 三2: 第一阶段：采取单局淘汰制决出前16名；第二阶段：采取三局两胜制 -- 17 pairs: a bracket of 32 whose first round
    is one single game (lot 16 against lot 17, the other fifteen by bye), then 16 best of three; the pair out in
    stage 1 is 17th, the losers of the round of 16 share 9th (四2 前八名: only places 1 to 8 are played off)."""
    ids = [f"p{i:02d}" for i in range(1, 18)]
    log = hand_log("knockout-best-of-three", {e: e for e in ids})
    t = log.replay()
    tables, byes = t.rules.pair(t, 1)
    assert tables == [("t01", ("p17", "p16"))] and byes == ids[:15]
    assert (t.rules.best_of(t, 1), t.rules.best_of(t, 2), t.total_rounds) == (1, 3, 5)
    log.pair(1, [("p17", "p16")], byes=ids[:15]).results(1, W1)
    t = log.replay()
    tables, byes = t.rules.pair(t, 2)
    assert len(tables) == 8 and not byes and ("t08", ("p16", "p15")) in tables
    log.pair(2, [x for _, x in tables]).results(2, *[W0] * 8)
    places = walk(log.replay())[1]
    assert places["p17"] == 17 and sorted(places[x[1]] for _, x in tables) == [9] * 8


def test_a_knockout_winner_below_the_losers_level_is_refused(tmp_path):
    """002 三2: 根据级差（级高方为胜，同级时先到胜……）确定胜方 -- levels entered with a knockout result are its last
    game's: a winner at a lower level than the loser's is refused in words and the file is unchanged; at the same level
    (同级时先到胜) or higher it is taken, with the games won or without."""
    store = TournamentStore(tmp_path / "k.db")
    store.new("knockout-best-of-three", pairs({"甲": 1, "乙": 1, "丙": 1, "丁": 1}), seed=1)
    view = store.pair_next_round()
    before = (tmp_path / "k.db").read_bytes()
    for result in (lv(0, "9", "J"), {"winner": 1, "games": [1, 2], "levels": ["A+", "8"]}):
        with pytest.raises(TournamentError) as refused:
            store.record_result(1, "t01", result)
        assert "先到胜" in str(refused.value) and "level" in refused.value.text("en")
    assert (tmp_path / "k.db").read_bytes() == before
    store.record_result(1, "t01", lv(0, "8", "8"))
    store.record_result(1, "t02", {"winner": 1, "games": [1, 2], "levels": ["6", "9"]})
    assert [x["result"]["points"] for x in store.round_view(1)["tables"]] == [[1, 0], [0, 1]] and len(view["tables"]) == 2


def test_late_within_the_notices_limit_is_said_and_forfeits_nothing(capsys, tmp_path):
    """000 第十三条: 5分钟之内警告……16~20分钟，首盘自动放弃，对手自动升级；21分钟以上判全队该轮弃权; 002 十二 第2条:
    比赛宣布开始5分钟后……本轮比赛作弃权论处 -- `late` within the limit forfeits nothing and says so in words (it
    printed the round unchanged and nothing else); past it the round shows the forfeit."""
    from cardtable.cli import main

    def first_table(db):
        store = TournamentStore(db)
        try:
            return store.tournament.round(1).tables[0]
        finally:
            store.close()

    form = tmp_path / "form.csv"
    form.write_text("单位,选手\n" + "".join(f"学院{i},甲{i}、乙{i}\n" for i in range(4)), encoding="utf-8")
    for system, within, past in (("pair-swiss", 20, 20.5), ("knockout-best-of-three", 5, 6)):
        db = str(tmp_path / f"{system}.db")
        new = ["--option", "team_pairs=1", "--rounds", "3"] if system == "pair-swiss" else []
        assert main(["tournament", "new", "--db", db, "--system", system, "--entries", str(form), "--seed", "1", *new]) == 0
        assert main(["tournament", "pair", "--db", db]) == 0
        entry = first_table(db).entries[0]
        for lang, said in (("zh", f"迟到 {within} 分钟，未超过规程的"), ("en", f"{within} minutes late, within the notice's")):
            capsys.readouterr()
            assert main(["tournament", "--lang", lang, "late", "--db", db, "--round", "1", "--entry", entry, "--minutes", str(within)]) == 0
            assert said in capsys.readouterr().out and first_table(db).outcome is None
        assert main(["tournament", "late", "--db", db, "--round", "1", "--entry", entry, "--minutes", str(past)]) == 0
        out = capsys.readouterr().out
        assert "未超过" not in out and "弃权" in out and first_table(db).forfeits == (entry,)


# -- individual tables (seed 004) -------------------------------------------------------------------------------------

def test_san_da_yi_over_its_four_rounds(tmp_path):
    """004 一1: 每天进行2轮比赛，共计4轮，每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分；一4: 每轮比赛前进行
    抽签决定桌次，并按照黑红梅方逆时针依次落座；一5: 每局比赛均按照黑红梅方的顺序依次作为首先叫牌者 -- sixteen players of
    four units over four rounds: a new draw each round seats everyone once, no two of a unit at a table; each round's
    eight games give the first bid ♠ ♥ ♣ ♦ twice round; the round points of a table are 11; a fifth round is refused."""
    store = TournamentStore(tmp_path / "t.db")
    store.new("individual-tables", [Entry(f"{u}{k}", f"{u}{k}", u, u, (f"{u}{k}",)) for u in "甲乙丙丁" for k in range(1, 5)],
              seed=7)
    rng = random.Random(4)
    draws = []
    for n in range(1, 5):
        view = store.pair_next_round()
        seated = [[e["id"] for e in x["entries"]] for x in view["tables"]]
        assert sorted(sum(seated, [])) == sorted(e.id for e in store.tournament.entries)
        assert all(len({p[0] for p in x}) == 4 for x in seated)
        draws.append({frozenset(x) for x in seated})
        for x in view["tables"]:
            store.record_result(n, x["table"], {"scores": [rng.randint(-20, 40) for _ in range(4)]})
            assert sum(store.tournament.round(n).table(x["table"]).outcome.points) == 11
    assert len({frozenset(d) for d in draws}) == 4  # drawn again each round
    t = store.tournament
    assert [s for _, s in t.rules.first_bidders(t)] == list("SHCD") * 2
    assert t.finished and sum(exact(r["score"]) for r in store.standings()["rows"]) == 4 * 4 * 11
    with pytest.raises(TournamentError):
        store.pair_next_round()


# -- a result and the prizes in the seed's words ----------------------------------------------------------------------

def test_a_knockout_match_reads_its_games_and_the_placed_get_the_seeds_prizes(hand_log):
    """002 三2: 第二阶段：采取三局两胜制 -- a match reads its games won (its scores, nothing said); 四 录取名次及奖励 1: 凡参加比赛的
    选手均有纪念品; 2: 获得本届比赛前八名的选手分别颁发证书和奖品 -- once finished, the first eight 证书和奖品 and 纪念品,
    every pair still in 纪念品, a pair withdrawn none (decided, as pair Swiss's 鼓励奖)."""
    from referee.tournament.export import prize_words, standing_rows
    from referee.tournament.views import results_said

    ids = [f"p{i:02d}" for i in range(1, 11)]  # ten pairs: a bracket of 16, the round of 16 losers share 9th
    log = hand_log("knockout-best-of-three", {e: e for e in ids}).add("leave", entries=["p10"], reason="取消比赛资格")
    t = log.replay()
    while not t.finished:
        n = len(t.rounds) + 1
        tables, byes = t.rules.pair(t, n)
        log.pair(n, [x for _, x in tables], byes=tuple(byes)).results(n, *[{"winner": 0, "games": [2, 1]}] * len(tables))
        t = log.replay()
    assert results_said(t, 1) == {}  # 三2 三局两胜: a match of games reads as its games won, 2 : 1 (its scores)
    rows = standings_view(t)["rows"]
    words = {r["id"]: (r["rank"], prize_words(t, r, "zh")) for r in rows}
    assert [w for r, w in words.values() if r <= 8] == ["证书和奖品、纪念品"] * 8
    assert [w for r, w in words.values() if r > 8] == ["纪念品", None] and words["p10"][1] is None
    assert prize_words(t, rows[0], "en") == "Certificate and prize, Souvenir"
    assert standing_rows(t, "zh")[1][-1] == "证书和奖品、纪念品"
    log.actions.pop()  # the last result not in: no prize yet
    t = log.replay()
    assert not t.finished and all(prize_words(t, r, "zh") is None for r in standings_view(t)["rows"])


def test_a_knockout_walkover_reads_won_and_lost_and_a_match_its_games_won(hand_log):
    """002 三2: 第二阶段：采取三局两胜制 -- a match of games played reads as its games won (2 : 1, the scores: said
    nothing else); 十二 第2条: 比赛宣布开始5分钟后，一方两位选手仍未同时到赛场就位，则本轮比赛作弃权论处 -- a walkover
    has no games: it reads 胜 : 负, not the 2 : 0 it counts."""
    from referee.tournament.export import result_words
    from referee.tournament.views import results_said

    ids = [f"p{i:02d}" for i in range(1, 11)]
    log = hand_log("knockout-best-of-three", {e: e for e in ids})
    t = log.replay()
    tables, byes = t.rules.pair(t, 1)
    log.pair(1, [x for _, x in tables], byes=tuple(byes))
    (t01, _), (t02, _) = [(name, x) for name, x in tables][:2]
    log.add("forfeit", round=1, table=t01, entries=[tables[0][1][1]]).add("result", round=1, table=t02, result={"winner": 0, "games": [2, 1]})
    t = log.replay()
    said = results_said(t, 1)
    assert said == {t01: ["won", "lost"]} and t.round(1).table(t02).outcome.scores == (2, 1)
    assert result_words(said[t01], "zh") == "胜 : 负" and result_words(said[t01], "en") == "won : lost"


def test_a_best_of_three_the_clock_ended_one_game_up_reads_one_to_nothing(hand_log):
    """002 三2: 第二阶段：采取三局两胜制……裁判宣布比赛结束（时间到1小时）……根据级差……确定胜方 -- a match the clock ended
    with one pair a game ahead is a match of games played: it reads as its games won, 1 : 0, not 胜 : 负 as a single
    game or a walkover does."""
    from referee.tournament.views import results_said

    ids = [f"p{i:02d}" for i in range(1, 5)]
    log = hand_log("knockout-best-of-three", {e: e for e in ids})
    t = log.replay()
    tables, byes = t.rules.pair(t, 1)
    log.pair(1, [x for _, x in tables], byes=tuple(byes)).results(1, {"winner": 0, "games": [1, 0]}, W1)
    t = log.replay()
    assert t.rules.best_of(t, 1) == 3 and results_said(t, 1) == {}
    assert [x.outcome.scores for x in t.round(1).tables] == [(1, 0), (0, 2)]


def test_show_says_a_best_of_three_by_its_games_won(capsys, tmp_path):
    """002 三2: 第二阶段：采取三局两胜制 -- `cardtable tournament show` says a match by its games won (成绩 2 : 1, and
    1 : 0 where the clock ended it), as the slips do; it said only the 轮分 1 0."""
    from cardtable.cli import main

    form = tmp_path / "form.csv"
    form.write_text("单位,选手\n" + "".join(f"学院{i},甲{i}、乙{i}\n" for i in range(4)), encoding="utf-8")
    db = str(tmp_path / "k.db")
    assert main(["tournament", "new", "--db", db, "--system", "knockout-best-of-three", "--entries", str(form), "--seed", "1"]) == 0
    assert main(["tournament", "pair", "--db", db]) == 0
    for table, games in (("t01", "2-1"), ("t02", "1-0")):
        assert main(["tournament", "result", "--db", db, "--round", "1", "--table", table, "--winner", "0", "--games", games]) == 0
    capsys.readouterr()
    for lang, score in (("zh", "成绩"), ("en", "Score")):
        assert main(["tournament", "--lang", lang, "show", "--db", db]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert [line.split("  ")[-1] for line in lines if line.startswith("t0")] == [f"{score} 2 : 1", f"{score} 1 : 0"]


def test_a_san_da_yi_table_reads_each_seats_place_not_its_small_points(tmp_path, capsys):
    """004 一1: 每轮比赛第一名积5分，第二名积3分，第三名积2分，第四名积1分 -- a table's result is each seat's place (a
    place shared 并列, a forfeit 弃权), on the command line and in the sheets; the slip keeps its 小分 column in numbers."""
    from cardtable.cli import main
    from referee.tournament.export import export
    from referee.tournament.views import results_said

    store = TournamentStore(tmp_path / "t.db")
    store.new("individual-tables", [Entry(f"s{k}", f"选手{k}", f"单位{k}", f"单位{k}", (f"选手{k}",)) for k in range(1, 9)], seed=2)
    view = store.pair_next_round()
    absent = view["tables"][0]["entries"][3]["id"]
    store.record_result(1, "t01", {"scores": [30, -5, 12.5, 0]}, forfeits=[absent])
    store.record_result(1, "t02", {"scores": [10, 20, 10, -3]})
    t = store.tournament
    assert results_said(t, 1) == {"t01": ["place1", "place3", "place2", "forfeited"],
                                  "t02": ["tied2", "place1", "tied2", "place4"]}
    assert main(["tournament", "show", "--db", str(store.path)]) == 0
    out = capsys.readouterr().out
    assert "第一名 : 第三名 : 第二名 : 弃权" in out and "并列第二名 : 第一名 : 并列第二名 : 第四名" in out
    assert main(["tournament", "show", "--db", str(store.path), "--lang", "en"]) == 0
    assert "joint 2nd : 1st : joint 2nd : 4th" in capsys.readouterr().out
    html = export(t, "html").decode()
    assert "12又1/2" in html and "第一名" not in html  # the slip's 小分 stays a number (its 轮分 say the place)
