"""The rules' sources live in the project (issue 20 item 4): every rule citation under
``scorer/``, ``tests/``, ``static/`` and ``bench/`` (issue 35 item 1) points into docs/rules.md, by a
heading that exists, and none points at a file outside the repository (the research notes, the
user's seed files, ``../shared``)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"
SUFFIXES = {".py", ".html", ".yaml", ".cfg", ".txt", ".js", ".css", ".md", ".json", ".jsonl"}
SOURCES = sorted(p for p in (ROOT / "scorer").rglob("*") if p.suffix in {".py", ".html", ".yaml", ".cfg", ".txt"})
#: Everything a reader opens beside the code: the tests, the phone's files (not the vendored
#: libraries) and the bench. This file itself is left out: it spells the patterns it looks for.
BESIDE = sorted(
    p
    for top in ("tests", "static", "bench")
    for p in (ROOT / top).rglob("*")
    if p.suffix in SUFFIXES and "vendor" not in p.parts and p != Path(__file__).resolve()
)

#: What a citation of a file outside the repository looks like (``REFERENCE §8`` too: the notes' section 8).
OUTSIDE = re.compile(
    r"REFERENCE\.md|(?-i:REFERENCE) ?§|WORDING-REVIEW\.md|\bseeds? 0\d\d|\.\./shared|shared/(?:rules|seeds)",
    re.IGNORECASE,
)


def headings() -> list[str]:
    """The headings of docs/rules.md, longest first (so the longest one a citation starts with wins)."""
    found = [m.group(1).strip() for m in re.finditer(r"^#{1,4} (.+)$", RULES.read_text(encoding="utf-8"), re.M)]
    return sorted(found, key=len, reverse=True)


def citations(sources: list[Path] = SOURCES) -> list[tuple[str, int, str]]:
    """Every ``§...`` in ``sources`` (scorer/ unless told): (file, line, the text after the §).
    A § not followed by a word (a test's ``"§"`` string) is no citation."""
    found = []
    for path in sources:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for m in re.finditer(r"§(?=\w)([^§]*)", line):
                found.append((str(path.relative_to(ROOT)), number, m.group(1)))
    return found


def test_nothing_under_scorer_cites_a_file_outside_the_repository():
    """Nor under tests/, static/ (the vendored libraries aside) and bench/."""
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in SOURCES + BESIDE
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert offenders == []


def test_the_code_cites_the_rules_reference():
    assert len(citations()) >= 60  # the ~96 rule citations of issue 20, now in docs/rules.md sections


def test_every_citation_names_an_existing_heading():
    known = headings()
    unknown = [
        f"{path}:{number}: §{text}"
        for path, number, text in citations(SOURCES + BESIDE)
        if not any(text.startswith(h) and not text[len(h):len(h) + 1].isalnum() for h in known)
    ]
    assert unknown == []


def test_a_section_sign_is_always_a_rules_citation():
    """A ``§`` under scorer/ belongs to a ``docs/rules.md §`` citation in the same file."""
    files = {path for path, _n, _t in citations()}
    assert all("docs/rules.md §" in (ROOT / f).read_text(encoding="utf-8") for f in files)


@pytest.mark.parametrize(
    ("line", "outside"),
    [
        ("# REFERENCE.md 1.6", True),
        ('"""seed 000 "Pedir Envido"."""', True),
        ("see ../shared/rules", True),
        ("WORDING-REVIEW.md section 4a", True),
        ("(docs/rules.md §Falta Envido)", False),
        ("# REFERENCE §8 row 42", True),
        ("--reference PATH runs the same scenarios", False),
    ],
)
def test_the_outside_pattern_itself(line, outside):
    assert bool(OUTSIDE.search(line)) is outside


def test_the_heading_check_rejects_an_unknown_section():
    known = headings()
    assert any("Falta Envido".startswith(h) for h in known)
    assert not any("Falta Envidos".startswith(h) and not "Falta Envidos"[len(h):len(h) + 1].isalnum() for h in known)
