"""The table board's bridge: the serial protocol of ``firmware-bridge/PROTOCOL.md`` and the
mapping of the board to the table service's ``board/in``, ``board/out`` and ``board/status``.

- :mod:`bridge.frames`: COBS, CRC-16/CCITT-FALSE, frame encoding and the stream splitter;
- :mod:`bridge.messages`: the message types and their bodies;
- :mod:`bridge.seats`: ``board/out`` to display, light and buzzer commands, presses to ``board/in``;
- :mod:`bridge.host`: the host's side of the link (sequence numbers, retransmission, acks);
- :mod:`bridge.run`: ``cardtable bridge run``, the serial port and MQTT around :mod:`bridge.host`;
- :mod:`bridge.referee`: whether the table's service referees (its ``status`` and ``health``), shown on the board;
- :mod:`bridge.virtual`: ``cardtable bridge virtual``, a board in software on a pseudo-terminal;
- :mod:`bridge.cli`: the ``cardtable bridge`` commands.
"""
