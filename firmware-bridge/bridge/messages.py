"""The messages of the board's serial protocol (``firmware-bridge/PROTOCOL.md``) and their bodies
(little endian, fields in the order given). :func:`parse` reads a :class:`~bridge.frames.Frame`;
each message's ``frame(seq)`` writes one.

>>> parse(Display(seat=2, clock_ds=85, cards=30, running=1).frame(5))
(5, Display(seat=2, clock_ds=85, cards=30, running=1))
>>> parse(Frame(0x21, 9, b"\\x07\\x01"))
Traceback (most recent call last):
...
bridge.frames.UnknownFrame: Light: seat 7 is not 0..3
"""

from __future__ import annotations

import struct
from dataclasses import astuple, dataclass, fields
from typing import ClassVar

from bridge.frames import Frame, UnknownFrame
from bus.firmware import FIRMWARE

SEATS = ("S", "E", "N", "W")
BUTTONS = ("ready", "pass", "confirm", "referee", "bid1", "bid2", "bid3", "declare")
LIGHTS = ("off", "green", "amber", "red")
NO_CLOCK = 0xFFFFFFFF
NO_CARDS = 0xFF
STUCK_S = 5.0  # a key held down this long is stuck (firmware/board.h STUCK_MS): a press is well under a second
REFEREE_GONE = 2  # a display's running byte: the table's referee is gone, no clock runs, "rEF GonE" (firmware 2.2.0)
SHOWS_GONE = (2, 2, 0)  # the first firmware that takes REFEREE_GONE (an older one counts it unknown: never sent it)
# what each 2.x release mended: bridge.mended.*
MENDED = (((2, 0, 1), "held_at_boot"), ((2, 1, 0), "stuck_shown"), (SHOWS_GONE, "referee_gone"))


def lacks(firmware: tuple[int, int, int]) -> list[str]:
    """What a board of ``firmware`` lacks of the shipped one (``bus.firmware``): the releases after it, by what they
    mended (``MENDED``).

    >>> lacks((2, 0, 0)), lacks((2, 1, 0)), lacks(FIRMWARE), lacks((2, 3, 0))
    (['held_at_boot', 'stuck_shown', 'referee_gone'], ['referee_gone'], [], [])
    """
    return [mended for release, mended in MENDED if firmware < release <= FIRMWARE]


def keys(bits: int) -> list[tuple[str, str]]:
    """The (seat, button) of each key set in ``bits`` (bit seat * 8 + button, a heartbeat's ``stuck``).

    >>> keys(1 << 8 | 1 << 1)
    [('S', 'pass'), ('E', 'ready')]
    """
    return [(SEATS[k // 8], BUTTONS[k % 8]) for k in range(32) if bits >> k & 1]


class _Wire:
    """A message: ``TYPE`` byte, body ``FORMAT`` (struct), the dataclass fields in body order,
    and ``LIMITS``: field -> how many values it may take (checked on reading)."""

    TYPE: ClassVar[int]
    FORMAT: ClassVar[str] = "<"
    LIMITS: ClassVar[dict[str, int]] = {}

    @classmethod
    def unpack(cls, body: bytes):
        values = struct.unpack(cls.FORMAT, body)
        for f, value in zip(fields(cls), values):
            if value >= cls.LIMITS.get(f.name, 1 << 32):
                raise UnknownFrame(f"{cls.__name__}: {f.name} {value} is not 0..{cls.LIMITS[f.name] - 1}")
        return cls(*(bool(v) if f.type == "bool" else v for f, v in zip(fields(cls), values)))

    def pack(self) -> bytes:
        return struct.pack(self.FORMAT, *astuple(self))

    def frame(self, seq: int = 0) -> Frame:
        """The frame of this message with sequence number ``seq``."""
        return Frame(self.TYPE, seq, self.pack())


@dataclass(frozen=True)
class Hello(_Wire):
    """Board to host, at boot and in answer to :class:`Sync`: the boot began ``board_ms`` ago (the board's clock
    counts from its reset) at a reset (``reset``), or when the last boot's press numbers ran out (not)."""

    TYPE: ClassVar[int] = 0x01
    FORMAT: ClassVar[str] = "<HHBBBBHIB"
    LIMITS: ClassVar[dict[str, int]] = {"reset": 2}
    board_id: int
    boot: int
    major: int
    minor: int
    patch: int
    queued: int
    first: int  # the seq of the oldest press waiting, else of the next press
    board_ms: int
    reset: bool

    @property
    def version(self) -> tuple[int, int, int]:
        return self.major, self.minor, self.patch

    @property
    def firmware(self) -> str:
        return ".".join(map(str, self.version))


@dataclass(frozen=True)
class Heartbeat(_Wire):
    """Board to host every 500 ms: its clock, presses waiting, link state, frames and presses it dropped, the keys
    held down ``STUCK_MS`` or longer (bit seat * 8 + button)."""

    TYPE: ClassVar[int] = 0x02
    FORMAT: ClassVar[str] = "<IBBHHHI"
    board_ms: int
    queued: int
    link_up: bool
    corrupt: int
    unknown: int
    dropped: int
    stuck: int = 0


@dataclass(frozen=True)
class Button(_Wire):
    """Board to host: a press (the frame's seq is the press's number since boot), sent until acked."""

    TYPE: ClassVar[int] = 0x03
    FORMAT: ClassVar[str] = "<BBII"
    LIMITS: ClassVar[dict[str, int]] = {"seat": len(SEATS), "button": len(BUTTONS)}
    seat: int
    button: int
    pressed_ms: int
    board_ms: int  # the board's clock when this copy was sent


@dataclass(frozen=True)
class Ack(_Wire):
    """Either way: the frame of type ``acked`` with the frame's seq arrived."""

    TYPE: ClassVar[int] = 0x04
    FORMAT: ClassVar[str] = "<B"
    acked: int


@dataclass(frozen=True)
class Sync(_Wire):
    """Host to board on opening the port: forget the host's last seq, say hello, resend every press."""

    TYPE: ClassVar[int] = 0x10


@dataclass(frozen=True)
class HostBeat(_Wire):
    """Host to board every 300 ms: the host is there (the board shows the link lost after 1.5 s)."""

    TYPE: ClassVar[int] = 0x11


@dataclass(frozen=True)
class Display(_Wire):
    """Host to board: a seat's clock (tenths of a second, counting down when ``running`` is 1) and cards; ``running``
    ``REFEREE_GONE`` (firmware 2.2.0): the table's referee is gone, the seat shows so and no clock runs."""

    TYPE: ClassVar[int] = 0x20
    FORMAT: ClassVar[str] = "<BIBB"
    LIMITS: ClassVar[dict[str, int]] = {"seat": len(SEATS), "running": REFEREE_GONE + 1}
    seat: int
    clock_ds: int
    cards: int
    running: int


@dataclass(frozen=True)
class Light(_Wire):
    """Host to board: a seat's turn light (0 off, 1 green, 2 amber, 3 red)."""

    TYPE: ClassVar[int] = 0x21
    FORMAT: ClassVar[str] = "<BB"
    LIMITS: ClassVar[dict[str, int]] = {"seat": len(SEATS), "light": len(LIGHTS)}
    seat: int
    light: int


@dataclass(frozen=True)
class Buzzer(_Wire):
    """Host to board: ``beeps`` beeps of ``on_ms``, ``off_ms`` apart."""

    TYPE: ClassVar[int] = 0x22
    FORMAT: ClassVar[str] = "<BHH"
    beeps: int
    on_ms: int
    off_ms: int


Message = Hello | Heartbeat | Button | Ack | Sync | HostBeat | Display | Light | Buzzer
TYPES = {m.TYPE: m for m in (Hello, Heartbeat, Button, Ack, Sync, HostBeat, Display, Light, Buzzer)}


def parse(frame: Frame) -> tuple[int, Message]:
    """``(seq, message)`` of a frame; :class:`UnknownFrame` for an unknown type or a bad body."""
    kind = TYPES.get(frame.type)
    if kind is None:
        raise UnknownFrame(f"unknown frame type 0x{frame.type:02x}")
    if len(frame.body) != struct.calcsize(kind.FORMAT):
        raise UnknownFrame(f"{kind.__name__}: body of {len(frame.body)} bytes, not {struct.calcsize(kind.FORMAT)}")
    return frame.seq, kind.unpack(frame.body)
