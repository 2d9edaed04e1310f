"""README.md's settings tables, written from the schema so that the two never drift apart.

Each table sits between ``<!-- settings MODULE.CLASS -->`` and ``<!-- end settings -->`` (the
section :class:`referee.rulebooks.MODULE.CLASS`; ``<!-- settings MODULE.CLASS KEY KEY -->`` for some
of its settings): one row per setting, its key, what the file may hold (from its type, and its
default) and what it means (from its :func:`~referee.rulebooks.settings.setting`).
``python -m referee.rulebooks.readme`` rewrites the tables; ``--check`` only says whether they match.

>>> from referee.rulebooks.tractor import Declare
>>> print(table(Declare).splitlines()[3])
| `overturn` | "more" | `more`: an overturn shows more identical level cards than the standing declaration |
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import sys
from collections.abc import Mapping
from pathlib import Path

from referee.rulebooks import settings
from referee.rulebooks.settings import describe, fields, show

README = Path(__file__).with_name("README.md")
MARKED = re.compile(r"(<!-- settings (?P<name>[\w.]+)(?P<keys>(?: \w+)*) -->\n).*?(<!-- end settings -->)", re.S)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(section: type, keys: list[str] | None = None) -> str:
    """The section's settings (or those of ``keys``) as a Markdown table (a setting whose value is a
    section is left to its own table)."""
    rows = ["| setting | values | meaning |", "| --- | --- | --- |"]
    for key, _, t, f in fields(section):
        if dataclasses.is_dataclass(t) and not hasattr(t, "parse") or keys and key not in keys:
            continue
        values = describe(t)
        default = settings.default(f)
        default = dict(default) if isinstance(default, Mapping) else default
        if isinstance(default, float) and default.is_integer():
            default = int(default)
        if default is not dataclasses.MISSING and "left out:" not in f.metadata["doc"]:
            values += f"; left out: {'none' if default is None else show(list(default) if isinstance(default, tuple) else default)}"
        rows.append(f"| `{key}` | {_cell(values)} | {_cell(settings.meaning(section, key, 'en'))} |")
    return "\n".join(rows) + "\n"


def section(name: str) -> type:
    """The class a marker names (``tractor.Deal``: :class:`referee.rulebooks.tractor.Deal`)."""
    module, _, cls = name.rpartition(".")
    return getattr(importlib.import_module(f"referee.rulebooks.{module}"), cls)


def written(text: str) -> str:
    """``text`` (README.md) with every marked table written from the schema."""
    return MARKED.sub(lambda m: m.group(1) + table(section(m.group("name")), m.group("keys").split()) + m.group(4), text)


def marked(text: str) -> list[tuple[str, list[str]]]:
    """The tables README.md has, in its order: each section's name and the keys it shows (``[]``: all)."""
    return [(m.group("name"), m.group("keys").split()) for m in MARKED.finditer(text)]


def main(argv: list[str]) -> int:
    text = README.read_text(encoding="utf-8")
    new = written(text)
    if "--check" in argv:
        if new != text:
            print(f"{README}: its settings tables differ from the schema; run python -m referee.rulebooks.readme", file=sys.stderr)
            return 1
        return 0
    if new != text:
        README.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
