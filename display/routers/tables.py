"""Console actions on the tables: commands (start/stop a round, the last-hand notice, seating), the
referee's rulings, flagged reads with the camera's frame beside them, an accepted play amended (with the cards its
seat could have played). Every action goes into the audit log and is confirmed by its line, in the reader's
language; an amendment can be undone (amended back)."""

from __future__ import annotations

import base64
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Query
from fastapi.responses import Response

from bus.protocol import PayloadError
from display.actions import Said, line
from display.deps import Ctx, Denied, Lang, Organiser, Referee, User, record
from display.flags import actions, frame_for
from display.plays import choices, decks, hand_of, play_of, whole
from display.routers.pages import fouls
from display.said import inside as inside_of
from display.view import Hall
from display.schemas import (
    Assign,
    Choice,
    FlagAction,
    FlagView,
    FrameInfo,
    Id,
    Inside,
    LastHand,
    PlayAmend,
    PlayView,
    Problem,
    Ruling,
    Seat,
    Sent,
    Skipped,
    TableCommand,
    Undo,
)
from referee.catalogue import Term
from referee.catalogue.sentences import FlagNo, Sentences
from referee.rulebooks import names

router = APIRouter(prefix="/api/console", tags=["console: tables"])
ERRORS = {code: {"model": Problem} for code in (401, 403, 404, 409, 422, 503)}
ANSWER_S = 10.0  # how long a command waits for the table's answer (a live table answers within a second)
REFUSAL_S = 1.0  # a flag confirmed as this console confirmed it: how long to wait for the table's refusal of its own
MessageId = Annotated[str, Path(min_length=1, max_length=128)]  # a flag's or a frame's: the bus's message id (defs.json)
_RESOLVING: dict[str, threading.Lock] = {}  # per table: one resolution at a time, so a second one sees the first's answer


def _known(ctx: Ctx, table: str):
    view = ctx.feed.hall.tables.get(table)
    if view is None:
        raise HTTPException(404, Denied("no_table", table=table))
    return view


def publish(ctx: Ctx, table: str, command: str, **fields) -> str:
    """Publish one command to ``table``; its id. Refused (503, nothing sent) while the display is cut off from the
    broker: the command would wait in memory, said done, and reach the table whenever the broker came back (or never,
    the display restarted meanwhile). The console's banner shows exactly then (``Feed.can_send``)."""
    if not ctx.feed.can_send:
        raise HTTPException(503, Denied("broker_down"))
    try:
        return ctx.feed.command(table, command, **fields)
    except PayloadError as exc:  # what the protocol refuses (more copies of a card than the decks hold, ...): said, not a 500
        raise HTTPException(422, Denied("command_unsendable", table=table, why=exc)) from None


def send(ctx: Ctx, user: User, lang: str, table: str, command: str, note: dict | None = None,
         undo: Undo | None = None, done: Callable[[Hall], bool] | None = None,
         otherwise: Callable[[str, bool], Denied | None] | None = None, cid: str | None = None,
         wait: float | None = None, **fields) -> Sent:
    """Publish one command to ``table`` (``cid``: published already, its id) and record it once the table took it
    (``note``: what the audit line tells besides the command's fields, such as the cards an amendment replaces). The
    answer waits for the table's: ``applied`` (``Sent.answered``), or ``rejected``, a 409 that says the table's reason,
    nothing recorded; none within ``wait`` s (default ``ANSWER_S``, as it is when called): recorded, ``answered`` false
    (the console says it in red: the table offline, or the display not hearing it). ``done``: what the command changes,
    seen in the hall, taken as its answer too. ``otherwise(id, refused)``: what did it when not this command (another
    input came first), a 409 that says so, nothing recorded."""
    cid = cid or publish(ctx, table, command, **fields)
    answered = ctx.feed.answer(cid, done or (lambda hall: False), ANSWER_S if wait is None else wait)
    other = otherwise(cid, isinstance(answered, dict)) if otherwise is not None and answered else None
    if other is not None:
        raise HTTPException(409, other)
    if isinstance(answered, dict):
        raise HTTPException(409, Denied("table_refused", table=table, why=_told(ctx, table, answered)))
    note = dict(note or {})
    seat = fields.get("seat") or note.get("seat")
    view = ctx.feed.hall.tables.get(table)
    player = ((view.state if view else None) or {}).get("players", {}).get(seat) if seat else None
    if player:
        note["player"] = player  # the audit line names the player as well as the seat
    said = record(ctx, user, lang, command, {"table": table, "id": cid, **fields, **note})
    return Sent(table=table, id=cid, command=command, said=said, undo=undo, answered=bool(answered))


def _told(ctx: Ctx, table: str, refused: dict) -> Said:
    """A table's refusal of a command (its ``rejected`` data) in the reader's language: its ``why`` (its rules' reason,
    or what of the payload the protocol refuses); the log's words where it gave none (an older table)."""
    players = ((ctx.feed.hall.tables[table].state if table in ctx.feed.hall.tables else None) or {}).get("players")
    return Said(lambda lang: Sentences(lang, players=players).reason(refused["why"]) if refused.get("why") else refused["reason"])


@router.post("/tables/{table}/commands", responses=ERRORS, summary="start_round, stop_round or last_hand at one table")
def command(table: Id, body: TableCommand, user: Referee, ctx: Ctx, lang: Lang) -> Sent:
    if body.command != "last_hand" and user.role != "organiser":
        raise HTTPException(403, Denied("command_needs_organiser", user=user.name, command=Term(f"command.{body.command}")))
    _known(ctx, table)
    return send(ctx, user, lang, table, body.command)


@router.post("/tables/{table}/rulings", responses=ERRORS,
             summary="The referee's ruling on what no camera sees: a foul, the dealer's 报到 or 摊打")
def ruling(table: Id, body: Ruling, user: Referee, ctx: Ctx, lang: Lang) -> Sent:
    if body.ruling == "foul" and body.kind not in fouls():  # from a script or a stale page: no rulebook has it
        raise HTTPException(422, Denied("foul_unknown", kind=body.kind, known=[Term(f"kind.{k}") for k in fouls()]))
    _known(ctx, table)
    return send(ctx, user, lang, table, body.ruling, **body.model_dump(exclude={"ruling"}, exclude_none=True))


@router.post("/last-hand", responses=ERRORS, summary="Announce the last hand at every table of the hall playing a round")
def last_hand(user: Referee, ctx: Ctx, lang: Lang) -> LastHand:
    """001 三 / 000 通知 四 3: the last hand is announced while a round is played, once; a table between rounds, or
    whose last hand is announced already, refuses it (``table.last_hand_no_round``, ``table.last_hand_twice``), so it
    is sent only to the tables whose state shows a round played and no last hand yet. The others are said skipped and
    why; so is a table the display has no state of (its service not running, or not yet heard): nothing shows it
    playing, an announcement to it would be refused or unanswered, and the organiser, told, can announce it on its
    row. A table that refuses it all the same (its round ended meanwhile) is said skipped with its words. None
    playing: a 409 that says why of each."""
    hall = ctx.feed.hall.tables
    if not hall:
        raise HTTPException(409, Denied("no_tables_yet"))
    why = {table: _not_playing(view.state) for table, view in sorted(hall.items())}
    playing = [t for t, w in why.items() if w is None]
    skipped = [(t, Denied("last_hand_skipped", table=t, why=w)) for t, w in why.items() if w is not None]
    if not playing:
        raise HTTPException(409, Denied("last_hand_nowhere", skipped=[Denied("at_table", table=t, why=w)
                                                                       for t, w in why.items()]))
    answers = _answers(ctx, user, lang, [(t, "last_hand", {}) for t in playing])
    sent = [a for a in answers if isinstance(a, Sent)]
    skipped += [(t, a.detail) for t, a in zip(playing, answers, strict=True) if not isinstance(a, Sent)]
    return LastHand(sent=sent, skipped=[Skipped(table=t, said=d.text(lang)) for t, d in sorted(skipped)])


def _not_playing(state: dict | None) -> Denied | None:
    """Why a table with ``state`` takes no last hand (None: it plays a round, its last hand not announced).

    >>> _not_playing(None).key, _not_playing({"phase": "round_over", "round": None}).text("en")
    ('error.state_unseen', 'no round is being played (round over)')
    >>> _not_playing({"phase": "playing", "round": {"last_hand": True}}).key, _not_playing({"phase": "bidding", "round": {}})
    ('error.announced_already', None)
    """
    if state is None:
        return Denied("state_unseen")
    if state["phase"] in ("idle", "round_over"):
        return Denied("between_rounds", phase=Term(f"phase.{state['phase']}"))
    return Denied("announced_already") if (state.get("round") or {}).get("last_hand") else None


def send_all(ctx: Ctx, user: User, lang: str, commands: list[tuple[str, str, dict]]) -> list[Sent]:
    """Each ``(table, command, fields)`` sent (:func:`_answers`): what the tables took is recorded, and a refusal is
    the 409 (the first, once the rest are recorded)."""
    answers = _answers(ctx, user, lang, commands)
    refused = next((a for a in answers if not isinstance(a, Sent)), None)
    if refused is not None:
        raise refused
    return answers


def _answers(ctx: Ctx, user: User, lang: str, commands: list[tuple[str, str, dict]]) -> list[Sent | HTTPException]:
    """Each ``(table, command, fields)`` published first, then each table's answer awaited (one ``ANSWER_S`` in all,
    not one a table): its :class:`Sent`, recorded, or its refusal (the 409 :func:`send` raises), in order."""
    ids = [publish(ctx, table, command, **fields) for table, command, fields in commands]
    out, until = [], time.monotonic() + ANSWER_S
    for (table, command, fields), cid in zip(commands, ids, strict=True):
        try:
            out.append(send(ctx, user, lang, table, command, cid=cid, wait=max(0.0, until - time.monotonic()), **fields))
        except HTTPException as exc:
            out.append(exc)
    return out


@router.post("/tables/{table}/assign", responses=ERRORS, summary="Seat four players and choose the rulebook")
def assign(table: Id, body: Assign, user: Organiser, ctx: Ctx, lang: Lang) -> Sent:
    if sorted(body.players) != sorted("SENW") or len(set(body.players.values())) != 4:
        raise HTTPException(422, Denied("assign_players"))
    if body.rulebook not in names():
        raise HTTPException(422, Denied("assign_rulebook", rulebook=body.rulebook, known=sorted(names())))
    _known(ctx, table)
    return send(ctx, user, lang, table, "assign", players=dict(body.players), rulebook=body.rulebook)


@router.get("/flags", responses=ERRORS, summary="Every open flag of every table, with its kept frame")
def flags(user: Referee, ctx: Ctx, lang: Lang) -> list[FlagView]:
    out = []
    for table, view in sorted(ctx.feed.hall.tables.items()):
        state = view.state or {}
        said = Sentences(lang, players=state.get("players"))
        for f in state.get("flags", []):
            frame = frame_for(f, ctx.feed.frames(table))
            info = None if frame is None else FrameInfo(
                table=table, id=frame["id"], seat=frame["seat"], at=frame["at"], reason=frame["reason"],
                url=f"/api/console/frames/{table}/{frame['id']}")
            out.append(FlagView(table=table, flag=f["flag"], seat=f["seat"], kind=f["kind"], at=f["at"],
                                cards=f.get("cards", []), text=f.get("text", ""), said=said.flag(f), frame=info,
                                actions=list(actions(f, state)), choices=f.get("choices", []),
                                choice_words=[said.reason(w) for w in f.get("choice_words", [])]))
    return out


@router.get("/tables", responses=ERRORS,
            summary="Every table's detail the public pages do not get: why its service would not start, the problem "
                    "its health names, why it is stalled (an exception's words, a file's path and all: the public pages "
                    "say 未能启动 or 无响应 and no more)")
def inside(user: Referee, ctx: Ctx) -> list[Inside]:
    now = time.monotonic()
    return [Inside(**inside_of(view, now)) for _, view in sorted(ctx.feed.hall.tables.items())]


@router.post("/tables/{table}/flags/{flag}", responses=ERRORS, summary="Confirm, dismiss or correct an open flag")
def resolve(table: Id, flag: MessageId, body: FlagAction, user: Referee, ctx: Ctx, lang: Lang) -> Sent:
    if (body.how == "correct") != (body.cards is not None):
        raise HTTPException(422, Denied("cards_with_correct"))
    if body.reading is not None and body.how != "dismiss":
        raise HTTPException(422, Denied("reading_with_dismiss"))
    view = _known(ctx, table)

    def closed(hall: Hall) -> bool:
        return not any(f["flag"] == flag for f in (hall.table(table).state or {}).get("flags", []))

    # Two referees at one flag: the second waits for the first's answer, then is told who resolved it and how (its
    # command, sent as well, was refused by the table and said done). It waits one answer's time at most: a table that
    # does not answer holds no more than one of the server's threads (the rest are told, not queued for ever).
    lock = _RESOLVING.setdefault(table, threading.Lock())
    if not lock.acquire(timeout=ANSWER_S + REFUSAL_S):
        raise HTTPException(409, Denied("flag_busy", table=table))
    try:
        if closed(ctx.feed.hall):
            done = _resolution(ctx, table, flag)
            raise HTTPException(409, Denied("flag_done", done=done) if done else Denied("no_open_flag", table=table, flag=FlagNo(flag)))
        _held(view, table, body.cards or [])
        fields = {"flag": flag} | ({"cards": body.cards} if body.cards is not None else {})
        fields |= {"reading": body.reading} if body.reading is not None else {}  # the table refuses one out of range
        return send(ctx, user, lang, table, body.how, note=_structure(view.state or {}, flag, body.reading), done=closed,
                    otherwise=lambda cid, refused: _closed_otherwise(ctx, table, flag, body.how, cid, refused), **fields)
    finally:
        lock.release()


def _held(view, table: str, cards: list[str], exclude: int | None = None) -> None:
    """Refuse (422, nothing sent) a correction into more copies of a card than the hand has left unseen (the decks less
    its accepted plays but ``exclude``): a slip no seat could have played, which the table took (four ♠5 of three decks).
    A display that missed plays of the hand counts more left than there are: it refuses less, never a possible play."""
    book = (view.state or {}).get("rulebook")
    if book not in names():
        return
    left = dict(choices(book, view.timeline, exclude=exclude))
    for card, n in Counter(cards).items():
        if n > left.get(card, 0):
            raise HTTPException(422, Denied("cards_not_left", table=table, n=n, decks=decks(book),
                                            seen=decks(book) - left.get(card, 0), card=Said(lambda lang, c=card: Sentences(lang).cards([c]))))


def _structure(state: dict, flag: str, reading: int | None) -> dict:
    """The choice a dismiss names (``reading``, 1 the first, of the flag's ``choices``), for its audit line to show:
    its cards, and its words where the flag has them (``choice_words``: a Guandan play's reading, 到 8 的顺子)."""
    f = next((f for f in state.get("flags", []) if f["flag"] == flag), {})
    choices, words = f.get("choices") or [], f.get("choice_words") or []
    if reading is None or not 1 <= reading <= len(choices):
        return {}
    return {"structure": choices[reading - 1]} | ({"words": words[reading - 1]} if reading <= len(words) else {})


def _closed_otherwise(ctx: Ctx, table: str, flag: str, how: str, cid: str, refused: bool) -> Denied | None:
    """What closed ``flag`` when this console's ``how`` (command ``cid``) did not: the round or a game ending (the table
    dismisses its open flags, ``flag_resolved`` with ``round_ended`` or ``game_ended``), or an input before it, such as
    the seat's own confirm button (a ``flag_resolved`` of another ``how``, or of the same once the table refused this
    command: a confirm waits ``REFUSAL_S`` for that refusal, the seat's button confirming as the console does). None:
    this command did."""
    said = next((e["data"] for e in reversed(ctx.feed.hall.table(table).timeline)
                 if e["kind"] == "flag_resolved" and e["data"].get("flag") == flag), None)
    if said is None:
        return None
    if said.get("round_ended"):
        return Denied("flag_closed_round", table=table, flag=FlagNo(flag))
    if said.get("game_ended"):
        return Denied("flag_closed_game", table=table, flag=FlagNo(flag))
    if said.get("how") == how and not refused:
        refused = how == "confirm" and isinstance(ctx.feed.answer(cid, lambda hall: False, REFUSAL_S), dict)
    if said.get("how") == how and not refused:
        return None
    return Denied("flag_closed_first", table=table, flag=FlagNo(flag), how=Term(f"how.{said.get('how')}"))


def _resolution(ctx: Ctx, table: str, flag: str) -> Said | None:
    """How the console resolved ``table``'s ``flag`` (its audit line), if it did lately."""
    roles = dict(ctx.store.users())
    for e in ctx.store.audit_log(200):
        if e["action"] in ("confirm", "dismiss", "correct") and (e["detail"].get("table"), e["detail"].get("flag")) == (table, flag):
            return Said(lambda lang: line(lang, e["user"], roles.get(e["user"], ""), e["action"], e["detail"]))
    return None


@router.get("/tables/{table}/choices", responses=ERRORS,
            summary="The cards a seat could have played (the decks minus what this hand has seen): a play's, or a seat's")
def table_choices(table: Id, user: Referee, ctx: Ctx, lang: Lang, entry: Annotated[int | None, Query(ge=1)] = None,
                  seat: Seat | None = None) -> PlayView:
    view = _known(ctx, table)
    state = view.state or {}
    play = play_of(view.timeline, entry) if entry is not None else None
    if entry is not None and play is None:
        raise HTTPException(404, Denied("no_play", table=table, entry=entry))
    if play is None:
        flagged = next((f for f in state.get("flags", []) if f["seat"] == seat), None)
        play = {"entry": None, "seat": seat or "S", "hand": state.get("hand"), "trick": state.get("trick"),
                "cards": list(flagged["cards"]) if flagged else []}
    said = Sentences(lang, players=state.get("players"))
    left = choices(state.get("rulebook") or "classic-3deck", view.timeline, exclude=play["entry"])
    return PlayView(table=table, **play, choices=[Choice(card=c, left=n) for c, n in left],
                    whole=whole(view.timeline, hand_of(view.timeline, play["entry"])),  # else the counts are too high
                    said=said.play(play["seat"], play["entry"], play["cards"]))


@router.post("/tables/{table}/plays/{entry}", responses=ERRORS,
             summary="Amend an accepted play (a dispute): the table judges everything after it again")
def amend(table: Id, entry: Annotated[int, Path(ge=1, le=2**53)], body: PlayAmend, user: Referee, ctx: Ctx,
          lang: Lang) -> Sent:
    view = _known(ctx, table)
    was = play_of(view.timeline, entry)
    note = {"seat": was["seat"], "was": was["cards"]} if was else None
    undo = Undo(path=f"/api/console/tables/{table}/plays/{entry}", body={"cards": was["cards"]}) if was else None
    _held(view, table, body.cards, exclude=entry)
    return send(ctx, user, lang, table, "amend", note=note, undo=undo, entry=entry, cards=body.cards)


@router.get("/frames/{table}/{frame}", response_class=Response, summary="A kept camera frame as JPEG",
            responses={**ERRORS, 200: {"content": {"image/jpeg": {}}}})
def frame(table: Id, frame: MessageId, user: Referee, ctx: Ctx) -> Response:
    for f in ctx.feed.frames(table):
        if f["id"] == frame:
            return Response(base64.b64decode(f["jpeg"]), media_type="image/jpeg")
    raise HTTPException(404, Denied("no_frame", table=table, frame=frame))
