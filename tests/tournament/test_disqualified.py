"""One entry withdrawn or disqualified (退赛, 取消比赛资格), in every system through the one ``leave`` mechanism: the
draws of the rounds paired after it leave it out, its results stand, the standings list it after every row still in,
marked withdrawn (退赛 on the sheets), and the log keeps who, when and why."""

from __future__ import annotations

import random

import pytest

from cardtable.cli import main
from referee.tournament import Entry, TournamentError, TournamentStore
from referee.tournament.knockout import walk
from referee.tournament.simulate import random_result

SEED_004_3 = "犯规时由裁判判定，同一副牌内，任何一名选手被记过2次及以上犯规，作输者处理，情节严重者取消比赛资格。"
SEED_002_10_3 = "第3条：在一轮比赛中如某一方运动员出现累计三次犯规，则本轮判负，如情节恶劣，则取消比赛资格。"
SEED_000_14 = "第十四条  暗示：打牌过程中不得以不正当的手段（声音、动作、表情、节奏等暗示）来传递非法信息。一旦发现，轻则判该盘自动下台，对方升一级；重则判取消参赛资格。"
UNITS = ("机械", "光电", "管理", "外语")


def players(n: int) -> list[Entry]:
    return [Entry(f"p{i:02d}", f"选手{i:02d}", UNITS[i % 4], UNITS[i % 4], (f"选手{i:02d}",)) for i in range(1, n + 1)]


def pairs(n: int) -> list[Entry]:
    return [Entry(f"e{i:02d}", f"对{i:02d}", f"单位{i}", f"单位{i}", (f"甲{i}", f"乙{i}")) for i in range(1, n + 1)]


def one_round_played(path, system: str, field: list[Entry], seed: int, rng: random.Random, **options) -> TournamentStore:
    store = TournamentStore(path)
    store.new(system, field, seed=seed, options=options)
    store.pair_next_round()
    finish(store, rng)
    return store


def finish(store: TournamentStore, rng: random.Random) -> None:
    """Every table of the latest round without a result gets one (a forfeited seat scores 0)."""
    t = store.tournament
    r = t.rounds[-1]
    for x in r.tables:
        if x.outcome is None:
            result = random_result(t.system, t.rules.best_of(t, r.round), rng)
            if "scores" in result:
                result["scores"] = [0 if e in x.forfeits else s for e, s in zip(x.entries, result["scores"])]
            store.record_result(r.round, x.table, result)


def test_a_san_da_yi_player_disqualified_is_drawn_no_more_and_listed_withdrawn(tmp_path, capsys):
    """004 三: 情节严重者取消比赛资格. 16 players; one disqualified after round 1: the 15 still in are drawn every later
    round, the fourth table's empty seat held by the one withdrawn, forfeited (the three others rank among
    themselves, 5/3/2); a second disqualified later makes 14 (two empty seats, one a table)."""
    assert "取消比赛资格" in SEED_004_3
    rng = random.Random(4)
    store = one_round_played(tmp_path / "t.db", "individual-tables", players(16), 7, rng)
    path = str(store.path)
    assert main(["tournament", "withdraw", "--db", path, "--entry", "p05", "--reason", "情节严重，取消比赛资格",
                 "--by", "裁判长"]) == 0
    capsys.readouterr()
    action = store.actions()[-1]
    assert (action["kind"], action["by"], action["data"]) == ("leave", "裁判长", {"entries": ["p05"], "reason": "情节严重，取消比赛资格"})
    for round_no in (2, 3, 4):
        if round_no == 3:
            store.withdraw_entry("p11", by="裁判长", reason="退赛")
        store.pair_next_round()
        r = store.tournament.rounds[-1]
        out = {"p05", "p11"} if round_no > 2 else {"p05"}
        held = [x for x in r.tables if set(x.entries) & out]
        assert len(held) == len(out) and all(len(set(x.entries) & out) == 1 for x in held)  # one empty seat a table
        assert all(x.forfeits == tuple(set(x.entries) & out) for x in held) and not any(x.forfeits for x in r.tables if x not in held)
        seated = [e for x in r.tables for e in x.entries if e not in out]
        assert sorted(seated) == sorted(e.id for e in store.tournament.entries if e.id not in out)
        finish(store, rng)
        for x in store.tournament.rounds[-1].tables:  # at a seat held, the three still in share 5 + 3 + 2; it scores 0
            if set(x.entries) & out:
                assert sum(p for e, p in zip(x.entries, x.outcome.points) if e not in out) == 10
                assert [p for e, p in zip(x.entries, x.outcome.points) if e in out] == [0]
    rows = store.standings()["rows"]
    assert {r["id"] for r in rows[-2:]} == {"p05", "p11"} and all(r["withdrawn"] for r in rows[-2:])  # by their points
    assert not any(r.get("withdrawn") for r in rows[:-2]) and [r["rank"] for r in rows] == list(range(1, 17))
    assert main(["tournament", "standings", "--db", path]) == 0
    assert sorted(line.split("\t")[:2] for line in capsys.readouterr().out.splitlines()[-3:-1]) == sorted(  # by lot number
        [["退赛", str(store.tournament.lot.index(e) + 1)] for e in ("p05", "p11")])


def test_four_players_withdrawn_leave_no_empty_seat(tmp_path):
    """004 一 2 四人一桌: 12 players still in play three full tables; the four withdrawn sit nowhere."""
    store = TournamentStore(tmp_path / "t.db")
    store.new("individual-tables", players(16), seed=3)
    for e in ("p01", "p02", "p03", "p04"):
        store.withdraw_entry(e, reason="退赛")
    r = store.pair_next_round()
    assert len(r["tables"]) == 3 and not any(x["forfeits"] for x in r["tables"])
    assert {e["id"] for x in r["tables"] for e in x["entries"]}.isdisjoint({"p01", "p02", "p03", "p04"})


def test_a_knockout_pair_disqualified_gives_its_next_opponent_a_walkover_and_plays_no_play_off(tmp_path):
    """002 十 第3条: 如情节恶劣，则取消比赛资格. Eight pairs; after the quarter-finals a winner is disqualified: its
    semi-final opponent goes on by walkover (a bye), and a quarter-final loser disqualified plays no play-off for 5th
    to 8th (its opponent there goes on). The rounds paired before stay as played."""
    assert "取消比赛资格" in SEED_002_10_3
    rng = random.Random(2)
    store = one_round_played(tmp_path / "k.db", "knockout-best-of-three", pairs(8), 5, rng)
    r1 = store.tournament.rounds[0]
    winner = next(x.entries[x.outcome.points.index(1)] for x in r1.tables)
    loser = next(x.entries[x.outcome.points.index(0)] for x in r1.tables)
    store.withdraw_entry(winner, by="裁判长", reason="情节恶劣")
    store.withdraw_entry(loser, by="裁判长", reason="情节恶劣")
    view = store.pair_next_round()
    seated = {e["id"] for x in view["tables"] for e in x["entries"]}
    assert winner not in seated and loser not in seated
    assert len(view["byes"]) == 2  # the semi-final's and the 5th-8th play-off's walkovers
    while not store.tournament.finished:
        finish(store, rng)
        if not store.tournament.finished:
            view = store.pair_next_round()
            assert {winner, loser}.isdisjoint(e["id"] for x in view["tables"] for e in x["entries"])
    t = store.tournament
    t.rules.follows(t)  # every round paired still follows from the results: nothing refused later
    assert len(walk(t)[0]) == len(t.rounds)
    rows = store.standings()["rows"]
    assert {r["id"] for r in rows[-2:]} == {winner, loser} and all(r["withdrawn"] for r in rows[-2:])
    assert rows[0]["rank"] == 1 and not rows[0].get("withdrawn")


def test_a_pair_disqualified_in_pair_swiss_leaves_its_teammates_in(tmp_path):
    """000 第十四条: 重则判取消参赛资格. One pair of a team of two is disqualified: it sits at no table from then on, its
    teammates play on, and the team is still ranked (its results stand)."""
    assert "取消参赛资格" in SEED_000_14
    rng = random.Random(5)
    field = [Entry(f"{u}{k}", f"{u}{k}", u, u, (f"{u}{k}a", f"{u}{k}b")) for u in "甲乙丙丁戊" for k in (1, 2)]
    store = one_round_played(tmp_path / "p.db", "pair-swiss", field, 5, rng, rounds=3)
    store.withdraw_entry("丙1", reason="退赛")
    for _ in range(2):
        view = store.pair_next_round()
        seated = [e["id"] for x in view["tables"] for e in x["entries"]] + view["byes"]
        assert "丙1" not in seated and "丙2" in seated
        finish(store, rng)
    rows = store.standings()["rows"]
    assert not any(r.get("withdrawn") for r in rows) and "丙" in [r["id"] for r in rows]


def test_a_withdrawal_is_refused_in_words_and_changes_nothing(tmp_path, capsys):
    store = TournamentStore(tmp_path / "t.db")
    store.new("individual-tables", players(4), seed=1, options={"rounds": 1})
    seq = store.last_seq()
    with pytest.raises(TournamentError, match="没有参赛编号 p09"):
        store.withdraw_entry("p09", reason="退赛")
    store.pair_next_round()
    finish(store, random.Random(1))
    with pytest.raises(TournamentError, match="比赛已经结束：不能再退赛"):
        store.withdraw_entry("p01", reason="退赛")
    assert store.last_seq() == seq + 2  # the round paired and its one table's result, nothing else
    with pytest.raises(SystemExit):
        main(["tournament", "withdraw", "--db", str(store.path), "--entry", "p01", "--unit", "机械"])
    assert "--unit" in capsys.readouterr().err
    assert store.last_seq() == seq + 2


def test_a_player_withdrawn_mid_round_is_said_withdrawn_when_their_seat_is_scored(tmp_path):
    """004 附件一 三: 情节严重者取消比赛资格 -- withdrawn while the round is played, the seat scores 0; scored, the
    refusal says 退赛 (withdrawn), as the sheets mark it, not 弃权 (a player who did not come)."""
    assert "取消比赛资格" in SEED_004_3
    store = TournamentStore(tmp_path / "t.db")
    store.new("individual-tables", players(4), seed=1, options={"rounds": 1})
    seated = store.pair_next_round()["tables"][0]["entries"]
    gone = seated[0]["id"]
    store.withdraw_entry(gone, by="裁判长", reason="取消比赛资格")
    seq = store.last_seq()
    with pytest.raises(TournamentError) as exc:
        store.record_result(1, "t01", {"scores": [5, 1, 2, 3]})
    assert str(exc.value) == f"{gone} 已退赛，不再在 t01 桌比赛，其座位的小分应为 0，而不是 5" and "弃权" not in str(exc.value)
    assert exc.value.text("en") == f"{gone} has withdrawn and no longer plays at t01: their seat scores 0, not 5"
    assert store.last_seq() == seq
    store.record_result(1, "t01", {"scores": [0, 1, 2, 3]})
    assert store.tournament.rounds[0].table("t01").outcome.points == (0, 2, 3, 5)
