"""The command line's language: Chinese, or English when asked.

``--lang en`` (``cardtable``'s or any command's), else ``$CARDTABLE_LANG`` (``zh`` or ``en``), else Chinese; the
locale is not asked (``referee.catalogue.cli_lang``). The language chosen is ``$CARDTABLE_LANG`` for the command
and the processes it starts. Its errors (argparse's own, the commands', the broker's and the credentials') and
what it prints are the catalogue's; so are the ``--help`` lines in Chinese (:func:`helps`; in English they are
the code's own ``help=``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterator

from referee.catalogue import ENV_LANG, LANGS, cli_lang, has, said, word


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


class Parser(argparse.ArgumentParser):
    """argparse's parser, but an unknown option is named before a missing argument: ``cardtable --bogus`` says
    ``--bogus`` is not an option rather than that the command is missing (argparse checks what is missing first).
    Its sub-commands' parsers are of this class too."""

    _trying = False  # while :meth:`_unknown` parses again: an error there ends the try, not the command

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        self._given = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(self._given, namespace)

    def error(self, message: str):  # type: ignore[override]
        if Parser._trying:
            raise _Tried
        unknown = self._unknown()
        super().error(argparse._("unrecognized arguments: %s") % " ".join(unknown) if unknown else message)

    def _unknown(self) -> list[str]:
        """The options of what was given that no argument of this parser (nor of the command it names) takes."""
        required = [a for a in self._actions if a.required]
        Parser._trying = True
        try:
            for action in required:
                action.required = False
            _, extras = super().parse_known_args(list(getattr(self, "_given", [])), argparse.Namespace())
        except _Tried:
            return []
        finally:
            Parser._trying = False
            for action in required:
                action.required = True
        return [e for e in extras if e.startswith("-")]


class _Tried(Exception):
    """An error while :meth:`Parser._unknown` tries."""


def lang_option(parser: argparse.ArgumentParser) -> None:
    """``--lang`` for ``parser`` and every command under it (``cardtable --lang en table run`` or ``cardtable table
    run --lang en``); given nowhere, ``args.lang`` is :func:`cli_lang`'s. ``args.prog`` is the command's name as its
    errors say it (:func:`refuse`): the innermost command's, whose defaults argparse sets last."""
    parser.set_defaults(prog=parser.prog)
    if "--lang" not in parser._option_string_actions:
        parser.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS,
                            help=f"the language it speaks: zh or en (default ${ENV_LANG}, else zh)")
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            if action.metavar is None:  # a missing or wrong command named by its choices, not by the code's dest
                action.metavar = "{" + ",".join(action.choices) + "}"
            for command in {id(p): p for p in action.choices.values()}.values():
                lang_option(command)


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


def dressed(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser`` with ``--lang`` on every command under it, its help lines in Chinese when the command line speaks
    Chinese (:func:`helps`), and its numbers named in the command line's words where one is mistyped (argparse names
    a type by its ``__name__``: 无效的整数值：'x', not 无效的int值)."""
    lang_option(parser)
    lang = cli_lang()
    for key, action in helps(parser):
        if lang == "zh":
            action.help = word("zh", key, action.help).replace("%", "%%")  # argparse formats help with %
        if action.type in (int, float):
            action.type = _named(action.type, word(lang, f"argparse.{action.type.__name__}"))
    return parser


def _named(kind: Callable[[str], object], name: str) -> Callable[[str], object]:
    """``kind`` as an argparse type called ``name``."""
    def parse(text: str) -> object:
        return kind(text)
    parse.__name__ = name
    return parse


REFUSED, FAILED = 2, 1  # the exit status of a command refused (nothing done), of a service stopped by a failure


def refuse(command: argparse.ArgumentParser | argparse.Namespace, message: object, status: int = REFUSED) -> int:
    """Every error line a command says, in argparse's form for its own errors (``cardtable display user：错误：...``,
    ``cardtable display user: error: ...``), without the usage once the arguments parsed; the exit status.

    ``command`` is the command's parser, or its parsed arguments (:func:`lang_option` gives each command's
    ``prog``); ``message`` is said in the command line's language (``referee.catalogue.said``: a refusal in its words,
    the system's error by its ``errno``, never its English in a Chinese sentence). ``status``: ``REFUSED`` (2, as
    argparse's) when the command did nothing because what it was given, or what it was asked to change, will not
    do, the system's refusals included (no such file, no permission, the disk full: nothing was changed);
    ``FAILED`` (1) when a running service (a camera's watch, a board's bridge, a simulation, the hall) stopped on a
    failure."""
    lang = cli_lang()
    sys.stderr.write(argparse_text(lang, "%(prog)s: error: %(message)s\n") % {"prog": command.prog, "message": said(message, lang)})
    return status


def run(build: Callable[[], argparse.ArgumentParser], argv: list[str]) -> int:
    """The command ``argv`` asks for, in the language it asks for: the parser ``build`` makes (in that language
    from the start: argparse's own words, the help lines, see :func:`dressed`) parses ``argv`` and the command's
    ``func`` runs, ``args.lang`` the language it speaks."""
    with speaking(lang_of(argv)):
        args = build().parse_args(argv)
        args.lang = getattr(args, "lang", None) or cli_lang()
        return args.func(args)


__all__ = ["ARGPARSE", "FAILED", "REFUSED", "Parser", "argparse_text", "dressed", "helps", "lang_of", "lang_option", "refuse", "run", "speaking"]
