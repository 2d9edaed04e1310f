"""What the climbing tables' tests share: a table fed inputs at injected times (:class:`Table_`), a Guandan hand and
tribute and a San Da Yi game played by the engines' bots."""

from referee.cards import Card, Cards
from referee.guandan.bots import random_play as guandan_play
from referee.guandan.hand import Hand
from referee.guandan.tribute import is_legal_return, legal_tributes
from bus.protocol import encode
from referee.rulebooks import load
from referee.sandayi.bots import deal as deal_sandayi
from referee.sandayi.bots import random_bid
from referee.sandayi.bots import random_play as sandayi_play
from referee.sandayi.game import Game
from referee.seats import SEATS
from referee.table.reducer import Output
from referee.table.tables import new_table

GD, SDY = "sanjiang-2012", "usst-2016"


class Table_:
    """A table fed inputs at injected times; every output and state is checked against its schema."""

    def __init__(self, rulebook, at=1000.0):
        self.table = new_table("t1", rulebook)
        self.rules = load(rulebook)
        self.at, self.seq, self.outputs, self.log = at, 0, [], []

    def send(self, name, payload, dt=1.0):
        self.at += dt
        self.seq += 1
        payload = {"v": 1, "id": f"m{self.seq}", **payload} | ({"at": self.at} if name not in ("commands", "clock") else {})
        self.log.append((name, payload, self.at, self.seq))
        self.table, out = self.table.apply(name, payload, self.at, self.seq)
        for o in out + [Output("state", self.state()), Output("board/out", self.table.board(self.at))]:
            encode(o.name, o.payload)
        self.outputs += out
        return out

    def state(self, at=None):
        return self.table.state(self.at if at is None else at)

    def press(self, seat, button, dt=1.0):
        return self.send("board/in", {"seat": seat, "button": button}, dt)

    def show(self, seat, cards, dt=1.0, confidence=0.99):
        return self.send("observed", {"seat": seat, "cards": (cards if isinstance(cards, Cards) else Cards.parse(cards)).names(), "confidence": confidence}, dt)

    def events(self, kind=None):
        return [o.payload for o in self.outputs if o.name == "events" and kind in (None, o.payload["kind"])]

    def violations(self, kind=None):
        return [o.payload for o in self.outputs if o.name == "violations" and kind in (None, o.payload["kind"])]

    def start(self):
        self.send("commands", {"command": "assign", "rulebook": self.table.rulebook, "players": {s: s * 2 for s in SEATS}})
        self.send("commands", {"command": "start_round"})
        for seat in SEATS:
            self.press(seat, "ready")


def guandan_hand(d, rng, hands, *, think=2.0):
    """Play the hand in play to its end as the bots, a mirror :class:`Hand` choosing (no declared readings: a wildcard
    play's reading asked, a lead's or a follow's, is answered as said by none, the lowest standing, as the mirror reads
    it)."""
    h = d.table.hand
    mirror = Hand.start(d.rules, h.level, h.leader, h.exchanges)
    while not mirror.over:
        seat = mirror.turn
        assert d.state()["turn"] == seat
        chosen = guandan_play(d.rules, mirror.level, hands[seat], mirror.table.reading if mirror.table else None, rng)
        if chosen is None:
            mirror = mirror.pass_(seat)
            d.press(seat, "pass", dt=think)
        else:
            mirror = mirror.play(seat, chosen[0])
            hands[seat] -= chosen[0]
            d.show(seat, chosen[0], dt=think)
            for flag in [f for f in d.state()["flags"] if f["kind"] == "play_reading"]:  # 二: its seat said nothing, as
                d.send("commands", {"command": "confirm", "flag": flag["flag"]})  # the mirror reads it: the lowest
        assert d.state()["cards"] == {s: mirror.count(s) for s in SEATS} or mirror.over
    return mirror


def guandan_tribute(d, rng, hands):
    """The tribute of the hand being drawn, as the bots pay and return it (big jokers refuse it)."""
    p, bj = d.table.tribute, Card.parse("BJ")
    shown = {s: hands[s].count(bj) for s in p.payers}
    if sum(shown.values()) >= 2:
        for seat, n in shown.items():
            if n:
                d.show(seat, Cards([bj] * n))
        return
    for payer in p.payers:
        d.show(payer, [rng.choice(legal_tributes(d.rules, p.level, hands[payer]))])
    exchanges = d.table.tribute.exchanges
    for x in exchanges:
        hands[x.giver] -= Cards([x.tribute])
        hands[x.receiver] += Cards([x.tribute])
    for x in exchanges:
        card = next(c for c in hands[x.receiver].distinct() if is_legal_return(d.rules, p.level, c))
        d.show(x.receiver, [card])
        hands[x.receiver] -= Cards([card])
        hands[x.giver] += Cards([card])


def sandayi_game(d, rng, *, check=True):
    """Deal, bid and play one game as the bots, a mirror :class:`Game` (hands known) choosing."""
    first = d.state()["turn"]
    mirror = Game.start(d.rules, *deal_sandayi(d.rules, rng, first), first)
    while mirror.phase == "bidding":
        seat, bid = mirror.turn, random_bid(mirror, rng)
        mirror = mirror.bid(seat, bid)
        d.press(seat, "pass" if bid == "pass" else f"bid{bid}")
    assert (d.table.phase, d.state()["dealer"], d.state()["turn"]) == ("kitty", mirror.dealer, mirror.dealer)
    mirror = mirror.take_kitty(mirror.dealer)
    d.press(mirror.dealer, "ready")
    while not mirror.over:
        seat = mirror.turn
        assert d.state()["turn"] == seat
        prev = mirror.last.reading if mirror.last else None
        cards = sandayi_play(d.rules, mirror.hand(seat), prev, rng, bombs=mirror.bomb_allowed(seat))
        if cards is None:
            mirror = mirror.pass_(seat)
            d.press(seat, "pass")
        else:
            mirror = mirror.play(seat, cards)
            d.show(seat, cards)
            assert not check or d.state()["cards"][seat] == mirror.count(seat) or mirror.over
    return mirror
