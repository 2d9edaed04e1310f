"""The board firmware this release ships, known on both sides of the bus: the bridge says a board of an older one in
its log (``bridge.messages.lacks``), the console says it on the table's row (``board/status``'s ``firmware``).

The same as ``firmware-bridge/firmware/board.h``'s ``FW_MAJOR``, ``FW_MINOR``, ``FW_PATCH`` (tests/hil holds them equal).

>>> SHIPPED
'2.2.0'
"""

FIRMWARE = (2, 2, 0)
SHIPPED = ".".join(map(str, FIRMWARE))  # as ``board/status`` writes a firmware
