"""San Da Yi result slips (seed 004 附件一): 一、3 本次比赛采取记分制，每轮进行8局比赛; 一、4 每轮比赛前进行抽签决定
桌次，并按照黑红梅方逆时针依次落座; 一、5 每局比赛均按照黑红梅方的顺序依次作为首先叫牌者.

The printed slip of a table has a column per game to write its score in, the seats with the suit drawn
(♠ S, ♥ E, ♣ N, ♦ W), the first bidder's cell of each game shaded and a row naming them in turn, then
小分, 轮分 and the signatures. A table of two (pair Swiss) keeps the plain slip."""

from __future__ import annotations

from html.parser import HTMLParser

from referee.tournament import Entry, TournamentStore


class Slips(HTMLParser):
    """Each slip section's table: rows of (text, shaded) cells, the head first."""

    def __init__(self):
        super().__init__()
        self.slips, self.cell = [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and "slip" in (attrs.get("class") or "").split():
            self.slips.append([])
        elif tag == "tr" and self.slips:
            self.slips[-1].append([])
        elif tag in ("td", "th") and self.slips:
            self.cell = ["", attrs.get("class") == "first"]

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0] += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.slips[-1][-1].append(tuple(self.cell))
            self.cell = None


def slips(html: bytes) -> list:
    p = Slips()
    p.feed(html.decode())
    return [s for s in p.slips if s]


def test_a_san_da_yi_slip_has_the_eight_games_and_the_first_bidder_by_seat(tmp_path):
    store = TournamentStore(tmp_path / "t.db")
    store.new("individual-tables", [Entry(f"e{i:02d}", f"选手{i}", f"单位{i % 4}", f"单位{i % 4}", (f"选手{i}",)) for i in range(8)],
              seed=3)
    view = store.pair_next_round()
    store.record_result(1, "t01", {"scores": [40, 12, 12, -20]})
    first, second, standings = slips(store.export("html"))
    head = [text for text, _ in first[0]]
    assert head == ["座位", "抽签号", "选手", "单位", *(f"第{g}局" for g in range(1, 9)), "小分", "轮分", "签名"]
    seats = [[text for text, _ in row[:1]] + [row[2][0]] for row in first[1:5]]  # seats in words (一、4: 黑红梅方逆时针依次落座)
    assert seats == [[f"{s} {x}", e["name"]] for (s, x), e in zip(zip("南东北西", "♠♥♣♦"), view["tables"][0]["entries"])]
    # the first bidder's cell of game g is shaded: ♠ (S) in games 1 and 5, ♥ (E) 2 and 6, ♣ (N) 3 and 7, ♦ (W) 4 and 8
    shaded = [[g for g, (_, mark) in enumerate(row[4:12], 1) if mark] for row in first[1:5]]
    assert shaded == [[1, 5], [2, 6], [3, 7], [4, 8]]
    assert [text for text, _ in first[5][4:12]] == ["南 ♠", "东 ♥", "北 ♣", "西 ♦"] * 2 and first[5][0][0] == "首先叫牌"
    assert [[text for text, _ in row[12:14]] for row in first[1:5]] == [["40", "5"], ["12", "2又1/2"], ["12", "2又1/2"], ["-20", "1"]]
    assert all(text == "" for row in second[1:5] for text, _ in row[4:15])  # nothing written yet
    assert len(standings[0]) == 8  # the standings are no slip of games
    english = slips(store.export("html", lang="en"))[0]
    assert [text for text, _ in english[0]][4:13] == [*(f"G{g}" for g in range(1, 9)), "Game score"]
    assert english[5][0][0] == "Bids first"


def test_the_number_of_games_is_the_option_and_a_table_of_two_keeps_its_slip(tmp_path):
    store = TournamentStore(tmp_path / "i.db")
    store.new("individual-tables", [Entry(f"e{i}", f"e{i}", f"u{i}", f"u{i}", (f"e{i}",)) for i in range(4)], seed=1,
              options={"games": 6})
    store.pair_next_round()
    grid = slips(store.export("html"))[0]
    assert [text for text, _ in grid[5][4:10]] == ["南 ♠", "东 ♥", "北 ♣", "西 ♦", "南 ♠", "东 ♥"]
    swiss = TournamentStore(tmp_path / "p.db")
    swiss.new("pair-swiss", [Entry(f"p{i}", f"p{i}", f"u{i // 2}", f"u{i // 2}", ("a", "b")) for i in range(4)], seed=1,
              options={"rounds": 1})
    swiss.pair_next_round()
    plain = slips(swiss.export("html"))[0]
    assert [text for text, _ in plain[0]] == ["座位", "抽签号", "选手", "单位", "轮分", "成绩", "签名"] and len(plain) == 3
