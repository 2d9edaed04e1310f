"""Following (跟牌): the follow rules of each rulebook, judged against the whole hand."""

import said

from referee.cards import Cards
from referee.judge import answer
from referee.tractor.follow import follow_ruling, is_legal_follow
from referee.tractor.trumps import Trumps


def C(s):
    return Cards.parse(s)


ZK = Trumps.of("zhongkai-2010", "7", "H")
CL = Trumps.of("classic-3deck", "7", "H")
SG = Trumps.of("shaoguan-2023", "J", "H")
NK = Trumps.of("shaoguan-2023-nokitty", "5", "S")


def legal(t, hand, lead, play, before=()):
    return is_legal_follow(t, C(hand), C(lead), C(play), [C(b) for b in before])


# ---- zhongkai-2010 (seed 000 第十一条, 第十二条) ------------------------------------------


def test_zk_must_follow_suit_before_other_suits():
    # 000 第十一条 2(1): 出完该类型的牌后才能跟出其它类型的牌
    assert not legal(ZK, "S3 S9 D4", "SK", "D4")
    assert legal(ZK, "S3 S9 D4", "SK", "S3")


def test_zk_level_card_is_trump_not_its_printed_suit():
    # 000 第四条: 级牌为固定主牌 -- S7 does not follow a spade lead, and it must follow a trump lead
    assert not legal(ZK, "S7 S3 D2", "SK", "S7")
    assert legal(ZK, "S7 S3 D2", "SK", "S3")
    assert not legal(ZK, "S7 D3 C4", "HQ", "D3")
    assert legal(ZK, "S7 D3 C4", "HQ", "S7")


def test_zk_joker_must_follow_a_trump_lead():
    # 000 第四条: 大王、小王 ... 为固定主牌
    assert not legal(ZK, "LJ S2 D3", "H3", "S2")
    assert legal(ZK, "LJ S2 D3", "H3", "LJ")


def test_zk_pair_lead_pair_broken_out_of_a_tractor():
    # 000 第十一条 2(2): 引牌者出对子时，跟牌者必须先跟对子，即使从拖拉机中或刻子中拆出也要跟出对子
    hand = "D3 D3 D4 D4 D8 D9"
    assert not legal(ZK, hand, "DK DK", "D8 D9")
    assert not legal(ZK, hand, "DK DK", "D3 D4")
    assert legal(ZK, hand, "DK DK", "D4 D4")


def test_zk_pair_lead_pair_broken_out_of_a_triple():
    # 000 第十一条 2(2): 即使从 ... 刻子中拆出也要跟出对子
    assert not legal(ZK, "CQ CQ CQ C2 S3", "C9 C9", "CQ C2")
    assert legal(ZK, "CQ CQ CQ C2 S3", "C9 C9", "CQ CQ")


def test_zk_triple_lead_triple_broken_out_of_a_triple_tractor():
    # 000 第十一条 2(2): 引牌者出刻子时，跟牌者必须先跟刻子，即使从拖拉机中拆出也要跟出刻子
    hand = "S5 S5 S5 S6 S6 S6 S2 D3"
    assert not legal(ZK, hand, "S9 S9 S9", "S5 S5 S6")
    assert legal(ZK, hand, "S9 S9 S9", "S6 S6 S6")


def test_zk_triple_lead_without_triple_pair_then_single():
    # 000 第十一条 2(2): 如无刻子则跟对子，仍无对子则跟出单张
    assert not legal(ZK, "S4 S4 S8 SJ SQ", "SA SA SA", "S8 SJ SQ")
    assert legal(ZK, "S4 S4 S8 SJ SQ", "SA SA SA", "S4 S4 SQ")
    assert legal(ZK, "S4 S8 SJ SQ", "SA SA SA", "S4 SJ SQ")


def test_zk_pair_tractor_lead_pair_tractor_out_of_a_triple_tractor():
    # 000 第十一条 2(1): 跟牌者首先跟出与引牌者相同类型相同组合的牌
    hand = "S5 S5 S5 S6 S6 S6 S2"
    assert not legal(ZK, hand, "S9 S9 ST ST", "S5 S5 S5 S6")
    assert legal(ZK, hand, "S9 S9 ST ST", "S5 S5 S6 S6")


def test_zk_long_tractor_lead_shorter_tractor_then_pair():
    # 000 第十一条 2(2): 多对拖、少对拖、刻子、对子、单张
    hand = "S3 S3 S4 S4 S8 S8 SQ SK D2"
    lead = "S9 S9 ST ST SJ SJ"
    assert legal(ZK, hand, lead, "S3 S3 S4 S4 S8 S8")
    assert not legal(ZK, hand, lead, "S3 S3 S4 S4 SQ SK")
    assert not legal(ZK, hand, lead, "S3 S3 S8 S8 SQ SK")


def test_zk_triple_tractor_lead_pair_tractor_before_triple():
    # 000 第十一条 2(2): 同类型牌种跟牌顺序依次是：多刻拖、少刻拖、多对拖、少对拖、刻子、对子、单张
    hand = "S3 S3 S3 S5 S5 S6 S6 S8 SQ D2"
    lead = "S9 S9 S9 ST ST ST"
    assert legal(ZK, hand, lead, "S5 S5 S6 S6 S3 S3")
    assert not legal(ZK, hand, lead, "S3 S3 S3 S5 S5 S8")


def test_zk_triple_tractor_lead_cards_left_after_a_shorter_unit_take_pairs():
    """000 第十一条 2(1): 跟牌时要遵循同类型牌最高级别的最大可能相同原则; 2(2): 同类型牌种跟牌顺序依次是：多刻拖、
    少刻拖、多对拖、少对拖、刻子、对子、单张. The six cards of a 刻拖 met by a two-pair tractor leave two cards, which
    take a pair before singles; met by pairs apart, all three pairs (001 keeps its own 两对加两个单张: two)."""
    lead = "S9 S9 S9 ST ST ST"
    hand = "S3 S3 S4 S4 SJ SJ SK SQ D2"
    assert legal(ZK, hand, lead, "S3 S3 S4 S4 SJ SJ")
    assert not legal(ZK, hand, lead, "S3 S3 S4 S4 SK SQ")
    assert legal(CL, hand, lead, "S3 S3 S4 S4 SK SQ")
    apart = "S2 S2 S4 S4 SJ SJ S8 SQ D2"
    assert legal(ZK, apart, lead, "S2 S2 S4 S4 SJ SJ")
    assert not legal(ZK, apart, lead, "S2 S2 S4 S4 S8 SQ")
    assert legal(CL, apart, lead, "S2 S2 S4 S4 S8 SQ")
    # a three-刻拖: a two-pair tractor leaves five cards, room for a triple and a pair (刻子 before 对子)
    lead9 = "S9 S9 S9 ST ST ST SJ SJ SJ"
    hand9 = "S2 S2 S3 S3 S6 S6 S6 SK SK SQ D2"
    assert legal(ZK, hand9, lead9, "S2 S2 S3 S3 S6 S6 S6 SK SK")
    assert not legal(ZK, hand9, lead9, "S2 S2 S3 S3 S6 S6 SK SK SQ")


def test_zk_triple_tractor_lead_longest_pair_tractor_first():
    # 000 第十一条 2(1): 跟牌时要遵循同类型牌最高级别的最大可能相同原则; 2(2): 同类型牌种跟牌顺序依次是：
    # 多刻拖、少刻拖、多对拖、少对拖、刻子、对子、单张 -- a 刻拖 of six cards is met by the longest pair tractor
    # six cards hold (334455), before the shorter one (3344)
    hand = "S3 S3 S4 S4 S5 S5 S8 D2"
    lead = "S9 S9 S9 ST ST ST"
    assert legal(ZK, hand, lead, "S3 S3 S4 S4 S5 S5")
    assert not legal(ZK, hand, lead, "S3 S3 S4 S4 S5 S8")
    # the longer tractor outranks a triple too (多对拖 before 刻子), and a three-刻拖 lead takes four pairs
    assert not legal(ZK, "S3 S3 S4 S4 S5 S5 S8 S8 S8 D2", lead, "S8 S8 S8 S3 S3 S4")
    lead9 = "S9 S9 S9 ST ST ST SJ SJ SJ"
    hand9 = "S3 S3 S4 S4 S5 S5 S6 S6 S8 SK D2"
    assert legal(ZK, hand9, lead9, "S3 S3 S4 S4 S5 S5 S6 S6 S8")
    assert not legal(ZK, hand9, lead9, "S3 S3 S4 S4 S5 S5 S8 SK S6")


def test_cl_triple_tractor_lead_is_met_by_a_two_pair_tractor_only():
    # 001 十一: 当别人出（444333）拖拉机时，如无这类型的牌，要先跟两连拖（如8877）加两个单张 -- classic-3deck keeps
    # its own wording: a three-pair tractor is not demanded, two pairs of it and two singles will do
    hand = "S3 S3 S4 S4 S5 S5 S8 D2"
    lead = "S9 S9 S9 ST ST ST"
    assert legal(CL, hand, lead, "S3 S3 S4 S4 S5 S5")
    assert legal(CL, hand, lead, "S3 S3 S4 S4 S5 S8")


def test_zk_throw_lead_pair_part_must_be_met():
    # 000 第十一条 2(1): 首先跟出与引牌者相同类型相同组合的牌 (lead: pair + single thrown)
    assert not legal(ZK, "S3 S3 S5 S6 D2", "SA SA SK", "S3 S5 S6")
    assert legal(ZK, "S3 S3 S5 S6 D2", "SA SA SK", "S3 S3 S6")


def test_zk_throw_with_a_triple_tractor_must_be_met_by_a_triple_tractor():
    # 000 第六条 4: 同类型相邻级别的刻子可组合成刻拖; 第十一条 2(1): 跟牌者首先跟出与引牌者相同类型相同组合的牌
    # lead: 刻拖 999TTT thrown with SA; the follower holds the 刻拖 333444
    hand = "S3 S3 S3 S4 S4 S4 S5 S6 S8 D2"
    lead = "S9 S9 S9 ST ST ST SA"
    assert legal(ZK, hand, lead, "S3 S3 S3 S4 S4 S4 S8")
    assert not legal(ZK, hand, lead, "S3 S3 S4 S4 S5 S6 S8")


def test_zk_trump_pair_tractor_offsuit_and_trump_level_pairs():
    # 000 第五条/第六条 4: 副牌花色级牌 pair next to 主牌花色级牌 pair is a tractor, two off-suit
    # level pairs are not; 第十一条 2(1): the tractor must be followed
    hand = "S7 S7 C7 C7 H7 H7 H3"
    assert legal(ZK, hand, "HQ HQ HK HK", "S7 S7 H7 H7")
    assert not legal(ZK, hand, "HQ HQ HK HK", "S7 S7 C7 C7")


def test_zk_short_suit_all_of_it_then_anything():
    # 000 第十一条 2(1): 出完该类型的牌后才能跟出其它类型的牌
    assert legal(ZK, "S5 D2 D3 H4", "S9 S9 S9", "S5 H4 D3")
    assert not legal(ZK, "S5 D2 D3 H4", "S9 S9 S9", "D2 D3 H4")


def test_zk_discard_need_not_match_the_combination():
    # 000 第十二条 2: 垫牌只跟与引牌者相同的张数，不必先跟相同的牌种组合
    hand = "D3 D3 C5 C9 H4 H4"
    assert legal(ZK, hand, "S9 S9", "D3 C5")
    assert legal(ZK, hand, "S9 S9", "C9 H4")


def test_zk_ruling_names_the_requirement():
    # 000 第十一条 2(2): 引牌者出对子时，跟牌者必须先跟对子
    why = follow_ruling(ZK, C("S5 S5 S5 SK D3"), C("S9 S9"), C("S5 SK"))
    assert why is not None and "S5 S5" in said.words(why)
    assert follow_ruling(ZK, C("S5 S5 S5 SK D3"), C("S9 S9"), C("S5 S5")) is None


# ---- classic-3deck (seed 001 十一 ~ 十三) ---------------------------------------------------


def test_cl_tractor_lead_no_tractor_pairs_even_from_a_triple():
    # 001 十一: 当别人出拖拉机时，你必须跟出拖拉机，如无，必须出若干对子（三条亦要拆），如无对子时才可跟单张
    hand = "S5 S5 S5 SQ SQ S2 D4"
    lead = "S9 S9 ST ST"
    assert legal(CL, hand, lead, "S5 S5 SQ SQ")
    assert not legal(CL, hand, lead, "S5 S5 S5 S2")


def test_cl_tractor_lead_tractor_required():
    # 001 十一: 当别人出拖拉机时，你必须跟出拖拉机
    hand = "SJ SJ SQ SQ S3 S3"
    assert legal(CL, hand, "S8 S8 S9 S9", "SJ SJ SQ SQ")
    assert not legal(CL, hand, "S8 S8 S9 S9", "SJ SJ S3 S3")


def test_cl_triple_tractor_lead_two_pairs_and_two_singles():
    # 001 十一: 当别人出（444333）拖拉机时 ... 如无再跟两对加两个单张
    hand = "S3 S3 S5 S5 SJ SJ S2 SK D4"
    lead = "S9 S9 S9 ST ST ST"
    assert legal(CL, hand, lead, "S3 S3 S5 S5 S2 SK")
    assert legal(CL, hand, lead, "S3 S3 S5 S5 SJ SJ")
    assert not legal(CL, hand, lead, "S3 S3 SJ S5 S2 SK")


def test_cl_triple_tractor_lead_pair_tractor_and_two_singles():
    # 001 十一: 要先跟两连拖（如8877）加两个单张
    hand = "S3 S3 S3 S5 S5 S6 S6 S8 SQ D2"
    lead = "S9 S9 S9 ST ST ST"
    assert legal(CL, hand, lead, "S5 S5 S6 S6 S8 SQ")
    assert not legal(CL, hand, lead, "S3 S3 S3 S5 S5 S8")


def test_cl_pair_lead_pair_from_a_triple():
    # 001 十二: 当别人出对子时．你必须跟出对子，即使从拖拉机中或三条中拆出也要跟对子
    assert not legal(CL, "D9 D9 D9 D2 C3", "DK DK", "D9 D2")
    assert legal(CL, "D9 D9 D9 D2 C3", "DK DK", "D9 D9")


def test_cl_triple_lead_pair_plus_single():
    # 001 十三: 有“三条” 必须跟“三条”，如无可出一对加一单张，如无对子才可跟单张
    hand = "C4 C4 C4 C6 C6 CJ"
    assert legal(CL, hand, "CA CA CA", "C4 C4 C4")
    assert not legal(CL, hand, "CA CA CA", "C6 C6 CJ")


# ---- shaoguan-2023 and shaoguan-2023-nokitty (seed 003 6, 跟牌顺序、原则) -------------------


def test_sg_bomb_lead_bomb_first():
    # 003 6(1): 炸弹跟炸弹
    hand = "S5 S5 S5 S5 S6 S6 S7 S7 D2"
    assert legal(SG, hand, "S9 S9 S9 S9", "S5 S5 S5 S5")
    assert not legal(SG, hand, "S9 S9 S9 S9", "S6 S6 S7 S7")


def test_sg_bomb_lead_triple_and_single_before_two_pairs():
    # 003 6(1): 如出炸弹时，没炸弹跟拖拉机，没拖拉机跟“三条+散牌”，没三条跟2对，没对牌跟散牌
    hand = "S3 S3 S3 S5 S5 S9 S9 D2"
    assert legal(SG, hand, "S8 S8 S8 S8", "S3 S3 S3 S5")
    assert not legal(SG, hand, "S8 S8 S8 S8", "S5 S5 S9 S9")


def test_sg_bomb_lead_two_pairs_without_triple():
    # 003 6(1): 没三条跟2对
    hand = "S3 S3 S5 S5 S9 SQ D2"
    assert legal(SG, hand, "S8 S8 S8 S8", "S3 S3 S5 S5")
    assert not legal(SG, hand, "S8 S8 S8 S8", "S3 S3 S9 SQ")


def test_sg_three_pair_tractor_lead_tractor_not_bomb_plus_pair():
    # 003 6(1): 第一出牌方出连拖时，其他人只要有3连拖以上的牌就必须跟连拖，而不能选择性地跟“炸弹+对子”
    hand = "S3 S3 S4 S4 S5 S5 S9 S9 S9 S9 D2"
    lead = "SA SA SK SK SQ SQ"
    assert legal(SG, hand, lead, "S3 S3 S4 S4 S5 S5")
    assert not legal(SG, hand, lead, "S9 S9 S9 S9 S3 S3")


def test_sg_A_longest_connected_block_first():
    # 003 6(3) A: AAKKQQ牌型下的跟牌顺序：667777先于66777+散牌
    hand = "C6 C6 C7 C7 C7 C7 C9 CT D2"
    lead = "CA CA CK CK CQ CQ"
    assert legal(SG, hand, lead, "C6 C6 C7 C7 C7 C7")
    assert not legal(SG, hand, lead, "C6 C6 C7 C7 C7 C9")


def test_sg_A_after_the_tractor_a_pair_before_two_singles():
    """003 6(3): 一方出连拖时……以跟最多拖数为准，之后跟炸弹或拖拉机，三条、对子、散牌，依次类推; A: AAKKQQ牌型下的跟牌顺序：
    667777先于66777+散牌. Against AAKKQQ, 3333 4444 holds the tractor 3344 and then a pair (333344 or 334444); 333444 is
    the tractor and two singles, and was taken as good as either (the same block of six cards, two ranks). So after
    AAKKQQTT: 3333 44 55 (the tractor 334455, then the pair 33), not 333 444 55 (two singles)."""
    for t in (SG, Trumps.of("shaoguan-2023-nokitty", "J", "H")):
        hand, lead = "C3 C3 C3 C3 C4 C4 C4 C4 D2", "CA CA CK CK CQ CQ"
        assert legal(t, hand, lead, "C3 C3 C3 C3 C4 C4") and legal(t, hand, lead, "C3 C3 C4 C4 C4 C4")
        assert not legal(t, hand, lead, "C3 C3 C3 C4 C4 C4"), t.rules.id
        hand, lead = "C3 C3 C3 C3 C4 C4 C4 C5 C5 C5 D2", "CA CA CK CK CQ CQ CT CT"
        assert legal(t, hand, lead, "C3 C3 C3 C3 C4 C4 C5 C5")
        assert not legal(t, hand, lead, "C3 C3 C3 C4 C4 C4 C5 C5"), t.rules.id


def test_sg_A_four_big_two_little_jokers_all_six():
    # 003 6(3) A: 如果跟牌人有“四个大鬼两个小鬼”，那么需把六个鬼都跟出
    hand = "BJ BJ BJ BJ LJ LJ H3 H4 H5 D2"
    lead = "HA HA HK HK HQ HQ"
    assert legal(SG, hand, lead, "BJ BJ BJ BJ LJ LJ")
    assert not legal(SG, hand, lead, "BJ BJ BJ LJ LJ H3")


def test_sg_B_223333_before_22333_plus_single():
    # 003 6(3) B: AAAKKK牌型下的跟牌顺序：223344先于223333先于“22333+散牌”先于223355
    hand = "S2 S2 S3 S3 S3 S3 S8 S9 D4"
    lead = "SA SA SA SK SK SK"
    assert legal(SG, hand, lead, "S2 S2 S3 S3 S3 S3")
    assert not legal(SG, hand, lead, "S2 S2 S3 S3 S3 S8")


def test_sg_B_22333_plus_single_before_2233_plus_55():
    # 003 6(3) B: “22333+散牌”先于223355
    hand = "S2 S2 S3 S3 S3 S5 S5 S9 D4"
    lead = "SA SA SA SK SK SK"
    assert legal(SG, hand, lead, "S2 S2 S3 S3 S3 S9")
    assert not legal(SG, hand, lead, "S2 S2 S3 S3 S5 S5")


def test_sg_C_eight_connected_before_seven():
    # 003 6(3) C: AAAAKKKK牌型下的跟牌顺序：11223344 先于“1112222+散牌”
    hand = "S3 S3 S4 S4 S5 S5 S6 S6 S8 S8 S8 S9 S9 S9 S9"
    lead = "SA SA SA SA SK SK SK SK"
    assert legal(SG, hand, lead, "S3 S3 S4 S4 S5 S5 S6 S6")
    assert not legal(SG, hand, lead, "S8 S8 S8 S9 S9 S9 S9 S3")


def test_sg_C_1112222_before_1122333():
    # 003 6(3) C: “1112222+散牌”先于“1122333+散牌”或“1112233+散牌”或“1122233+散牌”
    hand = "S3 S3 S3 S4 S4 S4 S4 S7 S7 S8 S8 S9 S9 S9 D2"
    lead = "SA SA SA SA SK SK SK SK"
    assert legal(SG, hand, lead, "S3 S3 S3 S4 S4 S4 S4 S9")
    assert not legal(SG, hand, lead, "S7 S7 S8 S8 S9 S9 S9 S3")


def test_sg_C_1122333_and_1112233_are_equal_choices():
    # 003 6(3) C: “1122333+散牌”或“1112233+散牌”或“1122233+散牌” (either may be played)
    hand = "S3 S3 S3 S4 S4 S5 S5 S8 S8 S9 S9 ST ST ST D2"
    lead = "SA SA SA SA SK SK SK SK"
    assert legal(SG, hand, lead, "S3 S3 S3 S4 S4 S5 S5 S8")
    assert legal(SG, hand, lead, "S8 S8 S9 S9 ST ST ST S3")
    assert not legal(SG, hand, lead, "S8 S8 S9 S9 ST ST S3 S3")


def test_sg_C_111222_99_before_112233_55():
    # 003 6(3) C: 11122299先于112233 55先于QQQQ9999
    hand = "S3 S3 S3 S4 S4 S4 S7 S7 S8 S8 S9 S9 SQ SQ D2"
    lead = "SA SA SA SA SK SK SK SK"
    assert legal(SG, hand, lead, "S3 S3 S3 S4 S4 S4 SQ SQ")
    assert not legal(SG, hand, lead, "S7 S7 S8 S8 S9 S9 S3 S3")


def test_sg_C_QQQQ9999_before_QQQQ8899():
    # 003 6(3) C: QQQQ9999先于QQQQ 8899先于QQJJ 8899
    t = Trumps.of("shaoguan-2023", "5", "H")
    hand = "SQ SQ SQ SQ S9 S9 S9 S9 S7 S7 S6 S6 D2"
    lead = "SA SA SA SA SK SK SK SK"
    assert legal(t, hand, lead, "SQ SQ SQ SQ S9 S9 S9 S9")
    assert not legal(t, hand, lead, "SQ SQ SQ SQ S7 S7 S6 S6")


def test_sg_C_QQJJ_999_before_QQJJ_9977():
    # 003 6(3) C: QQJJ 999* 先于QQJJ 9977先于QQQ 999 7 7
    t = Trumps.of("shaoguan-2023", "5", "H")
    hand = "SQ SQ SJ SJ S9 S9 S9 S7 S7 S3 D2"
    lead = "SA SA SA SA SK SK SK SK"
    assert legal(t, hand, lead, "SQ SQ SJ SJ S9 S9 S9 S3")
    assert not legal(t, hand, lead, "SQ SQ SJ SJ S9 S9 S7 S7")


def test_sg_tractor_bombed_follower_may_choose_bomb_or_tractor():
    # 003 6(2): 如果第一家出的是两连对的拖拉机，被第二或第三家炸弹炸了，后面跟牌者既有拖拉机，又有炸弹，
    # 可选择性跟拖拉机或跟炸弹
    hand = "S5 S5 S6 S6 S9 S9 S9 S9 D2"
    lead = "SQ SQ SK SK"
    assert not legal(SG, hand, lead, "S9 S9 S9 S9")  # nobody bombed: the tractor (6(1))
    assert legal(SG, hand, lead, "S5 S5 S6 S6")
    assert legal(SG, hand, lead, "S9 S9 S9 S9", before=["S3 S3 S3 S3"])
    assert legal(SG, hand, lead, "S5 S5 S6 S6", before=["S3 S3 S3 S3"])
    assert not legal(SG, hand, lead, "S5 S5 S9 S9", before=["S3 S3 S3 S3"])  # one of the two, not two pairs
    assert legal(SG, hand, lead, "S9 S9 S9 S9", before=["D4 D8", "H3 H3 H3 H3"])
    # a bomb of another side suit is a discard, not a bomb on the tractor (003 7(1): 只有主牌可以枪副牌)
    assert not legal(SG, hand, lead, "S9 S9 S9 S9", before=["D3 D3 D3 D3"])


def test_sg_three_pair_tractor_met_by_a_triple_tractor_follower_may_choose():
    # 003 6(2): ... 可选择性跟拖拉机或跟炸弹，依此类推 (3(4): 两个3条相连比3连拖大)
    hand = "S3 S3 S3 S4 S4 S4 S5 S5 S6 S6 S8 S8 D2"
    lead = "SQ SQ SK SK SA SA"
    assert not legal(SG, hand, lead, "S3 S3 S3 S4 S4 S4")
    assert legal(SG, hand, lead, "S3 S3 S3 S4 S4 S4", before=["S9 S9 S9 ST ST ST"])
    assert legal(SG, hand, lead, "S4 S4 S5 S5 S6 S6", before=["S9 S9 S9 ST ST ST"])


def test_sg_nokitty_two_follows_a_trump_lead():
    # 003 不留底牌打法 2: “2”作常主 -- D2 is a trump, not a diamond
    assert not legal(NK, "D2 D3 H4", "S9", "D3")
    assert legal(NK, "D2 D3 H4", "S9", "D2")
    assert legal(NK, "H2 D3 D4", "H9", "D3")


# ---- the judge op (README: follow) ---------------------------------------------------------


def _case(**kw):
    case = {"id": "f", "game": "tractor", "op": "follow", "rulebook": "zhongkai-2010", "level": "7", "trump": "H"}
    case.update(kw)
    return case


def test_op_follow_play_not_in_hand_is_an_error():
    # README: a `play` that is not part of the `hand` is malformed
    out = answer(_case(hand=["S5", "S6", "SK"], lead=["S9", "S9"], play=["S5", "S5"]))
    assert "error" in out and "result" not in out


def test_op_follow_wrong_number_of_cards_is_an_error():
    # 000 第十一条 2: 跟牌张数与引牌相同; README: a wrong number of cards is malformed
    out = answer(_case(hand=["S5", "S6", "SK"], lead=["S9", "S9"], play=["S5"]))
    assert "error" in out and "result" not in out


def test_cl_two_trump_pairs_of_two_suits_are_pairs_not_a_tractor():
    # 001 十一: “拖拉机”：相邻级别的同一花色的对子 ... 如无，必须出若干对子: with no tractor in hand, any two
    # pairs meet a two-pair tractor (HA HA with S7 S7 is no tractor there; under 000 第六条 4 it is one)
    hand, lead = "HA HA S7 S7 H5 H5 H2 D4", "HQ HQ HK HK"
    assert legal(CL, hand, lead, "H5 H5 S7 S7")
    assert not legal(ZK, hand, lead, "H5 H5 S7 S7")
    assert legal(CL, "S7 S7 H7 H7 H5 H5 H2 D4", lead, "H5 H5 S7 S7")
