"""Evidence-based judging of one hand, from what the camera saw.

A camera referee never sees a hand. What it knows of a seat's hand at trick *t* is
the cards that seat plays from trick *t* on: a lower bound that only grows. The
follow rules are monotone in the hand (more cards never relax a requirement), so a
follow that is illegal against that lower bound is proven a revoke (藏张), and a
throw that the other seats' lower bounds can beat is proven failed. Each check is
made as soon as later plays prove it, with the evidence named, and every play is
checked once more when the hand ends.

The judge is an immutable value: feed it events, get a new judge; the rulings it
added are the new tail of ``rulings``.

>>> t = Trumps.of("zhongkai-2010", "7", "H")
>>> j = HandJudge.start(t, "S")
>>> for seat, cards in [("S", "SA"), ("E", "D3"), ("N", "S4"), ("W", "S5"), ("S", "C2"), ("E", "S9")]:
...     j = j.play(seat, Cards.parse(cards))
>>> r = j.rulings[0]
>>> r.kind, r.seat, r.trick, r.evidence
('revoke', 'E', 1, ((2, 'S9'),))
>>> r.detail
Reason('tractor.follow_all_held', held_cards=['S9'], suit='S')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from referee.cards import Cards, CardError, Decks
from referee.reasons import Reason, Refused
from referee.seats import SEATS, next_seat, partner, prev_seat
from referee.tractor.follow import ceiling, follow_ruling, requirement
from referee.tractor.leads import failing_units, judge_lead
from referee.tractor.scoring import capture_multiplier
from referee.tractor.tricks import trick_winner
from referee.tractor.trumps import Trumps
from referee.tractor.units import Unit, readings, unit_of

class HandError(Refused):
    """An observation that cannot be part of this hand (a reason ``tractor.*``); the judge is left unchanged."""


@dataclass(frozen=True)
class Ruling:
    """A violation proven by what was played: who, in which trick, and the cards that prove it."""

    kind: str  # "revoke" | "failed_throw" | "illegal_lead" | "wrong_card_count" | "misburied_kitty"
    seat: str
    trick: int
    detail: Reason  # why, for a person (``referee.reasons``)
    evidence: tuple[tuple[int, str], ...] = ()  # (trick, cards) seen later that prove it
    cards: tuple[str, ...] = ()  # the cards of the offending play (misburied_kitty: those the dealer discards; a
    # wrong_card_count at the end: those the seat still held)
    forced: tuple[str, ...] = ()  # failed throw: the unit to play instead (the default choice)
    choices: tuple[tuple[str, ...], ...] = ()  # failed throw: every failing unit, where someone chooses
    count: int = 0  # wrong_card_count: the cards too many or too few, what a penalty per card counts (0: its cards)
    points: int = 0  # points moved against the offender besides its penalty's (point cards discarded, held back)


@dataclass(frozen=True)
class Trick:
    number: int
    plays: tuple[tuple[str, Cards], ...]
    structure: tuple[Unit, ...]
    winner: str | None = None  # who took it at the table and led the next; the points: HandJudge.scorer
    seats: int = 4  # the seats that play to it: a seat out of cards sits out (HandJudge.sit_out)

    @property
    def leader(self) -> str:
        return self.plays[0][0]

    @property
    def complete(self) -> bool:
        return len(self.plays) == self.seats

    @cached_property
    def points(self) -> int:
        return sum(cards.points for _, cards in self.plays)


@dataclass(frozen=True)
class HandJudge:
    trumps: Trumps
    dealer: str
    tricks: tuple[Trick, ...] = ()
    rulings: tuple[Ruling, ...] = ()
    kitty: Cards | None = None
    finished: bool = False
    played: Cards = Cards()  # every card shown so far: in the tricks, and those a seat held when the others were out
    out: tuple[str, ...] = ()  # the seats out of cards before the end (少牌), sitting out the tricks left
    shown: tuple[tuple[str, int], ...] = tuple((s, 0) for s in SEATS)  # cards each seat has played
    # (kind, seat, trick) of the rulings made, and ("settled", seat, trick) of follows no evidence can change
    _proven: frozenset[tuple[str, str, int]] = field(default=frozenset(), repr=False)

    @staticmethod
    def start(trumps: Trumps, dealer: str) -> HandJudge:
        if dealer not in SEATS:
            raise HandError("seats.unknown", text=str(dealer))
        return HandJudge(trumps, dealer)

    # -- what is known --------------------------------------------------------
    def defenders(self) -> tuple[str, str]:
        return (next_seat(self.dealer), partner(next_seat(self.dealer)))

    def complete(self) -> tuple[Trick, ...]:
        return tuple(t for t in self.tricks if t.complete)

    def expected_seat(self) -> str:
        if not self.tricks:
            return self._holding(self.dealer)
        last = self.tricks[-1]
        if not last.complete:
            return self._holding(next_seat(last.plays[-1][0]))
        # as played: a revoke proven later does not change who led (see ``scorer``); a winner out of cards (it won
        # with its last ones) leaves the lead to its 下家 (decided: the seeds do not say)
        return self._holding(last.winner)

    def _holding(self, seat: str) -> str:
        """``seat``, or the first seat after it in the order of play that is not out of cards."""
        for _ in SEATS:
            if seat not in self.out:
                break
            seat = next_seat(seat)
        return seat

    def known_hand(self, seat: str, trick: int) -> Cards:
        """The cards ``seat`` is known to have held at trick ``trick``: all it played from then on."""
        return Cards.join(c for t in self.tricks[trick - 1 :] for s, c in t.plays if s == seat)

    def trick_points(self) -> int:
        """Points the defenders won in tricks (each trick's to its :meth:`scorer`)."""
        return sum(t.points for t in self.complete() if self.scorer(t) in self.defenders())

    def scorer(self, trick: Trick) -> str | None:
        """Who a complete trick counts for: its points, and for the last trick the kitty (抠底).
        That is its winner as played, unless the book's ``revoke`` penalty has ``cannot_win`` and a
        follow in it is a proven revoke, even one proven later in the hand: a revoking play cannot
        win (seed 003 留底 17: 出错的牌只能跟出，不能作大牌计; seed 000 第十八条: 该藏张方式自动降为
        最低最小级别牌种组合), and the best of the other plays takes the trick. The order of play is
        never changed: whoever took the trick at the table led the next (``winner``)."""
        if trick.winner is None:
            return None
        out = self.ruled_out(trick)
        if not out:
            return trick.winner
        plays = [c for _, c in trick.plays]
        return trick.plays[trick_winner(self.trumps, plays, trick.structure, out)][0]

    def ruled_out(self, trick: Trick) -> frozenset[int]:
        """The plays of ``trick`` (by index, the lead 0) that cannot win it: proven revokes, where
        the book's ``revoke`` penalty has ``cannot_win``. A lead is never ruled out (an illegal lead
        is judged as the lead it is; seed 003 17 speaks of follows: 没有跟拖拉机，或没规则跟牌的)."""
        entry = self.trumps.rules.penalty("revoke")
        if entry is None or not entry.cannot_win:
            return frozenset()
        revokers = {r.seat for r in self.rulings if r.kind == "revoke" and r.trick == trick.number}
        return frozenset(i for i, (s, _) in enumerate(trick.plays) if i and s in revokers)

    def reassigned(self) -> tuple[tuple[Trick, str], ...]:
        """(trick, who counts it) for each complete trick whose :meth:`scorer` is not the seat that took it."""
        return tuple((t, s) for t in self.complete() if (s := self.scorer(t)) != t.winner)

    def capture(self) -> tuple[int, int] | None:
        """(points, times) the defenders add by winning the last trick of a finished hand: the
        kitty's points times the book's multiplier, or without a kitty the last trick's points
        once more for each card past the first of the winning play (003 不留底牌打法 10: 每盘牌最后一轮大牌方……
        加倍的倍数以大牌方的张数来计算: the last trick of a finished hand, whether or not every card was seen);
        None when nothing is captured (the dealer's side won it, or the hand is not over)."""
        tricks = self.complete()
        if not tricks or not self.finished:
            return None
        last = tricks[-1]
        scorer = self.scorer(last)
        if scorer not in self.defenders():
            return None
        times = capture_multiplier(self.trumps, dict(last.plays)[scorer], last.structure)
        if self.trumps.rules.kitty_capture.source == "kitty":
            return (self.kitty.points if self.kitty is not None else 0), times
        return last.points, max(times - 1, 0)

    def defender_points(self) -> int:
        """Points the defenders won in tricks plus the kitty (or last-trick) capture, before penalties."""
        captured = self.capture()
        return self.trick_points() + (captured[0] * captured[1] if captured else 0)

    def all_seen(self) -> bool:
        """Every card of the decks has been played or shown in the kitty. A kitty turned up of another size than the
        book's (003 留底 12(4): 多埋或少埋底牌) counts its own cards, and where it is short the cards the dealer kept are
        its discard (:meth:`show_kitty`): all seen once they are the only cards not seen, or were shown held back."""
        deal = self.trumps.rules.deal
        if self.kitty is None:
            return len(self.played) + deal.kitty == 54 * deal.decks
        unseen = 54 * deal.decks - len(self.played) - len(self.kitty)
        return unseen in (0, deal.kitty - len(self.kitty))

    # -- events ----------------------------------------------------------------
    def play(self, seat: str, cards: Cards, declared: list[Cards] | None = None) -> HandJudge:
        """One seat put these cards face up (a leader may declare a throw's structure).
        Raises :class:`HandError` if that cannot be."""
        if self.finished:
            raise HandError("tractor.hand_over")
        expected = self.expected_seat()
        number = len(self.complete()) + 1
        if seat != expected:
            raise HandError("tractor.not_on_turn", trick=number, expected=expected, seat=seat)
        try:
            seen = self.played + self.kitty if self.kitty is not None else self.played
            Decks(self.trumps.rules.deal.decks).check(cards, seen=seen)
        except CardError as exc:
            raise HandError("tractor.in_trick", trick=number, why=exc) from exc
        t = self.trumps
        rulings = list(self.rulings)
        if not self.tricks or self.tricks[-1].complete:
            lead = judge_lead(t, cards, declared)
            if len(t.suits_in(cards)) != 1:
                raise HandError("tractor.lead_mixes_suits", trick=number, cards=cards)
            if not lead.legal:
                rulings.append(Ruling("illegal_lead", seat, number, lead.reason, cards=tuple(cards.names())))  # priced per card
            structure = lead.structure or readings(t, cards)[0]
            trick, tricks = Trick(number, ((seat, cards),), structure, seats=len(SEATS) - len(self.out)), self.tricks
        else:
            trick = self.tricks[-1]
            size = len(trick.plays[0][1])
            if len(cards) != size:
                raise HandError("tractor.follow_size", trick=number, seat=seat, n=len(cards), size=size)
            trick, tricks = replace(trick, plays=trick.plays + ((seat, cards),)), self.tricks[:-1]
        tricks += (self._won(trick),)
        shown = tuple((s, n + len(cards) * (s == seat)) for s, n in self.shown)
        judged = replace(self, tricks=tricks, rulings=tuple(rulings), played=self.played + cards, shown=shown)
        held, size = dict(shown)[seat], t.rules.deal.hand_size
        if held > size and held - len(cards) <= size:
            judged = replace(judged, rulings=judged.rulings + (
                Ruling("wrong_card_count", seat, number, Reason("tractor.played_too_many", n=held, size=size), count=held - size),
            ))
        return judged._prove(t.suits_in(cards), seat)

    def _won(self, trick: Trick) -> Trick:
        """``trick`` with its winner, once every seat that plays to it has."""
        if not trick.complete:
            return trick
        win = trick_winner(self.trumps, [c for _, c in trick.plays], trick.structure)
        return replace(trick, winner=trick.plays[win][0])

    def sit_out(self, seat: str) -> HandJudge:
        """``seat``, on turn, holds no card to play while fewer than a hand's cards were seen from it (少牌), as a
        person confirmed: ruled ``wrong_card_count`` (the cards it is short by the count), it sits out the tricks left,
        and the trick it was to play to is complete without it (seed 000 第十九条: 竞赛仍需继续，直到无错方出完最后一圈
        牌为止; seed 003 12(2): 然后少牌方继续跟牌，到出完牌为止)."""
        if self.finished:
            raise HandError("tractor.hand_over")
        expected, number = self.expected_seat(), len(self.complete()) + 1
        if seat != expected:
            raise HandError("tractor.not_on_turn", trick=number, expected=expected, seat=seat)
        n, size = dict(self.shown)[seat], self.trumps.rules.deal.hand_size
        ruling = Ruling("wrong_card_count", seat, number, Reason("tractor.out_of_cards", n=n, size=size), count=size - n)
        tricks = self.tricks
        if tricks and not tricks[-1].complete:
            tricks = tricks[:-1] + (self._won(replace(tricks[-1], seats=tricks[-1].seats - 1)),)
        return replace(self, tricks=tricks, out=self.out + (seat,), rulings=self.rulings + (ruling,))

    def held_back(self, seat: str, cards: Cards) -> HandJudge:
        """``seat`` still held ``cards`` when every seat had played out (多牌), as a person confirmed: ruled
        ``wrong_card_count`` naming them; they are laid aside, and their points count against its side where the book
        says so (``[wrong_count] held_points``; seed 003 12(1): 多牌方将手上的任意牌丢弃，若丢弃的是分牌则直接把分数加给
        非庄家方)."""
        if self.finished:
            raise HandError("tractor.hand_over")
        if self.tricks and not self.tricks[-1].complete:
            raise HandError("tractor.trick_incomplete", trick=len(self.tricks))
        rules = self.trumps.rules
        try:  # with the kitty, where it was turned up before them (the hand waits for them: ``TractorTable._played_out``)
            Decks(rules.deal.decks).check(cards, seen=self.played + self.kitty if self.kitty is not None else self.played)
        except CardError as exc:
            raise HandError("tractor.in_held_back", why=exc) from exc
        points = cards.points if rules.wrong_count.held_points == "offender" else 0
        ruling = Ruling("wrong_card_count", seat, len(self.tricks), self.held_why(seat, cards), cards=tuple(cards.names()),
                        count=len(cards), points=points)
        return replace(self, played=self.played + cards, rulings=self.rulings + (ruling,))

    def held_why(self, seat: str, cards: Cards) -> Reason:
        """Why ``cards`` that ``seat`` shows once every seat has played out are cards it held back (多牌): more than a hand
        with those it played, or any card from a seat confirmed out of cards (it had pressed ``pass``)."""
        n = dict(self.shown)[seat]
        if seat in self.out:
            return Reason("tractor.held_after_out", n=n, held=len(cards))
        return Reason("tractor.held_too_many", n=n + len(cards), size=self.trumps.rules.deal.hand_size)

    def throw_taken_back(self) -> HandJudge:
        """The last trick's lead, a throw ruled failed before the next lead, does not stand (000 第十六条: 甩牌不成立，按规定出
        所甩错的最低最小级别牌种组合; 001 十九: 甩牌不成立……由甩错者的下家指定出其中的一种最小的单张或组合): the trick is led
        again by the ruling's ``forced`` unit alone, the thrower's other cards back in its hand, and the seats that followed
        take theirs back to follow that unit anew (what was ruled on their follows goes with them). The ruling stays."""
        trick = self.tricks[-1]
        ruling = next(r for r in self.rulings if r.kind == "failed_throw" and r.trick == trick.number)
        leader, forced = trick.leader, Cards.parse(ruling.forced)
        back = {s: c - forced if s == leader else c for s, c in trick.plays}
        again = Trick(trick.number, ((leader, forced),), (unit_of(self.trumps, forced),), seats=trick.seats)
        followed = {(s, trick.number) for s in back if s != leader}
        return replace(self, tricks=self.tricks[:-1] + (again,), played=self.played - Cards.join(back.values()),
                       shown=tuple((s, n - len(back.get(s, ()))) for s, n in self.shown),
                       rulings=tuple(r for r in self.rulings if (r.seat, r.trick) not in followed),
                       _proven=frozenset(p for p in self._proven if p[1:] not in followed))

    def show_kitty(self, cards: Cards) -> HandJudge:
        """The buried cards, turned up at the end of the hand. A kitty of another size than the book's is
        refused, unless the book has a ``misburied_kitty`` penalty (seed 003 留底 12(4): 若打牌时发现庄家多埋或
        少埋底牌，则对方在所得分数的基础上加160分): then the dealer is ruled ``misburied_kitty``. Short (少埋),
        the dealer kept cards it must discard (底牌少牌时则庄家丢弃少埋的张数，但若丢弃的是分牌，所丢弃分数再加到
        对方所得分数): the cards of the decks never seen, known when every card the seats held was played;
        they are the ruling's ``cards``. Over (多埋), the dealer took the extra cards back (从底牌里抽回): none
        is discarded; at a table it cannot be shown after a whole hand, as the cards would outnumber the decks."""
        rules = self.trumps.rules
        size, decks = rules.deal.kitty, Decks(rules.deal.decks)
        if len(cards) != size and rules.penalty("misburied_kitty") is None:
            raise HandError("tractor.kitty_size", size=size, rulebook=rules.id, n=len(cards))
        try:
            decks.check(cards, seen=self.played)
        except CardError as exc:
            raise HandError("tractor.in_kitty", why=exc) from exc
        judged = replace(self, kitty=cards)
        if len(cards) == size:
            return judged
        unseen = decks.full() - self.played - cards
        kept = unseen if len(cards) < size and len(unseen) == size - len(cards) else Cards()
        why = (Reason("tractor.kitty_discarded", n=len(cards), size=size, discarded_cards=kept, points=kept.points) if kept
               else Reason("tractor.kitty_misburied", n=len(cards), size=size))
        ruling = Ruling("misburied_kitty", self.dealer, len(self.tricks), why, cards=tuple(kept.names()), points=kept.points)
        return replace(judged, rulings=self.rulings + (ruling,))

    def choose_structure(self, seat: str, parts: list[Cards]) -> HandJudge:
        """The leader's 上家 names the structure of an undeclared captive throw, once its trick is
        complete and before the next lead (seed 000 第十一条 1); the default is the lowest reading."""
        if self.trumps.rules.combos.captive != "chosen_after":
            raise HandError("tractor.no_structure_after", rulebook=self.trumps.rules.id)
        trick = self.tricks[-1] if self.tricks else None
        if trick is None or not trick.complete:
            raise HandError("tractor.structure_too_early")
        leader, lead = trick.plays[0]
        if seat != prev_seat(leader):
            raise HandError("tractor.structure_chooser", seat=seat)
        units = tuple(unit_of(self.trumps, p) for p in parts)
        options = readings(self.trumps, lead)
        if None in units or sorted(map(str, units)) not in [sorted(map(str, r)) for r in options]:
            raise HandError("tractor.not_a_reading", parts_cards=[p.names() for p in parts], lead_cards=lead)
        plays = [c for _, c in trick.plays]
        win = trick_winner(self.trumps, plays, units)
        trick = replace(trick, structure=units, winner=trick.plays[win][0])
        return replace(self, tricks=self.tricks[:-1] + (trick,))._prove(suits=None)

    def finish(self) -> HandJudge:
        """End of the hand: check every play once more, and the card counts when all cards were seen."""
        if self.tricks and not self.tricks[-1].complete:
            raise HandError("tractor.trick_incomplete", trick=len(self.tricks))
        done = replace(self, finished=True)._prove(suits=None)
        rules = self.trumps.rules.deal
        if done.all_seen():
            rulings = list(done.rulings)
            ruled = {r.seat for r in rulings if r.kind == "wrong_card_count"}  # out of cards, or held cards back
            for seat in SEATS:
                n = dict(done.shown)[seat]
                if n < rules.hand_size and seat not in ruled:
                    why = Reason("tractor.played_too_few", n=n, size=rules.hand_size)
                    rulings.append(Ruling("wrong_card_count", seat, len(self.tricks), why, count=rules.hand_size - n))
            done = replace(done, rulings=tuple(rulings))
        return done

    # -- proofs ------------------------------------------------------------------
    def _prove(self, suits: set[str] | None, seat: str | None = None) -> HandJudge:
        """Re-check what new cards of ``seat`` in ``suits`` may prove (None: everything): its
        earlier follows, and the other seats' throws."""
        t = self.trumps
        proven = set(self._proven)
        rulings = list(self.rulings)
        ends: dict[tuple[str, str], list[Cards]] = {}  # (seat, suit) -> known hands from the last trick back

        def hand_at(s: str, suit: str, number: int) -> Cards:
            """The cards of ``suit`` that ``s`` played in trick ``number`` and later: all of that
            suit it is known to have held then (the follow and throw checks look at no other)."""
            known = ends.setdefault((s, suit), [])
            while len(known) <= len(self.tricks) - number:
                trick = self.tricks[len(self.tricks) - 1 - len(known)]
                mine = next((c for ss, c in trick.plays if ss == s), None)
                before = known[-1] if known else Cards()
                known.append(before if mine is None else Cards.join([before, t.of_suit(mine, suit)]))
            return known[len(self.tricks) - number]

        for trick in self.tricks:
            lead_suit = trick.structure[0].suit
            if suits is not None and lead_suit not in suits:
                continue
            leader, lead = trick.plays[0]
            for i, (follower, cards) in enumerate(trick.plays[1:], 1):
                if seat not in (None, follower) or proven & {("revoke", follower, trick.number), ("settled", follower, trick.number)}:
                    continue
                before = [c for _, c in trick.plays[1:i]]
                hand = hand_at(follower, lead_suit, trick.number)
                why = follow_ruling(t, hand, lead, cards, before, trick.structure)
                if why is None and _meets_the_lead(t, trick, cards, before):
                    proven.add(("settled", follower, trick.number))  # no later card can make it a revoke
                elif why is not None:
                    proven.add(("revoke", follower, trick.number))
                    evidence = self._evidence(follower, trick.number, lead_suit)
                    rulings.append(Ruling("revoke", follower, trick.number, why, evidence, tuple(cards.names())))
            if len(trick.structure) > 1 and ("failed_throw", leader, trick.number) not in proven and seat != leader:
                others = {s: hand_at(s, lead_suit, trick.number) for s in SEATS if s != leader}
                failing = failing_units(t, trick.structure, others)
                if failing:
                    proven.add(("failed_throw", leader, trick.number))
                    evidence = tuple(e for s in others for e in self._evidence(s, trick.number, lead_suit))
                    rulings.append(
                        Ruling(
                            "failed_throw",
                            leader,
                            trick.number,
                            Reason("tractor.throw_beaten", units_cards=[u.cards.names() for u in failing]),
                            evidence,
                            tuple(lead.names()),
                            forced=tuple(failing[0].cards.names()),
                            choices=tuple(tuple(u.cards.names()) for u in failing)
                            if t.rules.failed_throw.forced == "next_chooses" and len(failing) > 1
                            else (),
                        )
                    )
        return replace(self, rulings=tuple(rulings), _proven=frozenset(proven))

    def _evidence(self, seat: str, trick: int, suit: str) -> tuple[tuple[int, str], ...]:
        out = []
        for later in self.tricks[trick:]:
            for s, cards in later.plays:
                shown = self.trumps.of_suit(cards, suit)
                if s == seat and shown:
                    out.append((later.number, str(shown)))
        return tuple(out)


def _meets_the_lead(t: Trumps, trick: Trick, cards: Cards, before: list[Cards]) -> bool:
    """A follow all in the led suit that matches the lead's whole structure: nothing the seat
    shows later can prove it a revoke (no hand can meet more than the lead itself)."""
    suit = trick.structure[0].suit
    played = t.of_suit(cards, suit)
    if len(played) != len(cards):
        return False
    return requirement(t, played, trick.structure, before) == ceiling(t, trick.structure)


__all__ = ["HandJudge", "HandError", "Ruling", "Trick", "SEATS", "next_seat", "partner"]
