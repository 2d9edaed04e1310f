"""A Tractor hand whose draw ends with nobody declaring, and the draw itself, at the table.

Seed 000 says what a draw with no declaration does (第八条 2: 当一盘牌摸牌结束仍无人揭牌，则由该盘摸第一张牌的运动员做庄，由庄家
指定任一门花色牌为主牌); seeds 001 and 003 do not, and their books decided as 000 (``[dealer] no_declaration =
"first_drawer"``). In a first hand no dealer is known then, and nothing watched the wait: a table whose first hand
ended its draw with nobody declaring and nobody taking the kitty sat silent for ever. Nor was the draw watched: a draw
whose end nobody signalled (its declare button) did the same. Both are watched now as every untimed wait is
(``idle``: a person looks, no penalty; decided, no seed says it), the draw for the time its cards take to draw
(decided: 2 s a card after a minute's shuffle) with no card seen.
"""

import pytest

from referee.cards import Cards
from referee.rulebooks import load
from referee.seats import SEATS
from referee.table.reducer import STALLED_S, UNTIMED_STALL_S
from referee.table.scenario import _Drive
from referee.table.tables import new_table
from referee.table.tractor import DRAW_S_PER_CARD, SHUFFLE_S

BOOKS = ("classic-3deck", "zhongkai-2010", "shaoguan-2023", "shaoguan-2023-nokitty")
# The kitty's wait: 001's 5 s pause and the kitty's 60 s, then STALLED_S (八〈4〉, 二十三); elsewhere untimed.
KITTY_BOUND = {"classic-3deck": 5 + 60 + STALLED_S} | dict.fromkeys(BOOKS[1:], UNTIMED_STALL_S)


def _draw_bound(book: str) -> float:
    """The draw's wait: the shuffle and each card drawn (decided, tractor.SHUFFLE_S, DRAW_S_PER_CARD), then STALLED_S:
    3 decks 432 s, 4 decks 536 s (552 s with no kitty)."""
    deal = load(book).deal
    return SHUFFLE_S + DRAW_S_PER_CARD * (54 * deal.decks - deal.kitty) + STALLED_S


def _dealt(book: str) -> _Drive:
    """A first hand dealt at 0: nobody has declared."""
    d = _Drive(new_table("t1", book), "tractor", 3)
    d.send("commands", {"command": "start_round"}, 0.0)
    for s in "SENW":
        d.do_ready(0.0, s)
    d.deal()
    return d


def _events(d: _Drive, kind: str) -> list[dict]:
    return [o.payload["data"] for o in d.outputs if o.name == "events" and o.payload["kind"] == kind]


def _level_card(d: _Drive, seat: str) -> Cards:
    level = d.level()
    return Cards([min((c for c in d.hands[seat] if c.rank == level and not c.is_joker), key=str)])


def _holder(d: _Drive, besides: str | None = None) -> str:
    return next(s for s in SEATS if s != besides and any(c.rank == d.level() and not c.is_joker for c in d.hands[s]))


def _flagged_at(d: _Drive, since: float, due: float, seat: str, why: str):
    """The wait since ``since`` flagged ``idle`` at ``due`` (when the service logs a clock entry), not before, on
    ``seat`` with the reason ``why``, costing nothing: the flag."""
    assert d.table.next_deadline(after=since) == due
    d.do_wait(due - 0.1)
    assert not d.table.flags
    d.do_wait(due)
    (flag,) = d.table.flags
    assert (flag.kind, flag.seat, flag.violation, flag.why.key) == ("idle", seat, None, why)
    assert not [o for o in d.outputs if o.name == "violations"]
    return flag


@pytest.mark.parametrize("book", BOOKS)
def test_nobody_declaring_the_first_drawer_deals_and_names_the_suit_with_a_card(book):
    """000 第八条 2: 当一盘牌摸牌结束仍无人揭牌，则由该盘摸第一张牌的运动员做庄，由庄家指定任一门花色牌为主牌 (001 and
    003 say nothing: their books decided the same); 000 第十条 2: 当盘第一位抓牌者示意抓牌完毕 -- E signals the draw's end,
    takes the kitty and deals at the book's start level; a joker names no suit (refused, nothing changes); a card of
    clubs names clubs, and E leads the first trick."""
    d = _dealt(book)
    d.press("E", "declare", 10.0)
    assert d.table.declaring.standing is None and d.table.dealer is None
    d.press("E", "ready", 20.0)
    t = d.table
    assert (t.phase, t.dealer, t.trump, t.state(20.0)["trump"]) == ("kitty", "E", None, None)
    assert t.game.hand_level() == t.rules.deal.start_level
    d.send("observed", {"seat": "E", "cards": ["BJ"], "confidence": 0.99}, 21.0)
    assert _events(d, "rejected")[-1]["why"]["key"] == "tractor.name_trump" and d.table.trump is None
    d.show("E", Cards.parse("C9"), 22.0)
    assert _events(d, "trump_named")[-1] == {"seat": "E", "suit": "C"} and d.table.trumps.suit == "C"
    d.do_play(25.0)
    assert _events(d, "play_accepted")[-1]["seat"] == "E" and d.table.phase == "playing"


@pytest.mark.parametrize("book", BOOKS)
def test_nobody_declaring_in_a_later_hand_its_dealer_names_the_suit(book):
    """000 第八条 2: 当一盘牌摸牌结束仍无人揭牌……由庄家指定任一门花色牌为主牌; 000 第九条 1: 庄家先摸第一张牌 -- after the
    first hand the dealer is known: it keeps the deal, another seat's ``ready`` is refused, its own takes the kitty and a
    card of its names the suit."""
    d = _dealt(book)
    d.do_draw(10.0)
    d.do_kitty(16.0)
    d.do_play_out(20.0)
    dealer = d.table.dealer
    assert d.table.hand_no == 2 and d.table.phase == "dealing" and dealer
    d.deal()
    d.press(dealer, "declare", 30.0)
    other = SEATS[(SEATS.index(dealer) + 1) % 4]
    d.send("board/in", {"seat": other, "button": "ready"}, 40.0)
    assert _events(d, "rejected")[-1]["why"]["key"] == "table.button_meaningless" and d.table.phase == "dealing"
    d.press(dealer, "ready", 41.0)
    assert (d.table.phase, d.table.dealer, d.table.trump) == ("kitty", dealer, None)
    d.show(dealer, Cards.parse("DK"), 42.0)
    assert d.table.trump == "D" and d.table.game.dealer == dealer


@pytest.mark.parametrize("book", BOOKS)
def test_a_first_hand_nobody_declared_nor_took_the_kitty_in_is_flagged_and_any_seat_taking_it_answers(book):
    """000 第八条 2: 无人揭牌，则由该盘摸第一张牌的运动员做庄 -- no dealer was known, so nothing watched the wait: the table
    waits on the seat that signalled the draw's end (000 第十条 2: 当盘第一位抓牌者示意抓牌完毕) as on a dealer (001 八〈4〉
    应停顿5秒钟才能拿底牌, 二十三 庄家留底牌和首引不得超过60秒钟), an ``idle`` flag that says why, never a penalty; the table
    cannot see who drew first (the card turned up for it is not read), so any seat's ``ready`` takes the kitty and
    answers it."""
    d = _dealt(book)
    d.press("E", "declare", 10.0)
    due = 10.0 + KITTY_BOUND[book]
    flag = _flagged_at(d, 10.0, due, "E", "tractor.idle_no_declaration")
    d.send("board/in", {"seat": "E", "button": "confirm"}, due + 1.0)  # a referee answers it, not the seat
    d.do_wait(due + 900.0)
    assert d.table.flags == (flag,)  # one flag a wait
    d.press("W", "ready", due + 901.0)
    assert not d.table.flags and _events(d, "flag_resolved")[-1] == {"flag": flag.flag, "how": "dismiss"}
    assert (d.table.phase, d.table.dealer) == ("kitty", "W")


def test_a_referee_answers_the_wait_for_a_dealer_nobody_declared_and_it_goes_on_unflagged():
    """000 第八条 2: 由该盘摸第一张牌的运动员做庄，由庄家指定任一门花色牌为主牌 -- the referee dismisses the flag (the seats are
    still choosing who drew first): no second flag for the same wait; the first drawer's ``ready`` later still deals."""
    d = _dealt("zhongkai-2010")
    d.press("N", "declare", 10.0)
    d.do_wait(10.0 + UNTIMED_STALL_S)
    d.do_dismiss(200.0)
    d.do_wait(2000.0)
    assert not d.table.flags and len(_events(d, "flag_raised")) == 1
    d.press("N", "ready", 2001.0)
    assert (d.table.phase, d.table.dealer) == ("kitty", "N")


@pytest.mark.parametrize("book", BOOKS)
def test_a_draw_whose_end_nobody_signals_is_flagged_and_a_card_shown_answers_it(book):
    """000 第十条 2: 当盘第一位抓牌者示意抓牌完毕后，庄家应停顿5秒钟才拿底牌; 001 六: 庄家示意摸牌结束 -- the draw is timed by no
    book and nothing watched it: the time its cards take to draw, then STALLED_S, with no card seen and its end not
    signalled is an ``idle`` flag (no seat known in a first hand: South's; no penalty). Any seat's declaration is the draw going on: it answers the flag and is
    judged at once (not held behind it), and the wait starts again from it; the signal ends it."""
    d, bound = _dealt(book), _draw_bound(book)
    assert bound == {"classic-3deck": 432.0, "zhongkai-2010": 432.0, "shaoguan-2023": 536.0, "shaoguan-2023-nokitty": 552.0}[book]
    _flagged_at(d, 0.0, bound, "S", "tractor.idle_draw")
    w = _holder(d, besides="S")
    seen = bound + 30.0
    d.show(w, _level_card(d, w), seen)
    assert not d.table.flags and not _events(d, "play_waits") and d.table.declaring.standing.seat == w
    assert d.table.next_deadline(after=seen) == seen + bound
    d.do_wait(seen + bound)
    assert [(f.kind, f.seat) for f in d.table.flags] == [("idle", w)]  # the seat that would deal
    d.press(w, "declare", seen + bound + 10.0)
    assert not d.table.flags and d.table.declaring.draw_done_at == seen + bound + 10.0


def test_a_card_seen_in_a_later_hand_starts_the_draws_wait_again():
    """001 六: 庄家先摸第一张牌……庄家示意摸牌结束 -- in a later hand the draw waits on its dealer; a declaration by another
    seat is a card seen: the dealer is flagged the draw's bound after it, not after the deal. A draw whose cards keep
    coming is never flagged."""
    d = _dealt("classic-3deck")
    d.do_draw(10.0)
    d.do_kitty(16.0)
    d.do_play_out(20.0)
    dealer = d.table.dealer
    d.deal()
    seat = _holder(d, besides=dealer)
    d.show(seat, _level_card(d, seat), 100.0)
    d.do_wait(20.0 + _draw_bound("classic-3deck") + 60.0)
    assert not d.table.flags
    d.do_wait(100.0 + _draw_bound("classic-3deck"))
    assert [(f.kind, f.seat, f.why.key) for f in d.table.flags] == [("idle", dealer, "tractor.idle_draw")]
