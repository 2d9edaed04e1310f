"""What the hall plays, as pure values: its tables (id, rulebook), the pair-swiss field of the
toured Tractor tables and the seats of a paired round.

The default hall has eight tables: five Tractor tables of the tournament, a ``pair-swiss`` under
``classic-3deck`` (three decks; 10 pairs, two from each of five units), then three tables outside it, four
players each, playing round after round: a Tractor table of four decks (``shaoguan-2023``), a Guandan
(``sanjiang-2012``) and a San Da Yi (``usst-2016``) table. The tournament tours one game: a broker has one
tournament service, which runs one tournament. A smaller hall keeps that order: one table is a toured Tractor
table, two are that and a Guandan table, three add San Da Yi, from four on the fourth from last is the four decks'.
The pairs come two from each unit (from one each in a field of two), and the tournament has as many rounds as
such a field can play, six at most.

>>> [(t.table, t.rulebook) for t in hall_tables(3)]
[('t01', 'classic-3deck'), ('t02', 'sanjiang-2012'), ('t03', 'usst-2016')]
>>> [t.rulebook for t in hall_tables(2)], [t.toured for t in hall_tables(4)]
(['classic-3deck', 'sanjiang-2012'], [True, False, False, False])
>>> [t.rulebook for t in hall_tables(8)][4:]
['classic-3deck', 'shaoguan-2023', 'sanjiang-2012', 'usst-2016']
>>> len(pair_field(hall_tables(8))), pair_field(hall_tables(1))[1]
(10, Entry(id='e02', name='李强、刘静', unit='外语学院', team='外语学院', players=('李强', '刘静'), rows=()))
>>> seats({"entries": [{"id": "e01"}, {"id": "e02"}]}, {e.id: e for e in pair_field(hall_tables(1))})
{'S': '王芳', 'E': '李强', 'N': '张伟', 'W': '刘静'}
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.tournament.entries import Entry

TRACTOR = "classic-3deck"  # the tournament's
FOUR_DECKS = "shaoguan-2023"
GUANDAN = "sanjiang-2012"
SANDAYI = "usst-2016"
DEFAULT_TABLES = 8
MAX_TABLES = 32
UNITS = ("机电学院", "外语学院", "化工学院", "图书馆", "后勤处", "数学学院", "经管学院", "医学院",
         "计算机学院", "物理学院", "法学院", "艺术学院", "体育部", "校医院", "建筑学院", "生命学院")
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
GIVEN = ("芳", "强", "伟", "静", "敏", "磊", "洋", "艳", "勇", "军", "杰", "娟", "涛", "明", "超", "秀英",
         "霞", "平", "刚", "桂英", "华", "丹", "萍", "鹏", "辉", "玲", "斌", "宇", "浩", "凯", "红", "建华")


@dataclass(frozen=True)
class HallTable:
    table: str  # the MQTT table id, t01 ...
    rulebook: str

    @property
    def toured(self) -> bool:
        """A table of the tournament (the others play round after round, their players seated by the hall)."""
        return self.rulebook == TRACTOR


def hall_tables(n: int = DEFAULT_TABLES) -> tuple[HallTable, ...]:
    """The hall's ``n`` tables (see the module's docstring)."""
    if not 1 <= n <= MAX_TABLES:
        raise ValueError(f"--tables must be 1 to {MAX_TABLES}, not {n}")
    others = (FOUR_DECKS, GUANDAN, SANDAYI) if n >= 4 else (GUANDAN, SANDAYI)[: n - 1]
    books = [TRACTOR] * (n - len(others)) + list(others)
    return tuple(HallTable(f"t{i + 1:02d}", book) for i, book in enumerate(books))


def player_name(i: int) -> str:
    """The ``i``-th player's name: distinct for the first 3,200.

    >>> [player_name(i) for i in (0, 1, 2, 33)]
    ['王芳', '李强', '张伟', '田强']
    """
    surname = SURNAMES[i % len(SURNAMES)]
    given = GIVEN[(i + i // len(SURNAMES)) % len(GIVEN)]
    return surname + given


def pair_field(tables: tuple[HallTable, ...]) -> tuple[Entry, ...]:
    """Two pairs per Tractor table, two pairs per unit; entry ``k`` holds players ``2k`` and ``2k+1``
    of the numbering that seats entry 1's first player at S, entry 2's at E, and so on."""
    n = 2 * sum(t.toured for t in tables)
    out = []
    for k in range(n):
        # Players 0..3 of a table are S E N W: entry 2j is S and N, entry 2j+1 is E and W.
        base = 4 * (k // 2) + k % 2
        players = (player_name(base), player_name(base + 2))
        unit, again = UNITS[k % _units(n) % len(UNITS)], k % _units(n) // len(UNITS)
        team = unit if not again else "一二三四"[again] + "队"  # past 16 units a unit fields a second team
        out.append(Entry(f"e{k + 1:02d}", "、".join(players), unit, team, players))
    return tuple(out)


def _units(pairs: int) -> int:
    return pairs // 2 if pairs >= 4 else pairs


def rounds(pairs: int) -> int:
    """The rounds of a field of ``pairs`` pairs: each pair meets a new pair of another unit.

    >>> [rounds(n) for n in (2, 4, 6, 12)]
    [1, 2, 4, 6]
    """
    return min(6, pairs - pairs // _units(pairs))


def team_pairs(pairs: int) -> int:
    """The pairs of a unit's team: two (seed 000: 运动员4名（2对）), one each in a field of two.

    >>> [team_pairs(n) for n in (2, 4, 12)]
    [1, 2, 2]
    """
    return pairs // _units(pairs)


def seats(table_view: dict, entries: dict[str, Entry]) -> dict[str, str]:
    """The players of a paired table (a ``round`` view's table): the first entry at S and N,
    the second at E and W."""
    first, second = (entries[e["id"]].players for e in table_view["entries"])
    return {"S": first[0], "E": second[0], "N": first[1], "W": second[1]}


def table_players(index: int) -> dict[str, str]:
    """Four players for the ``index``-th table outside the tournament (numbered after the pairs)."""
    base = 1000 + 4 * index
    return {seat: player_name(base + i) for i, seat in enumerate("SENW")}
