"""The operator docs come in pairs, Chinese first (``docs/X.zh.md``) and English beside it (``docs/X.md``): a venue's
technician reads the Chinese, so the two must say the same commands. The pair keeps its headings per level, its fenced
code blocks byte for byte and in order, and every inline code span of the English (each command, option, path,
message quoted) and every figure of the English prose; the Chinese is Chinese; each file points to the other on its
first line, and the README links the Chinese first.

Every document a person is told to follow (the README, ``docs/``, each package's README and the two protocols) names
only what is there: every ``cardtable`` command it shows (a code span or a code block's line) is a sub-command with
the options it gives, every option it gives a script of the repository (``bench/bench_table.py --hands N``) is the
script's, every path in the repository it names exists, every ``file.py``'s ``name`` it cites is in that file, and every
section it names after its file (`bus/PROTOCOL.md`, "Flags") opens there; so a command renamed, an option dropped, a
module moved or a section retitled fails here until its docs follow."""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from cardtable.cli import parser
from referee.judge import answer, matches

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAIRS = sorted(path.name.removesuffix(".zh.md") for path in DOCS.glob("*.zh.md"))
CJK = re.compile(r"[\u4e00-\u9fff]")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```$", re.S | re.M)
SPAN = re.compile(r"`([^`]+)`")
INDENTED = re.compile(r"(?:^|\n\n)((?: {4}\S.*(?:\n|$))+)")
FIGURE = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
IGNORED = {line.strip("/") for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()}
FOLLOWED = sorted({ROOT / "README.md", *DOCS.glob("*.md"), *ROOT.glob("*/README.md"), *ROOT.glob("referee/*/README.md"),
                   ROOT / "bus/PROTOCOL.md", ROOT / "firmware-bridge/PROTOCOL.md"})


def body(path: Path) -> str:
    """The file without its first line (the pointer to the other language)."""
    return path.read_text(encoding="utf-8").split("\n", 1)[1]


def prose(text: str) -> str:
    return FENCE.sub("", text)


def headings(text: str) -> list[int]:
    return [len(m.group(1)) for m in re.finditer(r"^(#+) ", prose(text), re.M)]


def spans(text: str) -> list[str]:
    """Inline code spans, a span broken over lines read as one line."""
    return [" ".join(s.split()) for s in SPAN.findall(prose(text))]


def figures(text: str) -> Counter:
    """The numbers of the prose (outside code), ``2,000`` read as ``2000``."""
    return Counter(n.replace(",", "") for n in FIGURE.findall(SPAN.sub("", prose(text))))


def links(text: str) -> list[str]:
    return [t for t in re.findall(r"\]\(([^)\s]+)\)", prose(text)) if not re.match(r"[a-z]+:", t)]


def as_chinese(reference: str) -> set[str]:
    """A reference as the Chinese may give it: itself, or the Chinese of a doc that has one."""
    m = re.fullmatch(r"(docs/)?(\w+)\.md", reference)
    return {reference, f"{m.group(1) or ''}{m.group(2)}.zh.md"} if m and m.group(2) in PAIRS else {reference}


def missing(en: str, zh: str) -> list[str]:
    """What of the English (an inline code span, a relative link) the Chinese lacks."""
    said = set(spans(zh)) | set(links(zh))
    return [ref for ref in spans(en) + links(en) if not as_chinese(ref) & said]


def test_there_are_pairs():
    assert {"deployment", "recovery"} <= set(PAIRS)


@pytest.mark.parametrize("name", PAIRS)
def test_each_file_points_to_the_other_first(name):
    en, zh = (DOCS / f"{name}.md").read_text(encoding="utf-8"), (DOCS / f"{name}.zh.md").read_text(encoding="utf-8")
    assert en.startswith("中文版：") and f"]({name}.zh.md)" in en.splitlines()[0]
    assert zh.startswith("English: ") and f"]({name}.md)" in zh.splitlines()[0]


@pytest.mark.parametrize("name", PAIRS)
def test_the_pair_says_the_same_commands(name):
    en, zh = body(DOCS / f"{name}.md"), body(DOCS / f"{name}.zh.md")
    assert headings(zh) == headings(en)
    assert FENCE.findall(zh) == FENCE.findall(en), "a code block differs: change it in both files"
    assert not missing(en, zh), f"the Chinese lacks these of the English: {missing(en, zh)}"
    assert not figures(en) - figures(zh), f"the Chinese lacks these figures of the English: {figures(en) - figures(zh)}"


@pytest.mark.parametrize("name", PAIRS)
def test_the_chinese_is_chinese(name):
    """Most lines with words outside code are Chinese (a table's row of figures has none; a line may be all code)."""
    lines = SPAN.sub("", prose(body(DOCS / f"{name}.zh.md"))).splitlines()
    worded = [line for line in lines if re.search(r"[A-Za-z\u4e00-\u9fff]", line)]
    english = [line for line in worded if not CJK.search(line)]
    assert worded and len(english) <= len(worded) // 10, english


def test_the_readme_links_the_chinese_first():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in PAIRS:
        for m in re.finditer(rf"\b{name}\.md", readme):
            assert f"{name}.zh.md" in readme[max(0, m.start() - 120):m.start()], readme[m.start() - 80:m.end()]


@functools.cache
def commands() -> tuple[dict, set]:
    """The ``cardtable`` command tree: each command's sub-commands and its options."""
    def tree(p: argparse.ArgumentParser) -> tuple[dict, set]:
        subs = {n: tree(sp) for a in p._actions if isinstance(a, argparse._SubParsersAction) for n, sp in a.choices.items()}
        return subs, {s for a in p._actions for s in a.option_strings}
    return tree(parser())


@functools.cache
def files() -> dict[str, list[Path]]:
    """The repository's files by name (not under a hidden folder nor one git ignores)."""
    named: dict[str, list[Path]] = {}
    for folder, subs, names in os.walk(ROOT):
        subs[:] = [d for d in subs if not d.startswith(".") and d not in IGNORED and not d.endswith(".egg-info")]
        for name in names:
            named.setdefault(name, []).append(Path(folder, name))
    return named


def shown(text: str) -> list[str]:
    """What a document shows as typed: each code block's lines (fenced, or indented four spaces after a blank line)
    and each inline code span."""
    indented = [line for block in INDENTED.findall(prose(text)) for line in block.splitlines()]
    return [line for block in FENCE.findall(text) for line in block.splitlines()] + indented + spans(text)


def scripts_unknown(line: str, doc: Path) -> list[str]:
    """The options a line gives a script of the repository (``bench/bench_table.py --hands N``, ``eval_vision.py
    --families 20``, its comment's ``options: --seed N`` too) that the script's source does not define."""
    wrong = []
    for m in re.finditer(r"([\w/.-]*?\w+\.py)\b((?:\s+(?!\S*\.py\b)[^\s|;&>]+)*)", line):
        found = [f for f in (ROOT / m.group(1), doc.parent / m.group(1)) if f.is_file()] or \
            files().get(Path(m.group(1)).name, [])
        if len(found) != 1 or "argparse" not in (source := found[0].read_text(encoding="utf-8")):
            continue  # not a script of ours, or one named in several places
        given = re.findall(r"(?<![\w-])(--[a-z][\w-]*)", m.group(2))
        if wrapped := re.search(r"parse_args\(\[((?:\"[\w-]+\", )+)\*sys\.argv", source):  # a cardtable command's
            command = "cardtable " + " ".join(re.findall(r"[\w-]+", wrapped.group(1)))
            wrong += [w.replace(command, m.group(1)) for w in unknown(f"{command} {' '.join(given)}", commands())]
        else:
            wrong += [f"{m.group(1)} {o}" for o in given if f'"{o}"' not in source and f"'{o}'" not in source]
    return wrong


@pytest.mark.parametrize("doc", FOLLOWED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_script_option_shown_is_one(doc):
    wrong = [w for line in shown(doc.read_text(encoding="utf-8")) for w in scripts_unknown(line, doc)]
    assert not wrong, f"{doc.name} gives scripts options they do not have: {wrong}"


def unknown(line: str, top: tuple[dict, set]) -> list[str]:
    """What a ``cardtable ...`` of the line names that the command line lacks: ``a|b`` are alternatives, each checked;
    the options up to the end of the command (a pipe, a comment, the next ``cardtable``)."""
    wrong = []
    for m in re.finditer(r"(?<![\w/.-])cardtable(?![\w/.-])", line):
        words, nodes, said = line[m.end():].split(), [top], ["cardtable"]
        while words and re.fullmatch(r"[a-z][a-z-]*(\|[a-z-]+)*", words[0]) and nodes[0][0]:
            alternatives = words[0].split("|")
            if not all(a in node[0] for node in nodes for a in alternatives):
                wrong.append(f"{' '.join(said)} {words[0]}")  # a word where a sub-command is due that is none
                words = []
                break
            nodes, said = [node[0][a] for node in nodes for a in alternatives], [*said, words.pop(0)]
        for word in words:
            if word in ("|", "||", "&&", ";") or word.startswith(("#", "cardtable", ".venv/bin/cardtable")):
                break
            option = re.match(r"--?[A-Za-z][\w-]*", word)
            wrong += [f"{' '.join(said)} {option.group()}" for node in nodes if option and option.group() not in node[1]]
    return wrong


@pytest.mark.parametrize("doc", FOLLOWED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_shown_is_one(doc):
    top = commands()
    wrong = [w for line in shown(doc.read_text(encoding="utf-8")) for w in unknown(line, top)]
    assert not wrong, f"{doc.name} shows commands the command line does not have: {wrong}"


def test_a_command_renamed_fails():
    top = commands()
    assert unknown("cardtable table run --db t07.db --accept-log", top) == []
    assert unknown(".venv/bin/cardtable vision read|watch --model m.onnx | head", top) == []
    assert unknown("cardtable table runs --db x", top) == ["cardtable table runs"]
    assert unknown("cardtable hall --tabels 3 # --nothing", top) == ["cardtable hall --tabels"]
    assert unknown("cardtable display serve|user --port 1", top) == ["cardtable display serve|user --port"]


def named_paths(doc: Path) -> list[str]:
    """The repository's paths a document names: words of its code whose first folder is one of the repository's
    top folders, or one beside the document; not a topic (``cardtable/v1/...``) nor what a build makes (``build/``)."""
    tops = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".") and p.name not in IGNORED}
    beside = {p.name for p in doc.parent.iterdir() if p.is_dir()} if doc.parent != ROOT else set()
    words = [w.strip("\"'(),;:").rstrip(".") for line in shown(doc.read_text(encoding="utf-8")) for w in line.split()]
    return [w for w in words if re.fullmatch(r"[\w.*-]+(/[\w.*{}-]+)+/?", w) and w.split("/")[0] in tops | beside
            and not re.match(r"cardtable/v\d", w) and "build" not in w.split("/")]


def there(doc: Path, path: str) -> bool:
    """The path is there, from the root or beside the document, as a file, a folder, a glob's match or a program
    built from ``PATH.c``."""
    return any(base.joinpath(path).exists() or base.joinpath(path + ".c").exists() or any(base.glob(path))
               for base in (ROOT, doc.parent) if "{" not in path)  # a {placeholder}: a family of paths


@pytest.mark.parametrize("doc", FOLLOWED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_named_is_there(doc):
    gone = sorted({p for p in named_paths(doc) if not there(doc, p)})
    assert not gone, f"{doc.name} names paths that are not there: {gone}"


@pytest.mark.parametrize("doc", FOLLOWED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_name_cited_in_a_file_is_in_it(doc):
    """``bridge/messages.py``'s ``MENDED``: the name is in that file (found from the root, beside the document, or
    as the end of one path of the repository)."""
    absent = []
    for m in re.finditer(r"`([\w/.-]+\.(?:py|js|h|c))`(?:'s|’s| 的)\s*`([\w.]+?)(?:\(\))?`", doc.read_text(encoding="utf-8")):
        path, name = m.groups()
        found = [f for f in (ROOT / path, doc.parent / path) if f.is_file()] or \
            [f for f in files().get(Path(path).name, []) if f.as_posix().endswith(f"/{path}")]
        if not any(re.search(rf"\b{re.escape(name.split('.')[-1])}\b", f.read_text(encoding="utf-8")) for f in found):
            absent.append(f"{path}: {name}")
    assert not absent, f"{doc.name} cites names their files do not have: {absent}"


SECTION = re.compile(r"`([\w/.-]+\.md)`[,:，：]?\s*[\"“]([^\"”]+)[\"”]")


def sections(path: Path) -> list[str]:
    """What a document's sections begin with: its headings, and the paragraphs and list items that open on their
    title (``**Reasons.** Where ...``, ``Is this our deck (`fingerprint.py`, pure). ...``), each on one line."""
    lines = [" ".join(line.split()) for line in prose(path.read_text(encoding="utf-8")).splitlines()]
    return [re.sub(r"^(#+ |- )?(\*\*)?", "", line) for line in lines if line]


def names_section(titles: list[str], title: str) -> bool:
    return any(re.match(re.escape(title) + r"(?![\w-])", line) for line in titles)


def sections_unknown(doc: Path) -> list[str]:
    """The sections a document names by their title after their file (`bus/PROTOCOL.md`, "Flags"; the Chinese with
    “…”) that the file has no heading, paragraph or list item opening with."""
    wrong = []
    for m in SECTION.finditer(prose(doc.read_text(encoding="utf-8"))):
        path, title = m.group(1), " ".join(m.group(2).split())
        found = [f for f in (ROOT / path, doc.parent / path) if f.is_file()]
        if found and not names_section(sections(found[0]), title):
            wrong.append(f"{path}: {title}")
    return wrong


@pytest.mark.parametrize("doc", FOLLOWED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_section_named_is_there(doc):
    wrong = sections_unknown(doc)
    assert not wrong, f"{doc.name} names sections their files do not have: {wrong}"


def test_a_section_renamed_fails():
    titles = sections(ROOT / "bus/PROTOCOL.md")
    assert names_section(titles, "Flags") and names_section(titles, "Reasons")
    assert not names_section(titles, "Flag") and not names_section(titles, "Banners and flags")


def judge_examples(doc: Path) -> list[tuple[dict, object]]:
    """The judge's cases a document shows with their answers: a ```json case with its ``expect``, and a line
    ``echo 'CASE' > FILE`` answered by a later ``judge FILE  # ANSWER``."""
    text = doc.read_text(encoding="utf-8")
    shown_cases = [json.loads(b) for b in re.findall(r"^```json\n(.*?)^```$", text, re.S | re.M)]
    examples = [(case, case["expect"]) for case in shown_cases if isinstance(case, dict) and "op" in case and "expect" in case]
    lines = shown(text)
    for i, line in enumerate(lines):
        if echoed := re.match(r"echo '(\{.*\})' > (\S+)", line):
            for later in lines[i + 1:]:
                if said := re.search(rf"judge {re.escape(echoed.group(2))}\s+#\s*(\{{.*\}})\s*$", later):
                    examples.append((json.loads(echoed.group(1)), json.loads(said.group(1))))
    return examples


@pytest.mark.parametrize("doc", FOLLOWED, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_judge_answers_as_shown(doc):
    for case, said in judge_examples(doc):
        out = answer(case)
        assert out == said if "id" in said else matches(said, out), (case["id"], out)


def test_the_readme_shows_the_judge_answering():
    assert judge_examples(ROOT / "README.md") and judge_examples(ROOT / "referee/rulebooks/README.md")
