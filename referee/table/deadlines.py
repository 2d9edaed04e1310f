"""A deadline of the table passing with no input: ruled by time, or shown.

When one of the table's deadlines passes on the service's clock with no input (``Table.next_deadline``: a shot clock
runs out, a late band applies, the round's notice or end comes), the worker wakes. If time rules something then
(``Table.rules_by``: a Guandan turn given up, a foul, a late side's penalty or forfeit), it logs a ``clock`` entry
stamped with its clock (:data:`RULE_LAG_S` past the deadline, so that an input made before it and still on its way is
applied first) and handles it like an input: its rulings are published at once, and a replay rules them at the same
entry. Otherwise the ``state`` and ``board/out`` are published once more, made at that moment (a clock at 0).

Time rules nothing while the service cannot hear its table (``health.py``: a session of its own is not connected, the
broker away, a connection cut, the service starting; or is silent), nor for ``HEAR_AGAIN_S`` after it hears it again:
a seat that played in time while nothing reached the service is judged by its play's time when the play arrives, never
given up by a clock that ran on while the table was deaf; a turn that time then gives up (its ``clock`` entry says
``held``) starts the next seat's clock at that moment, when the table's displays can show it. And time rules only once
every session heard the broker since the deadline came due (each is probed then, the worker looking again every
:data:`ANSWER_POLL_S`): a link cut in the second before looks connected still, and the inputs it no longer carries are
not taken for none.

Time rules nothing either while the service cannot log its inputs (another program locks the log, a full or read-only
disk: a batch or a ``clock`` entry refused), nor for ``HEAR_AGAIN_S`` after its log takes a write again (what waited
behind the inputs not acknowledged meanwhile comes then): a seat's play that reached the service meanwhile waits, not
acknowledged, until it is logged, and is judged by its time, never given up by a clock that ran on while it could not
be logged (no ``clock`` entry waits on the lock beside it, to be logged first when the lock goes and take the play for
one out of turn); a turn that time then gives up is ``held`` as above.
"""

from __future__ import annotations

import logging
import time

from referee.table.health import HEAR_AGAIN_S
from referee.table.reducer import CLOCK

log = logging.getLogger("referee.table.service")  # the service's one logger, whichever of its parts speaks

IDLE_WAKE_S = 1.0  # the worker looks at the table's deadlines at least this often
# Time rules this long after a deadline: an input made before it may still be on its way. The camera sends a play
# once its cards have lain still for its settle time (0.8 s, ``vision watch --settle``), dated when they came to rest:
# a play made just in time reaches the service about a second after it was made. (At 0.25 s a Guandan seat that
# played in its last second had its turn given up, and its play taken for one out of turn.)
RULE_LAG_S = 1.5
ANSWER_POLL_S = 0.05  # while time waits for the sessions' answers to rule a deadline, the worker looks this often


class DeadlinesMixin:
    """How :class:`~referee.table.service.TableService` rules what time rules (its state is the service's, set in
    its ``__init__``)."""

    def _deadline(self) -> float | None:
        """The table's next deadline not handled yet."""
        try:
            return self.table.next_deadline(after=self._handled)
        except Exception:
            log.exception("table %s: next_deadline failed", self.table_id)
            return None

    def _rules_at(self, deadline: float) -> float | None:
        """When (the service's clock) time may rule ``deadline``: :data:`RULE_LAG_S` after it, and not
        before :data:`HEAR_AGAIN_S` after the service last began to hear its table, or its log to take writes again;
        None while it cannot hear it, or log its inputs."""
        heard = self._hearing()
        if heard is None or self._failing_since is not None:
            return None
        return max(deadline + RULE_LAG_S, max(heard, self._logs_again) + HEAR_AGAIN_S)

    def _wake_in(self) -> float:
        wake = min(IDLE_WAKE_S, max(0.0, self._health_due - time.monotonic()))
        deadline = self._deadline()
        due = None if deadline is None else self._rules_at(deadline)
        if due is None:
            return wake
        asked = ANSWER_POLL_S if self._asked is not None and self._asked[0] == deadline else 0.0  # answers awaited
        return min(wake, max(asked, due - self.clock()))

    def _on_time(self) -> None:
        """A deadline passed with no input: log and apply a ``clock`` entry when time rules something,
        else publish the state and the displays as they are now (once per deadline)."""
        deadline = self._deadline()
        now = self.clock()
        due = None if deadline is None else self._rules_at(deadline)
        if due is None or now < due or not self._answered(deadline):
            return
        before, self._handled = self._handled, deadline
        try:
            at = max(now, self._logged_at if self._logged_at is not None else now)
            if self.table.rules_by(at):
                if not self._time_rules(at, held=due > deadline + RULE_LAG_S):
                    self._handled = before  # the log refused it: ruled once the log works again (held)
            else:
                self._publish_snapshots(max(now, self._now if self._now is not None else now))
        except Exception:  # the worker must outlive any one deadline
            log.exception("table %s: ruling the deadline %s failed", self.table_id, deadline)

    def _time_rules(self, at: float, held: bool = False) -> bool:
        """Log a ``clock`` entry at ``at`` (the input of no one: time passed) and handle it as an input; False when
        it cannot be logged (said: :meth:`_failing`). ``held``: its ruling waited (for the service to hear its table
        again, or for its log to work): nobody saw the turn pass before."""
        payload = {"v": 1} | ({"held": True} if held else {})
        try:
            (seq,) = self.log.append_many([(CLOCK, payload, at, None)])
        except Exception as exc:
            self._failing("a clock entry", exc)
            return False
        self._logging_works()
        with self._lock:
            self._logged_seq, self._logged_at = seq, at
        self._handle(CLOCK, payload, at, seq)
        self._publish_snapshots(self._now)
        with self._applied:
            self._applied_seq = seq
            self._applied.notify_all()
        return True
