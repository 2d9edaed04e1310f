"""The hall as the display sees it, a pure value: every table's latest state, status, health, violations and
its timeline (the hand in play and the one before), and each tournament's round and standings.

:func:`receive` takes one MQTT message (topic and raw payload, and ``now``: the display's monotonic
clock, for when a table's ``health`` came) and returns the new hall and the change to send to the
pages; a malformed payload or a topic of no interest raises :class:`Ignored` and changes nothing.
Each event and violation gets its sentence in every language (``say``; a violation also its
``brief`` line), with the table's players, so a page only shows them.

A table's camera and board say whether they see it (``camera/status``, ``board/status``: the table's
``devices``); a camera ``lost`` or ``offline`` sees no play of the table.

>>> hall, change = receive(Hall(), "cardtable/v1/tables/t1/camera/status",
...                        b'{"v":1,"status":"lost","reason":"frames","camera":"cam-t1"}')
>>> hall.tables["t1"].devices["camera"]["status"], change["type"], change["data"]["device"]
('lost', 'device', 'camera')

A table whose service says ``online`` but whose ``health`` stopped coming (none for
``STALLED_AFTER`` times its ``every``), or whose health names a problem, is *stalled*: it does not
referee, whatever its status says (:meth:`TableView.live`); the problem is said in every language, as an event is
(the health's ``say``: ``display.said.problem_said``), to the console alone (``display.said.inside``): the pages, public, hear
that the health names a problem (``problem: true``) and that the table is stalled, never the problem (an exception's
words, a log's path) nor why it is stalled. The broker's count of the messages it
dropped (a queue full: a sender flooding a subscriber) is the hall's ``broker_dropped``.

>>> receive(Hall(), "$SYS/broker/publish/messages/dropped", b"211")[1]
{'type': 'broker', 'data': {'dropped': 211}}
>>> hall, change = receive(Hall(), "cardtable/v1/tables/t1/status", b'{"v":1,"status":"offline"}')
>>> hall.tables["t1"].status, change
('offline', {'type': 'status', 'table': 't1', 'data': {'v': 1, 'status': 'offline'}})
>>> receive(hall, "cardtable/v1/tables/t1/status", b'{"v":1,"status":"gone"}')
Traceback (most recent call last):
...
display.view.Ignored: cardtable/v1/tables/t1/status: status: 'status': 'gone' is not a status (online offline)

Why a table's service would not start (its ``offline`` status's ``reason`` and ``why``: a file's path, a lock's) is
the console's alone (``routers.tables.inside``): the pages, public, hear that it would not (``refused``), no more.

>>> why = {"key": "witness", "values": {"path": "/srv/t1.db.witness"}}
>>> said = {"v": 1, "status": "offline", "reason": "/srv/t1.db.witness: damaged", "why": why}
>>> hall, change = receive(Hall(), "cardtable/v1/tables/t1/status", json.dumps(said).encode())
>>> change["data"], hall.tables["t1"].as_json()["refused"], hall.tables["t1"].refused["why"]["values"]
({'v': 1, 'status': 'offline', 'refused': True}, True, {'path': '/srv/t1.db.witness'})

>>> from bus.protocol import schema
>>> locked = schema("health")["examples"][1]
>>> hall, _ = receive(Hall(), "cardtable/v1/tables/t1/status", b'{"v":1,"status":"online"}')
>>> hall, change = receive(hall, "cardtable/v1/tables/t1/health", json.dumps(locked).encode())
>>> change["data"]["problem"], sorted(set(locked) - set(change["data"])), hall.tables["t1"].as_json(now=0.0)["live"]
(True, ['problem_why'], {'age': 0.0, 'stalled': True})
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from types import MappingProxyType

from pydantic import ValidationError

from bus.broker import BROKER_DROPPED
from bus.protocol import RETAINED, PayloadError, decode, parse_topic
from display.schemas import Round, Standings
from display.said import problem_said, refused_said, round_won, sentences
from referee.catalogue import LANGS, word
from referee.rulebooks import load

TOURNAMENT_PREFIX = "cardtable/v1/tournament/"
SHOWN = ("state", "status", "health", "events", "violations", "camera/status", "board/status")  # the table topics shown
DEVICES = {"camera/status": "camera", "board/status": "board"}  # a table's camera and board say whether they see it
STALLED_AFTER = 3  # health messages missed in a row
VIOLATIONS_KEPT = 6  # per table, the newest
# the events that say a hand's, a game's or a round's result (a tile says them until the next hand's first play)
RESULTS = ("hand_scored", "hand_forfeited", "game_scored", "game_won", "round_over", "round_forfeited", "rejudged")
RESULTS_KEPT = 3  # per table, the newest said since the last play
TIMELINE_KEPT = 1200  # events of the hand in play and the one before, per table
TOURNAMENT_MODELS = {"round": Round, "standings": Standings}

_EMPTY: Mapping = MappingProxyType({})


class Ignored(ValueError):
    """A message the hall does not take: a malformed payload, or a topic it does not show."""


@dataclass(frozen=True)
class TableView:
    """One table as the hall knows it. ``status`` is ``None`` until the table said anything."""

    table: str
    state: dict | None = None
    status: str | None = None
    # offline, the service would not start: its ``reason``, ``why`` and ``say`` (``display.said.refused_said``), the
    # console's alone (``display.said.inside``): the public pages get that it would not, never why (a file's path)
    refused: dict | None = None
    violations: tuple[dict, ...] = ()
    timeline: tuple[dict, ...] = ()
    health: dict | None = None
    health_seen: float | None = None  # the display's monotonic clock when the health came
    devices: Mapping[str, dict] = field(default_factory=lambda: _EMPTY)  # "camera", "board" -> its latest status
    bids: Mapping[str, int | str] = field(default_factory=lambda: _EMPTY)  # San Da Yi: each seat's bid this hand
    results: tuple[dict, ...] = ()  # what the table said of the result since its last play: seq, kind, say
    # read back from the kept file (``display.kept``): the seq of the table's state the display saw last before it
    # stopped (-1: none), until the table's next word says whether it missed any event meanwhile (``_resume``); the
    # same once the display's feed connected again after a cut (``cut``: ``Hall.reconnected``, the words of its gap)
    resumed: int | None = None
    cut: Mapping[str, str] | None = None
    # read back from the kept file: the players and rulebook its latest state named (:func:`named`), its events said
    # with them until its state comes (a kept session's events come before the state, retained, on a restart)
    named: Mapping | None = None

    def as_json(self, timeline: bool = False, now: float | None = None, wall: float | None = None) -> dict:
        """The table for a page. ``wall``: the display's wall clock, for ``state_age``, the seconds since the table made
        its state (a page counts the state's clocks down from then: a table that has said nothing for minutes is not
        counted from when the page opened)."""
        out = {"table": self.table, "state": shown(self.state), "status": self.status,
               "refused": self.refused is not None, "violations": list(self.violations),
               "health": public_health(self.health), "devices": dict(self.devices), "bids": dict(self.bids),
               "results": list(self.results)}
        if now is not None:  # stalled, not why (a health's problem): the console's (``display.said.inside``)
            out["live"] = {k: v for k, v in self.live(now).items() if k != "why"}
        if wall is not None and self.state is not None:
            out["state_age"] = round(max(0.0, wall - self.state["at"]), 3)
        if timeline:
            out["timeline"] = list(self.timeline)
        return out

    def live(self, now: float) -> dict:
        """Is the table refereeing? ``age``: seconds since its health came; ``stalled`` and why.

        >>> v = TableView("t1", status="online", health={"every": 2.0, "problem": None}, health_seen=100.0)
        >>> v.live(now=103.0), v.live(now=107.0)["why"]
        ({'age': 3.0, 'stalled': False, 'why': None}, 'no health for 7 s')
        """
        age = None if self.health_seen is None else round(now - self.health_seen, 1)
        why = None
        if self.status == "online":
            if self.health is None or age is None:
                why = "no health"
            elif age > STALLED_AFTER * self.health["every"]:
                why = f"no health for {age:.0f} s"
            elif self.health["problem"]:
                why = self.health["problem"]
        return {"age": age, "stalled": why is not None, "why": why}

    def said(self, leaf: str, payload: dict) -> TableView:
        """The view after one of its table's ``events`` or ``violations`` (``leaf``), said already (``say``): as it
        comes, or read back from the kept file (``display.kept``)."""
        if leaf == "violations":
            return self.with_violation(payload)
        view = replace(self, named=named(payload["data"])) if payload["kind"] == "assigned" else self  # seated anew
        return view.with_event(payload).with_bids(payload).with_result(payload)

    def kept(self) -> dict:
        """What of the table only its events and violations tell (the broker keeps none of them: ``display.kept``
        keeps this across a restart), the ``seq`` of its latest state (``resumed``'s, while it is pending) and whom
        it :func:`named`.

        >>> v = TableView("t1").said("events", {"seq": 3, "kind": "bid", "data": {"seat": "E", "bid": 2}})
        >>> k = v.kept(); k["bids"], k["seq"], TableView.restored("t1", k).resumed
        ({'E': 2}, None, -1)
        """
        seq = self.state["seq"] if self.state is not None else self.resumed
        return {"timeline": list(self.timeline), "violations": list(self.violations), "bids": dict(self.bids),
                "results": list(self.results), "seq": seq,
                "named": named(self.state) if self.state is not None else self.named}

    @classmethod
    def restored(cls, table: str, kept: dict) -> TableView:
        """The view of ``table`` as :meth:`kept` read back, its state to come (retained), whether it missed events to
        be told (``resumed``)."""
        return cls(table, timeline=tuple(kept["timeline"]), violations=tuple(kept["violations"]),
                   bids=MappingProxyType(dict(kept["bids"])), results=tuple(kept["results"]),
                   resumed=-1 if kept["seq"] is None else kept["seq"], named=kept.get("named"))

    def with_violation(self, v: dict) -> TableView:
        """The newest violations, one per flag (a confirmation replaces the flagged one)."""
        kept = tuple(x for x in self.violations if x["flag"] != v["flag"]) + (v,)
        return replace(self, violations=kept[-VIOLATIONS_KEPT:])

    def with_bids(self, e: dict) -> TableView:
        """A San Da Yi hand's bids, seat by seat (004 二 叫分; each bid limits that seat's bombs for the whole hand,
        炸弹限制), from its ``bid`` events: none again when a hand or round starts. The state does not carry them.

        >>> v = TableView("t8").with_bids({"kind": "bid", "data": {"seat": "E", "bid": 1}})
        >>> dict(v.with_bids({"kind": "bid", "data": {"seat": "N", "bid": "pass"}}).bids)
        {'E': 1, 'N': 'pass'}
        >>> dict(v.with_bids({"kind": "hand_started", "data": {"hand": 2}}).bids)
        {}
        """
        if e["kind"] == "bid":
            return replace(self, bids=MappingProxyType({**self.bids, e["data"]["seat"]: e["data"]["bid"]}))
        return replace(self, bids=_EMPTY) if e["kind"] in ("hand_started", "round_started") else self

    def with_result(self, e: dict) -> TableView:
        """What the table said of the result, kept for its tile from the hand's (or game's) end to the next hand's
        first play: who won the hand and by how many levels, the game's result and 小分, the round's or the match's end
        (``RESULTS``; the state does not carry them). A new round, or a play, clears them, and so does a hand taken up
        again (Guandan's ``hand_reopened``, 002 九 3: 已出完的牌必须收回重出: its result no longer stands); an event
        published again (the same ``seq`` and kind) is kept once.

        >>> v = TableView("t1").with_result({"seq": 40, "kind": "hand_scored", "say": {"zh": "第 3 盘结算"}})
        >>> v = v.with_result({"seq": 40, "kind": "hand_scored", "say": {"zh": "第 3 盘结算"}})  # again (QoS 1)
        >>> v = v.with_result({"seq": 40, "kind": "round_over", "say": {"zh": "本轮结束"}})
        >>> [r["kind"] for r in v.results], v.with_result({"seq": 45, "kind": "play_accepted"}).results
        (['hand_scored', 'round_over'], ())
        >>> v.with_result({"seq": 46, "kind": "hand_reopened"}).results
        ()
        """
        if e["kind"] in ("play_accepted", "round_started", "hand_reopened"):
            return replace(self, results=()) if self.results else self
        if e["kind"] not in RESULTS or any((r["seq"], r["kind"]) == (e["seq"], e["kind"]) for r in self.results):
            return self
        said = {"seq": e["seq"], "kind": e["kind"], "say": e["say"]}
        return replace(self, results=(self.results + (said,))[-RESULTS_KEPT:])

    def with_event(self, e: dict) -> TableView:
        """The timeline: the hand in play and the one before it (a play disputed once its hand is over is corrected
        from it); a new hand drops the hand before the one that ended, a new round everything; a duplicate (QoS 1: the
        same ``seq``, kind and data) is kept once. An ``amended`` play marks what was judged from that play on with the
        amendment's ``seq`` (``rejudged``): the table judged it all again, its state says the new judgement, and the
        events said before it are not said again.

        >>> v = TableView("t1")
        >>> for seq, kind in [(1, "round_started"), (2, "hand_started"), (3, "play_accepted"), (4, "hand_started"),
        ...                   (5, "play_accepted"), (6, "hand_started"), (6, "hand_started")]:
        ...     v = v.with_event({"seq": seq, "kind": kind})  # the last again (QoS 1)
        >>> [(e["seq"], e["kind"]) for e in v.timeline]
        [(4, 'hand_started'), (5, 'play_accepted'), (6, 'hand_started')]
        >>> v = v.with_event({"seq": 7, "kind": "amended", "data": {"entry": 5, "cards": ["SA"]}})
        >>> [(e["seq"], e.get("rejudged")) for e in v.timeline]
        [(4, None), (5, 7), (6, 7), (7, None)]

        One entry may say one kind twice (both sides late: a ``hand_forfeited`` each); a repeat is the same event:

        >>> v = v.with_event({"seq": 8, "kind": "round_started", "data": {}})
        >>> for team in ("SN", "EW", "SN", "EW"):  # entry 9, then published again by a restarted service
        ...     v = v.with_event({"seq": 9, "kind": "hand_forfeited", "data": {"hand": 1, "team": team}})
        >>> v = v.with_event({"seq": 8, "kind": "round_started", "data": {}})  # again: the round is not begun anew
        >>> [(e["seq"], e["kind"], e["data"].get("team")) for e in v.timeline]
        [(8, 'round_started', None), (9, 'hand_forfeited', 'SN'), (9, 'hand_forfeited', 'EW')]

        The same refusal one after another (a stuck button: ten a second) is one line with a count, so it does not
        push the hand's plays out of the timeline; published again, it is not counted again:

        >>> stuck = {"topic": "board/in", "reason": "S: button ready means nothing in phase playing"}
        >>> for seq in (10, 11, 12, 11):
        ...     v = v.with_event({"seq": seq, "kind": "rejected", "data": stuck | {"id": f"board3-1-{seq:06d}"}})
        >>> [(e["seq"], e["kind"], e.get("repeats"), e.get("until")) for e in v.timeline[-2:]]
        [(9, 'hand_forfeited', None, None), (10, 'rejected', 3, 12)]
        """
        for x in reversed(self.timeline):  # in log order: a repeat lies among the events of its seq or later
            if x.get("until", x["seq"]) < e["seq"]:
                break
            if x["seq"] == e["seq"] and x["kind"] == e["kind"] and x.get("data") == e.get("data"):
                return self
            if x["seq"] < e["seq"] and x["kind"] == e["kind"] == "rejected" and _same_refusal(x, e):
                return self  # one of the refusals said once with a count, published again
        last = self.timeline[-1] if self.timeline else None
        if last is not None and last["kind"] == e["kind"] == "rejected" and _same_refusal(last, e):
            merged = last | {"repeats": last.get("repeats", 1) + 1, "until": e["seq"]}
            return replace(self, timeline=self.timeline[:-1] + (merged,))
        if e["kind"] == "round_started":
            return replace(self, timeline=(e,))
        kept = self.timeline
        if e["kind"] == "hand_started":
            starts = [i for i, x in enumerate(kept) if x["kind"] == "hand_started"]
            kept = kept[starts[-1]:] if starts else kept
        if e["kind"] == "amended":  # what was judged from the amended play on is marked (the state is the new judgement)
            first = (e.get("data") or {}).get("entry", e["seq"])
            kept = tuple(x | {"rejudged": e["seq"]} if first <= x["seq"] < e["seq"] else x for x in kept)
        return replace(self, timeline=(kept + (e,))[-TIMELINE_KEPT:])


def _same_refusal(a: dict, b: dict) -> bool:
    """Two ``rejected`` events that say the same of the same kind of input (their inputs' ids aside)."""
    return {k: v for k, v in (a.get("data") or {}).items() if k != "id"} == {k: v for k, v in (b.get("data") or {}).items() if k != "id"}


@dataclass(frozen=True)
class Hall:
    tables: Mapping[str, TableView] = field(default_factory=lambda: _EMPTY)
    rounds: Mapping[str, dict] = field(default_factory=lambda: _EMPTY)  # tournament id -> its round payload
    standings: Mapping[str, dict] = field(default_factory=lambda: _EMPTY)  # tournament id -> its standings
    feed: bool = False  # the scoreboard connection to the broker is up (what the pages show is live)
    commands: bool = False  # the console's connection is up: a command can be sent (``Feed.can_send``)
    broker_dropped: int | None = None  # messages the broker dropped since it started (a queue full)
    # the tables read back from the kept file (``display.kept``): each one shown once the broker says anything of it
    # (a table of an earlier evening the broker no longer has is not shown)
    read_back: Mapping[str, TableView] = field(default_factory=lambda: _EMPTY)

    def table(self, table: str) -> TableView:
        return self.tables.get(table) or self.read_back.get(table) or TableView(table)

    def with_table(self, view: TableView) -> Hall:
        return replace(self, tables=MappingProxyType({**self.tables, view.table: view}))

    def reconnected(self, said: Mapping[str, str] | None = None) -> Hall:
        """The hall once the display's feed connected to the broker again on a session the broker did not keep: the
        events of the cut are lost, so a table whose log moved on meanwhile says so where they are missing (``_resume``:
        a ``missed`` line, in the words ``said``, each language's, else ``kept.missed_cut``), as after a restart; its
        state, retained, shows what they did. Not a silent gap: the tile showed a play that the timeline never did.

        >>> from bus.protocol import schema
        >>> state, at = schema("state")["examples"][0], "cardtable/v1/tables/t1/state"
        >>> hall, _ = receive(Hall(), at, json.dumps(state).encode())
        >>> receive(hall.reconnected(), at, json.dumps(state).encode(), retained=True)[1].get("missed")  # nothing missed
        >>> hall, change = receive(hall.reconnected(), at, json.dumps(state | {"seq": state["seq"] + 2}).encode(), retained=True)
        >>> change["missed"]["say"]["zh"], hall.tables["t1"].cut
        ('显示服务与消息服务器断开期间，本桌的事件没有收到：这里缺了一段', None)
        >>> receive(hall.reconnected({"zh": "断了", "en": "cut"}), at, json.dumps(state | {"seq": state["seq"] + 4}).encode(),
        ...         retained=True)[1]["missed"]["say"]
        {'zh': '断了', 'en': 'cut'}
        """
        said = MappingProxyType(dict(said or {lang: word(lang, "kept.missed_cut") for lang in LANGS}))
        cut = {t: replace(v, resumed=v.state["seq"], cut=said) if v.state is not None and v.resumed is None else v
               for t, v in self.tables.items()}
        return replace(self, tables=MappingProxyType(cut))

    def with_feed(self, connected: bool, commands: bool) -> Hall:
        return replace(self, feed=connected, commands=commands)

    def current_tournament(self) -> str | None:
        """The tournament whose round or standings came last."""
        latest = [(p["at"], t) for t, p in (*self.rounds.items(), *self.standings.items())]
        return max(latest)[1] if latest else None

    def snapshot(self, timeline_of: str | None = None, now: float | None = None, wall: float | None = None) -> dict:
        """Everything a page needs on connecting (``timeline_of``: one table's hand timeline too;
        ``now``: the display's monotonic clock, for each table's liveness; ``wall``: its wall clock, for the age of
        each table's state)."""
        return {
            "feed": self.feed,
            "commands": self.commands,
            "broker_dropped": self.broker_dropped,
            "tables": {t: v.as_json(timeline=t == timeline_of, now=now, wall=wall) for t, v in sorted(self.tables.items())},
            "tournament": self.current_tournament(),
            "rounds": dict(self.rounds),
            "standings": dict(self.standings),
        }


def receive(hall: Hall, topic: str, raw: bytes, now: float = 0.0, retained: bool = False,
            wall: float = 0.0) -> tuple[Hall, dict]:
    """The hall after one message and the change for the pages; :class:`Ignored` when malformed.
    ``now``: the display's monotonic clock (when a health came); ``retained``: the broker's retained copy, sent on
    subscribing (a display started or reconnected), not the message as it was published; ``wall``: the display's wall
    clock, for how old a retained health is.

    A health heard live is news of the table now. A retained one is as old as its ``at`` says, on the display's clock:
    a fresh display took a frozen table's last health for news, live for three of its periods. The display trusts its
    own clock, as the table service does (``bus/PROTOCOL.md``, "Whose time"): an ``at`` ahead of it is taken as now (a
    dead table's health looks no fresher than it did when taken as news), one behind as sent (a live table whose clock
    is behind looks stalled until its next health, ``every`` seconds later, which is heard live).

    >>> old = json.dumps({"v": 1, "at": 1000.0, "every": 2.0, "seq": 0, "chain": "0" * 64, "input_at": None, "waiting": 0,
    ...                   "rejected": 0, "dropped": {}, "clamped": {}, "clocks_off": {}, "problem": None}).encode()
    >>> topic = "cardtable/v1/tables/t1/health"
    >>> receive(Hall(), topic, old, now=50.0, retained=True, wall=1060.0)[1]["age"]  # told at 1000, read at 1060
    60.0
    >>> receive(Hall(), topic, old, now=50.0)[1]["age"]  # heard live: news now
    0.0
    >>> receive(Hall(), topic, old, now=50.0, retained=True, wall=990.0)[1]["age"]  # its clock ahead of the display's
    0.0
    """
    if topic.startswith(TOURNAMENT_PREFIX):
        return _tournament(hall, topic, raw)
    if topic == BROKER_DROPPED:
        try:
            dropped = int(raw)
        except ValueError:
            raise Ignored(f"{topic}: not a count: {raw[:20]!r}") from None
        return replace(hall, broker_dropped=dropped), {"type": "broker", "data": {"dropped": dropped}}
    try:
        table, name = parse_topic(topic)
    except ValueError as exc:
        raise Ignored(f"{topic}: {exc}") from None
    if name not in SHOWN:
        raise Ignored(f"{topic}: not a topic the hall shows")
    if not raw and name in RETAINED:
        return _cleared(hall, topic, table, name)
    try:
        payload = decode(name, raw)
    except PayloadError as exc:
        raise Ignored(f"{topic}: {exc}") from None
    if name == "events" and payload["kind"] == "applied":  # a command's answer, no ruling: for the console alone
        return hall, {"type": "applied", "table": table, "data": payload["data"]}
    view, missed = hall.table(table), None
    if name == "state":  # a whole snapshot; the latest wins (a restarted service with a new log starts at seq 0)
        view, missed = _resume(replace(view, state=payload), payload["seq"], wall, state=True)
    elif name == "status":  # the pages get whether the service would not start; why, the console asks for
        said = refused_said(payload)
        refused = None if said is None else {"reason": payload.get("reason", ""), "why": payload["why"], "say": said}
        payload = {k: v for k, v in payload.items() if k not in ("reason", "why")} | ({"refused": True} if said else {})
        view = replace(view, status=payload["status"], refused=refused)
    elif name == "health":  # the same health told again (retained, on a reconnect) is no news of the table: a frozen
        # table's last one would look live again for three of its periods; the pages get whether it names a problem
        seen = now - max(0.0, wall - payload["at"]) if retained else now
        full = payload | {"say": problem_said(payload)}
        view = replace(view, health=full, health_seen=view.health_seen if full == view.health else seen)
        payload = public_health(full)
    elif name in DEVICES:
        payload = {"device": DEVICES[name]} | payload
        view = replace(view, devices=MappingProxyType({**view.devices, DEVICES[name]: payload}))
    elif name == "violations":
        known = view.state or view.named  # read back from the kept file: whom its state named, until it comes
        payload = payload | {"say": sentences(known, lambda t: t.violation(payload)),
                             "brief": sentences(known, lambda t: t.violation(payload, brief=True))}
        view = view.with_violation(payload)
    else:
        view, missed = _resume(view, payload["seq"], wall)
        said = sentences(view.state or view.named, lambda t: t.event(payload) + round_won(t, view.timeline, payload))
        payload = payload | {"say": said}
        view = view.said("events", payload)
    kind = {"events": "event", "violations": "violation"}.get(name, "device" if name in DEVICES else name)
    change = {"type": kind, "table": table, "data": shown(payload) if name == "state" else payload}
    if name == "health":  # how long ago the display heard it (a page counts from then)
        change["age"] = round(now - view.health_seen, 3)
    if name == "state":  # what a tile shows that the state does not carry (the table sends its events before it)
        change["bids"] = dict(view.bids)
        change["results"] = list(view.results)
    if missed is not None:  # the gap, said in the timeline: the feed tells the pages and the kept file it first
        change["missed"] = missed
    return hall.with_table(view), change


def _cleared(hall: Hall, topic: str, table: str, name: str) -> tuple[Hall, dict]:
    """The hall once the broker deleted ``table``'s retained ``name`` (an empty retained payload, MQTT's way of deleting
    one): without the table for its ``state`` (a table cleared from the broker: its tile goes, as it would on a restart
    of the display), :class:`Ignored` for the others (the table stays until its state is cleared; nothing is shown of a
    table not shown).

    >>> hall, _ = receive(Hall(), "cardtable/v1/tables/t1/status", b'{"v":1,"status":"offline"}')
    >>> hall, change = receive(hall, "cardtable/v1/tables/t1/state", b"", retained=True)
    >>> change, dict(hall.tables)
    ({'type': 'cleared', 'table': 't1'}, {})
    >>> receive(hall, "cardtable/v1/tables/t1/status", b"")
    Traceback (most recent call last):
    ...
    display.view.Ignored: cardtable/v1/tables/t1/status: cleared on the broker (a table goes with its state)
    """
    if name != "state":
        raise Ignored(f"{topic}: cleared on the broker (a table goes with its state)")
    less = {t: v for t, v in hall.tables.items() if t != table}
    back = {t: v for t, v in hall.read_back.items() if t != table}
    return replace(hall, tables=MappingProxyType(less), read_back=MappingProxyType(back)), {"type": "cleared", "table": table}


def _resume(view: TableView, seq: int, wall: float, state: bool = False) -> tuple[TableView, dict | None]:
    """A view read back from the kept file (``resumed``) on its table's first state or event since: the events the
    table said while the display was stopped are missed when its log moved on meanwhile (a state of another seq, an
    event past the next entry); the timeline says so where they are missing (a ``missed`` line, its ``say``), kept as
    long as the hands it shows hold the gap. An event of the seq seen or before (one published again) waits.

    >>> v = TableView.restored("t1", {"timeline": [{"seq": 7, "kind": "hand_started"}], "violations": [], "bids": {},
    ...                               "results": [], "seq": 7})
    >>> _resume(v, 7, 0.0, state=True)[1], _resume(v, 8, 0.0)[1], _resume(v, 6, 0.0)[0].resumed
    (None, None, 7)
    >>> view, missed = _resume(v, 12, 1000.0, state=True)
    >>> missed["kind"], missed["seq"], view.resumed, [e["kind"] for e in view.timeline]
    ('missed', 7, None, ['hand_started', 'missed'])
    """
    if view.resumed is None or (not state and seq <= view.resumed):
        return view, None
    if seq == view.resumed or (not state and seq == view.resumed + 1):
        return replace(view, resumed=None, cut=None), None
    last = view.timeline[-1]["seq"] if view.timeline else max(view.resumed, 0)
    missed = {"v": 1, "seq": last, "kind": "missed", "at": wall, "data": {"after": view.resumed},
              "say": dict(view.cut) if view.cut else {lang: word(lang, "kept.missed") for lang in LANGS}}
    return replace(view, resumed=None, cut=None).said("events", missed), missed


def named(state: Mapping) -> dict:
    """What of a table's ``state`` (or ``assigned`` event) its sentences take: its players and rulebook. A view read
    back from the kept file says its events with them until its state comes (a kept session's come before it).

    >>> players = {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"}
    >>> kept = {"timeline": [], "violations": [], "bids": {}, "results": [], "seq": 7,
    ...         "named": named({"players": players, "rulebook": "classic-3deck"})}
    >>> play = {"v": 1, "seq": 8, "kind": "play_accepted", "at": 1.0, "data": {"hand": 1, "trick": 1, "seat": "S", "cards": ["S5"]}}
    >>> hall = Hall().with_table(TableView.restored("t1", kept))
    >>> receive(hall, "cardtable/v1/tables/t1/events", json.dumps(play).encode())[1]["data"]["say"]["zh"]
    '第 1 盘第 1 圈：南 王芳 出 ♠5'
    """
    return {"players": state.get("players"), "rulebook": state.get("rulebook")}


def public_health(health: Mapping | None) -> dict | None:
    """``health`` as the pages, public, get it: whether it names a problem (``problem``: true or false), never which
    (its words, ``problem_why``, ``say``: an exception's, a log's path), the console's alone (:func:`display.said.inside`).

    >>> public_health({"every": 2.0, "problem": "OperationalError: database is locked", "say": {}}), public_health(None)
    ({'every': 2.0, 'problem': True}, None)
    """
    if health is None:
        return None
    return {k: v for k, v in health.items() if k not in ("problem_why", "say")} | {"problem": bool(health["problem"])}


def shown(state: dict | None) -> dict | None:
    """``state`` as the hall's pages get it (anyone in the hall may read them, players too): a seat's cards left above
    its book's ``[deal] told_at`` are ``None``, the players' secret (报牌: seeds 002 九 3, 004 三（一）3). The hall
    keeps every count (the console's flags read it).

    >>> shown({"rulebook": "usst-2016", "cards": {"S": 33, "E": 10, "N": 25, "W": 0}})["cards"]
    {'S': None, 'E': 10, 'N': None, 'W': 0}
    """
    deal = dealt(state["rulebook"] or "") if state is not None else None
    if not getattr(deal, "told_at", 0):  # every count told (a Tractor book, or one this display does not have)
        return state
    return state | {"cards": {s: n if deal.tells(n) else None for s, n in state["cards"].items()}}


@cache
def dealt(rulebook: str):
    """``rulebook``'s ``[deal]`` (a climbing book's tells a count or keeps it, ``Deal.tells``); None for a book this
    display does not have."""
    try:
        return load(rulebook).deal
    except ValueError:
        return None


def _tournament(hall: Hall, topic: str, raw: bytes) -> tuple[Hall, dict]:
    parts = topic[len(TOURNAMENT_PREFIX):].split("/")
    if len(parts) != 2 or parts[1] not in TOURNAMENT_MODELS:
        raise Ignored(f"{topic}: not a tournament topic the hall shows")
    tid, name = parts
    try:
        model = TOURNAMENT_MODELS[name].model_validate(_json(raw))
    except (ValidationError, ValueError) as exc:
        raise Ignored(f"{topic}: {_first_line(exc)}") from None
    if model.tournament != tid:
        raise Ignored(f"{topic}: the payload is of tournament {model.tournament!r}")
    payload = model.model_dump(mode="json")
    field_ = "rounds" if name == "round" else "standings"
    new = replace(hall, **{field_: MappingProxyType({**getattr(hall, field_), tid: payload})})
    return new, {"type": name, "tournament": tid, "data": payload}


def _json(raw: bytes) -> object:
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not JSON: {exc}") from None


def _first_line(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        e = exc.errors()[0]
        return f"{'.'.join(map(str, e['loc'])) or 'payload'}: {e['msg']}"
    return str(exc)


__all__ = ["DEVICES", "SHOWN", "STALLED_AFTER", "Hall", "Ignored", "TableView", "receive"]
