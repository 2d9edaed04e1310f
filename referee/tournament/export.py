"""Exports of a tournament: CSV and XLSX (pairings and results by round, the standings) and a
printable HTML (for the latest round, or ``round``: the pairing sheet, one result slip per table
on a page of its own, and the standings). Chinese by default, ``lang="en"`` for English (the words are the
catalogue's ``sheet.*``). Numbers
are written by Python, never by the locale, so every machine gives the same bytes.
"""

from __future__ import annotations

import csv
import datetime
import io
from html import escape

from referee.catalogue import LANGS, section
from referee.tournament.core import Tournament, TournamentError
from referee.tournament.views import round_view, standings_view

FORMATS = ("csv", "xlsx", "html")


def labels(lang: str) -> dict[str, str]:
    """The sheets' words (the catalogue's ``sheet.*``), and the standings' tie-break columns by their Chinese names."""
    return section(lang, "sheet") | {f"column.{k}": v for k, v in section(lang, "column").items()}


def seat(size: int, i: int) -> str:
    """The seat of the ``i``-th entry at a table: S/N and E/W for two sides, else S E N W."""
    return ("SN", "EW")[i] if size == 2 else "SENW"[i]


def _num(x) -> str:
    return "" if x is None else str(x)


def result_rows(t: Tournament, lang: str) -> list[list]:
    """One row per entry per table of every round, results where known; the header first."""
    L = labels(lang)
    rows = [[L["round"], L["table"], L["seat"], L["entry"], L["name"], L["unit"], L["points"], L["score"]]]
    for r in t.rounds:
        view = round_view(t, r.round)
        for x in view["tables"]:
            res = x["result"]
            for i, e in enumerate(x["entries"]):
                rows.append([r.round, x["table"], seat(len(x["entries"]), i), e["id"], e["name"], e["unit"],
                             res["points"][i] if res else None, res["scores"][i] if res else None])
        for b in view["byes"]:
            rows.append([r.round, L["bye"], None, b, t.entry(b).name, t.entry(b).unit, None, None])
    return rows


def standing_rows(t: Tournament, lang: str) -> list[list]:
    L = labels(lang)
    s = standings_view(t)
    rows = [[L["rank"], L["entry"], L["name"], L["unit"], L["total"], *(L.get(f"column.{c}", c) for c in s["columns"]), L["prize"]]]
    for row in s["rows"]:
        rows.append([row["rank"], row["id"], row["name"], row["unit"], row["score"], *row["tiebreaks"], row["prize"]])
    return rows


def export(t: Tournament, fmt: str, round_no: int | None = None, lang: str = "zh") -> bytes:
    if fmt not in FORMATS:
        raise TournamentError("export_format", format=fmt, known=list(FORMATS))
    if lang not in LANGS:
        raise TournamentError("export_lang", lang=lang)
    if fmt == "csv":
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerows([[_num(c) for c in row] for row in result_rows(t, lang)])
        w.writerow([])
        w.writerows([[_num(c) for c in row] for row in standing_rows(t, lang)])
        return out.getvalue().encode("utf-8-sig")
    if fmt == "xlsx":
        return _xlsx(t, lang)
    return _html(t, lang, round_no).encode("utf-8")


def _xlsx(t: Tournament, lang: str) -> bytes:
    from openpyxl import Workbook

    L = labels(lang)
    wb = Workbook()
    ws = wb.active
    ws.title = L["standings"]
    for row in standing_rows(t, lang):
        ws.append(row)
    rows = result_rows(t, lang)
    for r in t.rounds:
        sheet = wb.create_sheet(L["round_n"].format(n=r.round))
        sheet.append(rows[0])
        for row in rows[1:]:
            if row[0] == r.round:
                sheet.append(row)
    when = datetime.datetime.fromtimestamp(t.at, datetime.timezone.utc).replace(tzinfo=None, microsecond=0)
    wb.properties.created = wb.properties.modified = when
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


CSS = """body{font-family:"Noto Sans CJK SC","Microsoft YaHei",sans-serif;margin:1.5cm}
table{border-collapse:collapse;width:100%;margin:1em 0}td,th{border:1px solid #000;padding:.4em .6em;text-align:left}
.slip{break-before:page;page-break-before:always}.blank{height:2.2em}"""


def _table(head: list, body: list[list]) -> str:
    h = "".join(f"<th>{escape(_num(c))}</th>" for c in head)
    b = "".join("<tr>" + "".join(f"<td>{escape(_num(c))}</td>" for c in row) + "</tr>" for row in body)
    return f"<table><thead><tr>{h}</tr></thead><tbody>{b}</tbody></table>"


def _html(t: Tournament, lang: str, round_no: int | None) -> str:
    L = labels(lang)
    parts = [f"<h1>{escape(t.name or t.id)}</h1>"]
    if t.rounds:
        view = round_view(t, round_no)
        n = view["round"]
        pairing = [[x["table"], " / ".join(f'{e["name"]}（{e["unit"]}）' for e in x["entries"])] for x in view["tables"]]
        pairing += [[L["bye"], f"{t.entry(b).name}（{t.entry(b).unit}）"] for b in view["byes"]]
        parts.append(f"<section class=pairings><h2>{escape(L['pairings'].format(n=n))}</h2>"
                     + _table([L["table"], L["name"]], pairing) + "</section>")
        for x in view["tables"]:
            res = x["result"]
            body = [[seat(len(x["entries"]), i), e["id"], e["name"], e["unit"], res["points"][i] if res else "", res["scores"][i] if res else "", ""]
                    for i, e in enumerate(x["entries"])]
            head = [L["seat"], L["entry"], L["name"], L["unit"], L["points"], L["score"], L["signature"]]
            parts.append(f"<section class=slip><h2>{escape(L['slip'].format(n=n, table=x['table']))}</h2>"
                         + _table(head, body) + f"<p>{escape(L['referee'])}：<span class=blank></span></p></section>")
    rows = standing_rows(t, lang)
    parts.append(f"<section class=slip><h2>{escape(L['standings'])}</h2>" + _table(rows[0], rows[1:]) + "</section>")
    html_lang = "zh-CN" if lang == "zh" else "en"
    return (f"<!DOCTYPE html><html lang={html_lang}><head><meta charset=utf-8><title>{escape(t.name or t.id)}</title>"
            f"<style>{CSS}</style></head><body>{''.join(parts)}</body></html>\n")
