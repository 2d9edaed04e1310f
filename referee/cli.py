"""The ``cardtable`` command line."""

from __future__ import annotations

import argparse
import sys


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
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
