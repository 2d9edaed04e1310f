"""The service's inputs, from the bus to its log: the sessions that take them, and each batch logged in one commit
before it is acknowledged.

Sessions: the service takes each sender's inputs on a persistent broker session of their own
(``protocol.INTAKE``: ``table-{table}`` the console's ``commands`` (and publishes every output),
``table-{table}-camera`` ``observed`` and ``removed``, ``table-{table}-board`` ``board/in``; one
password: :func:`session_url`), so the broker keeps each sender's inputs while the service is away, and a sender that
floods fills only its own queue. Inputs are subscribed without the broker's retained message and
with their retain flag kept: a retained input is rejected (inputs are never retained).

An input is taken in two steps:

1. on the session's network thread, as the message arrives: stamped with its arrival (the service's
   clock), refused at once when its sender is over its pace (``guard.py``: acknowledged, counted,
   not logged), else queued and NOT acknowledged (manual acknowledgements).
2. on the service's one worker thread, which takes every message queued already: :func:`protocol.decode` each, its
   time as the guard believes it (a sender's clock is believed up to ``guard.AHEAD_S`` ahead of the arrival), then
   :meth:`EventLog.append_many` of the valid ones under ``"{topic} {id}"`` (so a redelivery is
   dropped), in ONE transaction and one commit; only then is every message of the batch
   acknowledged (logged, already logged or rejected), so the broker keeps every input until it is
   on disk: a ``kill -9`` at any moment loses nothing. An input that is invalid, retained, whose id names another
   input, or that cannot be logged is answered with an ``events`` entry of kind ``rejected`` and acknowledged:
   never delivered again. A batch whose commit fails (the disk, a lock) is tried again, in order,
   until it is logged; meanwhile the health says so (:meth:`IntakeMixin._failing`) and time rules nothing. The
   worker then applies what was logged (``outputs.py``).

An input without ``at`` (a console command) is stamped with its arrival, never earlier than the latest time already
logged: the referee trusts its own ``clock`` (``guard.py``).

The devices' presence (``camera/status``, ``board/status``: ``protocol.HEEDED``): the main session takes each with
its retained message, at start and on every reconnection, at QoS 0 (the broker keeps no stale presence for it).
Each change (``online``, ``lost``, ``offline``, and an online board's ``boot``: :func:`presence_entry`) is logged as a
``presence`` entry of the service's own (no id: the service logs only a presence other than the one it logged last),
stamped with its arrival, in the batch's one commit, and applied in log order: while the camera sees no table or the
board does not answer, the table's shot clocks stand still (``Reducer._presence_entry``); a board's new boot says it
restarted (``Reducer._booted``: presses made meanwhile may be lost). One that breaks its schema is rejected. A presence
is a state: one over its sender's pace (``guard.py``: a camera flapping, a hostile sender) is kept until the worker
takes it, the next replacing it (those replaced are counted as dropped), so that the last one said is always logged
and the table is never left on a presence its device has left (a camera back online taken as lost for good, its
table's clocks standing still while its health says nothing).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace

from bus.mqtt import Connection, Delivery, parse_url
from bus.protocol import HEEDED, INTAKE, PayloadError, decode, parse_topic, peek_id, topic
from cardtable.watchdog import KEEPALIVE_S  # the sessions' too: the broker publishes the will when silent 7.5 s
from referee.catalogue import error_key
from referee.reasons import Reason
from referee.table.health import HEAR_AGAIN_S
from referee.table.reducer import PRESENCE

log = logging.getLogger("referee.table.service")  # the service's one logger, whichever of its parts speaks

QOS = 1  # every input the service takes and every output it publishes (a presence is taken at 0)
SAME_AT_S = 5.0  # an input sent again by a restarted sender may be dated this much apart (the bridge's ``at``)


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


class IntakeMixin:
    """The inputs' way into :class:`~referee.table.service.TableService`'s log (its state is the service's, set in
    its ``__init__``)."""

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

    def _take_latest(self, full_topic: str) -> tuple:
        """The latest message of a presence topic, as queued (``_receiver``: the ones before it were replaced)."""
        with self._latest_lock:
            return self._latest.pop(full_topic)

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
