"""Trumps and grades: card order, equal off-suit level cards, adjacency for tractors."""

from referee.cards import Card, Cards
from referee.tractor.follow import lead_structure
from referee.tractor.leads import judge_lead
from referee.tractor.tricks import trick_winner
from referee.tractor.trumps import Trumps


def C(s):
    return Cards.parse(s)


def pos(t, name):
    return t.position(Card.parse(name))


def winner(t, *plays):
    return trick_winner(t, [C(p) for p in plays])


ZK = Trumps.of("zhongkai-2010", "7", "H")
SG = Trumps.of("shaoguan-2023", "J", "H")
NK = Trumps.of("shaoguan-2023-nokitty", "5", "S")


def test_zhongkai_trump_order():
    # 000 第五条: 主牌的牌色大小依次是大王、小王、主牌花色级牌、副牌花色级牌、主牌花色牌
    order = ["BJ", "LJ", "H7", "S7", "HA", "HK", "H8", "H6", "H2"]
    grades = [pos(ZK, c) for c in order]
    assert grades == sorted(grades, reverse=True) and len(set(grades)) == len(grades)
    assert all(ZK.is_trump(Card.parse(c)) for c in order)


def test_side_suit_order_skips_the_level_card():
    # 000 第五条: 同门花色牌的牌色大小依次是A、K、Q ... 3、2（注意副牌花色级牌属于主牌，应除外）
    order = ["SA", "SK", "SQ", "SJ", "ST", "S9", "S8", "S6", "S5", "S4", "S3", "S2"]
    grades = [pos(ZK, c) for c in order]
    assert grades == sorted(grades, reverse=True) and len(set(grades)) == len(grades)
    assert not ZK.is_trump(Card.parse("SA"))
    assert ZK.suit_of(Card.parse("S7")) == "T" and ZK.suit_of(Card.parse("S8")) == "S"


def test_trump_beats_any_side_card():
    # 000 第五条: 不同类型牌的大小（含优先序）依次是主牌、副牌花色牌
    assert winner(ZK, "SA", "SK", "H2", "SQ") == 2


def test_off_suit_level_cards_are_equal_first_played_wins():
    # 000 第十二条 2: 每圈竞赛相同牌色、或相同组合的各家中以最先打牌者为大
    # 000 第六条 4: 不同副牌花色级牌 ... 因级别相等
    assert pos(ZK, "S7") == pos(ZK, "D7") == pos(ZK, "C7")
    assert winner(ZK, "H3", "D7", "S7", "C7") == 1
    assert winner(ZK, "H3", "H4", "C7", "D7") == 2


def test_trump_suit_level_card_beats_off_suit_level_card():
    # 000 第五条: 主牌花色级牌、副牌花色级牌
    assert winner(ZK, "H3", "C7", "H7", "D7") == 2


def test_little_joker_beats_trump_level_card_and_big_joker_beats_little():
    # 000 第五条: 大王、小王、主牌花色级牌
    assert winner(ZK, "H7", "LJ", "H7", "BJ") == 3


def test_shaoguan_trump_order():
    # 003 3(1): 大王、小王、主牌花色级牌、其他级牌、主牌花色牌（A、K ... 2）、副牌花色牌
    order = ["BJ", "LJ", "HJ", "SJ", "HA", "HK", "HQ", "HT", "H2"]
    grades = [pos(SG, c) for c in order]
    assert grades == sorted(grades, reverse=True) and len(set(grades)) == len(grades)
    assert pos(SG, "SJ") == pos(SG, "DJ") == pos(SG, "CJ")
    assert winner(SG, "H2", "CJ", "SJ", "HA") == 1


def test_level_rank_is_skipped_for_adjacency():
    # 000 第五条 (副牌花色级牌属于主牌，应除外): at level 7, 6 and 8 are adjacent in a side suit
    assert len(lead_structure(ZK, C("S6 S6 S8 S8"))) == 1
    # shaoguan has no throws (003 9), so a legal four-card lead of two pairs must be a tractor
    assert judge_lead(Trumps.of("shaoguan-2023", "7", "H"), C("S6 S6 S8 S8")).legal


def test_trump_chain_forms_tractors():
    # 000 第五条 order (大王、小王、主牌花色级牌、副牌花色级牌、主牌花色牌) makes these grades adjacent:
    # trump A -> off-suit level -> trump level -> LJ -> BJ; 003 3(2): “大鬼大鬼小鬼小鬼>AAKK”
    for cards in ("HA HA S7 S7", "S7 S7 H7 H7", "H7 H7 LJ LJ", "LJ LJ BJ BJ"):
        structure = lead_structure(ZK, C(cards))
        assert len(structure) == 1 and structure[0].kind == (2, 2), cards


def test_one_suit_books_join_only_pairs_of_one_printed_suit():
    # 001 十一: “拖拉机”：相邻级别的同一花色的对子; 003 2: 拖拉机：两对以上同花色同数字相连的牌,
    # 3(2): “大鬼大鬼小鬼小鬼>AAKK” (the jokers join: one suit). Zhongkai joins trumps of any suit (above).
    CL = Trumps.of("classic-3deck", "7", "H")
    for book in (CL, Trumps.of("shaoguan-2023", "7", "H"), Trumps.of("shaoguan-2023-nokitty", "7", "H")):
        for cards in ("HA HA S7 S7", "S7 S7 H7 H7", "H7 H7 LJ LJ"):
            assert len(lead_structure(book, C(cards))) == 2, (book.rules.id, cards)
        assert len(lead_structure(book, C("LJ LJ BJ BJ"))) == 1
        assert len(lead_structure(book, C("HK HK HA HA"))) == 1
    # two trump pairs of two suits are no tractor: they do not beat a side suit's tractor ruffed with one
    assert winner(CL, "SQ SQ SK SK", "H3 H3 H4 H4", "HA HA S7 S7", "D2 D3 D4 D5") == 1
    assert winner(ZK, "SQ SQ SK SK", "H3 H3 H4 H4", "HA HA S7 S7", "D2 D3 D4 D5") == 2
    # shaoguan leads no throw (9: 比赛不采用甩牌打法), so two pairs of two suits cannot be led together
    assert not judge_lead(SG, C("HA HA SJ SJ")).legal and not judge_lead(SG, C("SJ SJ HJ HJ")).legal


def test_off_suit_level_pairs_never_form_a_tractor():
    # 000 第六条 4: 不同副牌花色级牌所构成的对子或刻子之间因级别相等，不能组合成拖拉机
    assert len(lead_structure(ZK, C("S7 S7 D7 D7"))) == 2
    assert not judge_lead(SG, C("SJ SJ DJ DJ")).legal


def test_nokitty_every_two_is_a_permanent_trump():
    # 003 不留底牌打法 2: “2”作常主
    for c in ("S2", "H2", "D2", "C2"):
        assert NK.is_trump(Card.parse(c))
    # 003 留底牌打法 1: “2”不作常主
    assert not SG.is_trump(Card.parse("S2"))


def test_nokitty_twos_rank_between_trump_ace_and_level_cards():
    # 003 4(1) with 2 作常主: level cards above the 2s, the 2s above the trump-suit A,
    # the trump-suit 2 above the off-suit 2s (project decision)
    assert pos(NK, "SA") < pos(NK, "H2") == pos(NK, "D2") == pos(NK, "C2") < pos(NK, "S2")
    assert pos(NK, "S2") < pos(NK, "H5") < pos(NK, "S5") < pos(NK, "LJ") < pos(NK, "BJ")
    assert winner(NK, "S3", "SA", "D2", "S2") == 3
    assert winner(NK, "S3", "S2", "H5", "C2") == 2


def test_shaoguan_low_ace_AA22_is_a_tractor_and_the_lowest():
    # 003 2: 拖拉机 ... 如方块1122; 3(2): “... >3344>AA22”
    assert judge_lead(SG, C("SA SA S2 S2")).legal
    assert winner(SG, "SA SA S2 S2", "S3 S3 S4 S4") == 1
    assert winner(SG, "S3 S3 S4 S4", "SA SA S2 S2") == 0


def test_shaoguan_ace_is_still_high_next_to_king():
    # 003 3(2): “大鬼大鬼小鬼小鬼>AAKK>KKQQ>……”
    assert judge_lead(SG, C("SA SA SK SK")).legal
    assert winner(SG, "SK SK SQ SQ", "SA SA SK SK") == 1


def test_shaoguan_tractor_cannot_turn_the_corner():
    # 003 2: 拖拉机的组成不能拐弯，如：红桃QQKK112233
    assert not judge_lead(SG, C("SK SK SA SA S2 S2")).legal
    assert not judge_lead(SG, C("DQ DQ DK DK DA DA D2 D2 D3 D3")).legal


def test_zhongkai_has_no_low_ace():
    # 000 第二条/第五条: A、K ... 3、2 in one line; A and 2 are not adjacent
    assert len(lead_structure(ZK, C("SA SA S2 S2"))) == 2
