"""Cards a seat showed out of turn, confirmed so, lie on the table: the camera sends a card once (``vision.tracker``), so
when the seat's turn comes the table asks at once whether they are its play (``laid_out_of_turn``), the clocks paused,
never timing a play that lies there (every game: ``Reducer._lying_asked``)."""

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


def test_guandan_asks_when_the_trick_comes_round_to_the_seat_again_not_at_the_turn_it_sits_out():
    """002 十一 3: 上家没有出牌，下家就出牌，称为越序出牌。如是越序出牌则停止一轮出牌，由下家出牌; 十一 1: 任何一方所出的牌，
    一旦被对方看到…后不得收回. N sits its turn out (no play awaited, nothing to ask); when the trick comes round to N
    again its card still lies there, and the Guandan clock (十二 第3条: 视作放弃本次出牌权) would give N's turn up."""
    d = Table_(GD)
    d.start()
    d.press("S", "ready")
    d.show("S", ["S3"])
    d.show("N", ["SA"])  # before E
    d.send("commands", {"command": "confirm", "flag": d.violations()[-1]["flag"]})
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
