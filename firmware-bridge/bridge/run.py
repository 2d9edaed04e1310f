"""``cardtable bridge run``: the table board on a serial port, bridged to the table service.

The thin shell around :class:`bridge.host.HostLink`: pyserial on one side, MQTT (the table's
``board-T`` user) on the other, one loop. Presses go to ``board/in`` (QoS 1) and are acknowledged
to the board once the broker has them (a press over its seat's ``PACE``, a stuck button or a
broken board, is acknowledged to it, counted and logged, and never sent: one seat's broken button
costs only that seat's presses); the retained ``board/out`` drives the displays, lights and buzzer;
``board/status`` (retained, ``offline`` as the last will, said again on every reconnection) says
whether the board answers.
A port that fails (the cable pulled) is closed and opened again every ``REOPEN_S``; the link then
resynchronises and the board replays the presses it still holds. The port is held exclusively (``flock``), and
taken before the broker connection: a second bridge started on the same board (each bridge of a table is the one
user ``board-T``, whose connection the broker gives to the newest) says so and ends, instead of taking the first's
connection and half its bytes. So is the table, by a lock file per table and broker (:mod:`bus.lock`): a second
bridge of the same table on another port says so and ends, instead of the two taking the table's connection from
each other for ever. A bridge of the table on another machine takes the connection over (the broker gives it to the
newer): this one yields (``bus.mqtt``'s ``yields``), publishes nothing more, not even ``offline`` (the table's board
is the other's), and ends in words (``taken_over``; the command's exit status ``TAKEN_OVER_EXIT``, which the hall's
units do not restart).
A loop that has not turned for ``HUNG_S`` (blocked for ever, while paho's thread keeps the connection alive) ends the
process (:mod:`cardtable.watchdog`): the broker then says the board ``offline``, its will, as it does for a bridge
stopped whole once it has heard nothing for 1.5 times its keepalive (``cardtable.watchdog.KEEPALIVE_S``).
The table service's ``status`` and ``health`` say whether the table is refereed (:mod:`bridge.referee`): while the
service is gone no clock runs on the board and its seats say so (``gone_views``), said in the log; once it is back they
show its ``board/out`` again.
"""

from __future__ import annotations

import errno
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import serial

from bridge.frames import VERSION
from bridge.host import HostLink
from bridge.messages import SHOWS_GONE, STUCK_S, keys, lacks
from bridge.referee import Referee
from bridge.seats import alerts, blank_views, board_in, gone_views, seat_views
from bus import lock
from bus.firmware import SHIPPED
from bus.mqtt import Connection, ConnectionRefused, Delivery, TakenOver
from bus.pace import Bucket
from bus.protocol import PayloadError, decode, encode, topic
from cardtable.watchdog import KEEPALIVE_S, Watchdog
from referee.catalogue import CatalogueError, Refusal, Term, cli_lang, said, say

log = logging.getLogger("bridge")

BAUD = 115200
READ_TIMEOUT_S = 0.02  # the loop's pace when the line is quiet (bytes end a read at once)
REOPEN_S = 0.5
CONNECT_RETRY_S = 2.0
PACE = (10.0, 20)  # presses a second and burst, per seat: a person presses a few a second at most
GARBLED_FRAMES = 20  # frames in bytes from the port, none whole, since it opened: another speed, another device
HUNG_S = 5.0  # the loop turns every 0.5 s at most (a write waits 1 s at most): this long without a turn is a hang
HEARD = ("status", "health")  # the table service's: is the table refereed? (bridge.referee)
DROPS_SAID_S = 10.0  # presses dropped over a seat's pace are said at most this often (a stuck button: 15 a second)


class PortBusy(Refusal):
    """Another program holds the board's serial port (a second bridge of the same board), or another bridge holds the
    table (``table_busy``), or its lock cannot be taken (``table_lock``), or a bridge of another machine took the
    table over (``taken_over``): this bridge ends."""

    section = "bridge"


class BoardRefused(Refusal):
    """The board speaks another version of the serial protocol (another firmware): never read, this bridge ends."""

    section = "bridge"


def hold_table(table: str, broker_url: str, port: str) -> lock.Holding:
    """Hold ``table`` for this bridge (its :func:`bus.lock.path`) until its release; :class:`PortBusy`, naming
    the holder, when another bridge holds it."""
    return lock.hold_or_refuse(PortBusy, lock.path("bridge", table, broker_url), port, busy="table_busy",
                               unopened="table_lock", table=table)


class Bridge:
    """One board, one table. ``serve()`` runs until ``stop`` is set."""

    def __init__(self, table: str, port: str, broker_url: str, *, clock: Callable[[], float] = time.time,
                 timer: Callable[[], float] = time.monotonic, stop: threading.Event | None = None):
        self.table, self.port, self.broker_url = table, port, broker_url
        self.clock = clock  # the wall clock, for dates only: a press's and board/status's ``at``, a board/out's age
        self.timer = timer  # every span (beats, timeouts, a running clock, the referee's silence): the wall clock set
        # back an hour stopped the host's beats for that hour (the board showed LoSt, board/status said online)
        self.stop = stop or threading.Event()
        self.link = HostLink()
        self._topics = {name: topic(table, name) for name in ("board/in", "board/out", "board/status", *HEARD)}
        self._board_out: queue.Queue[tuple[str, bytes, float, float, bool]] = queue.Queue()  # board/out and HEARD,
        # as they came, with when (clock, timer) and whether as the broker's retained copy
        self._last_out: dict[str, Any] | None = None
        self._last_out_at = (0.0, 0.0)  # when it came (clock, timer)
        self.referee = Referee()
        self._publishing: dict[str, Any] = {}  # press id -> paho MQTTMessageInfo
        self._presence: dict[str, Any] | None = None
        self.conn: Connection | None = None
        self.pace = [Bucket(*PACE) for _ in range(4)]  # a seat's flood (a stuck button) leaves the others theirs
        self.dropped = 0  # presses over the pace, acknowledged to the board and never sent
        self._drops_said = [float("-inf")] * 4  # when each seat's drops were last said (monotonic)
        self._board_dropped = 0  # the board's lost presses (its queue full) said so far
        self._stuck = 0  # the keys said to be held down (a heartbeat's stuck bits)
        self._deaf = False  # said that the board hears nothing from this bridge
        self._missing = False  # said that the port cannot be opened
        self._garbled: int | None = None  # the link's corrupt count when the port opened; None once said
        self._firmware: tuple[int, int, int, int] | None = None  # board id and firmware seen last: said once

    def __repr__(self) -> str:
        return f"<Bridge table {self.table} port {self.port} {self.link!r}>"

    # -- MQTT --------------------------------------------------------------------------------------

    def connect(self) -> bool:
        """Connect to the broker, retrying until it answers; False when stopped first."""
        will = (self._topics["board/status"], encode("board/status", {"v": 1, "status": "offline"}), True)
        while not self.stop.is_set():
            conn = Connection(self.broker_url, will=will, clean_start=True, yields=True, keepalive_s=KEEPALIVE_S,
                              deliveries=True)  # a message's retain flag: the broker's copy, or just made
            for name in ("board/out", *HEARD):
                conn.subscribe(self._topics[name], self._on_board_out)
            try:
                self.conn = conn.connect()
                return True
            except ConnectionRefused:
                raise  # wrong user or password: trying again will not help
            except (TimeoutError, OSError) as e:
                log.warning("broker not reachable (%s); trying again in %.0f s", e, CONNECT_RETRY_S)
                self.stop.wait(CONNECT_RETRY_S)
        return False

    def _on_board_out(self, full_topic: str, payload: bytes, delivery: Delivery) -> None:
        self._board_out.put((full_topic.rsplit(f"/{self.table}/", 1)[1], payload, self.clock(), self.timer(),
                             delivery.retain))

    def _apply_board_out(self) -> None:
        """The ``board/out``, ``status`` and ``health`` come since, in order; then the seats as the referee is now."""
        while not self._board_out.empty():
            name, raw, dated, received, kept = self._board_out.get_nowait()
            try:
                payload = decode(name, raw)
            except PayloadError as e:
                log.warning("%s ignored: %s", name, e)
                continue
            if not kept:  # just made (the broker passes it on at once): no age, whatever this computer's clock says
                dated = payload.get("at", dated)  # (stepped an hour on, every running clock showed run out, and beeped)
            if name == "status":
                self.referee.status(payload)
            elif name == "health":
                self.referee.health(payload, received, dated)
            else:
                if not self.referee.gone(received):
                    for buzzer in alerts(self._last_out, payload):
                        self.link.beep(buzzer, received)
                    self.link.show(seat_views(payload, dated, received))
                self._last_out, self._last_out_at = payload, (dated, received)
        self._show_referee(self.timer())

    def _show_referee(self, now: float) -> None:
        """While the table's service is gone no clock runs on the board and its seats say so (``rEF GonE`` from firmware
        ``SHOWS_GONE``, dark before it); once it is back they show its last ``board/out``, brought to now."""
        board = self.link.board
        change = self.referee.change(now, as_word=board is not None and board.version >= SHOWS_GONE)
        if change is None:
            return
        if change.gone is not None:
            self.link.show(gone_views(now, change.as_word))
        else:
            self.link.show(blank_views(now) if self._last_out is None else seat_views(self._last_out, *self._last_out_at))
        if change.turned:
            lang = cli_lang()
            if change.gone is None:
                log.info(say(lang, "bridge.referee_back", table=self.table))
            else:
                log.warning(say(lang, "bridge.referee_gone", table=self.table, why=gone_why(lang, *change.gone)))

    def _presence_now(self, now: float) -> dict[str, Any]:
        board = self.link.board
        if not self.link.online(now) or board is None:
            return {"v": 1, "status": "lost"}
        return {"v": 1, "status": "online", "board": f"board{board.board_id}",
                "firmware": board.firmware, "boot": board.boot}

    def _publish_presence(self, now: float) -> None:  # now: the timer's
        """``board/status`` when the board's presence changed; it is also the connection's birth, published again on
        every reconnection (a broker restarted, or one that took the bridge's last will for it, knows the board as it
        is, not ``offline``: a table service holds its clocks while its board is down)."""
        presence = self._presence_now(now)
        if presence != self._presence:
            self._presence = presence
            log.info("board %s", presence)
            birth = encode("board/status", {**presence, "at": self.clock()})
            self.conn.birth = (self._topics["board/status"], birth, True)
            self.conn.publish(self.conn.birth[0], self.conn.birth[1], retain=True)

    # -- the loop ------------------------------------------------------------------------------------

    def _open(self) -> serial.Serial | None:
        """The port, held exclusively; None while it is not there (the cable pulled); :class:`PortBusy` when another
        program holds it."""
        try:
            port = serial.Serial(self.port, BAUD, timeout=READ_TIMEOUT_S, write_timeout=1.0, exclusive=True)
        except (serial.SerialException, OSError) as e:
            if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK):  # flock: another bridge has it
                raise PortBusy("port_busy", port=self.port) from None
            if self._missing:
                log.debug("cannot open %s: %s", self.port, e)
            else:  # said once an absence (the bridge started first, a mistyped --port, the cable pulled)
                self._missing = True
                log.warning(say(cli_lang(), "bridge.port_missing", table=self.table, port=self.port,
                                error=os.strerror(e.errno) if e.errno else e, every=f"{REOPEN_S:g}"))
            return None
        self._missing = False
        port.reset_input_buffer()
        self.link.opened()
        self._garbled = self.link.counters.corrupt
        log.info("opened %s", self.port)
        return port

    def _step(self, port: serial.Serial) -> None:
        data = port.read(max(1, port.in_waiting))
        now = self.timer()
        if data:
            self.link.received(data, now)
            if self.link.other_version is not None:
                raise BoardRefused("board_version", port=self.port, version=self.link.other_version, want=VERSION)
            self._say_garbled(now)
            self._say_board_dropped()
            self._say_stuck()
            self._say_deaf(now)
            self._say_restarts()
            self._say_firmware()
        self._apply_board_out()
        for pid in [p for p, info in self._publishing.items() if Connection.acknowledged(info)]:
            del self._publishing[pid]
            self.link.published(pid)
        step = self.link.take(now)
        if step.write:
            port.write(step.write)
        for press in step.publish:
            mono = time.monotonic()
            # paced by when it was made: the presses a board replays at once to a bridge started again are no burst
            if press.id not in self._publishing and not self.pace[press.seat].take(press.at):
                self.dropped += 1  # a stuck button or a broken board: acknowledged to it, never sent
                self.link.published(press.id)
                if mono - self._drops_said[press.seat] >= DROPS_SAID_S:
                    self._drops_said[press.seat] = mono
                    log.warning("%s: presses of seat %s over %g a second: %d dropped so far", self.table,
                                "SENW"[press.seat], PACE[0], self.dropped)
                continue
            payload = encode("board/in", board_in(replace(press, at=press.at + self.clock() - now)))  # dated
            self._publishing[press.id] = self.conn.publish(self._topics["board/in"], payload)
        self._publish_presence(now)

    def _say_garbled(self, now: float) -> None:
        """Bytes come from the port and not one whole frame (a board at another speed, another device on the port):
        said once a port's opening; ``board/status`` only says ``lost``. Counted since the board last answered."""
        corrupt = self.link.counters.corrupt
        if self._garbled is None or self.link.online(now):
            self._garbled = corrupt if self._garbled is not None else None
        elif corrupt - self._garbled >= GARBLED_FRAMES:
            log.warning("%s: %d frames from %s and none whole: is it the board, at %d baud?", self.table,
                        corrupt - self._garbled, self.port, BAUD)
            self._garbled = None

    def _say_board_dropped(self) -> None:
        """Presses the board lost, its queue full (the broker or the bridge away for 32 presses, a flood): said here
        as the board's three beeps say them at the table; they never reach ``board/in``."""
        dropped = self.link.counters.board_dropped
        if dropped > self._board_dropped:
            log.warning("%s: the board's queue of presses was full: %d more lost, %d since the bridge started",
                        self.table, dropped - self._board_dropped, dropped)
            self._board_dropped = dropped

    def _say_stuck(self) -> None:
        """A key held down ``STUCK_S`` or more (a stuck button: the board sends a press when a key goes down, so a
        held one says nothing more), and when it is let go, as the board's heartbeats say them."""
        beat = self.link.heartbeat
        stuck = beat.stuck if beat and self.link.online(self.timer()) else self._stuck
        for seat, button in keys(stuck & ~self._stuck):
            log.warning("%s: the %s button of seat %s has been held down %g s or more (stuck?): no press of it is "
                        "seen until it is let go", self.table, button, seat, STUCK_S)
        for seat, button in keys(self._stuck & ~stuck):
            log.info("%s: the %s button of seat %s is let go", self.table, button, seat)
        self._stuck = stuck

    def _say_deaf(self, now: float) -> None:
        """The board talks but hears nothing from this bridge (its heartbeats say so: its receive line broken, a cable
        or plug damaged), answering no sync or taking no command (it shows ``LoSt``), so ``board/status`` says
        ``lost``; said here why, and when it hears again."""
        if self.link.deaf and not self._deaf:
            log.warning(say(cli_lang(), "bridge.board_deaf", table=self.table, port=self.port))
        elif self._deaf and self.link.online(now):
            log.info(say(cli_lang(), "bridge.board_hears", table=self.table, port=self.port))
        else:
            return
        self._deaf = not self._deaf

    def _say_firmware(self) -> None:
        """A board of an older 2.x firmware than the one shipped (the protocol is the same, so it is bridged as it is)
        lacks the releases since: said once a board and firmware, in words, with how to flash it (README)."""
        board = self.link.board
        if board is None or (board.board_id, *board.version) == self._firmware:
            return
        self._firmware = (board.board_id, *board.version)
        if missing := lacks(board.version):
            lang = cli_lang()
            log.warning(say(lang, "bridge.firmware_old", table=self.table, board=board.board_id,
                            firmware=board.firmware, shipped=SHIPPED, port=self.port,
                            lacks=said([Term(f"bridge.mended.{m}") for m in missing], lang)))

    def _say_restarts(self) -> None:
        """A boot that began at a reset (the reset button, a power dip, the watchdog): presses made while the board
        restarted, and those waiting on it (in its RAM), are lost."""
        for r in self.link.restarts:
            when = time.strftime("%H:%M:%S", time.localtime(r.at + self.clock() - self.timer()))
            if r.held is None:
                log.info("%s: board%d started at %s (boot %d)", self.table, r.board_id, when, r.boot)
            else:
                log.warning("%s: board%d restarted at %s (boot %d): presses made while it restarted may be lost, and "
                            "of the %d waiting on it those not yet at the broker", self.table, r.board_id, when,
                            r.boot, r.held)
        self.link.restarts.clear()

    def _hung(self, stood: float) -> None:
        """Its loop has not turned for ``stood`` seconds, said as the process ends: the will says the board offline."""
        log.error(say(cli_lang(), "bridge.loop_hung", table=self.table, seconds=f"{stood:.0f}"))

    def serve(self) -> int:
        """Bridge until ``stop``; :class:`PortBusy` (before connecting to the broker, or later) when another bridge
        holds the table or another program the port."""
        port = self._open()
        try:
            held = hold_table(self.table, self.broker_url, self.port)
        except PortBusy:
            if port is not None:
                port.close()
            raise
        try:
            return self._serve(port)
        finally:
            held.release()

    def _serve(self, port: serial.Serial | None) -> int:
        if not self.connect():
            if port is not None:
                port.close()
            return 0
        with Watchdog(HUNG_S, self._hung, "bridge-watch") as watch:  # a loop that stops turning ends the process
            try:
                while not self.stop.is_set():
                    watch.turn()
                    if self.conn.taken is not None:  # said even while the port is away and nothing is published
                        raise self.conn.taken
                    if port is None:
                        port = self._open()
                        if port is None:
                            self._apply_board_out()
                            self._publish_presence(self.timer())
                            self.stop.wait(REOPEN_S)
                            continue
                    try:
                        self._step(port)
                    except (serial.SerialException, OSError) as e:
                        log.warning("lost %s: %s", self.port, e)
                        port.close()
                        port = None
                        self.link.closed()
            except TakenOver as e:
                raise PortBusy("taken_over", table=self.table, why=e) from None
            finally:
                watch.turn()  # closing takes 3 s at most (conn.close)
                if port is not None:
                    port.close()
                if self.conn.taken is None:  # else the table's board is the other bridge's, online
                    offline = encode("board/status", {"v": 1, "status": "offline", "at": self.clock()})
                    self.conn.publish(self._topics["board/status"], offline, retain=True)
                self.conn.close()
        return 0


def gone_why(lang: str, why: str, values: dict[str, Any]) -> str:
    """Why the table's service is taken for gone, in ``lang``: a problem its health says in the catalogue's words where
    it has them (``problem_why``), else in the service's own (English)."""
    if why == "problem":
        problem = values["why"]
        try:
            text = say(lang, f"health.{problem.get('key')}", **problem.get("values", {}))
        except CatalogueError:
            text = say(lang, "health.in_english", text=values["problem"])
        values = {"problem": text}
    return say(lang, f"bridge.gone.{why}", **values)
