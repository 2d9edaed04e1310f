"""What a table's events say about its game, for the tournament (pure): who won a game and on which levels
(:func:`game_of`), who lost the round for lateness (:func:`forfeits_of`), and a San Da Yi round's 小分 by entry
(:func:`scores_of`). The tournament service (``service.py``) drives them; ``bus/PROTOCOL.md`` "Tournament topics"
says what it takes from which event."""

from __future__ import annotations

from referee.seats import SEATS
from referee.tournament.base import level_index
from referee.tournament.core import TournamentError

SIDES = ("SN", "EW")
TEN = "10"  # the level of ten as the tournament writes it (the tables' ``T``)


def game_of(kind: str, data: dict, levels: dict | None, first_to_level: bool = False) -> tuple[str | None, dict | None] | None:
    """(winning side or None for a draw, the levels by side) of a game-ending event; else None. When the round clock
    ends a game on equal levels it is a draw, or, where the system's rule is ``first_to_level`` (seed 002 三2: 同级时
    先到胜), won by the side the table names ``ahead``; refused when the table names none (no hand was played).

    >>> game_of("game_won", {"team": "EW"}, {"SN": "9", "EW": "A"})
    ('EW', {'SN': '9', 'EW': 'A+'})
    >>> game_of("round_over", {"hands": 7}, {"SN": "9", "EW": "9"})
    (None, {'SN': '9', 'EW': '9'})
    >>> game_of("round_over", {"hands": 7}, {"SN": "J", "EW": "9"})[0]
    'SN'
    >>> game_of("round_over", {"hands": 7, "ahead": "EW"}, {"SN": "9", "EW": "9"})[0] is None  # a draw (seed 000)
    True
    >>> game_of("round_over", {"hands": 7, "ahead": "EW"}, {"SN": "9", "EW": "9"}, first_to_level=True)[0]
    'EW'
    >>> game_of("round_over", {"hands": 0, "ahead": None}, {"SN": "2", "EW": "2"}, first_to_level=True)
    Traceback (most recent call last):
    ...
    referee.tournament.core.TournamentError: 比赛时间结束时双方同为 2 级，桌上没有说哪一方先到（同级时先到胜）：请手工录入结果

    The tables write the level of ten as the card's rank, ``T``; the tournament as people write it, ``10``:

    >>> game_of("round_over", {"hands": 9}, {"SN": "T", "EW": "9"})
    ('SN', {'SN': '10', 'EW': '9'})
    """
    levels = {s: TEN if v == "T" else v for s, v in levels.items()} if levels is not None else None
    if kind == "game_won" and data.get("team") in SIDES:
        levels = dict(levels or {})
        if data.get("by") != "time" and data.get("passed", "A") == "A":  # past A, which no level shows
            levels[data["team"]] = "A+"  # (stage two's game past 8, or one won on time: the levels as they stood)
        return data["team"], (levels if set(levels) == set(SIDES) else None)
    if kind == "round_over" and levels is not None:
        a, b = (level_index(levels[s]) for s in SIDES)
        if a != b:
            return (SIDES[0] if a > b else SIDES[1]), dict(levels)
        if not first_to_level:
            return None, dict(levels)
        if data.get("ahead") not in SIDES:
            raise TournamentError("level_tie", level=levels[SIDES[0]])
        return data["ahead"], dict(levels)
    return None


def match_of(kind: str, data: dict) -> tuple[str, dict | None] | None:
    """(the winning side, the games by side or None) of a match of several games (Guandan stage two) that the table
    decided otherwise than by a game won: the hour (``round_over`` naming the ``match``, with its ``games``), or
    three fouls (``game_won`` by ``fouls`` naming the ``match``, 十 第3条: 本轮判负); else None.

    >>> match_of("round_over", {"by": "time", "match": "SN", "games": {"SN": 1, "EW": 0}})
    ('SN', {'SN': 1, 'EW': 0})
    >>> match_of("game_won", {"team": "EW", "by": "fouls", "loser": "SN", "match": "EW"})
    ('EW', None)
    >>> match_of("game_won", {"team": "EW", "by": "levels", "passed": "8", "games": {"SN": 1, "EW": 2}, "match": "EW"}) is None
    True
    """
    if data.get("match") not in SIDES or not (kind == "round_over" or kind == "game_won" and data.get("by") == "fouls"):
        return None
    games = data.get("games")
    ok = isinstance(games, dict) and set(games) == set(SIDES) and all(type(n) is int and n >= 0 for n in games.values())
    return data["match"], (games if ok else None)


def scores_of(table: str, totals, seats: dict[str, str], entries: tuple[str, ...]) -> list:
    """The result's 小分 in the table's order of ``entries``, from a table of four's ``totals`` by seat and the entry
    at each seat (``seats``); the numbers are checked as any result's.

    >>> scores_of("t03", {"S": 12, "E": -4, "N": 0, "W": -8}, {"S": "e3", "E": "e1", "N": "e4", "W": "e2"}, ("e1", "e2", "e3", "e4"))
    [-4, -8, 12, 0]
    >>> scores_of("t03", {"S": 12, "E": -4}, {"S": "e3", "E": "e1", "N": "e4", "W": "e2"}, ("e1", "e2", "e3", "e4"))
    Traceback (most recent call last):
    ...
    referee.tournament.core.TournamentError: t03 桌报告的小分应为 S、E、N、W 四座各一个数，而不是 {'S': 12, 'E': -4}
    """
    if not (isinstance(totals, dict) and set(totals) == set(SEATS)):
        raise TournamentError("scores_totals", table=table, totals=repr(totals))
    by_entry = {e: totals[s] for s, e in seats.items()}
    return [by_entry[e] for e in entries]


def forfeits_of(kind: str, data: dict) -> tuple[list[str], float] | None:
    """(the sides that forfeit, the minutes late) of a table's round lost for lateness: ``game_won``
    by ``late`` (its ``loser``) or ``round_forfeited`` (both sides); else None.

    >>> forfeits_of("game_won", {"team": "SN", "by": "late", "loser": "EW", "minutes": 21.5})
    (['EW'], 21.5)
    >>> forfeits_of("round_forfeited", {"teams": ["SN", "EW"], "by": "late", "minutes": 5.02})
    (['SN', 'EW'], 5.02)
    >>> forfeits_of("game_won", {"team": "SN", "by": "fouls", "loser": "EW"}) is None
    True
    """
    if data.get("by") != "late" or not isinstance(data.get("minutes"), (int, float)):
        return None
    sides = [data.get("loser")] if kind == "game_won" else data.get("teams") if kind == "round_forfeited" else None
    if not isinstance(sides, list) or not sides or not set(sides) <= set(SIDES):
        return None
    return sides, float(data["minutes"])
