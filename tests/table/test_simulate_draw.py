"""The simulator's draw: a seat whose declaration stands draws more copies of its card (the hall's players died on it
in a soak: ``cards.too_many (card='D3', decks=3, n=5)``, a process dying in ``make demo``).

The bots counted the copies shown for their own standing declaration as free to show again: a seat standing with
two H2 that drew the third showed three, which the declaring (the simulator's and the table's alike) counts on top of
the two standing, five copies of three decks. Now a seat adds only the copies drawn since (加固) where the book allows
it, and shows nothing more where it does not. ``cardtable table simulate`` plays the hand through a real mosquitto
and a real table service; seed 5 is such a draw under both books (N stands with H2 H2 and draws the third).
"""

from __future__ import annotations

import contextlib
import io
import time

import pytest

from cardtable import cli
from referee.cards import Cards
from referee.rulebooks import load
from referee.table.service import TableService
from referee.tractor.bots import bid
from referee.tractor.game import Declaring

TABLES = ["p1", "p2"]
WAIT_S = 30.0


def simulated(broker, table_watch, tmp_path, table: str, rulebook: str) -> tuple[int, list[dict], str]:
    """One hand of seed 5 at ``table``: the exit status, the table's events, what the simulator printed."""
    watch = table_watch(table, broker, WAIT_S)
    start = time.time()
    service = TableService(table, rulebook, broker.url(f"table-{table}"), tmp_path / f"{table}.db", clock=lambda: start,
                           trust_senders=True).start()
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            code = cli.main(["table", "simulate", "--table", table, "--rulebook", rulebook, "--broker", broker.url("console"),
                             "--camera", broker.url(f"camera-{table}"), "--board", broker.url(f"board-{table}"),
                             "--console", broker.url("console"), "--hands", "1", "--seed", "5"])
    finally:
        service.stop()
        watch.close()
    return code, watch.of("events"), out.getvalue()


def declared(events: list[dict]) -> list[tuple[str, str]]:
    return [(e["data"]["seat"], " ".join(e["data"]["cards"])) for e in events if e["kind"] == "declared"]


def drawn_wrong(events: list[dict]) -> list[dict]:
    """What the table refused or flagged in the draw (before the kitty was taken; the plays' unsure reads are flagged)."""
    taken = next(e["seq"] for e in events if e["kind"] == "kitty_taken")
    return [e for e in events if e["kind"] in ("flag_raised", "rejected") and e["seq"] <= taken]


def test_no_reinforcing_where_the_book_forbids_it(broker, table_watch, tmp_path):
    """001 八 反揭原则〈3〉自己不能反揭自己, and no reinforcing in it (classic-3deck ``reinforce = false``): N, standing
    with two H2, draws the third and shows nothing; the hand is played out and scored, nobody flagged."""
    code, events, out = simulated(broker, table_watch, tmp_path, "p1", "classic-3deck")
    assert code == 0, out
    assert declared(events) == [("W", "D2"), ("N", "H2 H2")]
    assert [e["data"]["hand"] for e in events if e["kind"] == "hand_scored"] == [1]
    assert not drawn_wrong(events)


def test_reinforcing_shows_the_copies_drawn_since(broker, table_watch, tmp_path):
    """000 第十条 1 揭牌者继续摸到与揭出的级牌花色相同的牌，可以亮出加固 (zhongkai-2010 ``reinforce = true``): N,
    standing with two H2, shows the third H2 it drew, and the table's declaration holds the three copies there are."""
    code, events, out = simulated(broker, table_watch, tmp_path, "p2", "zhongkai-2010")
    assert code == 0, out
    assert declared(events) == [("W", "D2"), ("N", "H2 H2"), ("N", "H2")]
    assert [e["data"]["hand"] for e in events if e["kind"] == "hand_scored"] == [1]
    assert not drawn_wrong(events)
    taken = next(e for e in events if e["kind"] == "kitty_taken")
    assert taken["data"]["dealer"] == "N" and taken["data"]["trump"] == "H"


@pytest.mark.parametrize("rulebook", ["classic-3deck", "zhongkai-2010"])
def test_a_bid_never_shows_its_standing_cards_again(rulebook):
    """A seat standing with two of its card and holding all three (000 第十条 1 加固 where the book allows it; 001 八
    〈3〉自己不能反揭自己): what it shows, added to what stands, is never more copies than the decks hold."""
    rules = load(rulebook)
    standing = Declaring(rules, "9", first_hand=False).declare("S", Cards.parse("H9 H9"), at=1.0)
    after, shown = bid(standing, "S", Cards.parse("H9 H9 H9 C4 D9"), at=2.0)
    if rules.declare.reinforce:
        assert str(shown) == "H9" and after.standing.count == 3
    else:
        assert after is None and not shown
    other, shown = bid(standing, "E", Cards.parse("S9 S9 S9"), at=2.0)  # an overturn: the fewest copies that do it
    assert str(shown) == "S9 S9 S9" and other.standing.seat == "E"
