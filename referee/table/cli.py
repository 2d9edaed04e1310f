"""``cardtable table run|simulate|replay|events|backup``: serve one table, play bot hands at it, print its log, tell its
events again (for ``cardtable tournament catch-up``), back its log up while it runs."""

from __future__ import annotations

import argparse
import math
import sys

from bus.credentials import add_options
from cardtable.lang import FAILED, refuse
from referee.catalogue import said, say


def add_parser(sub: argparse._SubParsersAction) -> None:
    table = sub.add_parser("table", help="the table service: run a table, simulate one, replay its log")
    verbs = table.add_subparsers(dest="verb", required=True)
    run = verbs.add_parser("run", help="serve one table over MQTT until SIGTERM/SIGINT")
    run.add_argument("--table", required=True, help="the table id, e.g. t07")
    run.add_argument("--rulebook", required=True, help="the rulebook id, e.g. classic-3deck")
    add_options(run, "table-TABLE")
    run.add_argument("--db", required=True, metavar="PATH", help="the table's event log (SQLite)")
    run.add_argument("--accept-log", action="store_true",
                     help="start on a log that lost entries this table published, or another log (docs/recovery.md)")
    run.add_argument("--trust-senders", action="store_true",
                     help="believe every input's time and limit no sender's pace: a simulation on virtual time")
    simulate = verbs.add_parser("simulate", help="four bots play hands at a table through the broker")
    simulate.add_argument("--table", required=True, help="the table id, e.g. t07")
    simulate.add_argument("--rulebook", required=True, help="the rulebook id, e.g. classic-3deck")
    add_options(simulate, "console (a user that reads the table's outputs; it also sends what has no URL of its own)")
    simulate.add_argument("--camera", metavar="URL", help="the camera's user (observed), e.g. mqtt://host:port")
    simulate.add_argument("--board", metavar="URL", help="the board bridge's user (board/in)")
    simulate.add_argument("--console", metavar="URL",
                          help="the console's user: commands, and confirms of unsure reads (else the seat's button)")
    simulate.add_argument("--hands", type=int, default=1, help="hands to play (default 1)")
    simulate.add_argument("--seed", type=int, default=2026, help="the seed of the deals and the bots (default 2026)")
    simulate.add_argument("--speed", type=float, default=0.0,
                          help="simulated seconds per real second (0: as fast as the table answers)")
    replay = verbs.add_parser("replay", help="print a table's event log as a timeline")
    replay.add_argument("path", metavar="PATH", help="the table's event log (SQLite)")
    replay.add_argument("--rulebook", default=None, help="default: the log's first assign, else classic-3deck")
    replay.add_argument("--table", default=None, help="the table id to replay as (default: the file's name)")
    events = verbs.add_parser("events", help="the events a table's log published, again (for tournament catch-up)")
    events.add_argument("path", metavar="PATH", help="the table's event log")
    events.add_argument("--out", default=None, metavar="FILE", help="a new file (default: standard output)")
    events.add_argument("--rulebook", default=None, help="default: the log's own")
    events.add_argument("--table", default=None, help="default: the log's own")
    backup = verbs.add_parser("backup", help="copy a table's event log, checked, while its service runs (at every break)")
    backup.add_argument("--db", required=True, metavar="PATH", help="the table's event log")
    backup.add_argument("--out", required=True, metavar="FILE", help="the copy: a new file (never overwritten)")
    backup.set_defaults(table=None, rulebook=None)
    for verb in (run, simulate, replay, events, backup):
        verb.set_defaults(parser=verb)
    table.set_defaults(func=lambda args: _table(args, args.parser))


def _table(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from bus.mqtt import TAKEN_OVER_EXIT, TakenOver
    from bus.protocol import check_table
    from referee import rulebooks
    from referee.catalogue import Refusal
    from referee.table.log import LogError

    try:
        if args.table is not None:
            check_table(args.table)
    except ValueError:
        parser.error(say(args.lang, "cli.bad_table", table=args.table))
    if args.rulebook is not None and args.rulebook not in rulebooks.names():
        known = ", ".join(sorted(rulebooks.names()))
        if args.verb == "run":  # on the bus too: the console says why the table is offline
            _said_refused(args, LogError(f"there is no rulebook {args.rulebook!r}", "unknown_rulebook",
                                         rulebook=args.rulebook, known=known))
        parser.error(say(args.lang, "cli.unknown_rulebook", rulebook=args.rulebook, known=known))
    if args.verb == "run":
        from referee.table.service import run

        url = _url(parser, args, args.broker, f"table-{args.table}")
        try:
            return run(args.table, args.rulebook, url, args.db, trust_senders=args.trust_senders,
                       accept_log=args.accept_log)
        except LogError as exc:  # its log will not do (damaged, lost entries, another's, served): refused, a person decides
            _said_refused(args, exc)  # on the bus too: the console says why the table is offline
            return refuse(parser, say(args.lang, "cli.table_cannot_start", table=args.table, why=exc.reason(args.lang)))
        except TakenOver as exc:  # another service of the table serves it: not taken back (no fight)
            return refuse(parser, say(args.lang, "cli.table_taken_over", table=args.table, why=exc.text(args.lang)),
                          TAKEN_OVER_EXIT)
        except (OSError, ValueError) as exc:  # the broker refused it or did not answer: started again by its supervisor
            return refuse(parser, say(args.lang, "cli.table_cannot_start", table=args.table, why=said(exc, args.lang)), FAILED)
    if args.verb == "simulate":
        from referee.table.simulators import Stopped
        from referee.table.simulators import main as simulate

        if args.hands < 1 or not 0 <= args.speed < math.inf:
            parser.error(say(args.lang, "cli.hands_speed"))
        roles = ((args.camera, f"camera-{args.table}"), (args.board, f"board-{args.table}"), (args.console, "console"))
        urls = [_url(parser, args, url, user) if url else None for url, user in roles]
        try:
            return simulate(args.table, args.rulebook, _url(parser, args, args.broker, "console"), args.hands, args.seed,
                            args.speed, *urls, args.lang)
        except Stopped as exc:
            return refuse(parser, exc, FAILED)
    from referee.table.retell import main as events
    from referee.table.timeline import main as replay

    try:  # no log, not a log, a copy that did not check: said in the command line's language
        if args.verb == "backup":
            return _backup(args)
        if args.verb == "events":
            return events(args.path, args.out, args.table, args.rulebook, args.lang)
        return replay(args.path, lang=args.lang, rulebook=args.rulebook, table=args.table)
    except (LogError, Refusal) as exc:
        return refuse(parser, exc)


def _said_refused(args: argparse.Namespace, exc: LogError) -> None:
    """Why the table's service will not start, as its retained status (``referee.table.refused``), where the broker
    and the credentials are at hand (none: the command line says why, as before)."""
    from bus.credentials import broker_url
    from referee.table.refused import say_refused

    try:
        url = broker_url(args.broker, args.credentials, f"table-{args.table}")
    except ValueError:
        return
    say_refused(args.table, url, exc.data(), str(exc))


def _url(parser: argparse.ArgumentParser, args: argparse.Namespace, url: str | None, user: str) -> str:
    """The broker URL with the password of ``user`` (``bus.credentials``); a clear error when there is none."""
    from bus.credentials import broker_url

    try:
        return broker_url(url, args.credentials, user)
    except ValueError as exc:  # no broker, no password, a bad URL or credentials file
        sys.exit(refuse(parser, exc))


def _backup(args: argparse.Namespace) -> int:
    from referee.table.log import LogError
    from referee.table.timeline import open_log

    with open_log(args.db, args.lang) as log:  # read only: the table's service keeps writing
        try:
            last = log.backup(args.out)
        except LogError as exc:  # the copy did not check: it was not kept
            raise LogError(say(args.lang, "cli.table_backup_refused", path=args.out, error=exc)) from None
    print(say(args.lang, "cli.table_backed_up", path=args.out, n=last))
    return 0

