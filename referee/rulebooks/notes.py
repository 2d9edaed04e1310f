"""A rulebook file's notes: the comments that cite, beside each setting, the seed article it comes from.

A setting's note is the comment on its own line (a table's, on its header line), else the comments inside its value
where the value runs over several lines (one per item), else the block of comment lines above it: a block holds for
the settings that follow it until a blank line, a table's header or the next block (the file's head, above its
first table, is about the whole book: no setting's note). A book that ``extends`` another
has that book's notes for what it does not set itself (what it sets has its own note, or none).

>>> n = notes("classic-3deck")
>>> n[("deal", "decks")], n[("clock", "lead_s")].startswith("二十三: 留底牌和首引不超过 60 秒, 领出不超过 15 秒")
('四: 3 副扑克（包含大、小鬼）', True)
>>> notes("sanjiang-2012-stage-two")[("stages", "one")][:12]
'规程 三 2: 第一阶段'
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from referee.catalogue import speaks

Key = tuple[str, ...]


def notes(rulebook_id: str, folder: Path | None = None) -> dict[Key, str]:
    """The note of each setting of ``<rulebook_id>.toml`` (and of the books it ``extends``), by its place in the file
    (``("clock", "lead_s")``); a setting without one is left out. The file is one that loads (:func:`settings_of`)."""
    from referee.rulebooks import HERE, home

    text = ((folder or HERE) / f"{rulebook_id}.toml").read_text(encoding="utf-8")
    found, base = _read(text), tomllib.loads(text).get("extends")
    below = notes(base, home(base, folder)) if isinstance(base, str) else {}
    return {k: v for k, v in (below | found).items() if v}


def _read(text: str) -> dict[Key, str]:
    """Every key the text sets, with its note ("" for none)."""
    found: dict[Key, str] = {}
    table: Key = ()
    block: list[str] = []
    lines = text.splitlines()
    i, after_comment = 0, False
    while i < len(lines):
        code, comment = _split(lines[i])
        i += 1
        if not code:
            block = ([*block, comment] if after_comment else [comment]) if comment else []
            after_comment = bool(comment)
            continue
        after_comment = False
        if code.startswith("["):
            table, block = _dotted(code.strip("[]")), []
            found[table] = comment
            continue
        key, _, value = code.partition("=")
        inner = []
        while _open(value) and i < len(lines):  # a value over several lines: the comments of its items
            more, note = _split(lines[i])
            value, i = value + more, i + 1
            inner += [note] if note else []
        found[table + _dotted(key)] = comment or "; ".join(inner) or (_joined(block) if table else "")
    return found


def _joined(lines: list[str]) -> str:
    """Comment lines as one text: a Chinese sentence broken over two lines is joined without a space."""
    out = ""
    for line in lines:
        out += "" if not out or speaks(out[-1], "zh") and speaks(line[0], "zh") else " "
        out += line
    return out


def _split(line: str) -> tuple[str, str]:
    """A line's code and its comment (a ``#`` outside quotes starts it)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c == "#":
            return line[:i].strip(), line[i + 1:].strip()
    return line.strip(), ""


def _dotted(key: str) -> Key:
    """A key's parts (``a."b.c"`` is ``("a", "b.c")``)."""
    return _parts(tomllib.loads(f"{key.strip()} = 0"))


def _parts(table: dict) -> Key:
    key, value = next(iter(table.items()))
    return (key, *_parts(value)) if isinstance(value, dict) else (key,)


def _open(value: str) -> bool:
    """Whether a value's brackets are still open at the end of what has been read (strings aside)."""
    depth, quote = 0, None
    for c in value:
        if quote:
            quote = None if c == quote else quote
        elif c in "\"'":
            quote = c
        else:
            depth += (c in "[{") - (c in "]}")
    return depth > 0


__all__ = ["notes"]
