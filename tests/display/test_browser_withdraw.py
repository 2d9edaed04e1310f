"""An organiser withdraws one entry from the console (退赛; disqualified: 取消比赛资格), in the system Chromium against the
app (uvicorn), a real mosquitto and the tournament service on the same file. One picker names a unit or an entry, so
never both, and never one withdrawn already; the withdrawal cannot be undone, so it is confirmed in words first; the
console says it (Chinese, English on the switch), the next round's draw leaves the entry out (individual tables: it
holds the seat the draw leaves empty, forfeited, marked 退赛), the public standings say 退赛 in its place. Nothing
picked, no reason, a confirmation declined, or a competition that finished meanwhile: said in words on the page, and
nothing changes."""

from __future__ import annotations

import json
import random
from contextlib import contextmanager

import pytest
from kit import HALL_LOCALE, console_of, served, until

from referee.tournament import Entry, TournamentStore
from referee.tournament.service import TournamentService
from referee.tournament.simulate import random_result

pytestmark = pytest.mark.browser
WAIT_MS = 30_000
SEED_004_3 = "犯规时由裁判判定，同一副牌内，任何一名选手被记过2次及以上犯规，作输者处理，情节严重者取消比赛资格。"
SEED_000_14 = ("第十四条  暗示：打牌过程中不得以不正当的手段（声音、动作、表情、节奏等暗示）来传递非法信息。一旦发现，"
               "轻则判该盘自动下台，对方升一级；重则判取消参赛资格。")
CONFIRM_ZH = "确认登记 {who} 退赛（原因：{reason}）？此后各轮不再参赛（已赛成绩有效），登记后不能撤销。"
CONFIRM_EN = "Record that {who} withdraws (reason: {reason})? It plays no further round (its results stand); this cannot be undone."
AUDIT_ZH = "组织者 wang 登记 {who} 退赛（原因：{reason}）"
AUDIT_EN = "organiser wang recorded that {who} withdrew (reason: {reason})"


@contextmanager
def hall(broker, tmp_path, store: TournamentStore):
    """The console's app and the tournament service (publishing the round and the standings) on ``store``'s file."""
    service = TournamentService(TournamentStore(store.path), broker.url("tournament"), client_id="tournament-w", poll_s=0.1).start()
    try:
        with served(broker, tmp_path / "console.db", store.path) as server:
            yield server
    finally:
        service.stop()


class Asked:
    """The page's confirmations: the words of each kept, then ``before()`` run (what happens meanwhile elsewhere), then
    confirmed, or declined while ``answer`` is False."""

    def __init__(self, page):
        self.said: list[str] = []
        self.answer, self.before = True, None
        page.on("dialog", self._on)

    def _on(self, dialog) -> None:
        self.said.append(dialog.message)
        if self.before:
            self.before()
        dialog.accept() if self.answer else dialog.dismiss()

    def wait(self, page, n: int) -> None:
        """Until the page has asked ``n`` times (its events handled meanwhile)."""
        for _ in range(1000):
            if len(self.said) >= n:
                return
            page.wait_for_timeout(30)
        raise AssertionError(f"asked {len(self.said)} times, not {n}")


def who_in(sentence: str, text: str, reason: str) -> str:
    """Whom ``text`` names where ``sentence`` (CONFIRM_*, AUDIT_*) says {who}, its reason ``reason``."""
    head, tail = sentence.format(who="\0", reason=reason).split("\0")
    assert text.startswith(head) and text.endswith(tail), text
    return text[len(head): len(text) - len(tail)]


def line_is(console, text: str) -> None:
    until(console, f"document.querySelector('#result .line').textContent === {json.dumps(text)}")


def finish_round(store: TournamentStore, round_no: int, rng: random.Random, leave: int = 0) -> list[str]:
    """A result at every table of the round without one but the last ``leave`` (a forfeited seat scores 0); those left."""
    t = store.tournament
    open_ = [x for x in t.round(round_no).tables if x.outcome is None]
    for x in open_[: len(open_) - leave]:
        result = random_result(t.system, 1, rng)
        if "scores" in result:
            result["scores"] = [0 if e in x.forfeits else s for e, s in zip(x.entries, result["scores"])]
        store.record_result(round_no, x.table, result)
    return [x.table for x in open_[len(open_) - leave:]]


def test_a_san_da_yi_player_disqualified_from_the_console(browser, broker, tmp_path):
    """004 三 (SEED_004_3): 情节严重者取消比赛资格 -- the organiser disqualifies one player during round 1: its table is
    forfeited by it, and from round 2 the eleven still in are drawn, the twelfth seat held by the one withdrawn,
    forfeited and marked 退赛; the public standings list it 退赛 after every player still in."""
    assert "情节严重者取消比赛资格" in SEED_004_3
    store = TournamentStore(tmp_path / "hall.db")
    units = ("机械学院", "光电学院", "管理学院", "外语学院")
    store.new("individual-tables", [Entry(f"{u[0]}{k}", f"{u[:2]}{k}号", u, u, (f"{u[:2]}{k}号",)) for u in units for k in (1, 2, 3)],
              name="三打一比赛", seed=2016, id="sdy")
    store.pair_next_round()
    t = store.tournament
    gone = t.entry(t.round(1).tables[0].entries[3])  # W at t01
    lot = t.lot.index(gone.id) + 1
    named = f"{lot}号 {gone.name} {gone.unit}"
    reason = "情节严重，取消比赛资格"
    with hall(broker, tmp_path, store) as server, console_of(browser, server) as console:
        board = browser.new_context(locale=HALL_LOCALE).new_page()  # the hall's scoreboard, showing this tournament
        board.goto(server.url + "/")
        board.wait_for_selector(f"#standings tr[data-entry={gone.id}]", timeout=WAIT_MS)
        asked = Asked(console)
        console.wait_for_selector("#t-round[data-round='1']")
        form = console.locator("#t-withdraw")
        # one picker, a unit or an entry (was: a unit's field and an entry's picker, both could be filled and sent)
        assert form.locator("input[name=unit], select[name=entry]").count() == 0
        picker = form.locator("select[name=who]")
        groups = picker.locator("optgroup")
        assert [groups.nth(i).get_attribute("label") for i in range(2)] == ["单位退赛（其全部参赛者）", "参赛者退赛（取消比赛资格）"]
        assert sorted(groups.nth(0).locator("option").all_inner_texts()) == sorted(units)
        by_lot = [t.entry(e) for e in t.lot]
        assert groups.nth(1).locator("option").all_inner_texts() == [f"{i}号 {e.name} {e.unit}" for i, e in enumerate(by_lot, 1)]
        # nothing picked, then no reason: said, nothing asked nor sent
        form.locator("input[name=reason]").fill(reason)
        form.locator("button").click()
        line_is(console, "错误：请先选择退赛的单位或参赛者")
        picker.select_option(f"entry:{gone.id}")
        form.locator("input[name=reason]").fill(" ")
        form.locator("button").click()
        line_is(console, "错误：请写明退赛的原因（例如取消比赛资格的理由）")
        assert asked.said == [] and store.tournament.withdrawn == ()
        # asked first, in words naming the player: declined, nothing is sent (the next one would be refused as withdrawn already)
        form.locator("input[name=reason]").fill(reason)
        asked.answer = False
        form.locator("button").click()
        asked.wait(console, 1)
        assert asked.said == [CONFIRM_ZH.format(who=named, reason=reason)]
        asked.answer = True
        form.locator("button").click()
        line_is(console, f"组织者 wang 登记 {named} 退赛（原因：{reason}）")
        assert len(asked.said) == 2 and store.tournament.withdrawn == (gone.id,)
        # no longer offered (its unit is: its other players are in), marked where it sits, its table forfeited by it
        until(console, f"!document.querySelector('#t-withdraw option[value=\"entry:{gone.id}\"]')")
        assert f"unit:{gone.unit}" in picker.locator("option").evaluate_all("o => o.map(x => x.value)")
        seat = console.locator(f"#t-round tr[data-table=t01] .player[data-entry={gone.id}]")
        assert seat.locator(".withdrawn-mark").inner_text() == "退赛"
        assert seat.locator("input[name=forfeit]").is_checked() and seat.locator("input[name=forfeit]").is_disabled()
        assert console.locator(f"#t-late-entry option[value={gone.id}]").count() == 0
        # in English on the switch: the audit log says it
        console.click("#lang")
        english = f"organiser wang recorded that No. {lot} {gone.name} {gone.unit} withdrew (reason: {reason})"
        until(console, f"document.querySelector('#c-audit tr[data-action=withdraw_entry] td:last-child').textContent === {json.dumps(english)}")
        console.click("#lang")
        # round 2: the eleven still in are drawn; the one withdrawn holds the seat left empty, forfeited
        finish_round(store, 1, random.Random(4))
        console.click("#t-pair")
        console.wait_for_selector("#t-round[data-round='2']", timeout=WAIT_MS)
        r2 = store.tournament.round(2)
        held = next(x for x in r2.tables if gone.id in x.entries)
        assert held.forfeits == (gone.id,) and sum(len(x.entries) for x in r2.tables) == 12
        seat = console.locator(f"#t-round tr[data-table={held.table}] .player[data-entry={gone.id}]")
        assert seat.locator(".withdrawn-mark").inner_text() == "退赛" and seat.locator("input[name=forfeit]").is_disabled()
        assert console.locator("#t-round .withdrawn-mark").count() == 1
        # the public standings: 退赛 in its place, after every player still in
        board.wait_for_selector(f"#standings tr.withdrawn[data-entry={gone.id}] td:first-child:text-is('退赛')", timeout=WAIT_MS)
        assert board.locator("#standings tbody tr").last.get_attribute("data-entry") == gone.id
        # the public pairings: the seat it holds says 退赛 beside its forfeit, not a player who did not come
        public = board.locator(f"#pairings tr[data-table={held.table}]")
        until(board, f"document.querySelector('#pairings tr[data-table={held.table}] .withdrawn-mark')?.textContent === '退赛'")
        assert public.locator(".withdrawn-mark").count() == 1 and board.locator("#pairings .withdrawn-mark").count() == 1
        board.context.close()
    store.close()


def test_a_pair_swiss_pair_disqualified_leaves_the_draw_and_none_withdraws_once_finished(browser, broker, tmp_path):
    """000 第十四条 (SEED_000_14): 重则判取消参赛资格 -- one pair (a team of its own) disqualified after round 1 is at no
    table and no bye of round 2, and the standings say 退赛 (the picker and the confirmation, English then Chinese, name it
    by its team as its audit line does); once the last result is in, a withdrawal sent from a page
    that still showed the form is refused in words (English on the switch, then Chinese) and the form is gone."""
    assert "重则判取消参赛资格" in SEED_000_14
    store = TournamentStore(tmp_path / "hall.db")
    units = ("数学系", "物理系", "化学系", "外语系", "机械系", "光电系", "管理系", "体育部")
    store.new("pair-swiss", [Entry(f"e{i}", f"{u}甲、{u}乙", u, u, (f"{u}甲", f"{u}乙")) for i, u in enumerate(units, 1)],
              name="秋季赛", seed=3, options={"rounds": 2, "team_pairs": 1}, id="swiss")
    store.pair_next_round()
    finish_round(store, 1, random.Random(1))
    t = store.tournament
    gone = t.entry(t.lot[2])
    named = f"3号 {gone.unit} {gone.name}"  # by its team (named after its unit: the unit once), as the pages name it
    reason = "暗示，取消参赛资格"
    audit = "document.querySelector('#c-audit tr[data-action=withdraw_entry] td:last-child')?.textContent"
    with hall(broker, tmp_path, store) as server, console_of(browser, server) as console:
        board = browser.new_context(locale=HALL_LOCALE).new_page()
        board.goto(server.url + "/")
        board.wait_for_selector(f"#standings tr[data-entry={gone.unit}]", timeout=WAIT_MS)
        asked = Asked(console)
        console.wait_for_selector("#t-round[data-round='1']")
        form = console.locator("#t-withdraw")
        assert form.locator(f"option[value='entry:{gone.id}']").inner_text() == named  # the picker names it so too
        # asked in English first, declined: nothing sent
        console.click("#lang")
        until(console, "document.querySelector('#t-withdraw legend').textContent === 'Withdrawal'")
        assert form.locator(f"option[value='entry:{gone.id}']").inner_text() == named.replace("3号", "No. 3")
        form.locator("select[name=who]").select_option(f"entry:{gone.id}")
        form.locator("input[name=reason]").fill(reason)
        asked.answer = False
        form.locator("button").click()
        asked.wait(console, 1)
        asked.answer = True
        console.click("#lang")
        until(console, "document.querySelector('#t-withdraw legend').textContent === '退赛'")
        assert store.tournament.withdrawn == ()
        form.locator("select[name=who]").select_option(f"entry:{gone.id}")
        form.locator("input[name=reason]").fill(reason)
        form.locator("button").click()
        line_is(console, AUDIT_ZH.format(who=named, reason=reason))
        assert asked.said[1] == CONFIRM_ZH.format(who=named, reason=reason)
        # the confirmation names the pair as the audit line that follows it does, in either language
        until(console, f"{audit} === {AUDIT_ZH.format(who=named, reason=reason)!r}")
        assert who_in(CONFIRM_ZH, asked.said[1], reason) == who_in(AUDIT_ZH, console.evaluate(audit), reason) == named
        console.click("#lang")
        until(console, f"{audit}?.startsWith('organiser ')")
        assert who_in(CONFIRM_EN, asked.said[0], reason) == who_in(AUDIT_EN, console.evaluate(audit), reason) == named.replace("3号", "No. 3")
        console.click("#lang")
        until(console, "document.querySelector('#t-withdraw legend').textContent === '退赛'")
        board.wait_for_selector(f"#standings tr.withdrawn[data-entry={gone.unit}] td:first-child:text-is('退赛')", timeout=WAIT_MS)
        console.click("#t-pair")
        console.wait_for_selector("#t-round[data-round='2']", timeout=WAIT_MS)
        r2 = store.tournament.round(2)
        assert gone.id not in {e for x in r2.tables for e in x.entries} | set(r2.byes) and len(r2.byes) == 1
        assert console.locator(f"#t-round [data-entry={gone.id}]").count() == 0 and gone.name not in console.inner_text("#t-byes")
        # the last result comes in while the organiser confirms another withdrawal: refused in words, nothing changed
        console.click("#lang")
        until(console, "document.querySelector('#t-withdraw legend').textContent === 'Withdrawal'")
        assert form.locator("button").inner_text() == "Record the withdrawal"  # the legend and button say the act, not 'withdrawn'
        last = finish_round(store, 2, random.Random(2), leave=1)
        other = r2.tables[0].entries[0]
        form.locator("select[name=who]").select_option(f"entry:{other}")
        form.locator("input[name=reason]").fill("left early")
        asked.before = lambda: store.record_result(2, last[0], {"winner": 0})
        form.locator("button").click()
        line_is(console, "Error: the competition is over: nobody can withdraw now")
        assert len(asked.said) == 3 and asked.said[2].startswith("Record that No. ") and asked.said[2].endswith("this cannot be undone.")
        assert store.tournament.finished and store.tournament.withdrawn == (gone.id,)
        console.wait_for_selector("#t-withdraw-closed", timeout=WAIT_MS)
        assert console.locator("#t-withdraw").count() == 0
        assert console.inner_text("#t-withdraw-closed") == "The competition is over: nobody can withdraw now"
        console.click("#lang")
        until(console, "document.querySelector('#t-withdraw-closed').textContent === '比赛已经结束：不能再退赛'")
        board.context.close()
    store.close()
