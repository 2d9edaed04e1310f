"""The MQTT contract: topics, schemas, decode/encode and PROTOCOL.md, against the real schema files."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from bus import protocol
from bus.protocol import (
    ATTACHMENTS,
    INPUTS,
    OUTPUTS,
    QOS,
    RETAINED,
    TOPICS,
    PayloadError,
    decode,
    encode,
    parse_topic,
    peek_id,
    schema,
    schema_path,
    subscription,
    topic,
)

from referee.catalogue import entries, placeholders
from referee.catalogue.sentences import Sentences

PROTOCOL_MD = Path(protocol.__file__).parent / "PROTOCOL.md"


def example(name: str, index: int = 0) -> dict:
    return copy.deepcopy(schema(name)["examples"][index])


def examples() -> list[tuple[str, dict]]:
    return [(name, ex) for name in TOPICS for ex in schema(name)["examples"]]


def rejected(name: str, raw) -> PayloadError:
    with pytest.raises(PayloadError) as caught:
        decode(name, raw)
    assert str(caught.value).startswith(f"{name}: ")
    said_by_the_catalogue(caught.value)
    return caught.value


def said_by_the_catalogue(error: PayloadError) -> tuple[str, str]:
    """The refusal's ``why`` is a sentence of the catalogue's ``reason.payload`` (one per kind of check, not per field)
    with every value it names: Chinese with no English word but the message's own names and values (quoted in
    backticks or “”), English with no Chinese but what the message held."""
    why = error.why.json()
    key = f"reason.{why['key']}"
    assert why["key"].startswith("payload."), why
    for lang in ("zh", "en"):
        assert placeholders(key, entries(lang)[key]) == set(why["values"]), why
    zh, en = error.text("zh"), error.text("en")
    said = {lang: text for lang, text in (("zh", zh), ("en", en))}
    for value in sorted(map(str, why["values"].values()), key=len, reverse=True):
        if any(q in value for q in "`\"'“”"):  # a value holding a quote mark of its own is set aside whole
            zh, en = zh.replace(value, "…"), en.replace(value, "…")
    assert not re.findall(r"[A-Za-z]{3,}", re.sub(r"`[^`]*`|“[^”]*”", "", zh)), zh
    assert re.search(r"[\u4e00-\u9fff]", zh) and not re.search(r"[\u4e00-\u9fff]", re.sub(r"`[^`]*`|\"(?:[^\"\\]|\\.)*\"|(?<![A-Za-z])'[^']*'", "", en)), en
    # (an apostrophe inside a word, the protocol's, opens no quote: it took a value {"'": "一"} apart)
    return said["zh"], said["en"]


def test_every_title_and_json_type_of_the_schemas_has_its_words():
    """A value that is not what its schema's title says is refused naming the title's thing (``thing.*``), one that
    is not of its JSON type naming the type (``json.*``), in both languages."""
    titles, types = set(), set()

    def walk(node, root=False):
        if isinstance(node, dict):
            if isinstance(node.get("title"), str) and not root:
                titles.add(protocol._thing(node["title"]))
            if isinstance(node.get("type"), (str, list)):
                types.update([node["type"]] if isinstance(node["type"], str) else node["type"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted(protocol.SCHEMA_DIR.rglob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")), root=True)
    assert {"seat", "card", "message_id", "supported_version"} <= titles
    for lang in ("zh", "en"):
        assert {f"thing.{t}" for t in titles} <= set(entries(lang)), sorted(titles)
        assert {f"json.{t}" for t in types} <= set(entries(lang)), sorted(types)
    assert Sentences("zh").reason(rejected("observed", {**example("observed"), "seat": "X"}).why) == (
        "字段 `seat` 应为座位（`S` `E` `N` `W`），而不是 `\"X\"`")


# ---------------------------------------------------------------- topics


@pytest.mark.parametrize("name", TOPICS)
def test_topic_round_trip(name):
    full = topic("hall-1_t07", name)
    assert full == f"cardtable/v1/tables/hall-1_t07/{name}"
    assert parse_topic(full) == ("hall-1_t07", name)


@pytest.mark.parametrize("table", ["", "a" * 33, "a/b", "a+b", "#", "t 1", "t\n", "桌1", None, 7])
def test_bad_table_ids_are_refused(table):
    with pytest.raises(ValueError, match="bad table id"):
        topic(table, "state")


def test_longest_table_id_and_unknown_names():
    assert parse_topic(topic("A" * 32, "observed")) == ("A" * 32, "observed")
    with pytest.raises(ValueError, match="unknown topic name 'board'"):
        topic("t1", "board")


@pytest.mark.parametrize(
    "full",
    [
        "cardtable/v2/tables/t1/state",
        "cardtable/v1/tables/t1/",
        "cardtable/v1/tables/t1/board",
        "cardtable/v1/tables/t1/state/x",
        "cardtable/v1/tables//state",
        "cardtable/v1/tables/a+b/state",
        "cardtable/v1/tables/t1",
        "other/t1/state",
        "",
    ],
)
def test_parse_topic_refuses_foreign_topics(full):
    with pytest.raises(ValueError, match="not a cardtable v1 topic"):
        parse_topic(full)


def test_subscription_filters():
    assert subscription() == "cardtable/v1/tables/+/#"
    assert subscription("violations") == "cardtable/v1/tables/+/violations"
    assert subscription("board/out", "t07") == "cardtable/v1/tables/t07/board/out"
    with pytest.raises(ValueError):
        subscription("nope")


def test_qos_and_retained():
    assert set(QOS) == set(TOPICS) and set(QOS.values()) == {1}
    assert RETAINED == {"state", "status", "health", "board/out", "camera/status", "board/status"}
    assert set(INPUTS) | set(OUTPUTS) | set(ATTACHMENTS) == set(TOPICS) and not set(INPUTS) & set(OUTPUTS)


# ---------------------------------------------------------------- the schema files


def _numbers(node, where: str = "") -> list[tuple[str, dict]]:
    """Every schema in ``node`` that allows a number, with where it is."""
    found = []
    if isinstance(node, dict):
        kinds = node.get("type")
        kinds = [kinds] if isinstance(kinds, str) else kinds or []
        if {"number", "integer"} & set(kinds):
            found.append((where, node))
        for key, value in node.items():
            if key != "examples":
                found += _numbers(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _numbers(value, f"{where}/{i}")
    return found


SCHEMA_FILES = sorted(protocol.SCHEMA_DIR.glob("*.json")) + sorted((protocol.SCHEMA_DIR / "tournament").glob("*.json"))


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_number_of_every_schema_has_a_range(path):
    """A number with no bound passes the schema and breaks whatever reads it next (a 401-digit
    ``at`` passed, then could not be logged, and froze the table)."""
    for where, node in _numbers(json.loads(path.read_text())):
        assert {"minimum", "exclusiveMinimum"} & set(node) and {"maximum", "exclusiveMaximum"} & set(node), \
            f"{path.name}{where}: a number with no range"


@pytest.mark.parametrize("name", INPUTS)
def test_a_number_out_of_range_is_rejected_by_name(name):
    payload = example(name)
    if name == "commands":
        payload = example(name, 7)  # an amend: its entry is a number
        payload["entry"] = int("9" * 401)
        assert "'entry'" in str(rejected(name, json.dumps(payload)))
        return
    payload["at"] = int("9" * 401)
    assert str(rejected(name, json.dumps(payload))).startswith(f"{name}: 'at': 9999")
    payload["at"] = 1e300
    assert "is above 4102444800" in str(rejected(name, json.dumps(payload)))


@pytest.mark.parametrize("name", TOPICS)
def test_every_topic_has_a_closed_v1_schema(name):
    path = schema_path(name)
    assert path.name == name.replace("/", "_") + ".json" and path.is_file()
    doc = schema(name)
    Draft202012Validator.check_schema(doc)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert doc["type"] == "object" and doc["title"] == name
    assert "v" in doc["required"]
    assert doc.get("additionalProperties") is False or doc.get("unevaluatedProperties") is False
    if name in INPUTS:
        assert "id" in doc["required"]
    assert doc["examples"], "each schema carries at least one example"


@pytest.mark.parametrize(("name", "payload"), examples())
def test_examples_decode_and_encode(name, payload):
    assert decode(name, payload) == payload
    data = encode(name, payload)
    assert isinstance(data, bytes)
    assert decode(name, data) == payload
    assert decode(name, data.decode("utf-8")) == payload


def test_encode_is_compact_utf8():
    data = encode("commands", example("commands", 1))
    assert b" " not in data.replace("王芳".encode(), b"")
    assert "王芳".encode() in data  # not \\u escapes
    assert json.loads(data) == example("commands", 1)


def test_decode_returns_a_copy_and_leaves_its_input_alone():
    payload = example("observed")
    before = copy.deepcopy(payload)
    out = decode("observed", payload)
    out["cards"].append("BJ")
    assert payload == before


# ---------------------------------------------------------------- rejections name the field


@pytest.mark.parametrize(("name", "payload"), [(n, schema(n)["examples"][0]) for n in TOPICS])
def test_every_missing_required_field_is_named(name, payload):
    for field in schema(name)["required"]:
        broken = {k: v for k, v in payload.items() if k != field}
        error = rejected(name, broken)
        assert str(error) == f"{name}: '{field}' is missing"
        assert error.field == [field]


@pytest.mark.parametrize(("name", "payload"), examples())
def test_every_field_of_the_wrong_type_is_named(name, payload):
    for field, value in payload.items():
        wrong = 5 if isinstance(value, dict) else {"x": []}
        error = rejected(name, {**payload, field: wrong})
        assert error.field[:1] == [field], str(error)
        assert f"'{field}'" in str(error)


@pytest.mark.parametrize(("name", "payload"), examples())
def test_an_extra_field_is_named(name, payload):
    error = rejected(name, {**payload, "colour": "red"})
    assert str(error) == f"{name}: unexpected field 'colour'"


def test_a_healths_problem_as_data_names_a_catalogue_entry_and_is_bounded():
    """``problem_why`` (a health's problem as data, for a console to say in its reader's language): the example's key
    is an entry of the catalogue's ``health`` section in both languages, with the placeholders its values fill (its
    ``code`` names the error's words); a value too long, a list too long, a key not a name, an extra field are refused."""
    health = example("health", 1)
    why = health["problem_why"]
    for lang in ("zh", "en"):
        assert placeholders("health", entries(lang)[f"health.{why['key']}"]) == set(why["values"]) - {"code"}
        assert why["values"]["code"] in entries(lang)
    for bad in ({"key": "Logging fails", "values": {}}, {"key": "deaf", "values": {"sessions": ["x"] * 9}},
                {"key": "deaf", "values": {"error": "x" * 301}}, {"key": "deaf", "values": {}, "text": "x"},
                {"key": "deaf", "values": {"seconds": 1e12}}, {"key": "deaf"}):
        assert str(rejected("health", {**health, "problem_why": bad})).startswith("health: 'problem_why"), bad


@pytest.mark.parametrize("name", TOPICS)
@pytest.mark.parametrize("version", [2, 0, "1", 1.5, None, True])
def test_wrong_version(name, version):
    error = rejected(name, {**example(name), "v": version})
    assert str(error).startswith(f"{name}: 'v': ")
    assert "is not a supported version" in str(error)


def test_version_is_reported_before_anything_else():
    payload = {"v": 2, "id": "x", "seat": "Q"}
    assert "'v': 2 is not a supported version" in str(rejected("observed", payload))
    assert str(rejected("observed", {"seat": "Q"})) == "observed: 'v' is missing"


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("observed", {"seat": "X"}, "observed: 'seat': 'X' is not a seat (S E N W)"),
        ("observed", {"seat": "s"}, "observed: 'seat': 's' is not a seat (S E N W)"),
        ("observed", {"confidence": 1.01}, "observed: 'confidence': 1.01 is above 1"),
        ("observed", {"confidence": -0.1}, "observed: 'confidence': -0.1 is below 0"),
        ("observed", {"confidence": True}, "observed: 'confidence': true is not a number"),
        ("observed", {"at": -1}, "observed: 'at': -1 is below 0"),
        ("observed", {"at": "12:00"}, "observed: 'at': '12:00' is not a time in seconds"),
        ("observed", {"id": ""}, "observed: 'id' is empty"),
        ("observed", {"id": "x" * 129}, "observed: 'id' is longer than 128 characters"),
        ("observed", {"cards": []}, "observed: 'cards' is empty"),
        ("observed", {"cards": "S9"}, "observed: 'cards': 'S9' is not a list"),
        ("board/in", {"button": "undo"}, "board/in: 'button': 'undo' is not a button (ready pass confirm referee bid1 bid2 bid3 declare)"),
        ("board/in", {"seat": None}, "board/in: 'seat': null is not a seat (S E N W)"),
        ("commands", {"command": "restart"}, "commands: 'command': 'restart' is not a command (start_round stop_round confirm dismiss correct amend last_hand assign foul report open_hand)"),
        ("status", {"status": "away"}, "status: 'status': 'away' is not a status (online offline)"),
        ("violations", {"status": "open"}, "violations: 'status': 'open' is not a status (flagged confirmed dismissed)"),
        ("violations", {"seat": "NE"}, "violations: 'seat': 'NE' is not a seat (S E N W)"),
        ("violations", {"rule": {"book": "classic-3deck"}}, "violations: 'rule'['article'] is missing"),
        ("violations", {"penalty": {"forfeit": "game"}}, "violations: 'penalty'['forfeit']: 'game' is not a forfeit (turn hand round)"),
        ("events", {"seq": 0}, "events: 'seq': 0 is below 1"),
        ("events", {"kind": "Trick Won"}, "events: 'kind': 'Trick Won' is not a kind (lower case letters, digits and _)"),
        ("events", {"kind": "rejected", "data": {"reason": "x"}}, "events: 'data'['topic'] is missing"),
        ("state", {"dealer": "X"}, "state: 'dealer': 'X' is not a seat (S E N W) or null"),
        ("state", {"trump": {"suit": "X", "rank": "7"}}, "state: 'trump'['suit']: 'X' is not a suit (S H D C) or null"),
        ("state", {"trump": {"suit": "H", "rank": "1"}}, "state: 'trump'['rank']: '1' is not a rank (2-9 T J Q K A) or null"),
        ("state", {"rulebook": "Classic 3deck"}, "state: 'rulebook': 'Classic 3deck' is not a rulebook id, or null"),
        ("state", {"cards": {"S": 1, "E": 1, "N": -1, "W": 1}}, "state: 'cards'['N']: -1 is below 0"),
        ("board/out", {"paused": "no"}, "board/out: 'paused': 'no' is not true or false"),
        # a player's name with a terminal's escape (a hostile console or table): it would redraw an organiser's terminal
        ("commands", {"command": "assign", "players": {"S": "王\n芳", "E": "b", "N": "c", "W": "d"}, "rulebook": "classic-3deck"},
         "commands: 'players'['S']: '王\\n芳' is not a name (1-64 characters, no control character)"),
    ],
)
def test_clear_messages(name, change, message):
    assert str(rejected(name, {**example(name), **change})) == message


def test_nested_display_fields_are_named():
    payload = example("board/out")
    payload["seats"]["W"]["light"] = "blue"
    assert str(rejected("board/out", payload)) == "board/out: 'seats'['W']['light']: 'blue' is not a light (off green amber red)"
    payload = example("board/out")
    del payload["seats"]["N"]["clock"]
    assert str(rejected("board/out", payload)) == "board/out: 'seats'['N']['clock'] is missing"
    payload = example("state")
    payload["current_trick"]["plays"][1]["cards"][0] = "S1"
    error = rejected("state", payload)
    assert str(error) == "state: 'current_trick'['plays'][1]['cards'][0]: 'S1' is not a card"
    assert error.field == ["current_trick", "plays", 1, "cards", 0]


def test_the_states_optional_scores_are_taken_and_checked():
    """The state's optional scores (bus/PROTOCOL.md ``state``): a side's games won in a match of several games (seed 002
    规程 三 2: 三局两胜, Guandan stage two) and each San Da Yi seat's 累计 (seed 004 一 1), a fraction where a tie split
    them, with the games the match is played over (best_of, 3); a state without them (the example's, an older table's)
    stays valid."""
    payload = example("state")
    assert "best_of" not in payload and decode("state", encode("state", payload)) == payload
    payload["teams"][0]["games"], payload["teams"][1]["games"] = 1, 0
    assert decode("state", encode("state", payload)) == payload  # games without best_of: a table from before it
    payload["best_of"] = 3
    payload["totals"] = {"S": 12, "E": -3, "N": 4.5, "W": 0}
    assert decode("state", encode("state", payload)) == payload
    for bad in (1, 0, "3", 2.5):  # a match of one game says none
        assert rejected("state", payload | {"best_of": bad}).field == ["best_of"]
    payload["teams"][1]["games"] = -1
    assert rejected("state", payload).field == ["teams", 1, "games"]
    payload["teams"][1]["games"] = 0
    del payload["totals"]["W"]
    assert str(rejected("state", payload)) == "state: 'totals'['W'] is missing"


@pytest.mark.parametrize("bad", ["SX", "S1", "S10", "10S", "sa", "♠A", "大王", "B J", " SA", "SA\n", "", 5, None, ["SA"]])
def test_bad_cards_are_refused(bad):
    payload = example("observed")
    payload["cards"] = ["S9", bad]
    error = rejected("observed", payload)
    assert str(error).startswith("observed: 'cards'[1]: ") and str(error).endswith(" is not a card")
    assert error.field == ["cards", 1]


def test_the_examples_message():
    raw = '{"v":1,"id":"c-1","seat":"E","cards":["S9","SX"],"confidence":0.9,"at":3}'
    assert str(rejected("observed", raw)) == "observed: 'cards'[1]: 'SX' is not a card"


def test_impossible_cards_are_refused():
    payload = example("observed")
    payload["cards"] = ["SA"] * 5
    assert str(rejected("observed", payload)) == (
        "observed: 'cards': SA appears 5 times, but no rulebook plays with more than 4 decks"
    )
    payload["cards"] = ["SA"] * 4 + ["BJ"] * 4  # four decks (shaoguan-2023) hold this
    assert decode("observed", payload)["cards"] == payload["cards"]
    payload["cards"] = [s + r for s in "SHDC" for r in "23456789TJQKA"] + ["SA"] * 9
    assert "61 cards, but no seat ever holds more than 60" in str(rejected("observed", payload))
    command = {"v": 1, "id": "k", "command": "correct", "flag": "f", "cards": ["LJ"] * 5}
    assert "LJ appears 5 times" in str(rejected("commands", command))


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ({"command": "confirm"}, "commands: 'flag' is missing"),
        ({"command": "dismiss", "flag": ""}, "commands: 'flag' is empty"),
        ({"command": "correct", "flag": "f"}, "commands: 'cards' is missing"),
        ({"command": "correct", "flag": "f", "cards": []}, "commands: 'cards' is empty"),
        ({"command": "correct", "flag": "f", "cards": ["S9", "HX"]}, "commands: 'cards'[1]: 'HX' is not a card"),
        ({"command": "confirm", "flag": "f", "cards": ["S9"]}, "commands: unexpected field 'cards'"),
        ({"command": "start_round", "flag": "f"}, "commands: unexpected field 'flag'"),
        ({"command": "last_hand", "rulebook": "classic-3deck"}, "commands: unexpected field 'rulebook'"),
        ({"command": "assign", "rulebook": "classic-3deck"}, "commands: 'players' is missing"),
        (
            {"command": "assign", "players": {"S": "a", "E": "b", "N": "c"}, "rulebook": "classic-3deck"},
            "commands: 'players'['W'] is missing",
        ),
        (
            {"command": "assign", "players": {"S": "a", "E": "b", "N": "c", "W": "d", "X": "e"}, "rulebook": "usst-2016"},
            "commands: 'players': unexpected field 'X'",
        ),
        (
            {"command": "assign", "players": {"S": "a", "E": "b", "N": "c", "W": "d"}, "rulebook": "Classic"},
            "commands: 'rulebook': 'Classic' is not a rulebook id",
        ),
        (
            {"command": "assign", "players": {"S": "a", "E": "b", "N": "c", "W": "d"}, "rulebook": "classic-2deck"},
            (
                "commands: 'rulebook': unknown rulebook 'classic-2deck'; known: classic-3deck, sanjiang-2012, "
                "sanjiang-2012-stage-two, shaoguan-2023, shaoguan-2023-nokitty, usst-2016, zhongkai-2010"
            ),
        ),
        (
            {"command": "assign", "players": {"S": "王芳", "E": "b", "N": "王芳", "W": "d"}, "rulebook": "usst-2016"},
            "commands: 'players': '王芳' is seated twice (S and N)",
        ),
    ],
)
def test_each_command_needs_its_own_fields(command, message):
    assert str(rejected("commands", {"v": 1, "id": "k-1", **command})) == message


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"\xff\xfe{}", "observed: the payload is not UTF-8 (bad byte at 0)"),
        (b"", "observed: the payload is not JSON: Expecting value (line 1, column 1)"),
        (b"{'v': 1}", "observed: the payload is not JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
        (b'{"v":1,"v":1}', "observed: field 'v' appears twice"),
        (b'{"v":NaN}', "observed: NaN is not a JSON number"),
        (b'{"v":-Infinity}', "observed: -Infinity is not a JSON number"),
        (b'{"v":1e999}', "observed: the number 1e999 is out of range"),
        (b"[1, 2]", "observed: the payload is a list, not an object"),
        (b'"hello"', "observed: the payload is a string, not an object"),
        (b"null", "observed: the payload is null, not an object"),
        (b"[" * 100_000, "observed: the payload is nested too deeply"),
        (b" " * (protocol.MAX_BYTES + 1), f"observed: the payload is {protocol.MAX_BYTES + 1} bytes; at most {protocol.MAX_BYTES}"),
    ],
)
def test_malformed_bytes(raw, message):
    assert str(rejected("observed", raw)) == message


def test_python_objects_that_are_not_json():
    assert "not JSON data" in str(rejected("status", {"v": 1, "status": "online", "at": float("nan")}))
    assert "not JSON data" in str(rejected("status", {"v": 1, "status": {1, 2}}))
    assert "appears twice" in str(rejected("status", {1: "a", "1": "b"}))
    assert str(rejected("status", [1])) == "status: the payload is a list, not an object"


def test_encode_refuses_payloads_that_break_the_contract():
    state = example("state")
    del state["clocks"]
    with pytest.raises(PayloadError, match=r"^state: 'clocks' is missing$"):
        encode("state", state)
    with pytest.raises(PayloadError, match="not an object"):
        encode("state", b"{}")
    with pytest.raises(PayloadError, match="not JSON data"):
        encode("status", {"v": 1, "status": "online", "at": float("inf")})
    with pytest.raises(ValueError, match="unknown topic name"):
        encode("scores", {"v": 1})


def test_peek_id_reads_ids_of_bad_payloads_and_never_raises():
    assert peek_id(b'{"v":9,"id":"cam-1","seat":"Z"}') == "cam-1"
    assert peek_id('{"id":"x"}') == "x"
    assert peek_id({"id": "y"}) == "y"
    for raw in (b"\xff", b"[1]", b'{"id":5}', b'{"id":""}', None, 3, b"[" * 100_000):
        assert peek_id(raw) is None


# ---------------------------------------------------------------- nothing crashes decode

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
field_names = st.sampled_from(
    sorted({key for name in TOPICS for key in schema(name)["properties"]} | {"flag", "cards", "players", "rulebook"})
)


def _decode_or_reject(name, raw):
    try:
        out = decode(name, raw)
    except PayloadError as exc:
        said_by_the_catalogue(exc)
        return None
    assert isinstance(out, dict) and out["v"] == 1
    assert decode(name, encode(name, out)) == out
    return out


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(TOPICS), st.binary(max_size=200))
def test_random_bytes_never_crash_decode(name, raw):
    _decode_or_reject(name, raw)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(TOPICS), st.dictionaries(st.text(max_size=10) | field_names, json_values, max_size=8))
def test_random_objects_never_crash_decode(name, payload):
    _decode_or_reject(name, payload)
    _decode_or_reject(name, json.dumps(payload).encode())


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(examples()), field_names, json_values | st.lists(st.text(max_size=3), max_size=5))
def test_mutated_examples_are_valid_or_rejected(example_, field, value):
    name, payload = example_
    _decode_or_reject(name, {**payload, field: value})


# ---------------------------------------------------------------- PROTOCOL.md stays true


def _sections() -> dict[str, str]:
    text = PROTOCOL_MD.read_text(encoding="utf-8").split("\n## Tournament topics")[0]  # the tables' topics only
    parts = re.split(r"^### `([^`]+)`\s*$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))


def test_protocol_md_documents_every_topic_with_valid_examples():
    sections = _sections()
    assert set(sections) == set(TOPICS)
    for name, body in sections.items():
        blocks = re.findall(r"```json\n(.*?)\n```", body, flags=re.DOTALL)
        assert blocks, f"no example for {name}"
        for block in blocks:
            payload = json.loads(block)
            assert payload in schema(name)["examples"], f"{name}: PROTOCOL.md example differs from the schema's"
            assert decode(name, block) == payload
        for field in schema(name)["properties"]:
            assert f"`{field}`" in body, f"{name}: field {field} undocumented"


def test_protocol_md_topic_table_matches_the_code():
    rows = re.findall(r"^\| `([a-z/]+)` \| [^|]+ \| [^|]+ \| (\d) \| (yes|no) \|$", PROTOCOL_MD.read_text(), flags=re.MULTILINE)
    assert {name: (int(qos), retained == "yes") for name, qos, retained in rows} == {
        name: (QOS[name], name in RETAINED) for name in TOPICS
    }
