"""``cardtable demo``: one whole hand between four bots, checked from what it prints."""

from __future__ import annotations

import re

import pytest

from referee.cards import Cards, Decks
from referee.cli import main
from referee.rulebooks import load
from referee.tractor.game import Game
from referee.tractor.hand import SEATS, next_seat, partner
from referee.tractor.scoring import outcome

ZH_SEATS = dict(zip("南东北西", SEATS))
ZH_SUITS = {"黑桃": "S", "红心": "H", "方块": "D", "梅花": "C"}
TRICK = re.compile(r"^第(\d+)圈 \| (.*) \| 赢家 (\S) \| 得分 (\d+) \| 防家累计 (\d+)$")


def run(capsys, *args: str) -> str:
    assert main(["demo", *args]) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def seed7() -> list[str]:
    """The seed-7 output, run once for the checks below (capsys is per test, so print to a buffer)."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["demo", "--seed", "7"]) == 0
    return buf.getvalue().splitlines()


def one(lines: list[str], pattern: str) -> re.Match:
    found = [m for m in map(re.compile(pattern).search, lines) if m]
    assert len(found) == 1, (pattern, found)
    return found[0]


def tricks(lines: list[str]) -> list[tuple[int, list[tuple[str, Cards]], str, int, int]]:
    out = []
    for line in lines:
        m = TRICK.match(line)
        if m:
            plays = [(ZH_SEATS[p[0]], Cards.parse(p[2:])) for p in m.group(2).split(" | ")]
            out.append((int(m.group(1)), plays, ZH_SEATS[m.group(3)], int(m.group(4)), int(m.group(5))))
    return out


def test_the_hand_is_complete_and_consistent(seed7):
    played = tricks(seed7)
    assert [t[0] for t in played] == list(range(1, len(played) + 1))
    assert len(played) == sum(1 for line in seed7 if line.startswith("第") and "圈" in line)
    per_seat = {s: Cards() for s in SEATS}
    for _, plays, winner, points, _ in played:
        assert [s for s, _ in plays] == [SEATS[(SEATS.index(plays[0][0]) + i) % 4] for i in range(4)]
        assert len({len(c) for _, c in plays}) == 1
        assert points == sum((c for _, c in plays), Cards()).points
        for seat, cards in plays:
            per_seat[seat] = per_seat[seat] + cards
    assert {s: len(c) for s, c in per_seat.items()} == {s: 39 for s in SEATS}
    # each trick is led by the previous winner, the first by the dealer
    dealer = ZH_SEATS[one(seed7, r"^庄家 (\S)（").group(1)]
    leaders = [t[1][0][0] for t in played]
    assert leaders == [dealer] + [t[2] for t in played[:-1]]
    # every card of the three decks is played or buried, once
    kitty = Cards.parse(one(seed7, r"^底牌 (.*)（(\d+) 分）$").group(1).split())
    assert len(kitty) == 6
    assert sum(per_seat.values(), Cards()) + kitty == Decks(3).full()


def test_declaring_fixes_dealer_and_trump(seed7):
    dealer = one(seed7, r"^庄家 (\S)（\S+），主牌 (\S+)，级牌 2$")
    declared = [re.search(r"张牌：(\S) (揭牌|反揭) (.+) → 主牌 (\S+)$", line) for line in seed7]
    declared = [m for m in declared if m]
    assert declared and declared[0].group(2) == "揭牌"
    assert all(m.group(2) == "反揭" for m in declared[1:])
    shown = [Cards.parse(m.group(3)) for m in declared]
    assert all(len(c.distinct()) == 1 and c.distinct()[0].rank == "2" for c in shown)
    assert all(c.distinct()[0].suit == ZH_SUITS[m.group(4)] for c, m in zip(shown, declared))
    counts = [len(c) for c in shown]
    assert counts == sorted(set(counts))  # every overturn shows more level cards
    assert declared[-1].group(1) == dealer.group(1)
    assert declared[-1].group(4) == dealer.group(2)


def test_points_capture_and_outcome(seed7):
    played = tricks(seed7)
    dealer = ZH_SEATS[one(seed7, r"^庄家 (\S)（").group(1)]
    defenders = {next_seat(dealer), partner(next_seat(dealer))}
    running = 0
    for _, _, winner, points, shown in played:
        running += points if winner in defenders else 0
        assert shown == running
    capture = [re.search(r"^抠底：防家 (\S) .*= (\d+)$", line) for line in seed7]
    capture = [m for m in capture if m]
    if capture:
        assert ZH_SEATS[capture[0].group(1)] == played[-1][2] in defenders
    total = int(one(seed7, r"^防家得分 (-?\d+)$").group(1))
    assert total == running + (int(capture[0].group(2)) if capture else 0)
    assert not [line for line in seed7 if line.startswith("裁判判罚")]  # legal bots: nothing to rule

    result = outcome(load("classic-3deck"), total)
    line = one(seed7, r"^结果：.*$").group(0)
    if result.side == "dealer":
        team = "南北" if dealer in "SN" else "东西"
        assert line == f"结果：庄家方（{team}）升级，升 {result.levels} 级"
    else:
        team = "东西" if dealer in "SN" else "南北"
        assert line.startswith(f"结果：防家（{team}）上台")
        assert (f"升 {result.levels} 级" in line) == (result.levels > 0)
    after = Game.start(load("classic-3deck")).after(dealer, result)
    nxt = one(seed7, r"^下一盘庄家 (\S)；").group(1)
    assert ZH_SEATS[nxt] == after.dealer == (partner(dealer) if result.side == "dealer" else next_seat(dealer))


def test_same_seed_same_output(capsys, seed7):
    assert run(capsys, "--seed", "7").splitlines() == seed7
    assert run(capsys, "--seed", "8").splitlines() != seed7


def test_english_labels(capsys):
    out = run(capsys, "--seed", "7", "--lang", "en")
    assert "Trick 1 | " in out and "Dealer " in out and "Defender points " in out and "Outcome: " in out
    assert not re.search(r"庄家|防家|第\d+圈|赢家|得分|底牌", out)
