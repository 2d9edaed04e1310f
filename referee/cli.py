"""The referee's commands: ``cardtable judge``, ``demo``, ``rulebook`` (``list``, ``show``: a book told by
:mod:`referee.rulebooks.told`), ``table`` (``referee/table/cli.py``) and ``tournament`` (``referee/tournament/cli.py``).

``python -m referee.cli ...`` runs them alone, in the same words (``cardtable/lang.py``); the ``cardtable``
command (``cardtable/cli.py``) has every package's.
"""

from __future__ import annotations

import argparse
import sys

from cardtable.lang import FAILED, Parser, dressed, refuse, run
from referee.catalogue import Term
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
    rulebook = sub.add_parser("rulebook", help="the rulebooks: what the table rules, each setting with its seed article")
    verbs = rulebook.add_subparsers(dest="verb", required=True)
    verbs.add_parser("list", help="every rulebook: its name, game, title and seed").set_defaults(func=_rulebooks)
    show = verbs.add_parser("show", help="every setting of a rulebook: its value, what it means, the article it cites")
    show.add_argument("name", metavar="NAME",
                      help="the rulebook's name (rulebook list), or a rulebook file (FILE.toml) to check one being written")
    show.set_defaults(func=lambda args: _rulebook(args, show))
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


def _rulebooks(args: argparse.Namespace) -> int:
    """Every book that loads on standard output; one that does not, an error line (exit 1: the others were listed,
    as the judge answers the files it can read)."""
    from referee import rulebooks
    from referee.catalogue import say

    status = 0
    for name in sorted(rulebooks.names()):
        try:
            book = rulebooks.load(name)
        except rulebooks.RulebookError as exc:
            status = refuse(args, say(args.lang, "rulebook.broken", error=exc.text(args.lang)), FAILED)
            continue
        print(say(args.lang, "rulebook.listed", name=name, game=Term(f"game.{book.game}").text(args.lang),
                  title=book.title_en if args.lang == "en" else book.title, seed=book.seed))
    return status


def _rulebook(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from pathlib import Path

    from referee import rulebooks
    from referee.catalogue import say
    from referee.rulebooks.told import told

    path = Path(args.name)
    folder, name = (path.parent, path.stem) if path.suffix == ".toml" else (None, args.name)
    if folder is None and name not in rulebooks.names():
        parser.error(say(args.lang, "cli.unknown_rulebook", rulebook=name, known=", ".join(sorted(rulebooks.names()))))
    if folder is not None and not path.is_file():
        parser.error(say(args.lang, "rulebook.no_file", path=path))
    try:
        book = rulebooks.build(rulebooks.settings_of(name, folder=folder), str(path if folder else rulebooks.HERE / f"{name}.toml"))
        tables = told(book, args.lang, folder)
    except (rulebooks.RulebookError, UnicodeDecodeError) as exc:
        error = exc.text(args.lang) if isinstance(exc, rulebooks.RulebookError) else str(exc)
        return refuse(parser, say(args.lang, "rulebook.broken", error=error))
    lang = args.lang
    print(say(lang, "rulebook.header", name=book.id, title=book.title_en if lang == "en" else book.title))
    print(say(lang, "rulebook.game", game=Term(f"game.{book.game}").text(lang), seed=book.seed))
    for table in tables:
        print(f"\n[{table.name}]" if table.name else "")
        _said(table.meaning, table.note, "  ", lang)
        if not table.settings:
            print("  " + say(lang, "rulebook.empty"))
        for setting in table.settings:
            _print(setting, "  ", lang)
    return 0


def _print(setting, pad: str, lang: str) -> None:
    """A setting (or an entry): its key and value, what it means and its note below, its own entries further in."""
    from referee.catalogue import say

    print(pad + (say(lang, "rulebook.setting", name=setting.key, value=setting.value) if setting.value else setting.key))
    _said(setting.meaning, setting.note, pad + "    ", lang)
    for entry in setting.entries:
        _print(entry, pad + "  ", lang)


def _said(meaning: str, note: str, pad: str, lang: str) -> None:
    from referee.catalogue import say

    for key, text in (("rulebook.means", meaning), ("rulebook.note", note)):
        if text:
            print(pad + say(lang, key, text=text))


if __name__ == "__main__":
    sys.exit(main())
