"""Whether the service hears its table, and the ``health`` it publishes so that a table that stopped or hears nothing
does not look well.

Liveness: every ``HEALTH_S`` the worker publishes ``health`` (retained): when it last handled an
input, what waits, what it refused (every input answered ``rejected``: malformed, or refused by the rules), dropped or
clamped, senders' clocks that are off, a problem in words (and as data, which the console says in its reader's
language), and the log's witness (also written beside the log: ``witness.py``). The console takes a table whose health
stopped coming as stalled.

Hearing: the service hears its table while every session of its own is connected and not silent. A session is silent
when its link was cut without a word (a switch or a Wi-Fi dropping packets, which looks connected for a keepalive and
more): the broker has not answered its probe (``bus.mqtt``'s ``hears``: an MQTT ping, sent once it heard nothing for
``PROBE_S``) within ``bus.mqtt.ANSWER_S``. The health says ``deaf`` :data:`HEAR_AGAIN_S` after a session last heard the
broker (within 10 s of a cut), and the sessions' keepalive of ``KEEPALIVE_S`` has paho end the connection and the
broker publish the will (``offline``) within 8 s. While the service does not hear its table, and for
:data:`HEAR_AGAIN_S` after it hears it again, time rules nothing (``deadlines.py``) and an input's time is not taken
for live (``guard.py``'s ``clocks_off``).

The computer's clock stepping while the service runs is said in its log, not in its health: the table referees on
its own time (:class:`~referee.table.steady.SteadyClock`).
"""

from __future__ import annotations

import logging
import math
import time

from bus.mqtt import RECONNECT_DELAY_S
from bus.protocol import encode
from referee.table import witness
from referee.table.steady import STEP_S, SteadyClock

log = logging.getLogger("referee.table.service")  # the service's one logger, whichever of its parts speaks

HEALTH_S = 2.0  # between two health messages
# After its sessions were away, time rules nothing for this long: a sender reconnects by itself (waiting up to the
# longest retry of ``bus.mqtt``), then sends what it kept meanwhile.
HEAR_AGAIN_S = RECONNECT_DELAY_S[1] + 1.0


class HealthMixin:
    """How :class:`~referee.table.service.TableService` knows whether it hears its table, and says how it is (its
    state is the service's, set in its ``__init__``)."""

    def health(self) -> dict:
        """The ``health`` payload now (see the module's docstring and ``schemas/health.json``): a problem in the words
        of the logs (``problem``) and, with it, as data (``problem_why``: a key of the catalogue's ``health`` section and
        its values, which the console says in its reader's language)."""
        head = self.log.head or self.log.chain()[:2]
        problem, why = (self.problem, self.problem_why) if self.problem else self._deaf()
        return {
            "v": 1, "at": self.clock(), "every": self.health_s, "seq": head[0], "chain": head[1].hex(),
            "input_at": self._input_at, "waiting": self._queue.qsize(), "rejected": self.rejected,
            "dropped": dict(self.guard.dropped), "clamped": dict(self.guard.clamped),
            "clocks_off": self.guard.clocks_off(), "problem": problem,
        } | ({"problem_why": why} if why else {})

    def _deaf(self) -> tuple[str | None, dict | None]:
        """A session of the service's senders not hearing the broker for a while (not connected, or silent: its link
        cut without a word; its inputs wait at the broker, and time rules nothing meanwhile): said (in words and as data), so that the table does not look healthy while it hears
        nothing; (None, None) while it hears."""
        self._hearing()
        since = self._deaf_since
        if since is None or time.monotonic() - since < HEAR_AGAIN_S:
            return None, None
        seconds, down = round(time.monotonic() - since), [conn.client_id for conn in self.intake if not conn.hears()]
        text = f"not connected to the broker for {seconds} s: {', '.join(down) or 'a session'}; its inputs wait there, and no clock rules"
        return text, {"key": "deaf", "values": {"seconds": seconds, "sessions": down}}

    def _hearing(self) -> float | None:
        """Since when (the service's clock) every session of the service has heard the broker without a break
        (connected, not silent); None while one does not (what the seats do then may not reach the table)."""
        sessions = tuple((conn.hears(), conn.connects) for conn in self.intake)
        if sessions != self._sessions:
            self._sessions = sessions
            self._heard = self.clock() if all(hears for hears, _ in sessions) else None
            if self._heard is not None:
                self._deaf_since = None
            elif self._deaf_since is None:  # since the deaf sessions last heard the broker
                now = time.monotonic()
                self._deaf_since = min(min(conn.heard() or now, now) for conn in self.intake if not conn.hears())
        return self._heard

    def _answered(self, deadline: float) -> bool:
        """Whether every session heard the broker since the worker found ``deadline`` due (each is probed then): a
        link cut silently looks connected a while, and time must not rule on the inputs it no longer carries."""
        if self._asked is None or self._asked[0] != deadline:
            self._asked = (deadline, time.monotonic())
        late = [conn for conn in self.intake if (conn.heard() or -math.inf) < self._asked[1]]
        for conn in late:
            conn.probe()
        return not late

    def _live(self, name: str, arrived: float) -> bool:
        """Whether an input ``name`` that ``arrived`` came as it was sent: the service had heard its table, and
        its device had been back online (its last logged presence going ``online``), long enough (:data:`HEAR_AGAIN_S`)
        for nothing kept from before to come (inputs waiting in the broker, a bridge's presses kept while its link was
        down). A device back with no presence change logged is not seen; this only feeds ``clocks_off``."""
        device = "board" if name == "board/in" else "camera"
        since = max(self._heard if self._heard is not None else math.inf, self._back.get(device, -math.inf))
        return arrived >= since + HEAR_AGAIN_S

    def _clock_moved(self) -> None:
        """The computer's clock stepped while the service ran (:class:`SteadyClock`): said in the service's log, once
        a step, not ruled on. Not a problem of its health (the table referees on its own time: it is not stalled);
        a camera or board on this computer then stamps its inputs by the stepped clock, which the health's
        ``clocks_off`` shows."""
        moved = self.clock.moved() if isinstance(self.clock, SteadyClock) else 0.0
        if abs(moved - self._moved_told) >= STEP_S:
            self._moved_told = moved
            log.warning("table %s: the computer's clock moved %+.0f s while the service ran; the table keeps its own "
                        "time (started again at a break, it takes the computer's)", self.table_id, moved)

    def _publish_health(self) -> None:
        """Publish ``health`` and note the witness beside the log (when it moved)."""
        self._health_due = time.monotonic() + self.health_s
        self._clock_moved()
        try:
            payload = self.health()
            self._publish("health", encode("health", payload, validate=self.check_outputs), retain=True)
            if payload["seq"] != self._witnessed:
                w = witness.Witness(self.table_id, payload["seq"], payload["chain"])
                witness.write_file(witness.sidecar(self.db_path), w)
                self._witnessed = payload["seq"]
        except Exception:
            log.exception("table %s: publishing the health failed", self.table_id)
        dropped = sum(self.guard.dropped.values())
        if dropped > self._dropped_told:
            self._dropped_told = dropped
            log.warning("table %s: inputs over their sender's pace, dropped so far: %s", self.table_id,
                        ", ".join(f"{k} {v}" for k, v in sorted(self.guard.dropped.items())))
