"""A table service that will not start says why on the bus, where the console reads it: its retained ``status``
``offline`` with ``reason`` (the words of the logs) and ``why`` (:meth:`referee.table.log.LogError.data`: a key of the
catalogue's ``replay.why_*`` and its values, for each reader to say in its language). Without it the console showed
the table as 离线 (offline) alone, and the referee had to find the unit's log to learn that its log file is another
table's, or damaged, or its rulebook unknown.

It says it on the service's own main session (the broker makes a user's client id its name), resumed, not started
clean, and acknowledges nothing: the inputs the broker keeps for the table while no service runs wait for the one that
starts (a clean start would throw them away). Not where the log is served already by another service of this machine
(``held``): that one is online, and a connection of its user would take its session over.
"""

from __future__ import annotations

import logging
import time

from bus.mqtt import Connection
from bus.protocol import encode, topic

log = logging.getLogger(__name__)
SAY_S = 5.0  # to reach the broker and have it take the status: a broker that does not answer is left (logged)
NOT_SAID = frozenset({"held"})  # another service serves the table: its status stands


def say_refused(table: str, broker_url: str, why: dict, reason: str) -> bool:
    """Publish the table's ``offline`` status with why it will not start; False where it was not said (``NOT_SAID``,
    a broker unreachable or refusing: logged)."""
    if why["key"] in NOT_SAID:
        return False
    payload = encode("status", {"v": 1, "status": "offline", "at": time.time(), "reason": reason[:600], "why": why})
    conn = Connection(broker_url, f"table-{table}", clean_start=False, manual_ack=True, connect_timeout_s=SAY_S)
    try:
        conn.connect()
        conn.publish(topic(table, "status"), payload, qos=1, retain=True)
        if conn.flush(SAY_S):
            return True
        log.warning("table %s: the broker did not take the status that says why the service would not start", table)
    except (OSError, ValueError) as exc:  # refused, not answering: the command line says why anyway
        log.warning("table %s: could not say on the bus why the service would not start: %s", table, exc)
    finally:
        conn.close(flush_timeout=0)
    return False
