"""Seats and turn order, the same at every table.

Seats are ``S E N W`` and play goes counter-clockwise S -> E -> N -> W
(``shared/conformance/README.md``): a seat's 下家 is the next seat, its 上家 the one
before, its partner (对家) sits opposite.

>>> next_seat("W"), prev_seat("S"), partner("E"), team_of("N"), seats_from("N")
('S', 'W', 'W', 'SN', ('N', 'W', 'S', 'E'))
>>> next_seat("X")
Traceback (most recent call last):
...
ValueError: unknown seat 'X'; seats are S E N W
"""

from __future__ import annotations

SEATS = ("S", "E", "N", "W")
TEAMS = ("SN", "EW")


def check_seat(seat: str) -> str:
    """Return ``seat`` when it is one of S E N W; raise ValueError otherwise."""
    if not isinstance(seat, str) or seat not in SEATS:
        raise ValueError(f"unknown seat {seat!r}; seats are {' '.join(SEATS)}")
    return seat


def _at(seat: str, step: int) -> str:
    return SEATS[(SEATS.index(check_seat(seat)) + step) % 4]


def next_seat(seat: str) -> str:
    """The seat's 下家: the next to play."""
    return _at(seat, 1)


def prev_seat(seat: str) -> str:
    """The seat's 上家: the one that played just before it."""
    return _at(seat, 3)


def partner(seat: str) -> str:
    """The seat opposite (对家)."""
    return _at(seat, 2)


def team_of(seat: str) -> str:
    """``SN`` or ``EW``."""
    return TEAMS[SEATS.index(check_seat(seat)) % 2]


def seats_from(seat: str) -> tuple[str, ...]:
    """The four seats in turn order starting with ``seat``."""
    return tuple(_at(seat, k) for k in range(4))
