"""What a spectator reads of a live table (a real table service on a real mosquitto, the system Chromium): which team
row is the dealer's side (the levels and points of both rows stood without it, the dealer named only as a seat), and a
penalty on the table's page with the rulebook's article it was judged by (it said the penalty, never why), in Chinese
and in English (the article quoted as the book has it)."""

from __future__ import annotations

import pytest
from kit import LiveTable, shot, until

pytestmark = pytest.mark.browser
TABLES = ["d1"]  # the broker's (tests/conftest.py)
WAIT_MS = 30_000
# seed 000 (zhongkai-2010) 第十八条, as the book quotes it for revoke_corrected
SEED_000_18 = "第十八条：当圈发现出错牌时要马上更正……一次扣罚出错牌者20分"
MARKS = "[...document.querySelectorAll('#tile-d1 .team')].map(t => t.dataset.team + ':' + (t.querySelector('.dealer')?.textContent ?? ''))"


def test_the_dealers_side_and_the_article_of_a_penalty(page, broker, tmp_path):
    live = LiveTable(broker, "d1", tmp_path / "d1.db", rulebook="zhongkai-2010")
    try:
        live.to_first_lead()  # S took the kitty: the dealer, its side 南北
        live.send("commands", command="foul", seat="E", kind="revoke_corrected", cards=["SK", "S9"])
        rule = "#allviolations li[data-kind=revoke_corrected] .rule"
        for lang, mark, said in (("zh", "庄", f"依据规程 {SEED_000_18}"), ("en", "D", f"per the rulebook's article {SEED_000_18}")):
            hall = page("/", 1920, 1080, lang=lang)
            until(hall, "!!document.querySelector('#tile-d1 .team')", WAIT_MS)
            until(hall, f"{MARKS}.join() === 'SN:{mark},EW:'", WAIT_MS)  # the dealer's row marked, the other not
            one = page("/tables/d1", 390, 844, lang=lang)  # a player's phone
            until(one, f"{MARKS}.join() === 'SN:{mark},EW:' && !!document.querySelector('{rule}')", WAIT_MS)
            assert one.inner_text(rule) == said and one.inner_text(f"{rule} q[lang=zh-CN]") == SEED_000_18  # quoted: “…”
            shot(one, f"dealer-article-{lang}.png")
            assert one.locator("#tile-d1 .viol .rule").count() == 0  # the tile keeps its brief line
    finally:
        live.close()
