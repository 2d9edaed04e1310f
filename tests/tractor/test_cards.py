"""Card notation: parsing, canonical output and the errors for malformed cards.

Notation: shared/conformance/README.md (suits S H D C, ranks 2..9 T J Q K A, BJ/LJ;
parsers also accept 10, the suit symbols and 大王/小王; output is always canonical).
"""

import pytest

from referee.cards import Card, CardError, Cards, Decks
from referee.judge import answer


def C(s):
    return Cards.parse(s)


def follow_case(hand, lead, play, rulebook="zhongkai-2010", level="7", trump="H"):
    return {
        "id": "x", "game": "tractor", "op": "follow", "rulebook": rulebook,
        "level": level, "trump": trump, "hand": hand, "lead": lead, "play": play,
    }


def test_ten_is_read_as_T_and_printed_as_T():
    # README: Parsers should also accept `10` for `T` ... output is always canonical
    assert Card.parse("S10") is Card.parse("ST")
    assert str(Card.parse("H10")) == "HT"
    assert C("D10 C10").names() == ["DT", "CT"]


def test_suit_symbols_are_read():
    # README: Parsers should also accept ... the suit symbols (♠ ♥ ♦ ♣ = S H D C)
    assert C("♠A ♥10 ♦2 ♣K").names() == ["SA", "HT", "D2", "CK"]


def test_chinese_joker_names_are_read():
    # 000 第四条: 大王、小王称为大牌 -- README: 大王 = BJ, 小王 = LJ
    assert C(["大王", "小王"]).names() == ["BJ", "LJ"]
    assert Card.parse("大王").is_joker and Card.parse("小王").is_joker


def test_output_is_canonical_and_sorted():
    # README: output is always canonical (jokers first, then S H D C from A down)
    cards = C(["c2", "小王", "♠A", "H10", "BJ", "sa", "HK"])
    assert cards.names() == ["BJ", "LJ", "SA", "SA", "HK", "HT", "C2"]
    assert str(cards) == "BJ LJ SA SA HK HT C2"


def test_identical_cards_from_several_decks_are_kept():
    # README: Identical cards from several decks are written again: ["SA","SA","SA"] is a triple
    cards = C("SA SA SA")
    assert len(cards) == 3 and cards.count(Card.parse("SA")) == 3


def test_point_cards():
    # 000 第七条: 牌色5、10及K为分数牌，分别计算为5分、10分和10分
    assert C("S5 HT DK SA BJ C9").points == 25


def test_unknown_card_raises_naming_the_card():
    # README: An input that is malformed (unknown card ...) is answered with a clear message
    for bad in ("SX", "Z9", "H"):
        with pytest.raises(CardError) as err:
            Card.parse(bad)
        assert repr(bad) in str(err.value)


def test_unknown_card_in_a_list_names_that_card():
    # README: an unknown card is malformed; the message names it
    with pytest.raises(CardError, match="SX"):
        C("SA SX HT")


def test_too_many_copies_names_the_card():
    # 000 第四条: 每桌每局竞赛均采用相同颜色的3副扑克 -- a 4th SA cannot exist
    Decks(3).check(C("SA SA SA BJ BJ BJ"))
    with pytest.raises(CardError, match="SA"):
        Decks(3).check(C("SA SA SA SA HK"))


def test_four_decks_hold_four_copies_not_five():
    # 003 牌型: 炸弹：四个同花色同数字的牌 -- shaoguan plays with four decks
    Decks(4).check(C("H8 H8 H8 H8"))
    with pytest.raises(CardError, match="H8"):
        Decks(4).check(C("H8 H8 H8 H8 H8"))


def test_judge_answers_unknown_card_with_error_naming_it():
    # README: an unknown card is answered with {"id": ..., "error": "<clear message>"}, never a crash
    out = answer(follow_case(["S5", "SX"], ["S9"], ["S5"]))
    assert "result" not in out and "SX" in out["error"]


def test_judge_answers_too_many_copies_with_error_naming_it():
    # README: a card used more often than the decks hold is malformed (3 decks: at most 3 SA)
    out = answer(follow_case(["SA", "SA", "S3"], ["SA", "SA"], ["SA", "SA"]))
    assert "result" not in out and "SA" in out["error"]


def test_judge_accepts_four_copies_in_a_four_deck_book():
    # 003 2: 炸弹：四个同花色同数字的牌 -- four decks; 003 6(3): pair follows pair
    out = answer(follow_case(["S8", "S8", "S3"], ["S8", "S8"], ["S8", "S8"], rulebook="shaoguan-2023", level="J"))
    assert out.get("result") == "legal"
