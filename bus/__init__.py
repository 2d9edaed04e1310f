"""The bus: the MQTT contract every process of a hall speaks, and nothing else.

camera (``vision``) -> bus -> table service (``referee.table``) -> bus -> scoreboard and console
(``display``), the board bridge (``bridge``) and the tournament service (``referee.tournament``)
beside them. No process imports another across this line: each imports the contract from here.

- :mod:`bus.protocol`: the tables' topics and payloads as code (``topic``, ``decode``, ``encode``),
  checked against the JSON Schemas in ``schemas/``; ``PROTOCOL.md`` is the same contract for people;
- :mod:`bus.tournament`: the tournament's topics (``round``, ``standings``, ``schemas/tournament/``);
- :mod:`bus.fastcheck`: the schemas compiled to plain Python, the yes/no answer fast;
- :mod:`bus.mqtt`: the client, one connection that survives the broker going away;
- :mod:`bus.broker`: a real mosquitto, its configuration, users and ACL (the hall's policy);
- :mod:`bus.credentials`: the broker's address and each program's password, never on a command line;
- :mod:`bus.firmware`: the board firmware the release ships (the bridge and the console say an older one);
- :mod:`bus.pace`: a sender's pace (a token bucket);
- :mod:`bus.lock`: one sender per table (a bridge, a camera): a lock file per role, table and broker, or at a path
  of the caller's (a table service's log, a display's console file, a venue's enrolment folder).

The bus knows the kernel's cards and rulebook names (a payload's cards and rulebook are checked), and
nothing of the engines, the services, vision or the display. Nothing is imported here, so each part
loads on its own (the credentials need no paho, the broker no jsonschema).
"""
