"""A seat holding the wrong number of cards (多牌/少牌) once play has begun: the table asks a person as soon as the cards
show it, and a confirmed wrong count is ruled by the book's ``[wrong_count]`` and ``wrong_card_count`` entry while the
hand is played out (the seat out of cards sits out the tricks left). Before, every trick waited for a play from each
seat: a seat out of cards stalled the hand, which neither finished nor could be ruled at the table."""

import random

from bus.protocol import encode
import pytest

from referee.cards import Cards
from referee.catalogue.sentences import Sentences
from referee.seats import SEATS
from referee.table.reducer import CLOCK, UNTIMED_STALL_S
from referee.table.tables import new_table
from referee.tractor.bots import deal, legal_follow


class Table:
    """One Tractor table fed as the camera, the board and the console would; every output checked against its schema."""

    def __init__(self, rulebook: str):
        self.table, self.at, self.seq, self.outputs = new_table("t1", rulebook), 1000.0, 0, []

    def send(self, name, payload, dt=1.0):
        self.at += dt
        self.seq += 1
        payload = {"v": 1, "id": f"m{self.seq}", **payload} | ({} if name == "commands" else {"at": self.at})
        self.table, out = self.table.apply(name, payload, self.at, self.seq)
        for o in out:
            encode(o.name, o.payload)
        encode("state", self.table.state(self.at))
        self.outputs += out

    def show(self, seat, cards):
        self.send("observed", {"seat": seat, "cards": Cards(cards).names(), "confidence": 0.99})

    def payloads(self, name, kind=None):
        return [o.payload for o in self.outputs if o.name == name and kind in (None, o.payload["kind"])]

    def dealt(self, seed, short="E", lost=2):
        """The round started, S declared hearts and took the kitty; the hands of the deal, ``short`` without ``lost`` of
        its cards (they fell under the table), and the kitty."""
        self.send("commands", {"command": "start_round"})
        for seat in SEATS:
            self.send("board/in", {"seat": seat, "button": "ready"})
        self.send("observed", {"seat": "S", "cards": ["H" + self.table.game.hand_level()], "confidence": 0.99})
        self.send("board/in", {"seat": "E", "button": "declare"})
        self.send("board/in", {"seat": "S", "button": "ready"}, dt=6.0)
        hands, kitty = deal(self.table.rules.deal.decks, self.table.rules.deal.kitty, random.Random(seed))
        gone = Cards(list(hands[short])[:lost])
        return {s: h - gone if s == short else h for s, h in hands.items()}, kitty, gone

    def play_out(self, hands, rng):
        """Singles led, legal follows, until every seat has played out; a seat with no card left presses ``pass`` and
        the referee confirms its flag."""
        while self.table.phase in ("kitty", "playing"):
            seat = self.table.turn()
            if hands[seat]:
                self.step(hands, rng)
                continue
            self.send("board/in", {"seat": seat, "button": "pass"})
            self.send("commands", {"command": "confirm", "flag": self.table.flags[-1].flag})

    def step(self, hands, rng):
        """The seat on turn plays: a single when it leads, else a legal follow."""
        seat, judge = self.table.turn(), self.table.judge
        trick = judge.tricks[-1] if judge and judge.tricks and not judge.tricks[-1].complete else None
        cards = legal_follow(self.table.trumps, hands[seat], trick.plays[0][1], rng, [c for _, c in trick.plays[1:]]) if trick \
            else Cards(list(hands[seat])[:1])
        self.show(seat, cards)
        hands[seat] -= cards


def test_a_seat_out_of_cards_two_tricks_early_sits_out_and_the_other_side_goes_up():
    """001 二十一: 牌张数目不符，当比赛中途发现某家牌张数目不符，无错方升级. E (a defender) holds 37 cards: on its turn in
    trick 38 it has none and presses ``pass``; the table flags it for the referee (the camera may have missed a card),
    who confirms; E sits out tricks 38 and 39, the hand is played out by the three others and settled: the defenders'
    215 points would have taken the deal and a level (五: 180—235 防家升一级), but the dealer's side, not at fault, goes up
    a level and keeps the deal."""
    d = Table("classic-3deck")
    hands, kitty, _ = d.dealt(seed=2)
    d.play_out(hands, random.Random(2))
    [flag_raised] = d.payloads("events", "flag_raised")
    assert (flag_raised["data"]["seat"], flag_raised["data"]["kind"]) == ("E", "wrong_card_count")
    assert flag_raised["data"]["why"] == {"key": "tractor.pass_pressed", "values": {"n": 37, "size": 39, "short": 2}}
    flagged, confirmed = d.payloads("violations")
    assert (flagged["status"], confirmed["status"], confirmed["seat"], confirmed["kind"]) == ("flagged", "confirmed", "E", "wrong_card_count")
    assert confirmed["rule"]["article"].startswith("二十一") and confirmed["penalty"] == {"levels": 1}
    assert confirmed["evidence"]["why"] == {"key": "tractor.out_of_cards", "values": {"n": 37, "size": 39}}
    assert confirmed["evidence"]["trick"] == 38
    tricks = d.table.judge.tricks
    assert len(tricks) == 39 and [t.seats for t in tricks[-3:]] == [4, 3, 3] and "E" not in dict(tricks[-1].plays)
    assert d.payloads("events", "hand_played") and d.table.phase == "hand_over"
    d.show("S", kitty)
    assert not d.payloads("events", "hand_scored")  # E's two cards were never shown: a seat may hold them back
    d.send("board/in", {"seat": "S", "button": "ready"})  # the dealer says none is: the hand is scored as seen
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    assert scored["defender_points"] == 215 and (scored["side"], scored["levels"]) == ("dealer", 1)
    assert d.payloads("events", "levels_changed")[-1]["data"] == {"levels": {"SN": "3", "EW": "2"}, "dealer": "N"}


def test_a_dismissed_wrong_count_changes_nothing():
    """A ``pass`` the referee dismisses (pressed by mistake, a misread, or a hand made up as 003 12(3) says: 由少牌方抽掉多牌
    方手上的牌作为补充，互不扣分) leaves the table as it was: the same seat on turn, no violation counted, nothing to settle.
    While it is open the flag says what confirming it rules (the cards short, 003 12(2): 有一方少牌……20分/张) and that a
    press by mistake is dismissed, and no price is shown: the feed and the seat's display showed 1020 points (20分/张 for
    the 51 cards not seen) for a button pressed by mistake. A ``pass`` from a seat not on turn is refused in words and
    changes nothing."""
    d = Table("shaoguan-2023")
    hands, _, _ = d.dealt(seed=4, lost=0)
    rng = random.Random(4)
    for _ in range(6):
        d.step(hands, rng)
    before, turn = d.table, d.table.turn()
    d.send("board/in", {"seat": next(s for s in SEATS if s != turn), "button": "pass"})
    assert d.payloads("events")[-1]["kind"] == "rejected" and d.table.judge == before.judge and not d.table.flags
    d.send("board/in", {"seat": turn, "button": "pass"})
    [flag] = d.table.flags
    flagged = d.payloads("violations")[-1]
    assert flag.kind == "wrong_card_count" and d.table.on_hold and flagged["status"] == "flagged"
    assert flagged["penalty"] == {"text": "按规程处罚"} and d.table.board(d.at)["seats"][turn]["message"] == "牌数不符 待裁判确认"
    said = Sentences("zh").flag(d.payloads("events", "flag_raised")[-1]["data"])
    assert "只见出过 1 张，一手牌有 52 张，确认即判少牌 51 张" in said and "误按" in said
    assert "penalty per the rulebook" in Sentences("en").violation(flagged) and "1020" not in Sentences("zh").violation(flagged)
    d.send("commands", {"command": "dismiss", "flag": flag.flag})
    assert d.payloads("violations")[-1]["status"] == "dismissed" and not d.table.flags
    assert (d.table.judge, d.table.penalties, d.table.turn(), d.table.cards_left()) == (before.judge, before.penalties, turn, before.cards_left())
    assert d.table.clock.running and d.table.clock.seat == turn


def test_both_sides_with_a_wrong_count_replay_the_hand():
    """000 第十九条: 出牌开始后，如发现竞赛双方均出现牌张数目不符情况，则重新该盘竞赛. E's two missing cards were drawn by N:
    E runs out and sits out; once every seat has played out N still holds them and shows them (多牌), confirmed. The
    hand is replayed: no levels change, hand 2 is dealt by the same rules."""
    d = Table("zhongkai-2010")
    hands, kitty, gone = d.dealt(seed=5)
    d.play_out(hands, random.Random(5))  # N plays its 39 cards, and still holds E's two
    assert d.table.phase == "hand_over"
    d.show("N", gone)
    flag = d.table.flags[-1]
    assert (flag.kind, flag.seat, sorted(flag.cards)) == ("wrong_card_count", "N", sorted(gone.names()))
    assert d.payloads("events", "flag_raised")[-1]["data"]["why"]["key"] == "tractor.held_too_many"
    d.send("commands", {"command": "confirm", "flag": flag.flag})
    # 第十九条: 如果只有某家牌张数目不符，则判无错方自动升一级: E's alone said N's side went up a level; once N's count makes
    # it both sides, the feed says what happens: E's is said again (its flag) and N's said, each replayed, costing nothing
    said = {v["seat"]: v for v in d.payloads("violations") if v["status"] == "confirmed"}
    assert [v["penalty"] for v in d.payloads("violations") if v["seat"] == "E" and v["status"] == "confirmed"] == [{"levels": 1}, {}]
    assert said["E"]["flag"] == d.payloads("violations", "wrong_card_count")[0]["flag"] and said["N"]["penalty"] == {}
    assert [said[s]["evidence"]["why"]["key"] for s in "EN"] == ["tractor.replayed"] * 2
    assert said["E"]["evidence"]["why"]["values"]["why"]["key"] == "tractor.out_of_cards"
    assert "双方都有犯规：重打本盘，本项不罚" in Sentences("zh").violation(said["E"])
    assert "the hand is replayed" in Sentences("en").violation(said["N"])
    d.show("S", kitty)
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    assert scored["replay"] is True and not d.payloads("events", "levels_changed")
    assert d.table.hand_no == 2 and d.table.phase == "dealing" and d.table.penalties == ()
    assert len(d.payloads("violations")) == 5  # E's flagged, confirmed, said again; N's flagged, confirmed: no more


def test_pass_pressed_again_while_its_flag_is_open_adds_nothing():
    """001 二十一 (当比赛中途发现某家牌张数目不符，无错方升级): one seat out of cards is one wrong count. A player who presses
    ``pass`` again while the referee walks over raised a second flag with a second violation; the referee's confirm of
    the first sat the seat out, and the confirm of the second was refused (the seat no longer on turn), leaving a
    flagged violation to dismiss by hand."""
    d = Table("classic-3deck")
    hands, _, _ = d.dealt(seed=4, lost=0)
    rng = random.Random(4)
    for _ in range(6):
        d.step(hands, rng)
    turn = d.table.turn()
    d.send("board/in", {"seat": turn, "button": "pass"})
    d.send("board/in", {"seat": turn, "button": "pass"})
    [flag] = d.table.flags
    assert len(d.payloads("violations")) == 1
    d.send("commands", {"command": "confirm", "flag": flag.flag})
    assert not d.table.flags and d.table.judge.out == (turn,) and not d.payloads("events", "rejected")
    assert [v["status"] for v in d.payloads("violations")] == ["flagged", "confirmed"]


@pytest.mark.parametrize("book", ["zhongkai-2010", "classic-3deck", "shaoguan-2023", "shaoguan-2023-nokitty"])
def test_the_dealer_holding_the_cards_a_defender_lacks_is_flagged_before_its_kitty(book):
    """000 第十九条: 出牌开始后，如发现竞赛双方均出现牌张数目不符情况，则重新该盘竞赛 (001 二十一: 如双方均错，则重新该局比赛;
    003 12(1)(2): 如庄家方多牌，则非庄家方先加20分/张……若非庄家方少牌，则非庄家方先扣20分/张). E's two missing cards were
    drawn by S, the dealer: E runs out and sits out; once every seat has played out S still holds them and shows them
    before its kitty. They were taken as the kitty: refused (000/001: not the book's six cards) or ruled a misburied kitty
    (003: 160 points), so the dealer's 多牌 could never be flagged and the hand was ruled against E's side alone. Now they
    are flagged as held back and, confirmed, ruled against S's side as well: 000/001 replay the hand; under 003 neither
    side pays, nor do S's cards held back count (12(3): 对手之间双方都有多牌少牌现象，且多和少的张数一样，则由少牌方抽掉多牌方
    手上的牌作为补充，互不扣分; they counted against S's side, 20 points a card each way cancelling out). Without a kitty (003 不留底牌打法 1: 庄家不留底牌) any card the dealer
    shows then is one it held back (they were refused: not a kitty of no cards)."""
    d = Table(book)
    hands, kitty, gone = d.dealt(seed=5)
    hands["S"] += gone
    d.play_out(hands, random.Random(5))  # S plays a hand's cards, and still holds two
    assert d.table.phase == "hand_over" and d.table.judge.out == ("E",) and len(hands["S"]) == 2
    d.show("S", hands["S"])
    flag, size = d.table.flags[-1], d.table.rules.deal.hand_size
    assert (flag.kind, flag.seat, sorted(flag.cards)) == ("wrong_card_count", "S", sorted(hands["S"].names()))
    assert d.payloads("events", "flag_raised")[-1]["data"]["why"] == {"key": "tractor.held_too_many", "values": {"n": size + 2, "size": size}}
    d.send("commands", {"command": "confirm", "flag": flag.flag})
    e, s = (next(v for v in reversed(d.payloads("violations")) if v["seat"] == seat) for seat in "ES")  # as last said
    assert e["penalty"] == s["penalty"] == {}  # 003 互不扣分; 000/001 replayed: each said again, costing nothing
    assert [v["evidence"]["why"]["key"] for v in (e, s)] == ["tractor.quits" if "shaoguan" in book else "tractor.replayed"] * 2
    if "shaoguan" in book:
        assert "双方互不扣分" in Sentences("zh").violation(e) and "neither side pays" in Sentences("en").violation(s)
    if not kitty:  # 不留底牌打法 10: 每盘牌最后一轮大牌方……: scored once every card was seen, S's two held back with them
        scored = d.payloads("events", "hand_scored")[-1]["data"]
        assert scored["settled_points"] == scored["defender_points"] and d.table.hand_no == 2  # 12(3): 互不扣分
        return
    d.show("S", kitty)
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    assert "misburied_kitty" not in [v["kind"] for v in d.payloads("violations")]
    if book == "shaoguan-2023":
        assert scored["settled_points"] == scored["defender_points"]  # 12(3): 互不扣分
        return
    assert scored["replay"] is True and not d.payloads("events", "levels_changed") and d.table.hand_no == 2


def test_fewer_cards_than_a_kitty_from_the_dealer_are_asked_and_dismissed_turned_up_as_its_kitty():
    """003 12(4): 底牌少牌时则庄家丢弃少埋的张数: with no seat out of cards, fewer cards than the kitty's from the dealer,
    while more are unseen, are a short kitty or cards the dealer kept out of it (the kitty then the rest): a person is
    asked; said its kitty (dismissed), it is turned up misburied and scored with the hand, no cards held back."""
    d = Table("shaoguan-2023")
    hands, kitty, _ = d.dealt(seed=4, lost=0)
    d.play_out(hands, random.Random(4))
    assert d.table.phase == "hand_over" and not d.table.judge.out
    d.show("S", Cards(list(kitty)[:7]))
    (flag,) = d.table.flags
    assert flag.why.key == "tractor.kitty_short_or_held"
    d.send("commands", {"command": "dismiss", "flag": flag.flag})
    assert not d.table.flags and d.payloads("events", "hand_scored")
    assert [(v["kind"], v["status"]) for v in d.payloads("violations")] == [
        ("wrong_card_count", "flagged"), ("wrong_card_count", "dismissed"), ("misburied_kitty", "confirmed")]


@pytest.mark.parametrize("book", ["shaoguan-2023", "zhongkai-2010"])
def test_a_second_wrong_count_of_a_side_is_said_counted_with_its_first(book):
    """003 12(3): 同是一方出现以上情况，如庄家方出现，则非庄家分方以20分/张进行加分，如非庄家方出现则以20分/张进行扣分; 000
    第十九条: 如果只有某家牌张数目不符，则判无错方自动升一级. E runs out two cards early and its partner W shows those two
    when the others are out: one offence of the side, charged once (3ea1fa0). W's confirmed violation still showed its own
    price (40 points, or a level) on the violations feed, which the hand did not charge: now it says what it adds (the
    points of the cards it held back, 12(1): 若丢弃的是分牌则直接再扣除自己与丢弃分牌相等的分数; under 000 nothing) and that
    it is counted with E's; what the feed charges the side is what the hand's score takes."""
    d = Table(book)
    hands, kitty, gone = d.dealt(seed=7)
    hands["W"] += gone
    d.play_out(hands, random.Random(7))
    held = hands["W"]
    d.show("W", held)
    d.send("commands", {"command": "confirm", "flag": d.table.flags[-1].flag})
    first, second = [v for v in d.payloads("violations") if v["status"] == "confirmed"]
    assert (first["seat"], second["seat"]) == ("E", "W")
    assert second["evidence"]["why"]["key"] == "tractor.counted_with" and second["evidence"]["why"]["values"]["seat"] == "E"
    assert "与本方 东 的牌张数目不符合计为一次" in Sentences("zh").violation(second)
    d.show("S", kitty)
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    if book == "zhongkai-2010":
        assert first["penalty"] == {"levels": 1} and second["penalty"] == {} and "不罚" in Sentences("zh").violation(second)
        assert scored["side"] == "dealer" and [n["key"] for n in scored["notes"]].count("tractor.note_awarded") == 1
        return
    assert first["penalty"] == {"points": 40} and second["penalty"] == ({"points": held.points} if held.points else {})
    charged = first["penalty"]["points"] + second["penalty"].get("points", 0)
    assert scored["defender_points"] - scored["settled_points"] == charged


def test_without_a_kitty_the_dealers_ready_ends_a_hand_whose_cards_were_not_all_seen():
    """003 不留底牌打法 1: 庄家不留底牌; 10: 每盘牌最后一轮大牌方……: a hand with no kitty is scored once played out. E's two
    missing cards are in W's hand; E sits out, and once the others are out W shows them, but the referee dismisses the flag
    (a misread, say). Two cards of the decks were never seen, so the table cannot know the hand is over: it waits, as a
    kitty book waits for the kitty, and the dealer's ``ready`` ends it, E's side charged for E (12(2): 若非庄家方少牌，则非庄家方
    先扣20分/张)."""
    d = Table("shaoguan-2023-nokitty")
    hands, _, gone = d.dealt(seed=7)
    hands["W"] += gone
    d.play_out(hands, random.Random(7))
    d.show("W", hands["W"])
    d.send("commands", {"command": "dismiss", "flag": d.table.flags[-1].flag})
    assert d.table.phase == "hand_over" and not d.payloads("events", "hand_scored")
    d.send("board/in", {"seat": "E", "button": "ready"})
    assert d.payloads("events")[-1]["data"]["why"]["key"] == "table.button_meaningless" and d.table.phase == "hand_over"
    d.send("board/in", {"seat": "S", "button": "ready"})
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    assert scored["settled_points"] == scored["defender_points"] - 40 and d.table.hand_no == 2


def test_without_a_kitty_the_dealer_out_of_cards_that_shows_cards_held_them_back():
    """003 不留底牌打法 1: 庄家不留底牌; 12(1): 有一方多牌，如庄家方多牌，则非庄家方先加20分/张，然后多牌方将手上的任意牌丢弃，
    若丢弃的是分牌则直接把分数加给非庄家方. S, the dealer, lacks two cards (they fell under the table): it runs out, presses
    ``pass`` and is confirmed out. Once the others are out it shows the two it found: with no kitty they can only be cards
    it held back, flagged for the referee like any seat's; they were refused as a kitty of the wrong size (``kitty_size``),
    so they could never be shown and the hand waited for the dealer's ``ready``. The flag says what it is: the seat was
    confirmed out, not 54 cards of a hand of 54."""
    d = Table("shaoguan-2023-nokitty")
    hands, _, gone = d.dealt(seed=3, short="S")
    d.play_out(hands, random.Random(3))
    assert d.table.phase == "hand_over" and d.table.judge.out == ("S",) and not d.payloads("events", "hand_scored")
    d.show("S", gone)
    assert not d.payloads("events", "rejected")
    flag = d.table.flags[-1]
    assert (flag.kind, flag.seat, sorted(flag.cards)) == ("wrong_card_count", "S", sorted(gone.names()))
    assert flag.why.json() == {"key": "tractor.held_after_out", "values": {"n": 52, "held": 2}}
    assert "已确认无牌可出（出了 52 张），其他各家出完后又亮出 2 张" in Sentences("zh").flag(d.payloads("events", "flag_raised")[-1]["data"])
    d.send("commands", {"command": "confirm", "flag": flag.flag})
    s = [v for v in d.payloads("violations") if v["seat"] == "S" and v["status"] == "confirmed"]
    assert s[-1]["evidence"]["why"]["values"]["why"]["key"] == "tractor.held_after_out"  # counted with its own 少牌
    scored = d.payloads("events", "hand_scored")[-1]["data"]  # every card seen: scored at once, 40 and the held points
    assert scored["settled_points"] == scored["defender_points"] + 40 + gone.points and d.table.hand_no == 2


@pytest.mark.parametrize("book", ["zhongkai-2010", "classic-3deck", "shaoguan-2023"])
def test_the_dealer_holding_back_a_kittys_number_of_cards_is_asked_not_read_as_its_kitty(book):
    """000 第十九条: 出牌开始后，如发现竞赛双方均出现牌张数目不符情况，则重新该盘竞赛 (001 二十一: 如双方均错，则重新该局比赛;
    003 12(1)(2): 如庄家方多牌，则非庄家方先加20分/张……若非庄家方少牌，则非庄家方先扣20分/张). E's cards, as many as a kitty
    holds, were drawn by S, the dealer: E runs out and sits out, and S, out of the others' sight, still holds a kitty's
    number of cards besides its kitty. The first lot it shows was read as its kitty and the hand scored against E's side
    alone. The table cannot tell them apart (as many cards as a kitty's are still unseen besides it): it asks; confirmed,
    they are held back (多牌), and the kitty it then shows can only be its kitty (no other cards are unseen)."""
    d = Table(book)
    k = d.table.rules.deal.kitty
    hands, kitty, gone = d.dealt(seed=5, lost=k)
    hands["S"] += gone
    d.play_out(hands, random.Random(5))
    assert d.table.judge.out == ("E",) and len(hands["S"]) == k
    d.show("S", hands["S"])
    assert not d.payloads("events", "hand_scored")
    flag = d.table.flags[-1]
    assert (flag.kind, flag.seat, flag.why.json()) == ("wrong_card_count", "S", {"key": "tractor.kitty_or_held", "values": {"n": k, "spare": k}})
    said = Sentences("zh").flag(d.payloads("events", "flag_raised")[-1]["data"])
    assert f"亮出 {k} 张，正是底牌的张数" in said and "是底牌请撤销标记" in said
    d.send("commands", {"command": "confirm", "flag": flag.flag})
    d.show("S", kitty)
    assert not d.table.flags
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    assert "misburied_kitty" not in [v["kind"] for v in d.payloads("violations")]
    if book == "shaoguan-2023":  # 12(3): 对手之间……多和少的张数一样……互不扣分
        assert scored["settled_points"] == scored["defender_points"]
    else:
        assert scored["replay"] is True and d.table.hand_no == 2


def test_a_kitty_the_referee_says_is_one_is_turned_up_as_shown():
    """003 12(2): 若非庄家方少牌，则非庄家方先扣20分/张. E lost eight cards under the table (a kitty's number, never seen): when
    S turns up its kitty, the table cannot know whether they are the kitty or the eight E lacks, held back. The referee
    says they are the kitty (the flag dismissed): they are turned up, and once the dealer says no seat holds E's eight
    (its ``ready``) the hand is scored with them, E's side charged for E alone, no wrong count for S."""
    d = Table("shaoguan-2023")
    hands, kitty, _ = d.dealt(seed=6, lost=8)
    d.play_out(hands, random.Random(6))
    d.show("S", kitty)
    flag = d.table.flags[-1]
    assert flag.why.key == "tractor.kitty_or_held" and not d.payloads("events", "hand_scored")
    d.send("commands", {"command": "dismiss", "flag": flag.flag})
    assert d.payloads("violations")[-1]["status"] == "dismissed" and d.table.judge.kitty == kitty and not d.table.flags
    d.send("board/in", {"seat": "S", "button": "ready"})
    assert d.table.hand_no == 2
    scored = [e["data"] for e in d.payloads("events", "hand_scored")]
    assert len(scored) == 1 and scored[0]["settled_points"] == scored[0]["defender_points"] - 160
    assert [v["seat"] for v in d.payloads("violations") if v["status"] == "confirmed"] == ["E"]


@pytest.mark.parametrize("who", ["dealer_out", "non_dealer"])
def test_what_the_table_knows_of_a_kittys_number_of_cards_it_rules_without_asking(who):
    """003 12: 如在打牌的过程中发现有某方多牌或少牌现象; 留底 4: 摸到还剩余 8 张底牌时. Where the cards say which it is, nobody is
    asked: a dealer confirmed out of cards holds none of its hand, so the eight it shows are its kitty (scored, E's side
    charged for E); eight cards from W, no dealer, are cards it held back, never a kitty."""
    d = Table("shaoguan-2023")
    short = "S" if who == "dealer_out" else "E"
    hands, kitty, gone = d.dealt(seed=8, short=short, lost=8)
    if who == "non_dealer":
        hands["W"] += gone
    d.play_out(hands, random.Random(8))
    assert d.table.judge.out == (short,)
    if who == "dealer_out":
        d.show("S", kitty)
        assert not d.table.flags
        d.send("board/in", {"seat": "S", "button": "ready"})  # S's eight never shown: the dealer says none is held back
        [scored] = [e["data"] for e in d.payloads("events", "hand_scored")]
        assert scored["settled_points"] == scored["defender_points"] + 160
        return
    d.show("W", hands["W"])
    flag = d.table.flags[-1]
    assert (flag.seat, flag.why.key) == ("W", "tractor.held_too_many") and not d.payloads("events", "hand_scored")


def test_a_dealer_flagged_idle_after_its_kitty_ends_the_hand_with_its_ready():
    """001 二十一: 当比赛中途发现某家牌张数目不符，无错方升级 -- E's two cards never shown, the hand waits after S turned up its
    kitty for cards held back, or the dealer's word that none is (``ready``). Nobody acts for UNTIMED_STALL_S: the table
    asks a person (``idle``). The dealer's ``ready`` then was refused as meaningless while that flag stood (a referee had
    to dismiss it first): it is the act awaited, so it answers the flag and scores the hand."""
    d = Table("classic-3deck")
    hands, kitty, _ = d.dealt(seed=2)
    d.play_out(hands, random.Random(2))
    d.show("S", kitty)
    d.send(CLOCK, {}, dt=UNTIMED_STALL_S + 1)
    [flag] = d.table.flags
    assert (flag.kind, flag.seat) == ("idle", "S") and not d.payloads("events", "hand_scored")
    d.send("board/in", {"seat": "S", "button": "ready"})
    assert not d.payloads("events", "rejected") and not d.table.flags and d.table.hand_no == 2
    assert d.payloads("events", "flag_resolved")[-1]["data"] == {"flag": flag.flag, "how": "dismiss"}
    assert d.payloads("events", "hand_scored")[-1]["data"]["levels"] == 1


@pytest.mark.parametrize("book", ["zhongkai-2010", "shaoguan-2023"])
def test_a_kitty_turned_up_while_cards_were_never_seen_waits_for_cards_held_back(book):
    """000 第十九条: 出牌开始后，如发现竞赛双方均出现牌张数目不符情况，则重新该盘竞赛 (001 二十一: 如双方均错，则重新该局比赛;
    003 12(1)(2): 如庄家方多牌，则非庄家方先加20分/张……若非庄家方少牌，则非庄家方先扣20分/张). E's two missing cards were
    drawn by N: E runs out and sits out; S turns up its kitty before N shows the two it still holds. The hand was scored
    at once against E's side alone (a wrong count guessed away: N's cards, shown next, fell into the next hand's draw).
    Two cards were never seen, so the table cannot know no seat holds them: the kitty is turned up and the hand waits;
    N's two are flagged as held back and, confirmed, the hand is ruled with both sides' counts (000/001: replayed; 003
    12(3): 对手之间双方都有多牌少牌现象，且多和少的张数一样……互不扣分) once every card was seen."""
    d = Table(book)
    hands, kitty, gone = d.dealt(seed=5)
    hands["N"] += gone
    d.play_out(hands, random.Random(5))
    assert d.table.judge.out == ("E",) and len(hands["N"]) == 2
    d.show("S", kitty)
    assert not d.payloads("events", "hand_scored") and d.table.phase == "hand_over" and d.table.hand_no == 1
    d.show("N", hands["N"])
    flag = d.table.flags[-1]
    assert (flag.kind, flag.seat, flag.why.key) == ("wrong_card_count", "N", "tractor.held_too_many")
    d.send("commands", {"command": "confirm", "flag": flag.flag})
    [scored] = [e["data"] for e in d.payloads("events", "hand_scored")]
    if book == "shaoguan-2023":
        assert scored["settled_points"] == scored["defender_points"] and d.table.hand_no == 2
    else:
        assert scored["replay"] is True and not d.payloads("events", "levels_changed") and d.table.hand_no == 2
    assert len(d.payloads("events", "declared")) == 1  # S's of hand 1: N's cards never read as a declaration of hand 2


def test_cards_shown_at_the_end_that_cannot_be_held_back_ask_for_a_read_not_a_wrong_count():
    """003 12: 在牌的总数量正确情况下，如在打牌的过程中发现有某方多牌或少牌现象 (a wrong count is of cards a seat holds). Once
    every seat has played out, the camera reads W showing a card every copy of which was played (a trick's cards read
    again): they cannot be cards W held back. They were flagged as a wrong count (多牌) whose confirm was refused for
    ever (``tractor.in_held_back``), leaving the referee to dismiss it. It is an ``impossible`` read, said in words, for
    a person to correct or drop: confirmed, nothing changes and the kitty scores the hand."""
    d = Table("classic-3deck")
    hands, kitty, _ = d.dealt(seed=4, lost=0)
    d.play_out(hands, random.Random(4))
    before = d.table.judge
    played = next(c for c in before.played.distinct() if c not in kitty)  # its three copies played
    d.show("W", Cards([played]))
    [flag] = d.table.flags
    assert (flag.kind, flag.seat, flag.why.key) == ("impossible", "W", "tractor.in_held_back")
    assert "wrong_card_count" not in [v["kind"] for v in d.payloads("violations")]
    said = Sentences("zh").flag(d.payloads("events", "flag_raised")[-1]["data"])
    assert "出完后手中剩下的牌" in said and "不可能" in said
    d.send("commands", {"command": "confirm", "flag": flag.flag})
    assert not d.table.flags and d.table.judge == before and not d.payloads("events", "rejected")
    d.show("S", kitty)
    assert d.payloads("events", "hand_scored") and not d.payloads("violations")
