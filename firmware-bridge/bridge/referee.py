"""Whether the table's referee (its table service) is there, from its retained ``status`` and its ``health``
(``bus/PROTOCOL.md``), with the time passed in: while it is gone the bridge shows it on the board, where no clock
counts (:mod:`bridge.seats`' ``gone_views``), so that a table nobody referees never looks refereed.

Gone: its ``status`` says ``offline`` (it stopped, or the broker's last will: killed, its connection lost), its
``health`` has not come for ``SILENT_EVERIES`` times its ``every`` (hung, or this bridge cut off from the broker), or
its health says a problem (it cannot log inputs, cannot hear the table, is starting). Back with its next health
without a problem (a service started again publishes ``status`` ``online``, then its ``board/out``, then its health:
the board shows the table as it is then). A health is news when its ``at`` differs from the last one's (the broker's
retained copy, sent again on a reconnection, is not); the first one heard counts from its ``at`` where that is
earlier (a health retained by a service long dead). Before anything of the service is heard (none ever ran on this
broker) nothing is said gone: there is no ``board/out`` to show either.

>>> r = Referee()
>>> r.gone(0.0)
>>> r.health({"at": 100.0, "every": 2.0, "problem": None}, now=100.2); r.gone(105.0)
>>> r.gone(106.1)
('silent', {'seconds': '6'})
>>> r.health({"at": 106.5, "every": 2.0, "problem": None}, now=106.5); r.gone(106.5)
>>> r.status({"status": "offline"}); r.gone(106.6)
('offline', {})
>>> r.status({"status": "online"}); r.gone(106.7)
('no_health', {})
>>> r.health({"at": 106.5, "every": 2.0, "problem": None}, now=106.8); r.gone(106.8)  # the retained copy again
('no_health', {})
>>> r.health({"at": 107.0, "every": 2.0, "problem": "starting", "problem_why": {"key": "starting", "values": {}}}, now=107.0)
>>> r.gone(107.0)
('problem', {'problem': 'starting', 'why': {'key': 'starting', 'values': {}}})
>>> r.health({"at": 108.0, "every": 2.0, "problem": None}, now=108.0); r.gone(108.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SILENT_EVERIES = 3  # healths missed before the service counts as gone (the console's stalled table: 6 s at every 2 s)


@dataclass(frozen=True)
class Shown:
    """What the seats are to show: the referee ``gone`` (why, as :meth:`Referee.gone` says it) or not, whether as
    the board's ``rEF GonE`` (``as_word``: a board whose firmware takes it), and whether the referee ``turned`` gone or
    back (to be said; not when only the board changed)."""

    gone: tuple[str, dict[str, Any]] | None
    as_word: bool
    turned: bool


class Referee:
    """The service's presence as heard; see the module docstring. One caller."""

    def __init__(self) -> None:
        self._heard: float | None = None  # when (bridge clock) the last health that was news came
        self._at: float | None = None  # the last health's ``at``
        self._every = 0.0
        self._problem: tuple[str, dict] | None = None  # the last health's problem: its words and ``problem_why``
        self._offline = False
        self._known = False
        self._shown: tuple[bool, bool] | None = None  # (gone, as a word) the seats were last given

    def status(self, payload: dict[str, Any]) -> None:
        """A ``status``: ``offline`` is gone at once; ``online`` waits for a health."""
        self._known = True
        self._offline = payload["status"] == "offline"
        if self._offline:
            self._heard = None

    def health(self, payload: dict[str, Any], now: float, dated: float | None = None) -> None:
        """A ``health`` received at ``now`` (a monotonic clock, as every time here), ``dated`` by the wall clock (its
        ``at`` is the service's: the first one heard counts from it)."""
        self._known = True
        if payload["at"] == self._at:
            return
        first = self._at is None
        self._at, self._every = payload["at"], payload["every"]
        self._problem = payload["problem"] and (payload["problem"], payload.get("problem_why") or {})
        self._heard = now - max(0.0, (now if dated is None else dated) - payload["at"]) if first else now
        self._offline = False

    def gone(self, now: float) -> tuple[str, dict[str, Any]] | None:
        """Why the referee is gone (a key of the catalogue's ``bridge.gone`` and its values), None while it is there."""
        if not self._known:
            return None
        if self._offline:
            return "offline", {}
        if self._problem:
            return "problem", {"problem": self._problem[0], "why": self._problem[1]}
        if self._heard is None:
            return "no_health", {}
        if now - self._heard > SILENT_EVERIES * self._every:
            return "silent", {"seconds": f"{now - self._heard:.0f}"}
        return None

    def change(self, now: float, as_word: bool) -> Shown | None:
        """What the seats are to show now, when it differs from what they were last given (``as_word``: the board takes
        ``rEF GonE``); None when it does not (nor before anything was given while the referee is there).

        >>> r = Referee(); r.status({"status": "offline"})
        >>> r.change(1.0, as_word=False), r.change(2.0, as_word=False), r.change(3.0, as_word=True)
        (Shown(gone=('offline', {}), as_word=False, turned=True), None, Shown(gone=('offline', {}), as_word=True, turned=False))
        """
        gone = self.gone(now)
        shown = (gone is not None, gone is not None and as_word)
        if shown == self._shown or (self._shown is None and gone is None):
            return None
        turned = self._shown is None or shown[0] != self._shown[0]
        self._shown = shown
        return Shown(gone, shown[1], turned)
