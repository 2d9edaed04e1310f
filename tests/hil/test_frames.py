"""The Python frame decoder against corruption (hypothesis and exhaustive): it acts on nothing
but a whole, canonical frame. Corruption that CRC-16/CCITT-FALSE always detects (any burst of up
to 16 bits) is rejected for every frame; every single-byte error on the line is rejected for one
frame of each message type; and for any bytes at all the decoder either rejects them or returns
the one frame that encodes to exactly those bytes."""

from __future__ import annotations

import pytest
from bridge.frames import (
    CRC_BYTES,
    HEADER,
    MAX_RAW,
    CorruptFrame,
    Frame,
    FrameError,
    Splitter,
    cobs_decode,
    cobs_encode,
    decode,
    encode,
)
from bridge.host import HostLink
from bridge.messages import (
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
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.hil

frames = st.builds(Frame, st.integers(0, 255), st.integers(0, 0xFFFF),
                   st.binary(max_size=MAX_RAW - HEADER - CRC_BYTES))
ONE_OF_EACH = [Hello(3, 31, 2, 0, 0, 2, 40, 5000, True).frame(), Heartbeat(123456, 3, True, 5, 6, 7, 1 << 9).frame(),
               Button(2, 7, 1000, 1200).frame(65535), Ack(3).frame(87), Sync().frame(), HostBeat().frame(),
               Display(1, 85, 30, True).frame(9), Light(3, 2).frame(1), Buzzer(2, 150, 100).frame(3)]


@given(frames)
def test_every_frame_survives_the_line(frame):
    encoded = encode(frame)
    assert encoded.endswith(b"\0") and 0 not in encoded[:-1]
    assert Splitter().feed(encoded) == [encoded[:-1]]
    assert decode(encoded[:-1]) == frame


@given(frames, st.data())
def test_every_burst_of_up_to_16_bits_is_rejected(frame, data):
    raw = cobs_decode(encode(frame)[:-1])
    width = data.draw(st.integers(1, 16))
    pattern = data.draw(st.integers(0, (1 << width) - 1)) | 1 | (1 << (width - 1))  # burst of exactly width bits
    start = data.draw(st.integers(0, len(raw) * 8 - width))
    bits = int.from_bytes(raw, "big") ^ (pattern << (len(raw) * 8 - start - width))
    damaged = bits.to_bytes(len(raw), "big")
    with pytest.raises(CorruptFrame):
        decode(cobs_encode(damaged))


def test_every_single_byte_error_on_the_line_is_rejected():
    for frame in ONE_OF_EACH:
        encoded = encode(frame)[:-1]
        for at in range(len(encoded)):
            for value in range(256):
                if value == encoded[at]:
                    continue
                damaged = encoded[:at] + bytes([value]) + encoded[at + 1 :]
                for piece in Splitter().feed(damaged + b"\0"):  # a zero cuts it in two: both must fail
                    with pytest.raises(FrameError):
                        decode(piece)


@settings(max_examples=500)
@given(st.binary(max_size=60))
def test_any_bytes_are_rejected_or_are_exactly_one_frame(data):
    try:
        frame = decode(data)
    except FrameError:
        return
    assert encode(frame) == data + b"\0"


@settings(max_examples=300)
@given(st.lists(st.binary(min_size=1, max_size=40), max_size=20))
def test_the_host_counts_every_bad_frame_and_acts_on_none(chunks):
    stream = b"\0".join(chunks) + b"\0"
    expected_bad = 0
    for piece in Splitter().feed(stream):
        try:
            parse(decode(piece))
        except FrameError:
            expected_bad += 1
    link = HostLink()
    link.opened()
    link.received(stream, now=1.0)
    assert link.counters.corrupt + link.counters.unknown == expected_bad
    if expected_bad == len(Splitter().feed(stream)):
        assert link.board is None and link.take(now=1.0).publish == []
