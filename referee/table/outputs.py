"""The logged inputs applied to the table, and what it says published: the worker's half after the log.

In log order, each entry of a batch is applied (``Table.apply``; a console command answered with it: ``answer.py``; an
``amend`` rebuilds the table from the log as amended, up to and with itself, and says what it judged again:
``amend.py``), and every output it returns (``events``, ``violations``) is published; after the last input of the batch
the new ``state`` and ``board/out`` (retained), all at QoS 1. The ``state`` and ``board/out`` published after an entry
are made at that entry's time, so a restarted service publishes exactly the state it published before. An input refused
before the rules saw it (``intake.py``) is answered with a ``rejected`` event; ``health.rejected`` counts every input
answered so, the rules' refusals too.

Outputs go at least once: the log's bookkeeping (``EventLog.meta``'s ``outputs_acked``) keeps the last entry whose
outputs the broker acknowledged, written with the next batch's commit (or when idle, or at a clean stop), and a
restart publishes again the ``events`` and ``violations`` of the entries after it (``recovery.py``).
"""

from __future__ import annotations

import logging
from typing import Any

from bus.mqtt import Connection
from bus.protocol import PayloadError, encode
from referee.reasons import Reason
from referee.table.amend import as_amended, is_amend, rejudged_of
from referee.table.answer import answered
from referee.table.intake import QOS
from referee.table.reducer import Output, plain

log = logging.getLogger("referee.table.service")  # the service's one logger, whichever of its parts speaks


class OutputsMixin:
    """How :class:`~referee.table.service.TableService` applies what it logged and publishes what follows (its state
    is the service's, set in its ``__init__``)."""

    def _handle_batch(self, items: list[tuple]) -> None:
        applied = None  # the last input of the batch that was applied
        for item in items:
            try:
                if item[0] == "rejected":
                    _, name, input_id, reason, seq = item
                    self._reject(name, input_id, reason, seq)
                else:
                    _, name, payload, at, seq = item
                    self._handle(name, payload, at, seq)
                    applied = seq
            except Exception:  # the worker must outlive any one message
                log.exception("table %s: handling %r failed", self.table_id, item[:2])
        if items:
            self._input_at = self.clock()
        if applied is not None:
            try:
                self._publish_snapshots(self._now)
            except Exception:
                log.exception("table %s: publishing the state after entry %d failed", self.table_id, applied)
            else:
                with self._applied:
                    self._applied_seq = applied
                    self._applied.notify_all()

    def _apply(self, name: str, payload: dict, at: float, seq: int) -> list:
        """The outputs of one input applied, a console command's answer with them (``answer.py``)."""
        try:
            self.table, outputs = self.table.apply(name, payload, at, seq)
        except Exception:
            log.exception("table %s: the runtime failed on entry %d (%s); the table is unchanged",
                          self.table_id, seq, name)
            return []
        finally:
            self._now = at if self._now is None else max(self._now, at)
        return answered(name, payload, seq, self.table.at, outputs)

    def _handle(self, name: str, payload: dict, at: float, seq: int) -> None:
        """Apply one input and publish its outputs (the worker publishes the state after the batch), counting the inputs
        the rules refused (``rejected`` events) in the health. An ``amend`` rebuilds the table from the log as amended,
        up to and with itself."""
        if not is_amend(name, payload):
            outputs = self._apply(name, payload, at, seq)
        else:
            rows = [r for r in self._rows() if r[3] <= seq]
            self.table, outputs = self._factory(self.table_id, self.rulebook), []
            for kind, p, entry_at, entry_seq in as_amended(rows):
                outputs = self._apply(kind, p, entry_at, entry_seq)
            outputs = outputs + self._rejudged(rows, outputs)
        self.rejected += sum(out.name == "events" and out.payload["kind"] == "rejected" for out in outputs)
        self._publish_outputs(seq, outputs)

    def _rejudged(self, rows: list, outputs: list) -> list:
        """The ``rejudged`` event of the amendment that ends ``rows`` (its ``outputs`` as judged), when it changed a
        result (``amend.py``)."""
        try:
            event = rejudged_of(lambda: self._factory(self.table_id, self.rulebook), rows, outputs)
        except Exception:
            log.exception("table %s: judging the results again after entry %d failed", self.table_id, rows[-1][3])
            return []
        return [Output("events", event)] if event is not None else []

    def _rows(self) -> list[tuple[str, dict, float, int]]:
        return [(e.kind, e.payload, e.at, e.seq) for e in self.log.entries()]

    def _publish_outputs(self, seq: int, outputs: list) -> None:
        infos = []
        for out in outputs:
            try:
                data = encode(out.name, out.payload, validate=self.check_outputs)
            except (PayloadError, ValueError):
                log.exception("table %s: the runtime's %s output of entry %d breaks the contract",
                              self.table_id, out.name, seq)
                continue
            infos.append(self._publish(out.name, data, retain=False))
        self._sent.append((seq, infos))

    def _reject(self, name: str, input_id: str | None, reason: PayloadError | Reason, seq: int) -> None:
        """Answer an input refused before the rules saw it (its payload; its id reused; it cannot be logged) with a
        ``rejected`` event: the logs' words and the reason as data, for each reader to say in its language."""
        self.rejected += 1
        why = reason.why if isinstance(reason, PayloadError) else reason
        data = {"topic": name, "id": input_id, "reason": str(reason) if isinstance(reason, PayloadError) else plain(why)}
        event = {
            "v": 1,
            "seq": max(seq, 1),  # events' seq starts at 1; before any entry there is none to name
            "kind": "rejected",
            "at": self.clock(),
            "data": data | {"why": why.json()},
        }
        self._publish("events", encode("events", event), retain=False)

    def _publish_snapshots(self, at: float) -> None:
        state = self.table.state(at)
        for name, make in (("state", lambda at: state), ("board/out", lambda at: self.table.board(at, state))):
            try:
                data = encode(name, make(at), validate=self.check_outputs)
            except Exception:
                log.exception("table %s: no valid %s at %s", self.table_id, name, at)
                continue
            self._publish(name, data, retain=True)

    def _publish(self, name: str, data: bytes, retain: bool) -> Any:
        info = self.conn.publish(self._topics[name], data, qos=QOS, retain=retain)
        self.published += 1
        return info

    def _acked(self) -> int | None:
        """The last entry whose outputs, and every earlier entry's, the broker has acknowledged,
        when that moved since it was last written down (else None)."""
        before = self._acked_seq
        while self._sent and all(Connection.acknowledged(info) for info in self._sent[0][1]):
            self._acked_seq = self._sent.popleft()[0]
        return self._acked_seq if self._acked_seq != before else None

    def _note_acked(self) -> None:
        """While idle: write down how far the outputs reached the broker (a commit only if it moved)."""
        try:
            acked = self._acked()
            if acked is not None:
                self.log.set_meta({"outputs_acked": str(acked)})
        except Exception:
            log.exception("table %s: noting the acknowledged outputs failed", self.table_id)
