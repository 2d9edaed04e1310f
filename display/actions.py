"""The console's actions in words: the line of the audit log for each change, which is also the one line that
confirms an action to the person who made it. From the catalogue's ``action.*`` (``referee/catalogue``), with
card faces, seat names and flag numbers as the table's sentences say them.

>>> line("zh", "李明", "referee", "correct", {"table": "t08", "id": "c-1", "flag": "f2", "cards": ["SQ", "HQ", "HT"]})
'裁判 李明 将 t08 桌第 2 号标记更正为 ♠Q ♥Q ♥10'
>>> line("en", "wang", "organiser", "amend", {"table": "t08", "entry": 41, "cards": ["S9"], "seat": "E", "was": ["S8"],
...                                          "player": "李强"})
"organiser wang amended E (李强)'s play 41 at t08 from ♠8 to ♠9"
>>> line("zh", "wang", "organiser", "record_result", {"round": 2, "table": "t03", "result": {"winner": 1, "games": [1, 2]}})
'组织者 wang 录入第 2 轮 t03 桌成绩：本桌第二方胜，局数 1 : 2'
>>> line("zh", "li", "referee", "foul", {"table": "r2", "seat": "E", "kind": "revoke_corrected", "cards": ["SK", "H5"]})
'裁判 li 判 r2 桌 东 犯规：当圈更正出错牌，更正的牌 ♠K ♥5'
>>> line("en", "li", "referee", "dismiss", {"table": "t1", "flag": "f3", "reading": 2,
...                                         "structure": [["SA", "SA", "SK", "SK"], ["SA"]]})
'referee li dismissed flag 3 at t1: its player stated reading 2, ♠A ♠A ♠K ♠K + ♠A'
>>> line("zh", "li", "referee", "dismiss", {"table": "g1", "flag": "f9", "reading": 2, "structure": [["S4", "S5", "S6", "C7", "H9"]],
...                                         "words": {"key": "guandan.reading_to", "values": {"type": "straight", "rank": "8"}}})
'裁判 li 撤销 g1 桌第 9 号标记：出牌者说明了第 2 种读法 到 8 的顺子 ♠4 ♠5 ♠6 ♣7 ♥9'
>>> line("en", "wang", "gone", "no_such_action", {})
'gone wang: no_such_action'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.catalogue import fill, has, say, word
from referee.catalogue.kinds import name as kind_name
from referee.catalogue.sentences import Sentences, Values


def outcome(lang: str, result: Mapping, named: Mapping[str, Mapping] | None = None) -> str:
    """A table's result as the console entered it (``winner`` 0 or 1 or ``draw``, ``levels``, ``games``, ``scores``,
    and the ``forfeits`` entered with it, each as ``named`` says it: :func:`entry_named`).

    >>> outcome("zh", {"scores": [30, 0, -5, 12.5], "forfeits": ["e06"]})
    '小分 30 : 0 : -5 : 12.5，弃权 e06'
    """
    parts = []
    if result.get("winner") in (0, 1):
        parts.append(word(lang, f"outcome.winner{result['winner']}"))
    elif result.get("draw") or "winner" in result:
        parts.append(word(lang, "outcome.draw"))
    for key in ("levels", "games", "scores"):
        if isinstance(result.get(key), list):
            parts.append(say(lang, f"outcome.{key}", **{key: " : ".join(str(x) for x in result[key])}))
    if result.get("forfeits"):
        parts.append(say(lang, "outcome.forfeits", entries=word(lang, "word.list").join(
            entry_named(lang, e, named or {}) for e in result["forfeits"])))
    return word(lang, "word.sep").join(parts)


def entry_named(lang: str, eid: str, named: Mapping[str, Mapping]) -> str:
    """An entry as the hall knows it: its lot number, name and unit (``named``: id -> ``lot``, ``name``, ``unit``,
    ``team``, as the console keeps them with the change); a pair of pair Swiss by its team, as the pages name it (the
    unit once), its players after it; its id where it has none.

    >>> entry_named("zh", "e01", {"e01": {"lot": 1, "name": "张伟/李娜", "unit": "工会"}})
    '1号 张伟/李娜 工会'
    >>> entry_named("en", "e02", {"e02": {"lot": None, "name": "计算机学院", "unit": "计算机学院"}})
    '计算机学院'
    >>> entry_named("en", "u01p2", {"u01p2": {"lot": 3, "name": "甲12、乙12", "unit": "单位01", "team": "一队"}})
    'No. 3 一队 单位01 甲12、乙12'
    """
    e = named.get(eid)
    if not isinstance(e, Mapping):
        return str(eid)
    lot = say(lang, "ui.lot_no", n=e["lot"]) if e.get("lot") else ""
    first = e.get("team") or e.get("name")
    rest = e.get("name") if e.get("team") else ""
    return " ".join(x for x in (lot, first, e.get("unit") if e.get("unit") != first else "", rest) if x)


def line(lang: str, user: str, role: str, action: str, detail: Mapping[str, Any]) -> str:
    """One change (``action`` with its ``detail``, as the audit log keeps it) by ``user`` of ``role``, in ``lang``; a
    change made at the command line (``detail["via"]``: ``command_line``) by ``user``, the console server's OS user.

    >>> line("zh", "root", "", "remove_user", {"via": "command_line", "user": "李明"})
    '控制台服务器上的命令行（系统用户 root） 删除用户 李明，其会话全部结束'
    >>> line("zh", "cardtable", "", "unlock_user", {"via": "command_line", "login": "wang", "user": "li", "n": 3})
    '控制台服务器上的命令行（登录用户 wang，以系统用户 cardtable 运行） 解除用户 li 的登录锁定（清除 3 次登录失败记录）'
    >>> line("en", "wang", "organiser", "withdraw_entry", {"entry": "e07", "reason": ""})
    'organiser wang recorded that e07 withdrew (reason: none given)'
    """
    named = detail.get("named") if isinstance(detail.get("named"), Mapping) else {}
    said = Sentences(lang, players={detail["seat"]: detail.get("player")} if "seat" in detail else None)
    values: dict[str, Any] = {k: v for k, v in detail.items() if isinstance(v, (str, int, float))}
    if detail.get("reason") == "":  # a change made without its reason (the API and the command line allow it)
        values["reason"] = word(lang, "word.no_reason")
    if detail.get("via") != "command_line":
        values["who"] = say(lang, "action.who", role=word(lang, f"role.{role}"), user=user)
    elif "login" in detail:  # run through sudo: the person logged in, and the OS user it ran as
        values["who"] = say(lang, "action.who_login", user=user, login=detail["login"])
    else:
        values["who"] = say(lang, "action.who_command_line", user=user)
    if "flag" in detail:
        values["flag"] = said.flag_no(detail["flag"])
    for key in ("cards", "was"):
        if isinstance(detail.get(key), list):
            values[key] = said.cards(detail[key])
    if "seat" in detail:
        values["seat"] = said.seat(detail["seat"])
    if "kind" in detail:
        values["kind"] = kind_name(detail["kind"], lang)
    if "play" in detail:
        values["play"] = word(lang, "report.play" if detail["play"] else "report.no_play")
    if isinstance(detail.get("players"), Mapping):
        values["players"] = said.players_line(detail["players"])
    if "system" in detail:
        values["system"] = word(lang, f"system.{detail['system']}", str(detail["system"]))
    if "role" in detail:
        values["role"] = word(lang, f"role.{detail['role']}", str(detail["role"]))
    if isinstance(detail.get("result"), Mapping):
        values["result"] = outcome(lang, detail["result"], named)
    if action == "late_arrival" and isinstance(detail.get("minutes"), (int, float)):  # as typed: 3.0 -> 3 分钟, 2.5 -> 2 分 30 秒
        values["minutes"] = said.duration(detail["minutes"])
    if "entry" in detail:  # an entry by its lot number, name and unit, as the console names it
        values["entry"] = entry_named(lang, detail["entry"], named)
    for key in ("entries", "order", "missing", "tables"):
        if isinstance(detail.get(key), list):
            values[key] = word(lang, "word.list").join(entry_named(lang, x, named) if key in ("entries", "order") else str(x)
                                                       for x in detail[key])
    key = f"action.{action}"
    if action == "amend" and "was" in values:
        key = "action.amend_was"
    if action == "dismiss" and "reading" in values:  # the structure its player stated (001 十五; 002 二), its cards besides
        key = "action.dismiss_reading"
        values["structure"] = " + ".join(said.cards(u) for u in detail.get("structure") or [] if isinstance(u, list)) or "?"
        if isinstance(detail.get("words"), Mapping):  # a Guandan play's reading in words (到 8 的顺子) before its cards
            values["structure"] = f'{said.reason(detail["words"])} {values["structure"]}'

    if action == "foul" and "cards" in values:  # the cards it names (000 第十八条: the wrong play corrected)
        key = "action.foul_cards"
    if action == "start_tournament_round" and detail.get("missing"):
        key = "action.start_tournament_round_missing"
    if not has(lang, key):
        return say(lang, "action.other", who=values["who"], action=action)
    return fill(lang, key, Values(values))


class Said:
    """A value of a refusal said in the reader's language when the refusal is said (``referee.catalogue.said``): a
    table's reason, an audit line.

    >>> Said(lambda lang: line(lang, "li", "referee", "dismiss", {"table": "t1", "flag": "f3"})).text("en")
    'referee li dismissed flag 3 at t1'
    """

    def __init__(self, say: Callable[[str], str]):
        self.say = say

    def text(self, lang: str) -> str:
        return self.say(lang)


__all__ = ["Said", "entry_named", "line", "outcome"]
