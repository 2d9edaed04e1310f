"""What the table on a bad evening (``tests/properties/test_table_evening.py``) found, each in its smallest form."""

import random

from bus.protocol import encode

from referee.cards import Cards, Decks
from referee.catalogue.sentences import Sentences
from referee.seats import SEATS
from referee.table.tables import new_table
from referee.tractor.bots import deal, legal_follow


class Table:
    """A Tractor table fed as the camera, the board and the console would; every output checked against its schema."""

    def __init__(self, rulebook):
        self.table, self.at, self.seq, self.outputs = new_table("t1", rulebook), 1000.0, 0, []

    def send(self, name, payload):
        self.at += 1.0
        self.seq += 1
        payload = {"v": 1, "id": f"m{self.seq}", **payload} | ({} if name == "commands" else {"at": self.at})
        self.table, out = self.table.apply(name, payload, self.at, self.seq)
        for o in out:
            encode(o.name, o.payload)
        self.outputs += out
        return [o.payload for o in out if o.name == "events"]

    def show(self, seat, cards):
        return self.send("observed", {"seat": seat, "cards": Cards(cards).names(), "confidence": 0.99})

    def played_out(self, seed):
        """A hand dealt, S declaring hearts and taking the kitty, played out by the bots (singles led): the kitty."""
        self.send("commands", {"command": "start_round"})
        for seat in SEATS:
            self.send("board/in", {"seat": seat, "button": "ready"})
        self.show("S", Cards.parse(["H" + self.table.game.hand_level()]))
        self.send("board/in", {"seat": "E", "button": "declare"})
        self.send("board/in", {"seat": "S", "button": "ready"})
        rng = random.Random(seed)
        hands, kitty = deal(self.table.rules.deal.decks, self.table.rules.deal.kitty, rng)
        while self.table.phase in ("kitty", "playing"):
            seat, judge = self.table.turn(), self.table.judge
            trick = judge.tricks[-1] if judge and judge.tricks and not judge.tricks[-1].complete else None
            if trick is None:
                play = Cards([min(hands[seat], key=str)])
            else:
                play = legal_follow(self.table.trumps, hands[seat], trick.plays[0][1], rng, [c for _, c in trick.plays[1:]])
            self.show(seat, play)
            hands[seat] -= play
        assert self.table.phase == "hand_over"
        return kitty


def test_a_kitty_read_that_outnumbers_the_decks_asks_a_person():
    """001 十〈1〉: 留6张底牌反扣放在台中间 — the dealer turns the kitty up once the hand is played out. A read of it that,
    with the cards seen, holds more copies of a card than the decks (a misread of it, or of a play before) was refused
    for ever: the hand was never scored and nobody was asked (the bad evening: a copy of a last play taken as cards held
    back). It is an ``impossible`` flag for a person, who corrects the read into the kitty as it lies (decided: no seed
    says how a misread is put right)."""
    t = Table("classic-3deck")
    kitty = t.played_out(seed=3)
    seen = next(c for c in Decks(3).full().distinct() if c not in kitty)  # every copy of it was played
    misread = Cards(list(kitty)[1:] + [seen])
    events = t.show("S", misread)
    assert [(e["kind"], e["data"].get("kind")) for e in events] == [("flag_raised", "impossible")]
    assert events[0]["data"]["why"]["key"] == "tractor.in_kitty"
    assert t.table.phase == "hand_over" and t.table.flags
    events = t.send("commands", {"command": "correct", "flag": t.table.flags[0].flag, "cards": kitty.names()})
    assert "hand_scored" in [e["kind"] for e in events] and t.table.phase == "dealing"


def test_a_read_thrown_away_is_said_in_the_readers_language():
    """PROTOCOL: an input the table refuses is answered ``rejected`` with its reason. A read that waited behind a flag and
    was thrown away (the round ended first, or the referee entered the seat's play) was said in English only, with no
    ``why`` for a display to say in its language: a Chinese console showed the refusal without its reason."""
    t = Table("classic-3deck")
    kitty = t.played_out(seed=3)
    t.send("observed", {"seat": "S", "cards": kitty.names(), "confidence": 0.5})  # unsure: a flag
    assert [e["kind"] for e in t.show("W", Cards.parse(["S4"]))] == ["play_waits"]
    events = t.send("commands", {"command": "stop_round"})
    dropped = [e["data"] for e in events if e["kind"] == "rejected"]
    assert [d["id"] for d in dropped] == [f"m{t.seq - 1}"] and dropped[0]["why"]["key"] == "table.round_ended_unjudged"
    assert Sentences("zh").event({"kind": "rejected", "data": dropped[0]}).endswith("本轮在判定这条输入之前已结束：它不算数")
