"""Exports of a tournament: CSV and XLSX (pairings and results by round, the standings) and a printable HTML
rendered from a Jinja template like the display's pages (``templates/print.html``: for the latest round, or
``round``, the pairing sheet, one result slip per table on a page of its own, and the standings). Chinese by
default, ``lang="en"`` for English (the words are the catalogue's ``sheet.*``). Every export is stamped
(:func:`stamp`) with what it counts, when it was made and the log's last action number, so a sheet printed before a
correction is told from one printed after it. Numbers and times are written by Python, never by the locale, so every
machine gives the same bytes for the same log at the same time made.
"""

from __future__ import annotations

import csv
import datetime
import io
import time
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from referee.catalogue import LANGS, section, word
from referee.reasons import cut
from referee.tournament.base import prizes
from referee.tournament.core import Repaired, Tournament, TournamentError
from referee.tournament.exact import Fraction, exact, written
from referee.tournament.systems import system as system_named
from referee.tournament.views import results_said, round_view, standings_view

FORMATS = ("csv", "xlsx", "html")
PRINT_CSS = Path(__file__).parent / "templates" / "print.css"  # the printable sheets' styles


def labels(lang: str) -> dict[str, str]:
    """The sheets' words (the catalogue's ``sheet.*``), and the standings' tie-break columns by their Chinese names."""
    return section(lang, "sheet") | {f"column.{k}": v for k, v in section(lang, "column").items()}


def seat(size: int, i: int, lang: str) -> str:
    """The seat of the ``i``-th entry at a table in words (the catalogue's ``team.*`` and ``seat.*``): 南北 and 东西
    for two sides, else 南 东 北 西 (the bus's SN, EW and S E N W are no one's words).

    >>> seat(2, 1, "zh"), seat(4, 2, "zh"), seat(2, 0, "en")
    ('东西', '北', 'N-S')
    """
    return word(lang, f"team.{('SN', 'EW')[i]}") if size == 2 else word(lang, f"seat.{'SENW'[i]}")


def _cell(lang: str):
    """A cell as text: points and scores (exact fractions) as people write them (``3又1/3``)."""
    return lambda x: "" if x is None else written(x, lang) if isinstance(x, Fraction) else str(x)


FORMULA_FIRST = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula


def as_text(x):
    """A text cell that a spreadsheet would run as a formula (a name typed as ``=HYPERLINK(...)`` or ``+1+1``) with an
    apostrophe first, as Excel marks text typed so; numbers, and any other text, as they are.

    >>> as_text("=HYPERLINK(A1)"), as_text("@SUM(A1)"), as_text("王芳"), as_text(-2)
    ("'=HYPERLINK(A1)", "'@SUM(A1)", '王芳', -2)
    """
    return f"'{x}" if isinstance(x, str) and x.startswith(FORMULA_FIRST) else x


def texts(row: list, lang: str) -> list[str]:
    """A sheet's row as the cells' texts, a formula's text marked (:func:`as_text`): the CSV's, and the tab-separated
    lines ``cardtable tournament standings`` and ``lot`` print, which a spreadsheet takes as cells when pasted.

    >>> "\t".join(texts([1, "+cmd", "=HYPERLINK(A1)", Fraction(-10, 3)], "zh"))
    "1\t'+cmd\t'=HYPERLINK(A1)\t-3又1/3"
    """
    cell = _cell(lang)
    return [cell(as_text(c)) for c in row]


def _exact(x):
    return None if x is None else exact(x)


def marked(t: Tournament, entry: str, forfeits, lang: str) -> str:
    """What follows an entry's name at a table: （退赛） for an entry withdrawn (its table forfeited by it, or played
    before it left), （弃权） for one that forfeits it, else nothing."""
    L = labels(lang)
    return f' {L["withdrawn_mark"]}' if entry in t.withdrawn else f' {L["forfeited"]}' if entry in forfeits else ""


def result_words(said: list[str], lang: str) -> str:
    """A result as ``System.said`` gives it, in words: levels reached (past A: 过A), won / drawn / lost, or places at a
    table of four (第一名, 并列第二名, 弃权).

    >>> result_words(["A+", "9"], "zh"), result_words(["won", "lost"], "en")
    ('过A : 9', 'won : lost')
    """
    return " : ".join(word(lang, f"said.{x}", x) for x in said)


def prize_words(t: Tournament, row: dict, lang: str) -> str | None:
    """A standings row's prizes in words (:func:`~referee.tournament.base.prizes`: its placed one and, once finished,
    the system's ``awards``: pair Swiss's 鼓励奖 for a row without one, seed 000 五; the knockout's 证书和奖品 for the
    first eight and 纪念品 for all, 002 四), None where it has none; a row withdrawn none."""
    got = prizes(t.rules.awards, row, t.finished)
    return word(lang, "prize.and").join(word(lang, f"prize.{p}") for p in got) if got else None


def result_rows(t: Tournament, lang: str) -> list[list]:
    """One row per entry per table of every round, results where known, and one per bye with what the standings
    count for it (``System.bye``); the note says 弃权 for an entry that forfeits its table (its 0 is no loss played)
    and 全队弃权 for a bye lost with its team's round. The header first; the score's column named for what the system's
    results hold (``System.result_column``: pair Swiss's 级差, not the levels reached)."""
    L = labels(lang)
    score = L[f"column.{system_named(t.system).result_column}"]
    rows = [[L["round"], L["table"], L["seat"], L["lot"], L["name"], L["unit"], L["points"], score, L["note"]]]
    for r in t.rounds:
        view = round_view(t, r.round)
        for x in view["tables"]:
            res = x["result"]
            for i, e in enumerate(x["entries"]):
                rows.append([r.round, x["table"], seat(len(x["entries"]), i, lang), e["lot"], e["name"], e["unit"],
                             _exact(res["points"][i]) if res else None, _exact(res["scores"][i]) if res else None,
                             L["withdrawn"] if e["id"] in t.withdrawn and e["id"] in x["forfeits"]
                             else L["forfeit"] if e["id"] in x["forfeits"] else None])
        for b in view["byes"]:
            points, score = t.rules.bye(t, r.round, b) or (None, None)
            rows.append([r.round, L["bye"], None, t.lot_no(b), t.entry(b).name, t.entry(b).unit, points, score,
                         L["team_forfeit"] if b in view["byes_forfeited"] else None])
    return rows


def rank_of(row: dict, lang: str) -> int | str:
    """A standings row's place as the sheets write it: 退赛 for a team withdrawn, the lot's mark where it decided."""
    L = labels(lang)
    if row.get("withdrawn"):
        return L["withdrawn"]
    return f'{row["rank"]}{L["lot_mark"]}' if row.get("by_lot") else row["rank"]


def standing_rows(t: Tournament, lang: str) -> list[list]:
    """The standings, the header first; a place the lot decided is marked (``sheet.lot_mark``, see :func:`legend`),
    a team withdrawn says so in place of its rank. An entry's row leads with its lot number; a team's with its name
    alone (its id is its unit and name: 图书馆 three times over)."""
    L = labels(lang)
    s = standings_view(t)
    teams = system_named(s["system"]).ranks == "team"
    rows = [[L["rank"], *row_heads(s["system"], lang), L["unit"], score_head(s["system"], lang), *(L.get(f"column.{c}", c) for c in s["columns"]),
             L["prize"]]]
    for row in s["rows"]:
        rank = rank_of(row, lang)
        named = [row["name"]] if teams else [t.lot_no(row["id"]), row["name"]]
        rows.append([rank, *named, row["unit"], exact(row["score"]), *map(exact, row["tiebreaks"]), prize_words(t, row, lang)])
    return rows


def row_heads(system: str, lang: str) -> list[str]:
    """The heads of what names a standings row, as what the rows of ``system`` are (``System.ranks``): an entry's
    (抽签号, 选手), or a team's (pair Swiss: 队名).

    >>> row_heads("pair-swiss", "zh"), row_heads("individual-tables", "zh"), row_heads("pair-swiss", "en")
    (['队名'], ['抽签号', '选手'], ['Team name'])
    """
    L = labels(lang)
    return [L["team_name"]] if system_named(system).ranks == "team" else [L["lot"], L["name"]]


def score_head(system: str, lang: str) -> str:
    """The standings' score column as ``system`` names it (``System.score_column``: 总分, the knockout's 胜场)."""
    return labels(lang)[f"column.{system_named(system).score_column}"]


def legend(t: Tournament, lang: str) -> str | None:
    """The line under the standings that explains the mark, when a place was decided by the lot."""
    return labels(lang)["by_lot"] if any(r.get("by_lot") for r in standings_view(t)["rows"]) else None


def ranking(t: Tournament, lang: str) -> str:
    """The order the standings compare, first to last, in words, with its seed's article: the system's own
    (``System.ranked_by``: the score, its tie-break columns in order, the lot), as the sheets write it under the
    standings (排名依据：总分 → 对手分 → 级差 → 抽签（000 四5）).

    >>> t = Tournament("x", "", "individual-tables", "1", {}, (), (), None)
    >>> ranking(t, "zh"), ranking(t, "en")
    ('排名依据：积分 → 小分 → 弃权（少者在前） → 抽签（004 附件一 一、1）', 'Ranked by: Points → Game score → Forfeits (fewer first) → Lot (seed 004 附件一 一、1)')
    """
    return ranking_of(t.system, lang)


def ranking_of(system: str, lang: str) -> str:
    """:func:`ranking` of the system named ``system`` (the hall's scoreboard says it under each system's standings)."""
    L, rules = labels(lang), system_named(system)
    said = [L["fewer_first"].format(column=L[f"column.{c}"]) if c in rules.fewer_first else L[f"column.{c}"] for c in rules.ranked_by()]
    return L["ranking"].format(order=" → ".join(said), article=rules.ranking_article)


def system_title(system: str, lang: str) -> str:
    """The system named ``system`` in the reader's words: in Chinese the venue's own title (``System.title``), in
    English the catalogue's ``system.*``; never its id (pair-swiss) in a Chinese sentence.

    >>> system_title("pair-swiss", "zh"), system_title("pair-swiss", "en")
    ('积分编排赛', 'pair Swiss')
    """
    return system_named(system).title if lang == "zh" else word(lang, f"system.{system}")


def titled(t: Tournament, lang: str) -> str:
    """The tournament's name and its system in words (秋季教工升级赛 · 积分编排赛), the system alone where it has no name."""
    title = system_title(t.system, lang)
    return labels(lang)["titled"].format(name=t.name, system=title) if t.name else title


def rounds_complete(t: Tournament) -> int:
    """The rounds the standings count whole: those before the first with a table still without a result."""
    return next((r.round - 1 for r in t.rounds if not r.complete), len(t.rounds))


def stamp(t: Tournament, lang: str, made: float) -> str:
    """What a sheet counts and when it was made: the rounds complete (第 N 轮后), the tables with a result of the round
    in play, if any, the time ``made`` (the venue's local time, this machine's clock and zone, written by a fixed
    pattern) and the tournament log's last action number, which every change, a correction too, moves on.

    >>> t = Tournament("x", "", "pair-swiss", "1", {}, (), (), None, seq=57)
    >>> stamp(t, "en", 0.0).replace(time.strftime("%Y-%m-%d %H:%M", time.localtime(0.0)), "T")
    'No round complete yet; made T; tournament log to action 57'
    """
    L = labels(lang)
    done = rounds_complete(t)
    playing = ""
    if done < len(t.rounds):
        tables = t.rounds[done].tables
        playing = L["stamp_playing"].format(round=done + 1, entered=sum(x.outcome is not None for x in tables), tables=len(tables))
    counted = L["stamp_after"].format(n=done) if done else L["stamp_none"]
    return L["stamp"].format(counted=counted, playing=playing, made=time.strftime("%Y-%m-%d %H:%M", time.localtime(made)), seq=t.seq)


def repaired_lines(t: Tournament, repaired: Repaired, lang: str) -> list[str]:
    """A round paired again, in words: which change, then each table that changed, as announced and now."""
    L = labels(lang)

    def names(ids) -> str:
        return word(lang, "word.list").join(f"{t.entry(e).name}（{t.entry(e).unit}）" for e in ids) or "-"

    because = L.get(f"because_{repaired.because}", L["because_change"])
    lines = [L["repaired"].format(round=repaired.round, because=because)]
    lines += [L["repaired_table"].format(table=n, before=names(b), after=names(a)) for n, b, a in repaired.tables]
    if repaired.byes is not None:
        lines.append(L["repaired_byes"].format(before=names(repaired.byes[0]), after=names(repaired.byes[1])))
    return lines


def export(t: Tournament, fmt: str, round_no: int | None = None, lang: str = "zh", made: float | None = None,
           stylesheet: str | None = None) -> bytes:
    """The sheets in ``fmt``, stamped (:func:`stamp`) as made at ``made`` (default: now). The printable HTML carries its
    styles (``templates/print.css``) within, a file that reads alike wherever it is opened; with ``stylesheet`` (a
    URL serving :data:`PRINT_CSS`) it links them instead, a page a strict Content-Security-Policy (no inline style)
    lets a browser show styled."""
    if fmt not in FORMATS:
        raise TournamentError("export_format", format=cut(fmt), known=list(FORMATS))
    if lang not in LANGS:
        raise TournamentError("export_lang", lang=lang)
    stamped = stamp(t, lang, time.time() if made is None else made)
    if fmt == "csv":
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerows([texts(row, lang) for row in result_rows(t, lang)])
        w.writerow([])
        w.writerows([texts(row, lang) for row in standing_rows(t, lang)])
        if note := legend(t, lang):
            w.writerow([note])
        w.writerows([[ranking(t, lang)], [], [stamped]])
        return out.getvalue().encode("utf-8-sig")
    if fmt == "xlsx":
        return _xlsx(t, lang, stamped)
    return _html(t, lang, round_no, stamped, stylesheet).encode("utf-8")


def _xlsx(t: Tournament, lang: str, stamped: str) -> bytes:
    """The standings' sheet, then one sheet per round; each ends with the stamp ``stamped``."""
    from openpyxl import Workbook

    L = labels(lang)
    wb = Workbook()
    ws = wb.active
    ws.title = L["standings"]
    for row in standing_rows(t, lang):
        _append(ws, row)
    if note := legend(t, lang):
        _append(ws, [note])
    _append(ws, [ranking(t, lang)])
    rows = result_rows(t, lang)
    for r in t.rounds:
        sheet = wb.create_sheet(L["round_n"].format(n=r.round))
        _append(sheet, rows[0])
        for row in rows[1:]:
            if row[0] == r.round:
                _append(sheet, row)
    for sheet in wb.worksheets:
        _append(sheet, [])
        _append(sheet, [stamped])
    when = datetime.datetime.fromtimestamp(t.at, datetime.timezone.utc).replace(tzinfo=None, microsecond=0)
    wb.properties.created = wb.properties.modified = when
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _append(sheet, row: list) -> None:
    """A row of numbers that stay numbers: a whole number as is, a fraction as Excel's fraction (3 1/3); and of text
    that stays text (openpyxl makes a formula of a text that starts with ``=``: a name typed so would run)."""
    sheet.append([float(c) if isinstance(c, Fraction) else c for c in row])
    for c, cell in zip(row, sheet[sheet.max_row]):
        if isinstance(c, Fraction):
            cell.number_format = "# ??/??"
        elif isinstance(c, str):
            cell.data_type = "s"


SUITS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def _games_grid(slip: dict, bidders: tuple[tuple[str, str], ...], lang: str) -> dict:
    """A slip of four seats with a column per game of the round to write each game's score in, the cell of
    the game's first bidder shaded, and a last row naming them (seed 004 一、5: 每局比赛均按照黑红梅方的顺序依次
    作为首先叫牌者); the seats show the suit drawn (一、4: 按照黑红梅方逆时针依次落座)."""
    if not bidders:
        return slip
    L = labels(lang)
    bidders = tuple((word(lang, f"seat.{s}"), x) for s, x in bidders)  # the seats as the slip says them (南)
    suit = {s: SUITS[x] for s, x in bidders[: len(SUITS)]}
    games = [L["game_n"].format(n=g) for g in range(1, len(bidders) + 1)]
    points, score, signature = slip["head"][4:]
    head = slip["head"][:4] + games + [L["column.小分"], points, signature]  # the games add up to the 小分, which ranks
    body = [[f"{row[0]} {suit.get(row[0], '')}".strip(), *row[1:4], *[""] * len(games), row[5], row[4], row[6]] for row in slip["body"]]
    body.append([L["first_bidder"], "", "", "", *(f"{s} {SUITS[x]}" for s, x in bidders), "", "", ""])
    marked = [f"{i},{4 + g}" for i, row in enumerate(slip["body"]) for g, (s, _) in enumerate(bidders) if row[0] == s]
    return slip | {"head": head, "body": body, "marked": marked, "note": L["first_bidder_note"]}


@cache
def _templates() -> Environment:
    env = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"), autoescape=True,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, undefined=StrictUndefined)
    env.filters["num"] = lambda x: "" if x is None else str(x)
    return env


def _html(t: Tournament, lang: str, round_no: int | None, stamped: str, stylesheet: str | None) -> str:
    """The printable sheets (``templates/print.html``): the pairings and a result slip per table of the round, the
    standings; the stamp ``stamped`` under the title and under the standings (a page of its own)."""
    L = labels(lang)
    pairings, slips = None, []
    if t.rounds:
        view = round_view(t, round_no)
        n = view["round"]
        body = [[x["table"], " / ".join(f'{L["lot_no"].format(n=e["lot"])} {e["name"]}（{e["unit"]}）{marked(t, e["id"], x["forfeits"], lang)}'
                                        for e in x["entries"])]
                for x in view["tables"]]
        body += [[L["bye"], f"{t.entry(b).name}（{t.entry(b).unit}）" + (f' {L["bye_forfeited"]}' if b in view["byes_forfeited"] else "")]
                 for b in view["byes"]]
        pairings = {"title": L["pairings"].format(n=n), "head": [L["table"], L["name"]], "body": body}
        head = [L["seat"], L["lot"], L["name"], L["unit"], L["points"], L["score"], L["signature"]]
        said = results_said(t, n)
        for x in view["tables"]:
            res, four = x["result"], len(x["entries"]) == 4  # a four-seat slip's column is the seed's 小分 (004 一1), a number
            body = [[seat(len(x["entries"]), i, lang), e["lot"], e["name"] + marked(t, e["id"], x["forfeits"], lang),
                     e["unit"], written(res["points"][i], lang) if res else "",
                     result_words([said[x["table"]][i]], lang) if x["table"] in said and not four
                     else written(res["scores"][i], lang) if res else "", ""]
                    for i, e in enumerate(x["entries"])]
            slip = {"title": L["slip"].format(n=n, table=x["table"]), "head": head, "body": body, "marked": [], "note": ""}
            slips.append(_games_grid(slip, t.rules.first_bidders(t), lang) if len(x["entries"]) == 4 else slip)
    cell = _cell(lang)
    rows = [[cell(c) for c in row] for row in standing_rows(t, lang)]
    if system_named(t.system).ranks == "team":  # a team named after its unit (图书馆) is named once; the CSV and XLSX
        rows[1:] = [[*row[:2], "" if row[2] == row[1] else row[2], *row[3:]] for row in rows[1:]]  # keep it to sort by
    return _templates().get_template("print.html").render(
        html_lang="zh-CN" if lang == "zh" else "en", title=t.name or t.id, stamp=stamped, pairings=pairings, slips=slips,
        referee=L["referee"], standings={"title": L["standings"], "head": rows[0], "body": rows[1:], "legend": legend(t, lang),
                                             "ranking": ranking(t, lang)}, stylesheet=stylesheet)
