"""``cardtable tournament catch-up --db F FILE...``: the games the tables reported that a tournament file lacks.

The tournament service takes each table event once, as it is published; the broker keeps none. A tournament file put
back from a backup (``docs/deployment.md``) therefore lacks every game the tables reported after the backup was made.
Each table's log still holds them: ``cardtable table events LOG --out FILE`` tells its events again, in order, with
the table's ``state`` before each result (``referee/table/retell.py``), and this gives them to the
:class:`~referee.tournament.recorder.Recorder` as the service gives it the bus's: a game recorded already (by its
table, seq and kind) changes nothing, a correction (``rejudged``) corrects, a report the tournament cannot record is
noted at the table for the organiser, as the service notes it.

Only the latest round's tables are caught up: a table's events carry no round, so each table's are taken from the
last time the round's own players were seated there (an ``assigned`` naming them) up to the next seating, which is
another round's. A backup made before the latest round was paired: catch up, pair the round again (the same draw:
every draw follows the tournament's seed and results), and catch up again. A table where the round's players were
never seated is said and left alone (enter by hand what it lacks). The files are read whole and checked against the bus's contract before anything is recorded: a line
that is not a table's event or state is refused in words, naming its file and line, and nothing changes. With
``dry_run`` everything is done on a copy of the file, said, and thrown away.

>>> Caught("t01", recorded=("#57 game_won",)).line("en")
't01: recorded #57 game_won'
>>> Caught("t03", skipped="the players seated last are not the round's").line("en")
"t03: not caught up: the players seated last are not the round's"
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bus.protocol import PayloadError, decode, parse_topic
from referee.catalogue import say
from referee.seats import SEATS
from referee.tournament.core import Tournament, TournamentError
from referee.tournament.recorder import Recorder
from referee.tournament.store import TournamentStore

RESULTS = ("game_won", "round_over", "round_forfeited", "rejudged")  # the events that may change a table's result
MAX_LINE = 1 << 20  # a line longer than this is no table's event (the longest, a rejudged round, is a few KiB)


@dataclass(frozen=True)
class Caught:
    """What catching up did at one table: the results ``recorded`` (``#seq kind``), those the file ``had`` already,
    those ``unrecorded`` (with why), or why the table was ``skipped``."""

    table: str
    recorded: tuple[str, ...] = ()
    had: tuple[str, ...] = ()
    unrecorded: tuple[str, ...] = ()
    skipped: str | None = None

    def line(self, lang: str) -> str:
        """The table's line, in ``lang``."""
        if self.skipped is not None:
            return say(lang, "catchup.skipped", table=self.table, why=self.skipped)
        sep = "、" if lang == "zh" else ", "
        parts = [say(lang, f"catchup.{name}", results=sep.join(items))
                 for name, items in (("recorded", self.recorded), ("had", self.had), ("unrecorded", self.unrecorded))
                 if items]
        return say(lang, "catchup.table", table=self.table,
                   what=("；" if lang == "zh" else "; ").join(parts) or say(lang, "catchup.nothing"))


def read(paths: Iterable[str | Path]) -> list[tuple[str, str, dict]]:
    """Every line of the files, in order: ``(table, "events" or "state", payload)``, each checked against the bus's
    contract. Raises :class:`TournamentError` naming the first line that is not one, and its file."""
    lines = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                for number, text in enumerate(f, 1):
                    if text.strip():
                        lines.append(_line(path, number, text))
        except OSError as exc:
            raise TournamentError("catchup_file", path=path, error=exc) from None
        except UnicodeDecodeError:  # another command's file (a database): not Python's words in English
            raise TournamentError("catchup_file", path=path, error=TournamentError("catchup_not_utf8")) from None
    return lines


def _line(path: str | Path, number: int, text: str) -> tuple[str, str, dict]:
    def bad(why: str | TournamentError | PayloadError) -> TournamentError:
        return TournamentError("catchup_line", path=path, line=number, why=why)

    if len(text) > MAX_LINE:
        raise bad(TournamentError("catchup_too_long", n=MAX_LINE))
    try:
        line = json.loads(text)
    except ValueError:
        raise bad(TournamentError("catchup_not_json")) from None
    if not (isinstance(line, dict) and set(line) == {"topic", "payload"} and isinstance(line["topic"], str)):
        raise bad(TournamentError("catchup_not_line"))
    try:
        table, name = parse_topic(line["topic"])
    except ValueError as exc:
        raise bad(str(exc)) from None
    if name not in ("events", "state"):
        raise bad(TournamentError("catchup_not_told", topic=line["topic"]))
    try:
        return table, name, decode(name, line["payload"])
    except PayloadError as exc:  # which field, what it should be: said in the reader's language
        raise bad(exc) from None


def catch_up(store: TournamentStore, lines: list[tuple[str, str, dict]], lang: str = "zh") -> list[Caught]:
    """Give each table's events, from where the latest round's players were last seated there up to the next seating,
    to a :class:`Recorder` of ``store`` (see the module's docstring); what was done, table by table in the order the
    lines name them."""
    t = store.tournament
    if not t.rounds:
        raise TournamentError("no_round_paired")
    caught = []
    for table in dict.fromkeys(table for table, _, _ in lines):
        mine = [(name, payload) for x, name, payload in lines if x == table]
        seatings = [i for i, (name, p) in enumerate(mine) if name == "events" and p["kind"] == "assigned"]
        ours = [i for i in seatings if _not_ours(t, table, mine[i][1]["data"].get("players"), lang) is None]
        if not ours:
            caught.append(Caught(table, skipped=_not_ours(t, table, mine[seatings[-1]][1]["data"].get("players")
                                                          if seatings else None, lang)))
            continue
        end = next((i for i in seatings if i > ours[-1]), len(mine))  # the next seating is another round's
        caught.append(_table(store, table, mine[ours[-1]:end], lang))
    return caught


def _not_ours(t: Tournament, table: str, players: dict | None, lang: str) -> str | None:
    """Why a seating of ``players`` at ``table`` is not the latest round's there (None when it is: every player seated
    is of one of the table's entries, and every entry has a player seated)."""
    r = t.rounds[-1]
    try:
        entries = r.table(table).entries
    except TournamentError as exc:
        return exc.text(lang)
    if not isinstance(players, dict):
        return say(lang, "catchup.never_seated", round=r.round)
    names = {e: set(t.entry(e).players) for e in entries}
    seated = [players.get(s) for s in SEATS]
    if all(any(p in n for n in names.values()) for p in seated) and all(n & set(seated) for n in names.values()):
        return None
    sep = "、" if lang == "zh" else ", "
    return say(lang, "catchup.not_the_round", round=r.round, players=sep.join(f"{s} {players.get(s)}" for s in SEATS),
               entries=sep.join(t.entry(e).name for e in entries))


def _table(store: TournamentStore, table: str, mine: list[tuple[str, dict]], lang: str) -> Caught:
    told: list[str] = []

    def unrecorded(_table: str, seq: int, kind: str, reason: dict) -> None:
        told.append(say(lang, "catchup.why", result=f"#{seq} {kind}", why=reason[lang]))

    recorder = Recorder(store, told=unrecorded)
    recorded, had = [], []
    for name, payload in mine:
        if name == "state":
            recorder.state(table, payload)
            continue
        before, said = store.last_seq(), len(told)
        recorder.event(table, payload)
        if payload["kind"] in RESULTS and len(told) == said:
            (recorded if store.last_seq() != before else had).append(f"#{payload['seq']} {payload['kind']}")
    return Caught(table, tuple(recorded), tuple(had), tuple(told))


def run(db: str | Path, paths: Iterable[str | Path], lang: str = "zh", dry_run: bool = False) -> list[str]:
    """``cardtable tournament catch-up``: the lines it prints. The files are read and checked first; with ``dry_run``
    the tournament is caught up on a copy of ``db``, thrown away."""
    lines = read(paths)
    with tempfile.TemporaryDirectory() as folder:
        if dry_run:
            original, db = TournamentStore(db), Path(folder) / "copy.db"
            try:
                original.backup(db)  # checked as a backup is: a damaged file is refused, in words
            finally:
                original.close()
        store = TournamentStore(db)
        try:
            said = [c.line(lang) for c in catch_up(store, lines, lang)]
        finally:
            store.close()
    return said + ([say(lang, "catchup.dry_run")] if dry_run else [])


__all__ = ["Caught", "catch_up", "read", "run"]
