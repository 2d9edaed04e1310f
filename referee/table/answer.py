"""A console command's answer on the bus: the table took it (an ``applied`` event, the command's ``id`` and
``command``, after the events it caused) or refused it (the ``rejected`` event its rules gave it). The console says a
command done only on one of them (``display.routers.tables.send``); the service publishes it (``TableService._apply``)
and ``cardtable table events`` tells it again as it was said (``retell.py``).

>>> from referee.table.reducer import Output
>>> took = answered("commands", {"v": 1, "id": "c1", "command": "last_hand"}, 7, 10.0, [])
>>> [(o.payload["kind"], o.payload["seq"], o.payload["data"]) for o in took]
[('applied', 7, {'id': 'c1', 'command': 'last_hand'})]
>>> no = Output("events", {"v": 1, "seq": 7, "kind": "rejected", "at": 10.0,
...                        "data": {"topic": "commands", "id": "c1", "reason": "no"}})
>>> answered("commands", {"v": 1, "id": "c1", "command": "last_hand"}, 7, 10.0, [no]) == [no]
True
>>> answered("observed", {"v": 1, "id": "cam-1", "seat": "S", "cards": ["S9"]}, 8, 11.0, [])  # a camera's: no answer
[]
>>> answered("commands", {"command": "start_round"}, 9, 12.0, [])  # logged without an id (by hand, a tool): none
[]
"""

from __future__ import annotations

from referee.table.reducer import Output


def answered(name: str, payload: dict, seq: int, at: float, outputs: list[Output]) -> list[Output]:
    """The ``outputs`` of input ``name`` (``payload``, log entry ``seq``, applied at the table's time ``at``), and
    after them the ``applied`` event of a console command the table did not refuse."""
    refused = [o.payload["data"] for o in outputs if o.name == "events" and o.payload["kind"] == "rejected"]
    if name != "commands" or "id" not in payload or any((r.get("topic"), r.get("id")) == (name, payload["id"])
                                                        for r in refused):
        return outputs
    data = {"id": payload["id"], "command": payload.get("command")}
    return [*outputs, Output("events", {"v": 1, "seq": seq, "kind": "applied", "at": at, "data": data})]
