"""The display's two MQTT connections (thin shell around :mod:`display.view`).

The scoreboard user (read only) feeds the hall: every table's ``state``, ``status``, ``health``,
``events`` and ``violations``, the tournaments' ``round`` and ``standings``, and the broker's count of
the messages it dropped. The console user publishes
the console's table ``commands`` and reads the camera's ``frames`` (kept for the flags; they
reach a browser only behind the console's login). Each message is validated by
:func:`display.view.receive`; a malformed one is logged and dropped. What the broker does not keep (the tables'
events and violations, the frames) is written to the kept file as it comes (``display.kept``), and read back at start.

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
from bus.mqtt import Connection, Delivery
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

log = logging.getLogger(__name__)

ANSWERS_KEPT = 256  # the tables' answers to the console's commands, the newest (``Feed.answer``)
TOURNAMENT_TOPICS = ("cardtable/v1/tournament/+/round", "cardtable/v1/tournament/+/standings")
WATCH_S = 0.5  # how often the two connections are looked at (for the pages' "no broker" banners)

Change = dict


class Feed:
    """Both connections, the hall they make and the frames kept; ``on_change(change)`` is called on
    paho's thread for every change (keep it short)."""

    def __init__(self, scoreboard_url: str, console_url: str, on_change: Callable[[Change], None] = lambda c: None,
                 reconnect_delay_s: tuple[float, float] = (0.1, 2.0), kept: Kept | None = None,
                 tables: Mapping[str, TableView] = MappingProxyType({}), frames: Mapping[str, list[dict]] = MappingProxyType({})):
        self.on_change = on_change
        self.kept = kept  # the file the tables' timelines and frames are kept in, ``tables`` and ``frames`` read back
        self.hall = Hall(read_back=MappingProxyType(dict(tables)))
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # notified on every change of the hall (``answer``)
        self._answers: OrderedDict[str, dict | bool] = OrderedDict()  # command id -> ``rejected`` data, or True: applied
        self._frames = {t: deque(f, maxlen=FRAMES_KEPT) for t, f in frames.items()}
        self._heard_on = 0  # the scoreboard connection's generation the hall was last told on (``Delivery``)
        self._stop = threading.Event()
        # deliveries: each message's Delivery says whether it is the broker's retained copy (``view.receive``)
        self.scoreboard = Connection(scoreboard_url, clean_start=True, keepalive_s=KEEPALIVE_S,
                                     reconnect_delay_s=reconnect_delay_s, deliveries=True)
        self.console = Connection(console_url, clean_start=True, keepalive_s=KEEPALIVE_S, reconnect_delay_s=reconnect_delay_s)
        # QoS 0: the sessions are clean, so QoS 1 would add an acknowledgement per message and keep
        # nothing across a reconnect; after one, the retained state, status, round and standings come again.
        for leaf in SHOWN:
            self.scoreboard.subscribe(subscription(leaf), self._message, qos=0)
        for f in (*TOURNAMENT_TOPICS, BROKER_DROPPED):
            self.scoreboard.subscribe(f, self._message, qos=0)
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
        self.scoreboard.close(flush_timeout=0)
        self.console.close(flush_timeout=2.0)

    # -- the hall ------------------------------------------------------------------------------
    def _message(self, full_topic: str, raw: bytes, delivery: Delivery) -> None:
        with self._lock:
            if delivery.generation != self._heard_on:  # a new connection: the events published meanwhile are lost
                self._heard_on, self.hall = delivery.generation, self.hall.reconnected()
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
        with self._lock:
            if (up, can) != (self.hall.feed, self.hall.commands):
                self.hall = self.hall.with_feed(up, can)
                self.on_change({"type": "feed", "data": {"connected": up, "commands": can}})

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
