"""Random players: combinations built from the hand, and whole games played through :class:`Game`.

Plays are *built* from the rules (sets, sequences, full houses and airplanes found in the
hand, each with the reading the rules give it), never picked by trying the classifier, so
the classifier and the game state can be tested against them.

>>> import random
>>> rules = load("usst-2016")
>>> hand = Cards.parse("S3 H3 D3 S4 H4 D4 S5 H5 S6 H6 BJ")
>>> [str(c) for c, r in candidates(rules, hand) if r.type == "airplane"]
['S6 S5 S4 S3 H6 H5 H4 H3 D4 D3']
>>> random_play(rules, hand, Reading("pair", 15, 2), random.Random(1)) is None
True
>>> g = play_game(rules, random.Random(4))
>>> g.over, sum(g.scores.values())
(True, 0)
"""

from __future__ import annotations

import random
from collections import defaultdict

from referee.cards import Card, Cards, Decks
from referee.climbing.combos import Reading, beats, full_house_power
from referee.rulebooks import SandayiRulebook, load  # noqa: F401 (load: doctests)
from referee.sandayi.game import Game, deal_cards

VALUE = {r: i + 2 for i, r in enumerate("23456789TJQKA")}  # natural places; A is also 1 in sequences
LJ, BJ = Card.parse("LJ"), Card.parse("BJ")


def _power(rules: SandayiRulebook, rank: str) -> int:
    order = rules.ranks.order
    return {"L": len(order) + 1, "B": len(order) + 2}.get(rank, order.index(rank) if rank in order else -1)


def candidates(rules: SandayiRulebook, hand: Cards) -> list[tuple[Cards, Reading]]:
    """Every combination of the rulebook that can be taken out of ``hand`` (one set of cards for
    each type, size and rank), with its reading."""
    combos = rules.combos
    by_rank: dict[str, list[Card]] = defaultdict(list)
    for card in hand:
        by_rank[card.rank].append(card)
    out: list[tuple[Cards, Reading]] = []

    def take(rank: str, n: int) -> list[Card]:
        return by_rank[rank][:n]

    # sets: singles, pairs, triples, bombs (jokers: singles, same-joker pairs, the joker bomb)
    for rank, cards in by_rank.items():
        p, n = _power(rules, rank), len(cards)
        out.append((Cards(cards[:1]), Reading("single", p, 1)))
        if n >= 2 and (rank not in "LB" or rules.ranks.joker_pairs):
            out.append((Cards(cards[:2]), Reading("pair", p, 2)))
        if rank in "LB":
            continue
        if n >= 3:
            out.append((Cards(cards[:3]), Reading("triple", p, 3)))
        if combos.bomb:
            for k in range(combos.bomb[0], min(n, combos.bomb[1]) + 1):
                out.append((Cards(cards[:k]), Reading("bomb", p, k)))
    if combos.joker_bomb and hand.count(LJ) == 2 and hand.count(BJ) == 2:
        out.append((Cards([LJ, LJ, BJ, BJ]), Reading("joker_bomb", _power(rules, "B"), 4)))
    # full houses: a triple and a pair of another rank (a same-joker pair where the book allows it)
    for t, tc in by_rank.items():
        if t in "LB" or len(tc) < 3:
            continue
        for p, pc in by_rank.items():
            if p == t or len(pc) < 2 or (p in "LB" and not combos.full_house_joker_pair):
                continue
            power = full_house_power(rules, _power(rules, t), _power(rules, p))  # 004 牌型大小: the pair counts too
            out.append((Cards(tc[:3] + pc[:2]), Reading("full_house", power, 5)))
    out += _sequences(rules, by_rank)
    return out


def _place_rank(v: int) -> str:
    return "A" if v in (1, 14) else "23456789TJQKA"[v - 2]


def _runs(cnt: list[int], width: int, span: tuple[int, int], first: int) -> list[tuple[int, int]]:
    """Every window (lo, hi) of ``span`` places with ``width`` cards each (A is place 1 and 14;
    a window from 1 to 14 needs the aces twice; A..K is the window 2..14, its ace high)."""
    out = []
    for lo in range(first, 15):
        hi = lo
        while hi <= 14 and cnt[hi] >= width:
            fits = span[0] <= hi - lo + 1 <= span[1] and (lo, hi) != (1, 13)
            if (lo, hi) == (1, 14):
                fits = fits and cnt[14] >= 2 * width
            if fits:
                out.append((lo, hi))
            hi += 1
    return out


def _take(by_rank, lo: int, hi: int, width: int) -> list[Card]:
    need: dict[str, int] = defaultdict(int)
    for v in range(lo, hi + 1):
        need[_place_rank(v)] += width
    return [c for r, n in need.items() for c in by_rank[r][:n]]


def _sequences(rules: SandayiRulebook, by_rank) -> list[tuple[Cards, Reading]]:
    combos = rules.combos
    first = 1 if rules.ranks.ace_low else 2
    cnt = [0] * 15
    for rank, cards in by_rank.items():
        if rank in VALUE:
            cnt[VALUE[rank]] = len(cards)
    cnt[1] = cnt[14]
    out = []
    for kind, width in (("straight", 1), ("pair_straight", 2), ("triple_straight", 3)):
        span = getattr(combos, kind)
        for lo, hi in _runs(cnt, width, span, first) if span else ():
            out.append((Cards(_take(by_rank, lo, hi, width)), Reading(kind, hi, width * (hi - lo + 1))))
    span = combos.airplane
    if span:
        pairs = _runs(cnt, 2, span, first)
        for lo, hi in _runs(cnt, 3, span, first):
            t_ranks = {_place_rank(v) for v in range(lo, hi + 1)}
            for plo, phi in pairs:
                if phi - plo != hi - lo or t_ranks & {_place_rank(v) for v in range(plo, phi + 1)}:
                    continue
                cards = _take(by_rank, lo, hi, 3) + _take(by_rank, plo, phi, 2)
                out.append((Cards(cards), Reading("airplane", hi, len(cards))))
    return out


def random_play(rules: SandayiRulebook, hand: Cards, prev_reading: Reading | None, rng: random.Random, *, bombs: bool = True) -> Cards | None:
    """A random play from ``hand``: a lead when ``prev_reading`` is None (never None then), else a
    combination that beats it, or None to pass. ``bombs=False``: no bomb (the player's limit is used up)."""
    found = [(c, r) for c, r in candidates(rules, hand) if bombs or not r.is_bomb]
    if prev_reading is None:
        plain = [(c, r) for c, r in found if not r.is_bomb] or found
        weights = [len(c) ** 2 for c, _ in plain]
        return rng.choices(plain, weights)[0][0]
    beating = [(c, r) for c, r in found if beats(rules, r, prev_reading)]
    if not beating or rng.random() < 0.15:
        return None
    plain = [(c, r) for c, r in beating if not r.is_bomb]
    if plain and (rng.random() < 0.8 or len(plain) == len(beating)):
        return rng.choice(plain)[0]
    return rng.choice([(c, r) for c, r in beating if r.is_bomb])[0]


def random_bid(game: Game, rng: random.Random) -> int | str:
    """A random bid for the player to bid: higher than the standing bid, or pass (the first bidder
    always bids)."""
    values = list(game.rules.bidding.bids)
    high = game.bidding.high
    higher = [v for v in values if high is None or v > high]
    if high is not None and (not higher or rng.random() < 0.6):
        return "pass"
    return rng.choice(higher)


def deal(rules: SandayiRulebook, rng: random.Random, first_bidder: str = "S") -> tuple[dict[str, Cards], Cards]:
    """Shuffle the decks and deal them from the first bidder (hands by seat, kitty)."""
    pack = list(Decks(rules.deal.decks).full())
    rng.shuffle(pack)
    return deal_cards(rules, pack, first_bidder)


def play_game(rules: SandayiRulebook, rng: random.Random, first_bidder: str = "S") -> Game:
    """Deal, bid and play one whole game with random players; the finished state."""
    game = Game.start(rules, *deal(rules, rng, first_bidder), first_bidder)
    while game.phase == "bidding":
        game = game.bid(game.turn, random_bid(game, rng))
    if game.over:
        return game
    game = game.take_kitty(game.dealer)
    if game.can_report:
        game = game.report(game.dealer, play=rng.random() < 0.7)
    if not game.over and game.first_bid_three and rng.random() < 0.3:
        game = game.open_hand(game.dealer)
    while not game.over:
        seat = game.turn
        prev = game.last.reading if game.last else None
        cards = random_play(rules, game.hand(seat), prev, rng, bombs=game.bomb_allowed(seat))
        game = game.pass_(seat) if cards is None else game.play(seat, cards)
    return game


__all__ = ["candidates", "deal", "play_game", "random_bid", "random_play"]
