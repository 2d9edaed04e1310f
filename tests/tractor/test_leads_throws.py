"""Leads (引牌) and throws (甩牌): what may be led, and whether a throw stands."""

from referee.cards import Cards
from referee.judge import answer
from referee.tractor.follow import lead_structure
from referee.tractor.game import penalties_of, settle
from referee.tractor.hand import HandJudge
from referee.tractor.leads import failing_units, judge_lead
from referee.tractor.trumps import Trumps


def C(s):
    return Cards.parse(s)


ZK = Trumps.of("zhongkai-2010", "7", "H")
CL = Trumps.of("classic-3deck", "7", "H")
SG = Trumps.of("shaoguan-2023", "J", "H")
NK = Trumps.of("shaoguan-2023-nokitty", "5", "S")


def lead_ok(t, cards, declared=None):
    return judge_lead(t, C(cards), [C(p) for p in declared] if declared else None).legal


def failing(t, throw, declared=None, **others):
    ruling = judge_lead(t, C(throw), [C(p) for p in declared] if declared else None)
    assert ruling.legal, ruling.reason
    structure = ruling.structure
    return [str(u) for u in failing_units(t, structure, {s: C(h) for s, h in others.items()})]


# ---- leads ---------------------------------------------------------------------------------


def test_single_units_are_legal_leads():
    # 000 第六条 1~4: 单张、对子、刻子、拖拉机 (对拖, 刻拖); 001 十一 ~ 十三
    for cards in ("S3", "S3 S3", "S3 S3 S3", "S3 S3 S4 S4", "S3 S3 S3 S4 S4 S4", "LJ LJ BJ BJ"):
        assert lead_ok(ZK, cards) and lead_ok(CL, cards), cards


def test_lead_mixing_trump_and_side_suit_is_illegal():
    # 000 第五条: 主牌、不同的副牌花色牌之间为不同类型的牌种; 第六条 5: 主牌或某门副牌花色牌 ... 甩牌
    assert not lead_ok(ZK, "S3 D3")
    assert not lead_ok(ZK, "S7 S8")  # S7 is a level card, a trump, not a spade


def test_throw_of_one_suit_is_a_legal_lead_where_throws_exist():
    # 000 第六条 5 and 001 十四: 甩牌 ... 可同时一齐打出（可包括单张、对子、刻子、拖拉机等）
    assert lead_ok(ZK, "SA SK")
    assert lead_ok(CL, "SA SA SK")
    assert lead_ok(CL, "BJ BJ LJ")  # trumps may be thrown too: 主牌或某门副牌花色牌


def test_shaoguan_has_no_throws():
    # 003 9: 比赛不采用甩牌 ... 打法，即使剩下的全是同一花色中最大的散牌也不能甩牌 (both 打法)
    for t in (SG, NK):
        assert not lead_ok(t, "SA SK"), t.rules.id
        assert not lead_ok(t, "SA SA SK"), t.rules.id


def test_shaoguan_a_throw_led_costs_20_points_a_card():
    """003 9: 比赛不采用甩牌（先出牌者将2张以上的散牌同时出）打法; 13: 牌一经触桌，不得收回(跟错牌除外)……如出现出错牌……一张
    牌罚20分; 17: 没有按照规则出牌……按20分/张进行扣分. The dealer S leads three singles: the lead stands, ruled with its three
    cards, and costs 60 (it was priced as one card, 20)."""
    for t in (SG, NK):
        j = HandJudge.start(t, "S")
        for seat, cards in (("S", "SA SK SQ"), ("E", "S3 S4 S6"), ("N", "S7 S8 S9"), ("W", "D3 D4 D6")):
            j = j.play(seat, C(cards))
        [ruling] = j.rulings
        assert (ruling.kind, ruling.cards) == ("illegal_lead", ("SA", "SK", "SQ")), t.rules.id
        assert settle(t.rules, "S", 0, penalties_of(t.rules, list(j.rulings))).defender_points == 60, t.rules.id


def test_shaoguan_formats_are_legal_leads():
    # 003 2: 拖拉机 ... 连拖 ... 推土机：两个以上同花色三条相连的牌 ... 炸弹 ... 地雷
    for cards in ("S5 S5 S6 S6", "S5 S5 S6 S6 S7 S7", "S5 S5 S5 S6 S6 S6", "S8 S8 S8 S8", "D8 D8 D8 D8 D9 D9 D9 D9"):
        assert lead_ok(SG, cards), cards


def test_shaoguan_no_triple_plus_pair_or_bomb_plus_triple_tractor():
    # 003 2: 也不存在“三条+对牌”的拖拉机或“炸弹+三条”的拖拉机
    assert not lead_ok(SG, "S4 S4 S4 S5 S5")
    assert not lead_ok(SG, "S5 S5 S5 S5 S6 S6 S6")


def test_classic_captive_must_be_declared():
    # 001 十五: 规定“俘虏”不能出，相连的俘虏也不能出（如44433）。除非当“甩牌”出牌，要说明“甩牌”的结构
    assert not lead_ok(CL, "S4 S4 S4 S3 S3")
    assert lead_ok(CL, "S4 S4 S4 S3 S3", declared=["S4 S4 S4", "S3 S3"])
    assert lead_ok(CL, "S4 S4 S4 S3 S3", declared=["S4 S4 S3 S3", "S4"])


def test_classic_captive_declared_structure_must_split_into_units():
    # 001 十五: 要说明“甩牌”的结构（三条加一对或拖拉机加一单张）
    assert not lead_ok(CL, "S4 S4 S4 S3 S3", declared=["S4 S4", "S4 S3 S3"])
    assert not lead_ok(CL, "S4 S4 S4 S3 S3", declared=["S4 S4 S4", "S3"])


def test_classic_any_triple_with_a_pair_is_a_captive():
    # 001 十五: 同一花色的“三条”加一“对子”，俗称“俘虏”。... 规定“俘虏”不能出 ... 除非当“甩牌”出牌，要说明“甩牌”的结构
    assert not lead_ok(CL, "SA SA SA S3 S3")
    assert lead_ok(CL, "SA SA SA S3 S3", declared=["SA SA SA", "S3 S3"])
    assert lead_ok(CL, "SA SA SA S3")  # a triple with a single is no captive


def test_classic_triples_in_a_tractor_with_pairs_are_a_captive_too():
    """001 十五: 同一花色的“三条”加一“对子”，俗称“俘虏”。由于“三条”与“对子”是不同的结构，规定“俘虏”不能出……除非当
    “甩牌”出牌，要说明“甩牌”的结构. A 刻拖 is 三条 side by side (十一: 444333), a 对拖 对子 side by side: they are the
    same two structures, so 333444 with AA, and 333 with AAKK, are captives to declare as AAA with 33 is."""
    assert not lead_ok(CL, "S3 S3 S3 S4 S4 S4 SA SA")
    assert lead_ok(CL, "S3 S3 S3 S4 S4 S4 SA SA", declared=["S3 S3 S3 S4 S4 S4", "SA SA"])
    assert not lead_ok(CL, "S3 S3 S3 SA SA SK SK")
    assert lead_ok(CL, "S3 S3 S3 SA SA SK SK", declared=["S3 S3 S3", "SA SA SK SK"])
    assert lead_ok(CL, "S3 S3 S3 S4 S4 S4 SA") and lead_ok(CL, "SA SA SK SK S3")  # no pair, no triple
    assert lead_ok(ZK, "S3 S3 S3 S4 S4 S4 SA SA")  # 000 第十一条 1: undeclared, the 上家 names it after the trick


def test_zhongkai_captive_without_declaration_is_legal():
    # 000 第十一条 1: 引牌者没有声明甩牌结构，则待本圈各家跟牌完成后由引牌者上家指定甩牌结构
    assert lead_ok(ZK, "S4 S4 S4 S3 S3")


def test_lead_structure_of_a_throw():
    # 000 第六条 5: 甩牌 (可包括单张、对子、刻子、拖拉机等或其中若干种)
    kinds = sorted(u.kind for u in lead_structure(CL, C("SA SA SK SK SQ S3 S3 S3")))
    assert kinds == [(1, 1), (2, 2), (3, 1)]


def test_classic_triple_tractor_with_a_single_needs_no_declaration():
    # 001 十四: 可同时一齐放出（可包括单张，对子，三条，拖拉机）; 十一: （444333）拖拉机;
    # 十五: only “三条”加一“对子” is a 俘虏 -- 999TTT + A is a 刻拖 and a single
    ruling = judge_lead(CL, C("S9 S9 S9 ST ST ST SA"))
    assert ruling.legal, ruling.reason
    assert sorted(u.kind for u in ruling.structure) == [(1, 1), (3, 2)]


def test_zhongkai_throw_reads_the_triple_tractor_as_one_unit():
    # 000 第六条 4: 同类型相邻级别的刻子可组合成刻拖; 5: 甩牌 ... 可包括单张、对子、刻子、拖拉机等
    assert sorted(u.kind for u in lead_structure(ZK, C("S9 S9 S9 ST ST ST SA"))) == [(1, 1), (3, 2)]
    assert sorted(u.kind for u in lead_structure(ZK, C("SQ SQ SQ SK SK SK S3"))) == [(1, 1), (3, 2)]


# ---- throws: do they stand? ------------------------------------------------------------------


def test_throw_stands_when_nobody_can_beat_a_unit():
    # 001 十四: 当确认这门花色手中的牌是最大级别时，可同时一齐放出
    assert failing(CL, "SA SA SA SK", E="SK SQ SQ D3", N="S2 S3 H4", W="D4 C5") == []


def test_throw_fails_on_a_higher_single():
    # 001 十九: 甩错牌
    assert failing(CL, "SA SA SK", E="SA S3 D3", N="S2 C3", W="D4 C5") == ["SK"]


def test_throw_fails_on_a_higher_pair():
    # 001 十四/十九: 当确认这门花色手中的牌是最大级别时 ... 甩错牌 (KK beats the thrown QQ)
    assert failing(CL, "SA SA SA SQ SQ", ["SA SA SA", "SQ SQ"], E="SK SK S3", N="S2", W="D4") == ["SQ SQ"]


def test_a_ruff_never_breaks_a_throw():
    # 001 十四: 当确认这门花色手中的牌是最大级别时 -- only cards of the thrown suit count
    assert failing(CL, "SA SA SK", E="H3 H3 H4 BJ", N="D3", W="C4") == []


def test_equal_unit_does_not_break_a_throw():
    # 000 第十二条 2: 相同牌色 ... 以最先打牌者为大 -- an equal single cannot beat the thrown single
    assert failing(CL, "SA SA SQ", E="SQ S2", N="SJ S3", W="D4") == []


def test_strict_reading_zhongkai_split_triple_beaten_by_a_pair():
    # 000 第六条 5: 即使分拆为较低较小牌种组合后，仍然分别是最大级别时，可同时一齐打出
    others = dict(E="SK SK S2", N="D3", W="C4")
    assert failing(ZK, "ST ST ST SA", **others) == ["ST ST ST"]
    # 001 十四 has no such clause: the triple can be beaten only by a higher triple
    assert failing(CL, "ST ST ST SA", **others) == []


def test_strict_reading_zhongkai_split_tractor_beaten_by_a_pair():
    # 000 第六条 5: 多种牌种组合即使分拆为较低较小牌种组合后，仍然分别是最大级别
    others = dict(E="SJ SJ S2", N="D3", W="C4")
    assert failing(ZK, "S9 S9 ST ST SA", **others) == ["ST ST S9 S9"]
    assert failing(CL, "S9 S9 ST ST SA", **others) == []


def test_forced_unit_is_the_smallest_failing_unit_fewest_cards():
    # 000 第十六条: 按规定出所甩错的最低最小级别牌种组合
    throw, declared = "SQ SQ SQ S9 S9", ["SQ SQ SQ", "S9 S9"]
    assert failing(CL, throw, declared, E="SK SK SK", N="ST ST", W="D4") == ["S9 S9", "SQ SQ SQ"]


def test_forced_unit_is_the_lowest_among_equal_sizes():
    # 000 第十六条: 最低最小级别牌种组合
    assert failing(CL, "SA SQ S9", E="SK S2", N="D3", W="C4") == ["S9", "SQ"]


def _throw_case(rulebook, cards, others, declared=None):
    case = {"id": "t", "game": "tractor", "op": "throw", "rulebook": rulebook, "level": "7", "trump": "H",
            "cards": cards.split(), "others": {s: h.split() for s, h in others.items()}}
    if declared:
        case["declared"] = [p.split() for p in declared]
    return case


def test_op_throw_failed_names_the_forced_unit():
    # 000 第十六条: 甩牌不成立，按规定出所甩错的最低最小级别牌种组合
    out = answer(_throw_case("zhongkai-2010", "SA SA SK SQ", {"E": "SA S3 S3", "N": "SK", "W": "D4"}))
    assert out["result"] == {"valid": False, "forced": ["SQ"]}


def test_op_throw_valid():
    # 001 十四: 当确认这门花色手中的牌是最大级别时，可同时一齐放出
    out = answer(_throw_case("classic-3deck", "SA SA SA SK", {"E": "SK SQ", "N": "S2", "W": "D4"}))
    assert out["result"] == {"valid": True}


def test_op_throw_classic_declared_captive():
    # 001 十五: 除非当“甩牌”出牌，要说明“甩牌”的结构 -- declared as triple + pair, E's higher pair beats the pair
    case = _throw_case("classic-3deck", "S4 S4 S4 S3 S3", {"E": "S5 S5 D2", "N": "D3", "W": "C4"},
                       declared=["S4 S4 S4", "S3 S3"])
    assert answer(case)["result"] == {"valid": False, "forced": ["S3", "S3"]}


def test_op_lead_classic_captive_undeclared():
    # 001 十五: 规定“俘虏”不能出，相连的俘虏也不能出（如44433）
    case = {"id": "l", "game": "tractor", "op": "lead", "rulebook": "classic-3deck", "level": "7", "trump": "H",
            "cards": ["S4", "S4", "S4", "S3", "S3"]}
    assert answer(case)["result"] == {"legal": False}
