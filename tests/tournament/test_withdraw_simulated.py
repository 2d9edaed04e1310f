"""Random pair-swiss tournaments through the store with units withdrawing and teams arriving late at random
moments: every round is paired (the organiser lowers the rounds when the command says the rest cannot all
be), a withdrawn pair never sits at a table nor gets a bye, nobody meets their own unit or a pair met
before, a withdrawn pair's results stand, and withdrawn teams come last with no prize."""

from __future__ import annotations

import random

from referee.tournament import Entry, TournamentStore
from referee.tournament.pairswiss import pair_stats
from referee.tournament.simulate import random_result

TOURNAMENTS = 25


def field(rng: random.Random) -> list[Entry]:
    out = []
    for u in range(rng.randint(3, 9)):
        for team in range(rng.choice((1, 1, 2))):
            for k in (1, 2):
                out.append(Entry(f"u{u}t{team}p{k}", f"u{u}t{team}p{k}", f"单位{u}", f"{team}队", ("甲", "乙")))
    return out


def test_withdrawals_and_late_teams_at_random_keep_the_draw(tmp_path):
    rng = random.Random(20261127)
    played = withdrew = lowered = 0
    for n in range(TOURNAMENTS):
        entries = field(rng)
        store = TournamentStore(tmp_path / f"{n}.db")
        try:
            store.new("pair-swiss", entries, seed=n, options={"rounds": rng.randint(3, 6)})
        except Exception:
            continue  # a field the registration refuses (tested elsewhere)
        unit_of = {e.id: e.unit for e in entries}
        met, had_bye, stood = set(), set(), {}
        while not store.tournament.finished:
            t = store.tournament
            view = store.pair_next_round()
            no, gone = view["round"], set(t.withdrawn)
            seated = [e["id"] for x in view["tables"] for e in x["entries"]]
            assert not (set(seated) | set(view["byes"])) & gone
            assert sorted(seated + view["byes"]) == sorted(e for e in unit_of if e not in gone)
            assert not set(view["byes"]) & had_bye
            for x in view["tables"]:
                a, b = (e["id"] for e in x["entries"])
                assert unit_of[a] != unit_of[b] and frozenset((a, b)) not in met
                met.add(frozenset((a, b)))
            had_bye |= set(view["byes"])
            left = sorted({unit_of[e] for e in unit_of if e not in gone})
            if rng.random() < 0.3 and len(left) > 2:  # a unit withdraws in the middle of the round
                store.withdraw_unit(rng.choice(left), by="王老师", reason="退赛")
                withdrew += 1
                t = store.tournament
                can = t.rules.most_rounds(t, t.total_rounds)
                if can < t.total_rounds:  # what the command says the organiser should do
                    store.set_rounds(can)
                    lowered += 1
            elif rng.random() < 0.2:  # a team arrives 25 minutes late: its whole round is lost
                x = rng.choice(view["tables"])
                if all(store.tournament.round(no).table(y["table"]).outcome is None for y in view["tables"]):
                    store.late_arrival(no, x["entries"][0]["id"], 25)
            for x in view["tables"]:
                if store.tournament.round(no).table(x["table"]).outcome is None:
                    store.record_result(no, x["table"], random_result("pair-swiss", 1, rng))
            stats = pair_stats(store.tournament)
            stood |= {e: stats[e] for e in store.tournament.withdrawn if e not in stood}
        stats = pair_stats(store.tournament)
        assert all(stats[e] == s for e, s in stood.items()), "a withdrawn pair's results changed"
        rows = store.standings()["rows"]
        out = [r.get("withdrawn", False) for r in rows]
        assert out == sorted(out) and not any(r["prize"] for r in rows if r.get("withdrawn"))
        assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
        store.close()
        played += 1
    assert played > 15 and withdrew > 10 and lowered > 0, (played, withdrew, lowered)
