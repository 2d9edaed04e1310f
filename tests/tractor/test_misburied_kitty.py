"""A kitty shown with another number of cards than the book's (多埋/少埋底牌, the ``misburied_kitty`` penalty).

Seed 003 (留底牌打法) 12(4): 若打牌时发现庄家多埋或少埋底牌，则对方在所得分数的基础上加160分。若多牌时庄家从底牌里
抽回多埋的张数，底牌少牌时则庄家丢弃少埋的张数，但若丢弃的是分牌，所丢弃分数再加到对方所得分数。
"""

import pytest

from referee.cards import Cards, Decks
from referee.rulebooks import load
from referee.tractor.game import Penalty, penalties_of, settle
from referee.tractor.hand import HandError, HandJudge
from referee.tractor.trumps import Trumps

SG = Trumps.of("shaoguan-2023", "7", "H")
TRICK = [("S", "SK"), ("E", "S3"), ("N", "S4"), ("W", "S5")]  # S (the dealer) takes 15 points


def played(t=SG):
    j = HandJudge.start(t, "S")
    for seat, cards in TRICK:
        j = j.play(seat, Cards.parse(cards))
    return j


def test_a_kitty_of_nine_is_the_dealers_misburial_and_costs_160():
    # 12(4): 庄家多埋……则对方在所得分数的基础上加160分; 多牌时庄家从底牌里抽回多埋的张数: nothing is discarded
    j = played().show_kitty(Cards.parse("D2 D3 D4 D6 D7 D8 D9 C3 C4")).finish()
    [r] = [r for r in j.rulings if r.kind == "misburied_kitty"]
    assert (r.seat, r.cards, r.detail.key) == ("S", (), "tractor.kitty_misburied")
    rules = load("shaoguan-2023")
    penalties = penalties_of(rules, list(j.rulings))
    assert penalties == [Penalty("misburied_kitty", "S", 1, 0)]
    assert settle(rules, "S", j.defender_points(), penalties).defender_points == 0 + 160


def test_a_short_kitty_before_every_card_was_seen_names_no_discarded_card():
    # 底牌少牌时则庄家丢弃少埋的张数: which cards, the table knows only once every card the seats held was played
    j = played().show_kitty(Cards.parse("D2 D3 D4 D6 D7 D8 D9")).finish()
    [r] = [r for r in j.rulings if r.kind == "misburied_kitty"]
    assert r.cards == () and r.detail.key == "tractor.kitty_misburied"


def test_the_point_cards_a_short_kitty_left_with_the_dealer_go_to_the_defenders():
    # 但若丢弃的是分牌，所丢弃分数再加到对方所得分数: every card played, the kitty short of ST and S5
    kitty = Cards.parse("D2 D3 D4 D6 D7 D8 ST S5")
    rest = list(Decks(4).full() - kitty)
    hands = {s: Cards(rest[i * 52 : (i + 1) * 52]) for i, s in enumerate("SENW")}
    j = HandJudge.start(SG, "S")
    while any(hands.values()):  # singles, each seat its highest-coded card: a judge needs no legal follows here
        seat = j.expected_seat()
        for _ in range(4):
            card = Cards([max(hands[seat], key=str)])
            j, hands[seat] = j.play(seat, card), hands[seat] - card
            seat = "SENW"[("SENW".index(seat) + 1) % 4]
    j = j.show_kitty(Cards.parse("D2 D3 D4 D6 D7 D8")).finish()
    [r] = [r for r in j.rulings if r.kind == "misburied_kitty"]
    assert sorted(r.cards) == ["S5", "ST"] and r.detail.key == "tractor.kitty_discarded" and r.detail["points"] == 15
    rules = load("shaoguan-2023")
    penalties = [p for p in penalties_of(rules, list(j.rulings)) if p.kind == "misburied_kitty"]  # (these plays revoke too)
    assert penalties == [Penalty("misburied_kitty", "S", 2, 15)]
    assert settle(rules, "S", j.defender_points(), penalties).defender_points == j.defender_points() + 160 + 15


@pytest.mark.parametrize("rulebook", ["zhongkai-2010", "classic-3deck", "shaoguan-2023-nokitty"])
def test_books_without_the_penalty_refuse_a_kitty_of_another_size(rulebook):
    # only 003 留底 12(4) rules on it; 000 第十九条 makes sure of the kitty before it is taken (确保底牌有6张牌)
    t = Trumps.of(rulebook, "7", "H")
    size = t.rules.deal.kitty
    with pytest.raises(HandError) as e:
        played(t).show_kitty(Cards.parse(" ".join(["D2", "D3", "D4", "D6", "D7", "D8", "D9", "C3"][: size + 1])))
    assert e.value.reason.key == "tractor.kitty_size"
