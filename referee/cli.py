"""The referee's commands: ``cardtable judge``, ``demo``, ``table`` (``referee/table/cli.py``) and
``tournament`` (``referee/tournament/cli.py``).

``python -m referee.cli ...`` runs them alone, in the same words (``cardtable/lang.py``); the ``cardtable``
command (``cardtable/cli.py``) has every package's.
"""

from __future__ import annotations

import argparse
import sys

from cardtable.lang import Parser, dressed, run
from referee.table import cli as table_cli
from referee.tournament import cli as tournament_cli


def main(argv: list[str] | None = None) -> int:
    def parser() -> argparse.ArgumentParser:
        top = Parser(prog="python -m referee.cli", description="cardtable: the referee's commands")
        add_parser(top.add_subparsers(dest="command", required=True))
        return dressed(top)

    return run(parser, sys.argv[1:] if argv is None else list(argv))


def add_parser(sub: argparse._SubParsersAction) -> None:
    judge = sub.add_parser("judge", help="answer rules cases (JSON lines), see shared/conformance/README.md")
    judge.add_argument("files", nargs="+", metavar="FILE",
                       help="case files, one JSON object a line (shared/conformance/README.md)")
    judge.add_argument("--check", action="store_true", help="compare with expect, end with 'N passed, M failed'")
    judge.set_defaults(func=_judge)
    demo = sub.add_parser("demo", help="four bots play one hand of Tractor, Guandan or San Da Yi through the referee")
    demo.add_argument("--game", choices=["tractor", "guandan", "sandayi"], default=None,
                      help="the game (default: the rulebook's game, else tractor)")
    demo.add_argument("--rulebook", default=None,
                      help="the rulebook (default per game: classic-3deck, sanjiang-2012, usst-2016)")
    demo.add_argument("--seed", type=int, default=2026, help="the seed of the deal and the bots (default 2026)")
    demo.set_defaults(func=lambda args: _demo(args, demo))
    table_cli.add_parser(sub)
    tournament_cli.add_parser(sub)


def _judge(args: argparse.Namespace) -> int:
    from referee.judge import run

    return run(args.files, args.check, lang=args.lang)


def _demo(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from referee.demo import DemoError, choose
    from referee.demo import main as demo_main

    try:
        game, rulebook = choose(args.game, args.rulebook)
    except DemoError as exc:
        parser.error(exc.text(args.lang))
    return demo_main(rulebook, args.seed, args.lang, game)


if __name__ == "__main__":
    sys.exit(main())
