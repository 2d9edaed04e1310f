"""Fixtures of the display tests (helpers in kit.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kit import Table, Tournament


@pytest.fixture
def table(connect):
    """``table(name)``: a publisher of that table's outputs, as its service."""
    made: dict[str, Table] = {}  # one connection per table's user

    def make(name: str) -> Table:
        if name not in made:
            made[name] = Table(connect, name)
        return made[name]

    return make


@pytest.fixture
def tournament(connect):
    return Tournament(connect)
