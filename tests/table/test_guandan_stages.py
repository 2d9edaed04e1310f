"""The Guandan knockout's two stages at the table (seed 002 规程 三 2): stage one's single game to past A
(``sanjiang-2012``) and stage two's best of three, each game won by going past 8 (``sanjiang-2012-stage-two``,
the book the tournament seats its round-of-16 tables with), and what the hour does to a match of games."""

import random

from climbing_kit import Table_, guandan_hand, guandan_tribute

from referee.catalogue.sentences import Sentences
from referee.guandan.bots import deal as deal_guandan
from referee.guandan.levels import HandResult, Match
from referee.tournament.reports import game_of

STAGE_TWO = "sanjiang-2012-stage-two"
SN_GAME, EW_GAME = [("S", 2)] * 3, [("E", 2)] * 3  # 2 -> 5 -> 8 -> past 8: a game won in three hands


def match_after(d, hands) -> Match:
    """The table's stage-two match after ``hands`` (first, partner's place), from its start."""
    m = Match.start(d.rules, "two", d.at)
    for first, place in hands:
        m = m.after(HandResult(first, place))
    return m


def play_games(d, rng):
    """Every hand the table deals, played by the bots, until the round is over."""
    while d.table.phase == "dealing":
        hands = deal_guandan(d.rules, rng)
        d.press("S", "ready")
        if d.table.tribute is not None:
            guandan_tribute(d, rng, hands)
        guandan_hand(d, rng, hands, think=0.5)


def test_stage_two_is_best_of_three_each_game_won_past_8_and_8_need_not_be_played():
    """规程 三 2: 第二阶段：采取三局两胜制，每局过“8”即胜，但是“8”不必打（如级数为“6”时，双下后升三级过“8”）."""
    d, rng = Table_(STAGE_TWO), random.Random(11)
    d.start()
    play_games(d, rng)
    won = [e["data"] for e in d.events("game_won")]
    assert 2 <= len(won) <= 3 and [w["passed"] for w in won] == ["8"] * len(won) and d.table.phase == "round_over"
    final = won[-1]
    assert final["match"] == final["team"] and final["games"][final["team"]] == 2 and all(w["match"] is None for w in won[:-1])
    # each game's winning hand went past 8 from wherever it stood, 8 itself played or not
    order = d.rules.ranks.order
    scored, changed = d.events("hand_scored"), d.events("levels_changed")
    for w in won:
        i = next(i for i, e in enumerate(d.events()) if e["kind"] == "game_won" and e["data"] == w)
        last = max(j for j, e in enumerate(scored) if d.events().index(e) < i)
        before = changed[last]["data"]["before"][w["team"]]
        assert order.index(before) + scored[last]["data"]["levels"] > order.index("8")
    # a new game starts at 2 each, its first hand with no tribute (the game before it is over): the draw, then play
    kinds = [e["kind"] for e in d.events()]
    firsts = [kinds.index("hand_started")] + [i + 1 for i, k in enumerate(kinds) if k == "game_won"][:-1]
    assert len(firsts) == len(won)
    for i in firsts:
        assert kinds[i:i + 3] == ["hand_started", "draw_done", "play_started"] and d.events()[i]["data"]["level"] == "2"
    assert " 过 8 胜出本局" in Sentences("zh", "guandan").event(d.events("game_won")[0])


def test_stage_one_is_one_game_to_past_a():
    """规程 三 2: 第一阶段：采取单局淘汰制…记级从打2开始，过“A”为胜，“A”必打."""
    d, rng = Table_("sanjiang-2012"), random.Random(3)
    d.start()
    play_games(d, rng)
    won = d.events("game_won")
    assert len(won) == 1 and won[0]["data"]["passed"] == "A" and won[0]["data"]["match"] == won[0]["data"]["team"]


def at_time(d, match, team_ahead_hands):
    """The table in a game's first draw, its match ``match`` (the hands of the game in play as
    ``team_ahead_hands``), when the hour is called."""
    for first, place in team_ahead_hands:
        match = match.after(HandResult(first, place))
    d.table = d.table._with(match=match)
    d.send("clock", {}, dt=3600.0)  # the hour is up while the hand is still being drawn
    return match


def test_time_called_at_one_all_plays_the_deciding_game_out_with_no_limit():
    """规程 三 2: 根据级差（级高方为胜，同级时先到胜，第二阶段如1:1平局继续打完）确定胜方."""
    d, rng = Table_(STAGE_TWO), random.Random(5)
    d.start()
    one_all = match_after(d, SN_GAME + EW_GAME)
    assert one_all.games == ("SN", "EW")
    at_time(d, one_all, [("N", 2)])  # SN ahead in the deciding game: it is not given to them
    assert not d.events("round_over") and [e["data"] for e in d.events("played_out")] == [{"games": {"SN": 1, "EW": 1}}]
    assert d.table.phase == "dealing" and d.table.match.unlimited
    play_games(d, rng)  # long past the hour: no time limit
    final = d.events("game_won")[-1]["data"]
    assert final["match"] == final["team"] and final["games"][final["team"]] == 2 and not d.events("round_over")
    zh = Sentences("zh", "guandan").event(d.events("played_out")[0])
    assert "决胜局打完为止" in zh


def test_time_calls_the_game_in_play_and_one_all_then_plays_the_deciding_game_out():
    """规程 三 2: 级高方为胜 … 第二阶段如1:1平局继续打完: 1:0, the other team ahead in game 2 when time is called:
    game 2 is theirs on time (``game_won`` by ``time``, which the tournament records as a game), and game 3 is played out."""
    d, rng = Table_(STAGE_TWO), random.Random(8)
    d.start()
    one_nil = match_after(d, SN_GAME)
    hand = d.table.hand_no
    at_time(d, one_nil, [("E", 3)])
    won = d.events("game_won")[-1]["data"]
    assert won == {"team": "EW", "by": "time", "games": {"SN": 1, "EW": 1}, "match": None}
    assert game_of("game_won", won, None)[0] == "EW" and not d.events("round_over")
    assert d.events("hand_started")[-1]["data"] == {"hand": hand + 1, "level": "2", "dealer": None}  # game 3's first hand
    play_games(d, rng)
    assert d.events("game_won")[-1]["data"]["match"] in ("SN", "EW")


def test_time_called_at_one_nil_with_the_leader_ahead_ends_the_match():
    """规程 三 2: 根据级差（级高方为胜）确定胜方: 1:0 and the same team ahead in game 2: the round is over (2:0)."""
    d = Table_(STAGE_TWO)
    d.start()
    one_nil = match_after(d, SN_GAME)
    at_time(d, one_nil, [("N", 3)])
    over = d.events("round_over")[-1]["data"]
    assert (over["by"], over["ahead"], d.table.phase) == ("time", "SN", "round_over") and not d.events("played_out")
    assert game_of("round_over", over, over["levels"], first_to_level=True)[0] == "SN"


def test_the_tournament_records_a_stage_two_match_as_the_table_played_it(tmp_path):
    """规程 三 2: 第二阶段：采取三局两胜制 -- a knockout of two pairs is best of three from its first round; every
    event the table published, given to the tournament's recorder, makes the table's result: the games as the table
    counted them, the hour's game (``game_won`` by ``time``) among them, and the match's winner."""
    from referee.tournament import Entry
    from referee.tournament.recorder import Recorder
    from referee.tournament.store import TournamentStore

    store = TournamentStore(tmp_path / "t.db")
    store.new("knockout-best-of-three", [Entry("k01", "南北", "u1", "u1", ("SS", "NN")), Entry("k02", "东西", "u2", "u2", ("EE", "WW"))],
              seed=1, id="ko")
    view = store.pair_next_round()
    assert store.tournament.rules.rulebook_of(store.tournament, view["round"]) == STAGE_TWO
    d, rng = Table_(STAGE_TWO), random.Random(8)
    d.start()
    one_nil = match_after(d, SN_GAME)
    at_time(d, one_nil, [("E", 3)])  # game 2 to EW on time: 1:1, game 3 played out
    play_games(d, rng)
    recorder = Recorder(store)
    recorder.event("t01", {"v": 1, "seq": 1, "kind": "game_won", "at": 0.0,
                           "data": {"team": "SN", "by": "levels", "passed": "8", "games": {"SN": 1, "EW": 0}, "match": None}})
    for e in d.events():
        recorder.event("t01", e)
    final = d.events("game_won")[-1]["data"]
    table = store.tournament.rounds[0].tables[0]
    winner = table.entries.index("k01" if final["match"] == "SN" else "k02")
    assert table.outcome is not None and table.outcome.points[winner] == 1
    assert sorted(table.outcome.scores) == [1, 2] and table.games[:2] == (table.entries.index("k01"), table.entries.index("k02"))
    store.close()


def knockout_of_two(tmp_path):
    """A knockout of two pairs (best of three from its first round) and its recorder, the pairs seated as the table
    is (SS/NN against EE/WW)."""
    from referee.tournament import Entry
    from referee.tournament.recorder import Recorder
    from referee.tournament.store import TournamentStore

    store = TournamentStore(tmp_path / "t.db")
    store.new("knockout-best-of-three", [Entry("k01", "南北", "u1", "u1", ("SS", "NN")), Entry("k02", "东西", "u2", "u2", ("EE", "WW"))],
              seed=1, id="ko")
    store.pair_next_round()
    return store, Recorder(store)


def test_three_fouls_lose_a_stage_two_match_whatever_its_games(tmp_path):
    """十 第3条: 在一轮比赛中如某一方运动员出现累计三次犯规，则本轮判负 -- in stage two the round is the match: at 1:0 to
    SN, SN's third foul gives EW the match, and the tournament records it so (not as one game of three)."""
    store, recorder = knockout_of_two(tmp_path)
    d = Table_(STAGE_TWO)
    d.start()
    one_nil = match_after(d, SN_GAME)
    d.table = d.table._with(match=one_nil)
    for seat in ("S", "N", "S"):
        d.send("commands", {"command": "foul", "seat": seat, "kind": "signalling"})
    won = d.events("game_won")[-1]["data"]
    assert (won["team"], won["by"], won["match"], d.table.phase) == ("EW", "fouls", "EW", "round_over")
    for e in d.events():
        recorder.event("t01", e)
    table = store.tournament.rounds[0].tables[0]
    assert table.outcome is not None and table.outcome.points[table.entries.index("k02")] == 1
    store.close()


def test_the_last_hand_announced_does_not_cut_a_deciding_game_short():
    """规程 三 2: 第二阶段如1:1平局继续打完 -- the hall's last-hand notice ends a round after its hand, but not a
    deciding game being played out."""
    d, rng = Table_(STAGE_TWO), random.Random(5)
    d.start()
    one_all = match_after(d, SN_GAME + EW_GAME)
    at_time(d, one_all, [("N", 2)])
    d.send("commands", {"command": "last_hand"})
    play_games(d, rng)
    final = d.events("game_won")[-1]["data"]
    assert final["match"] == final["team"] and not d.events("round_over")


def test_time_called_between_games_gives_the_match_to_the_pair_ahead_and_the_tournament_records_it(tmp_path):
    """规程 三 2: 根据级差…确定胜方; 1:0 and the hour is up before game 2's first hand: SN ahead in games win, 1:0 (the
    knockout's result for a match the clock ended a game ahead)."""
    store, recorder = knockout_of_two(tmp_path)
    d = Table_(STAGE_TWO)
    d.start()
    one_nil = match_after(d, SN_GAME)
    at_time(d, one_nil, [])
    over = d.events("round_over")[-1]["data"]
    assert (over["match"], over["games"], over["ahead"]) == ("SN", {"SN": 1, "EW": 0}, None)
    for e in d.events():
        recorder.event("t01", e)
    table = store.tournament.rounds[0].tables[0]
    assert table.outcome is not None and table.outcome.points[table.entries.index("k01")] == 1
    assert sorted(table.outcome.scores) == [0, 1] and not store.tournament.rounds[0].unrecorded
    store.close()
