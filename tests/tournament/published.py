"""What the tournament service published, read by the tests: a table's result in the retained ``round``."""

from __future__ import annotations

import json
import time

from bus.tournament import topic

WAIT_S = 30.0  # the longest a wait for what must come (generous: a loaded machine)


def table_result(box, tournament: str, table: str, predicate, after: int = 0) -> dict | None:
    """The table's result in the first ``round`` of ``tournament`` published after the first ``after`` messages of
    ``box`` that satisfies ``predicate`` (waiting for it: a round published before the change the test waits for must
    not count)."""
    name = topic(tournament, "round")
    deadline = time.monotonic() + WAIT_S
    while True:
        for t, p in box.messages[after:]:
            if t == name and predicate(got := next(x["result"] for x in json.loads(p)["tables"] if x["table"] == table)):
                return got
        assert time.monotonic() < deadline, f"no round with the {table} result wanted: {box.messages[after:][-1:]}"
        time.sleep(0.05)
