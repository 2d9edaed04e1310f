"""The hall's referee: watches the console's open flags and rules on each as a person would,
looking at the cards on the table (the table's ``scene.jsonl``), through the console's web API
(logged in as a referee, so every ruling is in the console's audit log).

>>> ruling({"kind": "unsure", "cards": ["SA", "SA"]}, ("SA", "SA"))
{'how': 'confirm'}
>>> ruling({"kind": "unsure", "cards": ["SA"]}, ("SA", "SA"))
{'how': 'correct', 'cards': ['SA', 'SA']}
>>> ruling({"kind": "overtime"}, None)
{'how': 'confirm'}
>>> ruling({"kind": "unsure", "cards": ["C6"]}, ("SK", "S6"), taken=("S6", "SK"))  # read twice
{'how': 'dismiss'}
>>> ruling({"kind": "out_of_turn", "cards": ["S6"]}, ("S6",))  # the bots never play out of turn: the camera erred
{'how': 'dismiss'}
>>> ruling({"kind": "unsure_pickup", "cards": ["S6"]}, ("S6",))  # nor pick a trick up early
{'how': 'dismiss'}
>>> ruling({"kind": "stalled", "cards": []}, ("C8",), lying=("S3", "C8"))  # laid, never read: entered
{'how': 'correct', 'cards': ['C8']}
>>> ruling({"kind": "stalled", "cards": []}, ("C8",), taken=("C8",), lying=("C8",))  # played and taken: thinking
{'how': 'dismiss'}
>>> ruling({"kind": "stalled", "cards": []}, ("C8",), taken=("C8",), lying=("C8", "C8"))  # the same face laid again
{'how': 'correct', 'cards': ['C8']}
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from hall import scene

log = logging.getLogger(__name__)


def ruling(flag: dict, truth: tuple[str, ...] | None, taken: tuple[str, ...] | None = None,
           lying: tuple[str, ...] = ()) -> dict:
    """What the referee sends for ``flag``, seeing ``truth`` (the cards the seat put down last), ``taken`` (the
    seat's play in the table's current trick) and ``lying`` (the cards in front of the seat now): a seat long past
    its time (``stalled``) whose last cards lie there beyond its play the table took laid them unseen (entered), else
    it is thinking (dismissed); a read of cards the table already took
    is no play (dismissed), a read that differs from the cards is corrected, anything else is
    confirmed. The bots break no rule on purpose that the camera would have to see, so a play out of turn, an
    exposed card or an unsure early pickup can only be the camera's mistake, which the referee sees at the table:
    dismissed (confirmed, it would cost a foul and, in Guandan, the seat's next turn)."""
    if flag.get("kind") in ("out_of_turn", "exposed_card", "unsure_pickup"):
        return {"how": "dismiss"}
    if flag.get("kind") == "stalled":
        laid = truth and not Counter(truth) - (Counter(lying) - Counter(taken or ()))  # lying beyond what was taken
        return {"how": "correct", "cards": list(truth)} if laid else {"how": "dismiss"}
    read = flag.get("cards") or []
    if truth and read and taken is not None and sorted(taken) == sorted(truth):
        return {"how": "dismiss"}
    if truth and read and sorted(read) != sorted(truth):
        return {"how": "correct", "cards": list(truth)}
    return {"how": "confirm"}


class RefereeBot:
    """One console session; ``step()`` rules on every open flag once."""

    def __init__(self, base_url: str, user: str, password: str, run_dir: Path, say: Callable[[str], None]):
        import httpx

        self.client = httpx.Client(base_url=base_url, timeout=10.0, headers={"Origin": base_url})  # as the console page
        self.user, self.password = user, password
        self.run_dir, self.say = run_dir, say
        self.ruled: set[tuple[str, str]] = set()
        self.counts = {"confirm": 0, "correct": 0, "dismiss": 0}
        self._logged_in = False

    def close(self) -> None:
        self.client.close()

    def _taken(self, table: str, seat: str) -> tuple[str, ...] | None:
        """The seat's play in the table's current trick, as the scoreboard shows it."""
        r = self.client.get(f"/api/tables/{table}")
        state = r.json().get("state") if r.status_code == 200 else None
        trick = (state or {}).get("current_trick") or {}
        return next((tuple(p["cards"]) for p in trick.get("plays", []) if p["seat"] == seat), None)

    def step(self) -> None:
        if not self._logged_in:
            r = self.client.post("/api/login", json={"user": self.user, "password": self.password})
            r.raise_for_status()
            self._logged_in = True
        r = self.client.get("/api/console/flags")
        if r.status_code == 401:
            self._logged_in = False
            return
        r.raise_for_status()
        for flag in r.json():
            key = (flag["table"], flag["flag"])
            if key in self.ruled:
                continue
            table = scene.latest(self.run_dir / flag["table"] / "scene.jsonl")
            truth = table.last.get(flag["seat"]) if table else None
            body = ruling(flag, truth, self._taken(flag["table"], flag["seat"]), table.seats[flag["seat"]] if table else ())
            r = self.client.post(f"/api/console/tables/{flag['table']}/flags/{flag['flag']}", json=body)
            if r.status_code == 409:  # already resolved meanwhile
                self.ruled.add(key)
                continue
            r.raise_for_status()
            self.ruled.add(key)
            self.counts[body["how"]] += 1
            self.say(r.json()["said"])  # the console's own line for it
