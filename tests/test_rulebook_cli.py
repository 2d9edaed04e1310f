"""``cardtable rulebook list`` and ``show``: what a table will rule, told to the people who play by it, run as the real
command in Chinese and in English."""

from __future__ import annotations

import dataclasses
import inspect
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.catalogue import entries
from referee.rulebooks import HERE, SCHEMAS, names
from referee.rulebooks.settings import fields

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str], lang: str, cwd=ROOT) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_LANG"}
    return subprocess.run([sys.executable, "-m", "cardtable", "rulebook", *args, "--lang", lang], capture_output=True,
                          text=True, timeout=120, env=env, cwd=cwd)


def setting(out: str, key: str) -> list[str]:
    """The lines that tell ``key``: its own and the two below it (meaning, note)."""
    lines = out.splitlines()
    i = next(i for i, line in enumerate(lines) if line.strip().startswith((f"{key}：", f"{key}: ")))
    return [line.strip() for line in lines[i:i + 3]]


def test_list_names_every_book_with_its_game_title_and_seed():
    zh, en = run(["list"], "zh"), run(["list"], "en")
    assert zh.returncode == en.returncode == 0, zh.stderr + en.stderr
    assert len(zh.stdout.splitlines()) == len(en.stdout.splitlines()) == len(names()) == 7
    assert "classic-3deck　拖拉机　扑克牌拖拉机竞赛规则（三副牌）（规则原文 `001_914f2302ca4ec1b5.txt`）" in zh.stdout
    assert "usst-2016  San Da Yi  University of Shanghai for Science and Technology staff San Da Yi rules (2016)" in en.stdout


def test_list_says_a_book_that_will_not_load_as_an_error_line_and_lists_the_others(tmp_path):
    """A book that will not load was a line among the books on standard output: it is an error line on standard error,
    in the one form (``cardtable rulebook list：错误：…``); the others are listed, and the exit status says one failed."""
    shutil.copytree(ROOT / "referee", tmp_path / "referee", ignore=shutil.ignore_patterns("__pycache__"))
    books = tmp_path / "referee" / "rulebooks"
    bad = books / "classic-3deck-fast.toml"
    bad.write_text((books / "classic-3deck.toml").read_text(encoding="utf-8").replace("lead_s = 15", 'lead_s = "fast"'),
                   encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT), str(ROOT / "firmware-bridge")])}
    env.pop("CARDTABLE_LANG", None)
    for lang, said in (("zh", f'cardtable rulebook list：错误：规则文件有误，没有读出：{bad}：[clock] lead_s = "fast"：应为 数值'),
                       ("en", f'cardtable rulebook list: error: the rulebook file is wrong, not read: {bad}: [clock] lead_s = "fast": '
                              "allowed a number")):
        done = subprocess.run([sys.executable, "-m", "cardtable", "rulebook", "list", "--lang", lang], capture_output=True,
                              text=True, timeout=120, env=env, cwd=tmp_path)
        assert done.returncode == 1 and done.stderr == said + "\n", done.stderr
        assert len(done.stdout.splitlines()) == len(names()) == 7 and "classic-3deck-fast" not in done.stdout


def test_show_tells_classic_3decks_lead_clock_with_its_article():
    """Seed 001 二十三: 留底牌和首引不超过60秒，领出不超过15秒钟，跟牌、垫牌、将吃不超过10秒钟."""
    zh, en = run(["show", "classic-3deck"], "zh"), run(["show", "classic-3deck"], "en")
    assert zh.returncode == en.returncode == 0, zh.stderr + en.stderr
    assert zh.stdout.startswith("classic-3deck：扑克牌拖拉机竞赛规则（三副牌）\n游戏：拖拉机；规则原文：`shared/seeds/001_")
    assert setting(zh.stdout, "lead_s") == ["lead_s：15 秒", "含义：领出一圈的出牌时限；未写：同 `play_s`",
                                            "出处与说明：二十三: 留底牌和首引不超过 60 秒, 领出不超过 15 秒, 跟牌、垫牌、将吃不超过 10 秒"]
    assert setting(en.stdout, "lead_s") == ["lead_s: 15 s", "means: a play that leads a trick; left out: `play_s`",
                                            "article and note: 二十三: 留底牌和首引不超过 60 秒, 领出不超过 15 秒, 跟牌、垫牌、将吃不超过 10 秒"]
    # a setting the file leaves out is told with the value it then has; a table of entries entry by entry
    assert setting(zh.stdout, "play_s")[0] == "play_s：0 秒（文件未写，取默认值）"
    assert setting(en.stdout, "call_holds")[0] == "call_holds: no (not in the file: the default)"
    penalties = zh.stdout.split("\n[penalties]\n")[1]
    assert "  clock\n      出处与说明：二十三: 第一次警告, 以后每次扣 20 分\n    warnings：1\n        含义：警告几次之后" in penalties
    assert en.stdout.index("\n[deal]") < en.stdout.index("\n[clock]") < en.stdout.index("\n[penalties]")  # the file's order


def test_show_tells_usst_2016s_count_report_with_its_article():
    """Seed 004 三（一）1: 每位选手出牌后手中牌数在10张以内（含10张），需主动报牌一次; 3: 被询问者牌数在10张以内（含10张）
    必须准确回答."""
    zh, en = run(["show", "usst-2016"], "zh"), run(["show", "usst-2016"], "en")
    told_zh, told_en = setting(zh.stdout, "told_at"), setting(en.stdout, "told_at")
    assert told_zh[0] == "told_at：10" and told_zh[1].startswith("含义：剩牌数只在这么多张或更少时公开（报牌）")
    assert told_en[0] == "told_at: 10" and told_en[1].startswith("means: a seat's cards left are told only at this many")
    for line in (told_zh[2], told_en[2]):  # the comment broken over two lines is one sentence again
        assert "三(一)1: 每位选手出牌后手中牌数在10张以内（含10张），需主动报牌一次; 3: 被询问者牌数在10张以内（含10张）必须准确回答" in line
    assert setting(zh.stdout, "dealer")[0] == "dealer：`unlimited`" and setting(en.stdout, "joker_bomb")[0] == "joker_bomb: yes"


def test_a_book_that_extends_another_has_its_notes():
    """Seed 002 规程 三 2: 第二阶段：采取三局两胜制，每局过“8”即胜."""
    out = run(["show", "sanjiang-2012-stage-two"], "en").stdout
    assert "  two\n      article and note: 规程 三 2: 第二阶段：采取三局两胜制" in out
    assert setting(out, "stage")[0] == "stage: two"


@pytest.mark.parametrize("lang, said", [
    ("zh", "cardtable rulebook show：错误：没有规则“classic”；可用的规则：classic-3deck, sanjiang-2012, "),
    ("en", "cardtable rulebook show: error: unknown rulebook 'classic'; known: classic-3deck, sanjiang-2012, "),
])
def test_an_unknown_book_is_refused_naming_the_known_ones(lang, said):
    done = run(["show", "classic"], lang)
    assert done.returncode == 2 and not done.stdout and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith(said) and "usst-2016" in done.stderr


def test_a_damaged_book_file_says_what_is_wrong(tmp_path):
    book = tmp_path / "classic-3deck.toml"
    shutil.copy(HERE / "classic-3deck.toml", book)
    book.write_text(book.read_text(encoding="utf-8").replace("lead_s = 15", 'lead_s = "fast"'), encoding="utf-8")
    zh, en = run(["show", str(book)], "zh"), run(["show", str(book)], "en")
    assert zh.returncode == en.returncode == 2 and not zh.stdout and not en.stdout
    assert zh.stderr == f'cardtable rulebook show：错误：规则文件有误，没有读出：{book}：[clock] lead_s = "fast"：应为 数值\n'
    assert en.stderr == f'cardtable rulebook show: error: the rulebook file is wrong, not read: {book}: [clock] lead_s = "fast": allowed a number\n'
    shutil.copy(HERE / "classic-3deck.toml", book)  # the same file whole: told like the book it is
    assert setting(run(["show", str(book)], "en").stdout, "lead_s")[0] == "lead_s: 15 s"
    missing = run(["show", str(tmp_path / "nothere.toml")], "zh")
    assert missing.returncode == 2 and missing.stderr.splitlines()[-1].endswith(f"没有规则文件 {tmp_path / 'nothere.toml'}")


def test_a_book_being_written_elsewhere_may_extend_a_shipped_one(tmp_path):
    """The README's `show FILE.toml` checks a book being written, and a book that differs from another in a few
    settings names it with `extends`: one written in a folder of its own that extends `classic-3deck` was refused,
    "unknown rulebook 'classic-3deck'; known: venue" (the book it extends looked for beside it only)."""
    book = tmp_path / "venue.toml"
    book.write_text('id = "venue"\nextends = "classic-3deck"\ntitle = "本校规则"\ntitle_en = "Our rules"\n\n'
                    '[clock]\nlead_s = 20  # 本校：领出 20 秒\n', encoding="utf-8")
    done = run(["show", str(book)], "en")
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert setting(done.stdout, "lead_s") == ["lead_s: 20 s", "means: a play that leads a trick; left out: `play_s`",
                                              "article and note: 本校：领出 20 秒"]
    assert setting(done.stdout, "decks")[0] == "decks: 3" and setting(done.stdout, "decks")[2].startswith("article and note: 四")
    book.write_text('id = "venue"\nextends = "nowhere"\n', encoding="utf-8")
    assert "unknown rulebook 'nowhere'; known: venue" in run(["show", str(book)], "en").stderr

@pytest.mark.parametrize("lang, words", [("zh", ["用法：cardtable rulebook show", "规则的名称（见 `rulebook list`）"]),
                                         ("en", ["usage: cardtable rulebook show", "the rulebook's name (rulebook list)"])])
def test_help_in_either_language(lang, words):
    done = run(["show", "--help"], lang)
    assert done.returncode == 0 and all(w in done.stdout for w in words), done.stdout
    assert ("一本规则的每项设置" if lang == "zh" else "every setting of a rulebook") in run(["--help"], lang).stdout


def test_every_setting_has_its_meaning_in_chinese_and_none_is_left_over():
    """The Chinese of each setting's meaning (``setting.<module>.<class>.<key>``; the English is the schema's own):
    every setting a book can have has one, and the catalogue has none for a setting no schema has."""
    keys, seen = set(), set()

    def walk(section: type) -> None:
        if section in seen:
            return
        seen.add(section)
        for key, name, t, _ in fields(section):
            inner = [a for a in (t, *getattr(t, "__args__", ())) if dataclasses.is_dataclass(a) and not hasattr(a, "parse")]
            for a in inner:
                walk(a)
            if t not in inner:
                owner = next(c for c in section.__mro__ if name in inspect.get_annotations(c))
                keys.add(f"setting.{owner.__module__.rpartition('.')[2]}.{owner.__name__}.{key}")

    for schema in SCHEMAS.values():
        walk(schema)
    written = {k for k in entries("zh") if k.startswith("setting.")}
    assert len(keys) > 150 and keys == written, (sorted(keys - written), sorted(written - keys))


BROKEN = [  # (the book it extends, what the file says, the words of its error in Chinese)
    ("classic-3deck", "[deal]\nkitty = 8", "[deal] kitty = 8：应为 6：3 副牌发给 4 家各 39 张后余下的牌"),
    ("classic-3deck", "[deal]\nkitties = 8", "[deal] kitties = 8：没有这项设置；[deal] 有 decks, hand_size, kitty"),
    ("classic-3deck", "colour = 1", "colour = 1：没有这项设置；规则文件有 id, game, title"),
    ("classic-3deck", '[combos]\ncaptive = "declare"', '[combos] captive = "declare"：应为 "declared"、"chosen_after" 或 "illegal"'),
    ("classic-3deck", '[combos]\nthrows = "yes"', '[combos] throws = "yes"：应为 true 或 false'),
    ("classic-3deck", "[combos]\nwidths = [2, 5]", "[combos] widths[1] = 5：应为 2、3 或 4"),
    ("classic-3deck", "[levels]\ndefenders = 5", "[levels] defenders = 5：应为 列表，每项为 2 项的列表，每项为 整数"),
    ("classic-3deck", '[declare]\nwindow_s = 5\nwindow_article = ""', '[declare] window_article = ""：应为 所引的条文（已设 `window_s`）'),
    ("classic-3deck", '[follow.listed]\n4x2 = [["11223?44"]]', "不是点数（1、2..10 或 T、J、Q、K、A），也不是单张（* 或 +散牌）"),
    ("classic-3deck", '[penalties.failed_throw]\ncard_points = "no"', 'card_points = "no"：应为 true 或 false'),
    ("classic-3deck", 'title_en = "本校规则"', 'title_en = "本校规则"：应为 英文，不含中文'),
    ("sanjiang-2012", "[deal]\nkitty = 1", "[deal] kitty = 1：应为 0：2 副牌发给 4 家各 27 张后余下的牌"),
    ("sanjiang-2012", '[match]\nstage = "three"', 'match.stage = "three"：应为 `[stages]` 之一：one, two'),
    ("usst-2016", "[deal]\ntold_at = 0", "[deal] told_at = 0：应为 1 或更大：剩牌到这么多张时须报（报牌）"),
    (3, "", "extends = 3：应为 另一本规则的名称（它不能又扩展本规则）"),
    (None, 'game = "poker"', 'game = "poker"：应为 "tractor"、"guandan" 或 "sandayi"'),
    (None, 'game = "tractor"', "缺少 title：应为 字符串"),
    (None, "a = " + "[" * 20 + "]" * 20, "不是规则文件：数组或表嵌套超过 16 层"),
]


def schema_words() -> set[str]:
    """Every key a rulebook may hold (the names a book's errors quote)."""
    words: set[str] = set()
    todo, seen = list(SCHEMAS.values()), set()
    while todo:
        section = todo.pop()
        if section in seen:
            continue
        seen.add(section)
        for key, _, t, _ in fields(section):
            words.add(key)
            todo += [a for a in (t, *getattr(t, "__args__", ())) if dataclasses.is_dataclass(a)]
    return words


def test_a_broken_books_error_is_all_chinese_but_the_files_keys_and_values(tmp_path):
    """A venue's technician writing a book reads its errors in the command's language: in Chinese each error's frame
    (``KEY = VALUE：应为 ...``), what each type allows and each check's words, the keys and values of the file as it
    writes them; no English left (an error said in English inside a Chinese refusal was the fault). In English the
    same error as ever (tests/test_rulebooks.py compares them)."""
    names = schema_words()
    for base, body, words in BROKEN:
        book = tmp_path / "v.toml"
        head = 'id = "v"\n' + ("" if base is None else f"extends = {base!r}\n".replace("'", '"'))
        book.write_text(head + body + "\n", encoding="utf-8")
        zh = run(["show", str(book)], "zh")
        assert zh.returncode == 2 and not zh.stdout and words in zh.stderr, (body, zh.stderr)
        based = (HERE / f"{base}.toml").read_text(encoding="utf-8") if isinstance(base, str) else ""  # its stages' names
        said = re.sub(r'`[^`]*`|"[^"]*"', "", zh.stderr.replace(str(book), ""))
        english = {w for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", said) if len(w) >= 3} - names - set(re.findall(r"\w+", book.read_text(encoding="utf-8") + based))
        english -= {"cardtable", "rulebook", "show", "true", "false"}  # the command; TOML's own values
        assert not english, (body, zh.stderr, english)
    en = run(["show", str(book)], "en")
    assert en.stderr.endswith(f"{book}: not a rulebook: arrays or tables nested more than 16 deep\n"), en.stderr
