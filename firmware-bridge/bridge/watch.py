"""The bridge's watchdog: a main loop that stops turning must not leave the board ``online``.

The loop can block for ever (a write to a log nobody reads: the journal stuck, a terminal paused with Ctrl-S; a
wedged USB adapter; a deadlock) while paho's network thread keeps the broker connection alive with its pings: the
broker sends the last will only when the connection dies, so ``board/status`` said ``online`` while no press went
through and none was acknowledged to the board. :class:`Watch`, a thread of its own, ends the process when the loop
has not turned for ``HUNG_S``: it says so in words (for at most ``SAY_S``: the log may be what hangs) and exits with
``FAILED`` without a goodbye, so the broker publishes the will (``offline``: the table's clocks stand still) and the
hall's unit starts the bridge again; the presses the board holds are replayed to the new one. A process stopped
whole (SIGSTOP, a frozen machine) is the broker's keepalive's: ``bridge.run.KEEPALIVE_S``.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from cardtable.lang import FAILED
from referee.catalogue import cli_lang, say

log = logging.getLogger("bridge")

HUNG_S = 5.0  # the loop turns every 0.5 s at most (a write waits 1 s at most): this long without a turn is a hang
SAY_S = 1.0  # how long the words may take before the process ends anyway


class Watch:
    """``with Watch(table) as watch:`` around the loop, ``watch.turn()`` on every turn."""

    def __init__(self, table: str, hung_s: float = HUNG_S):
        self.table, self.hung_s = table, hung_s
        self.turned = time.monotonic()
        self._done = threading.Event()

    def turn(self) -> None:
        self.turned = time.monotonic()

    def __enter__(self) -> Watch:
        self.turn()
        threading.Thread(target=self._watch, name="bridge-watch", daemon=True).start()
        return self

    def __exit__(self, *_) -> None:
        self._done.set()

    def _watch(self) -> None:
        """Counts the time the loop stood still while this thread ran: a gap longer than two of its waits is this
        thread stopped too (SIGSTOP, a suspended machine), the whole process and not its loop, counted as two."""
        every = self.hung_s / 10
        seen, stood, checked = self.turned, 0.0, time.monotonic()
        while not self._done.wait(every):
            now = time.monotonic()
            stood = 0.0 if self.turned != seen else stood + min(now - checked, 2 * every)
            seen, checked = self.turned, now
            if stood >= self.hung_s:
                saying = threading.Thread(target=self._say, args=(stood,), daemon=True)
                saying.start()
                saying.join(SAY_S)
                os._exit(FAILED)

    def _say(self, stood: float) -> None:
        log.error(say(cli_lang(), "bridge.loop_hung", table=self.table, seconds=f"{stood:.0f}"))
