"""The wall clock of the organiser's machine set back an hour between two changes (a laptop's clock put right, a zone
changed), in the system Chromium against the app, the tournament service and a real mosquitto: the scoreboard shows
the result as corrected. The scoreboard asks for a round's results as read (pair Swiss: 胜 / 负, the levels reached)
once per round published, told by the payload's ``at``; the tournament's ``at`` never goes back (the latest of the
log's times), so a change made on a clock set back was published with the ``at`` of the change before it, and the
page kept the old words: t01 still read 胜 : 负 after its correction to 负 : 胜. A change's time is now later than the
one before it, whatever the clock says."""

from __future__ import annotations

import pytest
from kit import hall_of

from referee.tournament import Entry, TournamentStore

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
UNITS = {"a1": "机电", "a2": "机电", "b1": "外语", "b2": "外语"}


def test_a_correction_made_on_a_clock_set_back_an_hour_is_shown_on_the_scoreboard(browser, broker, tmp_path):
    now = [1_800_000_000.0]
    store = TournamentStore(tmp_path / "hall.db", clock=lambda: now[0])
    store.new("pair-swiss", [Entry(p, p, u, u, (f"{p}甲", f"{p}乙")) for p, u in UNITS.items()], seed=1,
              options={"rounds": 1, "team_pairs": 2}, id="clock")
    store.pair_next_round()
    store.record_result(1, "t01", {"winner": 0}, by="记分员")
    with hall_of(browser, broker, store, tmp_path / "console.db") as hall:
        t01 = "#pairings tr[data-table=t01] td.num"
        hall.board.wait_for_selector(f"{t01}:text-is('胜 : 负')", timeout=WAIT_MS)
        now[0] -= 3600  # the clock set back an hour
        store.correct_result(1, "t01", {"winner": 1}, by="裁判长", reason="记分错误")
        assert store.round_view(1)["at"] > 1_800_000_000.0  # later than the change before it
        hall.board.wait_for_selector(f"{t01}:text-is('负 : 胜')", timeout=WAIT_MS)
    store.close()
