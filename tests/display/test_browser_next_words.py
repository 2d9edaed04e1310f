"""The console's next-step line counted as a person says it, in the system Chromium against the app (uvicorn) and a real
mosquitto: one table left without a result is one table, not "1 tables", and a tournament of a single round is not
"all 1 rounds" complete (the demo hall's tournament plays one round at one table)."""

from __future__ import annotations

import time

import pytest
from kit import HALL_LOCALE, login, served, state, until

from display.tournament import seating
from referee.tournament import TournamentStore
from referee.tournament.entries import Entry

pytestmark = pytest.mark.browser
TABLES = ["t01", "t02"]
SAID = {"en": ["2 tables of this round have no result yet: the tables record them, or enter them below; the next round is "
               "paired once all are in.",
               "1 table of this round has no result yet: its table records it, or enter it below; the next round is paired "
               "once it is in.",
               "The tournament's only round is complete: the final standings are on the scoreboard; export or print the sheets."],
        "zh": ["本轮还有 2 桌没有结果：由牌桌自动记入，或在下表录入；全部录入后才能编排下一轮。",
               "本轮还有 1 桌没有结果：由牌桌自动记入，或在下表录入；录入后才能编排下一轮。",
               "本赛事仅一轮，已完成：最终排名见记分牌，成绩表可导出或打印。"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_table_left_and_a_single_round_are_said_as_one(browser, broker, table, tmp_path, lang):
    store = TournamentStore(tmp_path / "hall.db")
    store.new("pair-swiss", [Entry(f"e{i}", f"队{i}", f"单位{i // 2}", f"单位{i // 2}", (f"甲{i}", f"乙{i}")) for i in range(4)],
              name="秋季赛", options={"rounds": 1})
    store.pair_next_round()
    t = store.tournament
    for x in t.round(1).tables:  # each table seated and started, as its service says it
        table(x.table).publish("state", state(seq=1, at=time.time(), rulebook="classic-3deck", phase="dealing",
                                              players=seating([t.entry(e) for e in x.entries]),
                                              round={"started_at": time.time(), "left": None, "notice": False, "last_hand": False}))
    with served(broker, tmp_path / "console.db", tmp_path / "hall.db") as server:
        context = browser.new_context(locale=HALL_LOCALE)
        try:
            context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
            console = context.new_page()
            console.goto(server.url + "/console")
            login(console)
            for said, result in zip(SAID[lang], [*t.round(1).tables, None], strict=True):
                until(console, f"document.querySelector('#t-next')?.textContent === {said!r}")
                if result is not None:
                    store.record_result(1, result.table, {"winner": 0, "levels": ["5", "3"]})
                    console.reload()
        finally:
            context.close()
            store.close()
