"""A wrong card count once play has begun (牌张数目不符, 多牌/少牌), as each book rules it: its ``[wrong_count]`` and
``wrong_card_count`` entry, read when the book loads; a seat out of cards sits out (``HandJudge.sit_out``), a seat that
held cards back when the others were out is ruled on them (``HandJudge.held_back``), and the hand is settled."""

import random
from dataclasses import replace

import pytest

from referee.cards import Cards
from referee.rulebooks import RulebookError, build, load
from referee.rulebooks import settings_of as book_settings
from referee.tractor.bots import deal, legal_follow
from referee.tractor.game import Penalty, penalties_of, settle
from referee.tractor.hand import HandError, HandJudge
from referee.tractor.scoring import Outcome, outcome
from referee.tractor.trumps import Trumps


def played_out(book: str, seed: int, short: str = "E", lost: int = 2, held: str | None = None) -> HandJudge:
    """A hand dealt by S (hearts trump), singles led and legal follows; ``short`` lacks ``lost`` cards (``held`` drew
    them, its point cards first, or they fell under the table) and sits out once it has none; ``held`` shows them when the others are out."""
    rules, rng = load(book), random.Random(seed)
    trumps = Trumps(rules, rules.deal.start_level, "H")
    hands, kitty = deal(rules.deal.decks, rules.deal.kitty, rng)
    gone = Cards(sorted(hands[short], key=lambda c: -c.points if held else 0)[:lost])  # those held back: point cards
    hands[short] -= gone
    j = HandJudge.start(trumps, "S")
    while any(hands.values()):
        seat = j.expected_seat()
        if not hands[seat]:
            j = j.sit_out(seat)
            continue
        trick = j.tricks[-1] if j.tricks and not j.tricks[-1].complete else None
        cards = legal_follow(trumps, hands[seat], trick.plays[0][1], rng, [c for _, c in trick.plays[1:]]) if trick \
            else Cards(list(hands[seat])[:1])
        j = j.play(seat, cards)
        hands[seat] -= cards
    if held:
        j = j.held_back(held, gone)
    return j.show_kitty(kitty).finish()


def settled(j: HandJudge):
    rules = j.trumps.rules
    return settle(rules, j.dealer, j.defender_points(), penalties_of(rules, list(j.rulings)))


def test_each_book_says_what_a_wrong_count_costs_citing_its_article():
    """000 第十九条: 判无错方自动升一级; 双方均出现牌张数目不符情况，则重新该盘竞赛. 001 二十一: 无错方升级。如双方均错，则重新该局
    比赛. 003 12(1)(2) (both ways of playing): 庄家方多牌/少牌 非庄家方先加20分/张, 非庄家方 先扣20分/张; 12(1): 若丢弃的是分牌
    则直接把分数加给非庄家方 (the cards a seat holds back count against it); 000 and 001 do not say (won by nobody)."""
    for book, article, levels, points, held in (("zhongkai-2010", "第十九条", 1, 0, "nobody"), ("classic-3deck", "二十一", 1, 0, "nobody"),
                                                ("shaoguan-2023", "12：", 0, 20, "offender"), ("shaoguan-2023-nokitty", "不留底牌打法 12", 0, 20, "offender")):
        rules = load(book)
        entry = rules.penalties["wrong_card_count"]
        assert rules.wrong_count.article.startswith(article) and rules.wrong_count.held_points == held
        assert (entry.levels, entry.points, entry.per_card, entry.both_sides) == (levels, points, bool(points), "replay" if levels else None)


def test_a_book_whose_wrong_count_costs_nothing_or_cites_no_article_does_not_load():
    raw = book_settings("classic-3deck")
    del raw["penalties"]["wrong_card_count"]
    with pytest.raises(RulebookError, match="wrong_card_count"):
        build(raw, "classic-3deck.toml")
    raw = book_settings("classic-3deck")
    raw["wrong_count"]["article"] = ""
    with pytest.raises(RulebookError, match="article"):
        build(raw, "classic-3deck.toml")


@pytest.mark.parametrize("book", ["zhongkai-2010", "classic-3deck"])
def test_a_seat_out_of_cards_sits_out_and_the_side_not_at_fault_goes_up(book):
    """000 第十九条: 如果只有某家牌张数目不符，则判无错方自动升一级，竞赛仍需继续，直到无错方出完最后一圈牌为止，以定升级级数;
    001 二十一: 无错方升级. E (a defender) lacks two cards: it sits out the last two tricks, which the others play; the
    defenders' points would have taken the deal, the dealer's side goes up instead (one level, or more where its own
    points say so)."""
    j = played_out(book, seed=0)
    [ruling] = [r for r in j.rulings if r.kind == "wrong_card_count"]
    assert (ruling.seat, ruling.trick, ruling.count, ruling.detail.key) == ("E", 38, 2, "tractor.out_of_cards")
    assert j.out == ("E",) and [len(t.plays) for t in j.tricks[-3:]] == [4, 3, 3] and len(j.tricks) == 39
    assert outcome(j.trumps.rules, j.defender_points()).side == "defenders"
    assert settled(j).outcome == Outcome("dealer", 1)


@pytest.mark.parametrize("book", ["shaoguan-2023", "shaoguan-2023-nokitty"])
def test_a_defender_short_of_cards_costs_the_defenders_20_points_a_card(book):
    """003 12(2): 有一方少牌……若非庄家方少牌，则非庄家方先扣20分/张，然后少牌方继续跟牌，到出完牌为止."""
    j = played_out(book, seed=0)
    assert j.out == ("E",) and "E" not in dict(j.tricks[-1].plays)
    assert settled(j).defender_points == j.defender_points() - 40


def test_both_sides_at_fault_replay_the_hand():
    """000 第十九条 and 001 二十一: 双方均出现牌张数目不符情况，则重新该盘竞赛 / 如双方均错，则重新该局比赛: E's two cards were
    drawn by N, who holds them when the others are out."""
    for book in ("zhongkai-2010", "classic-3deck"):
        assert settled(played_out(book, seed=1, held="N")).outcome is None


@pytest.mark.parametrize("book", ["shaoguan-2023", "shaoguan-2023-nokitty"])
def test_opponents_as_many_cards_short_and_too_many_pay_nothing(book):
    """003 12(3): 对手之间双方都有多牌少牌现象，且多和少的张数一样，则由少牌方抽掉多牌方手上的牌作为补充，互不扣分. E lacks two
    cards that N (the dealer's partner) drew and still holds when the others are out; both confirmed. The defenders' points
    stand as won: the two sides' 20 a card cancelled out, but N's held cards' points (two tens) went to the defenders.
    One card fewer held by N is no longer even: each side pays its own (12(1), 12(2))."""
    j = played_out(book, seed=3, held="N")
    assert [(r.seat, r.count) for r in j.rulings] == [("E", 2), ("N", 2)] and j.rulings[-1].points == 20
    assert penalties_of(j.trumps.rules, list(j.rulings)) == []
    assert settled(j).defender_points == j.defender_points()
    uneven = [j.rulings[0], replace(j.rulings[1], count=1, cards=j.rulings[1].cards[:1])]
    assert [p.seat for p in penalties_of(j.trumps.rules, uneven)] == ["E", "N"]


def test_the_cards_a_seat_held_back_count_against_its_side_where_the_book_says():
    """003 12(1): 若非庄家方多牌，则非庄家方先扣20分/张，然后多牌方将手上的任意牌丢弃，若丢弃的是分牌则直接再扣除自己与丢弃分牌
    相等的分数. W held back E's two cards: its ruling costs 20 a card and their points; under 000 (silent) only the level."""
    for book, points in (("shaoguan-2023", True), ("zhongkai-2010", False)):
        j = played_out(book, seed=3, held="W")
        [held] = [r for r in j.rulings if r.seat == "W"]
        cards = Cards.parse(held.cards)
        assert (held.kind, held.count, held.detail.key, held.points) == ("wrong_card_count", 2, "tractor.held_too_many", cards.points * points)
        assert penalties_of(j.trumps.rules, [held]) == [Penalty("wrong_card_count", "W", 2, cards.points * points)]
    assert cards.points == 20  # two tens: the test means something


def test_only_the_seat_on_turn_can_be_out_of_cards_and_a_finished_hand_takes_no_more():
    j = played_out("classic-3deck", seed=0, lost=0)
    with pytest.raises(HandError, match="hand_over"):
        j.sit_out("S")
    with pytest.raises(HandError, match="hand_over"):
        j.held_back("S", Cards.parse("S3"))
    fresh = HandJudge.start(Trumps(load("classic-3deck"), "2", "H"), "S")
    with pytest.raises(HandError, match="not_on_turn"):
        fresh.sit_out("E")


def test_a_seat_out_of_cards_and_its_partner_holding_them_cost_their_side_once():
    """000 第十九条: 如果只有某家牌张数目不符，则判无错方自动升一级 (one level to the side not at fault, however many of the
    other side's seats show it); 003 12(3): 同是一方出现以上情况，如庄家方出现，则非庄家分方以20分/张进行加分，如非庄家方出现
    则以20分/张进行扣分. E's two cards were drawn by its partner W: E runs out (flagged, confirmed) and W shows them at
    the end (flagged, confirmed). Both confirmed cost the defenders 2 levels (000) and 80 points (003): the referee
    had to know to dismiss one of the two."""
    j = played_out("zhongkai-2010", seed=3, held="W")
    assert [(r.seat, r.count) for r in j.rulings if r.kind == "wrong_card_count"] == [("E", 2), ("W", 2)]
    assert outcome(j.trumps.rules, j.defender_points()).levels <= 1
    assert settled(j).outcome == Outcome("dealer", 1)
    j = played_out("shaoguan-2023", seed=3, held="W")
    held = Cards.parse(j.rulings[-1].cards).points
    assert held == 20 and settled(j).defender_points == j.defender_points() - 20 * 2 - held
