"""What a table says, in sentences of one language: its events, violations, flags and the commands it was sent,
with card faces, seat names and the players' names, from the catalogue (``referee/catalogue``). The replay
timeline (``cardtable table replay``) and the pages (``display``) read the same sentences.

>>> zh = Sentences("zh", "tractor", {"S": "王芳", "E": "李强", "N": "张伟", "W": "刘洋"})
>>> zh.event({"kind": "play_accepted", "data": {"hand": 2, "trick": 5, "seat": "E", "cards": ["SQ", "HT", "BJ"]}})
'第 2 盘第 5 圈：东 李强 出 ♠Q ♥10 大王'
>>> en = Sentences("en", "tractor", {"S": "王芳"})
>>> en.event({"kind": "flag_raised", "data": {"flag": "f2", "seat": "S", "kind": "unsure", "cards": ["D5"]}})
"flag 2: S (王芳)'s play ♦5 is an unsure read: please confirm"
>>> zh.violation({"seat": "W", "kind": "overtime", "status": "confirmed", "penalty": {"warning": True},
...               "evidence": {"seconds": 12.4, "limit": 10}})
'西 刘洋 超时（已确认）：警告；用时 12.4 秒，限时 10 秒'
>>> zh.event({"kind": "no_such_event", "data": {"seat": "S"}})
'no_such_event'
>>> zh.event({"kind": "round_over", "data": {"hands": {"SN": [3, 4.0]}}})  # data of a shape no sentence expects
'本轮结束（共 南北 3、4 盘）'

A rules engine's reason (``referee.reasons``) in the reader's language, or in the notation of logs:

>>> why = Reason("tractor.in_trick", trick=2, why=Reason("cards.too_many", card="HT", n=4, decks=3))
>>> zh.reason(why)
'第 2 圈：♥10 出现 4 次，而 3 副牌只有 3 张'
>>> told(Refused(why))
'trick 2: HT appears 4 times, but 3 decks hold only 3'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from referee.catalogue import fill, has, say, speaks, word
from referee.catalogue.kinds import name as kind_name
from referee.reasons import Reason, Refused

SUIT_FACES = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SEAT_KEYS = ("seat", "dealer", "first", "first_bidder", "leader", "to", "loser")
# A reason's values are said by their names: seats, lists of seats, cards (``card``, ``cards``, ``*_card``,
# ``*_cards``), combinations (``type``, ``*_type``), ranks (``rank``, ``level``, ``*_rank``), kinds, a flag, a nested
# reason, a message's field by its path (``where``: keys and indexes), and the words below (a tuple of them joined);
# any other value is a number or a text (a rulebook id, what was typed).
REASON_SEATS = frozenset({"seat", "expected", "dealer", "leader", "turn", "giver", "receiver", "other"})
REASON_SEAT_LISTS = frozenset({"seats", "payers"})
REASON_WORDS = {"suit": "suit", "phase": "phase", "button": "button", "topic": "topic", "team": "team", "side": "side",
                "shape": "shape", "command": "ruling", "game": "game", "table_game": "game", "json": "json", "thing": "thing"}
# An event whose data says so is told by another sentence of the catalogue: ``passed`` -> ``passed_forfeit``.
VARIANTS = (("forfeit", "_forfeit"), ("sat_out", "_sat_out"), ("first_bid_three", "_first"), ("held", "_held"), ("passed", "_passed"),
            ("game_ended", "_game_ended"), ("round_ended", "_round_ended"))


def face(card: str, lang: str) -> str:
    """A card as a person reads it: ``SQ`` -> ``♠Q``, ``HT`` -> ``♥10``, ``BJ`` -> 大王 / big joker.

    >>> face("HT", "zh"), face("LJ", "zh"), face("LJ", "en"), face("??", "en")
    ('♥10', '小王', 'little joker', '??')
    """
    if card in ("BJ", "LJ"):
        return word(lang, f"card.{card}")
    if len(card) == 2 and card[0] in SUIT_FACES:
        return SUIT_FACES[card[0]] + ("10" if card[1] == "T" else card[1])
    return card


def _number(x: Any) -> str:
    """A number as a person writes it: 12.0 -> 12, 12.40 -> 12.4."""
    return f"{x:g}" if isinstance(x, float) else str(x)


def rank_face(rank: Any) -> str:
    """A rank as a person writes it: ``T`` -> 10 (``A+``, past A, as it is)."""
    return "10" if rank == "T" else str(rank)


class Sentences:
    """Sentences in ``lang`` for a table of ``game`` (``tractor``, ``guandan``, ``sandayi``) seating ``players``;
    ``codes``: cards in the conformance notation and seats as letters (logs, the judge), not faces and names."""

    def __init__(self, lang: str, game: str = "tractor", players: Mapping[str, str | None] | None = None, codes: bool = False):
        self.lang, self.game, self.codes = lang, game, codes
        self.players = {} if codes else {s: p for s, p in (players or {}).items() if p}

    def __repr__(self) -> str:
        return f"Sentences({self.lang!r}, {self.game!r}, {self.players!r}" + (", codes=True)" if self.codes else ")")

    def _say(self, key: str, **values: Any) -> str:
        return say(self.lang, key, **values)

    def _word(self, section: str, key: Any, default: str | None = None) -> str:
        return word(self.lang, f"{section}.{key}", default if default is not None else str(key))

    def _game_word(self, section: str, key: Any) -> str:
        """A word of this table's game where its game has one (``phase.sandayi.kitty``: 拿底牌, not 扣底).

        >>> Sentences("zh", "sandayi")._game_word("phase", "kitty"), Sentences("zh")._game_word("phase", "kitty")
        ('拿底牌', '扣底')
        """
        return word(self.lang, f"{section}.{self.game}.{key}", self._word(section, key))

    # -- values -------------------------------------------------------------------------------------
    def seat(self, seat: Any) -> str:
        if self.codes and seat is not None:
            return str(seat)
        if seat is None:
            return self._word("word", "undecided")
        name = self._word("seat", seat)
        player = self.players.get(seat)
        return self._say("word.player", seat=name, player=player) if player else name

    def seats(self, seats: list) -> str:
        return self._word("word", "list").join(self.seat(s) for s in seats)

    def cards(self, cards: Any) -> str:
        show = (lambda c: str(c)) if self.codes else (lambda c: face(c, self.lang))
        if isinstance(cards, str):
            return show(cards)
        return " ".join(show(c) for c in cards) if isinstance(cards, (list, tuple)) else _number(cards)

    def flag_no(self, flag: Any) -> str:
        text = str(flag)
        return self._say("word.flag_no", n=text[1:] if text[:1] in ("f", "v") and text[1:].isdigit() else text)

    def team(self, team: Any) -> str:
        return self._word("team", team)

    def by_team(self, values: Mapping) -> str:
        return self._word("word", "sep").join(f"{self.team(t)} {v}" for t, v in values.items())

    def by_seat(self, values: Mapping, signed: bool = True) -> str:
        return self._word("word", "sep").join(f"{self.seat(s)} {v:+g}" if signed else f"{self.seat(s)} {v:g}"
                                              for s, v in values.items())

    def duration(self, minutes: float) -> str:
        """Minutes (as the table publishes them, to the hundredth) in minutes and seconds, a second begun counted:
        1.13 -> 1 分 8 秒, 6.0 -> 6 分钟, 0.5 -> 30 秒.

        >>> Sentences("zh").duration(1.13), Sentences("en").duration(20.01), Sentences("zh").duration(6.0)
        ('1 分 8 秒', '20 min 1 s', '6 分钟')
        """
        m, s = divmod(math.ceil(round(minutes * 60, 6)), 60)
        if not s:
            return self._say("word.mins", m=m)
        return self._say("word.min_sec", m=m, s=s) if m else self._say("word.secs", s=s)

    def players_line(self, players: Mapping) -> str:
        return self._word("word", "sep").join(self._say("word.player", seat=self._word("seat", s), player=n)
                                              for s, n in players.items())

    # -- events -------------------------------------------------------------------------------------
    def _template(self, kind: str, data: Mapping) -> str | None:
        variant = kind + next((suffix for key, suffix in VARIANTS if data.get(key)), "")
        if kind == "ready" and data.get("minutes_late"):
            variant = "ready_late"
        if kind == "hand_started" and data.get("dealer") is None:
            variant = "hand_started_first"
        if kind == "game_won" and "games" not in data:
            variant = "game_won_by"
        if kind == "rejected" and (data.get("why") or speaks(str(data.get("reason", "")), self.lang)):
            variant = "rejected_why"
        for key in (f"event.{self.game}.{variant}", f"event.{self.game}.{kind}", f"event.{variant}", f"event.{kind}"):
            if has(self.lang, key):
                return key
        return None

    def event(self, e: Mapping) -> str:
        """One event as a sentence; a kind the catalogue does not know yet is shown by its name."""
        kind, data = e.get("kind", ""), dict(e.get("data") or {})
        key = self._template(kind, data)
        if key is None:
            return str(kind)
        return fill(self.lang, key, Values(self._values(kind, data)))

    def _values(self, kind: str, data: Mapping) -> dict[str, Any]:
        values: dict[str, Any] = {k: self._plain(v) for k, v in data.items()}
        for key in SEAT_KEYS:
            if key in data:
                values[key] = self.seat(data[key])
        for key in data:
            if key in ("cards", "card") or key.endswith(("_card", "_cards")):
                values[key] = self.cards(data[key])
        for key in ("finish", "seats"):
            if isinstance(data.get(key), list):
                values[key] = self.seats(data[key])
        for key in ("scores", "totals", "points"):
            if isinstance(data.get(key), dict):
                values[key] = self.by_seat(data[key], signed=key != "points")
        if isinstance(data.get("levels"), dict):
            values["levels"] = self.by_team(data["levels"])
        if isinstance(data.get("games"), dict):
            values["games"] = self.by_team(data["games"])
        for key in ("team", "defenders"):  # a side by its seats (南北), or a San Da Yi side (庄家, 同盟)
            if key in data:
                values[key] = self.team(data[key])
        if isinstance(data.get("teams"), list):
            values["teams"] = self._word("word", "list").join(self.team(t) for t in data["teams"])
        if "kind" in data:
            values["kind"] = kind_name(data["kind"], self.lang)
        if "flag" in data:
            values["flag"] = self.flag_no(data["flag"])
        for key, section in (("by", "by"), ("winner", "winner"), ("how", "how"), ("topic", "topic")):
            if key in data:
                values[key] = self._word(section, data[key])
        for key in ("minutes_late", "minutes"):  # how late: 1.13 -> 1 分 8 秒
            if isinstance(data.get(key), (int, float)) and not isinstance(data[key], bool):
                values[key] = self.duration(data[key])
        if kind == "bid":
            values["bid"] = self._word("bid", data.get("bid"))
        if kind == "camera_lost":
            values["reason"] = self._word("lost", data.get("reason", "unsaid"))
        if kind == "assigned":
            values["players"] = self.players_line(data.get("players") or {})
        if kind == "kitty_taken":
            values["trump"] = self._word("suit", data["trump"]) if data.get("trump") else self._word("word", "undecided")
        if kind == "trump_named":
            values["suit"] = self._word("suit", data.get("suit") or "none")
        if kind == "tribute_shown" and isinstance(data.get("cards"), list):  # 抗贡's cards, a list: 大王、大王
            values["cards"] = self._word("word", "list").join(self.cards(c) for c in data["cards"])
        if kind == "hand_scored" and self.game == "tractor":
            values["result"] = self.result(data)
        if kind == "reported":
            values["play"] = self._word("report", "play" if data.get("play") else "no_play")
        if kind == "flag_raised":
            values["text"] = self.flag(data)
        if kind == "rejudged":  # the results as judged before and after an amendment, each said as its event
            for key in ("was", "now"):
                said = [self._say("word.at_levels", result=self.event(r), levels=self.by_team(r["levels"])) if r.get("levels")
                        else self.event(r) for r in data.get(key) or []]
                values[key] = self._word("word", "sep").join(said) if said else self._word("word", "none")
        if kind == "rejected" and data.get("why"):
            values["reason"] = self.reason(data["why"])
        if "exchanges" in data:
            values["exchanges"] = self._word("word", "sep").join(
                self._say("event.exchange", giver=self.seat(x.get("from")), receiver=self.seat(x.get("to")),
                          card=self.cards(x.get("card", ""))) for x in data["exchanges"])
        if "ahead" in data:
            values["ahead"] = (self._say("event.guandan.ahead", team=self.team(data["ahead"])) if data["ahead"]
                               else self._word("event.guandan", "level_tie"))
        return values

    def _plain(self, value: Any) -> Any:
        """A value no sentence below says in its own way, never as JSON: a list joined, a mapping as ``key value``
        pairs (a team or a seat first), a float as a person writes it."""
        if isinstance(value, float):
            return _number(value)
        if isinstance(value, list):
            return self._word("word", "list").join(str(self._plain(x)) for x in value)
        if isinstance(value, Mapping):
            return self._word("word", "sep").join(f"{self._word('team', k, self._word('seat', k))} {self._plain(v)}"
                                                  for k, v in value.items())
        return value

    def result(self, data: Mapping) -> str:
        if data.get("replay"):
            return self._say("result.replay")
        side, n = data.get("side"), data.get("levels", 0)
        if side == "dealer":
            return self._say("result.dealer", n=n)
        return self._say("result.defenders_up", n=n) if n else self._say("result.defenders")

    def play(self, seat: Any, entry: int | None, cards: list) -> str:
        """A play by its log entry, or (no entry: a flagged read) the cards a seat showed."""
        if entry is None:
            return self._say("word.shown", seat=self.seat(seat), cards=self.cards(cards))
        return self._say("word.play", entry=entry, seat=self.seat(seat), cards=self.cards(cards))

    # -- a rules engine's reasons --------------------------------------------------------------------
    def reason(self, why: Reason | Mapping) -> str:
        """A reason (``referee.reasons``, or its JSON form) as a sentence; one the catalogue does not know (a
        newer table's) is its key."""
        try:
            r = why if isinstance(why, Reason) else Reason.of(why)
        except (ValueError, TypeError):
            return self._word("word", "unknown")
        key = f"reason.{r.key}"
        if not has(self.lang, key):
            return r.key
        game = r.key.split(".", 1)[0]
        return fill(self.lang, key, Values({name: self._reason_value(name, v, game) for name, v in r.values.items()}))

    def _reason_value(self, name: str, value: Any, game: str) -> str:
        if isinstance(value, Reason):
            return self.reason(value)
        if name in REASON_SEATS:
            return self.seat(value)
        if name in REASON_SEAT_LISTS:
            return self.seats(list(value))
        if name in ("card", "cards") or name.endswith(("_card", "_cards")):
            if isinstance(value, tuple) and value and isinstance(value[0], tuple):  # several groups of cards
                if value[0] and isinstance(value[0][0], tuple):  # several ways to group them (a flag's choices), numbered from 1
                    return self._word("word", "sep").join(f"({i}) {self._reason_value(name, v, game)}" for i, v in enumerate(value, 1))
                return " | ".join(self.cards(list(v)) for v in value)
            return self.cards(list(value) if isinstance(value, tuple) else value)
        if name == "where":
            return self.where(value)
        if name in REASON_WORDS:
            words = value if isinstance(value, tuple) else (value,)
            return self._word("word", "or").join(self._game_word(REASON_WORDS[name], w) for w in words)
        if name in ("kind", "kinds"):
            kinds = value if isinstance(value, tuple) else (value,)
            return self._word("word", "list").join(kind_name(str(k), self.lang) for k in kinds)
        if name == "flag":
            return self.flag_no(value)
        if name == "patterns":  # the rulebook's own patterns (seed 003: 1112222+散牌)
            return self._word("word", "list").join(p.replace("散牌", self._word("word", "odd_cards")) for p in value)
        if name in ("type", "types") or name.endswith("_type"):
            types = value if isinstance(value, tuple) else (value,)
            return self._word("word", "list").join(self._word(f"combo.{game}", t) for t in types)
        if name in ("rank", "level") or name.endswith("_rank"):
            return face(value, self.lang) if value in ("BJ", "LJ") else rank_face(value)
        if isinstance(value, tuple):
            return self._word("word", "list").join(self._reason_value(name, v, game) for v in value)
        return _number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)

    def where(self, path: Any) -> str:
        """A field of a message by its path, as a person counts: ``("cards", 1)`` -> 字段 `cards` 的第 2 项; the
        whole message for an empty path.

        >>> Sentences("zh").where(("players", "S")), Sentences("en").where(("cards", 1)), Sentences("en").where(())
        ('字段 `players` 中的 `S`', 'field `cards` item 2', 'the message')
        """
        parts = list(path) if isinstance(path, (tuple, list)) else [path]
        if not parts:
            return self._word("word", "message")
        said = [self._say("word.field", name=parts[0])]
        for part in parts[1:]:
            said.append(self._say("word.item", n=part + 1) if isinstance(part, int) else self._say("word.key", name=part))
        return "".join(said)

    # -- flags, violations, commands ------------------------------------------------------------------
    def flag(self, f: Mapping) -> str:
        """What a flag asks of the referee (a flag of ``state``, or a ``flag_raised`` event's data), with its reason
        where the kind's sentence says it (``flag.{kind}_why``; a kind always raised with one, ``idle``, has that alone)."""
        kind = f.get("kind", "")
        keys = ([f"flag.{kind}_why"] if f.get("why") else []) + [f"flag.{kind}", "flag.other"]
        key = next(k for k in keys if has(self.lang, k))
        return fill(self.lang, key, {"seat": self.seat(f.get("seat")), "cards": self.cards(list(f.get("cards") or [])),
                                     "kind": kind_name(kind, self.lang), "why": self.reason(f["why"]) if f.get("why") else ""})

    def violation(self, v: Mapping, brief: bool = False) -> str:
        """A violation as a sentence; ``brief``: who, what, its status and penalty only (a tile's line)."""
        ev = {} if brief else v.get("evidence") or {}
        where = ""
        if "hand" in ev and ev.get("trick"):
            where = self._say("violation.where", hand=ev["hand"], trick=ev["trick"])
        elif "hand" in ev:
            where = self._say("violation.where_hand", hand=ev["hand"])
        items = []
        if "seconds" in ev:
            items.append(self._say("violation.seconds", s=f"{ev['seconds']:.1f}".removesuffix(".0")))
        if "limit" in ev:
            items.append(self._say("violation.limit", s=_number(ev["limit"])))
        if ev.get("cards"):
            items.append(self._say("violation.cards", cards=self.cards(list(ev["cards"]))))
        if "fouls" in ev and "limit" not in ev:
            items.append(self._say("violation.fouls", fouls=ev["fouls"], limit=ev.get("limit", "?")))
        if ev.get("why"):
            items.insert(0, self.reason(ev["why"]))
        values = {"seat": self.seat(v.get("seat")), "kind": kind_name(v.get("kind", ""), self.lang),
                  "status": self._word("status", v.get("status")), "where": where,
                  "penalty": self.penalty(v.get("penalty") or {})}
        if items:
            return self._say("violation.line_evidence", evidence=self._word("word", "sep").join(items), **values)
        return self._say("violation.line", **values)

    def penalty(self, p: Mapping) -> str:
        parts = []
        if p.get("warning"):
            parts.append(self._say("penalty.warning"))
        if p.get("points"):
            parts.append(self._say("penalty.points", n=p["points"]))
        if p.get("levels"):
            parts.append(self._say("penalty.levels", n=p["levels"]))
        if p.get("deal"):
            parts.append(self._say("penalty.deal"))
        if p.get("forfeit"):
            parts.append(self._say("penalty.forfeit", what=self._word("penalty", p["forfeit"])))
        if p.get("foul"):
            parts.append(self._say("penalty.foul"))
        text = str(p.get("text") or "")
        if not parts and text:
            parts.append(text if speaks(text, self.lang) else self._say("penalty.by_rules"))
        return self._word("word", "sep").join(parts) or self._say("penalty.none")

    def command(self, p: Mapping) -> str:
        """A command sent to the table (``commands`` payload) as the words of the timeline and the console."""
        command = p.get("command", "")
        if not has(self.lang, f"command.{command}"):
            return str(command)
        named = "_cards" if command == "foul" and p.get("cards") else ""  # a foul naming its cards (000 第十八条)
        return fill(self.lang, f"command.{command}{named}", Values({
            "players": self.players_line(p.get("players") or {}), "rulebook": p.get("rulebook"),
            "flag": self.flag_no(p.get("flag")), "cards": self.cards(list(p.get("cards") or [])),
            "entry": p.get("entry"), "seat": self.seat(p.get("seat")),
            "kind": kind_name(p.get("kind", ""), self.lang),
            "play": self._word("report", "play" if p.get("play") else "no_play")}))


def told(error: BaseException, lang: str = "en", game: str = "tractor") -> str:
    """An error as the logs and the judge write it: a rules engine's reason in ``lang`` with card codes and seat
    letters (``Refused``), the words of ``game`` where it has its own (a phase), any other error its message."""
    if isinstance(error, Refused):
        return Sentences(lang, game, codes=True).reason(error.reason)
    return str(error)


class FlagNo:
    """A flag's id as a value of a sentence (a refusal's), said in the sentence's language: ``f3`` -> 第 3 号标记."""

    def __init__(self, flag: str):
        self.flag = flag

    def __repr__(self) -> str:
        return f"FlagNo({self.flag!r})"

    def text(self, lang: str) -> str:
        return Sentences(lang).flag_no(self.flag)


class Values(dict):
    """The values of a sentence; one the data lacks (an older or a newer table) reads ``?``, never a brace."""

    def __missing__(self, key: str) -> str:
        return "?"


__all__ = ["FlagNo", "Sentences", "Values", "face", "rank_face", "told"]
