"""Pydantic models: the tournament topics the scoreboard reads, and every body and answer of
the REST API (FastAPI puts the same models in its OpenAPI schema).

The tournament topics (``cardtable/v1/tournament/{id}/round`` and ``.../standings``) are
published by ``referee.tournament``; a payload that breaks these models is ignored.

>>> Standings.model_validate({"v": 1, "tournament": "x", "name": "秋季赛", "system": "swiss",
...     "round": 1, "columns": ["对手分"], "rows": [], "at": 1.0}).columns
['对手分']
>>> Login.model_validate({"user": " ", "password": "p"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Login
user
  String should have at least 1 character [type=string_too_short, input_value=' ', input_type=str]
...
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, field_validator
from pydantic_core import PydanticCustomError

from referee.tournament.entries import invisible, unreadable


def _visible(text: str) -> str:
    """A name with no invisible format character (``entries.invisible``): ``wang`` and ``wang\u200b`` would read alike
    in the audit log, the console and at the tables (said by the catalogue's ``invalid.invisible``)."""
    if invisible(text):
        raise PydanticCustomError("invisible", "holds an invisible format character")
    return text


def _readable(text: str) -> str:
    """A free text a person reads (a tournament's name, a reason) with nothing in it they would not see as written
    (``entries.unreadable``: a terminal's escape, a right-to-left override that turns the words around it on the big
    screen), said by the catalogue's ``invalid.control`` and ``invalid.hidden``."""
    kind = unreadable(text)
    if kind == "control":
        raise PydanticCustomError("control", "holds a control character")
    if kind == "invisible":
        raise PydanticCustomError("hidden", "holds an invisible format character")
    return text


def Text(most: int, least: int = 0):
    """Free text of ``least`` to ``most`` characters that reads as written (:func:`_readable`)."""
    return Annotated[str, StringConstraints(min_length=least, max_length=most), AfterValidator(_readable)]


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f-\x9f]*$"),
                 AfterValidator(_visible)]  # as the bus's
Id = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
Card = Annotated[str, StringConstraints(pattern=r"^([SHDC](10|[2-9TJQKA])|BJ|LJ)$")]
Seat = Literal["S", "E", "N", "W"]
Role = Literal["referee", "organiser"]
Prize = Literal["一等奖", "二等奖", "三等奖"]


class Closed(BaseModel):
    """A model that names every field it allows."""

    model_config = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------- tournament topics (read)


class Entry(Closed):
    id: str = Field(min_length=1, max_length=64)
    name: str = Field(max_length=128)
    unit: str = Field(max_length=128)
    lot: int | None = Field(default=None, ge=1, le=100000, description="the lot number (抽签号)")
    withdrawn: bool = Field(default=False, description="withdrawn (退赛) or disqualified: drawn no more (the console's "
                            "withdrawal picker leaves it out, the round marks it where it sits)")


class Named(Entry):
    """An entry as the pages name it (``/api/tournaments/{id}/entries``, the console's tournament)."""

    team: str = Field(default="", max_length=64, description="where the standings rank teams (pair Swiss), the name of "
                      "the team it plays for (its unit is `unit`): a pair is named by it, as the standings name the team")


# An exact number on the wire (bus/PROTOCOL.md): an integer, or a fraction "10/3" (places shared by three)
Exact = Annotated[int, Field(strict=True, ge=-1000000, le=1000000)] | Annotated[str, StringConstraints(pattern=r"^-?[0-9]{1,12}/[0-9]{1,12}$")]


class TableResult(Closed):
    points: list[Exact] = Field(max_length=8)
    scores: list[Exact] = Field(max_length=8)


class Pairing(Closed):
    table: Id
    entries: list[Entry] = Field(max_length=8)
    result: TableResult | None
    forfeits: list[str] = Field(default=[], max_length=8, description="the entry ids that forfeit the table (弃权)")


class TournamentTopic(Closed):
    """What both tournament topics carry."""

    v: Literal[1]
    tournament: Id
    name: str = Field(max_length=128)
    system: str = Field(max_length=64)
    round: int = Field(ge=0, le=1000)
    at: float = Field(ge=0, le=4102444800)  # the year 2100


class Rematch(Closed):
    table: str = Field(max_length=32)
    before: list[str] = Field(max_length=8)
    after: list[str] = Field(max_length=8)


class Byes(Closed):
    before: list[str] = Field(max_length=1024)
    after: list[str] = Field(max_length=1024)


class Repaired(Closed):
    """A round paired again before it was played: the change that caused it, the tables that changed."""

    round: int = Field(ge=1, le=1000)
    seq: int = Field(ge=1, le=1_000_000_000)
    because: str = Field(max_length=32)
    tables: list[Rematch] = Field(max_length=1024)
    byes: Byes | None


class Round(TournamentTopic):
    """``cardtable/v1/tournament/{id}/round``: the pairings of the current round, by table."""

    rounds: int = Field(ge=0, le=1000)
    tables: list[Pairing] = Field(max_length=1024)
    byes: list[str] = Field(max_length=1024)
    byes_forfeited: list[str] = Field(default=[], max_length=1024)
    repaired: Repaired | None = None


class Row(Closed):
    rank: int = Field(ge=1, le=100000)
    id: str = Field(min_length=1, max_length=64)
    name: str = Field(max_length=128)
    unit: str = Field(max_length=128)
    score: Exact
    tiebreaks: list[Exact] = Field(max_length=16)
    prize: Prize | None
    by_lot: bool = Field(default=False, description="the lot decided this place (level on everything)")
    withdrawn: bool = Field(default=False, description="withdrawn (the unit, or the entry disqualified): results stand, after every row still in, no prize")


class Standings(TournamentTopic):
    """``cardtable/v1/tournament/{id}/standings``: every tie-break column, the prize zone."""

    columns: list[str] = Field(max_length=16)
    rows: list[Row] = Field(max_length=4096)

    @field_validator("rows")
    @classmethod
    def _as_many_tiebreaks_as_columns(cls, rows: list[Row], info) -> list[Row]:
        columns = info.data.get("columns")
        if columns is not None and any(len(r.tiebreaks) != len(columns) for r in rows):
            raise ValueError("every row has one tie-break per column")
        return rows


# ---------------------------------------------------------------- the API


class Problem(BaseModel):
    """Every 4xx answer: what was wrong, in words."""

    detail: str


class Login(Closed):
    user: Name
    password: str = Field(min_length=1, max_length=256)


class Me(BaseModel):
    user: str
    role: Role


class TableCommand(Closed):
    """A command without fields of its own to one table (or to every table when none is named)."""

    command: Literal["start_round", "stop_round", "last_hand"]


class FlagAction(Closed):
    """Confirm, dismiss or correct a flag of a table; ``cards`` only with ``correct``; ``reading`` only with ``dismiss``,
    and always for a flag with ``choices`` (the table refuses a dismiss of one without it, and it for any other)."""

    how: Literal["confirm", "dismiss", "correct"]
    cards: list[Card] | None = Field(default=None, min_length=1, max_length=60)
    reading: int | None = Field(default=None, ge=1, le=64, description="the flag's choice its seat stated, 1 the first "
                                "(Tractor: a captive led, seed 001 十五: 要说明“甩牌”的结构): the lead stands as it")


class FoulRuling(Closed):
    """The referee rules a foul no camera sees: ``kind`` is one of the table's rulebook's ``[fouls] kinds``; ``cards``
    only for a kind whose entry has ``card_points`` (the table refuses them for any other, and none for such a kind)."""

    ruling: Literal["foul"]
    seat: Seat
    kind: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,63}$")]
    cards: list[Card] | None = Field(default=None, min_length=1, max_length=60)


class ReportRuling(Closed):
    """The dealer's 报到, checked by the referee: ``play`` true is 打, false 不打 (the dealer wins at once)."""

    ruling: Literal["report"]
    seat: Seat
    play: bool


class OpenHandRuling(Closed):
    """The dealer's 摊打 (after 头撂)."""

    ruling: Literal["open_hand"]
    seat: Seat


Ruling = Annotated[FoulRuling | ReportRuling | OpenHandRuling, Field(discriminator="ruling")]


class PlayAmend(Closed):
    """A dispute settled: the accepted play (``entry``, the ``seq`` of its ``play_accepted``
    event) was really ``cards``; the table judges everything after it again."""

    cards: list[Card] = Field(min_length=1, max_length=60)


class Assign(Closed):
    players: dict[Seat, Name]
    rulebook: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]{1,64}$")]


class Undo(BaseModel):
    """The request that undoes an action where the rules allow it: POST ``body`` to ``path``."""

    path: str
    body: dict


class Sent(BaseModel):
    """A command published to a table's ``commands`` topic; ``said``: the action in one line, in the reader's
    language; ``undo``: how to take it back, when the rules allow it."""

    table: str
    id: str
    command: str
    said: str = ""
    undo: Undo | None = None
    answered: bool | None = Field(None, description="whether the table was seen to take it (false: no answer within "
                                  "seconds, the table offline or the display not hearing it)")


class Skipped(BaseModel):
    """A table an action for every table left out, and why."""

    table: str
    said: str = Field(description="why it was left out, in the reader's language")


class LastHand(BaseModel):
    """The last hand announced at every table playing a round (``sent``); the others ``skipped``, each with why."""

    sent: list[Sent]
    skipped: list[Skipped]


class AuditEntry(BaseModel):
    """One change; ``text``: the change in one line, in the reader's language."""

    at: float
    user: str
    action: str
    detail: dict
    text: str


class Choice(BaseModel):
    card: str
    left: int = Field(description="copies not seen played this hand")


class PlayView(BaseModel):
    """A play of the hand in play (or the cards of an open flag) and the cards its seat could have played:
    the decks minus what has been seen (``whole``: all of it). ``said``: the play in words."""

    table: str
    entry: int | None
    seat: Seat
    hand: int | None
    trick: int | None
    cards: list[str]
    choices: list[Choice]
    whole: bool = Field(description="the display saw every play of this hand; false: it missed some (it was stopped, "
                        "or cut off from the broker, meanwhile), and the counts left are too high by their cards")
    said: str


class FrameInfo(BaseModel):
    table: str
    id: str
    seat: Seat
    at: float
    reason: str
    url: str


class FlagView(BaseModel):
    """An open flag of a table and the camera frame kept for it, when there is one."""

    table: str
    flag: str
    seat: Seat
    kind: str
    at: float
    cards: list[str]
    text: str
    said: str = Field(description="what the flag asks, in the reader's language")
    frame: FrameInfo | None
    actions: list[Literal["confirm", "dismiss", "correct"]] = Field(
        description="the answers that mean something for this flag (bus/PROTOCOL.md 'Flags'), the console's buttons; "
                    "a flag with choices is dismissed naming one of them (reading), never plainly")
    choices: list[list[list[str]]] = Field(default_factory=list, description="the ways its play can be read, each a "
                                           "list of units, each a list of cards (Tractor: a captive led): a dismiss names "
                                           "the one stated (its reading, 1 the first)")
    choice_words: list[str] = Field(default_factory=list, description="each of its choices in words, in the reader's "
                                    "language, where their cards alone do not tell them apart (Guandan: the readings "
                                    "of a wildcard play, lead or follow, seed 002 二: 到 7 的顺子, 到 8 的顺子)")


class NotStarted(BaseModel):
    """Why a table's service would not start (its ``offline`` status with ``why``: ``referee.table.refused``), as the
    console alone sees it: the public pages say 未能启动 (failed to start) and no more."""

    reason: str = Field(description="why, in the words of the logs (English): a file's path and all")
    why: dict = Field(description="why, as data: a key of the catalogue's replay.why_* and its values")
    say: dict[str, str] = Field(description="why, in both languages (zh, en)")


class HealthProblem(BaseModel):
    """What keeps a table's service from working, as its health names it, as the console alone sees it: the public
    pages get ``problem: true`` in the health and say 无响应 (not refereeing), no more."""

    problem: str = Field(description="in the words of the logs (English): an exception's, a file's path and all")
    problem_why: dict | None = Field(description="as data: a key of the catalogue's health section and its values")
    say: dict[str, str] = Field(description="in both languages (zh, en)")


class DisplayHealth(BaseModel):
    """The display's connections to the broker."""

    feed: bool = Field(description="the scoreboard's connection hears the broker: what the pages show is live")
    commands: bool = Field(description="the console's connection hears the broker: a command can be sent")
    taken: dict[str, dict[str, str]] = Field(
        description="the connections (scoreboard, console) another display of their user took over, each with why and "
                    "what to do in both languages (zh, en); such a connection stays down until the display is restarted")


class Inside(BaseModel):
    """A table as the logged-in console alone reads it: what the public API and stream leave out. None where there is
    nothing to say."""

    table: str
    not_started: NotStarted | None = Field(description="why its service would not start")
    problem: HealthProblem | None = Field(description="the problem its health names")
    stalled: str | None = Field(description="why it does not referee (the public get stalled: true), in English: no "
                                            "health for how long, or its health's problem")


class NewUser(Closed):
    user: Name
    password: str = Field(min_length=8, max_length=256)
    role: Role


# ---------------------------------------------------------------- the tournament (console)

System = Literal["pair-swiss", "knockout-best-of-three", "individual-tables"]
Level = Annotated[str, StringConstraints(pattern=r"^([2-9]|10|[JQKA]|A\+)$")]


class EntryRow(Closed):
    """One row of the registration form: a pair (or a player) of a unit."""

    unit: Name
    team: str = Field(default="", max_length=64)
    pair: str = Field(default="", max_length=32)
    players: str = Field(min_length=1, max_length=256, description="names split by 、 , ; / or spaces")


class EntryOut(BaseModel):
    id: str
    name: str
    unit: str
    team: str
    players: list[str]


class Entries(BaseModel):
    """The entries: those being registered (``draft``) or the tournament's own once it is made."""

    source: Literal["draft", "tournament"]
    entries: list[EntryOut]
    said: str = ""


class NewTournament(Closed):
    system: System
    name: Text(128, 1)
    id: Id = "main"
    seed: Text(64) | None = None
    rounds: int | None = Field(default=None, ge=1, le=30)


# A seat's score as typed: a number (whole, or a decimal read exactly as written), or the text typed when it is none;
# the rules refuse text, a wrong count and a number out of bounds in words (individual.seat_scores), not a schema error
Score = Annotated[int, Field(strict=True)] | Annotated[float, Field(strict=True)] | Annotated[str, StringConstraints(max_length=32)]


class Result(Closed):
    """A table's result; its shape depends on the system (``referee/tournament/README.md``)."""

    winner: int | None = Field(default=None, ge=0, le=1)
    draw: Literal[True] | None = None
    levels: list[Level] | None = Field(default=None, min_length=2, max_length=2)
    games: list[Annotated[int, Field(ge=0, le=2)]] | None = Field(default=None, min_length=2, max_length=2)
    scores: list[Score] | None = Field(default=None, max_length=8, description=(
        "individual-tables: each seat's 小分, S E N W; a number, whole or decimal (read exactly as written); "
        "the rules refuse, in words, any other count or text"))


class ResultIn(Closed):
    round: int = Field(ge=1, le=100)
    table: Id
    result: Result
    forfeits: list[Annotated[str, StringConstraints(min_length=1, max_length=64)]] = Field(default=[], max_length=4, description=(
        "entries at the table that forfeit it (弃权): with the result they join the forfeits standing; "
        "with a correction they are the table's forfeits anew (none unless named)"))
    correct: bool = Field(default=False, description="replace a result already recorded (a dispute); all after it recomputes")
    reason: Text(200) = ""
    seen: int | None = Field(default=None, ge=0, description=(
        "the table's `changed` as the page showed it (the log seq of its latest change: its pairing, result, forfeits); "
        "refused when it changed since (another person's correction, the table's report, the round paired anew), so "
        "nothing is entered over a change unseen"))


class ForfeitIn(Closed):
    round: int = Field(ge=1, le=100)
    table: Id
    entries: list[Annotated[str, StringConstraints(min_length=1, max_length=64)]] = Field(min_length=1, max_length=4)
    correct: bool = Field(default=False, description="over a result (a forfeit stands until corrected): restate the table as forfeited")
    reason: Text(200) = ""
    seen: int | None = Field(default=None, ge=0, description=(
        "with a correction: the table's `changed` as the page showed it (the log seq of its latest change); refused "
        "when the table changed since (another organiser's correction, the table's report), so none is overwritten unseen"))


class LateIn(Closed):
    round: int = Field(ge=1, le=100)
    entry: str = Field(min_length=1, max_length=64)
    minutes: float = Field(ge=0, le=600)


class LotIn(Closed):
    """The lot drawn in the hall: every entry id once, lot number 1 first."""

    order: list[Annotated[str, StringConstraints(min_length=1, max_length=64)]] = Field(min_length=1, max_length=4096)


class StartRound(Closed):
    rulebook: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]{1,64}$")] | None = Field(
        default=None, description="the rulebook the tables play (default: the tournament's, `TournamentView.rulebook`)")


class RoundsIn(Closed):
    """The number of rounds, changed by the organiser."""

    rounds: int = Field(ge=1, le=100)


class UnpairIn(Closed):
    """The latest round's pairing undone (a mistake found before any result): why, for the logs."""

    reason: Text(200) = ""


class WithdrawIn(Closed):
    """A unit withdraws (退赛), or one entry (a player or pair disqualified: 取消比赛资格): exactly one of the two."""

    unit: Name | None = None
    entry: str | None = Field(default=None, min_length=1, max_length=64, description="an entry id")
    reason: Text(200) = ""


class Unrecorded(BaseModel):
    """A table's report of its game that the tournament service could not record, waiting for the organiser."""

    table: str
    report: str = Field(description="the table's event: table, seq and kind (t01:13:round_over)")
    reason: dict[str, str] = Field(description="why, in both languages (zh, en)")
    at: float


class Book(BaseModel):
    """A rulebook a round may be started with."""

    name: str
    title: str = Field(description="its title, as the venue writes it (Chinese)")
    title_en: str = Field(description="its title in English")
    game: str


class TournamentView(BaseModel):
    """The tournament as the console sees it: the latest round, or an earlier one asked for (finished tables have a
    result), and the standings."""

    tournament: str
    name: str
    system: str
    rounds: int
    paired: int
    finished: bool
    round: Round
    best_of: int = Field(default=1, description="games a match of the round shown is played over (3 in the knockout's "
                         "second stage: its result names the games won)")
    standings: Standings
    ranking: str = Field(default="", description="what the standings compare, first to last, in the reader's language "
                         "with the seed's article (排名依据：总分 → 对手分 → 级差 → 抽签（000 四5）), as the exports say it")
    lot: list[str] = Field(default=[], description="the entry ids in lot order (lot number 1 first)")
    lot_open: bool = Field(default=False, description="whether a lot drawn in the hall may be entered now")
    said: str = Field(default="", description="the change just made, in one line")
    undo: Undo | None = Field(default=None, description="how to take the change back, where the rules allow it")
    unpublished: str = Field(default="", description="when the tournament service has not published the latest change "
                             "(it is not running): what that means and what to do, in the reader's language")
    rulebook: str = Field(default="", description="the rulebook the latest round is started with unless the organiser "
                          "names another: the one its tables play or played last, else the system's (San Da Yi's for "
                          "individual tables, Guandan's for the knockout)")
    rulebooks: list[Book] = Field(default=[], description="the rulebooks of the games the system's tables play")
    changed: dict[str, int] = Field(default={}, description="the log seq of each table's latest change (the round shown: "
                                    "its pairing, result, forfeits), sent back as `seen` with a result or a correction")
    results: dict[str, list[str]] = Field(default={}, description="the round's decided tables whose result reads otherwise "
                                          "than its scores, by table: pair Swiss's levels each side reached (A+: past A), "
                                          "or won, drawn, lost where none is known; a knockout's single game or "
                                          "walkover won, lost; a San Da Yi table's places (place1, tied2, forfeited)")
    entries: list[Named] = Field(default=[], description="every entry as the hall knows it (lot number, name, unit, team): the "
                                 "console names an entry so, one at no table too (a round paired again, the hall's lot)")
    started: bool = Field(default=False, description="whether the latest round has started at its tables (as the hall "
                          "shows them): it is not started again")
    unrecorded: list[Unrecorded] = Field(default=[], description="the latest round's tables whose report the tournament "
                                         "service could not record, until their result is entered or changed")


class Started(BaseModel):
    """A round started: the tables that got their players and the start, and those not on the broker."""

    round: int
    sent: list[Sent]
    missing: list[str]
    said: str = ""
