"""The display's scoreboard connection is a persistent MQTT 5 session (``display.feed``): the tables publish their
events with QoS 1, the display subscribes to them with QoS 1, so the plays made while its link to the broker was cut
reach its timeline once it connects again, in order, and no ``missed`` line says otherwise. Where the broker did not
keep the session (the cut outlasted its expiry; a broker restarted without its persistence file), the plays of the
cut are lost, and the line says so and why. A real table service on a real mosquitto, the display's link to it
through a relay that cuts it. These are the display's own rules, not a rulebook's: no seed article speaks of a
display's link to its broker."""

from __future__ import annotations

import time
from contextlib import contextmanager

from kit import LiveTable, Relay

from display.cli import _reach
from display.feed import Feed
from display.kept import open_kept

WAIT_S = 30.0  # the longest the broker may take to deliver (a loaded machine)
S_PLAYS = "南 王芳 出 ♠5 ♠5"  # published while the display is cut off
E_PLAYS = "东 李强 出 ♠4 ♠3"  # published once it is back


def timeline(feed: Feed) -> list[tuple[str, str]]:
    with feed._lock:
        return [(e["kind"], e.get("say", {}).get("zh", "")) for e in feed.hall.table("t1").timeline]


def plays(feed: Feed) -> list[tuple[str, list[str]]]:
    with feed._lock:
        return [(e["data"]["seat"], e["data"]["cards"]) for e in feed.hall.table("t1").timeline if e["kind"] == "play_accepted"]


def said(feed: Feed, text: str) -> bool:
    return any(text in zh for _, zh in timeline(feed))


@contextmanager
def cut_while_s_plays(broker, tmp_path, until, away_s: float = 0.5, **settings):
    """Table t1 at its first lead, seen by a display (``Feed(**settings)``) through a relay; the display's link cut,
    S plays, and ``away_s`` later the test goes on (the link still cut): the table, the relay and the display."""
    live = LiveTable(broker, "t1", tmp_path / "t1.db")
    try:
        with Relay(broker) as link:
            feed = Feed(link.url("scoreboard"), broker.url("console"), **settings).start()
            try:
                live.to_first_lead()
                assert until(lambda: any(k == "trump_named" for k, _ in timeline(feed)), WAIT_S)
                link.cut()
                assert until(lambda: not feed.scoreboard.connected, WAIT_S)
                live.send("observed", seat="S", cards=["S5", "S5"], confidence=0.97)
                time.sleep(away_s)
                yield live, link, feed
            finally:
                feed.stop()
    finally:
        live.close()


def e_plays_after_a_gap(live: LiveTable, feed: Feed, until, why: str) -> None:
    """The display back on the broker, E plays: its timeline shows it after a ``missed`` line that says ``why``, and
    not S's play of the cut."""
    assert until(lambda: feed.scoreboard.connected and live.service.conn.connected, WAIT_S)
    assert feed.scoreboard.wait_subscribed(WAIT_S)  # E's play published after: the display's to receive
    live.send("observed", seat="E", cards=["S4", "S3"], confidence=0.97)
    assert until(lambda: said(feed, E_PLAYS), WAIT_S), timeline(feed)
    lines = timeline(feed)
    assert [k for k, _ in lines[-3:]] == ["trump_named", "missed", "play_accepted"], lines
    assert why in lines[-2][1] and not said(feed, S_PLAYS), lines


def test_plays_made_while_the_display_was_cut_off_reach_its_timeline_after(fresh_broker, tmp_path, until):
    with cut_while_s_plays(fresh_broker, tmp_path, until) as (live, link, feed):
        link.mend()
        assert until(lambda: said(feed, S_PLAYS), WAIT_S), timeline(feed)  # the broker kept it for the display
        live.send("observed", seat="E", cards=["S4", "S3"], confidence=0.97)
        assert until(lambda: said(feed, E_PLAYS), WAIT_S), timeline(feed)
        kinds = [k for k, _ in timeline(feed)]
        assert "missed" not in kinds and kinds[-3:] == ["trump_named", "play_accepted", "play_accepted"], kinds
        seqs = [e["seq"] for e in feed.hall.table("t1").timeline]
        assert seqs == sorted(seqs), seqs  # in the order the table said them


def test_a_cut_longer_than_the_session_says_the_plays_of_the_cut_missing(fresh_broker, tmp_path, until):
    with cut_while_s_plays(fresh_broker, tmp_path, until, away_s=3.0, session_expiry_s=1) as (live, link, feed):
        link.mend()  # the broker ended the session 1 s into the cut
        e_plays_after_a_gap(live, feed, until, "超过服务器为它保留会话的 1 秒，会话已过期")


def test_a_broker_restarted_without_its_sessions_says_the_plays_of_the_cut_missing(fresh_broker, tmp_path, until):
    with cut_while_s_plays(fresh_broker, tmp_path, until) as (live, link, feed):
        fresh_broker.stop()  # S's play queued for the display, then the broker's file gone: persistence off
        fresh_broker.db_path.unlink()
        fresh_broker.restart()
        link.mend()
        e_plays_after_a_gap(live, feed, until, "服务器没有保留它的会话")


def test_a_display_killed_finds_its_session_when_it_comes_back(fresh_broker, tmp_path, until):
    """Killed (no DISCONNECT: the broker keeps the session), then served again: ``serve``'s check of the broker leaves
    the session as it is, and the new display reads back its kept timeline and gets S's play from the session."""
    kept_at = tmp_path / "c.db.timelines"
    kept, _ = open_kept(kept_at)
    with cut_while_s_plays(fresh_broker, tmp_path, until, kept=kept) as (live, link, feed):
        feed.stop()  # its link cut: the broker is told nothing, as when the display is killed
        kept.close()
        urls = [fresh_broker.url("scoreboard"), fresh_broker.url("console")]
        _reach(urls)
        kept, (tables, frames) = open_kept(kept_at)
        again = Feed(*urls, kept=kept, tables=tables, frames=frames).start()
        try:
            # S's play may come before the table's state (retained, asked again): said with the players the kept file
            # read back names, as the state would (南 王芳), not a seat alone
            assert until(lambda: plays(again) == [("S", ["S5", "S5"])], WAIT_S), timeline(again)
            assert said(again, S_PLAYS), timeline(again)
            live.send("observed", seat="E", cards=["S4", "S3"], confidence=0.97)
            assert until(lambda: said(again, E_PLAYS), WAIT_S), timeline(again)
            kinds = [k for k, _ in timeline(again)]
            assert "missed" not in kinds and kinds[-3:] == ["trump_named", "play_accepted", "play_accepted"], kinds
        finally:
            again.stop()
            kept.close()
