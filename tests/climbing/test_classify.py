"""Classifying plays (``readings``, ``types``, ``power_of``) in Guandan (seed 002) and San Da Yi (seed 004).

Each test quotes the seed article it checks. Guandan plays use level 9 unless said (the
heart nine ``H9`` is then the wildcard 逢人配, ``S9`` ``D9`` ``C9`` plain level cards).
"""

import pytest

from referee.cards import Card, Cards
from referee.climbing.combos import Reading, power_of, readings, types
from referee.judge import answer
from referee.rulebooks import load

GD = load("sanjiang-2012")
SD = load("usst-2016")


def C(s):
    return Cards.parse(s)


def gt(cards, level="9"):
    return types(GD, C(cards), level)


def gr(cards, level="9"):
    return readings(GD, C(cards), level)


def st(cards):
    return types(SD, C(cards))


def sr(cards):
    return readings(SD, C(cards))


def gp(card, level="9"):
    return power_of(GD, Card.parse(card), level)


def sp(card):
    return power_of(SD, Card.parse(card))


# ==== Guandan (seed 002) =====================================================================

# ---- 二 记级: the level card and the wildcard ------------------------------------------------


def test_gd_level_card_ranks_above_ace_below_jokers():
    # 二: 级数为x时，x是本局的参谋，小于大小王; 六: 大王、小王、参谋、A、K、…、2
    assert gp("S2") < gp("S8") < gp("ST") < gp("SK") < gp("SA") < gp("S9") < gp("LJ") < gp("BJ")
    assert gp("D9") == gp("S9") == gp("H9")  # the wildcard alone is the level card itself


def test_gd_level_two_is_above_ace():
    # 二: 级数为x时，x是本局的参谋 -- also when x is 2, the lowest rank otherwise
    assert gp("SA", "2") < gp("S2", "2") < gp("LJ", "2")
    assert gp("S3", "2") < gp("SA", "2")


def test_gd_wildcard_makes_a_bomb_x555():
    # 二: 红心x可作为万能牌配用 ... 如x555，相当于5555
    assert gr("H9 S5 D5 C5") == (Reading("bomb", gp("S5"), 4),)


def test_gd_wildcard_x4567_reads_as_34567_or_45678():
    # 二: x4567，相当于34567（或45678须出牌时说明）
    assert gr("H9 S4 D5 C6 S7") == (Reading("straight", 7, 5), Reading("straight", 8, 5))


def test_gd_wildcard_alone_is_the_level_card():
    # 二: x是本局的参谋; 逢人配 played alone stands for nothing else
    assert gr("H9") == (Reading("single", gp("S9"), 1),)


def test_gd_pair_of_wildcards_is_a_pair_of_level_cards():
    # 二: 级数为x时，x是本局的参谋; 红心x (逢人配) -- two of them alone are a pair of x
    assert gr("H9 H9") == (Reading("pair", gp("S9"), 2),)
    assert gr("H9 H9") == gr("S9 D9")


def test_gd_wildcard_pairs_with_any_card():
    # 二: 可以配成任意牌型和花色
    assert gr("H9 SA") == (Reading("pair", gp("SA"), 2),)
    assert gr("H9 D3 C3") == (Reading("triple", gp("S3"), 3),)


@pytest.mark.parametrize("cards", ["H9 LJ", "H9 BJ", "H9 H9 LJ"])
def test_gd_wildcard_never_stands_for_a_joker(cards):
    # 二: 逢人配，不可配大小王
    assert gt(cards) == []


def test_gd_wildcard_never_completes_the_joker_bomb():
    # 二: 不可配大小王; 五: 四大天王：大小王各两张
    assert gt("LJ LJ BJ H9") == []
    assert gt("LJ BJ BJ H9") == []


def test_gd_wildcard_never_makes_the_joker_pair_of_a_full_house():
    # 二: 不可配大小王
    assert gt("S4 D4 C4 LJ H9") == []


def test_gd_only_the_heart_level_card_is_wild():
    # 二: 红心x可作为万能牌 -- S9 is a plain nine at level 9
    assert gt("S9 S4 D5 C6 S7") == []
    assert gt("S9 S5 D5 C5") == []


def test_gd_plain_level_card_sits_at_its_natural_rank_in_a_straight():
    # 五: 顺子 ... 3、4、5，6、7 -- the level nine is a nine there, not above A
    assert gr("S5 D6 C7 S8 D9") == (Reading("straight", 9, 5),)
    assert gt("SJ DQ CK SA D9") == []  # J Q K A + the level nine is no run past A


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8, 9, 10])
def test_gd_bombs_of_four_to_ten_cards_with_wildcards(size):
    # 五: 炸弹：四张或四张以上牌点相同的牌; 两副牌: eight fives and two wildcards at most
    fives = ["S5", "S5", "D5", "D5", "C5", "C5", "H5", "H5"]
    wilds = 2 if size == 10 else 1
    cards = fives[: size - wilds] + ["H9"] * wilds
    assert types(GD, C(cards), "9") == ["bomb"]
    assert readings(GD, C(cards), "9") == (Reading("bomb", gp("S5"), size),)


def test_gd_wildcard_in_a_straight_flush_of_another_suit():
    # 二: 可以配成任意牌型和花色; 五: 如果花色相同称为同花顺
    assert gt("H9 S4 S5 S6 S7") == ["straight", "straight_flush"]
    assert [r for r in gr("H9 S4 S5 S6 S7") if r.type == "straight_flush"] == [
        Reading("straight_flush", 7, 5),
        Reading("straight_flush", 8, 5),
    ]


def test_gd_wildcard_pair_straight_every_reading_counts():
    # 二: 可以配成任意牌型; 五: 连对 / 钢板 -- 33 44 xx is 223344, 334455 or 333444
    assert gr("S3 D3 S4 D4 H9 H9") == (
        Reading("pair_straight", 4, 6),
        Reading("pair_straight", 5, 6),
        Reading("triple_straight", 4, 6),
    )


def test_gd_wildcard_with_2345_reads_as_a2345_or_23456():
    # 五: A、2、3、4、5 ... 可以组成顺子
    assert gr("H9 S2 D3 C4 S5") == (Reading("straight", 5, 5), Reading("straight", 6, 5))


def test_gd_wildcard_with_jqka_is_only_10jqka():
    # 五: 可以 10、J、Q、K、A，而不能组成了J、Q、K、A、2这样的顺子
    assert gr("H9 SJ DQ CK SA") == (Reading("straight", 14, 5),)


def test_gd_wildcard_full_house_with_a_joker_pair():
    # 五: 三带二：三同张可以带一对 -- a pair of big jokers; 逢人配 completes the triple
    assert gt("BJ BJ H5 S4 C4", "5") == ["full_house"]
    assert gr("BJ BJ H5 S4 C4", "5") == (Reading("full_house", gp("S4", "5"), 5),)


# ---- 五 牌型 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["S2", "HA", "D9", "LJ", "BJ"])
def test_gd_single_any_card(card):
    # 五: 单张：可以是手中的任意一张牌
    assert gt(card) == ["single"]


def test_gd_pair_of_two_suits():
    # 五: 对子：两张牌点相同的牌，两张牌的花色可以不同
    assert gr("S7 D7") == (Reading("pair", gp("S7"), 2),)
    assert gt("S7 S8") == []


def test_gd_joker_pairs_but_no_mixed_jokers():
    # 五: 对子：两张牌点相同的牌 -- 小王+大王 are not the same
    assert gt("LJ LJ") == ["pair"]
    assert gt("BJ BJ") == ["pair"]
    assert gt("LJ BJ") == []
    assert gp("SA") < gr("LJ LJ")[0].rank == gp("LJ") < gr("BJ BJ")[0].rank == gp("BJ")


def test_gd_triple():
    # 五: 三同张：三张牌点相同的牌，三张牌的花色可以不同
    assert gr("S7 D7 C7") == (Reading("triple", gp("S7"), 3),)
    assert gt("S7 D7 C8") == []
    assert gt("LJ LJ BJ") == []


def test_gd_full_house():
    # 五: 三带二：三同张可以带一对同时出
    assert gr("S7 D7 C7 S8 D8") == (Reading("full_house", gp("S7"), 5),)
    assert gt("S7 D7 C7 S8 D9") == []  # a triple with two singles
    assert gt("SK CK HK DK S6") == []  # four and one


def test_gd_five_of_a_rank_is_a_bomb_not_a_full_house():
    # 五: 三带二 takes a pair of another rank; 炸弹：四张或四张以上牌点相同的牌
    assert gt("S7 S7 D7 D7 C7") == ["bomb"]


@pytest.mark.parametrize(
    "cards,top",
    [("S3 D4 C5 H6 S7", 7), ("S8 D9 CT HJ SQ", 12), ("SA D2 C3 H4 S5", 5), ("ST DJ CQ HK SA", 14)],
)
def test_gd_straights_of_five(cards, top):
    # 五: 顺子：五张且只能五张相连的单张牌 ... 可以A、2、3、4、5或10、J、Q、K、A
    assert gr(cards) == (Reading("straight", top, 5),)


@pytest.mark.parametrize(
    "cards",
    [
        "SJ DQ CK HA S2",  # 不能组成了J、Q、K、A、2这样的顺子
        "SQ DK CA H2 S3",  # no wrap past A either
        "S3 D4 C5 H6 S7 S8",  # 五张且只能五张
        "S3 D4 C5 H6",
        "S3 D4 C5 H6 S8",  # a gap
    ],
)
def test_gd_not_straights(cards):
    # 五: 顺子：五张且只能五张相连的单张牌
    assert gt(cards) == []


def test_gd_pair_straight_of_exactly_three_pairs():
    # 五: 连对（木板）：三对相连的牌，如22 33 44，77 88 99
    assert gr("S2 D2 S3 D3 S4 D4") == (Reading("pair_straight", 4, 6),)
    assert gr("S7 D7 S8 D8 S9 D9") == (Reading("pair_straight", 9, 6),)  # plain level nines
    assert gr("SA DA S2 D2 S3 D3") == (Reading("pair_straight", 3, 6),)  # AA2233 lowest
    assert gr("SQ DQ SK DK SA DA") == (Reading("pair_straight", 14, 6),)


@pytest.mark.parametrize(
    "cards",
    [
        "S3 D3 S4 D4",  # 不可以二连对，如33 44
        "SA DA S2 D2 S3 D3 S4 D4",  # 也不可以四连对 ... 如AA 22 33 44
        "SJ DJ SQ DQ SK DK SA DA",  # JJ QQ KK AA
        "SK DK SA DA S2 D2",  # no wrap
    ],
)
def test_gd_not_pair_straights(cards):
    assert gt(cards) == []


def test_gd_triple_straight_of_exactly_two_triples():
    # 五: 连同张（钢板）：两个相连的三同张牌，如：333 444，888 999
    assert gr("S3 D3 C3 S4 D4 C4") == (Reading("triple_straight", 4, 6),)
    assert gr("S8 D8 C8 S9 D9 C9", "5") == (Reading("triple_straight", 9, 6),)
    assert gr("SA CA DA S2 C2 D2", "5") == (Reading("triple_straight", 2, 6),)  # AAA222 lowest
    assert gr("SK CK DK SA CA DA") == (Reading("triple_straight", 14, 6),)


def test_gd_not_triple_straights():
    # 五: 不可以三个或三个以上相连的三同张牌，如：JJJ QQQ KKK AAA
    assert gt("SJ DJ CJ SQ DQ CQ SK DK CK") == []
    assert gt("SJ DJ CJ SQ DQ CQ SK DK CK SA DA CA") == []
    assert gt("S3 D3 C3 S5 D5 C5") == []


def test_gd_has_no_airplane():
    # 五: 牌型 lists no 飞机 -- 333 444 with 55 66 is no play in Guandan
    assert gt("S3 D3 C3 S4 D4 C4 S5 D5 S6 D6") == []


@pytest.mark.parametrize("cards,size", [("S4 D4 C4 H4", 4), ("S7 D7 C7 H7 S7", 5), ("SJ DJ CJ HJ SJ DJ", 6)])
def test_gd_bombs_of_the_seed(cards, size):
    # 五: 炸弹：四张或四张以上牌点相同的牌。如：4444、 77777、 JJJJJJ
    assert gr(cards) == (Reading("bomb", gp(cards.split()[0]), size),)


def test_gd_a_natural_same_suit_straight_is_only_a_straight_flush():
    # 五: 顺子…如果花色相同称为同花顺，又称“火箭”; 火箭：五张花色相同的顺子。如：10、J、Q、K、A -- never a plain straight
    assert gt("ST SJ SQ SK SA") == ["straight_flush"]
    assert gr("ST SJ SQ SK SA") == (Reading("straight_flush", 14, 5),)
    assert gt("HA H2 H3 H4 H5") == ["straight_flush"]
    assert gt("S3 S4 S5 S6 S7") == ["straight_flush"]
    # a natural heart level card is no wildcard in another level's hand: the same rule
    assert gr("H5 H6 H7 H8 H9", "2") == (Reading("straight_flush", 9, 5),)


def test_gd_with_a_wildcard_both_readings_stand():
    # 二: 红心x可作为万能牌配用…可以配成任意牌型和花色 -- the wildcard may be of the suit or not
    assert gt("H9 S5 S6 S7 S8") == ["straight", "straight_flush"]
    assert gt("H9 H5 H6 H7 H8") == ["straight", "straight_flush"]


def test_gd_no_straight_flush_of_jqka2():
    # 五: 不能组成了J、Q、K、A、2这样的顺子 -- not in one suit either
    assert gt("SJ SQ SK SA S2") == []


def test_gd_joker_bomb():
    # 五: 四大天王：大小王各两张
    assert gt("LJ LJ BJ BJ") == ["joker_bomb"]
    assert gt("LJ BJ BJ") == []


def test_gd_types_come_in_canonical_order():
    # conformance README: types single pair triple full_house straight ... straight_flush joker_bomb
    assert gt("H9 H9 S3 D3 S4") == ["full_house"]
    assert gt("H9 S5 S6 S7 S8") == ["straight", "straight_flush"]


# ==== San Da Yi (seed 004) ==================================================================


def test_sd_rank_order_for_sets():
    # 牌型大小: 大王>小王>2>A>K>Q>J>10>9>8>7>6>5>4>3，不分花色
    order = ["S3", "S4", "S9", "ST", "SJ", "SQ", "SK", "SA", "S2", "LJ", "BJ"]
    assert [sp(c) for c in order] == sorted(sp(c) for c in order)
    assert len({sp(c) for c in order}) == len(order)
    assert sp("H7") == sp("S7") == sp("D7") == sp("C7")


def test_sd_joker_bomb():
    # 牌型说明 1: 天王炸弹：四张王牌
    assert st("LJ LJ BJ BJ") == ["joker_bomb"]


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8])
def test_sd_bombs_of_four_to_eight(size):
    # 牌型说明 2: 炸弹：4—8个牌点一样的牌
    cards = ["S6", "S6", "H6", "H6", "D6", "D6", "C6", "C6"][:size]
    assert readings(SD, C(cards)) == (Reading("bomb", sp("S6"), size),)


def test_sd_single():
    # 牌型说明 3: 单牌：单个牌
    assert st("S2") == ["single"]
    assert st("BJ") == ["single"]


def test_sd_pair_includes_joker_pairs():
    # 牌型说明 4: 对牌：牌点相同的2张牌，两个小王或两个大王也算对子牌型
    assert st("S8 H8") == ["pair"]
    assert st("LJ LJ") == ["pair"]
    assert st("BJ BJ") == ["pair"]
    assert st("LJ BJ") == []
    assert st("S8 H9") == []


def test_sd_triple_never_of_jokers():
    # 牌型说明 5: 三张：牌点相同的3张牌(不包括三张王，三张王只可以当一对和单张)
    assert sr("S8 H8 D8") == (Reading("triple", sp("S8"), 3),)
    assert st("LJ LJ BJ") == []
    assert st("LJ BJ BJ") == []


def test_sd_full_house():
    # 牌型说明 6: 三带二：点数相同的三张牌 + 一对牌
    assert sr("S7 H7 D7 S8 H8") == (Reading("full_house", sp("S7") * 16 + sp("S8"), 5),)  # 附带的对子会影响大小
    assert st("S7 H7 D7 S8 H9") == []


def test_sd_full_house_pair_differs_from_the_triple():
    # 牌型说明 6: 三牌的牌点必须和所带的对牌牌点不同 -- five sevens are a bomb only
    assert st("S7 S7 H7 H7 D7") == ["bomb"]


def test_sd_full_house_with_a_joker_pair():
    # 牌型说明 4 and 6: 两个小王或两个大王也算对子 -- the pair of a 三带二
    assert st("S7 H7 D7 LJ LJ") == ["full_house"]
    assert st("S7 H7 D7 LJ BJ") == []


@pytest.mark.parametrize(
    "cards,top",
    [
        ("S3 D4 C5 H6 S7", 7),
        ("SA D2 C3 H4 S5", 5),  # A可以连在2前
        ("S2 D3 C4 H5 S6", 6),  # 2在顺子中的牌点比3小
        ("ST DJ CQ HK SA", 14),  # A可以连在K后
        ("S3 D4 C5 H6 S7 S8 S9", 9),
    ],
)
def test_sd_straights(cards, top):
    # 牌型说明 7: 单顺：5张或5张以上牌点连续的牌
    assert sr(cards) == (Reading("straight", top, len(cards.split())),)


def test_sd_fourteen_card_straight():
    # 牌型说明 7: 即可以出现14张牌的顺子：A、2、3、4～K、A(注：这种14顺是最大的顺子)
    cards = "SA D2 C3 H4 S5 S6 S7 S8 S9 ST SJ SQ SK HA"
    assert sr(cards) == (Reading("straight", 14, 14),)


@pytest.mark.parametrize(
    "cards",
    [
        "SJ DQ CK HA S2",  # 但不可出JQKA2
        "ST SJ DQ CK HA S2",
        "SQ DK CA H2 S3",
        "S3 D4 C5 H6",  # 5张或5张以上
        "S3 D4 C5 H6 S8",
    ],
)
def test_sd_not_straights(cards):
    assert st(cards) == []


def test_sd_no_straight_flush():
    # 牌型说明 has no 同花顺: a one-suit run is a straight only
    assert st("S3 S4 S5 S6 S7") == ["straight"]


def test_sd_pair_straights_of_three_pairs_or_more():
    # 牌型说明 8: 双顺：3对或3对以上牌点连续的对牌
    assert sr("S3 H3 S4 H4 S5 H5") == (Reading("pair_straight", 5, 6),)
    assert sr("SA HA S2 H2 S3 H3") == (Reading("pair_straight", 3, 6),)
    assert sr("S9 H9 ST HT SJ HJ SQ HQ SK HK SA HA") == (Reading("pair_straight", 14, 12),)
    assert st("S3 H3 S4 H4") == []
    assert st("SK HK SA HA S2 H2") == []


def test_sd_triple_straights_of_two_triples_or_more():
    # 牌型说明 9: 三顺：2个或2个以上牌点连续的三牌
    assert sr("S3 H3 D3 S4 H4 D4") == (Reading("triple_straight", 4, 6),)
    assert sr("S3 H3 D3 S4 H4 D4 S5 H5 D5") == (Reading("triple_straight", 5, 9),)
    assert sr("SA HA DA S2 H2 D2") == (Reading("triple_straight", 2, 6),)
    assert st("SK HK DK SA HA DA S2 H2 D2") == []
    assert st("S3 H3 D3 S5 H5 D5") == []


def test_sd_airplane():
    # 牌型说明 10: 飞机带翅膀：多个三带二的牌，要求所有的三条牌为牌点连续的牌，同时对牌也必须为牌点连续的牌
    assert sr("S3 H3 D3 S4 H4 D4 S5 H5 S6 H6") == (Reading("airplane", 4, 10),)
    assert sr("S3 H3 D3 S4 H4 D4 S5 H5 D5 S7 H7 S8 H8 S9 H9") == (Reading("airplane", 5, 15),)
    assert sr("S3 H3 D3 S4 H4 D4 SQ HQ SK HK") == (Reading("airplane", 4, 10),)


@pytest.mark.parametrize(
    "cards",
    [
        "S3 H3 D3 S4 H4 D4 S5 H5 S7 H7",  # 对牌也必须为牌点连续的牌
        "S3 H3 D3 S5 H5 D5 S7 H7 S8 H8",  # 三条牌为牌点连续
        "S3 H3 D3 S4 H4 D4 S5 H5 D5 S7 H7 S8 H8",  # three triples, two pairs
        "S3 H3 D3 S4 H4 D4 S4 H4 S5 H5",  # a pair of the triples' rank
    ],
)
def test_sd_not_airplanes(cards):
    assert st(cards) == []


# ==== readings' ranks and the API edges =====================================================


def test_ranks_of_sets_are_power_of_their_rank():
    # 002 六: 三带二：仅比较三同张的大小; 004 牌型大小: 三带一对…由三张的最大牌点数大小决定，附带的对子会影响大小
    assert gr("SK DK CK S3 D3")[0].rank == gp("SK") == gr("SK")[0].rank
    assert sr("S2 H2 D2 S3 H3")[0].rank == sp("S2") * 16 + sp("S3") == sr("S2")[0].rank * 16 + sr("S3")[0].rank


def test_readings_of_no_play_are_empty():
    assert gr("S3 D5") == ()
    assert sr("S3 D5") == ()


def test_readings_of_no_cards_are_empty():
    # documented: readings are () when the cards form no play
    assert readings(GD, Cards(), "9") == ()
    assert readings(SD, Cards()) == ()


# ==== through the judge: malformed cases are errors ========================================


def classify(game, cards, **extra):
    book = {"guandan": "sanjiang-2012", "sandayi": "usst-2016"}[game]
    return answer({"id": "t", "game": game, "rulebook": book, "op": "classify", "cards": cards, **extra})


def test_judge_classifies():
    assert classify("guandan", ["H9", "S4", "D5", "C6", "S7"], level="9") == {
        "id": "t",
        "result": {"types": ["straight"]},
    }
    assert classify("sandayi", ["LJ", "LJ", "BJ"])["result"] == {"types": []}
    assert classify("guandan", ["ST", "HT"], level=10)["result"] == {"types": ["pair"]}


@pytest.mark.parametrize(
    "game,cards,extra",
    [
        ("guandan", ["SX"], {"level": "9"}),  # unknown card
        ("sandayi", ["S3", "S11"], {}),
        ("guandan", ["SA", "SA", "SA"], {"level": "9"}),  # 一: 两副扑克牌 -- two copies at most
        ("sandayi", ["LJ", "LJ", "LJ"], {}),
        ("guandan", [], {"level": "9"}),  # no cards
        ("sandayi", [], {}),
        ("guandan", ["SA"], {}),  # 二: 记级 -- Guandan needs the level
        ("guandan", ["SA"], {"level": "Z"}),
    ],
)
def test_judge_malformed_classify_is_an_error(game, cards, extra):
    out = classify(game, cards, **extra)
    assert "error" in out and "result" not in out, out
    assert not out["error"].startswith("internal error"), out
