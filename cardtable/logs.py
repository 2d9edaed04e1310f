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


class Lasting:
    """A failure that may repeat at every step of a loop, said once while it lasts: ``new(what)`` is true the first
    time ``what`` fails (or when it fails otherwise), ``over()`` true when a failure that was said has ended.

    >>> f = Lasting()
    >>> [f.new("refused"), f.new("refused"), f.new("timed out")], f.over(), f.over()
    ([True, False, True], True, False)
    """

    def __init__(self) -> None:
        self.what: str | None = None

    def __repr__(self) -> str:
        return f"Lasting({self.what!r})"

    def new(self, what: str) -> bool:
        said, self.what = what != self.what, what
        return said

    def over(self) -> bool:
        was, self.what = self.what is not None, None
        return was


__all__ = ["FORMAT", "Lasting", "setup_logging"]
