"""A JSON Schema compiled to plain Python closures: the yes/no answer of the table's schemas, fast.

``jsonschema`` walks a schema anew for every instance (about 170 µs for an ``observed`` payload
here); the table service decodes every input on its one worker thread, so it asks this first and
only asks ``jsonschema`` to explain a payload that fails. :func:`compile_schema` takes a schema with
its references already resolved (``protocol._bundle``) and understands the keywords the contract
uses; any other keyword raises :class:`Unsupported`, and the caller keeps ``jsonschema``. The tests
compare its verdict with ``jsonschema``'s on the schemas' examples and on generated payloads.

>>> ok = compile_schema({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}},
...                      "required": ["n"], "additionalProperties": False})
>>> ok({"n": 2}), ok({"n": 2.0}), ok({"n": True}), ok({"n": 0}), ok({"n": 1, "x": 0}), ok([])
(True, True, False, False, False, False)
>>> compile_schema({"unevaluatedProperties": False})
Traceback (most recent call last):
...
bus.fastcheck.Unsupported: unevaluatedProperties
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

# Keywords that say nothing about validity.
_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "examples",
                          "default", "contentEncoding", "contentMediaType", "deprecated", "readOnly", "writeOnly"})


class Unsupported(ValueError):
    """The schema uses a keyword this compiler does not know; validate it with ``jsonschema``."""


def _is_type(kind: str) -> Check:
    return {
        "object": lambda x: isinstance(x, dict),
        "array": lambda x: isinstance(x, list),
        "string": lambda x: isinstance(x, str),
        "boolean": lambda x: isinstance(x, bool),
        "null": lambda x: x is None,
        "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
        "integer": lambda x: (isinstance(x, int) and not isinstance(x, bool))
        or (isinstance(x, float) and math.isfinite(x) and x.is_integer()),
    }[kind]


def _json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON means it: ``true`` is not ``1``, ``1`` is ``1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b or (_number(a) and _number(b) and a == b)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def compile_schema(schema: Any, pattern: Callable[[str], re.Pattern[str]] = re.compile) -> Check:
    """A function telling whether an instance is valid against ``schema`` (no ``$ref`` in it).

    ``pattern`` compiles a ``pattern`` keyword (the protocol passes its ECMA-262 reading)."""
    if schema is True or schema == {}:
        return lambda x: True
    if schema is False:
        return lambda x: False
    if not isinstance(schema, dict):
        raise Unsupported(f"schema {schema!r}")
    checks: list[Check] = []
    unknown = set(schema) - _ANNOTATIONS - set(_KEYWORDS)
    if unknown:
        raise Unsupported(", ".join(sorted(unknown)))
    for key, value in schema.items():
        if key in _KEYWORDS:
            made = _KEYWORDS[key](value, schema, pattern)
            if made is not None:
                checks.append(made)
    if len(checks) == 1:
        return checks[0]
    return lambda x: all(c(x) for c in checks)


def _type(value: Any, schema: dict, pattern: Any) -> Check:
    kinds = [_is_type(k) for k in ([value] if isinstance(value, str) else value)]
    return lambda x: any(k(x) for k in kinds)


def _enum(value: list, schema: dict, pattern: Any) -> Check:
    if all(isinstance(v, str) for v in value):
        names = frozenset(value)
        return lambda x: isinstance(x, str) and x in names
    return lambda x: any(_json_equal(x, v) for v in value)


def _const(value: Any, schema: dict, pattern: Any) -> Check:
    return lambda x: _json_equal(x, value)


def _properties(value: dict, schema: dict, pattern: Any) -> Check:
    props = {k: compile_schema(v, pattern) for k, v in value.items()}
    return lambda x: not isinstance(x, dict) or all(props[k](x[k]) for k in props if k in x)


def _required(value: list, schema: dict, pattern: Any) -> Check:
    return lambda x: not isinstance(x, dict) or all(k in x for k in value)


def _additional(value: Any, schema: dict, pattern: Any) -> Check:
    if schema.get("patternProperties"):
        raise Unsupported("patternProperties")
    known = frozenset(schema.get("properties", {}))
    extra = compile_schema(value, pattern)
    return lambda x: not isinstance(x, dict) or all(extra(v) for k, v in x.items() if k not in known)


def _items(value: Any, schema: dict, pattern: Any) -> Check:
    if "prefixItems" in schema:
        raise Unsupported("prefixItems")
    item = compile_schema(value, pattern)
    return lambda x: not isinstance(x, list) or all(item(v) for v in x)


def _bound(test: Callable[[Any, Any], bool], applies: Check) -> Callable[[Any, dict, Any], Check]:
    return lambda value, schema, pattern: (lambda x: not applies(x) or test(x, value))


def _unique(value: bool, schema: dict, pattern: Any) -> Check | None:
    if not value:
        return None
    return lambda x: not isinstance(x, list) or all(
        not _json_equal(a, b) for i, a in enumerate(x) for b in x[i + 1 :]
    )


def _pattern(value: str, schema: dict, pattern: Callable[[str], re.Pattern[str]]) -> Check:
    regex = pattern(value)
    return lambda x: not isinstance(x, str) or regex.search(x) is not None


def _all_of(value: list, schema: dict, pattern: Any) -> Check:
    parts = [compile_schema(v, pattern) for v in value]
    if len(parts) == 1:
        return parts[0]
    return lambda x: all(p(x) for p in parts)


def _if(value: Any, schema: dict, pattern: Any) -> Check:
    test = compile_schema(value, pattern)
    then = compile_schema(schema.get("then", True), pattern)
    other = compile_schema(schema.get("else", True), pattern)
    return lambda x: then(x) if test(x) else other(x)


_KEYWORDS: dict[str, Callable[[Any, dict, Any], Check | None]] = {
    "type": _type,
    "enum": _enum,
    "const": _const,
    "properties": _properties,
    "required": _required,
    "additionalProperties": _additional,
    "items": _items,
    "uniqueItems": _unique,
    "pattern": _pattern,
    "allOf": _all_of,
    "if": _if,
    "then": lambda value, schema, pattern: None,  # read by "if"
    "else": lambda value, schema, pattern: None,
    "minItems": _bound(lambda x, n: len(x) >= n, lambda x: isinstance(x, list)),
    "maxItems": _bound(lambda x, n: len(x) <= n, lambda x: isinstance(x, list)),
    "minLength": _bound(lambda x, n: len(x) >= n, lambda x: isinstance(x, str)),
    "maxLength": _bound(lambda x, n: len(x) <= n, lambda x: isinstance(x, str)),
    "minProperties": _bound(lambda x, n: len(x) >= n, lambda x: isinstance(x, dict)),
    "maxProperties": _bound(lambda x, n: len(x) <= n, lambda x: isinstance(x, dict)),
    "minimum": _bound(lambda x, n: x >= n, _number),
    "maximum": _bound(lambda x, n: x <= n, _number),
    "exclusiveMinimum": _bound(lambda x, n: x > n, _number),
    "exclusiveMaximum": _bound(lambda x, n: x < n, _number),
}

__all__ = ["compile_schema", "Unsupported", "Check"]
