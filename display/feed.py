"""The display's two MQTT connections (thin shell around :mod:`display.view`).

The scoreboard user (read only) feeds the hall: every table's ``state``, ``status``, ``health``,
``events`` and ``violations``, the tournaments' ``round`` and ``standings``, and the broker's count of
the messages it dropped. The console user publishes
the console's table ``commands`` and reads the camera's ``frames`` (kept for the flags; they
reach a browser only behind the console's login). Each message is validated by
:func:`display.view.receive`; a malformed one is logged and dropped. What the broker does not keep (the tables'
events and violations, the frames) is written to the kept file as it comes (``display.kept``), and read back at start.

The scoreboard's is a persistent MQTT 5 session (``bus.mqtt``: a client id the broker makes its user name, so one
display a scoreboard user: ``display serve`` holds the user's lock on its broker), kept by the broker ``SESSION_EXPIRY_S``
after a cut: the tables publish their events and violations with QoS 1 (``referee.table.service``'s ``QOS``), the
display subscribes to them with QoS 1, and the broker delivers what was published while the display was away, in
order, once it connects again (``Connection.resumed``); nothing is missed then. Where the broker did not keep the
session (a cut longer than its expiry, a broker restarted without its persistence), the events of the cut are lost,
and the timeline says so and why where they are missing (``Hall.reconnected``, a ``missed`` line: ``kept.missed_expired``,
``kept.missed_lost``). The retained topics come anew on every connection (``retained="always"``), the ``health`` with
QoS 0: one queued during the cut would be taken for news. A display stopped ends its session (nothing is queued for
it while it is off; it reads back its kept file at start, and a killed one finds its session if it comes back soon).
Each connection yields (``bus.mqtt``'s ``yields``): taken over by another client of its user (a second display of the
user on another machine, which ``display serve``'s lock does not see), it does not take it back, and stays down until
the display is restarted, its pages showing it cut off; ``Feed.taken`` says why and what to do, to the log and the
console (``routers.health``).

Each connection is heard or not (``bus.mqtt``'s ``hears``, looked at every ``WATCH_S``: probed once it heard nothing for
a second, and a probe unanswered for two is a link cut without a word or a broker frozen, which look connected): the
hall's ``feed`` and ``commands`` say so within 4 s, and the pages' banners with them. Their keepalive is the services'
(``cardtable.watchdog.KEEPALIVE_S``): paho ends such a connection in 5 to 10 s and connects again, and the broker's
retained messages come anew.
"""

from __future__ import annotations

import base64
import logging
import threading
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from types import MappingProxyType

from bus.broker import BROKER_DROPPED
from bus.mqtt import Connection, Delivery, TakenOver
from bus.protocol import (
    PayloadError,
    decode,
    encode,
    parse_topic,
    subscription,
    topic,
)
from cardtable.watchdog import KEEPALIVE_S
from display.kept import FRAMES_KEPT, Kept
from display.view import SHOWN, Hall, Ignored, TableView, receive
from referee.catalogue import LANGS, Refusal, say

log = logging.getLogger(__name__)

ANSWERS_KEPT = 256  # the tables' answers to the console's commands, the newest (``Feed.answer``)
TOURNAMENT_TOPICS = ("cardtable/v1/tournament/+/round", "cardtable/v1/tournament/+/standings")
WATCH_S = 0.5  # how often the two connections are looked at (for the pages' "no broker" banners)
SESSION_EXPIRY_S = 1800  # how long the broker keeps the scoreboard's session (and queues its events) after a cut
NOT_QUEUED = ("health",)  # the table topics subscribed with QoS 0: retained, and news only when fresh

Change = dict


class Yielded(Refusal):
    """One of the display's connections taken over by another client of its broker user (``bus.mqtt``'s ``TakenOver``,
    its ``why``): the catalogue's ``feed.scoreboard_taken`` or ``feed.console_taken``, saying what to do."""

    section = "feed"


class Feed:
    """Both connections, the hall they make and the frames kept; ``on_change(change)`` is called on
    paho's thread for every change (keep it short)."""

    def __init__(self, scoreboard_url: str, console_url: str, on_change: Callable[[Change], None] = lambda c: None,
                 reconnect_delay_s: tuple[float, float] = (0.1, 2.0), kept: Kept | None = None,
                 tables: Mapping[str, TableView] = MappingProxyType({}), frames: Mapping[str, list[dict]] = MappingProxyType({}),
                 session_expiry_s: int = SESSION_EXPIRY_S):
        self.on_change = on_change
        self.kept = kept  # the file the tables' timelines and frames are kept in, ``tables`` and ``frames`` read back
        self.hall = Hall(read_back=MappingProxyType(dict(tables)))
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # notified on every change of the hall (``answer``)
        self._answers: OrderedDict[str, dict | bool] = OrderedDict()  # command id -> ``rejected`` data, or True: applied
        self._frames = {t: deque(f, maxlen=FRAMES_KEPT) for t, f in frames.items()}
        self._heard_on = 0  # the scoreboard connection's generation the hall was last told on (``Delivery``)
        self._keep_s = session_expiry_s
        self._last_at = time.monotonic()  # when the scoreboard's latest message came (its tables' health: every 2 s)
        self._stop = threading.Event()
        self._taken: dict[str, Yielded] = {}  # "scoreboard", "console": the connection taken over, said (``taken``)
        # deliveries: each message's Delivery says whether it is the broker's retained copy (``view.receive``)
        # yields: taken over by another display of the user (on another machine), a connection does not take it back
        self.scoreboard = Connection(scoreboard_url, session_expiry_s=session_expiry_s, keepalive_s=KEEPALIVE_S,
                                     reconnect_delay_s=reconnect_delay_s, deliveries=True, yields=True)
        self.console = Connection(console_url, clean_start=True, keepalive_s=KEEPALIVE_S, reconnect_delay_s=reconnect_delay_s,
                                  yields=True)
        # QoS 1: queued by the broker while away, in the order published (a state after its events); the retained
        # copies come on every connection, after what was queued
        for leaf in SHOWN:
            self.scoreboard.subscribe(subscription(leaf), self._message, qos=0 if leaf in NOT_QUEUED else 1, retained="always")
        for f in TOURNAMENT_TOPICS:
            self.scoreboard.subscribe(f, self._message, qos=1, retained="always")
        self.scoreboard.subscribe(BROKER_DROPPED, self._message, qos=0, retained="always")
        self.console.subscribe(subscription("frames"), self._frame)
        self._watcher = threading.Thread(target=self._watch, name="display-feed-watch", daemon=True)

    def start(self, timeout: float = 10.0) -> Feed:
        self.scoreboard.connect(timeout)
        self.console.connect(timeout)
        self.scoreboard.wait_subscribed(timeout)
        self._look()
        self._watcher.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.scoreboard.close(flush_timeout=0, end_session=True)
        self.console.close(flush_timeout=2.0)

    # -- the hall ------------------------------------------------------------------------------
    def _message(self, full_topic: str, raw: bytes, delivery: Delivery) -> None:
        with self._lock:
            if delivery.generation != self._heard_on:  # a new connection
                self._connected_again(delivery.generation)
            self._last_at = time.monotonic()
            try:
                self.hall, change = receive(self.hall, full_topic, raw, time.monotonic(), delivery.retain, time.time())
            except Ignored as exc:
                log.warning("ignored: %s", exc)
                return
            data = change.get("data") or {}
            if change["type"] == "applied":  # the console's alone: no page shows it
                self._answer(data["id"], True)
                self._changed.notify_all()
                return
            if change["type"] == "event" and data.get("kind") == "rejected" and data["data"].get("topic") == "commands":
                self._answer(data["data"].get("id"), data["data"])
            missed = change.pop("missed", None)  # a gap a restart left in the timeline, said before the state
            for c in ([{"type": "event", "table": change["table"], "data": missed}] if missed else []) + [change]:
                if self.kept is not None and "table" in c:
                    self.kept.note(self.hall.table(c["table"]), c)
                self.on_change(c)  # under the lock: the pages get the changes in the hall's order
            self._changed.notify_all()

    def _connected_again(self, generation: int) -> None:
        """The scoreboard's connection ``generation``, its first message: a session the broker kept delivers what was
        published meanwhile (nothing missed); one it did not keep lost it, and the hall says so where a table moved on
        (``Hall.reconnected``), with why: the cut outlasted the session's expiry, or the broker lost it."""
        first, self._heard_on = self._heard_on == 0, generation
        if self.scoreboard.resumed(generation):
            return
        away, lost = time.monotonic() - self._last_at, None
        if not first:
            key = "kept.missed_expired" if away > self._keep_s else "kept.missed_lost"
            lost = {lang: say(lang, key, away=f"{away:.0f}", keep=self._keep_s) for lang in LANGS}
            log.warning("scoreboard: the broker did not keep the session (cut off %.0f s, kept %d s): events of the cut"
                        " are lost", away, self._keep_s)
        self.hall = self.hall.reconnected(lost)

    def _answer(self, cid: str | None, answer: dict | bool) -> None:
        """Keep a table's answer to the console's command ``cid`` (the newest ``ANSWERS_KEPT``): its ``rejected``
        event's data, or True (``applied``)."""
        self._answers[cid] = answer
        while len(self._answers) > ANSWERS_KEPT:
            self._answers.popitem(last=False)

    def _watch(self) -> None:
        while not self._stop.wait(WATCH_S):
            self._look()

    def _look(self) -> None:
        """Put both connections' state into the hall, and tell the pages when it changed: ``connected``, whether the
        scoreboard's hears the broker (the hall is live: the scoreboard's banner), ``commands``, the console's."""
        up, can = self.scoreboard.hears(), self.console.hears()
        for name, conn in (("scoreboard", self.scoreboard), ("console", self.console)):
            if conn.taken is not None and name not in self._taken:
                self._yielded(name, conn.address.username, conn.taken)
        with self._lock:
            if (up, can) != (self.hall.feed, self.hall.commands):
                self.hall = self.hall.with_feed(up, can)
                self.on_change({"type": "feed", "data": {"connected": up, "commands": can}})

    def _yielded(self, name: str, user: str | None, why: TakenOver) -> None:
        """The connection ``name`` was taken over by another client of ``user`` (another display of the user, on another
        machine: ``display serve``'s lock holds one a machine): noted for the console (``taken``) and logged, once. It
        stays down until the display is restarted. Taking it back would end the other's, which would take it back in
        turn, for ever (each missing what the broker gave the other); retried later, it would take the hall from the
        display that has it, and the screens would change hands all evening. The pages show the hall cut off (the
        scoreboard's: ``Hall.feed`` false, never live again) and the console refuses commands (the console's)."""
        if name == "scoreboard":  # and what to do: the other display, or ``display serve``'s option of the user
            said = Yielded("scoreboard_taken", user=repr(user), option="--scoreboard-user", why=why)
        else:
            said = Yielded("console_taken", user=repr(user), option="--console-user", why=why)
        self._taken[name] = said
        log.error("%s", said.text("en"))

    @property
    def taken(self) -> dict[str, dict[str, str]]:
        """The display's connections another client of their user took over (``scoreboard``, ``console``), each with
        why and what to do in every language (``feed.*_taken``); empty while none was."""
        return {name: {lang: said.text(lang) for lang in LANGS} for name, said in self._taken.items()}

    # -- the console ---------------------------------------------------------------------------
    @property
    def can_send(self) -> bool:
        """Whether a command would reach the broker now: the console's own connection hears it (it may not while the
        scoreboard's does: it dropped alone, or a second program took the broker user's one connection) and the broker
        answers a probe sent now (``bus.mqtt``'s ``answers``: a round trip, at most ``ANSWER_S``). The console refuses
        every command otherwise (``routers.tables.send``), and its banner says so (``Hall.commands``, within 4 s of a
        freeze or a silent cut). Published into a frozen broker or a cut link, a command would wait in memory (paho's,
        or the sockets'), said done, and reach the table whenever the link came back. One published in the instant
        between the broker's answer and a freeze (a round trip: a millisecond in a hall) is said done and still reaches
        the table when the broker comes back: the broker's machine holds it, and nothing takes it back."""
        return self.console.hears() and self.console.answers()

    def command(self, table: str, command: str, **fields) -> str:
        """Publish one command to ``table`` (checked against the protocol first); its id."""
        cid = f"console-{uuid.uuid4().hex[:12]}"
        payload = encode("commands", {"v": 1, "id": cid, "command": command, **fields})
        self.console.publish(topic(table, "commands"), payload, qos=1)
        return cid

    def answer(self, cid: str, done: Callable[[Hall], bool], timeout: float) -> dict | bool | None:
        """The table's answer to the command ``cid``, as this display's scoreboard connection hears it: the data of its
        ``rejected`` event when the table refused it; True when it took it (its ``applied`` event), or once
        ``done(hall)`` (what the command should change is seen); None when none came within ``timeout`` s (the table
        offline or stalled, the scoreboard cut off)."""
        with self._changed:
            self._changed.wait_for(lambda: cid in self._answers or done(self.hall), timeout)
            return self._answers.get(cid) or done(self.hall) or None

    def _frame(self, full_topic: str, raw: bytes) -> None:
        try:
            table, _ = parse_topic(full_topic)
            frame = decode("frames", raw)
            base64.b64decode(frame["jpeg"], validate=True)
        except (PayloadError, ValueError) as exc:
            log.warning("ignored frame on %s: %s", full_topic, exc)
            return
        with self._lock:
            self._frames.setdefault(table, deque(maxlen=FRAMES_KEPT)).append(frame)
            if self.kept is not None:
                self.kept.frame(table, frame)

    def frames(self, table: str) -> list[dict]:
        with self._lock:
            return list(self._frames.get(table, ()))

    def __repr__(self) -> str:
        a = self.scoreboard.address
        return f"<Feed {a.host}:{a.port} tables={len(self.hall.tables)} connected={self.scoreboard.connected}>"


__all__ = ["FRAMES_KEPT", "Feed"]
