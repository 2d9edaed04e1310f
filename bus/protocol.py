"""The MQTT contract of the tables as code: topics and payloads.

Everything under ``cardtable/v1/tables/{table}/``; ``bus/PROTOCOL.md`` is the
same contract for people. Each payload is a JSON object with ``"v": 1`` and has a
JSON Schema (draft 2020-12) in ``schemas/<name>.json`` (``/`` written ``_``); the
shared pieces (card, seat, time, ...) are in ``schemas/defs.json``. :func:`decode`
checks a payload against its schema, then what a schema cannot say (a card more
often than any rulebook's decks hold, an unknown rulebook); :func:`encode` checks the
same before anything goes out. A bad payload raises :class:`PayloadError`, a
``ValueError`` whose message names the field.

>>> topic("t07", "board/in")
'cardtable/v1/tables/t07/board/in'
>>> parse_topic("cardtable/v1/tables/t07/board/in")
('t07', 'board/in')
>>> decode("board/in", b'{"v":1,"id":"b-1","seat":"N","button":"ready","at":12.5}')["button"]
'ready'
>>> decode("observed", '{"v":1,"id":"c-1","seat":"E","cards":["S9","SX"],"confidence":0.9,"at":3}')
Traceback (most recent call last):
...
bus.protocol.PayloadError: observed: 'cards'[1]: 'SX' is not a card
>>> decode("commands", {"v": 1, "id": "k-1", "command": "confirm"})
Traceback (most recent call last):
...
bus.protocol.PayloadError: commands: 'flag' is missing
>>> encode("status", {"v": 1, "status": "offline"})
b'{"v":1,"status":"offline"}'
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from bus.fastcheck import Unsupported, compile_schema
from referee import rulebooks
from referee.cards import CardError, Cards
from referee.catalogue.sentences import Sentences
from referee.reasons import Reason

VERSION = 1
PREFIX = f"cardtable/v{VERSION}/tables/"
INPUTS = ("observed", "removed", "board/in", "commands")
OUTPUTS = ("board/out", "state", "events", "violations", "status", "health")
# Published beside the flow: the camera's kept frames, for the console; the camera's presence (does it still see
# the table?) and the board bridge's (is the table board answering?).
ATTACHMENTS = ("frames", "camera/status", "board/status")
# The attachments the table service heeds: while its camera sees no table or its board does not answer, the
# table's shot clocks stop (the service logs each change of a device's presence as a ``presence`` entry).
HEEDED = ("camera/status", "board/status")
TOPICS = INPUTS + OUTPUTS + ATTACHMENTS
# Every message goes at QoS 1 (at least once: inputs are applied once by their id,
# outputs carry seq or are whole snapshots). Retained: the latest state, status, health and
# display, so a subscriber that connects late sees the table as it is. Inputs are never retained.
QOS = {name: 1 for name in TOPICS}
RETAINED = frozenset({"state", "status", "health", "board/out", "camera/status", "board/status"})
# The service takes each sender's inputs on a broker session of their own (its user ``table-{table}``
# with the suffix), so a sender that floods fills only its own queue: the console's commands and
# the camera's plays never wait, nor are dropped, behind a flooding board.
INTAKE = {"": ("commands",), "-camera": ("observed", "removed"), "-board": ("board/in",)}
MAX_BYTES = 256 * 1024  # no payload of the contract comes near this

SCHEMA_DIR = Path(__file__).parent / "schemas"
_TABLE = re.compile(r"[A-Za-z0-9_-]{1,32}")


class PayloadError(ValueError):
    """A payload that is not JSON, breaks its schema, or cannot be true.

    ``topic`` is the topic name, ``field`` the path of the offending field (a list of
    keys and indexes, empty for the whole payload), ``str(error)`` the full message in the
    words of the logs (English), ``why`` the same as a reason of the catalogue's ``reason.payload``
    section (which field, what it should be), said in a reader's language by :meth:`text`; a
    ``rejected`` event carries it as its ``why``.

    >>> e = PayloadError("observed", "'seat': 'X' is not a seat", ["seat"], why=Reason("payload.missing", where=("seat",)))
    >>> e.text("zh"), e.text("en")
    ('缺少字段 `seat`', 'field `seat` is missing')
    """

    def __init__(self, topic: str, message: str, field: list[str | int] | None = None, *, why: Reason, column: int = 0):
        self.topic = topic
        self.field = list(field or [])
        self.why = why
        self.column = column  # of a text that is no JSON, the column its reading stopped at (1 on); 0 otherwise
        super().__init__(f"{topic}: {message}")

    def text(self, lang: str) -> str:
        """What was wrong, in ``lang`` (``zh`` or ``en``): a value of a refusal said in the reader's language."""
        return Sentences(lang).reason(self.why)


# ---------------------------------------------------------------- topics


def check_table(table: str) -> str:
    """Return ``table`` when it is a valid table id (``[A-Za-z0-9_-]{1,32}``); raise ValueError."""
    if not isinstance(table, str) or not _TABLE.fullmatch(table):
        raise ValueError(f"bad table id {table!r}: 1 to 32 of A-Z a-z 0-9 _ -")
    return table


def _check_name(name: str) -> str:
    if name not in TOPICS:
        raise ValueError(f"unknown topic name {name!r}; topics are {' '.join(TOPICS)}")
    return name


def topic(table: str, name: str) -> str:
    """The full topic of ``name`` (``observed``, ``board/in``, ...) at ``table``.

    >>> topic("hall-1_03", "state")
    'cardtable/v1/tables/hall-1_03/state'
    >>> topic("a/b", "state")
    Traceback (most recent call last):
    ...
    ValueError: bad table id 'a/b': 1 to 32 of A-Z a-z 0-9 _ -
    """
    return f"{PREFIX}{check_table(table)}/{_check_name(name)}"


def subscription(name: str = "#", table: str = "+") -> str:
    """A subscription filter: one topic of every table by default, ``#`` for all topics.

    >>> subscription("state"), subscription(table="t07")
    ('cardtable/v1/tables/+/state', 'cardtable/v1/tables/t07/#')
    """
    if table != "+":
        check_table(table)
    if name != "#":
        _check_name(name)
    return f"{PREFIX}{table}/{name}"


def parse_topic(full: str) -> tuple[str, str]:
    """``(table, name)`` of a full topic; ValueError for a topic outside the contract.

    >>> parse_topic("cardtable/v1/tables/t07/observed")
    ('t07', 'observed')
    >>> parse_topic("cardtable/v2/tables/t07/observed")
    Traceback (most recent call last):
    ...
    ValueError: not a cardtable v1 topic: 'cardtable/v2/tables/t07/observed'
    """
    if isinstance(full, str) and full.startswith(PREFIX):
        table, _, name = full[len(PREFIX) :].partition("/")
        if _TABLE.fullmatch(table) and name in TOPICS:
            return table, name
    raise ValueError(f"not a cardtable v{VERSION} topic: {full!r}")


# ---------------------------------------------------------------- schemas


def schema_path(name: str) -> Path:
    """The schema file of topic ``name``."""
    return SCHEMA_DIR / (_check_name(name).replace("/", "_") + ".json")


@cache
def _schema(name: str) -> dict[str, Any]:
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


def schema(name: str) -> dict[str, Any]:
    """A copy of topic ``name``'s JSON Schema (its ``examples`` hold a valid payload)."""
    return copy.deepcopy(_schema(name))


@cache
def _registry() -> Registry:
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@cache
def _ecma(pattern: str) -> re.Pattern[str]:
    """``pattern`` as JSON Schema reads it (ECMA-262): ``$`` is the end of the string.

    Python's ``$`` also matches before a final newline, so ``"SA\\n"`` would pass
    ``^SA$``; outside a character class each unescaped ``$`` becomes ``\\Z``.
    """
    out, escaped, in_class = [], False, False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "$" and not in_class:
            char = "\\Z"
        out.append(char)
    return re.compile("".join(out))


def _pattern(validator: Any, pattern: str, instance: Any, schema_: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not _ecma(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


_Validator = validators.extend(Draft202012Validator, {"pattern": _pattern})


@cache
def _validator(name: str) -> Draft202012Validator:
    contents = _schema(name)
    Draft202012Validator.check_schema(contents)
    return _Validator(contents, registry=_registry())


# Keywords whose values are schemas (one, a list, or a map of them): where a ``$ref`` can be.
_ONE = ("items", "contains", "additionalProperties", "unevaluatedProperties", "unevaluatedItems",
        "propertyNames", "not", "if", "then", "else")
_MANY = ("allOf", "anyOf", "oneOf", "prefixItems")
_MAP = ("properties", "patternProperties", "dependentSchemas", "$defs")


def _bundle(node: Any, base: str, docs: dict[str, Any], depth: int = 0) -> Any:
    """``node`` with every ``$ref`` replaced by what it points to (a sibling keyword kept next to
    it in an ``allOf``): the same schema, with no reference to look up while validating."""
    if depth > 64:
        raise RecursionError("the schemas refer to each other in a cycle")
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _ONE:
            out[key] = _bundle(value, base, docs, depth + 1)
        elif key in _MANY:
            out[key] = [_bundle(v, base, docs, depth + 1) for v in value]
        elif key in _MAP:
            out[key] = {k: _bundle(v, base, docs, depth + 1) for k, v in value.items()}
        elif key != "$ref":
            out[key] = value
    if "$ref" not in node:
        return out
    uri, fragment = urldefrag(urljoin(base, node["$ref"]))
    target = docs[uri]
    for part in fragment.split("/")[1:]:
        target = target[part.replace("~1", "/").replace("~0", "~")]
    target = _bundle(target, uri, docs, depth + 1)
    if not out:
        return target
    out["allOf"] = [target, *out.get("allOf", [])]
    return out


@cache
def _fast_check(name: str) -> Callable[[Any], bool] | None:
    """The yes/no answer of topic ``name``'s schema, fast: its references resolved once and, where
    :mod:`fastcheck` knows every keyword, compiled to closures (else a ``jsonschema`` validator of
    the bundle, 3 to 5 times faster than the schema with references); :func:`_validator` still
    explains a failure. None when the schemas cannot be bundled, or the answer disagrees with the
    schema's on an example."""
    try:
        docs = {}
        for path in sorted(SCHEMA_DIR.glob("*.json")):
            contents = json.loads(path.read_text(encoding="utf-8"))
            docs[contents["$id"]] = contents
        contents = _schema(name)
        bundle = _bundle(contents, contents["$id"], docs)
        try:
            check = compile_schema(bundle, _ecma)
        except Unsupported:
            check = _Validator(bundle).is_valid
        full = _validator(name)
        for example in contents.get("examples", []):
            if check(example) != full.is_valid(example):
                return None
        return check
    except (KeyError, TypeError, ValueError, RecursionError):
        return None


# ---------------------------------------------------------------- decode / encode


def decode(name: str, raw: bytes | bytearray | str | Mapping[str, Any]) -> dict[str, Any]:
    """Read and check one payload of topic ``name``; return it as a new dict.

    ``raw`` is the MQTT payload (UTF-8 JSON bytes), JSON text, or an already parsed
    object. Raises :class:`PayloadError` for anything that is not a valid payload,
    ValueError for an unknown topic name.
    """
    _check_name(name)
    value = _load(name, raw)
    if not isinstance(value, dict):
        raise PayloadError(name, f"the payload is {_json_kind(value)}, not an object", why=_not_object(value))
    fast = _fast_check(name)
    validator = _validator(name)
    errors = [] if fast is not None and fast(value) else list(validator.iter_errors(value))
    if errors:
        # A wrong or missing version explains everything else: name it first. A field
        # of a failing if/then branch counts as unevaluated too: report the branch's error.
        # Then a field that is wrong before one that should not be there at all.
        about_v = [e for e in errors if _concerns_version(e)]
        real = [e for e in errors if not _spurious(e, validator)]
        wrong = [e for e in real if e.validator not in _UNEXPECTED]
        raise _explain(name, best_match(about_v or wrong or real or errors), validator)
    _CHECKS.get(name, _no_check)(name, value)
    return value


def encode(name: str, payload: Mapping[str, Any], validate: bool = True) -> bytes:
    """The MQTT payload for ``payload`` on topic ``name``: checked like :func:`decode`,
    then compact UTF-8 JSON. Raises :class:`PayloadError` when it breaks the contract.

    ``validate=False`` skips the schema and the checks (the same bytes for a valid payload): for a
    sender whose payloads the tests check, like the table service's own outputs. It still refuses
    what is not a JSON object, not JSON data, or too big.
    """
    if not isinstance(payload, Mapping):
        raise PayloadError(_check_name(name), f"the payload is {_json_kind(payload)}, not an object",
                           why=_not_object(payload))
    if validate:
        value = decode(name, payload)
    else:
        _check_name(name)
        value = payload
    data = _dumps(name, value, separators=(",", ":")).encode("utf-8")
    if len(data) > MAX_BYTES:
        raise PayloadError(name, f"the payload is {len(data)} bytes; at most {MAX_BYTES}", why=_too_big(len(data)))
    return data


def peek_id(raw: Any) -> str | None:
    """The ``id`` of a payload when one can be read, even from an invalid payload; else None.

    For naming the input in a ``rejected`` event. Never raises.

    >>> peek_id(b'{"v":2,"id":"c-9"}'), peek_id(b'not json'), peek_id({"id": 5})
    ('c-9', None, None)
    """
    try:
        if isinstance(raw, (bytes, bytearray, memoryview)):
            raw = bytes(raw).decode("utf-8")
        if isinstance(raw, str):
            if len(raw) > MAX_BYTES:
                return None
            raw = json.loads(raw)
        found = raw.get("id") if isinstance(raw, Mapping) else None
    except Exception:  # noqa: BLE001 - best effort by design
        return None
    return found if isinstance(found, str) and 0 < len(found) <= 128 else None


def _dumps(name: str, value: Any, **options: Any) -> str:
    """JSON text of ``value``, or a :class:`PayloadError` saying why it is not JSON data."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, **options)
    except (TypeError, ValueError) as exc:
        raise PayloadError(name, f"the payload is not JSON data: {exc}", why=Reason("payload.not_json")) from None
    except RecursionError:
        raise PayloadError(name, "the payload is nested too deeply", why=Reason("payload.nested")) from None


def _load(name: str, raw: Any) -> Any:
    if isinstance(raw, (bytes, bytearray, memoryview)):
        data = bytes(raw)
        if len(data) > MAX_BYTES:
            raise PayloadError(name, f"the payload is {len(data)} bytes; at most {MAX_BYTES}", why=_too_big(len(data)))
        try:
            raw = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PayloadError(name, f"the payload is not UTF-8 (bad byte at {exc.start})",
                               why=Reason("payload.not_utf8", byte=exc.start)) from None
    elif not isinstance(raw, str):  # a parsed object: keep only what survives JSON, exactly as a message would
        raw = _dumps(name, raw)
    if len(raw) > MAX_BYTES:
        raise PayloadError(name, f"the payload is over {MAX_BYTES} bytes", why=_too_big(len(raw.encode("utf-8"))))
    return loads(name, raw)


def loads(name: str, raw: str) -> Any:
    """JSON ``raw`` read strictly, whatever its size: a key given twice (``payload.twice``) or a number JSON has not
    (``NaN``, ``Infinity``, ``1e999``: ``payload.number``) is a :class:`PayloadError`, as what is no JSON is; Python's
    reader took the last of the keys and such numbers. The bus's payloads and the console's bodies are read so.

    >>> loads("x", '{"n": 1e999}')
    Traceback (most recent call last):
    ...
    bus.protocol.PayloadError: x: the number 1e999 is out of range
    """
    try:
        return json.loads(
            raw,
            object_pairs_hook=lambda pairs: _object(name, pairs),
            parse_constant=lambda word: _no_constant(name, word),
            parse_float=lambda text: _finite(name, text),
        )
    except PayloadError:
        raise
    except json.JSONDecodeError as exc:
        raise PayloadError(
            name,
            f"the payload is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
            why=Reason("payload.not_json"),
            column=exc.colno,
        ) from None
    except ValueError:  # a whole number of more digits than Python reads (sys.get_int_max_str_digits)
        raise PayloadError(name, "a whole number has too many digits to read", why=Reason("payload.long_number")) from None
    except RecursionError:
        raise PayloadError(name, "the payload is nested too deeply", why=Reason("payload.nested")) from None


def _object(name: str, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise PayloadError(name, f"field {key!r} appears twice", [key], why=Reason("payload.twice", where=(key,)))
        out[key] = value
    return out


def _no_constant(name: str, word: str) -> float:
    raise PayloadError(name, f"{word} is not a JSON number", why=Reason("payload.number", value=word))


def _finite(name: str, text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise PayloadError(name, f"the number {text[:20]} is out of range", why=Reason("payload.number", value=text[:20]))
    return number


def _json_type(value: Any) -> str:
    """The JSON type of a parsed value (``object``, ``array``, ``string``, ``number``, ``boolean``, ``null``)."""
    if isinstance(value, bool) or value is None:
        return "boolean" if value is not None else "null"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}.get(type(value), "other")


def _json_kind(value: Any) -> str:
    return _TYPE_WORDS.get(_json_type(value), "not JSON")


# ---------------------------------------------------------------- error messages

_UNEXPECTED = ("additionalProperties", "unevaluatedProperties")
_TYPE_WORDS = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "number": "a number",
    "integer": "an integer",
    "boolean": "true or false",
    "null": "null",
}


def _concerns_version(error: ValidationError) -> bool:
    path = list(error.absolute_path)
    if path[:1] == ["v"]:
        return True
    return (
        not path
        and error.validator == "required"
        and isinstance(error.instance, dict)
        and "v" not in error.instance
    )


def _spurious(error: ValidationError, validator: Draft202012Validator) -> bool:
    """An ``unevaluatedProperties`` error that names only fields a matching branch allows."""
    if error.validator != "unevaluatedProperties" or not isinstance(error.instance, dict):
        return False
    allowed = _allowed_keys(error.schema, error.instance, validator)
    return all(key in allowed for key in error.instance)


def _where(path: list[str | int]) -> str:
    """``['cards', 1]`` -> ``'cards'[1]``; ``['seats', 'S', 'clock']`` -> ``'seats'['S']['clock']``."""
    out = ""
    for i, part in enumerate(path):
        out += f"[{part}]" if isinstance(part, int) else (repr(part) if i == 0 else f"[{part!r}]")
    return out


def _show(value: Any) -> str:
    text = json.dumps(value) if value is None or isinstance(value, bool) else repr(value)
    return text if len(text) <= 48 else text[:45] + "..."


def _allowed_keys(schema_: Mapping[str, Any], instance: Any, validator: Draft202012Validator) -> set[str]:
    """The properties a schema evaluates on ``instance``, counting ``if``/``then`` branches that apply."""
    keys = set(schema_.get("properties", {}))
    for sub in schema_.get("allOf", []):
        if "if" in sub and validator.evolve(schema=sub["if"]).is_valid(instance):
            keys |= set(sub.get("then", {}).get("properties", {}))
    return keys


def _explain(name: str, error: ValidationError, validator: Draft202012Validator) -> PayloadError:
    """jsonschema's error as the logs' words and, for a person, a reason of the catalogue's ``reason.payload``
    section: one sentence per kind of check (``error.validator``), naming the field by its path and saying what
    it should be (the schema's title, its types, its values, its bound)."""
    path = list(error.absolute_path)
    where = _where(path)
    subject = where or "the payload"
    prefix = f"{where}: " if where else ""
    kind, value, instance = error.validator, error.validator_value, error.instance
    schema_ = error.schema if isinstance(error.schema, Mapping) else {}
    title = schema_.get("title")
    at, shown = tuple(path), _text(instance)

    def refused(message: str, why: Reason, field: list[str | int] = path) -> PayloadError:
        return PayloadError(name, message, field, why=why)

    if kind == "required":
        missing = next(k for k in value if k not in instance)
        return refused(f"{_where(path + [missing])} is missing", Reason("payload.missing", where=(*at, missing)),
                       path + [missing])
    if kind in _UNEXPECTED:
        allowed = _allowed_keys(schema_, instance, validator)
        extra = next((k for k in instance if k not in allowed), None)
        if extra is not None:
            return refused(f"{prefix}unexpected field {extra!r}", Reason("payload.unexpected", where=(*at, extra)),
                           path + [extra])
    elif title and kind in ("type", "enum", "const", "pattern"):
        return refused(f"{prefix}{_show(instance)} is not a {title}",
                       Reason("payload.not_a", where=at, value=shown, thing=_thing(title)))
    elif kind == "type":
        types = [value] if isinstance(value, str) else list(value)
        words = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
        return refused(f"{prefix}{_show(instance)} is not {words}",
                       Reason("payload.wrong_type", where=at, value=shown, json=tuple(types)))
    elif kind == "enum":
        return refused(f"{prefix}{_show(instance)} is not one of {', '.join(map(repr, value))}",
                       Reason("payload.not_one_of", where=at, value=shown, allowed=tuple(_text(v) for v in value)))
    elif kind == "const":
        return refused(f"{prefix}{_show(instance)} should be {value!r}",
                       Reason("payload.should_be", where=at, value=shown, allowed=_text(value)))
    elif kind == "minLength":
        if value == 1:
            return refused(f"{subject} is empty", Reason("payload.empty", where=at))
        return refused(f"{subject} is shorter than {value}", Reason("payload.short", where=at, limit=value))
    elif kind == "maxLength":
        return refused(f"{subject} is longer than {value} characters", Reason("payload.long", where=at, limit=value))
    elif kind == "minItems":
        if value == 1:
            return refused(f"{subject} is empty", Reason("payload.empty", where=at))
        return refused(f"{subject} has fewer than {value} items", Reason("payload.few", where=at, limit=value))
    elif kind == "maxItems":
        return refused(f"{subject} has more than {value} items", Reason("payload.many", where=at, limit=value))
    elif kind in ("minimum", "exclusiveMinimum"):
        return refused(f"{prefix}{_show(instance)} is below {value}",
                       Reason("payload.below", where=at, value=shown, limit=value))
    elif kind in ("maximum", "exclusiveMaximum"):
        return refused(f"{prefix}{_show(instance)} is above {value}",
                       Reason("payload.above", where=at, value=shown, limit=value))
    elif kind == "uniqueItems":
        return refused(f"{subject} repeats an item", Reason("payload.repeats", where=at))
    elif kind is None or kind == "false":
        return refused(f"{subject} is not allowed here", Reason("payload.not_allowed", where=at))
    return refused(f"{prefix}{error.message}", Reason("payload.malformed", where=at, value=shown))


def _text(value: Any) -> str:
    """A value of a payload as JSON writes it, cut to 40 characters: for a person to find it in the message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _thing(title: str) -> str:
    """A schema's title as a word of the catalogue's ``thing`` section: ``seat (S E N W)`` -> ``seat``."""
    return re.sub(r"[^a-z0-9]+", "_", re.split(r" \(|,", title)[0].lower()).strip("_")


def _not_object(value: Any) -> Reason:
    return Reason("payload.not_object", json=_json_type(value))


def _too_big(size: int) -> Reason:
    return Reason("payload.too_big", size=size, limit=MAX_BYTES)


# ---------------------------------------------------------------- what a schema cannot say


@cache
def _limits() -> tuple[int, int]:
    """(most decks, most cards one seat can hold) over every rulebook on disk."""
    decks = hold = 0
    for book in rulebooks.names():
        deal = rulebooks.load(book).deal
        get = deal.get if isinstance(deal, Mapping) else lambda key, d=deal: getattr(d, key)
        decks = max(decks, int(get("decks")))
        hold = max(hold, int(get("hand_size")) + int(get("kitty")))
    return decks, hold


def _check_cards(name: str, cards: list[str], field: list[str | int]) -> None:
    try:
        parsed = Cards.parse(cards)
    except CardError as exc:  # the schema's pattern already allows canonical names only
        raise PayloadError(name, f"{_where(field)}: {exc}", field,
                           why=Reason("payload.in_field", where=tuple(field), why=exc.reason)) from None
    decks, hold = _limits()
    if len(parsed) > hold:
        raise PayloadError(
            name, f"{_where(field)}: {len(parsed)} cards, but no seat ever holds more than {hold}", field,
            why=Reason("payload.too_many_cards", where=tuple(field), n=len(parsed), limit=hold),
        )
    for card in parsed.distinct():
        if parsed.count(card) > decks:
            raise PayloadError(
                name,
                f"{_where(field)}: {card} appears {parsed.count(card)} times, "
                f"but no rulebook plays with more than {decks} decks",
                field,
                why=Reason("payload.in_field", where=tuple(field),
                           why=Reason("cards.too_many", card=card, n=parsed.count(card), decks=decks)),
            )


def _check_observed(name: str, value: dict[str, Any]) -> None:
    _check_cards(name, value["cards"], ["cards"])


def _check_command(name: str, value: dict[str, Any]) -> None:
    if "cards" in value:
        _check_cards(name, value["cards"], ["cards"])
    if value["command"] == "assign":
        known = rulebooks.names()
        if value["rulebook"] not in known:
            raise PayloadError(
                name,
                f"'rulebook': unknown rulebook {value['rulebook']!r}; known: {', '.join(sorted(known))}",
                ["rulebook"],
                why=Reason("payload.unknown_rulebook", rulebook=value["rulebook"], known=tuple(sorted(known))),
            )
        seats: dict[str, list[str]] = {}
        for seat, player in value["players"].items():
            seats.setdefault(player, []).append(seat)
        for player, where in seats.items():
            if len(where) > 1:
                raise PayloadError(
                    name, f"'players': {player!r} is seated twice ({' and '.join(where)})", ["players"],
                    why=Reason("payload.seated_twice", player=player, seats=tuple(where)),
                )


def _no_check(name: str, value: dict[str, Any]) -> None:
    return None


_CHECKS = {"observed": _check_observed, "commands": _check_command}

__all__ = [
    "INPUTS",
    "HEEDED",
    "INTAKE",
    "MAX_BYTES",
    "OUTPUTS",
    "PREFIX",
    "QOS",
    "RETAINED",
    "TOPICS",
    "VERSION",
    "PayloadError",
    "check_table",
    "decode",
    "encode",
    "loads",
    "parse_topic",
    "peek_id",
    "schema",
    "schema_path",
    "subscription",
    "topic",
]
