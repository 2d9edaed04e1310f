"""Frames on the board's serial line (``firmware-bridge/PROTOCOL.md``): a frame is a version byte,
a type byte, a 16-bit sequence number (little endian), a body and a CRC-16/CCITT-FALSE (big
endian, over everything before it), COBS-encoded and ended by a zero byte.

>>> raw = encode(Frame(0x11, 7, b""))
>>> raw
b'\\x04\\x02\\x11\\x07\\x03\\x84l\\x00'
>>> decode(raw[:-1])
Frame(type=0x11, seq=7, body=b'')
>>> decode(raw[:-2] + b"\\x01")
Traceback (most recent call last):
...
bridge.frames.CorruptFrame: CRC 0x8401, computed 0x846c
>>> splitter = Splitter()
>>> splitter.feed(raw[:4]), splitter.feed(raw[4:] + raw)
([], [b'\\x04\\x02\\x11\\x07\\x03\\x84l', b'\\x04\\x02\\x11\\x07\\x03\\x84l'])
"""

from __future__ import annotations

from dataclasses import dataclass

VERSION = 2  # the protocol's version, in every frame (PROTOCOL.md "Versions")
HEADER = 4  # version, type, seq
CRC_BYTES = 2
MAX_RAW = 32  # the longest frame (header, body, CRC) either side sends or accepts
MAX_ENCODED = MAX_RAW + 2  # COBS adds one byte per 254, plus the leading code byte


class FrameError(ValueError):
    """A frame that is not acted on; the receiver counts it and drops it."""


class CorruptFrame(FrameError):
    """Bad COBS, too short or too long, or a CRC that does not match."""


class UnknownFrame(FrameError):
    """A well-formed frame of another protocol version, an unknown type, or a body of the wrong size."""


class OtherVersion(UnknownFrame):
    """A well-formed frame of another protocol version: the other side runs another firmware or bridge."""

    def __init__(self, version: int) -> None:
        super().__init__(f"protocol version {version}, not {VERSION}")
        self.version = version


@dataclass(frozen=True)
class Frame:
    type: int
    seq: int
    body: bytes

    def __repr__(self) -> str:
        return f"Frame(type=0x{self.type:02x}, seq={self.seq}, body={self.body!r})"


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial 0xFFFF, no reflection, no final xor.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no zero byte.

    >>> cobs_encode(b"\\x11\\x00\\x00\\x22")
    b'\\x02\\x11\\x01\\x02"'
    """
    out = bytearray([0])
    code_at, code = 0, 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at, code = len(out), 1
            out.append(0)
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:
            out[code_at] = code
            code_at, code = len(out), 1
            out.append(0)
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """The inverse of :func:`cobs_encode`; raises :class:`CorruptFrame` for an invalid encoding.

    >>> cobs_decode(b'\\x02\\x11\\x01\\x02"')
    b'\\x11\\x00\\x00"'
    >>> cobs_decode(b"\\x05\\x11")
    Traceback (most recent call last):
    ...
    bridge.frames.CorruptFrame: COBS block of 4 bytes at 1 runs past the end (1 left)
    """
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0:
            raise CorruptFrame(f"zero byte at {i} inside a frame")
        block = data[i + 1 : i + code]
        if len(block) < code - 1:
            raise CorruptFrame(f"COBS block of {code - 1} bytes at {i + 1} runs past the end ({len(block)} left)")
        if 0 in block:
            raise CorruptFrame(f"zero byte at {i + 1 + block.index(0)} inside a frame")
        out += block
        i += code
        if code != 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


def encode(frame: Frame) -> bytes:
    """The bytes on the line for ``frame``, the zero delimiter included."""
    if not 0 <= frame.type <= 0xFF or not 0 <= frame.seq <= 0xFFFF:
        raise ValueError(f"type or seq out of range: {frame!r}")
    if HEADER + len(frame.body) + CRC_BYTES > MAX_RAW:
        raise ValueError(f"body of {len(frame.body)} bytes is too long: {frame!r}")
    raw = bytes([VERSION, frame.type]) + frame.seq.to_bytes(2, "little") + frame.body
    return cobs_encode(raw + crc16(raw).to_bytes(2, "big")) + b"\0"


def decode(encoded: bytes) -> Frame:
    """One frame from the bytes between two zero delimiters. Raises :class:`CorruptFrame` when
    the bytes were damaged, :class:`UnknownFrame` for another protocol version."""
    if len(encoded) > MAX_ENCODED:
        raise CorruptFrame(f"{len(encoded)} bytes, longer than any frame ({MAX_ENCODED})")
    raw = cobs_decode(encoded)
    if len(raw) < HEADER + CRC_BYTES:
        raise CorruptFrame(f"{len(raw)} bytes, shorter than any frame ({HEADER + CRC_BYTES})")
    got, want = int.from_bytes(raw[-CRC_BYTES:], "big"), crc16(raw[:-CRC_BYTES])
    if got != want:
        raise CorruptFrame(f"CRC 0x{got:04x}, computed 0x{want:04x}")
    if raw[0] != VERSION:
        raise OtherVersion(raw[0])
    return Frame(raw[1], int.from_bytes(raw[2:4], "little"), raw[HEADER:-CRC_BYTES])


class Splitter:
    """Cuts a byte stream into frames at the zero bytes; keeps the unfinished tail. A run longer
    than any frame is cut short and handed on as it is (its decode fails: counted as corrupt)."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overlong = False

    def feed(self, data: bytes) -> list[bytes]:
        frames = []
        for chunk_end, part in _parts(data):
            if not self._overlong:
                self._buf += part
            if len(self._buf) > MAX_ENCODED:
                self._buf = self._buf[: MAX_ENCODED + 1]
                self._overlong = True
            if chunk_end:
                if self._buf:
                    frames.append(bytes(self._buf))
                self._buf.clear()
                self._overlong = False
        return frames

    def __repr__(self) -> str:
        return f"Splitter(pending={len(self._buf)})"


def _parts(data: bytes) -> list[tuple[bool, bytes]]:
    """``data`` cut at its zero bytes: (ends a frame, bytes) pairs."""
    pieces = data.split(b"\0")
    return [(True, p) for p in pieces[:-1]] + [(False, pieces[-1])]
