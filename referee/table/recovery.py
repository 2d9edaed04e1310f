"""The log on start: one service holds it, rebuilds the table from it, and checks that it is the whole log the table
published before serving it.

A log is held by one service (:func:`hold_log`) and belongs to one table and the rulebook it was started with (another
table's service refuses it). The service replays it through ``Table.apply``: the rulings that replay produces were
published before and are dropped, but those of the entries after the last one whose outputs the broker acknowledged,
which are published again (``outputs.py``: at least once). Once connected, it checks the log against its witnesses
(``witness.py``: the chain in its retained ``health`` on the broker, its retained ``state``, and the file beside the
log): a log that lost entries it published, or another log, is refused with a clear message unless the referee accepts
it (``docs/recovery.md``).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from bus import lock
from bus.mqtt import Connection, Delivery, NoConnection
from bus.protocol import PayloadError, decode, encode, parse_topic, topic
from referee.catalogue import Term
from referee.table import witness
from referee.table.amend import as_amended, is_amend
from referee.table.intake import QOS
from referee.table.log import LogError
from referee.table.reducer import DEVICES
from referee.table.steady import STEP_S, SteadyClock

log = logging.getLogger("referee.table.service")  # the service's one logger, whichever of its parts speaks

WITNESS_WAIT_S = 10.0  # for the broker's retained witness at start (and for each session's subscriptions)


def hold_log(db_path: str | Path, table: str) -> lock.Holding:
    """Hold ``db_path`` for one service of ``table`` (:func:`bus.lock.hold_file` of ``<log>.lock`` beside it, let go
    when the service stops or the process ends however it ends): a second service of the same log would take the
    first's sessions from the broker in turn, both looking online, and its appends would break the chain its witnesses
    hold, so that the table could not start again. Raises :class:`LogError`, naming the holder, when another holds it
    or the lock file cannot be made."""
    where = Path(f"{db_path}.lock")
    try:
        return lock.hold_file(where, table)
    except lock.Held as e:
        if e.holder is None:
            raise LogError(f"cannot hold the log {db_path}: {where}: {e.error.strerror}", "unlockable", lock=where,
                           error=e.error) from None
        raise LogError(f"the log {db_path} is served already by another service (process and table {e.holder}; it "
                       f"holds {where}): stop that one first, or give this one another log", "held", holder=e.holder,
                       lock=where) from None



class RecoveryMixin:
    """How :class:`~referee.table.service.TableService` takes its log on start (its state is the service's, set in
    its ``__init__``)."""

    def _replay(self) -> list[tuple[int, list]]:
        """Claim the log, rebuild the table from it and return what to publish again: ``(seq, outputs)`` of each entry
        after the last one whose outputs the broker acknowledged (in flight when the service last stopped)."""
        self._claim_log()
        self.table = self._factory(self.table_id, self.rulebook)
        replayed, unsent = 0, []
        acked = self._acked_seq = int(self.log.meta("outputs_acked") or 0)
        rows = self._rows()
        for kind, payload, at, seq in as_amended(rows):
            outputs = self._apply(kind, payload, at, seq)
            if seq > acked:  # in flight when the service last stopped: published again
                if is_amend(kind, payload):
                    outputs = outputs + self._rejudged([r for r in rows if r[3] <= seq], outputs)
                unsent.append((seq, outputs))
            self._logged_seq, replayed = seq, replayed + 1
            self._logged_at = at if self._logged_at is None else max(self._logged_at, at)
        self._applied_seq = self._logged_seq
        if isinstance(self.clock, SteadyClock) and self._logged_at is not None:
            behind = self.clock.not_before(self._logged_at)  # the computer's clock set back while the service was away
            if behind > STEP_S:
                log.warning("table %s: the computer's clock is %.0f s behind the log's last entry: the table counts "
                            "on from the log", self.table_id, behind)
        self._presence = {device: self.table.presence_of(device) for device in DEVICES}
        self._boot = self.table.boot
        log.info("table %s: replayed %d entries (last seq %d)", self.table_id, replayed, self._logged_seq)
        return unsent

    def _claim_log(self) -> None:
        """A log belongs to one table and the rulebook it was started with: replaying it as another
        would publish another table's state, or judge its inputs by other rules."""
        table, rulebook = self.log.meta("table"), self.log.meta("rulebook")
        if table is None:
            self.log.set_meta({"table": self.table_id, "rulebook": self.rulebook})
        elif (table, rulebook) != (self.table_id, self.rulebook):
            raise LogError(f"{self.db_path} is the log of table {table} ({rulebook}), "
                           f"not of table {self.table_id} ({self.rulebook})", "other_table", table=table,
                           rulebook=rulebook, this=self.table_id, this_rulebook=self.rulebook)

    def _witness_topics(self, conn: Connection) -> dict[str, Any]:
        """Subscribe to the table's own retained ``state`` and ``health`` (read once at start). The
        broker sends a retained message after the SUBACK, but before a message published after it:
        :meth:`_check_witnesses` publishes a health of its own (not retained: "starting") as a fence."""
        seen: dict[str, Any] = {"fence": threading.Event(), "token": None}

        def keep(full_topic: str, raw: bytes, delivery: Delivery) -> None:
            name = parse_topic(full_topic)[1]
            conn.ack(delivery)
            if raw == seen["token"]:
                seen["fence"].set()
                return
            try:
                seen[name] = decode(name, raw)
            except PayloadError as exc:
                log.warning("table %s: the retained %s is not valid: %s", self.table_id, name, exc)

        for name in ("state", "health"):
            conn.subscribe(topic(self.table_id, name), keep, qos=QOS, retained="always")
        return seen

    def _check_witnesses(self, seen: dict[str, Any]) -> None:
        """The log against what was published of it (the broker's retained ``state`` and ``health``)
        and the witness file beside it: refuse a log that lost entries or is another log."""
        starting = self.health() | {"problem": "starting: checking the log against what was published",
                                    "problem_why": {"key": "starting", "values": {}}}
        seen["token"] = encode("health", starting)
        if self.conn.wait_subscribed(WITNESS_WAIT_S):
            self.conn.publish(topic(self.table_id, "health"), seen["token"], qos=QOS)
        if not seen["fence"].wait(WITNESS_WAIT_S):
            raise NoConnection("no_answer", client=self.conn.client_id, seconds=f"{WITNESS_WAIT_S:g}")
        for name in ("state", "health"):
            self.conn.unsubscribe(topic(self.table_id, name))
        try:
            beside = witness.read_file(witness.sidecar(self.db_path))
        except ValueError as exc:
            raise LogError(str(exc), "witness", path=witness.sidecar(self.db_path)) from None
        found = {
            "state": seen.get("state") and witness.Witness(self.table_id, seen["state"]["seq"], ""),
            "health": seen.get("health") and witness.Witness(self.table_id, seen["health"]["seq"], seen["health"]["chain"]),
            "file": beside,
        }
        last, head = self.log.head
        chains = {last: head}
        if any(w and 0 < w.seq < last for w in found.values()):  # an earlier entry: the chain up to it
            _, _, chains = self.log.chain(at={w.seq for w in found.values() if w})
        for where, seen_by in found.items():
            why = seen_by and (("other_witness", {"table": seen_by.table}) if seen_by.table != self.table_id
                               else witness.disagreement(seen_by, last, chains))
            if not why:
                continue
            refused = LogError("", why[0], **why[1], where=Term(f"replay.where_{where}"))
            message = (f"table {self.table_id}: the log {self.db_path} is not the one this table published: "
                       f"{refused.reason('en')}")
            if not self.accept_log:
                raise LogError(message + "; refusing to start", refused.why, **refused.values)
            log.warning("%s; started on it all the same (--accept-log)", message)
