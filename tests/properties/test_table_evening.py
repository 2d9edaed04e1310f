"""The table on a bad evening: whole hands of each game (a Tractor book, Guandan, San Da Yi) played by the bots
through the table's own reducer and a real event log, with noise at random: unsure reads, inputs sent twice
(the same id, and the same read with a new one), two plays arriving swapped, a play by a seat not on turn, a
pickup, a referee call, a pass, a stray read of cards nobody holds, inputs dated before the last one, the camera or
the board dropping, a console command out of place, and the table's flags answered at random (confirm, dismiss, or
correct into what lies on the table; in some runs a careless referee confirms wrong counts it could see are wrong).

After every step: nothing but a refusal in words (a ``rejected`` event carries its reason, ``why``, for the
catalogue to say); every output, ``state`` and ``board/out`` fits its schema; no violation with a penalty confirmed
by an unsure read alone (PROTOCOL: "the judge never penalises on an unsure read"); the table never stuck silently (a
read held with no flag open, or many inputs in a row that move nothing); and at the end, the log replayed from
scratch as the service replays it gives the same outputs, entry by entry, and the same state.

Seeded ``random.Random`` runs (many seeds, a few hands each), kept under a minute in all. The driver mirrors the
hands from what the table accepted (``play_accepted``, the tribute's exchanges, the kitty), so its bots play on
whatever a person answered. A read that is sure, from the seat on turn and wrong is a camera's error the table
cannot tell from a play (no person is asked): the driver never makes one.
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import pytest

from bus.protocol import PayloadError, decode, encode
from referee.cards import Card, Cards, Decks
from referee.guandan import bots as gd_bots
from referee.guandan.tribute import is_legal_return, legal_tributes
from referee.rulebooks import load
from referee.sandayi import bots as sdy_bots
from referee.seats import SEATS
from referee.table.amend import as_amended
from referee.table.deadlines import RULE_LAG_S
from referee.table.log import EventLog
from referee.table.reducer import CLOCK, CONFIDENT, DEVICES, PRESENCE, REFEREE_ONLY, Output
from referee.table.tables import new_table
from referee.tractor.bots import deal as tr_deal, legal_follow, random_lead, random_throw

NOISE = (0.05, 0.15, 0.35)  # the share of steps that add noise (one of these a run)
ANSWER = 0.6  # the chance a person answers an open flag at a step
SLOW = 0.03  # the share of steps that take long (past a shot clock, a stall)
QUIET = 80  # this many inputs in a row that move nothing: the table is stuck
CARELESS = 0.3  # the share of runs whose referee confirms cards held back that it could see are not
STEPS = 2500  # a run's steps at most (a hand takes a few hundred)
FRUITLESS = frozenset({"rejected", "play_waits", "referee_called"})


def penalised(v: dict) -> bool:
    p = v["penalty"]
    return bool(p.get("points") or p.get("warning") or p.get("forfeit") or p.get("foul"))


class Evening:
    """One table, its log, the bots' hands as the table has them, and every output."""

    def __init__(self, rulebook: str, seed: int, db) -> None:
        self.rules, self.rng = load(rulebook), random.Random(f"{rulebook}:{seed}")
        self.noise = self.rng.choice(NOISE)
        # A careless referee confirms what it could see is wrong (cards held back that a seat does not hold): the hand
        # may then need an amendment to be scored, but the table must say so (a flag), never sit silent.
        self.careless = self.rng.random() < CARELESS
        self.game = self.rules.game
        self.table = new_table("t9", rulebook)
        self.log = EventLog.open(db)
        self.at, self.n, self.quiet = 1000.0, 0, 0
        self.hands: dict[str, Cards] = {}
        self.kitty = Cards()
        self.dealt = 0
        self.true: dict[str, tuple[str, Cards]] = {}  # id of a read of a real play -> (seat, cards)
        self.outputs: dict[int, list[Output]] = {}
        self.trace: list[str] = []

    # -- sending, as the service does ---------------------------------------------------------------------
    def payload(self, name: str, body: dict, at: float | None = None) -> dict:
        self.n += 1
        p = {"v": 1, "id": f"x{self.n}", **body}
        return p | ({"at": self.at if at is None else at} if name != "commands" else {})

    def send(self, name: str, p: dict) -> list[Output]:
        try:
            decode(name, p)
        except PayloadError as exc:  # the service refuses it in words, logs nothing
            assert str(exc)
            return []
        at = max(p.get("at", self.at), self.at) if name == "commands" else p["at"]
        self._time(at)
        seq = self.log.append(name, p, at, input_id=f"{name} {p['id']}")
        if seq is None:  # a copy of a logged input: the service drops it
            return []
        return self._apply(name, p, at, seq)

    def _time(self, at: float) -> None:
        """The service's ``clock`` entries: a deadline passed before ``at`` that rules something."""
        while (d := self.table.next_deadline()) is not None and d + RULE_LAG_S <= at and self.table.rules_by(d + RULE_LAG_S):
            seq = self.log.append(CLOCK, {}, d + RULE_LAG_S)
            self._apply(CLOCK, {}, d + RULE_LAG_S, seq)

    def _apply(self, name: str, p: dict, at: float, seq: int) -> list[Output]:
        self.trace.append(f"{seq} {name} {p}")
        timed = {o.payload["flag"] for o in self.table._view(at)._events if o.name == "violations"}  # time ruled them
        self.table, out = self.table.apply(name, p, at, seq)
        self.outputs[seq] = out
        self.at = max(self.at, at)
        for o in out + [Output("state", self.table.state(self.at)), Output("board/out", self.table.board(self.at))]:
            encode(o.name, o.payload)  # PayloadError: the output breaks its schema
        unsure = name in ("observed", "removed") and p.get("confidence", 1.0) < CONFIDENT
        for o in out:
            assert not (unsure and o.name == "violations" and o.payload["status"] == "confirmed" and penalised(o.payload)
                        and o.payload["flag"] not in timed), \
                f"an unsure read penalised: {o.payload}\n" + self.tail()
            if o.name == "events":
                assert o.payload["kind"] != "rejected" or "why" in o.payload["data"], f"refused, no reason in words: {o.payload}"
                self._mirror(o.payload)
        kinds = {o.payload["kind"] for o in out if o.name == "events"}
        self.quiet = self.quiet + 1 if kinds <= FRUITLESS and not any(o.name == "violations" for o in out) else 0
        return out

    def _mirror(self, e: dict) -> None:
        """The bots' hands as the table has them."""
        d = e["data"]
        if e["kind"] == "play_accepted":
            cards = Cards.parse(d["cards"])
            assert self.hands[d["seat"]].contains(cards), f"the table took cards {d['seat']} does not hold: {d}\n" + self.tail()
            self.hands[d["seat"]] -= cards
        elif e["kind"] == "tribute_given":
            for x in d["exchanges"]:
                self._move(x["from"], x["to"], x["card"])
        elif e["kind"] == "card_returned":
            self._move(d["seat"], d["to"], d["card"])
        elif e["kind"] == "kitty_to_dealer":
            self.hands[d["dealer"]] += self.kitty

    def _move(self, giver: str, receiver: str, card: str) -> None:
        self.hands[giver] -= Cards.parse([card])
        self.hands[receiver] += Cards.parse([card])

    def tail(self) -> str:
        return "\n".join(self.trace[-25:])

    # -- the bots: what the table waits for --------------------------------------------------------------
    def natural(self, t) -> tuple[str, dict] | None:
        """The input the players would make next at table ``t`` (None: nothing to do but wait)."""
        ph = t.phase
        reads = [p for p in t.waiting] + [f.pending for f in t.flags if f.pending]
        if ph in ("idle", "round_over") or any(p["seat"] == t.turn() for p in reads):
            return None  # (a seat whose play waits for the referee waits too)
        if ph == "arriving":
            return self.press(self.rng.choice([s for s in SEATS if s not in t.ready]), "ready")
        self.deal(t)
        act = getattr(self, f"{self.game}_{ph}", None)
        return act(t) if act else None

    def press(self, seat: str, button: str) -> tuple[str, dict]:
        return "board/in", {"seat": seat, "button": button}

    def show(self, seat: str, cards: Cards, true: bool = True) -> tuple[str, dict]:
        return "observed", {"seat": seat, "cards": cards.names(), "confidence": 0.97, "true": true}

    def deal(self, t) -> None:
        if self.dealt == t.hand_no:
            return
        self.dealt, r = t.hand_no, self.rules
        if self.game == "tractor":
            self.hands, self.kitty = tr_deal(r.deal.decks, r.deal.kitty, self.rng)
        elif self.game == "guandan":
            self.hands = gd_bots.deal(r, self.rng)
        else:
            self.hands, self.kitty = sdy_bots.deal(r, self.rng, t.game.turn)

    def tractor_dealing(self, t):
        if t.declaring.draw_done_at is None:
            level = t.game.hand_level()
            holders = [s for s in SEATS if any(c.rank == level and not c.is_joker for c in self.hands[s])]
            if holders and t.declaring.standing is None and self.rng.random() < 0.5:
                seat = self.rng.choice(holders)
                return self.show(seat, Cards([next(c for c in self.hands[seat] if c.rank == level and not c.is_joker)]))
            return self.press(self.rng.choice(SEATS), "declare")
        return self.press(t._dealer_to_be() or self.rng.choice(SEATS), "ready")

    def tractor_kitty(self, t):
        if t.trump is None:
            return self.show(t.dealer, Cards([min((c for c in self.hands[t.dealer] if not c.is_joker), key=str)]))
        return self.tractor_playing(t)

    def tractor_playing(self, t):
        seat, trumps = t.turn(), t.trumps
        hand = self.hands[seat]
        if not hand:
            return self.press(seat, "pass")
        trick = t.judge.tricks[-1] if t.judge and t.judge.tricks and not t.judge.tricks[-1].complete else None
        if trick is None:
            others = {s: h for s, h in self.hands.items() if s != seat}
            throw = random_throw(trumps, hand, others, self.rng) if self.rng.random() < 0.2 else None
            return self.show(seat, throw or random_lead(trumps, hand, self.rng))
        lead = trick.plays[0][1]
        if len(hand) < len(lead):
            return self.show(seat, hand)
        return self.show(seat, legal_follow(trumps, hand, lead, self.rng, [c for _, c in trick.plays[1:]]))

    def tractor_hand_over(self, t):
        """The dealer turns up the kitty; turned up while cards were never seen (the hand waits for cards held back), or
        with none to turn up, its ``ready`` ends the hand."""
        return self.show(t.dealer, self.kitty) if self.kitty and t.judge.kitty is None else self.press(t.dealer, "ready")

    def guandan_dealing(self, t):
        p = t.tribute
        if p is None:
            return self.press(self.rng.choice(SEATS), "ready")
        seat, level, refuse = t.turn(), p.level, self.rules.tribute.refuse_with
        if seat in p.payers and seat not in dict(p.paid):
            jokers = {s: self.hands[s].count(refuse) for s in p.payers}
            if sum(jokers.values()) >= self.rules.tribute.refuse_count and jokers[seat]:
                return self.show(seat, Cards([refuse] * jokers[seat]))
            return self.show(seat, Cards([legal_tributes(self.rules, level, self.hands[seat])[0]]))
        legal = [c for c in self.hands[seat].distinct() if is_legal_return(self.rules, level, c)]
        return self.show(seat, Cards([self.rng.choice(legal)]))

    def guandan_playing(self, t):
        seat, h = t.turn(), t.hand
        chosen = gd_bots.random_play(self.rules, h.level, self.hands[seat], h.table.reading if h.table else None, self.rng)
        return self.press(seat, "pass") if chosen is None else self.show(seat, chosen[0])

    def sandayi_bidding(self, t):
        return self.press(t.turn(), "pass" if (b := sdy_bots.random_bid(t.game, self.rng)) == "pass" else f"bid{b}")

    def sandayi_kitty(self, t):
        return self.press(t.dealer, "ready")

    def sandayi_playing(self, t):
        seat, g = t.turn(), t.game
        prev = g.last.reading if g.last else None
        chosen = sdy_bots.random_play(self.rules, self.hands[seat], prev, self.rng, bombs=g.bomb_allowed(seat))
        return self.press(seat, "pass") if chosen is None else self.show(seat, chosen)

    # -- noise ---------------------------------------------------------------------------------------------
    def stray(self, seat: str) -> Cards:
        """Cards ``seat`` does not hold (played already, another's, or more copies than the decks hold)."""
        pool = [c for c in Decks(self.rules.deal.decks).full().distinct() if c not in self.hands.get(seat, Cards())]
        cards = self.rng.sample(pool, self.rng.randint(1, 2)) if pool else []
        if not cards or self.rng.random() < 0.2:
            cards = [Card.parse("S5")] * (self.rules.deal.decks + 1)
        return Cards(cards)

    def step(self) -> None:
        t = self.table._view(self.at)
        if t.flags and self.rng.random() < ANSWER:
            return self.answer(t, self.rng.choice(t.flags))
        if t.down and self.rng.random() < 0.5:
            return self.presence(self.rng.choice(t.down), "online")
        nat = self.natural(t)
        self.at += self.rng.choice((9.0, 25.0, 70.0, 200.0)) if self.rng.random() < SLOW else self.rng.uniform(0.5, 4.0)
        if self.rng.random() >= self.noise:
            return self.go(*nat) if nat else self.wait()
        kind = self.rng.choice(("unsure", "twice", "again", "swap", "wrong_seat", "removed", "referee", "pass", "stray", "early",
                                "down", "console"))
        getattr(self, "noise_" + kind)(t, nat)

    def wait(self) -> None:
        """Time passes with no input: the ``clock`` entry the service logs."""
        self._time(self.at)
        self._apply(CLOCK, {}, self.at, self.log.append(CLOCK, {}, self.at))

    def go(self, name: str, body: dict, confidence: float | None = None, at: float | None = None) -> dict:
        body = dict(body)
        true = body.pop("true", False)
        if confidence is not None:
            body["confidence"] = confidence
        p = self.payload(name, body, at)
        if true:
            self.true[p["id"]] = (body["seat"], Cards.parse(body["cards"]))
        self.send(name, p)
        return p

    def noise_unsure(self, t, nat):
        if nat and nat[0] == "observed":
            self.go(*nat, confidence=round(self.rng.uniform(0.3, 0.89), 2))

    def noise_twice(self, t, nat):  # the broker delivers an input again: the same id
        if nat:
            p = self.go(*nat)
            self.send(nat[0], p)

    def noise_again(self, t, nat):  # the camera reports one read twice, under two ids
        if nat:
            self.go(*nat)
            if nat[0] == "observed" and (self.table.turn() == nat[1]["seat"] or self.table.flags):
                return  # the seat is on turn again (or may be, once the copy is judged): a sure wrong read
            self.at += 0.2
            self.go(nat[0], dict(nat[1], true=False))

    def noise_swap(self, t, nat):  # two plays arrive in the wrong order, each with its own time
        if not nat or nat[0] != "observed" or t.phase != "playing":
            return
        first = self.payload(*self._strip(nat))
        ahead, _ = t.apply(nat[0], first, self.at, 10**9)  # what the table would be once the first is taken
        saved = dict(self.hands)
        self.hands[nat[1]["seat"]] -= Cards.parse(nat[1]["cards"])
        second = self.natural(ahead) if not ahead.flags and (ahead.phase, ahead.hand_no) == (t.phase, t.hand_no) else None
        self.hands = saved
        self.true[first["id"]] = (nat[1]["seat"], Cards.parse(nat[1]["cards"]))
        if second:
            self.go(*second, at=self.at + 1.0)
        self.send(nat[0], first)

    def _strip(self, nat):
        return nat[0], {k: v for k, v in nat[1].items() if k != "true"}

    def noise_wrong_seat(self, t, nat):
        seats = [s for s in SEATS if s != t.turn() and self.hands.get(s)]
        if seats and t.phase == "playing":
            seat = self.rng.choice(seats)
            self.go("observed", {"seat": seat, "cards": [str(self.rng.choice(list(self.hands[seat])))], "confidence": 0.95})

    def noise_removed(self, t, nat):
        seat = self.rng.choice(SEATS)
        trick = t._current_trick() if t.phase == "playing" else None
        lying = [p["cards"] for p in (trick or {}).get("plays", []) if p["seat"] == seat]
        cards = lying[0] if lying else self.stray(seat).names()
        self.go("removed", {"seat": seat, "cards": cards, "confidence": self.rng.choice((0.5, 0.95))})

    def noise_referee(self, t, nat):
        self.go(*self.press(self.rng.choice(SEATS), "referee"))

    def noise_pass(self, t, nat):
        self.go(*self.press(self.rng.choice(SEATS), "pass"))

    def noise_stray(self, t, nat):
        seat = self.rng.choice(SEATS)
        sure = t.phase == "playing" and seat != t.turn() and not t.flags  # (a read that waits is judged later)
        self.go("observed", {"seat": seat, "cards": self.stray(seat).names(),
                             "confidence": self.rng.choice((0.95, 0.6)) if sure else 0.6})

    def noise_down(self, t, nat):  # the camera or the board drops (it comes back as the players' next input)
        self.presence(self.rng.choice(DEVICES), self.rng.choice(("lost", "offline")))

    def presence(self, device: str, status: str) -> None:
        """The service's ``presence`` entry (it logs a change only)."""
        if self.table.presence_of(device) != status:
            p = {"v": 1, "device": device, "status": status}
            self._apply(PRESENCE, p, self.at, self.log.append(PRESENCE, p, self.at))

    def noise_console(self, t, nat):  # a command out of place: refused in words, or the last hand announced
        self.go("commands", self.rng.choice(({"command": "start_round"}, {"command": "last_hand"},
                                             {"command": "confirm", "flag": "f1"}, {"command": "dismiss", "flag": "v999"})))

    def noise_early(self, t, nat):  # dated before the last input
        if nat:
            self.go(*nat, at=self.at - self.rng.uniform(3.0, 40.0))

    # -- a person answers ----------------------------------------------------------------------------------
    def answer(self, t, flag) -> None:
        """Confirm, dismiss or correct, as a person who looks at the table may: confirmed only what is so (a read of a
        real play, cards a seat does hold back), unless the referee is careless; corrected only into the play there."""
        read = flag.pending and flag.pending.get("id")
        truth = self.true.get(read) if read else None
        shown = Cards.parse(list(flag.cards))
        if flag.kind in ("unsure", "too_many", "impossible", "out_of_turn"):  # out of turn: a real play, not a copy of one
            so = truth is not None and (truth[0], truth[1].names()) == (flag.seat, shown.names())
        elif flag.kind in ("laid_out_of_turn", "laid_taken_back"):  # cards lying there, played once confirmed: held?
            so = self.hands[flag.seat].contains(shown)
        elif flag.kind == "wrong_card_count" and shown:  # cards shown once every seat was out (多牌): held back?
            so = self.hands[flag.seat].contains(shown) or self.careless
        else:
            so = True
        hows = ["dismiss"] + (["confirm"] if so else [])
        cards = None
        if truth is not None and flag.kind not in ("unsure_pickup",):
            cards = truth[1].names()
        elif flag.kind == "stalled" and (nat := self.natural(t)) and nat[0] == "observed" and nat[1]["seat"] == flag.seat:
            cards = nat[1]["cards"]
        if cards is not None and flag.pending is not None:
            hows.append("correct")
        how = self.rng.choice(hows)
        self.at += self.rng.uniform(5.0, 30.0)
        if how == "confirm" and flag.kind not in REFEREE_ONLY and self.rng.random() < 0.3:
            self.go(*self.press(flag.seat, "confirm"))
            return
        self.go("commands", {"command": how, "flag": flag.flag} | ({"cards": cards} if how == "correct" else {}))

    # -- a run -----------------------------------------------------------------------------------------------
    def run(self, hands: int) -> None:
        self.go("commands", {"command": "start_round"})
        for _ in range(STEPS):
            if self.table.phase == "round_over" or self.table.hand_no > hands:
                break
            self.step()
            view = self.table._view(self.at)
            assert view.flags or not view.waiting or view.phase in ("idle", "round_over"), "reads held, no flag open\n" + self.tail()
            assert self.quiet < QUIET, "the table is stuck: nothing moves it\n" + self.tail()
        else:
            assert self.careless, f"{STEPS} steps and the hands are not played\n" + self.tail()
        ended = {"hand_scored", "game_scored", "game_won", "round_forfeited"}  # the noise left the games played
        assert self.careless or ended & {o.payload["kind"] for out in self.outputs.values() for o in out if o.name == "events"}
        self.go("commands", {"command": "stop_round"})
        self.replayed()

    def replayed(self) -> None:
        """The log replayed from scratch, as the service does at its start: the same outputs, the same state."""
        rows = [(e.kind, e.payload, e.at, e.seq) for e in self.log.entries()]
        table = new_table("t9", self.rules.id)
        for kind, p, at, seq in as_amended(rows):
            table, out = table.apply(kind, p, at, seq)
            assert [(o.name, o.payload) for o in out] == [(o.name, o.payload) for o in self.outputs[seq]], f"entry {seq}"
        assert table.state(self.at) == self.table.state(self.at)
        assert table.board(self.at) == self.table.board(self.at)


BOOKS = {"classic-3deck": 8, "zhongkai-2010": 8, "shaoguan-2023": 8, "shaoguan-2023-nokitty": 8,  # runs of each
         "sanjiang-2012": 12, "sanjiang-2012-stage-two": 12, "usst-2016": 16}
CASES = [(book, seed) for book, n in BOOKS.items() for seed in range(n)]


@pytest.fixture
def db():
    """The log on tmpfs where there is one: each input is a commit, and a disk's syncs took half the time."""
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as folder:
        yield Path(folder) / "t9.db"


@pytest.mark.parametrize(("rulebook", "seed"), CASES)
def test_a_bad_evening(rulebook, seed, db):
    Evening(rulebook, seed, db).run(hands=2)
