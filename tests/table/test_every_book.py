"""Every rulebook of every game plays whole hands at its table: the guard that a book the tables serve can finish a
hand. For each book in ``referee/rulebooks/`` the service's reducer is fed, as the camera and the board would, hands
played by the engines' bots: each is scored, the next dealt, levels (San Da Yi: the scores) change, and the log replays
to the same table; and ``cardtable table simulate``'s players play two hands through a real mosquitto to the table
service. A Tractor book without a kitty (shaoguan-2023-nokitty) never scored a hand at the table: it waited for the
dealer to turn up a kitty of no cards, which no camera message can carry (``observed`` holds one card or more), and the
simulator sent one, refused by the bus.
"""

import random
import time

import pytest
from climbing_kit import Table_, guandan_hand, guandan_tribute, sandayi_game

from bus.protocol import PayloadError, decode
from referee.cards import Cards
from referee.guandan.bots import deal as deal_guandan
from referee.rulebooks import load, names
from referee.seats import next_seat
from referee.table.service import TableService
from referee.table.simulators import simulate
from referee.table.tables import new_table
from referee.tractor.bots import deal as deal_tractor
from referee.tractor.bots import legal_follow, random_lead, random_throw

HANDS = 2  # hands each book plays at least, and on until a level changed
MOST = 6  # hands played at most before the level change is missing
BOOKS = sorted(names())
TABLES = [f"b{i}" for i in range(len(BOOKS))]  # the broker's tables (tests/conftest.py): one of its own per book


def tractor_hand(d, rng):
    """One Tractor hand: the dealer (S in the first hand) declares with a level card it holds, or names the trump suit
    after taking the kitty; the bots lead (a throw now and then, where the book has throws) and follow legally; the
    dealer turns up the kitty where the book has one, as every message the camera sends does: one card or more."""
    rules, level = d.rules, d.table.game.hand_level()
    hands, kitty = deal_tractor(rules.deal.decks, rules.deal.kitty, rng)
    dealer = d.table.game.dealer or "S"
    held = [c for c in hands[dealer].distinct() if c.rank == level and not c.is_joker]
    if held:
        d.show(dealer, Cards(held[:1]))
    d.press(dealer, "declare")
    d.press(dealer, "ready", dt=rules.declare.window_s + 1.0)
    if d.table.trump is None:
        d.show(dealer, Cards([next(c for c in hands[dealer] if not c.is_joker and c.rank != level)]))
    trumps = d.table.trumps
    while any(hands.values()):
        leader = d.table.turn()
        others = {s: h for s, h in hands.items() if s != leader}
        lead = (random_throw(trumps, hands[leader], others, rng) if rng.random() < 0.2 else None) or random_lead(trumps, hands[leader], rng)
        plays, seat = [], leader
        for _ in range(4):
            cards = legal_follow(trumps, hands[seat], lead, rng, plays[1:]) if plays else lead
            d.show(seat, cards)
            hands[seat] -= cards
            plays, seat = plays + [cards], next_seat(seat)
    if kitty:
        d.show(d.table.dealer, kitty)


def guandan_hand_(d, rng):
    """One Guandan hand: its draw ends (a game's first hand: S drew the turned-up card and leads), the tribute is paid
    and returned where one is due, and the bots play it out."""
    hands = deal_guandan(d.rules, rng)
    d.press("S", "ready")
    if d.table.tribute is not None:
        guandan_tribute(d, rng, hands)
    guandan_hand(d, rng, hands)


PLAY = {"tractor": (tractor_hand, "hand_scored"), "guandan": (guandan_hand_, "hand_scored"), "sandayi": (sandayi_game, "game_scored")}


@pytest.mark.parametrize("book", BOOKS)
def test_every_book_plays_whole_hands_scores_them_deals_the_next_and_replays(book):
    """Each book's own articles on the end of a hand: 000 第十九条 and 001 五 (庄家方升级, 防家上台), 003 8 (以160分为基点，每多或
    少20分确定升级数) and 不留底牌打法 1, 10 (庄家不留底牌; 每盘牌最后一轮大牌方……按手中牌的分数牌总分进行加分: the hand ends and is
    scored with its last trick), 002 三 (升级: 上游与对家的名次定升几级) and 四 (进贡、还牌), 004 二 and 四 (叫分, 计分)."""
    rules = load(book)
    assert rules.game in PLAY, f"{book}: a game this guard does not play yet ({rules.game})"
    play, scored_kind = PLAY[rules.game]
    d, rng = Table_(book), random.Random(book)
    d.start()
    before = [t["level"] for t in d.state()["teams"]]
    hands = 0
    while hands < MOST and (hands < HANDS or [t["level"] for t in d.state()["teams"]] == before):
        hand_no = d.table.hand_no
        play(d, rng)
        assert len(d.events(scored_kind)) == hands + 1, f"{book}: hand {hand_no} was not scored (phase {d.table.phase})"
        assert (d.table.hand_no, d.table.phase) == (hand_no + 1, d.state()["phase"]) and d.table.phase in ("dealing", "bidding")
        hands += 1
    assert hands >= HANDS and not d.table.flags and not d.events("rejected") and not d.violations()
    if rules.game == "sandayi":  # no levels: the scores of the games played
        assert any(d.events("game_scored")[-1]["data"]["totals"].values())
    else:
        assert [t["level"] for t in d.state()["teams"]] != before and d.events("levels_changed")
    again = new_table("t1", book)
    for name, payload, at, seq in d.log:
        decode(name, payload)  # every input is one the bus carries
        again, _ = again.apply(name, payload, at, seq)
    assert again == d.table and again.state(d.at + 5) == d.state(d.at + 5)


def test_no_camera_message_carries_no_cards():
    """Why a book without a kitty needs no input to end a hand: the dealer cannot turn up a kitty of no cards."""
    with pytest.raises(PayloadError, match="empty"):
        decode("observed", {"v": 1, "id": "c1", "seat": "S", "cards": [], "confidence": 0.99, "at": 1.0})


@pytest.mark.parametrize("book", BOOKS)
def test_every_book_plays_two_hands_through_the_broker_and_the_service(book, broker, tmp_path):
    """As the reducer above, through the whole path: the simulator's camera, board and console publish to a real
    mosquitto and the table service (in-process, its own clock) judges; two hands (San Da Yi: games) are scored."""
    table = TABLES[BOOKS.index(book)]
    start = time.time()
    service = TableService(table, book, broker.url(f"table-{table}"), tmp_path / "t.db", clock=lambda: start, trust_senders=True).start()
    try:
        summary = simulate(table, book, broker.url("console"), hands=2, seed=3, camera=broker.url(f"camera-{table}"),
                           board=broker.url(f"board-{table}"), console=broker.url("console"))
    finally:
        service.stop()
    kinds = summary.kinds()
    assert summary.hands == 2 and kinds["hand_scored" if load(book).game != "sandayi" else "game_scored"] == 2
    assert kinds["rejected"] == 0
