"""``cardtable tournament``: new, pair, result, late, lot, withdraw, rounds, unpair, standings, show, export, backup,
catch-up, simulate, serve.

Kept light: the tournament modules are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from bus.credentials import add_options
from referee.catalogue import say

SYSTEM_NAMES = ("pair-swiss", "knockout-best-of-three", "individual-tables")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tournament", help="tournaments: register, pair, enter results, standings, exports")
    verbs = p.add_subparsers(dest="verb", required=True)

    def verb(name: str, help: str, db: bool = True) -> argparse.ArgumentParser:
        v = verbs.add_parser(name, help=help)
        if db:
            v.add_argument("--db", required=True, metavar="PATH", help="the tournament's SQLite file")
            v.add_argument("--by", default="organiser", help="who makes the change (recorded)")
        v.set_defaults(func=_run, parser=v)
        return v

    new = verb("new", "register a field from a CSV or XLSX form (unit, team, pair, players)")
    new.add_argument("--system", required=True, choices=SYSTEM_NAMES, help="the competition system")
    new.add_argument("--entries", required=True, metavar="FILE",
                     help="the registration form (CSV or XLSX: unit, team, pair, players)")
    new.add_argument("--name", default="", help="the tournament's name (on the exports)")
    new.add_argument("--id", default="main", help="the tournament id in the MQTT topics")
    new.add_argument("--seed", default=None, help="the seed of every draw (default: random, recorded)")
    new.add_argument("--rounds", type=int, default=None, help="the number of rounds (default: the system's)")
    new.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                     help="a system option, e.g. level_diff=real or prizes=[1,3,5]")
    verb("pair", "pair the next round and print it")
    result = verb("result", "enter (or --correct) a table's result, or a forfeit")
    result.add_argument("--round", type=int, required=True, help="the round number")
    result.add_argument("--table", required=True, help="the table, as the round's pairings number it")
    how = result.add_mutually_exclusive_group()
    how.add_argument("--winner", type=int, choices=(0, 1), help="0: the table's first entry, 1: the second")
    how.add_argument("--draw", action="store_true", help="the table is drawn")
    how.add_argument("--scores", help="individual-tables: each seat's game scores summed over the round (not its round points), in seat "
                     "order, e.g. -10,5,5,40")
    result.add_argument("--forfeit", nargs="+", metavar="ENTRY",
                        help="the entries that forfeit the table: at a table of two alone (the forfeit is the result); "
                             "individual-tables: with --scores too (the absent seat scores 0), one change; with --correct: "
                             "the table's forfeits anew, with or without a result")
    result._negative_number_matcher = re.compile(r"^-[0-9.][0-9.,]*$")  # --scores -10,5,5,40: a value, not an option
    result.add_argument("--games", help="knockout, second stage: games won, e.g. 2-1")
    result.add_argument("--levels", help="levels reached, e.g. A+,9 (level_diff real)")
    result.add_argument("--correct", action="store_true", help="replace the table's result")
    result.add_argument("--reason", default="", help="why (recorded): required with --correct")
    late = verb("late", "a late arrival: past the notice's limit the entry forfeits the round (pair-swiss: its whole team)")
    late.add_argument("--round", type=int, required=True, help="the round number")
    late.add_argument("--entry", required=True, help="the late entry's id")
    late.add_argument("--minutes", type=float, required=True, help="how many minutes late")
    lot = verb("lot", "print the lot (lot numbers), or enter the lot drawn in the hall with --order")
    lot.add_argument("--order", metavar="E1,E2,...", help="every entry id once, lot number 1 first (before round 1 is paired)")
    leave = verb("withdraw", "a unit or an entry withdraws (退赛; disqualified, 取消比赛资格): it leaves the draw of the "
                             "rounds paired from now on, its results stand, no prize")
    who = leave.add_mutually_exclusive_group(required=True)
    who.add_argument("--unit", help="the unit, as the registration form names it: all its entries")
    who.add_argument("--entry", help="one entry's id (a player, a pair)")
    leave.add_argument("--reason", required=True, help="why (required; recorded)")
    rounds = verb("rounds", "change the number of rounds (not below those paired; pair-swiss: only to what can be paired)")
    rounds.add_argument("--set", type=int, required=True, metavar="N", dest="rounds", help="the new number of rounds")
    unpair = verb("unpair", "undo the latest round's pairing (no result yet), e.g. paired before the hall's lot or a "
                            "withdrawal was entered")
    unpair.add_argument("--round", type=int, required=True, help="the round to undo (the latest paired)")
    unpair.add_argument("--reason", required=True, help="why (required; recorded)")
    standings = verb("standings", "print the standings")
    standings.add_argument("--json", action="store_true", help="the standings payload (MQTT topic) as JSON")
    show = verb("show", "print a round's pairings and results")
    show.add_argument("--round", type=int, default=None, help="the round (default: the latest)")
    show.add_argument("--json", action="store_true", help="the round's payload (MQTT topic) as JSON")
    export = verb("export", "write the tournament as CSV, XLSX or printable HTML")
    export.add_argument("--format", required=True, choices=("csv", "xlsx", "html"),
                        help="csv, xlsx, or html: printable pairing sheets and result slips")
    export.add_argument("--out", metavar="FILE", help="default: standard output (csv, html; xlsx needs --out at a terminal)")
    export.add_argument("--round", type=int, default=None, help="html: the round to print (default: the latest)")
    backup = verb("backup", "copy the tournament's file, checked, while the services run (at every break)")
    backup.add_argument("--out", required=True, metavar="FILE", help="the copy: a new file (never overwritten)")
    catch = verb("catch-up", "record the games the tables reported that the file lacks (a backup put back), from "
                             "`cardtable table events`")
    catch.add_argument("files", nargs="+", metavar="FILE", help="what `cardtable table events` wrote, a file per table")
    catch.add_argument("--dry-run", action="store_true", help="say what would be recorded; change nothing")
    sim = verb("simulate", "random results for a made-up field; prints the whole tournament", db=False)
    sim.add_argument("--system", required=True, choices=SYSTEM_NAMES, help="the competition system")
    sim.add_argument("--entries", type=int, required=True, metavar="N", help="how many entries")
    sim.add_argument("--rounds", type=int, required=True, metavar="R", help="the number of rounds")
    sim.add_argument("--seed", default="2026", metavar="K", help="the seed of the draws and the results (default 2026)")
    sim.add_argument("--json", action="store_true", help="JSON (the only output so far)")
    serve = verb("serve", "results from the tables' events; publish the round and standings topics")
    add_options(serve, "tournament")


def _run(args: argparse.Namespace) -> int:
    import sqlite3

    from cardtable.lang import refuse
    from referee.catalogue import Refusal
    from referee.tournament.store import file_error

    try:
        return HANDLERS[args.verb](args)
    except Refusal as exc:  # the reason in the command line's language, without the usage: the arguments were right
        sys.exit(refuse(args.parser, exc.text(args.lang)))
    except sqlite3.Error as exc:  # the file failed under the command (the disk full, read-only, locked): said, no traceback
        sys.exit(refuse(args.parser, file_error(args.db, exc).text(args.lang)))


def _store(args):
    from pathlib import Path

    from referee.tournament.core import TournamentError
    from referee.tournament.store import TournamentStore

    if not Path(args.db).is_file():
        raise TournamentError("no_file", path=args.db)
    return TournamentStore(args.db)


def _new(args) -> int:
    import os
    from contextlib import suppress
    from pathlib import Path

    from referee.tournament.core import TournamentError
    from referee.tournament.entries import load_entries
    from referee.tournament.store import TournamentStore, check_file

    options = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            raise TournamentError("option_form", item=item)
        if key in options or key == "rounds" and args.rounds is not None:  # never one of the two dropped unsaid
            raise TournamentError("option_twice", option=key)
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", value):
                raise TournamentError("option_form", item=item) from None
            options[key] = value  # a word as typed, level_diff=real: the system checks it as it checks "real"
    if args.rounds is not None:
        options["rounds"] = args.rounds
    entries = load_entries(args.entries)
    path = Path(args.db)
    check_file(path)  # another's file, or no folder: said before anything is made
    # A new file is made beside its place and linked there only if the place is still free: a refused field or a full
    # disk leaves nothing, and a second `new` at once never removes (nor writes into) the file the first one made.
    made = path if path.exists() else path.with_name(f".{path.name}.{os.getpid()}.new")
    try:
        store = TournamentStore(made)
        try:
            t = store.new(args.system, entries, name=args.name, seed=args.seed, options=options, id=args.id, by=args.by)
        finally:
            store.close()
        if made != path:
            _link_new(made, path)
    except TournamentError as exc:  # the disk full or read-only under the file beside: said of the file asked for
        if exc.values.get("path") == made:
            exc.values["path"] = path
        raise
    finally:
        if made != path:
            for suffix in ("", "-wal", "-shm"):
                with suppress(OSError):  # a read-only folder has none to remove
                    Path(f"{made}{suffix}").unlink(missing_ok=True)
    from referee.tournament.export import system_title

    print(say(args.lang, "sheet.made", title=system_title(t.system, args.lang), system=t.system, n=len(t.entries), rounds=t.total_rounds, seed=t.seed))
    return 0


def _link_new(made, path) -> None:
    """The tournament made in ``made`` put at ``path`` if nothing is there yet (a hard link: one step, refused when
    the name is taken); where the disk takes no links (FAT), renamed after a last look."""
    import os

    from referee.tournament.core import TournamentError
    from referee.tournament.store import check_file

    try:
        os.link(made, path)
    except FileExistsError:  # another command made it meanwhile: said as what it holds
        check_file(path)
        raise TournamentError("holds_tournament", path=path) from None
    except OSError:
        if path.exists():
            check_file(path)
            raise TournamentError("holds_tournament", path=path) from None
        os.replace(made, path)


def _print_round(view: dict, lang: str, store) -> None:
    """The round's tables, their results (as ``System.said`` reads them where the scores are not that: pair Swiss's
    levels reached), the byes; under each table of the latest round the reports the tournament service could not
    record, until its result is entered."""
    from referee.tournament.exact import written
    from referee.tournament.export import labels, marked, result_words
    from referee.tournament.views import results_said

    text = labels(lang)
    t = store.tournament
    waiting: dict[str, list] = {}
    if t.rounds and view["round"] == len(t.rounds):
        for note in t.rounds[-1].waiting():
            waiting.setdefault(note.table, []).append(note)
    said = results_said(t, view["round"]) if view["round"] else {}
    print(say(lang, "sheet.round_of", n=view["round"], of=view["rounds"]))
    for x in view["tables"]:
        forfeits = x.get("forfeits", ())  # 弃权, with or without a result (an absent San Da Yi player scores 0); 退赛
        names = " | ".join(f"{text['lot_no'].format(n=e['lot'])} {e['id']} {e['name']} ({e['unit']})"
                           + marked(t, e["id"], forfeits, lang) for e in x["entries"])
        res = "" if x["result"] is None else f"  {text['points']} " + " ".join(written(p, lang) for p in x["result"]["points"])
        if x["table"] in said:
            res += f"  {text['score']} {result_words(said[x['table']], lang)}"
        elif x["result"] is not None:  # a best of three: its games won (002 三2), the scores as they stand
            res += f"  {text['score']} " + " : ".join(written(s, lang) for s in x["result"]["scores"])
        print(f"{x['table']}  {names}{res}")
        for note in waiting.get(x["table"], ()):
            print(f"      {say(lang, 'ui.unrecorded')}{note.reason[lang]}")
    for b in view["byes"]:
        print(f"{text['bye']}  {b}" + (f"  {text['bye_forfeited']}" if b in view.get("byes_forfeited", []) else ""))


def _changed(store, args, call) -> int:
    """Make a change and print the round it returns; when it paired a round again, say so, table by table."""
    from referee.tournament.export import repaired_lines

    before = len(store.tournament.repaired)
    _print_round(call(), args.lang, store)
    t = store.tournament
    for repaired in t.repaired[before:]:
        print("\n".join(repaired_lines(t, repaired, args.lang)))
    return 0


def _pair(args) -> int:
    store = _store(args)
    _print_round(store.pair_next_round(by=args.by), args.lang, store)
    return 0


def _result(args) -> int:
    from referee.tournament.core import TournamentError

    store = _store(args)
    given = args.winner is not None or args.draw or args.scores is not None
    if (args.games or args.levels) and args.winner is None and not args.draw:  # never dropped unsaid beside a forfeit
        raise TournamentError("result_part_alone")
    if args.forfeit and not args.correct and not given:
        return _changed(store, args, lambda: store.forfeit(args.round, args.table, args.forfeit, by=args.by))
    if not given and not args.forfeit:
        raise TournamentError("result_what")
    result = None
    if args.scores is not None:
        try:
            result = {"scores": [json.loads(s) for s in args.scores.split(",")]}
        except json.JSONDecodeError:
            raise TournamentError("scores_form", scores=args.scores) from None
    elif given:
        result = {"draw": True} if args.draw else {"winner": args.winner}
    if result is not None and args.games:
        try:
            result["games"] = [int(g) for g in args.games.split("-")]
        except ValueError:
            raise TournamentError("games_form", games=args.games) from None
    if result is not None and args.levels:
        result["levels"] = [x.strip() for x in args.levels.split(",")]
    if args.correct:
        return _changed(store, args, lambda: store.correct_result(args.round, args.table, result, by=args.by,
                                                                   reason=args.reason, forfeits=args.forfeit or []))
    return _changed(store, args, lambda: store.record_result(args.round, args.table, result, by=args.by,
                                                              forfeits=args.forfeit or []))


def _late(args) -> int:
    """Past the notice's limit the round is forfeited (the round printed says 弃权); within it, said so in words."""
    store = _store(args)
    _changed(store, args, lambda: store.late_arrival(args.round, args.entry, args.minutes, by=args.by))
    limit = store.tournament.rules.late_limit
    if args.minutes <= limit:
        print(say(args.lang, "sheet.late_within", minutes=f"{args.minutes:g}", limit=f"{limit:g}"))
    return 0


def _withdraw(args) -> int:
    store = _store(args)
    before = set(store.tournament.withdrawn)
    if args.unit is not None:
        _changed(store, args, lambda: store.withdraw_unit(args.unit, by=args.by, reason=args.reason))
    else:
        _changed(store, args, lambda: store.withdraw_entry(args.entry, by=args.by, reason=args.reason))
    t = store.tournament
    for e in (t.entry(x) for x in t.withdrawn if x not in before):  # who withdrew: name and team
        print(say(args.lang, "sheet.withdrew", lot=t.lot_no(e.id), entry=e.id, name=e.name, team=e.team_id))
    can = t.rules.most_rounds(t, t.total_rounds)
    if can < t.total_rounds:  # the rounds left cannot all be paired without the unit: say how many can
        print(say(args.lang, "sheet.rounds_short", rounds=t.total_rounds, can=can))
    return 0


def _rounds(args) -> int:
    t = _store(args).set_rounds(args.rounds, by=args.by)
    print(say(args.lang, "sheet.rounds_set", rounds=t.total_rounds, paired=len(t.rounds)))
    return 0


def _unpair(args) -> int:
    store = _store(args)
    store.unpair_round(args.round, by=args.by, reason=args.reason)
    print(say(args.lang, "sheet.unpaired", round=args.round, reason=args.reason))
    return 0


def _lot(args) -> int:
    from referee.tournament.export import labels, texts

    store = _store(args)
    order = [e.strip() for e in args.order.split(",")] if args.order is not None else None  # "e01, e02" as typed
    t = store.draw_lot(order, by=args.by) if order is not None else store.tournament
    text = labels(args.lang)
    for row in [[text["lot"], text["entry"], text["entry_name"], text["unit"]],
                *([i, e, t.entry(e).name, t.entry(e).unit] for i, e in enumerate(t.lot, 1))]:
        print("\t".join(texts(row, args.lang)))  # pasted into a spreadsheet, a name is never a formula
    return 0


def _standings(args) -> int:
    store = _store(args)
    s = store.standings()
    if args.json:
        print(json.dumps(s, ensure_ascii=False))
        return 0
    from referee.tournament.export import legend, ranking, rounds_complete, standing_rows, texts, titled

    t = store.tournament
    done = rounds_complete(t)
    print(say(args.lang, "sheet.after" if done else "sheet.after_none", title=titled(t, args.lang), n=done))
    for row in standing_rows(t, args.lang):  # the exports' rows: pasted, a name is never a formula
        print("\t".join(texts(row, args.lang)))
    if note := legend(t, args.lang):
        print(note)
    print(ranking(t, args.lang))  # what orders them, as every export says it
    return 0


def _show(args) -> int:
    store = _store(args)
    view = store.round_view(args.round)
    print(json.dumps(view, ensure_ascii=False)) if args.json else _print_round(view, args.lang, store)
    return 0


def _export(args) -> int:
    from referee.tournament.core import TournamentError
    from referee.tournament.export import export

    if args.round is not None and args.format != "html":  # the CSV and XLSX hold every round: never ignored unsaid
        raise TournamentError("export_round_html", format=args.format)
    if args.out:
        _folder_of(args.out)  # refused before the tournament is opened
    elif args.format == "xlsx" and sys.stdout.isatty():  # a workbook's bytes are no one's to read on a terminal
        raise TournamentError("export_xlsx_terminal")
    data = export(_store(args).tournament, args.format, args.round, args.lang)
    if args.out:
        write_file(args.out, data)
    else:
        sys.stdout.buffer.write(data)
    return 0


def _backup(args) -> int:
    t = _store(args).backup(args.out)
    print(say(args.lang, "sheet.backup_done", path=args.out, actions=t.seq, paired=len(t.rounds), rounds=t.total_rounds))
    return 0


def _catch_up(args) -> int:
    from pathlib import Path

    from referee.tournament.catchup import run
    from referee.tournament.core import TournamentError

    if not Path(args.db).is_file():
        raise TournamentError("no_file", path=args.db)
    print("\n".join(run(args.db, args.files, args.lang, args.dry_run)))
    return 0


def _folder_of(path: str):
    """The file to write, refused when its folder does not exist, or where it would replace a database (another
    command's file: the tournament's own, the console's, a table's log; read before the tournament is opened)."""
    from pathlib import Path

    from cardtable.backup import is_database
    from referee.tournament.core import TournamentError

    out = Path(path)
    if not out.parent.is_dir():
        raise TournamentError("export_folder", path=path, folder=out.parent)
    try:
        database = out.is_file() and is_database(out)
    except OSError:
        database = False  # one that cannot be read is not written either: said as the write fails
    if database:
        raise TournamentError("export_over_db", path=path)
    return out


def write_file(path: str, data: bytes) -> None:
    """``data`` written whole to ``path`` (a file beside it, then renamed), or a refusal in words;
    a file that cannot be written leaves nothing behind. A path that is not a file (a device, a pipe: ``/dev/stdout``,
    ``/dev/full``) is written into, never replaced; a link to a file writes the file it names, and stays."""
    import os
    import tempfile
    from pathlib import Path

    from referee.tournament.core import TournamentError

    out = _folder_of(path)
    if out.exists() and not out.is_file():
        try:
            with open(out, "wb") as f:
                f.write(data)
        except OSError as exc:
            raise TournamentError("export_write", path=path, error=exc) from None
        return
    out = out.resolve()
    try:
        fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.")
    except OSError as exc:
        raise TournamentError("export_write", path=path, error=exc) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # as an ordinary new file (mkstemp's is private)
        os.replace(tmp, out)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise TournamentError("export_write", path=path, error=exc) from None


def _simulate(args) -> int:
    from referee.tournament.simulate import simulate

    print(json.dumps(simulate(args.system, args.entries, args.rounds, args.seed), ensure_ascii=False))
    return 0


def _serve(args) -> int:
    from bus.credentials import broker_url
    from cardtable.lang import refuse
    from referee.tournament.service import serve

    from bus.mqtt import TAKEN_OVER_EXIT
    from cardtable.lang import REFUSED
    from referee.tournament.core import TournamentError

    try:
        url = broker_url(args.broker, args.credentials, "tournament")
    except ValueError as exc:  # no broker or password, a bad URL or credentials file
        sys.exit(refuse(args.parser, exc))
    try:
        return serve(_store(args), url)
    except TournamentError as exc:  # another service of the broker here (nothing started), or one elsewhere took over
        return refuse(args, exc, TAKEN_OVER_EXIT if exc.key == "refusal.serve_taken_over" else REFUSED)


HANDLERS = {"new": _new, "pair": _pair, "result": _result, "late": _late, "lot": _lot, "withdraw": _withdraw,
            "rounds": _rounds, "unpair": _unpair, "standings": _standings, "show": _show,
            "export": _export, "backup": _backup, "catch-up": _catch_up, "simulate": _simulate, "serve": _serve}
