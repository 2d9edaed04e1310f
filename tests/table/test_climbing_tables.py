"""The climbing games' tables as pure reducers (Guandan ``sanjiang-2012``, San Da Yi ``usst-2016``):
whole hands and games played by the engines' bots, the clock rules of seed 002 with injected time
(nothing sleeps), flags, the round's end, replay."""

import random

import pytest
from climbing_kit import GD, SDY, Table_, guandan_hand, guandan_tribute, sandayi_game

from referee.cards import Cards
from referee.catalogue.sentences import Sentences
from referee.guandan.bots import deal as deal_guandan
from referee.guandan.bots import random_play as guandan_play
from referee.guandan.hand import Hand
from referee.guandan.tribute import is_legal_return, legal_tributes
from referee.rulebooks import load
from referee.seats import SEATS, next_seat
from referee.table.tables import new_table
from referee.tournament.reports import game_of

# ---------------------------------------------------------------- Guandan


def test_a_whole_guandan_game_past_a_with_tributes():
    """三: 过“A”必须有一人是上游，另一人不是下游才能算取胜; 四: 进贡、抗贡、还牌."""
    d, rng = Table_(GD), random.Random(0)
    d.start()
    d.press("S", "ready")
    guandan_hand(d, rng, deal_guandan(d.rules, rng), think=0.5)
    while d.table.phase == "dealing":
        hands = deal_guandan(d.rules, rng)
        d.press("S", "ready")
        guandan_tribute(d, rng, hands)
        assert d.table.phase == "playing" and d.state()["turn"] == d.table.hand.leader
        guandan_hand(d, rng, hands, think=0.5)
    kinds = [e["kind"] for e in d.events()]
    assert "tribute_refused" in kinds and "card_returned" in kinds and "rejected" not in kinds
    won = d.events("game_won")[-1]["data"]
    last = d.events("hand_scored")[-1]["data"]
    assert (won["by"], won["match"], won["team"], last["team"]) == ("levels", won["team"], last["team"], won["team"])
    before = d.events("levels_changed")[-1]["data"]["before"]
    assert before[won["team"]] == "A" and last["partner_place"] in (2, 3) and d.table.phase == "round_over"


def test_a_guandan_hand_is_played_scored_and_the_tribute_paid_and_returned():
    d, rng = Table_(GD), random.Random(7)
    d.start()
    assert (d.table.phase, d.state()["trump"]) == ("dealing", {"suit": None, "rank": "2"})
    d.press("N", "ready")  # the draw is over: N drew the turned-up card and leads (七)
    assert (d.table.phase, d.state()["turn"]) == ("playing", "N")
    hands = deal_guandan(d.rules, rng)
    mirror = guandan_hand(d, rng, hands)
    scored = d.events("hand_scored")[-1]["data"]
    assert scored["finish"] == list(mirror.finish) and scored["first"] == mirror.finish[0]
    levels = d.events("levels_changed")[-1]["data"]
    assert levels["levels"][scored["team"]] == d.rules.ranks.order[scored["levels"]]  # from 2, up 1 to 3 levels
    assert d.state()["teams"][0]["level"] == levels["levels"]["SN"] and d.table.hand_no == 2
    # Hand 2: the draw, then the tribute: the last pays its largest card, the first returns one below 10.
    hands = deal_guandan(d.rules, random.Random(8))
    d.press("S", "ready")
    p = d.table.tribute
    assert d.table.phase == "dealing" and d.state()["turn"] == p.payers[0]
    for payer in p.payers:
        card = legal_tributes(d.rules, p.level, hands[payer])[0]
        d.show(payer, [card])
        assert d.events()[-1]["kind"] in ("tribute_paid", "tribute_given")
    given = d.events("tribute_given")[-1]["data"]["exchanges"]
    for x in given:
        assert d.state()["clocks"][x["to"]]["left"] == 20.0  # 十二 第3条: 还牌人必须在20秒内还牌
    for x in given:
        card = next(c for c in hands[x["to"]].distinct() if is_legal_return(d.rules, p.level, c))
        d.show(x["to"], [card], dt=5.0)
    assert not d.violations() and d.table.phase == "playing"
    assert d.events("play_started")[-1]["data"]["leader"] == d.table.hand.leader == d.state()["turn"]


def test_a_guandan_follow_overrun_forfeits_the_turn_and_the_long_think_counts_once():
    """十二 第3条: 一副牌只允许有一次30秒的长考时间，其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次出牌权."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    assert d.state()["clocks"]["E"] == {"left": 30.0, "running": True, "long_think": True}
    d.show("E", ["S5"], dt=12.0)  # past 10 s: E's long think, in time
    assert not d.violations() and d.state()["clocks"]["E"]["long_think"] is False
    assert d.state(d.at + 31.0)["turn"] == "W"  # N did not play within its 30 s: the state shows the turn passed
    d.show("W", ["S7"], dt=35.0)  # N's overrun is ruled as of its deadline; W's clock ran from there
    v = d.violations("overtime")[-1]
    assert (v["seat"], v["penalty"]["forfeit"], v["evidence"]["seconds"], v["evidence"]["limit"]) == ("N", "turn", 35.0, 30.0)
    passed = d.events("passed")[-1]["data"]
    assert (passed["seat"], passed["forfeit"]) == ("N", True)
    assert d.table.board(d.at)["seats"]["N"]["light"] == "red"  # N's display shows the overrun
    assert [e["data"]["seat"] for e in d.events("play_accepted")] == ["S", "E", "W"]
    d.show("S", ["S9"])
    d.show("E", ["ST"], dt=10.5)  # E's long think is spent: 10.5 s is an overrun, E's turn passed
    assert d.violations("overtime")[-1]["seat"] == "E" and d.events()[-1]["kind"] == "flag_raised"  # E is now out of turn
    assert d.state()["turn"] == "N" and d.state()["flags"][0]["kind"] == "out_of_turn"


def test_a_guandan_leader_overrun_passes_the_lead_to_the_next_seat_never_a_foul():
    """十二 第3条: 一副牌只允许有一次30秒的长考时间，其余每次出牌时间一般不得超过10秒（含10秒），否则，视作放弃本次
    出牌权 -- a leader silent past its clock gives up the lead: the next seat holding cards leads (as a seat that
    sits out, 十一: 由下家出牌), on a clock from the deadline; no foul, and the round goes on."""
    d = Table_(GD)
    d.start()
    d.press("N", "ready")  # N drew the turned card: N leads
    d.send("clock", {}, dt=50.0)  # N silent for 50 s: N's 30 s long think ran out at 30 s
    v = d.violations("overtime")
    assert [(x["seat"], x["penalty"].get("forfeit"), x["penalty"].get("foul"), x["evidence"]["action"]) for x in v] == [("N", "turn", None, "lead")]
    passed = d.events("passed")[-1]["data"]
    assert (passed["seat"], passed["forfeit"]) == ("N", True)
    assert not d.events("foul_counted") and not d.events("game_won") and d.table.phase == "playing"
    state = d.state()
    assert state["turn"] == "W" and state["clocks"]["W"] == {"left": 10.0, "running": True, "long_think": True}
    assert state["clocks"]["N"]["long_think"] is False  # N's long think went with its overrun
    d.show("W", ["S3"])  # W leads the trick
    assert d.events("play_accepted")[-1]["data"]["trick"] == 1 and d.state()["turn"] == "S"


def test_a_late_return_card_is_one_foul_and_is_still_due():
    """十二 第3条: 贡牌后，还牌人必须在20秒内还牌，否则记犯规1次 -- one foul however late (a return at 60.3 s is
    not three), the card still counts and the round goes on."""
    d, rng = Table_(GD), random.Random(3)
    d.start()
    d.press("S", "ready")
    guandan_hand(d, rng, deal_guandan(d.rules, rng))
    hands = deal_guandan(d.rules, rng)
    d.press("E", "ready")
    p = d.table.tribute
    for payer in p.payers:
        d.show(payer, [legal_tributes(d.rules, p.level, hands[payer])[0]])
    x = d.table.tribute.exchanges[0]
    card = next(c for c in hands[x.receiver].distinct() if is_legal_return(d.rules, p.level, c))
    assert d.state(d.at + 30.0)["clocks"][x.receiver] == {"left": 0.0, "running": True}  # spent, shown at 0
    d.show(x.receiver, [card], dt=60.3)
    (v,) = d.violations("overtime")
    assert (v["seat"], v["evidence"]["action"], v["evidence"]["limit"], v["penalty"]["foul"]) == (x.receiver, "return", 20.0, True)
    assert d.events("card_returned")[-1]["data"]["seat"] == x.receiver  # the card still counts
    assert [e["data"]["seat"] for e in d.events("foul_counted")] == [x.receiver]
    assert d.table.phase == "playing" and not d.events("game_won")


def test_an_illegal_return_card_is_given_again():
    """四: 还牌：必须小于10; 违规…正常判为重新给牌."""
    d, rng = Table_(GD), random.Random(3)
    d.start()
    d.press("S", "ready")
    guandan_hand(d, rng, deal_guandan(d.rules, rng))
    d.press("E", "ready")
    for payer in d.table.tribute.payers:
        d.show(payer, ["SA"] if payer == d.table.tribute.payers[0] else ["HA"])
    x = d.table.tribute.exchanges[0]
    d.show(x.receiver, ["SK"])
    assert d.violations()[-1]["kind"] == "illegal_return" and d.state()["turn"] == x.receiver
    d.show(x.receiver, ["S4"])
    assert d.events("card_returned")[-1]["data"] == {"seat": x.receiver, "to": x.giver, "card": "S4"}


def test_time_up_with_the_draw_not_done_stops_and_the_higher_level_wins():
    """规程 三 2: 时间到1小时，未抓完牌牌桌停止打牌 … 级高方为胜 (the tournament reads the levels)."""
    d, rng = Table_(GD), random.Random(5)
    d.start()
    d.press("W", "ready")
    guandan_hand(d, rng, deal_guandan(d.rules, rng))
    first = d.events("hand_scored")[-1]["data"]["team"]
    assert d.state()["round"]["left"] > 3000
    d.send("clock", {}, dt=3600.0)  # the hour is up while hand 2 is still being drawn
    over = d.events("round_over")[-1]["data"]
    assert (over["by"], over["ahead"], over["hands"]) == ("time", first, 2) and d.table.phase == "round_over"
    assert not d.events("game_won") and game_of("round_over", over, over["levels"])[0] == first


def test_a_guandan_book_that_plays_the_last_hand_out_plays_the_hand_being_drawn_out(tmp_path, monkeypatch):
    """The cut is the book's ([clock] round_cut): sanjiang-2012's "undrawn" is 规程 三 2's 未抓完牌牌桌停止打牌 (above);
    a venue's Guandan book with "none" plays out the hand being drawn at the hour, and the round ends after it. The
    table stopped it whatever the book said."""
    from referee.rulebooks import HERE

    monkeypatch.setattr("referee.rulebooks.HERE", tmp_path)
    (tmp_path / f"{GD}.toml").write_text((HERE / f"{GD}.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "venue-gd.toml").write_text(f'id = "venue-gd"\nextends = "{GD}"\n[clock]\nround_cut = "none"\n', encoding="utf-8")
    load.cache_clear()
    try:
        assert load("venue-gd").clock.round_cut == "none"
        d, rng = Table_("venue-gd"), random.Random(5)
        d.start()
        d.press("W", "ready")
        guandan_hand(d, rng, deal_guandan(d.rules, rng))
        d.send("clock", {}, dt=3600.0)  # the hour is up while hand 2 is still being drawn
        assert not d.events("round_over") and d.table.phase == "dealing"
        hands = deal_guandan(d.rules, rng)
        d.press("E", "ready")  # the draw ends (not refused: the hand is in play), its tribute, its play
        guandan_tribute(d, rng, hands)
        guandan_hand(d, rng, hands)
        over = d.events("round_over")[-1]["data"]
        assert (over["by"], over["hands"]) == ("time", 2) and d.table.phase == "round_over"
    finally:
        load.cache_clear()


def test_a_guandan_play_that_does_not_beat_is_flagged_and_a_correction_plays():
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S9", "H9"])
    d.show("E", ["S3", "H3"])
    assert d.state()["paused"] and d.state()["flags"][0]["kind"] == "impossible"
    flag = d.state()["flags"][0]["flag"]
    d.send("commands", {"command": "correct", "flag": flag, "cards": ["SQ", "HQ"]})
    assert d.state()["current_trick"] == {"leader": "S", "plays": [{"seat": "S", "cards": ["S9", "H9"]}, {"seat": "E", "cards": ["SQ", "HQ"]}]}


def test_a_natural_same_suit_straight_on_the_guandan_table_is_a_straight_flush():
    # 002 五: 顺子…如果花色相同称为同花顺，又称“火箭”; 六: “火箭”可压5张(含5张)以下的炸弹，大“火箭”压小“火箭”
    for play in (["D4", "C5", "H6", "S7", "S8"], ["SA", "HA", "CA", "DA", "SA"], ["CA", "C2", "C3", "C4", "C5"],
                 ["H3", "H4", "H5", "H6", "H7"], ["D4", "D5", "D6", "D7", "D8"]):
        d = Table_(GD)
        d.start()
        d.press("S", "ready")
        d.show("S", ["S3", "S4", "S5", "S6", "S7"])
        d.show("E", play)
        flags = d.state()["flags"]
        if play[0] == "D4" and play[1] == "D5":  # the bigger straight flush beats it
            assert not flags and d.state()["current_trick"]["plays"][-1]["seat"] == "E"
        else:
            assert flags and flags[-1]["kind"] == "impossible", play


def test_a_guandan_table_replays_to_the_same_state_and_keeps_its_game():
    d = Table_(GD)
    d.start()
    d.press("E", "ready")
    d.show("E", ["BJ"], confidence=0.5)  # an unsure read, confirmed by the seat
    d.press("E", "confirm")
    d.show("S", ["LJ"], dt=12.0)  # out of turn (N is to play): flagged, confirmed, a foul
    d.send("commands", {"command": "confirm", "flag": d.state()["flags"][0]["flag"]})
    again = new_table("t1", GD)
    for name, payload, at, seq in d.log:
        again, _ = again.apply(name, payload, at, seq)
    assert again.state(d.at + 5) == d.state(d.at + 5)
    d.send("commands", {"command": "stop_round"})
    out = d.send("commands", {"command": "assign", "rulebook": "classic-3deck", "players": {s: s for s in SEATS}})
    assert "classic-3deck is a Tractor rulebook and this table plays Guandan" in out[0].payload["data"]["reason"]
    assert out[0].payload["data"]["why"] == {"key": "table.other_game", "values": {"game": "tractor", "rulebook": "classic-3deck", "table_game": "guandan"}}


# ---------------------------------------------------------------- San Da Yi


def test_a_sandayi_round_of_eight_games_scored_from_evidence_only():
    d, rng = Table_(SDY), random.Random(2)
    d.start()
    assert (d.table.phase, d.state()["turn"]) == ("bidding", "S")  # 一 5: 黑 bids first in game 1
    mirrors = []
    for game in range(1, 9):
        assert d.state()["turn"] == "SENW"[(game - 1) % 4]
        mirrors.append(sandayi_game(d, rng))
    scored = [e["data"] for e in d.events("game_scored")]
    assert [s["scores"] for s in scored] == [m.scores for m in mirrors]
    assert all(sum(s["scores"].values()) == 0 for s in scored)
    totals = {seat: sum(m.scores[seat] for m in mirrors) for seat in SEATS}
    assert scored[-1]["totals"] == totals
    over = d.events("round_over")[-1]["data"]
    assert over["totals"] == totals and sorted(over["points"].values()) == sorted(over["points"].values())
    assert sum(over["points"].values()) == 11 and d.table.phase == "round_over"  # 5 + 3 + 2 + 1
    assert "rejected" not in [e["kind"] for e in d.events()]


def test_sandayi_state_sides_and_bids():
    d = Table_(SDY)
    d.start()
    assert [t["seats"] for t in d.state()["teams"]] == [["S"], ["E"], ["N"], ["W"]]
    d.press("E", "bid1")
    assert d.events()[-1]["kind"] == "rejected" and "S's turn" in d.events()[-1]["data"]["reason"]
    d.press("S", "pass")
    assert d.events()[-1]["data"]["why"] == {"key": "sandayi.first_bid", "values": {"low": 1, "seat": "S"}}  # 最少叫1分
    d.press("S", "bid1")
    d.press("E", "bid3")  # the top bid ends the bidding
    assert d.events("dealer_chosen")[-1]["data"] == {"dealer": "E", "bid": 3, "first_bid_three": False}
    assert d.state()["teams"] == [{"name": "dealer", "seats": ["E"], "level": None, "points": 0},
                                  {"name": "allies", "seats": ["S", "N", "W"], "level": None, "points": 0}]
    d.show("E", ["S3"])
    assert d.events()[-1]["kind"] == "rejected"  # the kitty first
    d.press("E", "ready")
    assert d.state()["cards"] == {"S": 25, "E": 33, "N": 25, "W": 25} and d.state()["clocks"]["E"]["left"] is None
    d.show("N", ["S4"])
    assert d.violations()[-1]["kind"] == "out_of_turn" and d.violations()[-1]["status"] == "flagged"
    d.send("commands", {"command": "dismiss", "flag": d.violations()[-1]["flag"]})
    d.show("E", ["S3", "S3", "S3"])
    assert d.events()[-1]["kind"] == "flag_raised" and "2 decks hold only 2" in d.state()["flags"][0]["text"]


@pytest.mark.parametrize("rulebook", [GD, SDY])
def test_bad_climbing_inputs_change_nothing(rulebook):
    d = Table_(rulebook)
    d.start()
    before = d.state()
    d.press("S", "bid2" if rulebook == GD else "declare")
    d.send("commands", {"command": "confirm", "flag": "nope"})
    d.show("W", ["S9"])
    assert [e["kind"] for e in d.events()][-3:] == ["rejected"] * 3
    same = {"seq": 0, "at": 0, "round": 0}
    assert d.state() | same == before | same


def test_more_cards_than_a_seat_holds_shown_out_of_turn_are_exposed_cards():
    d = Table_(SDY)
    d.start()
    d.press("S", "bid3")
    d.press("S", "ready")
    d.show("W", ["S3"])  # one card: it could be W's play, out of turn
    assert d.violations()[-1]["kind"] == "out_of_turn"
    d.send("commands", {"command": "dismiss", "flag": d.violations()[-1]["flag"]})
    many = [s + r for s in "SHDC" for r in "3456789"][:26]  # 26 cards: W holds 25, so no play: 暴露张
    d.show("W", many)
    assert d.violations()[-1]["kind"] == "exposed_card" and d.state()["flags"][0]["kind"] == "exposed_card"
    assert d.state()["cards"]["W"] == 25 and d.state()["turn"] == "S"


def test_a_guandan_seat_more_than_5_minutes_late_forfeits_the_round():
    """十二 第2条: 比赛宣布开始5分钟后，一方两位选手仍未同时到赛场就位，则本轮比赛作弃权论处."""
    d = Table_(GD)
    d.send("commands", {"command": "start_round"})
    for seat in "SEN":
        d.press(seat, "ready", dt=10.0)
    assert not d.violations()
    d.press("W", "ready", dt=5 * 60)
    v = d.violations("late_arrival")[-1]
    assert (v["seat"], v["penalty"]["forfeit"]) == ("W", "round") and v["evidence"]["seconds"] > 300
    won = d.events("game_won")[-1]["data"]
    assert (won["team"], won["by"], won["loser"]) == ("SN", "late", "EW") and d.table.phase == "round_over"


def test_a_guandan_side_not_seated_at_5_minutes_forfeits_when_the_time_passes():
    """十二 第2条: 比赛宣布开始5分钟后，一方两位选手仍未同时到赛场就位，则本轮比赛作弃权论处 -- ruled the moment the
    5 minutes pass, with no ``ready`` from the absent seat: a table at 6 minutes no longer says ``arriving``."""
    d = Table_(GD)
    d.send("commands", {"command": "start_round"})
    start = d.at
    for seat in "SNW":
        d.press(seat, "ready", dt=5.0)
    assert d.table.next_deadline() == start + 60  # the first minute (nothing is ruled then: 5 minutes are free)
    assert d.state(start + 6 * 60)["phase"] == "round_over"
    d.send("clock", {}, dt=start + 60.5 - d.at)
    assert not d.violations() and d.table.next_deadline() == start + 300
    d.send("clock", {}, dt=start + 300.5 - d.at)
    (v,) = d.violations("late_arrival")
    assert (v["seat"], v["penalty"]["forfeit"], v["evidence"]["seats"]) == ("E", "round", ["E"])
    assert d.events("game_won")[-1]["data"] == {"team": "SN", "by": "late", "loser": "EW", "minutes": 5.01} and d.table.phase == "round_over"


def test_guandan_both_sides_late_both_forfeit_the_round():
    """十二 第2条: 一方两位选手仍未同时到赛场就位，则本轮比赛作弃权论处 -- for each side: N and W at once, E at 6:00 and
    S at 7:00, so neither side was seated at 5 minutes: both forfeit, and nobody wins by the other's lateness."""
    d = Table_(GD)
    d.send("commands", {"command": "start_round"})
    start = d.at
    d.press("N", "ready", dt=0.0)
    d.press("W", "ready", dt=0.0)
    d.press("E", "ready", dt=start + 360 - d.at)
    d.press("S", "ready", dt=60.0)
    late = d.violations("late_arrival")
    assert sorted((v["seat"], v["penalty"]["forfeit"]) for v in late) == [("E", "round"), ("S", "round")]
    assert d.events("round_forfeited")[-1]["data"] == {"teams": ["SN", "EW"], "by": "late", "minutes": 6.0}
    assert Sentences("zh", "guandan").event(d.events("round_forfeited")[-1]) == "南北、东西 均迟到，双方本轮弃权（迟到 6 分钟）"
    assert not d.events("game_won") and d.table.phase == "round_over"
    assert [e["data"]["topic"] for e in d.events("rejected")] == ["board/in", "board/in"]  # E's and S's ready: too late


def test_the_last_hand_command_ends_the_guandan_round_on_levels():
    d, rng = Table_(GD), random.Random(6)
    d.start()
    d.send("commands", {"command": "last_hand"})
    d.press("S", "ready")
    guandan_hand(d, rng, deal_guandan(d.rules, rng))
    first = d.events("hand_scored")[-1]["data"]["team"]
    over = d.events("round_over")[-1]["data"]
    assert (over["by"], over["ahead"], over["hands"]) == ("last_hand", first, 1) and d.table.phase == "round_over"


def test_at_a_double_down_one_big_joker_waits_for_the_other_payer():
    """四: 双下时，如二人各抓到一个“大王”…则都不用进贡; 上游者拿大牌，并还牌给贡大牌者，由贡大牌者先出牌."""
    d = Table_(GD)
    d.start()
    d.table = d.table._with(after=("S", "N"))  # as if S and N took first and second: E and W pay
    d.press("S", "ready")
    d.show("E", ["BJ"])
    assert d.events()[-1]["kind"] == "tribute_shown" and d.state()["turn"] == "W"
    d.show("W", ["SA"])  # no second big joker: E's was its tribute, the bigger, to the first
    assert d.events("tribute_given")[-1]["data"]["exchanges"] == [
        {"from": "E", "to": "S", "card": "BJ"}, {"from": "W", "to": "N", "card": "SA"}]
    d.show("S", ["C3"])
    d.show("N", ["D4"])
    assert d.events("play_started")[-1]["data"]["leader"] == "E"
    refused = Table_(GD)
    refused.start()
    refused.table = refused.table._with(after=("E", "W"))
    refused.press("E", "ready")
    refused.show("N", ["BJ"])
    refused.show("S", ["BJ"])
    assert refused.events("tribute_refused")[-1]["data"]["seats"] == ["N", "S"]
    assert refused.state()["turn"] == "E" and refused.table.phase == "playing"  # the first leads


def test_guandan_out_of_turn_and_exposed_cards_count_fouls_once_confirmed():
    """十一 2, 3: 暴露张、越序出牌…视情节轻重记犯规一次 (the referee confirms or dismisses)."""
    d, rng = Table_(GD), random.Random(4)
    d.start()
    d.press("S", "ready")
    hands = deal_guandan(d.rules, rng)
    mirror = Hand.start(d.rules, "2", "S")
    while not any(0 < mirror.count(s) <= 5 and s != mirror.turn for s in SEATS):
        seat = mirror.turn
        chosen = guandan_play(d.rules, "2", hands[seat], mirror.table.reading if mirror.table else None, rng)
        if chosen is None:
            mirror = mirror.pass_(seat)
            d.press(seat, "pass")
        else:
            mirror = mirror.play(seat, chosen[0])
            d.show(seat, chosen[0])
            hands[seat] -= chosen[0]
    few = next(s for s in SEATS if 0 < mirror.count(s) <= 5 and s != mirror.turn)
    d.show(few, Cards(list(hands[few]) + list(hands[mirror.turn])[:1]))  # more than it holds: no play
    v = d.violations()[-1]
    assert (v["kind"], v["seat"], v["penalty"]["foul"], v["rule"]["article"][:2]) == ("exposed_card", few, True, "十一")
    d.send("commands", {"command": "confirm", "flag": v["flag"]})
    d.show(few, list(hands[few])[:1])  # one card: it could be its play, out of turn
    v = d.violations()[-1]
    assert v["kind"] == "out_of_turn"
    d.send("commands", {"command": "dismiss", "flag": v["flag"]})
    assert [(f["data"]["seat"], f["data"]["kind"]) for f in d.events() if f["kind"] == "foul_counted"] == [(few, "exposed_card")]


def test_the_next_deadline_follows_clocks_that_ran_out_with_no_input():
    """E's turn is given up at its deadline and N's clock starts there: the ``clock`` entry the service logs
    once E's deadline passed rules it, and the table's next deadline is N's, then W's, with no input between."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    first = d.table.next_deadline()
    assert first == d.at + 30.0 and d.table.rules_by(first) is False and d.table.rules_by(first + 0.1) is True
    d.send("clock", {}, dt=first + 0.25 - d.at)
    assert d.table.next_deadline() == first + 30.0 and d.state()["turn"] == "N"  # N's own long think, from E's deadline
    d.send("clock", {}, dt=30.0)
    assert d.table.next_deadline() == first + 60.0 and d.state()["turn"] == "W"  # then W's
    assert [v["seat"] for v in d.violations("overtime")] == ["E", "N"]


def test_guandan_a_confirmed_play_out_of_turn_sits_out_the_offenders_next_turn():
    """十一 3: 越序出牌则停止一轮出牌，由下家出牌: once the referee confirms, the offender's next turn is a pass
    (``passed`` with ``sat_out``); confirmed while it is on turn, at once, and the next seat's clock starts."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    d.show("N", ["S5"])  # before E
    flag = d.violations()[-1]
    assert (flag["kind"], flag["seat"]) == ("out_of_turn", "N") and d.state()["turn"] == "E"
    d.send("commands", {"command": "confirm", "flag": flag["flag"]})
    assert d.state()["turn"] == "E"  # nothing to sit out yet
    d.show("E", ["S6"])
    assert d.state()["turn"] == "W"  # N sat its turn out
    sat = d.events("passed")[-1]["data"]
    assert sat == {"hand": 1, "trick": 1, "seat": "N", "sat_out": True}
    said = {lang: Sentences(lang, "guandan").event(d.events("passed")[-1]) for lang in ("zh", "en")}
    assert said == {"zh": "第 1 盘第 1 圈：北 停止一轮出牌，由下家出牌", "en": "hand 1 trick 1: N sits this turn out (a confirmed violation)"}
    assert [f["data"]["seat"] for f in d.events("foul_counted")] == ["N"]
    d.press("W", "pass")
    d.press("S", "pass")
    assert d.state()["turn"] == "E"  # N's turn counted as the first of the three passes: E leads again
    d.show("E", ["H7"])
    d.show("N", ["H9"])  # N sat out once and plays as usual now
    assert d.state()["turn"] == "W" and len(d.events("passed")) == 3


def test_sandayi_the_referees_fouls_from_the_console_rule_the_loser_at_two():
    """三: 犯规时由裁判判定，同一副牌内，任何一名选手被记过2次及以上犯规，作输者处理."""
    d = Table_(SDY)
    d.start()
    d.send("commands", {"command": "foul", "seat": "E", "kind": "talking"})  # while bidding: recorded
    v = d.violations()[-1]
    assert (v["seat"], v["kind"], v["status"], v["penalty"], v["evidence"]) == ("E", "talking", "confirmed", {"foul": True}, {"hand": 1, "fouls": 1, "limit": 2})
    for seat, button in (("S", "bid1"), ("E", "pass"), ("N", "pass"), ("W", "pass")):
        d.press(seat, button)
    d.press("S", "ready")  # the kitty
    d.show("S", ["S3"])
    bad = d.send("commands", {"command": "foul", "seat": "N", "kind": "whistling"})
    assert bad[0].payload["kind"] == "rejected" and "unknown foul 'whistling'" in bad[0].payload["data"]["reason"]
    d.send("commands", {"command": "foul", "seat": "E", "kind": "peeking"})  # E's second: the allies lose
    scored = d.events("game_scored")[-1]["data"]
    assert (scored["winner"], scored["ended_by"], scored["hand"]) == ("dealer", "fouls", 1)
    assert [e["data"]["fouls"] for e in d.events("foul_counted")] == [1, 2]
    assert d.table.phase == "bidding" and d.table.hand_no == 2  # the next game is dealt


def test_sandayi_report_and_open_hand_from_the_console():
    """二 特殊规则: 报到 (不打: the dealer wins at once) and 摊打 (only after 头撂), entered by the referee."""
    d = Table_(SDY)
    d.start()
    d.press("S", "bid1")
    d.press("E", "bid3")  # not a first bid of three: no 摊打
    d.press("E", "ready")
    refused = d.send("commands", {"command": "open_hand", "seat": "E"})
    assert refused[0].payload["kind"] == "rejected" and "after a first-bid three" in refused[0].payload["data"]["reason"]  # 头撂
    assert refused[0].payload["data"]["why"]["key"] == "sandayi.open_needs"
    assert d.send("commands", {"command": "report", "seat": "S", "play": True})[0].payload["kind"] == "rejected"  # not the dealer
    d.send("commands", {"command": "report", "seat": "E", "play": False})
    scored = d.events("game_scored")[-1]["data"]
    assert (scored["winner"], scored["ended_by"], d.events("reported")[-1]["data"]) == ("dealer", "report", {"seat": "E", "play": False})
    # game 2: E bids first (一 5) and bids three at once (头撂): 摊打 doubles the score
    assert d.state()["turn"] == "E"
    d.press("E", "bid3")
    d.press("E", "ready")
    d.send("commands", {"command": "open_hand", "seat": "E"})
    assert d.events("hand_opened")[-1]["data"] == {"seat": "E"} and d.table.game.hand_open
    d.show("E", ["S3"])
    late = d.send("commands", {"command": "report", "seat": "E", "play": True})  # after the first lead: too late
    assert late[0].payload["kind"] == "rejected"


def test_the_referees_rulings_are_refused_where_the_game_has_none():
    d = Table_(GD)
    d.start()
    out = d.send("commands", {"command": "report", "seat": "E", "play": True})  # 报到 is San Da Yi's
    assert out[0].payload["kind"] == "rejected" and "takes no such ruling" in out[0].payload["data"]["reason"]


def test_sandayi_rulings_read_in_the_timeline():
    say = {lang: Sentences(lang, "sandayi") for lang in ("zh", "en")}
    foul = {"kind": "foul_counted", "data": {"seat": "E", "kind": "talking", "fouls": 1, "limit": 2}}
    report = {"kind": "reported", "data": {"seat": "S", "play": False}}
    assert say["zh"].event(foul) == "东 犯规（交谈），本局第 1 次（2 次作输者处理）"
    assert say["en"].event(report) == "dealer S reports: does not play: the dealer wins at once"
    assert say["zh"].event({"kind": "hand_opened", "data": {"seat": "S"}}) == "庄家 南 摊打"


def test_a_venue_clock_that_gives_up_a_san_da_yi_lead_passes_it_to_the_next_seat(monkeypatch):
    """Seed 004 sets no clock; a venue may configure one (README "Clocks"): with ``overrun = "pass"`` a silent
    dealer's lead goes to the next seat, as in Guandan, and the table goes on."""
    from dataclasses import replace

    from referee.table import reducer

    book = load(SDY)
    venue = replace(book, clock=replace(book.clock, play_s=15, overrun="pass"))
    monkeypatch.setattr(reducer, "load", lambda name: venue if name == SDY else load(name))
    reducer._limits.cache_clear()
    try:
        d = Table_(SDY)
        d.start()
        while d.table.phase == "bidding":
            d.press(d.state()["turn"], "pass" if d.table.game.bidding.high else "bid1")
        dealer = d.table.dealer
        d.press(dealer, "ready")
        d.send("clock", {}, dt=15.5)
        v = d.violations("overtime")[-1]
        assert (v["seat"], v["penalty"]["forfeit"], v["evidence"]["action"]) == (dealer, "turn", "lead")
        assert d.state()["turn"] == next_seat(dealer) and d.table.phase == "playing"
    finally:
        reducer._limits.cache_clear()


def test_a_table_where_nobody_plays_for_a_whole_round_stops_its_clocks_for_the_referee():
    """十二 第3条: 否则，视作放弃本次出牌权 gives up one turn; decided: when every seat holding cards has given its
    turn up in a row with no play or pass, nobody is playing (the table is left, the camera is down), so the table
    raises a ``no_play`` flag and its clocks stop until a person resolves it, rather than passing turns for ever
    (an input an hour late, or a clock run far ahead, rules four turns, not hundreds)."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")  # S leads
    d.send("clock", {}, dt=3600.0)
    assert [v["seat"] for v in d.violations("overtime")] == ["S", "E", "N", "W"]
    (flag,) = d.state()["flags"]
    assert (flag["kind"], flag["seat"]) == ("no_play", "S") and d.state()["paused"] and d.table.next_deadline() is None
    assert d.state(d.at + 600)["clocks"]["S"] == {"left": 10.0, "running": False, "long_think": False}
    d.send("commands", {"command": "confirm", "flag": flag["flag"]}, dt=60.0)
    assert d.table.next_deadline() == d.at + 10.0 and not d.state()["paused"]
    d.show("S", ["S3"], dt=5.0)
    assert d.events("play_accepted")[-1]["data"]["seat"] == "S" and d.table.given_up == 0
