"""Property tests for the Tractor engine, driven by the random players of ``referee.tractor.bots``.

Hypothesis draws the seed, the rulebook, the level rank, the trump suit and the
dealer; a ``random.Random(seed)`` then deals and plays (random leads, standing
throws, legal follows). The players build their plays from the rules, the checkers
judge them, so each property pits one half of the engine against the other.

Example counts are set so that the whole file runs in well under a minute on two
cores (a whole hand through :class:`HandJudge` takes a few hundred milliseconds).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.cards import ALL_CARDS, RANKS, SUITS, Cards, Decks
from referee.tractor.bots import deal, legal_follow, random_lead, random_throw
from referee.tractor.follow import follow_ruling
from referee.tractor.hand import SEATS, HandJudge, next_seat
from referee.tractor.leads import judge_lead
from referee.tractor.tricks import trick_winner
from referee.tractor.trumps import Trumps

BOOKS = ("zhongkai-2010", "classic-3deck", "shaoguan-2023", "shaoguan-2023-nokitty")
THROW_CHANCE = 0.3  # how often a leader looks for a standing throw (books with throws only)


@dataclass(frozen=True)
class Setup:
    book: str
    level: str
    suit: str
    seed: int
    dealer: str

    def trumps(self) -> Trumps:
        return Trumps.of(self.book, self.level, self.suit)


@st.composite
def setups(draw, books=BOOKS) -> Setup:
    book = draw(st.sampled_from(books))
    # shaoguan-2023-nokitty: 2 is a permanent trump, never the level
    ranks = [r for r in RANKS if not (book == "shaoguan-2023-nokitty" and r == "2")]
    return Setup(
        book=book,
        level=draw(st.sampled_from(ranks)),
        suit=draw(st.sampled_from(SUITS)),
        seed=draw(st.integers(0, 2**32 - 1)),
        dealer=draw(st.sampled_from(SEATS)),
    )


class Table:
    """A hand dealt and played by the random players; tracks the hands in play."""

    def __init__(self, setup: Setup):
        self.t = setup.trumps()
        self.rng = random.Random(setup.seed)
        d = self.t.rules.deal
        self.decks = d.decks
        self.hands, self.kitty = deal(d.decks, d.kitty, self.rng)
        self.leader = setup.dealer

    def lead(self) -> Cards:
        hand = self.hands[self.leader]
        throw = None
        if self.rng.random() < THROW_CHANCE:
            others = {s: h for s, h in self.hands.items() if s != self.leader}
            throw = random_throw(self.t, hand, others, self.rng)
        return throw or random_lead(self.t, hand, self.rng)

    def follow(self, seat: str, lead: Cards, before: list[Cards]) -> Cards:
        return legal_follow(self.t, self.hands[seat], lead, self.rng, before)

    def remove(self, seat: str, cards: Cards) -> None:
        self.hands[seat] = self.hands[seat] - cards

    def followers(self) -> list[str]:
        seats = [self.leader]
        for _ in range(3):
            seats.append(next_seat(seats[-1]))
        return seats[1:]


# -- leads and follows ------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(setups())
def test_bot_leads_and_follows_are_legal(setup: Setup) -> None:
    """Every lead the players make is legal, every follow they build passes ``follow_ruling``."""
    table = Table(setup)
    t = table.t
    while table.hands[table.leader]:
        lead = table.lead()
        ruling = judge_lead(t, lead)
        assert ruling.legal, (str(table.hands[table.leader]), str(lead), ruling.reason)
        table.remove(table.leader, lead)
        plays, seats, before = [lead], [table.leader], []
        for seat in table.followers():
            hand = table.hands[seat]
            play = table.follow(seat, lead, before)
            assert len(play) == len(lead) and hand.contains(play), (str(hand), str(lead), str(play))
            why = follow_ruling(t, hand, lead, play, before)
            assert why is None, (str(hand), str(lead), str(play), [str(b) for b in before], why)
            if not before:  # the first follower: the check without ``before`` is the same question
                assert follow_ruling(t, hand, lead, play) is None
            table.remove(seat, play)
            before.append(play)
            plays.append(play)
            seats.append(seat)
        win = trick_winner(t, plays, ruling.structure)
        assert 0 <= win <= 3
        table.leader = seats[win]
    assert not any(table.hands.values())


# -- whole hands through the judge -----------------------------------------------


def judged_hand(setup: Setup) -> tuple[HandJudge, Cards]:
    """Play a whole hand with the players, feeding every play to a HandJudge."""
    table = Table(setup)
    j = HandJudge.start(table.t, setup.dealer)
    while table.hands[table.leader]:
        lead = table.lead()
        j = j.play(table.leader, lead)
        table.remove(table.leader, lead)
        before: list[Cards] = []
        for seat in table.followers():
            play = table.follow(seat, lead, before)
            j = j.play(seat, play)
            table.remove(seat, play)
            before.append(play)
        table.leader = j.tricks[-1].winner
    if table.t.rules.deal.kitty:
        j = j.show_kitty(table.kitty)
    return j.finish(), table.kitty


@settings(max_examples=60, deadline=None)
@given(setups())
def test_whole_bot_hand_is_judged_clean(setup: Setup) -> None:
    j, kitty = judged_hand(setup)
    decks = j.trumps.rules.deal.decks
    bad = [(r.kind, r.seat, r.trick, r.detail) for r in j.rulings if r.kind in ("revoke", "failed_throw")]
    assert bad == [], bad
    other = [(r.kind, r.seat, r.trick, r.detail) for r in j.rulings]
    assert other == [], other  # nor illegal leads or wrong card counts
    # cards are conserved
    assert j.played + kitty == Decks(decks).full()
    assert all(len(tr.plays) == 4 for tr in j.tricks)
    # 100 points per deck: the tricks every seat won, plus the kitty
    won = {s: 0 for s in SEATS}
    for tr in j.tricks:
        won[tr.winner] += tr.points
    assert sum(won.values()) + kitty.points == 100 * decks, (won, kitty.points)
    defenders = j.defenders()
    in_tricks = sum(won[s] for s in defenders)
    assert j.defender_points() >= in_tricks, (j.defender_points(), in_tricks)


# -- a revoke is caught ----------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(setups(), st.integers(0, 6))
def test_revoke_is_caught(setup: Setup, prefix: int) -> None:
    """After ``prefix`` legal tricks, the first follower whose legal follow holds a card of the led
    suit while its hand keeps an off-suit card swaps the one for the other (a revoke: it still
    holds the led-suit card). By the time it plays that withheld card, the judge has ruled a
    revoke for that seat and trick, and for no other."""
    table = Table(setup)
    t = table.t
    j = HandJudge.start(t, setup.dealer)
    revoke = None  # (seat, trick number, withheld card)
    caught = False

    def show(seat: str, cards: Cards, number: int) -> None:
        nonlocal j, caught
        j = j.play(seat, cards)
        table.remove(seat, cards)
        if revoke and seat == revoke[0] and number > revoke[1] and revoke[2] in cards.distinct():
            revokes = sorted({(r.seat, r.trick) for r in j.rulings if r.kind == "revoke"})
            assert revokes == [revoke[:2]], (revokes, str(revoke[2]), number)
            caught = True

    while table.hands[table.leader] and not caught:
        number = len(j.tricks) + 1
        lead = table.lead()
        suit = judge_lead(t, lead).structure[0].suit
        show(table.leader, lead, number)
        before: list[Cards] = []
        for seat in table.followers():
            hand = table.hands[seat]
            play = table.follow(seat, lead, before)
            if revoke is None and number > prefix:
                led = [c for c in play if t.suit_of(c) == suit]
                off = [c for c in hand - play if t.suit_of(c) != suit]
                if led and off:
                    withheld, instead = table.rng.choice(led), table.rng.choice(off)
                    play = play - Cards([withheld]) + Cards([instead])
                    assert follow_ruling(t, hand, lead, play, before) is not None
                    revoke = (seat, number, withheld)
            show(seat, play, number)
            before.append(play)
        table.leader = j.tricks[-1].winner
    assume(revoke is not None)
    assert caught  # the withheld card is played at the latest in the last trick


# -- trick winner ----------------------------------------------------------------


@st.composite
def single_ruffs(draw):
    """A side-suit single led, exactly one follower ruffs with a trump single."""
    setup = draw(setups())
    t = setup.trumps()
    side = [c for c in ALL_CARDS if not t.is_trump(c)]
    trumps = [c for c in ALL_CARDS if t.is_trump(c)]
    lead = draw(st.sampled_from(side))
    ruffer = draw(st.integers(1, 3))
    plays = [Cards([lead])]
    for i in (1, 2, 3):
        plays.append(Cards([draw(st.sampled_from(trumps if i == ruffer else side))]))
    return t, plays, ruffer


@settings(max_examples=200, deadline=None)
@given(single_ruffs())
def test_single_trump_ruff_wins(case) -> None:
    t, plays, ruffer = case
    total = sum(plays, Cards())
    assume(all(total.count(c) <= t.rules.deal.decks for c in total.distinct()))
    assert trick_winner(t, plays) == ruffer, [str(p) for p in plays]


@settings(max_examples=60, deadline=None)
@given(setups())
def test_trick_winner_index_in_range(setup: Setup) -> None:
    table = Table(setup)
    for _ in range(3):  # a few tricks into the hand
        lead = table.lead()
        structure = judge_lead(table.t, lead).structure
        table.remove(table.leader, lead)
        plays, seats, before = [lead], [table.leader], []
        for seat in table.followers():
            play = table.follow(seat, lead, before)
            table.remove(seat, play)
            before.append(play)
            plays.append(play)
            seats.append(seat)
        win = trick_winner(table.t, plays, structure)
        assert win in range(4)
        assert trick_winner(table.t, plays) in range(4)
        table.leader = seats[win]


# -- the follow list after a 地雷 (seed 003 6(3) C) --------------------------------------------


@st.composite
def bomb_tractor_follows(draw):
    """A shaoguan hand long in the led side suit (spades, 4 decks) facing a 地雷 of two adjacent bombs."""
    book = draw(st.sampled_from(("shaoguan-2023", "shaoguan-2023-nokitty")))
    t = Trumps.of(book, "A", "H")
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    top = draw(st.sampled_from("5789TJQK"))
    low = RANKS[RANKS.index(top) - 1]
    lead = Cards.parse([f"S{top}"] * 4 + [f"S{low}"] * 4)
    pool = [c for c in Decks(4).full() if c.suit == "S" and c.rank not in (top, low, "A", "2")]
    hand = Cards(rng.sample(pool, draw(st.integers(9, 20))) + [Cards.parse("D3").distinct()[0]])
    return t, hand, lead, rng


@settings(max_examples=120, deadline=None)
@given(bomb_tractor_follows())
def test_the_listed_line_a_hand_can_play_is_the_only_legal_line(case) -> None:
    """003 6(3) C: a follow built for the hand is legal; a play built from a line of the list is legal
    exactly when its cards also hold the first line (or the 地雷 itself) that fits the hand, which the
    play built from that first line always does."""
    from referee.tractor.units import Holding, place

    t, hand, lead, rng = case
    play = legal_follow(t, hand, lead, rng)
    assert follow_ruling(t, hand, lead, play) is None, (str(hand), str(play))
    held = t.of_suit(hand, "S")
    lines = [((4, 4),)] + [shape.blocks for tier in t.rules.follow.listed[(4, 2)] for shape in tier[:1]]
    first = None
    for i, blocks in enumerate(lines):
        placed = place(Holding(t, held), blocks, rng)
        if placed is None:
            continue
        first = i if first is None else first
        chosen = Cards(c for p in placed for c, w in p for _ in range(w))
        filler = rng.sample(list(held - chosen), 8 - len(chosen))
        built = chosen + Cards(filler)
        legal = follow_ruling(t, hand, lead, built) is None
        assert legal == (place(Holding(t, built), lines[first]) is not None), (str(hand), i, first, str(built))
        assert legal or i > first
