"""A San Da Yi table (``usst-2016``, seed 004) as a pure reducer over the climbing table.

The flow, from the inputs of ``bus/PROTOCOL.md``: ``assign`` -> ``start_round`` -> each seat's
``ready`` -> each game (局, 8 to a round, 一 3): the cards are dealt and the first bidder of the
game (一 5: 黑红梅方 in turn) bids first (phase ``bidding``: the ``bid1``/``bid2``/``bid3`` and
``pass`` buttons, each seat once, 二 叫分) -> the dealer's ``ready`` takes the kitty (phase
``kitty``) -> plays (``observed``) and passes (``pass``) in turn, the dealer leading -> the first
seat out ends the game: ``game_scored`` with each seat's game score and the round's totals; after
the round's last game ``round_over`` with the totals and the round points (一 1).

The referee never sees a hand (``sandayi.game.Game.start_unseen``): each play is checked against
the seat's count, the table and the decks. The seed sets no clock, so none runs.

>>> t = SandayiTable("t1", "usst-2016")
>>> t, out = t.apply("commands", {"v": 1, "id": "c1", "command": "start_round"}, at=0.0, seq=1)
>>> t.phase, out[0].payload["kind"]
('arriving', 'round_started')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from referee.cards import Cards
from referee.sandayi.game import Game
from referee.sandayi.round import round_points, table_totals
from referee.sandayi.seats import first_bidder
from referee.seats import SEATS, next_seat
from referee.table.climbing import ClimbingTable
from referee.table.reducer import Reject

BIDS = {"bid1": 1, "bid2": 2, "bid3": 3, "pass": "pass"}
OUT_OF_TURN = "二 出牌规则: 庄家先出牌，然后按逆时针顺序依次出牌"
FOUL_RULE = "三: 犯规时由裁判判定，同一副牌内，任何一名选手被记过2次及以上犯规，作输者处理"


@dataclass(frozen=True)
class SandayiTable(ClimbingTable):
    game: Game | None = None
    scores: tuple[tuple[tuple[str, int | float], ...], ...] = ()  # each finished game's scores by seat

    # -- the engine --------------------------------------------------------------------------------
    def _engine(self) -> Game:
        return self.game

    def _engine_leading(self) -> bool:
        return self.game.last is None

    def _engine_play(self, seat: str, cards: Cards) -> Game:
        return self.game.play(seat, cards)

    def _engine_pass(self, seat: str) -> Game:
        return self.game.pass_(seat)

    def _engine_lead_passes(self, seat: str) -> Game:
        """A venue's clock that gives up a turn (the seed sets none): the next seat leads (all four hold cards)."""
        return replace(self.game, turn=next_seat(seat), history=self.game.history + ((seat, None),))

    def _with_engine(self, game: Game) -> SandayiTable:
        return self._with(game=game)

    # -- the round ---------------------------------------------------------------------------------
    def _round_started(self) -> SandayiTable:
        return super()._round_started()._with(game=None, scores=())

    def _all_ready(self) -> SandayiTable:
        return self._deal()

    def _deal(self) -> SandayiTable:
        first = first_bidder(self.rules, self.hand_no + 1)
        t = self._with(phase="bidding", hand_no=self.hand_no + 1, game=Game.start_unseen(self.rules, first),
                    dealer=None, clock=None, leader=None, plays=(), trick_no=0, lying=())  # fmt: skip
        return t._event("hand_started", {"hand": t.hand_no, "first_bidder": first, "dealer": None})

    def _game_button(self, seat: str, button: str) -> SandayiTable:
        if self.phase == "bidding" and button in BIDS:
            game = self.game.bid(seat, BIDS[button])
            t = self._with(game=game)._event("bid", {"seat": seat, "bid": BIDS[button]})
            if game.phase == "bidding":
                return t
            t = t._with(phase="kitty", dealer=game.dealer)
            t = t._event("dealer_chosen", {"dealer": game.dealer, "bid": game.bid_value, "first_bid_three": game.first_bid_three})
            return t._hand_over() if game.over else t  # fouls recorded while bidding rule once the sides are known
        if self.phase == "kitty" and button == "ready":
            t = self._with(game=self.game.take_kitty(seat), phase="playing")
            return t._event("kitty_to_dealer", {"dealer": seat, "cards": self.rules.deal.kitty})._start_clock(t.at)
        if self.phase == "playing" and button == "pass":
            return self._pass(seat)
        raise self._meaningless(seat, button)

    def _ruling(self, command: str, p: dict) -> SandayiTable:
        """From the console: the referee's foul (三, the book's ``[fouls] kinds``; at the limit the offender is
        ruled the loser), the dealer's 报到 (``play``: 打 or 不打, which wins at once) or 摊打."""
        if self.game is None or self.phase not in ("bidding", "kitty", "playing"):
            raise Reject("table.no_game", command=command, phase=self.phase)
        seat = p["seat"]
        game = {"foul": lambda g: g.foul(seat, p["kind"]), "report": lambda g: g.report(seat, p["play"]),
                "open_hand": lambda g: g.open_hand(seat)}[command](self.game)  # a GameError: rejected
        t = self._with(game=game)
        if command == "foul":
            fouls, limit = game.foul_count(seat), self.rules.fouls.limit
            t, _ = t._violation(seat, p["kind"], FOUL_RULE, {"foul": True}, {"hand": t.hand_no, "fouls": fouls, "limit": limit}, "confirmed")
            t = t._event("foul_counted", {"seat": seat, "kind": p["kind"], "fouls": fouls, "limit": limit})
        else:
            t = t._event("reported", {"seat": seat, "play": p["play"]}) if command == "report" else t._event("hand_opened", {"seat": seat})
        return t._hand_over() if game.over else t

    def _awaited(self) -> tuple[str, str, float] | None:
        """The bidder, and the dealer taking the kitty: untimed (the seed sets no clock), watched for ``idle``."""
        return (self.game.turn, self.phase, math.inf) if self.phase in ("bidding", "kitty") else None

    def _seen(self, seat: str, cards: Cards, p: dict) -> SandayiTable:
        if self.phase == "playing":
            return self._play(seat, cards, p)
        raise Reject("table.shown_in_phase", seat=seat, phase=self.phase)

    def _out_of_turn_rule(self, cards: Cards) -> tuple[str, dict]:
        return OUT_OF_TURN, {}

    def _hand_over(self) -> SandayiTable:
        g = self.game
        scores = {s: _number(v) for s, v in g.scores.items()}
        t = self._with(phase="hand_over", clock=None, scores=self.scores + (tuple(scores.items()),))
        totals = t.totals()
        t = t._event("game_scored", {"hand": t.hand_no, "dealer": g.dealer, "bid": g.bid_value, "winner": g.winner,
                                     "ended_by": g.ended_by, "scores": scores, "totals": totals})  # fmt: skip
        rc = t.round_clock()  # a venue's round time (the seed sets none): from its notice on, no game starts
        if t.last_hand or t.hand_no >= self.rules.round.games or (rc is not None and rc.timed and rc.last_hand(t.at)):
            points = {s: _number(v) for s, v in round_points(self.rules, totals).items()}
            return t._with(phase="round_over")._event("round_over", {"hands": t.hand_no, "totals": totals, "points": points})
        return t._flags_closed("game")._deal()  # a ruling ended it with reads unjudged: no plays of the next game

    def totals(self) -> dict[str, int | float]:
        """Each seat's game score (小分) summed over the round's games so far."""
        return {s: _number(v) for s, v in table_totals(dict(g) for g in self.scores).items()} if self.scores else dict.fromkeys(SEATS, 0)

    # -- outputs -----------------------------------------------------------------------------------
    def turn(self) -> str | None:
        if self.phase in ("bidding", "kitty"):
            return self.game.turn
        return super().turn()

    def cards_left(self) -> dict[str, int]:
        return {s: self.game.count(s) for s in SEATS} if self.game else dict.fromkeys(SEATS, 0)

    def state(self, at: float) -> dict:
        """The table's ``state``, with each seat's 小分 summed over the round's games so far (``totals``, 累计)."""
        return super().state(at) | {"totals": self.totals()}

    def _teams(self) -> list[dict]:
        if self.dealer is None:
            return [{"name": s, "seats": [s], "level": None, "points": 0} for s in SEATS]
        allies = [s for s in SEATS if s != self.dealer]
        return [{"name": "dealer", "seats": [self.dealer], "level": None, "points": 0},
                {"name": "allies", "seats": allies, "level": None, "points": 0}]  # fmt: skip


def _number(x) -> int | float:
    """A score as JSON has it: a whole number, or a fraction as a float (a tie's split points)."""
    return int(x) if x == int(x) else float(x)


__all__ = ["SandayiTable"]
