"""The hall's words: each event and violation of a table said in every language with its players (``display.view``
puts them in the hall's changes), and what the console alone reads of a table (:func:`inside`): why its service would
not start, the problem its health names, why it is stalled. A table's reason comes as data (a catalogue key and its
values) beside the service's own words (English, a file's path and all); :func:`told` says it in every language, the
service's words where this display does not know the key."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Protocol

from referee.catalogue import LANGS, CatalogueError, fill, say, word
from referee.catalogue.sentences import Sentences
from referee.rulebooks import load
from referee.tournament.reports import game_of


def sentences(state: Mapping | None, tell: Callable[[Sentences], str]) -> dict[str, str]:
    """A sentence in every language, with the game and players of a table's ``state`` (or whom it named: only its
    ``rulebook`` and ``players`` are read).

    >>> sentences({"rulebook": "classic-3deck", "players": {"S": "王芳"}}, lambda t: t.seat("S"))
    {'zh': '南 王芳', 'en': 'S (王芳)'}
    """
    state = state or {}
    game = rulebook_game(state.get("rulebook") or "classic-3deck")
    return {lang: tell(Sentences(lang, game, state.get("players"))) for lang in LANGS}


def round_won(said: Sentences, timeline: Sequence[dict], e: dict) -> str:
    """Who won a Tractor round that the clock or the announced last hand ended, its sentence's end: its ``round_over``
    names no side, the tournament reads the levels (:func:`referee.tournament.reports.game_of`: the higher level wins,
    equal levels draw), those of the hand's ``levels_changed`` in ``timeline`` (the state that shows them comes after
    the event)."""
    changed = next((x for x in reversed(timeline) if x["kind"] == "levels_changed"), None)
    if e["kind"] != "round_over" or said.game != "tractor" or changed is None:
        return ""
    winner, _ = game_of("round_over", e["data"], changed["data"]["levels"])
    ended = say(said.lang, "result.round_won", team=said.team(winner)) if winner else word(said.lang, "result.round_drawn")
    return word(said.lang, "word.sep") + ended


@cache
def rulebook_game(rulebook: str) -> str:
    """The game ``rulebook`` is of (a rulebook this display does not have: Tractor's, the shared sentences)."""
    try:
        return load(rulebook).game
    except ValueError:  # a rulebook this display does not have: the shared sentences
        return "tractor"


def told(key: str, values: Callable[[str], Mapping], words: str, frame: str | None = None) -> dict[str, str]:
    """A service's reason in every language: the catalogue's ``key`` filled with ``values(lang)``; a key this display
    does not know (a newer service's), or values that do not fit it: the service's own ``words``, marked as English,
    never blank; each put in ``frame``'s ``why`` where there is one.

    >>> told("health.fire", lambda lang: {}, "on fire", frame="health.refused")
    {'zh': '未能启动：（英文原话）on fire', 'en': 'would not start: on fire'}
    """
    said = {}
    for lang in LANGS:
        try:
            text = fill(lang, key, values(lang))
        except CatalogueError:
            text = say(lang, "health.in_english", text=words)
        said[lang] = say(lang, frame, why=text) if frame else text
    return said


def problem_said(health: Mapping) -> dict[str, str] | None:
    """A health's problem in every language (``say``; None without one): its ``problem_why`` said by the catalogue's
    ``health`` section, an error by the entry its ``code`` names (:func:`told`).

    >>> why = {"key": "logging_fails", "values": {"error": "OperationalError: database is locked", "code": "sqlite.locked"}}
    >>> problem_said({"problem": "logging inputs fails: OperationalError: database is locked; no clock rules",
    ...               "problem_why": why})["zh"]
    '输入记不进日志：另一个程序锁住了它；计时不作裁决'
    >>> problem_said({"problem": "on fire", "problem_why": {"key": "fire", "values": {}}}), problem_said({"problem": None})
    ({'zh': '（英文原话）on fire', 'en': 'on fire'}, None)
    """
    if not health.get("problem"):
        return None
    why = health.get("problem_why") or {}
    values = why.get("values") or {}
    return told(f"health.{why.get('key')}", lambda lang: {k: _problem_value(k, v, values, lang) for k, v in values.items()},
                health["problem"])


def refused_said(status: Mapping) -> dict[str, str] | None:
    """Why the table's service would not start (an ``offline`` status with ``why``: ``referee.table.refused``) in every
    language, None for any other status: the catalogue's ``replay.why_*``, a value that is a word of the catalogue in
    its words (:func:`told`).

    >>> why = {"key": "other_table", "values": {"table": "t08", "rulebook": "classic-3deck", "this": "t07",
    ...                                         "this_rulebook": "zhongkai-2010"}}
    >>> refused_said({"status": "offline", "reason": "the log of table t08", "why": why})["zh"]
    '未能启动：它是 t08 桌（classic-3deck）的日志，不是 t07 桌（zhongkai-2010）的'
    >>> refused_said({"status": "offline", "reason": "on fire", "why": {"key": "fire", "values": {}}})["en"]
    'would not start: on fire'
    >>> refused_said({"status": "offline"}), refused_said({"status": "online", "why": why})
    (None, None)
    """
    why = status.get("why")
    if status["status"] != "offline" or not why:
        return None
    return told(f"replay.why_{why['key']}",
                lambda lang: {k: word(lang, v["key"], v["text"]) if isinstance(v, dict) else v for k, v in why["values"].items()},
                status.get("reason") or why["key"], frame="health.refused")


def _problem_value(name: str, value: object, values: Mapping, lang: str) -> str:
    """One value of a problem in ``lang``: the error in the catalogue's words where its ``code`` names them, a list of
    names joined (none: unknown), anything else as sent."""
    code = values.get("code")
    if name == "error" and isinstance(code, str) and code.startswith(("oserror.", "sqlite.")):
        return word(lang, code, str(value))
    if isinstance(value, list):
        return word(lang, "word.list").join(map(str, value)) or word(lang, "word.unknown")
    return str(value)


class Seen(Protocol):
    """A table as the hall knows it (``display.view.TableView``): what :func:`inside` reads of it."""

    table: str
    refused: dict | None
    health: dict | None

    def live(self, now: float) -> dict: ...


def inside(view: Seen, now: float) -> dict:
    """What the console alone reads of a table (``routers.tables.inside``): why its service would not start
    (``not_started``: the status's ``reason``, ``why``, ``say``), its health's problem (``problem``: in the logs'
    words, as data, said), why it is stalled (``stalled``: its ``live`` why); None each where there is none. The
    public pages get that it would not start, that its health names a problem, that it is stalled, never these.

    >>> import json
    >>> from bus.protocol import schema
    >>> from display.view import Hall, receive
    >>> hall, _ = receive(Hall(), "cardtable/v1/tables/t1/status", b'{"v":1,"status":"online"}')
    >>> hall, _ = receive(hall, "cardtable/v1/tables/t1/health", json.dumps(schema("health")["examples"][1]).encode())
    >>> told = inside(hall.tables["t1"], now=0.0)
    >>> told["problem"]["problem"], told["not_started"], told["stalled"] == told["problem"]["problem"]
    ('logging inputs fails: OperationalError: database is locked; no clock rules', None, True)
    """
    h = view.health
    problem = {k: h.get(k) for k in ("problem", "problem_why", "say")} if h and h["problem"] else None
    return {"table": view.table, "not_started": view.refused, "problem": problem, "stalled": view.live(now)["why"]}


__all__ = ["inside", "problem_said", "refused_said", "round_won", "rulebook_game", "sentences", "told"]
