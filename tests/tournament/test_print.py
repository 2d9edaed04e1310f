"""The HTML export printed by the real Chromium (headless, the system browser): the pairing sheet
on the first page, then one result slip per table, each on a page of its own, then the standings."""

from __future__ import annotations

import re

import pytest

from referee.tournament import Entry, TournamentStore

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def test_each_table_prints_on_a_slip_of_its_own(tmp_path):
    from playwright.sync_api import sync_playwright

    store = TournamentStore(tmp_path / "t.db")
    store.new("individual-tables", [Entry(f"e{i:02d}", f"选手{i}", f"单位{i % 5}", f"单位{i % 5}", (f"选手{i}",)) for i in range(12)],
              name="三打一比赛", seed=3)
    view = store.pair_next_round()
    store.record_result(1, "t02", {"scores": [40, 12, 12, -20]})
    html = store.export("html").decode()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.set_content(html)
            pdf = page.pdf(format="A4")
            slips = page.locator("section.slip h2").all_inner_texts()
        finally:
            browser.close()
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert len(view["tables"]) == 3
    assert pages == 1 + 3 + 1, pages  # pairing sheet, three slips, the standings
    assert slips == ["第1轮 t01 成绩单", "第1轮 t02 成绩单", "第1轮 t03 成绩单", "排名"]
