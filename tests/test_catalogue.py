"""The catalogue (``referee/catalogue``) against every kind the code can emit, found by reading the code itself
(its syntax tree): every event a table emits (``_event("kind", ...)``), every flag and violation kind (``_flag``,
``_violation``, the engines' ``Ruling``s, the rulebooks' fouls), every command the table takes (its schema),
every console action the audit log records and every refusal of the tournament (all three systems). Each has
its sentence in both languages, with the placeholders its data fills; and the catalogue holds nothing that
nothing says."""

from __future__ import annotations

import ast
import itertools
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from referee import rulebooks
from referee.catalogue import FILES, ONLY_ZH, CatalogueError, catalogues, check, entries, load, placeholders

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("zh", "en")
CODE = ("referee", "bus", "display", "hall", "cardtable", "vision", "firmware-bridge/bridge")  # every package's code


def calls(folder: str, name: str):
    """Every call of ``name`` (a function or a method) in the Python files under ``folder``: (path, node)."""
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                if (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)) == name:
                    yield path.relative_to(ROOT), node


def literal(node: ast.Call, index: int) -> str | None:
    args = node.args
    if len(args) > index and isinstance(args[index], ast.Constant) and isinstance(args[index].value, str):
        return args[index].value
    return None


def literals(node: ast.Call, index: int) -> set[str]:
    """The strings an argument can be: a literal, or any literal of ``a if c else b`` (nested too)."""
    def of(arg: ast.AST) -> set[str]:
        if isinstance(arg, ast.IfExp):
            return of(arg.body) | of(arg.orelse)
        return {arg.value} if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else set()

    return of(node.args[index]) if len(node.args) > index else set()


def dict_keys(node: ast.AST) -> set[str] | None:
    """The keys of a dict literal, or of ``a | b`` of them; None when any part is not a literal."""
    if isinstance(node, ast.Dict):
        keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
        return keys if len(keys) == len(node.keys) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = dict_keys(node.left), dict_keys(node.right)
        return None if left is None or right is None else left | right
    if isinstance(node, ast.IfExp):
        a, b = dict_keys(node.body), dict_keys(node.orelse)
        return None if a is None or b is None else a | b
    return None


def section(name: str, lang: str = "zh") -> set[str]:
    return {k[len(name) + 1:] for k in entries(lang) if k.startswith(name + ".")}


# ---------------------------------------------------------------- the catalogue itself


def test_both_catalogues_load_with_the_same_keys_and_placeholders():
    loaded = catalogues()
    assert set(loaded) == set(LANGS)
    assert len(loaded["zh"]) > 200
    shared = {k for k in loaded["zh"] if not k.startswith(ONLY_ZH)}
    assert shared == set(loaded["en"])
    for key in shared:
        assert placeholders(key, loaded["zh"][key]) == placeholders(key, loaded["en"][key]), key


def test_a_catalogue_that_breaks_the_rules_does_not_load(tmp_path):
    zh, en = dict(catalogues()["zh"]), dict(catalogues()["en"])
    with pytest.raises(CatalogueError, match="en.toml: missing \\['event.trick_won'\\]"):
        check({"zh": zh, "en": {k: v for k, v in en.items() if k != "event.trick_won"}})
    with pytest.raises(CatalogueError, match="event.trick_won: zh-CN.toml has \\['points', 'seat', 'trick'\\]"):
        check({"zh": zh, "en": en | {"event.trick_won": "trick {trick} won by {seat}"}})
    bad = tmp_path / "bad.toml"
    bad.write_text('[event]\ntrick_won = "{points:.1f}"\n', encoding="utf-8")
    with pytest.raises(CatalogueError, match="write \\{name\\} only"):
        load(bad)
    bad.write_text("[event]\ntrick_won = 3\n", encoding="utf-8")
    with pytest.raises(CatalogueError, match="event.trick_won: 3 is not a sentence"):
        load(bad)


def test_chinese_holds_chinese_and_english_none():
    """Every Chinese entry that says something in words is Chinese; no English entry holds a Chinese character."""
    import re

    cjk = re.compile(r"[\u4e00-\u9fff]")
    switch = "ui.switch"  # the language switch names the other language in that language: English / 中文
    for key, text in entries("en").items():
        assert key == switch or not cjk.search(text), f"en.toml {key}: {text!r}"
    latin_words = re.compile(r"[A-Za-z]{3,}")
    proper = {"cardtable", "csv", "xlsx", "json", "kib"}  # a name, file formats, a unit
    for key, text in entries("zh").items():
        found = {w for w in latin_words.findall(placeholders_removed(text)) if w.lower() not in proper and key != switch}
        assert not found, f"zh-CN.toml {key}: {text!r} has English {found}"


def test_english_draws_the_arrow_chinese_draws():
    """A sentence that leads to what follows with an arrow (第 3 盘结算：…… → 庄家升 2 级) drew it ``->`` in English: one
    arrow, →, in both languages, and no ASCII arrow in either."""
    zh, en = entries("zh"), entries("en")
    assert not [k for k, text in en.items() if "->" in text or "→" in zh.get(k, "") and "→" not in text]
    assert not [k for k, text in zh.items() if "->" in text]


def placeholders_removed(text: str) -> str:
    """The text without its placeholders and the names of commands and fields (written `so`)."""
    import re

    return re.sub(r"`[^`]*`", "", re.sub(r"\{[a-z_]+\}", "", text))


# ---------------------------------------------------------------- events


def emitted_events() -> dict[str, list[set[str] | None]]:
    """Every event kind a table emits, with the data keys of each call (None where the data is not a literal)."""
    found: dict[str, list[set[str] | None]] = defaultdict(list)
    for _, node in calls("referee/table", "_event"):
        kind = literal(node, 0)
        if kind is None:
            continue
        found[kind].append(dict_keys(node.args[1]) if len(node.args) > 1 else set())
    return found


DERIVED = {"result"}  # placeholders the sentences compute from the data (referee.catalogue.sentences)


def test_every_event_a_table_emits_has_its_sentence():
    events = emitted_events()
    assert {"play_accepted", "trick_won", "passed", "tribute_paid", "game_scored", "foul_counted", "rejected"} <= set(events)
    games = ("guandan", "sandayi")
    for lang in LANGS:
        said = section("event", lang)
        for kind, sites in events.items():
            keys = [k for k in said if k == kind or k.startswith(kind + "_") or any(k == f"{g}.{kind}" for g in games)]
            assert kind in said or any(k.endswith("." + kind) for k in said), f"{lang}: no sentence for event {kind}"
            known = [s for s in sites if s is not None]
            if not known or len(known) < len(sites):
                continue
            data = set().union(*known) | DERIVED
            for key in keys:
                missing = placeholders(key, entries(lang)[f"event.{key}"]) - data
                assert not missing, f"event.{key} asks for {missing}; the table's data has {sorted(data)}"


def test_the_catalogue_tells_no_event_that_nothing_emits():
    events = set(emitted_events())
    helpers = {"exchange", "guandan.ahead", "guandan.level_tie"}
    for key in section("event"):
        kind = key.split(".")[-1]
        base = next((k for k in sorted(events, key=len, reverse=True) if kind == k or kind.startswith(k + "_")), None)
        assert key in helpers or base is not None, f"event.{key}: no table emits {kind}"


# ---------------------------------------------------------------- flags and violations


def violation_kinds() -> set[str]:
    kinds = set()
    for name, index in (("_violation", 1), ("_ruled", 1), ("_flag", 1), ("Ruling", 0), ("Foul", 1)):
        for _, node in calls("referee", name):
            kinds |= literals(node, index)
    for book in map(rulebooks.load, rulebooks.names()):  # every game's referee fouls ([fouls] kinds)
        kinds |= set(book.fouls.kinds)
    return kinds


def test_every_flag_and_violation_kind_has_its_name():
    kinds = violation_kinds()
    assert {"overtime", "revoke", "illegal_tribute", "tribute_not_largest", "talking", "unsure", "early_pickup"} <= kinds
    for lang in LANGS:
        assert kinds <= section("kind", lang), f"{lang}: no name for {sorted(kinds - section('kind', lang))}"
    assert section("kind") <= kinds, f"named but never raised: {sorted(section('kind') - kinds)}"


def test_every_flag_kind_has_its_sentence():
    flags = set().union(*(literals(node, 1) for _, node in calls("referee/table", "_flag")))
    assert {"unsure", "impossible", "too_many", "out_of_turn", "exposed_card", "early_pickup", "unsure_pickup", "no_play",
            "referee_called", "stalled", "idle", "wrong_card_count", "laid_out_of_turn", "laid_taken_back", "illegal_lead",
            "play_reading"} == flags
    for lang in LANGS:  # its own sentence, or one with its reason alone where it is always raised with one (``idle``)
        for kind in flags:
            said = [k for k in (kind, f"{kind}_why") if k in section("flag", lang)]
            assert said, f"{lang}: no sentence for flag {kind}"
            for k in said:
                assert placeholders(k, entries(lang)[f"flag.{k}"]) <= {"seat", "cards", "kind", "why"} - ({"why"} if k == kind else set())


# ---------------------------------------------------------------- the rules engines' reasons


def subclasses(roots: set[str], folders: tuple[str, ...] = ("referee",)) -> set[str]:
    """``roots`` and every class in the code derived from one of them (by name)."""
    bases: dict[str, list[str]] = {}
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    bases.setdefault(node.name, []).extend(getattr(b, "id", None) for b in node.bases)
    found, changed = set(roots), True
    while changed:
        changed = False
        for name, parents in bases.items():
            if name not in found and found & set(parents):
                found.add(name)
                changed = True
    return found


def reasons() -> list[tuple[Path, int, str, set[str]]]:
    """Every reason the code gives (``Reason(...)``, and ``Refused(...)`` or any of the engines' errors derived from
    it; the camera's reasons for asking a person too): (file, line, catalogue key, the names of its values). A call
    whose key is not written out raises again a reason made elsewhere (``GameError(exc.reason)``) and gives no
    values."""
    out = []
    for cls, folder in itertools.product(subclasses({"Reason", "Refused"}), ("referee", "vision", "bus")):
        for path, node in calls(folder, cls):
            if path.name == "reasons.py" and path.parent.name == "referee":
                continue  # the classes themselves and their doctests
            keys = literals(node, 0)
            if not keys:
                assert not node.keywords and len(node.args) == 1, f"{path}:{node.lineno}: {cls} with a key that is not written out"
                continue
            out += [(path, node.lineno, f"reason.{key}", {k.arg for k in node.keywords}) for key in keys]
    return out


def test_every_reason_the_rules_engines_give_has_its_sentence():
    found = reasons()
    where = {"/".join(p.parts[-2:]) for p, *_ in found}
    assert {"tractor/hand.py", "tractor/follow.py", "tractor/leads.py", "tractor/game.py", "guandan/hand.py", "guandan/tribute.py",
            "sandayi/game.py", "sandayi/bidding.py", "referee/cards.py", "table/reducer.py", "table/tractor.py", "table/climbing.py",
            "table/guandan.py", "table/sandayi.py", "table/amend.py"} <= where, sorted(where)
    assert {"HandError", "DeclareError", "TributeError", "GameError", "BidError", "CardError", "Reject"} <= subclasses({"Refused"})
    for path, line, key, values in found:
        for lang in LANGS:
            assert key in entries(lang), f"{path}:{line}: {key} is not in {FILES[lang]}"
            assert placeholders(key, entries(lang)[key]) == values, f"{path}:{line}: {key} takes {sorted(values)}"
    unused = {f"reason.{k}" for k in section("reason")} - {key for _, _, key, _ in found}
    assert not unused, f"in the catalogue, never given: {sorted(unused)}"


def sample(name: str, key: str):
    """A value of the kind a reason's value of this name holds (``referee.catalogue.sentences``: said by its name)."""
    from referee.reasons import Reason

    game = key.split(".")[0]
    by_name = {
        "card": "HT", "cards": ["SA", "HT"], "suit": "H", "phase": "playing", "button": "pass", "team": "SN", "side": "dealer",
        "shape": "pair", "command": "foul", "game": "guandan", "table_game": "tractor", "kind": "revoke", "kinds": ["talking"],
        "type": "pair", "flag": "f3", "patterns": ["1112222+散牌"], "seats": ["S", "N"], "payers": ["E", "W"], "text": "X9",
        "rulebook": "sanjiang-2012", "known": "s1, s2", "bids": [1, 2, 3], "places": [2, 3, 4], "confidence": 0.5,
        "why": Reason("cards.too_many", card="SA", n=3, decks=2),
        "shapes": [Reason("tractor.shape", shape="pair", cards=["S5", "S5"])],
        "readings": [Reason("guandan.reading", type="pair", rank="7"), Reason("guandan.reading_to", type="straight", rank="T")],
        "declared": Reason("guandan.reading_type", type="straight"), "table_reading": Reason("guandan.reading_bomb", size=5, rank="BJ"),
        "where": ("players", "S"), "value": '"SX"', "json": ("string", "null"), "thing": "seat", "allowed": ("S", "E"),
    }
    if name in by_name:
        return "full_house" if name == "type" and game == "sandayi" else by_name[name]
    if name in ("seat", "expected", "dealer", "leader", "turn", "giver", "receiver", "other"):
        return "E"
    if name.endswith("_cards"):
        return [["S5", "S5"], ["S3"]] if name in ("parts_cards", "units_cards") else ["SK", "LJ"]
    if name.endswith("_card"):
        return "H5"
    if name.endswith(("_rank", "level")) or name == "rank":
        return "T"
    if name.endswith("_type"):
        return "pair"
    return 3


def test_every_reason_reads_in_chinese_and_in_english():
    """Each reason said with values of its kinds: card faces, seat names, the catalogue's words; Chinese with no
    English word but card notation and the values quoted (a rulebook id, what was typed), English with no Chinese."""
    import re

    from referee.catalogue.sentences import Sentences
    from referee.reasons import Reason

    said = {}
    for _, _, key, values in reasons():
        reason = Reason(key.removeprefix("reason."), **{v: sample(v, key.removeprefix("reason.")) for v in values})
        for lang in LANGS:
            text = said[lang, key] = Sentences(lang, "guandan", {"E": "李强"}).reason(reason)
            assert "{" not in text and "?" not in text.split() and not text.startswith(key.removeprefix("reason.")), (key, text)
    for (lang, key), text in said.items():
        if lang == "zh":
            rest = re.sub(r"`[^`]*`|sanjiang-2012|X9", "", text)
            assert not re.findall(r"[A-Za-z]{3,}", rest), (key, text)
            assert not re.search(r"\b(SA|HT|SK|S5)\b", text), (key, text)  # cards as faces
        else:
            assert not re.search(r"[\u4e00-\u9fff]", text.replace("李强", "")), (key, text)
    assert said["zh", "reason.tractor.follow_shape"] == "须出红心的 对子（♠5 ♠5）"
    assert said["en", "reason.guandan.does_not_beat"] == (
        "E (李强): ♠A ♥10 (pair 7, straight to 10) does not beat ♠K little joker (bomb of 5 big joker) played by E (李强)")


# ---------------------------------------------------------------- commands


def test_every_command_the_table_takes_has_its_words():
    schema = json.loads((ROOT / "bus/schemas/commands.json").read_text(encoding="utf-8"))
    commands = set(schema["properties"]["command"]["enum"])
    assert {"assign", "amend", "correct", "foul"} <= commands
    for lang in LANGS:
        assert commands <= section("command", lang), sorted(commands - section("command", lang))


def test_the_files_are_where_the_catalogue_says():
    assert all((ROOT / "referee/catalogue" / f).is_file() for f in FILES.values())


# ---------------------------------------------------------------- refusals


def refusal_classes() -> dict[str, str]:
    """Every subclass of ``referee.catalogue.Refusal`` in the code, with the catalogue section it says from."""
    bases: dict[str, tuple[list[str], str | None]] = {}
    for path in [p for folder in CODE for p in (ROOT / folder).rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                section = next((s.value.value for s in node.body if isinstance(s, ast.Assign)
                                and any(getattr(t, "id", None) == "section" for t in s.targets)), None)
                bases[node.name] = ([getattr(b, "id", None) for b in node.bases], section)
    found = {"Refusal": "refusal"}
    changed = True
    while changed:
        changed = False
        for name, (parents, section) in bases.items():
            parent = next((p for p in parents if p in found), None)
            if parent and name not in found:
                found[name], changed = section or found[parent], True
    return found


HELD = {"busy": {"holder", "lock"}, "unopened": {"lock", "error"}}  # bus.lock.hold_or_refuse: each key's values of its own


def refusals() -> list[tuple[Path, int, str, set[str]]]:
    """Every refusal the code raises: (file, line, catalogue key, the names of its values); a refusal of a lock file
    held (``bus.lock.hold_or_refuse(Class, ..., busy="key", unopened="key", **values)``) too, by its class and keys."""
    out = []
    classes = refusal_classes()
    for cls, section in classes.items():
        for folder in CODE:
            for path, node in calls(folder, cls):
                if path.name == "__init__.py" and path.parent.name == "catalogue":
                    continue  # the class itself and its doctests
                key = literal(node, 0)
                assert key is not None, f"{path}:{node.lineno}: {cls} is raised with a key that is not written out"
                out.append((path, node.lineno, f"{section}.{key}", {k.arg for k in node.keywords}))
    for folder in CODE:
        for path, node in calls(folder, "hold_or_refuse"):
            cls = getattr(node.args[0], "id", None) if node.args else None
            assert cls in classes, f"{path}:{node.lineno}: hold_or_refuse with {cls}, not a refusal class written out"
            keys = {k.arg: k.value for k in node.keywords}
            words = set(keys) - set(HELD)
            for which, values in HELD.items():
                key = keys.get(which)
                assert isinstance(key, ast.Constant) and isinstance(key.value, str), f"{path}:{node.lineno}: {which}= not written out"
                out.append((path, node.lineno, f"{classes[cls]}.{key.value}", words | values))
    return out


def test_every_refusal_of_the_tournament_and_the_console_has_its_sentence():
    found = refusals()
    classes = refusal_classes()
    assert {"TournamentError", "EntryError", "SetupError", "PairingError", "UserError", "Denied", "CredentialsError", "UrlError",
            "DemoError", "PlanError", "ModelError", "SourceError", "DeckError", "NotCalibrated", "CalibrationError",
            "BrokerError", "ConnectionRefused", "NoConnection", "HallError"} <= set(classes)
    where = {p.parts[-1] for p, *_ in found}
    assert {"pairswiss.py", "knockout.py", "individual.py", "swiss.py", "store.py", "tables.py"} <= where  # all three systems
    for path, line, key, values in found:
        for lang in LANGS:
            assert key in entries(lang), f"{path}:{line}: {key} is not in {FILES[lang]}"
            assert placeholders(key, entries(lang)[key]) == values, f"{path}:{line}: {key} takes {sorted(values)}"
    said = {key for _, _, key, _ in found}
    for sect in ("refusal", "error", "broker", "hall.setup", "vision.error", "hall.error"):
        unused = {f"{sect}.{k}" for k in section(sect)} - said - {"hall.setup.written"}
        assert not unused, f"in the catalogue, never raised: {sorted(unused)}"


def test_every_tournament_system_and_role_has_its_name():
    from display.store import ROLES
    from referee.tournament.systems import SYSTEMS

    for lang in LANGS:
        assert set(SYSTEMS) == section("system", lang)
        assert set(ROLES) == section("role", lang)


# ---------------------------------------------------------------- the console's actions


def test_every_console_action_has_its_line():
    """What the audit log records, by the action's name written out (``.audit``, ``record``, the routers' helpers, a
    tournament change's ``Line``), and every command the console can send a table (each is recorded under its own name)."""
    actions = set()
    for name, index in (("audit", 1), ("record", 3), ("_change", 3), ("_set_draft", 4), ("send", 4), ("Line", 0)):
        for _, node in calls("display", name):
            actions |= literals(node, index)
    schema = json.loads((ROOT / "bus/schemas/commands.json").read_text(encoding="utf-8"))
    actions |= set(schema["properties"]["command"]["enum"])
    assert {"login_failed", "add_user", "amend", "correct", "new_tournament", "correct_result", "export"} <= actions
    for lang in LANGS:
        missing = actions - section("action", lang)
        assert not missing, f"{FILES[lang]}: no line for the console's {sorted(missing)}"
    variants = {"who", "who_command_line", "who_login", "other", "amend_was", "dismiss_reading", "foul_cards", "start_tournament_round_missing", "undo_reason", "damaged"}  # damaged: a row read
    assert section("action") - actions <= variants, sorted(section("action") - actions - variants)


def test_every_word_of_the_pages_is_used_and_every_word_used_is_there():
    """The pages' words (``ui.*``): each one a template or a script asks for (``t("x")``, ``T("x")``,
    ``data-t="x"``), and each one asked for is in the catalogue."""
    import re

    folder = ROOT / "display"
    text = "\n".join(p.read_text(encoding="utf-8") for p in [*folder.glob("templates/*.html"), *folder.glob("static/*.js")])
    asked = set(re.findall(r"""(?:\bt|\bT)\(\s*["']([a-z_]+)["']""", text)) | set(re.findall(r'data-tp?="([a-z_]+)"', text))
    asked |= {m for group in re.findall(r'T\(k === "report:play" \? "([a-z_]+)" : k === "report:no_play" \? "([a-z_]+)" : "([a-z_]+)"\)', text)
              for m in group}
    asked |= {m for group in re.findall(r'T\([\w.]+ \? "([a-z_]+)" : "([a-z_]+)"', text) for m in group}
    badge = {"online", "offline", "unknown"}  # a tile's badge: T(status)
    for lang in LANGS:
        assert asked <= section("ui", lang), sorted(asked - section("ui", lang))
    unused = section("ui") - asked - badge
    assert not unused, f"ui words nothing shows: {sorted(unused)}"


# ---------------------------------------------------------------- the command line


def test_the_command_line_speaks_chinese_first_and_english_when_asked(capsys, monkeypatch):
    """argparse's own errors and the commands' in the catalogue's words: Chinese, English with ``--lang en`` (before
    or after the command) or ``$CARDTABLE_LANG=en``; the locale is not asked."""
    from cardtable.cli import ARGPARSE, main

    for key in ARGPARSE.values():
        assert all(f"argparse.{key}" in entries(lang) for lang in LANGS), key
    cases = [(["table", "run"], {}, "用法：cardtable table run", "cardtable table run：错误：缺少参数：--table, --rulebook, --db"),
             (["--lang", "en", "table", "run"], {}, "usage: cardtable table run", "error: the following arguments are required: --table"),
             (["demo", "--game", "poker"], {}, "用法：", "错误：参数 --game：无效的选择：'poker'（可选：'tractor', 'guandan', 'sandayi'）"),
             (["demo", "--game", "poker"], {"CARDTABLE_LANG": "en"}, "usage:", "argument --game: invalid choice: 'poker' (choose from"),
             (["demo", "--game", "poker"], {"LANG": "en_US.UTF-8"}, "用法：", "错误：参数 --game：无效的选择：'poker'"),
             (["table", "replay", "x.db", "--lang", "en", "--rulebook", "nowhere"], {}, "usage:", "error: unknown rulebook 'nowhere'; known: "),
             (["table", "replay", "x.db", "--rulebook", "nowhere"], {"CARDTABLE_LANG": "zh", "LANG": "en_US.UTF-8"}, "用法：",
              "错误：没有规则“nowhere”；可用的规则："),
             (["table", "simulate", "--table", "t 1", "--rulebook", "usst-2016"], {}, "用法：", "错误：桌号“t 1”不对")]
    for argv, env, usage, error in cases:
        with monkeypatch.context() as m:
            for name, value in env.items():
                m.setenv(name, value)
            with pytest.raises(SystemExit) as exit_:
                main(argv)
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and usage in err and error in err, (argv, err)
    import argparse
    import os

    assert argparse._("usage: ") == "usage: " and "CARDTABLE_LANG" not in os.environ  # as it was once the command ends


def test_every_help_line_of_the_command_line_has_its_chinese(capsys):
    """``cardtable ... --help`` in Chinese: each command's line and each option's from the catalogue (``help.*``,
    ``option.*``, Chinese only: the English is the code's own), none missing and none that no command has."""
    from referee.catalogue import speaks
    from cardtable.cli import main, parser
    from cardtable.lang import helps

    found = list(helps(parser()))
    assert len(found) > 120
    missing = [key for key, _ in found if key not in entries("zh")]
    assert not missing, missing
    written = {k for k in entries("zh") if k.startswith(("help.", "option."))}
    assert written == {key for key, _ in found}, sorted(written ^ {key for key, _ in found})
    assert all(speaks(entries("zh")[k], "zh") for k in written)
    for argv, said in ((["table", "run", "--help"], ["用法：cardtable table run", "桌号，例如 t07", "显示本帮助并退出"]),
                       (["--lang", "en", "table", "run", "--help"], ["usage: cardtable table run", "the table id, e.g. t07"]),
                       (["tournament", "late", "--help"], ["赛事的 `SQLite` 文件", "谁做的改动（会记录）"]),
                       (["hall", "setup", "--help"], ["桌号，或一个数字 N 表示 t01..tN"])):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        out = capsys.readouterr().out
        assert exit_.value.code == 0 and all(s in out for s in said), (argv, out)


def test_every_option_and_command_has_its_help_line_in_both_languages(monkeypatch):
    """The rule: every command, option and positional of ``cardtable`` says in ``--help`` what it is, in English (the
    code's ``help=``) and in Chinese (the catalogue's, each line Chinese): walked through every parser and sub-parser,
    none missing (``tournament new --system``, ``judge FILE`` and ``display serve --port`` once had none)."""
    import argparse

    from cardtable.cli import parser
    from cardtable.lang import helps

    def lines(p: argparse.ArgumentParser, path: tuple[str, ...] = ()):
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                listed = {choice.dest: choice.help for choice in action._choices_actions}
                for name, command in action.choices.items():
                    yield " ".join((*path, name)), listed.get(name)
                    yield from lines(command, (*path, name))
            elif not isinstance(action, argparse._HelpAction):
                yield " ".join((*path, max(action.option_strings, key=len, default=action.dest))), action.help

    for lang in ("en", "zh"):
        monkeypatch.setenv("CARDTABLE_LANG", lang)
        found = list(lines(parser()))
        assert len(found) > 250 and ("tournament new --system", "the competition system" if lang == "en" else "赛制") in found
        missing = [what for what, line in found if line in (None, argparse.SUPPRESS) or not line.strip()]
        assert not missing, (lang, missing)
        assert len(found) == len(list(helps(parser())))  # each line has its catalogue key: the Chinese is there
        if lang == "zh":
            english = [(what, line) for what, line in found if not re.search(r"[\u4e00-\u9fff]", line)]
            assert not english, english


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_commands_help_prints_in_either_language(lang, monkeypatch, capsys):
    """``--help`` of every command, in Chinese and in English, prints its lines (a Chinese line saying "0.05%" once
    made ``vision sure --help`` a traceback: argparse formats help lines with ``%``)."""
    from cardtable.cli import main, parser
    from cardtable.lang import helps

    monkeypatch.setenv("CARDTABLE_LANG", lang)
    commands = [key.removeprefix("help.").split() for key, _ in helps(parser()) if key.startswith("help.")]
    assert len(commands) > 30 and ["vision", "sure"] in commands
    for command in commands:
        with pytest.raises(SystemExit) as exit_:
            main([*command, "--help"])
        out = capsys.readouterr().out
        assert exit_.value.code == 0 and f"cardtable {' '.join(command)}" in out, (command, out)
        if command == ["vision", "sure"]:
            assert ("足以为 0.05% 作保" if lang == "zh" else "(97.5%, 98.75%...)") in " ".join(out.split()), out


def test_each_help_lines_chinese_says_the_numbers_its_english_says(monkeypatch):
    """A default changed in the code's ``help=`` and not in the catalogue leaves ``--help`` in Chinese saying the old
    one (``vision sure --frames`` said 3,000 reads where the code reads 9,000): each help line's Chinese says every
    number in digits its English says (``3,000`` and ``3000`` alike)."""
    import re

    from cardtable.cli import parser
    from cardtable.lang import helps

    monkeypatch.setenv("CARDTABLE_LANG", "en")  # the code's own English lines

    def numbers(line: str) -> list[str]:
        return sorted(n.replace(",", "") for n in re.findall(r"\d+(?:[.,]\d+)*", line))

    lines = [(key, action.help, entries("zh")[key]) for key, action in helps(parser())]
    assert len(lines) > 120 and any("9,000" in english for _, english, _ in lines)
    differ = [line for line in lines if numbers(line[1]) != numbers(line[2])]
    assert not differ, differ


def test_the_board_bridge_and_the_camera_refuse_in_the_command_lines_language(capsys, monkeypatch, tmp_path):
    from cardtable.cli import main

    monkeypatch.delenv("CARDTABLE_BROKER", raising=False)
    assert main(["bridge", "run", "--table", "t 1", "--port", "/dev/null"]) == 2
    assert "cardtable bridge run：错误：桌号“t 1”不对" in capsys.readouterr().err
    assert main(["bridge", "run", "--table", "t1", "--port", "/dev/null", "--lang", "en"]) == 2
    assert "cardtable bridge run: error: no broker: give --broker mqtt://host:port or set $CARDTABLE_BROKER" in capsys.readouterr().err
    assert main(["vision", "read", str(tmp_path / "none.png")]) == 2
    assert f"cardtable vision read：错误：没有这个图片：{tmp_path / 'none.png'}" in capsys.readouterr().err
    assert main(["vision", "deck", "--faces", str(tmp_path), "--out", str(tmp_path / "v"), "--share", "2", "--lang", "en"]) == 2
    assert "cardtable vision deck: error: `--share` is a fraction between 0 and 1" in capsys.readouterr().err
