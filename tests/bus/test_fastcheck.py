"""The compiled schemas (bus/fastcheck.py) answer exactly as jsonschema does."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bus.fastcheck import Unsupported, compile_schema
from bus.protocol import TOPICS, _fast_check, _validator, schema

values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["S9", "BJ", "SX", "E", "ready", "t1", "", "classic-3deck", "S9\n", "confirm", "flag"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)


def _paths(node, path=()):
    """Every place in a payload where a value could be replaced."""
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


def _replace(node, path, value):
    if not path:
        return value
    out = copy.deepcopy(node)
    at = out
    for key in path[:-1]:
        at = at[key]
    at[path[-1]] = value
    return out


@pytest.mark.parametrize("name", TOPICS)
def test_every_topic_has_a_fast_check(name):
    assert _fast_check(name) is not None


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(TOPICS), st.data())
def test_same_verdict_as_jsonschema_on_mutated_examples(name, data):
    example = data.draw(st.sampled_from(schema(name)["examples"]))
    path = data.draw(st.sampled_from(list(_paths(example))))
    payload = _replace(example, path, data.draw(values))
    if data.draw(st.booleans()) and isinstance(payload, dict) and payload:
        payload.pop(data.draw(st.sampled_from(sorted(payload))))
    assert _fast_check(name)(payload) == _validator(name).is_valid(payload), payload


@pytest.mark.parametrize(
    ("value", "instance", "valid"),
    [
        ({"enum": [1]}, True, False),  # true is not 1
        ({"enum": [1]}, 1.0, True),  # 1.0 is 1
        ({"const": [1, "a"]}, [1.0, "a"], True),
        ({"type": "integer"}, 3.5, False),
        ({"uniqueItems": True}, [1, True], True),
        ({"uniqueItems": True}, [{"a": 1}, {"a": 1.0}], False),
        ({"if": {"const": 1}, "then": {"type": "integer"}, "else": {"type": "string"}}, 2, False),
        ({"pattern": "^S$"}, "S", True),
        ({"maxLength": 2}, "汉字", True),
    ],
)
def test_json_semantics(value, instance, valid):
    assert compile_schema(value)(instance) is valid


def test_unknown_keywords_are_refused_not_ignored():
    for bad in ({"oneOf": [{}]}, {"patternProperties": {}, "additionalProperties": False}, {"$ref": "#/x"}):
        with pytest.raises(Unsupported):
            compile_schema(bad)
