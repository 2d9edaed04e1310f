"""Level tables (升级) and kitty capture (抠底) of each rulebook."""

import pytest

from referee.cards import Cards
from referee.judge import answer
from referee.rulebooks import load
from referee.tractor.follow import lead_structure
from referee.tractor.scoring import kitty_points, outcome
from referee.tractor.trumps import Trumps


def C(s):
    return Cards.parse(s)


def levels(rulebook, points):
    o = outcome(load(rulebook), points)
    return (o.side, o.levels)


# ---- level tables ------------------------------------------------------------------------------

# 000 第二十条 表2: 防家得分 90~115 庄家升一, 60~85 二, 30~55 三, 0~25 四, -5~-25 五;
# 120~145 防家升一, 150~175 二, 180~205 三, 210~235 四, 240~265 五, 270~295 六, 300~325 七;
# 防家得分120分，则防家升一级；以后每多30分得分，则防家多升一级 ... 防家得分每少30分，则庄家多升一级
ZHONGKAI = [  # (band low, band high, side, levels)
    (90, 115, "dealer", 1),
    (60, 85, "dealer", 2),
    (30, 55, "dealer", 3),
    (0, 25, "dealer", 4),
    (-30, -5, "dealer", 5),  # 表2 row -5~-25; -30 is still within 30 of 0 (每少30分)
    (-60, -35, "dealer", 6),
    (120, 145, "defenders", 1),
    (150, 175, "defenders", 2),
    (180, 205, "defenders", 3),
    (210, 235, "defenders", 4),
    (240, 265, "defenders", 5),
    (270, 295, "defenders", 6),
    (300, 325, "defenders", 7),
    (330, 355, "defenders", 8),
]


def check_bands(rulebook, table, side):
    for low, high, band_side, n in table:
        if band_side == side:
            for points in (low, high):
                assert levels(rulebook, points) == (side, n), points


def test_zhongkai_dealer_bands_and_beyond():
    # 000 第二十条: 防家得分115分，庄家升一级；以后防家得分每少30分，则庄家多升一级
    check_bands("zhongkai-2010", ZHONGKAI, "dealer")


def test_zhongkai_minus_30_is_five_levels_by_the_article_text():
    # 000 第二十条: 防家得分115分，庄家升一级；以后防家得分每少30分，则庄家多升一级. Bands of 30 from 115:
    # 90~115 one, 60~85 two, 30~55 three, 0~25 four, -30~-5 five. 表2 prints the fifth row "-5~-25", one
    # 5-point step short of the 30-point band the text defines; the text rules, so -30 is five levels, -35 six.
    assert levels("zhongkai-2010", -30) == ("dealer", 5)
    assert levels("zhongkai-2010", -25) == ("dealer", 5)
    assert levels("zhongkai-2010", -35) == ("dealer", 6)
    case = {"id": "s", "game": "tractor", "op": "score", "rulebook": "zhongkai-2010", "defender_points": -30}
    assert answer(case) == {"id": "s", "result": {"side": "dealer", "levels": 5}}


def test_zhongkai_defender_bands_and_beyond():
    # 000 第二十条: 防家得分120分，则防家升一级；以后每多30分得分，则防家多升一级
    check_bands("zhongkai-2010", ZHONGKAI, "defenders")


# 001 五: 60—115 庄家升一级, 5—55 升二级, 0—负55 升三级, 以后防家每多负60分，庄家多升一级;
# 120—175 防家上台, 180—235 防家升一级, 240—295 升二级, 300—355 升三级, 以后防家每多得60分多升一级
CLASSIC = [
    (60, 115, "dealer", 1),
    (5, 55, "dealer", 2),
    (-55, 0, "dealer", 3),
    (-115, -60, "dealer", 4),
    (-175, -120, "dealer", 5),
    (120, 175, "defenders", 0),
    (180, 235, "defenders", 1),
    (240, 295, "defenders", 2),
    (300, 355, "defenders", 3),
    (360, 415, "defenders", 4),
]


def test_classic_dealer_bands_and_beyond():
    # 001 五: 60—115 庄家升一级 ... 0—负55 升三级, 以后防家每多负60分，庄家多升一级
    check_bands("classic-3deck", CLASSIC, "dealer")


def test_classic_defender_bands_and_beyond():
    # 120—175: 防家上台 -- the defenders take the deal without going up (0 levels)
    check_bands("classic-3deck", CLASSIC, "defenders")


# 003 8: 每局以160分为基点，每多或少20分确定升级数（以20、40……整数计算，如非坐庄方拿到140分，
# 坐庄方则1+1升两级，如非坐庄方拿到180分，则坐庄方下庄，由新的坐庄方1+1升两级）
SHAOGUAN = [
    (155, "dealer", 1), (145, "dealer", 1),
    (140, "dealer", 2), (125, "dealer", 2),
    (120, "dealer", 3), (105, "dealer", 3),
    (160, "defenders", 1), (175, "defenders", 1),
    (180, "defenders", 2), (195, "defenders", 2),
    (200, "defenders", 3),
]


@pytest.mark.parametrize("rulebook", ["shaoguan-2023", "shaoguan-2023-nokitty"])
def test_shaoguan_level_table(rulebook):
    # 003 8 (both 打法): 每局以160分为基点，每多或少20分确定升级数
    for points, side, n in SHAOGUAN:
        assert levels(rulebook, points) == (side, n), points


def test_op_score_answers_side_and_levels():
    # 001 五: 120—175分 防家上台
    case = {"id": "s", "game": "tractor", "op": "score", "rulebook": "classic-3deck", "defender_points": 175}
    assert answer(case)["result"] == {"side": "defenders", "levels": 0}


# ---- kitty capture ---------------------------------------------------------------------------


def kitty(rulebook, last_trick, kitty_value=20, defender=True, level="7", trump="H"):
    case = {"id": "k", "game": "tractor", "op": "kitty", "rulebook": rulebook, "level": level, "trump": trump,
            "kitty_points": kitty_value, "last_trick": [p.split() for p in last_trick],
            "winner_is_defender": defender}
    out = answer(case)
    assert "result" in out, out
    return out["result"]


# 000 表1: 单张抠底 2倍, 对子 3倍, 刻子 4倍, 两对拖5倍，以后每多连一对加1倍, 两刻拖6倍，以后每多连一刻加2倍,
# 甩牌抠底: 最高级别的两个牌种组合的对应倍数之和
ZK_TABLE = [
    ("HA", 2),
    ("HA HA", 3),
    ("HA HA HA", 4),
    ("HK HK HA HA", 5),
    ("HQ HQ HK HK HA HA", 6),
    ("HJ HJ HQ HQ HK HK HA HA", 7),
    ("HK HK HK HA HA HA", 6),
    ("HQ HQ HQ HK HK HK HA HA HA", 8),
]


def _discards(n):
    return [" ".join(suit + r for r in "2345689TJ"[:n]) for suit in "DCS"]


def test_zhongkai_kitty_single_pair_triple():
    # 000 表1: 单张抠底 2倍, 对子抠底 3倍, 刻子抠底 4倍
    for lead, times in ZK_TABLE[:3]:
        assert kitty("zhongkai-2010", [lead] + _discards(len(lead.split()))) == 20 * times, lead


def test_zhongkai_kitty_pair_tractors_5_plus_1_per_pair():
    # 000 表1: 两对拖5倍，以后每多连一对加1倍
    for lead, times in ZK_TABLE[3:6]:
        assert kitty("zhongkai-2010", [lead] + _discards(len(lead.split()))) == 20 * times, lead


def test_zhongkai_kitty_triple_tractors_6_plus_2_per_triple():
    # 000 表1: 两刻拖6倍，以后每多连一刻加2倍
    for lead, times in ZK_TABLE[6:]:
        assert kitty("zhongkai-2010", [lead] + _discards(len(lead.split()))) == 20 * times, lead


def test_zhongkai_side_suit_capture_counts():
    # 000 第十二条 3: 主、副牌均可抠底
    assert kitty("zhongkai-2010", ["S3", "S9", "SK", "SA"]) == 40
    assert kitty("zhongkai-2010", ["SK SK", "S3 S3", "D4 D5", "S8 S9"]) == 60


def test_zhongkai_ruffed_pair_counts_as_a_pair():
    # 000 表1: 对子抠底 3倍 (the lead's combination, won by a trump pair)
    assert kitty("zhongkai-2010", ["SK SK", "H3 H3", "S4 S5", "S8 S9"]) == 60


def test_zhongkai_throw_sum_of_the_two_highest_units():
    # 000 表1: 甩牌抠底 -- 最高级别的两个牌种组合的对应倍数之和
    # triple (4) + pair (3), the single (2) left out
    assert kitty("zhongkai-2010", ["SA SA SA SJ SJ S9", "D2 D3 D4 D5 D6 D8", "C2 C3 C4 C5 C6 C8", "H2 H3 H4 H5 H6 H8"]) == 20 * 7
    # three pairs: only the two highest count (3 + 3)
    assert kitty("zhongkai-2010", ["SA SA SQ SQ S9 S9", "D2 D3 D4 D5 D6 D8", "C2 C3 C4 C5 C6 C8", "S2 S3 S4 S5 S6 S8"]) == 20 * 6
    # pair tractor (5) + single (2)
    assert kitty("zhongkai-2010", ["SA SA SK SK SJ", "D2 D3 D4 D5 D6", "C2 C3 C4 C5 C6", "S2 S3 S4 S5 S6"]) == 20 * 7


def test_kitty_counts_only_for_the_defenders():
    # 000 第十二条 3: 在每盘竞赛的最后一圈牌中由防家赢取，称为防守方抠底
    assert kitty("zhongkai-2010", ["HA HA", "H3 H3", "S4 S5", "S8 S9"], defender=False) == 0
    assert kitty("classic-3deck", ["HA HA", "H3 H3", "S4 S5", "S8 S9"], defender=False) == 0
    assert kitty("shaoguan-2023", ["HA HA", "H3 H3", "S4 S5", "S8 S9"], defender=False, level="J") == 0


def test_classic_trumps_only():
    # 001 十七: 在最后一圈牌中，防守方一家牌最大，谓防守方抠底（主牌才可以抠底）
    assert kitty("classic-3deck", ["S3", "S9", "SK", "SA"]) == 0
    assert kitty("classic-3deck", ["SK SK", "S3 S3", "D4 D5", "S8 S9"]) == 0
    assert kitty("classic-3deck", ["H3", "H9", "HK", "BJ"]) == 40


def test_classic_ruff_wins_with_trumps_and_counts():
    # 001 十七: 防守方一家牌最大 ... 主牌才可以抠底 -- a trump ruff is won with trumps
    assert kitty("classic-3deck", ["SK", "H3", "S4", "S8"]) == 40


def test_classic_kitty_multiplier_table():
    # 001 十七: 单张 2倍, 对子 3倍, 刻子 4倍, 二连对5倍 以后每多连一对加1倍, 二连刻6倍 以后每多连一刻加2倍
    assert kitty("classic-3deck", ["HA HA", "H3 H3", "S4 S5", "S8 S9"]) == 60
    assert kitty("classic-3deck", ["HA HA HA", "H3 H4 H5", "S4 S5 S6", "S8 S9 ST"]) == 80
    assert kitty("classic-3deck", ["HQ HQ HK HK HA HA", "D2 D3 D4 D5 D6 D8", "C2 C3 C4 C5 C6 C8", "S2 S3 S4 S5 S6 S8"]) == 120
    assert kitty("classic-3deck", ["HK HK HK HA HA HA", "D2 D3 D4 D5 D6 D8", "C2 C3 C4 C5 C6 C8", "S2 S3 S4 S5 S6 S8"]) == 120


def test_shaoguan_times_number_of_cards():
    # 003 14: 抠底分数以底牌分数乘于抠底主牌张数。例如：一个牌不加倍，一对牌大的话手上的分数X2计算，三个X3
    sg = dict(level="J")
    assert kitty("shaoguan-2023", ["H3", "H9", "HK", "HA"], **sg) == 20
    assert kitty("shaoguan-2023", ["HA HA", "H3 H3", "S4 S5", "S8 S9"], **sg) == 40
    assert kitty("shaoguan-2023", ["HA HA HA", "H3 H4 H5", "S4 S5 S6", "S8 S9 ST"], **sg) == 60
    assert kitty("shaoguan-2023", ["HK HK HA HA", "H3 H3 H4 H5", "S4 S5 S6 S7", "D8 D9 DT DQ"], **sg) == 80
    assert kitty("shaoguan-2023", ["H8 H8 H8 H8", "H3 H3 H4 H5", "S4 S5 S6 S7", "D8 D9 DT DQ"], **sg) == 80


def test_shaoguan_trumps_only():
    # 003 14: 非庄家方只能以主牌大牌才能对底牌中的分牌进行抠底
    assert kitty("shaoguan-2023", ["S3", "S9", "SK", "SA"], level="J") == 0
    assert kitty("shaoguan-2023", ["SK", "S3", "H2", "S8"], level="J") == 20


def test_kitty_points_function():
    # 000 表1: 对子抠底 3倍
    t = Trumps.of("zhongkai-2010", "7", "H")
    structure = lead_structure(t, C("SK SK"))
    assert kitty_points(t, 25, C("H3 H3"), structure, True) == 75
    assert kitty_points(t, 25, C("H3 H3"), structure, False) == 0
