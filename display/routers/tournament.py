"""Console actions on the tournament (``referee.tournament`` in-process): register entries or import
the form, make the tournament, enter the lot drawn in the hall, pair and start each round (or undo a pairing made
by mistake), record and correct results, forfeits and
late arrivals, export the sheets. The tournament service publishes the changed round and standings
(``cardtable tournament serve`` on the same file). Each change goes into the audit log too."""

from __future__ import annotations

import asyncio
import sqlite3
from functools import cache

from fastapi import APIRouter, HTTPException, Query, UploadFile
from fastapi.responses import Response

from bus.protocol import PayloadError, encode
from display.actions import Said, entry_named, line
from display.deps import Ctx, Denied, Lang, Organiser, Referee, User, record
from display.routers.tables import send_all
from display.schemas import (
    Book,
    Entries,
    EntryRow,
    ForfeitIn,
    LateIn,
    LotIn,
    Named,
    NewTournament,
    Problem,
    ResultIn,
    Started,
    StartRound,
    TournamentView,
    RoundsIn,
    Undo,
    UnpairIn,
    Unrecorded,
    WithdrawIn,
)
from display.tournament import (
    EntryError,
    Refusal,
    TournamentError,
    at_tables,
    entries_known,
    entries_named,
    entries_of,
    read_form,
    rows_of,
    seating,
)
from referee.catalogue import Term, say
from referee.reasons import cut
from referee.tournament.entries import readable
from referee.tournament.export import PRINT_CSS, ranking
from referee.tournament.store import file_error
from referee.tournament.systems import SYSTEMS
from referee.tournament.views import results_said
from referee.rulebooks import GuandanRulebook, RulebookError, load, names

router = APIRouter(prefix="/api/console", tags=["console: tournament"])
PUBLISH_GRACE_S = 10.0  # the tournament service publishes a change within half a second (its poll)
ERRORS = {code: {"model": Problem} for code in (401, 403, 404, 409, 422, 503)}
FORM_BYTES = 2 * 1024 * 1024
FILE_NAME_MOST = 255  # characters of an uploaded file's name (a file system's most)
EXPORTS = {"csv": "text/csv; charset=utf-8", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
           "html": "text/html; charset=utf-8"}


def _tournaments(ctx: Ctx):
    if ctx.tournament is None:
        raise HTTPException(404, Refusal("no_tournament_db"))
    return ctx.tournament


def _no_tournament() -> HTTPException:
    return HTTPException(404, Refusal("no_tournament"))


def _refused(exc: Refusal) -> HTTPException:
    """A change the store refused: a 409 with its reason; none made yet is the 404 that says so (the store's words
    name the file's path on the server, not the console's to show)."""
    return _no_tournament() if exc.key == "refusal.no_tournament_in" else HTTPException(409, exc)


ENTRY_VALUES = ("entry", "entries", "seated")  # a refusal's values that name entries by id


def _named_in(exc: Refusal, t) -> Refusal:
    """``exc`` naming the entries it names by id as the hall knows them (2号 外国语学院队 外国语学院 张4、李4), in the
    reader's language: the organiser never sees the ids (was: 已由 e05 弃权判定). An id the tournament lacks stays as
    typed."""
    known = entries_known(t)

    def name(v):
        return Said(lambda lang: entry_named(lang, v, known)) if isinstance(v, str) and v in known else v

    for k in ENTRY_VALUES:
        v = exc.values.get(k)
        if isinstance(v, (list, tuple)):
            exc.values[k] = [name(x) for x in v]
        elif v is not None:
            exc.values[k] = name(v)
    return exc


def _change(ctx: Ctx, user: User, lang: str, action: str, detail: dict, call) -> TournamentView:
    """Run one change on the store and show the tournament after it, with the change in one line; a refusal is
    a 409 with the store's reason in the reader's language, and nothing changed. The tournament's file failing under
    the change (another program's lock held past the wait, the disk full, read-only) is a 503 in the store's words
    (``store.file_error``: nothing changed; the console's own file is not the one that failed). The change is noted
    pending in the console's file before it is made, and its audit lines made from the tournament's log after it
    (``display.tournament``: a console killed between the two makes them when it starts again)."""
    tournaments = _tournaments(ctx)
    with tournaments.using() as store:
        since = store.last_seq()
        if since:
            store.tournament  # noqa: B018 - a damaged file is no refusal of the change: the app's 500 in words (app._damaged)
        tournaments.settle(ctx.store)  # what a change before this one left pending (the console's file failing)
        change = ctx.store.begin(user.name, action, detail, tournaments.file, since)
        try:
            call(store)
        except (TournamentError, EntryError) as exc:
            ctx.store.settle(change, [])
            raise _refused(_named_in(exc, store.tournament) if since else exc) from None
        except sqlite3.Error as exc:  # left pending: the log says whether it was made
            raise HTTPException(503, file_error(store.path, exc)) from None
        view = _view(store, ctx, lang)
        made = tournaments.made(change)
        ctx.store.settle(change, made)
    said = " ".join(line(lang, user.name, user.role, a, d) for _, a, d in made)
    return view.model_copy(update={"said": said})


def _view(store, ctx: Ctx, lang: str, round_no: int | None = None) -> TournamentView:
    """The tournament with the latest round, or round ``round_no`` (an earlier one, to correct its results)."""
    t = store.tournament
    waiting = t.rounds[-1].waiting() if t.rounds else ()
    tables = at_tables(t, {name: x.state for name, x in ctx.feed.hall.tables.items()})
    shown = store.round_view(round_no)
    changed = {x.table: t.round(shown["round"]).seen(x.table) for x in t.round(shown["round"]).tables} if shown["round"] else {}
    return TournamentView(tournament=t.id, name=t.name, system=t.system, rounds=t.total_rounds, paired=len(t.rounds),
                          finished=t.finished, round=shown, best_of=t.rules.best_of(t, shown["round"]),
                          results=results_said(t, shown["round"]) if shown["round"] else {},
                          standings=store.standings(), ranking=ranking(t, lang), lot=list(t.lot),
                          lot_open=t.rules.lot_closed(t) is None, rulebook=tables.rulebook, started=tables.started,
                          rulebooks=_books(t.rules.games), changed=changed, entries=[Named(**x) for x in entries_named(t)],
                          unrecorded=[Unrecorded(table=n.table, report=n.report, reason=n.reason, at=n.at) for n in waiting])


@cache
def _books(games: tuple[str, ...]) -> list[Book]:
    """The rulebooks of ``games``, by name (read once: the rulebooks do not change while serving)."""
    return [Book(name=n, title=b.title, title_en=b.title_en, game=b.game) for n in sorted(names()) if (b := load(n)).game in games]


# ---------------------------------------------------------------- entries


@router.get("/entries", responses=ERRORS, summary="The entries: being registered, or the tournament's")
def entries(user: Referee, ctx: Ctx) -> Entries:
    tournaments = _tournaments(ctx)
    if tournaments.exists():
        with tournaments.using() as store:
            return Entries(source="tournament", entries=[e.as_dict() for e in store.tournament.entries])
    rows = ctx.store.draft()
    return Entries(source="draft", entries=[e.as_dict() for e in entries_of(rows)] if rows else [])


def _set_draft(ctx: Ctx, user: User, lang: str, rows: list[dict], action: str, detail: dict) -> Entries:
    if _tournaments(ctx).exists():
        raise HTTPException(409, Refusal("entries_fixed"))
    try:
        made = entries_of(rows) if rows else ()
    except EntryError as exc:
        raise HTTPException(422, exc) from None
    ctx.store.set_draft(rows)
    return Entries(source="draft", entries=[e.as_dict() for e in made], said=record(ctx, user, lang, action, detail))


@router.post("/entries", status_code=201, responses=ERRORS, summary="Register one entry (a row of the form)")
def add_entry(body: EntryRow, user: Organiser, ctx: Ctx, lang: Lang) -> Entries:
    row = body.model_dump()
    return _set_draft(ctx, user, lang, ctx.store.draft() + [row], "add_entry", row)


@router.delete("/entries", responses=ERRORS, summary="Start the registration again")
def clear_entries(user: Organiser, ctx: Ctx, lang: Lang) -> Entries:
    return _set_draft(ctx, user, lang, [], "clear_entries", {})


@router.post("/entries/import", responses=ERRORS, summary="Import the registration form (.csv or .xlsx); replaces the draft")
async def import_entries(file: UploadFile, user: Organiser, ctx: Ctx, lang: Lang) -> Entries:
    name = file.filename or "form"
    data = await file.read(FORM_BYTES + 1)
    try:  # the file's name goes into the audit log and the refusals: read as written, and short
        if len(name) > FILE_NAME_MOST:
            raise EntryError("file_name_long", n=len(name), most=FILE_NAME_MOST)
        readable(name, "file")
        if len(data) > FORM_BYTES:
            raise EntryError("form_too_big", kib=FORM_BYTES // 1024)
        # off the event loop: a form takes seconds to read, while the pages' streams and the console wait on it
        made = await asyncio.to_thread(read_form, name, data)
    except EntryError as exc:
        raise HTTPException(422, exc) from None
    return _set_draft(ctx, user, lang, rows_of(made), "import_entries", {"file": name, "entries": len(made)})


# ---------------------------------------------------------------- the tournament


@router.post("/tournament", status_code=201, responses=ERRORS, summary="Make the tournament from the entries registered")
def new(body: NewTournament, user: Organiser, ctx: Ctx, lang: Lang) -> TournamentView:
    rows = ctx.store.draft()
    if not rows:
        raise HTTPException(409, Refusal("no_entries"))
    if body.rounds is not None and "rounds" not in SYSTEMS[body.system].defaults:  # the knockout: said what to do (was:
        # 没有选项“rounds”；可用的选项：stage2_from, the options' internal names)
        raise HTTPException(409, Refusal("rounds_leave_empty", system=Term(f"system.{body.system}")))
    options = {"rounds": body.rounds} if body.rounds is not None else None
    detail = body.model_dump(exclude_none=True) | {"entries": len(rows)}

    return _change(ctx, user, lang, "new_tournament", detail, lambda store: store.new(
        body.system, entries_of(rows), name=body.name, seed=body.seed, options=options, id=body.id, by=user.name))


@router.get("/tournament", responses=ERRORS, summary="The tournament: latest round (finished tables have a result), standings")
def show(user: Referee, ctx: Ctx, lang: Lang, round_no: int | None = Query(None, alias="round", ge=1, le=1000)) -> TournamentView:
    """``?round=N``: an earlier round than the latest, whose results may still be corrected."""
    tournaments = _tournaments(ctx)
    if not tournaments.exists():
        raise _no_tournament()
    with tournaments.using() as store:
        store.tournament  # a damaged file is no refusal of the round asked: the app's 500 in words (app._damaged)
        try:
            view = _view(store, ctx, lang, round_no)
        except TournamentError as exc:  # a round not paired (yet)
            raise _refused(exc) from None
    return view.model_copy(update={"unpublished": _unpublished(ctx, view, lang)})


def _unpublished(ctx: Ctx, view: TournamentView, lang: str) -> str:
    """Words when the tournament service has not published the tournament's latest change (the round ``at`` on the
    broker is older than the file's) ``PUBLISH_GRACE_S`` after it: it is not running, so the big screens show an old
    round and the tables' results are not recorded (the service enabled only once the tournament is made, and
    forgotten; or stopped). "" while it keeps up, and while the display's scoreboard connection is down: what the
    service publishes cannot be seen then (the scoreboard's banner says so). The wait is the longer of the clock's
    since the change and the console's monotonic time since it first saw the change unpublished: a clock set back
    after the change (its ``at`` then ahead) does not hold the words back until the clock catches up."""
    if not ctx.feed.scoreboard.connected:
        return ""
    published = ctx.feed.hall.rounds.get(view.tournament)
    if published is not None and published.get("at", 0) >= view.round.at:
        return ""
    waited = max(ctx.clock() - view.round.at, _tournaments(ctx).unpublished_for(view.round.at))
    if waited < PUBLISH_GRACE_S:
        return ""
    return Denied("tournament_unpublished", minutes=max(1, round(waited / 60))).text(lang)


@router.post("/tournament/rounds", status_code=201, responses=ERRORS, summary="Pair the next round")
def pair(user: Organiser, ctx: Ctx, lang: Lang) -> TournamentView:
    return _change(ctx, user, lang, "pair_round", {}, lambda store: store.pair_next_round(by=user.name))


@router.post("/tournament/rounds/{round_no}/unpair", responses=ERRORS,
             summary="Undo the latest round's pairing, a mistake found before any result: the next pair draws it anew")
def unpair(round_no: int, body: UnpairIn, user: Organiser, ctx: Ctx, lang: Lang) -> TournamentView:
    return _change(ctx, user, lang, "unpair_round", {"round": round_no, "reason": body.reason},
                   lambda store: store.unpair_round(round_no, by=user.name, reason=body.reason))


@router.post("/tournament/rounds/{round_no}/start", responses=ERRORS,
             summary="Seat each table of the round (assign) and start its round clock (start_round)")
def start(round_no: int, body: StartRound, user: Organiser, ctx: Ctx, lang: Lang) -> Started:
    with _tournaments(ctx).using() as store:
        try:
            t = store.tournament
            tables = [(x.table, seating([t.entry(e) for e in x.entries])) for x in t.round(round_no).tables]
        except TournamentError as exc:
            raise _refused(exc) from None
        rulebook = body.rulebook or t.rules.rulebook_of(t, round_no)  # a knockout's second stage: its own book (seed 002 三2)
        try:
            book = load(rulebook)
        except RulebookError:
            raise HTTPException(409, Denied("rulebook_unknown", rulebook=rulebook, known=sorted(names()))) from None
        if book.game not in t.rules.games:  # a table would refuse its assign (another game): none seated, said
            raise HTTPException(409, Denied("rulebook_other_game", rulebook=rulebook, game=Term(f"game.{book.game}"),
                                            system=Term(f"system.{t.system}"), default=t.rules.rulebook))
        best_of = t.rules.best_of(t, round_no)
        if isinstance(book, GuandanRulebook) and book.stages[book.match.stage].best_of != best_of:  # 规程 三 2: its stage
            raise HTTPException(409, Denied("rulebook_other_stage", rulebook=rulebook, round=round_no, best_of=best_of,
                                            needed=t.rules.rulebook_of(t, round_no)))
    if not ctx.feed.can_send:  # at once, not half-way through the tables
        raise HTTPException(503, Denied("broker_down"))
    for table, players in tables:  # names the bus refuses (a file made before forms were checked): none seated, said
        try:
            encode("commands", {"v": 1, "id": "check", "command": "assign", "players": players, "rulebook": rulebook})
        except PayloadError as exc:
            raise HTTPException(409, Denied("seating_unsendable", table=table, why=exc)) from None
    on_broker = ctx.feed.hall.tables
    missing = [table for table, _ in tables if table not in on_broker]
    sent = send_all(ctx, user, lang, [x for table, players in tables if table in on_broker
                                      for x in ((table, "assign", {"players": players, "rulebook": rulebook}),
                                                (table, "start_round", {}))])
    said = record(ctx, user, lang, "start_tournament_round", {"round": round_no, "missing": missing})
    return Started(round=round_no, sent=sent, missing=missing, said=said)


@router.post("/tournament/lot", responses=ERRORS, summary="Enter the lot drawn in the hall (before round 1 where it pairs)")
def lot(body: LotIn, user: Organiser, ctx: Ctx, lang: Lang) -> TournamentView:
    return _change(ctx, user, lang, "draw_lot", {"order": body.order}, lambda store: store.draw_lot(body.order, by=user.name))


@router.post("/tournament/results", responses=ERRORS, summary="Record a table's result, or correct one (a dispute)")
def result(body: ResultIn, user: Referee, ctx: Ctx, lang: Lang) -> TournamentView:
    outcome = body.result.model_dump(exclude_none=True)
    said = outcome | ({"forfeits": body.forfeits} if body.forfeits else {})
    detail = {"round": body.round, "table": body.table, "result": said} | ({"reason": body.reason} if body.correct else {})

    before: dict = {}

    def make(store):
        if body.correct:
            before["was"] = _entered(store, body.round, body.table)
            store.correct_result(body.round, body.table, outcome, by=user.name, reason=body.reason, forfeits=body.forfeits,
                                 seen=body.seen)
            before["now"] = store.tournament.round(body.round).seen(body.table)  # the undo's seen
        else:
            store.record_result(body.round, body.table, outcome, by=user.name, forfeits=body.forfeits, seen=body.seen)

    view = _change(ctx, user, lang, "correct_result" if body.correct else "record_result", detail, make)
    if before.get("was") is None:  # a result recorded stays (none is taken back), a table's own result too
        return view
    entered, forfeits = before["was"]
    undo = {"round": body.round, "table": body.table, "result": entered, "correct": True, "seen": before["now"],
            "reason": say(lang, "action.undo_reason")} | ({"forfeits": forfeits} if forfeits else {})
    return view.model_copy(update={"undo": Undo(path="/api/console/tournament/results", body=undo)})


def _entered(store, round_no: int, table: str) -> tuple[dict, list[str]] | None:
    """The result entered by hand at a table and the entries that forfeit it, when a result was entered: a
    correction of it can be corrected back (a table decided by forfeit alone, or by its games, cannot)."""
    x = store.tournament.round(round_no).table(table)
    return (x.entered, list(x.forfeits)) if x.entered is not None else None


@router.post("/tournament/forfeits", responses=ERRORS, summary="Entries at a table forfeit it (弃权)")
def forfeit(body: ForfeitIn, user: Referee, ctx: Ctx, lang: Lang) -> TournamentView:
    return _change(ctx, user, lang, "forfeit", body.model_dump(exclude={"seen"}),
                   lambda store: store.forfeit(body.round, body.table, body.entries, by=user.name, correct=body.correct,
                                               reason=body.reason, seen=body.seen))


@router.post("/tournament/late", responses=ERRORS, summary="An entry arrived late (past the limit: a forfeit)")
def late(body: LateIn, user: Referee, ctx: Ctx, lang: Lang) -> TournamentView:
    return _change(ctx, user, lang, "late_arrival", body.model_dump(),
                   lambda store: store.late_arrival(body.round, body.entry, body.minutes, by=user.name))


@router.post("/tournament/withdrawals", responses=ERRORS,
             summary="A unit or an entry withdraws (退赛, 取消比赛资格): it leaves the draw, results stand")
def withdraw(body: WithdrawIn, user: Organiser, ctx: Ctx, lang: Lang) -> TournamentView:
    if (body.unit is None) == (body.entry is None):
        raise _refused(TournamentError("withdraw_what"))
    if body.unit is not None:  # the rounds left that cannot all be paired without it are said (PUT .../rounds changes it)
        return _change(ctx, user, lang, "withdraw_unit", body.model_dump(exclude_none=True),
                       lambda store: store.withdraw_unit(body.unit, by=user.name, reason=body.reason))
    return _change(ctx, user, lang, "withdraw_entry", body.model_dump(exclude_none=True),
                   lambda store: store.withdraw_entry(body.entry, by=user.name, reason=body.reason))


@router.put("/tournament/rounds", responses=ERRORS, summary="Change the number of rounds (not below those paired; pair-swiss: only what can be paired)")
def set_rounds(body: RoundsIn, user: Organiser, ctx: Ctx, lang: Lang) -> TournamentView:
    return _change(ctx, user, lang, "set_rounds", body.model_dump(), lambda store: store.set_rounds(body.rounds, by=user.name))


@router.get("/tournament/export.{fmt}", response_class=Response,
            summary="The sheets: csv, xlsx or html (printable: opened in the browser, ?download=1 to save it)",
            responses={**ERRORS, 200: {"content": {m: {} for m in EXPORTS.values()}}})
def export(fmt: str, user: Referee, ctx: Ctx, lang: Lang, download: bool = False) -> Response:
    """The sheets in the reader's language (``deps.language``, as the page the link is on). The printable HTML opens
    as a page (``inline``), its styles linked from :func:`print_css`: the pages' Content-Security-Policy, which allows
    no inline style, holds for it too; ``download`` saves it instead, a file with its styles within."""
    if fmt not in EXPORTS:
        raise HTTPException(404, Refusal("no_export", format=cut(fmt), known=list(EXPORTS)))
    tournaments = _tournaments(ctx)
    if not tournaments.exists():
        raise _no_tournament()
    shown = fmt == "html" and not download
    with tournaments.using() as store:
        data, tid = store.export(fmt, lang=lang, stylesheet=PRINT_CSS_URL if shown else None), store.tournament.id
    record(ctx, user, lang, "export", {"format": fmt})
    how = "inline" if shown else "attachment"
    return Response(data, media_type=EXPORTS[fmt], headers={"Content-Disposition": f'{how}; filename="{tid}.{fmt}"'})


PRINT_CSS_URL = "/api/console/tournament/print.css"


@router.get("/tournament/print.css", response_class=Response, summary="The printable sheets' styles",
            responses={200: {"content": {"text/css": {}}}})
def print_css(user: Referee) -> Response:
    return Response(_print_css(), media_type="text/css; charset=utf-8")


@cache
def _print_css() -> bytes:
    return PRINT_CSS.read_bytes()
