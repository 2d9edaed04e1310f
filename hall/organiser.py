"""The hall's organiser: creates the tournament, pairs each round, seats the players at the tables
(``assign``, as the broker's console user), starts the rounds, and pairs the next round once every
table of the round has its result. The tables outside the tournament (four decks' Tractor, Guandan, San Da Yi)
play round after round, their players seated by the hall.
With ``hands`` the organiser announces the last hand (``last_hand``) when a table deals that many
hands in a round; without, the rulebook's round clock ends each round.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable
from pathlib import Path

from bus.mqtt import Connection
from bus.protocol import decode, encode, topic
from hall.plan import HallTable, pair_field, rounds, seats, table_players, team_pairs
from referee import catalogue
from referee.catalogue.sentences import Sentences

TOURNAMENT = "hall"


class Organiser:
    def __init__(self, tables: tuple[HallTable, ...], console_url: str, db: Path, seed: int, hands: int,
                 say: Callable[[str], None]):
        from referee.tournament.store import TournamentStore

        self.tables, self.hands, self.say, self.lang = tables, hands, say, catalogue.cli_lang()
        self.toured = [t for t in tables if t.toured]
        self.store = TournamentStore(db) if self.toured else None
        self.entries = {e.id: e for e in pair_field(tables)}
        self.seed = seed
        self.states: dict[str, dict] = {}
        self.status: dict[str, str] = {}
        self._lock = threading.Lock()
        self._announced: set[tuple[str, float]] = set()  # (table, round start) given the last-hand notice
        self._started: set[tuple[str, float | None]] = set()
        self._paired = 0
        self._final = False
        self.conn = Connection(console_url, clean_start=True)
        self.conn.subscribe("cardtable/v1/tables/+/state", self._on_state)
        self.conn.subscribe("cardtable/v1/tables/+/status", self._on_status)

    def _on_state(self, full_topic: str, raw: bytes) -> None:
        table = full_topic.split("/")[3]
        state = decode("state", raw)
        with self._lock:
            if table not in self.states or state["seq"] >= self.states[table]["seq"]:
                self.states[table] = state

    def _on_status(self, full_topic: str, raw: bytes) -> None:
        with self._lock:
            self.status[full_topic.split("/")[3]] = json.loads(raw)["status"]

    def ready(self) -> bool:
        """Every table's service is online and has published its state."""
        with self._lock:
            return all(self.status.get(t.table) == "online" and t.table in self.states for t in self.tables)

    def start(self) -> None:
        self.conn.connect()
        if self.store is not None:
            entries = list(self.entries.values())
            self.store.new("pair-swiss", entries, name="cardtable 演示赛（拖拉机双人积分编排）", seed=self.seed,
                           options={"rounds": rounds(len(entries)), "team_pairs": team_pairs(len(entries))}, id=TOURNAMENT, by="hall")

    def close(self) -> None:
        self.conn.close()
        if self.store is not None:
            self.store.close()

    def send(self, table: str, command: str, **fields) -> None:
        payload = {"v": 1, "id": f"hall-{uuid.uuid4().hex}", "command": command, **fields}
        self.conn.publish(topic(table, "commands"), encode("commands", payload), qos=1)

    def step(self) -> None:
        """Pair and start what is due; announce last hands."""
        if self.store is not None:
            self._tournament()
        with self._lock:
            states = dict(self.states)
        for t in self.tables:
            state = states.get(t.table)
            if state is None:
                continue
            if not t.toured and state["phase"] in ("idle", "round_over"):
                key = (t.table, state["round"]["started_at"])
                if key not in self._started:
                    self._started.add(key)
                    index = [x.table for x in self.tables if not x.toured].index(t.table)
                    self._start(t, table_players(index))
            self._last_hand(t, state)

    def _start(self, t: HallTable, players: dict[str, str]) -> None:
        self.send(t.table, "assign", players=players, rulebook=t.rulebook)
        self.send(t.table, "start_round")
        players_line = Sentences(self.lang).players_line(players)
        self.say(catalogue.say(self.lang, "hall.seated", table=t.table, rulebook=t.rulebook, players=players_line))

    def _last_hand(self, t: HallTable, state: dict) -> None:
        started = state["round"]["started_at"]
        if (not self.hands or started is None or state["phase"] in ("idle", "round_over", "arriving")
                or state["hand"] < self.hands or (t.table, started) in self._announced):
            return
        self._announced.add((t.table, started))
        self.send(t.table, "last_hand")

    def _tournament(self) -> None:
        t = self.store.tournament
        if t.rounds and not t.rounds[-1].complete:
            return
        if len(t.rounds) >= t.total_rounds:
            if not self._final:
                self._final = True
                from referee.tournament.exact import written

                rows = self.store.standings()["rows"]
                standings = "；".join(catalogue.say(self.lang, "hall.standing", rank=r["rank"], name=r["name"], score=written(r["score"], self.lang))
                                     for r in rows[:6])
                self.say(catalogue.say(self.lang, "hall.over", standings=standings))
            return
        if len(t.rounds) > self._paired or not self._all_idle():
            return  # wait until the tables of the last round are free
        view = self.store.pair_next_round(by="hall")
        self._paired = view["round"]
        self.say(catalogue.say(self.lang, "hall.paired", round=view["round"], rounds=view["rounds"]))
        tables = {x.table: x for x in self.toured}
        for x in view["tables"]:
            self._start(tables[x["table"]], seats(x, self.entries))

    def _all_idle(self) -> bool:
        with self._lock:
            return all(self.states.get(t.table, {}).get("phase") in ("idle", "round_over") for t in self.toured)
