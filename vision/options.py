"""What every ``cardtable vision`` command shares: its arguments' types, and its errors said in words.

>>> whole(1)("3"), positive("0.5"), frame_size("2560x1920")
(3, 0.5, (2560, 1920))
"""

from __future__ import annotations

import argparse
import math
import signal
import threading
from contextlib import contextmanager

from cardtable.lang import REFUSED, refuse
from referee.catalogue import cli_lang, said, say


def fail(command: argparse.Namespace, key: str, status: int = REFUSED, **values: object) -> int:
    """Say the catalogue's ``vision.<key>`` (an error) as the command's error line (``cardtable.lang.refuse``); the
    exit status: ``REFUSED`` (2) unless told. The values are said in the command line's language (an ``OSError`` by its
    ``errno``: ``referee.catalogue.said``)."""
    lang = cli_lang()
    return refuse(command, say(lang, f"vision.{key}", **{k: said(v, lang) for k, v in values.items()}), status)

STOPPED = 130  # the exit status of a command stopped by Ctrl-C (128 + SIGINT), as a shell gives it


def stoppable(command):
    """``command`` (a handler of ``args``) said stopped in words on Ctrl-C, with the exit status ``STOPPED``, not a
    traceback: every file a vision command writes is written whole or not at all (``vision.whole``, an enrolment's
    folder built apart), so it leaves what was there before as it was."""
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except KeyboardInterrupt:
            return fail(args, "stopped", STOPPED)
    return run


@contextmanager
def deaf_workers():
    """Worker processes started within ignore Ctrl-C, for their whole life (an ignored signal stays ignored through
    ``exec``): a terminal's Ctrl-C reaches its whole process group, and workers still starting (importing torch)
    printed their tracebacks under the command's words. The command handles it alone (``stoppable``) and stops its
    workers as it ends; it ignores SIGINT only while it starts them (in the main thread: elsewhere it cannot)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    was = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, was)


def whole(low: int):
    """An argparse type: a whole number of at least ``low``, else an error in words.

    >>> whole(1)("3"), whole(0)("0")
    (3, 0)
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(say(cli_lang(), "vision.whole_number", low=low, value=repr(text)))
        return value
    return parse


def table_game(book_id: str | None, decks: int | None = None) -> tuple[str, int]:
    """The game a table's camera watches and the decks it counts a card's copies up to: the rulebook's (``decks``
    first); no rulebook: a Tractor table of ``decks``, else 3.

    >>> table_game("sanjiang-2012"), table_game(None), table_game("classic-3deck", decks=2)
    (('guandan', 2), ('tractor', 3), ('tractor', 2))
    """
    if book_id is None:
        return "tractor", decks or 3
    from referee.rulebooks import load

    book = load(book_id)
    return book.game, decks or book.deal.decks


def rulebook(text: str) -> str:
    """An argparse type: the id of one of our rulebooks, else an error in words naming them.

    >>> rulebook("sanjiang-2012")
    'sanjiang-2012'
    """
    from referee.rulebooks import names

    if text not in names():
        raise argparse.ArgumentTypeError(say(cli_lang(), "cli.unknown_rulebook", rulebook=text, known=", ".join(sorted(names()))))
    return text


def positive(text: str) -> float:
    """An argparse type: a finite number above 0, else an error in words.

    >>> positive("0.5")
    0.5
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(say(cli_lang(), "vision.positive", value=repr(text)))
    return value


def frame_size(text: str) -> tuple[int, int]:
    w, x, h = text.lower().partition("x")
    if not (x and w.isdigit() and h.isdigit() and int(w) >= 32 and int(h) >= 32):
        raise argparse.ArgumentTypeError(say(cli_lang(), "vision.frame_size", size=repr(text)))
    return int(w), int(h)
