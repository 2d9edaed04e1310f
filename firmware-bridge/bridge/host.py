"""The host's side of the board link (``firmware-bridge/PROTOCOL.md``), with the time passed in: a clock that never
goes back (``bridge run`` gives it ``time.monotonic``; the wall clock set back an hour stopped the beats for that hour).

:class:`HostLink` takes the bytes from the board (:meth:`~HostLink.received`), what the seats
should show (:meth:`~HostLink.show`, :meth:`~HostLink.beep`) and the broker's confirmations
(:meth:`~HostLink.published`), and :meth:`~HostLink.take` answers what is due now: the bytes to
write and the presses to publish. A press is acknowledged to the board only once the broker has
it, so a press is kept on the board until it is safe.

>>> from bridge.frames import encode
>>> from bridge.messages import Hello, Button
>>> link = HostLink()
>>> link.opened()
>>> link.take(now=0.0).write == encode(Sync().frame()) + encode(HostBeat().frame())
True
>>> link.received(encode(Hello(3, 31, 2, 0, 0, 1, 87, 1000, True).frame()) + encode(Button(2, 0, 900, 1000).frame(87)), now=0.5)
>>> step = link.take(now=0.5)
>>> step.publish
[Press(id='board3-1f-000087', seat=2, button=0, at=0.4)]
>>> link.published("board3-1f-000087")
>>> link.take(now=0.6).write == encode(Ack(Button.TYPE).frame(87))
True
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field, replace

from bridge.frames import FrameError, OtherVersion, Splitter, UnknownFrame, decode, encode
from bridge.messages import (
    Ack,
    Button,
    Buzzer,
    Display,
    Heartbeat,
    Hello,
    HostBeat,
    Light,
    SEATS,
    Message,
    Sync,
    parse,
)
from bridge.seats import Press, SeatView, press_id

SYNC_RETRY_S = 0.25  # SYNC again until the board says hello
COMMAND_RETRY_S = 0.1  # an unacknowledged command is sent again after this
HOST_BEAT_S = 0.3
BOARD_SILENT_S = 1.5  # no frame from the board this long: it is gone
OUT_OF_STEP_S = 1.0  # presses came and none was the one expected this long: ask the board where it is (sync)
REMEMBERED_PRESSES = 1024  # ids of published presses, to re-ack a copy whose ack was lost
OTHER_VERSION_FRAMES = 3  # frames of another protocol version, and no hello: the board runs another firmware
BEEP_LATE_S = 3.0  # a beep not sounded this long after its cause is dropped (the board away): its light stays


@dataclass(frozen=True)
class Restart:
    """The board started again (a reset, a power dip, its watchdog): boot ``boot`` began at ``at`` (host clock);
    ``held``: the presses waiting on it when last heard before (None: this host knew no boot of it before)."""

    board_id: int
    boot: int
    at: float
    held: int | None


@dataclass(frozen=True)
class Step:
    write: bytes = b""
    publish: list[Press] = field(default_factory=list)


@dataclass(frozen=True)
class Inflight:
    """The command sent and not yet acknowledged; ``key`` None for a beep."""

    seq: int
    key: tuple[str, str] | None
    value: object
    type: int
    frame: bytes
    sent: float


@dataclass
class Counters:
    corrupt: int = 0
    unknown: int = 0
    retransmits: int = 0
    board_dropped: int = 0  # presses the board lost, its queue full (its heartbeats' count, over its boots)


class HostLink:
    """The link's state; see the module docstring. Not thread-safe: one caller."""

    def __init__(self) -> None:
        self.counters = Counters()
        self.board: Hello | None = None
        self.heartbeat: Heartbeat | None = None
        self._splitter = Splitter()
        self._open = False
        self._synced = False
        self._last_rx: float | None = None
        self._sync_at: float | None = None
        self._beat_at: float | None = None
        self._beating_since: float | None = None  # since when this host's beats go out without a gap (a stall)
        self._out = bytearray()
        self._new: list[Press] = []
        self._pending: dict[str, int] = {}  # published, not yet confirmed: id -> board seq
        self._done: OrderedDict[str, None] = OrderedDict()
        self._views: dict[str, SeatView] = {}
        self._shown: dict[tuple[str, str], object] = {}  # what the board acknowledged
        self._beeps: list[tuple[float, Buzzer]] = []  # (when its cause came, the beeps)
        self._inflight: Inflight | None = None
        self._seq = 0
        self._turn = -1  # the turn (_turn) of the command sent last
        self._expected = 0  # the seq of the next press to publish (presses go out in the board's order)
        self._ahead_since: float | None = None  # a press came that is not the one expected, and none since that was
        self._board_ms = 0  # the board's clock in its latest frame: it goes back only when the board restarted
        self._dropped = 0  # the board's own count of dropped presses (u16, since its boot) in its latest heartbeat
        self._other = 0  # frames of another protocol version since the port opened or the last hello
        self.other_version: int | None = None  # the version a board of another firmware speaks, once sure
        self.deaf = False  # the board's heartbeats say it hears nothing from this host (it shows LoSt, takes no command)
        self.restarts: list[Restart] = []  # boots that began at a reset, new to this host, for the caller to say

    # -- inputs ----------------------------------------------------------------------------------

    def opened(self) -> None:
        """The port was (re)opened: resynchronise (the board may have rebooted meanwhile)."""
        self._open, self._synced, self._sync_at = True, False, None
        self._splitter = Splitter()
        self._other = 0
        self.deaf = False
        self._forget_board()

    def closed(self) -> None:
        self._open = self._synced = False
        self._last_rx = None

    def received(self, data: bytes, now: float) -> None:
        self._beats_kept(now)
        for encoded in self._splitter.feed(data):
            try:
                seq, message = parse(decode(encoded))
            except FrameError as e:
                if isinstance(e, UnknownFrame):
                    self.counters.unknown += 1
                else:
                    self.counters.corrupt += 1
                if isinstance(e, OtherVersion):
                    self._other += 1
                    if self._other >= OTHER_VERSION_FRAMES and not self._synced:
                        self.other_version = e.version
                continue
            self._last_rx = now
            self._on(seq, message, now)

    def show(self, views: dict[str, SeatView]) -> None:
        """What the seats should show from now on (sent when it differs from what they show)."""
        self._views = dict(views)

    def beep(self, buzzer: Buzzer, now: float) -> None:
        """Beeps for what came at ``now`` (a violation shown); dropped unsounded after BEEP_LATE_S (the board away:
        once back, its red light says it; a beep then, minutes after, would say nothing)."""
        self._beeps.append((now, buzzer))

    def published(self, press_id_: str) -> None:
        """The broker has the press: acknowledge it to the board."""
        seq = self._pending.pop(press_id_, None)
        if seq is not None and press_id(self.board.board_id, self.board.boot, seq) == press_id_:  # not a boot before
            self._remember(press_id_)
            self._send(Ack(Button.TYPE), seq)

    # -- outputs ---------------------------------------------------------------------------------

    def take(self, now: float) -> Step:
        """The bytes to write and the presses to publish, now."""
        if self._open and not self._synced and (self._sync_at is None or now - self._sync_at >= SYNC_RETRY_S):
            self._send(Sync())
            self._sync_at = now
        if self._synced and self._ahead_since is not None and now - self._ahead_since >= OUT_OF_STEP_S:
            self._send(Sync())  # its hello says the board's boot and first press again (a hello lost on the line)
            self._ahead_since = None
        self._beats_kept(now)
        if self._open and (self._beat_at is None or now - self._beat_at >= HOST_BEAT_S):
            self._send(HostBeat())
            self._beat_at = now
        if self._synced:
            self._command(now)
        step = Step(bytes(self._out), self._new)
        self._out.clear()
        self._new = []
        return step

    def online(self, now: float) -> bool:
        """The board said hello since the port opened, spoke within BOARD_SILENT_S and hears this host."""
        return self._synced and not self.deaf and self._last_rx is not None and now - self._last_rx < BOARD_SILENT_S

    # -- internals -------------------------------------------------------------------------------

    def _on(self, seq: int, message: Message, now: float) -> None:
        if isinstance(message, (Heartbeat, Button)):
            if message.board_ms < self._board_ms and self._synced:  # it restarted and its hello was lost
                self._synced, self._sync_at = False, None  # its presses wait for the hello a sync brings
            self._board_ms = message.board_ms
        if isinstance(message, Hello):
            if message != self.board or not self._synced:
                self._forget_board()  # a reboot, or a new port: show everything again
            if self.board is None or (message.board_id, message.boot) != (self.board.board_id, self.board.boot):
                self._dropped = 0  # a board or boot new to this host: its count is all news
                if message.reset:
                    held = (self.heartbeat or self.board).queued if self.board else None
                    self.restarts.append(Restart(message.board_id, message.boot, now - message.board_ms / 1000, held))
                    self.heartbeat = None  # the last boot's
            self.board, self._synced, self._expected = message, True, message.first
            self._other, self.deaf = 0, False
            self._ahead_since, self._board_ms = None, message.board_ms
            self._skip_known()
        elif isinstance(message, Heartbeat):
            self.heartbeat = message
            if self._synced:  # of the boot the hello named (one of a board restarted unseen unsynced it above)
                self.counters.board_dropped += (message.dropped - self._dropped) & 0xFFFF
                self._dropped = message.dropped
            # the link down on its side BOARD_SILENT_S after this host's beats (and syncs) went out again (not a beat
            # sent while this host stalled, read late) and after the hello, if any (not a boot's first beat before ours)
            since_hello = (message.board_ms - self.board.board_ms) & 0xFFFFFFFF if self._synced else None
            self.deaf = not message.link_up and now - self._beating_since >= BOARD_SILENT_S \
                and (since_hello is None or since_hello >= BOARD_SILENT_S * 1000)
        elif isinstance(message, Button) and self._synced:
            self._on_press(seq, message, now)
        elif isinstance(message, Ack) and self._inflight and self._inflight.seq == seq \
                and self._inflight.type == message.acked:
            if self._inflight.key is not None:
                self._shown[self._inflight.key] = self._inflight.value
            else:
                self._beeps.pop(0)
            self._inflight = None

    def _on_press(self, seq: int, button: Button, now: float) -> None:
        """Presses are published in the board's order: one after a lost frame waits for the
        lost one, which the board sends again (every unacknowledged press, oldest first)."""
        pid = press_id(self.board.board_id, self.board.boot, seq)
        if pid in self._done:
            self._send(Ack(Button.TYPE), seq)  # our ack was lost: the board sent it again
        elif pid not in self._pending and seq == self._expected:
            self._pending[pid] = seq
            age = max(0, button.board_ms - button.pressed_ms) / 1000
            self._new.append(Press(pid, button.seat, button.button, round(now - age, 3)))
            self._ahead_since = None
            self._skip_known()
        elif pid not in self._pending and self._ahead_since is None:
            self._ahead_since = now  # the expected one's frame was damaged (it comes again), or a hello was

    def _skip_known(self) -> None:
        """Move the expected seq past the presses already published (their copies come again
        after a repeated hello)."""
        def known(seq: int) -> bool:
            pid = press_id(self.board.board_id, self.board.boot, seq)
            return pid in self._pending or pid in self._done

        while known(self._expected):
            self._expected = (self._expected + 1) & 0xFFFF

    def _beats_kept(self, now: float) -> None:
        """Note a gap in this host's beats (the bridge stalled, or its port away): the board rightly lost it."""
        if self._beat_at is None or now - self._beat_at > 2 * HOST_BEAT_S:
            self._beating_since = now

    def _forget_board(self) -> None:
        self._shown.clear()
        self._inflight = None

    def _remember(self, pid: str) -> None:
        self._done[pid] = None
        while len(self._done) > REMEMBERED_PRESSES:
            self._done.popitem(last=False)

    def _command(self, now: float) -> None:
        """Stop and wait: one command in flight, sent again until acknowledged: byte for byte (the board applies a
        seq once: a beep sounds once), but a display or light as the seat's view is then, if that differs (a running
        clock, a new ``board/out``), under a new seq (applied again it changes nothing else; the first bytes, got
        through a line broken for seconds, showed a running clock that late)."""
        if self._inflight is not None and self._inflight.key is None and now - self._beeps[0][0] > BEEP_LATE_S:
            self._inflight = None  # the beep in flight, too late now
            self._beeps.pop(0)
        inflight = self._inflight
        if inflight is not None:
            if now - inflight.sent < COMMAND_RETRY_S:
                return
            self.counters.retransmits += 1
            if (view := inflight.key and self._views.get(inflight.key[1])) is not None:
                value, command = (view, view.display(now)) if inflight.key[0] == "display" \
                    else (view.light, view.light_command())
                if encode(command.frame(inflight.seq)) != inflight.frame:
                    self._issue(inflight.key, value, command, now)
                    return
            self._out += inflight.frame
            self._inflight = replace(inflight, sent=now)
            return
        while self._beeps and now - self._beeps[0][0] > BEEP_LATE_S:
            self._beeps.pop(0)
        due = self._due(now)
        if due is not None:
            self._issue(*due, now)

    def _issue(self, key: tuple[str, str] | None, value: object, command: Display | Light | Buzzer, now: float) -> None:
        self._turn = _turn(key)
        self._seq = (self._seq + 1) & 0xFFFF
        frame = encode(command.frame(self._seq))
        self._out += frame
        self._inflight = Inflight(self._seq, key, value, command.TYPE, frame, now)

    def _due(self, now: float) -> tuple[tuple[str, str] | None, object, Display | Light | Buzzer] | None:
        """What differs from what the board acknowledged, each in its turn (every seat's display, every light, the
        beeps): the first after the one sent last. So a flood of ``board/out``, every display new each moment,
        still leaves every light and beep its turn."""
        due = [(("display", s), v, v.display(now)) for s, v in self._views.items()
               if self._shown.get(("display", s)) != v]
        due += [(("light", s), v.light, v.light_command()) for s, v in self._views.items()
                if self._shown.get(("light", s)) != v.light]
        if self._beeps:
            due.append((None, self._beeps[0][1], self._beeps[0][1]))
        return next((d for d in due if _turn(d[0]) > self._turn), due[0] if due else None)

    def _send(self, message: Sync | HostBeat | Ack, seq: int = 0) -> None:
        self._out += encode(message.frame(seq))

    def __repr__(self) -> str:
        board = f"board{self.board.board_id} boot {self.board.boot}" if self.board else "no board"
        return (f"<HostLink {board} synced={self._synced} pending={len(self._pending)}"
                f" corrupt={self.counters.corrupt} unknown={self.counters.unknown}>")


def _turn(key: tuple[str, str] | None) -> int:
    """A command's place in the round of turns: the displays S E N W, the lights S E N W, a beep."""
    return 2 * len(SEATS) if key is None else ("display", "light").index(key[0]) * len(SEATS) + SEATS.index(key[1])
