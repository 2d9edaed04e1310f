"""Tournament test helpers: logs written by hand (``hand_log``), replayed by the package; published.py reads what the
service published."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # published.py: what the tournament service published

from referee.tournament.actions import replay
from referee.tournament.systems import system


class HandLog:
    """A tournament log written action by action, as the store would write it."""

    def __init__(self, system_name: str, units: dict[str, str], lot: list[str] | None = None, options: dict | None = None,
                 teams: dict[str, str] | None = None):
        entries = [{"id": e, "name": e, "unit": u, "team": (teams or {}).get(e, u), "players": [f"{e}-1", f"{e}-2"]}
                   for e, u in units.items()]
        data = {"id": "golden", "name": "golden", "system": system_name, "seed": "golden",
                "options": system(system_name).options(options), "entries": entries, "lot": lot or list(units)}
        self.actions = [{"seq": 1, "kind": "new", "data": data, "by": "test", "at": 1000.0}]

    def add(self, kind: str, **data) -> HandLog:
        seq = len(self.actions) + 1
        self.actions.append({"seq": seq, "kind": kind, "data": data, "by": "test", "at": 1000.0 + seq})
        return self

    def pair(self, round_no: int, tables: list[tuple[str, ...]], byes: tuple[str, ...] = ()) -> HandLog:
        return self.add("pair", round=round_no, byes=list(byes),
                        tables=[{"table": f"t{i:02d}", "entries": list(t)} for i, t in enumerate(tables, 1)])

    def results(self, round_no: int, *results: dict) -> HandLog:
        for i, r in enumerate(results, 1):
            self.add("result", round=round_no, table=f"t{i:02d}", result=r)
        return self

    def replay(self):
        return replay(self.actions)


@pytest.fixture
def hand_log():
    return HandLog
