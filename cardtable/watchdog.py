"""A service that stops working must not look online: the board bridge's ``board/status`` and the camera's
``camera/status``, whose last will is ``offline``.

A service's main loop can block for ever (a write to a log nobody reads: the journal stuck, a terminal paused with
Ctrl-S; a wedged device; a library call stuck; a deadlock) while paho's network thread keeps its broker connection
alive with pings: the broker sends the last will only when the connection dies, so the presence said ``online``
while nothing went through. :class:`Watchdog`, a thread of its own, ends the process when the loop has not turned for
its ``hung_s``: it says so in words (for at most ``SAY_S``: the log may be what hangs) and exits with ``FAILED``
without a goodbye, so the broker publishes the will and the machine's unit starts the service again. A process
stopped whole (SIGSTOP, a frozen machine) stops its watchdog too, and paho's pings: the broker drops it, and
publishes its will, once it has heard nothing for 1.5 times the connection's keepalive, ``KEEPALIVE_S`` (9 to 12 s
measured with mosquitto 2.0.11; 47 s with paho's 30 s); let go on, it reconnects, and its watchdog does not take the
stop for its loop's hang.

A hang that holds the interpreter's lock (a C call that never lets it go) stops the watchdog's thread too, and nothing
in the process can end it: each turn of the loop also tells the process's supervisor that it lives (:func:`beat`, at
most every ``PING_S``): ``WATCHDOG=1`` to ``$NOTIFY_SOCKET``, systemd's notify protocol, one unix datagram (``@`` first:
an abstract name). A supervisor that hears nothing for longer than the service's hung limit kills it and starts it
again: systemd by the unit's ``WatchdogSec=`` (``hall.setup``), ``cardtable hall`` by its own socket (``hall.procs``).
Without ``$NOTIFY_SOCKET`` nothing is sent.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable

from cardtable.lang import FAILED

KEEPALIVE_S = 5  # the broker connection's keepalive of a service with a presence (table service, camera, bridge)
SAY_S = 1.0  # how long the words may take before the process ends anyway
NOTIFY = "NOTIFY_SOCKET"  # where the supervisor hears that the process lives (systemd's sd_notify)
PING_S = 1.0  # at most one ``WATCHDOG=1`` this often


def notify(message: str) -> bool:
    """``message`` (e.g. ``WATCHDOG=1``) to the supervisor at ``$NOTIFY_SOCKET``, never blocking; False when there is
    none or it cannot take it (not there, its queue full): the service goes on either way."""
    where = os.environ.get(NOTIFY, "")
    if not where.startswith(("/", "@")):
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC | socket.SOCK_NONBLOCK) as sock:
            sock.sendto(message.encode(), "\0" + where[1:] if where.startswith("@") else where)
    except OSError:
        return False
    return True


_beaten: float | None = None  # monotonic, when it last said so; None: not yet in this process


def beat() -> None:
    """The loop turned: ``WATCHDOG=1`` to the supervisor, at most every ``PING_S``; the first also says ``READY=1``
    (a unit of ``Type=notify`` counts its ``WatchdogSec=`` from then: a long start is not a hang)."""
    global _beaten
    now = time.monotonic()
    if _beaten is not None and now - _beaten < PING_S:
        return
    if notify("WATCHDOG=1" if _beaten is not None else "READY=1\nWATCHDOG=1"):
        _beaten = now  # not sent (the supervisor's queue full): tried again at the next turn


class Watchdog:
    """``with Watchdog(hung_s, hung) as dog:`` around the loop (or ``dog.start()`` and ``dog.stop()``), ``dog.turn()``
    on every turn; ``hung(seconds)`` says, in words, that the loop has not turned for ``seconds``, just before the
    process ends."""

    def __init__(self, hung_s: float, hung: Callable[[float], None], name: str = "watchdog"):
        self.hung_s, self.hung, self.name = hung_s, hung, name
        self.turned = time.monotonic()
        self._done = threading.Event()

    def turn(self) -> None:
        self.turned = time.monotonic()
        beat()

    def start(self) -> Watchdog:
        self.turn()
        threading.Thread(target=self._watch, name=self.name, daemon=True).start()
        return self

    def stop(self) -> None:
        self._done.set()

    def __enter__(self) -> Watchdog:
        return self.start()

    def __exit__(self, *_) -> None:
        self.stop()

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
                saying = threading.Thread(target=self.hung, args=(stood,), daemon=True)
                saying.start()
                saying.join(SAY_S)
                os._exit(FAILED)
