"""Every sentence a person reads, in one catalogue per language: ``zh-CN.toml`` (Simplified Chinese, first) and
``en.toml``. The Python side (timelines, refusals, the console's lines, the command line) says things through
:func:`say`; the pages get the same entries (``display``'s ``/catalogue.js``), so no sentence is written twice.

The rules engines' reasons (``referee.reasons``: a key and values, never a sentence) are the ``reason`` section,
said by ``referee.catalogue.sentences``.

An entry is a dotted key (``event.trick_won``, ``kind.revoke``) and a template whose placeholders are
``{name}``; ``{{`` and ``}}`` write a brace. Both files are checked when they load: the same keys (but
``ONLY_ZH``: the seat board's words and the command line's help, Chinese only), the same placeholders key by key, no format specs.

>>> say("zh", "event.trick_won", trick=3, seat="南", points=20)
'第 3 圈 南 赢，20 分'
>>> say("en", "event.trick_won", trick=3, seat="S", points=20)
'trick 3 won by S, 20 points'
>>> say("en", "kind.revoke"), word("zh", "kind.no_such_kind")
('revoke', 'no_such_kind')
>>> say("zh", "event.trick_won", trick=3)
Traceback (most recent call last):
...
referee.catalogue.CatalogueError: event.trick_won: no value for {seat}
"""

from __future__ import annotations

import errno
import os
import re
import string
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

LANGS = ("zh", "en")
ENV_LANG = "CARDTABLE_LANG"  # the command line's language; ``cardtable --lang`` sets it for the process and its children
FILES = {"zh": "zh-CN.toml", "en": "en.toml"}
ONLY_ZH = ("board.", "help.", "option.", "setting.")  # the seat board shows Chinese only; the --help lines' English is the code's, a rulebook setting's meaning the schema's
HERE = Path(__file__).resolve().parent
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


class CatalogueError(ValueError):
    """A catalogue that does not load (a file, a key, a placeholder), or a sentence asked without its values."""


def _flat(table: Mapping, prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out |= _flat(value, path + ".")
        elif isinstance(value, str):
            out[path] = value
        else:
            raise CatalogueError(f"{path}: {value!r} is not a sentence (write it in quotes)")
    return out


def placeholders(key: str, template: str) -> frozenset[str]:
    """The names of ``template``'s placeholders; CatalogueError for a format spec, a conversion or a stray brace.

    >>> sorted(placeholders("x", "第 {hand} 盘第 {trick} 圈 {{}}"))
    ['hand', 'trick']
    >>> placeholders("x", "{s:.1f}")
    Traceback (most recent call last):
    ...
    referee.catalogue.CatalogueError: x: '{s:.1f}': write {name} only (no format spec, no conversion)
    """
    names = set()
    try:
        for _, name, spec, conversion in string.Formatter().parse(template):
            if name is None:
                continue
            if spec or conversion or not name.isidentifier():
                raise CatalogueError(f"{key}: {template!r}: write {{name}} only (no format spec, no conversion)")
            names.add(name)
    except ValueError as exc:
        if isinstance(exc, CatalogueError):
            raise
        raise CatalogueError(f"{key}: {template!r}: {exc}") from None
    return frozenset(names)


def load(path: Path) -> dict[str, str]:
    """One catalogue file, flattened to dotted keys; CatalogueError when it is not one."""
    try:
        entries = _flat(tomllib.loads(path.read_text(encoding="utf-8")))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CatalogueError(f"{path.name}: {exc}") from None
    for key, template in entries.items():
        placeholders(key, template)
    return entries


def check(catalogues: Mapping[str, Mapping[str, str]]) -> None:
    """Every language has every key (but ``ONLY_ZH``'s) with the same placeholders as the Chinese."""
    zh = catalogues["zh"]
    for lang, entries in catalogues.items():
        if lang == "zh":
            continue
        shared = {k for k in zh if not k.startswith(ONLY_ZH)}
        missing, extra = sorted(shared - entries.keys()), sorted(entries.keys() - shared)
        if missing or extra:
            raise CatalogueError(f"{FILES[lang]}: missing {missing[:8]}, not in {FILES['zh']} {extra[:8]}")
        for key in shared:
            a, b = placeholders(key, zh[key]), placeholders(key, entries[key])
            if a != b:
                raise CatalogueError(f"{key}: {FILES['zh']} has {sorted(a)}, {FILES[lang]} {sorted(b)}")


@cache
def catalogues() -> Mapping[str, Mapping[str, str]]:
    """Both catalogues, loaded and checked once."""
    loaded = {lang: load(HERE / FILES[lang]) for lang in LANGS}
    check(loaded)
    return MappingProxyType({lang: MappingProxyType(e) for lang, e in loaded.items()})


def entries(lang: str) -> Mapping[str, str]:
    """The catalogue of ``lang`` (``zh`` or ``en``; anything else reads Chinese)."""
    return catalogues()["en" if lang == "en" else "zh"]


def section(lang: str, name: str) -> dict[str, str]:
    """The entries of one section, by their last part: ``section("en", "seat")["S"] == "S"``."""
    prefix = name + "."
    return {k[len(prefix):]: v for k, v in entries(lang).items() if k.startswith(prefix)}


def has(lang: str, key: str) -> bool:
    return key in entries(lang)


def say(lang: str, key: str, **values: object) -> str:
    """The sentence ``key`` in ``lang`` with ``values``; CatalogueError for an unknown key or a missing value."""
    return fill(lang, key, values)


def fill(lang: str, key: str, values: Mapping[str, object]) -> str:
    """:func:`say` with the values in a mapping (one whose ``__missing__`` answers for absent values)."""
    template = entries(lang).get(key)
    if template is None:
        raise CatalogueError(f"{key}: not in the catalogue")
    try:
        return template.format_map(values)
    except KeyError as exc:
        raise CatalogueError(f"{key}: no value for {{{exc.args[0]}}}") from None


def word(lang: str, key: str, default: str | None = None) -> str:
    """A catalogue entry without placeholders; for a key it lacks, ``default`` or the key's last part (a kind
    the catalogue does not know yet is shown by its name, never hidden)."""
    found = entries(lang).get(key)
    if found is not None:
        return found
    return default if default is not None else key.rsplit(".", 1)[-1]


class Term:
    """A value that is itself a catalogue word, said in the sentence's language (a system's name, a command).

    >>> Term("system.pair-swiss").text("zh"), Term("system.pair-swiss").text("en")
    ('积分编排（双人对抗）', 'pair Swiss')
    """

    def __init__(self, key: str):
        self.key = key

    def __repr__(self) -> str:
        return f"Term({self.key!r})"

    def text(self, lang: str) -> str:
        return word(lang, self.key)


def said(value: object, lang: str) -> str:
    """A value as a sentence of ``lang`` shows it: a :class:`Refusal` or :class:`Term` in that language, the system's
    error (an ``OSError``) by its ``errno`` in the catalogue's words (``oserror.*``, else the system's own), SQLite's by
    its result code (``sqlite.*``, :data:`SQLITE`, else SQLite's own), a list
    joined by the language's list separator, anything else as ``str``.

    >>> said(IsADirectoryError(errno.EISDIR, "Is a directory"), "zh"), said(OSError(errno.EBADMSG, "Bad message"), "zh")
    ('是一个文件夹', 'Bad message')
    """
    if hasattr(value, "text"):
        return value.text(lang)
    key = error_key(value)
    if key is not None:
        return word(lang, key)
    if isinstance(value, OSError) and type(value).__module__ != "ssl":
        return value.strerror or str(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return word(lang, "word.list").join(said(v, lang) for v in value)
    return str(value)


def error_key(value: object) -> str | None:
    """The catalogue's entry that says an error: the system's (an ``OSError``) by its ``errno`` (``oserror.*``), SQLite's
    by its result code (``sqlite.*``, :data:`SQLITE`); None for another error, or one the catalogue does not say (a
    table service sends the key, ``health``'s ``problem_why``, for each reader to say in its language).

    >>> error_key(OSError(errno.ENOSPC, "No space left")), error_key(OSError(errno.EBADMSG, "Bad message")), error_key(3)
    ('oserror.ENOSPC', None, None)
    """
    if isinstance(value, OSError) and type(value).__module__ != "ssl":  # an ssl error's errno is OpenSSL's, not the system's
        key = f"oserror.{errno.errorcode.get(value.errno or 0, '')}"
    elif getattr(value, "sqlite_errorname", None):  # SQLite's error: by what it means for a person
        key = "sqlite." + SQLITE.get("_".join(value.sqlite_errorname.split("_")[:2]), "")  # SQLITE_BUSY_SNAPSHOT: SQLITE_BUSY
    else:
        return None
    return key if has("zh", key) else None


#: SQLite's result codes by what they mean for a person (the catalogue's ``[sqlite]``); another is said as SQLite's own.
SQLITE = {"SQLITE_BUSY": "locked", "SQLITE_LOCKED": "locked", "SQLITE_FULL": "full", "SQLITE_READONLY": "readonly",
          "SQLITE_PERM": "readonly", "SQLITE_CANTOPEN": "cantopen", "SQLITE_CORRUPT": "damaged",
          "SQLITE_NOTADB": "not_database", "SQLITE_IOERR": "io"}


class Refusal(ValueError):
    """A request that cannot be applied, said by the catalogue (``{section}.{key}`` with its values); nothing
    changes. The console shows it in the reader's language, the command line in ``--lang``'s; ``str()`` is the
    Chinese. A subclass names its ``section``.

    >>> e = Refusal("no_entry", entry="e07")
    >>> str(e), e.text("en"), e.key
    ('没有参赛编号 e07', 'no entry e07', 'refusal.no_entry')
    >>> Refusal("round_pairing", round=3, reason=Refusal("swiss_rounds")).text("en")
    'round 3: at least one round'
    """

    section = "refusal"

    def __init__(self, key: str, **values: object) -> None:
        self.key, self.values = f"{self.section}.{key}", values
        super().__init__(self.key)

    def __str__(self) -> str:
        return self.text("zh")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.key!r}, {self.values!r})"

    def text(self, lang: str) -> str:
        return fill(lang, self.key, {k: said(v, lang) for k, v in self.values.items()})


def cli_lang(environ: Mapping[str, str] = os.environ) -> str:
    """The language the command line speaks: ``$CARDTABLE_LANG`` (``zh`` or ``en``; a command's ``--lang`` sets
    it), else Chinese. The locale is not asked: a hall's server set up in English still speaks Chinese to its
    organisers.

    >>> cli_lang({}), cli_lang({"CARDTABLE_LANG": "en"}), cli_lang({"CARDTABLE_LANG": "zh", "LANG": "en_US.UTF-8"})
    ('zh', 'en', 'zh')
    >>> cli_lang({"LANG": "en_US.UTF-8"}), cli_lang({"CARDTABLE_LANG": "fr"})
    ('zh', 'zh')
    """
    chosen = environ.get(ENV_LANG, "").strip().lower()
    return chosen if chosen in LANGS else "zh"


def speaks(text: str, lang: str) -> bool:
    """Whether free text (a reason from a rules engine, a rulebook's note) is in ``lang``: Chinese holds Chinese
    characters, English none. A page shows such a text only in its own language.

    >>> speaks("第一次超时：警告", "zh"), speaks("S has no SK", "zh"), speaks("S has no SK", "en")
    (True, False, True)
    """
    return bool(_CJK.search(text)) == (lang != "en")


__all__ = ["ENV_LANG", "FILES", "LANGS", "CatalogueError", "Refusal", "Term", "said", "catalogues", "check", "cli_lang", "entries", "error_key", "fill",
           "has", "section", "load", "placeholders", "say", "speaks", "word"]
