"""``cardtable table events PATH``: what a table's log said on the bus, told again, for a tournament that lost it.

The tournament service takes each table event once, when it is published, and the tables' events are not retained
on the broker: a tournament file restored from a backup lacks the games the tables reported after the backup. The
table's own log holds every input, and replaying it as the service did gives the same events, at the same ``seq``
(the service rebuilds its table from the log the same way on start): each entry applied in turn, an amendment
rebuilding the table from the log as amended up to it and telling the results it changed (``rejudged``,
``referee/table/amend.py``). Each is one line of JSON, ``{"topic": ..., "payload": ...}``, the bus's own topic and
payload, checked against the contract as the service checks what it publishes; before each result (``game_won``,
``round_over``, ``round_forfeited``, ``rejudged``) comes the table's ``state`` then, as the retained ``state`` showed
it. ``cardtable tournament catch-up`` reads the lines (``referee/tournament/catchup.py``); nothing is published.

>>> import tempfile, os
>>> from referee.table.log import EventLog
>>> with tempfile.TemporaryDirectory() as d:
...     with EventLog.open(os.path.join(d, "t07.db")) as log:
...         _ = log.append("commands", {"id": "c1", "command": "assign", "rulebook": "classic-3deck",
...                                     "players": {"S": "李强", "E": "王芳", "N": "刘静", "W": "张伟"}}, at=10.0)
...     lines = list(retold(os.path.join(d, "t07.db")))
>>> [(line["topic"], line["payload"]["seq"], line["payload"]["kind"]) for line in lines]
[('cardtable/v1/tables/t07/events', 1, 'assigned'), ('cardtable/v1/tables/t07/events', 1, 'applied')]
"""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bus.protocol import PayloadError, decode, encode, topic
from referee.catalogue import Refusal, say
from referee.table.amend import RESULTS, as_amended, is_amend, rejudged_of
from referee.table.answer import answered
from referee.table.reducer import Output
from referee.table.tables import new_table
from referee.table.timeline import identity, open_log

TOLD = (*RESULTS, "rejudged")  # the events a tournament takes a result from: the table's state comes before each


def retold(path: str | Path, table: str | None = None, rulebook: str | None = None, factory: Any = None,
           lang: str = "zh") -> Iterator[dict]:
    """Every ``events`` message the table of the log at ``path`` published, in order, and its ``state`` before each
    result (see the module's docstring): ``{"topic", "payload"}``. ``table`` and ``rulebook``: as ``table replay``
    takes them (the log's own, by default). Raises :class:`LogError`, in words, for a file that is not a log."""
    path = Path(path)
    with open_log(path, lang) as log:
        table, rulebook = identity(log, path, table, rulebook)
        rows = [(e.kind, e.payload, e.at, e.seq) for e in log.entries()]
    fresh = (lambda: (factory or new_table)(table, rulebook))
    t = fresh()
    for i, (kind, payload, at, seq) in enumerate(rows):
        t, outputs = _handle(t, fresh, rows[:i + 1]) if is_amend(kind, payload) else _apply(t, kind, payload, at, seq)
        for out in outputs:
            if out.name != "events":
                continue
            event = out.payload
            if event["kind"] in TOLD:
                yield _checked(table, "state", t.state(event["at"]))
            yield _checked(table, "events", event)


def _apply(t: Any, kind: str, payload: dict, at: float, seq: int) -> tuple[Any, list]:
    """One entry applied as the service applies it (``TableService._apply``): a console command's answer with it."""
    try:
        t, outputs = t.apply(kind, payload, at, seq)
    except Exception:  # noqa: BLE001 - the service logged it, and published nothing for the entry
        return t, []
    return t, answered(kind, payload, seq, t.at, outputs)


def _handle(t: Any, fresh: Any, rows: list) -> tuple[Any, list]:
    """An amendment, as the service handles it (``TableService._handle``, which also logs what fails): the table
    rebuilt from the log as amended up to it, its outputs, and the ``rejudged`` event when it changed a result."""
    t, outputs = fresh(), []
    for kind, payload, at, seq in as_amended(rows):
        t, outputs = _apply(t, kind, payload, at, seq)
    try:
        event = rejudged_of(fresh, rows, outputs)
    except Exception:  # noqa: BLE001 - as the service: logged there, nothing published
        event = None
    return t, outputs if event is None else [*outputs, Output("events", event)]


def _checked(table: str, name: str, payload: dict) -> dict:
    """One line: the topic and the payload, as the contract lets the service publish it (a payload the contract
    refuses was not published by the service either: it is left out, as there)."""
    try:
        return {"topic": topic(table, name), "payload": decode(name, encode(name, payload))}
    except (PayloadError, ValueError):
        return {}


class WriteError(Refusal):
    """``--out`` cannot be written (the catalogue's ``retell.*``); nothing was written."""

    section = "retell"


def main(path: str, out: str | None = None, table: str | None = None, rulebook: str | None = None,
         lang: str = "zh") -> int:
    """``cardtable table events``: the lines to ``out`` (a new file), else to standard output."""
    told = [line for line in retold(path, table, rulebook, lang=lang) if line]  # a LogError: the command line says it
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in told)
    if out is None:
        sys.stdout.write(text)
        return 0
    part = Path(f"{out}.part")
    try:  # whole or not at all: written beside, then renamed (never over a file; a USB stick's FAT has no links)
        if Path(out).exists():
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST))
        with open(part, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if Path(out).exists():  # made meanwhile by someone else: theirs stays
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST))
        os.replace(part, out)
    except OSError as exc:  # said by the command line (``cardtable.lang.refuse``)
        raise WriteError("cannot_write", path=out, error=exc) from None
    finally:
        part.unlink(missing_ok=True)
    print(say(lang, "retell.written", path=out, n=sum(line["topic"].endswith("/events") for line in told)))
    return 0


__all__ = ["TOLD", "WriteError", "main", "retold"]
