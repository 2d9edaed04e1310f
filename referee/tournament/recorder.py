"""What a table's events say to the tournament: each game recorded once, by the system's rules.

A table of the latest round reports a game with ``game_won`` (the side that passed A, or 8, wins) or, when the round clock
ends the game, ``round_over`` (the higher level wins; equal levels draw, or in the knockout the side that reached the
level first wins, seed 002 三2; the levels from the ``round_over`` itself where it names them, else from the last
``levels_changed`` or the table's ``state``); a round lost for lateness (``game_won`` by ``late``,
``round_forfeited`` when both sides were late) is the late entries' late arrival, or their forfeit
(:meth:`Recorder._record_late`). A San Da Yi table's ``round_over`` carries each seat's ``totals``: the table's 小分,
the entry at each seat as drawn or found by the players' names (:meth:`Recorder._seats`). At a table of two the first
entry sits S/N unless the table's ``assigned`` names the second entry's players there. A Guandan stage-two match the
table decided otherwise than by a game won (the hour, three fouls: ``match``) is the table's result with its games
(:meth:`Recorder._record_match`). An amendment that changed a result (``rejudged``) corrects or withdraws the result
recorded from it. Each game is recorded once (by table, seq and kind: a redelivery in its round changes nothing; one
recorded in another round is noted, not recorded: a redelivery of that round's, or a table on a new log numbered
from 1 again); a report that cannot be recorded is said in the log and noted in the tournament for the organiser
(:meth:`Recorder._not_recorded`).

The tournament service (:mod:`referee.tournament.service`) drives it from the bus; ``cardtable tournament catch-up``
(:mod:`referee.tournament.catchup`) from the events a table's log said, after a backup was restored. It knows no
network: what it is given, in order.

>>> import os, tempfile
>>> from referee.tournament import Entry
>>> store = TournamentStore(os.path.join(tempfile.mkdtemp(), "t.db"))
>>> _ = store.new("pair-swiss", [Entry(e, e, u, u, (f"{e}甲", f"{e}乙")) for e, u in zip("abcd", "ABCD")], seed=1,
...               options={"rounds": 1, "team_pairs": 1}, id="doc")
>>> table = store.pair_next_round()["tables"][0]["table"]
>>> won = {"v": 1, "seq": 9, "kind": "game_won", "at": 1.0, "data": {"team": "SN"}}
>>> recorder = Recorder(store)
>>> recorder.event(table, won); recorder.event(table, won)  # once, though told twice
>>> [(a["kind"], a["data"]["event"]) for a in store.actions() if a["kind"] == "game"]
[('game', 't01:9:game_won')]
>>> store.close()
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bus.protocol import PayloadError, decode, parse_topic
from referee.catalogue import say
from referee.seats import SEATS
from referee.tournament.core import Round, TournamentError
from referee.tournament.entries import CONTROL
from referee.tournament.reports import SIDES, forfeits_of, game_of, match_of, scores_of
from referee.tournament.store import TournamentStore

log = logging.getLogger(__name__)


def read(full_topic: str, payload: bytes, name: str) -> tuple[str, dict] | None:
    """(table, payload) of a table's message; None, logged, for one that is malformed; None for a retained one
    cleared (no payload: a table taken out of the hall)."""
    if not payload:
        return None
    try:
        table, _ = parse_topic(full_topic)
        return table, decode(name, payload)
    except (ValueError, PayloadError) as exc:
        log.warning("tournament: ignored %s: %s", full_topic, exc)
        return None


class Recorder:
    """Record in ``store`` what the tables' events say (see the module's docstring). ``told``, when given, is called
    with each report that could not be recorded: ``(table, seq, kind, why in both languages)``."""

    def __init__(self, store: TournamentStore, told: Callable[[str, int, str, dict], None] | None = None):
        self.store = store
        self.told = told
        self.levels: dict[str, dict] = {}  # by table: the level of each side as last seen
        self.players: dict[str, dict] = {}  # by table: the player at each seat as last seen

    def __repr__(self) -> str:
        return f"Recorder({self.store!r})"

    def event(self, table: str, event: dict) -> None:
        """Take one of ``table``'s events (decoded, checked): what it says of the table's game is recorded, once."""
        kind, data = event["kind"], event["data"]
        if kind == "round_started":
            self.levels.pop(table, None)
        elif kind == "levels_changed" and isinstance(data.get("levels"), dict):
            self.levels[table] = {s: str(data["levels"][s]) for s in SIDES if s in data["levels"]}
        elif kind == "assigned" and isinstance(data.get("players"), dict):
            self.players[table] = data["players"]
        if kind == "rejudged":
            self._rejudge(table, event["seq"], data)
            return
        forfeit = forfeits_of(kind, data)
        if forfeit is not None:
            self._record_late(table, event["seq"], kind, *forfeit)
            return
        levels, given = self.levels.get(table), data.get("levels")
        if kind == "round_over" and isinstance(given, dict) and set(SIDES) <= set(given):  # a Guandan round_over names the
            levels = {s: str(given[s]) for s in SIDES}  # levels it ended on: they are the game's
        self._ended(table, event["seq"], kind, data, levels)

    def state(self, table: str, state: dict) -> None:
        """Take ``table``'s ``state`` (decoded, checked): its levels and players as they stand."""
        levels = {t["name"]: str(t["level"]) for t in state["teams"] if t["name"] in SIDES and t["level"] is not None}
        if set(levels) == set(SIDES):
            self.levels[table] = levels
        if all(state["players"].get(s) for s in ("S", "E", "N", "W")):
            self.players[table] = state["players"]

    def _ended(self, table: str, seq: int, kind: str, data: dict, levels: dict | None) -> None:
        """Record what an event that may end a table's game says: a San Da Yi round's 小分 (``round_over`` with each
        seat's ``totals``), a match of several games the table decided (:func:`match_of`: the hour, three fouls), else
        a game won or drawn (:func:`game_of`, the ``levels`` by side as the table showed them)."""
        if kind == "round_over" and "totals" in data:
            self._record_scores(table, seq, data["totals"])
            return
        match = match_of(kind, data)
        if match is not None:
            self._record_match(table, seq, kind, *match)
            return
        try:
            game = game_of(kind, data, levels, self.store.tournament.rules.first_to_level)
            if game is None and kind == "round_over":  # levels unknown (no state nor levels seen): a person enters it
                raise TournamentError("levels_unseen", table=table)
        except TournamentError as exc:
            self._not_recorded(table, seq, kind, exc)
            return
        if game is not None:
            self._record(table, seq, kind, *game)

    def _not_recorded(self, table: str, seq: int, kind: str, why: TournamentError) -> None:
        """Say in the log that a table's report was not recorded, and why; and, for a table of the latest round, note it
        in the tournament's log for the organiser (the console shows it at the table until its result is entered). A
        table outside the round is none of the tournament's: said in the log only."""
        reason = {lang: CONTROL.sub("\ufffd", why.text(lang)) for lang in ("zh", "en")}  # no terminal's escape the table sent
        try:  # noted before it is said: whoever reads the log finds the note already kept
            self.store.note_unrecorded(table, f"{table}:{seq}:{kind}", reason, by=f"table {table}")
        except TournamentError:
            pass
        log.warning("tournament: %s %s (seq %s) not recorded: %s", table, kind, seq, reason["zh"])
        if self.told is not None:
            self.told(table, seq, kind, reason)

    def _in_play(self, table: str):
        """(the tournament, the round in play, the entries of ``table`` in it)."""
        t = self.store.tournament
        if not t.rounds:
            raise TournamentError("no_round_paired")
        return t, t.rounds[-1], t.rounds[-1].table(table).entries

    def _seats(self, table: str) -> tuple[Round, dict[str, str]]:
        """(the round in play, the entry at each seat of its table of four players): as drawn (the entries in seat
        order S E N W, seed 004 一 4), unless the table's players sit otherwise: then by their names, refused where the
        names do not tell each seat's entry (players not the round's, or one name twice)."""
        t, r, entries = self._in_play(table)
        if len(entries) != 4:
            raise TournamentError("scores_four_seated", table=table, n=len(entries))
        drawn = dict(zip(SEATS, entries))
        players = self.players.get(table) or {}
        if not players or all(players.get(s) in t.entry(e).players for s, e in drawn.items()):
            return r, drawn
        named = {s: [e for e in entries if players.get(s) in t.entry(e).players] for s in SEATS}
        if all(len(v) == 1 for v in named.values()) and len({v[0] for v in named.values()}) == 4:
            return r, {s: v[0] for s, v in named.items()}
        raise TournamentError("scores_players", table=table, players="、".join(f"{s} {players.get(s)}" for s in SEATS),
                              entries="、".join(f"{s} {t.entry(e).name}" for s, e in drawn.items()))

    def _sides(self, table: str) -> tuple[Round, list[str]]:
        """(the round in play, its table's two entries in side order SN, EW): the first entry sits S/N unless the
        table's players say the second does. Where the table's players are known, each side holds one of its entry's
        players at least (a pair is fixed, 000 一 注1; one player replaced, 002 一5, still tells it), else refused: the
        table plays another pairing (a round unpaired, or paired again, after its tables were seated)."""
        t, r, entries = self._in_play(table)
        if len(entries) != 2:
            raise TournamentError("games_two_sided", table=table, n=len(entries))
        players = self.players.get(table, {})
        sides = [{players.get(a), players.get(b)} - {None} for a, b in ("SN", "EW")]
        held = [[len(side & set(t.entry(e).players)) for e in entries] for side in sides]  # names: two staff of one name
        order = list(reversed(entries)) if held[0][1] > held[0][0] else list(entries)  # the second entry sits S/N
        if players and not all(held[i][entries.index(e)] for i, e in enumerate(order)):
            raise TournamentError("sides_players", round=r.round, table=table, players="、".join(
                f"{s} {players.get(s)}" for s in SEATS), entries=" : ".join(t.entry(e).name for e in entries))
        return r, order

    def _record(self, table: str, seq: int, kind: str, side: str | None, levels: dict | None) -> None:
        try:
            r, order = self._sides(table)
            entries = list(r.table(table).entries)
            winner = None if side is None else entries.index(order[SIDES.index(side)])
            levels_in_order = [levels[SIDES[order.index(e)]] for e in entries] if levels else None
            self.store.record_game(r.round, table, winner, levels_in_order, by=f"table {table}",
                                   event=f"{table}:{seq}:{kind}", sides=dict(zip(SIDES, order)))
        except TournamentError as exc:
            self._not_recorded(table, seq, kind, exc)

    def _record_match(self, table: str, seq: int, kind: str, side: str, games: dict | None) -> None:
        """A match of several games the table decided (the hour, three fouls): the table's result, its games as the
        table counted them (三2: when time ends it, the pair ahead in games wins; 十 第3条: three fouls lose the round)."""
        try:
            r, order = self._sides(table)
            entries = list(r.table(table).entries)
            result: dict = {"winner": entries.index(order[SIDES.index(side)])}
            if games is not None:
                result["games"] = [games[SIDES[order.index(e)]] for e in entries]
            self.store.record_result(r.round, table, result, by=f"table {table}", event=f"{table}:{seq}:{kind}",
                                     sides=dict(zip(SIDES, order)))
        except TournamentError as exc:
            self._not_recorded(table, seq, kind, exc)

    def _record_scores(self, table: str, seq: int, totals) -> None:
        """A San Da Yi table's round is over: its seats' 小分 are the table's result (the store ranks them into round
        points by the system's rules), recorded once."""
        try:
            r, seats = self._seats(table)
            result = {"scores": scores_of(table, totals, seats, r.table(table).entries)}
            self.store.record_result(r.round, table, result, by=f"table {table}", event=f"{table}:{seq}:round_over",
                                     sides=seats)
        except TournamentError as exc:
            self._not_recorded(table, seq, "round_over", exc)

    def _rejudge(self, table: str, seq: int, data: dict) -> None:
        """An amendment at ``table`` changed its results (``rejudged``: ``was`` and ``now``, in log order). A recorded
        result whose game the log now ends otherwise is corrected to it, by the table, with the reason; one whose game
        the log no longer ends, or ends with no result to tell (levels unknown, a lateness), is withdrawn for the
        organiser to enter. A result never recorded is recorded as any game. Never a silent change: each is an
        action of the tournament's log, by ``table T``, with its reason; and never one over a change a person made to the
        table since the table's last (a correction, an appeal ruled): that is refused and noted for the organiser."""
        was, now = data.get("was"), data.get("now")
        fields = ("seq", "kind", "data")
        if not (isinstance(was, list) and isinstance(now, list)
                and all(isinstance(r, dict) and all(k in r for k in fields) for r in was + now)):
            log.warning("tournament: %s rejudged (seq %s) without its results: ignored", table, seq)
            return
        new_games = []
        for i in range(max(len(was), len(now))):
            old, new = (was[i] if i < len(was) else None), (now[i] if i < len(now) else None)
            if old == new:
                continue
            found = self._recorded(table, [r for r in (old, new) if r is not None])
            if found is None:  # the tournament has no result of this game: an ordinary one
                if new is not None:
                    new_games.append(new)
                continue
            round_no, sides = found
            event = f"{table}:{(new or old)['seq']}:{(new or old)['kind']}:rejudged:{seq}"
            words = {"table": table, "entry": data.get("entry"), "seq": seq}
            by = f"table {table}"
            seen = max(a["seq"] for a in self.store.actions()  # the table as the table itself last changed it (a note
                       if a["by"] == by and a["kind"] != "unrecorded"  # of a report not recorded changes nothing)
                       and a["data"].get("round") == round_no and a["data"].get("table") == table)
            try:
                result = self._result(round_no, table, sides, new) if new is not None else None
                if result is None:
                    self.store.retract_result(round_no, table, by=by, reason=say("zh", "outcome.withdrawn", **words),
                                               event=event, sides=sides, seen=seen)
                    log.warning("tournament: %s", say("en", "outcome.withdrawn", **words))
                else:
                    forfeits = list(self.store.tournament.round(round_no).table(table).forfeits)  # they stand
                    self.store.correct_result(round_no, table, result, by=by, reason=say("zh", "outcome.rejudged", **words),
                                              forfeits=forfeits, event=event, sides=sides, seen=seen)
                    log.warning("tournament: %s: %s", say("en", "outcome.rejudged", **words), result)
            except TournamentError as exc:
                self._not_recorded(table, seq, "rejudged", exc)
        for new in new_games:
            self._ended(table, new["seq"], new["kind"], new["data"], new.get("levels"))

    def _recorded(self, table: str, results: list[dict]) -> tuple[int, dict | None] | None:
        """(round, the entry at each side or None where unknown) of the first of ``results`` the tournament holds, by
        its event: a game, or a correction made when an amendment judged it again."""
        for r in results:
            key = f"{table}:{r['seq']}:{r['kind']}"
            found = [a["data"] for a in self.store.actions()
                     if (a["data"].get("event") or "") == key or (a["data"].get("event") or "").startswith(key + ":rejudged:")]
            if found:
                return found[-1]["round"], next((d["sides"] for d in reversed(found) if d.get("sides")), None)
        return None

    def _result(self, round_no: int, table: str, sides: dict | None, new: dict) -> dict | None:
        """The result (as entered by hand) of a game the table's log ends with ``new``, the entries at ``sides`` (else
        as the table's players sit now); None where that tells none: a lateness, levels unknown, a match of games."""
        if new["kind"] == "round_over" and "totals" in new["data"]:  # a San Da Yi round: the seats' 小分
            x = self.store.tournament.round(round_no).table(table)
            try:
                seats = sides or self._seats(table)[1]
            except TournamentError:
                return None
            return {"scores": scores_of(table, new["data"]["totals"], seats, x.entries)}
        try:
            game = game_of(new["kind"], new["data"], new.get("levels"), self.store.tournament.rules.first_to_level)
        except TournamentError:  # equal levels, nobody named first: the organiser enters it
            return None
        if game is None or forfeits_of(new["kind"], new["data"]) is not None:
            return None
        side, levels = game
        x = self.store.tournament.round(round_no).table(table)
        if len(x.entries) != 2 or len(x.games) > 1:
            return None
        entries = list(x.entries)
        try:
            order = [sides[s] for s in SIDES] if sides else self._sides(table)[1]
        except TournamentError:  # the table is not in the latest round any more: nobody to tell where they sat
            return None
        result: dict = {"draw": True} if side is None else {"winner": entries.index(order[SIDES.index(side)])}
        if levels is not None:
            result["levels"] = [levels[SIDES[order.index(e)]] for e in entries]
        return result

    def _record_late(self, table: str, seq: int, kind: str, sides: list[str], minutes: float) -> None:
        """A table's round lost for lateness: each late side's entry arrived ``minutes`` late, by the
        system's late rule where it has one and the minutes pass its limit (pair-swiss: the whole
        team forfeits, seed 000 第十三条), else a forfeit of the table; both sides: a double forfeit."""
        try:
            r, order = self._sides(table)
            late = [order[SIDES.index(side)] for side in sides]
            limit = self.store.tournament.rules.late_limit
            for entry in late:
                event, by = f"{table}:{seq}:{kind}:{entry}", f"table {table}"
                if limit is not None and minutes > limit:
                    self.store.late_arrival(r.round, entry, minutes, by=by, event=event)
                else:
                    self.store.forfeit(r.round, table, [entry], by=by, event=event)
        except TournamentError as exc:
            self._not_recorded(table, seq, kind, exc)
