"""The host's side of the link as a pure state machine, time passed in: resynchronising, one
command in flight and sent again until acknowledged, a press published once and acknowledged to
the board only once the broker has it, a rebooted board shown everything again."""

from __future__ import annotations

from bridge.frames import Splitter, decode, encode
from bridge.host import COMMAND_RETRY_S, HostLink, Restart
from bridge.messages import NO_CLOCK, Ack, Button, Display, Heartbeat, Hello, HostBeat, Light, Sync, parse
from bridge.seats import SeatView


def sent(write: bytes, beats: bool = False) -> list:
    """(seq, message) of each frame written; the host's heartbeats left out unless ``beats``."""
    messages = [parse(decode(piece)) for piece in Splitter().feed(write)]
    return [m for m in messages if beats or m[1] != HostBeat()]


def synced(board_id: int = 3, boot: int = 1, first: int = 1) -> HostLink:
    link = HostLink()
    link.opened()
    link.take(now=0.0)
    link.received(encode(Hello(board_id, boot, 2, 0, 0, 0, first, 100, True).frame()), now=0.1)
    return link


def view(seat: str, clock: float | None = 9.0, light: str = "green") -> SeatView:
    return SeatView(seat, clock, 0.0, clock is not None, 30, light)


def test_sync_until_the_board_says_hello():
    link = HostLink()
    link.opened()
    assert sent(link.take(now=0.0).write, beats=True) == [(0, Sync()), (0, HostBeat())]
    assert sent(link.take(now=0.1).write, beats=True) == []
    assert sent(link.take(now=0.3).write, beats=True) == [(0, Sync()), (0, HostBeat())]
    link.received(encode(Hello(3, 1, 2, 0, 0, 0, 1, 100, True).frame()), now=0.35)
    assert link.online(now=0.4) and not link.online(now=2.0)
    assert sent(link.take(now=0.6).write, beats=True) == [(0, HostBeat())]


def test_one_command_in_flight_sent_again_until_acknowledged():
    link = synced()
    link.show({"N": SeatView("N", 9.0, 0.0, False, 30, "green")})  # a clock standing still
    first = sent(link.take(now=0.2).write)
    assert first == [(1, Display(2, 90, 30, False))]
    assert sent(link.take(now=0.2 + COMMAND_RETRY_S / 2).write) == []
    again = link.take(now=0.2 + COMMAND_RETRY_S).write
    assert sent(again) == first  # the same frame, the same seq
    link.received(encode(Ack(Display.TYPE).frame(1)), now=0.35)
    assert sent(link.take(now=0.35).write) == [(2, Light(2, 1))]
    link.received(encode(Ack(Light.TYPE).frame(2)), now=0.36)
    assert sent(link.take(now=0.37).write) == []  # the board shows what it should
    assert link.counters.retransmits == 1


def test_a_running_clock_goes_again_as_it_is_then():
    """A display sent again went byte for byte: through a line broken for seconds, the board showed a running clock
    as it was when first sent, seconds behind the table's, and a new ``board/out`` waited behind it. It now goes as the
    seat's view is then, under a new seq (the board applies a seq once); the first copy's ack, come late, is not the
    new one's."""
    link = synced()
    link.show({"N": view("N")})
    assert sent(link.take(now=0.2).write) == [(1, Display(2, 88, 30, True))]  # 9.0 s made at 0.0, now 0.2
    assert sent(link.take(now=5.2).write) == [(2, Display(2, 38, 30, True))]  # 5 s later: as it is now
    link.show({"N": SeatView("N", 4.0, 5.2, False, 30, "green")})  # the table's clocks stopped meanwhile
    assert sent(link.take(now=5.35).write) == [(3, Display(2, 40, 30, False))]  # the seat as it is now
    assert sent(link.take(now=5.5).write) == [(3, Display(2, 40, 30, False))]  # standing still: byte for byte
    link.received(encode(Ack(Display.TYPE).frame(1)), now=5.55)
    assert sent(link.take(now=5.55).write) == []
    link.received(encode(Ack(Display.TYPE).frame(3)), now=5.55)
    assert sent(link.take(now=5.55).write) == [(4, Light(2, 1))]


def test_a_board_that_hears_nothing_is_not_online():
    """Its heartbeats say the link down: it shows ``LoSt`` and takes no command (test_faults: the real firmware).
    Not its first beat after a reset, sent before the host's first frame came (1.5 s after its hello, it is), nor a
    beat sent while this host stalled, read late (the board lost it rightly, and hears it again)."""
    def beat(board_ms: int, link_up: bool) -> bytes:
        return encode(Heartbeat(board_ms, 0, link_up, 0, 0, 0).frame())

    link = synced()  # the hello at board ms 100
    link.received(beat(600, False), now=0.2)
    assert link.online(now=0.3) and not link.deaf
    for now in (0.3, 0.6, 0.9, 1.2, 1.5, 1.8):  # this host's beats go out
        link.take(now)
    link.received(beat(1800, False), now=1.8)
    assert link.deaf and not link.online(now=1.9)
    link.received(beat(2300, True), now=2.1)
    assert link.online(now=2.1)
    link.received(beat(4500, False), now=4.3)  # no beat went out for 2.5 s: this host stalled
    assert link.online(now=4.3) and not link.deaf


def test_an_ack_of_another_seq_or_type_changes_nothing():
    link = synced()
    link.show({"S": view("S", None, "off")})
    link.take(now=0.2)
    link.received(encode(Ack(Display.TYPE).frame(7)) + encode(Ack(Light.TYPE).frame(1)), now=0.25)
    assert sent(link.take(now=0.2 + COMMAND_RETRY_S).write) == [(1, Display(0, NO_CLOCK, 30, False))]


def test_a_press_is_published_once_and_acked_after_the_broker_has_it():
    link = synced(board_id=3, boot=31, first=87)
    press = encode(Button(2, 0, 1000, 1250).frame(87))
    link.received(press + press, now=5.0)  # a retransmission
    step = link.take(now=5.0)
    assert [(p.id, p.seat, p.button, p.at) for p in step.publish] == [("board3-1f-000087", 2, 0, 4.75)]
    link.received(press, now=5.3)
    assert link.take(now=5.3).publish == []  # still on its way to the broker: no ack, no copy
    link.published("board3-1f-000087")
    assert (87, Ack(Button.TYPE)) in sent(link.take(now=5.4).write)
    link.received(press, now=5.6)  # the ack was lost: ack again, publish nothing
    step = link.take(now=5.6)
    assert step.publish == [] and (87, Ack(Button.TYPE)) in sent(step.write)


def test_a_press_before_hello_waits_for_it():
    link = HostLink()
    link.opened()
    link.received(encode(Button(0, 1, 10, 10).frame(1)), now=1.0)
    assert link.take(now=1.0).publish == []


def test_a_rebooted_board_is_shown_everything_again():
    link = synced(boot=1)
    link.show({"E": view("E", None, "red")})
    link.take(now=0.2)
    link.received(encode(Ack(Display.TYPE).frame(1)), now=0.21)
    link.take(now=0.22)
    link.received(encode(Ack(Light.TYPE).frame(2)), now=0.23)
    assert sent(link.take(now=0.24).write) == []
    link.received(encode(Hello(3, 2, 2, 0, 0, 0, 1, 100, True).frame()), now=1.0)  # boot 2
    assert sent(link.take(now=1.0).write)[-1] == (3, Display(1, NO_CLOCK, 30, False))


def test_presses_are_published_in_the_boards_order():
    link = synced(board_id=1, boot=2, first=5)
    five, six = (encode(Button(0, n, 100, 100).frame(seq)) for n, seq in ((0, 5), (1, 6)))
    link.received(six, now=1.0)  # five's frame was lost on the line: six waits for it
    assert link.take(now=1.0).publish == []
    link.received(five + six, now=1.25)  # the board sends every unacknowledged press again, oldest first
    assert [p.id for p in link.take(now=1.25).publish] == ["board1-2-000005", "board1-2-000006"]


def test_a_second_hello_publishes_nothing_twice():
    link = synced(board_id=1, boot=1, first=5)
    five, six = (encode(Button(0, n, 100, 100).frame(seq)) for n, seq in ((0, 5), (1, 6)))
    link.received(five + six, now=1.0)
    assert len(link.take(now=1.0).publish) == 2
    # the answer to a repeated sync: the board still holds both (not yet acknowledged) and resends them
    link.received(encode(Hello(1, 1, 2, 0, 0, 2, 5, 100, True).frame()) + five + six, now=1.1)
    assert link.take(now=1.1).publish == []
    link.received(encode(Button(2, 7, 100, 100).frame(7)), now=1.2)
    assert [p.id for p in link.take(now=1.2).publish] == ["board1-1-000007"]


def test_presses_out_of_step_for_a_second_ask_the_board_where_it_is():
    """PROTOCOL.md: after its 65,535th press the board says a new boot (hello) and numbers from 1 again. A hello
    damaged on the line left the host expecting press 0 of the old boot: every later press waited for ever."""
    link = synced(board_id=1, boot=1, first=65535)
    link.received(encode(Button(0, 1, 100, 100).frame(65535)), now=1.0)
    assert [p.id for p in link.take(now=1.0).publish] == ["board1-1-065535"]
    link.published("board1-1-065535")
    first_of_boot_2 = encode(Button(1, 1, 200, 200).frame(1))
    link.received(first_of_boot_2, now=1.2)  # its hello was lost
    assert link.take(now=1.2).publish == [] and (1, Ack(Button.TYPE)) not in sent(link.take(now=1.2).write)
    link.received(first_of_boot_2, now=1.45)  # the board sends it again every 250 ms
    assert (0, Sync()) not in sent(link.take(now=1.9).write)  # a damaged frame is mended within 250 ms: no sync
    assert (0, Sync()) in sent(link.take(now=2.2).write)
    link.received(encode(Hello(1, 2, 2, 0, 0, 1, 1, 200, False).frame()) + first_of_boot_2, now=2.25)
    assert [p.id for p in link.take(now=2.25).publish] == ["board1-2-000001"]


def test_a_board_restarted_unseen_is_not_taken_for_the_boot_it_had():
    """A board that restarted (its clock went back) while its hello was lost numbers its presses from 1 again: the
    host took press 1 for a copy of the old boot's press 1 and acknowledged it, and the press was lost."""
    link = synced(board_id=1, boot=1, first=1)
    link.received(encode(Button(0, 1, 1000, 1000).frame(1)), now=1.0)
    assert [p.id for p in link.take(now=1.0).publish] == ["board1-1-000001"]
    link.published("board1-1-000001")
    link.take(now=1.0)
    link.received(encode(Heartbeat(5000, 0, True, 0, 0, 0, 0).frame()), now=5.0)
    again = encode(Button(2, 0, 150, 200).frame(1))  # boot 2's first press; its hello was lost
    link.received(again, now=5.3)
    step = link.take(now=5.3)
    assert step.publish == [] and (1, Ack(Button.TYPE)) not in sent(step.write) and (0, Sync()) in sent(step.write)
    link.received(encode(Hello(1, 2, 2, 0, 0, 1, 1, 190, True).frame()) + again, now=5.4)
    assert [(p.id, p.seat) for p in link.take(now=5.4).publish] == [("board1-2-000001", 2)]


def test_a_press_of_a_boot_before_a_reset_is_not_acknowledged_to_the_next():
    """PROTOCOL.md: a press is acknowledged to the board once the broker has it. A press of boot 1 published just
    before the board restarted, its broker's confirmation coming after boot 2's hello, was acknowledged by its seq
    alone: boot 2's press of that number was taken off the board unpublished, lost. The restart is said (when)."""
    link = synced(board_id=1, boot=1, first=1)
    link.received(encode(Heartbeat(900, 1, True, 0, 0, 0, 0).frame()) + encode(Button(0, 1, 900, 950).frame(1)),
                  now=1.0)
    assert [p.id for p in link.take(now=1.0).publish] == ["board1-1-000001"]
    link.received(encode(Hello(1, 2, 2, 0, 0, 1, 1, 300, True).frame()), now=2.0)  # reset; boot 2's press 1 waits
    link.take(now=2.0)
    link.published("board1-1-000001")
    assert (1, Ack(Button.TYPE)) not in sent(link.take(now=2.05).write)
    assert link.restarts[-1] == Restart(1, 2, 1.7, 1)


def test_displays_new_at_every_command_leave_the_lights_and_beeps_their_turn():
    """A ``board/out`` before every acknowledgement (a flood), each making every display new: the displays went out
    again and again and the light and the beep never did. Each command now comes in its turn after the last sent."""
    from bridge.seats import VIOLATION_BEEP

    link = synced()
    link.beep(VIOLATION_BEEP, now=0.2)
    types = []
    for n in range(1, 11):
        now = 0.2 + n / 100
        link.show({s: SeatView(s, 30.0 - now, now, True, 9, "red" if s == "W" else "off") for s in "SENW"})
        [(seq, command)] = sent(link.take(now=now).write)
        types.append(type(command).__name__)
        link.received(encode(Ack(command.TYPE).frame(seq)), now=now)
    assert types == ["Display"] * 4 + ["Light"] * 4 + ["Buzzer", "Display"], types


def test_a_beep_the_board_cannot_sound_in_time_is_dropped():
    """A beep sent again and again to a board that does not hear: dropped once ``BEEP_LATE_S`` after its cause."""
    from bridge.seats import VIOLATION_BEEP

    link = synced()
    link.beep(VIOLATION_BEEP, now=0.2)
    assert sent(link.take(now=0.2).write) == [(1, VIOLATION_BEEP)]
    assert sent(link.take(now=3.0).write) == [(1, VIOLATION_BEEP)]  # again, byte for byte
    assert sent(link.take(now=3.3).write) == []  # 3 s after its cause and not heard: too late
