"""The Guandan fouls at the table (seed 002): what the referee records from the console (九, 四), the wrong
play confirmed (十一 1), and three fouls by one side losing the round (十 第3条)."""

from climbing_kit import GD, Table_

from referee.catalogue.sentences import Sentences


def test_the_referees_fouls_count_to_the_side_and_three_lose_the_round():
    """九 1: 不允许通过明示或暗示传递非法信息，否则记犯规1次; 九 2: 牌必须高于台面握在手上…否则记犯规1次;
    四: 进贡和还牌时如出现违规…视情节轻重记犯规一次; 十 第3条: 在一轮比赛中如某一方运动员出现累计三次犯规，则本轮判负."""
    d = Table_(GD)
    d.start()  # drawing the first hand
    d.send("commands", {"command": "foul", "seat": "E", "kind": "signalling"})
    v = d.violations()[-1]
    assert (v["seat"], v["kind"], v["status"], v["penalty"], v["evidence"]) == ("E", "signalling", "confirmed", {"foul": True}, {"hand": 1})
    assert v["rule"]["article"].startswith("九 1: 不允许通过明示或暗示传递非法信息")
    d.press("S", "ready")
    d.show("S", ["S3"])
    d.send("commands", {"command": "foul", "seat": "W", "kind": "cards_below_table"})  # E's partner: the same side
    assert [(e["data"]["seat"], e["data"]["team"], e["data"]["fouls"], e["data"]["limit"]) for e in d.events("foul_counted")] == [
        ("E", "EW", 1, 3), ("W", "EW", 2, 3)]
    d.send("commands", {"command": "foul", "seat": "N", "kind": "tribute_breach"})  # the other side's first
    assert d.table.phase == "playing"
    d.send("commands", {"command": "foul", "seat": "E", "kind": "signalling"})  # EW's third: the round is lost
    won = d.events("game_won")[-1]["data"]
    assert (won["team"], won["by"], won["loser"], d.table.phase) == ("SN", "fouls", "EW", "round_over")
    said = Sentences("zh", "guandan").event(d.events("foul_counted")[0])
    assert "暗示性手势" in said and "3 次判负" in said


def test_a_misreported_count_is_first_a_warning_then_a_foul_each_time():
    """九 3: 如报错牌张或故意隐瞒…第一次警告，第二次则记犯规一次，以后出现一次，加记犯规一次."""
    d = Table_(GD)
    d.start()
    for _ in range(3):
        d.send("commands", {"command": "foul", "seat": "N", "kind": "count_misreport"})
    assert [v["penalty"] for v in d.violations("count_misreport")] == [{"warning": True}, {"foul": True}, {"foul": True}]
    assert [e["data"]["fouls"] for e in d.events("foul_counted")] == [1, 2]
    d.send("commands", {"command": "foul", "seat": "S", "kind": "count_misreport"})  # S's own first: a warning
    assert d.violations("count_misreport")[-1]["penalty"] == {"warning": True} and len(d.events("foul_counted")) == 2


def test_a_foul_the_book_does_not_have_or_outside_a_round_is_refused_and_changes_nothing():
    d = Table_(GD)
    out = d.send("commands", {"command": "foul", "seat": "E", "kind": "signalling"})  # no round yet
    assert out[0].payload["kind"] == "rejected" and out[0].payload["data"]["why"]["key"] == "table.no_game"
    d.start()
    before = d.state()
    out = d.send("commands", {"command": "foul", "seat": "E", "kind": "talking"})  # San Da Yi's, not Guandan's
    assert out[0].payload["kind"] == "rejected" and out[0].payload["data"]["why"]["key"] == "table.unknown_foul"
    zh = Sentences("zh", "guandan").event(out[0].payload)
    assert "没有这种犯规" in zh and "暗示性手势" in zh
    same = {"at": 0, "seq": 0, "round": 0}  # what time and the log's count change
    assert d.state() | same == before | same and not d.violations()


def test_a_wrong_play_confirmed_stays_a_foul_and_the_next_seat_plays():
    """十一 1: 任何一方所出的牌，一旦被对方看到(并被指明是什么牌)后不得收回，如是错牌则停止一轮出牌，由下家出牌，并视情节
    轻重记犯规一次 -- confirmed by the referee, the offender does not play again: its turn passes and a foul counts."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S7", "C7"])
    d.show("E", ["S3", "D3"])  # does not beat: flagged, the clocks wait
    v = d.violations()[-1]
    assert (v["kind"], v["seat"], v["status"], v["penalty"]["foul"], v["rule"]["article"][:4]) == ("impossible", "E", "flagged", True, "十一 1")
    d.send("commands", {"command": "confirm", "flag": v["flag"]})
    assert d.state()["turn"] == "N" and d.events("passed")[-1]["data"] == {"hand": 1, "trick": 1, "seat": "E", "sat_out": True}
    assert [(e["data"]["seat"], e["data"]["kind"]) for e in d.events("foul_counted")] == [("E", "impossible")]
    assert d.state()["cards"]["E"] == 27  # the wrong cards are not played
    d.show("N", ["S9", "D9"])
    assert d.state()["turn"] == "W" and d.state()["clocks"]["W"]["running"]


def test_a_wrong_lead_confirmed_gives_the_lead_to_the_next_seat():
    """十一 1: 如是错牌则停止一轮出牌，由下家出牌 -- a lead that is no combination: the next seat leads."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3", "D5"])
    flag = d.state()["flags"][0]["flag"]
    d.send("commands", {"command": "confirm", "flag": flag})
    assert d.state()["turn"] == "E" and d.state()["current_trick"] is None


def test_a_misread_is_corrected_or_dismissed_with_no_foul():
    """A read the rules refuse may be the camera's: the referee corrects it into the play made, or dismisses it;
    neither is a penalty."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S7", "C7"])
    d.show("E", ["S3", "D3"])
    d.send("commands", {"command": "correct", "flag": d.state()["flags"][0]["flag"], "cards": ["SQ", "DQ"]})
    d.show("N", ["S4", "D4"])
    d.send("commands", {"command": "dismiss", "flag": d.state()["flags"][0]["flag"]})
    assert not d.events("foul_counted") and d.state()["turn"] == "N"
    assert [v["status"] for v in d.violations("impossible")] == ["flagged", "dismissed", "flagged", "dismissed"]


def _called_at_the_hour():
    """A match whose hour (规程 三 2) passes while E's call is open and the next hand is not drawn."""
    d = Table_(GD, at=0.0)
    d.start()
    d.send("commands", {"command": "foul", "seat": "E", "kind": "signalling"})
    d.send("commands", {"command": "foul", "seat": "W", "kind": "signalling"})  # EW's second
    d.press("S", "referee", dt=3590.0)  # a call made in time (十 第1条: 举报人举手报告裁判员。停止打牌)
    d.send("clock", {}, dt=30.0)  # the hour passes: 未抓完牌牌桌停止打牌
    return d


def test_a_call_open_at_the_hour_is_ruled_and_a_third_foul_still_loses_the_round():
    """002 十 第3条: 在一轮比赛中如某一方运动员出现累计三次犯规，则本轮判负; 十 第1条: 举报人举手报告裁判员。停止打牌; 规程 三 2:
    裁判宣布比赛结束（时间到1小时），未抓完牌牌桌停止打牌 -- the call was dismissed with the round at the hour and the
    referee could no longer record the foul reported: a third foul called in time could not lose the round."""
    d = _called_at_the_hour()
    assert d.table.phase == "dealing" and not d.events("round_over") and [f["kind"] for f in d.state()["flags"]] == ["referee_called"]
    (waits,) = d.events("result_waits")
    assert waits["data"]["by"] == "time"
    assert "结果等裁判" in Sentences("zh", "guandan").event(waits)
    d.send("clock", {}, dt=60.0)
    assert len(d.events("result_waits")) == 1  # said once
    before = len(d.outputs)
    d.press("S", "ready")  # no hand is drawn after the hour
    assert d.events("rejected")[-1]["data"]["why"]["key"] == "guandan.time_up" and d.table.hand is None
    assert len(d.outputs) == before + 1
    call = d.state()["flags"][0]
    d.send("commands", {"command": "foul", "seat": "E", "kind": "signalling"})
    v = d.violations()[-1]
    assert (v["seat"], v["status"], v["evidence"]["called_at"]) == ("E", "confirmed", call["at"])
    won = d.events("game_won")[-1]["data"]
    assert (won["team"], won["by"], d.table.phase) == ("SN", "fouls", "round_over") and not d.events("round_over")


def test_a_call_dismissed_after_the_hour_ends_the_round_on_time():
    """规程 三 2: 根据级差（级高方为胜，同级时先到胜） -- the call answered with no foul, the match ends on time at once."""
    d = _called_at_the_hour()
    flag = d.state()["flags"][0]["flag"]
    d.send("commands", {"command": "dismiss", "flag": flag})
    (over,) = d.events("round_over")
    assert (over["data"]["by"], d.table.phase) == ("time", "round_over") and not d.events("game_won")


def test_a_card_shown_out_of_turn_in_the_tribute_is_a_tribute_breach_given_again():
    """四: 进贡和还牌时如出现违规，可招请裁判员进行判罚，正常判为重新给牌，视情节轻重记犯规一次 -- the receiver's return card
    shown before the payer's tribute is no 越序出牌 (十一 3: 停止一轮出牌 is play's): it cites 四, the card is given again
    when due, and confirmed it is one foul."""
    d = Table_(GD)
    d.start()
    d.table = d.table._with(after=("E", "S", "W", "N"))  # as if E took first and N was last: N pays E
    d.press("S", "ready")
    d.show("E", ["S3"])  # E's return card before N paid
    v = d.violations()[-1]
    assert (v["kind"], v["seat"], v["status"]) == ("out_of_turn", "E", "flagged")
    assert v["rule"]["article"].startswith("四: 进贡和还牌时如出现违规") and "重新给牌" in v["penalty"]["text"]
    d.send("commands", {"command": "confirm", "flag": v["flag"]})
    assert [(e["data"]["seat"], e["data"]["fouls"]) for e in d.events("foul_counted")] == [("E", 1)]
    assert d.state()["turn"] == "N" and d.table.phase == "dealing"
    d.show("N", ["SA"])
    d.show("E", ["S3"])  # given again, now due
    assert d.events("card_returned")[-1]["data"] == {"seat": "E", "to": "N", "card": "S3"} and d.table.phase == "playing"


def test_several_cards_from_a_seat_outside_the_tribute_are_flagged_for_a_person_not_refused():
    """四: 进贡和还牌时如出现违规，可招请裁判员进行判罚 -- S and W neither pay nor receive (N pays E): cards S shows then
    contradict the tribute; like one card from a seat not due, a person looks (a misread dismissed changes nothing),
    where they were refused as not one card (``guandan.one_card``), as if S had paid wrongly. The payer's own several
    cards stay refused: a tribute is one card."""
    d = Table_(GD)
    d.start()
    d.table = d.table._with(after=("E", "S", "W", "N"))  # E first, N last: N pays E
    d.press("S", "ready")
    d.show("S", ["S3", "D3"])
    v = d.violations()[-1]
    assert (v["kind"], v["seat"], v["status"], v["evidence"]["cards"]) == ("out_of_turn", "S", "flagged", ["S3", "D3"])
    assert not d.events("rejected") and d.table.flags
    d.send("commands", {"command": "dismiss", "flag": v["flag"]})
    assert not d.events("foul_counted") and d.state()["turn"] == "N" and not d.table.flags
    out = d.show("N", ["SA", "HA"])
    assert out[0].payload["data"]["why"]["key"] == "guandan.one_card"
