"""The project's documents as the tests read them: README.md and the files under docs/, by heading.

README.md holds what the table and the installer need (the install and test commands); the rest
moved to docs/*.md (issue 21). Tests that run a documented command find its section here by its
heading, wherever it lives, so a section that moves between files keeps its test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: Every Markdown document of the project: README.md first, then docs/*.md by name.
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^(```|~~~)")
_HEADING = re.compile(r"^(#{1,6}) +(.+?) *#*$")


def headings(text: str) -> list[tuple[int, int, str]]:
    """``(line index, level, title)`` of every Markdown heading of ``text``, outside fenced code
    blocks (a shell comment in a ``sh`` block is not a heading)."""
    found, fenced = [], False
    for number, line in enumerate(text.split("\n")):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            found.append((number, len(m.group(1)), m.group(2)))
    return found


def section(title: str, documents: list[Path] | None = None) -> str:
    """The text under the one heading whose title starts with ``title`` in ``documents`` (default:
    all of them), up to the next heading of the same or a higher level. Raises AssertionError
    when no heading or more than one starts with it, so a renamed or doubled section fails the
    test that reads it instead of silently reading another."""
    found = []
    for path in documents or DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        marks = headings(text)
        for i, (number, level, name) in enumerate(marks):
            if name.startswith(title):
                end = next((n for n, lv, _ in marks[i + 1:] if lv <= level), len(lines))
                found.append("\n".join(lines[number + 1:end]))
    assert len(found) == 1, f"{len(found)} sections start with {title!r}"
    return found[0]


def slug(title: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped (word characters, spaces and
    hyphens stay), spaces made hyphens ("Run the tests (fresh machine)" -> "run-the-tests-fresh-machine")."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor a link may name in ``path``: its headings' slugs, a repeated one as GitHub
    numbers it (``-1``, ``-2``...)."""
    seen: dict[str, int] = {}
    out = set()
    for _n, _level, title in headings(path.read_text(encoding="utf-8")):
        base = slug(re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", title))
        count = seen.get(base, 0)
        out.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return out
