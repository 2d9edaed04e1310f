"""The tournament service over MQTT: results from the tables' ``events``, the retained ``round``
and ``standings`` topics (``bus/PROTOCOL.md``, "Tournament topics").

It reads ``cardtable/v1/tables/+/events`` as the broker user ``tournament`` and gives each event to its
:class:`~referee.tournament.recorder.Recorder`, which records what the event says of a table's game (once per
event: a QoS 1 redelivery changes nothing). It reads the tables' retained ``state`` too, for the levels and players
as they stand: a service started (or restarted) mid-game knows them at once. After every change, its own or one the
console made in the same file (polled), it publishes both payloads again, retained. An event is acknowledged once it
is handled (recorded, or refused by the tournament's rules); one that fails on the file (the disk full, a lock held
past SQLite's timeout) stays, with those after it, and is tried again at every poll, so no game is lost to a bad
moment of the disk. Events are handled on the service's own thread, never on the connection's, which keeps answering
the broker while the file waits; that thread alone uses the store (after ``start``'s first publication), so nothing
around it is locked.

One service a broker (every one is the broker user ``tournament``, one client id), as one camera a table
(``bus/PROTOCOL.md``, "One sender per table"): ``serve`` holds the service's lock file of its broker
(``bus.lock``), so a second on this machine is refused at its start, naming the first (``serve_busy``); one of
another machine takes the connection over, and the older yields (``bus.mqtt``'s ``yields``): it says so
(``serve_taken_over``) and ends with ``TAKEN_OVER_EXIT``, which the hall's unit does not restart into a fight. The
events it had not acknowledged go to the newer with the session.
"""

from __future__ import annotations

import logging
import signal
import sqlite3
import threading
import time
from collections import deque

from bus import lock
from bus.mqtt import Connection, parse_url
from bus.protocol import subscription
from bus.tournament import check, topic
from cardtable.logs import Lasting, setup_logging
from referee.tournament import recorder
from referee.tournament.core import TournamentError
from referee.tournament.recorder import Recorder
from referee.tournament.store import TournamentStore
from referee.tournament.views import encode, round_view, standings_view

log = logging.getLogger(__name__)
POLL_S = 0.5  # how often the log is checked for changes made by others (the console)


class TournamentService:
    """Serve one tournament's store over MQTT (see the module's docstring)."""

    def __init__(self, store: TournamentStore, url: str, client_id: str = "tournament", poll_s: float = POLL_S):
        self.store = store
        self.poll_s = poll_s
        self.conn = Connection(url, client_id, manual_ack=True, yields=True)
        self._waiting: deque = deque()  # events received, handled in order, each acknowledged once handled
        self._wake = threading.Event()  # an event arrived: the poller handles it now
        self._failing_since: float | None = None
        self._stop = threading.Event()
        self._published = -1
        self.recorder = Recorder(store)
        self._poller = threading.Thread(target=self._poll, name="tournament-poll", daemon=True)

    def __repr__(self) -> str:
        return f"TournamentService({self.store!r}, {self.conn.client_id!r})"

    def start(self) -> TournamentService:
        self.conn.subscribe(subscription("events"), self._on_event)
        self.conn.subscribe(subscription("state"), self._on_state)
        self.conn.connect()
        self.publish()
        self._poller.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._poller.is_alive():
            self._poller.join(5)
        self.conn.close()

    def publish(self) -> None:
        """Publish ``round`` and ``standings`` when the log changed since the last time."""
        seq = self.store.last_seq()
        if seq == self._published or seq == 0:
            return
        t = self.store.tournament
        for name, payload in (("round", round_view(t)), ("standings", standings_view(t))):
            self.conn.publish(topic(t.id, name), encode(check(name, payload)), qos=1, retain=True)
        self._published = seq

    def _poll(self) -> None:
        failing = Lasting()  # said once while it lasts (it was twice a second)
        while not self._stop.is_set():
            self._wake.wait(self.poll_s)
            self._wake.clear()
            if self._stop.is_set():
                break
            self._handle_waiting()
            try:
                self.publish()
            except Exception as exc:  # a locked or broken file must not end the service
                if failing.new(str(exc)):
                    log.exception("tournament: publishing failed; tried again every %g s", self.poll_s)
                continue
            if failing.over():
                log.warning("tournament: publishing works again")

    def _on_event(self, full_topic: str, payload: bytes, delivery) -> None:
        """Queued for the poller: the connection's thread never waits on the file (SQLite waits up to 30 s for another
        program's write lock), so the connection keeps answering the broker, and acknowledging, meanwhile."""
        self._waiting.append((full_topic, payload, delivery))
        self._wake.set()

    def _handle_waiting(self) -> None:
        """Handle the events received, oldest first, acknowledging each; stop at one that fails on the file (SQLite's
        error or the system's: not a refusal) and leave it first, to be tried again at the next poll. One that fails
        otherwise (a payload no check foresaw) is said and dropped, as before: it would fail again for ever. The
        poller's thread only."""
        while self._waiting:
            full_topic, payload, delivery = self._waiting[0]
            try:
                self._event(full_topic, payload)
            except Exception as exc:
                if not isinstance(exc, sqlite3.Error | OSError):  # a payload no check foresaw: never again
                    log.exception("tournament: handling %s failed; it is dropped", full_topic)
                    self._waiting.popleft()
                    self.conn.ack(delivery)
                    continue
                if self._failing_since is None:
                    self._failing_since = time.monotonic()
                    log.exception("tournament: handling %s failed; it is tried again every %g s", full_topic, self.poll_s)
                return
            if self._failing_since is not None:
                log.warning("tournament: handling events works again after %.0f s; %d were waiting",
                            time.monotonic() - self._failing_since, len(self._waiting))
                self._failing_since = None
            self._waiting.popleft()
            self.conn.ack(delivery)

    def _event(self, full_topic: str, payload: bytes) -> None:
        if (read := recorder.read(full_topic, payload, "events")) is not None:
            self.recorder.event(*read)

    def _on_state(self, full_topic: str, payload: bytes, delivery) -> None:
        self.conn.ack(delivery)  # levels and players kept in memory: nothing to lose
        if (read := recorder.read(full_topic, payload, "state")) is not None:
            self.recorder.state(*read)


def serve(store: TournamentStore, url: str) -> int:
    """``cardtable tournament serve``: until SIGTERM or SIGINT; :class:`TournamentError` when another service of the
    broker runs on this machine (nothing started), or one of another machine took the service over (then it ends)."""
    setup_logging()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    store.tournament  # noqa: B018 - refuse an empty file before connecting
    held = hold(url, store.path)  # let go (the file removed) when it ends; killed, the kernel lets it go
    try:
        return _serve(store, url, stop, held)
    finally:
        held.release()


def _serve(store: TournamentStore, url: str, stop: threading.Event, held: lock.Holding) -> int:
    """``serve`` once it holds the broker's service (``held``)."""
    service = TournamentService(store, url)
    try:
        service.start()
    except (OSError, TimeoutError, ValueError) as exc:
        log.error("tournament: cannot start: %s", exc)
        return 1
    log.info("tournament %s: serving (holding %s)", store.tournament.id, held.path)
    try:
        while not stop.wait(1.0) and service.conn.taken is None:
            pass
    finally:
        service.stop()
    if service.conn.taken is not None:
        raise TournamentError("serve_taken_over", why=service.conn.taken)
    return 0


def hold(url: str, path) -> lock.Holding:
    """Hold the tournament service's lock file of the broker of ``url`` for this process (:func:`bus.lock.hold_or_refuse`)
    until its release; :class:`TournamentError`, naming the holder, when another process holds it."""
    address = parse_url(url)
    return lock.hold_or_refuse(TournamentError, lock.path("tournament", "service", url), str(path), busy="serve_busy",
                               unopened="serve_lock", broker=f"{address.host}:{address.port}")
