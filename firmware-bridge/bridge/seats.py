"""The table service's payloads on the board: ``board/out`` to the seats' displays and lights
(and a beep when a violation is shown), a press to ``board/in``; what the seats show while the table's referee is
gone (``gone_views``). Pure functions.

>>> out = {"v": 1, "at": 100.0, "paused": False, "seats": {
...     "S": {"clock": None, "on_turn": False, "cards": 30, "light": "off"},
...     "E": {"clock": None, "on_turn": False, "cards": 29, "light": "off"},
...     "N": {"clock": 8.5, "on_turn": True, "cards": 30, "light": "green"},
...     "W": {"clock": None, "on_turn": False, "cards": 30, "light": "red", "message": "超时警告"}}}
>>> views = seat_views(out, now=101.0)
>>> views["N"], views["N"].display(now=101.2)
(SeatView(seat='N', clock=7.5, made_at=101.0, running=True, cards=30, light='green', gone=False), Display(seat=2, clock_ds=73, cards=30, running=1))
>>> gone_views(now=120.0, shows_gone=True)["N"].display(now=130.0)
Display(seat=2, clock_ds=4294967295, cards=255, running=2)
>>> gone_views(now=120.0, shows_gone=False)["N"].display(now=130.0)
Display(seat=2, clock_ds=4294967295, cards=255, running=0)
>>> alerts(None, out)
[Buzzer(beeps=2, on_ms=150, off_ms=100)]
>>> board_in(Press("board3-1f-000087", 2, 0, 1767261601.05))
{'v': 1, 'id': 'board3-1f-000087', 'seat': 'N', 'button': 'ready', 'at': 1767261601.05}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bridge.messages import (
    BUTTONS,
    LIGHTS,
    NO_CARDS,
    NO_CLOCK,
    REFEREE_GONE,
    SEATS,
    Buzzer,
    Display,
    Light,
)

VIOLATION_BEEP = Buzzer(beeps=2, on_ms=150, off_ms=100)


@dataclass(frozen=True)
class SeatView:
    """What one seat shows: ``clock`` seconds left at ``made_at`` (host clock), counting down
    when ``running``; ``gone``: that the table's referee is gone (firmware 2.2.0's ``rEF GonE``)."""

    seat: str
    clock: float | None
    made_at: float
    running: bool
    cards: int | None
    light: str
    gone: bool = False

    def display(self, now: float) -> Display:
        """The display command, the clock brought to ``now``."""
        if self.gone:
            return Display(SEATS.index(self.seat), NO_CLOCK, NO_CARDS, REFEREE_GONE)
        if self.clock is None:
            clock_ds = NO_CLOCK
        else:
            left = self.clock - (max(0.0, now - self.made_at) if self.running else 0.0)
            clock_ds = min(NO_CLOCK - 1, round(max(0.0, left) * 10))
        cards = NO_CARDS if self.cards is None else min(self.cards, NO_CARDS)  # 255 and up: not shown (a count kept secret)
        return Display(SEATS.index(self.seat), clock_ds, cards, int(self.running))

    def light_command(self) -> Light:
        return Light(SEATS.index(self.seat), LIGHTS.index(self.light))


def seat_views(board_out: dict[str, Any], now: float, made_at: float | None = None) -> dict[str, SeatView]:
    """Each seat's view from a valid ``board/out`` payload received at ``now`` (the wall clock; ``made_at``: the same
    moment on the clock the views are shown by, a monotonic one, else ``now``). A clock runs unless the table is paused;
    the time since the payload was made (``at``, the service's clock) is taken off, so a retained payload read late
    shows the clock as it is now."""
    paused = board_out["paused"]
    age = max(0.0, now - board_out["at"])
    made_at = now if made_at is None else made_at
    views = {}
    for seat in SEATS:
        s = board_out["seats"][seat]
        running = s["clock"] is not None and not paused
        clock = s["clock"] if s["clock"] is None or not running else max(0.0, s["clock"] - age)
        views[seat] = SeatView(seat, clock, made_at, running, s["cards"], s["light"])
    return views


def blank_views(now: float) -> dict[str, SeatView]:
    """Every seat dark: nothing to show (no ``board/out`` yet)."""
    return {seat: SeatView(seat, None, now, False, None, "off") for seat in SEATS}


def gone_views(now: float, shows_gone: bool) -> dict[str, SeatView]:
    """Every seat while the table's referee (its table service) is gone: no clock runs (a shot clock nobody rules must
    not run out and buzz), the lights amber (waiting for the referee, as for a flag); ``rEF GonE`` on a board that
    ``shows_gone`` (firmware 2.2.0), else the displays dark."""
    return {seat: SeatView(seat, None, now, False, None, "amber", shows_gone) for seat in SEATS}


def alerts(before: dict[str, Any] | None, after: dict[str, Any]) -> list[Buzzer]:
    """The beeps a new ``board/out`` calls for: a seat's light turning red (a violation shown)."""
    def red(payload: dict[str, Any] | None) -> set[str]:
        return {s for s in SEATS if payload and payload["seats"][s]["light"] == "red"}

    return [VIOLATION_BEEP] if red(after) - red(before) else []


@dataclass(frozen=True)
class Press:
    """A press to publish: its ``board/in`` id, seat and button numbers, when (the host's clock given to
    :class:`~bridge.host.HostLink`: ``bridge run`` dates it by the wall clock as it publishes it)."""

    id: str
    seat: int
    button: int
    at: float


def press_id(board_id: int, boot: int, seq: int) -> str:
    """The ``board/in`` id of a press: the same for every copy of it, unique across boots.

    >>> press_id(3, 31, 87)
    'board3-1f-000087'
    """
    return f"board{board_id}-{boot:x}-{seq:06d}"


def board_in(press: Press) -> dict[str, Any]:
    return {"v": 1, "id": press.id, "seat": SEATS[press.seat], "button": BUTTONS[press.button],
            "at": round(press.at, 3)}
