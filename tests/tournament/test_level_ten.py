"""A game a table ends with a side at level ten is recorded: the tables write that level as the card's rank, ``T``
(``referee.cards.RANKS``, the bus's rank), the tournament as people write it, ``10``. Every such game was refused
(“T”不是级数) and left for the organiser to enter by hand."""

from __future__ import annotations

from bus.protocol import decode, encode
from referee.cards import RANKS
from referee.tournament import Entry
from referee.tournament.recorder import Recorder
from referee.tournament.store import TournamentStore


def told(event: dict) -> dict:
    """An event as the tournament service takes it off the bus: encoded and checked against the contract."""
    return decode("events", encode("events", {"v": 1, **event}))


def test_a_knockout_game_the_hour_ends_at_ten_against_nine_goes_to_ten(tmp_path):
    """002 规程 三 2: 每场比赛时间定为1小时……根据级差（级高方为胜，同级时先到胜……）确定胜方."""
    assert "T" in RANKS and "10" not in RANKS
    entries = [Entry(f"e{i:02d}", f"p{i}", f"u{i}", f"u{i}", (f"a{i}", f"b{i}")) for i in range(1, 18)]
    store = TournamentStore(tmp_path / "k.db")
    store.new("knockout-best-of-three", entries, seed=1)
    table = store.pair_next_round()["tables"][0]["table"]
    notes = []
    Recorder(store, told=lambda *a: notes.append(a)).event(table, told(
        {"seq": 40, "kind": "round_over", "at": 3600.0, "data": {"hands": 12, "by": "time", "levels": {"SN": "T", "EW": "9"},
                                                                 "ahead": "SN"}}))
    assert not notes and store.tournament.round(1).table(table).outcome.points == (1, 0)


def test_a_pair_swiss_game_ended_by_the_round_clock_at_ten_is_won_by_the_levels(tmp_path):
    """000 四 2 (levels as the game ended: 级差) and 通知 四 3: 每轮竞赛时间为1小时30分钟……赛完该盘牌结束当轮竞赛 -- the
    higher level wins; its levels are written 10 in the results."""
    store = TournamentStore(tmp_path / "p.db")
    store.new("pair-swiss", [Entry(e, e, u, u, (f"{e}甲", f"{e}乙")) for e, u in zip("abcd", "ABCD")], seed=1,
              options={"rounds": 1, "team_pairs": 1})
    table = store.pair_next_round()["tables"][0]["table"]
    notes = []
    rec = Recorder(store, told=lambda *a: notes.append(a))
    rec.event(table, told({"seq": 30, "kind": "levels_changed", "at": 5000.0,
                           "data": {"levels": {"SN": "9", "EW": "T"}, "dealer": "E"}}))
    rec.event(table, told({"seq": 31, "kind": "round_over", "at": 5400.0, "data": {"hands": 9}}))
    decided = store.tournament.round(1).table(table)
    assert not notes and decided.outcome.points == (0, 2) and sorted(decided.levels) == ["10", "9"]
