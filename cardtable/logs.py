"""One logging set-up for every process of a hall: the table service, the tournament service, the camera, the
board bridge, the display and the hall's own processes write the same lines, so that a hall's logs read alike.

A line is the time, the level, the logger (the module that speaks) and the message, on the standard error:

>>> record = logging.makeLogRecord({"name": "referee.table.service", "levelno": logging.WARNING,
...                                 "levelname": "WARNING", "msg": "table %s: the broker went away", "args": ("t07",)})
>>> logging.Formatter(FORMAT.replace("%(asctime)s", "12:00:00,000")).format(record)
'12:00:00,000 WARNING referee.table.service: table t07: the broker went away'
"""

from __future__ import annotations

import logging

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def setup_logging(level: int | str = logging.INFO) -> None:
    """Every record of ``level`` and above, one line each (:data:`FORMAT`), to the standard error."""
    logging.basicConfig(level=level, format=FORMAT)


__all__ = ["FORMAT", "setup_logging"]
