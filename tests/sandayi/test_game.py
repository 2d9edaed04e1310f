"""One game through the state: dealing, the kitty, turn order, leads, follows, passes, bomb
limits in play, and the end of the game (附件一 二 发牌, 出牌规则, 炸弹限制, 牌型大小).

出牌规则：庄家先出牌，然后按逆时针顺序依次出牌，轮到某个玩家时，其可以选择“不出”或出比上一个玩家大的牌，
首先出完所有手牌的玩家获胜。
"""

import said

from referee.cards import Cards, Decks
from referee.climbing.combos import Reading
from referee.rulebooks import load
from referee.sandayi.game import Event, Game, GameError, deal_cards, replay


def C(s):
    return Cards.parse(s)


def passes(game, *seats):
    for seat in seats:
        game = game.pass_(seat)
    return game


# The dealer's 33 cards after the kitty: a 14-card straight, an airplane, a full house, a bomb.
STRAIGHT14 = "SA S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK HA"
AIRPLANE = "D3 D3 C3 D4 D4 C4 D5 D5 D6 D6"
FULL_HOUSE = "HK HK CK HQ HQ"
BOMB = "H9 H9 C9 C9"
KITTY = "D3 D3 C3 D4 D4 C4 D5 D5"
DEALER_S = f"{STRAIGHT14} D6 D6 {FULL_HOUSE} {BOMB}"


# -- dealing and the kitty ------------------------------------------------------------------


def test_deal_starts_with_the_first_bidder(rules):
    """发牌: 从首先叫牌者开始逆时针依次发牌。每人发25张牌，留8张底牌。"""
    pack = list(Decks(2).full())
    hands, kitty = deal_cards(rules, pack, "N")
    assert [len(hands[s]) for s in "SENW"] == [25, 25, 25, 25] and len(kitty) == 8
    assert pack[0] in hands["N"] and pack[1] in hands["W"] and pack[2] in hands["S"] and pack[3] in hands["E"]
    assert Cards.join([*hands.values(), kitty]) == Decks(2).full()
    with said.raises(GameError, "has 108 cards, not 107"):
        deal_cards(rules, pack[:-1], "S")


def test_start_checks_the_deal(rules, deal):
    hands, kitty = deal()
    short = dict(hands, E=hands["E"] - C(str(next(iter(hands["E"])))))
    with said.raises(GameError, "E holds 24 cards; each player is dealt 25"):
        Game.start(rules, short, kitty, "S")
    with said.raises(GameError, "the kitty holds 7 cards"):
        Game.start(rules, hands, kitty - C(str(next(iter(kitty)))), "S")
    doubled = dict(hands, S=hands["N"])
    with said.raises(GameError, "appears .* times, but 2 decks hold only 2"):
        Game.start(rules, doubled, kitty, "S")
    with said.raises(GameError, "exactly the seats"):
        Game.start(rules, {s: hands[s] for s in "SEN"}, kitty, "S")
    with said.raises(GameError, "unknown seat"):
        Game.start(rules, hands, kitty, "X")


def test_kitty_goes_to_the_dealer_only(new_game):
    """决定庄家后，8张底牌发给庄家，其他选手无法看到底牌。"""
    g = new_game("S", [1, 2, "pass", "pass"], take=False, kitty=KITTY)
    assert g.phase == "kitty" and g.dealer == "E"
    with said.raises(GameError, "only the dealer \\(E\\) takes the kitty"):
        g.take_kitty("S")
    with said.raises(GameError, "once the dealer has taken the kitty"):
        g.play("E", g.hand("E").distinct()[:1])
    t = g.take_kitty("E")
    assert len(t.hand("E")) == 33 and t.hand("E").contains(C(KITTY)) and t.phase == "declaring"
    with said.raises(GameError, "the kitty is taken by the dealer once the bidding ends"):
        t.take_kitty("E")


def test_bids_go_through_the_game_in_turn(new_game):
    g = new_game("W", [1])
    assert g.turn == "S" and g.phase == "bidding"
    with said.raises(GameError, "it is S's turn to bid"):
        g.bid("E", 2)
    with said.raises(GameError, "higher than 1"):
        g.bid("S", 1)
    with said.raises(GameError, "the first bidder must bid at least 1"):
        new_game("W").bid("W", "pass")


# -- turns, leads and follows ---------------------------------------------------------------


def test_the_dealer_leads_first(new_game):
    """庄家先出牌"""
    g = new_game("S", [2, "pass", "pass", "pass"], S="S3 S3 H3 S5 S5", E="D7")
    assert g.turn == "S" and g.leading
    with said.raises(GameError, "it is S's turn"):
        g.play("E", "D7")
    with said.raises(GameError, "S leads and cannot pass"):
        g.pass_("S")


def test_play_goes_counter_clockwise_and_must_beat_the_last(new_game):
    """然后按逆时针顺序依次出牌，轮到某个玩家时，其可以选择“不出”或出比上一个玩家大的牌"""
    g = new_game("S", [1, "pass", "pass", "pass"], S="S3 S3 H3 S5 S5 SA", E="D7 D7 C7 C8 C8", N="HQ HQ CQ D4 D4", W="CJ CJ SJ SQ SQ")
    g = g.play("S", "S3 S3 H3 S5 S5")
    assert g.turn == "E" and g.last.reading == Reading("full_house", 0 * 16 + 2, 5)  # 333 then 55 (附带的对子会影响大小)
    g = g.play("E", "D7 D7 C7 C8 C8")  # 777+88 beats 333+55
    with said.raises(GameError, "it is N's turn"):
        g.play("W", "CJ CJ SJ SQ SQ")
    g = g.pass_("N")
    with said.raises(GameError, r"S: SA \(single\) does not beat C8 C8 D7 D7 C7 \(full house\)"):
        g.pass_("W").play("S", "SA")
    g = g.play("W", "CJ CJ SJ SQ SQ")  # an ally may beat an ally
    assert [(s, p is not None) for s, p in g.history] == [("S", True), ("E", True), ("N", False), ("W", True)]


def test_a_follow_of_another_type_or_size_does_not_beat(new_game):
    """非炸弹牌型，张数相同才能比较大小; 单顺和双顺的大小比较，需要张数相同"""
    g = new_game("S", [1, "pass", "pass", "pass"], S="S3 D4 C5 H6 S7", E="S4 D5 C6 H7 S8 S9 HA HA")
    g = g.play("S", "S3 D4 C5 H6 S7")
    with said.raises(GameError, r"E: S9 S8 H7 C6 D5 S4 \(straight\) does not beat S7 H6 C5 D4 S3 \(straight\)"):
        g.play("E", "S4 D5 C6 H7 S8 S9")  # six cards on five
    with said.raises(GameError, "does not beat"):
        g.play("E", "HA HA")
    assert g.play("E", "S4 D5 C6 H7 S8").last.reading == Reading("straight", 8, 5)


def test_sequences_rank_by_their_top_card_with_two_low(new_game):
    """单顺和双顺的大小比较 … 由顺子中最大的牌点数大小决定(2在顺子中的牌点比3小)"""
    g = new_game("S", [1, "pass", "pass", "pass"], S="SA D2 C3 H4 S5", E="H2 D3 C4 H5 S6", N="HT HJ HQ HK CA")
    g = g.play("S", "SA D2 C3 H4 S5").play("E", "H2 D3 C4 H5 S6").play("N", "HT HJ HQ HK CA")
    assert g.last.reading == Reading("straight", 14, 5)


def test_bombs_beat_plain_plays_and_bigger_bombs_beat_smaller(new_game):
    """炸弹根据张数决定大小，依次是：八张炸弹>七张炸弹>…>四张炸弹。天王炸弹大于所有其他的牌型。"""
    g = new_game(
        "S", [3], S="SA SA HA HA DA", E="S4 S4 H4 H4", N="C3 C3 D3 D3 S3", W="LJ LJ BJ BJ",
    )  # fmt: skip
    g = g.play("S", "SA SA HA")  # a triple
    g = g.play("E", "S4 S4 H4 H4")  # four 4s beat AAA
    g = g.play("N", "C3 C3 D3 D3 S3")  # five 3s beat four 4s
    g = g.play("W", "LJ LJ BJ BJ")
    assert g.last.reading.type == "joker_bomb"
    with said.raises(GameError, "does not beat"):
        g.play("S", "HA DA")


def test_after_three_passes_the_last_player_leads_anything(new_game):
    """轮到某个玩家时，其可以选择“不出”: once the three others pass, the last player leads again."""
    g = new_game("E", [1, "pass", "pass", "pass"], E="S3 S3 H3 S5 S5 SK")
    g = g.play("E", "S3 S3 H3 S5 S5")
    g = passes(g, "N", "W")
    assert g.turn == "S" and not g.leading
    g = g.pass_("S")
    assert g.turn == "E" and g.leading and g.last is None
    assert g.play("E", "SK").last.reading.type == "single"


def test_bad_plays_are_refused_and_change_nothing(new_game):
    g = new_game("S", [1, "pass", "pass", "pass"], S="S3 S4 S6")
    before = (g.hand("S"), g.turn, g.history)
    with said.raises(GameError, "S: S4 S3 is not a combination of usst-2016"):
        g.play("S", "S3 S4")
    with said.raises(GameError, "is not in the hand"):
        g.play("S", "BJ BJ")
    with said.raises(GameError, "at least one card"):
        g.play("S", [])
    with said.raises(GameError, "unknown card 'X9'"):
        g.play("S", ["X9"])
    with said.raises(GameError, "cannot be read as"):
        g.play("S", "S3", reading=Reading("pair", 0, 2))
    assert (g.hand("S"), g.turn, g.history) == before
    assert g.play("S", "S3").turn == "E"


# -- bomb limits in play --------------------------------------------------------------------


def test_bomb_limits_by_bid_in_play(new_game):
    """叫2分的选手——限制当局最多打2次“炸弹”；未轮到叫牌的选手——没有限制。"""
    g = new_game(
        "S", [2, "pass", 3],  # S bids 2, E passes, N bids 3: W is never asked
        N="S3", S="H5 H5 S5 S5 H8 H8 S8 S8 HQ HQ SQ SQ", W="D4 D4 C4 C4 D6 D6 C6 C6 DT DT CT CT",
    )  # fmt: skip
    assert g.dealer == "N"
    g = g.play("N", "S3")
    g = g.play("W", "D4 D4 C4 C4").play("S", "H5 H5 S5 S5")
    g = passes(g, "E", "N").play("W", "D6 D6 C6 C6").play("S", "H8 H8 S8 S8")
    g = passes(g, "E", "N").play("W", "DT DT CT CT")  # W's third bomb: no limit
    assert (g.bombs_played("W"), g.bombs_played("S")) == (3, 2)
    assert not g.bomb_allowed("S") and g.bomb_allowed("W")
    with said.raises(GameError, "S bid 2 and has played 2 bomb\\(s\\): no more bombs this game"):
        g.play("S", "HQ HQ SQ SQ")
    assert g.pass_("S").turn == "E"


def test_a_player_who_passed_has_one_bomb_even_when_leading(new_game):
    """轮到叫牌且选择“不叫”的选手——限制当局最多打1次“炸弹”。"""
    g = new_game("S", [1, "pass", 2, "pass"], N="S3", E="H7 H7 S7 S7 HJ HJ SJ SJ SK")
    g = g.play("N", "S3").pass_("W").pass_("S").play("E", "H7 H7 S7 S7")
    g = passes(g, "N", "W", "S")
    assert g.turn == "E" and g.leading
    with said.raises(GameError, "E passed and has played 1 bomb"):
        g.play("E", "HJ HJ SJ SJ")
    assert g.play("E", "SK").turn == "N"


def test_the_joker_bomb_uses_up_a_bomb(new_game):
    """叫1分的选手——限制当局最多打1次“炸弹” — 天王炸弹 is a bomb."""
    g = new_game("S", [1, 2, "pass", "pass"], E="S3", S="H5 H5 S5 S5 LJ LJ BJ BJ")
    g = g.play("E", "S3").pass_("N").pass_("W").play("S", "H5 H5 S5 S5")
    g = passes(g, "E", "N", "W")
    with said.raises(GameError, "S bid 1 and has played 1 bomb"):
        g.play("S", "LJ LJ BJ BJ")
    assert g.play("S", "LJ LJ").last.reading.type == "pair"  # two little jokers are a pair, not a bomb


def test_the_dealer_has_no_bomb_limit(new_game):
    """庄家——没有限制"""
    g = new_game("S", [1, "pass", "pass", "pass"], S="H5 H5 S5 S5 H6 H6 S6 S6 H7 H7 S7 S7")
    for bomb in ("H5 H5 S5 S5", "H6 H6 S6 S6", "H7 H7 S7 S7"):
        g = passes(g.play("S", bomb), "E", "N", "W")
    assert g.bombs_played("S") == 3 and g.bomb_allowed("S")


# -- the end of the game --------------------------------------------------------------------


def test_the_dealer_wins_by_running_out_first(new_game):
    """首先出完所有手牌的玩家获胜 — the dealer alone."""
    g = new_game("S", [1, "pass", "pass", "pass"], kitty=KITTY, S=DEALER_S)
    for play in (STRAIGHT14, AIRPLANE, FULL_HOUSE):
        g = g.play("S", play)
        assert g.phase == "playing"
        g = passes(g, "E", "N", "W")
    g = g.play("S", BOMB)
    assert g.over and g.winner == "dealer" and g.ended_by == "out" and g.turn is None
    assert g.scores == {"S": 3, "E": -1, "N": -1, "W": -1}
    with said.raises(GameError, "the game is over"):
        g.pass_("E")
    with said.raises(GameError, "the game is over"):
        g.foul("E", "talking")


def test_any_ally_running_out_wins_for_the_three(new_game):
    """庄家独自对抗另3名选手组成的同盟，先出完牌的一方获胜。"""
    g = new_game(
        "S", [2, "pass", "pass", "pass"], S="S3 S3 H3 S5 S5",
        W="CA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA D7 D7 D8 D8 C9 C9 CJ CJ SJ SQ SQ",
    )  # fmt: skip
    g = g.play("S", "S3 S3 H3 S5 S5").pass_("E").pass_("N").play("W", "CJ CJ SJ SQ SQ")
    g = passes(g, "S", "E", "N").play("W", "CA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA")
    assert g.last.reading == Reading("straight", 14, 14)
    g = passes(g, "S", "E", "N").play("W", "D7 D7 D8 D8 C9 C9")
    assert g.over and g.winner == "allies" and g.side("W") == "allies"
    assert g.scores == {"S": -6, "E": 2, "N": 2, "W": 2}


def test_events_replay_a_logged_game(rules, deal):
    hands, kitty = deal(kitty=KITTY, S=DEALER_S)
    events = [Event("bid", "S", 1), Event("bid", "E", "pass"), Event("bid", "N", "pass"), Event("bid", "W", "pass"), Event("take_kitty", "S")]
    for play in (STRAIGHT14, AIRPLANE, FULL_HOUSE):
        events += [Event("play", "S", play), Event("pass", "E"), Event("pass", "N"), Event("pass", "W")]
    g = replay(Game.start(rules, hands, kitty, "S"), events + [Event("play", "S", BOMB)])
    assert g.winner == "dealer"
    with said.raises(GameError, "unknown event 'shout'"):
        g.apply(Event("shout", "S"))


def test_a_play_of_more_cards_than_a_seat_holds_is_refused_without_telling_a_secret_count():
    """三（一）3: 报牌……10张以外回答“不报” -- above 10 cards a seat's count is the players' secret, so the refusal
    of a play of more cards than it holds (a misread, on the public timeline) does not tell it; at 10 or fewer it does."""
    u = Game.start_unseen(load("usst-2016"), "S").bid("S", 3).take_kitty("S")
    with said.raises(GameError, r"^S holds fewer than 34 cards and cannot play them$"):
        u.play("S", Cards(list(Decks(2).full())[:34]))
    u = passes(u.play("S", STRAIGHT14), "E", "N", "W")
    u = passes(u.play("S", AIRPLANE), "E", "N", "W")
    assert u.count("S") == 9
    with said.raises(GameError, r"^S holds 9 cards and cannot play 10$"):
        u.play("S", "H7 H7 C7 C8 C8 H8 HT HT CT CT")
