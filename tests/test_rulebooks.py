"""Rules are data, typed and checked when they load: every rulebook file is read into its game's
schema, and a setting missing, unknown or of a value its type does not allow is refused when the
file loads, in words that name the file, the key, the value and what is allowed. README.md's
settings tables are the schema's own words."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from typing import Any, Literal, Union, get_args, get_origin

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import Card
from referee.rulebooks import HERE, SCHEMAS, RulebookError, build, load, names, readme
from referee.rulebooks import settings_of as book_settings
from referee.rulebooks.settings import describe, fields, show, where

BOOKS = sorted(names())


def raw_of(book: str) -> dict[str, Any]:
    """The book's settings as its file holds them, under those of the book it extends."""
    return book_settings(book)


def put(raw: dict, path: tuple, value: Any = None, *, drop: bool = False) -> dict:
    """A copy of ``raw`` with the setting at ``path`` set to ``value`` (or dropped)."""
    out = copy.deepcopy(raw)
    table = out
    for key in path[:-1]:
        table = table[key]
    if drop:
        del table[path[-1]]
    else:
        table[path[-1]] = value
    return out


def is_section(t: Any) -> bool:
    return dataclasses.is_dataclass(t) and not hasattr(t, "parse")


def settings_of(schema: type, raw: dict, path: tuple = ()):
    """Every setting the file gives or may give: (path, tables in the path, type, field, present)."""
    for key, _, t, f in fields(schema):
        here = path + (key,)
        yield here, len(path), t, f, key in raw
        if key not in raw or not isinstance(raw[key], dict):
            continue
        if is_section(t):
            yield from settings_of(t, raw[key], here)
        elif get_origin(t) is Mapping and is_section(get_args(t)[1]):
            for name, table in raw[key].items():
                yield from settings_of(get_args(t)[1], table, here + (name,))


def wrong(t: Any) -> Any:
    """A value of the wrong kind for type ``t``: what a careless edit of the file could write."""
    origin = get_origin(t)
    if t is bool:
        return "yes"
    if t in (int, float):
        return "10 s"
    if t is str:
        return 7
    if origin is Literal:
        return "nonsense" if isinstance(get_args(t)[0], str) else 99
    if origin is tuple or origin is Mapping or is_section(t) or hasattr(t, "parse"):
        return 7 if origin is tuple or hasattr(t, "parse") else [7]
    if origin is Union or type(t).__name__ == "UnionType":
        return [[]]
    raise AssertionError(f"no wrong value for {t}")


def every_setting() -> list[tuple[str, tuple, int, Any, Any, bool]]:
    out = []
    for book in BOOKS:
        raw = raw_of(book)
        for path, tables, t, f, present in settings_of(SCHEMAS[raw["game"]], raw):
            if path != ("game",) and t is not Any and get_args(t)[-1:] != (Any,) and not (get_origin(t) is Mapping and get_origin(get_args(t)[1]) is Mapping):
                out.append((book, path, tables, t, f, present))
    return out


SETTINGS = every_setting()


def test_every_book_loads_as_its_games_schema():
    for book in BOOKS:
        rules = load(book)
        assert isinstance(rules, SCHEMAS[rules.game]) and rules.id == book and repr(rules) == f"{type(rules).__name__}({book!r})"


# ---- each kind of setting: a wrong value is refused, naming the file, the key, the value and what is allowed ----

KINDS = [
    # kind, book, path, wrong value, the words after the file's name
    ("bool", "zhongkai-2010", ("combos", "low_ace"), "no", '[combos] low_ace = "no": allowed true or false'),
    ("int", "classic-3deck", ("deal", "decks"), 2.5, "[deal] decks = 2.5: allowed a whole number"),
    ("int, not a bool", "sanjiang-2012", ("announce", "cards"), True, "[announce] cards = true: allowed a whole number"),
    ("float", "classic-3deck", ("declare", "window_s"), "5", '[declare] window_s = "5": allowed a number'),
    ("str", "shaoguan-2023", ("failed_throw", "penalty"), 3, "[failed_throw] penalty = 3: allowed a string"),
    ("closed set", "classic-3deck", ("combos", "captive"), "declare",
     '[combos] captive = "declare": allowed "declared", "chosen_after" or "illegal"'),
    ("closed set of numbers", "usst-2016", ("bidding", "bids"), [1, 2, 4], "[bidding] bids[2] = 4: allowed 1, 2 or 3"),
    ("rank", "sanjiang-2012", ("stages", "one", "passes"), "1",
     '[stages.one] passes = "1": allowed a rank: "2" .. "9", "T", "J", "Q", "K" or "A"'),
    ("list", "classic-3deck", ("combos", "widths"), 2, "[combos] widths = 2: allowed a list, each 2, 3 or 4"),
    ("list of two", "zhongkai-2010", ("kitty_capture", "pair_tractor"), [5],
     "[kitty_capture] pair_tractor = [5]: allowed a list of 2, each a whole number"),
    ("table key", "sanjiang-2012", ("levels", "places"), {"1": 3, "2": 2, "3": 1},
     "[levels.places] 1: no such key; allowed 2, 3 or 4"),
    ("table value", "usst-2016", ("round", "seat_of_suit", "H"), "X",
     '[round.seat_of_suit] H = "X": allowed "S", "E", "N" or "W"'),
    ("number or word", "usst-2016", ("bomb_limits", "bid_1"), "none",
     '[bomb_limits] bid_1 = "none": allowed a whole number or "unlimited"'),
    ("card", "sanjiang-2012", ("tribute", "refuse_with"), "BX", '[tribute] refuse_with = "BX": unknown card \'BX\''),
    ("format", "shaoguan-2023", ("combos", "outranks"), [["4x1", "bomb"]],
     '[combos] outranks[0][1] = "bomb": a format is WIDTHxLENGTH, as "4x1" (a bomb) or "2x2" (a two-pair tractor)'),
    ("pattern", "shaoguan-2023", ("follow", "listed", "4x2"), [["11223?44"]],
     "[follow.listed] 4x2[0][0] = \"11223?44\": '11223?44': '?' is no rank (1, 2..10 or T, J, Q, K, A) and no single (* or +散牌)"),
    ("section", "classic-3deck", ("deal",), 3,
     "deal = 3: allowed a table of decks, hand_size, kitty, start_level, permanent_ranks"),
    ("the game", "usst-2016", ("game",), "bridge", 'game = "bridge": allowed "tractor", "guandan" or "sandayi"'),
    ("the id", "usst-2016", ("id",), "usst-2017", 'id = "usst-2017": allowed "usst-2016", the file\'s name'),
    # settings checked together
    ("the kitty", "zhongkai-2010", ("deal", "kitty"), 8,
     "[deal] kitty = 8: allowed 6: the cards of 3 decks not dealt to 4 hands of 39"),
    ("level bands", "classic-3deck", ("levels", "dealer"), [[60, 1], [90, 2]],
     "[levels] dealer = [[60, 1], [90, 2]]: allowed bands falling from below take_over (120)"),
    ("a format's size", "shaoguan-2023", ("combos", "outranks"), [["4x1", "2x3"]],
     '[combos] outranks = ["4x1", "2x3"]: allowed two formats of as many cards'),
    ("a listed follow", "shaoguan-2023", ("follow", "listed", "4x2"), [["QQ*"]],
     "[follow] listed 4x2: 'QQ*' holds 3 cards, the lead 8"),
    ("a throw's penalty", "classic-3deck", ("failed_throw", "penalty"), "throw",
     '[failed_throw] penalty = "throw": allowed a [penalties] entry: late_5_min, late_10_min, late_15_min, late_20_min, '
     "late_21_min, signalling, ceding_the_deal, revoke, failed_throw, illegal_lead, exposed_card, wrong_card_count, out_of_turn, clock, "
     "deliberate_delay"),
    ("seats", "usst-2016", ("round", "seat_of_suit", "H"), "S",
     '[round] seat_of_suit = {"S": "S", "H": "S", "C": "N", "D": "W"}: allowed each suit S H C D at a seat of its own'),
    ("bids", "usst-2016", ("bidding", "bids"), [2, 1, 3], "[bidding] bids = [2, 1, 3]: allowed rising bids of 1, 2 and 3"),
    ("stages", "sanjiang-2012", ("stages", "two", "best_of"), 2, "[stages.two] best_of = 2: allowed an odd number of games"),
    ("a wait without its article", "classic-3deck", ("declare", "window_article"), " ",
     '[declare] window_article = " ": allowed the article quoted, as `window_s` is set'),
    ("an article too long for a violation", "classic-3deck", ("declare", "window_article"), "八" * 65,
     f'[declare] window_article = "{"八" * 65}": allowed at most 64 characters'),
    ("the draw's exposures without their article", "classic-3deck", ("declare", "exposed_article"), "",
     '[declare] exposed_article = "": allowed the article quoted, as `exposed_in_draw` is set'),
    # the clock and the penalties
    ("an overrun", "classic-3deck", ("clock", "overrun"), "warn",
     '[clock] overrun = "warn": allowed "none", "penalty", "pass" or "foul"'),
    ("a Tractor pass", "classic-3deck", ("clock", "overrun"), "pass",
     '[clock] overrun = "pass": a kitty_and_first_lead cannot be passed in tractor; allowed "none", "penalty", "foul" '
     "(set overrun_lead / overrun_return)"),
    ("a return pass", "sanjiang-2012", ("clock", "overrun_return"), "pass",
     '[clock] overrun_return = "pass": a return cannot be passed in guandan; allowed "none", "penalty", "foul" '
     "(set overrun_lead / overrun_return)"),
    ("a penalty without its entry", "sanjiang-2012", ("clock", "overrun"), "penalty",
     '[clock] overrun = "penalty": allowed only with a "clock" penalty entry (its warnings and points)'),
    ("a late band's entry", "zhongkai-2010", ("clock", "late_bands"), [[5, "late_5_min"], [10, "late"]],
     '[clock] late_bands: "late" has no penalty entry; allowed an entry of [clock.penalties] or [penalties]'),
    ("late bands", "zhongkai-2010", ("clock", "late_bands"), [[10, "late_10_min"], [5, "late_5_min"]],
     '[clock] late_bands = [[10.0, "late_10_min"], [5.0, "late_5_min"]]: allowed bands that rise from above 0 minutes'),
    ("the match's hour twice", "sanjiang-2012", ("clock", "round_s"), 5400,  # 规程 三 2: 每场比赛时间定为1小时 ([match] minutes)
     "clock.round_s = 5400.0: allowed 3600: [match] minutes (60) in seconds"),
    ("a Tractor round's cut", "zhongkai-2010", ("clock", "round_cut"), "undrawn",  # 000 通知 四 3: 赛完该盘牌结束当轮竞赛
     '[clock] round_cut = "undrawn": allowed "none" in tractor: its table plays out the hand in play at the end '
     '("undrawn": a Guandan book)'),
    ("a San Da Yi round's cut", "usst-2016", ("clock", "round_cut"), "undrawn",
     '[clock] round_cut = "undrawn": allowed "none" in sandayi: its table plays out the hand in play at the end '
     '("undrawn": a Guandan book)'),
    ("the notice", "classic-3deck", ("clock", "round_notice_s"), 6000,
     "[clock] round_notice_s = 6000.0: allowed 0 up to round_s (5400)"),
    ("warnings per", "classic-3deck", ("clock", "warnings_per"), "game", '[clock] warnings_per = "game": allowed "round" or "hand"'),
    ("an article", "classic-3deck", ("clock", "articles", "lateness"), "二",
     '[clock.articles] lateness: no such key; allowed "play", "return", "fouls", "late" or "round"'),
    ("a penalty entry", "classic-3deck", ("penalties", "revoke", "both_sides"), "yes",
     '[penalties.revoke] both_sides = "yes": allowed "replay"'),
    ("a climbing penalty entry", "sanjiang-2012", ("clock", "penalties", "late_over_5_min", "forfeit_round"), 1,
     "[clock.penalties.late_over_5_min] forfeit_round = 1: allowed true or false"),
    ("cards' points beside the console's fouls", "zhongkai-2010", ("penalties", "exposed_card", "card_points"), True,
     "[penalties] exposed_card card_points = true: allowed only for a [fouls] kind: signalling, revoke_corrected, "
     "extra_card_before_kitty"),
    ("cards' points in a climbing book", "sanjiang-2012", ("clock", "penalties", "late_over_5_min", "card_points"), True,
     "[clock.penalties] late_over_5_min card_points = true: allowed only in a Tractor book's [penalties]"),
]


@pytest.mark.parametrize("kind, book, path, bad, words", KINDS, ids=[k[0] for k in KINDS])
def test_a_wrong_value_of_each_kind_is_refused_when_the_book_loads(kind, book, path, bad, words):
    file = f"referee/rulebooks/{book}.toml"
    with pytest.raises(RulebookError) as refused:
        build(put(raw_of(book), path, bad), file)
    assert str(refused.value) == f"{file}: {words}"


def test_load_names_the_file_on_disk(tmp_path, monkeypatch):
    monkeypatch.setattr("referee.rulebooks.HERE", tmp_path)
    load.cache_clear()
    try:
        (tmp_path / "venue.toml").write_text((HERE / "classic-3deck.toml").read_text(encoding="utf-8")
                                             .replace('id = "classic-3deck"', 'id = "venue"').replace('"declared"', '"declare"'),
                                             encoding="utf-8")
        with pytest.raises(RulebookError, match=rf'^{tmp_path / "venue.toml"}: \[combos\] captive = "declare": allowed'):
            load("venue")
        (tmp_path / "broken.toml").write_text("id = ", encoding="utf-8")
        with pytest.raises(RulebookError, match="broken.toml: not TOML"):
            load("broken")
    finally:
        load.cache_clear()


# ---- over the whole schema: every setting of every book ----


@pytest.mark.parametrize("book, path, tables, t, f, present", [s for s in SETTINGS if s[-1]],
                         ids=[f"{s[0]}:{'.'.join(map(str, s[1]))}" for s in SETTINGS if s[-1]])
def test_every_setting_refuses_a_value_of_the_wrong_kind(book, path, tables, t, f, present):
    bad = wrong(t)
    with pytest.raises(RulebookError) as refused:
        build(put(raw_of(book), path, bad), book + ".toml")
    assert str(refused.value) == f"{book}.toml: {where(path, tables)} = {show(bad)}: allowed {describe(t)}"


def test_every_section_refuses_an_unknown_setting_and_a_missing_one():
    sections = 0
    for book in BOOKS:
        raw = raw_of(book)
        for path, tables, t, f, present in settings_of(SCHEMAS[raw["game"]], raw):
            if present and is_section(t):
                sections += 1
                with pytest.raises(RulebookError) as refused:
                    build(put(raw, path + ("colour",), "red"), book)
                has = ", ".join(k for k, *_ in fields(t))
                assert str(refused.value) == f'{book}: {where(path + ("colour",), len(path))} = "red": no such setting; [{".".join(path)}] has {has}'
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            if present and required and path != ("game",):
                with pytest.raises(RulebookError) as refused:
                    build(put(raw, path, drop=True), book)
                assert str(refused.value) == f"{book}: {where(path, tables)} is missing: allowed {describe(t)}"
    assert sections >= 40


TOML = st.recursive(
    st.booleans() | st.integers(-300, 300) | st.floats(allow_nan=False) | st.sampled_from(["", "2", "A", "BJ", "4x1", "partner", "unlimited"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["2", "S", "x", "one"]), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SETTINGS), TOML)
def test_any_value_anywhere_loads_typed_or_is_refused_in_words(setting, value):
    """Whatever a file holds at any setting, the book loads with that setting typed, or is refused as a
    RulebookError naming the file; never another error, never an untyped value."""
    book, path, tables, t, f, present = setting
    try:
        rules = build(put(raw_of(book), path, value), book + ".toml")
    except RulebookError as exc:
        assert str(exc).startswith(f"{book}.toml: ")
        return
    assert typed(rules, type(rules)), (path, value)


def typed(v: Any, t: Any) -> bool:
    """Is ``v`` a value of type ``t``, all the way down?"""
    origin, args = get_origin(t), get_args(t)
    if t is Any:
        return True
    if t in (bool, str, int, float):
        return type(v) is t
    if origin is Literal:
        return any(type(v) is type(a) and v == a for a in args)
    if origin is tuple:
        each = args[:1] * len(v) if len(args) == 2 and args[1] is Ellipsis else args
        return isinstance(v, tuple) and len(each) == len(v) and all(typed(x, a) for x, a in zip(v, each))
    if origin is Mapping:
        return isinstance(v, Mapping) and all(typed(k, args[0]) and typed(x, args[1]) for k, x in v.items())
    if origin is Union or type(t).__name__ == "UnionType":
        return any(typed(v, a) for a in args)
    if is_section(t):
        return isinstance(v, t) and all(typed(getattr(v, name), ft) for _, name, ft, _ in fields(t))
    return isinstance(v, t)


# ---- the README's tables are the schema's ----


def test_the_readme_tables_are_written_from_the_schema():
    text = readme.README.read_text(encoding="utf-8")
    assert readme.written(text) == text, "run python -m referee.rulebooks.readme"


def test_every_setting_of_every_schema_has_its_row():
    def sections(schema: type) -> set[type]:
        found = set()
        for *_, t, _ in fields(schema):
            for inner in (t, *get_args(t)):
                if is_section(inner) and inner not in found:
                    found |= {inner} | sections(inner)
        return found

    wanted = {(s, key) for s in set().union(*(sections(s) for s in SCHEMAS.values())) for key, _, t, _ in fields(s)
              if not is_section(t)}
    shown = [(readme.section(name), key) for name, keys in readme.marked(readme.README.read_text(encoding="utf-8"))
             for key in keys or [key for key, _, t, _ in fields(readme.section(name)) if not is_section(t)]]
    assert wanted <= set(shown) and len(shown) == len(set(shown)), sorted((s.__name__, k) for s, k in wanted - set(shown))


def test_a_changed_schema_is_a_changed_readme():
    text = readme.README.read_text(encoding="utf-8")
    doc = "`declared` the leader must declare the structure"
    assert doc in text and '"declared", "chosen_after" or "illegal"' in text
    assert readme.written(text.replace(doc, "something else")) == text


def test_typed_values_reach_the_engines():
    """The engines read typed values only: cards as cards, formats as pairs, places as numbers."""
    gd, sd, sg = load("sanjiang-2012"), load("usst-2016"), load("shaoguan-2023")
    assert gd.tribute.refuse_with is Card.parse("BJ") and dict(gd.levels.places) == {2: 3, 3: 2, 4: 1}
    assert gd.stages["two"].passes == "8" and sd.bomb_limits.pass_ == 1 and sd.scoring.base == "bid"
    assert sg.combos.outranks[0] == ((4, 1), (2, 2)) and (4, 2) in sg.follow.listed


def test_a_book_without_its_english_title_or_with_chinese_in_it_is_refused_in_words():
    """Every book has a title in English (the English console names it so, not by its id): left out, empty, or with
    Chinese in it, the book is refused when it loads, in words naming the file, the key, the value and what is allowed."""
    assert {load(b).title_en for b in BOOKS} >= {"Tractor competition rules (three decks)", "Sanjiang University staff Guandan rules (2012)"}
    raw = raw_of("classic-3deck")
    with pytest.raises(RulebookError, match=r"^classic-3deck\.toml: title_en is missing: allowed a string$"):
        build(put(raw, ("title_en",), drop=True), "classic-3deck.toml")
    for bad in ("扑克牌拖拉机竞赛规则（三副牌）", "Tractor rules (三副牌)", "Tractor rules（three decks）", " "):
        with pytest.raises(RulebookError) as refused:
            build(put(raw, ("title_en",), bad), "classic-3deck.toml")
        assert str(refused.value) == f"classic-3deck.toml: title_en = {show(bad)}: allowed words in English, no Chinese"


# ---- a book that extends another ----

def test_a_book_extends_another_with_only_what_it_changes():
    # 规程 三 2: 第二阶段：采取三局两胜制，每局过“8”即胜，但是“8”不必打 -- the stage-two book is sanjiang-2012's settings
    # with its match played under stage two
    one, two = load("sanjiang-2012"), load("sanjiang-2012-stage-two")
    assert (one.match.stage, two.match.stage) == ("one", "two")
    assert two.stages == one.stages and two.tribute == one.tribute and two.clock == one.clock and two.seed == one.seed
    assert two.title != one.title and two.title_en != one.title_en and two.id == "sanjiang-2012-stage-two"


def test_what_an_extending_book_may_not_be(tmp_path):
    (tmp_path / "base.toml").write_text((HERE / "sanjiang-2012.toml").read_text(encoding="utf-8").replace(
        'id = "sanjiang-2012"', 'id = "base"'), encoding="utf-8")

    def loaded(name: str, text: str):
        (tmp_path / f"{name}.toml").write_text(text, encoding="utf-8")
        return build(book_settings(name, folder=tmp_path), str(tmp_path / f"{name}.toml"))

    assert loaded("ok", 'id = "ok"\nextends = "base"\n[match]\nstage = "two"\n').match.stage == "two"
    with pytest.raises(RulebookError, match="unknown rulebook 'nowhere'; known: base, lost, ok"):
        loaded("lost", 'id = "lost"\nextends = "nowhere"\n')
    with pytest.raises(RulebookError, match="extends = \"a\": allowed the id of another rulebook that does not extend this one"):
        (tmp_path / "b.toml").write_text('id = "b"\nextends = "a"\n', encoding="utf-8")
        loaded("a", 'id = "a"\nextends = "b"\n')
    with pytest.raises(RulebookError, match="extends = 3: allowed the id of another rulebook"):
        loaded("num", 'id = "num"\nextends = 3\n')
    with pytest.raises(RulebookError, match='id = "base": allowed "noid", the file\'s name'):
        loaded("noid", 'extends = "base"\n')
    with pytest.raises(RulebookError, match='match.stage = "three": allowed one of the \\[stages\\]: one, two'):
        loaded("three", 'id = "three"\nextends = "base"\n[match]\nstage = "three"\n')


def test_a_file_nested_thousands_deep_is_refused_in_words_not_a_recursion_error(tmp_path):
    """An array nested 5,000 deep escaped as a bare RecursionError (tomllib reads by recursion), and a folder holding
    such a file broke every listing of the books; tables nested as deep read, then broke the refusal's own words."""
    deep = {"array": "x = " + "[" * 5000 + "]" * 5000, "inline": "x = " + "{a = " * 5000 + "1" + "}" * 5000,
            "tables": "[" + ".".join(["a"] * 5000) + "]\nk = 1"}
    for name, text in deep.items():
        (tmp_path / f"{name}.toml").write_text(f'id = "{name}"\ngame = "tractor"\n{text}\n', encoding="utf-8")
        with pytest.raises(RulebookError, match=f"{name}.toml: not a rulebook: arrays or tables nested more than 16 deep"):
            build(book_settings(name, folder=tmp_path), str(tmp_path / f"{name}.toml"))


#: What a rulebook's error may still say in English inside a Chinese one: words not the rulebooks' own (this list may
#: only shrink).
ENGLISH_ONLY = {"rulebook.error.not_toml": "{error}: tomllib's words (the line and column of what it could not read)",
                "rulebook.error.clock_pass": "{action}: the clock's action as the code names it (lead, follow, return)",
                "rulebook.allowed.parsed": "{name}: a class's name (no type the schemas use says it)"}


def test_every_error_of_a_rulebook_is_said_by_the_catalogue_in_either_language():
    """A venue technician writing a book read its errors in English inside a Chinese refusal: each error of
    ``referee/rulebooks`` is now a catalogue key and values (:mod:`referee.rulebooks.said`), none raised from a
    sentence written in the code; each key it names is in both catalogues."""
    import ast
    import re

    from referee.catalogue import entries

    keys, written = set(), []
    for path in sorted(HERE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                if isinstance(node.exc.args[0], (ast.Constant, ast.JoinedStr)) and ast.unparse(node.exc.func).endswith("Error"):
                    written.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
                name, first = node.func.id, node.args[0]
                text = lambda a: a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None  # noqa: E731
                if name == "check" and len(node.args) >= 4 and text(node.args[3]):
                    keys.add(f"rulebook.allowed.{text(node.args[3])}")
                elif name in ("fault", "_error") and text(first):
                    keys.add(f"rulebook.error.{text(first)}")
                elif name == "named" and len(node.args) == 2 and text(node.args[1]):
                    keys.add(f"rulebook.allowed.{text(node.args[1])}")
        code = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'"(rulebook\.(?:error|allowed)\.\w+)"', code))
        keys |= {f"rulebook.{'allowed' if a in ('_A', 'ALLOWED =') else 'error'}.{k}"  # _A + "int", _E + "missing"
                 for a, k in re.findall(r'(_A|_E|ALLOWED =) \+? ?"(\w+)"', code)}
    assert not written, f"raised from English written in the code: {written}"
    assert len(keys) > 60, sorted(keys)
    for lang in ("zh", "en"):
        assert keys <= entries(lang).keys(), sorted(keys - entries(lang).keys())
    said = {k for k in entries("en") if k.startswith(("rulebook.error.", "rulebook.allowed."))}
    assert said <= keys, sorted(said - keys)  # none left over
    assert set(ENGLISH_ONLY) <= said
