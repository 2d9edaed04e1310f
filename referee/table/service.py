"""The table service: one table's referee on the bus, the thin shell around its pure reducer (``tables.new_table``:
``Table.apply``, ``Table.next_deadline``, ``Table.rules_by``).

One service runs one table; its state is the table's append-only event log (:class:`~referee.table.log.EventLog`). On
start it holds the log, replays it (:mod:`referee.table.recovery`), connects its sessions to the broker, checks the
log against its witnesses, publishes the retained ``status`` online, again the outputs that were in flight when it last
stopped, then the retained ``state``, ``board/out`` and ``health``, and starts its one worker thread.
:class:`TableService` is made of its parts, a module each:

- :mod:`referee.table.intake`: the sessions that take each sender's inputs, and each batch of them logged in one
  commit before it is acknowledged;
- :mod:`referee.table.outputs`: what was logged applied to the table in log order, its outputs, ``state`` and
  ``board/out`` published (at least once);
- :mod:`referee.table.deadlines`: a deadline that passes with no input, ruled by time (a ``clock`` entry) or shown;
- :mod:`referee.table.health`: whether the service hears its table, and the ``health`` it publishes.

The worker (:meth:`TableService._work`) takes every input queued already (up to :data:`BATCH_MAX`), logs them and
handles them, in log order; between inputs (:meth:`TableService._idle`) it rules what time rules, writes down how far
the outputs reached the broker and publishes the health. While logging fails it tries the log again (the waiting batch
every :data:`RETRY_S`, else a write of its bookkeeping when it wakes), and the health says so. :func:`run`
(``cardtable table run``) serves until SIGTERM or SIGINT, or exits 1 when the service cannot go on
(:meth:`TableService.fatal`: another service took the table over, the worker stopped or is stuck for :data:`STUCK_S`,
logging failed for ``give_up_s``, by default :data:`GIVE_UP_S`), its status going ``offline``, for its supervisor to
start it again.
"""

from __future__ import annotations

import collections
import logging
import math
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

from bus import lock
from bus.mqtt import Connection, NoConnection, TakenOver
from bus.protocol import INTAKE, TOPICS, encode, topic
from cardtable.logs import setup_logging
from cardtable.watchdog import beat
from referee.table.deadlines import DeadlinesMixin
from referee.table.guard import Guard
from referee.table.health import HEALTH_S, HealthMixin
from referee.table.intake import QOS, IntakeMixin
from referee.table.log import EventLog
from referee.table.outputs import OutputsMixin
from referee.table.recovery import WITNESS_WAIT_S, RecoveryMixin, hold_log
from referee.table.steady import SteadyClock
from referee.table.tables import new_table

log = logging.getLogger(__name__)

BATCH_MAX = 100  # queued inputs applied before the state is published
RETRY_S = 0.5  # before a batch whose commit failed is tried again
GIVE_UP_S = 30.0  # failing this long, the service gives up (run() exits; its supervisor restarts it)
STUCK_S = 60.0  # a worker that has not come round its loop this long is stuck: give up
# ``run`` sets Python's thread switch interval to this (the default is 5 ms): paho's network thread,
# which logs every input, waits for the GIL after each socket call and commit while the worker
# computes, up to the whole interval each time; a shorter one serves ~25% more inputs per second.
SWITCH_INTERVAL_S = 0.0005


class TableService(IntakeMixin, OutputsMixin, DeadlinesMixin, HealthMixin, RecoveryMixin):
    """One table's service. ``start()`` then ``stop()``; see the module's docstring.

    ``factory(table, rulebook)`` makes the empty table (default ``tables.new_table``); ``clock``
    gives the service's time in seconds (default a :class:`~referee.table.steady.SteadyClock`: the wall clock at
    its start, then the monotonic one; tests inject their own);
    ``trust_senders`` believes every input's ``at`` and limits no sender's pace (a simulation on
    virtual time); ``accept_log`` starts on a log its witnesses disagree with (the referee's
    decision, ``docs/recovery.md``); ``check_outputs`` checks every output against its schema
    before it is published (slower).
    """

    def __init__(
        self,
        table: str,
        rulebook: str,
        broker_url: str,
        db_path: str | Path,
        clock: Callable[[], float] | None = None,
        *,
        factory: Callable[[str, str], Any] | None = None,
        client_id: str | None = None,
        connect_timeout_s: float | None = None,
        reconnect_delay_s: tuple[float, float] | None = None,
        check_outputs: bool = False,
        trust_senders: bool = False,
        accept_log: bool = False,
        health_s: float = HEALTH_S,
        give_up_s: float = GIVE_UP_S,
    ):
        self.table_id = table
        self._topics = {name: topic(table, name) for name in TOPICS}  # checks the table id
        self.check_outputs = check_outputs
        self.rulebook = rulebook
        self.broker_url = broker_url
        self.db_path = Path(db_path)
        self.clock = clock if clock is not None else SteadyClock()  # a step of the computer's clock is no time passing
        self.client_id = client_id or f"table-{table}"
        self.guard = Guard(None, None) if trust_senders else Guard()
        self.accept_log = accept_log
        self.health_s, self.give_up_s = health_s, give_up_s
        self._factory = factory or new_table
        self._conn_kwargs: dict[str, Any] = {}
        if connect_timeout_s is not None:
            self._conn_kwargs["connect_timeout_s"] = connect_timeout_s
        if reconnect_delay_s is not None:
            self._conn_kwargs["reconnect_delay_s"] = reconnect_delay_s
        self._queue: queue.Queue[tuple] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()  # the log side: what the worker appended
        self._logged_seq = 0
        self._logged_at: float | None = None
        self._applied = threading.Condition()  # the table side, on the worker
        self._applied_seq = 0
        self._now: float | None = None  # the time of the latest applied entry
        self._handled: float | None = None  # the table's last deadline the worker handled (ruled or shown)
        self._sessions: tuple | None = None  # each session's (connected, connects) when last looked at
        self._heard: float | None = None  # since when (service clock) every session is connected, unbroken
        self.log: EventLog | None = None
        self.conn: Connection | None = None  # the main session: commands in, every output out
        self.intake: list[Connection] = []  # the senders' sessions (the main one first)
        self.table: Any = None
        self.published = 0  # messages published (outputs, states, displays)
        self.rejected = 0  # inputs answered ``rejected`` since start: malformed, unloggable, or refused by the rules
        # Entries applied whose outputs may not have reached the broker: (seq, their publish infos).
        # The log's ``outputs_acked`` follows them, written with the next batch (no commit of its own),
        # so a restart publishes again the outputs of whatever was in flight: at least once.
        self._sent: collections.deque[tuple[int, list]] = collections.deque()
        self._acked_seq = 0
        self._input_at: float | None = None  # when (service clock) an input was last handled
        self._health_due = 0.0  # monotonic
        self._witnessed: int | None = None  # the seq last written beside the log
        self._dropped_told = 0  # inputs over their pace, as last logged
        self._beat = time.monotonic()  # the worker came round its loop
        self._failing_since: float | None = None  # monotonic, while commits fail
        self._logs_again = -math.inf  # since when (service clock) the log takes writes again after failing
        self._held: lock.Holding | None = None  # the log's lock file, held while serving (:func:`hold_log`)
        self._deaf_since: float | None = None  # monotonic: since when a session of the service has not heard the broker
        self._asked: tuple[float, float] | None = None  # (a deadline due, when (monotonic) the sessions were probed for it)
        self._moved_told = 0.0  # the computer's clock's step last said (:meth:`_clock_moved`)
        self._abandoned = False
        self.problem: str | None = None  # logging fails: in the words of the logs (English), and as data (``problem_why``)
        self.problem_why: dict | None = None
        self._presence: dict[str, str | None] = {}  # each device's presence as last logged (``presence`` entries)
        self._boot: int | None = None  # the board's boot as last logged
        self._back: dict[str, float] = {}  # device -> when (service clock) it last said it is online again
        self._latest: dict[str, tuple] = {}  # a presence topic -> its latest message, not taken by the worker yet
        self._latest_lock = threading.Lock()

    # -- life cycle ------------------------------------------------------------------------------

    def start(self) -> TableService:
        """Hold the log (one service a log), open it, replay it, connect, check the log's witnesses, publish, start
        handling inputs."""
        self._held = hold_log(self.db_path, self.table_id)
        try:
            self.log = EventLog.open(self.db_path)
        except BaseException:
            self._release()
            raise
        try:
            unsent = self._replay()
            status = topic(self.table_id, "status")
            self.conn = self._session("", will=(status, encode("status", {"v": 1, "status": "offline"}), True))
            seen = self._witness_topics(self.conn)
            self.conn.connect()
            self._check_witnesses(seen)
            for suffix in INTAKE:
                if suffix:
                    self._session(suffix).connect()
            for conn in self.intake:  # a session new to the broker gets nothing published before its SUBACK
                if not conn.wait_subscribed(WITNESS_WAIT_S):
                    raise NoConnection("no_answer", client=conn.client_id, seconds=f"{WITNESS_WAIT_S:g}")
            # online once every input can reach it
            self.conn.birth = (status, encode("status", {"v": 1, "status": "online", "at": self.clock()}), True)
            self.conn.publish(status, self.conn.birth[1], qos=QOS, retain=True)
            for seq, outputs in unsent:
                self._publish_outputs(seq, outputs)
            self._publish_snapshots(self._now if self._now is not None else self.clock())
            self._publish_health()
            self._hearing()
        except BaseException:
            for conn in self.intake:
                conn.close(flush_timeout=0)
            self.log.close()
            self.conn, self.intake, self.log = None, [], None
            self._release()
            raise
        self._worker = threading.Thread(target=self._work, name=f"table-{self.table_id}", daemon=True)
        self._worker.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Handle what is queued, publish ``offline``, disconnect and close the log; let the log go (unless the worker
        is still stuck in it: the process's end lets it go)."""
        stuck = False
        if self._worker is not None:
            self._queue.put(("stop",))
            self._worker.join(timeout)
            stuck = self._worker.is_alive()
            self._worker = None
        try:
            if self.conn is not None:
                for conn in self.intake[1:]:
                    conn.close(flush_timeout=0)
                self._publish_health()
                payload = encode("status", {"v": 1, "status": "offline", "at": self.clock()})
                self.conn.publish(topic(self.table_id, "status"), payload, qos=QOS, retain=True)
                self.conn.flush(timeout)
                if self.log is not None and self._acked() is not None:
                    self.log.set_meta({"outputs_acked": str(self._acked_seq)})
                self.conn.close(flush_timeout=0)
                self.conn, self.intake = None, []
        finally:
            if self.log is not None:
                self.log.close()
                self.log = None
            if not stuck:
                self._release()

    def abandon(self, timeout: float = 10.0) -> None:
        """Give up without touching the log: the worker stops at its next turn (waited for up to
        ``timeout``: it may be stuck in the log), and the connections close with their will, so the
        status says ``offline`` (not when another service took the table over: it is online); inputs not acknowledged
        are delivered again. The log is let go once the worker has stopped (a worker still stuck in it keeps it: the
        process's end lets it go)."""
        self._abandoned = True
        taken = self.taken is not None
        for conn in self.intake:
            conn.close(send_will=not taken, flush_timeout=1.0)
        if self._worker is not None:
            self._worker.join(timeout)
        if self._worker is None or not self._worker.is_alive():
            self._release()

    def _release(self) -> None:
        if self._held is not None:
            self._held.release()  # its file removed, then the lock let go
            self._held = None

    @property
    def taken(self) -> TakenOver | None:
        """Why another service of the table (another machine, another log) took a session of this one over, or None.
        Taking it back would have the two push each other off for ever, each logging a part of the table's inputs
        while both look online and healthy: this one yields (``bus.mqtt``'s ``yields``) and :func:`run` ends."""
        return next((conn.taken for conn in self.intake if conn.taken is not None), None)

    def fatal(self) -> str | None:
        """Why the service cannot go on (run() then exits), or None."""
        if self.taken is not None:
            return self.taken.text("en")
        if self._worker is not None and not self._worker.is_alive():
            return "the worker thread ended"
        if time.monotonic() - self._beat > STUCK_S:
            return f"the worker has been stuck for {time.monotonic() - self._beat:.0f} s"
        since = self._failing_since
        if since is not None and time.monotonic() - since > self.give_up_s:
            return f"{self.problem} (for {time.monotonic() - since:.0f} s)"
        return None

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

    # -- the worker ------------------------------------------------------------------------------

    def _work(self) -> None:
        carry: list[tuple] = []  # a batch whose commit failed: tried again first, in order
        while not self._abandoned:
            self._beat = time.monotonic()
            self._hearing()
            batch, carry = carry, []
            if not batch:
                try:
                    batch = [self._queue.get(timeout=self._wake_in())]
                except queue.Empty:
                    self._idle()
                    continue
            while len(batch) < BATCH_MAX:  # whatever else is queued already
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = next((i for i, item in enumerate(batch) if item[0] == "stop"), None)
            if stop is not None:  # what was queued after it is not acknowledged: the broker keeps it
                batch = batch[:stop]
            batch = [self._take_latest(item[1]) if item[0] == "latest" else item for item in batch]
            try:
                items = self._log_batch(batch)
            except Exception as exc:  # not logged, so not acknowledged: tried again, in order
                self._failing(f"{len(batch)} inputs", exc)
                if stop is not None:
                    return
                carry = batch
                self._idle(wait=RETRY_S)
                continue
            self._logging_works()
            self._handle_batch(items)
            if stop is not None:
                return
            if time.monotonic() >= self._health_due:
                self._publish_health()

    def _idle(self, wait: float = 0.0) -> None:
        """Between inputs (``wait``: after a batch the log refused, before it is tried again): the log tried again when
        nothing waits for it, what time rules, the outputs' acknowledgements, the health."""
        if self._failing_since is not None and not wait:
            self._try_log()
        self._on_time()
        self._note_acked()
        if time.monotonic() >= self._health_due:
            self._publish_health()
        if wait:
            time.sleep(wait)


def run(table: str, rulebook: str, broker_url: str, db_path: str | Path, *, trust_senders: bool = False,
        accept_log: bool = False) -> int:
    """``cardtable table run``: serve one table until SIGTERM or SIGINT; exit 1 when it cannot go on
    (``TableService.fatal``: its supervisor starts it again). One that cannot start raises why, for the command line
    to say: :class:`LogError` (its log will not do: a person decides), else the broker's refusal or silence; one
    another service of the table took over raises :class:`TakenOver` once it stopped."""
    setup_logging()
    stop = threading.Event()

    def on_signal(signum: int, frame: object) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    sys.setswitchinterval(SWITCH_INTERVAL_S)  # this process is the service: see SWITCH_INTERVAL_S
    service = TableService(table, rulebook, broker_url, db_path, trust_senders=trust_senders, accept_log=accept_log)
    service.start()
    log.info("table %s: serving (%s, log %s)", table, rulebook, db_path)
    while not stop.wait(1.0):
        problem = service.fatal()
        if problem:
            log.error("table %s: giving up, to be started again: %s", table, problem)
            service.abandon()
            if service.taken is not None:
                raise service.taken
            return 1
        beat()  # its supervisor kills a service that stops saying so (a hang holding the GIL: cardtable.watchdog)
    service.stop()
    log.info("table %s: stopped", table)
    return 0


__all__ = ["TableService", "run"]
