"""The table service: the thin shell around the table's pure reducer (``runtime.Table``).

One service runs one table. Its state is the append-only event log (:class:`EventLog`): on start it
rebuilds the table by replaying every entry through ``Table.apply`` (the rulings that replay
produces were published before and are dropped), connects to the broker as ``table-{table}`` with a
persistent session (so the broker keeps the inputs that arrive while it is away), publishes the
retained ``state`` and ``board/out`` and listens to its three inputs.

An input is handled in two steps:

1. on paho's network thread, as the message arrives: the raw message (topic, payload, mid, qos) is
   queued, and NOT acknowledged (the connection uses manual acknowledgements).
2. on the service's one worker thread, which takes every message queued already (up to
   ``BATCH_MAX``): :func:`protocol.decode` each, then :meth:`EventLog.append_many` of the valid ones
   under ``"{topic} {id}"`` (so a redelivery is dropped), in ONE transaction and one commit; only
   then is every message of the batch acknowledged (logged, already logged or invalid), so the
   broker keeps every input until it is on disk: a ``kill -9`` at any moment loses nothing. An
   invalid payload is not logged; it is answered with an ``events`` entry of kind ``rejected``.
   Then, in log order: ``Table.apply``, every output it returns (``events``, ``violations``), and
   after the last input of the batch the new ``state`` and ``board/out`` (retained), QoS 1 (they
   are snapshots: the retained one is the latest anyway).

Outputs go at least once: the log's bookkeeping (``EventLog.meta``) keeps the last entry whose
outputs the broker acknowledged, written with the next batch's commit (or when idle, or at a clean
stop), and a restart publishes again the ``events`` and ``violations`` of the entries after it:
nothing that was in flight at a ``kill -9`` is lost (a reader may see an output twice, with the same
``seq``). A log also records the table and the rulebook it belongs to; another table's service
refuses it.

The service encodes its own outputs without checking them against their schemas (the tests check
every output the runtime makes; ``check_outputs=True`` checks them here too); inputs are always
checked.

Time: an input's ``at`` is the sender's clock; an input without one (a console command) is stamped
with the service's ``clock``, never earlier than the latest time already logged, so the log's times
run forward even when the senders' clocks run ahead of the service's (the simulator's do). The
``state`` and ``board/out`` published after an entry are made at that entry's time, so a restarted
service publishes exactly the state it published before. When a running shot clock runs out
(``Table.deadline_after``, on the service's clock) they are published once more, made at that moment.
"""

from __future__ import annotations

import collections
import logging
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

from referee.table.amend import as_amended, is_amend
from referee.table.log import EventLog, LogError
from referee.table.mqtt import Connection
from referee.table.protocol import (
    INPUTS,
    TOPICS,
    PayloadError,
    decode,
    encode,
    parse_topic,
    peek_id,
    topic,
)

log = logging.getLogger(__name__)

QOS = 1
IDLE_WAKE_S = 1.0  # the worker looks at the shot clock's deadline at least this often
BATCH_MAX = 100  # queued inputs applied before the state is published
# ``run`` sets Python's thread switch interval to this (the default is 5 ms): paho's network thread,
# which logs every input, waits for the GIL after each socket call and commit while the worker
# computes, up to the whole interval each time; a shorter one serves ~25% more inputs per second.
SWITCH_INTERVAL_S = 0.0005


def _default_factory(table: str, rulebook: str) -> Any:
    from referee.table.runtime import Table

    return Table.new(table, rulebook)


class TableService:
    """One table's service. ``start()`` then ``stop()``; see the module's docstring.

    ``factory(table, rulebook)`` makes the empty table (default ``runtime.Table.new``); ``clock``
    gives the service's time in seconds (default ``time.time``; tests inject their own);
    ``check_outputs`` checks every output against its schema before it is published (slower).
    """

    def __init__(
        self,
        table: str,
        rulebook: str,
        broker_url: str,
        db_path: str | Path,
        clock: Callable[[], float] = time.time,
        *,
        factory: Callable[[str, str], Any] | None = None,
        client_id: str | None = None,
        connect_timeout_s: float | None = None,
        reconnect_delay_s: tuple[float, float] | None = None,
        check_outputs: bool = False,
    ):
        self.table_id = table
        self._topics = {name: topic(table, name) for name in TOPICS}  # checks the table id
        self.check_outputs = check_outputs
        self.rulebook = rulebook
        self.broker_url = broker_url
        self.db_path = Path(db_path)
        self.clock = clock
        self.client_id = client_id or f"table-{table}"
        self._factory = factory or _default_factory
        self._connect_timeout_s = connect_timeout_s
        self._reconnect_delay_s = reconnect_delay_s
        self._queue: queue.Queue[tuple] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()  # the log side: what the network thread appended
        self._logged_seq = 0
        self._logged_at: float | None = None
        self._applied = threading.Condition()  # the table side, on the worker
        self._applied_seq = 0
        self._now: float | None = None  # the time of the latest applied entry
        self._refreshed: float | None = None  # the deadline last refreshed for
        self.log: EventLog | None = None
        self.conn: Connection | None = None
        self.table: Any = None
        self.published = 0  # messages published (outputs, states, displays)
        # Entries applied whose outputs may not have reached the broker: (seq, their publish infos).
        # The log's ``outputs_acked`` follows them, written with the next batch (no commit of its own),
        # so a restart publishes again the outputs of whatever was in flight: at least once.
        self._sent: collections.deque[tuple[int, list]] = collections.deque()
        self._acked_seq = 0

    # -- life cycle ------------------------------------------------------------------------------

    def start(self) -> TableService:
        """Open the log, replay it, connect, publish the state, start handling inputs."""
        self.log = EventLog.open(self.db_path)
        try:
            self._claim_log()
            self.table = self._factory(self.table_id, self.rulebook)
            replayed, unsent = 0, []
            acked = self._acked_seq = int(self.log.meta("outputs_acked") or 0)
            for kind, payload, at, seq in as_amended(self._rows()):
                outputs = self._apply(kind, payload, at, seq)
                if seq > acked:  # in flight when the service last stopped: published again
                    unsent.append((seq, outputs))
                self._logged_seq, replayed = seq, replayed + 1
                self._logged_at = at if self._logged_at is None else max(self._logged_at, at)
            self._applied_seq = self._logged_seq
            log.info("table %s: replayed %d entries (last seq %d)", self.table_id, replayed, self._logged_seq)

            status = topic(self.table_id, "status")
            kwargs: dict[str, Any] = {}
            if self._connect_timeout_s is not None:
                kwargs["connect_timeout_s"] = self._connect_timeout_s
            if self._reconnect_delay_s is not None:
                kwargs["reconnect_delay_s"] = self._reconnect_delay_s
            self.conn = Connection(
                self.broker_url,
                self.client_id,
                clean_start=False,
                will=(status, encode("status", {"v": 1, "status": "offline"}), True),
                birth=(status, encode("status", {"v": 1, "status": "online", "at": self.clock()}), True),
                manual_ack=True,
                **kwargs,
            )
            for name in INPUTS:  # before connect: the session's queued inputs find their handler
                self.conn.subscribe(topic(self.table_id, name), self._on_message, qos=QOS)
            self.conn.connect()
            for seq, outputs in unsent:
                self._publish_outputs(seq, outputs)
            self._publish_snapshots(self._now if self._now is not None else self.clock())
        except BaseException:
            if self.conn is not None:
                self.conn.close(flush_timeout=0)
            self.log.close()
            raise
        self._worker = threading.Thread(target=self._work, name=f"table-{self.table_id}", daemon=True)
        self._worker.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Handle what is queued, publish ``offline``, disconnect and close the log."""
        if self._worker is not None:
            self._queue.put(("stop",))
            self._worker.join(timeout)
            self._worker = None
        if self.conn is not None:
            payload = encode("status", {"v": 1, "status": "offline", "at": self.clock()})
            self.conn.publish(topic(self.table_id, "status"), payload, qos=QOS, retain=True)
            self.conn.flush(timeout)
            if self.log is not None and self._acked() is not None:
                self.log.set_meta({"outputs_acked": str(self._acked_seq)})
            self.conn.close(flush_timeout=0)
            self.conn = None
        if self.log is not None:
            self.log.close()
            self.log = None

    def _claim_log(self) -> None:
        """A log belongs to one table and the rulebook it was started with: replaying it as another
        would publish another table's state, or judge its inputs by other rules."""
        table, rulebook = self.log.meta("table"), self.log.meta("rulebook")
        if table is None:
            self.log.set_meta({"table": self.table_id, "rulebook": self.rulebook})
        elif (table, rulebook) != (self.table_id, self.rulebook):
            raise LogError(f"{self.db_path} is the log of table {table} ({rulebook}), "
                           f"not of table {self.table_id} ({self.rulebook})")

    def _acked(self) -> int | None:
        """The last entry whose outputs, and every earlier entry's, the broker has acknowledged,
        when that moved since it was last written down (else None)."""
        before = self._acked_seq
        while self._sent and all(info.is_published() for info in self._sent[0][1]):
            self._acked_seq = self._sent.popleft()[0]
        return self._acked_seq if self._acked_seq != before else None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def seq(self) -> int:
        """The last log entry applied to the table."""
        with self._applied:
            return self._applied_seq

    def wait_applied(self, seq: int, timeout: float) -> bool:
        """Wait until the entry ``seq`` is applied and published; False on timeout."""
        with self._applied:
            return self._applied.wait_for(lambda: self._applied_seq >= seq, timeout)

    # -- the network thread ----------------------------------------------------------------------

    def _on_message(self, full_topic: str, raw: bytes, mid: int, qos: int) -> None:
        self._queue.put(("raw", full_topic, raw, mid, qos))  # acknowledged by the worker, once logged

    # -- the worker ------------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            try:
                batch = [self._queue.get(timeout=self._wake_in())]
            except queue.Empty:
                self._refresh()
                self._note_acked()
                continue
            while len(batch) < BATCH_MAX:  # whatever else is queued already
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = next((i for i, item in enumerate(batch) if item[0] == "stop"), None)
            if stop is not None:  # what was queued after it is not acknowledged: the broker keeps it
                batch = batch[:stop]
            try:
                items = self._log_batch(batch)
            except Exception:  # not logged, so not acknowledged: the broker delivers them again
                log.exception("table %s: logging %d inputs failed", self.table_id, len(batch))
                items = []
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
            if applied is not None:
                try:
                    self._publish_snapshots(self._now)
                except Exception:
                    log.exception("table %s: publishing the state after entry %d failed", self.table_id, applied)
                else:
                    with self._applied:
                        self._applied_seq = applied
                        self._applied.notify_all()
            if stop is not None:
                return

    def _log_batch(self, batch: list[tuple]) -> list[tuple]:
        """Decode the raw messages, log the valid ones in one commit, then acknowledge them all.

        Returns the work in order: ``("input", name, payload, at, seq)`` for each newly logged
        input, ``("rejected", name, input_id, reason, seq)`` for each invalid one.
        """
        decoded: list[tuple] = []  # ("input", name, payload, at) or ("rejected", name, id, reason)
        rows = []
        logged_at = self._logged_at
        for _, full_topic, raw, _mid, _qos in batch:
            _, name = parse_topic(full_topic)
            try:
                payload = decode(name, raw)
            except PayloadError as exc:
                decoded.append(("rejected", name, peek_id(raw), str(exc)))
                continue
            at = payload.get("at")
            if at is None:  # stamped here, and never before what is logged already
                at = self.clock()
                if logged_at is not None:
                    at = max(at, logged_at)
            logged_at = at if logged_at is None else max(logged_at, at)
            decoded.append(("input", name, payload, at))
            rows.append((name, payload, at, f"{name} {payload['id']}"))
        acked = self._acked()
        meta = {"outputs_acked": str(acked)} if acked is not None else None
        try:
            seqs = iter(self.log.append_many(rows, meta))
        except ValueError:  # one of them cannot be logged: log the others one by one
            log.exception("table %s: a batch of %d inputs cannot be logged at once", self.table_id, len(rows))
            seqs = iter(self._append_each(rows))
        # On disk: acknowledge every message of the batch (a duplicate or an invalid one too).
        for _, _, _, mid, qos in batch:
            self.conn.ack(mid, qos)
        items = []
        with self._lock:
            for entry in decoded:
                if entry[0] == "rejected":
                    items.append((*entry, self._logged_seq))
                    continue
                _, name, payload, at = entry
                seq = next(seqs)
                if seq is None:
                    log.debug("table %s: %s %s again: already logged", self.table_id, name, payload["id"])
                    continue
                self._logged_seq = seq
                self._logged_at = at if self._logged_at is None else max(self._logged_at, at)
                items.append(("input", name, payload, at, seq))
        return items

    def _append_each(self, rows: list[tuple]) -> list[int | None]:
        seqs: list[int | None] = []
        for name, payload, at, input_id in rows:
            try:
                seqs.append(self.log.append(name, payload, at, input_id=input_id))
            except ValueError:  # acknowledged and dropped: it can never be logged
                log.exception("table %s: %s cannot be logged", self.table_id, input_id)
                seqs.append(None)
        return seqs

    def _apply(self, name: str, payload: dict, at: float, seq: int) -> list:
        try:
            self.table, outputs = self.table.apply(name, payload, at, seq)
        except Exception:
            log.exception("table %s: the runtime failed on entry %d (%s); the table is unchanged",
                          self.table_id, seq, name)
            outputs = []
        self._now = at if self._now is None else max(self._now, at)
        return outputs

    def _handle(self, name: str, payload: dict, at: float, seq: int) -> None:
        """Apply one input and publish its outputs (the worker publishes the state after the batch).
        An ``amend`` rebuilds the table from the log as amended, up to and with itself."""
        if not is_amend(name, payload):
            self._publish_outputs(seq, self._apply(name, payload, at, seq))
            return
        self.table, outputs = self._factory(self.table_id, self.rulebook), []
        for kind, p, entry_at, entry_seq in as_amended(r for r in self._rows() if r[3] <= seq):
            outputs = self._apply(kind, p, entry_at, entry_seq)
        self._publish_outputs(seq, outputs)

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

    def _reject(self, name: str, input_id: str | None, reason: str, seq: int) -> None:
        event = {
            "v": 1,
            "seq": max(seq, 1),  # events' seq starts at 1; before any entry there is none to name
            "kind": "rejected",
            "at": self.clock(),
            "data": {"topic": name, "id": input_id, "reason": reason},
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

    def _deadline(self) -> float | None:
        try:
            deadline = self.table.deadline_after(self.clock())
        except Exception:
            log.exception("table %s: deadline_after failed", self.table_id)
            return None
        return None if deadline is None or deadline == self._refreshed else deadline

    def _wake_in(self) -> float:
        deadline = self._deadline()
        if deadline is None:
            return IDLE_WAKE_S
        return min(IDLE_WAKE_S, max(0.0, deadline - self.clock()))

    def _note_acked(self) -> None:
        """While idle: write down how far the outputs reached the broker (a commit only if it moved)."""
        try:
            acked = self._acked()
            if acked is not None:
                self.log.set_meta({"outputs_acked": str(acked)})
        except Exception:
            log.exception("table %s: noting the acknowledged outputs failed", self.table_id)

    def _refresh(self) -> None:
        """A shot clock ran out: the displays and the state show it (once per deadline)."""
        deadline = self._deadline()
        now = self.clock()
        if deadline is None or now < deadline:
            return
        self._refreshed = deadline
        self._publish_snapshots(max(now, self._now if self._now is not None else now))


def run(table: str, rulebook: str, broker_url: str, db_path: str | Path) -> int:
    """``cardtable table run``: serve one table until SIGTERM or SIGINT."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    stop = threading.Event()

    def on_signal(signum: int, frame: object) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    sys.setswitchinterval(SWITCH_INTERVAL_S)  # this process is the service: see SWITCH_INTERVAL_S
    service = TableService(table, rulebook, broker_url, db_path)
    try:
        service.start()
    except (OSError, TimeoutError, ValueError, LogError) as exc:  # refused, unreachable, a bad log file
        log.error("table %s: cannot start: %s", table, exc)
        return 1
    log.info("table %s: serving (%s, log %s)", table, rulebook, db_path)
    try:
        while not stop.wait(1.0):
            pass
    finally:
        service.stop()
    log.info("table %s: stopped", table)
    return 0


__all__ = ["TableService", "run"]
