"""The camera's play tracker follows the table's published ``state`` (``vision.tracker.told``): when the table takes
plays back (a Tractor throw that fails, a Guandan going-out play) or never takes them (cards shown out of turn), the
plays laid next are judged against what the table holds, not against the camera's own copy of the trick. Each test
drives the real tracker and the real table together: what the tracker sends (plays, pickups) the table reads, and
every state the table publishes the tracker is told."""

from climbing_kit import GD, Table_
from test_tractor_table import Driver

from referee.seats import SEATS
from vision.read import SeenCard
from vision.tracker import drain, for_game, step, told

SPOT = {"S": (0.5, 0.8), "E": (0.8, 0.5), "N": (0.5, 0.2), "W": (0.2, 0.5)}


class Camera:
    """The real tracker over the cards lying in front of each seat, told each state the table publishes."""

    def __init__(self, d, game="tractor", decks=3):
        self.d, self.lying, self.sent, self.states = d, {s: [] for s in SEATS}, [], []  # states: told after each look
        self.tracker = told(step(for_game(game, settle_s=0.5, decks=decks), [], {}, at=d.at)[0], d.table.state(d.at))

    def lay(self, seat, cards, dt=2.0):
        """``seat`` lays ``cards`` beside those lying in front of it (after all were lifted: where the first lay)."""
        x, y = SPOT[seat]
        self.lying[seat] += [SeenCard(c, 0.99, (x + 0.03 * (len(self.lying[seat]) + i), y), seat) for i, c in enumerate(cards)]
        return self.look(dt)

    def lift(self, seat, cards, dt=2.0):
        """``seat`` takes ``cards`` back into its hand (the rest stay where they lie)."""
        for name in cards:
            self.lying[seat].remove(next(c for c in self.lying[seat] if c.name == name))
        return self.look(dt)

    def look(self, dt=2.0):
        """Frames for ``dt`` seconds (a seat with nothing in front of it shows its zone bare); each play and pickup
        the tracker sends goes to the table as ``vision watch`` sends it, and the table's state comes back."""
        sent, end = [], self.d.at + dt
        for at in (self.d.at + 0.1, self.d.at + 0.3, self.d.at + 0.7, end):
            cards = [c for s in SEATS for c in self.lying[s]]
            self.tracker, plays = step(self.tracker, cards, {}, at, bare={s: not self.lying[s] for s in SEATS})
            self.tracker, removals = drain(self.tracker)
            for r in removals:
                self._send("removed", r, 0.5 if r.reasons else 0.95, at)
            for p in plays:
                self._send("observed", p, p.confidence, at)
                sent.append((p.seat, p.cards, tuple(r.key for r in p.reasons)))
        self.d.send("clock", {}, dt=end - self.d.at)
        self.states.append(self.d.table.state(self.d.at))
        self.tracker = told(self.tracker, self.states[-1])
        self.sent += sent
        return sent

    def _send(self, name, p, confidence, at):
        self.d.send(name, {"seat": p.seat, "cards": list(p.cards), "confidence": confidence}, dt=at - self.d.at)
        self.tracker = told(self.tracker, self.d.table.state(self.d.at))


def _flags(d):
    return [(f.kind, f.seat) for f in d.table.flags]


def _played(d, n):
    return [(p["data"]["seat"], p["data"]["cards"]) for p in d.payloads("events", "play_accepted")[-n:]]


def test_follows_of_a_throw_taken_back_are_judged_against_the_unit_it_leads_not_the_throw():
    """001 十九: 甩错牌一旦成，一次扣罚20分，且甩牌不成立 (the followers follow the forced unit anew). S throws SA SK, W's
    third-deck SA beats SK: the throw does not stand and S leads SK alone. E, N and W take their follows back into their
    hands and follow with one card each, N and W with a card they had laid (where it lay, moments before). Before, the
    tracker still expected the throw's two cards and counted the cards taken back as gone: E's follow came
    ``vision.wrong_size``, N's and W's ``vision.returned`` too, each a flag a person had to clear. Now the tracker
    takes the lead from the table's state (SK) and the cards the table gave back as back in the hands."""
    d, cam = _follows_taken_back()
    _follow_the_unit_anew(d, cam)


def test_a_state_delivered_again_after_newer_ones_changes_nothing():
    """001 十九 (甩牌不成立) as above, the camera told again, once the follows are picked up, the state in which the throw
    stood: a broker restarted from its last save sends a camera states it had (``hall camera``). Told it as new, the
    tracker took S's throw for the trick's lead again: E's follow of one card came ``vision.wrong_size``. The state is
    older than the last told (a lower ``seq``, made earlier): it changes nothing."""
    d, cam = _follows_taken_back()
    cam.tracker = told(cam.tracker, cam.states[1])  # S's throw standing, E's follow laid
    _follow_the_unit_anew(d, cam)


def _follows_taken_back():
    """S throws SA SK, E, N and W follow with two cards each, W's third-deck SA among them: the throw is taken back, and
    the three take their follows back into their hands."""
    d = Driver("classic-3deck")
    d.start()
    d.declare_and_take_kitty("S", "H")
    cam = Camera(d)
    for seat, cards in (("S", ["SA", "SK"]), ("E", ["S3", "S4"]), ("N", ["S5", "S6"]), ("W", ["SA", "S7"])):
        cam.lay(seat, cards)
    assert d.kinds()[-2:] == ["throw_taken_back", "flag_raised"] and _flags(d) == [("laid_taken_back", "E")]
    for seat, cards in (("E", ["S3", "S4"]), ("N", ["S5", "S6"]), ("W", ["SA", "S7"])):
        cam.lift(seat, cards, dt=1.0)
    assert not d.table.flags and d.kinds().count("picked_up") == 3 and d.table.turn() == "E"
    return d, cam


def _follow_the_unit_anew(d, cam):
    """E, N and W follow S's SK with one card each: unflagged, and played."""
    sent = [cam.lay("E", ["S9"]), cam.lay("N", ["S5"]), cam.lay("W", ["SA"])]
    assert sent == [[("E", ("S9",), ())], [("N", ("S5",), ())], [("W", ("SA",), ())]]
    assert _played(d, 3) == [("E", ["S9"]), ("N", ["S5"]), ("W", ["SA"])] and d.table.judge.tricks[0].winner == "W"
    assert not d.table.flags and not d.payloads("events", "rejected")


def test_cards_shown_out_of_turn_neither_set_the_lead_nor_count_as_played_once_taken_back():
    """001 二十二: 凡不按规定的出牌顺序，过早地将牌亮在桌上…越序出牌. N shows S4 S5 before S leads, confirmed out of turn; they
    lie there while S leads S3 and E follows S6. At N's turn the table asks about them; N takes both back into its hand
    (which answers it) and follows with the S4, laid where it lay. Before, N's two cards were the trick's first the
    camera saw: S's lead and E's follow came ``vision.wrong_size`` (lead 2), and N's S4 ``vision.returned`` (picked up
    a moment before) and the wrong size too. Now the lead is the play of the seat the table has on turn, and cards the
    table never held as played are back in the hand."""
    d = Driver("classic-3deck")
    d.start()
    d.declare_and_take_kitty("S", "H")
    cam = Camera(d)
    cam.lay("N", ["S4", "S5"])
    d.send("commands", {"command": "confirm", "flag": next(f for f in d.table.flags if f.kind == "out_of_turn").flag})
    assert [cam.lay("S", ["S3"]), cam.lay("E", ["S6"])] == [[("S", ("S3",), ())], [("E", ("S6",), ())]]
    assert _flags(d) == [("laid_out_of_turn", "N")]
    cam.lift("N", ["S4", "S5"], dt=1.0)
    assert d.kinds()[-2:] == ["picked_up", "flag_resolved"] and not d.table.flags
    assert cam.lay("N", ["S4"]) == [("N", ("S4",), ())]
    assert _played(d, 3) == [("S", ["S3"]), ("E", ["S6"]), ("N", ["S4"])] and not d.table.flags


# S's five leads (test_guandan_taken_back.LEADS): its second and last share S6 H6, and two decks hold two of each.
LEADS = ["S3 H3 S4 H4 S5 H5", "S6 H6 S7 H7 S8 H8", "S9 H9 ST HT SJ HJ", "SQ HQ SK HK SA HA", "S6 H6 C6"]


def test_a_going_out_play_taken_back_and_laid_again_is_no_card_left_the_hand():
    """002 九 3: 如报错牌张或故意隐瞒，则已出完的牌必须收回重出（对方选手可以打牌压）. S leads five times, each lead passed by
    all and cleared from the table, and goes out with S6 H6 C6; the referee records S's misreported count: the triple
    is taken back (``hand_reopened``), S picks it up and plays it again where it lay. Before, the tracker counted the
    triple as gone from the hand when S picked it up: laid again, with the S6 H6 of S's second lead, three S6 of two
    decks came ``vision.left`` (a card that already left the hand). Now the table's state gave them back to S's hand."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    cam = Camera(d, "guandan", decks=2)
    for cards in LEADS:
        cam.lay("S", cards.split())
        while d.table.phase == "playing" and d.table.hand.table is not None:
            d.press(d.state()["turn"], "pass")
        if cards != LEADS[-1]:
            cam.lift("S", cards.split())
    assert d.table.hand.finish == ("S",)
    d.send("commands", {"command": "foul", "seat": "S", "kind": "count_misreport"})
    cam.tracker = told(cam.tracker, d.state())
    assert "hand_reopened" in [e["kind"] for e in d.events()[-3:]] and d.state()["turn"] == "S"
    cam.lift("S", LEADS[-1].split(), dt=1.0)
    assert cam.lay("S", LEADS[-1].split()) == [("S", ("C6", "H6", "S6"), ())]
    assert d.table.hand.finish == ("S",) and d.state()["turn"] == "E" and not d.state()["flags"]
