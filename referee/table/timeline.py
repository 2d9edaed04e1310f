"""``cardtable table replay PATH``: a table's event log as a readable timeline.

Every entry of the log is one line (time, ``#seq``, who sent it, the seat, the cards, button or
command), followed by what the table ruled on it, found by replaying the log through
``Reducer.apply`` exactly as the service does on start: the events (play accepted, trick won,
hand scored, ...) and the violations with their penalties, in the sentences of
``referee.catalogue.sentences`` (card faces, seats and players). Chinese, ``--lang en`` for English.

The log does not record the rulebook the service was started with: the replay takes
``rulebook``, else the rulebook of the log's first ``assign``, else ``classic-3deck``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bus.protocol import check_table
from referee.catalogue import say, word
from referee.catalogue.sentences import Sentences
from referee.rulebooks import load
from referee.table.amend import as_amended
from referee.table.log import EventLog, LogError
from referee.table.tables import new_table

DEFAULT_RULEBOOK = "classic-3deck"


def input_line(sentences: Sentences, kind: str, p: dict) -> str:
    """One entry of the log (what the camera saw, a button, a command) in words."""
    lang = sentences.lang
    topic = word(lang, f"topic.{kind}", kind)
    if kind in ("observed", "removed"):
        values = {"topic": topic, "seat": sentences.seat(p.get("seat")), "cards": sentences.cards(p.get("cards", []))}
        if p.get("confidence", 1.0) < 1.0:
            return say(lang, "replay.observed_unsure", confidence=f"{p['confidence']:.2f}", **values)
        return say(lang, "replay.observed", **values)
    if kind == "clock":  # no input: the service's entry when a deadline passed (what time ruled follows)
        return say(lang, "replay.clock", topic=topic)
    if kind == "presence":  # no input: a device's presence changed (what it stops or starts follows)
        return say(lang, f"replay.{p.get('device')}_{p.get('status')}")
    if kind == "board/in":
        return say(lang, "replay.button", topic=topic, seat=sentences.seat(p.get("seat")),
                   button=word(lang, f"button.{p.get('button')}", str(p.get("button"))))
    return say(lang, "replay.command", topic=topic, command=sentences.command(p))


def _clock(at: float) -> str:
    t = time.localtime(at)
    return time.strftime("%H:%M:%S", t) + f".{int((at % 1) * 100):02d}"


def table_of(path: Path) -> str:
    """A table id from the file's name (``t07.db`` -> ``t07``), else ``replay``."""
    try:
        return check_table(path.stem)
    except ValueError:
        return "replay"


def first_rulebook(log: EventLog) -> str | None:
    """The rulebook of the log's first ``assign`` command, or None."""
    for entry in log.entries():
        if entry.kind == "commands" and entry.payload.get("command") == "assign":
            return entry.payload.get("rulebook")
    return None


def open_log(path: str | Path, lang: str = "zh") -> EventLog:
    """The log at ``path``, opened to read only (never written, whatever the file is: ``replay``, ``events``,
    ``backup``); :class:`LogError` in ``lang``'s words for no file, or a file that is not a log."""
    if not Path(path).is_file():
        raise LogError(say(lang, "replay.no_log", path=path))
    try:
        return EventLog.read(path)
    except LogError as exc:
        raise LogError(say(lang, "replay.not_log", path=path, why=exc.reason(lang)), exc.why) from None


def identity(log: EventLog, path: Path, table: str | None, rulebook: str | None) -> tuple[str, str]:
    """(table, rulebook) to replay ``log`` as: those given, else the log's own, else the file's name and the rulebook
    of its first ``assign`` (else ``classic-3deck``)."""
    return (table or log.meta("table") or table_of(path),
            rulebook or log.meta("rulebook") or first_rulebook(log) or DEFAULT_RULEBOOK)


def timeline(path: str | Path, lang: str = "zh", rulebook: str | None = None, table: str | None = None,
             factory: Any = None) -> Iterator[str]:
    """The lines of the timeline of the log at ``path`` (see the module's docstring). ``table``:
    the table id to replay as (default: the file's name, ``t07.db`` -> ``t07``, else ``replay``)."""
    path = Path(path)
    with open_log(path, lang) as log:
        table, rulebook = identity(log, path, table, rulebook)
        t = (factory or new_table)(table, rulebook)
        n = log.last_seq()
        originals = list(log.entries())
        judged = as_amended((e.kind, e.payload, e.at, e.seq) for e in originals)
        first = originals[0] if originals else None
        if first is None:
            yield say(lang, "replay.empty", table=table, path=path)
            return
        date = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(first.at))
        yield say(lang, "replay.header", table=table, path=path, n=n, rulebook=rulebook, date=date)
        width = len(str(n)) + 1
        for entry, (kind, payload, at, seq) in zip(originals, judged):
            before = Sentences(lang, load(t.rulebook).game, dict(t.players))
            head = f"{_clock(entry.at)}  {('#' + str(entry.seq)).rjust(width)}  "
            yield head + input_line(before, entry.kind, entry.payload)
            try:
                t, outputs = t.apply(kind, payload, at, seq)
            except Exception as exc:  # noqa: BLE001 - show it, go on as the service does
                yield " " * len(head) + say(lang, "replay.runtime_error", error=exc)
                continue
            said = Sentences(lang, load(t.rulebook).game, dict(t.players))
            lines = []
            for out in outputs:
                if out.name == "events":
                    lines.append(said.event(out.payload))
                elif out.name == "violations":
                    lines.append(said.violation(out.payload))
            if not lines:
                lines = [say(lang, "replay.nothing")]
            pad = " " * len(head)
            for i, line in enumerate(lines):
                yield f"{pad}{'└' if i == len(lines) - 1 else '├'} {line}"


def main(path: str, lang: str = "zh", rulebook: str | None = None, table: str | None = None) -> int:
    """``cardtable table replay``."""
    try:  # a LogError (no log, not a log) is the command line's to say
        for line in timeline(path, lang, rulebook, table):
            print(line)
    except BrokenPipeError:  # | head
        return 0
    return 0


__all__ = ["first_rulebook", "identity", "input_line", "main", "open_log", "table_of", "timeline"]
