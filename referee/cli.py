"""The ``cardtable`` command line."""

from __future__ import annotations

import argparse
import importlib
import sys

from bus.credentials import add_options

# Command groups owned by other packages. Each module defines ``add_parser(sub)``, which adds its
# sub-command to the ``cardtable`` parser and sets ``func`` (called with the parsed args, returns the
# exit status) with ``parser.set_defaults(func=...)``. Keep the modules light: import heavy
# libraries inside the functions they serve.
PLUGINS = ("vision.cli", "bridge.cli", "referee.tournament.cli", "display.cli", "referee.hall.cli")


def _plugins(sub: argparse._SubParsersAction) -> None:
    for name in PLUGINS:
        importlib.import_module(name).add_parser(sub)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cardtable", description="cardtable 智能牌桌")
    sub = parser.add_subparsers(dest="command", required=True)
    judge = sub.add_parser("judge", help="answer rules cases (JSON lines), see shared/conformance/README.md")
    judge.add_argument("files", nargs="+", metavar="FILE")
    judge.add_argument("--check", action="store_true", help="compare with expect, end with 'N passed, M failed'")
    demo = sub.add_parser("demo", help="four bots play one hand of Tractor, Guandan or San Da Yi through the referee")
    demo.add_argument("--game", choices=["tractor", "guandan", "sandayi"], default=None,
                      help="the game (default: the rulebook's game, else tractor)")
    demo.add_argument("--rulebook", default=None,
                      help="the rulebook (default per game: classic-3deck, sanjiang-2012, usst-2016)")
    demo.add_argument("--seed", type=int, default=2026)
    demo.add_argument("--lang", choices=["zh", "en"], default="zh")
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
    simulate.add_argument("--table", required=True)
    simulate.add_argument("--rulebook", required=True)
    add_options(simulate, "console (a user that reads the table's outputs; it also sends what has no URL of its own)")
    simulate.add_argument("--camera", metavar="URL", help="the camera's user (observed), e.g. mqtt://host:port")
    simulate.add_argument("--board", metavar="URL", help="the board bridge's user (board/in)")
    simulate.add_argument("--console", metavar="URL",
                          help="the console's user: commands, and confirms of unsure reads (else the seat's button)")
    simulate.add_argument("--hands", type=int, default=1)
    simulate.add_argument("--seed", type=int, default=2026)
    simulate.add_argument("--speed", type=float, default=0.0,
                          help="simulated seconds per real second (0: as fast as the table answers)")
    simulate.add_argument("--lang", choices=["zh", "en"], default="zh")
    replay = verbs.add_parser("replay", help="print a table's event log as a timeline")
    replay.add_argument("path", metavar="PATH")
    replay.add_argument("--lang", choices=["zh", "en"], default="zh")
    replay.add_argument("--rulebook", default=None, help="default: the log's first assign, else classic-3deck")
    replay.add_argument("--table", default=None, help="the table id to replay as (default: the file's name)")
    _plugins(sub)
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is not None:
        return args.func(args)
    if args.command == "table":
        return _table(args, table)
    if args.command == "judge":
        from referee.judge import run

        return run(args.files, args.check)
    if args.command == "demo":
        from referee.demo import DemoError, choose
        from referee.demo import main as demo_main

        try:
            game, rulebook = choose(args.game, args.rulebook)
        except DemoError as exc:
            demo.error(str(exc))
        return demo_main(rulebook, args.seed, args.lang, game)
    return 2


def _table(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from referee import rulebooks
    from bus.protocol import check_table

    try:
        if args.table is not None:
            check_table(args.table)
        if args.rulebook is not None and args.rulebook not in rulebooks.names():
            raise ValueError(f"unknown rulebook {args.rulebook!r}; known: {', '.join(sorted(rulebooks.names()))}")
    except ValueError as exc:
        parser.error(str(exc))
    if args.verb == "run":
        from referee.table.service import run

        return run(args.table, args.rulebook, _url(parser, args, args.broker, f"table-{args.table}"), args.db,
                   trust_senders=args.trust_senders, accept_log=args.accept_log)
    if args.verb == "simulate":
        from referee.table.simulate import main as simulate

        if args.hands < 1 or args.speed < 0:
            parser.error("--hands must be 1 or more and --speed 0 or more")
        roles = ((args.camera, f"camera-{args.table}"), (args.board, f"board-{args.table}"), (args.console, "console"))
        urls = [_url(parser, args, url, user) if url else None for url, user in roles]
        return simulate(args.table, args.rulebook, _url(parser, args, args.broker, "console"), args.hands, args.seed,
                        args.speed, *urls, args.lang)
    from referee.table.timeline import main as replay

    return replay(args.path, lang=args.lang, rulebook=args.rulebook, table=args.table)


def _url(parser: argparse.ArgumentParser, args: argparse.Namespace, url: str | None, user: str) -> str:
    """The broker URL with the password of ``user`` (``bus.credentials``); a clear error when there is none."""
    from bus.credentials import broker_url

    try:
        return broker_url(url, args.credentials, user)
    except ValueError as exc:  # no broker, no password, a bad URL or credentials file
        parser.error(str(exc))


if __name__ == "__main__":
    sys.exit(main())
