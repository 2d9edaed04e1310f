"""A pair-swiss field is registered only when all its rounds can be paired (seed 000 四2: 按报名人数采用
积分编排法，共赛6轮……同单位对手和赛过的对手不编排再赛): refused before round 1 with why and how many
rounds can be played, never stuck at round 2. Checked against brute force on every small field."""

from __future__ import annotations

import itertools
import random

import pytest

from cardtable.cli import main
from referee.tournament import Entry, TournamentError, TournamentStore
from referee.tournament.simulate import random_result
from referee.tournament.swiss import SetupError, check_setup

SEED_000 = "按报名人数采用积分编排法，共赛6轮。第1轮采用电脑抽签编排对手，第2轮起按同分或近分原则由电脑随机编排对手（同单位对手和赛过的对手不编排再赛）。"


def field(sizes: list[int], team_pairs: int = 2) -> list[Entry]:
    """Units 甲, 乙, 丙, ... of the given numbers of pairs, in teams of ``team_pairs`` pairs."""
    out = []
    for u, size in enumerate(sizes):
        unit = "甲乙丙丁戊己庚辛壬癸"[u]
        for k in range(1, size + 1):
            team = f"{unit}队{(k + team_pairs - 1) // team_pairs}"
            out.append(Entry(f"{unit}{k}", f"{unit}{k}", unit, team, (f"{unit}{k}a", f"{unit}{k}b")))
    return out


def schedule_exists(units: dict[str, str], rounds: int) -> bool:
    """Brute force, memoised on the tables left: ``rounds`` rounds of perfect matchings, no two pairs of one
    unit, no rematch, an odd field's bye a node met once by each pair."""
    ids = sorted(units) + (["bye"] if len(units) % 2 else [])
    unit = dict(units, bye="bye")
    every = frozenset(frozenset(e) for e in itertools.combinations(ids, 2) if unit[e[0]] != unit[e[1]])
    memo: dict = {}

    def matchings(nodes, edges):
        if not nodes:
            yield frozenset()
            return
        for e in (e for e in edges if nodes[0] in e):
            for m in matchings([n for n in nodes if n not in e], [f for f in edges if not f & e]):
                yield m | {e}

    def go(edges, r):
        if r == 0:
            return True
        if (edges, r) not in memo:
            memo[edges, r] = any(go(edges - m, r - 1) for m in matchings(ids, list(edges)))
        return memo[edges, r]

    return go(every, rounds)


def play_through(store: TournamentStore, seed: int) -> None:
    rng = random.Random(seed)
    for k in range(1, store.tournament.total_rounds + 1):
        for x in store.pair_next_round()["tables"]:
            store.record_result(k, x["table"], random_result("pair-swiss", 1, rng))
    assert store.tournament.finished


def test_units_of_4_4_and_2_are_refused_before_round_one_with_why_and_the_rounds_that_can_be_played(tmp_path):
    assert "共赛6轮" in SEED_000 and "同单位对手" in SEED_000
    # Each pair of 甲 and 乙 may meet only the 4 pairs of the other big unit and 丙's 2: six opponents for
    # six rounds, so every one of them meets 丙's two pairs, 16 tables; 丙's two pairs play 12.
    store = TournamentStore(tmp_path / "t.db")
    with pytest.raises(TournamentError) as refused:
        store.new("pair-swiss", field([4, 4, 2]), options={"rounds": 6})
    assert str(refused.value) == ("无法进行积分编排：甲、乙 的 8 对在 丙 之外的可遇对手太少：6 轮中至少要与 丙 的 2 对打 16 场，"
                                  "而这 2 对 6 轮只能打 12 场；最多能排 5 轮：请把轮数改为 5（`--rounds 5`）或调整报名")
    assert "at most 5 round(s) can be played" in refused.value.text("en")
    assert store.last_seq() == 0  # nothing registered
    store.new("pair-swiss", field([4, 4, 2]), options={"rounds": 5}, seed=1)  # what the refusal advises
    play_through(store, 1)


def test_the_command_line_refuses_it_in_words_and_leaves_no_file(tmp_path, capsys):
    form = tmp_path / "报名表.csv"
    rows = "".join(f"{e.unit},{e.team},{e.id},{'、'.join(e.players)}\n" for e in field([4, 4, 2]))
    form.write_text("单位,队名,对,选手\n" + rows, encoding="utf-8")
    db = tmp_path / "t.db"
    with pytest.raises(SystemExit) as ended:
        main(["tournament", "new", "--system", "pair-swiss", "--entries", str(form), "--db", str(db)])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert "丙 的 2 对打 16 场" in err and "最多能排 5 轮" in err and "--rounds 5" in err
    assert not db.exists()
    assert main(["tournament", "new", "--system", "pair-swiss", "--entries", str(form), "--db", str(db), "--rounds", "5"]) == 0


@pytest.mark.parametrize("sizes, rounds", [
    ([2, 2, 2, 2], 6),  # every pair meets all six of the other units: the whole cocktail-party graph
    ([4, 3, 2], 6),  # nine pairs, a bye a round, the biggest unit meets everybody else
    ([3, 3, 1, 1], 4),
    ([5, 5, 2, 2, 2], 6),
    ([15, 7, 4, 3, 2, 1], 6),  # 32 pairs, one unit near half the field
])
def test_tight_fields_that_can_be_played_are_accepted_and_played_to_the_end(tmp_path, sizes, rounds):
    store = TournamentStore(tmp_path / "t.db")
    team = 2 if all(size % 2 == 0 for size in sizes) else 1  # a unit of an odd number of pairs: teams of one
    store.new("pair-swiss", field(sizes, team), options={"rounds": rounds, "team_pairs": team}, seed=sum(sizes))
    play_through(store, rounds)


def test_registration_agrees_with_brute_force_on_every_small_field():
    # Every way of splitting 4 to 8 pairs into units, each round count from 1 to 6: accepted exactly
    # when brute force finds a schedule, and every refusal names the rounds that can be played.
    def splits(n, most):
        if n == 0:
            yield []
        for k in range(min(n, most), 0, -1):
            for rest in splits(n - k, k):
                yield [k, *rest]

    checked = refused = 0
    for n in range(4, 9):
        for sizes in splits(n, n):
            units = {e.id: e.unit for e in field(sizes)}
            for rounds in range(1, 7):
                exists = schedule_exists(units, rounds)
                try:
                    check_setup(units, rounds)
                except SetupError as exc:
                    assert not exists, (sizes, rounds, str(exc))
                    can = exc.values.get("can", 0)
                    assert (can == 0 or schedule_exists(units, can)) and not schedule_exists(units, can + 1)
                    refused += 1
                else:
                    assert exists, (sizes, rounds)
                checked += 1
    assert checked > 250 and refused > 80, (checked, refused)
