"""Who wins a trick (每圈 ... 以最大者胜出): formats, ruffs (枪毙), equal cards, shaoguan formats."""

from referee.cards import Cards
from referee.judge import answer
from referee.tractor.tricks import trick_winner
from referee.tractor.trumps import Trumps


def C(s):
    return Cards.parse(s)


ZK = Trumps.of("zhongkai-2010", "7", "H")
CL = Trumps.of("classic-3deck", "7", "H")
SG = Trumps.of("shaoguan-2023", "J", "H")


def winner(t, *plays):
    return trick_winner(t, [C(p) for p in plays])


def test_highest_card_of_the_led_suit_wins():
    # 000 第七条: 每圈竞赛中要比较各家打出的牌种组合的大小，以最大者胜出
    assert winner(ZK, "S3", "S9", "SK", "S5") == 2


def test_other_side_suits_never_win():
    # 000 第十二条 2: 不同门副牌花色牌以引牌者为大
    assert winner(ZK, "S3", "DA", "CA", "S2") == 0


def test_equal_cards_the_earlier_wins():
    # 000 第十二条 2: 每圈竞赛相同牌色、或相同组合的各家中以最先打牌者为大
    assert winner(ZK, "SA", "SA", "SA", "S2") == 0
    assert winner(ZK, "S3", "SQ", "SQ", "S2") == 1


def test_single_ruff_wins():
    # 000 第十二条 1: 跟牌者无该副牌花色牌跟出，可用相同牌种组合的主牌枪毙，本圈竞赛由枪毙者赢取
    assert winner(ZK, "SA", "H2", "SK", "S3") == 1


def test_pair_ruff_must_be_a_trump_pair():
    # 000 第十二条 1: 可用相同牌种组合的主牌枪毙
    assert winner(ZK, "SK SK", "H2 H2", "S3 S4", "D5 D6") == 1
    assert winner(ZK, "SK SK", "HA BJ", "S3 S4", "D5 D6") == 0


def test_overruff_higher_trump_combination_wins():
    # 000 第十二条 1: 如遇两家以上同时枪毙，则比较最高级别牌种组合的大小，由牌种组合级别相对较高者赢取
    assert winner(ZK, "SK SK", "H2 H2", "S7 S7", "H9 H9") == 2


def test_format_mismatch_never_wins():
    # 000 第十二条 2: 垫牌 ... 不必先跟相同的牌种组合 -- a discard or broken format cannot win
    assert winner(ZK, "SK SK", "SA SQ", "H3 H4", "BJ LJ") == 0


def test_tractor_lead_only_a_tractor_beats_it():
    # 001 十六: 如该副牌中有对子、三条、拖拉机不等时，你必须也相应地用对子、三条、拖拉机“枪毙”才能赢取
    assert winner(CL, "S3 S3 S4 S4", "SA SA SQ SQ", "H5 H5 H9 H9", "H2 H2 H3 H3") == 3


def test_trump_lead_higher_trump_tractor_wins():
    # 000 第五条 chain: 小王 pair above 主牌花色级牌 pair above 副牌花色级牌 pair
    assert winner(ZK, "HQ HQ HK HK", "HA HA C7 C7", "D7 D7 H7 H7", "H2 H2 H3 H3") == 2
    assert winner(ZK, "HQ HQ HK HK", "HA HA C7 C7", "H2 H2 H3 H3", "H4 H4 H5 H5") == 1


def test_classic_ruffed_throw_highest_unit_of_the_strongest_kind_decides():
    # 001 十六: 如遇两家以上同时“枪毙”，则比较最高级别（如有单张，三条或拖拉机，则先比较拖拉机，三条，单张的级别大小）
    lead = "SA SA SA SK"
    assert winner(CL, lead, "H3 H3 H3 BJ", "H2 H2 H2 LJ", "S2 S3 S4 S5") == 1
    assert winner(CL, lead, "H3 H3 H3 H4", "H5 H5 H5 H2", "S2 S3 S4 S5") == 2


def test_zhongkai_ruffed_throw_highest_combination_decides():
    # 000 第十二条 1: 如遇两家以上同时枪毙，则比较最高级别牌种组合的大小;
    # 第十一条 2(2): 多刻拖 ... 刻子、对子、单张，这也是比较一圈牌中出现甩牌时谁家更大的优先顺序
    lead = "SA SA SA SQ SQ"
    assert winner(ZK, lead, "H3 H3 H3 H9 H9", "H2 H2 H2 BJ BJ", "D2 D3 D4 D5 D6") == 1


def test_ruffed_throw_must_match_the_structure():
    # 001 十六: 你必须也相应地用对子、三条、拖拉机“枪毙”才能赢取
    assert winner(CL, "SA SA SA SK", "H3 H3 H4 H5", "S2 S3 S4 S5", "D2 D3 D4 D5") == 0


# ---- shaoguan-2023 (seed 003 3, 7) ------------------------------------------------------------


def test_sg_bomb_beats_two_pair_tractor():
    # 003 3(2): 炸弹比2连拖大，如：梅花2222比梅花7788要大
    assert winner(SG, "C7 C7 C8 C8", "C2 C2 C2 C2", "C9 C9 CT CT", "D2 D3 D4 D5") == 1


def test_sg_triple_tractor_beats_three_pair_tractor():
    # 003 3(4): 两个3条相连比3连拖大，如：梅花222333比梅花667788要大
    assert winner(SG, "C6 C6 C7 C7 C8 C8", "C2 C2 C2 C3 C3 C3", "D2 D3 D4 D5 D6 D7", "S2 S3 S4 S5 S6 S7") == 1


def test_sg_bomb_tractor_beats_four_pair_tractor():
    # 003 3(5): 两个炸弹相连比4连拖大，如：方块22223333比方块66778899要大
    lead = "D6 D6 D7 D7 D8 D8 D9 D9"
    assert winner(SG, lead, "D2 D2 D2 D2 D3 D3 D3 D3", "S2 S3 S4 S5 S6 S7 S8 S9", "C2 C3 C4 C5 C6 C7 C8 C9") == 1


def test_sg_higher_bomb_beats_lower_bomb():
    # 003 3(2): 炸弹比2连拖大; two bombs on a tractor: the higher bomb
    assert winner(SG, "SQ SQ SK SK", "S3 S3 S3 S3", "S9 S9 S9 S9", "D2 D3 D4 D5") == 2


def test_sg_trump_tractor_ruffs_side_tractor():
    # 003 7(1): 副牌是拖拉机，则枪牌的必须是主牌拖拉机或炸弹
    assert winner(SG, "SQ SQ SK SK", "H3 H3 H4 H4", "S2 S2 S5 S6", "D2 D3 D4 D5") == 1
    assert winner(SG, "SQ SQ SK SK", "H3 H3 H3 H3", "S2 S2 S5 S6", "D2 D3 D4 D5") == 1
    assert winner(SG, "SQ SQ SK SK", "H3 H3 H5 H5", "S2 S2 S5 S6", "D2 D3 D4 D5") == 0


def test_sg_side_bomb_needs_a_trump_bomb():
    # 003 7(1): 而副牌炸弹必须用主牌炸弹才能枪
    assert winner(SG, "S8 S8 S8 S8", "H3 H3 H4 H4", "S2 S3 S4 S5", "D2 D3 D4 D5") == 0
    assert winner(SG, "S8 S8 S8 S8", "H3 H3 H4 H4", "H2 H2 H2 H2", "D2 D3 D4 D5") == 2


def test_sg_only_trumps_ruff():
    # 003 7(1): 只有主牌可以枪副牌 -- a bomb of another side suit does not win
    assert winner(SG, "SQ SQ SK SK", "DA DA DA DA", "S2 S3 S4 S5", "C2 C3 C4 C5") == 0


def test_sg_after_a_bomb_a_trump_ruff_must_be_a_bomb():
    # 003 7(2): 主牌枪副牌时必须按最高档次副牌的同一牌型或更高档次牌型枪牌。
    # 如：A出副牌拖拉机，B用炸弹炸了，C或D须用主牌炸弹才能枪毙。
    lead, bomb = "SQ SQ SK SK", "S3 S3 S3 S3"
    assert winner(SG, lead, bomb, "H5 H5 H6 H6", "D2 D3 D4 D5") == 1
    assert winner(SG, lead, bomb, "H5 H5 H6 H6", "H2 H2 H2 H2") == 3


def test_sg_side_bomb_outranks_a_trump_tractor_played_before_it():
    # 003 7(2): 主牌枪副牌时必须按最高档次副牌的同一牌型或更高档次牌型枪牌。如：A出副牌拖拉机，B用炸弹炸了，
    # C或D须用主牌炸弹才能枪毙. A side bomb is the higher format (3: 炸弹比2连拖大) whichever comes first; 7(1)
    # 只有主牌可以枪副牌 says what may ruff, not this ranking: the trump tractor does not stop the bomb.
    assert winner(SG, "S5 S5 S6 S6", "H3 H3 H4 H4", "S9 S9 S9 S9", "D2 D3 D4 D5") == 2
    assert winner(SG, "S5 S5 S6 S6", "S9 S9 S9 S9", "H3 H3 H4 H4", "D2 D3 D4 D5") == 1


def test_op_winner_plays_of_different_sizes_is_an_error():
    # 000 第十一条 2: 跟牌张数与引牌相同
    case = {"id": "w", "game": "tractor", "op": "winner", "rulebook": "zhongkai-2010", "level": "7", "trump": "H",
            "plays": [["S3", "S3"], ["D7"], ["C7", "C8"], ["S4", "S5"]]}
    assert "error" in answer(case)
