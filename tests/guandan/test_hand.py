"""One hand through the referee: turns, readings, passing, 接风, finish order, early end, card counts.

Seed 002 规则 二 (readings), 三 (接风, places), 七 (play), 九 3 (the count at ten cards or fewer).
Hands are scripted: a seat that empties its 27 cards in a few bombs reaches the end quickly.
"""

import pytest
import said

from referee.cards import Cards
from referee.climbing.combos import Reading
from referee.guandan.hand import Hand, HandError, describe
from referee.guandan.levels import levels_won
from referee.rulebooks import load

GD = load("sanjiang-2012")


def C(s):
    return Cards.parse(s)


def eight(rank):
    """All eight cards of a rank in two decks (a bomb of eight)."""
    return C(" ".join(s + rank for s in "SHDC" * 2))


def feed(hand, events):
    """events: (seat, cards) to play, (seat, None) to pass; ``at`` is the event's index."""
    for i, (seat, cards) in enumerate(events):
        hand = hand.pass_(seat, at=float(i)) if cards is None else hand.play(seat, cards, at=float(i))
    return hand


def passes(*seats):
    return [(s, None) for s in seats]


# S empties its hand in four plays, then N in four: level 2, S leads.
S_OUT = [("S", eight("3")), *passes("E", "N", "W"), ("S", eight("4")), *passes("E", "N", "W"),
         ("S", eight("5")), *passes("E", "N", "W"), ("S", C("S6 D6 C6"))]  # fmt: skip


def test_play_goes_counter_clockwise_and_out_of_turn_is_an_error():
    """七①: 首家可以出任何牌型，选手依次轮流压牌 (S -> E -> N -> W)."""
    h = Hand.start(GD, "2", "S").play("S", C("S3"))
    assert h.turn == "E"
    with said.raises(HandError, "N is out of turn: E is to play"):
        h.play("N", C("S9"))
    assert h.turn == "E" and len(h.turns) == 1  # unchanged
    h = h.play("E", C("S5")).pass_("N")
    assert h.turn == "W"


def test_the_leader_cannot_pass():
    """七①: 首家可以出任何牌型 ... 如没有可以弃权 -- only a follower may pass."""
    with said.raises(HandError, "S leads and cannot pass"):
        Hand.start(GD, "2", "S").pass_("S")


def test_cards_that_form_no_combination_are_an_error():
    """五: 顺子：五张且只能五张相连的单张牌 -- four in a row is no play."""
    with said.raises(HandError, "S: S6 S5 S4 S3 is no combination"):
        Hand.start(GD, "2", "S").play("S", C("S3 S4 S5 S6"))


def test_a_lead_is_recorded_with_its_lowest_reading():
    """二: 如x4567，相当于34567（或45678须出牌时说明） -- undeclared, the lowest."""
    h = Hand.start(GD, "9", "S").play("S", C("H9 S4 S5 S6 D7"))
    assert h.table.reading == Reading("straight", 7, 5)
    assert said.words(describe(GD, "9", h.table.reading)) == "straight to 7"


def test_a_declared_reading_is_recorded():
    """二: x4567，相当于34567（或45678须出牌时说明）。"""
    h = Hand.start(GD, "9", "S").play("S", C("H9 S4 S5 S6 D7"), declared=("straight", "8"))
    assert h.table.reading == Reading("straight", 8, 5)
    # a natural same-suit straight is a straight flush, and only that (五: 如果花色相同称为同花顺)
    h = Hand.start(GD, "9", "S").play("S", C("S3 S4 S5 S6 S7"))
    assert h.table.reading == Reading("straight_flush", 7, 5)
    with said.raises(HandError, "cannot be read as straight"):
        Hand.start(GD, "9", "S").play("S", C("S3 S4 S5 S6 S7"), declared="straight")


def test_a_declared_reading_the_cards_do_not_make_is_an_error():
    """二: x4567，相当于34567（或45678须出牌时说明） -- not 56789."""
    with said.raises(HandError, "cannot be read as straight 9; it reads as straight to 7, straight to 8"):
        Hand.start(GD, "9", "S").play("S", C("H9 S4 S5 S6 D7"), declared=("straight", 9))


def test_a_follow_is_recorded_with_its_lowest_beating_reading():
    """七①: 后一家打出的牌必须比前一家打出的牌大; 二: 红心x可作为万能牌配用。"""
    h = Hand.start(GD, "9", "S").play("S", C("S3 D4 C5 H6 S7"))
    h = h.play("E", C("H9 D5 D6 D7 C8"))  # 45678 or 56789: the lowest that beats 34567
    assert h.table.reading == Reading("straight", 8, 5)
    with said.raises(HandError, r"N: S8 S7 S6 S4 C5 \(straight to 8\) does not beat H9 D7 D6 D5 C8 \(straight to 8\) played by E"):
        h.play("N", C("S4 C5 S6 S7 S8"))


def test_same_rank_does_not_beat():
    """七①: 后一家打出的牌必须比前一家打出的牌大 -- an equal single is not larger."""
    h = Hand.start(GD, "5", "W").play("W", C("H9"))
    with said.raises(HandError, r"S: S9 \(single 9\) does not beat H9 \(single 9\) played by W"):
        h.play("S", C("S9"))
    assert h.play("S", C("S5")).table.reading == Reading("single", 13, 1)  # the level card, above A


def test_a_same_suit_straight_follows_as_a_straight_flush_when_it_must():
    """六: 同花顺(火箭) ... “火箭”可压5张(含5张)以下的炸弹 -- and any plain play."""
    h = Hand.start(GD, "2", "S").play("S", C("S5 D6 C7 H8 S9"))
    h = h.play("E", C("D3 D4 D5 D6 D7"))
    assert h.table.reading == Reading("straight_flush", 7, 5)


def test_bombs():
    """六: 炸弹：如果牌张数相同，则按牌点数确定大小，否则牌张数越多越大; 六张以上的炸弹可以压火箭; 四大天王：压所有的牌。"""
    h = Hand.start(GD, "2", "S").play("S", C("SK SK"))
    h = h.play("E", C("S4 H4 D4 C4"))
    with pytest.raises(HandError):
        h.play("N", C("S3 H3 D3 C3"))
    h = h.play("N", C("S3 H3 D3 C3 S3"))
    h = h.play("W", C("C8 C9 CT CJ CQ"))
    assert h.table.reading.type == "straight_flush"
    h = h.play("S", C("S6 H6 D6 C6 S6 H6"))
    h = h.play("E", C("LJ LJ BJ BJ"))
    assert h.table.reading.type == "joker_bomb"
    with pytest.raises(HandError):
        h.play("N", C("S7 H7 D7 C7 S7 H7 D7 C7"))


def test_more_copies_than_two_decks_hold_is_an_error():
    """一: 比赛使用两副扑克牌 -- a third SA cannot be played."""
    h = Hand.start(GD, "2", "S").play("S", C("SA")).play("E", C("BJ")).pass_("N").pass_("W").pass_("S")
    h = h.play("E", C("SA"))
    h = h.pass_("N").pass_("W").pass_("S")
    with said.raises(HandError, "SA appears 3 times"):
        h.play("E", C("SA"))


def test_when_all_others_pass_the_last_player_leads():
    """七②: 如果其他选手都弃权，则最后出牌的一方可以出新的牌型。"""
    h = Hand.start(GD, "2", "S").play("S", C("S3")).play("E", C("S9")).pass_("N").pass_("W")
    assert h.table is not None and h.turn == "S"
    h = h.pass_("S")
    assert h.table is None and h.turn == "E"
    h = h.play("E", C("D4 D4"))  # a new type
    assert h.table.lead and h.table.reading.type == "pair"


def test_partner_takes_the_lead_after_the_first_plays_out():
    """三: 如上游出完最后一手牌后，无人压牌，则由对门借风出牌。"""
    h = feed(Hand.start(GD, "2", "S"), S_OUT)
    assert h.finish == ("S",) and h.count("S") == 0 and h.turn == "E"
    h = h.pass_("E").pass_("N")
    assert h.turn == "W"
    h = h.pass_("W")
    assert h.table is None and h.turn == "N"
    with said.raises(HandError, "S has played out"):
        h.play("S", C("S7"))


def test_if_someone_beats_the_last_play_there_is_no_take_the_lead():
    """三: 如上游出完最后一手牌后，无人压牌，则由对门借风出牌 -- W beats it, so W leads."""
    h = feed(Hand.start(GD, "2", "S"), S_OUT).pass_("E").pass_("N").play("W", C("SA HA DA"))
    h = h.pass_("E").pass_("N")
    assert h.table is None and h.turn == "W"


def test_partners_first_and_second_end_the_hand_early():
    """七②: 直到三个选手手中的牌出完，如果对家两人争得上游或二游则提前结束; 三: 上游的对门为二游，则上游方升3级。"""
    n_out = [*passes("E", "N", "W"), ("N", eight("7")), *passes("W", "E"), ("N", eight("8")), *passes("W", "E"),
             ("N", eight("9")), *passes("W", "E"), ("N", C("ST DT CT"))]  # fmt: skip
    h = feed(Hand.start(GD, "2", "S"), S_OUT + n_out)
    assert h.over and h.finish == ("S", "N") and h.turn is None
    r = h.result()
    assert (r.first, r.partner_place, r.team) == ("S", 2, "SN") and levels_won(GD, r.partner_place) == 3
    assert (h.count("E"), h.count("W")) == (27, 27)
    with said.raises(HandError, "over"):
        h.play("E", C("S3"))


def test_three_out_ends_the_hand_and_the_fourth_is_last():
    """七②: 直到三个选手手中的牌出完; 三: 如为三游，则升2级。 E plays out second, so its partner W
    takes the lead (三: 对门借风), and N finishes third."""
    rest = [*passes("E", "N", "W"), ("N", C("S7")), ("W", None), ("E", eight("J")), *passes("N", "W"),
            ("E", eight("Q")), *passes("N", "W"), ("E", eight("K")), *passes("N", "W"), ("E", C("SA DA CA"))]  # fmt: skip
    h = feed(Hand.start(GD, "2", "S"), S_OUT + rest)
    assert h.finish == ("S", "E") and not h.over
    h = h.pass_("N").pass_("W")
    assert h.turn == "W"  # E's partner
    h = h.play("W", C("C2"))
    assert h.turn == "N"  # S and E are skipped
    h = feed(h, [("N", C("H7 D7 C7 S7 H7 D7 C7")), ("W", None), ("N", eight("8")), ("W", None),
                 ("N", eight("9")), ("W", None), ("N", C("ST DT CT"))])  # fmt: skip
    assert h.over and h.finish == ("S", "E", "N", "W")
    assert h.result().partner_place == 3 and levels_won(GD, 3) == 2


def test_result_before_the_end_is_an_error():
    """三: 比赛中第一个把手中牌出完的一方为上游 -- nobody has played out yet."""
    with said.raises(HandError, "not over"):
        Hand.start(GD, "2", "S").result()


def test_card_counts_and_no_more_cards_than_held():
    """一: 每人27张牌 -- the referee counts every seat's cards."""
    h = feed(Hand.start(GD, "2", "S"), S_OUT[:8])  # two bombs of eight
    assert [h.count(s) for s in "SENW"] == [11, 27, 27, 27]
    h = feed(h, S_OUT[8:12])
    assert h.count("S") == 3
    with said.raises(HandError, "S holds 3 cards and cannot play 4"):
        h.play("S", C("S7 H7 D7 C7"))


def test_the_count_is_shown_at_ten_cards_or_fewer_and_when_is_recorded():
    """九 3: 手中牌10张以下(包括10张牌)，第一次必须主动报数，之后且随问随报。"""
    h = Hand.start(GD, "2", "S").play("S", eight("3"), at=10.0).pass_("E").pass_("N").pass_("W")
    h = h.play("S", eight("4"), at=20.0).pass_("E").pass_("N").pass_("W")
    assert h.announced == () and h.shown_counts() == {}  # 11 cards
    h = h.play("S", C("S5"), at=31.5)
    (a,) = h.announced
    assert (a.seat, a.cards, a.turn, a.at) == ("S", 10, 9, 31.5)
    assert h.shown_counts() == {"S": 10}
    h = h.pass_("E").pass_("N").pass_("W").play("S", C("D5 D5"), at=40.0)
    assert len(h.announced) == 1 and h.shown_counts() == {"S": 8}  # shown once, then always on the table


def test_a_wildcard_never_stands_for_a_joker():
    """二: 红心x可作为万能牌配用（俗称“逢人配”，不可配大小王）."""
    hand = Hand.start(load("sanjiang-2012"), "5", "S")
    with said.raises(HandError, "cannot stand for a joker"):
        hand.play("S", Cards.parse("H5 BJ"))


def test_a_seat_sitting_out_passes_or_hands_on_the_lead():
    """十一 2, 3 (停止一轮出牌，由下家出牌): at once when on turn; a lead goes to the next seat holding cards."""
    h = Hand.start(GD, "2", leader="S").sit_out("S")  # S would lead: E leads instead
    assert h.turn == "E" and h.table is None and str(h.turns[-1]) == "S sits out"
    h = h.play("E", C("S4")).sit_out("N")  # N on turn follows: a pass at once
    assert h.turn == "W" and h.passes == 1 and h.turns[-1].sat_out
    h = feed(h, passes("W", "S"))
    assert h.turn == "E" and h.table is None  # three passes after E's play: E leads again
    assert h.sit_out("E").sit_out("N").turn == "W"  # two seats in a row sit out a lead
    finished = feed(Hand.start(GD, "2", leader="S"), S_OUT)
    assert "S" in finished.finish and finished.sit_out("S") == finished  # played out: nothing to sit out
    with said.raises(HandError, "unknown seat"):
        h.sit_out("X")


def test_a_play_of_more_cards_than_a_seat_holds_is_refused_without_telling_a_secret_count():
    """九 3: 当手中牌张剩余10张或以下时，必须报牌 -- above 10 a seat's count is not told, so the refusal of a play of more
    cards than it holds (a misread, on the public timeline) does not tell it; at 10 or fewer it does."""
    h = Hand.start(GD, "2", "S")
    with said.raises(HandError, r"^S holds fewer than 32 cards and cannot play them \("):
        h.play("S", eight("3") + eight("4") + eight("5") + eight("6"))
    h = feed(h, S_OUT[:-1])
    assert h.count("S") == 3
    with said.raises(HandError, r"^S holds 3 cards and cannot play 5 \("):
        h.play("S", C("S7 S8 S9 ST SJ"))
