"""``cardtable judge``: answer rules questions written as JSON lines.

The case format is ``shared/conformance/README.md``. Each line gets one answer line
``{"id": ..., "result": ...}``, or ``{"id": ..., "error": "..."}`` for malformed
input; ``--check`` compares answers with ``expect`` and ends with ``N passed, M failed``.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Iterable, TextIO

from referee.cards import CardError
from referee.climbing.combos import ClimbError
from referee.rulebooks import RulebookError
from referee.tractor.hand import HandError

Op = Callable[[dict[str, Any]], Any]


class CaseError(ValueError):
    """A malformed case: a missing field, a play not in the hand, a wrong number of cards."""


def _games() -> dict[str, dict[str, Op]]:
    from referee.climbing.ops import GUANDAN, SANDAYI
    from referee.tractor.ops import OPS as tractor

    return {"tractor": tractor, "guandan": GUANDAN, "sandayi": SANDAYI}


def answer(case: dict[str, Any]) -> dict[str, Any]:
    """The answer line for one case."""
    out: dict[str, Any] = {"id": case.get("id")}
    try:
        ops = _games().get(case.get("game"))
        if ops is None:
            raise CaseError(f"unknown game {case.get('game')!r}")
        op = ops.get(case.get("op"))
        if op is None:
            raise CaseError(f"unknown op {case.get('op')!r} for {case.get('game')}")
        out["result"] = op(case)
    except (CaseError, CardError, RulebookError, HandError, ClimbError) as exc:
        out["error"] = str(exc)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        out["error"] = f"malformed case: {type(exc).__name__}: {exc}"
    except Exception as exc:  # one bad case never stops the run
        out["error"] = f"internal error: {type(exc).__name__}: {exc}"
    return out


def matches(expect: Any, out: dict[str, Any]) -> bool:
    if isinstance(expect, dict) and expect.get("error") is True:
        return "error" in out
    return "result" in out and out["result"] == expect


def run(paths: Iterable[str], check: bool, stdout: TextIO | None = None) -> int:
    """Answer every case of the files; with ``check`` return 1 when any answer misses its ``expect``."""
    stdout = stdout or sys.stdout
    passed = failed = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    case = json.loads(line)
                    if not isinstance(case, dict):
                        raise ValueError("a case is a JSON object")
                except ValueError as exc:
                    case, out = {}, {"id": None, "error": f"{path}:{n}: not a JSON object: {exc}"}
                else:
                    out = answer(case)
                print(json.dumps(out, ensure_ascii=False), file=stdout)
                if check:
                    if "expect" in case and matches(case["expect"], out):
                        passed += 1
                    else:
                        failed += 1
                        print(f"FAIL {case.get('id')}: expected {json.dumps(case.get('expect'), ensure_ascii=False)}", file=stdout)
    if check:
        print(f"{passed} passed, {failed} failed", file=stdout)
        return 1 if failed else 0
    return 0
