r"""One logging set-up for every process of a hall: the table service, the tournament service, the camera, the
board bridge, the display and the hall's own processes write the same lines, so that a hall's logs read alike.

A line is the time, the level, the logger (the module that speaks) and the message, on the standard error, and a
message is one line whatever it quotes: a line break or another control character that an input carried (a name, a
percent-encoded address) is written escaped, so no one can forge a line of the log (:class:`OneLine`):

>>> record = logging.makeLogRecord({"name": "referee.table.service", "levelno": logging.WARNING,
...                                 "levelname": "WARNING", "msg": "table %s: the broker went away", "args": ("t07",)})
>>> OneLine(FORMAT.replace("%(asctime)s", "12:00:00,000")).format(record)
'12:00:00,000 WARNING referee.table.service: table t07: the broker went away'
>>> record = logging.makeLogRecord({"name": "display", "levelname": "INFO", "msg": "refused %s",
...                                 "args": ("/x\n12:00:00,000 INFO display: 王 logged in\x00",)})
>>> OneLine("%(name)s: %(message)s").format(record)
'display: refused /x\\n12:00:00,000 INFO display: 王 logged in\\x00'
"""

from __future__ import annotations

import logging
import re

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


# C0 and C1 controls but the tab, and the Unicode line and paragraph separators: what could end or rewrite a line
_BREAKS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


class OneLine(logging.Formatter):
    """A formatter whose message is one line: its control characters written as Python writes them in a string
    (``\\n``, ``\\x00``). A traceback, which the formatter adds after the message, keeps its lines."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = _BREAKS.sub(lambda m: repr(m.group())[1:-1], record.message)
        return super().formatMessage(record)


def setup_logging(level: int | str = logging.INFO) -> None:
    """Every record of ``level`` and above, one line each (:data:`FORMAT`, :class:`OneLine`), to the standard error."""
    handler = logging.StreamHandler()
    handler.setFormatter(OneLine(FORMAT))
    logging.basicConfig(level=level, handlers=[handler])


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


__all__ = ["FORMAT", "Lasting", "OneLine", "setup_logging"]
