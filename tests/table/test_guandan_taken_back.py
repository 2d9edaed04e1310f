"""九 3 (seed 002): a seat that misreported its count takes back the cards it played out and plays them again, the
opponents free to beat them; the table's remedy for the referee's ``count_misreport`` (the book's ``[fouls] taken_back``)."""

from climbing_kit import GD, Table_

from referee.catalogue.sentences import Sentences

RULE = "九 3: 手中牌10张以下(包括10张牌)…如报错牌张或故意隐瞒，则已出完的牌必须收回重出（对方选手可以打牌压）"
# Two seats' 27 cards each as five leads (four 木板 of three pairs and a triple), two decks' copies respected.
LEADS = {
    "S": ["S3 H3 S4 H4 S5 H5", "S6 H6 S7 H7 S8 H8", "S9 H9 ST HT SJ HJ", "SQ HQ SK HK SA HA", "S6 H6 C6"],
    "N": ["C3 D3 C4 D4 C5 D5", "C6 D6 C7 D7 C8 D8", "C9 D9 CT DT CJ DJ", "CQ DQ CK DK CA DA", "C7 D7 S7"],
}


def _misreport(d, seat):
    return d.send("commands", {"command": "foul", "seat": seat, "kind": "count_misreport"})


def _plays_out(d, seat):
    """``seat`` leads its five leads, everyone else still holding cards passing each."""
    for cards in LEADS[seat]:
        d.show(seat, cards.split())
        while d.table.phase == "playing" and d.table.hand.table is not None:
            d.press(d.state()["turn"], "pass")


def test_a_seat_out_on_a_misreported_count_takes_its_last_play_back_and_the_opponents_may_beat_it():
    """九 3: 如报错牌张或故意隐瞒，则已出完的牌必须收回重出（对方选手可以打牌压）: S played out first with 6 6 6, nobody beat
    it and its partner N took the lead (接风); the referee records S's misreport: the triple is taken back, S holds those
    three cards again and is on turn as before; played again, E beats it and leads, not N."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    _plays_out(d, "S")
    assert d.table.hand.finish == ("S",) and d.state()["turn"] == "N"  # 接风
    _misreport(d, "S")
    v = d.violations("count_misreport")[-1]
    assert v["penalty"] == {"warning": True} and v["evidence"]["why"]["key"] == "guandan.taken_back"
    (back,) = d.events("hand_reopened")
    assert back["data"] == {"hand": 1, "seat": "S", "cards": ["S6", "H6", "C6"], "trick": 5}
    s = d.state()
    assert (s["turn"], s["cards"]["S"], s["hand"], s["trick"], s["phase"]) == ("S", 3, 1, 4, "playing")  # trick 5 not yet led
    assert s["clocks"]["S"]["running"] and d.table.hand.finish == ()
    d.show("S", ["S6", "H6", "C6"])  # 重出
    assert d.table.hand.finish == ("S",) and d.state()["turn"] == "E"
    d.show("E", ["S9", "H9", "D9"])  # 对方选手可以打牌压
    d.press("N", "pass")
    d.press("W", "pass")
    assert d.state()["turn"] == "E" and d.state()["current_trick"]["leader"] == "S"
    zh = Sentences("zh", "guandan")
    assert "收回" in zh.event(back) and "收回重出" in zh.violation(v)


def test_a_hand_the_seat_ended_is_taken_up_again_until_the_next_is_drawn():
    """九 3: 则已出完的牌必须收回重出: S first, its partner N second ended the hand (SN up three levels); before the next
    hand is drawn the referee records N's misreport: hand 1 is played on from N's last lead, the levels back at 2."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    _plays_out(d, "S")
    _plays_out(d, "N")
    assert [e["data"]["hand"] for e in d.events("hand_scored")] == [1] and d.state()["teams"][0]["level"] == "5"
    assert (d.state()["hand"], d.table.phase) == (2, "dealing")
    _misreport(d, "N")
    d.send("commands", {"command": "foul", "seat": "N", "kind": "count_misreport"})  # a second: a foul, nothing more back
    assert [v["penalty"] for v in d.violations("count_misreport")] == [{"warning": True}, {"foul": True}]
    assert [v["evidence"]["hand"] for v in d.violations("count_misreport")] == [1, 1]  # hand 1, taken up again
    assert len(d.events("hand_reopened")) == 1 and d.events("levels_changed")[-1]["data"]["levels"] == {"SN": "2", "EW": "2"}
    s = d.state()
    assert (s["phase"], s["hand"], s["turn"], s["cards"]["N"], s["teams"][0]["level"]) == ("playing", 1, "N", 3, "2")
    d.show("N", ["C7", "D7", "S7"])  # played out again: first and second, the hand is scored again
    assert [e["data"]["hand"] for e in d.events("hand_scored")] == [1, 1] and d.state()["hand"] == 2
    assert d.state()["teams"][0]["level"] == "5"


def test_cards_played_out_stay_once_the_next_hand_is_drawn_and_a_seat_holding_cards_keeps_them():
    """九 3: the remedy takes back what was played out; once the next hand is drawn (its ready pressed, the tribute
    begun) the cards of the last are gone: the warning is recorded and the violation says the cards stay. A seat that
    still holds cards has nothing to take back (第一次警告 only)."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    _misreport(d, "E")  # E holds 27: a warning, nothing else
    assert "why" not in d.violations("count_misreport")[-1]["evidence"] and not d.events("hand_reopened")
    _plays_out(d, "S")
    _plays_out(d, "N")
    d.press("S", "ready")  # the next hand drawn: the tribute starts
    before = d.state()
    _misreport(d, "S")
    v = d.violations("count_misreport")[-1]
    assert v["evidence"]["why"] == {"key": "guandan.cards_stay", "values": {"seat": "S", "hand": 1}}
    assert not d.events("hand_reopened") and d.state()["hand"] == before["hand"] == 2 and d.table.tribute is not None
    assert "不再收回" in Sentences("zh", "guandan").violation(v)
