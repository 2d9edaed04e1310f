"""The ``cardtable`` command line.

It speaks Chinese, or English when asked: ``--lang en`` (``cardtable``'s or any command's), else
``$CARDTABLE_LANG`` (``zh`` or ``en``), else Chinese; the locale is not asked (``referee.catalogue.cli_lang``).
The language chosen is ``$CARDTABLE_LANG`` for the command and the processes it starts. Its errors (argparse's
own, the commands', the broker's and the credentials') and what it prints are the catalogue's; so are the
``--help`` lines in Chinese (:func:`helps`; in English they are the code's own ``help=``).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import re
import sys
from collections.abc import Iterator

from referee.catalogue import ENV_LANG, LANGS, cli_lang, has, said, say, word
from referee.table.credentials import add_options

# Command groups owned by other packages. Each module defines ``add_parser(sub)``, which adds its
# sub-command to the ``cardtable`` parser and sets ``func`` (called with the parsed args, returns the
# exit status) with ``parser.set_defaults(func=...)``. Keep the modules light: import heavy
# libraries inside the functions they serve.
PLUGINS = ("vision.cli", "bridge.cli", "referee.tournament.cli", "display.cli", "referee.hall.cli")


def _plugins(sub: argparse._SubParsersAction) -> None:
    for name in PLUGINS:
        importlib.import_module(name).add_parser(sub)


# argparse's own words (its gettext message ids) and the catalogue's key for each (``argparse.*``).
ARGPARSE = {
    "usage: ": "usage", "%(prog)s: error: %(message)s\n": "error", "the following arguments are required: %s": "required",
    "unrecognized arguments: %s": "unrecognized", "invalid choice: %(value)r (choose from %(choices)s)": "choice",
    "invalid %(type)s value: %(value)r": "type", "expected one argument": "one", "expected at most one argument": "at_most_one",
    "expected at least one argument": "at_least_one", "argument %(argument_name)s: %(message)s": "argument",
    "one of the arguments %s is required": "one_of", "not allowed with argument %s": "not_with",
    "ambiguous option: %(option)s could match %(matches)s": "ambiguous", "ignored explicit argument %r": "ignored",
    "show this help message and exit": "help", "positional arguments": "positional", "options": "options",
}


def argparse_text(lang: str, msgid: str) -> str:
    """argparse's message ``msgid`` in ``lang``, with argparse's own ``%`` fields (a ``{name}`` of the catalogue is
    ``%(name)s`` or ``%(name)r`` as the message id has it, ``{s}`` its one ``%s`` or ``%r``).

    >>> argparse_text("zh", "invalid choice: %(value)r (choose from %(choices)s)")
    '无效的选择：%(value)r（可选：%(choices)s）'
    >>> argparse_text("zh", "the following arguments are required: %s"), argparse_text("zh", "no such words")
    ('缺少参数：%s', 'no such words')
    """
    key = ARGPARSE.get(msgid)
    if key is None:
        return msgid
    specs = dict(re.findall(r"%\((\w+)\)([sr])", msgid))
    one = next(iter(re.findall(r"%([sr])", msgid)), "s")
    return re.sub(r"\{(\w+)\}", lambda m: f"%{one}" if m[1] == "s" else f"%({m[1]}){specs.get(m[1], 's')}",
                  word(lang, f"argparse.{key}").replace("%", "%%"))


def lang_of(argv: list[str]) -> str | None:
    """The language ``argv`` asks for (``--lang zh|en``, anywhere: the command's or ``cardtable``'s own), or None."""
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg.partition("=")[2] if arg.startswith("--lang=") else None
        if value in LANGS:
            return value
    return None


@contextlib.contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """While the command runs: ``$CARDTABLE_LANG`` is ``lang`` (when asked for; the commands and the processes they
    start read it) and argparse says its words in the command line's language."""
    before, text = os.environ.get(ENV_LANG), argparse._
    if lang is not None:
        os.environ[ENV_LANG] = lang
    now = cli_lang()
    argparse._ = lambda msgid: argparse_text(now, msgid)
    try:
        yield
    finally:
        argparse._ = text
        if before is None:
            os.environ.pop(ENV_LANG, None)
        else:
            os.environ[ENV_LANG] = before


def _lang_option(parser: argparse.ArgumentParser) -> None:
    """``--lang`` for ``parser`` and every command under it (``cardtable --lang en table run`` or ``cardtable table
    run --lang en``); given nowhere, ``args.lang`` is :func:`cli_lang`'s."""
    if "--lang" not in parser._option_string_actions:
        parser.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS,
                            help=f"the language it speaks: zh or en (default ${ENV_LANG}, else zh)")
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in {id(p): p for p in action.choices.values()}.values():
                _lang_option(command)


def helps(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[str, argparse.Action]]:
    """Every help line under ``parser`` and the catalogue key of its Chinese: a command's line in its parent's list
    ``help."<command path>"``; an option's ``option."<command path> --name"``, else the same with fewer commands,
    down to ``option."--name"`` (a line several commands share is written once). The English is the code's own
    ``help=``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield f"help.{' '.join((*path, choice.dest))}", choice
            for name, command in action.choices.items():
                yield from helps(command, (*path, name))
        elif action.help not in (None, argparse.SUPPRESS) and not isinstance(action, argparse._HelpAction):
            name = max(action.option_strings, key=len, default=action.dest)
            keys = [f"option.{' '.join((*path[:i], name))}" for i in range(len(path), -1, -1)]
            yield next((k for k in keys if has("zh", k)), keys[0]), action


def build() -> argparse.ArgumentParser:
    """The ``cardtable`` parser, every command's with it, its help lines in the command line's language."""
    parser = argparse.ArgumentParser(prog="cardtable", description=word(cli_lang(), "cli.description"))
    sub = parser.add_subparsers(dest="command", required=True)
    judge = sub.add_parser("judge", help="answer rules cases (JSON lines), see shared/conformance/README.md")
    judge.add_argument("files", nargs="+", metavar="FILE")
    judge.add_argument("--check", action="store_true", help="compare with expect, end with 'N passed, M failed'")
    demo = sub.add_parser("demo", help="four bots play one hand of Tractor, Guandan or San Da Yi through the referee")
    demo.set_defaults(parser=demo)
    demo.add_argument("--game", choices=["tractor", "guandan", "sandayi"], default=None,
                      help="the game (default: the rulebook's game, else tractor)")
    demo.add_argument("--rulebook", default=None,
                      help="the rulebook (default per game: classic-3deck, sanjiang-2012, usst-2016)")
    demo.add_argument("--seed", type=int, default=2026)
    table = sub.add_parser("table", help="the table service: run a table, simulate one, replay its log")
    table.set_defaults(parser=table)
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
    replay = verbs.add_parser("replay", help="print a table's event log as a timeline")
    replay.add_argument("path", metavar="PATH")
    replay.add_argument("--rulebook", default=None, help="default: the log's first assign, else classic-3deck")
    replay.add_argument("--table", default=None, help="the table id to replay as (default: the file's name)")
    _plugins(sub)
    _lang_option(parser)
    if cli_lang() == "zh":
        for key, action in helps(parser):
            action.help = word("zh", key, action.help)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    with speaking(lang_of(argv)):
        args = build().parse_args(argv)
        args.lang = getattr(args, "lang", None) or cli_lang()
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    if getattr(args, "func", None) is not None:
        return args.func(args)
    if args.command == "table":
        return _table(args, args.parser)
    if args.command == "judge":
        from referee.judge import run

        return run(args.files, args.check)
    if args.command == "demo":
        from referee.demo import DemoError, choose
        from referee.demo import main as demo_main

        try:
            game, rulebook = choose(args.game, args.rulebook)
        except DemoError as exc:
            args.parser.error(exc.text(args.lang))
        return demo_main(rulebook, args.seed, args.lang, game)
    return 2


def _table(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from referee import rulebooks
    from referee.table.protocol import check_table

    try:
        if args.table is not None:
            check_table(args.table)
    except ValueError:
        parser.error(say(args.lang, "cli.bad_table", table=args.table))
    if args.rulebook is not None and args.rulebook not in rulebooks.names():
        parser.error(say(args.lang, "cli.unknown_rulebook", rulebook=args.rulebook, known=", ".join(sorted(rulebooks.names()))))
    if args.verb == "run":
        from referee.table.service import run

        return run(args.table, args.rulebook, _url(parser, args, args.broker, f"table-{args.table}"), args.db,
                   trust_senders=args.trust_senders, accept_log=args.accept_log)
    if args.verb == "simulate":
        from referee.table.simulate import main as simulate

        if args.hands < 1 or args.speed < 0:
            parser.error(say(args.lang, "cli.hands_speed"))
        roles = ((args.camera, f"camera-{args.table}"), (args.board, f"board-{args.table}"), (args.console, "console"))
        urls = [_url(parser, args, url, user) if url else None for url, user in roles]
        return simulate(args.table, args.rulebook, _url(parser, args, args.broker, "console"), args.hands, args.seed,
                        args.speed, *urls, args.lang)
    from referee.table.timeline import main as replay

    return replay(args.path, lang=args.lang, rulebook=args.rulebook, table=args.table)


def _url(parser: argparse.ArgumentParser, args: argparse.Namespace, url: str | None, user: str) -> str:
    """The broker URL with the password of ``user`` (``referee.table.credentials``); a clear error when there is none."""
    from referee.table.credentials import broker_url

    try:
        return broker_url(url, args.credentials, user)
    except ValueError as exc:  # no broker, no password, a bad URL or credentials file
        parser.error(said(exc, args.lang))


if __name__ == "__main__":
    sys.exit(main())
