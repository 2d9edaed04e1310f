"""The scoreboard's awards are the sheets' own: one rule (``referee.tournament.base.awarded``), which the display serves
at ``/api/tournaments/{id}/awards`` (the ``v1`` standings payload has no field for them, and its script keeps no
copy of the rule): nothing before the last round is complete, then 002 四's 证书和奖品 and 纪念品 for a knockout and
000 五's 鼓励奖 for pair Swiss, as the exports write them; a 404 in words where the display runs no such tournament."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from fastapi.testclient import TestClient
from kit import make_db

from display.app import Settings, create_app
from referee.tournament import Entry, TournamentStore
from referee.tournament.export import prize_words

SEED_002_4 = "1、凡参加比赛的选手均有纪念品。 2、获得本届比赛前八名的选手分别颁发证书和奖品。"  # 002 四、录取名次及奖励
SEED_000_5 = "本届竞赛决出一等奖1名，二等奖3名，三等奖5名。未获名次的队给予鼓励奖。"  # 000 五、名次及奖励
EN = {"Accept-Language": "en"}


@contextmanager
def display(broker, tmp_path: Path, tournament_db: Path | None):
    app = create_app(Settings(broker.url("scoreboard"), broker.url("console"), make_db(tmp_path / "console.db"), tournament_db))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def awards(c: TestClient, tournament: str) -> dict:
    r = c.get(f"/api/tournaments/{tournament}/awards")
    assert r.status_code == 200, r.text
    return r.json()


def play_out(store: TournamentStore, result: dict, c: TestClient, tournament: str) -> None:
    """Every table decided with ``result``, round after round; until the very last result none is served."""
    while True:
        t = store.tournament
        n = len(t.rounds)
        for x in t.round(n).tables:
            if x.outcome is None:
                assert awards(c, tournament) == {}
                store.record_result(n, x.table, result)
        if store.tournament.finished:
            return
        store.pair_next_round()


def same_as_the_sheets(store: TournamentStore, served: dict) -> None:
    """What the page shows (the payload's placed prize, then the awards served) is what the exports write."""
    t = store.tournament
    for row in t.rules.standings(t):
        shown = ([row["prize"]] if row["prize"] else []) + served.get(row["id"], [])
        assert "、".join(shown) == (prize_words(t, row, "zh") or "")


def test_a_knockout_finished_gets_certificates_for_the_first_eight_and_souvenirs_for_all(broker, tmp_path):
    """002 四 (SEED_002_4): 凡参加比赛的选手均有纪念品; 前八名 证书和奖品. Ten pairs: places 1 to 8 played off, the two
    losers of the round of 16 share 9th."""
    assert "纪念品" in SEED_002_4 and "前八名" in SEED_002_4
    store = TournamentStore(tmp_path / "hall.db")
    store.new("knockout-best-of-three", [Entry(f"p{i:02d}", f"甲{i}、乙{i}", f"单位{i:02d}", f"单位{i:02d}", (f"甲{i}", f"乙{i}"))
                                         for i in range(1, 11)], name="掼蛋赛", seed=4, id="ko")
    store.pair_next_round()
    try:
        with display(broker, tmp_path, store.path) as c:
            play_out(store, {"winner": 1, "games": [0, 2]}, c, "ko")
            served = awards(c, "ko")
            rows = store.tournament.rules.standings(store.tournament)
            assert sorted(r["rank"] for r in rows) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 9]
            assert served == {r["id"]: ["证书和奖品", "纪念品"] if r["rank"] <= 8 else ["纪念品"] for r in rows}
            same_as_the_sheets(store, served)
            assert c.get("/api/tournaments/other/awards").status_code == 404  # another tournament: not this display's
    finally:
        store.close()


def test_pair_swiss_finished_gives_the_unplaced_teams_still_in_the_encouragement_award(broker, tmp_path):
    """000 五 (SEED_000_5): 一等奖1名，二等奖3名，三等奖5名; 未获名次的队给予鼓励奖. Twelve teams, one unit withdrawn before
    the last round: nine placed, two 鼓励奖, the withdrawn team nothing."""
    assert "未获名次的队给予鼓励奖" in SEED_000_5
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(f"u{u:02d}p{p}", f"甲{u}{p}、乙{u}{p}", f"单位{u:02d}", f"单位{u:02d}", (f"甲{u}{p}", f"乙{u}{p}"))
                             for u in range(1, 13) for p in (1, 2)], name="秋季赛", seed=4, options={"rounds": 2}, id="swiss")
    store.pair_next_round()
    store.withdraw_unit("单位12", reason="退赛")
    try:
        with display(broker, tmp_path, store.path) as c:
            play_out(store, {"winner": 0, "levels": ["A", "J"]}, c, "swiss")
            served = awards(c, "swiss")
            rows = store.tournament.rules.standings(store.tournament)
            unplaced = [r["id"] for r in rows if not r["prize"] and not r.get("withdrawn")]
            assert len(unplaced) == 2 and sum(bool(r["prize"]) for r in rows) == 9
            assert served == {team: ["鼓励奖"] for team in unplaced}
            same_as_the_sheets(store, served)
    finally:
        store.close()


def test_a_display_without_the_tournament_serves_no_awards_and_says_why(broker, tmp_path):
    """Where the display runs no tournament file the scoreboard shows the payload's placed prizes alone: the awards
    are refused in words, Chinese first."""
    with display(broker, tmp_path, None) as c:
        zh = c.get("/api/tournaments/ko/awards")
        en = c.get("/api/tournaments/ko/awards", headers=EN)
    assert zh.status_code == en.status_code == 404
    assert zh.json()["detail"] == "本显示服务没有运行赛事 ko，说不出其鼓励奖、纪念品等奖项"
    assert en.json()["detail"] == "this display runs no tournament ko: it cannot say its awards (encouragement awards, souvenirs ...)"
