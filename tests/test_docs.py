"""The operator docs come in pairs, Chinese first (``docs/X.zh.md``) and English beside it (``docs/X.md``): a venue's
technician reads the Chinese, so the two must say the same commands. The pair keeps its headings per level, its fenced
code blocks byte for byte and in order, and every inline code span of the English (each command, option, path,
message quoted); the Chinese is Chinese; each file points to the other on its first line, and the README links the
Chinese first."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAIRS = sorted(path.name.removesuffix(".zh.md") for path in DOCS.glob("*.zh.md"))
CJK = re.compile(r"[\u4e00-\u9fff]")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```$", re.S | re.M)
SPAN = re.compile(r"`([^`]+)`")


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
