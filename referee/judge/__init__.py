"""``cardtable judge``: answer rules questions written as JSON lines.

The case format is ``shared/conformance/README.md``. Each line gets one answer line
``{"id": ..., "result": ...}``, or ``{"id": ..., "error": "...", "said": "..."}`` in words for malformed or
impossible input: ``error`` in English, the same words whatever the language (what programs and the logs
compare), ``said`` the same in the command line's language (Chinese unless ``--lang en``); ``--check``
compares answers with ``expect`` and ends with ``N passed, M failed``. A file that cannot be read (missing,
a directory, not UTF-8 text) is one error line; the other files are answered, and the run ends with status 1.

The judge asks the kernel: :mod:`referee.judge.tractor` (the Tractor ops) and :mod:`referee.judge.climbing`
(Guandan's and San Da Yi's) read each case's fields with :mod:`referee.judge.fields` and answer with the
engines; the ``clock`` op drives the table service's own table (``referee.table.scenario``).
"""

from __future__ import annotations

import errno
import json
import sys
import traceback
from typing import Any, Callable, Iterable, TextIO

from referee.catalogue.sentences import told
from bus.protocol import PayloadError, loads
from referee.judge.climbing import GUANDAN, SANDAYI
from referee.judge.fields import CaseError, kind, text
from referee.judge.tractor import OPS as TRACTOR
from referee.reasons import cut
from referee.table.scenario import clock_case

Op = Callable[[dict[str, Any]], Any]
__all__ = ["CaseError", "GAMES", "answer", "matches", "run"]

# Every game's ops; ``clock``: a table driven through timed inputs, every game (referee/rulebooks/README.md,
# "The clock op").
GAMES: dict[str, dict[str, Op]] = {game: {**ops, "clock": clock_case}
                                   for game, ops in (("tractor", TRACTOR), ("guandan", GUANDAN), ("sandayi", SANDAYI))}


def _worded(exc: Exception) -> bool:
    """An error of the referee's own (a rule or a case it refuses), whose message is its words."""
    return isinstance(exc, ValueError) and type(exc).__module__.startswith("referee.")


def answer(case: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The answer line for one case; an error's ``said`` in ``lang``."""
    out: dict[str, Any] = {"id": case.get("id")}
    game: Any = None
    try:
        game = text(case, "game")
        if game not in GAMES:
            raise CaseError("judge.unknown_game", value=cut(repr(game)), known=tuple(GAMES))
        name = text(case, "op")
        op = GAMES[game].get(name)
        if op is None:
            raise CaseError("judge.unknown_op", value=cut(repr(name)), game=game, known=tuple(GAMES[game]))
        out["result"] = op(case)
    except Exception as exc:  # one bad case never stops the run
        if not _worded(exc):
            traceback.print_exc(file=sys.stderr)
        out |= _error(exc if _worded(exc) else CaseError("judge.internal"), lang, game if game in GAMES else "tractor")
    return out


def _error(exc: Exception, lang: str, game: str = "tractor") -> dict[str, str]:
    """An answer's error: in English (``error``) and in ``lang`` (``said``), in ``game``'s words."""
    return {"error": told(exc, game=game), "said": told(exc, lang, game)}


def matches(expect: Any, out: dict[str, Any]) -> bool:
    if isinstance(expect, dict) and expect.get("error") is True:
        return "error" in out
    return "result" in out and out["result"] == expect


def _lines(path: str) -> list[str]:
    """The file's lines; :class:`CaseError` in words when it cannot be read as UTF-8 text."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise CaseError("judge.no_file", path=path) from None
    except IsADirectoryError:
        raise CaseError("judge.directory", path=path) from None
    except OSError as exc:  # its own words are English: its code (EACCES) says it in either language
        raise CaseError("judge.unreadable", path=path, code=errno.errorcode.get(exc.errno or 0, "EIO")) from None
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CaseError("judge.not_utf8", path=path, line=line, byte=f"{data[exc.start]:#04x}") from None


def _case(line: str, path: str, n: int) -> dict[str, Any]:
    """Line ``n`` of ``path`` as a case: a JSON object, or :class:`CaseError` in words.

    >>> _case('{"id": "a", "trump": "H", "trump": "S"}', "c.jsonl", 3)
    Traceback (most recent call last):
    ...
    referee.judge.fields.CaseError: judge.key_twice (line=3, name="'trump'", path='c.jsonl')
    """
    try:
        case = loads(path, line)
    except PayloadError as exc:  # JSON's own words are English only: each reason said in the judge's words
        why = exc.why
        if why.key == "payload.twice":
            raise CaseError("judge.key_twice", path=path, line=n, name=cut(repr(why["where"][0]))) from None
        if why.key == "payload.number":
            raise CaseError("judge.number", path=path, line=n, value=why["value"]) from None
        if why.key == "payload.nested":  # nested past what the reader follows: one line, never the whole run
            raise CaseError("judge.too_deep", path=path, line=n) from None
        if why.key == "payload.long_number":
            raise CaseError("judge.long_number", path=path, line=n) from None
        raise CaseError("judge.not_json", path=path, line=n, column=exc.column) from None
    if not isinstance(case, dict):
        raise CaseError("judge.not_object", path=path, line=n, found=kind(case))
    return case


def run(paths: Iterable[str], check: bool, stdout: TextIO | None = None, lang: str = "en") -> int:
    """Answer every case of the files (errors ``said`` in ``lang``); return 1 when a file cannot be read or, with
    ``check``, an answer misses its ``expect`` or there was no case to check (an empty file passes nothing)."""
    stdout = stdout or sys.stdout
    passed = failed = 0
    unreadable = False
    for path in paths:
        try:
            lines = _lines(path)
        except CaseError as exc:
            print(json.dumps({"id": None} | _error(exc, lang), ensure_ascii=False), file=stdout)
            unreadable, failed = True, failed + 1
            continue
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                case = _case(line, path, n)
            except CaseError as exc:
                case, out = {}, {"id": None} | _error(exc, lang)
            else:
                out = answer(case, lang)
            print(json.dumps(out, ensure_ascii=False), file=stdout)
            if check:
                if "expect" in case and matches(case["expect"], out):
                    passed += 1
                else:
                    failed += 1
                    what = f"expected {json.dumps(case.get('expect'), ensure_ascii=False)}" if case else "not a case (its error is the line above)"
                    print(f"FAIL {case.get('id', f'{path}:{n}')}: {what}", file=stdout)
    if check:
        print(f"{passed} passed, {failed} failed", file=stdout)
    return 1 if unreadable or (check and (failed or not passed)) else 0  # a check of no case checked nothing
