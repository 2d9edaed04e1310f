"""A whole Tractor round at a table, as its log holds it (the judge's clock driver's inputs): for tests that need a
table's log whose round ends."""

from __future__ import annotations

from pathlib import Path

from referee.table.amend import results
from referee.table.log import EventLog
from referee.table.reducer import CLOCK
from referee.table.scenario import _Drive
from referee.table.tables import new_table
from referee.table.tractor import DRAW_S_PER_CARD, SHUFFLE_S

RULEBOOK = "classic-3deck"
PLAYERS = {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"}
END = 4800.5  # the hand played out past the round's notice (001 三): the round is over after it
ROUND_S = 6000.0  # from one round's start to the next one's
# The draw that lasts until the notice is watched (idle: the shuffle and 2 s a card, then a minute; 3 decks 432 s): a
# referee dismisses the flag, as at a real table where the draw goes on.
DRAW_FLAG = SHUFFLE_S + DRAW_S_PER_CARD * (54 * 3 - 6) + 60.0


class Recorded(_Drive):
    """The judge's clock driver, keeping the inputs it made as the log holds them."""

    rows: list

    def send(self, name: str, payload: dict, t: float) -> list:
        out = super().send(name, payload, t)
        full = {"v": 1, "id": f"j{self.seq}", **payload} | ({"at": t} if name not in ("commands", CLOCK) else {})
        self.rows = [*getattr(self, "rows", []), (name, full, t, self.seq)]
        return out


def round_rows(table: str, players: dict[str, str] | None = None, *more: dict[str, str]) -> list[tuple]:
    """A whole round at ``table``: seated (``players``, by default :data:`PLAYERS`), started, one hand dealt, declared
    and played out at the notice; and after it a round for each of ``more`` (the players seated anew), each
    ``ROUND_S`` later."""
    d = Recorded(new_table(table, RULEBOOK), "tractor", 0)
    for i, seated in enumerate([players or PLAYERS, *more]):
        start = i * ROUND_S
        d.send("commands", {"command": "assign", "players": seated, "rulebook": RULEBOOK}, start)
        d.send("commands", {"command": "start_round"}, start)
        for seat in "SENW":
            d.do_ready(start, seat)
        d.dealt = None  # a new round's first hand: dealt again
        d.do_wait(start + DRAW_FLAG)
        d.do_dismiss(start + DRAW_FLAG + 1.0)
        d.do_draw(start + 4780.0)
        d.do_kitty(start + 4786.0)
        d.do_play_out(start + END)
    return d.rows


def judged(table: str, rows: list[tuple]) -> list[dict]:
    return results(new_table(table, RULEBOOK), rows)


def amend(rows: list[tuple], entry: int, cards: list[str]) -> list[tuple]:
    seq, at = rows[-1][3] + 1, rows[-1][2]
    return [*rows, ("commands", {"v": 1, "id": f"amend-{seq}", "command": "amend", "entry": entry, "cards": cards}, at, seq)]


def write_log(db: Path, table: str, rows: list[tuple]) -> None:
    """The table's log at ``db`` holding ``rows``, as its service would have logged them."""
    with EventLog.open(db) as log:
        log.set_meta({"table": table, "rulebook": RULEBOOK})
        for kind, payload, at, _ in rows:
            log.append(kind, payload, at=at, input_id=None if kind == CLOCK else f"{kind} {payload['id']}")


def seated(store, table: str) -> dict[str, str]:
    """The round's players at ``table`` of a tournament ``store``: its first entry's pair at S/N, the second's at E/W."""
    t = store.tournament
    first, second = (t.entry(e).players for e in t.rounds[-1].table(table).entries)
    return {"S": first[0], "N": first[1], "E": second[0], "W": second[1]}
