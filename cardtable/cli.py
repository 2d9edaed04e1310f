"""The ``cardtable`` command line: the command groups of every package, none owning the others; it speaks
Chinese, English when asked (``cardtable/lang.py``).

Each module below defines ``add_parser(sub)``, which adds its sub-commands to the ``cardtable`` parser
and sets ``func`` (called with the parsed args, returns the exit status) with
``parser.set_defaults(func=...)``. Keep those modules light: they import heavy libraries inside the
functions they serve, so that ``cardtable judge`` starts without onnxruntime or FastAPI.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from cardtable.lang import ARGPARSE, Parser, dressed, run
from referee.catalogue import cli_lang, word

GROUPS = (
    "referee.cli",  # judge, demo, rulebook, table, tournament
    "vision.cli",  # vision read|watch|calibrate|train|join|deck|sure
    "bridge.cli",  # bridge run|virtual
    "display.cli",  # display serve|user|backup
    "hall.cli",  # hall, hall setup|certs|player|camera
)


def parser() -> argparse.ArgumentParser:
    """``cardtable`` and every package's commands under it, in the command line's language."""
    top = Parser(prog="cardtable", description=word(cli_lang(), "cli.description"))
    sub = top.add_subparsers(dest="command", required=True)
    for name in GROUPS:
        importlib.import_module(name).add_parser(sub)
    return dressed(top)


def main(argv: list[str] | None = None) -> int:
    try:
        return run(parser, sys.argv[1:] if argv is None else list(argv))
    except BrokenPipeError:  # `cardtable tournament standings | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        return 1


__all__ = ["ARGPARSE", "GROUPS", "main", "parser"]
