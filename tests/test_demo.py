"""``cardtable demo``: one whole hand between four bots, checked from what it prints."""

from __future__ import annotations

import re

import pytest

from cardtable.cli import main
from referee.cards import Cards, Decks
from referee.climbing.combos import RANK_OF_VALUE, readings
from referee.guandan.levels import levels_won
from referee.rulebooks import load
from referee.sandayi.bombs import bomb_limit
from referee.sandayi.scoring import Result, game_scores
from referee.tractor.game import Game
from referee.tractor.hand import SEATS, next_seat, partner
from referee.tractor.scoring import outcome

ZH_SEATS = dict(zip("南东北西", SEATS))
ZH_NAMES = dict(zip(SEATS, "南东北西"))
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


def test_a_standing_seat_drawing_its_card_again(capsys):
    """A seat whose declaration stands draws more copies of its card: the demo died on it (seed 4: W overturned with
    H2 H2 and drew the third; shown again with the two standing, five copies of three decks, ``cards.too_many``).
    001 八〈3〉自己不能反揭自己 (classic-3deck, no reinforcing): W shows nothing more. 000 第十条 1
    揭牌者继续摸到与揭出的级牌花色相同的牌，可以亮出加固 (zhongkai-2010): W shows the one H2 it drew."""
    classic = [line for line in run(capsys, "--seed", "4").splitlines() if "张牌：" in line]
    assert [line.split("：", 1)[1] for line in classic] == ["南 揭牌 D2 → 主牌 方块", "西 反揭 H2 H2 → 主牌 红心"]
    zhongkai = [line for line in run(capsys, "--seed", "4", "--rulebook", "zhongkai-2010").splitlines() if "张牌：" in line]
    assert [line.split("：", 1)[1] for line in zhongkai] == ["南 揭牌 D2 → 主牌 方块", "西 反揭 H2 H2 → 主牌 红心",
                                                             "西 加固 H2 → 主牌 红心"]
    assert "card 89: W reinforces with H2 → trump suit hearts" in run(capsys, "--seed", "4", "--rulebook", "zhongkai-2010",
                                                                        "--lang", "en")


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
    assert not CJK.search(out.splitlines()[0]) and "Tractor competition rules" in out.splitlines()[0]  # the book's English title


# -- Guandan and San Da Yi --------------------------------------------------------
# What the climbing demos print, read back with the test's own tables (not the demo's).

GD_TYPES = {
    "单张": "single", "对子": "pair", "三同张": "triple", "三带二": "full_house", "顺子": "straight",
    "连对": "pair_straight", "钢板": "triple_straight", "飞机": "airplane", "炸弹": "bomb",
    "同花顺": "straight_flush", "四大天王": "joker_bomb",
}  # fmt: skip
SDY_TYPES = {
    "单张": "single", "对牌": "pair", "三张": "triple", "三带二": "full_house", "单顺": "straight",
    "双顺": "pair_straight", "三顺": "triple_straight", "飞机带翅膀": "airplane", "炸弹": "bomb",
    "天王炸弹": "joker_bomb",
}  # fmt: skip
SEQUENCE_TYPES = {"straight", "pair_straight", "triple_straight", "straight_flush", "airplane"}
PLACES = ("上游", "二游", "三游", "下游")
HAND = re.compile(r"^([南东北西]) ((?:[SHDC][2-9TJQKA]|LJ|BJ)(?: (?:[SHDC][2-9TJQKA]|LJ|BJ))*)$")
TURN = re.compile(r"^第(\d+)手 \| ([南东北西]) \| (.*)$")
CJK = re.compile(r"[\u4e00-\u9fff]")
OUTPUTS: dict[tuple[str, int, str], list[str]] = {}


def demo_lines(game: str, seed: int, lang: str = "zh") -> list[str]:
    """The demo's output for (game, seed, lang), run once through the CLI and kept."""
    import contextlib
    import io

    key = (game, seed, lang)
    if key not in OUTPUTS:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["demo", "--game", game, "--seed", str(seed), "--lang", lang]) == 0
        OUTPUTS[key] = buf.getvalue().splitlines()
    return OUTPUTS[key]


def hands_of(lines: list[str]) -> dict[str, Cards]:
    found = [m for m in map(HAND.match, lines) if m]
    assert [m.group(1) for m in found] == list("南东北西")
    return {ZH_SEATS[m.group(1)]: Cards.parse(m.group(2)) for m in found}


def turns_of(lines: list[str]) -> list[tuple[int, int, str, Cards | None, str | None, list[str]]]:
    """(line index, turn number, seat, cards or None for 不出, reading words, further fields)."""
    out = []
    for i, line in enumerate(lines):
        m = TURN.match(line)
        if m:
            fields = m.group(3).split(" | ")
            if fields == ["不出"]:
                out.append((i, int(m.group(1)), ZH_SEATS[m.group(2)], None, None, []))
            else:
                out.append((i, int(m.group(1)), ZH_SEATS[m.group(2)], Cards.parse(fields[0]), fields[1], fields[2:]))
    assert [t[1] for t in out] == list(range(1, len(out) + 1))
    return out


def check_reading(rules, cards: Cards, said: str, types: dict[str, str], level: str | None) -> None:
    """The cards classify, and the printed reading is one of their readings (type and rank)."""
    found = readings(rules, cards, level)
    assert found, cards
    if said in types:  # the joker bomb: no rank
        kind, rank, size = types[said], None, None
    elif " 到 " in said:
        name, rank = said.split(" 到 ")
        kind, size = types[name], None
    elif m := re.fullmatch(r"(\d+)张(\S+) (\S+)", said):
        kind, rank, size = types[m.group(2)], m.group(3), int(m.group(1))
    else:
        name, rank = said.split(" ")
        kind, size = types[name], None
    options = [r for r in found if r.type == kind]
    assert options, (cards, said, found)
    if kind in SEQUENCE_TYPES:
        assert rank in {RANK_OF_VALUE[r.rank] for r in options}, (cards, said)
    elif rank is not None:
        assert rank in {c.code if c.is_joker else c.rank for c in cards} | ({level} if level else set()), (cards, said)
    if size is not None:
        assert size == len(cards)


def test_guandan_runs(capsys):
    out = run(capsys, "--game", "guandan", "--seed", "3").splitlines()
    assert out[0].startswith(load("sanjiang-2012").title) and "种子 3" in out[0] and "本盘打 2" in out[0]
    assert any(TURN.match(line) for line in out) and out[-1].startswith("下一盘进贡：")


@pytest.mark.parametrize("seed", [3, 0, 5])
def test_guandan_hand_is_consistent(seed):
    lines, rules, size = demo_lines("guandan", seed), load("sanjiang-2012"), 27
    hands = hands_of(lines)
    assert {len(h) for h in hands.values()} == {size}
    assert sum(hands.values(), Cards()) == Decks(2).full()
    played = {s: Cards() for s in SEATS}
    out: list[str] = []
    turns = turns_of(lines)
    prev = None  # (seat, went out) of the last turn
    last_play = None
    for i, _, seat, cards, said, extra in turns:
        if prev is not None:
            if extra == ["领出"]:  # all passed after last_play: its player leads, or its partner (接风)
                want = last_play if last_play not in out else partner(last_play)
                jiefeng = lines[i - 1].startswith("接风：")
                assert jiefeng == (last_play in out)
                if jiefeng:
                    assert lines[i - 1] == f"接风：{ZH_NAMES[last_play]} 已出完，无人压牌，{ZH_NAMES[want]} 接风出牌"
            else:
                want = next_seat(prev)
                while want in out:
                    want = next_seat(want)
            assert seat == want, lines[i]
        if cards is not None:
            check_reading(rules, cards, said, GD_TYPES, "2")
            played[seat] += cards
            assert hands[seat].contains(played[seat])  # never more than the seat holds
            last_play = seat
            left = size - len(played[seat])
            follow = lines[i + 1]
            if left == 0:
                assert re.fullmatch(rf"\S 出完：{PLACES[len(out)]}", follow), follow
                out.append(seat)
            elif left <= 10 and not any(ln.startswith(f"报数：{ZH_NAMES[seat]} ") for ln in lines[:i]):
                assert follow == f"报数：{ZH_NAMES[seat]} 剩 {left} 张"  # the first time at ten or fewer
        prev = seat
    # the finish: as played out; three out, or the first two partners (early end)
    finish = one(lines, r"^名次：(.*)$").group(1).split("，")
    assert [ZH_SEATS[f[0]] for f in finish[: len(out)]] == out
    assert len(out) == 3 or (len(out) == 2 and out[1] == partner(out[0]))
    for seat in SEATS:
        assert (played[seat] == hands[seat]) == (seat in out)
    # the result: the first's team goes up levels_won(partner's place)
    first = out[0]
    place = out.index(partner(first)) + 1 if partner(first) in out else 4
    team = "南北" if first in "SN" else "东西"
    m = one(lines, r"^结果：(\S\S)升 (\d) 级（上游 (\S)，对家 (\S) (\S\S)）$")
    assert m.group(1) == team and int(m.group(2)) == levels_won(rules, place)
    assert (ZH_SEATS[m.group(3)], ZH_SEATS[m.group(4)], m.group(5)) == (first, partner(first), PLACES[place - 1])
    up = "23456789TJQKA"[levels_won(rules, place)]
    assert one(lines, r"^下一盘打 (\S)；").group(1) == up


def test_guandan_same_seed_same_output(capsys):
    assert run(capsys, "--game", "guandan", "--seed", "3").splitlines() == demo_lines("guandan", 3)
    assert demo_lines("guandan", 4) != demo_lines("guandan", 3)


def test_guandan_english_labels():
    lines = demo_lines("guandan", 3, "en")
    assert "seed 3  level 2" in lines[0] and "Turn 1 | " in "\n".join(lines)
    assert any(line.startswith("Finish: ") for line in lines) and any(line.startswith("Result: ") for line in lines)
    assert any(re.search(r"\| (pass|single \S|pair \S|straight to \S)", line) for line in lines)
    assert not [line for line in lines if CJK.search(line)]  # the rulebook's title too, in English


def test_sandayi_runs(capsys):
    out = run(capsys, "--game", "sandayi", "--seed", "3").splitlines()
    assert out[0].startswith(load("usst-2016").title) and "种子 3" in out[0]
    assert any(TURN.match(line) for line in out) and out[-1].startswith("小分：")


@pytest.mark.parametrize("seed", [3, 15, 197, 233])
def test_sandayi_game_is_consistent(seed):
    lines, rules = demo_lines("sandayi", seed), load("usst-2016")
    hands = hands_of(lines)
    assert {len(h) for h in hands.values()} == {25}
    kitty = Cards.parse(one(lines, r"^底牌 (.*)$").group(1))
    assert len(kitty) == 8 and sum(hands.values(), kitty) == Decks(2).full()
    # the bidding: each bid higher than the last, the highest bidder deals
    bids = [(ZH_SEATS[m.group(1)], m.group(2)) for m in (re.match(r"^叫分：(\S) (\d|不叫)", ln) for ln in lines) if m]
    values = [int(v) for _, v in bids if v != "不叫"]
    assert bids[0][0] == "S" and bids[0][1] != "不叫" and values == sorted(set(values))
    dealer_m = one(lines, r"^庄家 (\S)（叫 (\d) 分，底分 (\d)）$")
    dealer, bid = ZH_SEATS[dealer_m.group(1)], int(dealer_m.group(2))
    assert bid == values[-1] and (dealer, str(bid)) in bids
    took = one(lines, r"^(\S) 拿底牌，共 33 张：(.*)$")
    assert ZH_SEATS[took.group(1)] == dealer and Cards.parse(took.group(2)) == hands[dealer] + kitty
    held = dict(hands) | {dealer: hands[dealer] + kitty}
    # bomb limits from the bids: 1 for a bid of 1 or a pass, 2 for 2, none for the dealer and the unasked
    said = dict(bids)
    limits = {s: None if s == dealer or s not in said else bomb_limit(rules, "pass" if said[s] == "不叫" else int(said[s])) for s in SEATS}
    played = {s: Cards() for s in SEATS}
    bombs = {s: 0 for s in SEATS}
    turns = turns_of(lines)
    for i, _, seat, cards, words, extra in turns:
        if cards is None:
            continue
        check_reading(rules, cards, words, SDY_TYPES, None)
        played[seat] += cards
        assert held[seat].contains(played[seat]), lines[i]  # no seat plays more than it holds
        left, name = len(held[seat]) - len(played[seat]), ZH_NAMES[seat]
        if 0 < left <= 10 and not any(ln.startswith(f"报牌：{name} ") for ln in lines[:i]):
            assert lines[i + 1] == f"报牌：{name} 剩 {left} 张"  # 报牌 once, on reaching ten or fewer
        counted = [f for f in extra if f.startswith("炸弹")]
        is_bomb = any(r.type in ("bomb", "joker_bomb") for r in readings(rules, cards)) and words.split(" ")[0].endswith("炸弹")
        assert bool(counted) == is_bomb, lines[i]
        if counted:
            bombs[seat] += 1
            limit = limits[seat]
            assert counted[0] == (f"炸弹 第{bombs[seat]}次（不限）" if limit is None else f"炸弹 {bombs[seat]}/{limit}")
            assert limit is None or bombs[seat] <= limit
    # the end: the player who went out played every card it held, and its side won
    out = ZH_SEATS[one(lines, r"^(\S) 出完$").group(1)]
    assert turns[-1][2] == out and played[out] == held[out]
    assert all(len(played[s]) < len(held[s]) for s in SEATS if s != out)
    dealer_won = out == dealer
    if dealer_won:
        one(lines, rf"^庄家 {dealer_m.group(1)} 获胜$")
    else:
        allies = "、".join(ZH_NAMES[s] for s in SEATS if s != dealer)
        one(lines, rf"^同盟 {allies} 获胜$")
    # the scores: zero-sum and what the scoring rules give for what was printed
    scores = {ZH_SEATS[s[0]]: int(s[2:]) for s in one(lines, r"^小分：(.*)$").group(1).split("，")}
    assert list(scores) == list(SEATS) and sum(scores.values()) == 0
    first_three = any(ln.startswith("头撂：") for ln in lines)
    assert first_three == (bids[0][1] == "3")
    report = "play" if any(ln.startswith("报到：") and "“打”" in ln for ln in lines) else None
    result = Result(dealer, bid, dealer_won, first_three, any(ln.startswith("摊打：") for ln in lines), report)
    assert scores == game_scores(rules, result)


def test_sandayi_same_seed_same_output(capsys):
    assert run(capsys, "--game", "sandayi", "--seed", "3").splitlines() == demo_lines("sandayi", 3)
    assert demo_lines("sandayi", 4) != demo_lines("sandayi", 3)


def test_sandayi_english_labels():
    lines = demo_lines("sandayi", 3, "en")
    text = "\n".join(lines)
    assert "seed 3  game 1" in lines[0] and "Turn 1 | " in text and "Dealer " in text and "Kitty " in text
    assert "Bomb limits: " in text and "Game scores: " in text and re.search(r"^Bid: S \d", text, re.MULTILINE)
    assert not [line for line in lines if CJK.search(line)]  # the rulebook's title too, in English


def test_game_and_rulebook_choice(capsys):
    assert run(capsys, "--rulebook", "sanjiang-2012", "--seed", "3").splitlines() == demo_lines("guandan", 3)
    assert run(capsys, "--game", "tractor", "--seed", "8").splitlines() == run(capsys, "--seed", "8").splitlines()
    with pytest.raises(SystemExit):
        main(["demo", "--game", "sandayi", "--rulebook", "classic-3deck"])
    assert "cardtable demo：错误：规则 classic-3deck 是拖拉机的，不是三打一的" in capsys.readouterr().err  # Chinese first
    with pytest.raises(SystemExit):
        main(["demo", "--game", "sandayi", "--rulebook", "classic-3deck", "--lang", "en"])
    assert "cardtable demo: error: rulebook classic-3deck is for Tractor, not San Da Yi" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["demo", "--rulebook", "nowhere"])
    assert "没有规则“nowhere”；可用的规则：classic-3deck" in capsys.readouterr().err
