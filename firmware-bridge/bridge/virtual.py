"""``cardtable bridge virtual``: the table board in software on a pseudo-terminal, for the demo
and for people without the hardware. It speaks the firmware's side of ``PROTOCOL.md`` the way
``firmware/link.c`` does (presses kept until acknowledged, commands applied once, clocks counting
down, ``LoSt`` without the host, ``rEF GonE`` while the host says the table's referee is gone). Type ``N ready`` (a seat and a button) and Enter to press.

>>> board = VirtualBoard(board_id=9)
>>> board.press("N", "ready", now_ms=1000)
True
>>> from bridge.messages import parse
>>> from bridge.frames import Splitter, decode
>>> [parse(decode(p)) for p in Splitter().feed(board.take(now_ms=1001))][:2]
[(0, Hello(board_id=9, boot=1, major=2, minor=2, patch=0, queued=1, first=1, board_ms=1001, reset=True)), (1, Button(seat=2, button=0, pressed_ms=1000, board_ms=1001))]
>>> board.render(now_ms=1001)
'S[    LoSt off] E[    LoSt off] N[    LoSt off] W[    LoSt off] 连接断开'
>>> VirtualBoard(board_id=9, lang="en").render(now_ms=1001).endswith("W[    LoSt off] link lost")
True
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bridge.frames import FrameError, Splitter, UnknownFrame, decode, encode
from bus.firmware import FIRMWARE
from referee.catalogue import cli_lang, say, word
from bridge.messages import (
    BUTTONS,
    LIGHTS,
    NO_CARDS,
    NO_CLOCK,
    REFEREE_GONE,
    SEATS,
    Ack,
    Button,
    Buzzer,
    Display,
    Heartbeat,
    Hello,
    HostBeat,
    Light,
    Sync,
    parse,
)

RETRY_MS = 250
HEARTBEAT_MS = 500
LINK_TIMEOUT_MS = 1500
TICK_MS = 100
EVENT_SLOTS = 32
LOCKOUT_MS = 20  # the firmware's debounce: a key's changes this close after one are ignored (board.h)


@dataclass
class _Event:
    seq: int
    seat: int
    button: int
    pressed_ms: int
    round: int  # which run of seqs 1..65535 it belongs to: the next run is a new boot
    sent_ms: int | None = None


class VirtualBoard:
    """The board's state, time (board milliseconds) passed in."""

    def __init__(self, board_id: int, boot: int = 1, lang: str = "zh", next_boot: Callable[[], int] | None = None):
        self.board_id, self.boot, self.lang = board_id, boot, lang  # lang: the language its lines are in
        self._next_boot = next_boot or (lambda: _after(self.boot))  # the EEPROM counter's next
        self.clock_ds = [NO_CLOCK] * 4
        self.running = [False] * 4
        self.gone = [False] * 4  # the host says the table's referee is gone: "rEF GonE", no clock runs
        self.cards = [NO_CARDS] * 4
        self.lights = [0] * 4
        self.beeps = 0
        self.corrupt = self.unknown = self.dropped = 0
        self._events: list[_Event] = []
        self._next_seq = 1
        self._press_round = self._boot_round = 0
        self._pressed: dict[tuple[str, str], int] = {}  # each key's last press (board ms)
        self._host_seq: int | None = None
        self._host_ms: int | None = None
        self._beat_ms: int | None = None
        self._tick_ms: int | None = None
        self._splitter = Splitter()
        self._out = bytearray()
        self._hello = True
        self._reset = True  # the boot began at a start (not when the last boot's seqs ran out)

    def press(self, seat: str, button: str, now_ms: int) -> bool:
        """A press of ``seat``'s ``button``; False when the queue is full (the press is lost, and counted). A key
        presses at most once in two lockouts (closed, then open, each change held ``LOCKOUT_MS``), as the firmware's
        debounce lets it: a press sooner is the contact bouncing, and nothing (so a flood typed in is a stuck
        button as the board would see it, not faster)."""
        key = (seat, button)
        if now_ms - self._pressed.get(key, now_ms - 2 * LOCKOUT_MS) < 2 * LOCKOUT_MS:
            return True
        self._pressed[key] = now_ms
        if len(self._events) == EVENT_SLOTS:
            self.dropped = (self.dropped + 1) & 0xFFFF  # u16 counters wrap, as the firmware's
            return False
        if self._next_seq > 0xFFFF:  # a u16 ran out: seqs never repeat within a boot (firmware/link.c)
            self._next_seq, self._press_round = 1, self._press_round + 1
        self._events.append(_Event(self._next_seq, SEATS.index(seat), BUTTONS.index(button), now_ms, self._press_round))
        self._next_seq += 1
        return True

    def link_up(self, now_ms: int) -> bool:
        return self._host_ms is not None and now_ms - self._host_ms < LINK_TIMEOUT_MS

    def received(self, data: bytes, now_ms: int) -> None:
        for piece in self._splitter.feed(data):
            try:
                seq, message = parse(decode(piece))
            except UnknownFrame:
                self.unknown = (self.unknown + 1) & 0xFFFF
                continue
            except FrameError:
                self.corrupt = (self.corrupt + 1) & 0xFFFF
                continue
            if not isinstance(message, (Sync, HostBeat, Ack, Display, Light, Buzzer)):
                self.unknown = (self.unknown + 1) & 0xFFFF  # a board's message: not for a board
                continue
            self._host_ms = now_ms
            self._on(seq, message)

    def _on(self, seq: int, message) -> None:
        if isinstance(message, Sync):
            self._host_seq, self._hello = None, True
            for event in self._events:
                event.sent_ms = None
        elif isinstance(message, Ack):
            self._events = [e for e in self._events if not (message.acked == Button.TYPE and e.seq == seq)]
        elif not isinstance(message, HostBeat):
            if seq != self._host_seq:
                self._apply(message)
            self._host_seq = seq
            self._out += encode(Ack(message.TYPE).frame(seq))

    def _apply(self, message: Display | Light | Buzzer) -> None:
        if isinstance(message, Display):
            self.gone[message.seat] = message.running == REFEREE_GONE
            self._clock_to(message.seat, message.clock_ds, message.running == 1)
            self.cards[message.seat] = message.cards
        elif isinstance(message, Light):
            self.lights[message.seat] = message.light
        else:
            self.beeps += message.beeps

    def take(self, now_ms: int) -> bytes:
        """What the board sends now (and the clocks' countdown)."""
        if self._events and self._events[0].round != self._boot_round:  # the last boot's presses are all acked
            self.boot, self._boot_round, self._hello = self._next_boot(), self._events[0].round, True
            self._reset = False
        if self._hello:
            first = self._events[0].seq if self._events else self._next_seq & 0xFFFF
            hello = Hello(self.board_id, self.boot, *FIRMWARE, len(self._events), first, now_ms, self._reset)
            self._out += encode(hello.frame())
            self._hello = False
        for event in self._events:
            if event.round != self._boot_round:
                break  # the next boot's presses wait until the last boot's are acknowledged
            if event.sent_ms is None or now_ms - event.sent_ms >= RETRY_MS:
                self._out += encode(Button(event.seat, event.button, event.pressed_ms, now_ms).frame(event.seq))
                event.sent_ms = now_ms
        if self._beat_ms is None or now_ms - self._beat_ms >= HEARTBEAT_MS:
            beat = Heartbeat(now_ms, len(self._events), self.link_up(now_ms), self.corrupt, self.unknown, self.dropped, 0)
            self._out += encode(beat.frame())
            self._beat_ms = now_ms
        self._count_down(now_ms)
        out = bytes(self._out)
        self._out.clear()
        return out

    def _count_down(self, now_ms: int) -> None:
        if self._tick_ms is None:
            self._tick_ms = now_ms
        while now_ms - self._tick_ms >= TICK_MS:
            self._tick_ms += TICK_MS
            for seat in range(4):
                if self.running[seat]:
                    self._clock_to(seat, self.clock_ds[seat] - 1, True)

    def _clock_to(self, seat: int, clock_ds: int, running: bool) -> None:
        """As the firmware's ``clock_to``: a clock counting down that reaches zero beeps once; one that comes at
        zero does not."""
        counting = self.running[seat]
        self.clock_ds[seat] = clock_ds
        self.running[seat] = running and clock_ds not in (NO_CLOCK, 0)
        self.beeps += counting and clock_ds == 0

    def render(self, now_ms: int) -> str:
        """One line: each seat's display (clock, cards or LoSt; rEF GonE while the referee is gone) and light."""
        up = self.link_up(now_ms)
        seats = []
        for i, seat in enumerate(SEATS):
            clock = "rEF " if self.gone[i] else "    " if self.clock_ds[i] == NO_CLOCK else _clock(self.clock_ds[i])
            right = "LoSt" if not up else "GonE" if self.gone[i] else "    " if self.cards[i] == NO_CARDS \
                else f"{self.cards[i]:4d}"
            seats.append(f"{seat}[{clock}{right} {LIGHTS[self.lights[i]]}]")
        return " ".join(seats) + ("" if up else " " + word(self.lang, "bridge.link_lost"))


def _clock(ds: int) -> str:
    """A clock of ``ds`` tenths as the firmware shows it (``render_clock``): seconds and tenths under 100 s, whole
    seconds under 10,000 s, then hours and minutes.

    >>> [_clock(85), _clock(54000), _clock(99999), _clock(100000), _clock(864000)]
    [' 8.5', '5400', '9999', ' 2.46', '24.00']
    """
    if ds < 1000:
        return f"{ds / 10:4.1f}"
    if ds < 100000:
        return f"{ds // 10:4d}"
    minutes = ds // 600
    return f"{min(minutes // 60, 99):2d}.{minutes % 60:02d}"


def _after(boot: int) -> int:
    """The boot counter after ``boot``: a u16 that goes from 65,535 to 1 (0 is never a boot)."""
    return (boot + 1) & 0xFFFF or 1


def next_boot(path: Path) -> int:
    """The boot counter of this start, kept in ``path`` as the firmware keeps it in EEPROM (up by one on every
    start, a u16): a board started again says a new ``boot``, so its presses' ids (``board{id}-{boot}-{seq}``)
    never repeat those a table logged before (a repeat is taken as already logged, and the press is lost).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "vtty.boot"
    >>> next_boot(p), next_boot(p), p.write_text("65535"), next_boot(p), p.write_text("junk"), next_boot(p)
    (1, 2, 5, 1, 4, 1)
    """
    try:
        boot = _after(int(path.read_text()))
    except (OSError, ValueError):
        boot = 1
    tmp = path.with_name(path.name + ".new")
    tmp.write_text(str(boot))
    os.replace(tmp, path)
    return boot


def serve(link: str, board_id: int) -> int:
    """Run a virtual board on a new pseudo-terminal, ``link`` a symlink to it, until SIGINT/SIGTERM."""
    master, slave = os.openpty()  # the slave stays open here: no hangup when the bridge closes it
    tty.setraw(slave)
    os.set_blocking(master, False)
    tmp = f"{link}.new"
    if os.path.lexists(tmp):
        os.unlink(tmp)
    os.symlink(os.ttyname(slave), tmp)
    os.replace(tmp, link)
    lang = cli_lang()
    print(say(lang, "bridge.virtual", board=board_id, tty=os.ttyname(slave), link=link), flush=True)
    stopping = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stopping.append(1))
    boots = Path(f"{link}.boot")
    board, start = VirtualBoard(board_id, next_boot(boots), lang, lambda: next_boot(boots)), time.monotonic()
    stdin = sys.stdin.fileno()
    inputs, shown, typed = [master, stdin], None, b""
    try:
        while not stopping:
            ready, _, _ = select.select(inputs, [], [], 0.01)
            now_ms = int((time.monotonic() - start) * 1000)
            if master in ready:
                board.received(os.read(master, 4096), now_ms)
            if stdin in ready:
                data = os.read(stdin, 4096)
                if not data:
                    inputs.remove(stdin)  # no more typing; keep serving
                *lines, typed = (typed + data).split(b"\n")
                for line in lines:
                    _command(board, line.decode(errors="replace"), now_ms)
            try:
                os.write(master, board.take(now_ms))
            except BlockingIOError:
                pass  # nobody reads the line: the bytes are lost, as on a real cable
            if (view := board.render(now_ms)) != shown:
                print(view, flush=True)
                shown = view
    finally:
        if os.path.islink(link):
            os.unlink(link)
        os.close(slave)
        os.close(master)
    return 0


def _command(board: VirtualBoard, line: str, now_ms: int) -> None:
    words = line.split()
    if len(words) != 2 or words[0] not in SEATS or words[1] not in BUTTONS:
        print(say(board.lang, "bridge.type_press", seats=" ".join(SEATS), buttons=" ".join(BUTTONS)), flush=True)
    elif not board.press(words[0], words[1], now_ms):
        print(word(board.lang, "bridge.queue_full"), flush=True)
