"""Which play beats which (``beats``, ``lowest_beating``) in Guandan (seed 002 六) and San Da Yi (seed 004 牌型大小).

``wins(rules, play, prev)`` asks, as the judge's ``beats`` op does, whether some reading of
``play`` beats the play on the table; the table's play is read as its lowest reading, or as
its reading of type ``prev_as`` where a test says (a straight flush laid as a bomb).
Guandan plays use level 9 unless said (``H9`` is the wildcard).
"""

import pytest

from referee.cards import Cards
from referee.climbing.combos import Reading, beats, lowest_beating, readings
from referee.judge import answer
from referee.rulebooks import load

GD = load("sanjiang-2012")
SD = load("usst-2016")


def C(s):
    return Cards.parse(s)


def table(rules, prev, level=None, prev_as=None):
    found = readings(rules, C(prev), level)
    if prev_as:
        found = tuple(r for r in found if r.type == prev_as)
    assert found, f"{prev} is no play"
    return found[-1] if prev_as else found[0]


def wins(rules, play, prev, level=None, prev_as=None):
    on_table = table(rules, prev, level, prev_as)
    return any(beats(rules, r, on_table) for r in readings(rules, C(play), level))


def gw(play, prev, level="9", prev_as=None):
    return wins(GD, play, prev, level, prev_as)


def sw(play, prev):
    return wins(SD, play, prev)


# ==== Guandan (seed 002, 六 牌的大小) ==========================================================


def test_gd_level_single_beats_ace():
    # 六: 大王、小王、参谋、A、K ... -- at level 9, S9 is the 参谋
    assert gw("S9", "SA")
    assert not gw("SA", "S9")


def test_gd_wildcard_single_is_the_level_card():
    # 二: x是本局的参谋 -- H9 alone is a level card: above A, level with S9
    assert gw("H9", "SA")
    assert not gw("S9", "H9")
    assert not gw("H9", "S9")


def test_gd_jokers_top_the_singles():
    # 六: 大王、小王、参谋
    assert gw("LJ", "S9")
    assert gw("BJ", "LJ")
    assert not gw("LJ", "BJ")


def test_gd_plain_nine_is_no_level_card_at_another_level():
    # 二: 级数为x时，x是本局的参谋 -- at level 5 the nine is a nine
    assert not gw("S9", "ST", level="5")
    assert gw("S5", "SA", level="5")


def test_gd_same_rank_single_does_not_beat():
    # 七: 后一家打出的牌必须比前一家打出的牌大
    assert not gw("SK", "DK")


def test_gd_pairs_by_rank():
    # 六: 单张、对子 ... 直接根据牌点确定大小
    assert gw("S9 D9", "SA DA")
    assert gw("H9 H9", "SA DA")  # a pair of wildcards is a pair of level cards
    assert gw("H9 SK", "SQ DQ")  # the wildcard as a king
    assert gw("LJ LJ", "S9 D9")
    assert gw("BJ BJ", "LJ LJ")


def test_gd_triples_by_rank():
    assert gw("S9 D9 C9", "SA DA CA")
    assert not gw("S4 D4 C4", "S5 D5 C5")


def test_gd_full_house_compares_the_triple_only():
    # 六: 三带二：仅比较三同张的大小，不比较所带对子大小
    assert gw("S7 C7 D7 S3 C3", "S6 C6 D6 SA CA")
    assert not gw("S6 C6 D6 SA CA", "S6 H6 D6 S3 C3")
    assert not gw("S6 H6 D6 S3 C3", "S6 C6 D6 SA CA")
    assert gw("S9 D9 C9 S2 D2", "SA DA CA SK DK")  # the level triple is above A


def test_gd_straights_by_top_card():
    # 六: 顺子 ... 直接根据牌点确定大小; 五: A、2、3、4、5 ... 10、J、Q、K、A
    assert gw("S4 D5 C6 H7 S8", "S3 D4 C5 H6 S7")
    assert gw("S2 D3 C4 H5 S6", "SA D2 C3 H4 S5")  # A2345 is the lowest
    assert not gw("SA D2 C3 H4 S5", "S2 D3 C4 H5 S6")
    assert gw("ST DJ CQ HK SA", "S9 DT CJ HQ SK")  # 10JQKA is the highest


def test_gd_level_card_does_not_raise_a_straight():
    # 五/六: in a straight the level nine counts as a nine
    assert gw("S6 D7 C8 D9 ST", "S5 D6 C7 S8 D9")
    assert not gw("S5 D6 C7 S8 D9", "S6 D7 C8 S9 DT")


def test_gd_wildcard_straight_beats_by_its_higher_reading():
    # 二: x4567，相当于34567（或45678须出牌时说明）
    assert gw("H9 S4 D5 C6 S7", "S3 D4 C5 H6 D7")
    assert lowest_beating(GD, C("H9 S4 D5 C6 S7"), table(GD, "S3 D4 C5 H6 D7", "9"), "9") == Reading("straight", 8, 5)
    assert not gw("H9 S4 D5 C6 S7", "S4 D5 C6 H7 D8")


def test_gd_pair_and_triple_straights_by_top():
    # 六: 木板、钢板 ... 直接根据牌点确定大小
    assert gw("S2 D2 S3 D3 S4 D4", "SA DA S2 D2 S3 D3")
    assert gw("SQ DQ SK DK SA DA", "SJ DJ SQ DQ SK DK")
    assert gw("S2 D2 C2 S3 D3 C3", "SA DA CA S2 D2 C2")
    assert not gw("SA DA CA S2 D2 C2", "S3 D3 C3 S4 D4 C4")


def test_gd_types_never_cross():
    # 七: 后一家打出的牌必须比前一家打出的牌大 -- of the same type and size
    assert not gw("SA DA", "S3")
    assert not gw("SA DA CA", "S3 D3")
    assert not gw("SA DA CA S2 D2 C2", "S3 D3 S4 D4 S5 D5")  # same size, other type
    assert not gw("S3 D3 S4 D4 S5 D5", "SA DA CA S2 D2 C2")
    assert not gw("S9 DT CJ HQ SK", "S3 D3 C3 S4 D4")


@pytest.mark.parametrize(
    "prev",
    [
        "BJ",
        "BJ BJ",
        "SA DA CA",
        "SA DA CA BJ BJ",
        "ST DJ CQ HK SA",
        "SQ DQ SK DK SA DA",
        "SK DK CK SA DA CA",
    ],
)
def test_gd_bomb_beats_every_plain_play(prev):
    # 六: 炸弹可炸单张、对、三同张、三带二、木板、钢板、非同花顺等牌型
    assert gw("S2 D2 C2 H2", prev)
    assert not gw(prev, "S2 D2 C2 H2")


def test_gd_bombs_more_cards_then_rank():
    # 六: 炸弹：如果牌张数相同，则按牌点数确定大小，否则牌张数越多越大
    assert gw("S3 C3 D3 H3 S3", "SA CA DA HA")
    assert not gw("SA CA DA HA", "S3 C3 D3 H3 S3")
    assert gw("SA CA DA HA", "SK CK DK HK")
    assert not gw("SK CK DK HK", "SA CA DA HA")
    assert gw("S9 C9 D9 S9", "SA CA DA HA")  # the level bomb is above the aces
    assert gw("H9 H9 S5 D5 C5 H5", "SA CA DA HA SA")  # two wildcards make six fives


def test_gd_straight_flush_beats_bombs_of_five_or_fewer():
    # 六: 火箭可压5张(含5张)以下的炸弹
    assert gw("S3 S4 S5 S6 S7", "SK CK HK DK")
    assert gw("S3 S4 S5 S6 S7", "SA CA HA DA SA")
    assert gw("H9 S4 S5 S6 S7", "SA CA HA DA SA")  # a wildcard of another suit in it
    assert lowest_beating(GD, C("S3 S4 S5 S6 S7"), table(GD, "SK CK HK DK", "9"), "9") == Reading(
        "straight_flush", 7, 5
    )


def test_gd_six_card_bomb_beats_straight_flush():
    # 六: 六张以上的炸弹可以压火箭
    assert gw("S3 C3 D3 H3 S3 C3", "ST SJ SQ SK SA", prev_as="straight_flush")
    assert not gw("ST SJ SQ SK SA", "S3 C3 D3 H3 S3 C3")
    assert not gw("SA CA DA HA SA", "S3 S4 S5 S6 S7", prev_as="straight_flush")


def test_gd_bigger_straight_flush_beats_smaller():
    # 六: 大“火箭”压小“火箭”
    assert gw("D4 D5 D6 D7 D8", "S3 S4 S5 S6 S7", prev_as="straight_flush")
    assert not gw("S3 S4 S5 S6 S7", "D4 D5 D6 D7 D8", prev_as="straight_flush")
    assert gw("CT CJ CQ CK CA", "C9 CT CJ CQ CK", prev_as="straight_flush")
    assert gw("C2 C3 C4 C5 C6", "SA S2 S3 S4 S5", prev_as="straight_flush")


def test_gd_straight_flush_beats_any_plain_straight():
    # 六: 炸弹可炸 ... 非同花顺 -- a straight flush is above every plain straight
    assert gw("S3 S4 S5 S6 S7", "ST DJ CQ HK SA")


def test_gd_joker_bomb_beats_everything():
    # 六: 四大天王：压所有的牌
    assert gw("LJ LJ BJ BJ", "ST ST DT DT CT CT HT HT H5 H5", level="5")
    assert gw("LJ LJ BJ BJ", "ST SJ SQ SK SA", prev_as="straight_flush")
    assert gw("LJ LJ BJ BJ", "BJ BJ")
    assert not gw("ST ST DT DT CT CT HT HT H5 H5", "LJ LJ BJ BJ", level="5")
    assert not gw("ST SJ SQ SK SA", "LJ LJ BJ BJ")
    assert not beats(GD, Reading("joker_bomb", 15, 4), Reading("joker_bomb", 15, 4))


def test_gd_ten_card_bomb_is_the_biggest_bomb():
    # 五/六: 四张或四张以上 ... 牌张数越多越大 -- eight naturals and two wildcards
    ten = "S5 S5 D5 D5 C5 C5 H5 H5 H9 H9"
    assert gw(ten, "SA SA DA DA CA CA HA HA")
    assert not gw("SA SA DA DA CA CA HA HA", ten)
    assert gw(ten, "LJ LJ BJ BJ") is False
    assert gw("S6 S6 D6 D6 C6 C6 H6 H6 H9", "SA SA DA DA CA CA HA HA")  # nine cards beat eight


# ==== San Da Yi (seed 004, 牌型大小) ===========================================================


def test_sd_singles_by_rank():
    # 牌型大小: 大王>小王>2>A>K>...>3
    assert sw("S2", "SA")
    assert sw("LJ", "S2")
    assert sw("BJ", "LJ")
    assert not sw("SA", "S2")
    assert not sw("S7", "H7")  # 所有的牌型的大小与花色没有关系


def test_sd_pairs_by_rank():
    # 牌型大小: 对子的大小比较，由牌点大小决定
    assert sw("S2 H2", "SA HA")
    assert sw("LJ LJ", "S2 H2")
    assert sw("BJ BJ", "LJ LJ")
    assert not sw("S3 H3", "S2 H2")


def test_sd_triple_and_full_house_by_the_triple():
    # 牌型大小: 三带一对的大小比较，由三张的最大牌点数大小决定
    assert sw("S2 H2 D2", "SA HA DA")
    assert sw("S8 H8 D8 S3 H3", "S7 H7 D7 SA HA")
    assert not sw("S7 H7 D7 SA HA", "S8 H8 D8 S3 H3")
    assert sw("S2 H2 D2 S3 H3", "SA HA DA BJ BJ")


def test_sd_full_house_of_equal_triples_by_the_pair():
    # 牌型大小: 三带一对的大小比较，由三张的最大牌点数大小决定，附带的对子会影响大小 -- two decks hold six of a rank:
    # equal triples, the pair decides (the seed's 飞机带翅膀 line says the opposite for airplanes: 附带的对子不影响大小)
    assert sw("S3 H3 D3 S5 H5", "C3 S3 H3 S4 H4")
    assert not sw("C3 S3 H3 S4 H4", "S3 H3 D3 S5 H5")
    assert not sw("C3 S3 H3 S4 H4", "S3 H3 D3 D4 C4")  # the same full house does not beat itself
    assert sw("S3 H3 D3 BJ BJ", "C3 S3 H3 S2 H2")  # a pair of big jokers is the highest pair
    assert sw("S3 H3 D3 S2 H2", "C3 S3 H3 SA HA")  # 2 above A (牌点由大到小: 大王>小王>2>A)
    assert sw("S4 H4 D4 S3 H3", "C3 S3 H3 SA HA")  # the triple first


def test_sd_airplane_wings_do_not_count():
    # 牌型大小: 飞机带翅膀的大小比较，由三顺中最大牌点数大小决定，附带的对子不影响大小
    assert not sw("S3 H3 D3 S4 H4 D4 S7 H7 S8 H8", "C3 S3 H3 C4 S4 H4 S5 H5 S6 H6")
    assert sw("S4 H4 D4 S5 H5 D5 S7 H7 S8 H8", "C3 S3 H3 C4 S4 H4 SK HK SA HA")


def test_sd_straights_by_top_card():
    # 牌型说明 7 and 牌型大小: 由顺子中最大的牌点数大小决定(2在顺子中的牌点比3小)
    assert sw("S2 D3 C4 H5 S6", "SA D2 C3 H4 S5")  # A2345 is the lowest
    assert sw("S3 D4 C5 H6 S7", "S2 D3 C4 H5 S6")
    assert sw("ST DJ CQ HK SA", "S9 DT CJ HQ SK")
    assert not sw("SA D2 C3 H4 S5", "S3 D4 C5 H6 S7")


def test_sd_straights_compare_only_at_the_same_length():
    # 牌型大小: 非炸弹牌型，张数相同才能比较大小; 单顺和双顺的大小比较，需要张数相同
    assert not sw("S4 D5 C6 H7 S8 S9", "S3 D4 C5 H6 S7")
    assert not sw("S3 D4 C5 H6 S7", "S3 D4 C5 H6 S7 S8")
    fourteen = "SA D2 C3 H4 S5 S6 S7 S8 S9 ST SJ SQ SK HA"
    assert not sw(fourteen, "S2 D3 C4 H5 S6 S7 S8 S9 ST SJ SQ SK SA")
    assert sw("S2 D3 C4 H5 S6 S7 S8 S9 ST SJ SQ SK DA", "S2 D3 C4 H5 S6 S7 S8 S9 ST SJ SQ SK") is False


def test_sd_pair_straights_by_top_and_length():
    # 牌型大小: 单顺和双顺的大小比较，需要张数相同，由顺子中最大的牌点数大小决定
    assert sw("S4 H4 S5 H5 S6 H6", "S3 H3 S4 H4 S5 H5")
    assert sw("S2 H2 S3 H3 S4 H4", "SA HA S2 H2 S3 H3")
    assert not sw("S4 H4 S5 H5 S6 H6 S7 H7", "S3 H3 S4 H4 S5 H5")


def test_sd_triple_straights_by_top_and_length():
    # 牌型说明 9; 牌型大小: 非炸弹牌型，张数相同才能比较大小
    assert sw("S4 H4 D4 S5 H5 D5", "S3 H3 D3 S4 H4 D4")
    assert not sw("S3 H3 D3 S4 H4 D4 S5 H5 D5", "S3 H3 D3 S4 H4 D4")


def test_sd_airplane_by_its_triples_only():
    # 牌型大小: 飞机带翅膀的大小比较，由三顺中最大牌点数大小决定，附带的对子不影响大小
    assert sw("S4 H4 D4 S5 H5 D5 S6 H6 S7 H7", "S3 H3 D3 S4 H4 D4 SQ HQ SK HK")
    assert not sw("S3 H3 D3 S4 H4 D4 SQ HQ SK HK", "S3 H3 D3 S4 H4 D4 S5 H5 S6 H6")
    assert not sw("S3 H3 D3 S4 H4 D4 S5 H5 S6 H6", "S3 H3 D3 S4 H4 D4 SQ HQ SK HK")


def test_sd_types_never_cross():
    # 牌型大小: 非炸弹牌型，张数相同才能比较大小
    assert not sw("BJ BJ", "S3")
    assert not sw("S2 H2 D2", "S3 H3")
    assert not sw("S3 H3 D3 S4 H4 D4", "S3 H3 S4 H4 S5 H5")  # 6 cards, other type


def test_sd_bombs_by_count_then_rank():
    # 牌型大小: 炸弹根据张数决定大小，依次是：八张炸弹>七张炸弹>六张炸弹>五张炸弹>四张炸弹
    assert sw("S3 H3 D3 C3 S3", "S2 H2 D2 C2")
    assert not sw("S2 H2 D2 C2", "S3 H3 D3 C3 S3")
    assert sw("S2 H2 D2 C2", "SA HA DA CA")  # same count: the higher rank
    assert sw("S4 S4 H4 H4 D4 D4 C4 C4", "S2 S2 H2 H2 D2 D2 C2")


@pytest.mark.parametrize(
    "prev",
    [
        "BJ BJ",
        "S2 H2 D2 BJ BJ",
        "SA D2 C3 H4 S5 S6 S7 S8 S9 ST SJ SQ SK HA",
        "S3 H3 D3 S4 H4 D4 S5 H5 S6 H6",
    ],
)
def test_sd_bomb_beats_every_plain_play(prev):
    # 牌型说明 2: 炸弹 -- above every play that is no bomb
    assert sw("S3 H3 D3 C3", prev)
    assert not sw(prev, "S3 H3 D3 C3")


def test_sd_joker_bomb_beats_everything():
    # 牌型大小: 天王炸弹大于所有其他的牌型
    assert sw("LJ LJ BJ BJ", "S2 S2 H2 H2 D2 D2 C2 C2")
    assert not sw("S2 S2 H2 H2 D2 D2 C2 C2", "LJ LJ BJ BJ")
    assert not sw("LJ LJ BJ BJ", "LJ LJ BJ BJ")


# ==== through the judge =====================================================================


def judge_beats(game, prev, play, **extra):
    book = {"guandan": "sanjiang-2012", "sandayi": "usst-2016"}[game]
    case = {"id": "b", "game": game, "rulebook": book, "op": "beats", "prev": prev, "play": play, **extra}
    return answer(case)


def test_judge_beats():
    assert judge_beats("guandan", ["SA"], ["S9"], level="9") == {"id": "b", "result": True}
    assert judge_beats("guandan", ["SA"], ["S9"], level="5") == {"id": "b", "result": False}
    assert judge_beats("sandayi", ["SA"], ["S2"])["result"] is True


@pytest.mark.parametrize(
    "play",
    [["D4", "C5", "H6", "S7", "S8"], ["SA", "HA", "CA", "DA", "SA"], ["CA", "C2", "C3", "C4", "C5"], ["H3", "H4", "H5", "H6", "H7"]],
    ids=["plain straight", "bomb of five aces", "smaller flush of another suit", "flush of the same ranks"],
)
def test_judge_a_natural_flush_on_the_table_is_read_only_as_a_flush(play):
    # 002 五: 顺子…如果花色相同称为同花顺，又称“火箭”; 六: “火箭”可压5张(含5张)以下的炸弹，大“火箭”压小“火箭”.
    # S3..S7 on the table is a 火箭: a plain straight, a bomb of five, a smaller or an equal 火箭 do not beat it
    assert judge_beats("guandan", ["S3", "S4", "S5", "S6", "S7"], play, level="9") == {"id": "b", "result": False}


def test_judge_a_flush_with_a_wildcard_keeps_its_lowest_reading():
    # 二: x4567，相当于34567（或45678须出牌时说明） -- a wildcard play on the table, undeclared, is its lowest
    # reading (here the plain straight to 7); only natural cards read one way
    prev = ["H9", "S4", "S5", "S6", "S7"]
    assert judge_beats("guandan", prev, ["D4", "C5", "H6", "S7", "S8"], level="9")["result"] is True
    assert judge_beats("guandan", prev, ["D4", "D5", "D6", "D7", "D8"], level="9")["result"] is True


def test_judge_sd_straights_of_the_same_ranks_are_equal():
    # 004 牌型大小: 单顺和双顺的大小比较，需要张数相同，由顺子中最大的牌点数大小决定 -- A..K in spades and A..K in
    # hearts are the same 13 ranks: neither beats the other (A sits high in both, as 14顺 A..A shows it may)
    spades = ["SA", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "ST", "SJ", "SQ", "SK"]
    hearts = ["H" + c[1] for c in spades]
    assert judge_beats("sandayi", spades, hearts) == {"id": "b", "result": False}
    assert judge_beats("sandayi", hearts, spades) == {"id": "b", "result": False}
    pairs = [c for c in spades for _ in (0, 1)]
    assert judge_beats("sandayi", pairs, [c for c in hearts for _ in (0, 1)])["result"] is False
    fourteen = spades + ["HA"]
    assert judge_beats("sandayi", fourteen, ["DA", *hearts[1:], "CA"])["result"] is False


@pytest.mark.parametrize(
    "game,prev,play,extra",
    [
        ("guandan", ["SA"], ["SX"], {"level": "9"}),  # unknown card
        ("guandan", ["SA", "SA"], ["SA"], {"level": "9"}),  # 一: 两副扑克牌 -- three SA on the table
        ("sandayi", ["S3", "S3"], ["S3", "S3", "S3", "S3"], {}),
        ("guandan", [], ["SA"], {"level": "9"}),  # no cards
        ("sandayi", ["SA"], [], {}),
        ("guandan", ["SA"], ["S2"], {}),  # Guandan needs the level
        ("guandan", ["S3", "S4"], ["SA"], {"level": "9"}),  # the table's cards are no play
    ],
)
def test_judge_malformed_beats_is_an_error(game, prev, play, extra):
    out = judge_beats(game, prev, play, **extra)
    assert "error" in out and "result" not in out, out
    assert not out["error"].startswith("internal error"), out
