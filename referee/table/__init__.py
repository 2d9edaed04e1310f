"""The table service (issue 4): one table's referee runtime behind an MQTT broker.

- :mod:`referee.table.protocol`: the MQTT contract (topics, JSON Schemas in
  ``schemas/``, :func:`~referee.table.protocol.decode` / ``encode``); for people,
  ``referee/PROTOCOL.md``.
- :mod:`referee.table.log`: the append-only event log in SQLite that the service
  commits every input to before acting on it, and replays on start.

Nothing is imported here, so each part loads on its own (the log needs no jsonschema).
"""
