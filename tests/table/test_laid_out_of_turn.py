"""Cards a seat showed out of turn, confirmed so, lie on the table, and so do a Tractor follow's cards of a throw taken
back: the camera sends a card once (``vision.tracker``), so when the seat's turn comes the table asks at once whether
they are its play (``laid_out_of_turn``, ``laid_taken_back``), the clocks paused, never timing a play that lies there
(every game: ``Reducer._lying_asked``)."""

from climbing_kit import GD, SDY, Table_
from test_tractor_table import Driver

from vision.read import SeenCard
from vision.tracker import Tracker, step

SPOT = {"S": (0.5, 0.8), "E": (0.8, 0.5), "N": (0.5, 0.2), "W": (0.2, 0.5)}


class Camera:
    """The real tracker over the cards lying on the table: what it sends is what the table reads."""

    def __init__(self, d):
        self.d, self.lying = d, []
        self.tracker, _ = step(Tracker(settle_s=0.5), [], {}, at=d.at)

    def lay(self, seat, cards, dt=2.0):
        x, y = SPOT[seat]
        self.lying += [SeenCard(c, 0.99, (x + 0.03 * len(self.lying), y), seat) for c in cards]
        return self.look(dt)

    def lift(self, seat, cards, dt=2.0):
        """``seat`` takes ``cards`` back into its hand (those it picks up: the rest stay where they lie)."""
        for name in cards:
            self.lying.remove(next(c for c in self.lying if (c.seat, c.name) == (seat, name)))
        return self.look(dt)

    def look(self, dt=2.0):
        """Frames for ``dt`` seconds; each play the tracker sends is published to the table as the camera does."""
        sent, end = [], self.d.at + dt
        for at in (self.d.at + 0.1, self.d.at + 0.7, end):
            self.tracker, plays = step(self.tracker, list(self.lying), {}, at)
            for p in plays:
                self.d.send("observed", {"seat": p.seat, "cards": list(p.cards), "confidence": p.confidence}, dt=at - self.d.at)
                sent.append((p.seat, p.cards))
        self.d.send("clock", {}, dt=end - self.d.at)
        return sent


def _flag(d, kind):
    return next(f for f in d.table.flags if f.kind == kind)


def _shown_early(book="classic-3deck"):
    """S leads S3; N shows S4 before E, confirmed out of turn."""
    d = Driver(book)
    d.start()
    d.declare_and_take_kitty("S", "H")
    d.send("observed", {"seat": "S", "cards": ["S3"], "confidence": 0.99})
    d.send("observed", {"seat": "N", "cards": ["S4"], "confidence": 0.99})
    d.send("commands", {"command": "confirm", "flag": _flag(d, "out_of_turn").flag})
    return d


def _two_shown_early():
    """N shows S4 S5 before S leads, confirmed out of turn; S leads S3, E follows S6: N is asked."""
    d = Driver("classic-3deck")
    d.start()
    d.declare_and_take_kitty("S", "H")
    d.send("observed", {"seat": "N", "cards": ["S4", "S5"], "confidence": 0.99})
    d.send("commands", {"command": "confirm", "flag": _flag(d, "out_of_turn").flag})
    for seat, card in (("S", "S3"), ("E", "S6")):
        d.send("observed", {"seat": seat, "cards": [card], "confidence": 0.99})
    return d


def test_a_tractor_play_confirmed_out_of_turn_is_asked_at_the_seats_turn_and_never_timed():
    """001 二十二: 凡不按规定的出牌顺序，过早地将牌亮在桌上…越序出牌一旦成立，一次扣罚20分; 003 13: 牌一经触桌，不得收回.
    N's card lies on the table from its out-of-turn play; the camera sent it once and sends nothing at N's turn. Before,
    the table waited on N with its 10 s follow clock (001 二十三) running, until a ``stalled`` flag 70 s later (its overrun
    ruled against N if a person dismissed that). Now it asks at once, the clock paused: confirmed, the card is N's play,
    untimed."""
    d = Driver("classic-3deck")
    d.start()
    d.declare_and_take_kitty("S", "H")
    cam = Camera(d)
    assert cam.lay("S", ["S3"]) == [("S", ("S3",))]
    assert cam.lay("N", ["S4"]) == [("N", ("S4",))]  # before E
    oot = _flag(d, "out_of_turn")
    d.send("commands", {"command": "confirm", "flag": oot.flag})
    assert cam.lay("E", ["S5"]) == [("E", ("S5",))]
    assert d.table.turn() == "N" and cam.look(60.0) == []  # nothing new is sent: N's card lay there all along
    ask = _flag(d, "laid_out_of_turn")
    assert (ask.seat, ask.cards, d.table.state(d.at)["paused"]) == ("N", ("S4",), True)
    assert [f.kind for f in d.table.flags] == ["laid_out_of_turn"]  # no stalled flag: the clock stood still
    d.send("commands", {"command": "confirm", "flag": ask.flag})
    assert d.payloads("events", "play_accepted")[-1]["data"] | {"hand": 0} == {"hand": 0, "trick": 1, "seat": "N", "cards": ["S4"]}
    assert not d.payloads("violations", "overtime") and d.table.turn() == "W"
    assert [v["status"] for v in d.payloads("violations", "out_of_turn")] == ["flagged", "confirmed"]  # its 20 points stand


def test_dismissed_the_table_waits_for_a_new_read_and_corrected_plays_what_the_seat_played():
    """003 13: 不得抢先 (a play out of turn, 不留底: 20分/张): the person at the table says which cards are the play."""
    for how, cards, played in (("dismiss", None, ["S6"]), ("correct", ["S7"], ["S7"])):
        d = _shown_early("shaoguan-2023-nokitty")
        d.send("observed", {"seat": "E", "cards": ["S5"], "confidence": 0.99})
        ask = _flag(d, "laid_out_of_turn")
        d.send("commands", {"command": how, "flag": ask.flag} | ({"cards": cards} if cards else {}))
        if how == "dismiss":
            assert d.table.turn() == "N" and not d.table.flags and d.table.clock.running
            d.send("observed", {"seat": "N", "cards": ["S6"], "confidence": 0.99})
        assert d.payloads("events", "play_accepted")[-1]["data"]["cards"] == played and d.table.turn() == "W"


def test_cards_shown_out_of_turn_and_picked_up_are_not_asked_about():
    """The seat took its cards back (the camera's ``removed``): its turn is timed as any, its new play read."""
    d = _shown_early()
    d.send("removed", {"seat": "N", "cards": ["S4"], "confidence": 0.99})
    assert d.kinds()[-1] == "picked_up"
    d.send("observed", {"seat": "E", "cards": ["S5"], "confidence": 0.99})
    assert d.table.turn() == "N" and not d.table.flags


def test_san_da_yi_asks_too():
    """004 二 出牌规则: 庄家先出牌，然后按逆时针顺序依次出牌. A confirmed play out of turn costs nothing there, and the card
    lies on the table at W's turn: asked, it is W's play once confirmed."""
    d = Table_(SDY)
    d.start()
    d.press("S", "bid3")
    d.press("S", "ready")
    d.show("S", ["S3"])
    d.show("W", ["SK"])  # before E and N
    d.send("commands", {"command": "confirm", "flag": d.violations()[-1]["flag"]})
    d.show("E", ["S5"])
    d.show("N", ["S6"])
    ask = d.state()["flags"][0]
    assert (ask["kind"], ask["seat"], ask["cards"], d.state()["turn"]) == ("laid_out_of_turn", "W", ["SK"], "W")
    d.send("commands", {"command": "confirm", "flag": ask["flag"]})
    assert d.events("play_accepted")[-1]["data"]["cards"] == ["SK"] and d.state()["turn"] == "S"


def _guandan_shown_early(card: str):
    """A Guandan hand: S leads S3, N shows ``card`` before E (out of turn), the referee confirms it."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    d.show("N", [card])  # before E
    d.send("commands", {"command": "confirm", "flag": d.violations()[-1]["flag"]})
    return d


def test_guandan_asks_when_the_trick_comes_round_to_the_seat_again_not_at_the_turn_it_sits_out():
    """002 十一 3: 上家没有出牌，下家就出牌，称为越序出牌。如是越序出牌则停止一轮出牌，由下家出牌; 十一 1: 任何一方所出的牌，
    一旦被对方看到…后不得收回. N sits its turn out (no play awaited, nothing to ask); when the trick comes round to N
    again its card still lies there, and the Guandan clock (十二 第3条: 视作放弃本次出牌权) would give N's turn up."""
    d = _guandan_shown_early("SA")
    d.show("E", ["S6"])
    assert d.state()["turn"] == "W" and not d.state()["flags"]  # N sat out
    d.show("W", ["S7"])
    d.show("S", ["S8"])
    d.show("E", ["S9"])
    ask = d.state()["flags"][0]
    assert (ask["kind"], ask["seat"], ask["cards"]) == ("laid_out_of_turn", "N", ["SA"])
    d.send("clock", {}, dt=120.0)
    assert not d.events("passed")[-1]["data"].get("forfeit") and d.state()["turn"] == "N"
    d.send("commands", {"command": "confirm", "flag": ask["flag"]})
    assert d.events("play_accepted")[-1]["data"]["cards"] == ["SA"] and not d.violations("overtime")


def _taken_back(d, show):
    """001 十九 (000 第十六条): S throws SA SK; E follows S3 S4, N S5 S6, W SA S7, whose third-deck SA beats SK: the throw
    does not stand, S leads SK alone, and E, N, W take their follows back to follow it anew, each with one card."""
    d.start()
    d.declare_and_take_kitty("S", "H")
    for seat, cards in (("S", ["SA", "SK"]), ("E", ["S3", "S4"]), ("N", ["S5", "S6"]), ("W", ["SA", "S7"])):
        show(seat, cards)
    assert d.kinds()[-2:] == ["throw_taken_back", "flag_raised"] and d.table.turn() == "E"


def test_a_follow_of_a_throw_taken_back_made_of_cards_left_lying_is_asked_never_timed():
    """001 十九: 甩错牌一旦成，一次扣罚20分，且甩牌不成立 (the throw's followers follow the forced unit again); 二十三: 按规定顺序
    跟牌、垫牌、将吃不超过10秒钟. The camera sent each follow once this trick, so E leaving S3 of its S3 S4 on the table as its
    new follow is never read. Before, E's 10 s ran on and a ``stalled`` flag came 70 s later (its overrun ruled if a person
    dismissed that). Now each follower is asked at once at its turn, the clocks paused: its two cards cannot be a follow
    of one (its own confirm is refused in words), a person corrects to the card it follows with, played untimed."""
    d = Driver("classic-3deck")
    cam = Camera(d)
    _taken_back(d, cam.lay)
    assert cam.lift("E", ["S4"]) == [] and cam.look(80.0) == []  # S3 stays: nothing new is sent
    ask = _flag(d, "laid_taken_back")
    assert (ask.seat, sorted(ask.cards), d.table.state(d.at)["paused"], len(d.table.flags)) == ("E", ["S3", "S4"], True, 1)
    d.send("board/in", {"seat": "E", "button": "confirm"})
    assert d.payloads("events", "rejected")[-1]["data"]["why"]["key"] == "table.lying_not_the_play" and d.table.flags == (ask,)
    d.send("commands", {"command": "correct", "flag": ask.flag, "cards": ["S3"]})
    for seat, keep, lift in (("N", "S5", "S6"), ("W", "SA", "S7")):
        assert (d.table.turn(), [(f.kind, f.seat) for f in d.table.flags]) == (seat, [("laid_taken_back", seat)])
        assert cam.lift(seat, [lift]) == []
        d.send("commands", {"command": "correct", "flag": d.table.flags[0].flag, "cards": [keep]})
    played = [(p["data"]["seat"], p["data"]["cards"]) for p in d.payloads("events", "play_accepted")[-3:]]
    assert played == [("E", ["S3"]), ("N", ["S5"]), ("W", ["SA"])] and d.table.judge.tricks[0].winner == "W"
    assert not d.payloads("violations", "overtime") and "stalled" not in {p["data"]["kind"] for p in d.payloads("events", "flag_raised")}


def test_a_follower_whose_new_follow_the_camera_read_is_not_asked_and_one_that_lifts_its_cards_answers():
    """000 第十六条: 甩错牌一旦成立，一次扣罚20分，且甩牌不成立，按规定出所甩错的最低最小级别牌种组合. E and N lay new cards while
    E's question is open: those reads wait; dismissed (E's cards were taken back), E's is its follow, and N, whose read
    waits too, is not asked. W, with no new read, is asked; the camera sees W lift its follow (``removed``): that answers
    it (W's cards are not its play), W's clock runs and its new card is read."""
    d = Driver("zhongkai-2010")
    _taken_back(d, lambda seat, cards: d.send("observed", {"seat": seat, "cards": cards, "confidence": 0.99}))
    for seat, card in (("E", "S9"), ("N", "S8")):
        d.send("observed", {"seat": seat, "cards": [card], "confidence": 0.99})
    assert d.kinds()[-2:] == ["play_waits", "play_waits"]
    d.send("commands", {"command": "dismiss", "flag": _flag(d, "laid_taken_back").flag})
    ask = _flag(d, "laid_taken_back")
    assert (ask.seat, d.table.turn()) == ("W", "W")
    d.send("removed", {"seat": "W", "cards": ["S7", "SA"], "confidence": 0.97})
    assert d.kinds()[-2:] == ["picked_up", "flag_resolved"] and d.payloads("events", "flag_resolved")[-1]["data"]["how"] == "dismiss"
    assert not d.table.flags and d.table.clock.running and d.table.clock.seat == "W"
    d.send("observed", {"seat": "W", "cards": ["S7"], "confidence": 0.99})
    played = [(p["data"]["seat"], p["data"]["cards"]) for p in d.payloads("events", "play_accepted")[-3:]]
    assert played == [("E", ["S9"]), ("N", ["S8"]), ("W", ["S7"])] and d.table.judge.tricks[0].winner == "S"


def test_cards_shown_out_of_turn_that_cannot_all_be_the_play_are_asked_too():
    """001 二十二: 凡不按规定的出牌顺序，过早地将牌亮在桌上…越序出牌. N shows S4 S5 before S leads; S leads one card. N's turn:
    before, two cards could not be a follow of one, so nothing was asked and N's clock ran while N followed with S4, left
    lying, the camera never sending it again. Now N is asked (a clock N could not beat otherwise); corrected, S4 is played."""
    d = _two_shown_early()
    ask = _flag(d, "laid_out_of_turn")
    assert (ask.seat, sorted(ask.cards), d.table.turn()) == ("N", ["S4", "S5"], "N")
    d.send("commands", {"command": "correct", "flag": ask.flag, "cards": ["S4"]})
    assert d.payloads("events", "play_accepted")[-1]["data"]["cards"] == ["S4"] and d.table.turn() == "W"


def test_guandan_cards_lying_that_cannot_beat_the_table_are_not_asked_the_seat_plays_on():
    """002 七 ①: 后一家打出的牌必须比前一家打出的牌大，如没有可以弃权. N's card shown out of turn lies there when the trick
    comes round to N again, but it no longer beats the table's (E's SA over it): it cannot be N's play, so nothing is
    asked; N passes or plays other cards, which the board and the camera see. Asked, a confirm made the card an
    impossible play for a person (the hall's players, who keep the card in hand, met two flags more)."""
    d = _guandan_shown_early("S7")
    d.show("E", ["S6"])
    d.show("W", ["S8"])
    d.show("S", ["S9"])
    d.show("E", ["SA"])
    assert d.state()["turn"] == "N" and not d.state()["flags"]
    d.press("N", "pass")
    assert d.events("passed")[-1]["data"]["seat"] == "N" and d.state()["turn"] == "W"


def test_cards_left_lying_when_the_round_is_stopped_are_not_asked_about_in_the_next_round():
    """001 二十二 (越序出牌: 过早地将牌亮在桌上): N's card lay there when the organiser stopped the round, before N's turn.
    A new round deals new hands: at N's first turn in its first trick (the same hand and trick numbers) nothing of the
    old round lies there to ask about."""
    d = _shown_early()
    d.send("commands", {"command": "stop_round"})
    d.start()
    d.declare_and_take_kitty("S", "H")
    for seat, card in (("S", "S3"), ("E", "S5")):
        d.send("observed", {"seat": seat, "cards": [card], "confidence": 0.99})
    assert d.table.turn() == "N" and not d.table.flags and d.table.clock.running


def test_a_seat_picking_up_some_of_the_cards_it_showed_out_of_turn_is_asked_about_the_rest():
    """001 二十二: 凡不按规定的出牌顺序，过早地将牌亮在桌上…越序出牌. N shows S4 S5 before S leads, confirmed out of turn, and
    takes S5 back into its hand (the camera's ``removed``) before its turn: S4 still lies there, sent once. Before, the
    pickup of one card forgot both, N's clock ran on the S4 left lying as its follow; now N is asked about S4."""
    d = Driver("classic-3deck")
    d.start()
    d.declare_and_take_kitty("S", "H")
    d.send("observed", {"seat": "N", "cards": ["S4", "S5"], "confidence": 0.99})
    d.send("commands", {"command": "confirm", "flag": _flag(d, "out_of_turn").flag})
    d.send("removed", {"seat": "N", "cards": ["S5"], "confidence": 0.99})
    assert d.kinds()[-1] == "picked_up"
    for seat, card in (("S", "S3"), ("E", "S6")):
        d.send("observed", {"seat": seat, "cards": [card], "confidence": 0.99})
    ask = _flag(d, "laid_out_of_turn")
    assert (ask.seat, ask.cards, d.table.turn()) == ("N", ("S4",), "N")
    d.send("commands", {"command": "confirm", "flag": ask.flag})
    assert d.payloads("events", "play_accepted")[-1]["data"]["cards"] == ["S4"] and d.table.turn() == "W"


def test_cards_still_lying_once_their_question_is_dismissed_or_corrected_to_others_are_picked_up():
    """001 二十二: 凡不按规定的出牌顺序，过早地将牌亮在桌上…越序出牌. N's cards shown out of turn lie there after the table
    asked about them at N's turn: dismissed (N plays another card), or corrected to one of them (S4 of S4 S5). N taking
    the cards left there back into its hand is a pickup, said. Before, asking forgot them: it was rejected
    (table.not_on_table)."""
    d = _shown_early()
    d.send("observed", {"seat": "E", "cards": ["S5"], "confidence": 0.99})
    d.send("commands", {"command": "dismiss", "flag": _flag(d, "laid_out_of_turn").flag})
    d.send("removed", {"seat": "N", "cards": ["S4"], "confidence": 0.99})
    assert d.kinds()[-1] == "picked_up" and not d.payloads("events", "rejected")
    d.send("observed", {"seat": "N", "cards": ["S6"], "confidence": 0.99})
    assert d.payloads("events", "play_accepted")[-1]["data"]["cards"] == ["S6"] and d.table.turn() == "W"
    d = _two_shown_early()
    d.send("commands", {"command": "correct", "flag": _flag(d, "laid_out_of_turn").flag, "cards": ["S4"]})
    d.send("removed", {"seat": "N", "cards": ["S5"], "confidence": 0.99})
    assert d.kinds()[-1] == "picked_up" and not d.payloads("events", "rejected") and not d.table.flags
    d.send("removed", {"seat": "N", "cards": ["S4"], "confidence": 0.99})  # its play, the trick not complete
    assert _flag(d, "early_pickup").cards == ("S4",)


def test_a_seat_clearing_its_play_with_the_cards_of_a_throw_taken_back_left_lying_picks_them_up():
    """001 十九 (000 第十六条): 甩牌不成立, 按规定出所甩错的最低最小级别牌种组合. S's SA, taken back, lies beside the SK it
    leads instead, and E's S4 beside its new follow S3. The trick taken, each seat clears everything in front of it (the
    camera's ``removed`` names all a seat's cards once its area is empty): a pickup, said. Before, S's SA SK was rejected
    (table.not_on_table): neither the trick's cards nor the throw's taken back held both."""
    d = Driver("classic-3deck")
    _taken_back(d, lambda seat, cards: d.send("observed", {"seat": seat, "cards": cards, "confidence": 0.99}))
    for card in ("S3", "S5", "SA"):
        d.send("commands", {"command": "correct", "flag": d.table.flags[0].flag, "cards": [card]})
    assert d.table.judge.tricks[-1].complete and not d.table.flags
    for seat, cards in (("S", ["SA", "SK"]), ("E", ["S3", "S4"]), ("N", ["S5", "S6"]), ("W", ["SA", "S7"])):
        d.send("removed", {"seat": seat, "cards": cards, "confidence": 0.99})
        assert d.kinds()[-1] == "picked_up" and not d.payloads("events", "rejected")
