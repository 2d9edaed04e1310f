"""Edges of one game that the seed's text settles (附件一 二 出牌规则, 炸弹限制, 特殊规则介绍): the last card, bombs in
a scored game, a game won with no card of the other side played.

The seed's scoring is 叫分 (the base), 头撂, 摊打 and 报到 only: it has no bomb multiplier and no 春天 (spring), so
neither bombs played nor a side that never played a card changes a game's score.
"""

import said

from referee.sandayi.game import GameError

W_CARDS = "H7 H7 S7 S7 CA C2 C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK DA HQ HQ SQ H8 H8 S8 S8"  # a bomb, a 14-straight, a triple, a bomb


def passes(game, *seats):
    for seat in seats:
        game = game.pass_(seat)
    return game


def test_a_player_at_the_bomb_limit_cannot_go_out_on_a_bomb_but_may_split_it(new_game):
    """轮到叫牌且选择“不叫”的选手——限制当局最多打1次“炸弹” — the limit holds for the last cards too: W, who passed,
    has used its bomb and holds 8888 at the end; as a bomb it is refused, as two pairs it goes out (首先出完所有手牌的
    玩家获胜) and the three win."""
    g = new_game("S", [1, "pass", "pass", "pass"], S="S3", W=W_CARDS)
    g = g.play("S", "S3").pass_("E").pass_("N").play("W", "H7 H7 S7 S7")  # W's one bomb
    g = passes(g, "S", "E", "N").play("W", "CA C2 C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK DA")
    g = passes(g, "S", "E", "N").play("W", "HQ HQ SQ")
    g = passes(g, "S", "E", "N")
    assert g.turn == "W" and g.leading and g.count("W") == 4
    with said.raises(GameError, "W passed and has played 1 bomb"):
        g.play("W", "H8 H8 S8 S8")
    g = passes(g.play("W", "H8 H8"), "S", "E", "N").play("W", "S8 S8")
    assert g.over and g.winner == "allies" and g.ended_by == "out"
    assert g.scores == {"S": -3, "E": 1, "N": 1, "W": 1}  # a bid of 1, plain: the bomb changes nothing


def test_bombs_played_and_a_side_that_never_played_leave_the_score_plain(new_game):
    """The dealer plays three bombs and the joker bomb, the three play none and never a card (no 春天 in 004): a bid
    of 2 won scores 3 bases, 6, as any plain win (二: 叫分最高的选手成为庄家; the base is the bid)."""
    bombs = ["H5 H5 S5 S5", "H6 H6 S6 S6 D6", "H9 H9 S9 S9 D9 D9 C9 C9", "LJ LJ BJ BJ"]
    g = new_game("E", [1, 2, "pass", "pass"], N=" ".join(bombs))
    assert g.dealer == "N" and g.bid_value == 2
    for cards in bombs:
        g = passes(g.play("N", cards), "W", "S", "E")
    for card in g.hand("N"):  # the rest led one by one, nobody following
        g = g.play("N", card.code)
        if not g.over:
            g = passes(g, "W", "S", "E")
    assert g.over and g.winner == "dealer" and g.bombs_played("N") == 4
    assert [g.count(s) for s in "SEW"] == [25, 25, 25]
    assert g.scores == {"S": -2, "E": -2, "N": 6, "W": -2}


def test_a_player_who_passed_may_play_when_the_turn_comes_round_again(new_game):
    """轮到某个玩家时，其可以选择“不出”或出比上一个玩家大的牌 — each turn is a choice: E passes on S's 3 and beats N's 5
    the next time round; a pass is no promise for the rest of the trick."""
    g = new_game("S", [1, "pass", "pass", "pass"], S="S3 S9", E="HJ", N="H5")
    g = g.play("S", "S3").pass_("E").play("N", "H5").pass_("W").play("S", "S9")
    assert g.turn == "E" and not g.leading
    g = g.play("E", "HJ")
    assert g.last.seat == "E" and g.turn == "N"


def test_a_dealer_who_reported_and_plays_on_then_is_ruled_the_loser_scores_zero_like_any_loss(new_game):
    """A reading the seed leaves open, written down: 报到 …如果选择“打”…如庄家输牌则本局所有选手得分为0, and 三: 被记过2次
    及以上犯规，作输者处理. The engine composes them literally: a dealer ruled the loser after 报到(打) has lost the game,
    and a loss after 报到(打) scores 0 for all; an ally ruled the loser pays the doubled win alone."""
    g = new_game("S", [2, "pass", "pass", "pass"], S="S4 S4 D4 D4 C4 C4 H4").report("S", play=True)
    lost = g.foul("S", "talking").foul("S", "peeking")
    assert lost.over and lost.winner == "allies" and lost.offender == "S"
    assert lost.scores == {"S": 0, "E": 0, "N": 0, "W": 0}
    won = g.foul("N", "talking").foul("N", "hurrying")
    assert won.scores == {"S": 12, "E": 0, "N": -12, "W": 0}
