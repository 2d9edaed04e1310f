"""The table service: the thin shell around the table's pure reducer (``tractor.TractorTable``).

One service runs one table. Its state is the append-only event log (:class:`EventLog`): on start it
rebuilds the table by replaying every entry through ``Table.apply`` (the rulings that replay
produces were published before and are dropped), checks the log against its witnesses
(``witness.py``: the chain in its retained ``health`` on the broker and in the file beside the log;
a log that lost entries it published, or another log, is refused with a clear message unless the
referee accepts it: ``docs/recovery.md``), connects to the broker and publishes the retained
``status`` online, ``state``, ``board/out`` and ``health``.

Sessions: the service takes each sender's inputs on a persistent broker session of their own
(``protocol.INTAKE``: ``table-{table}`` the console's ``commands`` (and publishes every output),
``table-{table}-camera`` ``observed`` and ``removed``, ``table-{table}-board`` ``board/in``; one
password), so the broker keeps each sender's inputs while the service is away, and a sender that
floods fills only its own queue. Inputs are subscribed without the broker's retained message and
with their retain flag kept: a retained input is rejected (inputs are never retained).

An input is handled in two steps:

1. on the session's network thread, as the message arrives: stamped with its arrival (the service's
   clock), refused at once when its sender is over its pace (``guard.py``: acknowledged, counted,
   not logged), else queued and NOT acknowledged (manual acknowledgements).
2. on the service's one worker thread, which takes every message queued already (up to
   ``BATCH_MAX``): :func:`protocol.decode` each, its time as the guard believes it (a sender's
   clock is believed up to ``guard.AHEAD_S`` ahead of the arrival), then
   :meth:`EventLog.append_many` of the valid ones under ``"{topic} {id}"`` (so a redelivery is
   dropped), in ONE transaction and one commit; only then is every message of the batch
   acknowledged (logged, already logged or rejected), so the broker keeps every input until it is
   on disk: a ``kill -9`` at any moment loses nothing. An input that is invalid, retained or
   cannot be logged is answered with an ``events`` entry of kind ``rejected`` and acknowledged:
   never delivered again. A batch whose commit fails (the disk, a lock) is tried again, in order,
   until it is logged; after ``GIVE_UP_S`` of failures the service reports the problem and
   :func:`run` exits, its status going ``offline``, for its supervisor to start it again. Then, in
   log order: ``Table.apply``, every output it returns (``events``, ``violations``), and after the
   last input of the batch the new ``state`` and ``board/out`` (retained), QoS 1.

Outputs go at least once: the log's bookkeeping (``EventLog.meta``) keeps the last entry whose
outputs the broker acknowledged, written with the next batch's commit (or when idle, or at a clean
stop), and a restart publishes again the ``events`` and ``violations`` of the entries after it.
A log also records the table and the rulebook it belongs to; another table's service refuses it.

Liveness: every ``HEALTH_S`` the worker publishes ``health`` (retained): when it last handled an
input, what waits, what it refused (every input answered ``rejected``: malformed, or refused by the rules), dropped or
clamped, senders' clocks that are off, a problem in words (and as data, which
the console says in its reader's language), and the log's witness. The console takes a table whose health stopped
coming as stalled.

Time: the referee trusts its own ``clock`` (``guard.py``); an input without ``at`` (a console
command) is stamped with its arrival, never earlier than the latest time already logged. The
``state`` and ``board/out`` published after an entry are made at that entry's time, so a restarted
service publishes exactly the state it published before.

When one of the table's deadlines passes on the service's clock with no input (``Table.next_deadline``:
a shot clock runs out, a late band applies, the round's notice or end comes), the worker wakes. If
time rules something then (``Table.rules_by``: a Guandan turn given up, a foul, a late side's
penalty or forfeit), it logs a ``clock`` entry stamped with its clock (:data:`RULE_LAG_S` past the
deadline, so that an input made before it and still on its way is applied first) and handles it
like an input: its rulings are published at once, and a replay rules them at the same entry.
Otherwise the ``state`` and ``board/out`` are published once more, made at that moment (a clock at 0).
Time rules nothing while the service cannot hear its table (a session of its own is not connected:
the broker is away, a connection was cut, the service is starting; or is silent: its link cut without a word, a
switch or a Wi-Fi dropping packets, which looks connected for a keepalive and more), nor for :data:`HEAR_AGAIN_S`
after it hears it again: a seat that played in time while nothing reached the service is judged by
its play's time when the play arrives, never given up by a clock that ran on while the table was deaf;
a turn that time then gives up (its ``clock`` entry says ``held``) starts the next seat's clock at
that moment, when the table's displays can show it. A session is silent when the broker has not answered its probe
(``bus.mqtt``'s ``hears``: an MQTT ping, sent once it heard nothing for ``PROBE_S``) within ``bus.mqtt.ANSWER_S``: the
health says deaf :data:`HEAR_AGAIN_S` after the session last heard the broker (within 10 s of the cut, it said nothing
for 57 s), and the sessions' keepalive of :data:`KEEPALIVE_S` has paho end the connection and the broker publish the
will (``offline``) within 8 s. And time rules only once every session heard the broker since the deadline came due
(each is probed then, the worker looking again every :data:`ANSWER_POLL_S`): a link cut in the second before looks
connected still, and the inputs it no longer carries are not taken for none.
Time rules nothing either while the service cannot log its inputs (another program locks the log, a full or read-only
disk: a batch or a ``clock`` entry refused), nor for :data:`HEAR_AGAIN_S` after its log takes a write again (what
waited behind the inputs not acknowledged meanwhile comes then): a seat's play that reached the service meanwhile waits,
not acknowledged, until it is logged, and is judged by its time, never given up by a clock that ran on while it could
not be logged (the worker tried the ``clock`` entry between tries of the waiting batch, and whichever waited on the
lock when it went was logged first: a play made in time taken for a turn given up); a turn that time then gives up is
``held`` as above. While logging fails the worker tries the log again (the waiting batch every :data:`RETRY_S`, else a
write of its bookkeeping when it wakes), the health says so, and :func:`run` gives up after ``give_up_s`` of failures.

The devices' presence (``camera/status``, ``board/status``: ``protocol.HEEDED``): the main session takes each with
its retained message, at start and on every reconnection, at QoS 0 (the broker keeps no stale presence for it).
Each change (``online``, ``lost``, ``offline``, and an online board's ``boot``) is logged as a ``presence`` entry of
the service's own (no id: the service logs only a presence other than the one it logged last), stamped with its
arrival, in the batch's one commit, and applied in log order: while the camera sees no table or the board does not
answer, the table's shot clocks stand still (``Reducer._presence_entry``); a board's new boot says it restarted
(``Reducer._booted``: presses made meanwhile may be lost). One that breaks its schema is rejected. A presence is a
state: one over its sender's pace (``guard.py``: a camera flapping, a hostile sender) is kept until the worker takes
it, the next replacing it (those replaced are counted as dropped), so that the last one said is always logged. (Dropped
like any input, the last of a burst left the table on a presence its device had left: a camera online taken as lost
for good, its table's clocks standing still while its health said nothing.)
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
from dataclasses import replace
from pathlib import Path
from typing import Any, Self

from bus import lock
from bus.mqtt import RECONNECT_DELAY_S, Connection, Delivery, NoConnection, TakenOver, parse_url
from bus.protocol import (
    HEEDED,
    INTAKE,
    TOPICS,
    PayloadError,
    decode,
    encode,
    parse_topic,
    peek_id,
    topic,
)
from cardtable.logs import setup_logging
from cardtable.watchdog import KEEPALIVE_S  # the sessions' too: the broker publishes the will when silent 7.5 s
from referee.catalogue import Term, error_key
from referee.reasons import Reason
from referee.table import witness
from referee.table.amend import as_amended, is_amend, rejudged_of
from referee.table.answer import answered
from referee.table.guard import Guard
from referee.table.log import EventLog, LogError
from referee.table.reducer import CLOCK, DEVICES, PRESENCE, Output, plain
from referee.table.steady import STEP_S, SteadyClock
from referee.table.tables import new_table

log = logging.getLogger(__name__)

QOS = 1
IDLE_WAKE_S = 1.0  # the worker looks at the table's deadlines at least this often
# Time rules this long after a deadline: an input made before it may still be on its way. The camera sends a play
# once its cards have lain still for its settle time (0.8 s, ``vision watch --settle``), dated when they came to rest:
# a play made just in time reaches the service about a second after it was made. (At 0.25 s a Guandan seat that
# played in its last second had its turn given up, and its play taken for one out of turn.)
RULE_LAG_S = 1.5
# After its sessions were away, time rules nothing for this long: a sender reconnects by itself (waiting up to the
# longest retry of ``bus.mqtt``), then sends what it kept meanwhile.
HEAR_AGAIN_S = RECONNECT_DELAY_S[1] + 1.0
ANSWER_POLL_S = 0.05  # while time waits for the sessions' answers to rule a deadline, the worker looks this often
BATCH_MAX = 100  # queued inputs applied before the state is published
HEALTH_S = 2.0  # between two health messages
RETRY_S = 0.5  # before a batch whose commit failed is tried again
GIVE_UP_S = 30.0  # failing this long, the service gives up (run() exits; its supervisor restarts it)
STUCK_S = 60.0  # a worker that has not come round its loop this long is stuck: give up
WITNESS_WAIT_S = 10.0  # for the broker's retained witness at start
SAME_AT_S = 5.0  # an input sent again by a restarted sender may be dated this much apart (the bridge's ``at``)
# ``run`` sets Python's thread switch interval to this (the default is 5 ms): paho's network thread,
# which logs every input, waits for the GIL after each socket call and commit while the worker
# computes, up to the whole interval each time; a shorter one serves ~25% more inputs per second.
SWITCH_INTERVAL_S = 0.0005


def session_url(url: str, suffix: str) -> str:
    """The broker URL of the service's session for the inputs of ``INTAKE[suffix]``: the same
    password, the user with the suffix.

    >>> session_url("mqtt://table-t1:p%40ss@127.0.0.1:1883", "-board")
    'mqtt://table-t1-board:p%40ss@127.0.0.1:1883'
    >>> session_url("mqtts://table-t1:pw@console.hall", "-camera")
    'mqtts://table-t1-camera:pw@console.hall:8883'
    """
    a = parse_url(url)
    if not suffix or a.username is None:
        return url
    return replace(a, username=a.username + suffix).url


class TableService:
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

    def _session(self, suffix: str, will: tuple | None = None) -> Connection:
        """The session for the inputs of ``INTAKE[suffix]``, their handler subscribed (before connect:
        the session's queued inputs find it)."""
        conn = Connection(session_url(self.broker_url, suffix), self.client_id + suffix, clean_start=False,
                          will=will, manual_ack=True, yields=True, keepalive_s=KEEPALIVE_S, **self._conn_kwargs)
        handler = self._receiver(conn)
        for name in INTAKE[suffix]:
            conn.subscribe(topic(self.table_id, name), handler, qos=QOS, retained="never", retain_as_published=True)
        # The presence as it is now, on every (re)connection (its retained message), and each change while connected;
        # at QoS 0, so that the broker keeps no stale changes for the session while the service is away.
        for name in HEEDED if not suffix else ():
            conn.subscribe(topic(self.table_id, name), handler, qos=0, retained="always")
        self.intake.append(conn)
        return conn

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

    def _acked(self) -> int | None:
        """The last entry whose outputs, and every earlier entry's, the broker has acknowledged,
        when that moved since it was last written down (else None)."""
        before = self._acked_seq
        while self._sent and all(Connection.acknowledged(info) for info in self._sent[0][1]):
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

    # -- the network threads ---------------------------------------------------------------------

    def _receiver(self, conn: Connection) -> Callable[[str, bytes, Delivery], None]:
        names = {self._topics[name]: name for names in (*INTAKE.values(), HEEDED) for name in names}

        def on_message(full_topic: str, raw: bytes, delivery: Delivery) -> None:
            name, item = names.get(full_topic, ""), ("raw", conn, full_topic, raw, delivery, self.clock())
            if name in HEEDED:  # a state (QoS 0, no ack): over its pace, its latest is kept, each replacing the last
                with self._latest_lock:
                    kept = full_topic in self._latest
                    if kept or not self.guard.admit(name, time.monotonic(), count=False):
                        self._latest[full_topic] = item
                        if kept:
                            self.guard.drop(name)  # the one it replaced
                        else:
                            self._queue.put(("latest", full_topic))
                        return
                self._queue.put(item)
                return
            if not self.guard.admit(name, time.monotonic()):
                conn.ack(delivery)  # over its sender's pace: dropped, counted (health), never logged
                return
            self._queue.put(item)  # acked once logged

        return on_message

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

    def _take_latest(self, full_topic: str) -> tuple:
        """The latest message of a presence topic, as queued (``_receiver``: the ones before it were replaced)."""
        with self._latest_lock:
            return self._latest.pop(full_topic)

    def _failing(self, what: str, exc: Exception) -> None:
        """Logging ``what`` failed (its health says so until :meth:`_logging_works`; :meth:`fatal` gives up after
        ``give_up_s``)."""
        if self._failing_since is None:
            self._failing_since = time.monotonic()
            log.exception("table %s: logging %s failed; trying again", self.table_id, what)
        error, code = f"{type(exc).__name__}: {exc}"[:270], error_key(exc)
        self.problem = f"logging inputs fails: {error}; no clock rules"
        self.problem_why = {"key": "logging_fails", "values": {"error": error} | ({"code": code} if code else {})}

    def _logging_works(self) -> None:
        if self._failing_since is not None:
            log.warning("table %s: logging works again", self.table_id)
            self._failing_since = self.problem = self.problem_why = None
            self._logs_again = self.clock()

    def _try_log(self) -> None:
        """While logging fails and no input waits to be logged: whether the log takes a write again (the bookkeeping of
        the outputs acknowledged, as far as it is known)."""
        try:
            self.log.set_meta({"outputs_acked": str(self._acked_seq)})
        except Exception as exc:
            self._failing("the bookkeeping", exc)
            return
        self._logging_works()

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

    def _log_batch(self, batch: list[tuple]) -> list[tuple]:
        """Decode the raw messages, log the valid ones in one commit, then acknowledge them all.

        Returns the work in order: ``("input", name, payload, at, seq)`` for each newly logged
        input, ``("rejected", name, input_id, reason, seq)`` for each one refused.
        """
        decoded: list[tuple] = []  # ("input", name, payload, at) or ("rejected", name, id, reason)
        rows = []
        logged_at, presence, boot = self._logged_at, dict(self._presence), self._boot
        for _, _conn, full_topic, raw, delivery, arrived in batch:
            _, name = parse_topic(full_topic)
            try:
                if name in HEEDED:
                    entry = presence_entry(name, raw, presence, boot)
                    if entry is None:  # the presence logged already (a retained one, sent again)
                        continue
                    presence[entry["device"]], boot = entry["status"], entry.get("boot", boot)
                    if entry["status"] == "online":  # what it kept while away may follow (or come just before,
                        self._back[entry["device"]] = arrived  # on its own session): not live
                        self.guard.forget(INTAKE[f"-{entry['device']}"], arrived - HEAR_AGAIN_S)
                    at = logged_at = arrived if logged_at is None else max(arrived, logged_at)
                    decoded.append(("input", PRESENCE, entry, at))
                    rows.append((PRESENCE, entry, at, None))
                    continue
                if delivery.retain:
                    raise PayloadError(name, "a retained message: inputs are never retained", why=Reason("payload.retained"))
                payload = decode(name, raw)
            except PayloadError as exc:
                decoded.append(("rejected", name, peek_id(raw), exc))
                continue
            except Exception as exc:  # a payload no check foresaw: refused all the same, never redelivered
                log.exception("table %s: decoding a %s input failed", self.table_id, name)
                decoded.append(("rejected", name, peek_id(raw), PayloadError(
                    name, f"cannot be read ({type(exc).__name__})", why=Reason("payload.unreadable"))))
                continue
            if "at" in payload:
                at = self.guard.time(name, payload["at"], arrived, live=self._live(name, arrived))
            else:  # stamped with its arrival, and never before what is logged already
                at = arrived if logged_at is None else max(arrived, logged_at)
            logged_at = at if logged_at is None else max(logged_at, at)
            decoded.append(("input", name, payload, at))
            rows.append((name, payload, at, f"{name} {payload['id']}"))
        acked = self._acked()
        meta = {"outputs_acked": str(acked)} if acked is not None else None
        try:
            seqs = iter(self.log.append_many(rows, meta))
        except ValueError:  # one of them cannot be logged: log the others one by one
            log.warning("table %s: a batch of %d inputs cannot be logged at once", self.table_id, len(rows))
            seqs = iter(self._append_each(rows))
        self._presence, self._boot = presence, boot
        # On disk: acknowledge every message of the batch (a duplicate or a rejected one too).
        for _, conn, _, _, delivery, _ in batch:
            conn.ack(delivery)
        items = []
        with self._lock:
            for entry in decoded:
                if entry[0] == "rejected":
                    items.append((*entry, self._logged_seq))
                    continue
                _, name, payload, at = entry
                seq = next(seqs)
                if isinstance(seq, str):  # it cannot be logged: rejected, with the log's reason
                    items.append(("rejected", name, payload.get("id"), PayloadError(name, seq, why=Reason("payload.unloggable")),
                                  self._logged_seq))
                    continue
                if seq is None:
                    if (why := self._id_reused(name, payload)) is not None:
                        items.append(("rejected", name, payload["id"], why, self._logged_seq))
                        continue
                    log.debug("table %s: %s %s again: already logged", self.table_id, name, payload["id"])
                    continue
                self._logged_seq = seq
                self._logged_at = at if self._logged_at is None else max(self._logged_at, at)
                items.append(("input", name, payload, at, seq))
        return items

    def _id_reused(self, name: str, payload: dict) -> Reason | None:
        """Why an input whose id is logged already is not the input logged under it, or None when it is (a copy: the
        broker's redelivery is the same bytes; a restarted bridge's copy of a press is dated anew, a little apart).
        A sender that numbers its inputs again (a board's press numbers ran out, firmware 1.0) would otherwise have
        every later input taken for a copy and dropped, unsaid."""
        logged = self.log.input(f"{name} {payload['id']}")
        if logged is None:
            return None
        then, now = dict(logged.payload), dict(payload)
        at_then, at_now = then.pop("at", None), now.pop("at", None)
        if then == now and (at_then is None) == (at_now is None) and (at_then is None or abs(at_then - at_now) <= SAME_AT_S):
            return None
        log.warning("table %s: %s %s is logged already as entry %d, with other content: refused", self.table_id,
                    name, payload["id"], logged.seq)
        return Reason("table.id_reused", input_id=payload["id"], entry=logged.seq)

    def _append_each(self, rows: list[tuple]) -> list[int | str | None]:
        """Each row logged on its own: its seq, None when logged already, or why it cannot be."""
        seqs: list[int | str | None] = []
        for name, payload, at, input_id in rows:
            try:
                seqs.append(self.log.append(name, payload, at, input_id=input_id))
            except ValueError as exc:  # acknowledged and rejected: it can never be logged
                log.warning("table %s: %s cannot be logged: %s", self.table_id, input_id, exc)
                seqs.append(f"cannot be logged: {exc}")
        return seqs

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

    def health(self) -> dict:
        """The ``health`` payload now (see the module's docstring and ``schemas/health.json``): a problem in the words
        of the logs (``problem``) and, with it, as data (``problem_why``: a key of the catalogue's ``health`` section and
        its values, which the console says in its reader's language)."""
        head = self.log.head or self.log.chain()[:2]
        problem, why = (self.problem, self.problem_why) if self.problem else self._deaf()
        return {
            "v": 1, "at": self.clock(), "every": self.health_s, "seq": head[0], "chain": head[1].hex(),
            "input_at": self._input_at, "waiting": self._queue.qsize(), "rejected": self.rejected,
            "dropped": dict(self.guard.dropped), "clamped": dict(self.guard.clamped),
            "clocks_off": self.guard.clocks_off(), "problem": problem,
        } | ({"problem_why": why} if why else {})

    def _deaf(self) -> tuple[str | None, dict | None]:
        """A session of the service's senders not hearing the broker for a while (not connected, or silent: its link
        cut without a word; its inputs wait at the broker, and time rules nothing meanwhile): said (in words and as data), so that the table does not look healthy while it hears
        nothing; (None, None) while it hears."""
        self._hearing()
        since = self._deaf_since
        if since is None or time.monotonic() - since < HEAR_AGAIN_S:
            return None, None
        seconds, down = round(time.monotonic() - since), [conn.client_id for conn in self.intake if not conn.hears()]
        text = f"not connected to the broker for {seconds} s: {', '.join(down) or 'a session'}; its inputs wait there, and no clock rules"
        return text, {"key": "deaf", "values": {"seconds": seconds, "sessions": down}}

    def _clock_moved(self) -> None:
        """The computer's clock stepped while the service ran (:class:`SteadyClock`): said in the service's log, once
        a step, not ruled on. Not a problem of its health (the table referees on its own time: it is not stalled);
        a camera or board on this computer then stamps its inputs by the stepped clock, which the health's
        ``clocks_off`` shows."""
        moved = self.clock.moved() if isinstance(self.clock, SteadyClock) else 0.0
        if abs(moved - self._moved_told) >= STEP_S:
            self._moved_told = moved
            log.warning("table %s: the computer's clock moved %+.0f s while the service ran; the table keeps its own "
                        "time (started again at a break, it takes the computer's)", self.table_id, moved)

    def _publish_health(self) -> None:
        """Publish ``health`` and note the witness beside the log (when it moved)."""
        self._health_due = time.monotonic() + self.health_s
        self._clock_moved()
        try:
            payload = self.health()
            self._publish("health", encode("health", payload, validate=self.check_outputs), retain=True)
            if payload["seq"] != self._witnessed:
                w = witness.Witness(self.table_id, payload["seq"], payload["chain"])
                witness.write_file(witness.sidecar(self.db_path), w)
                self._witnessed = payload["seq"]
        except Exception:
            log.exception("table %s: publishing the health failed", self.table_id)
        dropped = sum(self.guard.dropped.values())
        if dropped > self._dropped_told:
            self._dropped_told = dropped
            log.warning("table %s: inputs over their sender's pace, dropped so far: %s", self.table_id,
                        ", ".join(f"{k} {v}" for k, v in sorted(self.guard.dropped.items())))

    def _publish(self, name: str, data: bytes, retain: bool) -> Any:
        info = self.conn.publish(self._topics[name], data, qos=QOS, retain=retain)
        self.published += 1
        return info

    def _deadline(self) -> float | None:
        """The table's next deadline not handled yet."""
        try:
            return self.table.next_deadline(after=self._handled)
        except Exception:
            log.exception("table %s: next_deadline failed", self.table_id)
            return None

    def _hearing(self) -> float | None:
        """Since when (the service's clock) every session of the service has heard the broker without a break
        (connected, not silent); None while one does not (what the seats do then may not reach the table)."""
        sessions = tuple((conn.hears(), conn.connects) for conn in self.intake)
        if sessions != self._sessions:
            self._sessions = sessions
            self._heard = self.clock() if all(hears for hears, _ in sessions) else None
            if self._heard is not None:
                self._deaf_since = None
            elif self._deaf_since is None:  # since the deaf sessions last heard the broker
                now = time.monotonic()
                self._deaf_since = min(min(conn.heard() or now, now) for conn in self.intake if not conn.hears())
        return self._heard

    def _answered(self, deadline: float) -> bool:
        """Whether every session heard the broker since the worker found ``deadline`` due (each is probed then): a
        link cut silently looks connected a while, and time must not rule on the inputs it no longer carries."""
        if self._asked is None or self._asked[0] != deadline:
            self._asked = (deadline, time.monotonic())
        late = [conn for conn in self.intake if (conn.heard() or -math.inf) < self._asked[1]]
        for conn in late:
            conn.probe()
        return not late

    def _live(self, name: str, arrived: float) -> bool:
        """Whether an input ``name`` that ``arrived`` came as it was sent: the service had heard its table, and
        its device had been back online (its last logged presence going ``online``), long enough (:data:`HEAR_AGAIN_S`)
        for nothing kept from before to come (inputs waiting in the broker, a bridge's presses kept while its link was
        down). A device back with no presence change logged is not seen; this only feeds ``clocks_off``."""
        device = "board" if name == "board/in" else "camera"
        since = max(self._heard if self._heard is not None else math.inf, self._back.get(device, -math.inf))
        return arrived >= since + HEAR_AGAIN_S

    def _rules_at(self, deadline: float) -> float | None:
        """When (the service's clock) time may rule ``deadline``: :data:`RULE_LAG_S` after it, and not
        before :data:`HEAR_AGAIN_S` after the service last began to hear its table, or its log to take writes again;
        None while it cannot hear it, or log its inputs."""
        heard = self._hearing()
        if heard is None or self._failing_since is not None:
            return None
        return max(deadline + RULE_LAG_S, max(heard, self._logs_again) + HEAR_AGAIN_S)

    def _wake_in(self) -> float:
        wake = min(IDLE_WAKE_S, max(0.0, self._health_due - time.monotonic()))
        deadline = self._deadline()
        due = None if deadline is None else self._rules_at(deadline)
        if due is None:
            return wake
        asked = ANSWER_POLL_S if self._asked is not None and self._asked[0] == deadline else 0.0  # answers awaited
        return min(wake, max(asked, due - self.clock()))

    def _note_acked(self) -> None:
        """While idle: write down how far the outputs reached the broker (a commit only if it moved)."""
        try:
            acked = self._acked()
            if acked is not None:
                self.log.set_meta({"outputs_acked": str(acked)})
        except Exception:
            log.exception("table %s: noting the acknowledged outputs failed", self.table_id)

    def _on_time(self) -> None:
        """A deadline passed with no input: log and apply a ``clock`` entry when time rules something,
        else publish the state and the displays as they are now (once per deadline)."""
        deadline = self._deadline()
        now = self.clock()
        due = None if deadline is None else self._rules_at(deadline)
        if due is None or now < due or not self._answered(deadline):
            return
        before, self._handled = self._handled, deadline
        try:
            at = max(now, self._logged_at if self._logged_at is not None else now)
            if self.table.rules_by(at):
                if not self._time_rules(at, held=due > deadline + RULE_LAG_S):
                    self._handled = before  # the log refused it: ruled once the log works again (held)
            else:
                self._publish_snapshots(max(now, self._now if self._now is not None else now))
        except Exception:  # the worker must outlive any one deadline
            log.exception("table %s: ruling the deadline %s failed", self.table_id, deadline)

    def _time_rules(self, at: float, held: bool = False) -> bool:
        """Log a ``clock`` entry at ``at`` (the input of no one: time passed) and handle it as an input; False when
        it cannot be logged (said: :meth:`_failing`). ``held``: its ruling waited (for the service to hear its table
        again, or for its log to work): nobody saw the turn pass before."""
        payload = {"v": 1} | ({"held": True} if held else {})
        try:
            (seq,) = self.log.append_many([(CLOCK, payload, at, None)])
        except Exception as exc:
            self._failing("a clock entry", exc)
            return False
        self._logging_works()
        with self._lock:
            self._logged_seq, self._logged_at = seq, at
        self._handle(CLOCK, payload, at, seq)
        self._publish_snapshots(self._now)
        with self._applied:
            self._applied_seq = seq
            self._applied.notify_all()
        return True


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


def presence_entry(name: str, raw: bytes, logged: dict[str, str | None], boot: int | None = None) -> dict | None:
    """The ``presence`` entry to log for a device's ``{device}/status`` message, None when its presence is the one
    ``logged`` last, and an online board's boot the ``boot`` logged last; :class:`PayloadError` for a message that
    breaks the contract. The device's own times are not used: the entry is stamped with its arrival (a camera says
    ``lost`` only after its own wait).

    >>> presence_entry("camera/status", b'{"v": 1, "status": "lost", "reason": "markers", "since": 5.0}', {})
    {'v': 1, 'device': 'camera', 'status': 'lost', 'reason': 'markers'}
    >>> presence_entry("board/status", b'{"v": 1, "status": "online", "boot": 3}', {"board": "online"}, 3) is None
    True
    >>> presence_entry("board/status", b'{"v": 1, "status": "online", "boot": 4}', {"board": "online"}, 3)
    {'v': 1, 'device': 'board', 'status': 'online', 'boot': 4}
    """
    payload, device = decode(name, raw), name.split("/")[0]
    said = {"boot": payload["boot"]} if payload["status"] == "online" and "boot" in payload else {}
    if payload["status"] == logged.get(device) and said.get("boot", boot) == boot:
        return None
    reason = {"reason": payload["reason"]} if "reason" in payload else {}
    return {"v": 1, "device": device, "status": payload["status"]} | reason | said


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
    service.stop()
    log.info("table %s: stopped", table)
    return 0


__all__ = ["TableService", "hold_log", "presence_entry", "run", "session_url"]
